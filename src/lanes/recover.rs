//! The 8-lane recovery core: eight signatures in lockstep, from validated (x, parity, r,
//! s, m) to the public keys and their Keccak-256 hashes, in two passes so that the caller
//! can drop the lanes that fail in between:
//!
//! - [`lift`]: R = (x, √(x³ + 7)) with the requested parity, for one or more groups side by
//!   side; returns the lanes where x³ + 7 is a square (the others have no R: r is not an
//!   x-coordinate).
//! - [`recover_groups`], from R (every arrow eight lanes wide), for up to [`GROUPS`] groups
//!   at once:
//!   1. Invalid lanes (rejected by the caller) get a harmless dummy input.
//!   2. r⁻¹ for all lanes of all the groups by product trees across each group's lanes and
//!      one safegcd inversion (Montgomery form), then u₁ = −m·r⁻¹ and u₂ = s·r⁻¹.
//!   3. The schedule (`super::schedule`): u₂'s GLV halves recoded jointly as one
//!      Eisenstein integer, one digit per 3 bits from an 11-entry table; u₁'s 128-bit halves
//!      in signed odd windows of width 14 over the static odd-multiple tables of G and
//!      2¹²⁸·G, both halves odd: where u₁ is even the lane runs −u₁ and −u₂ and negates
//!      its result, and an even high half borrows 2¹²⁸ from the low one, so no addition
//!      corrects them at the end.
//!   4. The table ([`joint_table`]): 11 small combinations of R and λR as one chain of 2
//!      doublings and 8 additions, made affine on one isomorphic curve without an inversion
//!      (the chain's z ratios), and their images under ω, ω².
//!   5. Strauss's loop from bit 126 down: a doubling per bit, one joint addition every 3
//!      bits, two G additions every 14 bits. Table entries are fetched with gathers.
//!   6. To affine, every group's Z inverted by one safegcd inversion (as in step 2), then
//!      Keccak-256 of each group's eight keys, 8-way.
//!
//!   Steps 1 and 3 to 5 run group by group between the two shared inversions, which is
//!   what a group of its own pays in full: two safegcd inversions, against two for up to
//!   [`GROUPS`] groups at once.
//!
//! Every addition is complete per lane: where the accumulator and the added point share
//! their x (impossible for honest signatures, reachable by crafted ones), the lane gets
//! 2·acc or the point at infinity, and an accumulator at infinity takes the next point as
//! it is. This is a masked fix-up that runs only when such a lane exists, so crafted inputs
//! cost at most a few doublings more and never leave the engine; a key at infinity comes
//! out as [`AT_INFINITY`].

use super::keccak::keccak256_64_x8;
use super::lane_field::{Chains, LaneField, Linear};
use super::point::{Aff8, Jac8};
use super::records::{AT_INFINITY, INVALID, Input8, OK, Output8, RETRY_SCALAR, load4};
use super::recovery_field::RecoveryField;
use super::schedule::Schedule;
use super::table::{LaneTable, TABLE};
use super::{Backend, GROUPS, LANES};
use crate::secp256k1::eisenstein::{COLUMNS, W as W_R};
use crate::secp256k1::field::FieldElement;
use crate::secp256k1::group::G;
use crate::secp256k1::recode::{G_DIGITS, TOP_BIT, W_G};
use crate::secp256k1::scalar::Scalar;
use crate::secp256k1::tables;

const _: () = assert!((COLUMNS - 1) * W_R as usize == TOP_BIT);

/// `acc + q` by the lockstep formula: `q` affine in acc's frame, or (with `zinv`) a true
/// affine point added on the isomorphic curve scaled by `zinv`. Also the mask of lanes
/// where the two share an x-coordinate, whose sum is garbage.
#[inline(always)]
fn add_in_frame<F: LaneField>(acc: &Jac8<F>, q: &Aff8<F>, zinv: Option<&F>) -> (Jac8<F>, u8) {
    match zinv {
        Some(z) => acc.add_zinv(q, z),
        None => {
            let (sum, _, same_x) = acc.add_affine(q);
            (sum, same_x)
        }
    }
}

