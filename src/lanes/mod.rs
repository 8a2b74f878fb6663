//! The 8-lane engine: one generic algorithm over a small vector backend.
//!
//! Every lane algorithm in this module tree (field mod p, scalars mod n, points, the
//! recovery core, Keccak-f\[1600\]) is written once, generic over [`Backend`], whose
//! vectors hold eight 64-bit lanes. Two backends implement it with identical lane
//! semantics:
//!
//! - [`portable::Portable`]: plain `[u64; 8]` arrays, compiled for every target; the tests
//!   run the whole engine through it on every machine.
//! - `avx512::Avx512` (x86-64): one AVX-512 intrinsic (or two) per operation, including
//!   the IFMA 52-bit multiply-adds. It is only instantiated inside functions compiled with
//!   the AVX-512 target features, which are only called after a runtime CPU check
//!   (see `crate::dispatch`).
//!
//! This mirrors curve25519-dalek's split of `backend/serial` and `backend/vector`: the
//! intrinsics layer is small enough to review in one sitting, and everything above it is
//! tested through the portable backend.

pub(crate) mod field;
pub(crate) mod field29;
#[cfg(any(test, feature = "emu"))]
pub(crate) mod hybrid;
pub(crate) mod keccak;
pub(crate) mod lane_field;
pub(crate) mod p256;
pub(crate) mod point;
pub(crate) mod portable;
pub(crate) mod records;
pub(crate) mod recover;
pub(crate) mod recovery_field;
pub(crate) mod scalar;
pub(crate) mod schedule;
pub(crate) mod table;

#[cfg(all(target_arch = "x86_64", any(test, feature = "emu")))]
pub(crate) mod abi;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;

/// Number of lanes.
pub const LANES: usize = 8;

/// The most groups of eight lanes whose inversions are shared: one call of
/// `recover::recover_groups` takes up to this many, and inverts r and the keys' Z of all
/// their lanes with one safegcd inversion each (`lane_field::LaneField::invert_groups`).
pub(crate) const GROUPS: usize = 8;

/// Eight 64-bit lanes and the operations the lane algorithms need.
///
/// All arithmetic is lane-wise and wrapping. Masks are `u8`, bit i for lane i.
pub(crate) trait Backend: Copy {
    /// A vector of eight `u64` lanes.
    type V: Copy;

    /// Whether the lane fields' products and reductions run as calls of one out-of-line
    /// copy each instead of inline. The SIMD backends inline everything (the lane
    /// algorithms are `#[inline(always)]` down to the intrinsics, so that they compile
    /// inside the entry points' `#[target_feature]` functions). The portable backend, whose
    /// operations are calls, sets it: inlined, a whole recovery's products became one
    /// function of about 10⁵ calls, which LLVM's machine-code sinking (quadratic in the uses
    /// of a register) took over a quarter of an hour to compile at `opt-level = 3`. The
    /// branch on it is on a constant, resolved when the code is generated.
    const OUTLINE: bool = false;

    /// All lanes `x`.
    fn splat(x: u64) -> Self::V;
    /// Four vectors, each with one of the words `w` in all its lanes.
    #[inline(always)]
    fn splat4(w: [u64; 4]) -> [Self::V; 4] {
        [
            Self::splat(w[0]),
            Self::splat(w[1]),
            Self::splat(w[2]),
            Self::splat(w[3]),
        ]
    }
    /// Lane i from `a[i]`.
    fn load(a: &[u64; LANES]) -> Self::V;
    /// The lanes as an array.
    fn store(v: Self::V) -> [u64; LANES];

    /// `a + b`.
    fn add(a: Self::V, b: Self::V) -> Self::V;
    /// `a − b`.
    fn sub(a: Self::V, b: Self::V) -> Self::V;
    /// `a & b`.
    fn and(a: Self::V, b: Self::V) -> Self::V;
    /// `a | b`.
    fn or(a: Self::V, b: Self::V) -> Self::V;
    /// `a ^ b`.
    fn xor(a: Self::V, b: Self::V) -> Self::V;
    /// `a ^ b ^ c`.
    fn xor3(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// `a ^ (!b & c)`, Keccak's χ.
    fn xor_andn(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// `a >> N` (logical).
    fn shr<const N: u32>(a: Self::V) -> Self::V;
    /// `a >> N` (arithmetic: each lane read as an `i64`).
    fn sra<const N: u32>(a: Self::V) -> Self::V;
    /// `a << N`.
    fn shl<const N: u32>(a: Self::V) -> Self::V;
    /// `a` rotated left by `N`.
    fn rotl<const N: i32>(a: Self::V) -> Self::V;
    /// Byte-reverses each lane.
    fn bswap(a: Self::V) -> Self::V;

    /// Mask of the lanes where `a == b`.
    fn eq(a: Self::V, b: Self::V) -> u8;
    /// Lane i from `a` where bit i of `mask` is set, else from `b`.
    fn select(mask: u8, a: Self::V, b: Self::V) -> Self::V;
    /// Lane i from lane `i ^ K` of `a` (K = 1, 2 or 4).
    fn swap_lanes<const K: usize>(a: Self::V) -> Self::V;

    /// Lane i from the little-endian 64-bit word `idx[i]` of `table`. Indices past the end
    /// are clamped to the last word, so the read is always in bounds.
    fn gather(table: &[u8], idx: Self::V) -> Self::V;
    /// Five rows at stride [`LANES`]: vector k holds, in lane i, `table[idx[i] + k·LANES]`
    /// (the five limbs of a lane's field element in a word-major table). Indices are
    /// clamped so that every read is inside `table` (which must hold at least 5·LANES
    /// words).
    fn gather_limbs(table: &[u64], idx: Self::V) -> [Self::V; 5];
}

/// A backend with the IFMA 52-bit multiply-adds: the multiplier of the 5×52 field
/// (`field::Fe8`) and of the scalars mod n (`scalar::Sc8`).
pub(crate) trait Ifma: Backend {
    /// `acc + lo52(lo52(a) · lo52(b))`: the low 52 bits of the 104-bit product of the low
    /// 52 bits of `a` and `b`, added to `acc` (AVX-512 IFMA `vpmadd52luq`). The bits of `a`
    /// and `b` above 52 are ignored: the 5×52 field's limbs carry there what they have
    /// already passed on to the next limb (`field::Fe8`).
    fn madd52lo(acc: Self::V, a: Self::V, b: Self::V) -> Self::V;
    /// `acc + hi52(lo52(a) · lo52(b))`: bits 52..104 of that product (`vpmadd52huq`).
    fn madd52hi(acc: Self::V, a: Self::V, b: Self::V) -> Self::V;
}

/// A backend with the 32 × 32 → 64-bit lane multiply (`vpmuludq`, AVX-512 F and AVX2): the
/// multiplier of the 9×29 field (`field29::Fe29`).
pub(crate) trait Mul32: Backend {
    /// `lo32(a) · lo32(b)`, the full 64-bit product of the low 32 bits of each lane.
    fn mul32(a: Self::V, b: Self::V) -> Self::V;
    /// Nine rows at stride [`LANES`], as [`Backend::gather_limbs`] does five: the nine
    /// limbs of a lane's 9×29 element in a word-major table. Indices are clamped so that
    /// every read is inside `table` (which must hold at least 9·LANES words).
    fn gather_limbs9(table: &[u64], idx: Self::V) -> [Self::V; 9];
}
