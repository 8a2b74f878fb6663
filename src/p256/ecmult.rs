//! u₁·G + u₂·Q for a verification, by Strauss's method over width-w NAFs: one chain of
//! about 256 doublings (P-256 has no endomorphism to halve it), into which the digits of u₁
//! add odd multiples of G from the static table (width [`WINDOW_G`]) and the digits of u₂
//! add odd multiples of Q (width [`WINDOW_Q`]), all affine, so every addition is mixed.

use super::field::{Fe, FieldMul};
use super::group::{Affine, Jacobian};
use super::scalar::Scalar;
use super::tables::{self, WINDOW_G};

/// wNAF width for the key Q.
pub const WINDOW_Q: u32 = 5;
/// Odd multiples of Q: Q, 3Q, …, (2^(WINDOW_Q−1) − 1)·Q.
pub const TABLE_Q: usize = 1 << (WINDOW_Q - 2);
/// Digits of a wNAF of a value below 2²⁵⁶ (the last carry can land at bit 256).
pub const WNAF_LEN: usize = 257;

/// `count` bits (≤ 31) of `k` from bit `offset`; bits past 255 read as 0.
#[inline(always)]
fn bits(k: &[u64; 4], offset: usize, count: usize) -> u32 {
    let word = offset / 64;
    let bit = offset % 64;
    let lo = if word < 4 { k[word] >> bit } else { 0 };
    let hi = if bit != 0 && word + 1 < 4 {
        k[word + 1] << (64 - bit)
    } else {
        0
    };
    ((lo | hi) & ((1u64 << count) - 1)) as u32
}

/// The width-`w` NAF of `k`: out[i] is 0 or odd with |out[i]| < 2^(w−1), Σ out[i]·2ⁱ = k,
/// and any w consecutive digits hold at most one nonzero. Returns one past the highest
/// nonzero digit (0 for k = 0).
pub fn wnaf(out: &mut [i32; WNAF_LEN], k: &[u64; 4], w: u32) -> usize {
    debug_assert!((2..=31).contains(&w));
    let w = w as usize;
    *out = [0; WNAF_LEN];
    let mut carry = 0u32;
    let mut bit = 0usize;
    let mut len = 0usize;
    while bit < WNAF_LEN {
        if bits(k, bit, 1) == carry {
            bit += 1;
            continue;
        }
        // A window that reaches past bit 256 reads zeros there (k < 2²⁵⁶).
        let mut word = (bits(k, bit, w) + carry) as i32;
        carry = (word >> (w - 1)) as u32 & 1;
        word -= (carry << w) as i32;
        out[bit] = word;
        len = bit + 1;
        bit += w;
    }
    debug_assert_eq!(carry, 0);
    len
}

/// The odd multiples Q, 3Q, …, (2·TABLE_Q − 1)·Q in Jacobian coordinates, by mixed
/// additions of Q alone (no inversion): 2·TABLE_Q − 2 additions, the even multiples between
/// them dropped. The caller converts them to affine, one verification's or a whole batch's
/// with one inversion.
pub fn odd_multiples_jacobian<M: FieldMul>(m: M, q: &Affine) -> [Jacobian; TABLE_Q] {
    let mut out = [Jacobian::INFINITY; TABLE_Q];
    let mut acc = q.to_jacobian();
    out[0] = acc;
    for entry in out.iter_mut().skip(1) {
        acc = acc.add_affine_with(m, q).add_affine_with(m, q);
        *entry = acc;
    }
    out
}

/// The digit `d`'s entry of a table of odd multiples: |d|'s multiple, negated for d < 0.
#[inline(always)]
fn signed(p: Affine, d: i32) -> Affine {
    if d < 0 { p.neg() } else { p }
}

/// u₁·G + u₂·Q, with `table_q` the affine odd multiples of Q ([`odd_multiples_jacobian`],
/// converted).
pub fn double_mul<M: FieldMul>(
    m: M,
    u1: &Scalar,
    u2: &Scalar,
    table_q: &[Affine; TABLE_Q],
) -> Jacobian {
    let mut wg = [0i32; WNAF_LEN];
    let mut wq = [0i32; WNAF_LEN];
    let lg = wnaf(&mut wg, &u1.0, WINDOW_G);
    let lq = wnaf(&mut wq, &u2.0, WINDOW_Q);
    let mut r = Jacobian::INFINITY;
    for i in (0..lg.max(lq)).rev() {
        if !r.is_infinity() {
            r = r.double_with(m);
        }
        let d = wq[i];
        if d != 0 {
            let e = table_q[(d.unsigned_abs() / 2) as usize];
            r = r.add_affine_with(m, &signed(e, d));
        }
        let d = wg[i];
        if d != 0 {
            let e = tables::g_multiple((d.unsigned_abs() / 2) as usize);
            r = r.add_affine_with(m, &signed(e, d));
        }
    }
    r
}

