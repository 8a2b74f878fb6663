//! The 8-lane engine's field and scalars at the limb bounds their types promise, against
//! num-bigint (self-contained: it names only `lanes::field`, `lanes::scalar` and a
//! backend, so it moves with them).
//!
//! - `Fe8` (reduced): limbs 0..3 carried (their low 52 bits are the digits, anything above
//!   them ignored: drawn here as random bits up to 2⁶³), limb 4 below 2⁴⁸ + 2¹²: every
//!   product, fused product and linear operation takes any such input and returns one;
//! - `Unreduced8`: every limb below 2⁵⁶: every linear operation takes it as any operand;
//! - `reduce`: any limbs below 2⁶² in, a reduced element out;
//! - `Sc8`: limbs below 2⁵², value below n.
//!
//! The limbs are drawn at the maxima (all at once, and one at a time), at 0, at 2⁵¹, and as
//! long runs of ones and zeros cut to the bound, so that every carry chain runs its full
//! length.

use crate::lanes::field::{Fe8, M52, Unreduced8, reduce};
use crate::lanes::lane_field::{LaneField, Linear};
use crate::lanes::portable::Portable;
use crate::lanes::scalar::Sc8;
use crate::lanes::{Backend, LANES};
use asmcrypto_testkit::SplitMix64;
use asmcrypto_testkit::boundary::bit_runs;
use num_bigint::BigUint;

type B = Portable;

/// The largest digits of a reduced element.
const REDUCED_MAX: [u64; 5] = [M52, M52, M52, M52, (1 << 48) + (1 << 12) - 1];
/// The largest limb of an unreduced one.
const UNREDUCED_MAX: u64 = (1 << 56) - 1;

fn p() -> BigUint {
    asmcrypto_testkit::p()
}

fn radix52(l: &[u64; 5]) -> BigUint {
    l.iter().rev().fold(BigUint::from(0u8), |acc, &x| {
        (acc << 52u32) + BigUint::from(x)
    })
}

/// The limbs of every lane.
fn lanes(v: &[<B as Backend>::V; 5]) -> [[u64; 5]; LANES] {
    let cols = v.map(B::store);
    core::array::from_fn(|i| core::array::from_fn(|k| cols[k][i]))
}

fn vectors(l: &[[u64; 5]; LANES]) -> [<B as Backend>::V; 5] {
    core::array::from_fn(|k| B::load(&core::array::from_fn(|i| l[i][k])))
}

/// One limb at most `max`: the maximum, one below it, 0, 1, 2⁵¹, or a long bit run (or
/// a random value) cut to the bound.
fn limb(rng: &mut SplitMix64, max: u64) -> u64 {
    match rng.below(8) {
        0 | 1 => max,
        2 => max - 1,
        3 => 0,
        4 => 1.min(max),
        5 => (1 << 51).min(max),
        6 => {
            let b = bit_runs(rng);
            u64::from_be_bytes(b[..8].try_into().expect("8 bytes")) % (max + 1)
        }
        _ => rng.next_u64() % (max + 1),
    }
}

/// Eight lanes of limbs at most `max[k]`: lane 0 all at the maximum, the others drawn.
fn limbs(rng: &mut SplitMix64, max: [u64; 5]) -> [[u64; 5]; LANES] {
    core::array::from_fn(|i| {
        core::array::from_fn(|k| if i == 0 { max[k] } else { limb(rng, max[k]) })
    })
}

/// The digits of reduced limbs: limbs 0..3 cut to 52 bits.
fn digits(l: &[u64; 5]) -> [u64; 5] {
    core::array::from_fn(|k| if k < 4 { l[k] & M52 } else { l[k] })
}

/// Reduced limbs with digits `d` and random carried bits above the digits of limbs 0..3
/// (bits 52 to 62, as `reduce` can leave them).
fn carried(rng: &mut SplitMix64, d: [[u64; 5]; LANES]) -> [[u64; 5]; LANES] {
    d.map(|l| {
        core::array::from_fn(|k| {
            if k < 4 {
                l[k] | (rng.next_u64() >> 2) & !M52
            } else {
                l[k]
            }
        })
    })
}

