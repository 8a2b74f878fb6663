//! GF(p) on eight lanes: five 52-bit limbs per lane, multiplied with the IFMA primitives
//! `madd52lo`/`madd52hi` of the backend.
//!
//! Two types keep the limb bounds apart, as curve25519-dalek's IFMA field does:
//!
//! - [`Fe8`], **reduced**: limb 4 below 2⁴⁸ + 2¹², and limbs 0..3 *carried*: the low 52 bits
//!   of each are its digit, and whatever it holds above them has already been added to the
//!   next limb. The value is Σ lo₅₂(lₖ)·2⁵²ᵏ, below 2²⁵⁶ + 2²²⁰ < 2p. IFMA reads only the low
//!   52 bits of each multiplicand, so a product takes the limbs as they are, and only
//!   reduced elements are multiplied; the linear operations and the comparisons read the
//!   digits ([`digits`]: four ANDs), which is cheaper than clearing the carried bits at
//!   every reduction, since most reduced elements only feed products.
//!   [`Fe8::normalize`] gives the canonical value below p, with clean limbs.
//! - [`Unreduced8`], a product whose last carry pass is still pending: every limb below
//!   2⁵⁶. The point formulas take products that only feed additions and subtractions in
//!   this form ([`Fe8::mul_unreduced`], [`Fe8::sqr_unreduced`]) and let the linear
//!   operation's own reduction finish them: one carry pass instead of two.
//!
//! Additions, subtractions and the fused linear combinations ([`Linear`]) accept either
//! type and end with [`reduce`]: the bits above 2²⁵⁶ folded in first (2²⁵⁶ ≡ 2³² + 977),
//! then a single carry pass. Subtraction adds a multiple of p whose limbs are all at least
//! 2⁵⁶ (times the subtrahend's factor) first, so no limb goes negative. A product and the
//! subtraction after it can be one operation ([`LaneField::mul_sub_shl`] and its
//! squaring forms): the subtraction's bias and subtrahend become the starting values of
//! the product's low columns, where a plain product starts from zero.

use super::lane_field::{LaneField, Operand, limb_ops};
use super::{Backend, Ifma};

pub(crate) const M52: u64 = (1 << 52) - 1;
const M48: u64 = (1 << 48) - 1;
/// 2²⁵⁶ mod p.
const P_C: u64 = 0x1_0000_03D1;
/// 2²⁶⁰ mod p.
const R260: u64 = 0x10_0000_3D10;
/// p in radix 2⁵².
const P52: [u64; 5] = [0xF_FFFE_FFFF_FC2F, M52, M52, M52, M48];

/// 32·p written with limbs 0..3 in [2⁵², 2⁵³) and limb 4 ≥ 2⁵²: subtracting any element
/// with limbs below 2⁵² (limb 4 below 2⁵³) from it leaves every limb non-negative. Shifted
/// left by 4 + K it is the bias for subtracting 2^K times an operand of [`Linear`] (limbs
/// below 2⁵⁶).
pub(crate) const SUB_BIAS: [u64; 5] = sub_bias();

const fn sub_bias() -> [u64; 5] {
    // 32p = 2²⁶¹ − 32·P_C. Spread it so that each low limb carries an extra 2⁵².
    // Natural radix-2⁵² digits of 32p (it needs a sixth digit, 2).
    let low = (32 * P_C) as u128; // 32·P_C < 2⁵²
    // 2²⁶¹ − low = (2⁵³ − 1)·2²⁰⁸ + (2⁵² − 1)·(2¹⁵⁶ + 2¹⁰⁴ + 2⁵²) + (2⁵² − low).
    let d0 = (1u128 << 52) - low;
    // Borrow-spread: add 2⁵² to limbs 0..3, subtract 1 from limbs 1..4.
    [
        (d0 as u64) + (1 << 52),
        M52 + (1 << 52) - 1,
        M52 + (1 << 52) - 1,
        M52 + (1 << 52) - 1,
        (1 << 53) - 1 - 1,
    ]
}

/// The bias for subtracting 2^K times an operand whose limbs are below 2⁵⁶:
/// [`SUB_BIAS`]·2^(4+K), a multiple of p with every limb at least 2^(56+K).
#[inline(always)]
fn bias<B: Ifma, const K: u32>(k: usize) -> B::V {
    B::splat(SUB_BIAS[k] << (4 + K))
}

