//! Integers mod n on eight lanes: five 52-bit limbs, Montgomery multiplication with the
//! IFMA primitives (R = 2²⁶⁰).
//!
//! Elements are kept below n with limbs below 2⁵². The recovery core needs only products
//! (r⁻¹ through a product tree, u₁ = −m·r⁻¹, u₂ = s·r⁻¹) and a negation, so these are all
//! that is provided; the GLV split and the window recoding are per-lane bookkeeping done
//! by the scalar core.

use super::field::{M52, limbs52, words52};
use super::{Backend, GROUPS, Ifma, LANES};
use crate::secp256k1::batch_inv::invert_chain_in;
use crate::secp256k1::scalar::Scalar;

/// n in radix 2⁵².
const N52: [u64; 5] = [
    0x2_5E8C_D036_4141,
    0xE_6AF4_8A03_BBFD,
    0xF_FFFF_FEBA_AEDC,
    0xF_FFFF_FFFF_FFFF,
    0xFFFF_FFFF_FFFF,
];
/// 2²⁶⁰ − n in radix 2⁵² (adding it carries out of bit 260 exactly when the value is ≥ n).
const NEG_N52: [u64; 5] = [
    0xD_A173_2FC9_BEBF,
    0x1_950B_75FC_4402,
    0x145_5123,
    0,
    0xF_0000_0000_0000,
];
/// 2n in radix 2⁵² with limbs 0..3 raised by 2⁵² (and 1 borrowed from the next), so
/// subtracting any element below n leaves every limb non-negative.
const TWO_N_SPREAD: [u64; 5] = [
    0x4_BD19_A06C_8282 + (1 << 52),
    0xC_D5E9_1407_77FA + (1 << 52) - 1,
    0xF_FFFF_FD75_5DB9 + (1 << 52) - 1,
    0xF_FFFF_FFFF_FFFF + (1 << 52) - 1,
    0x1_FFFF_FFFF_FFFF - 1,
];
/// −n⁻¹ mod 2⁵².
const N_PRIME: u64 = 0xD_FF66_5588_B13F;
/// 2⁵²⁰ mod n: multiplying by it in Montgomery form converts into Montgomery form.
pub(crate) const R2: Scalar = Scalar::from_words([
    0xc8ee_180c_268b_3b23,
    0x9759_4894_fd6e_33e4,
    0x97f5_e45b_cd07_c73b,
    0x671c_d581_c69b_c5e6,
]);

/// Eight scalars, limb-major.
pub(crate) struct Sc8<B: Ifma>(pub [B::V; 5]);

impl<B: Ifma> Clone for Sc8<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Ifma> Copy for Sc8<B> {}

/// Carry pass: limbs 0..3 below 2⁵², everything above in limb 4.
#[inline(always)]
fn carry<B: Backend>(mut t: [B::V; 5]) -> [B::V; 5] {
    let m = B::splat(M52);
    for k in 0..4 {
        t[k + 1] = B::add(t[k + 1], B::shr::<52>(t[k]));
        t[k] = B::and(t[k], m);
    }
    t
}

/// For a carried value below 2n: subtracts n where it is ≥ n.
#[inline(always)]
fn cond_sub_n<B: Backend>(t: [B::V; 5]) -> [B::V; 5] {
    let mut d = t;
    for k in 0..5 {
        d[k] = B::add(t[k], B::splat(NEG_N52[k]));
    }
    let mut d = carry::<B>(d);
    let below_n = B::eq(B::shr::<52>(d[4]), B::splat(0));
    d[4] = B::and(d[4], B::splat(M52));
    for k in 0..5 {
        d[k] = B::select(below_n, t[k], d[k]);
    }
    d
}

/// Lane i from lane `i ^ K` (K = 1, 2 or 4), in every limb.
#[inline(always)]
fn swap_lanes<B: Ifma, const K: usize>(a: &Sc8<B>) -> Sc8<B> {
    let mut t = a.0;
    for tk in t.iter_mut() {
        *tk = B::swap_lanes::<K>(*tk);
    }
    Sc8(t)
}

impl<B: Ifma> Sc8<B> {
    /// The same scalar in every lane.
    #[inline(always)]
    pub fn splat(s: &Scalar) -> Self {
        Self::from_words(B::splat4(s.0))
    }

    /// From four vectors of little-endian words (each lane's value below n).
    #[inline(always)]
    pub fn from_words(w: [B::V; 4]) -> Self {
        Sc8(limbs52::<B>(w))
    }