/// Every lane of `got` is reduced and ≡ `want(lane)` (mod p).
fn check_reduced(got: &Fe8<B>, want: impl Fn(usize) -> BigUint, what: &str) {
    let p = p();
    for (i, l) in lanes(&got.0).iter().enumerate() {
        assert!(
            l[4] <= REDUCED_MAX[4],
            "{what}: lane {i} limb 4 = {:#x}",
            l[4]
        );
        assert_eq!(radix52(&digits(l)) % &p, want(i) % &p, "{what}: lane {i}");
    }
}

#[test]
fn lane_field_at_its_limb_bounds() {
    let p = p();
    let mut rng = SplitMix64(0x1b);
    let unreduced = [UNREDUCED_MAX; 5];
    for _ in 0..400 {
        let (ra, rb) = (limbs(&mut rng, REDUCED_MAX), limbs(&mut rng, REDUCED_MAX));
        let (ua, ub) = (limbs(&mut rng, unreduced), limbs(&mut rng, unreduced));
        let (fa, fb) = (
            Fe8::<B>(vectors(&carried(&mut rng, ra))),
            Fe8::<B>(vectors(&carried(&mut rng, rb))),
        );
        let (xa, xb) = (Unreduced8::<B>(vectors(&ua)), Unreduced8::<B>(vectors(&ub)));
        let v = |l: &[[u64; 5]; LANES], i: usize| radix52(&l[i]);
        let sub = |x: BigUint, y: BigUint| (x % &p + &p - y % &p) % &p;
        // Products of reduced elements at their maxima; the unreduced products' bound.
        check_reduced(&fa.mul(&fb), |i| v(&ra, i) * v(&rb, i), "mul");
        check_reduced(&fa.sqr(), |i| v(&ra, i) * v(&ra, i), "sqr");
        let prod = |i: usize| v(&ra, i) * v(&rb, i);
        let square = |i: usize| v(&ra, i) * v(&ra, i);
        type Want<'a> = &'a dyn Fn(usize) -> BigUint;
        let products: [(Unreduced8<B>, Want); 2] = [
            (fa.mul_unreduced(&fb), &prod),
            (fa.sqr_unreduced(), &square),
        ];
        for (u, want) in products {
            for (i, l) in lanes(&u.0).iter().enumerate() {
                assert!(
                    l.iter().all(|&x| x <= UNREDUCED_MAX),
                    "unreduced product {l:x?}"
                );
                assert_eq!(radix52(l) % &p, want(i) % &p);
            }
            check_reduced(&u.reduce(), want, "unreduced product, reduced");
        }
        // The linear operations on unreduced operands at their maxima, and mixed.
        check_reduced(&xa.add(&xb), |i| v(&ua, i) + v(&ub, i), "add");
        check_reduced(&xa.sub(&xb), |i| sub(v(&ua, i), v(&ub, i)), "sub");
        check_reduced(&fa.sub(&xb), |i| sub(v(&ra, i), v(&ub, i)), "sub mixed");
        check_reduced(&xa.neg(), |i| sub(BigUint::from(0u8), v(&ua, i)), "neg");
        check_reduced(&xa.shl::<3>(), |i| v(&ua, i) << 3u32, "shl 3");
        check_reduced(&xa.shl::<0>(), |i| v(&ua, i), "shl 0");
        check_reduced(&xa.triple(), |i| v(&ua, i) * 3u8, "triple");
        check_reduced(
            &xa.shl_sub::<3>(&xb),
            |i| sub(v(&ua, i) << 3u32, v(&ub, i)),
            "shl_sub 3",
        );
        check_reduced(
            &xa.shl_sub::<0>(&xb),
            |i| sub(v(&ua, i), v(&ub, i)),
            "shl_sub 0",
        );
        check_reduced(
            &xa.sub_shl::<3>(&xb),
            |i| sub(v(&ua, i), v(&ub, i) << 3u32),
            "sub_shl 3",
        );
        check_reduced(
            &xa.sub_shl::<1>(&xb),
            |i| sub(v(&ua, i), v(&ub, i) << 1u32),
            "sub_shl 1",
        );
        check_reduced(
            &xa.neg_sub(&xb),
            |i| sub(BigUint::from(0u8), v(&ua, i) + v(&ub, i)),
            "neg_sub",
        );
        check_reduced(
            &xa.sub_sub_dbl(&xb, &fa),
            |i| sub(v(&ua, i), v(&ub, i) + v(&ra, i) * 2u8),
            "sub_sub_dbl",
        );
        check_reduced(
            &fa.sub_sub_dbl(&xa, &xb),
            |i| sub(v(&ra, i), v(&ua, i) + v(&ub, i) * 2u8),
            "sub_sub_dbl, unreduced subtrahends",
        );
        check_reduced(
            &xa.sub_sub(&xb, &fa),
            |i| sub(v(&ua, i), v(&ub, i) + v(&ra, i)),
            "sub_sub",
        );
        check_reduced(
            &fa.sub_sub(&xa, &xb),
            |i| sub(v(&ra, i), v(&ua, i) + v(&ub, i)),
            "sub_sub, unreduced subtrahends",
        );
        // The fused products, their subtrahends unreduced at their maxima and reduced.
        check_reduced(
            &fa.mul_sub_shl::<3>(&fb, &xa),
            |i| sub(v(&ra, i) * v(&rb, i), v(&ua, i) << 3u32),
            "mul_sub_shl 3",
        );
        check_reduced(
            &fa.mul_sub_shl::<0>(&fb, &fa),
            |i| sub(v(&ra, i) * v(&rb, i), v(&ra, i)),
            "mul_sub_shl 0",
        );
        for (got, k) in [
            (fa.sqr_sub_shl::<1>(&xb), 1u32),
            (fa.sqr_sub_shl::<2>(&xb), 2),
            (fa.sqr_sub_shl::<3>(&xb), 3),
        ] {
            check_reduced(
                &got,
                |i| sub(v(&ra, i) * v(&ra, i), v(&ub, i) << k),
                "sqr_sub_shl",
            );
        }
        check_reduced(
            &fb.sqr_sub_sub_dbl(&xa, &xb),
            |i| sub(v(&rb, i) * v(&rb, i), v(&ua, i) + v(&ub, i) * 2u8),
            "sqr_sub_sub_dbl",
        );
        check_reduced(
            &fb.sqr_sub_sub_dbl(&fa, &fa),
            |i| sub(v(&rb, i) * v(&rb, i), v(&ra, i) * 3u8),
            "sqr_sub_sub_dbl, reduced subtrahends",
        );
        check_reduced(
            &fb.sqr_sub_sub(&xa, &xb),
            |i| sub(v(&rb, i) * v(&rb, i), v(&ua, i) + v(&ub, i)),
            "sqr_sub_sub",
        );
        check_reduced(
            &fb.sqr_sub_sub(&fa, &fa),
            |i| sub(v(&rb, i) * v(&rb, i), v(&ra, i) * 2u8),
            "sqr_sub_sub, reduced subtrahends",
        );
        // reduce itself on limbs just below 2⁶².
        let wide = limbs(&mut rng, [(1 << 62) - 1; 5]);
        check_reduced(&Fe8(reduce::<B>(vectors(&wide))), |i| v(&wide, i), "reduce");
        // The canonical form, the zero and parity tests of a reduced element.
        let canon = fa.normalize();
        for (i, l) in lanes(&canon.0).iter().enumerate() {
            let want = v(&ra, i) % &p;
            // Clean limbs: `to_words` needs them.
            assert!(
                l[..4].iter().all(|&x| x <= M52),
                "normalize lane {i}: {l:x?}"
            );
            assert_eq!(radix52(l), want, "normalize lane {i}");
            assert_eq!(fa.is_zero() >> i & 1 == 1, want == BigUint::from(0u8));
            assert_eq!(fa.is_odd() >> i & 1 == 1, want.bit(0));
        }
    }
}

