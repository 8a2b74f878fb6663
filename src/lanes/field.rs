//! GF(p) on eight lanes: five 52-bit limbs per lane, multiplied with the IFMA primitives
//! `madd52lo`/`madd52hi` of the backend.
//!
//! Two types keep the limb bounds apart, as curve25519-dalek's IFMA field does:
//!
//! - [`Fe8`], **reduced**: limbs 0..3 below 2⁵², limb 4 below 2⁴⁸ + 2¹² (so the value is
//!   below 2²⁵⁶ + 2²²⁰ < 2p). IFMA reads only the low 52 bits of each multiplicand, so only
//!   reduced elements are multiplied. [`Fe8::normalize`] gives the canonical value below p.
//! - [`Unreduced8`], a product whose last carry pass is still pending: every limb below
//!   2⁵⁶. The point formulas take products that only feed additions and subtractions in
//!   this form ([`Fe8::mul_unreduced`], [`Fe8::sqr_unreduced`]) and let the linear
//!   operation's own reduction finish them: one carry pass instead of two.
//!
//! Additions, subtractions and the fused linear combinations ([`Linear`]) accept either
//! type and end with [`reduce`]: the bits above 2²⁵⁶ folded in first (2²⁵⁶ ≡ 2³² + 977),
//! then a single carry pass. Subtraction adds a multiple of p whose limbs are all at least
//! 2⁵⁶ (times the subtrahend's factor) first, so no limb goes negative.

use super::Backend;
#[cfg(test)]
use super::LANES;
use crate::secp256k1::field::FieldElement;

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
fn bias<B: Backend, const K: u32>(k: usize) -> B::V {
    B::splat(SUB_BIAS[k] << (4 + K))
}

/// Eight reduced field elements, limb-major: `0[k]` holds limb k of every lane.
pub(crate) struct Fe8<B: Backend>(pub [B::V; 5]);

impl<B: Backend> Clone for Fe8<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Backend> Copy for Fe8<B> {}

/// Eight products before their last carry pass: limbs below 2⁵⁶, not a multiplicand. Only
/// the linear operations of [`Linear`] take it (and reduce it); [`Unreduced8::reduce`] is
/// the way back otherwise.
pub(crate) struct Unreduced8<B: Backend>(pub [B::V; 5]);

impl<B: Backend> Clone for Unreduced8<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Backend> Copy for Unreduced8<B> {}

impl<B: Backend> Unreduced8<B> {
    /// The reduced element.
    #[inline(always)]
    pub fn reduce(&self) -> Fe8<B> {
        Fe8(reduce::<B>(self.0))
    }
}

/// The fold of the bits at and above 2²⁵⁶, then one carry pass: limbs below 2⁶² in, a
/// reduced element out (limbs 0..3 < 2⁵², limb 4 < 2⁴⁸ + 2¹²).
///
/// Folding first is what makes one pass enough: the bits above 2²⁵⁶ (fewer than 2¹⁴ of
/// them) times 2²⁵⁶ mod p go into limb 0 as one IFMA (a product below 2⁴⁷) before any carry,
/// and the pass then carries everything up to limb 4, which gains at most 2¹¹ over 2⁴⁸.
#[inline(always)]
pub(crate) fn reduce<B: Backend>(t: [B::V; 5]) -> [B::V; 5] {
    let m52 = B::splat(M52);
    let [mut t0, mut t1, mut t2, mut t3, mut t4] = t;
    let top = B::shr::<48>(t4);
    t4 = B::and(t4, B::splat(M48));
    t0 = B::madd52lo(t0, top, B::splat(P_C));
    t1 = B::add(t1, B::shr::<52>(t0));
    t0 = B::and(t0, m52);
    t2 = B::add(t2, B::shr::<52>(t1));
    t1 = B::and(t1, m52);
    t3 = B::add(t3, B::shr::<52>(t2));
    t2 = B::and(t2, m52);
    t4 = B::add(t4, B::shr::<52>(t3));
    t3 = B::and(t3, m52);
    [t0, t1, t2, t3, t4]
}

