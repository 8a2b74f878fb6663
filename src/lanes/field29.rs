//! GF(p) on eight lanes without IFMA: nine 29-bit limbs per lane, multiplied with the
//! 32 × 32 → 64-bit lane multiply (`vpmuludq`) of the backend.
//!
//! **Representation.** An element is nine limbs aᵢ of weight 2²⁹ⁱ (261 bits). It is
//! *reduced* when every limb is below 2³⁰: the only bound the multiply needs, and the one
//! every operation here returns. Reduced values are not unique (they reach 2²⁶²);
//! [`LaneField::normalize`] gives the canonical one below p.
//!
//! **Multiply.** 81 products (45 for a square, whose cross terms take a doubled operand)
//! summed into 17 columns tᵢ₊ⱼ, each below 9·2⁶⁰ < 2⁶⁴ for limbs below 2³⁰. The fold is the
//! hard part for p = 2²⁵⁶ − 0x1000003D1: 2²⁶¹ ≡ 32·0x1000003D1 = 2³⁷ + 31264 (mod p), so a
//! limb h of weight 2²⁹⁽⁹⁺ᵏ⁾ becomes h·31264 at limb k and h·2⁸ at limb k + 1. A
//! multiplicand must fit 32 bits, so the high columns (t₈ … t₁₆) are first carried into
//! 29-bit limbs (the low ones need not be: they only receive additions); t₁₆'s carry `top`
//! (weight 2⁴⁹³ ≡ (2³⁷ + 31264)·2²³²) goes to limb 8 as top·31264, and its 2⁸·2²⁶¹ part
//! once more around: top·(31264·2⁸) at limb 0 and top·2¹⁶ at limb 1. One carry pass then
//! leaves limb 8 below 2⁴⁷; its bits from 2⁹ on fold into limbs 0 and 1 as above, and one
//! last carry from limb 0 to limb 1 gives a reduced element (limb 1 below 2²⁹ + 2²⁶, the
//! others below 2²⁹). Measured against the MULX/ADX multiply in `doc/benchmarks.md`
//! (issue 25); the radix 2²⁶ with ten limbs (100 products, 19 columns) measured 13–45 %
//! slower than this one.
//!
//! **Linear operations** take reduced operands (there is no separate unreduced form: a
//! product's last carry pass is what makes its limbs fit a multiplicand, so it cannot be
//! left out) and end with [`reduce`]: limb 8's bits from 2²⁹ on folded into limbs 0 and 1
//! first, then one carry pass. A subtraction adds [`SUB_BIAS`] (64p, every limb in
//! [2²⁹, 2³⁰)) shifted so that each of its limbs is at least the subtrahend's bound.

use super::Mul32;
use super::lane_field::{LaneField, Operand, limb_ops};

