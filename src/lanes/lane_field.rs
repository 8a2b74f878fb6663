//! The lane field: GF(p) on eight lanes, as a backend provides it.
//!
//! Each multiplier wants its own limbs: IFMA multiplies 52-bit limbs (`field::Fe8`, five
//! per element), `vpmuludq` 32-bit ones (`field29::Fe29`, nine 29-bit limbs). The point
//! formulas, the schedule and the recovery above are written once against this trait, as
//! curve25519-dalek writes its vector point formulas once over its AVX2 and IFMA fields.
//!
//! A field has two forms. `Self` is **reduced**: the only thing multiplied. `Unreduced` is a
//! product whose last carry pass is still pending, which only the linear operations take;
//! they finish it in their own reduction (a field without such a form names `Self`). The
//! linear combinations ([`Linear`]) accept either form and end with one reduction each.

use super::{Backend, GROUPS, LANES};
use crate::secp256k1::field::FieldElement;

/// The members of [`LaneField`] that are the same loop over the limbs in every field, for
/// a field `$field` of `$n` limbs whose element is `$field(limbs)`: selection, lane swaps,
/// the parity and the linear operations. The field's module provides two functions of its
/// own representation that these call: `bias::<B, K>(k)`, limb `k` of the multiple of p
/// added before subtracting `2^K` times an operand, and `reduce::<B>(limbs)`, one carry
/// pass over sums of limbs. A macro, not provided methods: the fields' own arrays (not
/// slices of them) keep every limb in a register inside the AVX-512 entry points (provided
/// methods over `AsRef` slices measured 0.6 % more emulated instructions per signature).
macro_rules! limb_ops {
    ($field:ident, $n:literal) => {
        #[inline(always)]
        fn is_odd(&self) -> u8 {
            let n = self.normalize();
            !B::eq(B::and(n.0[0], B::splat(1)), B::splat(0))
        }

        #[inline(always)]
        fn bias<const K: u32>(k: usize) -> B::V {
            bias::<B, K>(k)
        }

        #[inline(always)]
        fn from_sums(t: [B::V; $n]) -> Self {
            $field(reduce::<B>(t))
        }

        #[inline(always)]
        fn select(mask: u8, a: &Self, b: &Self) -> Self {
            let mut t = a.0;
            for (tk, bk) in t.iter_mut().zip(b.0) {
                *tk = B::select(mask, *tk, bk);
            }
            $field(t)
        }

        #[inline(always)]
        fn swap_lanes<const K: usize>(&self) -> Self {
            let mut t = self.0;
            for tk in t.iter_mut() {
                *tk = B::swap_lanes::<K>(*tk);
            }
            $field(t)
        }

        #[inline(always)]
        fn lin_add(mut t: [B::V; $n], b: [B::V; $n]) -> Self {
            for k in 0..$n {
                t[k] = B::add(t[k], b[k]);
            }
            Self::from_sums(t)
        }

        #[inline(always)]
        fn lin_neg(mut t: [B::V; $n]) -> Self {
            for (k, tk) in t.iter_mut().enumerate() {
                *tk = B::sub(Self::bias::<0>(k), *tk);
            }
            Self::from_sums(t)
        }

        #[inline(always)]
        fn lin_shl<const N: u32>(mut t: [B::V; $n]) -> Self {
            const { assert!(N <= 3) };
            for tk in t.iter_mut() {
                *tk = B::shl::<N>(*tk);
            }
            Self::from_sums(t)
        }

        #[inline(always)]
        fn lin_triple(mut t: [B::V; $n]) -> Self {
            for tk in t.iter_mut() {
                *tk = B::add(B::shl::<1>(*tk), *tk);
            }
            Self::from_sums(t)
        }

        #[inline(always)]
        fn lin_shl_sub<const K: u32>(mut t: [B::V; $n], b: [B::V; $n]) -> Self {
            const { assert!(K <= 3) };
            for k in 0..$n {
                t[k] = B::sub(B::add(B::shl::<K>(t[k]), Self::bias::<0>(k)), b[k]);
            }
            Self::from_sums(t)
        }

        #[inline(always)]
        fn lin_sub_shl<const K: u32>(mut t: [B::V; $n], b: [B::V; $n]) -> Self {
            const { assert!(K <= 3) };
            for k in 0..$n {
                t[k] = B::sub(B::add(t[k], Self::bias::<K>(k)), B::shl::<K>(b[k]));
            }
            Self::from_sums(t)
        }

        #[inline(always)]
        fn lin_neg_sub(mut t: [B::V; $n], b: [B::V; $n]) -> Self {
            for k in 0..$n {
                t[k] = B::sub(B::sub(Self::bias::<1>(k), t[k]), b[k]);
            }
            Self::from_sums(t)
        }

        #[inline(always)]
        fn lin_sub_sub(mut t: [B::V; $n], b: [B::V; $n], c: [B::V; $n]) -> Self {
            for k in 0..$n {
                t[k] = B::sub(B::sub(B::add(t[k], Self::bias::<1>(k)), b[k]), c[k]);
            }
            Self::from_sums(t)
        }

        #[inline(always)]
        fn lin_sub_sub_dbl(mut t: [B::V; $n], b: [B::V; $n], c: [B::V; $n]) -> Self {
            for k in 0..$n {
                t[k] = B::sub(
                    B::sub(B::add(t[k], Self::bias::<2>(k)), b[k]),
                    B::shl::<1>(c[k]),
                );
            }
            Self::from_sums(t)
        }
    };
}
pub(crate) use limb_ops;

