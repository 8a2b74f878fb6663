//! The main job, on the bundled real data (`tests/data/`):
//!
//! 1. **Blocks.** Decode every bundled signed transaction (300 single ones of types 0–4,
//!    40 block bodies from ethereum/tests, a 121-transaction BNB Smart Chain block) with
//!    alloy, recover every sender with asmcrypto's `recover_signers` and
//!    `recover_signers_unchecked`, check each against the published sender and against
//!    alloy's own per-transaction recovery (libsecp256k1, as reth builds alloy, and k256,
//!    alloy's default backend), then time them: all the blocks, then the 121-transaction
//!    BSC block on its own, each block in one call: transactions per second and the ratio.
//! 2. **Signatures.** The 147 bundled signing tuples (hash, r, s, recid) through
//!    `recover_address` and `recover_addresses` against libsecp256k1 and k256: µs per
//!    recovery and the ratios.
//!
//! Every row states its code path (asmcrypto's batch path, `asmcrypto::backend()`:
//! `avx512-ifma`, `avx512f` or `scalar`, set with `ASMCRYPTO_BACKEND`; `single` for its
//! one-signature path) and its threads: one-thread rows are divided by libsecp256k1 on one
//! thread, rows on the pool (a rayon pool of one thread per CPU) by libsecp256k1 spread
//! over the same pool (`par_iter`).
//!
//! Run with `cargo run --release --features alloy,parallel --example compare`.

use std::hint::black_box;
use std::time::Instant;

use asmcrypto_testkit::Signed as Sample;
use asmcrypto_testkit::oracle::{k256_address as k256, libsecp256k1_address as libsecp256k1};
use asmcrypto_testkit::samples::{self, tx_senders};

/// Best of `rounds` passes over all samples, in µs per recovery.
fn time(samples: &[Sample], rounds: usize, f: impl Fn(&Sample) -> Option<[u8; 20]>) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let start = Instant::now();
        for s in samples {
            black_box(f(black_box(s)));
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e6 / samples.len() as f64);
    }
    best
}

/// A one-thread rayon pool and one of a thread per CPU.
struct Pools {
    one: rayon::ThreadPool,
    all: rayon::ThreadPool,
    threads: usize,
}

fn main() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pool = |n: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap_or_else(|e| fail(format!("rayon pool: {e}")))
    };
    let pools = Pools {
        one: pool(1),
        all: pool(threads),
        threads,
    };
    println!("asmcrypto: {}", asmcrypto::backend_details());
    println!();
    blocks(&pools);
    println!();
    signatures(&pools);
}

/// A way to time: its name, its threads (1, or the pool's), the index of the row it is
/// divided by, and one timed run (seconds).
struct Way<'a> {
    name: String,
    /// The code path the row runs on: asmcrypto's batch path (`asmcrypto::backend()`),
    /// "single" for its one-signature path, "-" for the other libraries.
    path: &'static str,
    threads: usize,
    reference: usize,
    run: Box<dyn Fn() -> f64 + 'a>,
}

/// Best time of every way over `rounds` rounds, each round running every way once
/// (interleaved, so that machine noise hits them alike).
fn interleaved(ways: &[Way], rounds: usize) -> Vec<f64> {
    let mut t = vec![f64::INFINITY; ways.len()];
    for _ in 0..rounds {
        for (ti, w) in t.iter_mut().zip(ways) {
            *ti = ti.min((w.run)());
        }
    }
    t
}

/// The table of `ways` by their best times `t`, with `per(ti)` as the figure column
/// (`decimals` after the point).
fn table(ways: &[Way], t: &[f64], unit: &str, decimals: usize, per: impl Fn(f64) -> f64) {
    println!(
        "{:<50} {:<11} {:>7} {:>14} {:>17}",
        "way", "path", "threads", unit, "vs libsecp256k1"
    );
    for (w, &ti) in ways.iter().zip(t) {
        println!(
            "{:<50} {:<11} {:>7} {:>14.decimals$} {:>16.3}x",
            w.name,
            w.path,
            w.threads,
            per(ti),
            ti / t[w.reference]
        );
    }
}

