//! GF(p), p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1 (P-256's field), on eight lanes: five 52-bit
//! limbs per lane, Montgomery form with R = 2²⁶⁰, multiplied with the backend's IFMA
//! primitives.
//!
//! **The product** ([`P8::mul`]) is the 25 `madd52lo`/`madd52hi` pairs of the schoolbook
//! columns, then five word steps of Montgomery's reduction. p's lowest limb is 2⁵² − 1, so
//! −p⁻¹ ≡ 1 (mod 2⁵²): a step's quotient digit q is the column's own low 52 bits (no
//! product), and adding q·(2⁵² − 1) clears the column with a carry of q plus its bits above
//! 52. p's other limbs are 2⁴⁴ − 1, 0, 2³⁶ and 2⁴⁸ − 2¹⁶: three products a step. For inputs
//! with a·b < 2²⁶⁰·p the output a·b/R + q·p/R lies below 2p, so no final subtraction: the
//! output feeds the next product as it is. Every element here is below 2p, and
//! (2p)² < 2²⁶⁰·p.
//!
//! **An element** ([`P8`]) holds limbs 0..3 below 2⁵² and limb 4 below 2⁴⁹ (a value below
//! 2²⁵⁷, and below 2p): the IFMA multiplicands read 52 bits, so every limb is clean.
//!
//! **The linear operations** add and subtract limb by limb and end with [`fold`]: the bits
//! at and above 2²⁵⁶ (h, in limb 4) are replaced by h·(2²²⁴ − 2¹⁹² − 2⁹⁶ + 1) ≡ h·2²⁵⁶,
//! whose four terms land in limbs 4, 3, 1 and 0 as shifts of h, then one carry pass; the
//! two negative terms are taken from a limb vector worth zero ([`NEUTRAL`]), so no limb
//! ever goes negative. Subtraction adds a multiple of p whose limbs are each at least the
//! subtrahend's ([`bias`]), so every limb is non-negative before the fold, and the fold
//! only adds a positive multiple of 2²²⁴ − 2¹⁹³: the value stays non-negative and ends
//! below 2²⁵⁶ + 2²⁴⁰ < 2p. (The portable backend's debug assertions check that no lane
//! subtraction goes negative.)
//!
//! Conversions: the scalar core's field (`crate::p256::field::Fe`) keeps a·2²⁵⁶ mod p in
//! four words; sixteen times that is a·2²⁶⁰, so an element comes from the scalar form by a
//! shift and a fold ([`P8::from_scalar_words`]), with no product.

use crate::lanes::field::{limbs52, words52};
use crate::lanes::{Backend, Ifma, LANES};
use crate::p256::field::Fe;

const M52: u64 = (1 << 52) - 1;
const M48: u64 = (1 << 48) - 1;
/// p in radix 2⁵² (clean limbs).
pub(crate) const P52: [u64; 5] = [M52, (1 << 44) - 1, 0, 1 << 36, 0x0000_FFFF_FFFF_0000];

/// `m·p` written with limbs 0..3 at least 2^(52+K) and limb 4 at least 2^(50+K), for
/// m = 2^(K+3): added before subtracting 2^K times an element (limbs below 2⁵², limb 4
/// below 2⁵⁰), it leaves every limb non-negative.
const fn spread_bias(k: u32) -> [u64; 5] {
    let m = 1u64 << (k + 3);
    // Clean limbs of m·p.
    let mut d = [0u64; 5];
    let mut carry = 0u64;
    let mut i = 0;
    while i < 5 {
        let t = m * P52[i] + carry;
        d[i] = if i < 4 { t & M52 } else { t };
        carry = t >> 52;
        i += 1;
    }
    // Borrow-spread: 2^(53+K) more in limbs 0..3, 2^(1+K) less in limbs 1..4.
    let up = 1u64 << (53 + k);
    let down = 1u64 << (1 + k);
    [
        d[0] + up,
        d[1] + up - down,
        d[2] + up - down,
        d[3] + up - down,
        d[4] - down,
    ]
}

