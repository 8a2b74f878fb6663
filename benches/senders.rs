//! Sender recovery for whole blocks of alloy transactions: asmcrypto's
//! `recover_signers_unchecked` against the per-transaction way reth uses (alloy's
//! `recover_signer_unchecked` on each transaction, libsecp256k1 backend), on 4,096 real
//! transactions of every type (the bundled ones, cycled), on a one-thread and a two-thread
//! rayon pool, in one criterion group. Then the first result of a 64-transaction block,
//! and inputs of 1 to 7 transactions.
//!
//! `cargo bench --bench senders --features alloy,parallel`; `ASMCRYPTO_BACKEND=scalar` for the
//! path of CPUs without AVX-512.

use std::hint::black_box;
use std::time::Duration;

use alloy_consensus::TxEnvelope;
use asmcrypto::adapters::alloy::recover_signers_unchecked;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;

use asmcrypto_testkit::alloy::{alloy_signer as libsecp256k1, decode_all};
use asmcrypto_testkit::samples::all_real_txs;

/// The per-transaction way, each transaction on its own (serially, or over the pool).
fn per_tx(txs: &[TxEnvelope]) -> Vec<Option<alloy_primitives::Address>> {
    txs.iter().map(|t| libsecp256k1(t, false).ok()).collect()
}

fn per_tx_par(txs: &[TxEnvelope]) -> Vec<Option<alloy_primitives::Address>> {
    txs.par_iter()
        .map(|t| libsecp256k1(t, false).ok())
        .collect()
}

fn ours(txs: &[TxEnvelope]) -> Vec<Option<alloy_primitives::Address>> {
    recover_signers_unchecked(txs)
        .into_iter()
        .map(Result::ok)
        .collect()
}

fn bench(c: &mut Criterion) {
    println!("asmcrypto backend: {}", asmcrypto::backend());
    let real = decode_all(&all_real_txs());
    let txs: Vec<TxEnvelope> = real
        .iter()
        .cycle()
        .take(4096)
        .map(|d| d.tx.clone())
        .collect();
    let want: Vec<_> = real
        .iter()
        .cycle()
        .take(4096)
        .map(|d| Some(d.sender))
        .collect();
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .map(|n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .expect("a rayon pool")
        })
        .into();
    for pool in &pools {
        assert_eq!(pool.install(|| ours(&txs)), want);
        assert_eq!(pool.install(|| per_tx_par(&txs)), want);
    }

    let mut g = c.benchmark_group("senders4096");
    g.measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(2))
        .sample_size(20);
    g.throughput(Throughput::Elements(txs.len() as u64));
    for (threads, pool) in [1, 2].iter().zip(&pools) {
        g.bench_function(
            format!("asmcrypto recover_signers_unchecked, {threads} thread(s)"),
            |b| b.iter(|| pool.install(|| black_box(ours(black_box(&txs))))),
        );
        g.bench_function(
            format!("per transaction, libsecp256k1, {threads} thread(s)"),
            |b| {
                if *threads == 1 {
                    b.iter(|| black_box(per_tx(black_box(&txs))))
                } else {
                    b.iter(|| pool.install(|| black_box(per_tx_par(black_box(&txs)))))
                }
            },
        );
    }
    g.finish();

    // reth streams recovered transactions into execution as they come: the first result of
    // a 64-transaction block is the whole batch for asmcrypto, one recovery the other way.
    let block = &txs[..64];
    let mut g = c.benchmark_group("first_result_of_64");
    g.measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("asmcrypto recover_signers_unchecked(64)", |b| {
        b.iter(|| pools[0].install(|| black_box(ours(black_box(block)))))
    });
    g.bench_function("asmcrypto recover_signers_unchecked(first 8)", |b| {
        b.iter(|| pools[0].install(|| black_box(ours(black_box(&block[..8])))))
    });
    g.bench_function("per transaction, libsecp256k1, first one", |b| {
        b.iter(|| black_box(libsecp256k1(black_box(&block[0]), false).ok()))
    });
    g.finish();

    // Small inputs must not lose to the per-transaction way.
    for n in 1..=7 {
        let small = &txs[64..64 + n];
        let mut g = c.benchmark_group(format!("small{n}"));
        g.measurement_time(Duration::from_secs(2))
            .warm_up_time(Duration::from_millis(500));
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function("asmcrypto recover_signers_unchecked", |b| {
            b.iter(|| black_box(ours(black_box(small))))
        });
        g.bench_function("per transaction, libsecp256k1", |b| {
            b.iter(|| black_box(per_tx(black_box(small))))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
