//! Edge values: the r, s and hash values around 0, 1, n, p, p − n and 2²⁵⁶ that the tests,
//! the soak runner and the generators reach for, and seeded picks from them.

use crate::curve::{B32, GX, N, N_HALF, ONES, P, ZERO, n, offset, p, pow2, small, sub, to_be32};
use crate::rng::SplitMix64;
use std::sync::LazyLock;

/// Values worth testing for r, s and the hash: 0, 1, 2, 3, 7, 2⁶⁴, 2¹²⁸, 2²⁵⁵, 2²⁵⁶ − 1,
/// 2²⁵⁶ − 2, ⌊n/2⌋ + 0..=2, Gx, n − Gx, and n, p and p − n each ± 0..=3.
pub fn specials() -> &'static [B32] {
    static SPECIALS: LazyLock<Vec<B32>> = LazyLock::new(build_specials);
    &SPECIALS
}

fn build_specials() -> Vec<B32> {
    let p_minus_n = sub(&P, &N).0;
    let mut v = vec![
        ZERO,
        small(1),
        small(2),
        small(3),
        small(7),
        pow2(64),
        pow2(128),
        pow2(255),
        ONES,
        offset(&ONES, -1),
        N_HALF,
        offset(&N_HALF, 1),
        offset(&N_HALF, 2),
        GX,
        sub(&N, &GX).0,
    ];
    for k in -3..=3 {
        v.push(offset(&N, k));
        v.push(offset(&P, k));
        v.push(offset(&p_minus_n, k));
    }
    v
}

/// r or s values outside [1, n − 1]: 0, n, n + 1, n + 2, halfway between n and p (a field
/// element, but not a scalar), p − 1, p, p + 1 and 2²⁵⁶ − 1.
pub fn out_of_range() -> Vec<B32> {
    let half_gap = to_be32(&(n() + (p() - n()) / 2u32));
    vec![
        ZERO,
        N,
        offset(&N, 1),
        offset(&N, 2),
        half_gap,
        offset(&P, -1),
        P,
        offset(&P, 1),
        ONES,
    ]
}

/// The smallest and largest valid r or s: 1, 2, n − 1, n − 2, ⌊n/2⌋ and ⌊n/2⌋ + 1.
pub fn in_range_extremes() -> Vec<B32> {
    vec![
        small(1),
        small(2),
        offset(&N, -1),
        offset(&N, -2),
        N_HALF,
        offset(&N_HALF, 1),
    ]
}

/// One of 0, n and 2²⁵⁶ − 1: an r or s that is never valid.
pub fn invalid_scalar(rng: &mut SplitMix64) -> B32 {
    [ZERO, N, ONES][rng.index(3)]
}

/// A message hash: one in sixteen each 0, n and 2²⁵⁶ − 1, otherwise random.
pub fn message_hash(rng: &mut SplitMix64) -> B32 {
    match rng.below(16) {
        0 => ZERO,
        1 => N,
        2 => ONES,
        _ => rng.bytes32(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::{from_be, two_256};
    use num_bigint::BigUint;

    #[test]
    fn lists_hold_what_they_say() {
        let one = BigUint::from(1u32);
        let out: Vec<BigUint> = out_of_range().iter().map(|b| from_be(b)).collect();
        let want = [
            BigUint::from(0u32),
            n(),
            n() + 1u32,
            n() + 2u32,
            n() + (p() - n()) / 2u32,
            p() - 1u32,
            p(),
            p() + 1u32,
            two_256() - &one,
        ];
        assert_eq!(out, want);
        let ext: Vec<BigUint> = in_range_extremes().iter().map(|b| from_be(b)).collect();
        let half = n() >> 1usize;
        let want = [
            one.clone(),
            BigUint::from(2u32),
            n() - 1u32,
            n() - 2u32,
            half.clone(),
            half + 1u32,
        ];
        assert_eq!(ext, want);
        let sp = specials();
        assert_eq!(sp.len(), 15 + 21);
        assert!(sp.contains(&to_be32(&(p() - n() - 3u32))));
    }
}
