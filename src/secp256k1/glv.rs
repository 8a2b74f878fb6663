//! The GLV endomorphism split: k = k₁ + k₂·λ (mod n) with |k₁|, |k₂| < 2¹²⁸.
//!
//! λ is a cube root of unity mod n with λ·(x, y) = (βx, y). The split rounds k onto the
//! short lattice basis {(a₁, b₁), (a₂, b₂)} of {(x, y) : x + y·λ ≡ 0 (mod n)} using the
//! precomputed g₁ = round(2³⁸⁴·b₂/n), g₂ = round(2³⁸⁴·(−b₁)/n) (Gallant, Lambert and
//! Vanstone, CRYPTO 2001; constants as published for secp256k1, checked in the tests).

use super::scalar::{Scalar, add_words, sub_words};
use crate::arith::wide;

/// λ.
#[cfg(test)]
pub const LAMBDA: Scalar = Scalar::from_words([
    0xdf02_967c_1b23_bd72,
    0x122e_22ea_2081_6678,
    0xa526_1c02_8812_645a,
    0x5363_ad4c_c05c_30e0,
]);
/// −λ mod n.
const MINUS_LAMBDA: Scalar = Scalar::from_words([
    0xe0cf_c810_b512_83cf,
    0xa880_b9fc_8ec7_39c2,
    0x5ad9_e3fd_77ed_9ba4,
    0xac9c_52b3_3fa3_cf1f,
]);
/// −b₁ = 0xe4437ed6010e88286f547fa90abfe4c3.
const MINUS_B1: Scalar = Scalar::from_words([0x6f54_7fa9_0abf_e4c3, 0xe443_7ed6_010e_8828, 0, 0]);
/// −b₂ mod n, where b₂ = a₁ = 0x3086d221a7d46bcde86c90e49284eb15.
const MINUS_B2: Scalar = Scalar::from_words([
    0xd765_cda8_3db1_562c,
    0x8a28_0ac5_0774_346d,
    0xffff_ffff_ffff_fffe,
    0xffff_ffff_ffff_ffff,
]);
/// round(2³⁸⁴·b₂/n).
const G1: Scalar = Scalar::from_words([
    0xe893_209a_45db_b031,
    0x3daa_8a14_71e8_ca7f,
    0xe86c_90e4_9284_eb15,
    0x3086_d221_a7d4_6bcd,
]);
/// round(2³⁸⁴·(−b₁)/n).
const G2: Scalar = Scalar::from_words([
    0x1571_b4ae_8ac4_7f71,
    0x2212_08ac_9df5_06c6,
    0x6f54_7fa9_0abf_e4c4,
    0xe443_7ed6_010e_8828,
]);

/// a₁ = b₂ (128 bits).
const A1: u128 = 0x3086_d221_a7d4_6bcd_e86c_90e4_9284_eb15;
/// |b₁| (b₁ is negative; 128 bits).
const B1_ABS: u128 = 0xe443_7ed6_010e_8828_6f54_7fa9_0abf_e4c3;
/// a₂ = a₁ − b₁ (129 bits): its low 128 bits, the top bit being 2¹²⁸.
const A2_LOW: u128 = 0x14ca_50f7_a8e2_f3f6_57c1_108d_9d44_cfd8;

/// One GLV half as a signed integer: its magnitude (below 2¹²⁸) and whether it is negative.
pub type Half = (u128, bool);

/// Splits k into the signed halves (k₁, k₂), k ≡ k₁ + k₂·λ (mod n), both below 2¹²⁸ in
/// magnitude; `None` if one is not (which the lattice bound rules out, never seen).
///
/// With c₁ = round(k·b₂/n), c₂ = round(−k·b₁/n) (from g₁, g₂), the halves are the
/// integers k₁ = k − c₁·a₁ − c₂·a₂ and k₂ = −c₁·b₁ − c₂·b₂, every product 128 × 128 (or
/// 129) bits. They are computed modulo 2²⁵⁶, which is exact since both are small: no
/// reduction mod n at all.
pub fn split_lambda_halves(k: &Scalar) -> Option<(Half, Half)> {
    let c1 = k.mul_shift(&G1, 384);
    let c2 = k.mul_shift(&G2, 384);
    let c1 = c1.0[0] as u128 | (c1.0[1] as u128) << 64;
    let c2 = c2.0[0] as u128 | (c2.0[1] as u128) << 64;
    // c₁ < 2^125.6 and c₂ < 2^127.8, so the products fit in 256 bits.
    let (c2a2, _) = add_words(&mul128(c2, A2_LOW), &[0, 0, c2 as u64, (c2 >> 64) as u64]);
    let k1 = sub_words(&sub_words(&k.0, &mul128(c1, A1)), &c2a2);
    let k2 = sub_words(&mul128(c1, B1_ABS), &mul128(c2, A1));
    Some((signed_half(k1)?, signed_half(k2)?))
}

