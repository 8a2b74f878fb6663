//! Keccak-f\[1600\] on eight independent states, one state per lane, generic over
//! [`Backend`].
//!
//! The state layout is the scalar one (`crate::keccak`): lane `(x, y)` of the state at
//! index `x + 5 * y`, sponge bytes little-endian within each 64-bit word. Here each of those
//! 25 entries is a vector whose lane `i` belongs to state `i`.
//!
//! Everything is `#[inline(always)]` and indexed by constants, so that it inlines into the
//! `#[target_feature]` entry points and LLVM keeps the 25 vectors in registers (32 ZMM
//! registers hold them all). On AVX-512 a round is 90 vector operations: θ's column parities
//! and the θ correction fold into `vpternlogq` (`xor3`), ρ is `vprolq`, χ is one
//! `vpternlogq` (`xor_andn`) per lane.

// Only the x86-64 paths use the multi-lane code outside the tests.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use super::{Backend, LANES};

#[cfg(target_arch = "x86_64")]
use super::avx512::Avx512;

/// Number of rounds of Keccak-f\[1600\].
const ROUNDS: usize = 24;

/// Round constants for ι (the scalar module derives the same table from the LFSR; a unit
/// test in `crate::keccak::batch` checks that they agree).
pub(crate) const RC: [u64; ROUNDS] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808A,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808B,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008A,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000A,
    0x0000_0000_8000_808B,
    0x8000_0000_0000_008B,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800A,
    0x8000_0000_8000_000A,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// ρ rotation offsets, lane `(x, y)` at index `x + 5 * y` (same table as the scalar
/// module's, checked by the same test).
pub(crate) const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, //
    36, 44, 6, 55, 20, //
    3, 10, 43, 25, 39, //
    41, 45, 15, 21, 8, //
    18, 2, 61, 56, 14,
];

/// Rate of Keccak-256 in 64-bit words.
const RATE_WORDS: usize = 17;

/// One round: θ, ρ, π, χ, ι.
///
/// π moves lane `(x, y)` to `(y, 2x + 3y)`, so output lane `(x', y')` comes from lane
/// `((x' + 3y') mod 5, x')`: the source indices per output plane are listed below.
#[inline(always)]
fn round<B: Backend>(a: &[B::V; 25], rc: u64) -> [B::V; 25] {
    // θ: column parities C[x], then lane (x, y) ^= C[x − 1] ^ rot(C[x + 1], 1).
    let c0 = B::xor3(B::xor3(a[0], a[5], a[10]), a[15], a[20]);
    let c1 = B::xor3(B::xor3(a[1], a[6], a[11]), a[16], a[21]);
    let c2 = B::xor3(B::xor3(a[2], a[7], a[12]), a[17], a[22]);
    let c3 = B::xor3(B::xor3(a[3], a[8], a[13]), a[18], a[23]);
    let c4 = B::xor3(B::xor3(a[4], a[9], a[14]), a[19], a[24]);
    // Indexed by the x of the lane being corrected.
    let left = [c4, c0, c1, c2, c3];
    let right = [
        B::rotl::<1>(c1),
        B::rotl::<1>(c2),
        B::rotl::<1>(c3),
        B::rotl::<1>(c4),
        B::rotl::<1>(c0),
    ];

    // θ correction and ρ rotation of source lane `$src`.
    macro_rules! lane {
        ($src:literal) => {
            B::rotl::<{ RHO[$src] as i32 }>(B::xor3(a[$src], left[$src % 5], right[$src % 5]))
        };
    }

    // χ on one output plane: b[x] ^ (!b[x + 1] & b[x + 2]).
    macro_rules! chi {
        ($out:ident, $y:literal, $b0:expr, $b1:expr, $b2:expr, $b3:expr, $b4:expr) => {{
            let (b0, b1, b2, b3, b4) = ($b0, $b1, $b2, $b3, $b4);
            $out[5 * $y] = B::xor_andn(b0, b1, b2);
            $out[5 * $y + 1] = B::xor_andn(b1, b2, b3);
            $out[5 * $y + 2] = B::xor_andn(b2, b3, b4);
            $out[5 * $y + 3] = B::xor_andn(b3, b4, b0);
            $out[5 * $y + 4] = B::xor_andn(b4, b0, b1);
        }};
    }

    let mut out = *a;
    // Lane (0, 0) has rotation 0.
    let b00 = B::xor3(a[0], left[0], right[0]);
    chi!(out, 0, b00, lane!(6), lane!(12), lane!(18), lane!(24));
    chi!(out, 1, lane!(3), lane!(9), lane!(10), lane!(16), lane!(22));
    chi!(out, 2, lane!(1), lane!(7), lane!(13), lane!(19), lane!(20));
    chi!(out, 3, lane!(4), lane!(5), lane!(11), lane!(17), lane!(23));
    chi!(out, 4, lane!(2), lane!(8), lane!(14), lane!(15), lane!(21));
    out[0] = B::xor(out[0], B::splat(rc));
    out
}