/// Reduced elements that are p and 0 in some lanes, at the top of the reduced range
/// (2²⁵⁶ + 2²²⁰ − 1 ≡ 2³² + 977 + 2²²⁰ − 1) in others: the zero test, the equality and the
/// canonical form.
#[test]
fn lane_field_zero_and_p() {
    let p = p();
    let p52 = [0xF_FFFE_FFFF_FC2F, M52, M52, M52, (1 << 48) - 1];
    assert_eq!(radix52(&p52), p);
    let two_p = &p << 1u32;
    let top = REDUCED_MAX;
    assert!(radix52(&top) < two_p, "the reduced bound is below 2p");
    let l: [[u64; 5]; LANES] = [p52, [0; 5], top, p52, [1, 0, 0, 0, 0], top, [0; 5], p52];
    // With carried bits above the digits: the tests read the digits alone.
    let f = Fe8::<B>(vectors(&carried(&mut SplitMix64(0x2b), l)));
    assert_eq!(f.is_zero(), 0b1100_1011);
    let canon = lanes(&f.normalize().0);
    for i in 0..LANES {
        assert_eq!(radix52(&canon[i]), radix52(&l[i]) % &p);
    }
    assert_eq!(f.eq(&Fe8(vectors(&[[0; 5]; LANES]))), 0b1100_1011);
}

