//! 4-way Keccak-256 with AVX2: four states side by side in `__m256i` vectors, word `w` of
//! state `i` in lane `i` of vector `w` (the same word-major layout as the 8-lane engine).
//!
//! This is the batch path for x86-64 CPUs without AVX-512. AVX2 has no rotate and no
//! three-input logic, so a round costs about twice the AVX-512 instructions per vector:
//! rotations are two shifts and an `or` (rotations by 8 and 56 are one `vpshufb`, and the
//! left shift by 1 is an add, which more ports execute), χ is `vpandn` and `vpxor`. The
//! 25-vector state does not fit the 16 YMM registers, so LLVM spills part of it.
//!
//! The helpers carry no `#[target_feature]`: they are `#[inline(always)]` and only inlined
//! into [`keccak256_x4`], which is compiled for AVX2 and only called after a runtime check.
#![cfg(target_arch = "x86_64")]

use super::permutation::{RC, RHO};
use super::sponge::{Permute, States, all_64, load_le, sponge};
use core::arch::x86_64::*;

// SAFETY (for every `unsafe` block around an intrinsic in this module): the intrinsics need
// AVX2 (or less); the helpers are only inlined into `keccak256_x4`, compiled with AVX2 and
// called after the CPU was checked for it.

#[inline(always)]
fn xor(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: AVX2, see the module-level note.
    unsafe { _mm256_xor_si256(a, b) }
}

/// `a ^ (!b & c)`, Keccak's χ.
#[inline(always)]
fn xor_andn(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    // SAFETY: AVX2, see the module-level note.
    unsafe { _mm256_xor_si256(a, _mm256_andnot_si256(b, c)) }
}

#[inline(always)]
fn splat(x: u64) -> __m256i {
    // SAFETY: AVX, see the module-level note.
    unsafe { _mm256_set1_epi64x(x as i64) }
}

#[inline(always)]
fn load(w: &[u64; 4]) -> __m256i {
    // SAFETY: AVX; `w` is 32 readable bytes (unaligned load).
    unsafe { _mm256_loadu_si256(w.as_ptr().cast()) }
}

#[inline(always)]
fn store(v: __m256i) -> [u64; 4] {
    let mut w = [0u64; 4];
    // SAFETY: AVX; `w` is 32 writable bytes (unaligned store).
    unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), v) };
    w
}

/// `x` rotated left by `L`; `R` must be `64 − L` (stable Rust cannot compute it from `L`,
/// so the [`rotl!`] macro passes both).
#[inline(always)]
fn rotl<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    // SAFETY: AVX2, see the module-level note.
    unsafe {
        match L {
            0 => x,
            // x + x is x << 1 on more execution ports than the shift.
            1 => _mm256_or_si256(_mm256_add_epi64(x, x), _mm256_srli_epi64::<63>(x)),
            // Whole-byte rotations: one byte shuffle within each 64-bit lane.
            8 => _mm256_shuffle_epi8(
                x,
                _mm256_set_epi64x(
                    0x0E0D_0C0B_0A09_080F,
                    0x0605_0403_0201_0007,
                    0x0E0D_0C0B_0A09_080F,
                    0x0605_0403_0201_0007,
                ),
            ),
            56 => _mm256_shuffle_epi8(
                x,
                _mm256_set_epi64x(
                    0x080F_0E0D_0C0B_0A09,
                    0x0007_0605_0403_0201,
                    0x080F_0E0D_0C0B_0A09,
                    0x0007_0605_0403_0201,
                ),
            ),
            _ => _mm256_or_si256(_mm256_slli_epi64::<L>(x), _mm256_srli_epi64::<R>(x)),
        }
    }
}

/// `rotl!(x, n)`: `x` rotated left by the constant `n` (a `u32` expression).
macro_rules! rotl {
    ($x:expr, $n:expr) => {
        rotl::<{ $n as i32 }, { 64 - $n as i32 }>($x)
    };
}

/// One round: θ, ρ, π, χ, ι, structured as the scalar `round_andn`.
#[inline(always)]
fn round(a: &[__m256i; 25], rc: u64) -> [__m256i; 25] {
    let c0 = xor(xor(xor(xor(a[0], a[5]), a[10]), a[15]), a[20]);
    let c1 = xor(xor(xor(xor(a[1], a[6]), a[11]), a[16]), a[21]);
    let c2 = xor(xor(xor(xor(a[2], a[7]), a[12]), a[17]), a[22]);
    let c3 = xor(xor(xor(xor(a[3], a[8]), a[13]), a[18]), a[23]);
    let c4 = xor(xor(xor(xor(a[4], a[9]), a[14]), a[19]), a[24]);
    let d = [
        xor(c4, rotl!(c1, 1)),
        xor(c0, rotl!(c2, 1)),
        xor(c1, rotl!(c3, 1)),
        xor(c2, rotl!(c4, 1)),
        xor(c3, rotl!(c0, 1)),
    ];

    // θ correction and ρ rotation of source lane `$src`.
    macro_rules! lane {
        ($src:literal) => {
            rotl!(xor(a[$src], d[$src % 5]), RHO[$src])
        };
    }

    // χ on output plane `$y` from its five π-permuted lanes.
    macro_rules! chi {
        ($out:ident, $y:literal, $b0:expr, $b1:expr, $b2:expr, $b3:expr, $b4:expr) => {{
            let (b0, b1, b2, b3, b4) = ($b0, $b1, $b2, $b3, $b4);
            $out[5 * $y] = xor_andn(b0, b1, b2);
            $out[5 * $y + 1] = xor_andn(b1, b2, b3);
            $out[5 * $y + 2] = xor_andn(b2, b3, b4);
            $out[5 * $y + 3] = xor_andn(b3, b4, b0);
            $out[5 * $y + 4] = xor_andn(b4, b0, b1);
        }};
    }

    // Output lane (x, y) comes from lane ((x + 3y) mod 5, x).
    let mut out = *a;
    chi!(out, 0, lane!(0), lane!(6), lane!(12), lane!(18), lane!(24));
    chi!(out, 1, lane!(3), lane!(9), lane!(10), lane!(16), lane!(22));
    chi!(out, 2, lane!(1), lane!(7), lane!(13), lane!(19), lane!(20));
    chi!(out, 3, lane!(4), lane!(5), lane!(11), lane!(17), lane!(23));
    chi!(out, 4, lane!(2), lane!(8), lane!(14), lane!(15), lane!(21));
    out[0] = xor(out[0], splat(rc));
    out
}