/// `acc + q` in the lanes of `live` (the others keep `acc`), complete in every lane: `q`
/// is affine in acc's frame, or (with `zinv`) a true affine point added to an accumulator
/// on the isomorphic curve scaled by `zinv`. Lanes whose accumulator is at infinity
/// (`inf`) take q; lanes where acc = q get 2·acc; lanes where acc = −q go to infinity.
#[inline(always)]
fn add_complete<F: LaneField>(
    acc: Jac8<F>,
    q: &Aff8<F>,
    zinv: Option<&F>,
    live: u8,
    inf: &mut u8,
) -> Jac8<F> {
    let (sum, same_x) = add_in_frame(&acc, q, zinv);
    let mut out = if live == 0xFF {
        sum
    } else {
        Jac8::select(live, &sum, &acc)
    };
    let from_inf = *inf & live;
    let same_x = same_x & !*inf & live;
    if from_inf | same_x != 0 {
        // Q in acc's frame with Z = 1.
        let one = F::splat(&FieldElement::ONE);
        let qj = match zinv {
            Some(z) => Jac8::from_affine_zinv(q, z),
            None => Jac8 {
                x: q.x,
                y: q.y,
                z: one,
            },
        };
        // Same x: acc = q exactly when Y = y_q·Z³.
        let z3 = acc.z.sqr().mul(&acc.z);
        let same = acc.y.eq(&qj.y.mul(&z3)) & same_x;
        if same != 0 {
            out = Jac8::select(same, &acc.double(), &out);
        }
        out = Jac8::select(from_inf, &qj, &out);
        *inf = (*inf & !from_inf) | (same_x & !same);
    }
    out
}

/// `p + q` for the table's chain, with its z ratio H (Z(p + q) = Z(p)·H), the lanes where
/// it would be degenerate (none, see [`strauss_group`]) added to `retry`.
#[inline(always)]
fn chain_add<F: LaneField>(p: &Jac8<F>, q: &Aff8<F>, retry: &mut u8) -> (Jac8<F>, F) {
    let (sum, h, same_x) = p.add_affine(q);
    *retry |= same_x;
    (sum, h)
}

/// One step of the Strauss loop.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// acc ← 2·acc.
    Double,
    /// acc ← acc + the joint digit of this column (lanes whose digit is not zero).
    Joint(usize),
    /// acc ← acc + the digit of G half h (0: G, 1: 2¹²⁸G) of this column.
    G(usize, usize),
}

/// Number of steps after the start (acc = G half 0's top digit): the top column's other
/// two additions, then per bit from 125 down a doubling, a joint addition every 3 bits and
/// two G additions every 14 bits.
const STEP_COUNT: usize = 2 + TOP_BIT + TOP_BIT / W_R as usize + 2 * (TOP_BIT / W_G as usize);

/// The loop's steps in order.
const STEPS: [Step; STEP_COUNT] = {
    let mut out = [Step::Double; STEP_COUNT];
    out[0] = Step::Joint(COLUMNS - 1);
    out[1] = Step::G(1, G_DIGITS - 1);
    let mut i = 2;
    let mut bit = TOP_BIT;
    while bit > 0 {
        bit -= 1;
        out[i] = Step::Double;
        i += 1;
        if bit.is_multiple_of(W_R as usize) {
            out[i] = Step::Joint(bit / W_R as usize);
            i += 1;
        }
        if bit.is_multiple_of(W_G as usize) {
            out[i] = Step::G(0, bit / W_G as usize);
            out[i + 1] = Step::G(1, bit / W_G as usize);
            i += 2;
        }
    }
    assert!(i == STEP_COUNT);
    out
};

/// What the Strauss loop reads: the schedule, the joint table, the G tables and the
/// isomorphic frame's scale.
struct Strauss<'a, F: RecoveryField> {
    sched: &'a Schedule,
    tab: &'a LaneTable<F, F::TableWords>,
    gtab: [&'static tables::OddMultiples; 2],
    zt: F,
    /// −zt: a static G entry added with the frame's scale negated is added negated (its
    /// y·zinv³ changes sign, its x·zinv² does not), so that a negative G digit costs a
    /// select of the scale, not a negation of the entry.
    neg_zt: F,
}

impl<F: RecoveryField> Strauss<'_, F> {
    /// The frame's scale for a G entry: negated in the lanes of `neg`.
    #[inline(always)]
    fn scale(&self, neg: u8) -> F {
        F::select(neg, &self.neg_zt, &self.zt)
    }
}

