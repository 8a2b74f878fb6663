//! Batch recovery: `recover_addresses_batch` (8 signatures per call) and
//! `recover_addresses` over 64 / 256 / 1024 signatures, against libsecp256k1 recovering the
//! same signatures one by one, and asmcrypto's own one-at-a-time path, in one group per
//! size. Reported per batch; divide by the batch size for the per-signature figure.
//!
//! Group `hostile`: what junk costs, 256 inputs per call on one thread — all valid, all
//! refused at the parse (v = 5), all with r off the curve, one valid in eight (the rest
//! spoiled in four ways) against its 32 valid ones alone, and all crafted keys at infinity
//! (the inputs that used to leave the lockstep engine). `scripts/criterion_table.py` turns
//! the estimates into the ratios of doc/benchmarks.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

use asmcrypto_testkit::Signed;
use asmcrypto_testkit::oracle::libsecp256k1_address;
use asmcrypto_testkit::samples::signed as samples;

fn bench(c: &mut Criterion) {
    println!("asmcrypto backend: {}", asmcrypto::backend());
    let all = samples(1024, 0xba7c);
    for s in &all {
        assert_eq!(
            asmcrypto::recover_address(&s.0, &s.1).unwrap(),
            libsecp256k1_address(s).unwrap()
        );
    }
    // recover_addresses_batch: 8 per call, cycling through the 1024 samples.
    let groups: Vec<[Signed; 8]> = all.chunks_exact(8).map(|c| c.try_into().unwrap()).collect();
    let mut g = c.benchmark_group("batch8");
    g.measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(8));
    let mut i = 0usize;
    g.bench_function("recover_addresses_batch", |b| {
        b.iter(|| {
            i += 1;
            black_box(asmcrypto::recover_addresses_batch(black_box(
                &groups[i % groups.len()],
            )))
        })
    });
    g.bench_function("8x asmcrypto recover_address", |b| {
        b.iter(|| {
            i += 1;
            let grp = &groups[i % groups.len()];
            black_box(
                grp.each_ref()
                    .map(|(h, s)| asmcrypto::recover_address(h, s)),
            )
        })
    });
    g.bench_function("8x libsecp256k1", |b| {
        b.iter(|| {
            i += 1;
            let grp = &groups[i % groups.len()];
            black_box(grp.each_ref().map(libsecp256k1_address))
        })
    });
    g.finish();

    for n in [64usize, 256, 1024] {
        let mut g = c.benchmark_group(format!("batch{n}"));
        g.measurement_time(Duration::from_secs(5))
            .warm_up_time(Duration::from_secs(1));
        g.sample_size(if n >= 1024 { 20 } else { 50 });
        g.throughput(Throughput::Elements(n as u64));
        let set = &all[..n];
        g.bench_function("recover_addresses", |b| {
            b.iter(|| black_box(asmcrypto::recover_addresses(black_box(set))))
        });
        g.bench_function("libsecp256k1", |b| {
            b.iter(|| black_box(set.iter().map(libsecp256k1_address).collect::<Vec<_>>()))
        });
        g.finish();
    }
}

/// With the `parallel` feature: 4096 signatures through `recover_addresses` on a rayon pool
/// of one thread and on a pool of all cores.
#[cfg(feature = "parallel")]
fn bench_parallel(c: &mut Criterion) {
    let all = samples(4096, 0xba7c);
    let mut g = c.benchmark_group("parallel4096");
    g.measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(2));
    g.sample_size(10);
    g.throughput(Throughput::Elements(all.len() as u64));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for threads in [1, cores] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        g.bench_function(format!("recover_addresses, {threads} thread(s)"), |b| {
            b.iter(|| pool.install(|| black_box(asmcrypto::recover_addresses(black_box(&all)))))
        });
    }
    g.finish();
}

#[cfg(not(feature = "parallel"))]
fn bench_parallel(_: &mut Criterion) {}

/// Junk against valid input, 256 per call, on one thread (a one-thread rayon pool where the
/// `parallel` feature would otherwise spread the call). The pool's one worker is this
/// thread (`use_current_thread`), so `install` runs the call in place: a pool of its own
/// thread would add a hand-over to it and back (about 30 µs here), which is more than the
/// whole call costs for input refused at the parse.
fn bench_hostile(c: &mut Criterion) {
    let b = asmcrypto_testkit::hostile::junk_batches(256, 0x4057);
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .use_current_thread()
        .build()
        .unwrap();
    let mut g = c.benchmark_group("hostile");
    g.measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for (name, set) in [
        ("valid 256", &b.valid),
        ("refused at parse 256", &b.refused),
        ("r off the curve 256", &b.off_curve),
        ("one valid in eight 256", &b.one_in_eight),
        ("its valid part alone 32", &b.valid_part),
        ("keys at infinity 256", &b.at_infinity),
    ] {
        g.bench_function(name, |bch| {
            bch.iter(|| {
                one_thread.install(|| black_box(asmcrypto::recover_addresses(black_box(set))))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench, bench_parallel, bench_hostile);
criterion_main!(benches);