/// [`spread_bias`] for K = 0, 1, 2, 3.
const BIAS: [[u64; 5]; 4] = [
    spread_bias(0),
    spread_bias(1),
    spread_bias(2),
    spread_bias(3),
];

/// Limb `k` of the bias for subtracting 2^K times an element.
#[inline(always)]
fn bias<B: Backend, const K: u32>(k: usize) -> B::V {
    const { assert!(K <= 3) };
    B::splat(BIAS[K as usize][k])
}

/// A limb vector worth zero, added by [`fold`] so that no limb goes negative: 2⁶⁰ at limb
/// 1, 2⁶¹ − 2⁸ at limb 2, 2⁶¹ − 2⁹ at limb 3 and −2⁹ at limb 4 (the last subtracted after
/// limb 4 has taken its carry): 2¹¹² + (2¹⁶⁵ − 2¹¹²) + (2²¹⁷ − 2¹⁶⁵) − 2²¹⁷ = 0.
const NEUTRAL: [u64; 4] = [1 << 60, (1 << 61) - (1 << 8), (1 << 61) - (1 << 9), 1 << 9];

/// Limb sums (each non-negative, below 2⁶²) to an element: the bits of limb 4 above 48
/// folded down as h·(2²²⁴ − 2¹⁹² − 2⁹⁶ + 1), then one carry pass.
///
/// The fold's two negative terms (−h·2¹⁹² in limb 3, −h·2⁹⁶ in limb 1) are taken from
/// [`NEUTRAL`]'s large limbs, which the carry pass passes up and limb 4 gives back, so every
/// limb stays non-negative throughout and the carries are plain shifts. The value, L + h·c
/// for the low part L ≥ 0 and c = 2²²⁴ − 2¹⁹² − 2⁹⁶ + 1 > 0, is non-negative and below
/// 2²⁵⁶ + 2²⁴⁰ < 2p.
#[inline(always)]
fn fold<B: Backend>(t: [B::V; 5]) -> [B::V; 5] {
    let [mut t0, mut t1, mut t2, mut t3, mut t4] = t;
    let h = B::shr::<48>(t4);
    t4 = B::add(B::and(t4, B::splat(M48)), B::shl::<16>(h));
    t0 = B::add(t0, h);
    t1 = B::add(t1, B::sub(B::splat(NEUTRAL[0]), B::shl::<44>(h)));
    t2 = B::add(t2, B::splat(NEUTRAL[1]));
    t3 = B::add(t3, B::sub(B::splat(NEUTRAL[2]), B::shl::<36>(h)));
    let m = B::splat(M52);
    t1 = B::add(t1, B::shr::<52>(t0));
    t2 = B::add(t2, B::shr::<52>(t1));
    t3 = B::add(t3, B::shr::<52>(t2));
    t4 = B::sub(B::add(t4, B::shr::<52>(t3)), B::splat(NEUTRAL[3]));
    [
        B::and(t0, m),
        B::and(t1, m),
        B::and(t2, m),
        B::and(t3, m),
        t4,
    ]
}

/// 2²⁶⁰ − p in radix 2⁵² (p's limbs complemented, plus 1).
const P_COMPLEMENT: [u64; 5] = [1, M52 - P52[1], M52 - P52[2], M52 - P52[3], M52 - P52[4]];

/// Eight elements of GF(p) in Montgomery form (a·2²⁶⁰ mod p, below 2p), limb-major:
/// `0[k]` holds limb k of every lane.
pub(crate) struct P8<B: Backend>(pub [B::V; 5]);

impl<B: Backend> Clone for P8<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Backend> Copy for P8<B> {}

