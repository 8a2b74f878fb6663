//! The hosts' own ways against asmcrypto's batch, on real transactions:
//!
//! - **reth's blocks**: the bundled blocks (40 from ethereum/tests and the 121-transaction BSC
//!   block, cycled to 4,098 transactions in 399 sealed blocks), turned into `RecoveredBlock`s
//!   by asmcrypto's `recover_blocks_unchecked` (all blocks in one batch) and
//!   `recover_block_unchecked` (block by block) against reth-primitives-traits'
//!   `SealedBlock::try_recover_unchecked` block by block (alloy's per-transaction recovery
//!   with libsecp256k1, as reth builds alloy);
//! - **OP-stack transactions**: the bundled real transactions OP chains carry (every type but
//!   EIP-4844) as `OpTxEnvelope`s with one deposit in 32, cycled to 4,096, through
//!   `recover_signers_unchecked` against op-alloy's `recover_signer_unchecked` per
//!   transaction.
//!
//! One thread unless the row says otherwise (rows on two threads compare with the hosts'
//! way spread over the same two-thread pool). First an interleaved best-of table of the
//! ratios (every way once per round, so that machine noise hits them alike), then the
//! criterion groups.
//!
//! `cargo bench --bench hosts --features reth,op,parallel`; `ASMCRYPTO_BACKEND=scalar` for the
//! path of CPUs without AVX-512.

use std::hint::black_box;
use std::time::{Duration, Instant};

use alloy_consensus::transaction::SignerRecoverable;
use alloy_primitives::Address;
use asmcrypto::adapters::alloy::recover_signers_unchecked;
use asmcrypto::adapters::reth::{recover_block_unchecked, recover_blocks_unchecked};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use op_alloy_consensus::OpTxEnvelope;
use rayon::prelude::*;
use reth_primitives_traits::SealedBlock;

use asmcrypto_testkit::SplitMix64;
use asmcrypto_testkit::op::{random_deposit, real_op_txs};
use asmcrypto_testkit::reth::{EthBlock, bundled_blocks, seal};
use asmcrypto_testkit::samples::all_real_txs;

type Blocks = Vec<SealedBlock<EthBlock>>;
/// A way of recovering the blocks: the number that recovered.
type BlockWay = fn(Blocks) -> usize;
/// A way of recovering the OP transactions.
type OpWay = fn(&[OpTxEnvelope]) -> Vec<Option<Address>>;

/// The bundled blocks, cycled (renumbered) until they hold at least 4,096 transactions.
fn blocks_4096() -> Blocks {
    let bundled = bundled_blocks();
    let mut out = Vec::new();
    let mut txs = 0;
    for b in bundled.iter().cycle() {
        if txs >= 4096 {
            break;
        }
        txs += b.body().transactions.len();
        out.push(seal(out.len() as u64, b.body().transactions.clone()));
    }
    out
}

/// The real OP-stack transactions, one deposit in 32, cycled to 4,096.
fn op_4096() -> Vec<OpTxEnvelope> {
    let mut rng = SplitMix64(0x0B);
    let real = real_op_txs(&all_real_txs());
    real.iter()
        .cycle()
        .enumerate()
        .map(|(i, (tx, _))| {
            if i % 32 == 0 {
                random_deposit(&mut rng)
            } else {
                tx.clone()
            }
        })
        .take(4096)
        .collect()
}

fn ours_blocks(blocks: Blocks) -> usize {
    recover_blocks_unchecked(blocks)
        .iter()
        .filter(|r| r.is_ok())
        .count()
}

fn ours_block_by_block(blocks: Blocks) -> usize {
    blocks
        .into_iter()
        .map(recover_block_unchecked)
        .filter(Result::is_ok)
        .count()
}

fn reth_block_by_block(blocks: Blocks) -> usize {
    blocks
        .into_iter()
        .map(SealedBlock::try_recover_unchecked)
        .filter(Result::is_ok)
        .count()
}

fn reth_par(blocks: Blocks) -> usize {
    blocks
        .into_par_iter()
        .map(SealedBlock::try_recover_unchecked)
        .filter(Result::is_ok)
        .count()
}

fn ours_op(txs: &[OpTxEnvelope]) -> Vec<Option<Address>> {
    recover_signers_unchecked(txs)
        .into_iter()
        .map(Result::ok)
        .collect()
}

fn op_alloy(txs: &[OpTxEnvelope]) -> Vec<Option<Address>> {
    txs.iter()
        .map(|t| t.recover_signer_unchecked().ok())
        .collect()
}

fn op_alloy_par(txs: &[OpTxEnvelope]) -> Vec<Option<Address>> {
    txs.par_iter()
        .map(|t| t.recover_signer_unchecked().ok())
        .collect()
}

/// One timed run of a way that consumes its blocks (the clone is made before the clock
/// starts; every way drops its `RecoveredBlock`s inside it, as it goes or at the end).
fn timed_blocks(blocks: &Blocks, f: impl Fn(Blocks) -> usize) -> f64 {
    let input = blocks.clone();
    let start = Instant::now();
    black_box(f(black_box(input)));
    start.elapsed().as_secs_f64()
}

fn timed(f: impl Fn() -> Vec<Option<Address>>) -> f64 {
    let start = Instant::now();
    let out = black_box(f());
    let t = start.elapsed().as_secs_f64();
    drop(out);
    t
}