/// Eight lanes of GF(p) in a backend's own representation.
///
/// A field implements the arithmetic its multiplier wants (the products, the reduction of
/// a linear combination's limb sums, the bias that keeps a subtraction's limbs positive,
/// normalisation, comparisons) and the one gather of its limbs; everything written the
/// same for every limb count is written here once: the linear operations, selection and
/// lane swaps by [`limb_ops!`], storing the limbs, the lane products and the shared
/// inversion as provided methods. A field knows nothing of points, scalars, tables or
/// recovery.
pub(crate) trait LaneField: Operand<F = Self> + Copy {
    /// The vector backend.
    type B: Backend;
    /// The limbs, limb-major (limb k of every lane in vector k): a reduced or unreduced
    /// element's, or the sums of a linear operation before their reduction.
    type Wide: Copy + AsRef<[<Self::B as Backend>::V]>;
    /// A product before its last carry pass.
    type Unreduced: Operand<F = Self>;
    /// Limbs per element.
    const LIMBS: usize;
    /// Whether a square costs so much less than a product here that a formula pays to
    /// trade a product for a square and a linear operation (the doubling's X·Y², see
    /// `point::Jac8::double`). Measured: 9×29 limbs yes (45 32-bit products against 81),
    /// 5×52 no (30 IFMA against 50, but the square's doubled cross terms and the extra
    /// reduction eat the difference).
    const CHEAP_SQUARES: bool = false;
    /// Whether the doubling runs as a loop over its seven steps (`point::Doubling`), one
    /// field operation a pass on a state in memory, instead of as one straight-line block.
    /// Measured (issue 39, Zen 5): 9×29 limbs yes (an element is nine vectors, a
    /// doubling's values overflow the 32 registers many times, and the block spilled
    /// them badly: 107,796 → 89,786 emulated instructions per signature, 13–14 % less
    /// time); 5×52 no (27,397 → 30,921 instructions, 6 % more time).
    const STEPPED_DOUBLING: bool = false;

    /// Lane i from the element whose limb 0 is at word `idx[i]` of `words` and whose limb k
    /// is [`LANES`]·k words further (the rows [`LaneField::put`] writes).
    fn gather(words: &[u64], idx: <Self::B as Backend>::V) -> Self;