/// The Montgomery product of two elements' limbs (inlined into the SIMD entry points).
#[inline(always)]
fn mont_mul_inline<B: Ifma>(a: &[B::V; 5], b: &[B::V; 5]) -> [B::V; 5] {
    let z = B::splat(0);
    let mut t = [z; 10];
    for i in 0..5 {
        for j in 0..5 {
            t[i + j] = B::madd52lo(t[i + j], a[i], b[j]);
            t[i + j + 1] = B::madd52hi(t[i + j + 1], a[i], b[j]);
        }
    }
    mont_reduce::<B>(t)
}

/// The Montgomery square of an element's limbs: the ten cross products once, doubled by a
/// shift of their columns, then the five squares (30 multiply-adds where a product takes
/// 50; IFMA reads 52 bits of a multiplicand, so a limb cannot be doubled instead).
#[inline(always)]
fn mont_sqr_inline<B: Ifma>(a: &[B::V; 5]) -> [B::V; 5] {
    let z = B::splat(0);
    let mut t = [z; 10];
    for i in 0..5 {
        for j in i + 1..5 {
            t[i + j] = B::madd52lo(t[i + j], a[i], a[j]);
            t[i + j + 1] = B::madd52hi(t[i + j + 1], a[i], a[j]);
        }
    }
    for x in t.iter_mut().take(9).skip(1) {
        *x = B::shl::<1>(*x);
    }
    for i in 0..5 {
        t[2 * i] = B::madd52lo(t[2 * i], a[i], a[i]);
        t[2 * i + 1] = B::madd52hi(t[2 * i + 1], a[i], a[i]);
    }
    mont_reduce::<B>(t)
}

/// Montgomery's reduction of the ten columns of a product (each below 10·2⁵²):
/// t·2⁻²⁶⁰ mod p, below 2p for a product below 2²⁶⁰·p, before its last carry pass
/// ([`carry`]): five limbs, each below 2⁵⁷ (the columns' own terms below 10·2⁵², and the
/// reduction adds fewer than 4·2⁵² to any of them).
#[inline(always)]
fn mont_reduce<B: Ifma>(mut t: [B::V; 10]) -> [B::V; 5] {
    let m52 = B::splat(M52);
    let (p3, p4) = (B::splat(P52[3]), B::splat(P52[4]));
    for i in 0..5 {
        let q = B::and(t[i], m52);
        // p's limbs 0 and 1 are 2⁹⁶ − 1: t[i] − q = (t[i] >> 52)·2⁵² carries, and
        // q·2⁹⁶ = q·2⁴⁴ at column i + 1 splits into (q mod 2⁸)·2⁴⁴ and q >> 8 at i + 2.
        t[i + 1] = B::add(
            t[i + 1],
            B::add(B::shr::<52>(t[i]), B::and(B::shl::<44>(q), m52)),
        );
        t[i + 2] = B::add(t[i + 2], B::shr::<8>(q));
        // Limbs 3 and 4 by IFMA (shifts for them measured slower: the multiply-adds and
        // the shifts share ports, and these take four shifts where IFMA takes two).
        t[i + 3] = B::madd52lo(t[i + 3], q, p3);
        t[i + 4] = B::madd52hi(t[i + 4], q, p3);
        t[i + 4] = B::madd52lo(t[i + 4], q, p4);
        t[i + 5] = B::madd52hi(t[i + 5], q, p4);
    }
    [t[5], t[6], t[7], t[8], t[9]]
}

/// The last carry pass of a product: limbs below 2⁵⁷ in, clean limbs out.
#[inline(always)]
fn carry<B: Backend>(mut t: [B::V; 5]) -> [B::V; 5] {
    let m52 = B::splat(M52);
    for k in 0..4 {
        t[k + 1] = B::add(t[k + 1], B::shr::<52>(t[k]));
        t[k] = B::and(t[k], m52);
    }
    t
}

/// [`mont_mul_inline`] as one out-of-line copy, for backends whose operations are calls
/// (`Backend::OUTLINE`).
#[inline(never)]
fn mont_mul_outlined<B: Ifma>(a: &[B::V; 5], b: &[B::V; 5]) -> [B::V; 5] {
    mont_mul_inline::<B>(a, b)
}