/// Straight-line code for each index of a list: the limb loops must be fully unrolled so
/// that every column lives in a register (LLVM kept a 9 × 9 product loop as a loop, with
/// its columns in memory).
macro_rules! unroll {
    ($i:ident in [$($k:literal),*] $body:block) => {
        $( { #[allow(non_upper_case_globals)] const $i: usize = $k; $body } )*
    };
}

const M29: u64 = (1 << 29) - 1;
/// 2²⁶¹ mod p = 2³⁷ + FOLD: the low part of the fold of a limb of weight 2²⁶¹.
const FOLD: u64 = 31264;
/// 2²⁵⁶ mod p = 2³² + 977 = 2³·2²⁹ + 977.
const C_LO: u64 = 977;
/// 2²⁵⁶ mod p.
const P_C: u64 = 0x1_0000_03D1;

/// 64p with every limb in [2²⁹, 2³⁰): its natural radix-2²⁹ digits (limb 8 is 2³⁰, the
/// others 0, less 64·P_C = 512·2²⁹ + 62528) with 2³⁰ lent to each of limbs 0..7 by the
/// limb above. Shifted left by 1 + K it is the bias for subtracting 2^K times a reduced
/// operand (limbs below 2³⁰).
pub(crate) const SUB_BIAS: [u64; 9] = [
    (1 << 30) - 62528,
    (1 << 30) - 2 - 512,
    (1 << 30) - 2,
    (1 << 30) - 2,
    (1 << 30) - 2,
    (1 << 30) - 2,
    (1 << 30) - 2,
    (1 << 30) - 2,
    (1 << 30) - 2,
];

/// The bias for subtracting 2^K times a reduced operand: [`SUB_BIAS`]·2^(1+K), a multiple
/// of p with every limb at least 2^(30+K).
#[inline(always)]
fn bias<B: Mul32, const K: u32>(k: usize) -> B::V {
    B::splat(SUB_BIAS[k] << (1 + K))
}

/// Eight elements, limb-major: `0[k]` holds limb k of every lane. Reduced: every limb
/// below 2³⁰.
pub(crate) struct Fe29<B: Mul32>(pub [B::V; 9]);

impl<B: Mul32> Clone for Fe29<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Mul32> Copy for Fe29<B> {}

impl<B: Mul32> Operand for Fe29<B> {
    type F = Fe29<B>;
    #[inline(always)]
    fn wide(&self) -> [B::V; 9] {
        self.0
    }
}

/// Limbs below 2³⁵ in, a reduced element out: limb 8's bits from 2²⁹ on (weight 2²⁶¹)
/// folded into limbs 0 and 1 first, then one carry pass, which leaves limb 8 below
/// 2²⁹ + 2⁷.
#[inline(always)]
pub(crate) fn reduce<B: Mul32>(l: [B::V; 9]) -> [B::V; 9] {
    if B::OUTLINE {
        outlined::reduce::<B>(l)
    } else {
        reduce_inline::<B>(l)
    }
}

#[inline(always)]
fn reduce_inline<B: Mul32>(mut l: [B::V; 9]) -> [B::V; 9] {
    let m = B::splat(M29);
    let e = B::shr::<29>(l[8]);
    l[8] = B::and(l[8], m);
    l[0] = B::add(l[0], B::mul32(e, B::splat(FOLD)));
    l[1] = B::add(l[1], B::shl::<8>(e));
    unroll!(k in [0, 1, 2, 3, 4, 5, 6, 7] {
        l[k + 1] = B::add(l[k + 1], B::shr::<29>(l[k]));
        l[k] = B::and(l[k], m);
    });
    l
}

/// The 17 product columns (each below 2⁶⁴, from limbs below 2³⁰) to a reduced element;
/// see the module docs.
#[inline(always)]
fn fold_product<B: Mul32>(t: [B::V; 17]) -> [B::V; 9] {
    if B::OUTLINE {
        outlined::fold_product::<B>(t)
    } else {
        fold_product_inline::<B>(t)
    }
}

#[inline(always)]
fn fold_product_inline<B: Mul32>(mut t: [B::V; 17]) -> [B::V; 9] {
    let m = B::splat(M29);
    // The high columns into 29-bit limbs, t₁₆'s excess into `top` (below 2³²).
    unroll!(k in [8, 9, 10, 11, 12, 13, 14, 15] {
        t[k + 1] = B::add(t[k + 1], B::shr::<29>(t[k]));
        t[k] = B::and(t[k], m);
    });
    let top = B::shr::<29>(t[16]);
    t[16] = B::and(t[16], m);
    let fold = B::splat(FOLD);
    let mut l = [t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8]];
    unroll!(k in [9, 10, 11, 12, 13, 14, 15, 16] {
        l[k - 9] = B::add(l[k - 9], B::mul32(t[k], fold));
        l[k - 8] = B::add(l[k - 8], B::shl::<8>(t[k]));
    });
    l[8] = B::add(l[8], B::mul32(top, fold));
    l[0] = B::add(l[0], B::mul32(top, B::splat(FOLD << 8)));
    l[1] = B::add(l[1], B::shl::<16>(top));
    // One carry pass; limb 8 ends below 2⁴⁷.
    unroll!(k in [0, 1, 2, 3, 4, 5, 6, 7] {
        l[k + 1] = B::add(l[k + 1], B::shr::<29>(l[k]));
        l[k] = B::and(l[k], m);
    });
    // Its bits from 2²⁹ on (below 2¹⁸) fold into limbs 0 and 1; limb 0 carries once.
    let e = B::shr::<29>(l[8]);
    l[8] = B::and(l[8], m);
    l[0] = B::add(l[0], B::mul32(e, fold));
    l[1] = B::add(l[1], B::shl::<8>(e));
    l[1] = B::add(l[1], B::shr::<29>(l[0]));
    l[0] = B::and(l[0], m);
    l
}

/// A full carry pass from limb 0 to limb 8 (limb 8 keeps everything above).
#[inline(always)]
fn carry<B: Mul32>(mut l: [B::V; 9]) -> [B::V; 9] {
    let m = B::splat(M29);
    unroll!(k in [0, 1, 2, 3, 4, 5, 6, 7] {
        l[k + 1] = B::add(l[k + 1], B::shr::<29>(l[k]));
        l[k] = B::and(l[k], m);
    });
    l
}

/// The 17 columns of a·b.
#[inline(always)]
fn mul_cols<B: Mul32>(a: &[B::V; 9], b: &[B::V; 9]) -> [B::V; 17] {
    if B::OUTLINE {
        outlined::mul_cols::<B>(a, b)
    } else {
        mul_cols_inline::<B>(a, b)
    }
}

#[inline(always)]
fn mul_cols_inline<B: Mul32>(a: &[B::V; 9], b: &[B::V; 9]) -> [B::V; 17] {
    let mut t = [B::splat(0); 17];
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
        unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
            t[i + j] = B::add(t[i + j], B::mul32(a[i], b[j]));
        });
    });
    t
}