/// Five 52-bit limbs (the last 48 bits) from four vectors of little-endian 64-bit words:
/// the layout of the 5×52 field and of the IFMA lanes' scalars (`super::scalar::Sc8`).
#[inline(always)]
pub(crate) fn limbs52<B: Backend>(w: [B::V; 4]) -> [B::V; 5] {
    let m = B::splat(M52);
    [
        B::and(w[0], m),
        B::and(B::or(B::shr::<52>(w[0]), B::shl::<12>(w[1])), m),
        B::and(B::or(B::shr::<40>(w[1]), B::shl::<24>(w[2])), m),
        B::and(B::or(B::shr::<28>(w[2]), B::shl::<36>(w[3])), m),
        B::shr::<16>(w[3]),
    ]
}

/// Four vectors of little-endian 64-bit words from five limbs below 2⁵² (the inverse of
/// [`limbs52`]).
#[inline(always)]
pub(crate) fn words52<B: Backend>(l: [B::V; 5]) -> [B::V; 4] {
    [
        B::or(l[0], B::shl::<52>(l[1])),
        B::or(B::shr::<12>(l[1]), B::shl::<40>(l[2])),
        B::or(B::shr::<24>(l[2]), B::shl::<28>(l[3])),
        B::or(B::shr::<36>(l[3]), B::shl::<16>(l[4])),
    ]
}

/// Eight reduced field elements, limb-major: `0[k]` holds limb k of every lane (limbs 0..3
/// carried: their digits are their low 52 bits).
pub(crate) struct Fe8<B: Ifma>(pub [B::V; 5]);

impl<B: Ifma> Clone for Fe8<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Ifma> Copy for Fe8<B> {}

/// Eight products before their last carry pass: limbs below 2⁵⁶, not a multiplicand. Only
/// the linear operations of [`Linear`] take it (and reduce it); [`Unreduced8::reduce`] is
/// the way back otherwise.
pub(crate) struct Unreduced8<B: Ifma>(pub [B::V; 5]);

impl<B: Ifma> Clone for Unreduced8<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Ifma> Copy for Unreduced8<B> {}

impl<B: Ifma> Unreduced8<B> {
    /// The reduced element.
    #[inline(always)]
    pub fn reduce(&self) -> Fe8<B> {
        Fe8(reduce::<B>(self.0))
    }
}

/// The fold of the bits at and above 2²⁵⁶, then one carry pass: limbs below 2⁶² in, a
/// reduced element out (limbs 0..3 carried, limb 4 < 2⁴⁸ + 2¹²).
///
/// Folding first is what makes one pass enough: the bits above 2²⁵⁶ (fewer than 2¹⁴ of
/// them) times 2²⁵⁶ mod p go into limb 0 as one IFMA (a product below 2⁴⁷) before any carry,
/// and the pass then carries everything up to limb 4, which gains at most 2¹¹ over 2⁴⁸.
/// Each limb keeps the bits it carried (the next multiply ignores them; [`digits`] clears
/// them for the operations that add limbs).
#[inline(always)]
pub(crate) fn reduce<B: Ifma>(t: [B::V; 5]) -> [B::V; 5] {
    if B::OUTLINE {
        outlined::reduce::<B>(t)
    } else {
        reduce_inline::<B>(t)
    }
}

#[inline(always)]
fn reduce_inline<B: Ifma>(t: [B::V; 5]) -> [B::V; 5] {
    let [mut t0, mut t1, mut t2, mut t3, mut t4] = t;
    let top = B::shr::<48>(t4);
    t4 = B::and(t4, B::splat(M48));
    t0 = B::madd52lo(t0, top, B::splat(P_C));
    t1 = B::add(t1, B::shr::<52>(t0));
    t2 = B::add(t2, B::shr::<52>(t1));
    t3 = B::add(t3, B::shr::<52>(t2));
    t4 = B::add(t4, B::shr::<52>(t3));
    [t0, t1, t2, t3, t4]
}

/// The digits of a reduced element's limbs: limbs 0..3 cut to their low 52 bits (limb 4
/// has none above its bound). What the linear operations add and the comparisons read.
#[inline(always)]
pub(crate) fn digits<B: Ifma>(l: [B::V; 5]) -> [B::V; 5] {
    let m52 = B::splat(M52);
    [
        B::and(l[0], m52),
        B::and(l[1], m52),
        B::and(l[2], m52),
        B::and(l[3], m52),
        l[4],
    ]
}