/// [`mont_sqr_inline`] as one out-of-line copy.
#[inline(never)]
fn mont_sqr_outlined<B: Ifma>(a: &[B::V; 5]) -> [B::V; 5] {
    mont_sqr_inline::<B>(a)
}

impl<B: Ifma> P8<B> {
    /// `self · other · 2⁻²⁶⁰`: the product of the Montgomery forms.
    #[inline(always)]
    pub fn mul(&self, other: &Self) -> Self {
        P8(carry::<B>(self.mul_wide(other).0))
    }

    /// `self · other` before its last carry pass, for a linear operation to finish.
    #[inline(always)]
    pub fn mul_wide(&self, other: &Self) -> Wide8<B> {
        if B::OUTLINE {
            Wide8(mont_mul_outlined::<B>(&self.0, &other.0))
        } else {
            Wide8(mont_mul_inline::<B>(&self.0, &other.0))
        }
    }

    /// `self²` before its last carry pass, for a linear operation to finish.
    #[inline(always)]
    pub fn sqr_wide(&self) -> Wide8<B> {
        if B::OUTLINE {
            Wide8(mont_sqr_outlined::<B>(&self.0))
        } else {
            Wide8(mont_sqr_inline::<B>(&self.0))
        }
    }

    /// `self²`.
    #[inline(always)]
    pub fn sqr(&self) -> Self {
        P8(carry::<B>(self.sqr_wide().0))
    }

    /// The inverse of every lane, with one scalar inversion: the product T of the eight
    /// lanes and, in each lane, the product of the other seven (three layers of products
    /// across lane swaps); then 1/T from the scalar core's inversion, times each lane's
    /// seven others. A lane ≡ 0 is replaced by 1 first, so that the others stay right
    /// (its own result is garbage).
    #[inline(always)]
    pub fn invert(&self) -> Self {
        let one = Self::splat_scalar_words(Fe::ONE.0);
        let x = Self::select(self.is_zero(), &one, self);
        let s1 = x.swap_lanes::<1>();
        let a1 = x.mul(&s1); // z_i · z_{i^1}
        let s2 = a1.swap_lanes::<2>();
        let a2 = a1.mul(&s2); // the aligned group of four
        let e2 = s1.mul(&s2); // that group without z_i
        let s4 = a2.swap_lanes::<4>();
        let all = a2.mul(&s4);
        let others = e2.mul(&s4);
        Self::splat_scalar_words(all.lane(0).inv().0).mul(&others)
    }
}

impl<B: Backend> P8<B> {
    /// Every lane from its scalar-core Montgomery form (four vectors of little-endian words
    /// of a·2²⁵⁶ mod p, below p): times 16, a·2²⁶⁰.
    #[inline(always)]
    pub fn from_scalar_words(w: [B::V; 4]) -> Self {
        Self::shl::<4>(&P8(limbs52::<B>(w)))
    }

    /// The same element in every lane, from its scalar-core Montgomery words.
    #[inline(always)]
    pub fn splat_scalar_words(w: [u64; 4]) -> Self {
        Self::from_scalar_words(B::splat4(w))
    }

    /// `self + other`.
    #[inline(always)]
    pub fn add(&self, other: &Self) -> Self {
        let mut t = self.0;
        for (tk, ok) in t.iter_mut().zip(other.0) {
            *tk = B::add(*tk, ok);
        }
        P8(fold::<B>(t))
    }

    /// `2^K·self − other` (K ≤ 3).
    #[inline(always)]
    pub fn shl_sub<const K: u32>(&self, other: &Self) -> Self {
        let mut t = self.0;
        for (k, (tk, ok)) in t.iter_mut().zip(other.0).enumerate() {
            *tk = B::sub(B::add(B::shl::<K>(*tk), bias::<B, 0>(k)), ok);
        }
        P8(fold::<B>(t))
    }

