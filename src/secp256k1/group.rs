//! Points of secp256k1 (y² = x³ + 7 over GF(p)) in affine and Jacobian coordinates.
//!
//! Formulas are variable time (they branch on infinity and on equal inputs). Jacobian
//! (X, Y, Z) stands for the affine point (X/Z², Y/Z³). Coordinates are weakly reduced field
//! elements (see `field`); `Affine::normalize` gives canonical ones.

#![allow(dead_code)]

use super::field::{Checked, FieldElement as Fe, FieldMul};

/// A point in affine coordinates, or infinity.
#[derive(Clone, Copy, Debug)]
pub struct Affine {
    /// x-coordinate.
    pub x: Fe,
    /// y-coordinate.
    pub y: Fe,
    /// True for the point at infinity (x and y are then meaningless).
    pub infinity: bool,
}

/// A point in Jacobian coordinates, or infinity.
#[derive(Clone, Copy, Debug)]
pub struct Jacobian {
    /// X.
    pub x: Fe,
    /// Y.
    pub y: Fe,
    /// Z.
    pub z: Fe,
    /// True for the point at infinity.
    pub infinity: bool,
}

/// The generator G.
pub const G: Affine = Affine {
    x: Fe::from_u64x4([
        0x59F2_815B_16F8_1798,
        0x029B_FCDB_2DCE_28D9,
        0x55A0_6295_CE87_0B07,
        0x79BE_667E_F9DC_BBAC,
    ]),
    y: Fe::from_u64x4([
        0x9C47_D08F_FB10_D4B8,
        0xFD17_B448_A685_5419,
        0x5DA4_FBFC_0E11_08A8,
        0x483A_DA77_26A3_C465,
    ]),
    infinity: false,
};

impl Affine {
    /// The point at infinity.
    pub const INFINITY: Self = Self {
        x: Fe::ZERO,
        y: Fe::ZERO,
        infinity: true,
    };

    /// The point with x-coordinate `x` and y of the given parity, if
    /// x³ + 7 is a square. Both coordinates of the result are normalized.
    pub fn from_x(x: &Fe, odd: bool) -> Option<Self> {
        Self::from_x_with(Checked, x, odd)
    }

    /// [`Affine::from_x`] on the multiply `m`.
    #[inline(always)]
    pub fn from_x_with<M: FieldMul>(m: M, x: &Fe, odd: bool) -> Option<Self> {
        Some(Self::from_root(
            x,
            &Self::curve_rhs_with(m, x).sqrt_with(m)?,
            odd,
        ))
    }

    /// x³ + 7: y² of the curve's points with x-coordinate `x`.
    #[inline]
    pub fn curve_rhs(x: &Fe) -> Fe {
        Self::curve_rhs_with(Checked, x)
    }

    /// [`Affine::curve_rhs`] on the multiply `m`.
    #[inline(always)]
    pub fn curve_rhs_with<M: FieldMul>(m: M, x: &Fe) -> Fe {
        m.mul(&m.sqr(x), x).add(&Fe::B)
    }

    /// The point (x, ±root) whose y has the given parity, for `root` a square root of
    /// [`curve_rhs`](Self::curve_rhs)`(x)` (as [`from_x`](Self::from_x) finds it; the batch
    /// paths find many at once). Both coordinates of the result are normalized.
    #[inline]
    pub fn from_root(x: &Fe, root: &Fe, odd: bool) -> Self {
        let y = root.normalize();
        let y = if y.is_odd() != odd {
            y.neg().normalize()
        } else {
            y
        };
        Self {
            x: x.normalize(),
            y,
            infinity: false,
        }
    }

    /// True if the point satisfies the curve equation (infinity counts as on the curve).
    pub fn is_on_curve(&self) -> bool {
        if self.infinity {
            return true;
        }
        let lhs = self.y.sqr();
        let rhs = Self::curve_rhs(&self.x);
        lhs.equals(&rhs)
    }

    /// −P.
    pub fn neg(&self) -> Self {
        Self {
            x: self.x,
            y: self.y.neg(),
            infinity: self.infinity,
        }
    }

    /// The endomorphism (x, y) ↦ (βx, y), equal to λ·P.
    pub fn endo(&self) -> Self {
        self.endo_with(Checked)
    }

    /// [`Affine::endo`] on the multiply `m`.
    #[inline(always)]
    pub fn endo_with<M: FieldMul>(&self, m: M) -> Self {
        Self {
            x: m.mul(&self.x, &Fe::BETA),
            y: self.y,
            infinity: self.infinity,
        }
    }

