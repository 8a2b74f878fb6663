//! The regular schedule of u₁ for the lockstep 8-lane engine: u₁'s 128-bit halves over G
//! and 2¹²⁸·G, each recoded into **signed odd fixed windows**. Every digit is odd and
//! non-zero, so every lane adds in the same columns and never adds the identity. (u₂ is
//! recoded jointly, in `eisenstein`.)
//!
//! Recoding of an odd a with width w: dᵢ = (a mod 2^(w+1)) − 2^w (odd, |dᵢ| < 2^w), then
//! a ← (a − dᵢ)/2^w, which is odd again; the last digit is what remains.
//!
//! Both halves are made odd without a correction afterwards:
//! - an even u₁ is replaced by the integer n − u₁ (odd, as n is; n itself when u₁ = 0),
//!   and the caller computes −Q = (n − u₁)·G + (−u₂)·R, negating u₂ and then the result;
//! - with the low half odd, an even high half borrows: (lo, hi) → (lo − 2¹²⁸, hi + 1), the
//!   low half then negative and odd, recoded as the negated digits of 2¹²⁸ − lo.

use super::scalar::{N, Scalar, sub_words};

/// Window of the G halves: signed odd digits below 2^(WINDOW_G − 1) in absolute value,
/// every odd multiple the static tables hold.
pub(crate) const W_G: u32 = super::tables::WINDOW_G - 1;
/// Digits per G half (bits 0, 14, …, 126).
pub(crate) const G_DIGITS: usize = 10;
/// Bit position of the top column (the G halves' last digit).
pub(crate) const TOP_BIT: usize = W_G as usize * (G_DIGITS - 1);
// The G halves (odd, below 2¹²⁸ in magnitude) fit in G_DIGITS digits.
const _: () = assert!(G_DIGITS * W_G as usize >= 128);

/// Signed odd fixed-window recoding of an odd `a`: digits dᵢ odd with |dᵢ| < 2^w,
/// a = Σ dᵢ·2^(w·i). Returns false if `a` needs more digits than `out` holds.
pub(crate) fn recode_odd(mut a: u128, w: u32, out: &mut [i32]) -> bool {
    debug_assert!(a & 1 == 1);
    let n = out.len();
    for d in out[..n - 1].iter_mut() {
        *d = (a & ((1 << (w + 1)) - 1)) as i32 - (1 << w);
        // (a − d) / 2^w, which is odd again; written so that it cannot overflow.
        a = ((a >> (w + 1)) << 1) | 1;
    }
    out[n - 1] = a as i32;
    a < 1 << w
}

/// u₁'s 128-bit halves (over G and 2¹²⁸·G) in signed odd windows of width [`W_G`], with
/// `flip`: where true, the digits are those of −u₁ (the integer n − u₁), and the caller
/// computes −(u₁·G + u₂·R) from them and −u₂, then negates it. Every half is odd and below
/// 2¹²⁸ in magnitude, so no addition corrects it afterwards. `None` if a half needs more
/// than [`G_DIGITS`] digits (impossible: they fit).
pub(crate) fn recode_g(u1: &Scalar) -> Option<([[i32; G_DIGITS]; 2], bool)> {
    let flip = u1.0[0] & 1 == 0;
    // n − u₁ as integers: odd, and n (not 0) for u₁ = 0.
    let w = if flip { sub_words(&N, &u1.0) } else { u1.0 };
    let lo = w[0] as u128 | (w[1] as u128) << 64;
    let hi = w[2] as u128 | (w[3] as u128) << 64;
    let mut digits = [[0; G_DIGITS]; 2];
    let fits = if hi & 1 == 1 {
        recode_odd(lo, W_G, &mut digits[0]) && recode_odd(hi, W_G, &mut digits[1])
    } else {
        // lo − 2¹²⁸ = −(2¹²⁸ − lo) (lo odd, so not 0), and hi + 1 ≤ 2¹²⁸ − 1 (hi even).
        let fits = recode_odd(lo.wrapping_neg(), W_G, &mut digits[0])
            && recode_odd(hi + 1, W_G, &mut digits[1]);
        digits[0].iter_mut().for_each(|d| *d = -*d);
        fits
    };
    fits.then_some((digits, flip))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secp256k1::scalar::N;
    use num_bigint::{BigInt, Sign};

    fn value(digits: &[i32], w: u32) -> BigInt {
        digits
            .iter()
            .rev()
            .fold(BigInt::from(0), |acc, &d| (acc << w) + BigInt::from(d))
    }

    #[test]
    fn recodings_reconstruct_the_scalars() {
        let n = BigInt::from_bytes_be(Sign::Plus, &Scalar::from_words(N).to_bytes());
        let mut s = 17u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s ^ (s >> 29)
        };
        let big = |x: &Scalar| BigInt::from_bytes_be(Sign::Plus, &x.to_bytes());
        let m = |x: BigInt| ((x % &n) + &n) % &n;
        for i in 0..3000 {
            let sc = |w: [u64; 4]| Scalar::from_bytes_reduced(&Scalar::from_words(w).to_bytes());
            let u1 = match i {
                0 => Scalar::ZERO,
                1 => Scalar::ONE,
                2 => Scalar::ONE.negate(),
                3 => Scalar::from_words([0, 0, 1, 0]),
                // Even, with an even high half: both fix-ups.
                4 => Scalar::from_words([2, 0, 2, 0]),
                // 2 (even; n − 2's high half is even) and 2¹²⁸ − 1 (odd, high half 0).
                5 => Scalar::from_words([2, 0, 0, 0]),
                6 => Scalar::from_words([u64::MAX, u64::MAX, 0, 0]),
                _ => sc([next(), next(), next(), next()]),
            };
            let (g, flip) = recode_g(&u1).expect("the halves fit");
            for half in &g {
                for &d in half {
                    assert!(d % 2 != 0 && d.unsigned_abs() < 1 << W_G);
                }
            }
            // Each half odd and below 2¹²⁸ in magnitude; flip exactly for an even u₁.
            let half = |h: usize| value(&g[h], W_G);
            for h in 0..2 {
                assert!(
                    half(h).bit(0) && half(h).magnitude().bits() <= 128,
                    "u1 #{i}"
                );
            }
            assert_eq!(flip, !big(&u1).bit(0), "u1 #{i}");
            let sum = half(0) + (half(1) << 128u32);
            let want = if flip { m(-big(&u1)) } else { big(&u1) };
            assert_eq!(m(sum), want, "u1 #{i}");
        }
    }
}