// ---------------------------------------------------------------------------------------
// 1. Blocks of alloy transactions.
// ---------------------------------------------------------------------------------------

use alloy_consensus::TxEnvelope;
use alloy_consensus::crypto::RecoveryError;
use asmcrypto::adapters::alloy::{recover_signers, recover_signers_unchecked};
use asmcrypto_testkit::alloy as support;
use rayon::prelude::*;

fn fail(msg: String) -> ! {
    eprintln!("{msg}");
    std::process::exit(1)
}

/// Checks asmcrypto's batch calls on every bundled transaction against the published
/// senders and alloy's two backends.
fn check_transactions(all: &[samples::RealTx]) {
    let decoded = support::decode_all(all);
    let txs: Vec<TxEnvelope> = decoded.iter().map(|d| d.tx.clone()).collect();
    let checked = recover_signers(&txs);
    let unchecked = recover_signers_unchecked(&txs);
    let mut refused = 0;
    for (i, d) in decoded.iter().enumerate() {
        let expect = |low_s: bool| (!(low_s && d.real.high_s)).then_some(d.sender);
        for (low_s, got) in [(true, &checked[i]), (false, &unchecked[i])] {
            let got = got.as_ref().ok().copied();
            let libsecp = support::alloy_signer(&d.tx, low_s).ok();
            let k256 = support::k256_signer(&d.tx, low_s);
            if got != expect(low_s) || got != libsecp || got != k256 {
                fail(format!(
                    "transaction {i} (low_s = {low_s}): asmcrypto {got:?}, published {:?}, \
                     alloy+libsecp256k1 {libsecp:?}, alloy+k256 {k256:?}",
                    expect(low_s)
                ));
            }
        }
        refused += usize::from(checked[i].is_err());
    }
    println!(
        "{} of {} bundled transactions decode with alloy (alloy refuses {} test vectors whose \
         fields overflow its types);",
        decoded.len(),
        all.len(),
        all.len() - decoded.len()
    );
    println!(
        "for all {}, asmcrypto's recover_signers_unchecked gives the published sender, as \
         alloy does with libsecp256k1 and with k256;",
        decoded.len()
    );
    println!(
        "recover_signers (EIP-2) refuses exactly the {refused} high-s ones, as alloy's recover_signer does."
    );
}