    /// The same constant in every lane.
    #[inline(always)]
    fn splat(c: &FieldElement) -> Self {
        Self::from_words(Self::B::splat4(c.normalize().to_u64x4()))
    }
    /// From four vectors of little-endian 64-bit words (value below 2²⁵⁶ in each lane).
    fn from_words(w: [<Self::B as Backend>::V; 4]) -> Self;
    /// To four vectors of little-endian 64-bit words; requires a canonical value (the
    /// output of [`LaneField::normalize`]).
    fn to_words(self) -> [<Self::B as Backend>::V; 4];

    /// `self · other`.
    fn mul(&self, other: &Self) -> Self;
    /// `self²`.
    fn sqr(&self) -> Self;
    /// `self · other` before its last carry pass, for a linear operation to finish.
    fn mul_unreduced(&self, other: &Self) -> Self::Unreduced;
    /// `self²` before its last carry pass, for a linear operation to finish.
    fn sqr_unreduced(&self) -> Self::Unreduced;

    /// `self · other − 2^K·c` (K ≤ 3): a product and the subtraction after it as one
    /// operation (one reduction; a field may start the product's columns at the
    /// subtraction's terms, as the 5×52 field does).
    #[inline(always)]
    fn mul_sub_shl<const K: u32>(&self, other: &Self, c: &impl Operand<F = Self>) -> Self {
        self.mul_unreduced(other).sub_shl::<K>(c)
    }
    /// `self² − 2^K·c` (1 ≤ K ≤ 3), as [`LaneField::mul_sub_shl`].
    #[inline(always)]
    fn sqr_sub_shl<const K: u32>(&self, c: &impl Operand<F = Self>) -> Self {
        self.sqr_unreduced().sub_shl::<K>(c)
    }
    /// `self² − b − c`, as [`LaneField::mul_sub_shl`].
    #[inline(always)]
    fn sqr_sub_sub(&self, b: &impl Operand<F = Self>, c: &impl Operand<F = Self>) -> Self {
        self.sqr_unreduced().sub_sub(b, c)
    }
    /// `self² − b − 2·c`, as [`LaneField::mul_sub_shl`].
    #[inline(always)]
    fn sqr_sub_sub_dbl(&self, b: &impl Operand<F = Self>, c: &impl Operand<F = Self>) -> Self {
        self.sqr_unreduced().sub_sub_dbl(b, c)
    }

    /// The canonical representative (below p) of every lane.
    fn normalize(&self) -> Self;
    /// Lanes whose element is ≡ 0 (mod p).
    fn is_zero(&self) -> u8;
    /// Lanes whose canonical value is odd.
    fn is_odd(&self) -> u8;

    /// Limb k of the multiple of p that a subtraction of 2^K times an operand adds first,
    /// so that no limb goes negative (each limb at least the operand's bound times 2^K).
    fn bias<const K: u32>(k: usize) -> <Self::B as Backend>::V;
    /// The limb sums of a linear operation (within the bound the field documents) reduced
    /// to an element.
    fn from_sums(t: Self::Wide) -> Self;

    /// Writes the limbs as rows of [`LANES`] words at `at`, `at + LANES`, … of `words`.
    #[inline(always)]
    fn put(&self, words: &mut [u64], at: usize) {
        for (k, limb) in self.wide().as_ref().iter().enumerate() {
            let at = at + k * LANES;
            words[at..at + LANES].copy_from_slice(&Self::B::store(*limb));
        }
    }

    /// Lane i from `a` where bit i of `mask` is set, else from `b`.
    fn select(mask: u8, a: &Self, b: &Self) -> Self;
    /// Lane i from lane `i ^ K` (K = 1, 2 or 4).
    fn swap_lanes<const K: usize>(&self) -> Self;

