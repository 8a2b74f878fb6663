//! Issue 40's go/no-go for an 8-lane P-256 engine: is a P-256 field multiply on AVX-512
//! IFMA lanes, per lane, at most 0.85× the scalar MULX/ADX multiply of the crate's P-256
//! field (`src/p256/field_adx.rs`)?
//!
//! The lane multiply is a Montgomery product in radix 2⁵², five limbs, R = 2²⁶⁰: 25
//! `vpmadd52luq` and 25 `vpmadd52huq` for the product's ten columns, then five word steps
//! of the reduction. p's lowest 52-bit limb is 2⁵² − 1, so −p⁻¹ ≡ 1 (mod 2⁵²): the quotient
//! digit is the low 52 bits of the column itself (no product), and adding q·p₀ clears the
//! column with a carry of q plus its bits above 52. p's other limbs are 2⁴⁴ − 1, 0, 2³⁶
//! and 2⁴⁸ − 2¹⁶, so a step is three products (six `vpmadd52`). Inputs below 2²⁵⁷ give an
//! output below 2p (ab/R < p), so no final subtraction: the output feeds the next product
//! as it is, with its five limbs carried down to 52 bits (the top one to 49).
//!
//! The lane multiply is first checked against the crate's field (its Montgomery product,
//! R = 2²⁵⁶) on 32,000 lanes: 0, p − 1, a value between p and 2²⁵⁶, and random ones below
//! p, with out·2²⁶⁰ ≡ a·b (mod p), out < 2p and its limbs within their bounds.
//! Then timed, best of interleaved rounds:
//! - throughput: the scalar multiply on 8 independent chains, ns per product; the lane
//!   multiply on 4 independent vectors (32 lanes), ns per lane;
//! - latency: one chain of dependent products, ns per product, and per lane for the lanes
//!   (the 8 lanes of one vector).
//!
//! `cargo run --release -p asmcrypto-tools --bin p256_lane_mul [ROUNDS]` (default 300).
//! On a CPU without AVX-512 IFMA it says so and exits with status 2.

#[cfg(target_arch = "x86_64")]
mod lanes {
    use asmcrypto::internals::{P256Fe as Fe, P256FieldMul, P256MulxAdx};
    use core::arch::x86_64::*;
    use std::hint::black_box;
    use std::time::Instant;

    const M52: u64 = (1 << 52) - 1;
    /// p's limbs 1, 3 and 4 in radix 2⁵² (limb 0 is 2⁵² − 1, limb 2 is 0).
    const P1: u64 = (1 << 44) - 1;
    const P3: u64 = 1 << 36;
    const P4: u64 = 0x0000_FFFF_FFFF_0000;
    /// p, little-endian 64-bit words.
    const P: [u64; 4] = [
        0xFFFF_FFFF_FFFF_FFFF,
        0x0000_0000_FFFF_FFFF,
        0x0000_0000_0000_0000,
        0xFFFF_FFFF_0000_0001,
    ];

    /// Eight field elements, limb k of lane i in `.0[k]`'s lane i.
    #[derive(Clone, Copy)]
    pub struct Lanes(pub [__m512i; 5]);

