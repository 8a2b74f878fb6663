//! The per-lane schedule of the Strauss loop: which entry of the joint digits' table
//! (`super::table`) and which static G entry each column adds, in each lane.
//!
//! u₂'s GLV halves are recoded jointly as one Eisenstein integer
//! (`crate::secp256k1::eisenstein`): one digit per 3 bits, each a unit times one of 11
//! table entries, so every column is one addition from one table, the same in every lane.
//! The first step (from the halves' magnitude and sign) and the last (the remainder must be
//! a digit) are scalar, per lane; the 41 steps between run eight lanes at a time here, each
//! step a gather from a 64-entry table of packed digits and a few shifts. u₁'s halves keep
//! their signed odd windows over the static G tables (`crate::secp256k1::recode`).

use super::lane_field::LaneField;
use super::table::offset;
use super::{Backend, LANES};
use crate::secp256k1::eisenstein::{COLUMNS, Digit, RESIDUES, first_digit, top_digit};
use crate::secp256k1::glv;
use crate::secp256k1::recode::{G_DIGITS, recode_g};
use crate::secp256k1::scalar::Scalar;

/// Per-lane digits, column-major.
pub(crate) struct Schedule {
    /// Word offset in the joint digits' table (`super::table::LaneTable`) of limb 0 of
    /// the joint digit's x (β^rot·x), lane included, per column and lane.
    pub r_x: [[u64; LANES]; COLUMNS],
    /// The same for the digit's y (the entry's y, or −y where the digit is negative).
    pub r_y: [[u64; LANES]; COLUMNS],
    /// Lanes whose joint digit is not zero (the others skip the column), per column.
    pub r_live: [u8; COLUMNS],
    /// Table index of the G and 2¹²⁸G digits.
    pub g_idx: [[[u64; LANES]; G_DIGITS]; 2],
    /// Lanes whose G / 2¹²⁸G digit is negative, per column.
    pub g_neg: [[u8; G_DIGITS]; 2],
    /// Lanes whose u₁ was even: their G digits are those of −u₁ and their joint digits
    /// those of −u₂, so the loop computes −Q there and the caller negates it.
    pub flip: u8,
    /// Lanes that must go to the scalar path.
    pub retry: u8,
}

/// A joint digit packed for the lanes of a table of `limbs`-limb elements: bits 0..16 the
/// offset of its x in the table (lane 0), 16..32 that of its y (−y for a negative
/// digit), bit 33 non-zero, bits 40..48 and 48..56 the digit's a and b as 16 − a, 16 − b
/// (so that the update adds, never subtracts).
const fn pack(d: Option<Digit>, limbs: usize) -> u64 {
    let (d, live) = match d {
        Some(d) => (d, 1),
        // A zero digit reads entry 0 and is not added.
        None => (
            Digit {
                entry: 0,
                rot: 0,
                neg: false,
            },
            0,
        ),
    };
    let (a, b) = if live == 1 { d.value() } else { (0, 0) };
    offset(d.entry, d.rot, limbs)
        | offset(d.entry, 3 + d.neg as u8, limbs) << 16
        | live << 33
        | ((16 - a) as u64) << 40
        | ((16 - b) as u64) << 48
}

/// [`RESIDUES`] packed for a table of `limbs`-limb elements, as the bytes
/// [`Backend::gather`] reads.
const fn packed(limbs: usize) -> [u8; 64 * 8] {
    let mut out = [0u8; 64 * 8];
    let mut c = 0;
    while c < 64 {
        let w = pack(RESIDUES[c], limbs).to_le_bytes();
        let mut i = 0;
        while i < 8 {
            out[c * 8 + i] = w[i];
            i += 1;
        }
        c += 1;
    }
    out
}

/// The packed digits of field `F`'s table.
struct Digits<F>(core::marker::PhantomData<F>);

impl<F: LaneField> Digits<F> {
    /// [`RESIDUES`] packed for elements of `F::LIMBS` limbs.
    const PACKED: [u8; 64 * 8] = packed(F::LIMBS);
}

/// 2⁶² − 1: the low part of a lane's a or b as hi·2⁶² + lo, lo in [0, 2⁶²] (a and b are
/// below 2¹²⁵ in magnitude after column 0, so hi fits in an i64).
const LOW62: u64 = (1 << 62) - 1;

impl Schedule {
    /// The schedule of u₁·G + u₂·R in every lane (of −(u₁·G + u₂·R) in the lanes of
    /// [`Schedule::flip`]); lanes whose recoding fails (never seen, and excluded by the
    /// bounds of `eisenstein` and `glv`) are marked for retry.
    #[inline(always)]
    pub(crate) fn new<F: LaneField>(u1: &[Scalar; LANES], u2: &[Scalar; LANES]) -> Self {
        Self::new_on::<F::B>(u1, u2, &Digits::<F>::PACKED, F::LIMBS)
    }