impl<F: RecoveryField> Strauss<'_, F> {
    /// Runs [`STEPS`] from `from` on `acc`. With `COMPLETE`, every addition is complete
    /// ([`add_complete`], `inf` tracking the lanes at infinity) and the run reaches the
    /// end; without, the run stops before the first addition where a lane would need the
    /// fix-up and returns that step and the accumulator before it.
    #[inline(always)]
    fn run<const COMPLETE: bool>(
        &self,
        mut acc: Jac8<F>,
        from: usize,
        inf: &mut u8,
    ) -> Result<Jac8<F>, (usize, Jac8<F>)> {
        for (i, step) in STEPS.iter().enumerate().skip(from) {
            let (p, zinv, live): (_, Option<F>, _) = match *step {
                Step::Double => {
                    acc = acc.double();
                    continue;
                }
                Step::Joint(col) => {
                    let live = self.sched.r_live[col];
                    if live == 0 {
                        continue;
                    }
                    (
                        self.tab.digit(&self.sched.r_x[col], &self.sched.r_y[col]),
                        None,
                        live,
                    )
                }
                Step::G(h, col) => {
                    let (idx, neg) = (&self.sched.g_idx[h][col], self.sched.g_neg[h][col]);
                    (g_entry::<F>(self.gtab[h], idx), Some(self.scale(neg)), 0xFF)
                }
            };
            if COMPLETE {
                acc = add_complete(acc, &p, zinv.as_ref(), live, inf);
            } else {
                let (sum, same_x) = add_in_frame(&acc, &p, zinv.as_ref());
                if same_x & live != 0 {
                    return Err((i, acc));
                }
                acc = if live == 0xFF {
                    sum
                } else {
                    Jac8::select(live, &sum, &acc)
                };
            }
        }
        Ok(acc)
    }
}

/// Entry `idx[i]` of a static odd-multiple table in lane i.
#[inline(always)]
fn g_entry<F: LaneField>(table: &tables::OddMultiples, idx: &[u64; LANES]) -> Aff8<F> {
    let base = F::B::shl::<3>(F::B::load(idx));
    let bytes = table.as_bytes();
    let mut w = [base; 8];
    for (k, wk) in w.iter_mut().enumerate() {
        *wk = F::B::gather(bytes, F::B::add(base, F::B::splat(k as u64)));
    }
    Aff8 {
        x: F::from_words([w[0], w[1], w[2], w[3]]),
        y: F::from_words([w[4], w[5], w[6], w[7]]),
    }
}

/// The same point in every lane.
#[inline(always)]
fn splat_point<F: LaneField>(x: &FieldElement, y: &FieldElement) -> Aff8<F> {
    Aff8 {
        x: F::splat(x),
        y: F::splat(y),
    }
}

/// Lifts the valid lanes' x to R in each of `K` groups (their square roots as `K` chains
/// side by side): writes R's y (with the requested parity) to `inp.y` and returns the valid
/// lanes where x³ + 7 is a square. The other lanes' y is meaningless.
#[inline(always)]
pub(crate) fn lift<F: LaneField, const K: usize>(inps: &mut [Input8; K]) -> [u8; K] {
    let mut cs = [F::splat(&G.x); K];
    for (k, inp) in inps.iter().enumerate() {
        let x = F::select(
            inp.valid as u8,
            &F::from_words(load4::<F::B>(&inp.x)),
            &F::splat(&G.x),
        );
        cs[k] = x.sqr().mul(&x).add(&F::splat(&FieldElement::B));
    }
    let (ys, on_curve) = Chains(cs).sqrt();
    let mut out = [0u8; K];
    for (k, inp) in inps.iter_mut().enumerate() {
        let y = ys.0[k].normalize();
        let want_odd = !F::B::eq(F::B::load(&inp.odd), F::B::splat(0));
        let flip = y.is_odd() ^ want_odd;
        let y = F::select(flip, &y.neg(), &y).normalize();
        for (row, w) in inp.y.iter_mut().zip(y.to_words()) {
            *row = F::B::store(w);
        }
        out[k] = on_curve[k] & inp.valid as u8;
    }
    out
}

