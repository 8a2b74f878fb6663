//! Issue 25's measurement: is a 256-bit multiply on 32 × 32 → 64-bit lanes (`vpmuludq`,
//! AVX2 and AVX-512 F, no IFMA) cheaper per lane than the scalar MULX/ADX multiply?
//!
//! The field p = 2²⁵⁶ − 0x1000003D1 in two radices, each with the product's fold by
//! 2²⁶⁰ or 2²⁶¹ mod p:
//!
//! - 9 × 29 bits (81 products, 17 columns; 2²⁶¹ ≡ 2³⁷ + 31264): the crate's `lanes::field29`
//!   algorithm (a copy here, so that the AVX2 form, which the crate does not build, can be
//!   measured as well);
//! - 10 × 26 bits (100 products, 19 columns; 2²⁶⁰ ≡ 2³⁶ + 15632).
//!
//! Each on 4 lanes (one YMM register, AVX2) and 8 lanes (one ZMM register, AVX-512 F),
//! multiply and square, against the crate's MULX/ADX multiply and square
//! (`internals::MulxAdx`). Throughput: 8 independent chains of dependent operations, in
//! ns per lane; latency: one chain, in ns per operation. Best of interleaved rounds (every
//! kernel once per round), so that a slow phase of a shared machine hits all alike.
//! Every kernel is first checked against the scalar core on values with limbs at their
//! bounds.
//!
//! `cargo run --release -p asmcrypto-tools --bin lane_mul [ROUNDS]` (default 300).
//! `scripts/mca_lanes.sh` models the same kernels (`lane_mul_*` below) with llvm-mca.

#[cfg(target_arch = "x86_64")]
mod kernels {
    use core::arch::x86_64::*;

    /// The lane operations the kernels use.
    pub trait V: Copy {
        fn splat(x: u64) -> Self;
        fn add(a: Self, b: Self) -> Self;
        fn and(a: Self, b: Self) -> Self;
        fn shr<const N: u32>(a: Self) -> Self;
        fn shl<const N: u32>(a: Self) -> Self;
        /// `vpmuludq`: lo32(a) · lo32(b).
        fn mul(a: Self, b: Self) -> Self;
    }