/// Keccak-f\[1600\] (24 rounds) on eight states at once: `a[x + 5y]` lane `i` is word
/// `(x, y)` of state `i`.
#[inline(always)]
pub(crate) fn keccak_f1600_x8<B: Backend>(a: &mut [B::V; 25]) {
    let mut s = *a;
    for rc in RC {
        s = round::<B>(&s, rc);
    }
    *a = s;
}

/// Keccak-256 of eight 64-byte messages (uncompressed public keys without the `0x04`
/// prefix): `msg[k]` lane `i` is the little-endian word `k` (bytes `8k..8k + 8`) of message
/// `i`. Returns the four hash words, lane `i` holding hash `i` (little-endian words, so
/// byte `j` of hash `i` is byte `j mod 8` of word `j / 8`, lane `i`).
///
/// A single padded block, so the sponge is one permutation. The first and last rounds are
/// outside the loop: once inlined, the 17 constant lanes of the block (padding and zeros)
/// fold into the first round and only the four squeezed lanes survive the last one.
#[inline(always)]
pub(crate) fn keccak256_64_x8<B: Backend>(msg: &[B::V; 8]) -> [B::V; 4] {
    let zero = B::splat(0);
    let mut a = [zero; 25];
    a[..8].copy_from_slice(msg);
    // Padding 0x01 ‖ 0…0 ‖ 0x80: byte 64 is the first of word 8, byte 135 the last of
    // word 16.
    a[8] = B::splat(0x01);
    a[RATE_WORDS - 1] = B::splat(0x80 << 56);
    let mut s = round::<B>(&a, RC[0]);
    for &rc in &RC[1..ROUNDS - 1] {
        s = round::<B>(&s, rc);
    }
    let s = round::<B>(&s, RC[ROUNDS - 1]);
    [s[0], s[1], s[2], s[3]]
}

/// Eight states side by side, word-major: `g[w][i]` is word `w` of state `i`.
pub(crate) type Group = [[u64; LANES]; 25];

/// Applies Keccak-f\[1600\] to every group of eight states.
#[inline(always)]
fn permute_groups<B: Backend>(groups: &mut [Group]) {
    for g in groups {
        let mut a = [B::splat(0); 25];
        for (v, w) in a.iter_mut().zip(g.iter()) {
            *v = B::load(w);
        }
        keccak_f1600_x8::<B>(&mut a);
        for (w, v) in g.iter_mut().zip(a) {
            *w = B::store(v);
        }
    }
}

/// Hashes every group of eight 64-byte messages (`msgs[g][k]` lane `i`: word `k` of message
/// `i` of group `g`) into `out[g]` (word `k` of hash `i` at `out[g][k][i]`). Stops at the
/// shorter of the two slices.
#[inline(always)]
fn hash64_groups<B: Backend>(msgs: &[[[u64; LANES]; 8]], out: &mut [[[u64; LANES]; 4]]) {
    for (m, o) in msgs.iter().zip(out.iter_mut()) {
        let mut v = [B::splat(0); 8];
        for (v, w) in v.iter_mut().zip(m.iter()) {
            *v = B::load(w);
        }
        let h = keccak256_64_x8::<B>(&v);
        for (o, h) in o.iter_mut().zip(h) {
            *o = B::store(h);
        }
    }
}

/// [`keccak_f1600_x8`] with the portable backend, on groups of states laid out as the
/// AVX-512 entry point expects.
#[cfg(test)]
pub(crate) fn keccak_f1600_x8_portable(groups: &mut [Group]) {
    permute_groups::<super::portable::Portable>(groups);
}

/// Applies Keccak-f\[1600\] with the AVX-512 backend to `count` consecutive groups of eight
/// states, in place. Each group is `[u64; 25 * 8]`, word-major: word `w` of state `i` at
/// index `8 * w + i`.
///
/// A leaf function (no allocation, no panics, no calls), so the emulator in `../shared/emu`
/// can run it; the tests drive it natively and emulated.
///
/// # Safety
///
/// The CPU must support AVX-512 F, BW and IFMA, and `state` must point to `200 * count`
/// readable and writable `u64`s (8-byte aligned) that nothing else accesses during the call.
#[cfg(target_arch = "x86_64")]
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_keccak_f1600_x8(state: *mut u64, count: u64) {
    // SAFETY: the caller guarantees `state` addresses `count` groups of 200 words, exclusively.
    let groups = unsafe { core::slice::from_raw_parts_mut(state.cast::<Group>(), count as usize) };
    permute_groups::<Avx512>(groups);
}

