//! The AVX-512 lane backend: one `__m512i` per vector; IFMA for the 5×52 field's
//! multiplies ([`Ifma`], the avx512-ifma engine), `vpmuludq` for the 9×29 field's
//! ([`Mul32`], AVX-512 F alone: the avx512f engine).
//!
//! Every operation is an `#[inline(always)]` wrapper around one or two intrinsics. They
//! carry no `#[target_feature]` themselves; they are only ever inlined into the entry
//! points in `crate::lanes::recover` and `crate::keccak::batch`, which are compiled with
//! [`FEATURES`] (the avx512f engine's and the 8-way Keccak's with AVX-512 F and BW alone)
//! and only called after `crate::dispatch` has confirmed the CPU supports them. Only
//! AVX-512 F, BW and IFMA are used (all of which the BochsCPU emulator in `../shared/emu`
//! implements).

use super::{Backend, Ifma, LANES, Mul32};
use core::arch::x86_64::*;

/// The target features the avx512-ifma entry points are compiled with, as a string for
/// `#[target_feature(enable = ...)]`.
#[allow(dead_code)]
pub(crate) const FEATURES: &str = "avx512f,avx512bw,avx512ifma";

/// Eight lanes in one ZMM register.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512;

// SAFETY (for every `unsafe` block in this impl): the intrinsics need AVX-512 F (and BW or
// IFMA where noted); these functions are only inlined into `#[target_feature]` entry points
// that the dispatcher calls after checking those CPU features.
impl Backend for Avx512 {
    type V = __m512i;