    /// `$f::<k>($a)` for the shift count `$n` (a const generic `u32`): AVX2's shift
    /// intrinsics take an `i32` count, which a `u32` parameter cannot become in a const
    /// context; the match folds away.
    macro_rules! imm {
        ($f:ident, $n:expr, $a:expr) => {
            imm!(@arms $f, $n, $a, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38,
                39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59,
                60, 61, 62, 63])
        };
        (@arms $f:ident, $n:expr, $a:expr, [$($k:literal),*]) => {
            match $n {
                $($k => $f::<$k>($a),)*
                _ => unreachable!("shift count above 63"),
            }
        };
    }

    // SAFETY (every `unsafe` block in these two impls): the intrinsics need AVX2 or AVX-512
    // F; the kernels that use them are compiled with that feature and called only after
    // `is_x86_feature_detected!` confirmed it.
    impl V for __m256i {
        #[inline(always)]
        fn splat(x: u64) -> Self {
            unsafe { _mm256_set1_epi64x(x as i64) }
        }
        #[inline(always)]
        fn add(a: Self, b: Self) -> Self {
            unsafe { _mm256_add_epi64(a, b) }
        }
        #[inline(always)]
        fn and(a: Self, b: Self) -> Self {
            unsafe { _mm256_and_si256(a, b) }
        }
        #[inline(always)]
        fn shr<const N: u32>(a: Self) -> Self {
            unsafe { imm!(_mm256_srli_epi64, N, a) }
        }
        #[inline(always)]
        fn shl<const N: u32>(a: Self) -> Self {
            unsafe { imm!(_mm256_slli_epi64, N, a) }
        }
        #[inline(always)]
        fn mul(a: Self, b: Self) -> Self {
            unsafe { _mm256_mul_epu32(a, b) }
        }
    }

    impl V for __m512i {
        #[inline(always)]
        fn splat(x: u64) -> Self {
            unsafe { _mm512_set1_epi64(x as i64) }
        }
        #[inline(always)]
        fn add(a: Self, b: Self) -> Self {
            unsafe { _mm512_add_epi64(a, b) }
        }
        #[inline(always)]
        fn and(a: Self, b: Self) -> Self {
            unsafe { _mm512_and_si512(a, b) }
        }
        #[inline(always)]
        fn shr<const N: u32>(a: Self) -> Self {
            unsafe { _mm512_srli_epi64::<N>(a) }
        }
        #[inline(always)]
        fn shl<const N: u32>(a: Self) -> Self {
            unsafe { _mm512_slli_epi64::<N>(a) }
        }
        #[inline(always)]
        fn mul(a: Self, b: Self) -> Self {
            unsafe { _mm512_mul_epu32(a, b) }
        }
    }

    macro_rules! unroll {
        ($i:ident in [$($k:literal),*] $body:block) => {
            $( { #[allow(non_upper_case_globals)] const $i: usize = $k; $body } )*
        };
    }

    const M29: u64 = (1 << 29) - 1;
    const M26: u64 = (1 << 26) - 1;

    /// 9 × 29: the crate's `lanes::field29` product fold (see its docs).
    #[inline(always)]
    fn fold29<T: V>(mut t: [T; 17]) -> [T; 9] {
        let m = T::splat(M29);
        unroll!(k in [8, 9, 10, 11, 12, 13, 14, 15] {
            t[k + 1] = T::add(t[k + 1], T::shr::<29>(t[k]));
            t[k] = T::and(t[k], m);
        });
        let top = T::shr::<29>(t[16]);
        t[16] = T::and(t[16], m);
        let r0 = T::splat(31264);
        let mut l = [t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8]];
        unroll!(k in [9, 10, 11, 12, 13, 14, 15, 16] {
            l[k - 9] = T::add(l[k - 9], T::mul(t[k], r0));
            l[k - 8] = T::add(l[k - 8], T::shl::<8>(t[k]));
        });
        l[8] = T::add(l[8], T::mul(top, r0));
        l[0] = T::add(l[0], T::mul(top, T::splat(31264 << 8)));
        l[1] = T::add(l[1], T::shl::<16>(top));
        unroll!(k in [0, 1, 2, 3, 4, 5, 6, 7] {
            l[k + 1] = T::add(l[k + 1], T::shr::<29>(l[k]));
            l[k] = T::and(l[k], m);
        });
        let e = T::shr::<29>(l[8]);
        l[8] = T::and(l[8], m);
        l[0] = T::add(l[0], T::mul(e, r0));
        l[1] = T::add(l[1], T::shl::<8>(e));
        l[1] = T::add(l[1], T::shr::<29>(l[0]));
        l[0] = T::and(l[0], m);
        l
    }

    #[inline(always)]
    pub fn mul29<T: V>(a: &[T; 9], b: &[T; 9]) -> [T; 9] {
        let mut t = [T::splat(0); 17];
        unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
            unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
                t[i + j] = T::add(t[i + j], T::mul(a[i], b[j]));
            });
        });
        fold29(t)
    }

    #[inline(always)]
    pub fn sqr29<T: V>(a: &[T; 9]) -> [T; 9] {
        let mut d = *a;
        unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
            d[i] = T::shl::<1>(a[i]);
        });
        let mut t = [T::splat(0); 17];
        unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
            t[2 * i] = T::add(t[2 * i], T::mul(a[i], a[i]));
            unroll!(j in [1, 2, 3, 4, 5, 6, 7, 8] {
                if j > i {
                    t[i + j] = T::add(t[i + j], T::mul(d[i], a[j]));
                }
            });
        });
        fold29(t)
    }

    /// 10 × 26, the same scheme: the high columns carried, folded with 2²⁶⁰ ≡ 2³⁶ + 15632
    /// (15632 at limb k, 2¹⁰ at limb k + 1), t₁₈'s carry twice around, one carry pass,
    /// limb 9's excess folded, limbs 0 and 1 carried. Inputs: limbs below 2²⁸ (so that
    /// t₁₈'s carry fits 32 bits); outputs below 2²⁶ + 2⁸.
    #[inline(always)]
    fn fold26<T: V>(mut t: [T; 19]) -> [T; 10] {
        let m = T::splat(M26);
        unroll!(k in [9, 10, 11, 12, 13, 14, 15, 16, 17] {
            t[k + 1] = T::add(t[k + 1], T::shr::<26>(t[k]));
            t[k] = T::and(t[k], m);
        });
        let top = T::shr::<26>(t[18]);
        t[18] = T::and(t[18], m);
        let r0 = T::splat(15632);
        let mut l = [t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9]];
        unroll!(k in [10, 11, 12, 13, 14, 15, 16, 17, 18] {
            l[k - 10] = T::add(l[k - 10], T::mul(t[k], r0));
            l[k - 9] = T::add(l[k - 9], T::shl::<10>(t[k]));
        });
        l[9] = T::add(l[9], T::mul(top, r0));
        l[0] = T::add(l[0], T::mul(top, T::splat(15632 << 10)));
        l[1] = T::add(l[1], T::shl::<20>(top));
        unroll!(k in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
            l[k + 1] = T::add(l[k + 1], T::shr::<26>(l[k]));
            l[k] = T::and(l[k], m);
        });
        let e = T::shr::<26>(l[9]);
        l[9] = T::and(l[9], m);
        l[0] = T::add(l[0], T::mul(e, r0));
        l[1] = T::add(l[1], T::shl::<10>(e));
        l[1] = T::add(l[1], T::shr::<26>(l[0]));
        l[0] = T::and(l[0], m);
        l[2] = T::add(l[2], T::shr::<26>(l[1]));
        l[1] = T::and(l[1], m);
        l
    }

    #[inline(always)]
    pub fn mul26<T: V>(a: &[T; 10], b: &[T; 10]) -> [T; 10] {
        let mut t = [T::splat(0); 19];
        unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] {
            unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] {
                t[i + j] = T::add(t[i + j], T::mul(a[i], b[j]));
            });
        });
        fold26(t)
    }

    #[inline(always)]
    pub fn sqr26<T: V>(a: &[T; 10]) -> [T; 10] {
        let mut d = *a;
        unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] {
            d[i] = T::shl::<1>(a[i]);
        });
        let mut t = [T::splat(0); 19];
        unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] {
            t[2 * i] = T::add(t[2 * i], T::mul(a[i], a[i]));
            unroll!(j in [1, 2, 3, 4, 5, 6, 7, 8, 9] {
                if j > i {
                    t[i + j] = T::add(t[i + j], T::mul(d[i], a[j]));
                }
            });
        });
        fold26(t)
    }

    /// For every (vector, radix): one multiply and one square over limb-major buffers (the
    /// kernels llvm-mca models) and the chains the timing runs.
    macro_rules! entries {
        ($feat:literal, $T:ty, $lanes:literal, $n:literal, $mul:ident, $sqr:ident,
         $k_mul:ident, $k_sqr:ident, $chains:ident) => {
            /// One multiply of `$lanes` lanes: `out = a·b`, limb-major buffers.
            ///
            /// # Safety
            /// The CPU has the feature; each buffer holds lanes × limbs words.
            #[unsafe(no_mangle)]
            #[target_feature(enable = $feat)]
            pub unsafe extern "C" fn $k_mul(a: *const u64, b: *const u64, out: *mut u64) {
                let mut x = [<$T as V>::splat(0); $n];
                let mut y = x;
                for k in 0..$n {
                    // SAFETY: the caller's contract.
                    unsafe {
                        x[k] = core::ptr::read_unaligned(a.cast::<$T>().add(k));
                        y[k] = core::ptr::read_unaligned(b.cast::<$T>().add(k));
                    }
                }
                let r = $mul(&x, &y);
                for k in 0..$n {
                    // SAFETY: the caller's contract.
                    unsafe { core::ptr::write_unaligned(out.cast::<$T>().add(k), r[k]) };
                }
            }

            /// One square of `$lanes` lanes: `out = a²`.
            ///
            /// # Safety
            /// As the multiply.
            #[unsafe(no_mangle)]
            #[target_feature(enable = $feat)]
            pub unsafe extern "C" fn $k_sqr(a: *const u64, out: *mut u64) {
                let mut x = [<$T as V>::splat(0); $n];
                for k in 0..$n {
                    // SAFETY: the caller's contract.
                    unsafe { x[k] = core::ptr::read_unaligned(a.cast::<$T>().add(k)) };
                }
                let r = $sqr(&x);
                for k in 0..$n {
                    // SAFETY: the caller's contract.
                    unsafe { core::ptr::write_unaligned(out.cast::<$T>().add(k), r[k]) };
                }
            }

            /// `C` chains of `iters` dependent operations (x ← x·b, or x ← x² when
            /// `square`), in place on limb-major buffers.
            ///
            /// # Safety
            /// The CPU has the feature.
            #[target_feature(enable = $feat)]
            pub unsafe fn $chains<const C: usize>(
                x: &mut [[u64; $lanes * $n]; C],
                b: &[u64; $lanes * $n],
                iters: usize,
                square: bool,
            ) {
                let mut v = [[<$T as V>::splat(0); $n]; C];
                let mut bb = [<$T as V>::splat(0); $n];
                for k in 0..$n {
                    // SAFETY: in bounds: $n vectors of $lanes words.
                    unsafe {
                        bb[k] = core::ptr::read_unaligned(b.as_ptr().cast::<$T>().add(k));
                        for c in 0..C {
                            v[c][k] = core::ptr::read_unaligned(x[c].as_ptr().cast::<$T>().add(k));
                        }
                    }
                }
                if square {
                    for _ in 0..iters {
                        for vc in v.iter_mut() {
                            *vc = $sqr(vc);
                        }
                    }
                } else {
                    for _ in 0..iters {
                        for vc in v.iter_mut() {
                            *vc = $mul(vc, &bb);
                        }
                    }
                }
                for c in 0..C {
                    for k in 0..$n {
                        // SAFETY: in bounds, as above.
                        unsafe {
                            core::ptr::write_unaligned(
                                x[c].as_mut_ptr().cast::<$T>().add(k),
                                v[c][k],
                            )
                        };
                    }
                }
            }
        };
    }

    entries!(
        "avx2",
        __m256i,
        4,
        9,
        mul29,
        sqr29,
        lane_mul_avx2_mul29,
        lane_mul_avx2_sqr29,
        avx2_29
    );
    entries!(
        "avx2",
        __m256i,
        4,
        10,
        mul26,
        sqr26,
        lane_mul_avx2_mul26,
        lane_mul_avx2_sqr26,
        avx2_26
    );
    entries!(
        "avx512f",
        __m512i,
        8,
        9,
        mul29,
        sqr29,
        lane_mul_avx512f_mul29,
        lane_mul_avx512f_sqr29,
        avx512f_29
    );
    entries!(
        "avx512f",
        __m512i,
        8,
        10,
        mul26,
        sqr26,
        lane_mul_avx512f_mul26,
        lane_mul_avx512f_sqr26,
        avx512f_26
    );
}