/// Computes [`keccak256_64_x8`] with the AVX-512 backend for `count` groups of eight
/// 64-byte messages: group `g` reads `msg[64 g .. 64 g + 64]` (word `k` of message `i` at
/// index `8 k + i`) and writes `out[32 g .. 32 g + 32]` (word `k` of hash `i` at `8 k + i`).
///
/// A leaf function for the tests and the emulator, like
/// [`asmcrypto_avx512_keccak_f1600_x8`].
///
/// # Safety
///
/// The CPU must support AVX-512 F, BW and IFMA; `msg` must point to `64 * count` readable
/// `u64`s and `out` to `32 * count` writable `u64`s (both 8-byte aligned, not overlapping,
/// `out` not accessed by anything else during the call).
#[cfg(target_arch = "x86_64")]
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_keccak256_64_x8(
    msg: *const u64,
    out: *mut u64,
    count: u64,
) {
    // SAFETY: the caller guarantees `msg` addresses `count` groups of 64 readable words.
    let msgs = unsafe { core::slice::from_raw_parts(msg.cast(), count as usize) };
    // SAFETY: the caller guarantees `out` addresses `count` groups of 32 words, exclusively.
    let outs = unsafe { core::slice::from_raw_parts_mut(out.cast(), count as usize) };
    hash64_groups::<Avx512>(msgs, outs);
}

#[cfg(test)]
mod tests {
    use super::super::portable::Portable;
    use super::*;
    use crate::keccak::{keccak_f1600, keccak256};