/// Step 4: the table of the joint digits, entry j the point `ENTRIES[j]` = a + bω times R
/// (1, 2, 3, 4, 1−ω, 2−ω, 3+ω, 3−ω, 4+ω, 2−2ω and 5+2ω; ω acting as λ: (x, y) ↦ (βx, y)),
/// every entry affine on the isomorphic curve scaled by the returned `zt` (the true point
/// is (x/zt², y/zt³)). Built as one chain in which each entry comes from the one before
/// it, by a doubling or by adding one of the unit multiples ±R, ±λR, ±λ²R (affine: λ²R =
/// (β²x, y) with β² = −1 − β), so the ratio of each entry's z to the one before it is
/// known (the addition's H, the doubling's 2Y) and one backward pass of those ratios
/// brings every entry onto the last one's Z, with no product tree. No lane is degenerate
/// here: R has order n, and two of these small combinations of R and λR share an x only
/// if a + bλ ≡ 0 (mod n) for small a, b, which the lattice of such pairs (shortest
/// vectors near 2¹²⁸) rules out; such lanes would be added to `retry` all the same.
#[inline(always)]
fn joint_table<F: LaneField>(big_r: &Aff8<F>, retry: &mut u8) -> ([Aff8<F>; TABLE], F) {
    let one = F::splat(&FieldElement::ONE);
    let r_jac = Jac8 {
        x: big_r.x,
        y: big_r.y,
        z: one,
    };
    let bx = big_r.x.mul(&F::splat(&FieldElement::BETA));
    let neg_y = big_r.y.neg();
    let neg_r = Aff8 {
        x: big_r.x,
        y: neg_y,
    };
    let lam_r = Aff8 { x: bx, y: big_r.y };
    let neg_lam_r = Aff8 { x: bx, y: neg_y };
    // ω² = −1 − ω and −ω² = 1 + ω.
    let lam2_r = Aff8 {
        x: big_r.x.neg_sub(&bx),
        y: big_r.y,
    };
    let neg_lam2_r = Aff8 {
        x: lam2_r.x,
        y: neg_y,
    };
    // The chain from R (z = 1), with each entry's z over the z before it (H of the
    // addition; 2Y for a doubling, taken below).
    let e2 = r_jac.double();
    let (e3pw, h3pw) = chain_add(&e2, &neg_lam2_r, retry); // 2 + (1 + ω)
    let (e3, h3) = chain_add(&e3pw, &neg_lam_r, retry); // (3 + ω) − ω
    let (e2w, h2w) = chain_add(&e3, &lam2_r, retry); // 3 + (−1 − ω)
    let (e1w, h1w) = chain_add(&e2w, &neg_r, retry); // (2 − ω) − 1
    let e2_2w = e1w.double(); // 2·(1 − ω), Z₃ = 2Y·Z
    let (e3mw, h3mw) = chain_add(&e2_2w, &neg_lam2_r, retry); // (2 − 2ω) + (1 + ω)
    let (e4, h4) = chain_add(&e3mw, &neg_lam2_r, retry); // (3 − ω) + (1 + ω)
    let (e4w, h4w) = chain_add(&e4, &lam_r, retry); // 4 + ω
    let (e5w, h5w) = chain_add(&e4w, &neg_lam2_r, retry); // (4 + ω) + (1 + ω)
    // In chain order: the entry, its index in the table, and its z over the z before it.
    let h2_2w = e1w.y.shl::<1>();
    let chain = [
        (&r_jac, 0, &one),
        (&e2, 1, &e2.z),
        (&e3pw, 6, &h3pw),
        (&e3, 2, &h3),
        (&e2w, 5, &h2w),
        (&e1w, 4, &h1w),
        (&e2_2w, 9, &h2_2w),
        (&e3mw, 7, &h3mw),
        (&e4, 3, &h4),
        (&e4w, 8, &h4w),
        (&e5w, 10, &h5w),
    ];
    // Entry j on the curve of Z = z(5 + 2ω): (X·(Z/zⱼ)², Y·(Z/zⱼ)³), Z/zⱼ the product of the
    // z ratios after j in the chain, walking back from the last entry (already there).
    let zt = e5w.z;
    let mut table = [Aff8 { x: e5w.x, y: e5w.y }; TABLE];
    let mut scale = h5w;
    for pos in (0..chain.len() - 1).rev() {
        let (p, j, ratio) = chain[pos];
        let s2 = scale.sqr();
        table[j] = Aff8 {
            x: p.x.mul(&s2),
            y: p.y.mul(&s2.mul(&scale)),
        };
        if pos > 0 {
            scale = scale.mul(ratio);
        }
    }
    (table, zt)
}