    /// a·b·2⁻²⁶⁰ mod p on each lane, below 2p, limbs carried down to 52 bits.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub unsafe fn mont_mul(a: &Lanes, b: &Lanes) -> Lanes {
        let (a, b) = (&a.0, &b.0);
        let mut t = [_mm512_setzero_si512(); 10];
        for i in 0..5 {
            for j in 0..5 {
                t[i + j] = _mm512_madd52lo_epu64(t[i + j], a[i], b[j]);
                t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a[i], b[j]);
            }
        }
        let m52 = _mm512_set1_epi64(M52 as i64);
        let (p1, p3, p4) = (
            _mm512_set1_epi64(P1 as i64),
            _mm512_set1_epi64(P3 as i64),
            _mm512_set1_epi64(P4 as i64),
        );
        for i in 0..5 {
            let q = _mm512_and_si512(t[i], m52);
            // t[i] + q·(2⁵² − 1) = (t[i] >> 52 + q)·2⁵².
            let carry = _mm512_add_epi64(_mm512_srli_epi64::<52>(t[i]), q);
            t[i + 1] = _mm512_add_epi64(t[i + 1], carry);
            t[i + 1] = _mm512_madd52lo_epu64(t[i + 1], q, p1);
            t[i + 2] = _mm512_madd52hi_epu64(t[i + 2], q, p1);
            t[i + 3] = _mm512_madd52lo_epu64(t[i + 3], q, p3);
            t[i + 4] = _mm512_madd52hi_epu64(t[i + 4], q, p3);
            t[i + 4] = _mm512_madd52lo_epu64(t[i + 4], q, p4);
            t[i + 5] = _mm512_madd52hi_epu64(t[i + 5], q, p4);
        }
        for k in 5..9 {
            t[k + 1] = _mm512_add_epi64(t[k + 1], _mm512_srli_epi64::<52>(t[k]));
            t[k] = _mm512_and_si512(t[k], m52);
        }
        Lanes([t[5], t[6], t[7], t[8], t[9]])
    }

    fn rng(s: &mut u64) -> u64 {
        *s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *s ^ (*s >> 29)
    }

    fn to_limbs(w: [u64; 4]) -> [u64; 5] {
        let v = |bit: usize| -> u64 {
            let (word, off) = (bit / 64, bit % 64);
            let lo = w.get(word).map_or(0, |x| x >> off);
            let hi = if off > 12 {
                w.get(word + 1).map_or(0, |x| x << (64 - off))
            } else {
                0
            };
            (lo | hi) & M52
        };
        [v(0), v(52), v(104), v(156), v(208)]
    }

    /// The value of five limbs: its low 256 bits as 4 words, and what lies above 2²⁵⁶.
    fn from_limbs(l: [u64; 5]) -> ([u64; 4], u128) {
        let mut acc = [0u128; 6];
        for (k, &x) in l.iter().enumerate() {
            let bit = 52 * k;
            let (word, off) = (bit / 64, bit % 64);
            acc[word] += (x as u128) << off;
        }
        let mut out = [0u64; 4];
        let mut carry = 0u128;
        for (i, o) in out.iter_mut().enumerate() {
            let v = acc[i] + carry;
            *o = v as u64;
            carry = v >> 64;
        }
        (out, carry + acc[4] + (acc[5] << 64))
    }

    fn lt(a: &[u64; 4], b: &[u64; 4]) -> bool {
        for i in (0..4).rev() {
            if a[i] != b[i] {
                return a[i] < b[i];
            }
        }
        false
    }

    fn sub(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        let mut out = [0u64; 4];
        let mut borrow = false;
        for i in 0..4 {
            let (d1, b1) = a[i].overflowing_sub(b[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            out[i] = d2;
            borrow = b1 | b2;
        }
        out
    }

    fn load(v: &[[u64; 5]; 8]) -> Lanes {
        // SAFETY: AVX-512 F loads of 8 words each (checked by the caller's detection).
        Lanes(core::array::from_fn(|k| unsafe {
            _mm512_loadu_si512(
                core::array::from_fn::<u64, 8, _>(|i| v[i][k])
                    .as_ptr()
                    .cast(),
            )
        }))
    }

    fn store(l: &Lanes) -> [[u64; 5]; 8] {
        let mut out = [[0u64; 5]; 8];
        for (k, &limb) in l.0.iter().enumerate() {
            let mut w = [0u64; 8];
            // SAFETY: AVX-512 F store of 8 words into an 8-word array.
            unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), limb) };
            for (lane, &x) in out.iter_mut().zip(&w) {
                lane[k] = x;
            }
        }
        out
    }

    /// The lane multiply against the crate's field, lane by lane.
    fn check() {
        // 2²⁶⁰ mod p, as an element: 2²⁵⁶ mod p (= 2²⁵⁶ − p) times 16.
        let r256 = Fe::from_canonical(sub(&[0; 4], &P));
        let r260 = r256.mul(&Fe::from_canonical([16, 0, 0, 0]));
        let p_minus_1 = sub(&P, &[1, 0, 0, 0]);
        // Bound inputs: 2p − 1 split as the output of a product may be (below 2²⁵⁷).
        let mut s = 11u64;
        for round in 0..4000 {
            let mut pick = |k: usize| -> [u64; 4] {
                match (round + k) % 5 {
                    0 => p_minus_1,
                    1 => [0; 4],
                    2 => [u64::MAX, u64::MAX, u64::MAX, P[3] - 1],
                    _ => {
                        let w = [rng(&mut s), rng(&mut s), rng(&mut s), rng(&mut s)];
                        if lt(&w, &P) { w } else { sub(&w, &P) }
                    }
                }
            };
            let a: [[u64; 4]; 8] = core::array::from_fn(&mut pick);
            let b: [[u64; 4]; 8] = core::array::from_fn(|k| pick(k + 3));
            let la = load(&a.map(to_limbs));
            let lb = load(&b.map(to_limbs));
            // SAFETY: main checked AVX-512 F and IFMA.
            let out = store(&unsafe { mont_mul(&la, &lb) });
            for i in 0..8 {
                assert!(out[i][..4].iter().all(|&l| l <= M52) && out[i][4] < 1 << 49);
                // The value, below 2²⁵⁷: four words and bit 256.
                let (w, above) = from_limbs(out[i]);
                assert!(above <= 1, "output below 2²⁵⁷");
                let reduced = if above == 1 || !lt(&w, &P) {
                    // value − p, below 2²⁵⁶ (the subtraction mod 2²⁵⁶ is exact).
                    let d = sub(&w, &P);
                    assert!(lt(&d, &P), "output below 2p");
                    d
                } else {
                    w
                };
                let got = Fe::from_canonical(reduced).mul(&r260);
                let want = Fe::from_canonical(a[i]).mul(&Fe::from_canonical(b[i]));
                assert_eq!(got, want, "lane {i}, round {round}");
            }
        }
    }

    pub fn main() {
        let rounds: usize = std::env::args()
            .nth(1)
            .map_or(300, |a| a.parse().expect("ROUNDS"));
        let Some(adx) = P256MulxAdx::detect() else {
            eprintln!("this CPU lacks BMI2/ADX: nothing to compare against");
            std::process::exit(2);
        };
        if !(is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512ifma")) {
            eprintln!("this CPU lacks AVX-512 IFMA: the lane multiply cannot run here");
            std::process::exit(2);
        }
        println!("asmcrypto: {}", asmcrypto::backend_details());
        check();
        println!("the lane multiply agrees with the crate's P-256 field on 32,000 lanes");

        let iters = 4000usize;
        let mut s = 5u64;
        let elem = |s: &mut u64| {
            let w = [rng(s), rng(s), rng(s), rng(s) >> 1];
            if lt(&w, &P) { w } else { sub(&w, &P) }
        };
        let fe: [Fe; 8] = core::array::from_fn(|_| Fe::from_canonical(elem(&mut s)));
        let fb = Fe::from_canonical(elem(&mut s));
        let vecs: [Lanes; 4] =
            core::array::from_fn(|_| load(&core::array::from_fn(|_| to_limbs(elem(&mut s)))));
        let vb = load(&core::array::from_fn(|_| to_limbs(elem(&mut s))));
        let time = |f: &mut dyn FnMut()| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64() * 1e9
        };
        // Best ns per product (scalar) or per lane (IFMA): scalar throughput, scalar
        // latency, lanes throughput, lanes latency.
        let mut best = [f64::INFINITY; 4];
        for _ in 0..rounds {
            let ns = time(&mut || {
                let mut x = fe;
                for _ in 0..iters {
                    for xc in x.iter_mut() {
                        *xc = adx.mul(xc, &fb);
                    }
                }
                black_box(x);
            });
            best[0] = best[0].min(ns / (iters * 8) as f64);
            let ns = time(&mut || {
                let mut x = fe[0];
                for _ in 0..iters {
                    x = adx.mul(&x, &fb);
                }
                black_box(x);
            });
            best[1] = best[1].min(ns / iters as f64);
            let ns = time(&mut || {
                let mut x = vecs;
                for _ in 0..iters {
                    for xc in x.iter_mut() {
                        // SAFETY: AVX-512 F and IFMA were detected above.
                        *xc = unsafe { mont_mul(xc, &vb) };
                    }
                }
                black_box(store(&x[0]));
            });
            best[2] = best[2].min(ns / (iters * 32) as f64);
            let ns = time(&mut || {
                let mut x = vecs[0];
                for _ in 0..iters {
                    // SAFETY: AVX-512 F and IFMA were detected above.
                    x = unsafe { mont_mul(&x, &vb) };
                }
                black_box(store(&x));
            });
            best[3] = best[3].min(ns / (iters * 8) as f64);
        }
        println!("{:<58} {:>10}", "P-256 field multiply (one thread)", "ns");
        println!(
            "{:<58} {:>10.3}",
            "scalar MULX/ADX, throughput (8 chains), per product", best[0]
        );
        println!(
            "{:<58} {:>10.3}",
            "scalar MULX/ADX, latency (one chain), per product", best[1]
        );
        println!(
            "{:<58} {:>10.3}",
            "IFMA 8 lanes, throughput (4 vectors), per lane", best[2]
        );
        println!(
            "{:<58} {:>10.3}",
            "IFMA 8 lanes, latency (one vector), per lane", best[3]
        );
        println!(
            "per lane / scalar: throughput {:.3}x, latency {:.3}x (go at <= 0.85x)",
            best[2] / best[0],
            best[3] / best[1]
        );
    }
}

#[cfg(target_arch = "x86_64")]
fn main() {
    lanes::main();
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    eprintln!("p256_lane_mul measures AVX-512 IFMA against MULX/ADX: x86-64 only");
    std::process::exit(2);
}