/// Folds the ten product columns `t` into an unreduced element: columns 5..9 below 2⁵⁸,
/// columns 0..4 below 2⁶¹ (a product's own columns are below 2⁵⁶; the fused operations
/// start them at a subtraction's bias, below 2⁶⁰); the limbs out are below 2⁶¹ + 2⁵⁴, and
/// below 2⁵⁶ for a plain product.
#[inline(always)]
fn fold_product<B: Ifma>(t: [B::V; 10]) -> Unreduced8<B> {
    if B::OUTLINE {
        outlined::fold_product::<B>(t)
    } else {
        fold_product_inline::<B>(t)
    }
}

#[inline(always)]
fn fold_product_inline<B: Ifma>(mut t: [B::V; 10]) -> Unreduced8<B> {
    // Carry through columns 5..9 so that the high half H = t5..t9 has its digits in the
    // low 52 bits of each column (the IFMA multiplicands below read only those); column 4
    // keeps its excess, it is part of the low half L. The product is below 2⁵²⁰, so t9
    // ends below 2⁵².
    for k in 5..9 {
        t[k + 1] = B::add(t[k + 1], B::shr::<52>(t[k]));
    }
    // L + H·2²⁶⁰ ≡ L + H·R260: add the 89-bit products hᵢ·R260 as their low and high
    // 52-bit halves.
    let r = B::splat(R260);
    let mut u = [t[0], t[1], t[2], t[3], t[4]];
    let mut u5 = B::splat(0);
    for i in 0..5 {
        u[i] = B::madd52lo(u[i], t[5 + i], r);
        if i + 1 < 5 {
            u[i + 1] = B::madd52hi(u[i + 1], t[5 + i], r);
        } else {
            u5 = B::madd52hi(u5, t[5 + i], r);
        }
    }
    // u5 (below 2³⁷) has weight 2²⁶⁰ again.
    u[0] = B::madd52lo(u[0], u5, r);
    u[1] = B::madd52hi(u[1], u5, r);
    Unreduced8(u)
}

/// x·2^(K−1), for 1 ≤ K ≤ 3 (a const generic cannot be K − 1).
#[inline(always)]
fn shl_half<B: Ifma, const K: u32>(x: B::V) -> B::V {
    match K {
        1 => x,
        2 => B::shl::<1>(x),
        _ => B::shl::<2>(x),
    }
}

/// The ten columns of a·b, columns 0..4 starting at `low` (zero for a plain product).
#[inline(always)]
fn mul_cols<B: Ifma>(a: &[B::V; 5], b: &[B::V; 5], low: [B::V; 5]) -> [B::V; 10] {
    if B::OUTLINE {
        outlined::mul_cols::<B>(a, b, low)
    } else {
        mul_cols_inline::<B>(a, b, low)
    }
}

#[inline(always)]
fn mul_cols_inline<B: Ifma>(a: &[B::V; 5], b: &[B::V; 5], low: [B::V; 5]) -> [B::V; 10] {
    let z = B::splat(0);
    let mut t = [low[0], low[1], low[2], low[3], low[4], z, z, z, z, z];
    for i in 0..5 {
        for j in 0..5 {
            t[i + j] = B::madd52lo(t[i + j], a[i], b[j]);
            t[i + j + 1] = B::madd52hi(t[i + j + 1], a[i], b[j]);
        }
    }
    t
}

/// The ten columns of 2·`half` + a² (`half` in columns 0..4: zero for a plain square).
/// The cross products aᵢ·aⱼ (i < j) are summed onto `half` and doubled with it, then the
/// squares are added.
#[inline(always)]
fn sqr_cols<B: Ifma>(a: &[B::V; 5], half: [B::V; 5]) -> [B::V; 10] {
    if B::OUTLINE {
        outlined::sqr_cols::<B>(a, half)
    } else {
        sqr_cols_inline::<B>(a, half)
    }
}