    #[inline(always)]
    fn splat(x: u64) -> Self::V {
        // SAFETY: AVX-512 F, see the impl-level note.
        unsafe { _mm512_set1_epi64(x as i64) }
    }
    #[inline(always)]
    fn load(a: &[u64; LANES]) -> Self::V {
        // SAFETY: AVX-512 F; `a` is 64 readable bytes (unaligned load).
        unsafe { _mm512_loadu_si512(a.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(v: Self::V) -> [u64; LANES] {
        let mut out = [0u64; LANES];
        // SAFETY: AVX-512 F; `out` is 64 writable bytes (unaligned store).
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) };
        out
    }
    #[inline(always)]
    fn add(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: AVX-512 F, see the impl-level note.
        unsafe { _mm512_add_epi64(a, b) }
    }
    #[inline(always)]
    fn sub(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: AVX-512 F, see the impl-level note.
        unsafe { _mm512_sub_epi64(a, b) }
    }
    #[inline(always)]
    fn and(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: AVX-512 F, see the impl-level note.
        unsafe { _mm512_and_si512(a, b) }
    }
    #[inline(always)]
    fn or(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: AVX-512 F, see the impl-level note.
        unsafe { _mm512_or_si512(a, b) }
    }
    #[inline(always)]
    fn xor(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: AVX-512 F, see the impl-level note.
        unsafe { _mm512_xor_si512(a, b) }
    }
    #[inline(always)]
    fn xor3(a: Self::V, b: Self::V, c: Self::V) -> Self::V {
        // SAFETY: AVX-512 F (vpternlogq, truth table 0x96 = a ^ b ^ c).
        unsafe { _mm512_ternarylogic_epi64::<0x96>(a, b, c) }
    }
    #[inline(always)]
    fn xor_andn(a: Self::V, b: Self::V, c: Self::V) -> Self::V {
        // SAFETY: AVX-512 F (vpternlogq, truth table 0xD2 = a ^ (!b & c)).
        unsafe { _mm512_ternarylogic_epi64::<0xD2>(a, b, c) }
    }
    #[inline(always)]
    fn shr<const N: u32>(a: Self::V) -> Self::V {
        // SAFETY: AVX-512 F, see the impl-level note.
        unsafe { _mm512_srli_epi64::<N>(a) }
    }
    #[inline(always)]
    fn sra<const N: u32>(a: Self::V) -> Self::V {
        // SAFETY: AVX-512 F, see the impl-level note.
        unsafe { _mm512_srai_epi64::<N>(a) }
    }
    #[inline(always)]
    fn shl<const N: u32>(a: Self::V) -> Self::V {
        // SAFETY: AVX-512 F, see the impl-level note.
        unsafe { _mm512_slli_epi64::<N>(a) }
    }
    #[inline(always)]
    fn rotl<const N: i32>(a: Self::V) -> Self::V {
        // SAFETY: AVX-512 F (vprolq), see the impl-level note.
        unsafe { _mm512_rol_epi64::<N>(a) }
    }
    #[inline(always)]
    fn bswap(a: Self::V) -> Self::V {
        // SAFETY: AVX-512 BW (vpshufb within each 128-bit block).
        unsafe {
            let idx = _mm512_set_epi64(
                0x0809_0a0b_0c0d_0e0f,
                0x0001_0203_0405_0607,
                0x0809_0a0b_0c0d_0e0f,
                0x0001_0203_0405_0607,
                0x0809_0a0b_0c0d_0e0f,
                0x0001_0203_0405_0607,
                0x0809_0a0b_0c0d_0e0f,
                0x0001_0203_0405_0607,
            );
            _mm512_shuffle_epi8(a, idx)
        }
    }
    #[inline(always)]
    fn eq(a: Self::V, b: Self::V) -> u8 {
        // SAFETY: AVX-512 F, see the impl-level note.
        unsafe { _mm512_cmpeq_epi64_mask(a, b) }
    }
    #[inline(always)]
    fn select(mask: u8, a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: AVX-512 F: blend takes lanes of its second operand where the mask is set.
        unsafe { _mm512_mask_blend_epi64(mask, b, a) }
    }
    #[inline(always)]
    fn swap_lanes<const K: usize>(a: Self::V) -> Self::V {
        // SAFETY: AVX-512 F, see the impl-level note.
        unsafe {
            match K {
                // Swap the two 64-bit halves of every 128-bit block.
                1 => _mm512_shuffle_epi32::<0b0100_1110>(a),
                // Swap adjacent 128-bit blocks: (1, 0, 3, 2).
                2 => _mm512_shuffle_i64x2::<0b1011_0001>(a, a),
                // Swap the 256-bit halves: (2, 3, 0, 1).
                4 => _mm512_shuffle_i64x2::<0b0100_1110>(a, a),
                _ => a,
            }
        }
    }
    #[inline(always)]
    fn gather(table: &[u8], idx: Self::V) -> Self::V {
        let last = (table.len() / 8).saturating_sub(1) as u64;
        if table.len() < 8 {
            return Self::splat(0);
        }
        // SAFETY: AVX-512 F. The indices are clamped to `last`, so every 8-byte read at
        // `table + 8·idx` lies inside `table`.
        unsafe {
            let clamped = _mm512_min_epu64(idx, _mm512_set1_epi64(last as i64));
            gather_qq(table.as_ptr().cast(), clamped)
        }
    }
    #[inline(always)]
    fn gather_limbs(table: &[u64], idx: Self::V) -> [Self::V; 5] {
        assert!(
            table.len() >= 5 * LANES,
            "a limb table holds at least one element"
        );
        let last = (table.len() - 1 - 4 * LANES) as u64;
        // SAFETY: AVX-512 F. Indices are clamped to `last`, so every read, at most
        // 4·LANES words further, is inside `table`.
        unsafe {
            let clamped = _mm512_min_epu64(idx, _mm512_set1_epi64(last as i64));
            gather_qq_x5(table.as_ptr(), clamped)
        }
    }
}

// SAFETY (for both `unsafe` blocks): IFMA; only inlined into the entry points compiled with
// `avx512ifma` (the avx512-ifma path), which the dispatcher calls after checking it.
impl Ifma for Avx512 {
    #[inline(always)]
    fn madd52lo(acc: __m512i, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 IFMA (vpmadd52luq), see the impl-level note.
        unsafe { _mm512_madd52lo_epu64(acc, a, b) }
    }
    #[inline(always)]
    fn madd52hi(acc: __m512i, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 IFMA (vpmadd52huq), see the impl-level note.
        unsafe { _mm512_madd52hi_epu64(acc, a, b) }
    }
}

// The same vectors without IFMA (the avx512f path: Skylake-SP, Cascade Lake): the 9×29
// field's 32-bit multiplies.
impl Mul32 for Avx512 {
    #[inline(always)]
    fn mul32(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 F (vpmuludq); only inlined into entry points compiled with it,
        // which the dispatcher calls after checking it.
        unsafe { _mm512_mul_epu32(a, b) }
    }
    #[inline(always)]
    fn gather_limbs9(table: &[u64], idx: __m512i) -> [__m512i; 9] {
        assert!(
            table.len() >= 9 * LANES,
            "a limb table holds at least one element"
        );
        let last = (table.len() - 1 - 8 * LANES) as u64;
        // SAFETY: AVX-512 F. Indices are clamped to `last`, so every read, at most
        // 8·LANES words further, is inside `table`.
        unsafe {
            let clamped = _mm512_min_epu64(idx, _mm512_set1_epi64(last as i64));
            let lo = gather_qq_x5(table.as_ptr(), clamped);
            let hi = gather_qq_x4(table.as_ptr().add(5 * LANES), clamped);
            [
                lo[0], lo[1], lo[2], lo[3], lo[4], hi[0], hi[1], hi[2], hi[3],
            ]
        }
    }
}

// The gathers are written in `asm!` for one reason: the index register. LLVM may give the
// intrinsic's VSIB index a register in zmm16..31, and the AVX-512 emulator that runs this
// code on CI machines without AVX-512 (`../shared/emu`, BochsCPU) raises #UD on such an
// index, although the hardware accepts it. Here the index is pinned to zmm15.

/// `vpgatherqq`: lane i from the 64-bit word at `base + 8·idx[i]`.
///
/// # Safety
/// AVX-512 F; every `base + 8·idx[i]` is readable.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn gather_qq(base: *const u64, idx: __m512i) -> __m512i {
    let out: __m512i;
    // SAFETY: the caller's contract; the asm reads only those eight words.
    unsafe {
        core::arch::asm!(
            "kxnorw {k}, {k}, {k}",
            "vpxorq {out}, {out}, {out}",
            "vpgatherqq {out}{{{k}}}, [{base} + zmm15*8]",
            base = in(reg) base,
            in("zmm15") idx,
            out = out(zmm_reg) out,
            k = out(kreg) _,
            options(pure, readonly, nostack, preserves_flags),
        );
    }
    out
}

