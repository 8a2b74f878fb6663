//! One signature recovered to an address: asmcrypto vs libsecp256k1 (the `secp256k1`
//! crate) vs k256, cycling through 256 distinct signatures, in one criterion group.
//!
//! The reference libraries recover the public key; their address step (keccak256 of the
//! 64-byte key, last 20 bytes) uses tiny-keccak, the Keccak most Rust users pair them with.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

use asmcrypto_testkit::oracle::{k256_address, libsecp256k1_address};
use asmcrypto_testkit::samples::signed as samples;

fn bench(c: &mut Criterion) {
    // 256 signatures by 256 keys over 256 hashes, signed with libsecp256k1.
    let samples = samples(256, 0x5eed);
    // The three must agree before we time them.
    for s in &samples {
        let ours = asmcrypto::recover_address(&s.0, &s.1).unwrap();
        assert_eq!(Some(ours), libsecp256k1_address(s));
        assert_eq!(Some(ours), k256_address(s));
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