/// Folds the ten product columns `t` (columns 0..4 below 2⁵⁶, all below 2⁵⁸) into an
/// unreduced element (limbs below 2⁵⁶).
#[inline(always)]
fn fold_product<B: Backend>(mut t: [B::V; 10]) -> Unreduced8<B> {
    let m52 = B::splat(M52);
    // Normalise columns 5..9 so the high half H = t5..t9 has limbs below 2⁵² (IFMA
    // multiplicands); column 4 keeps its excess, it is part of the low half L. The product
    // is below 2⁵²⁰, so t9 ends below 2⁵².
    for k in 5..9 {
        t[k + 1] = B::add(t[k + 1], B::shr::<52>(t[k]));
        t[k] = B::and(t[k], m52);
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

/// The operand of a linear operation: a reduced or an unreduced element (every limb below
/// 2⁵⁶). The fused operations of [`Linear`] combine such operands with one [`reduce`].
pub(crate) trait Limbs<B: Backend>: Copy {
    /// The five limbs.
    fn limbs(&self) -> [B::V; 5];
}

impl<B: Backend> Limbs<B> for Fe8<B> {
    #[inline(always)]
    fn limbs(&self) -> [B::V; 5] {
        self.0
    }
}

impl<B: Backend> Limbs<B> for Unreduced8<B> {
    #[inline(always)]
    fn limbs(&self) -> [B::V; 5] {
        self.0
    }
}

/// Linear combinations of reduced and unreduced elements, each with a single [`reduce`] at
/// the end. Every operand's limbs are below 2⁵⁶ and every subtraction adds the bias of
/// [`bias`] for its factor, so no limb goes negative and every intermediate limb stays
/// below 2⁶² (the bound [`reduce`] takes).
pub(crate) trait Linear<B: Backend>: Limbs<B> {
    /// `self + other`.
    #[inline(always)]
    fn add(&self, other: &impl Limbs<B>) -> Fe8<B> {
        let (mut t, b) = (self.limbs(), other.limbs());
        for k in 0..5 {
            t[k] = B::add(t[k], b[k]);
        }
        Fe8(reduce::<B>(t))
    }

    /// `self − other`.
    #[inline(always)]
    fn sub(&self, other: &impl Limbs<B>) -> Fe8<B> {
        self.sub_shl::<0>(other)
    }

    /// `−self`.
    #[inline(always)]
    fn neg(&self) -> Fe8<B> {
        let mut t = self.limbs();
        for (k, tk) in t.iter_mut().enumerate() {
            *tk = B::sub(bias::<B, 0>(k), *tk);
        }
        Fe8(reduce::<B>(t))
    }

    /// `self · 2^N` for N ≤ 3.
    #[inline(always)]
    fn shl<const N: u32>(&self) -> Fe8<B> {
        const { assert!(N <= 3) };
        let mut t = self.limbs();
        for tk in t.iter_mut() {
            *tk = B::shl::<N>(*tk);
        }
        Fe8(reduce::<B>(t))
    }

    /// `3·self`.
    #[inline(always)]
    fn triple(&self) -> Fe8<B> {
        let mut t = self.limbs();
        for tk in t.iter_mut() {
            *tk = B::add(B::shl::<1>(*tk), *tk);
        }
        Fe8(reduce::<B>(t))
    }

    /// `2^K·self − other` (K ≤ 3).
    #[inline(always)]
    fn shl_sub<const K: u32>(&self, other: &impl Limbs<B>) -> Fe8<B> {
        const { assert!(K <= 3) };
        let (mut t, b) = (self.limbs(), other.limbs());
        for k in 0..5 {
            t[k] = B::sub(B::add(B::shl::<K>(t[k]), bias::<B, 0>(k)), b[k]);
        }
        Fe8(reduce::<B>(t))
    }

    /// `self − 2^K·other` (K ≤ 3).
    #[inline(always)]
    fn sub_shl<const K: u32>(&self, other: &impl Limbs<B>) -> Fe8<B> {
        const { assert!(K <= 3) };
        let (mut t, b) = (self.limbs(), other.limbs());
        for k in 0..5 {
            t[k] = B::sub(B::add(t[k], bias::<B, K>(k)), B::shl::<K>(b[k]));
        }
        Fe8(reduce::<B>(t))
    }

    /// `−self − other`.
    #[inline(always)]
    fn neg_sub(&self, other: &impl Limbs<B>) -> Fe8<B> {
        let (mut t, b) = (self.limbs(), other.limbs());
        // self + other is below 2⁵⁷: the bias for a factor of 2 covers it.
        for k in 0..5 {
            t[k] = B::sub(B::sub(bias::<B, 1>(k), t[k]), b[k]);
        }
        Fe8(reduce::<B>(t))
    }

    /// `self − b − 2·c`.
    #[inline(always)]
    fn sub_sub_dbl(&self, b: &impl Limbs<B>, c: &impl Limbs<B>) -> Fe8<B> {
        let (mut t, b, c) = (self.limbs(), b.limbs(), c.limbs());
        // b + 2c is below 3·2⁵⁶ < 2⁵⁸: the bias for a factor of 4 covers it.
        for k in 0..5 {
            t[k] = B::sub(
                B::sub(B::add(t[k], bias::<B, 2>(k)), b[k]),
                B::shl::<1>(c[k]),
            );
        }
        Fe8(reduce::<B>(t))
    }
}

impl<B: Backend> Linear<B> for Fe8<B> {}
impl<B: Backend> Linear<B> for Unreduced8<B> {}

impl<B: Backend> Fe8<B> {
    /// The same constant in every lane.
    #[inline(always)]
    pub fn splat(c: &FieldElement) -> Self {
        let w = c.normalize().to_u64x4();
        Self::from_words([
            B::splat(w[0]),
            B::splat(w[1]),
            B::splat(w[2]),
            B::splat(w[3]),
        ])
    }

    /// From four vectors of little-endian 64-bit words (value below 2²⁵⁶ in each lane).
    #[inline(always)]
    pub fn from_words(w: [B::V; 4]) -> Self {
        let m = B::splat(M52);
        Fe8([
            B::and(w[0], m),
            B::and(B::or(B::shr::<52>(w[0]), B::shl::<12>(w[1])), m),
            B::and(B::or(B::shr::<40>(w[1]), B::shl::<24>(w[2])), m),
            B::and(B::or(B::shr::<28>(w[2]), B::shl::<36>(w[3])), m),
            B::shr::<16>(w[3]),
        ])
    }

    /// To four vectors of little-endian 64-bit words. Requires limbs below 2⁵² and a value
    /// below 2²⁵⁶ (e.g. the output of [`Fe8::normalize`]).
    #[inline(always)]
    pub fn to_words(self) -> [B::V; 4] {
        let l = self.0;
        [
            B::or(l[0], B::shl::<52>(l[1])),
            B::or(B::shr::<12>(l[1]), B::shl::<40>(l[2])),
            B::or(B::shr::<24>(l[2]), B::shl::<28>(l[3])),
            B::or(B::shr::<36>(l[3]), B::shl::<16>(l[4])),
        ]
    }

    /// From eight scalar elements (lane i = `v[i]`).
    #[cfg(test)]
    pub fn from_lanes(v: &[FieldElement; LANES]) -> Self {
        let mut w = [[0u64; LANES]; 4];
        for (i, fe) in v.iter().enumerate() {
            let x = fe.to_u64x4();
            for k in 0..4 {
                w[k][i] = x[k];
            }
        }
        Self::from_words(w.map(|a| B::load(&a)))
    }

    /// The canonical value of each lane as a scalar element.
    #[cfg(test)]
    pub fn to_lanes(self) -> [FieldElement; LANES] {
        let w = self.normalize().to_words().map(B::store);
        core::array::from_fn(|i| FieldElement::from_u64x4([w[0][i], w[1][i], w[2][i], w[3][i]]))
    }

    /// `self · other`.
    #[inline(always)]
    pub fn mul(&self, other: &Self) -> Self {
        self.mul_unreduced(other).reduce()
    }

    /// `self · other` before its last carry pass, for a linear operation to finish.
    #[inline(always)]
    pub fn mul_unreduced(&self, other: &Self) -> Unreduced8<B> {
        let (a, b) = (&self.0, &other.0);
        let mut t = [B::splat(0); 10];
        for i in 0..5 {
            for j in 0..5 {
                t[i + j] = B::madd52lo(t[i + j], a[i], b[j]);
                t[i + j + 1] = B::madd52hi(t[i + j + 1], a[i], b[j]);
            }
        }
        fold_product::<B>(t)
    }

    /// `self²`.
    #[inline(always)]
    pub fn sqr(&self) -> Self {
        self.sqr_unreduced().reduce()
    }

    /// `self²` before its last carry pass, for a linear operation to finish.
    #[inline(always)]
    pub fn sqr_unreduced(&self) -> Unreduced8<B> {
        let a = &self.0;
        let mut t = [B::splat(0); 10];
        // Cross products aᵢ·aⱼ (i < j), doubled, then the squares.
        for i in 0..5 {
            for j in i + 1..5 {
                t[i + j] = B::madd52lo(t[i + j], a[i], a[j]);
                t[i + j + 1] = B::madd52hi(t[i + j + 1], a[i], a[j]);
            }
        }
        for tk in t.iter_mut() {
            *tk = B::add(*tk, *tk);
        }
        for i in 0..5 {
            t[2 * i] = B::madd52lo(t[2 * i], a[i], a[i]);
            t[2 * i + 1] = B::madd52hi(t[2 * i + 1], a[i], a[i]);
        }
        fold_product::<B>(t)
    }

    /// The canonical representative (below p) of every lane.
    #[inline(always)]
    pub fn normalize(&self) -> Self {
        // A reduced value is below 2p: it is ≥ p exactly when adding 2²⁵⁶ − p = P_C
        // carries into bit 256.
        let m52 = B::splat(M52);
        let [mut t0, mut t1, mut t2, mut t3, mut t4] = self.0;
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
        Fe8::select(below_p, self, &Fe8([t0, t1, t2, t3, t4]))
    }

    /// Lanes whose element is ≡ 0 (mod p).
    #[inline(always)]
    pub fn is_zero(&self) -> u8 {
        // A reduced element below 2p is ≡ 0 iff it is 0 or p.
        let mut zero = 0xFF;
        let mut is_p = 0xFF;
        for (limb, pk) in self.0.iter().zip(P52) {
            zero &= B::eq(*limb, B::splat(0));
            is_p &= B::eq(*limb, B::splat(pk));
        }
        zero | is_p
    }

    /// Lanes where `self ≡ other`.
    #[inline(always)]
    pub fn eq(&self, other: &Self) -> u8 {
        self.sub(other).is_zero()
    }

    /// Lanes whose canonical value is odd.
    #[inline(always)]
    pub fn is_odd(&self) -> u8 {
        let n = self.normalize();
        !B::eq(B::and(n.0[0], B::splat(1)), B::splat(0))
    }

    /// Lane i from `a` where bit i of `mask` is set, else from `b`.
    #[inline(always)]
    pub fn select(mask: u8, a: &Self, b: &Self) -> Self {
        let mut t = a.0;
        for (tk, bk) in t.iter_mut().zip(b.0) {
            *tk = B::select(mask, *tk, bk);
        }
        Fe8(t)
    }

    /// Lane i from lane `i ^ K` (K = 1, 2 or 4), in every limb.
    #[inline(always)]
    fn swap_lanes<const K: usize>(&self) -> Self {
        let mut t = self.0;
        for tk in t.iter_mut() {
            *tk = B::swap_lanes::<K>(*tk);
        }
        Fe8(t)
    }

    /// Inverts all eight lanes with one scalar inversion: a product tree across the lanes
    /// (three multiplication layers, which also yield each lane's product of the other
    /// seven), one safegcd inversion of the total, and one layer of eight products.
    /// Lanes holding 0 come back as garbage and must be excluded by the caller's status;
    /// they are replaced by 1 before the tree so the other lanes stay correct.
    #[inline(always)]
    pub fn invert_lanes(&self) -> Self {
        let one = Fe8::splat(&FieldElement::ONE);
        let z = Fe8::select(self.is_zero(), &one, self);
        let s1 = z.swap_lanes::<1>();
        let a1 = z.mul(&s1); // z_i · z_{i^1}
        let s2 = a1.swap_lanes::<2>();
        let a2 = a1.mul(&s2); // product of the aligned group of 4
        let e2 = s1.mul(&s2); // product of that group except z_i
        let s4 = a2.swap_lanes::<4>();
        let a3 = a2.mul(&s4); // product of all 8 (in every lane)
        let e3 = e2.mul(&s4); // product of all but z_i
        let total = a3.to_words_lane0();
        let inv = FieldElement::from_u64x4(total).inv();
        Fe8::splat(&inv).mul(&e3)
    }

    /// The canonical value of lane 0 as four words.
    #[inline(always)]
    fn to_words_lane0(self) -> [u64; 4] {
        let w = self.normalize().to_words();
        [
            B::store(w[0])[0],
            B::store(w[1])[0],
            B::store(w[2])[0],
            B::store(w[3])[0],
        ]
    }
}

/// `K` independent elements of eight lanes, multiplied side by side: `K` dependency
/// chains in one instruction stream. A long chain of products such as the square root's
/// (266 of them, each waiting for the last) is bound by the multiply's latency; two chains
/// let the core overlap them.
#[derive(Clone, Copy)]
pub(crate) struct Chains<B: Backend, const K: usize>(pub [Fe8<B>; K]);

impl<B: Backend, const K: usize> Chains<B, K> {
    /// Every chain squared.
    #[inline(always)]
    fn sqr(&self) -> Self {
        let mut r = self.0;
        for x in r.iter_mut() {
            *x = x.sqr();
        }
        Chains(r)
    }

    /// Every chain squared `n` times.
    #[inline(always)]
    fn sqr_n(&self, n: u32) -> Self {
        let mut r = *self;
        for _ in 0..n {
            r = r.sqr();
        }
        r
    }

    /// Chain by chain products.
    #[inline(always)]
    fn mul(&self, other: &Self) -> Self {
        let mut r = self.0;
        for (x, y) in r.iter_mut().zip(&other.0) {
            *x = x.mul(y);
        }
        Chains(r)
    }

    /// Square roots: in each chain, r with r² = the element in the lanes of the returned
    /// mask (where it is a square); other lanes hold garbage. Same addition chain as the
    /// scalar `FieldElement::sqrt`: 253 squarings and 13 multiplications.
    #[inline(always)]
    pub fn sqrt(&self) -> (Self, [u8; K]) {
        let a = self;
        let x2 = a.sqr().mul(a);
        let x3 = x2.sqr().mul(a);
        let x6 = x3.sqr_n(3).mul(&x3);
        let x9 = x6.sqr_n(3).mul(&x3);
        let x11 = x9.sqr_n(2).mul(&x2);
        let x22 = x11.sqr_n(11).mul(&x11);
        let x44 = x22.sqr_n(22).mul(&x22);
        let x88 = x44.sqr_n(44).mul(&x44);
        let x176 = x88.sqr_n(88).mul(&x88);
        let x220 = x176.sqr_n(44).mul(&x44);
        let x223 = x220.sqr_n(3).mul(&x3);
        let t = x223.sqr_n(23).mul(&x22);
        let t = t.sqr_n(6).mul(&x2);
        let r = t.sqr_n(2);
        let back = r.sqr();
        let mut ok = [0u8; K];
        for ((o, b), x) in ok.iter_mut().zip(&back.0).zip(&a.0) {
            *o = b.eq(x);
        }
        (r, ok)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::lanes::portable::Portable;
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
            let checks: [(F, Op); 21] = [
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
                    // Every output is reduced: limbs below 2⁵², limb 4 below 2⁴⁸ + 2¹².
                    for k in 0..5 {
                        let limb = Portable::store(got.0[k])[i];
                        assert!(limb < (1 << 52) && (k < 4 || limb < (1 << 48) + (1 << 12)));
                    }
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
    fn sqrt_and_invert_lanes_match_scalar_core() {
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
            let inv = fa.invert_lanes().to_lanes();
            for i in 0..LANES {
                if !a[i].normalizes_to_zero() {
                    assert_eq!(canon(&inv[i]), canon(&a[i].inv()), "lane {i}");
                }
            }
        }
    }
}