fn bench(c: &mut Criterion) {
    println!("asmcrypto backend: {}", asmcrypto::backend());
    let blocks = blocks_4096();
    let block_txs: usize = blocks.iter().map(|b| b.body().transactions.len()).sum();
    let op = op_4096();
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .map(|n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .expect("a rayon pool")
        })
        .into();
    let (one, two) = (&pools[0], &pools[1]);

    // Every way gives the host's answers before anything is timed.
    for pool in &pools {
        let want: Vec<_> = blocks
            .iter()
            .map(|b| b.clone().try_recover_unchecked().expect("a valid block"))
            .collect();
        let got = pool.install(|| recover_blocks_unchecked(blocks.clone()));
        for (g, w) in got.into_iter().zip(&want) {
            assert!(g.expect("a valid block") == *w);
        }
        assert_eq!(pool.install(|| ours_op(&op)), op_alloy(&op));
    }
    assert!(op_alloy(&op).iter().all(Option::is_some));

    // Interleaved best-of rounds: [ours all, ours per block, reth per block, ours 2t, reth 2t,
    // op ours, op-alloy, op ours 2t, op-alloy 2t].
    let rounds = 12;
    let mut t = [f64::INFINITY; 9];
    for _ in 0..rounds {
        let r = [
            one.install(|| timed_blocks(&blocks, ours_blocks)),
            one.install(|| timed_blocks(&blocks, ours_block_by_block)),
            one.install(|| timed_blocks(&blocks, reth_block_by_block)),
            two.install(|| timed_blocks(&blocks, ours_blocks)),
            two.install(|| timed_blocks(&blocks, reth_par)),
            one.install(|| timed(|| ours_op(&op))),
            one.install(|| timed(|| op_alloy(&op))),
            two.install(|| timed(|| ours_op(&op))),
            two.install(|| timed(|| op_alloy_par(&op))),
        ];
        for (ti, ri) in t.iter_mut().zip(r) {
            *ti = ti.min(ri);
        }
    }
    println!(
        "\n{} blocks, {block_txs} transactions; {} OP transactions; best of {rounds} interleaved rounds",
        blocks.len(),
        op.len()
    );
    println!(
        "{:<58} {:>7} {:>9} {:>10}",
        "way", "threads", "µs / tx", "vs host"
    );
    let rows: [(&str, usize, usize, usize, usize); 9] = [
        (
            "asmcrypto recover_blocks_unchecked (one batch)",
            1,
            0,
            2,
            block_txs,
        ),
        (
            "asmcrypto recover_block_unchecked, block by block",
            1,
            1,
            2,
            block_txs,
        ),
        (
            "reth SealedBlock::try_recover_unchecked, block by block",
            1,
            2,
            2,
            block_txs,
        ),
        (
            "asmcrypto recover_blocks_unchecked (one batch)",
            2,
            3,
            4,
            block_txs,
        ),
        (
            "reth try_recover_unchecked, blocks over par_iter",
            2,
            4,
            4,
            block_txs,
        ),
        (
            "asmcrypto recover_signers_unchecked(&[OpTxEnvelope])",
            1,
            5,
            6,
            op.len(),
        ),
        (
            "op-alloy recover_signer_unchecked, per transaction",
            1,
            6,
            6,
            op.len(),
        ),
        (
            "asmcrypto recover_signers_unchecked(&[OpTxEnvelope])",
            2,
            7,
            8,
            op.len(),
        ),
        (
            "op-alloy recover_signer_unchecked, par_iter",
            2,
            8,
            8,
            op.len(),
        ),
    ];
    for (name, threads, i, host, n) in rows {
        println!(
            "{name:<58} {threads:>7} {:>9.2} {:>9.3}x",
            t[i] * 1e6 / n as f64,
            t[i] / t[host]
        );
    }
    println!();

    let mut g = c.benchmark_group("reth_blocks_4096");
    g.measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(2))
        .sample_size(20)
        .throughput(Throughput::Elements(block_txs as u64));
    let ways: [(&str, &rayon::ThreadPool, BlockWay); 5] = [
        (
            "asmcrypto recover_blocks_unchecked, 1 thread",
            one,
            ours_blocks,
        ),
        (
            "asmcrypto recover_block_unchecked block by block, 1 thread",
            one,
            ours_block_by_block,
        ),
        (
            "reth try_recover_unchecked block by block, 1 thread",
            one,
            reth_block_by_block,
        ),
        (
            "asmcrypto recover_blocks_unchecked, 2 threads",
            two,
            ours_blocks,
        ),
        (
            "reth try_recover_unchecked par_iter, 2 threads",
            two,
            reth_par,
        ),
    ];
    for (name, pool, f) in ways {
        g.bench_function(name, |b| {
            b.iter_batched(
                || blocks.clone(),
                |input| pool.install(|| f(input)),
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();

    let mut g = c.benchmark_group("op_4096");
    g.measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(2))
        .sample_size(20)
        .throughput(Throughput::Elements(op.len() as u64));
    let ways: [(&str, &rayon::ThreadPool, OpWay); 4] = [
        (
            "asmcrypto recover_signers_unchecked, 1 thread",
            one,
            ours_op,
        ),
        ("op-alloy recover_signer_unchecked, 1 thread", one, op_alloy),
        (
            "asmcrypto recover_signers_unchecked, 2 threads",
            two,
            ours_op,
        ),
        (
            "op-alloy recover_signer_unchecked par_iter, 2 threads",
            two,
            op_alloy_par,
        ),
    ];
    for (name, pool, f) in ways {
        g.bench_function(name, |b| {
            b.iter(|| pool.install(|| black_box(f(black_box(&op)))))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
