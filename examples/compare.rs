//! The main job, on the bundled real data (`tests/data/`):
//!
//! 1. **Blocks.** Decode every bundled signed transaction (300 single ones of types 0–4,
//!    40 block bodies from ethereum/tests, a 121-transaction BNB Smart Chain block) with
//!    alloy, recover every sender with asmcrypto's `recover_signers` and
//!    `recover_signers_unchecked`, check each against the published sender and against
//!    alloy's own per-transaction recovery (libsecp256k1, as reth builds alloy, and k256,
//!    alloy's default backend), then time the blocks: transactions per second and the
//!    ratio, one thread and all threads.
//! 2. **Signatures.** The 147 bundled signing tuples (hash, r, s, recid) through
//!    `recover_address` and `recover_addresses` against libsecp256k1 and k256: µs per
//!    recovery and the ratios.
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

fn main() {
    blocks();
    println!();
    signatures();
}

// ---------------------------------------------------------------------------------------
// 1. Blocks of alloy transactions.
// ---------------------------------------------------------------------------------------

use alloy_consensus::TxEnvelope;
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

fn blocks() {
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
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pool = |n: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap_or_else(|e| fail(format!("rayon pool: {e}")))
    };
    let (one, all) = (pool(1), pool(threads));
    let libsecp = |t: &TxEnvelope| support::alloy_signer(t, true).ok();
    let k256 = |t: &TxEnvelope| support::k256_signer(t, true);
    let batch = |b: &[TxEnvelope]| black_box(recover_signers(black_box(b)));

    // Interleaved: every round runs every way once, so machine noise hits them alike.
    let names = [
        "asmcrypto recover_signers, block by block",
        "asmcrypto recover_signers, all in one call",
        "per transaction, libsecp256k1 (reth's build)",
        "per transaction, k256 (alloy's default)",
        "asmcrypto recover_signers, all in one call",
        "per transaction, libsecp256k1, par_iter",
        "per transaction, k256, par_iter",
    ];
    let mut t = [f64::INFINITY; 7];
    for _ in 0..15 {
        let r = [
            one.install(|| best(2, || blocks.iter().for_each(|b| drop(batch(b))))),
            one.install(|| best(2, || drop(batch(&txs)))),
            best(2, || {
                drop(black_box(txs.iter().map(libsecp).collect::<Vec<_>>()))
            }),
            best(2, || {
                drop(black_box(txs.iter().map(k256).collect::<Vec<_>>()))
            }),
            all.install(|| best(2, || drop(batch(&txs)))),
            all.install(|| {
                best(2, || {
                    drop(black_box(txs.par_iter().map(libsecp).collect::<Vec<_>>()))
                })
            }),
            all.install(|| {
                best(2, || {
                    drop(black_box(txs.par_iter().map(k256).collect::<Vec<_>>()))
                })
            }),
        ];
        for (ti, ri) in t.iter_mut().zip(r) {
            *ti = ti.min(ri);
        }
    }
    println!();
    println!(
        "{} blocks, {} transactions, recovered with the EIP-2 check (asmcrypto backend: {})",
        blocks.len(),
        txs.len(),
        asmcrypto::backend()
    );
    println!(
        "{:<46} {:>7} {:>10} {:>22}",
        "way", "threads", "tx/s", "time vs libsecp256k1"
    );
    for (i, (name, ti)) in names.iter().zip(t).enumerate() {
        let (n, reference) = if i < 4 { (1, t[2]) } else { (threads, t[5]) };
        println!(
            "{:<46} {:>7} {:>10.0} {:>21.3}x",
            name,
            n,
            txs.len() as f64 / ti,
            ti / reference
        );
    }
    println!(
        "(best of 30 passes each, interleaved; the ratio is against the per-transaction way \
         with libsecp256k1 on the same number of threads)"
    );
}

// ---------------------------------------------------------------------------------------
// 2. Signatures, one at a time and as one batch.
// ---------------------------------------------------------------------------------------

fn signatures() {
    let published = tx_senders();
    let samples: Vec<Sample> = published.iter().map(|t| t.signed()).collect();
    let ours = |s: &Sample| asmcrypto::recover_address(&s.0, &s.1).ok();
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

    // Interleave the libraries round by round so that machine noise hits them alike.
    let rounds = 20;
    let mut t = [f64::INFINITY; 4];
    for _ in 0..rounds {
        t[0] = t[0].min(time(&samples, 3, ours));
        t[2] = t[2].min(time(&samples, 3, libsecp256k1));
        t[3] = t[3].min(time(&samples, 3, k256));
        for _ in 0..3 {
            let start = Instant::now();
            black_box(asmcrypto::recover_addresses(black_box(inputs)));
            t[1] = t[1].min(start.elapsed().as_secs_f64() * 1e6 / inputs.len() as f64);
        }
    }
    let batch = format!("asmcrypto recover_addresses ({})", asmcrypto::backend());
    println!(
        "{:<42} {:>14} {:>17}",
        "library", "µs / recovery", "vs libsecp256k1"
    );
    let names = [
        "asmcrypto recover_address",
        batch.as_str(),
        "libsecp256k1",
        "k256",
    ];
    for (name, ti) in names.iter().zip(t) {
        println!("{:<42} {:>14.2} {:>16.3}x", name, ti, ti / t[2]);
    }
    println!();
    println!(
        "(best of {} passes over {} signatures; recovery to an address, Keccak included)",
        rounds * 3,
        samples.len()
    );
}