    /// `−self`.
    #[inline(always)]
    pub fn neg(&self) -> Self {
        let mut t = self.0;
        for (k, x) in t.iter_mut().enumerate() {
            *x = B::sub(bias::<B, 0>(k), *x);
        }
        P8(fold::<B>(t))
    }

    /// Lane i from `a` where bit i of `mask` is set, else from `b`.
    #[inline(always)]
    pub fn select(mask: u8, a: &Self, b: &Self) -> Self {
        let mut t = a.0;
        for (tk, bk) in t.iter_mut().zip(b.0) {
            *tk = B::select(mask, *tk, bk);
        }
        P8(t)
    }

    /// The canonical representative (below p) of every lane: p subtracted where the value
    /// is at least p (it is below 2p).
    #[inline(always)]
    pub fn normalize(&self) -> Self {
        // self + 2²⁶⁰ − p reaches 2²⁶⁰ exactly where self ≥ p, and is then self − p below
        // bit 260.
        let m = B::splat(M52);
        let mut t = self.0;
        for (tk, ck) in t.iter_mut().zip(P_COMPLEMENT) {
            *tk = B::add(*tk, B::splat(ck));
        }
        for k in 0..4 {
            t[k + 1] = B::add(t[k + 1], B::shr::<52>(t[k]));
            t[k] = B::and(t[k], m);
        }
        let at_least_p = !B::eq(B::shr::<52>(t[4]), B::splat(0));
        t[4] = B::and(t[4], m);
        Self::select(at_least_p, &P8(t), self)
    }

    /// Lanes whose element is ≡ 0 (mod p): the value is 0 or p (it is below 2p and its
    /// limbs are clean, so each has one representation).
    #[inline(always)]
    pub fn is_zero(&self) -> u8 {
        let (mut zero, mut p) = (0xFFu8, 0xFFu8);
        for (limb, pk) in self.0.into_iter().zip(P52) {
            zero &= B::eq(limb, B::splat(0));
            p &= B::eq(limb, B::splat(pk));
        }
        zero | p
    }

    /// Lanes where `self ≡ other` (mod p).
    #[inline(always)]
    pub fn eq(&self, other: &Self) -> u8 {
        let (a, b) = (self.normalize(), other.normalize());
        let mut m = 0xFFu8;
        for k in 0..5 {
            m &= B::eq(a.0[k], b.0[k]);
        }
        m
    }

    /// Lane i from lane `i ^ K` (K = 1, 2 or 4).
    #[inline(always)]
    pub fn swap_lanes<const K: usize>(&self) -> Self {
        let mut t = self.0;
        for x in t.iter_mut() {
            *x = B::swap_lanes::<K>(*x);
        }
        P8(t)
    }

    /// Lane `i` as the scalar core's element: the canonical a·2²⁶⁰ mod p read as that
    /// core's Montgomery words (a·2²⁵⁶ times 16), halved four times.
    #[inline(always)]
    pub fn lane(&self, i: usize) -> Fe {
        let w = words52::<B>(self.normalize().0).map(B::store);
        Fe::from_montgomery([w[0][i], w[1][i], w[2][i], w[3][i]])
            .half()
            .half()
            .half()
            .half()
    }

    /// Writes the limbs as rows of [`LANES`] words at `at`, `at + LANES`, … of `words`
    /// (the layout `Backend::gather_limbs` reads).
    #[inline(always)]
    pub fn put(&self, words: &mut [u64], at: usize) {
        for (k, limb) in self.0.iter().enumerate() {
            let at = at + k * LANES;
            words[at..at + LANES].copy_from_slice(&B::store(*limb));
        }
    }
}

/// A product before its last carry pass ([`P8::mul_wide`], [`P8::sqr_wide`]): limbs below
/// 2⁵⁷, not a multiplicand. Only the linear operations of [`Minuend`] take it, as their
/// first operand, and their fold carries it with everything else: a product that only
/// feeds a sum or a difference skips its own carry pass.
pub(crate) struct Wide8<B: Backend>(pub [B::V; 5]);