    /// [`Schedule::new`] on backend `B` for a table of `limbs`-limb elements whose digits
    /// are packed in `digits` ([`packed`]).
    #[inline(always)]
    fn new_on<B: Backend>(
        u1: &[Scalar; LANES],
        u2: &[Scalar; LANES],
        digits: &[u8; 64 * 8],
        limbs: usize,
    ) -> Self {
        let mut s = Schedule {
            r_x: [[0; LANES]; COLUMNS],
            r_y: [[0; LANES]; COLUMNS],
            r_live: [0; COLUMNS],
            g_idx: [[[0; LANES]; G_DIGITS]; 2],
            g_neg: [[0; G_DIGITS]; 2],
            flip: 0,
            retry: 0,
        };
        // (a, b) after column 0, each as hi·2⁶² + lo.
        let (hi, lo) = s.start_lanes(u1, u2, limbs);
        // Columns 1 ..= COLUMNS − 2, eight lanes a step: the digit of (a mod 8, b mod 8),
        // then a ← (a − d)/8 on hi·2⁶² + lo: lo ← (lo + 16 − d)/8 − 2 + (hi mod 8)·2⁵⁹
        // (exact: lo − d ≡ 0 mod 8), hi ← hi >> 3 (arithmetic), which keeps lo in
        // [0, 2⁶²] and never goes below zero on the way.
        let lane_ids = B::load(&[0, 1, 2, 3, 4, 5, 6, 7]);
        let [mut ahi, mut bhi] = [B::load(&hi[0]), B::load(&hi[1])];
        let [mut alo, mut blo] = [B::load(&lo[0]), B::load(&lo[1])];
        let (seven, m16, m8, zero) = (B::splat(7), B::splat(0xFFFF), B::splat(0xFF), B::splat(0));
        let two = B::splat(2);
        for col in 1..COLUMNS - 1 {
            let class = B::or(B::shl::<3>(B::and(alo, seven)), B::and(blo, seven));
            let rec = B::gather(digits, class);
            s.r_x[col] = B::store(B::add(B::and(rec, m16), lane_ids));
            s.r_y[col] = B::store(B::add(B::and(B::shr::<16>(rec), m16), lane_ids));
            s.r_live[col] = !B::eq(B::and(rec, B::splat(1 << 33)), zero);
            let da = B::and(B::shr::<40>(rec), m8);
            let db = B::and(B::shr::<48>(rec), m8);
            alo = B::sub(
                B::add(
                    B::shr::<3>(B::add(alo, da)),
                    B::shl::<59>(B::and(ahi, seven)),
                ),
                two,
            );
            blo = B::sub(
                B::add(
                    B::shr::<3>(B::add(blo, db)),
                    B::shl::<59>(B::and(bhi, seven)),
                ),
                two,
            );
            ahi = B::sra::<3>(ahi);
            bhi = B::sra::<3>(bhi);
        }
        // The remainder is the last digit.
        let (ahi, alo, bhi, blo) = (B::store(ahi), B::store(alo), B::store(bhi), B::store(blo));
        s.finish_lanes([ahi, bhi], [alo, blo], limbs);
        s
    }

    /// The scalar first step of every lane: u₂'s GLV halves and their joint digit of
    /// column 0, u₁'s G windows; returns (a, b) after column 0 as hi·2⁶² + lo. Not generic
    /// and not inlined: one copy serves every field's engine, with its callees (the GLV
    /// split's rounding, the window recoding) inlined into it, as they were when one engine
    /// alone called them.
    #[inline(never)]
    fn start_lanes(
        &mut self,
        u1: &[Scalar; LANES],
        u2: &[Scalar; LANES],
        limbs: usize,
    ) -> ([[u64; LANES]; 2], [[u64; LANES]; 2]) {
        let s = self;
        let mut hi = [[0u64; LANES]; 2];
        let mut lo = [[0u64; LANES]; 2];
        for lane in 0..LANES {
            let bit = 1u8 << lane;
            let Some((g, flip)) = recode_g(&u1[lane]) else {
                s.retry |= bit;
                continue;
            };
            let u2 = if flip { u2[lane].negate() } else { u2[lane] };
            let Some((k1, k2)) = glv::split_lambda_halves(&u2) else {
                s.retry |= bit;
                continue;
            };
            if flip {
                s.flip |= bit;
            }
            let (d0, a, b) = first_digit(k1, k2);
            s.set(0, lane, d0, limbs);
            for (h, v) in [a, b].into_iter().enumerate() {
                hi[h][lane] = (v >> 62) as i64 as u64;
                lo[h][lane] = (v & LOW62 as i128) as u64;
            }
            for (h, half) in g.iter().enumerate() {
                for (col, &d) in half.iter().enumerate() {
                    s.g_idx[h][col][lane] = (d.unsigned_abs() >> 1) as u64;
                    if d < 0 {
                        s.g_neg[h][col] |= bit;
                    }
                }
            }
        }
        (hi, lo)
    }

