//! Batch throughput by batch size, measured robustly on a noisy machine: each round times
//! `recover_addresses` and libsecp256k1 (one signature at a time) on the same signatures
//! back to back, and the table keeps the best round of each, so slow phases of the
//! machine hit both sides alike. Then what junk costs (256 inputs refused at the parse,
//! with r off the curve, one valid in eight, crafted keys at infinity, each against valid
//! input timed in the same rounds), `keccak256_batch` against tiny-keccak on 8 × 64 B,
//! and, with `--features parallel`, 4,096 signatures on a pool of one thread and of all
//! cores. Every row but the last runs on one thread.
//!
//! Usage: `cargo run --release -p asmcrypto-tools --bin batch_sizes [--features parallel]`.
//! Set `ASMCRYPTO_BACKEND=scalar` to measure the non-AVX-512 paths on an AVX-512 machine.

use std::hint::black_box;
use std::time::Instant;

use asmcrypto_testkit::oracle::{libsecp256k1_address as libsecp256k1, tiny_keccak256};
use asmcrypto_testkit::samples::signed as samples;

/// Microseconds per item of one call of `f` over `n` items.
fn once(n: usize, f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64() * 1e6 / n as f64
}

fn main() {
    println!("asmcrypto backend: {}", asmcrypto::backend());
    let all = samples(4096, 0x5123);
    let ours = asmcrypto::recover_addresses(&all);
    for (s, a) in all.iter().zip(&ours) {
        assert_eq!(a.as_ref().ok(), libsecp256k1(s).as_ref(), "disagreement");
    }
    println!("4096 seeded signatures: recover_addresses agrees with libsecp256k1");
    println!();
    println!("one thread; µs per signature, best of interleaved rounds");
    println!(
        "{:>6} {:>22} {:>16} {:>8}",
        "batch", "recover_addresses µs", "libsecp256k1 µs", "ratio"
    );
    for n in [1usize, 2, 3, 4, 5, 6, 7, 8, 16, 64, 128, 256, 1024] {
        let set = &all[..n];
        let rounds = (8192 / n).clamp(6, 400);
        let (mut a, mut b) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..rounds {
            a = a.min(once(n, || {
                black_box(asmcrypto::recover_addresses(black_box(set)));
            }));
            b = b.min(once(n, || {
                for s in set {
                    black_box(libsecp256k1(black_box(s)));
                }
            }));
        }
        println!("{n:>6} {a:>22.2} {b:>16.2} {:>7.3}x", a / b);
    }

    // Junk: each batch timed in the same rounds as the valid one.
    let junk = asmcrypto_testkit::hostile::junk_batches(256, 0x4057);
    let sets = [
        ("valid", &junk.valid),
        ("refused at parse", &junk.refused),
        ("r off the curve", &junk.off_curve),
        ("one valid in eight", &junk.one_in_eight),
        ("its valid part alone", &junk.valid_part),
        ("keys at infinity", &junk.at_infinity),
    ];
    let mut best = [f64::INFINITY; 6];
    for _ in 0..60 {
        for (b, (_, set)) in best.iter_mut().zip(&sets) {
            // µs per call.
            *b = b.min(once(1, || {
                black_box(asmcrypto::recover_addresses(black_box(set)));
            }));
        }
    }
    println!();
    println!("junk, one thread, µs per call (best of 60 interleaved rounds):");
    for ((name, set), b) in sets.iter().zip(&best) {
        println!("  {name:<22} {:>5} inputs {b:>10.1} µs", set.len());
    }
    println!(
        "  refused at parse / valid {:.4}x; r off the curve / valid {:.3}x; one valid in eight / its valid part {:.3}x; keys at infinity / valid {:.3}x",
        best[1] / best[0],
        best[2] / best[0],
        best[3] / best[4],
        best[5] / best[0]
    );

    // keccak256_batch, 8 × 64 B, against eight tiny-keccak calls.
    let msgs: Vec<[u8; 64]> = (0..8u8).map(|i| [i.wrapping_mul(37); 64]).collect();
    let refs: [&[u8]; 8] = core::array::from_fn(|i| &msgs[i][..]);
    for (m, h) in msgs.iter().zip(asmcrypto::keccak256_batch(refs)) {
        assert_eq!(h, asmcrypto::keccak256(m));
    }
    let reps = 2000;
    let (mut a, mut b) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..50 {
        a = a.min(once(8 * reps, || {
            for _ in 0..reps {
                black_box(asmcrypto::keccak256_batch(black_box(refs)));
            }
        }));
        b = b.min(once(8 * reps, || {
            for _ in 0..reps {
                for m in &msgs {
                    black_box(tiny_keccak256(black_box(m)));
                }
            }
        }));
    }
    println!();
    println!(
        "keccak256_batch 8 × 64 B: {:.1} ns per hash; tiny-keccak {:.1} ns; ratio {:.3}x",
        a * 1e3,
        b * 1e3,
        a / b
    );

    #[cfg(feature = "parallel")]
    {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let pools: Vec<_> = [1, cores]
            .iter()
            .map(|&t| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .expect("thread pool")
            })
            .collect();
        let mut best = [f64::INFINITY; 2];
        for _ in 0..8 {
            for (b, pool) in best.iter_mut().zip(&pools) {
                *b = b.min(once(all.len(), || {
                    pool.install(|| black_box(asmcrypto::recover_addresses(black_box(&all))));
                }));
            }
        }
        println!();
        println!(
            "parallel, 4096 signatures: 1 thread {:.2} µs/sig, {cores} threads {:.2} µs/sig: {:.2}x the throughput",
            best[0],
            best[1],
            best[0] / best[1]
        );
    }
}
