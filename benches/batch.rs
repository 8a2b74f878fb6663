//! Batch recovery: `recover_addresses_batch` (8 signatures per call) and
//! `recover_addresses` over 64 / 256 / 1024 signatures, against libsecp256k1 recovering the
//! same signatures one by one, and asmcrypto's own one-at-a-time path, in one group per
//! size. Reported per batch; divide by the batch size for the per-signature figure.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

type Signed = ([u8; 32], [u8; 65]);

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

fn samples(n: usize) -> Vec<Signed> {
    let mut state = 0xba7c_u64;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
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
        out.push((hash, sig));
    }
    out
}

fn libsecp256k1_address(s: &Signed) -> [u8; 20] {
    use tiny_keccak::Hasher;
    let recid = secp256k1::ecdsa::RecoveryId::try_from(i32::from(s.1[64])).unwrap();
    let sig = secp256k1::ecdsa::RecoverableSignature::from_compact(&s.1[..64], recid).unwrap();
    let pk = sig
        .recover_ecdsa(secp256k1::Message::from_digest(s.0))
        .unwrap();
    let mut k = tiny_keccak::Keccak::v256();
    k.update(&pk.serialize_uncompressed()[1..]);
    let mut h = [0u8; 32];
    k.finalize(&mut h);
    h[12..].try_into().unwrap()
}

fn bench(c: &mut Criterion) {
    println!("asmcrypto backend: {}", asmcrypto::backend());
    let all = samples(1024);
    for s in &all {
        assert_eq!(
            asmcrypto::recover_address(&s.0, &s.1).unwrap(),
            libsecp256k1_address(s)
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
    let all = samples(4096);
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

criterion_group!(benches, bench, bench_parallel);
criterion_main!(benches);