/// What one group's Strauss loop leaves: the accumulator on the isomorphic curve, the
/// curve's scale, and the lanes to retry on the scalar path or at infinity.
struct Accumulated<F: LaneField> {
    acc: Jac8<F>,
    zt: F,
    retry: u8,
    inf: u8,
}

impl<F: LaneField> Clone for Accumulated<F> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<F: LaneField> Copy for Accumulated<F> {}

/// Recovers the lanes of up to [`GROUPS`] groups `inps` (R given by x and y: the lanes
/// [`lift`] kept) into `outs`, the groups' inversions shared: r⁻¹ for every lane of
/// every group by one inversion (step 2), and the keys' Z by one more (step 6). Longer
/// inputs go [`GROUPS`] at a time.
#[inline(always)]
pub(crate) fn recover_groups<F: RecoveryField>(inps: &[Input8], outs: &mut [Output8]) {
    for (inps, outs) in inps.chunks(GROUPS).zip(outs.chunks_mut(GROUPS)) {
        let n = inps.len();
        // 2. r⁻¹ for all lanes of all groups, then u₁ and u₂ (the field backend's way:
        //    `RecoveryField::recovery_scalars`).
        let mut u1 = [[Scalar::ZERO; LANES]; GROUPS];
        let mut u2 = [[Scalar::ZERO; LANES]; GROUPS];
        F::recovery_scalars(inps, &mut u1[..n], &mut u2[..n]);
        // Steps 1 and 3 to 5, group by group.
        let one = F::splat(&FieldElement::ONE);
        let mut done = [Accumulated {
            acc: Jac8 {
                x: one,
                y: one,
                z: one,
            },
            zt: one,
            retry: 0,
            inf: 0,
        }; GROUPS];
        let mut z = [one; GROUPS];
        for k in 0..n {
            done[k] = strauss_group::<F>(&inps[k], &u1[k], &u2[k]);
            z[k] = done[k].acc.z.mul(&done[k].zt);
        }
        // 6. The keys' Z of every group inverted at once.
        F::invert_groups(&mut z[..n]);
        for k in 0..n {
            finish_group::<F>(&done[k], &z[k], inps[k].valid as u8, &mut outs[k]);
        }
    }
}

/// Steps 1 and 3 to 5 of one group, from its u₁ and u₂: the Strauss loop's accumulator.
#[inline(always)]
fn strauss_group<F: RecoveryField>(
    inp: &Input8,
    u1: &[Scalar; LANES],
    u2: &[Scalar; LANES],
) -> Accumulated<F> {
    let valid = inp.valid as u8;

    // 1. Dummy inputs for invalid lanes: R = G, r = Gx, s = 2, m = 1, so that Q = (1/Gx)·G.
    //    (With s = 1, u₁ = −u₂ and Q would be the point at infinity: the lean loop's last
    //    addition would meet acc = −P in every padded group and finish in the complete loop.)
    let big_r = Aff8::select(
        valid,
        &Aff8 {
            x: F::from_words(load4::<F::B>(&inp.x)),
            y: F::from_words(load4::<F::B>(&inp.y)),
        },
        &splat_point(&G.x, &G.y),
    );

    // 3. The schedule.
    let sched = Schedule::new::<F>(u1, u2);
    let mut retry = sched.retry;

    // 4. The table of the joint digits.
    let (table, zt) = joint_table(&big_r, &mut retry);
    let tab = LaneTable::new(F::table_words(), &table);
    let gtab = [tables::pre_g(), tables::pre_g128()];

    // 5. Strauss from bit 126 down (see [`STEPS`]), first without the complete additions'
    // fix-ups: the loop stops at the first addition where a lane meets acc = ±Q, and the
    // complete loop (the same steps, every addition complete) resumes from there. Honest
    // signatures never stop; keeping the fix-up out of the hot loop keeps it lean.
    let ctx = Strauss {
        sched: &sched,
        tab: &tab,
        gtab,
        zt,
        neg_zt: zt.neg(),
    };
    let g0 = g_entry::<F>(gtab[0], &sched.g_idx[0][G_DIGITS - 1]);
    let start = Jac8::from_affine_zinv(&g0, &ctx.scale(sched.g_neg[0][G_DIGITS - 1]));
    // `inf`: the lanes whose accumulator is at the point at infinity.
    let mut inf = 0u8;
    let acc = match ctx.run::<false>(start, 0, &mut inf) {
        Ok(acc) => acc,
        Err((step, acc)) => match ctx.run::<true>(acc, step, &mut inf) {
            Ok(acc) => acc,
            Err(_) => unreachable!("the complete loop runs to the end"),
        },
    };
    // The lanes that ran −u₁ and −u₂ hold −Q.
    let acc = Jac8 {
        y: F::select(sched.flip, &acc.y.neg(), &acc.y),
        ..acc
    };
    Accumulated {
        acc,
        zt,
        retry,
        inf,
    }
}

