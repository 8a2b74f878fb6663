//! What the recovery (`super::recover`) needs of a lane field beyond its arithmetic, for
//! each field: the storage of its joint digits' table (`super::table`, sized by the
//! field's limbs), and where the recovery's scalars u₁ = −m·r⁻¹ and u₂ = s·r⁻¹ (mod n) are
//! computed, a choice of each field's backend: the IFMA backend multiplies scalars on its
//! own lanes (`super::scalar::Sc8`, Montgomery form), the `vpmuludq` backend on the scalar
//! core. A field itself knows nothing of either.

use super::field::Fe8;
use super::field29::Fe29;
use super::lane_field::LaneField;
use super::records::{Input8, load4};
use super::scalar::{R2, Sc8};
use super::table;
use super::{GROUPS, Ifma, LANES, Mul32};
use crate::secp256k1::batch_inv::invert_chain_in;
use crate::secp256k1::group::G;
use crate::secp256k1::scalar::Scalar;

/// A lane field as the recovery uses it.
pub(crate) trait RecoveryField: LaneField {
    /// Storage for one group's joint digits' table: [`table::words`]`(LIMBS)` words.
    type TableWords: AsRef<[u64]> + AsMut<[u64]>;

    /// Zeroed storage for a table.
    fn table_words() -> Self::TableWords;

    /// u₁ = −m·r⁻¹ and u₂ = s·r⁻¹ mod n for every lane of the groups `inps` (at most
    /// [`GROUPS`]) into `u1[k]`, `u2[k]` (r = the dummy's Gx, s = 2, m = 1 in the lanes a
    /// group's `valid` leaves clear), with one inversion for all their r.
    fn recovery_scalars(inps: &[Input8], u1: &mut [[Scalar; LANES]], u2: &mut [[Scalar; LANES]]);
}

impl<B: Ifma> RecoveryField for Fe8<B> {
    type TableWords = [u64; table::words(5)];

    #[inline(always)]
    fn table_words() -> Self::TableWords {
        const { assert!(Self::LIMBS == 5) };
        [0; table::words(5)]
    }

    /// On IFMA lanes: r⁻¹ in Montgomery form (R = 2²⁶⁰) by a product tree across each
    /// group's lanes and one safegcd inversion for all groups (`Sc8::invert_groups_mont`),
    /// then u₁ and u₂ as Montgomery products.
    #[inline(always)]
    fn recovery_scalars(inps: &[Input8], u1: &mut [[Scalar; LANES]], u2: &mut [[Scalar; LANES]]) {
        let dummy_r = Sc8::<B>::splat(&Scalar::from_words(G.x.normalize().to_u64x4()));
        let one = Sc8::<B>::splat(&Scalar::ONE);
        let two = Sc8::<B>::splat(&Scalar::from_words([2, 0, 0, 0]));
        let r2 = Sc8::splat(&R2);
        let mut rinv = [one; GROUPS];
        for (k, inp) in inps.iter().enumerate() {
            let r = Sc8::select(
                inp.valid as u8,
                &Sc8::from_words(load4::<B>(&inp.r)),
                &dummy_r,
            );
            rinv[k] = r.mont_mul(&r2);
        }
        Sc8::invert_groups_mont(&mut rinv[..inps.len()]);
        for (k, inp) in inps.iter().enumerate() {
            let valid = inp.valid as u8;
            let s = Sc8::select(valid, &Sc8::from_words(load4::<B>(&inp.s)), &two);
            let m = Sc8::select(valid, &Sc8::from_words(load4::<B>(&inp.m)), &one);
            u2[k] = s.mont_mul(&rinv[k]).to_lanes();
            u1[k] = m.mont_mul(&rinv[k]).neg().to_lanes();
        }
    }
}

impl<B: Mul32> RecoveryField for Fe29<B> {
    type TableWords = [u64; table::words(9)];

    #[inline(always)]
    fn table_words() -> Self::TableWords {
        const { assert!(Self::LIMBS == 9) };
        [0; table::words(9)]
    }

    /// On the scalar core, lane by lane: every r⁻¹ of the groups by one shared inversion
    /// (Montgomery's trick: about three products per lane and one safegcd inversion), then
    /// u₁ and u₂: two scalar products per lane (not timed on their own; the whole group is,
    /// in `doc/benchmarks.md`, issue 25).
    #[inline(always)]
    fn recovery_scalars(inps: &[Input8], u1: &mut [[Scalar; LANES]], u2: &mut [[Scalar; LANES]]) {
        let dummy_r = Scalar::from_words(G.x.normalize().to_u64x4());
        let word = |v: &[[u64; LANES]; 4], i: usize| [v[0][i], v[1][i], v[2][i], v[3][i]];
        let valid = |k: usize, i: usize| inps[k].valid >> i & 1 == 1;
        let n = inps.len() * LANES;
        let mut rinv = [dummy_r; GROUPS * LANES];
        for (k, inp) in inps.iter().enumerate() {
            for i in (0..LANES).filter(|&i| valid(k, i)) {
                rinv[k * LANES + i] = Scalar::from_words(word(&inp.r, i));
            }
        }
        let mut scratch = [Scalar::ONE; GROUPS * LANES];
        invert_chain_in(&mut rinv[..n], &mut scratch);
        for (k, inp) in inps.iter().enumerate() {
            for i in 0..LANES {
                let (s, m) = if valid(k, i) {
                    (
                        Scalar::from_words(word(&inp.s, i)),
                        Scalar::from_words(word(&inp.m, i)),
                    )
                } else {
                    (Scalar::from_words([2, 0, 0, 0]), Scalar::ONE)
                };
                u2[k][i] = s.mul(&rinv[k * LANES + i]);
                u1[k][i] = m.mul(&rinv[k * LANES + i]).negate();
            }
        }
    }
}
