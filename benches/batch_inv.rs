//! Batch inversion of N field elements (Montgomery's trick) in three schedules: one
//! running-product chain, two independent chains (even/odd), and a product tree.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let mut s = 0x1234_5678u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s ^ (s >> 29)
    };
    for n in [8usize, 16, 64, 256, 1024] {
        let v: Vec<[u64; 4]> = (0..n)
            .map(|_| [next() | 1, next(), next(), next() >> 1])
            .collect();
        let mut g = c.benchmark_group(format!("batch_inv{n}"));
        g.measurement_time(Duration::from_secs(2))
            .warm_up_time(Duration::from_millis(500));
        g.throughput(Throughput::Elements(n as u64));
        use asmcrypto::internals::InversionSchedule as S;
        for (name, schedule) in [
            ("single-chain", S::SingleChain),
            ("two-chains", S::TwoChains),
            ("four-chains", S::FourChains),
            ("eight-chains", S::EightChains),
            ("tree", S::Tree),
        ] {
            g.bench_with_input(BenchmarkId::from_parameter(name), &v, |b, v| {
                let mut w = v.clone();
                b.iter(|| {
                    w.copy_from_slice(v);
                    asmcrypto::internals::batch_invert(schedule, black_box(&mut w));
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