/// One `vpgatherqq` per output `$o`, at `$base + $off` with the index in zmm15: each output
/// is one limb row (LANES words) of a word-major table. Expands to the asm statement; the
/// caller's unsafe block carries its contract.
macro_rules! gather_rows {
    ($base:expr, $idx:expr; $($o:ident @ $off:literal),+) => {
        core::arch::asm!(
            $(
                "kxnorw {k}, {k}, {k}",
                concat!("vpxorq {", stringify!($o), "}, {", stringify!($o), "}, {", stringify!($o), "}"),
                concat!("vpgatherqq {", stringify!($o), "}{{{k}}}, [{base} + zmm15*8 + ", $off, "]"),
            )+
            base = in(reg) $base,
            in("zmm15") $idx,
            $($o = out(zmm_reg) $o,)+
            k = out(kreg) _,
            options(pure, readonly, nostack, preserves_flags),
        )
    };
}

/// Five `vpgatherqq` at `base`, `base + 8·LANES`, …, `base + 32·LANES` with one index: the
/// five limbs of a lane's element in a word-major table.
///
/// # Safety
/// AVX-512 F; every `base + 8·(idx[i] + k·LANES)`, k < 5, is readable.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn gather_qq_x5(base: *const u64, idx: __m512i) -> [__m512i; 5] {
    const _: () = assert!(LANES * 8 == 64);
    let (o0, o1, o2, o3, o4): (__m512i, __m512i, __m512i, __m512i, __m512i);
    // SAFETY: the caller's contract; the asm reads only those forty words.
    unsafe {
        gather_rows!(base, idx; o0 @ 0, o1 @ 64, o2 @ 128, o3 @ 192, o4 @ 256);
    }
    [o0, o1, o2, o3, o4]
}

/// Four `vpgatherqq` at `base`, `base + 8·LANES`, …, `base + 24·LANES` with one index (the
/// last four limbs of a 9×29 element, after [`gather_qq_x5`]'s first five).
///
/// # Safety
/// AVX-512 F; every `base + 8·(idx[i] + k·LANES)`, k < 4, is readable.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn gather_qq_x4(base: *const u64, idx: __m512i) -> [__m512i; 4] {
    let (o0, o1, o2, o3): (__m512i, __m512i, __m512i, __m512i);
    // SAFETY: the caller's contract; the asm reads only those thirty-two words.
    unsafe {
        gather_rows!(base, idx; o0 @ 0, o1 @ 64, o2 @ 128, o3 @ 192);
    }
    [o0, o1, o2, o3]
}
