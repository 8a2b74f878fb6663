//! Keccak-256 of eight 64-byte inputs (public keys): `keccak256_batch` against eight calls
//! of the scalar `keccak256` and of `tiny-keccak`.
//!
//! `cargo bench --bench keccak_batch`. Times are per batch of eight; with
//! `Throughput::Elements(8)` criterion also reports hashes per second. The batch takes the
//! AVX-512 path where the CPU has it (see `asmcrypto::backend()`), otherwise AVX2.

use asmcrypto_testkit::oracle::tiny_keccak256;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn keccak_batch(c: &mut Criterion) {
    // Eight distinct, deterministic 64-byte keys.
    let keys: [[u8; 64]; 8] =
        core::array::from_fn(|i| core::array::from_fn(|j| (i * 64 + j).wrapping_mul(131) as u8));
    let inputs: [&[u8]; 8] = core::array::from_fn(|i| &keys[i][..]);
    let want = inputs.map(asmcrypto::keccak256);
    assert_eq!(asmcrypto::keccak256_batch(inputs), want);
    assert_eq!(inputs.map(tiny_keccak256), want);

    let mut group = c.benchmark_group("keccak256_batch_64B");
    group
        .throughput(Throughput::Elements(8))
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function(
        BenchmarkId::from_parameter("asmcrypto batch (8 × 64 B)"),
        |b| b.iter(|| asmcrypto::keccak256_batch(black_box(inputs))),
    );
    group.bench_function(
        BenchmarkId::from_parameter("asmcrypto scalar (8 × 64 B)"),
        |b| b.iter(|| black_box(inputs).map(asmcrypto::keccak256)),
    );
    group.bench_function(
        BenchmarkId::from_parameter("tiny-keccak (8 × 64 B)"),
        |b| b.iter(|| black_box(inputs).map(tiny_keccak256)),
    );
    group.finish();
}

criterion_group!(benches, keccak_batch);
criterion_main!(benches);
