//! One signature recovered to an address: asmcrypto vs libsecp256k1 (the `secp256k1`
//! crate) vs k256, cycling through 256 distinct signatures, in one criterion group.
//!
//! The reference libraries recover the public key; their address step (keccak256 of the
//! 64-byte key, last 20 bytes) uses tiny-keccak, the Keccak most Rust users pair them with.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

struct Sample {
    hash: [u8; 32],
    sig: [u8; 65],
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn bytes32(state: &mut u64) -> [u8; 32] {
    let mut out = [0u8; 32];
    for chunk in out.chunks_mut(8) {
        chunk.copy_from_slice(&splitmix(state).to_le_bytes());
    }
    out
}

/// 256 signatures by 256 keys over 256 hashes, signed with libsecp256k1.
fn samples() -> Vec<Sample> {
    let mut state = 0x5eed_u64;
    let mut out = Vec::with_capacity(256);
    while out.len() < 256 {
        let Ok(sk) = secp256k1::SecretKey::from_secret_bytes(bytes32(&mut state)) else {
            continue;
        };
        let hash = bytes32(&mut state);
        let rs = secp256k1::ecdsa::RecoverableSignature::sign_ecdsa_recoverable(
            secp256k1::Message::from_digest(hash),
            &sk,
        );
        let (recid, compact) = rs.serialize_compact();
        let mut sig = [0u8; 65];
        sig[..64].copy_from_slice(&compact);
        sig[64] = recid.to_u8();
        out.push(Sample { hash, sig });
    }
    out
}

fn tiny_keccak_address(key: &[u8]) -> [u8; 20] {
    use tiny_keccak::Hasher;
    let mut k = tiny_keccak::Keccak::v256();
    k.update(key);
    let mut h = [0u8; 32];
    k.finalize(&mut h);
    let mut a = [0u8; 20];
    a.copy_from_slice(&h[12..]);
    a
}

fn libsecp256k1_address(s: &Sample) -> [u8; 20] {
    let recid = secp256k1::ecdsa::RecoveryId::try_from(i32::from(s.sig[64])).unwrap();
    let sig = secp256k1::ecdsa::RecoverableSignature::from_compact(&s.sig[..64], recid).unwrap();
    let pk = sig
        .recover_ecdsa(secp256k1::Message::from_digest(s.hash))
        .unwrap();
    tiny_keccak_address(&pk.serialize_uncompressed()[1..])
}

fn k256_address(s: &Sample) -> [u8; 20] {
    use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};
    let r: [u8; 32] = s.sig[..32].try_into().unwrap();
    let sv: [u8; 32] = s.sig[32..64].try_into().unwrap();
    let sig = Signature::from_scalars(r, sv).unwrap();
    let recid = RecoveryId::from_byte(s.sig[64]).unwrap();
    let vk = VerifyingKey::recover_from_prehash(&s.hash, &sig, recid).unwrap();
    tiny_keccak_address(&vk.to_sec1_point(false).as_bytes()[1..])
}

fn bench(c: &mut Criterion) {
    let samples = samples();
    // The three must agree before we time them.
    for s in &samples {
        let ours = asmcrypto::recover_address(&s.hash, &s.sig).unwrap();
        assert_eq!(ours, libsecp256k1_address(s));
        assert_eq!(ours, k256_address(s));
    }
    let mut g = c.benchmark_group("recover_address");
    g.measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    let mut i = 0usize;
    g.bench_function("asmcrypto", |b| {
        b.iter(|| {
            let s = &samples[i % 256];
            i += 1;
            black_box(asmcrypto::recover_address(black_box(&s.hash), black_box(&s.sig)).unwrap())
        })
    });
    g.bench_function("libsecp256k1", |b| {
        b.iter(|| {
            let s = &samples[i % 256];
            i += 1;
            black_box(libsecp256k1_address(black_box(s)))
        })
    });
    g.bench_function("k256", |b| {
        b.iter(|| {
            let s = &samples[i % 256];
            i += 1;
            black_box(k256_address(black_box(s)))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
