//! Keccak-256 throughput: asmcrypto against the `sha3` and `tiny-keccak` crates.
//!
//! `cargo bench --bench keccak256`; one group per input size.

use asmcrypto_testkit::oracle::{keccak as sha3_keccak256, tiny_keccak256};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn keccak(c: &mut Criterion) {
    let sizes: [(usize, &str); 6] = [
        (0, "0B"),
        (32, "32B"),
        (64, "64B"),
        (136, "136B"),
        (1 << 10, "1KiB"),
        (1 << 20, "1MiB"),
    ];
    for (len, label) in sizes {
        // Deterministic, non-constant input.
        let data: Vec<u8> = (0..len).map(|i| (i * 131 + 7) as u8).collect();
        assert_eq!(asmcrypto::keccak256(&data), sha3_keccak256(&data));

        let mut group = c.benchmark_group(format!("keccak256/{label}"));
        group
            .throughput(Throughput::Bytes(len as u64))
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(2));
        if len >= 1 << 20 {
            group.sample_size(10);
        }
        group.bench_function(BenchmarkId::from_parameter("asmcrypto"), |b| {
            b.iter(|| asmcrypto::keccak256(black_box(&data)))
        });
        group.bench_function(BenchmarkId::from_parameter("sha3"), |b| {
            b.iter(|| sha3_keccak256(black_box(&data)))
        });
        group.bench_function(BenchmarkId::from_parameter("tiny-keccak"), |b| {
            b.iter(|| tiny_keccak256(black_box(&data)))
        });
        group.finish();
    }
}

criterion_group!(benches, keccak);
criterion_main!(benches);
