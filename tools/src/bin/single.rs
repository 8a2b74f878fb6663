//! One signature at a time, measured robustly on a noisy machine: for each of the 147
//! bundled signing tuples, asmcrypto and libsecp256k1 (recover + serialise + tiny-keccak)
//! are timed back to back, over many rounds, and each side keeps its minimum per
//! signature; the table sums those minima. Rows: `recover_address`, the precompile
//! (`ecrecover_precompile` on the 128-byte input), and `recover_addresses` on short inputs
//! (1 to 8 signatures) against `recover_address` on each.
//!
//! With the feature `revm`, one more row: revm's `Crypto::secp256k1_ecrecover` (what the
//! 0x01 precompile calls) on asmcrypto's adapter against revm's own backend built with its
//! `secp256k1` feature (libsecp256k1, as reth builds it).
//!
//! Usage: `cargo run --release -p asmcrypto-tools --bin single [--features revm] [-- ROUNDS]`
//! (default 100 rounds).

use std::hint::black_box;
use std::time::Instant;

use asmcrypto_testkit::oracle::libsecp256k1_address;
use asmcrypto_testkit::samples::tx_senders;
use asmcrypto_testkit::sig::precompile_input;

/// Seconds one call of `f` takes.
fn time(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64()
}

/// Sum over the items of each side's minimum over `rounds` interleaved rounds.
fn per_item_minima<T>(items: &[T], rounds: usize, a: impl Fn(&T), b: impl Fn(&T)) -> (f64, f64) {
    let (mut ma, mut mb) = (
        vec![f64::INFINITY; items.len()],
        vec![f64::INFINITY; items.len()],
    );
    for _ in 0..rounds {
        for (i, item) in items.iter().enumerate() {
            ma[i] = ma[i].min(time(|| a(item)));
            mb[i] = mb[i].min(time(|| b(item)));
        }
    }
    (ma.iter().sum(), mb.iter().sum())
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(100, |r| r.parse().expect("ROUNDS is a number"));
    println!("asmcrypto: {}", asmcrypto::backend_details());
    let txs = tx_senders();
    let sigs: Vec<_> = txs.iter().map(|t| t.signed()).collect();
    let inputs: Vec<[u8; 128]> = txs
        .iter()
        .map(|t| precompile_input(&t.hash, 27 + t.recid, &t.r, &t.s))
        .collect();
    for ((s, input), t) in sigs.iter().zip(&inputs).zip(&txs) {
        assert_eq!(asmcrypto::recover_address(&s.0, &s.1), Ok(t.address));
        assert_eq!(libsecp256k1_address(s), Some(t.address));
        assert_eq!(
            asmcrypto::ecrecover_precompile(input).map(|w| w[12..] == t.address),
            Some(true)
        );
    }
    let n = sigs.len() as f64;
    println!(
        "{:<44} {:>11} {:>15} {:>8}",
        "asmcrypto call", "µs / sig", "libsecp256k1 µs", "ratio"
    );
    let (a, b) = per_item_minima(
        &sigs,
        rounds,
        |s| {
            let _ = black_box(asmcrypto::recover_address(black_box(&s.0), black_box(&s.1)));
        },
        |s| {
            black_box(libsecp256k1_address(black_box(s)));
        },
    );
    println!(
        "{:<44} {:>11.2} {:>15.2} {:>7.3}x",
        "recover_address",
        a * 1e6 / n,
        b * 1e6 / n,
        a / b
    );
    let (a, b) = per_item_minima(
        &(0..sigs.len()).collect::<Vec<_>>(),
        rounds,
        |&i| {
            black_box(asmcrypto::ecrecover_precompile(black_box(&inputs[i])));
        },
        |&i| {
            black_box(libsecp256k1_address(black_box(&sigs[i])));
        },
    );
    println!(
        "{:<44} {:>11.2} {:>15.2} {:>7.3}x",
        "ecrecover_precompile",
        a * 1e6 / n,
        b * 1e6 / n,
        a / b
    );
    #[cfg(feature = "revm")]
    revm_row(&sigs, rounds);
    println!();
    println!(
        "{:<44} {:>11} {:>15} {:>8}",
        "short inputs", "batch µs/sig", "one by one µs", "ratio"
    );
    for len in 1..=8 {
        let groups: Vec<&[([u8; 32], [u8; 65])]> = sigs.chunks_exact(len).take(16).collect();
        let (a, b) = per_item_minima(
            &groups,
            rounds,
            |g| {
                black_box(asmcrypto::recover_addresses(black_box(g)));
            },
            |g| {
                for (h, s) in g.iter() {
                    let _ = black_box(asmcrypto::recover_address(black_box(h), black_box(s)));
                }
            },
        );
        let per = (groups.len() * len) as f64;
        println!(
            "{:<44} {:>11.2} {:>15.2} {:>7.3}x",
            format!("recover_addresses, {len} at a time"),
            a * 1e6 / per,
            b * 1e6 / per,
            a / b
        );
    }
    println!("(per input, the minimum over {rounds} interleaved rounds; sums over the inputs)");
}

/// revm's `Crypto::secp256k1_ecrecover` on asmcrypto's adapter against revm's default
/// backend (libsecp256k1 with revm-precompile's `secp256k1` feature), called directly so
/// that both run in one process.
#[cfg(feature = "revm")]
fn revm_row(sigs: &[([u8; 32], [u8; 65])], rounds: usize) {
    use revm_precompile::{Crypto, DefaultCrypto};
    let args: Vec<([u8; 64], u8, [u8; 32])> = sigs
        .iter()
        .map(|(h, s)| {
            let mut rs = [0u8; 64];
            rs.copy_from_slice(&s[..64]);
            (rs, s[64], *h)
        })
        .collect();
    let ours = asmcrypto::adapters::RevmCrypto;
    for (sig, recid, msg) in &args {
        let expected = DefaultCrypto.secp256k1_ecrecover(sig, *recid, msg);
        assert!(expected.is_ok());
        assert_eq!(ours.secp256k1_ecrecover(sig, *recid, msg), expected);
    }
    let (a, b) = per_item_minima(
        &args,
        rounds,
        |(sig, recid, msg)| {
            let _ = black_box(ours.secp256k1_ecrecover(black_box(sig), *recid, black_box(msg)));
        },
        |(sig, recid, msg)| {
            let _ = black_box(DefaultCrypto.secp256k1_ecrecover(
                black_box(sig),
                *recid,
                black_box(msg),
            ));
        },
    );
    let n = args.len() as f64;
    println!(
        "{:<44} {:>11.2} {:>15.2} {:>7.3}x",
        "revm Crypto::secp256k1_ecrecover (adapter)",
        a * 1e6 / n,
        b * 1e6 / n,
        a / b
    );
}
