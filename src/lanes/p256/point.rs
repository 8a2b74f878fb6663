//! P-256 points on eight lanes (a = −3): the Jacobian doubling and the addition of an
//! affine point, the two steps of the verification's Strauss loop (`super::verify`).
//!
//! The lanes run in lockstep, so an addition cannot branch on one lane's special case. The
//! addition reports the lanes where it met one (the two points share x: P = ±B, where the
//! formula gives no answer) and the caller sends those lanes to the scalar core, which
//! handles every case.

use super::field::{Minuend, P8};
use crate::lanes::Ifma;

/// Eight affine points.
pub(crate) struct PAff8<B: Ifma> {
    pub x: P8<B>,
    pub y: P8<B>,
}

impl<B: Ifma> Clone for PAff8<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Ifma> Copy for PAff8<B> {}

/// Eight Jacobian points (x = X/Z², y = Y/Z³), none at infinity.
pub(crate) struct PJac8<B: Ifma> {
    pub x: P8<B>,
    pub y: P8<B>,
    pub z: P8<B>,
}

impl<B: Ifma> Clone for PJac8<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Ifma> Copy for PJac8<B> {}

impl<B: Ifma> PJac8<B> {
    /// The affine points with Z = 1 (`one`: 1 in the lanes' Montgomery form).
    #[inline(always)]
    pub fn from_affine(p: &PAff8<B>, one: &P8<B>) -> Self {
        PJac8 {
            x: p.x,
            y: p.y,
            z: *one,
        }
    }

