//! Issue 39's hybrid experiment: a lane doubling (eight points on the vector units) and K
//! scalar-core doublings (MULX/ADX on the integer units) in one instruction stream.
//!
//! The lane engine keeps its multiply port busy while the integer ALUs and the scalar
//! multiplier idle, so the question is whether a scalar doubling issued beside a lane
//! doubling comes nearly free. Issue 20 found that a coarse block (one whole computation,
//! then the other) does not overlap and a fine interleave does, so the two are interleaved
//! here at the granularity of field operations: [`Jac8::double_beside`] calls back after
//! each of its seven products, and the callback runs the same step of each scalar doubling
//! ([`ScalarDoubling::step`]).
//!
//! Compiled for the tests and with the feature `emu` only: the kernels in `abi` and the
//! timing tool (`tools/src/bin/hybrid_double.rs`) measure it, the tests below check that
//! the interleaved results are the separate ones. The measured verdict is in
//! `doc/benchmarks.md` (issue 39, part 3).

use super::lane_field::LaneField;
use super::point::{Doubling, Jac8};
use crate::secp256k1::field::{FieldElement as Fe, FieldMul};
use crate::secp256k1::group::Jacobian;

/// How a run issues the two kinds of doubling (see [`run`]). The C-ABI entries take it as
/// its index in [`Mode::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The lane doubling alone.
    Lanes = 0,
    /// The K scalar doublings alone.
    Scalar = 1,
    /// The lane doubling, then the K scalar doublings: a coarse block each.
    Block = 2,
    /// Both, step by step: the lane doubling's i-th product, then the i-th step of each
    /// scalar doubling.
    Interleaved = 3,
    /// Two lane doublings (a second group of eight points, no scalar one), one after the
    /// other: what the engine does with two groups today, one at a time.
    PairBlocks = 4,
    /// Two lane doublings interleaved a product at a time: the first's i-th product, then
    /// the second's. Where the lane doubling is bound by its dependency chains rather than
    /// by its multiply ports, this costs less than twice the doubling alone.
    Pair = 5,
}

impl Mode {
    /// Every mode, each at the index of its number (`mode as u64`, as the C ABI takes it).
    pub const ALL: [Mode; 6] = [
        Mode::Lanes,
        Mode::Scalar,
        Mode::Block,
        Mode::Interleaved,
        Mode::PairBlocks,
        Mode::Pair,
    ];

    /// Whether the mode doubles the scalar points.
    pub const fn has_scalar(self) -> bool {
        matches!(self, Mode::Scalar | Mode::Block | Mode::Interleaved)
    }

    /// Whether the mode doubles a second group of lanes.
    pub const fn has_pair(self) -> bool {
        matches!(self, Mode::PairBlocks | Mode::Pair)
    }
}

/// One scalar-core doubling of a Jacobian point not at infinity, in seven steps of one
/// field operation each: the formula of `Jacobian::double_with` (3M + 4S, M = 3X²,
/// 4T = 4X·Y², X₃ = M² − 8T, Y₃ = M(4T − X₃) − 8Y⁴, Z₃ = 2YZ). Steps run in order; each
/// reads only what the earlier ones wrote.
#[derive(Clone, Copy)]
pub(crate) struct ScalarDoubling<M: FieldMul> {
    m: M,
    p: Jacobian,
    mm: Fe,
    s: Fe,
    t4: Fe,
    s8: Fe,
    x3: Fe,
    y3: Fe,
    z3: Fe,
}

impl<M: FieldMul> ScalarDoubling<M> {
    /// Steps in a doubling.
    pub const STEPS: usize = 7;

    #[inline(always)]
    pub fn new(m: M, p: Jacobian) -> Self {
        Self {
            m,
            p,
            mm: Fe::ZERO,
            s: Fe::ZERO,
            t4: Fe::ZERO,
            s8: Fe::ZERO,
            x3: Fe::ZERO,
            y3: Fe::ZERO,
            z3: Fe::ZERO,
        }
    }

    /// Step `i` (0 ≤ i < 7; any other `i` does nothing). Inlined with a constant `i`, the
    /// match folds to the one operation.
    #[inline(always)]
    pub fn step(&mut self, i: usize) {
        let m = self.m;
        match i {
            0 => self.mm = m.sqr_scaled::<3>(&self.p.x),
            1 => self.s = m.sqr(&self.p.y),
            2 => self.t4 = m.mul_scaled::<4>(&self.p.x, &self.s),
            3 => self.x3 = m.sqr_sub(&self.mm, &self.t4.dbl()),
            4 => self.s8 = m.sqr_scaled::<8>(&self.s),
            5 => self.y3 = m.mul_sub(&self.mm, &self.t4.sub(&self.x3), &self.s8),
            6 => self.z3 = m.mul_scaled::<2>(&self.p.y, &self.p.z),
            _ => {}
        }
    }