/// The 17 columns of a²: the squares aᵢ² and the doubled cross products 2aᵢ·aⱼ (i < j).
#[inline(always)]
fn sqr_cols<B: Mul32>(a: &[B::V; 9]) -> [B::V; 17] {
    if B::OUTLINE {
        outlined::sqr_cols::<B>(a)
    } else {
        sqr_cols_inline::<B>(a)
    }
}

#[inline(always)]
fn sqr_cols_inline<B: Mul32>(a: &[B::V; 9]) -> [B::V; 17] {
    let mut d = *a;
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
        d[i] = B::shl::<1>(a[i]);
    });
    let mut t = [B::splat(0); 17];
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
        t[2 * i] = B::add(t[2 * i], B::mul32(a[i], a[i]));
        unroll!(j in [1, 2, 3, 4, 5, 6, 7, 8] {
            if j > i {
                t[i + j] = B::add(t[i + j], B::mul32(d[i], a[j]));
            }
        });
    });
    t
}

/// The out-of-line copies of the products and reductions, for a backend that sets
/// [`Backend::OUTLINE`](super::Backend::OUTLINE) (the portable one): one function each
/// instead of their body at every call site.
mod outlined {
    use super::Mul32;

    #[inline(never)]
    pub(super) fn reduce<B: Mul32>(l: [B::V; 9]) -> [B::V; 9] {
        super::reduce_inline::<B>(l)
    }

    #[inline(never)]
    pub(super) fn fold_product<B: Mul32>(t: [B::V; 17]) -> [B::V; 9] {
        super::fold_product_inline::<B>(t)
    }

    #[inline(never)]
    pub(super) fn mul_cols<B: Mul32>(a: &[B::V; 9], b: &[B::V; 9]) -> [B::V; 17] {
        super::mul_cols_inline::<B>(a, b)
    }

    #[inline(never)]
    pub(super) fn sqr_cols<B: Mul32>(a: &[B::V; 9]) -> [B::V; 17] {
        super::sqr_cols_inline::<B>(a)
    }
}

impl<B: Mul32> LaneField for Fe29<B> {
    type B = B;
    type Wide = [B::V; 9];
    type Unreduced = Fe29<B>;
    const LIMBS: usize = 9;
    const CHEAP_SQUARES: bool = true;
    const STEPPED_DOUBLING: bool = true;

