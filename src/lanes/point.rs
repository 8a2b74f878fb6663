//! Points on eight lanes: affine and Jacobian, the same formulas as the scalar
//! `secp256k1::group`, in lockstep.
//!
//! Lanes never branch. An addition whose two inputs have the same x-coordinate (P = ±Q,
//! where the formula would divide by zero) cannot be finished by these formulas: such lanes
//! are reported in the returned "same x" mask and their result is garbage. The caller
//! (`recover::add_complete`) finishes them per lane as a doubling or as the point at
//! infinity, which it tracks in a mask of its own: a lane may hold the point at infinity
//! there, never in the formulas here.

use super::lane_field::{LaneField, Linear};

/// Eight affine points.
pub(crate) struct Aff8<F: LaneField> {
    pub x: F,
    pub y: F,
}

/// Eight Jacobian points (X/Z², Y/Z³).
pub(crate) struct Jac8<F: LaneField> {
    pub x: F,
    pub y: F,
    pub z: F,
}

impl<F: LaneField> Clone for Aff8<F> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<F: LaneField> Copy for Aff8<F> {}
impl<F: LaneField> Clone for Jac8<F> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<F: LaneField> Copy for Jac8<F> {}

impl<F: LaneField> Aff8<F> {
    /// Lane i from `a` where bit i of `mask` is set, else from `b`.
    #[inline(always)]
    pub fn select(mask: u8, a: &Self, b: &Self) -> Self {
        Aff8 {
            x: F::select(mask, &a.x, &b.x),
            y: F::select(mask, &a.y, &b.y),
        }
    }
}

impl<F: LaneField> Jac8<F> {
    /// Lane i from `a` where bit i of `mask` is set, else from `b`.
    #[inline(always)]
    pub fn select(mask: u8, a: &Self, b: &Self) -> Self {
        Jac8 {
            x: F::select(mask, &a.x, &b.x),
            y: F::select(mask, &a.y, &b.y),
            z: F::select(mask, &a.z, &b.z),
        }
    }

    /// 2P: M = 3X², T = X·Y², X₃ = M² − 8T, Y₃ = M(4T − X₃) − 8Y⁴, Z₃ = 2YZ. Never
    /// degenerate: y = 0 is impossible on secp256k1. Each linear combination is one fused
    /// lane operation with a single reduction, the products that only feed one are left
    /// unreduced for it to finish, and M² and M(4T − X₃) are one operation with the
    /// subtraction after them.
    ///
    /// T is a product (3M + 4S), or where the field's squares are cheap
    /// ([`LaneField::CHEAP_SQUARES`]) 2T = (X + Y²)² − X² − Y⁴, a square and an addition
    /// (2M + 5S, as dbl-2009-l). Measured per signature: the 9×29 field 111,979 → 107,796
    /// emulated instructions and 3.5–5.2 % less time on Intel with avx512f; the 5×52 field
    /// 27,469 → 28,388 instructions and no gain in time on Intel with IFMA.
    #[inline(always)]
    pub fn double(&self) -> Self {
        self.double_beside(|_| {})
    }