/// Whether the Jacobian point `p` is finite with x(p) ≡ r (mod n), without an inversion:
/// x(p) = X/Z² lies below p < 2n, so it is r or r + n (the latter only when r + n < p), and
/// X = x·Z² is checked for each. `r` is in [1, n−1].
pub fn x_matches<M: FieldMul>(m: M, p: &Jacobian, r: &Scalar) -> bool {
    if p.is_infinity() {
        return false;
    }
    let z2 = m.sqr(&p.z);
    // r < n < p.
    if m.mul(&Fe::from_canonical(r.0), &z2) == p.x {
        return true;
    }
    let (rn, carry) = crate::arith::words::add(&r.0, &super::scalar::N);
    if carry || crate::arith::words::ge(&rn, &super::field::P) {
        return false;
    }
    m.mul(&Fe::from_canonical(rn), &z2) == p.x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::words;
    use crate::p256::field::Portable;
    use crate::p256::group::G;
    use ::p256::elliptic_curve::PrimeField;
    use ::p256::elliptic_curve::sec1::ToEncodedPoint;
    use ::p256::{ProjectivePoint, Scalar as RefScalar};
    use num_bigint::{BigInt, Sign};

    fn next(s: &mut u64) -> u64 {
        *s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *s ^ (*s >> 29)
    }

    fn scalar(s: &mut u64) -> Scalar {
        Scalar::from_bytes_reduced(&words::to_be(&[next(s), next(s), next(s), next(s)]))
    }

    fn ref_scalar(k: &Scalar) -> RefScalar {
        RefScalar::from_repr(k.to_bytes().into()).unwrap()
    }

    #[test]
    fn wnaf_reconstructs_with_its_properties() {
        let mut s = 3u64;
        let n = super::super::scalar::N;
        let edges = [
            [0u64; 4],
            [1, 0, 0, 0],
            [n[0] - 1, n[1], n[2], n[3]],
            [u64::MAX; 4],
            [0, 0, 0, 1 << 63],
            [u64::MAX, 0, 0, 0],
        ];
        for i in 0..3000 {
            let k = if i < edges.len() {
                edges[i]
            } else {
                [next(&mut s), next(&mut s), next(&mut s), next(&mut s)]
            };
            for w in [2u32, 4, WINDOW_Q, WINDOW_G, 16] {
                let mut d = [0i32; WNAF_LEN];
                let len = wnaf(&mut d, &k, w);
                let v = d[..len]
                    .iter()
                    .rev()
                    .fold(BigInt::from(0), |acc, &x| (acc << 1u32) + BigInt::from(x));
                assert_eq!(v, BigInt::from_bytes_be(Sign::Plus, &words::to_be(&k)));
                assert!(d[len..].iter().all(|&x| x == 0));
                assert!(len == 0 || d[len - 1] != 0);
                for (j, &x) in d.iter().enumerate() {
                    if x != 0 {
                        assert!(x % 2 != 0 && x.unsigned_abs() < 1 << (w - 1));
                        assert!(
                            d[j + 1..(j + w as usize).min(WNAF_LEN)]
                                .iter()
                                .all(|&y| y == 0)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn double_mul_matches_the_p256_crate() {
        let mut s = 5u64;
        for i in 0..300 {
            let (u1, u2, k) = (scalar(&mut s), scalar(&mut s), scalar(&mut s));
            // Q = k·G, with k small or zero-adjacent now and then.
            let k = if i % 50 == 0 { Scalar::ONE } else { k };
            let (u1, u2) = match i {
                1 => (Scalar::ZERO, u2),
                2 => (u1, Scalar::ZERO),
                _ => (u1, u2),
            };
            let qj = ProjectivePoint::GENERATOR * ref_scalar(&k);
            let qe = qj.to_affine().to_encoded_point(false);
            let q = Affine {
                x: Fe::from_bytes(&(*qe.x().unwrap()).into()).unwrap(),
                y: Fe::from_bytes(&(*qe.y().unwrap()).into()).unwrap(),
            };
            let jac = odd_multiples_jacobian(Portable, &q);
            let mut table = [G; TABLE_Q];
            Jacobian::batch_to_affine_with(Portable, &jac, &mut table);
            let got = double_mul(Portable, &u1, &u2, &table).to_affine();
            let want = (ProjectivePoint::GENERATOR * ref_scalar(&u1) + qj * ref_scalar(&u2))
                .to_affine()
                .to_encoded_point(false);
            let want = want
                .x()
                .map(|x| (Fe::from_bytes(&(*x).into()).unwrap(), want.y().unwrap()));
            match (got, want) {
                (None, None) => {}
                (Some(g), Some((x, y))) => {
                    assert_eq!(g.x, x, "case {i}");
                    assert_eq!(&g.y.to_bytes()[..], &y[..], "case {i}");
                }
                (g, w) => panic!("case {i}: {g:?} against {w:?}"),
            }
        }
    }

    #[test]
    fn double_mul_reaches_infinity() {
        // u₁·G + u₂·Q with Q = G and u₂ = n − u₁.
        let mut s = 9u64;
        let jac = odd_multiples_jacobian(Portable, &G);
        let mut table = [G; TABLE_Q];
        Jacobian::batch_to_affine_with(Portable, &jac, &mut table);
        for _ in 0..20 {
            let u1 = scalar(&mut s);
            let (neg, _) = words::sub(&super::super::scalar::N, &u1.0);
            let r = double_mul(Portable, &u1, &Scalar(neg), &table);
            assert!(r.is_infinity());
            assert!(!x_matches(Portable, &r, &Scalar::ONE));
        }
    }
}