#[inline(always)]
fn sqr_cols_inline<B: Ifma>(a: &[B::V; 5], half: [B::V; 5]) -> [B::V; 10] {
    let z = B::splat(0);
    let mut t = [half[0], half[1], half[2], half[3], half[4], z, z, z, z, z];
    for i in 0..5 {
        for j in i + 1..5 {
            t[i + j] = B::madd52lo(t[i + j], a[i], a[j]);
            t[i + j + 1] = B::madd52hi(t[i + j + 1], a[i], a[j]);
        }
    }
    // Column 9 holds no cross product.
    for tk in t[..9].iter_mut() {
        *tk = B::add(*tk, *tk);
    }
    for i in 0..5 {
        t[2 * i] = B::madd52lo(t[2 * i], a[i], a[i]);
        t[2 * i + 1] = B::madd52hi(t[2 * i + 1], a[i], a[i]);
    }
    t
}

impl<B: Ifma> Operand for Fe8<B> {
    type F = Fe8<B>;
    #[inline(always)]
    fn wide(&self) -> [B::V; 5] {
        digits::<B>(self.0)
    }
}

impl<B: Ifma> Operand for Unreduced8<B> {
    type F = Fe8<B>;
    #[inline(always)]
    fn wide(&self) -> [B::V; 5] {
        self.0
    }
}

impl<B: Ifma> LaneField for Fe8<B> {
    type B = B;
    type Wide = [B::V; 5];
    type Unreduced = Unreduced8<B>;
    const LIMBS: usize = 5;

    #[inline(always)]
    fn gather(words: &[u64], idx: B::V) -> Self {
        Fe8(B::gather_limbs(words, idx))
    }

    #[inline(always)]
    fn from_words(w: [B::V; 4]) -> Self {
        Fe8(limbs52::<B>(w))
    }

    /// Requires limbs below 2⁵² and a value below 2²⁵⁶ (e.g. the output of
    /// [`LaneField::normalize`]).
    #[inline(always)]
    fn to_words(self) -> [B::V; 4] {
        words52::<B>(self.0)
    }

    #[inline(always)]
    fn mul(&self, other: &Self) -> Self {
        self.mul_unreduced(other).reduce()
    }

    #[inline(always)]
    fn mul_unreduced(&self, other: &Self) -> Unreduced8<B> {
        fold_product::<B>(mul_cols::<B>(&self.0, &other.0, [B::splat(0); 5]))
    }

    #[inline(always)]
    fn sqr(&self) -> Self {
        self.sqr_unreduced().reduce()
    }

    #[inline(always)]
    fn sqr_unreduced(&self) -> Unreduced8<B> {
        fold_product::<B>(sqr_cols::<B>(&self.0, [B::splat(0); 5]))
    }

    /// The product's low columns start at bias − 2^K·c instead of zero.
    #[inline(always)]
    fn mul_sub_shl<const K: u32>(&self, other: &Self, c: &impl Operand<F = Self>) -> Self {
        const { assert!(K <= 3) };
        let mut seed = c.wide();
        for (k, sk) in seed.iter_mut().enumerate() {
            *sk = B::sub(bias::<B, K>(k), B::shl::<K>(*sk));
        }
        fold_product::<B>(mul_cols::<B>(&self.0, &other.0, seed)).reduce()
    }

    /// The square's doubled cross products start at half the subtraction's seed:
    /// bias·2^(K−1) − 2^(K−1)·c, doubled with them.
    #[inline(always)]
    fn sqr_sub_shl<const K: u32>(&self, c: &impl Operand<F = Self>) -> Self {
        const { assert!(K >= 1 && K <= 3) };
        let mut half = c.wide();
        for (k, hk) in half.iter_mut().enumerate() {
            *hk = B::sub(B::splat(SUB_BIAS[k] << (3 + K)), shl_half::<B, K>(*hk));
        }
        fold_product::<B>(sqr_cols::<B>(&self.0, half)).reduce()
    }

    /// Half the seed (bias·2 − c) starts the doubled cross products, and b is subtracted
    /// after the doubling: bias·4 − b − 2c in all.
    #[inline(always)]
    fn sqr_sub_sub_dbl(&self, b: &impl Operand<F = Self>, c: &impl Operand<F = Self>) -> Self {
        let (b, c) = (b.wide(), c.wide());
        let mut half = c;
        for (k, hk) in half.iter_mut().enumerate() {
            *hk = B::sub(bias::<B, 1>(k), *hk);
        }
        let mut t = sqr_cols::<B>(&self.0, half);
        for k in 0..5 {
            t[k] = B::sub(t[k], b[k]);
        }
        fold_product::<B>(t).reduce()
    }