/// The AVX2 4-way permutation.
struct Avx2x4;

impl Permute<4> for Avx2x4 {
    #[inline(always)]
    fn permute(s: &mut States<4>) {
        let mut a = [splat(0); 25];
        for (v, w) in a.iter_mut().zip(s.iter()) {
            *v = load(w);
        }
        for rc in RC {
            a = round(&a, rc);
        }
        for (w, v) in s.iter_mut().zip(a) {
            *w = store(v);
        }
    }
}

/// Keccak-256 of four 64-byte messages: one padded block each, with the first and last
/// rounds peeled so that the constant block lanes fold into the first round and only the
/// four squeezed lanes are computed in the last.
#[inline(always)]
fn hash64(keys: [&[u8; 64]; 4]) -> [[u8; 32]; 4] {
    let mut words = [[0u64; 4]; 8];
    for (i, key) in keys.iter().enumerate() {
        for (k, bytes) in key.chunks_exact(8).enumerate() {
            words[k][i] = load_le(bytes);
        }
    }
    let mut a = [splat(0); 25];
    for (v, w) in a.iter_mut().zip(&words) {
        *v = load(w);
    }
    // Padding 0x01 ‖ 0…0 ‖ 0x80: the first byte of word 8, the last of word 16.
    a[8] = splat(0x01);
    a[16] = splat(0x80 << 56);
    let mut s = round(&a, RC[0]);
    for &rc in &RC[1..RC.len() - 1] {
        s = round(&s, rc);
    }
    let s = round(&s, RC[RC.len() - 1]);
    let mut out = [[0u8; 32]; 4];
    for (k, v) in s[..4].iter().enumerate() {
        for (o, word) in out.iter_mut().zip(store(*v)) {
            o[8 * k..8 * k + 8].copy_from_slice(&word.to_le_bytes());
        }
    }
    out
}

/// Keccak-256 of four inputs of any lengths; `out[i]` is `keccak256(inputs[i])`.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn keccak256_x4(inputs: [&[u8]; 4]) -> [[u8; 32]; 4] {
    match all_64(&inputs) {
        Some(keys) => hash64(keys),
        None => sponge::<4, Avx2x4>(inputs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keccak::{keccak_f1600, keccak256};

    /// The permutation alone, compiled for AVX2.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn permute(s: &mut States<4>) {
        Avx2x4::permute(s);
    }

    fn has_avx2() -> bool {
        let yes = crate::dispatch::cpu().avx2;
        if !yes {
            println!("skipped: no AVX2");
        }
        yes
    }

    /// Deterministic pseudo-random words (splitmix64).
    fn words(seed: u64, n: usize) -> Vec<u64> {
        crate::test_support::rng::SplitMix64(seed).words(n)
    }

    #[test]
    fn avx2_permutation_matches_scalar() {
        if !has_avx2() {
            return;
        }
        let w = words(11, 100 * 100);
        for (g, chunk) in w.chunks_exact(100).enumerate() {
            let mut s: States<4> =
                core::array::from_fn(|j| core::array::from_fn(|i| chunk[4 * j + i]));
            if g == 0 {
                s = [[0; 4]; 25];
            }
            let mut want = s;
            for i in 0..4 {
                let mut one: [u64; 25] = core::array::from_fn(|j| s[j][i]);
                keccak_f1600(&mut one);
                for j in 0..25 {
                    want[j][i] = one[j];
                }
            }
            // SAFETY: the CPU has AVX2, checked above.
            unsafe { permute(&mut s) };
            assert_eq!(s, want);
        }
    }

    #[test]
    fn avx2_hashes_match_scalar() {
        if !has_avx2() {
            return;
        }
        let data: Vec<u8> = words(12, 200)
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let mut lens = words(13, 4 * 300).into_iter().map(|x| (x % 420) as usize);
        let special = [0, 1, 64, 135, 136, 137, 272, 400];
        for case in 0..400 {
            let l: [usize; 4] = match case % 3 {
                0 => core::array::from_fn(|_| lens.next().unwrap_or(0)),
                1 => core::array::from_fn(|_| special[lens.next().unwrap_or(0) % special.len()]),
                _ => [64; 4],
            };
            let off = case % 7;
            let inputs: [&[u8]; 4] = core::array::from_fn(|i| &data[off + i..off + i + l[i]]);
            // SAFETY: the CPU has AVX2, checked above.
            let got = unsafe { keccak256_x4(inputs) };
            assert_eq!(got, inputs.map(keccak256), "lengths {l:?}");
        }
    }
}