/// Step 6 of one group, from the inverse of its keys' Z (Z·zt, the scale included): the
/// keys in affine form, their Keccak-256 hashes and the lanes' status.
#[inline(always)]
fn finish_group<F: LaneField>(a: &Accumulated<F>, zinv: &F, valid: u8, out: &mut Output8) {
    // 6. Back from the isomorphic frame, to affine, hash.
    let zi2 = zinv.sqr();
    let qx = a.acc.x.mul(&zi2).normalize();
    let qy = a.acc.y.mul(&zi2.mul(zinv)).normalize();
    let xw = qx.to_words();
    let yw = qy.to_words();
    let msg = [
        F::B::bswap(xw[3]),
        F::B::bswap(xw[2]),
        F::B::bswap(xw[1]),
        F::B::bswap(xw[0]),
        F::B::bswap(yw[3]),
        F::B::bswap(yw[2]),
        F::B::bswap(yw[1]),
        F::B::bswap(yw[0]),
    ];
    let h = keccak256_64_x8::<F::B>(&msg);
    for k in 0..4 {
        out.key[k] = F::B::store(xw[k]);
        out.key[4 + k] = F::B::store(yw[k]);
        out.hash[k] = F::B::store(h[k]);
    }
    for (i, st) in out.status.iter_mut().enumerate() {
        let bit = 1u8 << i;
        *st = if valid & bit == 0 {
            INVALID
        } else if a.retry & bit != 0 {
            RETRY_SCALAR
        } else if a.inf & bit != 0 {
            AT_INFINITY
        } else {
            OK
        };
    }
}

/// Both passes, for the tests and the emulator: [`lift`] of each group, then
/// [`recover_groups`] on the lanes it kept, [`GROUPS`] groups at a time; the lanes it
/// dropped are reported as `NOT_ON_CURVE`.
#[cfg(any(test, feature = "emu"))]
#[inline(always)]
pub(crate) fn lift_recover<F: RecoveryField>(inps: &[Input8], outs: &mut [Output8]) {
    use super::records::NOT_ON_CURVE;
    for (inps, outs) in inps.chunks(GROUPS).zip(outs.chunks_mut(GROUPS)) {
        let mut lifted = [Input8::default(); GROUPS];
        let mut dropped = [0u8; GROUPS];
        for (k, inp) in inps.iter().enumerate() {
            let mut one = [*inp];
            let [on_curve] = lift::<F, 1>(&mut one);
            lifted[k] = one[0];
            lifted[k].valid = u64::from(on_curve);
            dropped[k] = inp.valid as u8 & !on_curve;
        }
        recover_groups::<F>(&lifted[..inps.len()], outs);
        for (out, dropped) in outs.iter_mut().zip(dropped) {
            for (i, st) in out.status.iter_mut().enumerate() {
                if dropped >> i & 1 == 1 {
                    *st = NOT_ON_CURVE;
                }
            }
        }
    }
}

/// The avx512-ifma engine's field: 5×52 limbs on AVX-512 IFMA.
#[cfg(target_arch = "x86_64")]
pub(crate) type IfmaField = super::field::Fe8<super::avx512::Avx512>;

/// The avx512f engine's field: 9×29 limbs on AVX-512 F's `vpmuludq`.
#[cfg(target_arch = "x86_64")]
pub(crate) type Avx512FField = super::field29::Fe29<super::avx512::Avx512>;

/// [`lift`] of two groups on AVX-512 IFMA, for a CPU that has it.
#[cfg(target_arch = "x86_64")]
pub(crate) fn lift2_avx512(_cpu: crate::dispatch::Avx512Ifma, inps: &mut [Input8; 2]) -> [u8; 2] {
    // SAFETY: the token exists only where `crate::dispatch` detected AVX-512 F, BW, IFMA.
    unsafe { lift2_avx512_body(inps) }
}