    // The linear operations, each one pass over the limbs and one reduction
    // ([`LaneField::from_sums`]): every subtraction adds the bias for its factor
    // ([`LaneField::bias`]), so no limb goes negative. Written once, for every limb count,
    // by [`limb_ops!`].

    /// `a + b`.
    fn lin_add(a: Self::Wide, b: Self::Wide) -> Self;
    /// `a − 2^K·b` (K ≤ 3).
    fn lin_sub_shl<const K: u32>(a: Self::Wide, b: Self::Wide) -> Self;
    /// `−a`.
    fn lin_neg(a: Self::Wide) -> Self;
    /// `a · 2^N` (N ≤ 3).
    fn lin_shl<const N: u32>(a: Self::Wide) -> Self;
    /// `3·a`.
    fn lin_triple(a: Self::Wide) -> Self;
    /// `2^K·a − b` (K ≤ 3).
    fn lin_shl_sub<const K: u32>(a: Self::Wide, b: Self::Wide) -> Self;
    /// `−a − b`: a + b is below twice an operand's bound, which the bias for a factor of 2
    /// covers.
    fn lin_neg_sub(a: Self::Wide, b: Self::Wide) -> Self;
    /// `a − b − c`: b + c is below twice an operand's bound, which the bias for a factor of
    /// 2 covers.
    fn lin_sub_sub(a: Self::Wide, b: Self::Wide, c: Self::Wide) -> Self;
    /// `a − b − 2·c`: b + 2c is below three times an operand's bound, which the bias for a
    /// factor of 4 covers.
    fn lin_sub_sub_dbl(a: Self::Wide, b: Self::Wide, c: Self::Wide) -> Self;

    /// Lanes where `self ≡ other`.
    #[inline(always)]
    fn eq(&self, other: &Self) -> u8 {
        self.sub(other).is_zero()
    }

    /// The product of the eight lanes (in every lane) and, in each lane, the product of
    /// the other seven: three multiplication layers across the lanes.
    #[inline(always)]
    fn lane_products(&self) -> (Self, Self) {
        let s1 = self.swap_lanes::<1>();
        let a1 = self.mul(&s1); // z_i · z_{i^1}
        let s2 = a1.swap_lanes::<2>();
        let a2 = a1.mul(&s2); // product of the aligned group of 4
        let e2 = s1.mul(&s2); // product of that group except z_i
        let s4 = a2.swap_lanes::<4>();
        (a2.mul(&s4), e2.mul(&s4)) // all 8 (in every lane); all but z_i
    }

    /// Lane `i` as a scalar element.
    #[inline(always)]
    fn lane(&self, i: usize) -> FieldElement {
        let w = self.normalize().to_words();
        FieldElement::from_u64x4([
            Self::B::store(w[0])[i],
            Self::B::store(w[1])[i],
            Self::B::store(w[2])[i],
            Self::B::store(w[3])[i],
        ])
    }

    /// Inverts every lane of every group of `xs` (at most [`GROUPS`] = [`LANES`]) with one
    /// scalar inversion. In each group, the products across its lanes
    /// ([`LaneField::lane_products`]): its total T, and in each lane the product of the
    /// others. The totals go to the lanes of one more element (T of group k in lane k, 1
    /// in the lanes no group fills), whose own lane products and one safegcd inversion of
    /// their total give every 1/T; then one product per group: a lane's inverse is its
    /// group's 1/T times the product of the group's other lanes. Lanes holding 0 come back
    /// as garbage and must be excluded by the caller's status; they are replaced by 1
    /// first so that the other lanes stay correct.
    #[inline(always)]
    fn invert_groups(xs: &mut [Self]) {
        const { assert!(GROUPS <= LANES) };
        let one = Self::splat(&FieldElement::ONE);
        let mut others = [one; GROUPS];
        let mut totals = one;
        for (k, x) in xs.iter().enumerate() {
            let (all, rest) = Self::select(x.is_zero(), &one, x).lane_products();
            totals = Self::select(1 << k, &all, &totals);
            others[k] = rest;
        }
        if let [x] = xs {
            // One group: its total is the grand total.
            *x = Self::splat(&totals.lane(0).inv()).mul(&others[0]);
            return;
        }
        let (grand, rest) = totals.lane_products();
        let inv = Self::splat(&grand.lane(0).inv()).mul(&rest);
        for (k, x) in xs.iter_mut().enumerate() {
            *x = Self::splat(&inv.lane(k)).mul(&others[k]);
        }
    }