impl<B: Backend> Clone for Wide8<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Backend> Copy for Wide8<B> {}

/// The linear operations whose first operand may be a reduced element or a product
/// before its carry pass (limbs below 2⁵⁷: nine times that plus a bias stays below 2⁶²,
/// what [`fold`] takes).
pub(crate) trait Minuend<B: Backend>: Copy {
    /// The limbs.
    fn limbs(&self) -> [B::V; 5];

    /// `self − other`.
    #[inline(always)]
    fn sub(&self, other: &P8<B>) -> P8<B> {
        self.sub_shl::<0>(other)
    }

    /// `self − 2^K·other` (K ≤ 3).
    #[inline(always)]
    fn sub_shl<const K: u32>(&self, other: &P8<B>) -> P8<B> {
        let mut t = self.limbs();
        for (k, (tk, ok)) in t.iter_mut().zip(other.0).enumerate() {
            *tk = B::sub(B::add(*tk, bias::<B, K>(k)), B::shl::<K>(ok));
        }
        P8(fold::<B>(t))
    }

    /// `(2^S + 1)·self − 2^K·other` (S ≤ 3, K ≤ 3): a small multiple and a subtraction
    /// in one fold.
    #[inline(always)]
    fn odd_multiple_sub_shl<const S: u32, const K: u32>(&self, other: &P8<B>) -> P8<B> {
        const { assert!(S <= 3) };
        let mut t = self.limbs();
        for (k, (tk, ok)) in t.iter_mut().zip(other.0).enumerate() {
            let a = B::add(B::shl::<S>(*tk), *tk);
            *tk = B::sub(B::add(a, bias::<B, K>(k)), B::shl::<K>(ok));
        }
        P8(fold::<B>(t))
    }

    /// `self − b − 2·c`.
    #[inline(always)]
    fn sub_sub_dbl(&self, b: &P8<B>, c: &P8<B>) -> P8<B> {
        let mut t = self.limbs();
        for (k, ((tk, bk), ck)) in t.iter_mut().zip(b.0).zip(c.0).enumerate() {
            let bc = B::add(bk, B::shl::<1>(ck));
            *tk = B::sub(B::add(*tk, bias::<B, 2>(k)), bc);
        }
        P8(fold::<B>(t))
    }

    /// `self · 2^N` (N ≤ 4).
    #[inline(always)]
    fn shl<const N: u32>(&self) -> P8<B> {
        const { assert!(N <= 4) };
        let mut t = self.limbs();
        for x in t.iter_mut() {
            *x = B::shl::<N>(*x);
        }
        P8(fold::<B>(t))
    }
}

impl<B: Backend> Minuend<B> for P8<B> {
    #[inline(always)]
    fn limbs(&self) -> [B::V; 5] {
        self.0
    }
}