    /// As a Jacobian point with Z = 1.
    pub fn to_jacobian(self) -> Jacobian {
        Jacobian {
            x: self.x,
            y: self.y,
            z: Fe::ONE,
            infinity: self.infinity,
        }
    }

    /// Both coordinates normalized (no-op for infinity).
    pub fn normalize(&self) -> Self {
        Self {
            x: self.x.normalize(),
            y: self.y.normalize(),
            infinity: self.infinity,
        }
    }
}

impl Jacobian {
    /// The point at infinity.
    pub const INFINITY: Self = Self {
        x: Fe::ZERO,
        y: Fe::ZERO,
        z: Fe::ONE,
        infinity: true,
    };

    /// 2P for a = 0 (3M + 4S): M = 3X², T = X·Y², X3 = M² − 8T, Y3 = M(4T − X3) − 8Y⁴,
    /// Z3 = 2YZ. Chosen over the 2M + 5S form for its shorter critical path (three
    /// multiplications deep instead of three plus eight dependent additions).
    #[inline]
    pub fn double(&self) -> Self {
        self.double_with(Checked)
    }

    /// [`Jacobian::double`] on the multiply `m`, always inlined: into the main loop of
    /// `ecmult`, where a call and the copies of its result through memory cost more than
    /// the code size. The small multiples come out of the products' reductions and the two
    /// subtractions after a product out of its reduction (`FieldMul::mul_scaled`,
    /// `mul_sub`): two linear operations remain where the plain formula has nine.
    #[inline(always)]
    pub fn double_with<M: FieldMul>(&self, m: M) -> Self {
        if self.infinity {
            return *self;
        }
        // y = 0 cannot happen: the group has odd prime order. The small multiples (3X², 4T,
        // 8Y⁴, 2YZ) come out of the products' reductions (FieldMul::*_scaled).
        let mm = m.sqr_scaled::<3>(&self.x); // M = 3X²
        let s = m.sqr(&self.y); // Y²
        let t4 = m.mul_scaled::<4>(&self.x, &s); // 4T = 4X·Y²
        let x3 = m.sqr_sub(&mm, &t4.dbl()); // M² − 8T
        let y3 = m.mul_sub(&mm, &t4.sub(&x3), &m.sqr_scaled::<8>(&s)); // M(4T − X3) − 8Y⁴
        let z3 = m.mul_scaled::<2>(&self.y, &self.z); // 2YZ
        Self {
            x: x3,
            y: y3,
            z: z3,
            infinity: false,
        }
    }

    /// P + Q for affine Q (8M + 3S). Also returns the ratio Z(P+Q)/Z(P) (`None` when the
    /// result came from a special case: P or Q at infinity, P = ±Q).
    #[inline]
    pub fn add_ge(&self, b: &Affine) -> (Self, Option<Fe>) {
        self.add_ge_with(Checked, b)
    }

    /// [`Jacobian::add_ge`] on the multiply `m`, always inlined (into `ecmult`'s one
    /// out-of-line addition per kind, and the table build). H and I come out of fused
    /// subtractions (`FieldMul::mul_sub`).
    #[inline(always)]
    pub fn add_ge_with<M: FieldMul>(&self, m: M, b: &Affine) -> (Self, Option<Fe>) {
        if b.infinity {
            return (*self, None);
        }
        if self.infinity {
            return (b.to_jacobian(), None);
        }
        let zz = m.sqr(&self.z);
        let h = m.mul_sub(&b.x, &zz, &self.x); // U2 − X1
        let i = m.mul_sub(&m.mul(&b.y, &self.z), &zz, &self.y); // S2 − Y1; y·Z runs beside Z²
        self.add_finish(m, h, i)
    }

    /// P + Q where Q = (b.x : b.y : 1/bzinv) — an affine point of another frame scaled by
    /// the inverse of `bzinv` (9M + 3S). Used to add true-affine table points to an
    /// accumulator that lives on an isomorphic curve.
    #[inline]
    pub fn add_zinv(&self, b: &Affine, bzinv: &Fe) -> Self {
        self.add_zinv_with(Checked, b, bzinv)
    }

    /// [`Jacobian::add_zinv`] on the multiply `m`, always inlined (see
    /// [`Jacobian::add_ge_with`]).
    #[inline(always)]
    pub fn add_zinv_with<M: FieldMul>(&self, m: M, b: &Affine, bzinv: &Fe) -> Self {
        if b.infinity {
            return *self;
        }
        if self.infinity {
            let bz2 = m.sqr(bzinv);
            let bz3 = m.mul(&bz2, bzinv);
            return Self {
                x: m.mul(&b.x, &bz2),
                y: m.mul(&b.y, &bz3),
                z: Fe::ONE,
                infinity: false,
            };
        }
        let az = m.mul(&self.z, bzinv);
        let zz = m.sqr(&az);
        let h = m.mul_sub(&b.x, &zz, &self.x); // U2 − X1
        let i = m.mul_sub(&m.mul(&b.y, &zz), &az, &self.y); // S2 − Y1
        self.add_finish(m, h, i).0
    }