    /// The scalar last step of every lane: the remainder (a, b), given as hi·2⁶² + lo, is
    /// the top column's digit (or the lane is marked for retry). Not generic and not
    /// inlined, as [`Schedule::start_lanes`].
    #[inline(never)]
    fn finish_lanes(&mut self, hi: [[u64; LANES]; 2], lo: [[u64; LANES]; 2], limbs: usize) {
        for lane in 0..LANES {
            let join = |h: u64, l: u64| ((h as i64 as i128) << 62) + l as i128;
            match top_digit(
                join(hi[0][lane], lo[0][lane]),
                join(hi[1][lane], lo[1][lane]),
            ) {
                Some(d) => self.set(COLUMNS - 1, lane, d, limbs),
                None => self.retry |= 1 << lane,
            }
        }
    }

    /// Writes one lane's joint digit of column `col` (for a table of `limbs`-limb elements).
    #[inline(always)]
    fn set(&mut self, col: usize, lane: usize, d: Option<Digit>, limbs: usize) {
        let p = pack(d, limbs);
        let bit = 1u8 << lane;
        self.r_x[col][lane] = (p & 0xFFFF) + lane as u64;
        self.r_y[col][lane] = (p >> 16 & 0xFFFF) + lane as u64;
        self.r_live[col] = (self.r_live[col] & !bit) | (((p >> 33) & 1) as u8) << lane;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::field::Fe8;
    use crate::lanes::field29::Fe29;
    use crate::lanes::portable::Portable;
    use crate::secp256k1::eisenstein;
    use crate::test_support::rng::splitmix64;

    /// The lanes' schedule against the scalar recoding, digit by digit, on random scalars
    /// and on the largest halves the GLV rounding gives, for the tables of both lane
    /// fields (5 and 9 limbs). The expected offsets are written out from the table's
    /// layout (word ((e·5 + c)·L + k)·8 + lane), not taken from [`pack`].
    #[test]
    fn lanes_recoding_matches_scalar_recoding() {
        let mut s = 0x5c4e_u64;
        let mut scalars = vec![Scalar::ONE, Scalar::ONE.negate()];
        scalars.extend(eisenstein::tests::largest_half_scalars(200, 11));
        while scalars.len() < 4000 {
            let w = [0; 4].map(|_: u64| splitmix64(&mut s));
            scalars.push(Scalar::from_bytes_reduced(
                &Scalar::from_words(w).to_bytes(),
            ));
        }
        for group in scalars.chunks_exact(LANES) {
            let u: [Scalar; LANES] = group.try_into().unwrap();
            let scheds = [
                (5, Schedule::new::<Fe8<Portable>>(&u, &u)),
                (9, Schedule::new::<Fe29<Portable>>(&u, &u)),
            ];
            for (lane, ul) in u.iter().enumerate() {
                // u₂ = u₁ here; where u₁ is even the joint digits are those of −u₂.
                let (g, flip) = recode_g(ul).unwrap();
                let u2 = if flip { ul.negate() } else { *ul };
                let (k1, k2) = glv::split_lambda_halves(&u2).unwrap();
                let want = eisenstein::recode(k1, k2).unwrap();
                for (limbs, sched) in &scheds {
                    assert_eq!(sched.retry, 0);
                    for (col, d) in want.iter().enumerate() {
                        // A zero digit reads entry 0 (x unrotated) and is not added.
                        let (entry, rot, neg) = match d {
                            Some(d) => (d.entry as u64, d.rot as u64, d.neg),
                            None => (0, 0, false),
                        };
                        let at = |c: u64| (entry * 5 + c) * limbs * LANES as u64 + lane as u64;
                        let what = format!("{limbs} limbs, column {col}, lane {lane}");
                        assert_eq!(sched.r_x[col][lane], at(rot), "{what}");
                        // y, or −y (coordinate 4) for a negative digit.
                        assert_eq!(sched.r_y[col][lane], at(3 + u64::from(neg)), "{what}");
                        assert_eq!(sched.r_live[col] >> lane & 1, u8::from(d.is_some()));
                    }
                    // u₁'s G windows: odd digits ±(2i + 1) read entry i of the G tables.
                    for (h, half) in g.iter().enumerate() {
                        for (col, &d) in half.iter().enumerate() {
                            assert_eq!(d % 2, if d < 0 { -1 } else { 1 });
                            let i = (d.unsigned_abs() as u64 - 1) / 2;
                            assert_eq!(sched.g_idx[h][col][lane], i, "G half {h}, column {col}");
                            assert_eq!(sched.g_neg[h][col] >> lane & 1, u8::from(d < 0));
                        }
                    }
                    assert_eq!(sched.flip >> lane & 1, u8::from(flip));
                }
            }
        }
    }
}
