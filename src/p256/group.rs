//! Points of P-256, y² = x³ − 3x + b: affine, and Jacobian (X, Y, Z) for x = X/Z²,
//! y = Y/Z³, with Z = 0 the point at infinity.
//!
//! The doubling uses a = −3: 3·(X − Z²)·(X + Z²) replaces 3X² + a·Z⁴ (dbl-2001-b's terms,
//! computed from 2Y in 4M + 4S). The additions of a verification's loop are mixed (Jacobian + affine,
//! 8M + 3S), so the odd multiples of both G and the key are affine. Every formula takes
//! the field's multiply as a [`FieldMul`], chosen once per verification.

#![allow(dead_code)]

use super::field::{Fe, FieldMul, Portable};

/// An affine point (never infinity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Affine {
    /// x.
    pub x: Fe,
    /// y.
    pub y: Fe,
}

/// A point in Jacobian coordinates; Z = 0 is infinity.
#[derive(Clone, Copy, Debug)]
pub struct Jacobian {
    /// X.
    pub x: Fe,
    /// Y.
    pub y: Fe,
    /// Z.
    pub z: Fe,
}

/// The generator G.
pub const G: Affine = Affine {
    x: Fe::from_montgomery([
        0x79E7_30D4_18A9_143C,
        0x75BA_95FC_5FED_B601,
        0x79FB_732B_7762_2510,
        0x1890_5F76_A537_55C6,
    ]),
    y: Fe::from_montgomery([
        0xDDF2_5357_CE95_560A,
        0x8B4A_B8E4_BA19_E45C,
        0xD2E8_8688_DD21_F325,
        0x8571_FF18_2588_5D85,
    ]),
};

impl Affine {
    /// The point (x, y) if it is on the curve. (0, 0) is not (b ≠ 0).
    pub fn from_coordinates(x: Fe, y: Fe) -> Option<Self> {
        let p = Self { x, y };
        p.is_on_curve().then_some(p)
    }

    /// y² = x³ − 3x + b.
    pub fn is_on_curve(&self) -> bool {
        let m = Portable;
        let x2 = m.sqr(&self.x);
        let rhs = m.mul(&x2.sub(&Fe::ONE.add(&Fe::ONE).add(&Fe::ONE)), &self.x);
        m.sqr(&self.y) == rhs.add(&Fe::B)
    }

    /// −P.
    #[inline(always)]
    pub fn neg(&self) -> Self {
        Self {
            x: self.x,
            y: self.y.neg(),
        }
    }

    /// The same point in Jacobian coordinates (Z = 1).
    pub fn to_jacobian(self) -> Jacobian {
        Jacobian {
            x: self.x,
            y: self.y,
            z: Fe::ONE,
        }
    }
}

impl Jacobian {
    /// The point at infinity.
    pub const INFINITY: Self = Self {
        x: Fe::ZERO,
        y: Fe::ONE,
        z: Fe::ZERO,
    };

    /// Whether this is the point at infinity.
    #[inline(always)]
    pub fn is_infinity(&self) -> bool {
        self.z.is_zero()
    }