    #[inline(always)]
    fn normalize(&self) -> Self {
        // A reduced value is below 2p: it is ≥ p exactly when adding 2²⁵⁶ − p = P_C
        // carries into bit 256. Both candidates have clean limbs (the digits).
        let m52 = B::splat(M52);
        let d = Fe8(digits::<B>(self.0));
        let [mut t0, mut t1, mut t2, mut t3, mut t4] = d.0;
        t0 = B::add(t0, B::splat(P_C));
        t1 = B::add(t1, B::shr::<52>(t0));
        t0 = B::and(t0, m52);
        t2 = B::add(t2, B::shr::<52>(t1));
        t1 = B::and(t1, m52);
        t3 = B::add(t3, B::shr::<52>(t2));
        t2 = B::and(t2, m52);
        t4 = B::add(t4, B::shr::<52>(t3));
        t3 = B::and(t3, m52);
        let below_p = B::eq(B::shr::<48>(t4), B::splat(0));
        let t4 = B::and(t4, B::splat(M48));
        Fe8::select(below_p, &d, &Fe8([t0, t1, t2, t3, t4]))
    }

    #[inline(always)]
    fn is_zero(&self) -> u8 {
        // A reduced element below 2p is ≡ 0 iff it is 0 or p.
        let mut zero = 0xFF;
        let mut is_p = 0xFF;
        for (limb, pk) in digits::<B>(self.0).iter().zip(P52) {
            zero &= B::eq(*limb, B::splat(0));
            is_p &= B::eq(*limb, B::splat(pk));
        }
        zero | is_p
    }

    // The parity, selection and the linear operations: every operand's limbs are below
    // 2⁵⁶ and every subtraction adds the bias of [`bias`] for its factor, so no limb goes
    // negative and every intermediate limb stays below 2⁶² (the bound [`reduce`] takes).
    limb_ops!(Fe8, 5);
}

/// The out-of-line copies of the products and reductions, for a backend that sets
/// [`Backend::OUTLINE`](super::Backend::OUTLINE) (the portable one): one function each
/// instead of their body at every call site.
mod outlined {
    use super::{Ifma, Unreduced8};

    #[inline(never)]
    pub(super) fn reduce<B: Ifma>(t: [B::V; 5]) -> [B::V; 5] {
        super::reduce_inline::<B>(t)
    }

    #[inline(never)]
    pub(super) fn fold_product<B: Ifma>(t: [B::V; 10]) -> Unreduced8<B> {
        super::fold_product_inline::<B>(t)
    }

    #[inline(never)]
    pub(super) fn mul_cols<B: Ifma>(a: &[B::V; 5], b: &[B::V; 5], low: [B::V; 5]) -> [B::V; 10] {
        super::mul_cols_inline::<B>(a, b, low)
    }

    #[inline(never)]
    pub(super) fn sqr_cols<B: Ifma>(a: &[B::V; 5], half: [B::V; 5]) -> [B::V; 10] {
        super::sqr_cols_inline::<B>(a, half)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::lanes::lane_field::{Chains, Linear};
    use crate::lanes::portable::Portable;
    use crate::lanes::{Backend, LANES};
    use crate::secp256k1::field::FieldElement;
    use crate::test_support::rng::splitmix64 as rng;
    use num_bigint::BigUint;

    type F = Fe8<Portable>;

    /// Scalar field elements at limb boundaries (in both radices) and random ones,
    /// including non-canonical values in [p, 2²⁵⁶).
    pub(crate) fn edge_elements(seed: u64, random: usize) -> Vec<FieldElement> {
        let p = [0xFFFF_FFFE_FFFF_FC2Fu64, u64::MAX, u64::MAX, u64::MAX];
        let mut v = vec![
            [0, 0, 0, 0],
            [1, 0, 0, 0],
            [p[0] - 1, p[1], p[2], p[3]],
            p,
            [p[0] + 1, p[1], p[2], p[3]],
            [u64::MAX; 4],
            [M52, 0, 0, 0],
            [1 << 52, 0, 0, 0],
            [u64::MAX, u64::MAX >> 24, 0, 0],
            [0, 0, 0, 1 << 63],
            [0, 0, 0, 0xFFFF_0000_0000_0000],
            [P_C, 0, 0, 0],
            [u64::MAX, u64::MAX, u64::MAX, 0xFFFF],
        ];
        let mut s = seed;
        for _ in 0..random {
            v.push([rng(&mut s), rng(&mut s), rng(&mut s), rng(&mut s)]);
        }
        v.into_iter().map(FieldElement::from_u64x4).collect()
    }

    fn chunks(v: &[FieldElement]) -> impl Iterator<Item = [FieldElement; LANES]> + '_ {
        v.chunks(LANES)
            .map(|c| core::array::from_fn(|i| c[i % c.len()]))
    }