#[cfg(target_arch = "x86_64")]
mod run {
    use super::kernels::*;
    use asmcrypto::internals::{FieldElement as Fe, FieldMul, MulxAdx};
    use std::hint::black_box;
    use std::time::Instant;

    /// The scalar multiply the lanes are measured against (the kernel llvm-mca models).
    #[unsafe(no_mangle)]
    #[inline(never)]
    pub fn lane_mul_scalar_mul(m: MulxAdx, a: &Fe, b: &Fe) -> Fe {
        m.mul(a, b)
    }

    /// The scalar square.
    #[unsafe(no_mangle)]
    #[inline(never)]
    pub fn lane_mul_scalar_sqr(m: MulxAdx, a: &Fe) -> Fe {
        m.sqr(a)
    }

    fn rng(s: &mut u64) -> u64 {
        *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The value of limbs of `bits` bits each, mod p, through the scalar core.
    fn value(limbs: &[u64], bits: u32) -> [u64; 4] {
        let radix = Fe::from_u64x4([1 << bits, 0, 0, 0]);
        let mut v = Fe::from_u64x4([0; 4]);
        for &l in limbs.iter().rev() {
            v = v.mul(&radix).add(&Fe::from_u64x4([l, 0, 0, 0]));
        }
        v.normalize().to_u64x4()
    }

    /// Checks one kernel against the scalar core on limbs up to `max` (all-max limbs,
    /// random ones, long runs of ones).
    fn check(
        name: &str,
        lanes: usize,
        n: usize,
        bits: u32,
        max: u64,
        mul: unsafe extern "C" fn(*const u64, *const u64, *mut u64),
        sqr: unsafe extern "C" fn(*const u64, *mut u64),
    ) {
        let mut s = 7u64;
        for round in 0..2000 {
            let pick = |s: &mut u64, k: usize| match (round + k) % 4 {
                0 => max,
                1 => rng(s) % (max + 1),
                2 => (1 << bits) - 1,
                _ => rng(s) & ((1 << bits) - 1),
            };
            let a: Vec<u64> = (0..lanes * n).map(|k| pick(&mut s, k)).collect();
            let b: Vec<u64> = (0..lanes * n).map(|k| pick(&mut s, k + 1)).collect();
            let (mut o, mut q) = (vec![0u64; lanes * n], vec![0u64; lanes * n]);
            // SAFETY: the caller checked the CPU feature; buffers of lanes × limbs words.
            unsafe {
                mul(a.as_ptr(), b.as_ptr(), o.as_mut_ptr());
                sqr(a.as_ptr(), q.as_mut_ptr());
            }
            for i in 0..lanes {
                let g = |v: &[u64]| (0..n).map(|k| v[k * lanes + i]).collect::<Vec<_>>();
                let (va, vb) = (value(&g(&a), bits), value(&g(&b), bits));
                let (fa, fb) = (Fe::from_u64x4(va), Fe::from_u64x4(vb));
                assert_eq!(
                    value(&g(&o), bits),
                    fa.mul(&fb).normalize().to_u64x4(),
                    "{name} mul"
                );
                assert_eq!(
                    value(&g(&q), bits),
                    fa.sqr().normalize().to_u64x4(),
                    "{name} sqr"
                );
                assert!(
                    g(&o).iter().chain(&g(&q)).all(|&l| l <= max),
                    "{name}: output bound"
                );
            }
        }
    }

    pub fn main() {
        let rounds: usize = std::env::args()
            .nth(1)
            .map_or(300, |a| a.parse().expect("ROUNDS"));
        let Some(adx) = MulxAdx::detect() else {
            eprintln!("this CPU lacks BMI2/ADX: nothing to compare against");
            std::process::exit(2);
        };
        let avx2 = std::arch::is_x86_feature_detected!("avx2");
        let avx512f = std::arch::is_x86_feature_detected!("avx512f");
        println!("asmcrypto: {}", asmcrypto::backend_details());
        println!("AVX2: {avx2}, AVX-512 F: {avx512f}");
        if avx2 {
            check(
                "avx2 9x29",
                4,
                9,
                29,
                (1 << 30) - 1,
                lane_mul_avx2_mul29,
                lane_mul_avx2_sqr29,
            );
            check(
                "avx2 10x26",
                4,
                10,
                26,
                (1 << 28) - 1,
                lane_mul_avx2_mul26,
                lane_mul_avx2_sqr26,
            );
        }
        if avx512f {
            check(
                "avx512f 9x29",
                8,
                9,
                29,
                (1 << 30) - 1,
                lane_mul_avx512f_mul29,
                lane_mul_avx512f_sqr29,
            );
            check(
                "avx512f 10x26",
                8,
                10,
                26,
                (1 << 28) - 1,
                lane_mul_avx512f_mul26,
                lane_mul_avx512f_sqr26,
            );
        }
        println!("every kernel agrees with the scalar core at its limb bounds");
        // The kernels llvm-mca models, kept in the binary.
        black_box(lane_mul_scalar_mul as fn(MulxAdx, &Fe, &Fe) -> Fe);
        black_box(lane_mul_scalar_sqr as fn(MulxAdx, &Fe) -> Fe);

        let iters = 2000usize;
        let mut s = 1u64;
        let fe: [Fe; 8] = core::array::from_fn(|_| {
            Fe::from_u64x4([rng(&mut s), rng(&mut s), rng(&mut s), rng(&mut s) >> 1])
        });
        let fb = Fe::from_u64x4([rng(&mut s), rng(&mut s), rng(&mut s), rng(&mut s) >> 1]);
        let time = |f: &mut dyn FnMut()| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64() * 1e9
        };
        // (name, ops per timed run, best ns per op), kept in a fixed order.
        let mut rows: Vec<(String, f64, f64)> = Vec::new();
        let record = |rows: &mut Vec<(String, f64, f64)>,
                      at: &mut usize,
                      name: String,
                      per: f64,
                      ns: f64| {
            if rows.len() <= *at {
                rows.push((name, per, f64::INFINITY));
            }
            rows[*at].2 = rows[*at].2.min(ns / per);
            *at += 1;
        };
        for _ in 0..rounds {
            let mut at = 0;
            for square in [false, true] {
                let op = if square { "sqr" } else { "mul" };
                let ns = time(&mut || {
                    let mut x = fe;
                    for _ in 0..iters {
                        for xc in x.iter_mut() {
                            *xc = if square {
                                adx.sqr(xc)
                            } else {
                                adx.mul(xc, &fb)
                            };
                        }
                    }
                    black_box(x);
                });
                record(
                    &mut rows,
                    &mut at,
                    format!("scalar MULX/ADX {op}, throughput (8 chains)"),
                    (iters * 8) as f64,
                    ns,
                );
                let ns = time(&mut || {
                    let mut x = fe[0];
                    for _ in 0..iters {
                        x = if square {
                            adx.sqr(&x)
                        } else {
                            adx.mul(&x, &fb)
                        };
                    }
                    black_box(x);
                });
                record(
                    &mut rows,
                    &mut at,
                    format!("scalar MULX/ADX {op}, latency"),
                    iters as f64,
                    ns,
                );
                macro_rules! lanes {
                    ($name:literal, $chains:ident, $lanes:literal, $n:literal, $bits:literal) => {{
                        let mut ss = 3u64;
                        let mut x8 = [[0u64; $lanes * $n]; 8];
                        for w in x8.iter_mut().flatten() {
                            *w = rng(&mut ss) & ((1 << $bits) - 1);
                        }
                        let mut b = [0u64; $lanes * $n];
                        for w in b.iter_mut() {
                            *w = rng(&mut ss) & ((1 << $bits) - 1);
                        }
                        // SAFETY: the feature was checked before this macro runs.
                        let ns = time(&mut || unsafe {
                            $chains::<8>(black_box(&mut x8), &b, iters, square)
                        });
                        record(
                            &mut rows,
                            &mut at,
                            format!("{} {op}, throughput (8 chains), per lane", $name),
                            (iters * 8 * $lanes) as f64,
                            ns,
                        );
                        let mut x1 = [x8[0]];
                        // SAFETY: as above.
                        let ns = time(&mut || unsafe {
                            $chains::<1>(black_box(&mut x1), &b, iters, square)
                        });
                        record(
                            &mut rows,
                            &mut at,
                            format!("{} {op}, latency", $name),
                            iters as f64,
                            ns,
                        );
                    }};
                }
                if avx2 {
                    lanes!("AVX2 9x29, 4 lanes", avx2_29, 4, 9, 29);
                    lanes!("AVX2 10x26, 4 lanes", avx2_26, 4, 10, 26);
                }
                if avx512f {
                    lanes!("AVX-512F 9x29, 8 lanes", avx512f_29, 8, 9, 29);
                    lanes!("AVX-512F 10x26, 8 lanes", avx512f_26, 8, 10, 26);
                }
            }
        }
        println!();
        println!(
            "best of {rounds} interleaved rounds; ns per operation (throughput rows: per lane)"
        );
        let (smul, ssqr) = (
            rows[0].2,
            rows.iter()
                .find(|r| r.0.starts_with("scalar MULX/ADX sqr, thr"))
                .map_or(1.0, |r| r.2),
        );
        let (lmul, lsqr) = (
            rows[1].2,
            rows.iter()
                .find(|r| r.0.starts_with("scalar MULX/ADX sqr, lat"))
                .map_or(1.0, |r| r.2),
        );
        println!("{:<55} {:>9} {:>22}", "kernel", "ns", "vs the scalar op");
        for (name, _, ns) in &rows {
            let base = match (name.contains("sqr"), name.contains("latency")) {
                (false, false) => smul,
                (true, false) => ssqr,
                (false, true) => lmul,
                (true, true) => lsqr,
            };
            println!("{name:<55} {ns:>9.2} {:>21.3}x", ns / base);
        }
    }
}

fn main() {
    #[cfg(target_arch = "x86_64")]
    run::main();
    #[cfg(not(target_arch = "x86_64"))]
    eprintln!("x86-64 only");
}