    #[inline(always)]
    fn gather(words: &[u64], idx: B::V) -> Self {
        Fe29(B::gather_limbs9(words, idx))
    }

    #[inline(always)]
    fn from_words(w: [B::V; 4]) -> Self {
        let m = B::splat(M29);
        Fe29([
            B::and(w[0], m),
            B::and(B::shr::<29>(w[0]), m),
            B::and(B::or(B::shr::<58>(w[0]), B::shl::<6>(w[1])), m),
            B::and(B::shr::<23>(w[1]), m),
            B::and(B::or(B::shr::<52>(w[1]), B::shl::<12>(w[2])), m),
            B::and(B::shr::<17>(w[2]), m),
            B::and(B::or(B::shr::<46>(w[2]), B::shl::<18>(w[3])), m),
            B::and(B::shr::<11>(w[3]), m),
            B::shr::<40>(w[3]),
        ])
    }

    /// Requires limbs below 2²⁹ and a value below 2²⁵⁶ (the output of
    /// [`LaneField::normalize`]).
    #[inline(always)]
    fn to_words(self) -> [B::V; 4] {
        let l = self.0;
        [
            B::or(B::or(l[0], B::shl::<29>(l[1])), B::shl::<58>(l[2])),
            B::or(
                B::or(B::shr::<6>(l[2]), B::shl::<23>(l[3])),
                B::shl::<52>(l[4]),
            ),
            B::or(
                B::or(B::shr::<12>(l[4]), B::shl::<17>(l[5])),
                B::shl::<46>(l[6]),
            ),
            B::or(
                B::or(B::shr::<18>(l[6]), B::shl::<11>(l[7])),
                B::shl::<40>(l[8]),
            ),
        ]
    }

    #[inline(always)]
    fn mul(&self, other: &Self) -> Self {
        Fe29(fold_product::<B>(mul_cols::<B>(&self.0, &other.0)))
    }

    #[inline(always)]
    fn sqr(&self) -> Self {
        Fe29(fold_product::<B>(sqr_cols::<B>(&self.0)))
    }

    #[inline(always)]
    fn mul_unreduced(&self, other: &Self) -> Self {
        self.mul(other)
    }

    #[inline(always)]
    fn sqr_unreduced(&self) -> Self {
        self.sqr()
    }

    #[inline(always)]
    fn normalize(&self) -> Self {
        // Below 2²⁶² with 29-bit limbs 0..7; the bits from 2²⁵⁶ on (limb 8 from bit 24)
        // fold in as ·(2³·2²⁹ + 977), which leaves a value below 2²⁵⁶ + 2⁴⁰ < 2p.
        let mut l = carry::<B>(self.0);
        let top = B::shr::<24>(l[8]);
        l[8] = B::and(l[8], B::splat((1 << 24) - 1));
        l[0] = B::add(l[0], B::mul32(top, B::splat(C_LO)));
        l[1] = B::add(l[1], B::shl::<3>(top));
        let l = carry::<B>(l);
        // It is ≥ p exactly when adding 2²⁵⁶ − p = P_C reaches bit 256.
        let mut t = l;
        t[0] = B::add(t[0], B::splat(P_C & M29));
        t[1] = B::add(t[1], B::splat(P_C >> 29));
        let mut t = carry::<B>(t);
        let below_p = B::eq(B::shr::<24>(t[8]), B::splat(0));
        t[8] = B::and(t[8], B::splat((1 << 24) - 1));
        Fe29::select(below_p, &Fe29(l), &Fe29(t))
    }

    #[inline(always)]
    fn is_zero(&self) -> u8 {
        let n = self.normalize();
        let mut any = n.0[0];
        for limb in &n.0[1..] {
            any = B::or(any, *limb);
        }
        B::eq(any, B::splat(0))
    }

    // The parity, selection and the linear operations: operands below 2³⁰ per limb,
    // biases at least the subtrahend's bound, every intermediate limb below 2³⁵ (what
    // [`reduce`] takes).
    limb_ops!(Fe29, 9);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::LANES;
    use crate::lanes::field::tests::edge_elements;
    use crate::lanes::lane_field::{Chains, Linear};
    use crate::lanes::portable::Portable;
    use crate::secp256k1::field::FieldElement;
    use crate::test_support::rng::splitmix64 as rng;
    use num_bigint::BigUint;