    /// splitmix64.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
    }

    fn random_groups(n: usize, seed: u64) -> Vec<Group> {
        let mut rng = Rng(seed);
        (0..n)
            .map(|g| {
                let mut grp = [[0u64; LANES]; 25];
                for (w, word) in grp.iter_mut().enumerate() {
                    for (i, x) in word.iter_mut().enumerate() {
                        // Group 0, lane 0 stays all-zero (the published test vector).
                        *x = if g == 0 && i == 0 {
                            0
                        } else if g == 0 && i == 1 {
                            // A sparse state: one bit per word.
                            1 << (w % 64)
                        } else {
                            rng.next()
                        };
                    }
                }
                grp
            })
            .collect()
    }

    /// The reference: the scalar permutation applied to every state of every group.
    fn scalar_permute(groups: &[Group]) -> Vec<Group> {
        groups
            .iter()
            .map(|g| {
                let mut out = *g;
                for i in 0..LANES {
                    let mut s: [u64; 25] = core::array::from_fn(|w| g[w][i]);
                    keccak_f1600(&mut s);
                    for w in 0..25 {
                        out[w][i] = s[w];
                    }
                }
                out
            })
            .collect()
    }

    fn random_messages(n: usize, seed: u64) -> Vec<[[u64; LANES]; 8]> {
        let mut rng = Rng(seed);
        (0..n)
            .map(|_| core::array::from_fn(|_| core::array::from_fn(|_| rng.next())))
            .collect()
    }

    fn scalar_hash64(msgs: &[[[u64; LANES]; 8]]) -> Vec<[[u64; LANES]; 4]> {
        msgs.iter()
            .map(|m| {
                let mut out = [[0u64; LANES]; 4];
                for i in 0..LANES {
                    let mut bytes = [0u8; 64];
                    for k in 0..8 {
                        bytes[8 * k..8 * k + 8].copy_from_slice(&m[k][i].to_le_bytes());
                    }
                    let h = keccak256(&bytes);
                    for k in 0..4 {
                        out[k][i] = u64::from_le_bytes(h[8 * k..8 * k + 8].try_into().unwrap());
                    }
                }
                out
            })
            .collect()
    }

    fn flatten<const N: usize>(groups: &[[[u64; LANES]; N]]) -> Vec<u8> {
        groups
            .iter()
            .flat_map(|g| {
                g.iter()
                    .flat_map(|w| w.iter().flat_map(|x| x.to_le_bytes()))
            })
            .collect()
    }

    fn unflatten<const N: usize>(bytes: &[u8]) -> Vec<[[u64; LANES]; N]> {
        let words: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        words
            .chunks_exact(N * LANES)
            .map(|g| core::array::from_fn(|w| core::array::from_fn(|i| g[LANES * w + i])))
            .collect()
    }

    #[test]
    fn portable_permutation_matches_scalar() {
        let mut groups = random_groups(64, 1);
        let want = scalar_permute(&groups);
        keccak_f1600_x8_portable(&mut groups);
        assert_eq!(groups, want);
        // The all-zero state's image, from the Keccak team's intermediate values.
        assert_eq!(groups[0][0][0], 0xF125_8F79_40E1_DDE7);
        assert_eq!(groups[0][24][0], 0xEAF1_FF7B_5CEC_A249);
    }

    #[test]
    fn portable_hash64_matches_scalar() {
        let msgs = random_messages(64, 2);
        let mut out = vec![[[0u64; LANES]; 4]; msgs.len()];
        hash64_groups::<Portable>(&msgs, &mut out);
        assert_eq!(out, scalar_hash64(&msgs));
    }

    #[test]
    fn portable_hash64_of_zero_keys() {
        let out = keccak256_64_x8::<Portable>(&[[0u64; LANES]; 8]);
        let want = keccak256(&[0u8; 64]);
        for (k, word) in out.iter().enumerate() {
            let w = u64::from_le_bytes(want[8 * k..8 * k + 8].try_into().unwrap());
            assert_eq!(*word, [w; LANES]);
        }
    }

    /// Keeps the exported symbols in the test binary, where the emulator looks them up.
    #[cfg(target_arch = "x86_64")]
    fn keep_symbols() {
        std::hint::black_box(
            asmcrypto_avx512_keccak_f1600_x8 as unsafe extern "C" fn(_, _) as usize,
        );
        std::hint::black_box(
            asmcrypto_avx512_keccak256_64_x8 as unsafe extern "C" fn(_, _, _) as usize,
        );
    }

    #[test]
    fn avx512_permutation_matches_scalar() {
        let mut ran = false;
        #[cfg(target_arch = "x86_64")]
        {
            keep_symbols();
            let groups = random_groups(256, 3);
            let want = scalar_permute(&groups);
            if crate::dispatch::has_avx512_ifma() {
                let mut native = groups.clone();
                // SAFETY: the CPU has AVX-512 F/BW/IFMA (checked above) and `native` holds
                // `native.len()` groups of 200 words, exclusively borrowed.
                unsafe {
                    asmcrypto_avx512_keccak_f1600_x8(
                        native.as_mut_ptr().cast(),
                        native.len() as u64,
                    )
                };
                assert_eq!(native, want, "native AVX-512");
                ran = true;
            }
            if crate::lanes::emu::runner().is_some() {
                use crate::lanes::emu::{Arg, call};
                let buf = flatten(&groups);
                let out = call(
                    "asmcrypto_avx512_keccak_f1600_x8",
                    &[Arg::Buf(&buf), Arg::Int(groups.len() as u64)],
                    false,
                );
                assert_eq!(unflatten::<25>(&out.bufs[0]), want, "emulated AVX-512");
                ran = true;
            }
        }
        if !ran {
            println!("skipped: no AVX-512");
        }
    }

    #[test]
    fn avx512_hash64_matches_scalar() {
        let mut ran = false;
        #[cfg(target_arch = "x86_64")]
        {
            keep_symbols();
            let msgs = random_messages(256, 4);
            let want = scalar_hash64(&msgs);
            if crate::dispatch::has_avx512_ifma() {
                let mut out = vec![[[0u64; LANES]; 4]; msgs.len()];
                // SAFETY: the CPU has AVX-512 F/BW/IFMA (checked above); `msgs` and `out`
                // hold `msgs.len()` groups of 64 and 32 words, `out` exclusively borrowed.
                unsafe {
                    asmcrypto_avx512_keccak256_64_x8(
                        msgs.as_ptr().cast(),
                        out.as_mut_ptr().cast(),
                        msgs.len() as u64,
                    )
                };
                assert_eq!(out, want, "native AVX-512");
                ran = true;
            }
            if crate::lanes::emu::runner().is_some() {
                use crate::lanes::emu::{Arg, call};
                let out = call(
                    "asmcrypto_avx512_keccak256_64_x8",
                    &[
                        Arg::Buf(&flatten(&msgs)),
                        Arg::Buf(&vec![0u8; 256 * msgs.len()]),
                        Arg::Int(msgs.len() as u64),
                    ],
                    false,
                );
                assert_eq!(unflatten::<4>(&out.bufs[1]), want, "emulated AVX-512");
                ran = true;
            }
        }
        if !ran {
            println!("skipped: no AVX-512");
        }
    }
}