    /// The shared tail of the mixed additions: U1 = X1, S1 = Y1, given H = U2 − U1 and
    /// I = S2 − S1.
    #[inline(always)]
    fn add_finish<M: FieldMul>(&self, m: M, h: Fe, i: Fe) -> (Self, Option<Fe>) {
        if h.normalizes_to_zero() {
            if i.normalizes_to_zero() {
                // P = Q.
                return (self.double_with(m), None);
            }
            return (Self::INFINITY, None);
        }
        let h2 = m.sqr(&h);
        let h3 = m.mul(&h, &h2);
        let t = m.mul(&self.x, &h2); // U1·H²
        let z3 = m.mul(&self.z, &h);
        let x3 = m.sqr_sub(&i, &h3.add(&t.dbl())); // I² − H³ − 2T
        let y3 = m.mul_sub(&i, &t.sub(&x3), &m.mul(&self.y, &h3)); // I(T − X3) − Y·H³
        (
            Self {
                x: x3,
                y: y3,
                z: z3,
                infinity: false,
            },
            Some(h),
        )
    }

    /// P + Q for Jacobian Q (12M + 4S).
    pub fn add(&self, b: &Self) -> Self {
        if self.infinity {
            return *b;
        }
        if b.infinity {
            return *self;
        }
        let z1z1 = self.z.sqr();
        let z2z2 = b.z.sqr();
        let u1 = self.x.mul(&z2z2);
        let u2 = b.x.mul(&z1z1);
        let s1 = self.y.mul(&z2z2).mul(&b.z);
        let s2 = b.y.mul(&z1z1).mul(&self.z);
        let h = u2.sub(&u1);
        let i = s2.sub(&s1);
        if h.normalizes_to_zero() {
            if i.normalizes_to_zero() {
                return self.double();
            }
            return Self::INFINITY;
        }
        let h2 = h.sqr();
        let h3 = h.mul(&h2);
        let t = u1.mul(&h2);
        let z3 = self.z.mul(&b.z).mul(&h);
        let x3 = i.sqr().sub(&h3).sub(&t.shl(1));
        let y3 = i.mul(&t.sub(&x3)).sub(&s1.mul(&h3));
        Self {
            x: x3,
            y: y3,
            z: z3,
            infinity: false,
        }
    }

    /// −P.
    pub fn neg(&self) -> Self {
        Self {
            x: self.x,
            y: self.y.neg(),
            z: self.z,
            infinity: self.infinity,
        }
    }

    /// The affine point with normalized coordinates, using one field inversion.
    pub fn to_affine(self) -> Affine {
        if self.infinity {
            return Affine::INFINITY;
        }
        self.to_affine_with_zinv(&self.z.inv())
    }