/// Splits k into (k₁, k₂) with k ≡ k₁ + k₂·λ (mod n). Each half, or its negation mod n,
/// is below 2¹²⁸ (use [`Scalar::is_high`] to tell which).
pub fn split_lambda(k: &Scalar) -> (Scalar, Scalar) {
    match split_lambda_halves(k) {
        Some((h1, h2)) => (from_half(h1), from_half(h2)),
        None => split_lambda_mod_n(k),
    }
}

/// The same split computed mod n throughout (k₂ from c₁, c₂; k₁ = k − k₂·λ): what
/// [`split_lambda`] falls back to, and its test's reference.
fn split_lambda_mod_n(k: &Scalar) -> (Scalar, Scalar) {
    let c1 = k.mul_shift(&G1, 384);
    let c2 = k.mul_shift(&G2, 384);
    let k2 = c1.mul(&MINUS_B1).add(&c2.mul(&MINUS_B2));
    let k1 = k2.mul(&MINUS_LAMBDA).add(k);
    (k1, k2)
}

/// A signed half as a scalar mod n.
fn from_half((m, neg): Half) -> Scalar {
    let s = Scalar::from_words([m as u64, (m >> 64) as u64, 0, 0]);
    if neg { s.negate() } else { s }
}

/// A 256-bit two's-complement value as a signed half, if it lies in (−2¹²⁸, 2¹²⁸).
#[inline]
fn signed_half(v: [u64; 4]) -> Option<Half> {
    let neg = v[3] >> 63 == 1;
    let m = if neg { sub_words(&[0; 4], &v) } else { v };
    (m[2] | m[3] == 0).then_some((m[0] as u128 | (m[1] as u128) << 64, neg))
}