    /// To four vectors of little-endian words.
    #[inline(always)]
    pub fn to_words(self) -> [B::V; 4] {
        words52::<B>(self.0)
    }

    /// The lanes as scalars.
    #[inline(always)]
    pub fn to_lanes(self) -> [Scalar; LANES] {
        let v = self.to_words();
        let w = [
            B::store(v[0]),
            B::store(v[1]),
            B::store(v[2]),
            B::store(v[3]),
        ];
        let mut out = [Scalar::ZERO; LANES];
        for (i, o) in out.iter_mut().enumerate() {
            *o = Scalar::from_words([w[0][i], w[1][i], w[2][i], w[3][i]]);
        }
        out
    }

    /// Lane i from `a` where bit i of `mask` is set, else from `b`.
    #[inline(always)]
    pub fn select(mask: u8, a: &Self, b: &Self) -> Self {
        let mut t = a.0;
        for (tk, bk) in t.iter_mut().zip(b.0) {
            *tk = B::select(mask, *tk, bk);
        }
        Sc8(t)
    }

    /// Montgomery product `self · other · 2⁻²⁶⁰ mod n` (inputs below n).
    #[inline(always)]
    pub fn mont_mul(&self, other: &Self) -> Self {
        let (a, b) = (&self.0, &other.0);
        let zero = B::splat(0);
        let np = B::splat(N_PRIME);
        let m52 = B::splat(M52);
        let mut t = [zero; 6];
        for ai in a {
            for j in 0..5 {
                t[j] = B::madd52lo(t[j], *ai, b[j]);
                t[j + 1] = B::madd52hi(t[j + 1], *ai, b[j]);
            }
            // m = −t₀·n⁻¹ mod 2⁵² makes t + m·n divisible by 2⁵² (t₀'s low 52 bits
            // suffice; the mask keeps every multiplicand below 2⁵²).
            let m = B::madd52lo(zero, B::and(t[0], m52), np);
            for j in 0..5 {
                let nj = B::splat(N52[j]);
                t[j] = B::madd52lo(t[j], m, nj);
                t[j + 1] = B::madd52hi(t[j + 1], m, nj);
            }
            t[1] = B::add(t[1], B::shr::<52>(t[0]));
            t = [t[1], t[2], t[3], t[4], t[5], zero];
        }
        // (a·b + M·n) / 2²⁶⁰ < 2n.
        Sc8(cond_sub_n::<B>(carry::<B>([t[0], t[1], t[2], t[3], t[4]])))
    }

    /// `−self mod n`.
    #[inline(always)]
    pub fn neg(&self) -> Self {
        let mut t = self.0;
        for k in 0..5 {
            t[k] = B::sub(B::splat(TWO_N_SPREAD[k]), self.0[k]);
        }
        let t = carry::<B>(t);
        // 2n − a ∈ (n, 2n]: one conditional subtraction, twice for a = 0 (2n → n → 0).
        Sc8(cond_sub_n::<B>(cond_sub_n::<B>(t)))
    }