    /// The affine point given 1/Z (normalized output coordinates).
    pub fn to_affine_with_zinv(self, zinv: &Fe) -> Affine {
        let zi2 = zinv.sqr();
        let zi3 = zi2.mul(zinv);
        Affine {
            x: self.x.mul(&zi2).normalize(),
            y: self.y.mul(&zi3).normalize(),
            infinity: false,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::secp256k1::scalar::Scalar;
    use crate::test_support::rng::splitmix64 as rng;

    /// A random scalar below n from the seeded generator (four words, reduced mod n).
    pub(crate) fn rand_scalar(s: &mut u64) -> Scalar {
        let w = [rng(s), rng(s), rng(s), rng(s)];
        Scalar::from_bytes_reduced(&Scalar::from_words(w).to_bytes())
    }

    /// Reference scalar multiplication by plain double-and-add (affine result).
    pub fn mul_ref(p: &Affine, k: &Scalar) -> Affine {
        let mut acc = Jacobian::INFINITY;
        for bit in (0..256).rev() {
            acc = acc.double();
            if k.bits(bit, 1) == 1 {
                acc = acc.add_ge(p).0;
            }
        }
        acc.to_affine()
    }

    pub(crate) fn k256_point(k: &Scalar) -> Option<([u8; 32], [u8; 32])> {
        use k256::elliptic_curve::PrimeField;
        use k256::elliptic_curve::sec1::ToSec1Point;
        let s = k256::Scalar::from_repr(k.to_bytes().into()).unwrap();
        let p = (k256::ProjectivePoint::GENERATOR * s).to_affine();
        let enc = p.to_sec1_point(false);
        let bytes = enc.as_bytes();
        if bytes.len() != 65 {
            return None;
        }
        let mut x = [0u8; 32];
        let mut y = [0u8; 32];
        x.copy_from_slice(&bytes[1..33]);
        y.copy_from_slice(&bytes[33..65]);
        Some((x, y))
    }

    #[test]
    fn generator_on_curve_and_lift() {
        assert!(G.is_on_curve());
        let odd = G.y.normalize().is_odd();
        let p = Affine::from_x(&G.x, odd).unwrap();
        assert_eq!(p.y.to_bytes(), G.y.normalize().to_bytes());
        let q = Affine::from_x(&G.x, !odd).unwrap();
        assert_eq!(q.y.to_bytes(), G.y.neg().normalize().to_bytes());
        // x = 0: 7 is not a square mod p? Whatever it is, the result must be on the curve.
        if let Some(p) = Affine::from_x(&Fe::ZERO, false) {
            assert!(p.is_on_curve());
        }
    }

    #[test]
    fn multiples_match_k256() {
        let mut s = 99u64;
        let mut ks: Vec<Scalar> = vec![
            Scalar::ONE,
            Scalar::from_words([2, 0, 0, 0]),
            Scalar::from_words([3, 0, 0, 0]),
            Scalar::ONE.negate(),
            Scalar::from_words([2, 0, 0, 0]).negate(),
        ];
        for _ in 0..40 {
            let mut w = [0u64; 4];
            for x in &mut w {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *x = s;
            }
            w[3] &= 0x7FFF_FFFF_FFFF_FFFF;
            ks.push(Scalar::from_words(w));
        }
        for k in &ks {
            let p = mul_ref(&G, k);
            assert!(p.is_on_curve());
            let (x, y) = k256_point(k).unwrap();
            assert_eq!(p.x.to_bytes(), x);
            assert_eq!(p.y.to_bytes(), y);
        }
    }

    #[test]
    fn special_cases_of_addition() {
        let g = G.to_jacobian();
        let g2 = g.double();
        // G + G through the mixed addition equals doubling.
        let (sum, ratio) = g.add_ge(&G);
        assert!(ratio.is_none());
        let a = sum.to_affine();
        let b = g2.to_affine();
        assert_eq!(a.x.to_bytes(), b.x.to_bytes());
        // G + (−G) = infinity.
        assert!(g.add_ge(&G.neg()).0.infinity);
        assert!(g.add(&g.neg()).infinity);
        // Doubling via the Jacobian add.
        let a = g2.add(&g2).to_affine();
        let b = g2.double().to_affine();
        assert_eq!(a.y.to_bytes(), b.y.to_bytes());
        // Infinity is the identity.
        let i = Jacobian::INFINITY;
        assert_eq!(
            i.add_ge(&G).0.to_affine().x.to_bytes(),
            G.x.normalize().to_bytes()
        );
        assert!(i.double().infinity);
        // add_zinv with a scaled frame: accumulator (2G) in the frame scaled by z.
        let z = Fe::from_u64x4([12345, 0, 0, 0]);
        let zinv = z.inv();
        // A point in the scaled frame: (X, Y, Z/z) there equals (X, Y, Z) here. 2G + G is a
        // plain addition; G + G in that frame falls back to doubling.
        let scale = |p: &Jacobian, f: &Fe| Jacobian {
            x: p.x,
            y: p.y,
            z: p.z.mul(f),
            infinity: false,
        };
        for (p, want) in [(g2, g2.add_ge(&G).0), (g, g2)] {
            let r = scale(&p, &zinv).add_zinv(&G, &z);
            let back = scale(&r, &z).to_affine();
            let want = want.to_affine();
            assert_eq!(back.x.to_bytes(), want.x.to_bytes());
            assert_eq!(back.y.to_bytes(), want.y.to_bytes());
        }
    }

    #[test]
    fn endomorphism_is_lambda() {
        let lambda = Scalar::from_words([
            0xdf02_967c_1b23_bd72,
            0x122e_22ea_2081_6678,
            0xa526_1c02_8812_645a,
            0x5363_ad4c_c05c_30e0,
        ]);
        let want = mul_ref(&G, &lambda);
        let got = G.endo().normalize();
        assert_eq!(got.x.to_bytes(), want.x.to_bytes());
        assert_eq!(got.y.to_bytes(), want.y.to_bytes());
    }
}