    /// 2P for a = −3, in 4M + 4S and ten sums, differences and halvings. The terms of
    /// dbl-2001-b (3M + 5S: α = 3·(X − Z²)·(X + Z²), β = X·Y², X₃ = α² − 8β,
    /// Y₃ = α·(4β − X₃) − 8Y⁴), but from 2Y: (2Y)² = 4Y² gives 4β in one product, its
    /// square halved gives 8Y⁴, and Z₃ = 2Y·Z is one product where (Y + Z)² − Y² − Z² took
    /// a square and three sums, which cost more here than the product's extra over a
    /// square. Infinity doubles to infinity (Z₃ = 2·Y·Z), and so would a point of order 2
    /// (none on P-256, whose order is prime).
    #[inline(always)]
    pub fn double_with<M: FieldMul>(&self, m: M) -> Self {
        let y2 = self.y.dbl();
        let delta = m.sqr(&self.z);
        let gamma4 = m.sqr(&y2);
        let z3 = m.mul(&y2, &self.z);
        let t = m.mul(&self.x.sub(&delta), &self.x.add(&delta));
        let alpha = t.dbl().add(&t);
        let beta4 = m.mul(&self.x, &gamma4);
        let x3 = m.sqr(&alpha).sub(&beta4.dbl());
        let y3 = m.mul(&alpha, &beta4.sub(&x3)).sub(&m.sqr(&gamma4).half());
        Self {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// 2P on the portable multiply.
    pub fn double(&self) -> Self {
        self.double_with(Portable)
    }

    /// P + B for an affine B (8M + 3S), every case handled: P at infinity, P = B (a
    /// doubling), P = −B (infinity).
    #[inline(always)]
    pub fn add_affine_with<M: FieldMul>(&self, m: M, b: &Affine) -> Self {
        if self.is_infinity() {
            return b.to_jacobian();
        }
        let z1z1 = m.sqr(&self.z);
        let u2 = m.mul(&b.x, &z1z1);
        let s2 = m.mul(&b.y, &m.mul(&self.z, &z1z1));
        let h = u2.sub(&self.x);
        let r = s2.sub(&self.y);
        if h.is_zero() {
            return if r.is_zero() {
                self.double_with(m)
            } else {
                Self::INFINITY
            };
        }
        let hh = m.sqr(&h);
        let hhh = m.mul(&h, &hh);
        let v = m.mul(&self.x, &hh);
        let x3 = m.sqr(&r).sub(&hhh).sub(&v.dbl());
        let y3 = m.mul(&r, &v.sub(&x3)).sub(&m.mul(&self.y, &hhh));
        let z3 = m.mul(&self.z, &h);
        Self {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// P + B on the portable multiply.
    pub fn add_affine(&self, b: &Affine) -> Self {
        self.add_affine_with(Portable, b)
    }

    /// The affine point (`None` for infinity), by one inversion.
    pub fn to_affine(self) -> Option<Affine> {
        if self.is_infinity() {
            return None;
        }
        let zi = self.z.inv();
        let zi2 = zi.sqr();
        Some(Affine {
            x: self.x.mul(&zi2),
            y: self.y.mul(&zi2.mul(&zi)),
        })
    }

    /// The affine forms of many Jacobian points, none at infinity, with one inversion
    /// (Montgomery's trick).
    pub fn batch_to_affine_with<M: FieldMul>(m: M, points: &[Self], out: &mut [Affine]) {
        debug_assert_eq!(points.len(), out.len());
        let Some(first) = points.first() else {
            return;
        };
        // Prefix products of the Z's, kept in the x of `out` until the inverses replace them.
        let mut acc = first.z;
        out[0].x = acc;
        for (i, p) in points.iter().enumerate().skip(1) {
            acc = m.mul(&acc, &p.z);
            out[i].x = acc;
        }
        let mut inv = acc.inv_with(m);
        for i in (0..points.len()).rev() {
            let zi = if i == 0 {
                inv
            } else {
                let zi = m.mul(&inv, &out[i - 1].x);
                inv = m.mul(&inv, &points[i].z);
                zi
            };
            let zi2 = m.sqr(&zi);
            out[i] = Affine {
                x: m.mul(&points[i].x, &zi2),
                y: m.mul(&points[i].y, &m.mul(&zi2, &zi)),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::words;
    use ::p256::elliptic_curve::sec1::{FromEncodedPoint, ToEncodedPoint};
    use ::p256::{AffinePoint, EncodedPoint, ProjectivePoint, Scalar as RefScalar};

    fn to_ref(p: &Affine) -> AffinePoint {
        let e = EncodedPoint::from_affine_coordinates(
            &p.x.to_bytes().into(),
            &p.y.to_bytes().into(),
            false,
        );
        AffinePoint::from_encoded_point(&e).expect("on the curve")
    }

    fn from_ref(p: &ProjectivePoint) -> Option<Affine> {
        let e = p.to_affine().to_encoded_point(false);
        let x = Fe::from_bytes(&(*e.x()?).into())?;
        let y = Fe::from_bytes(&(*e.y()?).into())?;
        Some(Affine { x, y })
    }

    #[test]
    fn generator_is_the_standard_one() {
        assert!(G.is_on_curve());
        assert_eq!(
            G.x.to_bytes(),
            words::to_be(&[
                0xF4A1_3945_D898_C296,
                0x7703_7D81_2DEB_33A0,
                0xF8BC_E6E5_63A4_40F2,
                0x6B17_D1F2_E12C_4247
            ])
        );
        assert_eq!(from_ref(&ProjectivePoint::GENERATOR), Some(G));
        assert!(
            !Affine {
                x: Fe::ZERO,
                y: Fe::ZERO
            }
            .is_on_curve()
        );
    }

    #[test]
    fn small_multiples_match_the_p256_crate() {
        // k·G by repeated mixed additions, doublings of every multiple, and the batch
        // conversion, against the p256 crate.
        let mut acc = Jacobian::INFINITY;
        let mut jac = Vec::new();
        for k in 1..=300u64 {
            acc = acc.add_affine(&G);
            let want = ProjectivePoint::GENERATOR * RefScalar::from(k);
            assert_eq!(acc.to_affine(), from_ref(&want), "{k}·G");
            let dbl = ProjectivePoint::GENERATOR * RefScalar::from(2 * k);
            assert_eq!(acc.double().to_affine(), from_ref(&dbl), "2·{k}·G");
            jac.push(acc);
        }
        let mut out = vec![G; jac.len()];
        Jacobian::batch_to_affine_with(Portable, &jac, &mut out);
        for (j, a) in jac.iter().zip(&out) {
            assert_eq!(j.to_affine().as_ref(), Some(a));
            assert_eq!(to_ref(a), to_ref(a));
        }
    }

    #[test]
    fn special_cases_of_addition() {
        let p = Jacobian::INFINITY.add_affine(&G).double(); // 2G, Z ≠ 1
        let two_g = p.to_affine().unwrap();
        // P + P is a doubling, P + (−P) infinity, ∞ + B = B, 2·∞ = ∞.
        assert_eq!(p.add_affine(&two_g).to_affine(), p.double().to_affine());
        assert!(p.add_affine(&two_g.neg()).is_infinity());
        assert_eq!(Jacobian::INFINITY.add_affine(&G).to_affine(), Some(G));
        assert!(Jacobian::INFINITY.double().is_infinity());
        assert!(Jacobian::INFINITY.to_affine().is_none());
    }
}