    /// 2P (dbl-2001-b for a = −3: 3M + 5S, with Z₃ = 2·Y·Z as a product where
    /// (Y + Z)² − Y² − Z² would take a square and two more linear operations):
    /// α = 3t for t = (X − Z²)·(X + Z²), β = X·Y², X₃ = α² − 8β = 9t² − 8β,
    /// Y₃ = α·(4β − X₃) − 8·Y⁴ = 3·t·(4β − X₃) − 8·Y⁴: the factors 3 and 9 go into the
    /// linear operations after the products, which saves α's own. P-256 has no point of
    /// order 2, so the doubling of a finite point is finite.
    #[inline(always)]
    pub fn double(&self) -> Self {
        let delta = self.z.sqr();
        let gamma = self.y.sqr();
        let beta = self.x.mul(&gamma);
        let t = self.x.sub(&delta).mul(&self.x.add(&delta));
        let z3 = self.y.mul_wide(&self.z).shl::<1>();
        let x3 = t.sqr_wide().odd_multiple_sub_shl::<3, 3>(&beta);
        let y3 = t
            .mul_wide(&beta.shl_sub::<2>(&x3))
            .odd_multiple_sub_shl::<1, 3>(&gamma.sqr());
        PJac8 {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// P + B for an affine B (8M + 3S), and the lanes where P and B share x (P = ±B),
    /// whose result is garbage.
    #[inline(always)]
    pub fn add_affine(&self, b: &PAff8<B>) -> (Self, u8) {
        let (sum, same_x, _) = self.add_affine_ratio(b);
        (sum, same_x)
    }

    /// [`PJac8::add_affine`], and the ratio H = Z₃/Z of the sum's Z to P's.
    #[inline(always)]
    pub fn add_affine_ratio(&self, b: &PAff8<B>) -> (Self, u8, P8<B>) {
        let z1z1 = self.z.sqr();
        let h = b.x.mul_wide(&z1z1).sub(&self.x);
        let r = b.y.mul_wide(&self.z.mul(&z1z1)).sub(&self.y);
        let same_x = h.is_zero();
        let hh = h.sqr();
        let hhh = h.mul(&hh);
        let v = self.x.mul(&hh);
        let x3 = r.sqr_wide().sub_sub_dbl(&hhh, &v);
        let y3 = r.mul_wide(&v.sub(&x3)).sub(&self.y.mul(&hhh));
        let z3 = self.z.mul(&h);
        (
            PJac8 {
                x: x3,
                y: y3,
                z: z3,
            },
            same_x,
            h,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::field::tests::lanes;
    use super::*;
    use crate::lanes::LANES;
    use crate::lanes::portable::Portable;
    use crate::p256::group::{Affine, G, Jacobian};

    fn aff8<B: Ifma>(p: &[Affine; LANES]) -> PAff8<B> {
        PAff8 {
            x: lanes(&p.map(|a| a.x)),
            y: lanes(&p.map(|a| a.y)),
        }
    }

    fn jac8<B: Ifma>(p: &[Jacobian; LANES]) -> PJac8<B> {
        PJac8 {
            x: lanes(&p.map(|a| a.x)),
            y: lanes(&p.map(|a| a.y)),
            z: lanes(&p.map(|a| a.z)),
        }
    }

    /// Whether lane i of `got` is the same point as `want[i]` (X·z² = x·Z², Y·z³ = y·Z³)
    /// in the lanes of `check`.
    fn same<B: Ifma>(got: &PJac8<B>, want: &[Jacobian; LANES], check: u8) {
        let w = jac8::<B>(want);
        let (z2, wz2) = (got.z.sqr(), w.z.sqr());
        let (z3, wz3) = (z2.mul(&got.z), wz2.mul(&w.z));
        let xs = got.x.mul(&wz2).eq(&w.x.mul(&z2));
        let ys = got.y.mul(&wz3).eq(&w.y.mul(&z3));
        assert_eq!(xs & ys & check, check);
        assert_eq!(got.z.is_zero() & check, 0);
    }

    /// Multiples k·G, k = 1 + 8·`seed` + lane, as Jacobian points with Z ≠ 1.
    fn multiples(seed: u64) -> [Jacobian; LANES] {
        core::array::from_fn(|i| {
            let mut p = G.to_jacobian();
            for _ in 0..(seed as usize * LANES + i) {
                p = p.add_affine(&G);
            }
            p.double().double()
        })
    }

    fn group_ops<B: Ifma>() {
        for seed in 0..6 {
            let p = multiples(seed);
            let b: [Affine; LANES] =
                core::array::from_fn(|i| multiples(seed + 3)[i].to_affine().unwrap());
            let jp = jac8::<B>(&p);
            same(&jp.double(), &p.map(|q| q.double()), 0xFF);
            let (sum, same_x, h) = jp.add_affine_ratio(&aff8(&b));
            assert_eq!(same_x, 0);
            let want: [Jacobian; LANES] = core::array::from_fn(|i| p[i].add_affine(&b[i]));
            same(&sum, &want, 0xFF);
            assert_eq!(sum.z.eq(&jp.z.mul(&h)), 0xFF, "the ratio");
            // The lanes where B = P or B = −P are flagged, the others are right.
            let mut b2 = b;
            b2[1] = p[1].to_affine().unwrap();
            b2[6] = p[6].to_affine().unwrap().neg();
            let (sum, same_x) = jp.add_affine(&aff8(&b2));
            assert_eq!(same_x, 0b0100_0010);
            let want2: [Jacobian; LANES] = core::array::from_fn(|i| p[i].add_affine(&b2[i]));
            same(&sum, &want2, !0b0100_0010);
            let one = P8::<B>::splat_scalar_words(crate::p256::field::Fe::ONE.0);
            let jb = PJac8::from_affine(&aff8::<B>(&b), &one);
            same(&jb, &b.map(|a| a.to_jacobian()), 0xFF);
        }
    }

    #[test]
    fn double_and_add_match_the_scalar_core_portable() {
        group_ops::<Portable>();
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn double_and_add_match_the_scalar_core_avx512() {
        if crate::dispatch::avx512_native().is_some() {
            // SAFETY: the CPU has AVX-512 F, BW and IFMA (checked above).
            unsafe { group_ops_avx512() }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
    fn group_ops_avx512() {
        group_ops::<crate::lanes::avx512::Avx512>();
    }
}
