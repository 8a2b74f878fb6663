//! One signature recovered to an address: asmcrypto vs libsecp256k1 (the `secp256k1`
//! crate) vs k256, cycling through 256 distinct signatures, in one criterion group.
//!
//! The reference libraries recover the public key; their address step (keccak256 of the
//! 64-byte key, last 20 bytes) uses tiny-keccak, the Keccak most Rust users pair them with.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

#[path = "support/mod.rs"]
mod support;
use support::{Signed, libsecp256k1_address, samples};

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

fn k256_address(s: &Signed) -> [u8; 20] {
    use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};
    let r: [u8; 32] = s.1[..32].try_into().unwrap();
    let sv: [u8; 32] = s.1[32..64].try_into().unwrap();
    let sig = Signature::from_scalars(r, sv).unwrap();
    let recid = RecoveryId::from_byte(s.1[64]).unwrap();
    let vk = VerifyingKey::recover_from_prehash(&s.0, &sig, recid).unwrap();
    tiny_keccak_address(&vk.to_sec1_point(false).as_bytes()[1..])
}

fn bench(c: &mut Criterion) {
    // 256 signatures by 256 keys over 256 hashes, signed with libsecp256k1.
    let samples = samples(256, 0x5eed);
    // The three must agree before we time them.
    for s in &samples {
        let ours = asmcrypto::recover_address(&s.0, &s.1).unwrap();
        assert_eq!(Some(ours), libsecp256k1_address(s));
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
            black_box(asmcrypto::recover_address(black_box(&s.0), black_box(&s.1)).unwrap())
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