/// [`recover_groups`] on AVX-512 IFMA, for a CPU that has it.
#[cfg(target_arch = "x86_64")]
pub(crate) fn recover_groups_avx512(
    _cpu: crate::dispatch::Avx512Ifma,
    inps: &[Input8],
    outs: &mut [Output8],
) {
    // SAFETY: the token exists only where `crate::dispatch` detected AVX-512 F, BW, IFMA.
    unsafe { recover_groups_avx512_body(inps, outs) }
}

/// The body of [`lift2_avx512`], compiled with the AVX-512 features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
fn lift2_avx512_body(inps: &mut [Input8; 2]) -> [u8; 2] {
    lift::<IfmaField, 2>(inps)
}

/// The body of [`recover_groups_avx512`], compiled with the AVX-512 features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
fn recover_groups_avx512_body(inps: &[Input8], outs: &mut [Output8]) {
    recover_groups::<IfmaField>(inps, outs);
}

/// [`lift_recover`] on AVX-512, compiled with the AVX-512 features: the C-ABI wrapper the
/// emulator runs (`super::abi`) enters here.
#[cfg(all(target_arch = "x86_64", any(test, feature = "emu")))]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub(crate) fn lift_recover_avx512_body(inps: &[Input8], outs: &mut [Output8]) {
    lift_recover::<IfmaField>(inps, outs);
}

/// [`lift`] of two groups on AVX-512 F without IFMA (the 9×29 field), for a CPU that has
/// AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
pub(crate) fn lift2_avx512f(_cpu: crate::dispatch::Avx512F, inps: &mut [Input8; 2]) -> [u8; 2] {
    // SAFETY: the token exists only where `crate::dispatch` detected AVX-512 F and BW.
    unsafe { lift2_avx512f_body(inps) }
}

/// [`recover_groups`] on AVX-512 F without IFMA, for a CPU that has AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
pub(crate) fn recover_groups_avx512f(
    _cpu: crate::dispatch::Avx512F,
    inps: &[Input8],
    outs: &mut [Output8],
) {
    // SAFETY: the token exists only where `crate::dispatch` detected AVX-512 F and BW.
    unsafe { recover_groups_avx512f_body(inps, outs) }
}

/// The body of [`lift2_avx512f`], compiled with AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn lift2_avx512f_body(inps: &mut [Input8; 2]) -> [u8; 2] {
    lift::<Avx512FField, 2>(inps)
}

/// The body of [`recover_groups_avx512f`], compiled with AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn recover_groups_avx512f_body(inps: &[Input8], outs: &mut [Output8]) {
    recover_groups::<Avx512FField>(inps, outs);
}

/// [`lift_recover`] on AVX-512 F without IFMA: the emulator's entry (`super::abi`).
#[cfg(all(target_arch = "x86_64", any(test, feature = "emu")))]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn lift_recover_avx512f_body(inps: &[Input8], outs: &mut [Output8]) {
    lift_recover::<Avx512FField>(inps, outs);
}

#[cfg(test)]
mod tests {
    use super::super::point::tests::{jac_to_affine, jac8, same};
    use super::*;
    use crate::lanes::field::Fe8;
    use crate::lanes::field29::Fe29;
    use crate::lanes::portable::Portable;
    use crate::secp256k1::group::{Affine, Jacobian};

    /// Eight distinct points k·G, k = seed + 1, seed + 2, ….
    fn points(seed: u64) -> [Affine; LANES] {
        let mut acc = G.to_jacobian();
        for _ in 0..seed {
            acc = acc.add_ge(&G).0;
        }
        core::array::from_fn(|_| {
            acc = acc.add_ge(&G).0;
            acc.to_affine()
        })
    }

    /// The joint table's entries against the scalar core: entry j of each lane, brought
    /// back from the isomorphic curve (x/zt², y/zt³), is (a + b·λ)·R for the entry's (a, b),
    /// R in each lane a different point (G, −G and random multiples among them), no lane
    /// marked for retry; for both lane fields.
    #[test]
    fn joint_table_matches_scalar_core() {
        joint_table_case::<Fe8<Portable>>();
        joint_table_case::<Fe29<Portable>>();
    }