    type F = Fe29<Portable>;

    fn p() -> BigUint {
        (BigUint::from(1u8) << 256u32) - BigUint::from(P_C)
    }

    fn value(limbs: &[u64]) -> BigUint {
        limbs.iter().rev().fold(BigUint::from(0u8), |acc, &x| {
            (acc << 29u32) + BigUint::from(x)
        })
    }

    fn lane(f: &F, i: usize) -> [u64; 9] {
        core::array::from_fn(|k| f.0[k][i])
    }

    #[test]
    fn constants() {
        assert_eq!(value(&SUB_BIAS), p() * 64u8);
        for limb in SUB_BIAS {
            assert!((1 << 29..1 << 30).contains(&limb));
        }
        let two261 = BigUint::from(1u8) << 261u32;
        assert_eq!(
            two261 % p(),
            (BigUint::from(1u8) << 37u32) + BigUint::from(FOLD)
        );
        assert_eq!(P_C, (1 << 32) + C_LO);
    }

    /// Limb vectors at the bounds the operations promise to accept: every limb at
    /// 2³⁰ − 1, 2²⁹ − 1 or 2²⁹, long runs of ones and zeros, and random limbs below 2³⁰.
    fn bound_limbs(seed: u64, count: usize) -> Vec<[u64; 9]> {
        let max = (1u64 << 30) - 1;
        let mut v = vec![
            [max; 9],
            [M29; 9],
            [1 << 29; 9],
            [0; 9],
            [max, 0, max, 0, max, 0, max, 0, max],
            [0, max, 0, max, 0, max, 0, max, 0],
            [M29, M29, M29, M29, M29, M29, M29, M29, max],
        ];
        let mut s = seed;
        for n in 0..count {
            let mut l = [0u64; 9];
            for (k, x) in l.iter_mut().enumerate() {
                *x = match (n + k) % 5 {
                    0 => max,
                    1 => rng(&mut s) & max,
                    2 => (1 << 29) + (rng(&mut s) & ((1 << 20) - 1)),
                    3 => rng(&mut s) & M29,
                    _ => max - (rng(&mut s) & 0xFF),
                };
            }
            v.push(l);
        }
        v
    }

    fn pack(v: &[[u64; 9]]) -> F {
        Fe29(core::array::from_fn(|k| {
            core::array::from_fn(|i| v[i % v.len()][k])
        }))
    }

    /// Every operation against num-bigint on reduced operands at their limb bounds, and
    /// every output reduced (limbs below 2³⁰).
    #[test]
    fn ops_match_bigint_at_limb_bounds() {
        let vals = bound_limbs(5, 4000);
        let others: Vec<_> = vals.iter().rev().cloned().collect();
        let p = p();
        for (a, b) in vals.chunks(LANES).zip(others.chunks(LANES)) {
            let (fa, fb) = (pack(a), pack(b));
            // A multiple of p above every value, so that the oracles never go negative.
            let kp = &p << 20u32;
            type Want<'a> = &'a dyn Fn(&BigUint, &BigUint) -> BigUint;
            let checks: [(F, Want); 15] = [
                (fa.mul(&fb), &|x, y| x * y),
                (fa.sqr(), &|x, _| x * x),
                (fa.add(&fb), &|x, y| x + y),
                (fa.sub(&fb), &|x, y| x + &kp - y),
                (fa.neg(), &|x, _| &kp - x),
                (fa.shl::<3>(), &|x, _| x * 8u8),
                (fa.triple(), &|x, _| x * 3u8),
                (fa.shl_sub::<2>(&fb), &|x, y| x * 4u8 + &kp - y),
                (fa.sub_shl::<3>(&fb), &|x, y| x + &kp - y * 8u8),
                (fa.sub_shl::<1>(&fb), &|x, y| x + &kp - y * 2u8),
                (fa.neg_sub(&fb), &|x, y| &kp - x - y),
                (fa.sub_sub_dbl(&fb, &fa), &|x, y| x + &kp - y - x * 2u8),
                (fa.sub_sub(&fb, &fa), &|x, y| x + &kp - y - x),
                (fa.sqr_sub_sub(&fb, &fa), &|x, y| x * x + &kp - y - x),
                (fa.normalize(), &|x, _| x.clone()),
            ];
            for (n, (got, want)) in checks.iter().enumerate() {
                for i in 0..LANES {
                    let (x, y) = (value(&a[i % a.len()]), value(&b[i % b.len()]));
                    let g = lane(got, i);
                    assert_eq!(value(&g) % &p, want(&x, &y) % &p, "op {n}, lane {i}");
                    for (k, limb) in g.iter().enumerate() {
                        assert!(*limb < 1 << 30, "op {n}: limb {k} = {limb:#x}");
                    }
                }
            }
            let n = fa.normalize();
            for i in 0..LANES {
                let x = value(&a[i % a.len()]);
                assert_eq!(value(&lane(&n, i)), &x % &p, "canonical");
                assert!(lane(&n, i).iter().all(|l| *l < 1 << 29));
            }
        }
    }