    /// The doubled point, once the seven steps have run.
    #[inline(always)]
    pub fn finish(&self) -> Jacobian {
        Jacobian {
            x: self.x3,
            y: self.y3,
            z: self.z3,
            infinity: false,
        }
    }
}

/// One doubling of `lanes` and of each of `scalar` (none at infinity), or of `lanes` and
/// `pair` (the pair modes), issued as `mode` says.
#[inline(always)]
pub(crate) fn double<F: LaneField, M: FieldMul, const K: usize>(
    mode: Mode,
    m: M,
    lanes: &mut Jac8<F>,
    pair: &mut Jac8<F>,
    scalar: &mut [Jacobian; K],
) {
    let mut steps = scalar.map(|p| ScalarDoubling::new(m, p));
    // Step i of every scalar doubling.
    let step_all = |steps: &mut [ScalarDoubling<M>; K], i| steps.iter_mut().for_each(|s| s.step(i));
    let all_steps = |steps: &mut [ScalarDoubling<M>; K]| {
        (0..ScalarDoubling::<M>::STEPS).for_each(|i| step_all(steps, i))
    };
    match mode {
        Mode::Lanes => *lanes = lanes.double(),
        Mode::Scalar => all_steps(&mut steps),
        Mode::Block => {
            *lanes = lanes.double();
            all_steps(&mut steps);
        }
        Mode::Interleaved => *lanes = lanes.double_beside(|i| step_all(&mut steps, i)),
        Mode::PairBlocks => {
            *lanes = lanes.double();
            *pair = pair.double();
        }
        Mode::Pair => {
            let (mut a, mut b) = (Doubling::new(*lanes), Doubling::new(*pair));
            // Written out, so that each step is inlined with its constant number.
            macro_rules! steps {
                ($($i:literal)*) => {$(
                    a.step($i);
                    b.step($i);
                )*};
            }
            steps!(0 1 2 3 4 5 6);
            (*lanes, *pair) = (a.finish(), b.finish());
        }
    }
    if mode.has_scalar() {
        *scalar = steps.map(|s| s.finish());
    }
}

/// `iters` chained doublings of `lanes` and `scalar` (see [`double`]); the mode is a
/// constant inside the loop. The pair modes' second group starts as `lanes` with
/// neighbouring lanes swapped (different points in each lane, so no doubling is the
/// other's copy), and must end as the first group's result swapped the same way: the lanes
/// where it does not come out as garbage (x = 0), which the callers' comparison with the
/// lane doubling alone catches. Returns the second group (unmoved but in the pair modes).
#[inline(always)]
pub(crate) fn run<F: LaneField, M: FieldMul, const K: usize>(
    mode: Mode,
    m: M,
    lanes: &mut Jac8<F>,
    scalar: &mut [Jacobian; K],
    iters: u64,
) -> Jac8<F> {
    let mut pair = swap_neighbours(lanes);
    macro_rules! loop_in {
        ($mode:expr) => {
            for _ in 0..iters {
                double::<F, M, K>($mode, m, lanes, &mut pair, scalar);
            }
        };
    }
    match mode {
        Mode::Lanes => loop_in!(Mode::Lanes),
        Mode::Scalar => loop_in!(Mode::Scalar),
        Mode::Block => loop_in!(Mode::Block),
        Mode::Interleaved => loop_in!(Mode::Interleaved),
        Mode::PairBlocks => loop_in!(Mode::PairBlocks),
        Mode::Pair => loop_in!(Mode::Pair),
    }
    if mode.has_pair() {
        spoil_unless_swapped(lanes, &pair);
    }
    pair
}

/// The points with neighbouring lanes swapped (lane i from lane i ^ 1).
#[inline(always)]
fn swap_neighbours<F: LaneField>(p: &Jac8<F>) -> Jac8<F> {
    Jac8 {
        x: p.x.swap_lanes::<1>(),
        y: p.y.swap_lanes::<1>(),
        z: p.z.swap_lanes::<1>(),
    }
}