/// The lane scalars at n − 1 and on long bit runs below n: the Montgomery product and the
/// negation against num-bigint.
#[test]
fn lane_scalars_at_their_bounds() {
    use crate::secp256k1::scalar::Scalar;
    let n = asmcrypto_testkit::n();
    let rinv = (BigUint::from(1u8) << 260u32)
        .modinv(&n)
        .expect("invertible");
    let mut rng = SplitMix64(0x5c);
    let big = |s: &Scalar| BigUint::from_bytes_be(&s.to_bytes());
    let mut vals: Vec<Scalar> = vec![
        Scalar::ONE.negate(),
        Scalar::ONE.negate().add(&Scalar::ONE.negate()),
        Scalar::ZERO,
        Scalar::ONE,
    ];
    while vals.len() < 4000 {
        vals.push(Scalar::from_bytes_reduced(&bit_runs(&mut rng)));
    }
    for (c, d) in vals.chunks(LANES).zip(vals.chunks(LANES).rev()) {
        let a: [Scalar; LANES] = core::array::from_fn(|i| c[i % c.len()]);
        let b: [Scalar; LANES] = core::array::from_fn(|i| d[i % d.len()]);
        let load = |v: &[Scalar; LANES]| {
            Sc8::<B>::from_words(core::array::from_fn(|k| {
                B::load(&core::array::from_fn(|i| v[i].0[k]))
            }))
        };
        let (sa, sb) = (load(&a), load(&b));
        for l in lanes(&sa.0) {
            assert!(l.iter().all(|&x| x <= M52));
        }
        let prod = sa.mont_mul(&sb);
        let neg = sa.neg();
        for l in lanes(&prod.0).iter().chain(&lanes(&neg.0)) {
            assert!(l.iter().all(|&x| x <= M52) && radix52(l) < n, "{l:x?}");
        }
        let (prod, neg) = (prod.to_lanes(), neg.to_lanes());
        for i in 0..LANES {
            assert_eq!(big(&prod[i]), big(&a[i]) * big(&b[i]) % &n * &rinv % &n);
            assert_eq!(big(&neg[i]), (&n - big(&a[i])) % &n);
        }
    }
}