    /// The same operations against the scalar core, on canonical and non-canonical
    /// elements at the 64-bit words' edges, through `from_words` and `to_words`.
    #[test]
    fn ops_match_scalar_core() {
        let vals = edge_elements(3, 2000);
        let canon = |f: &FieldElement| f.normalize().to_u64x4();
        for c in vals.chunks(LANES) {
            let a: [FieldElement; LANES] = core::array::from_fn(|i| c[i % c.len()]);
            let b: [FieldElement; LANES] = core::array::from_fn(|i| c[(i + 3) % c.len()]);
            let (fa, fb) = (F::from_lanes(&a), F::from_lanes(&b));
            let prod = fa.mul(&fb).to_lanes();
            let sq = fa.sqr().to_lanes();
            let diff = fa.sub(&fb).to_lanes();
            let z = fa.is_zero();
            let e = fa.eq(&fb);
            let odd = fa.is_odd();
            for i in 0..LANES {
                assert_eq!(canon(&prod[i]), canon(&a[i].mul(&b[i])));
                assert_eq!(canon(&sq[i]), canon(&a[i].sqr()));
                assert_eq!(canon(&diff[i]), canon(&a[i].sub(&b[i])));
                assert_eq!(z >> i & 1 == 1, a[i].normalizes_to_zero());
                assert_eq!(e >> i & 1 == 1, a[i].equals(&b[i]));
                assert_eq!(odd >> i & 1 == 1, a[i].is_odd());
            }
            fa.check_invert_groups();
        }
    }

    /// Long chains of products stay correct (the bounds hold when outputs feed inputs),
    /// and the square root agrees with the scalar core's.
    #[test]
    fn chains_and_sqrt_match_scalar_core() {
        let vals = edge_elements(4, 120);
        for c in vals.chunks(LANES) {
            let a: [FieldElement; LANES] = core::array::from_fn(|i| c[i % c.len()]);
            let fa = F::from_lanes(&a);
            let mut x = fa;
            let mut want = a;
            for _ in 0..50 {
                x = x.sqr().mul(&fa).sub_shl::<3>(&x).triple();
                for i in 0..LANES {
                    let w = want[i].sqr().mul(&a[i]);
                    want[i] = w.sub(&want[i].shl(3));
                    want[i] = want[i].add(&want[i]).add(&want[i]);
                }
            }
            let got = x.to_lanes();
            for i in 0..LANES {
                assert!(got[i].equals(&want[i]));
            }
            let (r, ok) = Chains([fa]).sqrt();
            let roots = r.0[0].to_lanes();
            for i in 0..LANES {
                match a[i].sqrt() {
                    Some(_) => {
                        assert_eq!(ok[0] >> i & 1, 1);
                        assert!(roots[i].sqr().equals(&a[i]));
                    }
                    None => assert_eq!(ok[0] >> i & 1, 0),
                }
            }
        }
    }
}
