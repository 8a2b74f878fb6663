//! The regular schedule of u₁ for the lockstep 8-lane engine: u₁'s 128-bit halves over G
//! and 2¹²⁸·G, each recoded into **signed odd fixed windows**. Every digit is odd and
//! non-zero, so every lane adds in the same columns and never adds the identity. (u₂ is
//! recoded jointly, in `eisenstein`.)
//!
//! Recoding of an odd a with width w: dᵢ = (a mod 2^(w+1)) − 2^w (odd, |dᵢ| < 2^w), then
//! a ← (a − dᵢ)/2^w, which is odd again; the last digit is what remains. An even half is
//! recoded as half + 1 and corrected by one addition of −G (resp. −2¹²⁸·G) at the end.

use super::scalar::Scalar;

/// Window of the G halves: signed odd digits below 2^(WINDOW_G − 1) in absolute value,
/// every odd multiple the static tables hold.
pub(crate) const W_G: u32 = super::tables::WINDOW_G - 1;
/// Digits per G half (bits 0, 14, …, 126).
pub(crate) const G_DIGITS: usize = 10;
/// Bit position of the top column (the G halves' last digit).
pub(crate) const TOP_BIT: usize = W_G as usize * (G_DIGITS - 1);
// The G halves (129 bits at most, after the odd fix-up) fit in G_DIGITS digits.
const _: () = assert!(G_DIGITS * W_G as usize >= 129);

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

/// u₁'s 128-bit halves (over G and 2¹²⁸·G) in signed odd windows of width [`W_G`], and
/// which halves were even (recoded as half + 1, to be corrected by adding −G, resp.
/// −2¹²⁸·G). `None` if a half needs more than [`G_DIGITS`] digits (impossible: they fit).
pub(crate) fn recode_g(u1: &Scalar) -> Option<([[i32; G_DIGITS]; 2], [bool; 2])> {
    let mut digits = [[0; G_DIGITS]; 2];
    let mut even = [false; 2];
    let w = u1.0;
    for (h, half) in [
        w[0] as u128 | (w[1] as u128) << 64,
        w[2] as u128 | (w[3] as u128) << 64,
    ]
    .into_iter()
    .enumerate()
    {
        let mut a = half;
        if a & 1 == 0 {
            a += 1;
            even[h] = true;
        }
        if !recode_odd(a, W_G, &mut digits[h]) {
            return None;
        }
    }
    Some((digits, even))
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
                _ => sc([next(), next(), next(), next()]),
            };
            let (g, corr) = recode_g(&u1).expect("the halves fit");
            for half in &g {
                for &d in half {
                    assert!(d % 2 != 0 && d.unsigned_abs() < 1 << W_G);
                }
            }
            let g = |h: usize| value(&g[h], W_G) - BigInt::from(corr[h] as i32);
            assert_eq!(m(g(0) + (g(1) << 128u32)), big(&u1), "u1 #{i}");
        }
    }
}
