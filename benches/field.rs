//! The scalar field multiply and square, latency and throughput, for each implementation
//! the crate has: the MULX/ADCX/ADOX assembly (what `mul` / `sqr` dispatch to where the CPU
//! has BMI2 and ADX) and the portable Rust. Latency: a chain of 1,000 dependent operations;
//! throughput: eight independent chains of 125, interleaved. Reported per operation.
//!
//! `cargo bench --bench field`.

use asmcrypto::internals::FieldElement as Fe;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

#[inline(always)]
fn latency(op: impl Fn(&Fe, &Fe) -> Fe, a: Fe, b: Fe) -> Fe {
    let mut x = a;
    for _ in 0..1000 {
        x = op(&x, &b);
    }
    x
}

#[inline(always)]
fn throughput(op: impl Fn(&Fe, &Fe) -> Fe, a: [Fe; 8], b: Fe) -> [Fe; 8] {
    let mut x = a;
    for _ in 0..125 {
        for xi in x.iter_mut() {
            *xi = op(xi, &b);
        }
    }
    x
}

fn bench(c: &mut Criterion) {
    println!("asmcrypto: {}", asmcrypto::backend_details());
    let a: [Fe; 8] = core::array::from_fn(|i| {
        Fe::from_u64x4([
            0x1234_5678_9abc_def0 ^ i as u64,
            !(i as u64),
            3 << i,
            u64::MAX >> 1,
        ])
    });
    let b = Fe::from_u64x4([0xdead_beef, 0xfeed_face_cafe_f00d, 7, 0x7fff_ffff_ffff_ffff]);
    // Every implementation computes the same values.
    for x in &a {
        assert!(x.mul(&b).equals(&x.mul_portable(&b)));
        assert!(x.sqr().equals(&x.sqr_portable()));
    }
    let mut g = c.benchmark_group("field");
    g.measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500))
        .throughput(Throughput::Elements(1000));
    // One monomorphised loop per implementation (no call through a pointer).
    macro_rules! measure {
        ($name:literal, $op:expr) => {
            g.bench_function(concat!($name, " latency"), |bn| {
                bn.iter(|| black_box(latency($op, black_box(a[0]), black_box(b))))
            });
            g.bench_function(concat!($name, " throughput"), |bn| {
                bn.iter(|| black_box(throughput($op, black_box(a), black_box(b))))
            });
        };
    }
    measure!("mul (dispatched)", |x: &Fe, y: &Fe| x.mul(y));
    measure!("mul portable", |x: &Fe, y: &Fe| x.mul_portable(y));
    measure!("sqr (dispatched)", |x: &Fe, _: &Fe| x.sqr());
    measure!("sqr portable", |x: &Fe, _: &Fe| x.sqr_portable());
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
