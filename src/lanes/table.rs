//! The table of the joint digits (`super::schedule`): the 11 small combinations of R and
//! λR with their images under ω, ω² and their negatives, laid out for gathers.
//!
//! Word ((e·5 + c)·L + k)·8 + lane holds limb k (of the field's L) of coordinate c of entry
//! e in that lane, c = 0, 1, 2 for x, βx, β²x (the entry times 1, ω, ω²), 3 for y and 4 for
//! −y (a negative digit's y: the negation is made once here, not at every addition). The
//! schedule packs each column's word offsets ([`offset`]); the storage is the caller's,
//! [`words`] long for its field.

use super::lane_field::{LaneField, Linear};
use super::point::Aff8;
use super::{Backend, LANES};
use crate::secp256k1::eisenstein::ENTRIES;
use crate::secp256k1::field::FieldElement;

/// Entries of the table.
pub(crate) const TABLE: usize = ENTRIES.len();
/// Coordinates per entry: x, βx, β²x, y and −y.
pub(crate) const COORDS: usize = 5;

/// Words of a table of `limbs`-limb elements.
pub(crate) const fn words(limbs: usize) -> usize {
    TABLE * COORDS * limbs * LANES
}

/// Offset of limb 0 of coordinate `c` of `entry`, lane 0, in a table of `limbs`-limb
/// elements.
pub(crate) const fn offset(entry: u8, c: u8, limbs: usize) -> u64 {
    ((entry as usize * COORDS + c as usize) * limbs * LANES) as u64
}

/// The table of one group, in storage `W` of [`words`]`(F::LIMBS)` words.
pub(crate) struct LaneTable<F: LaneField, W> {
    words: W,
    field: core::marker::PhantomData<F>,
}

impl<F: LaneField, W: AsRef<[u64]> + AsMut<[u64]>> LaneTable<F, W> {
    /// The table of the affine points `pts` (in every lane), with their images under ω
    /// and ω² (β²x = −x − βx) and their negatives, written into `words`.
    #[inline(always)]
    pub(crate) fn new(mut words: W, pts: &[Aff8<F>; TABLE]) -> Self {
        debug_assert!(words.as_ref().len() >= self::words(F::LIMBS));
        let beta = F::splat(&FieldElement::BETA);
        for (e, p) in pts.iter().enumerate() {
            let bx = p.x.mul(&beta);
            let b2x = p.x.neg_sub(&bx);
            for (c, coord) in [p.x, bx, b2x, p.y, p.y.neg()].iter().enumerate() {
                coord.put(words.as_mut(), (e * COORDS + c) * F::LIMBS * LANES);
            }
        }
        LaneTable {
            words,
            field: core::marker::PhantomData,
        }
    }

    /// The entries at the word offsets `x` and `y` ([`offset`], lane included) in every
    /// lane: a column's joint digit.
    #[inline(always)]
    pub(crate) fn digit(&self, x: &[u64; LANES], y: &[u64; LANES]) -> Aff8<F> {
        Aff8 {
            x: F::gather(self.words.as_ref(), F::B::load(x)),
            y: F::gather(self.words.as_ref(), F::B::load(y)),
        }
    }
}
