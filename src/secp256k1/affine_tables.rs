//! The odd-multiple tables of many points at once, in true affine coordinates, by shared
//! inversions (Montgomery's trick): the scalar batch path's replacement for
//! [`odd_multiples_table`](super::ecmult) when a batch is long enough to share them.
//!
//! One point's table alone is built on an isomorphic curve without any inversion (a
//! Jacobian doubling, seven mixed additions and a pass bringing the entries to one Z:
//! ≈ 96M + 28S), and the accumulator then lives in that frame, so every static G entry
//! costs one more multiplication to map in (`add_zinv`). With many points the table is
//! built in eight rounds, each an affine doubling or addition on every point with one
//! inversion shared by all of them: per point 2A costs 5M + 2S and each further entry
//! 5M + 1S (3M of them Montgomery's), ≈ 40M + 9S, and the entries are true affine points,
//! so the G entries are plain mixed additions. The eight inversions are the price: it pays
//! from a few dozen points on (`doc/internals.md`, "Batches without AVX-512").
//!
//! No denominator can vanish: for a point A of the group (prime order n), 2y = 0 would
//! make A of order 2, and x((2i−1)A) = x(2A) would make (2i−1)A = ±2A, so A of order
//! 2i − 3 or 2i + 1, at most 2N + 1 for a table of N entries, far below n.

use super::batch_inv;
use super::field::{FieldElement as Fe, FieldMul};
use super::group::Affine;

/// The tables A, 3A, …, (2N − 1)A of every point of `points` (N ≥ 1; the Strauss loop's
/// wNAF 5 takes N = 8), in true affine coordinates, on the multiply `m`. Every point must
/// be a finite point of the curve.
pub(crate) fn odd_multiples_tables<M: FieldMul, const N: usize>(
    m: M,
    points: &[Affine],
) -> Vec<[Affine; N]> {
    let mut tables = vec![[Affine::INFINITY; N]; points.len()];
    let mut inv: Vec<Fe> = Vec::with_capacity(points.len());
    let mut scratch = Vec::new();

    // 2A: λ = 3x² / 2y, x₂ = λ² − 2x, y₂ = λ(x − x₂) − y.
    inv.extend(points.iter().map(|a| a.y.dbl()));
    batch_inv::invert(&mut inv, &mut scratch);
    let doubles: Vec<Affine> = points
        .iter()
        .zip(&inv)
        .map(|(a, di)| {
            let l = m.mul(&m.sqr_scaled::<3>(&a.x), di);
            let x = m.sqr_sub(&l, &a.x.dbl());
            Affine {
                x,
                y: m.mul_sub(&l, &a.x.sub(&x), &a.y),
                infinity: false,
            }
        })
        .collect();
    for (t, a) in tables.iter_mut().zip(points) {
        t[0] = *a;
    }

    // (2i+1)A = (2i−1)A + 2A: λ = (y₂ − y) / (x₂ − x), x' = λ² − x − x₂, y' = λ(x − x') − y.
    for i in 1..N {
        inv.clear();
        inv.extend(
            tables
                .iter()
                .zip(&doubles)
                .map(|(t, d)| d.x.sub(&t[i - 1].x)),
        );
        batch_inv::invert(&mut inv, &mut scratch);
        for ((t, d), di) in tables.iter_mut().zip(&doubles).zip(&inv) {
            let p = t[i - 1];
            let l = m.mul(&d.y.sub(&p.y), di);
            let x = m.sqr_sub(&l, &p.x.add(&d.x));
            t[i] = Affine {
                x,
                y: m.mul_sub(&l, &p.x.sub(&x), &p.y),
                infinity: false,
            };
        }
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secp256k1::field::Checked;
    use crate::secp256k1::group::G;
    use crate::secp256k1::group::tests::{k256_point, mul_ref, rand_scalar};
    use crate::secp256k1::scalar::Scalar;

    /// Each table against k256: entry i of the table of k·G is (2i+1)k·G. The batches
    /// are of several lengths (one point alone, odd lengths, a chunk's length) and hold
    /// G, −G and the points of the smallest and largest scalars beside random ones.
    #[test]
    fn tables_match_k256() {
        let mut s = 11u64;
        let n_minus_1 = Scalar::ONE.negate();
        for len in [1usize, 2, 3, 17, 128] {
            let ks: Vec<Scalar> = (0..len)
                .map(|i| match i {
                    0 => Scalar::ONE,
                    1 => n_minus_1,
                    2 => Scalar::from_words([2, 0, 0, 0]),
                    _ => rand_scalar(&mut s),
                })
                .collect();
            let points: Vec<Affine> = ks.iter().map(|k| mul_ref(&G, k)).collect();
            let tables: Vec<[Affine; 8]> = odd_multiples_tables(Checked, &points);
            assert_eq!(tables.len(), len);
            for (k, table) in ks.iter().zip(&tables) {
                for (i, entry) in table.iter().enumerate() {
                    let mult = Scalar::from_words([2 * i as u64 + 1, 0, 0, 0]).mul(k);
                    let (x, y) = k256_point(&mult).expect("finite");
                    assert!(!entry.infinity);
                    assert_eq!(entry.x.normalize().to_bytes(), x, "len {len}, entry {i}");
                    assert_eq!(entry.y.normalize().to_bytes(), y, "len {len}, entry {i}");
                }
            }
        }
        assert!(odd_multiples_tables::<_, 8>(Checked, &[]).is_empty());
    }

    /// Other lengths of table: one entry (A itself), and 16 (a wNAF of width 6).
    #[test]
    fn other_table_lengths_match_k256() {
        let mut s = 13u64;
        let ks: Vec<Scalar> = (0..9).map(|_| rand_scalar(&mut s)).collect();
        let points: Vec<Affine> = ks.iter().map(|k| mul_ref(&G, k)).collect();
        let one: Vec<[Affine; 1]> = odd_multiples_tables(Checked, &points);
        let sixteen: Vec<[Affine; 16]> = odd_multiples_tables(Checked, &points);
        for ((k, a), (t1, t16)) in ks.iter().zip(&points).zip(one.iter().zip(&sixteen)) {
            assert_eq!(t1[0].x.to_bytes(), a.x.to_bytes());
            assert_eq!(t1[0].y.to_bytes(), a.y.to_bytes());
            for (i, entry) in t16.iter().enumerate() {
                let mult = Scalar::from_words([2 * i as u64 + 1, 0, 0, 0]).mul(k);
                let (x, y) = k256_point(&mult).expect("finite");
                assert_eq!(entry.x.normalize().to_bytes(), x, "entry {i}");
                assert_eq!(entry.y.normalize().to_bytes(), y, "entry {i}");
            }
        }
    }

    /// The same tables on every multiply this CPU has.
    #[test]
    fn tables_agree_across_multiplies() {
        let mut s = 12u64;
        let points: Vec<Affine> = (0..40).map(|_| mul_ref(&G, &rand_scalar(&mut s))).collect();
        let want: Vec<[Affine; 8]> =
            odd_multiples_tables(crate::secp256k1::field::Portable, &points);
        let norm = |t: &[[Affine; 8]]| -> Vec<[u8; 32]> {
            t.iter()
                .flatten()
                .flat_map(|p| [p.x.normalize().to_bytes(), p.y.normalize().to_bytes()])
                .collect()
        };
        assert_eq!(norm(&odd_multiples_tables(Checked, &points)), norm(&want));
        #[cfg(target_arch = "x86_64")]
        if let Some(m) = crate::secp256k1::field::MulxAdx::detect() {
            assert_eq!(norm(&odd_multiples_tables(m, &points)), norm(&want));
        }
    }
}