/// Best time in seconds of `rounds` runs of `f`.
fn best(rounds: usize, mut f: impl FnMut()) -> f64 {
    (0..rounds)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn blocks(pools: &Pools) {
    check_transactions(&samples::all_real_txs());

    // The blocks: 40 from ethereum/tests and the BSC block, 433 transactions, all valid.
    let mut blocks: Vec<Vec<TxEnvelope>> = samples::blocks()
        .iter()
        .chain([&samples::bsc_block()])
        .map(|b| {
            support::decode_all(&b.txs)
                .into_iter()
                .map(|d| d.tx)
                .collect()
        })
        .collect();
    blocks.retain(|b| !b.is_empty());
    let txs: Vec<TxEnvelope> = blocks.iter().flatten().cloned().collect();
    let bsc: &[TxEnvelope] = blocks.last().expect("the BSC block");
    assert_eq!(bsc.len(), 121, "the BSC block comes last");

    let block_refs: Vec<&[TxEnvelope]> = blocks.iter().map(Vec::as_slice).collect();
    let all_blocks = block_ways("block by block", &block_refs, Some(&txs), pools);
    let t = interleaved(&all_blocks, 15);
    println!();
    println!(
        "{} blocks, {} transactions, recovered with the EIP-2 check (asmcrypto backend: {})",
        blocks.len(),
        txs.len(),
        asmcrypto::backend()
    );
    table(&all_blocks, &t, "tx/s", 0, |ti| txs.len() as f64 / ti);

    let bsc_list = [bsc];
    let bsc_ways = block_ways("the block in one call", &bsc_list, None, pools);
    let t = interleaved(&bsc_ways, 40);
    println!();
    println!(
        "BNB Smart Chain block 19,410,658 alone: {} transactions",
        bsc.len()
    );
    table(&bsc_ways, &t, "tx/s", 0, |ti| bsc.len() as f64 / ti);
    println!(
        "(best of 30 and 80 passes each, interleaved. \"threads\" is the size of the rayon pool \
         the way ran in,\n asmcrypto splits one call over the pool only when it holds two \
         chunks (2 × 64 signatures), so shorter calls run on one\n \
         thread of it. Ratios are against libsecp256k1 per transaction on the same threads.)"
    );
}

/// asmcrypto's batch call on one block, with the EIP-2 check.
fn batch(b: &[TxEnvelope]) -> Vec<Result<alloy_primitives::Address, RecoveryError>> {
    black_box(recover_signers(black_box(b)))
}

/// The ways of recovering `blocks` with the EIP-2 check, on one thread and then on the pool:
/// asmcrypto with each block in one call, then (given `all_in_one`, the blocks' transactions
/// together) with all of them in one call, then per transaction with libsecp256k1 (the
/// reference of the rows on the same threads) and with k256.
fn block_ways<'a>(
    list: &str,
    blocks: &'a [&'a [TxEnvelope]],
    all_in_one: Option<&'a [TxEnvelope]>,
    pools: &'a Pools,
) -> Vec<Way<'a>> {
    let flat: Vec<&'a TxEnvelope> = blocks.iter().copied().flatten().collect();
    let mut ways = Vec::new();
    for (pool, threads) in [(&pools.one, 1), (&pools.all, pools.threads)] {
        let flat = flat.clone();
        let reference = ways.len() + 1 + usize::from(all_in_one.is_some());
        let mut way = |name: String, path: &'static str, run: Box<dyn Fn() -> f64 + 'a>| {
            ways.push(Way {
                name,
                path,
                threads,
                reference,
                run,
            })
        };
        way(
            format!("asmcrypto recover_signers, {list}"),
            asmcrypto::backend(),
            Box::new(move || {
                pool.install(|| {
                    best(2, || {
                        for b in blocks {
                            drop(batch(b));
                        }
                    })
                })
            }),
        );
        if let Some(txs) = all_in_one {
            way(
                "asmcrypto recover_signers, all in one call".into(),
                asmcrypto::backend(),
                Box::new(move || pool.install(|| best(2, || drop(batch(txs))))),
            );
        }
        for (name, pool_name, k256) in [
            (
                "per transaction, libsecp256k1 (reth's build)",
                "per transaction, libsecp256k1, par_iter",
                false,
            ),
            (
                "per transaction, k256 (alloy's default)",
                "per transaction, k256, par_iter",
                true,
            ),
        ] {
            let flat = flat.clone();
            let f = move |t: &&TxEnvelope| {
                if k256 {
                    support::k256_signer(t, true)
                } else {
                    support::alloy_signer(t, true).ok()
                }
            };
            let name = if threads == 1 { name } else { pool_name };
            way(
                name.into(),
                "-",
                Box::new(move || {
                    if threads == 1 {
                        best(2, || {
                            drop(black_box(flat.iter().map(f).collect::<Vec<_>>()))
                        })
                    } else {
                        pool.install(|| {
                            best(2, || {
                                drop(black_box(flat.par_iter().map(f).collect::<Vec<_>>()));
                            })
                        })
                    }
                }),
            );
        }
    }
    ways
}

// ---------------------------------------------------------------------------------------
// 2. Signatures, one at a time and as one batch.
// ---------------------------------------------------------------------------------------