    /// [`Jac8::double`], calling `beside(i)` after its i-th product (i = 0 to 6), so that
    /// independent work runs interleaved with it in one instruction stream, a field
    /// operation at a time (issue 39's hybrid experiment, `lanes::hybrid`). With a closure
    /// that does nothing it is the doubling alone.
    #[inline(always)]
    pub fn double_beside(&self, mut beside: impl FnMut(usize)) -> Self {
        let a = self.x.sqr_unreduced();
        beside(0);
        let m = a.triple();
        let s = self.y.sqr();
        beside(1);
        let c = s.sqr_unreduced();
        beside(2);
        let (x3, y3) = if F::CHEAP_SQUARES {
            let t2 = self.x.add(&s).sqr_sub_sub(&a, &c);
            beside(3);
            let x3 = m.sqr_sub_shl::<2>(&t2);
            beside(4);
            (x3, m.mul_sub_shl::<3>(&t2.shl_sub::<1>(&x3), &c))
        } else {
            let t = self.x.mul_unreduced(&s);
            beside(3);
            let x3 = m.sqr_sub_shl::<3>(&t);
            beside(4);
            (x3, m.mul_sub_shl::<3>(&t.shl_sub::<2>(&x3), &c))
        };
        beside(5);
        let z3 = self.y.mul_unreduced(&self.z).shl::<1>();
        beside(6);
        Jac8 {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// P + Q for affine Q (8M + 3S). Returns the sum, the ratio Z(P+Q)/Z(P) and the mask
    /// of degenerate lanes (same x: P = ±Q).
    #[inline(always)]
    pub fn add_affine(&self, q: &Aff8<F>) -> (Self, F, u8) {
        let zz = self.z.sqr();
        self.add_finish(&q.x, &q.y.mul(&self.z), &zz)
    }

    /// P + Q where Q = (q.x : q.y : 1/zinv), i.e. a true affine point added to an
    /// accumulator living on the isomorphic curve scaled by `zinv` (9M + 3S). Returns the
    /// sum and the degenerate mask.
    #[inline(always)]
    pub fn add_zinv(&self, q: &Aff8<F>, zinv: &F) -> (Self, u8) {
        let az = self.z.mul(zinv);
        let zz = az.sqr();
        let (r, _, d) = self.add_finish(&q.x, &q.y.mul(&az), &zz);
        (r, d)
    }

    /// The rest of the addition from x_Q, y_Q·Z and Z² (Z the accumulator's z, scaled by
    /// the frame's zinv for `add_zinv`): H = x_Q·Z² − X and I = y_Q·Z·Z² − Y are products
    /// with their subtraction in one operation, as are I² − H³ − 2T and I(T − X₃) − Y·H³;
    /// T = X·H² and Y·H³ stay unreduced for them.
    #[inline(always)]
    fn add_finish(&self, qx: &F, yz: &F, zz: &F) -> (Self, F, u8) {
        let h = qx.mul_sub_shl::<0>(zz, &self.x);
        let i = yz.mul_sub_shl::<0>(zz, &self.y);
        let degenerate = h.is_zero();
        let h2 = h.sqr();
        let h3 = h.mul(&h2);
        let t = self.x.mul_unreduced(&h2);
        let z3 = self.z.mul(&h);
        let x3 = i.sqr_sub_sub_dbl(&h3, &t);
        let y3 = i.mul_sub_shl::<0>(&t.sub(&x3), &self.y.mul_unreduced(&h3));
        (
            Jac8 {
                x: x3,
                y: y3,
                z: z3,
            },
            h,
            degenerate,
        )
    }

    /// The point with Z = 1 in the frame scaled by `zinv`: (x·zinv², y·zinv³, 1). Starts
    /// an accumulator from a true affine point.
    #[inline(always)]
    pub fn from_affine_zinv(q: &Aff8<F>, zinv: &F) -> Self {
        let z2 = zinv.sqr();
        let z3 = z2.mul(zinv);
        Jac8 {
            x: q.x.mul(&z2),
            y: q.y.mul(&z3),
            z: F::splat(&crate::secp256k1::field::FieldElement::ONE),
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::lanes::LANES;
    use crate::lanes::field::Fe8;
    use crate::lanes::field29::Fe29;
    use crate::lanes::portable::Portable;
    use crate::secp256k1::field::FieldElement;
    use crate::secp256k1::group::{Affine, G, Jacobian};

    pub(in crate::lanes) fn points(seed: u64) -> [Affine; LANES] {
        let mut acc = G.to_jacobian();
        let mut s = seed;
        core::array::from_fn(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            for _ in 0..(s >> 60) + 1 {
                acc = acc.double().add_ge(&G).0;
            }
            acc.to_affine()
        })
    }

    fn aff8<P: LaneField>(p: &[Affine; LANES]) -> Aff8<P> {
        Aff8 {
            x: P::from_lanes(&p.map(|q| q.x)),
            y: P::from_lanes(&p.map(|q| q.y)),
        }
    }

    /// The eight lanes of `j` as affine points (none at infinity).
    pub(in crate::lanes) fn jac_to_affine<P: LaneField>(j: &Jac8<P>) -> [Affine; LANES] {
        let (x, y, z) = (j.x.to_lanes(), j.y.to_lanes(), j.z.to_lanes());
        core::array::from_fn(|i| {
            Jacobian {
                x: x[i],
                y: y[i],
                z: z[i],
                infinity: false,
            }
            .to_affine()
        })
    }

    pub(in crate::lanes) fn same(a: &Affine, b: &Affine) -> bool {
        a.x.to_bytes() == b.x.to_bytes() && a.y.to_bytes() == b.y.to_bytes()
    }

    #[test]
    fn double_and_add_match_scalar_core() {
        double_and_add::<Fe8<Portable>>();
        double_and_add::<Fe29<Portable>>();
    }

    fn double_and_add<P: LaneField>() {
        for seed in 0..20 {
            let p = points(seed);
            let q = points(seed + 100);
            // A Jacobian P with Z ≠ 1: double it once.
            let pj: [Jacobian; LANES] = p.map(|a| a.to_jacobian().double());
            let p8 = Jac8::<P> {
                x: P::from_lanes(&pj.map(|j| j.x)),
                y: P::from_lanes(&pj.map(|j| j.y)),
                z: P::from_lanes(&pj.map(|j| j.z)),
            };
            let d = jac_to_affine(&p8.double());
            let (s, ratio, deg) = p8.add_affine(&aff8::<P>(&q));
            assert_eq!(deg, 0);
            let s_aff = jac_to_affine(&s);
            let ratios = ratio.to_lanes();
            let zs = s.z.to_lanes();
            let z0 = p8.z.to_lanes();
            for i in 0..LANES {
                assert!(same(&d[i], &pj[i].double().to_affine()));
                assert!(same(&s_aff[i], &pj[i].add_ge(&q[i]).0.to_affine()));
                assert!(zs[i].equals(&z0[i].mul(&ratios[i])));
            }
            // add_zinv: P in a frame scaled by k, Q true affine.
            let k = FieldElement::from_u64x4([seed + 7, 3, 0, 0]);
            let kinv = k.inv();
            let pf = Jac8::<P> {
                x: p8.x,
                y: p8.y,
                z: p8.z.mul(&P::splat(&kinv)),
            };
            let (r, deg) = pf.add_zinv(&aff8::<P>(&q), &P::splat(&k));
            assert_eq!(deg, 0);
            let back = jac_to_affine(&Jac8 {
                x: r.x,
                y: r.y,
                z: r.z.mul(&P::splat(&k)),
            });
            for i in 0..LANES {
                assert!(same(&back[i], &pj[i].add_ge(&q[i]).0.to_affine()));
            }
        }
    }

    #[test]
    fn degenerate_lanes_are_flagged() {
        degenerate::<Fe8<Portable>>();
        degenerate::<Fe29<Portable>>();
    }

    fn degenerate<P: LaneField>() {
        let p = points(5);
        let mut q = points(6);
        q[2] = p[2]; // P = Q
        q[5] = p[5].neg(); // P = −Q
        let p8 = Jac8::<P> {
            x: P::from_lanes(&p.map(|a| a.x)),
            y: P::from_lanes(&p.map(|a| a.y)),
            z: P::splat(&FieldElement::ONE),
        };
        let (_, _, deg) = p8.add_affine(&aff8::<P>(&q));
        assert_eq!(deg, 1 << 2 | 1 << 5);
        // The other lanes are still right.
        let (s, _, _) = p8.add_affine(&aff8::<P>(&q));
        let s = jac_to_affine(&s);
        for i in [0, 1, 3, 4, 6, 7] {
            assert!(same(&s[i], &p[i].to_jacobian().add_ge(&q[i]).0.to_affine()));
        }
    }
}
