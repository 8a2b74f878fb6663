//! The regular schedule of the lockstep paths: u₂ split by GLV into two ~128-bit halves
//! over R and λR (the batch-affine ladder; the 8-lane engine recodes u₂ jointly instead, in
//! `eisenstein`), u₁ split into its 128-bit halves over G and 2¹²⁸·G (both), each recoded
//! into **signed odd fixed windows**. Every digit is odd and non-zero, so every signature adds in the same
//! columns and never adds the identity.
//!
//! Recoding of an odd a with width w: dᵢ = (a mod 2^(w+1)) − 2^w (odd, |dᵢ| < 2^w), then
//! a ← (a − dᵢ)/2^w, which is odd again; the last digit is what remains. An even half is
//! recoded as half + 1 and corrected by one addition of −T at the end.

use super::glv;
use super::scalar::Scalar;

/// Window of the R halves; their tables hold R, 3R, …, 31R.
pub(crate) const W_R: u32 = 5;
/// Entries of the R tables.
pub(crate) const R_TABLE: usize = 1 << (W_R - 1);
/// Digits per R half (bits 0, 5, …, 125).
pub(crate) const R_DIGITS: usize = 26;
/// Window of the G halves: signed odd digits below 2^(WINDOW_G − 1) in absolute value,
/// every odd multiple the static tables hold.
pub(crate) const W_G: u32 = super::tables::WINDOW_G - 1;
/// Digits per G half (bits 0, 14, …, 126).
pub(crate) const G_DIGITS: usize = 10;
/// Bit position of the top column (the G halves' last digit; the R halves' last digit
/// sits just below it).
pub(crate) const TOP_BIT: usize = W_G as usize * (G_DIGITS - 1);
const _: () = assert!((R_DIGITS - 1) * W_R as usize == TOP_BIT - 1);
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

/// One signature's schedule.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Recoding {
    /// Signed digits (the half's sign folded in) over R and over λR; digit i at bit 5i.
    pub r: [[i32; R_DIGITS]; 2],
    /// Digits over G and over 2¹²⁸·G; digit i at bit 14i.
    pub g: [[i32; G_DIGITS]; 2],
    /// Correction for an even R half: 0 none, +1 add T, −1 add −T (T = R or λR).
    pub corr_r: [i8; 2],
    /// Correction for an even G half: add −G (resp. −2¹²⁸·G).
    pub corr_g: [bool; 2],
}

impl Recoding {
    /// The schedule of u₁·G + u₂·R; `None` if a GLV half is not short (never seen; the
    /// caller then uses the scalar path).
    pub(crate) fn new(u1: &Scalar, u2: &Scalar) -> Option<Self> {
        let mut rc = Recoding {
            r: [[0; R_DIGITS]; 2],
            g: [[0; G_DIGITS]; 2],
            corr_r: [0; 2],
            corr_g: [false; 2],
        };
        let (k1, k2) = glv::split_lambda_halves(u2)?;
        for (h, &(mut a, neg)) in [k1, k2].iter().enumerate() {
            if a & 1 == 0 {
                // k = ±(a' − 1) with a' = a + 1: recode a', then add ∓T once.
                a += 1;
                rc.corr_r[h] = if neg { 1 } else { -1 };
            }
            if !recode_odd(a, W_R, &mut rc.r[h]) {
                return None;
            }
            if neg {
                rc.r[h].iter_mut().for_each(|d| *d = -*d);
            }
        }
        (rc.g, rc.corr_g) = recode_g(u1)?;
        Some(rc)
    }
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
        let lambda = BigInt::parse_bytes(
            b"5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72",
            16,
        )
        .unwrap();
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
                _ => sc([next(), next(), next(), next()]),
            };
            let u2 = match i {
                2 => Scalar::ONE,
                3 => Scalar::ONE.negate(),
                _ => sc([next(), next(), next(), next()]),
            };
            let rc = Recoding::new(&u1, &u2).expect("short halves");
            for h in 0..2 {
                for &d in &rc.r[h] {
                    assert!(d % 2 != 0 && d.unsigned_abs() < 1 << W_R);
                }
                for &d in &rc.g[h] {
                    assert!(d % 2 != 0 && d.unsigned_abs() < 1 << W_G);
                }
            }
            // u₂ = Σ over both halves (digits + correction)·{1, λ}.
            let half = |h: usize| value(&rc.r[h], W_R) + BigInt::from(rc.corr_r[h]);
            assert_eq!(m(half(0) + half(1) * &lambda), big(&u2), "u2 #{i}");
            let g = |h: usize| value(&rc.g[h], W_G) - BigInt::from(rc.corr_g[h] as i32);
            assert_eq!(m(g(0) + (g(1) << 128u32)), big(&u1), "u1 #{i}");
        }
    }
}