    /// [`LaneField::invert_groups`] on `self` alone, and on `self` with up to [`GROUPS`]
    /// − 1 other groups derived from it (its square, its successors), every lane of every
    /// group against the scalar core's inversion (lanes ≡ 0 skipped).
    #[cfg(test)]
    fn check_invert_groups(&self) {
        let one = Self::splat(&FieldElement::ONE);
        for n in [1, 3, GROUPS] {
            let mut gs = [*self; GROUPS];
            gs[1] = self.sqr();
            for k in 2..n {
                gs[k] = gs[k - 1].add(&one);
            }
            let want = gs.map(|g| g.to_lanes());
            Self::invert_groups(&mut gs[..n]);
            for k in 0..n {
                let got = gs[k].to_lanes();
                for i in 0..LANES {
                    if !want[k][i].normalizes_to_zero() {
                        let (g, w) = (got[i].normalize(), want[k][i].inv().normalize());
                        assert_eq!(g.to_u64x4(), w.to_u64x4(), "{n} groups: group {k} lane {i}");
                    }
                }
            }
        }
    }

    /// From eight scalar elements (lane i = `v[i]`).
    #[cfg(test)]
    fn from_lanes(v: &[FieldElement; LANES]) -> Self {
        let mut w = [[0u64; LANES]; 4];
        for (i, fe) in v.iter().enumerate() {
            let x = fe.to_u64x4();
            for k in 0..4 {
                w[k][i] = x[k];
            }
        }
        Self::from_words(w.map(|a| Self::B::load(&a)))
    }

    /// The canonical value of each lane as a scalar element.
    #[cfg(test)]
    fn to_lanes(self) -> [FieldElement; LANES] {
        let w = self.normalize().to_words().map(Self::B::store);
        core::array::from_fn(|i| FieldElement::from_u64x4([w[0][i], w[1][i], w[2][i], w[3][i]]))
    }
}

/// An operand of the linear operations: a field's reduced or unreduced element.
pub(crate) trait Operand: Copy {
    /// The field.
    type F: LaneField;
    /// The limbs.
    fn wide(&self) -> <Self::F as LaneField>::Wide;
}