/// a·b, 256 bits.
#[inline]
fn mul128(a: u128, b: u128) -> [u64; 4] {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let ll = wide::mul(a0, b0);
    let lh = wide::mul(a0, b1);
    let hl = wide::mul(a1, b0);
    let hh = wide::mul(a1, b1);
    let mid = (ll >> 64) + (lh as u64 as u128) + (hl as u64 as u128);
    let hi = hh + (lh >> 64) + (hl >> 64) + (mid >> 64);
    [ll as u64, mid as u64, hi as u64, (hi >> 64) as u64]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secp256k1::scalar::N;
    use num_bigint::{BigInt, BigUint, Sign};

    fn big(s: &Scalar) -> BigUint {
        let mut v = BigUint::from(0u8);
        for &w in s.0.iter().rev() {
            v = (v << 64u32) + BigUint::from(w);
        }
        v
    }
    fn n() -> BigUint {
        big(&Scalar::from_words(N))
    }

    #[test]
    fn constants_are_consistent() {
        let n = n();
        let lambda = big(&LAMBDA);
        assert_eq!(lambda.modpow(&BigUint::from(3u8), &n), BigUint::from(1u8));
        assert_eq!((&lambda + big(&MINUS_LAMBDA)) % &n, BigUint::from(0u8));
        // The lattice basis: a + b·λ ≡ 0 for (a₁, b₁) and (a₂, b₂).
        let a1 = BigInt::parse_bytes(b"3086d221a7d46bcde86c90e49284eb15", 16).unwrap();
        let b1 = -BigInt::parse_bytes(b"e4437ed6010e88286f547fa90abfe4c3", 16).unwrap();
        let a2 = BigInt::parse_bytes(b"114ca50f7a8e2f3f657c1108d9d44cfd8", 16).unwrap();
        let b2 = a1.clone();
        let ni = BigInt::from_biguint(Sign::Plus, n.clone());
        let li = BigInt::from_biguint(Sign::Plus, lambda);
        let m = |x: BigInt| ((x % &ni) + &ni) % &ni;
        assert_eq!(m(&a1 + &b1 * &li), BigInt::from(0));
        assert_eq!(m(&a2 + &b2 * &li), BigInt::from(0));
        assert_eq!(m(-&b1), BigInt::from_biguint(Sign::Plus, big(&MINUS_B1)));
        assert_eq!(m(-&b2), BigInt::from_biguint(Sign::Plus, big(&MINUS_B2)));
        // g = round(2³⁸⁴·x/n).
        let round = |x: &BigInt| {
            let num = x << 384u32;
            (&num + (&ni >> 1u32)) / &ni
        };
        assert_eq!(a1, BigInt::from(A1));
        assert_eq!(-&b1, BigInt::from(B1_ABS));
        assert_eq!(a2, BigInt::from(A2_LOW) + (BigInt::from(1) << 128u32));
        assert_eq!(round(&b2), BigInt::from_biguint(Sign::Plus, big(&G1)));
        assert_eq!(round(&-&b1), BigInt::from_biguint(Sign::Plus, big(&G2)));
    }

    /// `signed_half` takes exactly the two's-complement values in (−2¹²⁸, 2¹²⁸): the
    /// split's guard against a half that is too long (which the lattice bound keeps from
    /// happening, so only a direct call reaches the refusals).
    #[test]
    fn signed_half_takes_exactly_the_128_bit_range() {
        let neg = |v: [u64; 4]| sub_words(&[0; 4], &v);
        let max = u128::MAX;
        assert_eq!(signed_half([u64::MAX, u64::MAX, 0, 0]), Some((max, false)));
        assert_eq!(
            signed_half(neg([u64::MAX, u64::MAX, 0, 0])),
            Some((max, true))
        );
        assert_eq!(signed_half([5, 7, 0, 0]), Some((5 | 7 << 64, false)));
        assert_eq!(signed_half(neg([5, 7, 0, 0])), Some((5 | 7 << 64, true)));
        assert_eq!(signed_half([0; 4]), Some((0, false)));
        // ±2¹²⁸ and beyond, with bits in word 2 or word 3 alone or in both.
        for v in [
            [0, 0, 1, 0],
            [0, 0, 0, 1],
            [0, 0, 1, 1],
            [1, 2, u64::MAX, 0x7fff],
        ] {
            assert_eq!(signed_half(v), None, "{v:x?}");
            assert_eq!(signed_half(neg(v)), None, "−{v:x?}");
        }
    }

    #[test]
    fn split_recombines_and_is_short() {
        let n = n();
        let lambda = big(&LAMBDA);
        let bound = BigUint::from(1u8) << 128u32;
        let mut s = 5u64;
        let mut ks = vec![
            Scalar::ZERO,
            Scalar::ONE,
            Scalar::ONE.negate(),
            LAMBDA,
            MINUS_LAMBDA,
        ];
        for _ in 0..5000 {
            let mut w = [0u64; 4];
            for x in &mut w {
                *x = crate::test_support::rng::splitmix64(&mut s);
            }
            ks.push(Scalar::from_bytes_reduced(
                &Scalar::from_words(w).to_bytes(),
            ));
        }
        // Values near multiples of n/λ-lattice boundaries.
        ks.push(Scalar::from_words([u64::MAX, u64::MAX, 0, 0]));
        ks.push(Scalar::from_words([0, 0, 1, 0]));
        for k in &ks {
            // The integer-lattice halves and the split computed mod n agree.
            let halves = split_lambda_halves(k).expect("the lattice halves are short");
            let (m1, m2) = split_lambda_mod_n(k);
            assert_eq!((from_half(halves.0), from_half(halves.1)), (m1, m2));
            let (k1, k2) = split_lambda(k);
            let sum = (big(&k1) + big(&k2) * &lambda) % &n;
            assert_eq!(sum, big(k));
            for h in [k1, k2] {
                let v = if h.is_high() {
                    big(&h.negate())
                } else {
                    big(&h)
                };
                assert!(v < bound, "half too long");
            }
        }
    }
}