    fn canon(f: &FieldElement) -> [u64; 4] {
        f.normalize().to_u64x4()
    }

    #[test]
    fn sub_bias_is_32p_with_large_limbs() {
        let mut v = BigUint::from(0u8);
        for k in (0..5).rev() {
            v = (v << 52u32) + BigUint::from(SUB_BIAS[k]);
        }
        let p = (BigUint::from(1u8) << 256u32) - BigUint::from(P_C);
        assert_eq!(v, p * 32u8);
        for limb in &SUB_BIAS[..4] {
            assert!(*limb >= 1 << 52 && *limb < 1 << 53);
        }
        assert!(SUB_BIAS[4] >= 1 << 52);
    }

    /// Every lane operation against the scalar core, lane by lane, at limb-bound edges.
    #[test]
    fn ops_match_scalar_core() {
        let vals = edge_elements(1, 3000);
        let others: Vec<FieldElement> = vals.iter().rev().cloned().collect();
        for (a, b) in chunks(&vals).zip(chunks(&others)) {
            let (fa, fb) = (F::from_lanes(&a), F::from_lanes(&b));
            type Op = Box<dyn Fn(&FieldElement, &FieldElement) -> FieldElement>;
            let checks: [(F, Op); 31] = [
                (fa.mul(&fb), Box::new(|x, y| x.mul(y))),
                (fa.sqr(), Box::new(|x, _| x.sqr())),
                (fa.add(&fb), Box::new(|x, y| x.add(y))),
                (fa.sub(&fb), Box::new(|x, y| x.sub(y))),
                (fa.neg(), Box::new(|x, _| x.neg())),
                (fa.shl::<3>(), Box::new(|x, _| x.shl(3))),
                (fa.triple(), Box::new(|x, _| x.add(x).add(x))),
                (fa.shl_sub::<2>(&fb), Box::new(|x, y| x.shl(2).sub(y))),
                (fa.sub_shl::<3>(&fb), Box::new(|x, y| x.sub(&y.shl(3)))),
                (fa.sub_shl::<0>(&fb), Box::new(|x, y| x.sub(y))),
                (
                    fa.sub_sub_dbl(&fb, &fa),
                    Box::new(|x, y| x.sub(y).sub(&x.shl(1))),
                ),
                (
                    fa.sub_sub(&fb, &fa.sqr_unreduced()),
                    Box::new(|x, y| x.sub(y).sub(&x.sqr())),
                ),
                (
                    fa.sub(&fb).mul(&fa.add(&fb)).sqr(),
                    Box::new(|x, y| x.sub(y).mul(&x.add(y)).sqr()),
                ),
                // Unreduced products as every operand of every linear operation.
                (
                    fa.mul_unreduced(&fb).sub_shl::<3>(&fb.sqr_unreduced()),
                    Box::new(|x, y| x.mul(y).sub(&y.sqr().shl(3))),
                ),
                (
                    fa.sqr_unreduced().shl_sub::<3>(&fa.mul_unreduced(&fb)),
                    Box::new(|x, y| x.sqr().shl(3).sub(&x.mul(y))),
                ),
                (
                    fb.sqr_unreduced()
                        .sub_sub_dbl(&fa.mul_unreduced(&fb), &fa.sqr_unreduced()),
                    Box::new(|x, y| y.sqr().sub(&x.mul(y)).sub(&x.sqr().shl(1))),
                ),
                (
                    fa.mul_unreduced(&fb).triple(),
                    Box::new(|x, y| x.mul(y).add(&x.mul(y)).add(&x.mul(y))),
                ),
                (
                    fa.mul_unreduced(&fb).shl::<3>(),
                    Box::new(|x, y| x.mul(y).shl(3)),
                ),
                (
                    fa.sqr_unreduced().add(&fb.sqr_unreduced()),
                    Box::new(|x, y| x.sqr().add(&y.sqr())),
                ),
                (fa.sqr_unreduced().neg(), Box::new(|x, _| x.sqr().neg())),
                (
                    fa.sqr_unreduced().neg_sub(&fb.mul_unreduced(&fa)),
                    Box::new(|x, y| x.sqr().neg().sub(&y.mul(x))),
                ),
                (fa.mul_unreduced(&fb).reduce(), Box::new(|x, y| x.mul(y))),
                // The fused products, with reduced and unreduced subtrahends.
                (
                    fa.mul_sub_shl::<3>(&fb, &fa.sqr_unreduced()),
                    Box::new(|x, y| x.mul(y).sub(&x.sqr().shl(3))),
                ),
                (
                    fa.mul_sub_shl::<0>(&fb, &fb),
                    Box::new(|x, y| x.mul(y).sub(y)),
                ),
                (
                    fa.sqr_sub_shl::<3>(&fb.mul_unreduced(&fa)),
                    Box::new(|x, y| x.sqr().sub(&y.mul(x).shl(3))),
                ),
                (
                    fa.sqr_sub_shl::<2>(&fb),
                    Box::new(|x, y| x.sqr().sub(&y.shl(2))),
                ),
                (
                    fa.sqr_sub_shl::<1>(&fb.sqr_unreduced()),
                    Box::new(|x, y| x.sqr().sub(&y.sqr().shl(1))),
                ),
                (
                    fb.sqr_sub_sub_dbl(&fa, &fb.mul_unreduced(&fa)),
                    Box::new(|x, y| y.sqr().sub(x).sub(&y.mul(x).shl(1))),
                ),
                (
                    fa.sqr_sub_sub_dbl(&fb.sqr_unreduced(), &fb),
                    Box::new(|x, y| x.sqr().sub(&y.sqr()).sub(&y.shl(1))),
                ),
                (
                    fb.sqr_sub_sub(&fa.sqr_unreduced(), &fb.mul_unreduced(&fa)),
                    Box::new(|x, y| y.sqr().sub(&x.sqr()).sub(&y.mul(x))),
                ),
                (
                    fa.add(&fb).sqr_sub_sub(&fb, &fa),
                    Box::new(|x, y| x.add(y).sqr().sub(y).sub(x)),
                ),
            ];
            for (got, want) in checks {
                let lanes = got.to_lanes();
                for i in 0..LANES {
                    assert_eq!(
                        canon(&lanes[i]),
                        canon(&want(&a[i], &b[i])),
                        "lane {i}: {:x?} {:x?}",
                        a[i],
                        b[i]
                    );
                    // Every output is reduced: limb 4 below 2⁴⁸ + 2¹² (limbs 0..3 are read
                    // through their low 52 bits, as `to_lanes` above reads them).
                    let limb = Portable::store(got.0[4])[i];
                    assert!(limb < (1 << 48) + (1 << 12));
                }
            }
            let z = fa.is_zero();
            let e = fa.eq(&fb);
            let odd = fa.is_odd();
            for i in 0..LANES {
                assert_eq!(z >> i & 1 == 1, a[i].normalizes_to_zero());
                assert_eq!(e >> i & 1 == 1, a[i].equals(&b[i]));
                assert_eq!(odd >> i & 1 == 1, a[i].is_odd());
            }
        }
    }

    #[test]
    fn sqrt_and_invert_groups_match_scalar_core() {
        let vals = edge_elements(2, 200);
        for a in chunks(&vals) {
            let fa = F::from_lanes(&a);
            // One chain, and two side by side (the second on other values).
            let (r, ok) = Chains([fa]).sqrt();
            let (r2, ok2) = Chains([fa.sqr(), fa]).sqrt();
            assert_eq!(ok2[1], ok[0]);
            assert_eq!(
                r2.0[1].to_lanes().map(|f| canon(&f)),
                r.0[0].to_lanes().map(|f| canon(&f))
            );
            assert_eq!(ok2[0], 0xFF, "squares have roots");
            for (i, root) in r2.0[0].to_lanes().iter().enumerate() {
                assert!(root.sqr().equals(&a[i].sqr()));
            }
            let (r, ok) = (r.0[0], ok[0]);
            let roots = r.to_lanes();
            for i in 0..LANES {
                match a[i].sqrt() {
                    Some(_) => {
                        assert_eq!(ok >> i & 1, 1);
                        assert!(roots[i].sqr().equals(&a[i]));
                    }
                    None => assert_eq!(ok >> i & 1, 0),
                }
            }
            fa.check_invert_groups();
        }
    }
}