impl<B: Backend> Minuend<B> for Wide8<B> {
    #[inline(always)]
    fn limbs(&self) -> [B::V; 5] {
        self.0
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::lanes::portable::Portable;
    use crate::p256::field::{Fe, P};
    use crate::test_support::rng::SplitMix64;
    use num_bigint::BigUint;

    fn big(w: &[u64]) -> BigUint {
        let mut b = BigUint::default();
        for &x in w.iter().rev() {
            b = (b << 64) + x;
        }
        b
    }

    /// The value of five limbs.
    fn value(l: &[u64; 5]) -> BigUint {
        let mut b = BigUint::default();
        for &x in l.iter().rev() {
            b = (b << 52) + x;
        }
        b
    }

    /// Scalar elements (Montgomery words below p) at the edges (0, 1, p − 1, p − 2, one word
    /// all ones) and random ones, `count` in all.
    pub(crate) fn elements(seed: u64, count: usize) -> Vec<Fe> {
        let mut rng = SplitMix64(seed);
        let pm = |d: u64| {
            let mut w = P;
            w[0] -= d;
            w
        };
        let mut v = vec![[0; 4], [1, 0, 0, 0], pm(1), pm(2)];
        for k in 0..4 {
            let mut w = [0u64; 4];
            w[k] = u64::MAX;
            v.push(w);
        }
        while v.len() < count {
            v.push(rng.words4());
        }
        v.into_iter()
            .filter(|w| !crate::arith::words::ge(w, &P))
            .map(Fe::from_montgomery)
            .collect()
    }

    pub(crate) fn lanes<B: Ifma>(v: &[Fe; LANES]) -> P8<B> {
        let w: [B::V; 4] = core::array::from_fn(|k| B::load(&core::array::from_fn(|i| v[i].0[k])));
        P8::from_scalar_words(w)
    }

    /// Whether every lane of `x` is the scalar element's lane form: the same residue, and
    /// the element's bounds.
    pub(crate) fn check<B: Ifma>(x: &P8<B>, want: &[Fe; LANES], what: &str) {
        let l = x.0.map(B::store);
        let p = big(&P);
        let r: BigUint = BigUint::from(1u8) << 260;
        let rinv = r.modpow(&(&p - 2u8), &p);
        for i in 0..LANES {
            let limbs: [u64; 5] = core::array::from_fn(|k| l[k][i]);
            for (k, &x) in limbs.iter().enumerate() {
                assert!(
                    x < 1 << if k < 4 { 52 } else { 49 },
                    "{what}: lane {i} limb {k} {x:#x}"
                );
            }
            let v = value(&limbs);
            assert!(v < &p * 2u8, "{what}: lane {i} not below 2p");
            // The Montgomery form a·2²⁶⁰ back to the scalar core's a·2²⁵⁶.
            let a = (&v * &rinv) % &p;
            let scalar = (a << 256) % &p;
            assert_eq!(scalar, big(&want[i].0), "{what}: lane {i}");
        }
    }

    fn ops<B: Ifma>() {
        let v = elements(40, 800);
        let chunks: Vec<[Fe; LANES]> = v
            .chunks(LANES)
            .filter(|c| c.len() == LANES)
            .map(|c| c.try_into().unwrap())
            .collect();
        for (n, a) in chunks.iter().enumerate() {
            let b = &chunks[(n * 7 + 3) % chunks.len()];
            let c = &chunks[(n * 5 + 1) % chunks.len()];
            let (x, y, z) = (lanes::<B>(a), lanes::<B>(b), lanes::<B>(c));
            check(&x, a, "from_scalar_words");
            let f = |g: &dyn Fn(&Fe, &Fe, &Fe) -> Fe| -> [Fe; LANES] {
                core::array::from_fn(|i| g(&a[i], &b[i], &c[i]))
            };
            check(&x.mul(&y), &f(&|a, b, _| a.mul(b)), "mul");
            check(&x.sqr(), &f(&|a, _, _| a.sqr()), "sqr");
            check(&x.add(&y), &f(&|a, b, _| a.add(b)), "add");
            check(&x.sub(&y), &f(&|a, b, _| a.sub(b)), "sub");
            check(
                &x.sub_shl::<1>(&y),
                &f(&|a, b, _| a.sub(&b.dbl())),
                "sub_shl 1",
            );
            check(
                &x.sub_shl::<3>(&y),
                &f(&|a, b, _| a.sub(&b.dbl().dbl().dbl())),
                "sub_shl 3",
            );
            check(
                &x.shl_sub::<2>(&y),
                &f(&|a, b, _| a.dbl().dbl().sub(b)),
                "shl_sub 2",
            );
            let nine = |a: &Fe| a.dbl().dbl().dbl().add(a);
            let eight = |b: &Fe| b.dbl().dbl().dbl();
            check(
                &x.odd_multiple_sub_shl::<3, 3>(&y),
                &f(&|a, b, _| nine(a).sub(&eight(b))),
                "9a − 8b",
            );
            check(
                &x.odd_multiple_sub_shl::<1, 3>(&y),
                &f(&|a, b, _| a.dbl().add(a).sub(&eight(b))),
                "3a − 8b",
            );
            check(
                &x.sub_sub_dbl(&y, &z),
                &f(&|a, b, c| a.sub(b).sub(&c.dbl())),
                "sub_sub_dbl",
            );
            check(&x.shl::<1>(), &f(&|a, _, _| a.dbl()), "shl 1");
            // Products before their carry pass, as first operands.
            let (xy, xx) = (x.mul_wide(&y), x.sqr_wide());
            for (k, limb) in xy.0.iter().chain(&xx.0).enumerate() {
                assert!(
                    B::store(*limb).iter().all(|&l| l < 1 << 57),
                    "wide limb {k}"
                );
            }
            check(&xy.sub(&z), &f(&|a, b, c| a.mul(b).sub(c)), "wide − c");
            check(&xx.shl::<1>(), &f(&|a, _, _| a.sqr().dbl()), "2·wide");
            check(
                &xx.odd_multiple_sub_shl::<3, 3>(&y),
                &f(&|a, b, _| nine(&a.sqr()).sub(&eight(b))),
                "9·wide − 8b",
            );
            check(
                &xy.sub_sub_dbl(&y, &z),
                &f(&|a, b, c| a.mul(b).sub(b).sub(&c.dbl())),
                "wide − b − 2c",
            );
            check(&x.neg(), &f(&|a, _, _| a.neg()), "neg");
            check(&x.normalize(), a, "normalize");
            // Products of products and of linear results keep their bounds.
            let m = x
                .mul(&y)
                .mul(&z.sub(&x))
                .mul(&x.neg().add(&y.add(&y).add(&y)));
            let want = f(&|a, b, c| a.mul(b).mul(&c.sub(a)).mul(&a.neg().add(&b.dbl().add(b))));
            check(&m, &want, "chain");
            let inv = x.invert();
            for (i, ai) in a.iter().enumerate() {
                if !ai.is_zero() {
                    assert_eq!(inv.lane(i), ai.inv(), "invert: lane {i}");
                }
                assert_eq!(x.lane(i), *ai, "lane {i}");
            }
            let zero = x.sub(&x);
            assert_eq!(zero.is_zero(), 0xFF, "x − x");
            let want_zero = (0..LANES).fold(0u8, |m, i| m | ((a[i].is_zero() as u8) << i));
            assert_eq!(x.is_zero(), want_zero, "is_zero");
            let want_eq = (0..LANES).fold(0u8, |m, i| m | (((a[i] == b[i]) as u8) << i));
            assert_eq!(x.eq(&y), want_eq, "eq");
            assert_eq!(x.eq(&x.add(&zero)), 0xFF, "eq with itself");
            // p itself (a non-canonical zero) is zero and normalises to 0.
            let p8 = P8::<B>(P52.map(B::splat));
            assert_eq!(p8.is_zero(), 0xFF);
            assert_eq!(p8.normalize().0.map(B::store), [[0; LANES]; 5]);
        }
    }

    #[test]
    fn ops_match_the_scalar_field_portable() {
        ops::<Portable>();
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn ops_match_the_scalar_field_avx512() {
        if crate::dispatch::avx512_native().is_some() {
            // SAFETY: the CPU has AVX-512 F, BW and IFMA (checked above).
            unsafe { ops_avx512() }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
    fn ops_avx512() {
        ops::<crate::lanes::avx512::Avx512>();
    }

    #[test]
    fn biases_are_multiples_of_p_with_large_limbs() {
        let p = big(&P);
        for (k, b) in BIAS.iter().enumerate() {
            assert_eq!(value(b) % &p, BigUint::default(), "K = {k}");
            for (i, &x) in b.iter().enumerate() {
                let floor = 1u64 << (if i < 4 { 52 } else { 50 } + k);
                assert!(x >= floor, "K = {k}: limb {i}");
            }
        }
        assert_eq!(value(&P52), p);
    }
}
