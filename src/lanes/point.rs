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

    /// 2P, by the formula of [`Doubling::step`].
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
        if F::STEPPED_DOUBLING {
            // A loop the compiler keeps as one: each pass one field operation on the state
            // in memory ([`Doubling::step`]).
            let mut d = Doubling::new(*self);
            for i in 0..Doubling::<F>::STEPS {
                d.step(i);
                beside(i);
            }
            return d.finish();
        }
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

/// [`Jac8::double`] cut into its seven products, one per [`Doubling::step`]: the doubling
/// of the fields that run it as a loop ([`LaneField::STEPPED_DOUBLING`]), and a way to
/// interleave two doublings a product at a time (`lanes::hybrid`). Steps run in order,
/// each reading only what the ones before it wrote (a value missing would be a bug here,
/// never an input's doing). Inlined with constant step numbers, the `Option`s fold away;
/// in the loop each pass tests the ones it reads. The straight-line form in
/// [`Jac8::double_beside`] is the same formula written as a block: the steps unrolled in
/// its place gave the IFMA engine 0.6 % more emulated instructions (27,397 → 27,557), so
/// the block stays. The tests check the steps on both fields, and each field's `double`,
/// against the scalar core.
pub(crate) struct Doubling<F: LaneField> {
    p: Jac8<F>,
    /// X², unreduced.
    a: Option<F::Unreduced>,
    /// M = 3X².
    m: Option<F>,
    /// Y².
    s: Option<F>,
    /// Y⁴, unreduced.
    c: Option<F::Unreduced>,
    /// T = X·Y², unreduced (3M + 4S).
    t: Option<F::Unreduced>,
    /// 2T = (X + Y²)² − X² − Y⁴ (2M + 5S, [`LaneField::CHEAP_SQUARES`]).
    t2: Option<F>,
    x3: Option<F>,
    y3: Option<F>,
    z3: Option<F>,
}

/// The value a step wrote: always there, as the steps run in order.
#[inline(always)]
fn need<T>(v: Option<T>) -> T {
    v.expect("a doubling's steps run in order")
}

impl<F: LaneField> Doubling<F> {
    /// Steps in a doubling (its products).
    pub const STEPS: usize = 7;

    /// The doubling of `p`, no step run yet.
    #[inline(always)]
    pub fn new(p: Jac8<F>) -> Self {
        Doubling {
            p,
            a: None,
            m: None,
            s: None,
            c: None,
            t: None,
            t2: None,
            x3: None,
            y3: None,
            z3: None,
        }
    }

    /// Step `i` (0 ≤ i < 7; any other `i` does nothing): M = 3X², T = X·Y², X₃ = M² − 8T,
    /// Y₃ = M(4T − X₃) − 8Y⁴, Z₃ = 2YZ. Never degenerate: y = 0 is impossible on
    /// secp256k1. Each linear combination is one fused lane operation with a single
    /// reduction, the products that only feed one are left unreduced for it to finish,
    /// and M² and M(4T − X₃) are one operation with the subtraction after them.
    ///
    /// T is a product (3M + 4S), or where the field's squares are cheap
    /// ([`LaneField::CHEAP_SQUARES`]) 2T = (X + Y²)² − X² − Y⁴, a square and an addition
    /// (2M + 5S, as dbl-2009-l). Measured per signature: the 9×29 field 111,979 → 107,796
    /// emulated instructions and 3.5–5.2 % less time on Intel with avx512f; the 5×52 field
    /// 27,469 → 28,388 instructions and no gain in time on Intel with IFMA.
    #[inline(always)]
    pub fn step(&mut self, i: usize) {
        let p = &self.p;
        match i {
            0 => self.a = Some(p.x.sqr_unreduced()),
            1 => {
                let a = need(self.a);
                self.m = Some(a.triple());
                self.s = Some(p.y.sqr());
            }
            2 => self.c = Some(need(self.s).sqr_unreduced()),
            3 => {
                let s = need(self.s);
                if F::CHEAP_SQUARES {
                    let a = need(self.a);
                    let c = need(self.c);
                    self.t2 = Some(p.x.add(&s).sqr_sub_sub(&a, &c));
                } else {
                    self.t = Some(p.x.mul_unreduced(&s));
                }
            }
            4 => {
                let m = need(self.m);
                self.x3 = Some(if F::CHEAP_SQUARES {
                    m.sqr_sub_shl::<2>(&need(self.t2))
                } else {
                    m.sqr_sub_shl::<3>(&need(self.t))
                });
            }
            5 => {
                let (m, x3) = (need(self.m), need(self.x3));
                let c = need(self.c);
                self.y3 = Some(if F::CHEAP_SQUARES {
                    m.mul_sub_shl::<3>(&need(self.t2).shl_sub::<1>(&x3), &c)
                } else {
                    let t = need(self.t);
                    m.mul_sub_shl::<3>(&t.shl_sub::<2>(&x3), &c)
                });
            }
            6 => self.z3 = Some(p.y.mul_unreduced(&p.z).shl::<1>()),
            _ => {}
        }
    }

    /// 2P, once the seven steps have run.
    #[inline(always)]
    pub fn finish(&self) -> Jac8<F> {
        Jac8 {
            x: need(self.x3),
            y: need(self.y3),
            z: need(self.z3),
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

    /// Eight Jacobian points as lanes (the inverse of [`jac_to_affine`] up to the frame).
    pub(in crate::lanes) fn jac8<P: LaneField>(p: &[Jacobian; LANES]) -> Jac8<P> {
        Jac8 {
            x: P::from_lanes(&p.map(|j| j.x)),
            y: P::from_lanes(&p.map(|j| j.y)),
            z: P::from_lanes(&p.map(|j| j.z)),
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
            let p8 = jac8::<P>(&pj);
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

    /// The steps of [`Doubling`], and each field's `double` (the straight-line block for
    /// 5×52, the steps in a loop for 9×29), on both fields, against the scalar core.
    #[test]
    fn both_doubling_forms_match_scalar_core() {
        both_forms::<Fe8<Portable>>();
        both_forms::<Fe29<Portable>>();
    }

    fn both_forms<P: LaneField>() {
        for seed in 0..12 {
            let pj: [Jacobian; LANES] = points(seed).map(|a| a.to_jacobian().double());
            let p8 = jac8::<P>(&pj);
            let mut d = Doubling::new(p8);
            for i in 0..Doubling::<P>::STEPS {
                d.step(i);
            }
            let stepped = jac_to_affine(&d.finish());
            let block = jac_to_affine(&p8.double());
            for i in 0..LANES {
                let want = pj[i].double().to_affine();
                assert!(same(&stepped[i], &want), "steps, lane {i}");
                assert!(same(&block[i], &want), "double, lane {i}");
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
