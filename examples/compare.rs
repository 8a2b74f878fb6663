//! The main job: recover the bundled sample signatures (147 real signed transactions with
//! their published senders) with asmcrypto, libsecp256k1 and k256, check that all three
//! agree with each other and with the published senders, and print the time per recovery
//! and the ratios.
//!
//! Run with `cargo run --release --example compare`.

use std::hint::black_box;
use std::time::Instant;

const TX_SENDERS: &str = include_str!("../tests/data/tx_senders.jsonl");

struct Sample {
    hash: [u8; 32],
    sig: [u8; 65],
    address: [u8; 20],
}

fn hex<const N: usize>(s: &str) -> [u8; N] {
    let v = hex::decode(s).expect("sample data is hex");
    v.try_into().expect("sample field has the expected length")
}

fn samples() -> Vec<Sample> {
    TX_SENDERS
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("sample line is JSON");
            let field = |k: &str| v[k].as_str().expect("string field").to_owned();
            let mut sig = [0u8; 65];
            sig[..32].copy_from_slice(&hex::<32>(&field("r")));
            sig[32..64].copy_from_slice(&hex::<32>(&field("s")));
            sig[64] = v["recid"].as_u64().expect("recid") as u8;
            Sample {
                hash: hex(&field("hash")),
                sig,
                address: hex(&field("address")),
            }
        })
        .collect()
}

fn address_of_key(key: &[u8]) -> [u8; 20] {
    use tiny_keccak::Hasher;
    let mut k = tiny_keccak::Keccak::v256();
    k.update(key);
    let mut h = [0u8; 32];
    k.finalize(&mut h);
    h[12..].try_into().expect("20 bytes")
}

fn libsecp256k1(s: &Sample) -> Option<[u8; 20]> {
    let recid = secp256k1::ecdsa::RecoveryId::try_from(i32::from(s.sig[64])).ok()?;
    let sig = secp256k1::ecdsa::RecoverableSignature::from_compact(&s.sig[..64], recid).ok()?;
    let pk = sig
        .recover_ecdsa(secp256k1::Message::from_digest(s.hash))
        .ok()?;
    Some(address_of_key(&pk.serialize_uncompressed()[1..]))
}

fn k256(s: &Sample) -> Option<[u8; 20]> {
    use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};
    let r: [u8; 32] = s.sig[..32].try_into().ok()?;
    let sv: [u8; 32] = s.sig[32..64].try_into().ok()?;
    let sig = Signature::from_scalars(r, sv).ok()?;
    let recid = RecoveryId::from_byte(s.sig[64])?;
    let vk = VerifyingKey::recover_from_prehash(&s.hash, &sig, recid).ok()?;
    Some(address_of_key(&vk.to_sec1_point(false).as_bytes()[1..]))
}

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
    let samples = samples();
    let ours = |s: &Sample| asmcrypto::recover_address(&s.hash, &s.sig).ok();
    let mut agree = 0;
    for (i, s) in samples.iter().enumerate() {
        let a = ours(s);
        let b = libsecp256k1(s);
        let c = k256(s);
        if a != Some(s.address) || a != b || a != c {
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
    let inputs: Vec<([u8; 32], [u8; 65])> = samples.iter().map(|s| (s.hash, s.sig)).collect();
    for (i, (b, s)) in asmcrypto::recover_addresses(&inputs)
        .iter()
        .zip(&samples)
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
            black_box(asmcrypto::recover_addresses(black_box(&inputs)));
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