    /// Inverses of every lane of every group of `xs` (at most [`GROUPS`]) in Montgomery
    /// form, given Montgomery-form inputs (none zero), with one scalar safegcd inversion:
    /// a product tree across each group's lanes, Montgomery's trick across the groups'
    /// totals, one layer of products per group (as `LaneField::invert_groups`).
    #[inline(always)]
    pub fn invert_groups_mont(xs: &mut [Self]) {
        let n = xs.len();
        let mut others = [Sc8::splat(&Scalar::ONE); GROUPS];
        let mut totals = [Scalar::ONE; GROUPS];
        for (k, z) in xs.iter().enumerate() {
            let s1 = swap_lanes::<B, 1>(z);
            let a1 = z.mont_mul(&s1);
            let s2 = swap_lanes::<B, 2>(&a1);
            let a2 = a1.mont_mul(&s2);
            let e2 = s1.mont_mul(&s2);
            let s4 = swap_lanes::<B, 4>(&a2);
            // a3 = P·2²⁶⁰, the Montgomery form of the group's product P, read as a plain
            // scalar.
            totals[k] = a2.mont_mul(&s4).to_lanes()[0];
            others[k] = e2.mont_mul(&s4);
        }
        let mut scratch = [Scalar::ONE; GROUPS];
        invert_chain_in(&mut totals[..n], &mut scratch);
        for (k, x) in xs.iter_mut().enumerate() {
            // The plain inverse of P·2²⁶⁰ is P⁻¹·2⁻²⁶⁰; times 2⁵²⁰ it is P⁻¹·2²⁶⁰, the
            // Montgomery form of P⁻¹.
            *x = Sc8::splat(&totals[k].mul(&R2)).mont_mul(&others[k]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::portable::Portable;
    use crate::secp256k1::scalar::N;
    use crate::test_support::rng::splitmix64 as rng;
    use num_bigint::BigUint;

    type S = Sc8<Portable>;

    fn big(w: &[u64]) -> BigUint {
        w.iter().rev().fold(BigUint::from(0u8), |acc, &x| {
            (acc << 64u32) + BigUint::from(x)
        })
    }
    fn big52(l: &[u64; 5]) -> BigUint {
        l.iter().rev().fold(BigUint::from(0u8), |acc, &x| {
            (acc << 52u32) + BigUint::from(x)
        })
    }

    #[test]
    fn constants() {
        let n = big(&N);
        assert_eq!(big52(&N52), n);
        assert_eq!(big52(&NEG_N52), (BigUint::from(1u8) << 260u32) - &n);
        assert_eq!(big52(&TWO_N_SPREAD), &n * 2u8);
        for limb in &TWO_N_SPREAD[..4] {
            assert!(*limb >= 1 << 52);
        }
        assert!(TWO_N_SPREAD[4] > N52[4]);
        assert_eq!(
            (N52[0].wrapping_mul(N_PRIME)) & M52,
            M52,
            "n·n' ≡ −1 mod 2⁵²"
        );
        assert_eq!(big(&R2.0), (BigUint::from(1u8) << 520u32) % &n);
    }

    fn scalars(seed: u64, count: usize) -> Vec<Scalar> {
        let one = Scalar::ONE;
        let mut v = vec![
            Scalar::ZERO,
            one,
            one.negate(),
            one.negate().add(&one.negate()),
            Scalar::from_words([M52, 0, 0, 0]),
        ];
        let mut s = seed;
        for _ in 0..count {
            let w = [rng(&mut s), rng(&mut s), rng(&mut s), rng(&mut s)];
            v.push(Scalar::from_bytes_reduced(
                &Scalar::from_words(w).to_bytes(),
            ));
        }
        v
    }

    fn lanes(v: &[Scalar]) -> S {
        let w: [[u64; LANES]; 4] =
            core::array::from_fn(|k| core::array::from_fn(|i| v[i % v.len()].0[k]));
        S::from_words(w.map(|a| Portable::load(&a)))
    }

    #[test]
    fn mont_mul_and_neg_match_scalar_core() {
        let n = big(&N);
        let vals = scalars(3, 4000);
        let rinv = (BigUint::from(1u8) << 260u32).modinv(&n).unwrap();
        for c in vals.chunks(LANES) {
            let other: Vec<Scalar> = c.iter().rev().cloned().collect();
            let (a, b) = (lanes(c), lanes(&other));
            let prod = a.mont_mul(&b).to_lanes();
            let neg = a.neg().to_lanes();
            for i in 0..LANES {
                let (x, y) = (&c[i % c.len()], &other[i % other.len()]);
                let want = big(&x.0) * big(&y.0) % &n * &rinv % &n;
                assert_eq!(big(&prod[i].0), want);
                assert_eq!(neg[i], x.negate());
            }
            // To Montgomery form and back.
            let m = a
                .mont_mul(&S::splat(&R2))
                .mont_mul(&S::splat(&Scalar::ONE))
                .to_lanes();
            for i in 0..LANES {
                assert_eq!(m[i], c[i % c.len()]);
            }
        }
    }

    /// One group, a few, and the most one call takes, each lane against the scalar core.
    #[test]
    fn invert_groups_matches_scalar_core() {
        let vals: Vec<Scalar> = scalars(4, 400)
            .into_iter()
            .filter(|x| !x.is_zero())
            .collect();
        for n in [1, 3, GROUPS] {
            for c in vals.chunks(n * LANES) {
                let at = |k: usize, i: usize| c[(k * LANES + i) % c.len()];
                let mut groups: Vec<S> = (0..n)
                    .map(|k| {
                        let g: [Scalar; LANES] = core::array::from_fn(|i| at(k, i));
                        lanes(&g).mont_mul(&S::splat(&R2))
                    })
                    .collect();
                S::invert_groups_mont(&mut groups);
                for (k, g) in groups.iter().enumerate() {
                    let inv = g.mont_mul(&S::splat(&Scalar::ONE)).to_lanes();
                    for (i, x) in inv.iter().enumerate() {
                        assert_eq!(*x, at(k, i).inv(), "{n} groups: group {k} lane {i}");
                    }
                }
            }
        }
    }
}