/// x = 0 (garbage the callers' comparison catches) in the lanes of `lanes` where `pair`,
/// its neighbours swapped back, differs in any coordinate: the pair modes' check of the
/// second group. The coordinates are compared as they are, not projectively: both groups
/// run the same operations, lane by lane.
#[inline(always)]
fn spoil_unless_swapped<F: LaneField>(lanes: &mut Jac8<F>, pair: &Jac8<F>) {
    let back = swap_neighbours(pair);
    let same = back.x.eq(&lanes.x) & back.y.eq(&lanes.y) & back.z.eq(&lanes.z);
    let zero = F::splat(&crate::secp256k1::field::FieldElement::ZERO);
    lanes.x = F::select(same, &lanes.x, &zero);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::LANES;
    use crate::lanes::field::Fe8;
    use crate::lanes::field29::Fe29;
    use crate::lanes::point::tests::{jac_to_affine, jac8, points, same};
    use crate::lanes::portable::Portable;
    use crate::secp256k1::field::Portable as PortableMul;

    /// Every mode gives the doublings of the scalar core's `Jacobian::double`, on lanes and
    /// scalar points alike, over several chained iterations and both lane fields.
    #[test]
    fn every_mode_doubles_as_the_scalar_core() {
        check::<Fe8<Portable>>();
        check::<Fe29<Portable>>();
    }

    /// The pair modes' check spoils exactly the lanes where the second group differs from
    /// the first, swapped, in any one coordinate.
    #[test]
    fn pair_check_spoils_the_lanes_that_differ() {
        type F = Fe8<Portable>;
        let pts: [Jacobian; LANES] = points(3).map(|a| a.to_jacobian().double());
        let group = jac8::<F>(&pts);
        let one = crate::secp256k1::field::FieldElement::ONE;
        // Lane 0 of the pair (checked against lane 1) off in x, lane 3 (against 2) in y,
        // lane 6 (against 7) in z.
        let off = |c: &F, lane: usize| {
            let mut v = c.to_lanes();
            v[lane] = v[lane].add(&one);
            F::from_lanes(&v)
        };
        let good = swap_neighbours(&group);
        let bad = Jac8 {
            x: off(&good.x, 0),
            y: off(&good.y, 3),
            z: off(&good.z, 6),
        };
        let mut checked = group;
        spoil_unless_swapped(&mut checked, &good);
        assert_eq!(checked.x.eq(&group.x), 0xFF);
        let mut checked = group;
        spoil_unless_swapped(&mut checked, &bad);
        let zero = F::splat(&crate::secp256k1::field::FieldElement::ZERO);
        assert_eq!(checked.x.eq(&zero), 1 << 1 | 1 << 2 | 1 << 7);
        assert_eq!(checked.x.eq(&group.x), !(1 << 1 | 1 << 2 | 1 << 7));
    }

    /// A mode's number is its index in `Mode::ALL`, the C ABI's decoding.
    #[test]
    fn mode_numbers_index_all() {
        for (i, m) in Mode::ALL.into_iter().enumerate() {
            assert_eq!(m as usize, i, "{m:?}");
        }
    }

    fn check<F: LaneField>() {
        for seed in 0..6u64 {
            let lane_pts: [Jacobian; LANES] = points(seed).map(|a| a.to_jacobian().double());
            let scalar_pts: [Jacobian; 2] = {
                let p = points(seed + 50);
                [p[0].to_jacobian().double(), p[1].to_jacobian()]
            };
            let iters = 1 + seed % 3;
            let mut want_lanes = lane_pts;
            let mut want_scalar = scalar_pts;
            for _ in 0..iters {
                want_lanes = want_lanes.map(|p| p.double());
                want_scalar = want_scalar.map(|p| p.double());
            }
            for mode in Mode::ALL {
                let mut lanes = jac8::<F>(&lane_pts);
                let mut scalar = scalar_pts;
                let pair = run(mode, PortableMul, &mut lanes, &mut scalar, iters);
                let got = jac_to_affine(&lanes);
                // The second group: lane i holds lane i ^ 1's points, doubled in the pair
                // modes only.
                let pair_moved = matches!(mode, Mode::PairBlocks | Mode::Pair);
                let got_pair = jac_to_affine(&pair);
                for i in 0..LANES {
                    let from = if pair_moved {
                        want_lanes[i ^ 1]
                    } else {
                        lane_pts[i ^ 1]
                    };
                    assert!(same(&got_pair[i], &from.to_affine()), "{mode:?} pair {i}");
                }
                let lanes_moved = mode != Mode::Scalar;
                for i in 0..LANES {
                    let want = if lanes_moved {
                        want_lanes[i]
                    } else {
                        lane_pts[i]
                    };
                    assert!(same(&got[i], &want.to_affine()), "{mode:?} lane {i}");
                }
                for (j, p) in scalar.iter().enumerate() {
                    // Named here, not by `Mode::has_scalar` (the code under test).
                    let scalar_moved =
                        matches!(mode, Mode::Scalar | Mode::Block | Mode::Interleaved);
                    let want = if scalar_moved {
                        want_scalar[j]
                    } else {
                        scalar_pts[j]
                    };
                    assert!(
                        same(&p.to_affine(), &want.to_affine()),
                        "{mode:?} scalar {j}"
                    );
                }
            }
        }
    }
}