    fn joint_table_case<P: LaneField>() {
        use crate::secp256k1::eisenstein::ENTRIES;
        use crate::secp256k1::glv::LAMBDA;
        use crate::secp256k1::group::tests::{mul_ref, rand_scalar};
        let small = |v: i8| {
            let k = Scalar::from_words([v.unsigned_abs() as u64, 0, 0, 0]);
            if v < 0 { k.negate() } else { k }
        };
        let mut seed = 0x7ab1e_u64;
        for round in 0..6 {
            let ks: [Scalar; LANES] = core::array::from_fn(|i| match (round, i) {
                (0, 0) => Scalar::ONE,
                (0, 1) => Scalar::ONE.negate(),
                _ => rand_scalar(&mut seed),
            });
            let r: [Affine; LANES] = ks.map(|k| mul_ref(&G, &k));
            let big_r = Aff8::<P> {
                x: P::from_lanes(&r.map(|a| a.x)),
                y: P::from_lanes(&r.map(|a| a.y)),
            };
            let mut retry = 0;
            let (table, zt) = joint_table(&big_r, &mut retry);
            assert_eq!(retry, 0, "round {round}");
            for (j, &(a, b)) in ENTRIES.iter().enumerate() {
                let got = jac_to_affine(&Jac8 {
                    x: table[j].x,
                    y: table[j].y,
                    z: zt,
                });
                let k = small(a).add(&small(b).mul(&LAMBDA));
                for lane in 0..LANES {
                    let want = mul_ref(&r[lane], &k);
                    assert!(
                        same(&got[lane], &want),
                        "round {round}, entry {j} = {a} + {b}ω, lane {lane}"
                    );
                }
            }
        }
    }

    /// Every case of the complete addition, lane by lane against the scalar group law:
    /// acc = q (doubling), acc = −q (to infinity), acc at infinity (takes q), a lane that
    /// does not add, one at infinity that does not add, and ordinary lanes; both for q
    /// affine in acc's frame and for a true affine q with the frame's `zinv`.
    #[test]
    fn complete_addition_in_every_lane() {
        complete_addition::<Fe8<Portable>>();
        complete_addition::<Fe29<Portable>>();
    }

    fn complete_addition<P: LaneField>() {
        let p = points(3);
        let mut q = points(40);
        q[0] = p[0];
        q[1] = p[1].neg();
        // acc with z ≠ 1: each P doubled once.
        let pj: [Jacobian; LANES] = p.map(|a| a.to_jacobian().double());
        let twice: [Affine; LANES] = pj.map(|j| j.to_affine());
        q[0] = twice[0];
        q[1] = twice[1].neg();
        let live = 0b1100_1111u8; // lanes 4 and 5 do not add
        let inf_before = 0b0010_1000u8; // lanes 3 and 5 at infinity (5 does not add)
        let k = FieldElement::from_u64x4([12345, 678, 9, 1]);
        for zinv in [None, Some(k)] {
            // With zinv, acc lives on the curve scaled by k: the same points there are
            // (X, Y, Z/k).
            let acc = match zinv {
                None => jac8::<P>(&pj),
                Some(k) => {
                    let mut a = jac8::<P>(&pj);
                    a.z = a.z.mul(&P::splat(&k.inv()));
                    a
                }
            };
            let q8 = Aff8::<P> {
                x: P::from_lanes(&q.map(|a| a.x)),
                y: P::from_lanes(&q.map(|a| a.y)),
            };
            let zv = zinv.map(|k| P::splat(&k));
            let mut inf = inf_before;
            let mut out = add_complete(acc, &q8, zv.as_ref(), live, &mut inf);
            if let Some(k) = zinv {
                out.z = out.z.mul(&P::splat(&k));
            }
            let got = jac_to_affine(&out);
            assert_eq!(
                inf, 0b0010_0010,
                "lane 1 went to infinity, 3 came back, 5 stays"
            );
            for i in 0..LANES {
                let want = match i {
                    0 => Some(twice[0].to_jacobian().double().to_affine()),
                    1 | 5 => None,
                    3 => Some(q[3]),
                    4 => Some(twice[4]),
                    _ => Some(pj[i].add_ge(&q[i]).0.to_affine()),
                };
                if let Some(w) = want {
                    assert!(same(&got[i], &w), "lane {i}, zinv {}", zinv.is_some());
                }
            }
        }
    }
}