/// Linear combinations of reduced and unreduced elements, each with a single reduction at
/// the end (the field's `lin_*` functions).
pub(crate) trait Linear: Operand {
    /// `self + other`.
    #[inline(always)]
    fn add(&self, other: &impl Operand<F = Self::F>) -> Self::F {
        Self::F::lin_add(self.wide(), other.wide())
    }
    /// `self − other`.
    #[inline(always)]
    fn sub(&self, other: &impl Operand<F = Self::F>) -> Self::F {
        Self::F::lin_sub_shl::<0>(self.wide(), other.wide())
    }
    /// `−self`.
    #[inline(always)]
    fn neg(&self) -> Self::F {
        Self::F::lin_neg(self.wide())
    }
    /// `self · 2^N` for N ≤ 3.
    #[inline(always)]
    fn shl<const N: u32>(&self) -> Self::F {
        Self::F::lin_shl::<N>(self.wide())
    }
    /// `3·self`.
    #[inline(always)]
    fn triple(&self) -> Self::F {
        Self::F::lin_triple(self.wide())
    }
    /// `2^K·self − other` (K ≤ 3).
    #[inline(always)]
    fn shl_sub<const K: u32>(&self, other: &impl Operand<F = Self::F>) -> Self::F {
        Self::F::lin_shl_sub::<K>(self.wide(), other.wide())
    }
    /// `self − 2^K·other` (K ≤ 3).
    #[inline(always)]
    fn sub_shl<const K: u32>(&self, other: &impl Operand<F = Self::F>) -> Self::F {
        Self::F::lin_sub_shl::<K>(self.wide(), other.wide())
    }
    /// `−self − other`.
    #[inline(always)]
    fn neg_sub(&self, other: &impl Operand<F = Self::F>) -> Self::F {
        Self::F::lin_neg_sub(self.wide(), other.wide())
    }
    /// `self − b − c`.
    #[inline(always)]
    fn sub_sub(&self, b: &impl Operand<F = Self::F>, c: &impl Operand<F = Self::F>) -> Self::F {
        Self::F::lin_sub_sub(self.wide(), b.wide(), c.wide())
    }
    /// `self − b − 2·c`.
    #[inline(always)]
    fn sub_sub_dbl(&self, b: &impl Operand<F = Self::F>, c: &impl Operand<F = Self::F>) -> Self::F {
        Self::F::lin_sub_sub_dbl(self.wide(), b.wide(), c.wide())
    }
}

impl<T: Operand> Linear for T {}

/// `K` independent elements of eight lanes, multiplied side by side: `K` dependency
/// chains in one instruction stream. A long chain of products such as the square root's
/// (266 of them, each waiting for the last) is bound by the multiply's latency; two chains
/// let the core overlap them.
#[derive(Clone, Copy)]
pub(crate) struct Chains<F: LaneField, const K: usize>(pub [F; K]);

impl<F: LaneField, const K: usize> Chains<F, K> {
    /// Every chain squared.
    #[inline(always)]
    fn sqr(&self) -> Self {
        let mut r = self.0;
        for x in r.iter_mut() {
            *x = x.sqr();
        }
        Chains(r)
    }

    /// Every chain squared `n` times.
    #[inline(always)]
    fn sqr_n(&self, n: u32) -> Self {
        let mut r = *self;
        for _ in 0..n {
            r = r.sqr();
        }
        r
    }

    /// Chain by chain products.
    #[inline(always)]
    fn mul(&self, other: &Self) -> Self {
        let mut r = self.0;
        for (x, y) in r.iter_mut().zip(&other.0) {
            *x = x.mul(y);
        }
        Chains(r)
    }

    /// Square roots: in each chain, r with r² = the element in the lanes of the returned
    /// mask (where it is a square); other lanes hold garbage. Same addition chain as the
    /// scalar `FieldElement::sqrt`: 253 squarings and 13 multiplications.
    #[inline(always)]
    pub fn sqrt(&self) -> (Self, [u8; K]) {
        let a = self;
        let x2 = a.sqr().mul(a);
        let x3 = x2.sqr().mul(a);
        let x6 = x3.sqr_n(3).mul(&x3);
        let x9 = x6.sqr_n(3).mul(&x3);
        let x11 = x9.sqr_n(2).mul(&x2);
        let x22 = x11.sqr_n(11).mul(&x11);
        let x44 = x22.sqr_n(22).mul(&x22);
        let x88 = x44.sqr_n(44).mul(&x44);
        let x176 = x88.sqr_n(88).mul(&x88);
        let x220 = x176.sqr_n(44).mul(&x44);
        let x223 = x220.sqr_n(3).mul(&x3);
        let t = x223.sqr_n(23).mul(&x22);
        let t = t.sqr_n(6).mul(&x2);
        let r = t.sqr_n(2);
        let back = r.sqr();
        let mut ok = [0u8; K];
        for ((o, b), x) in ok.iter_mut().zip(&back.0).zip(&a.0) {
            *o = b.eq(x);
        }
        (r, ok)
    }
}