fn signatures<'a>(pools: &'a Pools) {
    let published = tx_senders();
    let samples: Vec<Sample> = published.iter().map(|t| t.signed()).collect();
    let ours: fn(&Sample) -> Option<[u8; 20]> = |s| asmcrypto::recover_address(&s.0, &s.1).ok();
    let mut agree = 0;
    for (i, (s, p)) in samples.iter().zip(&published).enumerate() {
        let a = ours(s);
        let b = libsecp256k1(s);
        let c = k256(s);
        if a != Some(p.address) || a != b || a != c {
            eprintln!(
                "sample {i}: disagreement: asmcrypto {a:02x?}, libsecp256k1 {b:02x?}, k256 {c:02x?}"
            );
            std::process::exit(1);
        }
        agree += 1;
    }
    println!(
        "{agree} of {} sample signatures: all three libraries recover the published sender",
        samples.len()
    );
    println!();

    // The batch path must agree too.
    let inputs = &samples;
    for (i, (b, s)) in asmcrypto::recover_addresses(inputs)
        .iter()
        .zip(&published)
        .enumerate()
    {
        if *b != Ok(s.address) {
            eprintln!("sample {i}: recover_addresses gave {b:02x?}");
            std::process::exit(1);
        }
    }

    // Interleaved, as the blocks: one-thread ways divided by libsecp256k1 on one thread
    // (row 2), pool ways by libsecp256k1 over the same pool (row 5).
    let n = pools.threads;
    let one_by_one = |f: fn(&Sample) -> Option<[u8; 20]>| move || time(inputs, 3, f);
    let on_pool = |f: fn(&Sample) -> Option<[u8; 20]>| {
        move || {
            pools.all.install(|| {
                best(3, || {
                    drop(black_box(inputs.par_iter().map(f).collect::<Vec<_>>()));
                })
            }) * 1e6
                / inputs.len() as f64
        }
    };
    let batch_on = |pool: &'a rayon::ThreadPool| {
        move || {
            pool.install(|| {
                best(3, || {
                    drop(black_box(asmcrypto::recover_addresses(black_box(inputs))))
                })
            }) * 1e6
                / inputs.len() as f64
        }
    };
    let batch = "asmcrypto recover_addresses".to_string();
    let path = asmcrypto::backend();
    let ways = vec![
        Way {
            name: "asmcrypto recover_address".into(),
            path: "single",
            threads: 1,
            reference: 2,
            run: Box::new(one_by_one(ours)),
        },
        Way {
            name: batch.clone(),
            path,
            threads: 1,
            reference: 2,
            run: Box::new(batch_on(&pools.one)),
        },
        Way {
            name: "libsecp256k1".into(),
            path: "-",
            threads: 1,
            reference: 2,
            run: Box::new(one_by_one(libsecp256k1)),
        },
        Way {
            name: "k256".into(),
            path: "-",
            threads: 1,
            reference: 2,
            run: Box::new(one_by_one(k256)),
        },
        Way {
            name: batch,
            path,
            threads: n,
            reference: 5,
            run: Box::new(batch_on(&pools.all)),
        },
        Way {
            name: "libsecp256k1, par_iter".into(),
            path: "-",
            threads: n,
            reference: 5,
            run: Box::new(on_pool(libsecp256k1)),
        },
    ];
    let rounds = 20;
    let t = interleaved(&ways, rounds);
    table(&ways, &t, "µs / recovery", 2, |ti| ti);
    println!();
    println!(
        "(best of {} passes over {} signatures; recovery to an address, Keccak included. \
         recover_addresses\n splits an input over the pool only when it holds two chunks \
         (2 × 64 signatures):\n the {} here {} the pool's \
         threads.)",
        rounds * 3,
        samples.len(),
        samples.len(),
        if samples.len() >= 2 * 64 {
            "use"
        } else {
            "stay on one of"
        }
    );
}
