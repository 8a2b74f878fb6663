//! Keccak-256 of eight inputs at once: [`keccak256_batch`].
//!
//! Three paths, picked at run time, with identical results:
//!
//! - AVX-512 (F and BW, where the batch path is an AVX-512 engine, per `crate::dispatch`):
//!   the eight inputs in the eight lanes of the lane engine's Keccak (`crate::lanes::keccak`).
//! - AVX2: two runs of the 4-way Keccak in `super::x4`, the inputs grouped by length.
//! - Otherwise eight calls of the scalar [`keccak256`](super::keccak256).
//!
//! The multi-lane paths absorb block by block. A lane whose input has fewer blocks is
//! squeezed right after its final (padded) block; from then on its state is permuted along
//! with the others but never read again. When a single lane is left with blocks to absorb,
//! it continues with the scalar permutation instead of a mostly idle vector one.

// Only the x86-64 paths use the multi-lane code outside the tests.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

#[cfg(target_arch = "x86_64")]
use super::sponge::RATE;
use super::sponge::{Permute, States, all_64, load_le, sponge};
use crate::lanes::Backend;

/// The 8-lane engine's permutation on backend `B`.
struct Lanes8<B>(core::marker::PhantomData<B>);

impl<B: Backend> Permute<8> for Lanes8<B> {
    #[inline(always)]
    fn permute(s: &mut States<8>) {
        crate::lanes::keccak::keccak_f1600_x8_words::<B>(s);
    }
}

/// Keccak-256 of eight inputs on the 8-lane engine with backend `B`.
#[inline(always)]
fn hash_lanes8<B: Backend>(inputs: [&[u8]; 8]) -> [[u8; 32]; 8] {
    let Some(keys) = all_64(&inputs) else {
        return sponge::<8, Lanes8<B>>(inputs);
    };
    // Transpose: word k of message i into lane i of vector k.
    let mut words = [[0u64; 8]; 8];
    for (i, key) in keys.iter().enumerate() {
        for (k, bytes) in key.chunks_exact(8).enumerate() {
            words[k][i] = load_le(bytes);
        }
    }
    let h = crate::lanes::keccak::keccak256_64_x8_words::<B>(&words);
    let mut out = [[0u8; 32]; 8];
    for (k, hk) in h.into_iter().enumerate() {
        for (o, word) in out.iter_mut().zip(hk) {
            o[8 * k..8 * k + 8].copy_from_slice(&word.to_le_bytes());
        }
    }
    out
}

/// [`hash_lanes8`] on AVX-512, for a CPU that has it.
#[cfg(target_arch = "x86_64")]
fn hash_avx512(_cpu: crate::dispatch::Avx512F, inputs: [&[u8]; 8]) -> [[u8; 32]; 8] {
    #[target_feature(enable = "avx512f,avx512bw")]
    fn hash(inputs: [&[u8]; 8]) -> [[u8; 32]; 8] {
        hash_lanes8::<crate::lanes::avx512::Avx512>(inputs)
    }
    // SAFETY: the token exists only where `crate::dispatch` detected AVX-512 F and BW.
    unsafe { hash(inputs) }
}

/// The AVX2 path: the inputs sorted by block count, so that inputs of similar length share
/// a 4-way run, then two runs.
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn hash_avx2(inputs: [&[u8]; 8]) -> [[u8; 32]; 8] {
    let mut order: [usize; 8] = core::array::from_fn(|i| i);
    if all_64(&inputs).is_none() {
        order.sort_unstable_by_key(|&i| inputs[i].len() / RATE);
    }
    let lo = order[..4].try_into().unwrap_or([0, 1, 2, 3]);
    let hi = order[4..].try_into().unwrap_or([4, 5, 6, 7]);
    let mut out = [[0u8; 32]; 8];
    for group in [lo, hi] {
        let group: [usize; 4] = group;
        // SAFETY: the caller guarantees AVX2.
        let h = unsafe { super::x4::keccak256_x4(group.map(|i| inputs[i])) };
        for (&i, h) in group.iter().zip(h) {
            out[i] = h;
        }
    }
    out
}

/// Keccak-256 of eight inputs at once; `out[i]` is [`keccak256`](crate::keccak256)`(inputs[i])`.
///
/// The inputs may have any lengths, including zero, and need not be equal. The batch is
/// fastest when all eight are the same length, and fastest of all when they are 64 bytes
/// each — uncompressed public keys without the `0x04` prefix, whose hashes are Ethereum
/// addresses. It runs the eight hashes side by side in vector registers: 8 lanes with
/// AVX-512, two runs of 4 lanes with AVX2, otherwise one by one. The results are the same
/// on every path.
///
/// ```
/// use asmcrypto::{keccak256, keccak256_batch};
///
/// let key = [7u8; 64];
/// let long = vec![1u8; 1000];
/// let inputs: [&[u8]; 8] = [&key, b"", b"abc", &long, &key, &key[..63], &long[..136], &key];
/// let hashes = keccak256_batch(inputs);
/// for (input, hash) in inputs.iter().zip(&hashes) {
///     assert_eq!(*hash, keccak256(input));
/// }
/// ```
pub fn keccak256_batch(inputs: [&[u8]; 8]) -> [[u8; 32]; 8] {
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(cpu) = crate::dispatch::avx512_keccak() {
            return hash_avx512(cpu, inputs);
        }
        if crate::dispatch::cpu().avx2 {
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { hash_avx2(inputs) };
        }
    }
    inputs.map(super::keccak256)
}

/// Keccak-256 of every input, appended to `out` in order: eight at a time through
/// [`keccak256_batch`], a remainder of three or more as one padded batch, the rest one by one.
#[cfg_attr(not(feature = "alloy"), allow(dead_code))] // used by the alloy adapter
pub(crate) fn keccak256_many(inputs: &[&[u8]], out: &mut Vec<[u8; 32]>) {
    out.reserve(inputs.len());
    let mut groups = inputs.chunks_exact(8);
    for group in &mut groups {
        let group: [&[u8]; 8] = core::array::from_fn(|i| group[i]);
        out.extend(keccak256_batch(group));
    }
    let tail = groups.remainder();
    if tail.len() >= 3 {
        let group: [&[u8]; 8] = core::array::from_fn(|i| tail.get(i).copied().unwrap_or_default());
        out.extend(keccak256_batch(group).into_iter().take(tail.len()));
    } else {
        out.extend(tail.iter().map(|m| super::keccak256(m)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::portable::Portable;

    #[test]
    fn constants_match_the_scalar_module() {
        assert_eq!(crate::lanes::keccak::RC, super::super::permutation::RC);
        assert_eq!(crate::lanes::keccak::RHO, super::super::permutation::RHO);
    }

    use crate::test_support::rng::SplitMix64 as Rng;

    /// Every path this machine can take, each checked against scalar `keccak256`.
    fn check_all_paths(inputs: [&[u8]; 8]) {
        let want = inputs.map(crate::keccak256);
        assert_eq!(hash_lanes8::<Portable>(inputs), want, "portable 8-lane");
        assert_eq!(keccak256_batch(inputs), want, "dispatched");
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(cpu) = crate::dispatch::avx512f_native() {
                assert_eq!(hash_avx512(cpu, inputs), want, "AVX-512");
            }
            if crate::dispatch::cpu().avx2 {
                // SAFETY: the CPU has AVX2, checked just above.
                assert_eq!(unsafe { hash_avx2(inputs) }, want, "AVX2");
            }
        }
    }

    #[test]
    fn many_matches_scalar_at_every_length() {
        let mut rng = Rng(9);
        let data: Vec<u8> = (0..2000).map(|_| rng.next_u64() as u8).collect();
        for n in 0..=27 {
            let inputs: Vec<&[u8]> = (0..n)
                .map(|_| {
                    let off = (rng.next_u64() % 500) as usize;
                    &data[off..off + (rng.next_u64() % 400) as usize]
                })
                .collect();
            let mut out = vec![[0xaa; 32]];
            keccak256_many(&inputs, &mut out);
            let want: Vec<[u8; 32]> = core::iter::once([0xaa; 32])
                .chain(inputs.iter().map(|m| crate::keccak256(m)))
                .collect();
            assert_eq!(out, want, "{n} inputs");
        }
    }

    #[test]
    fn every_path_matches_scalar() {
        let mut rng = Rng(5);
        let data: Vec<u8> = (0..1200).map(|_| rng.next_u64() as u8).collect();
        let special = [0, 1, 63, 64, 65, 135, 136, 137, 271, 272, 273, 1000];
        for case in 0..400 {
            let lens: [usize; 8] = core::array::from_fn(|_| match case % 4 {
                0 => (rng.next_u64() % 601) as usize,
                1 => special[(rng.next_u64() % special.len() as u64) as usize],
                2 => 64,
                _ => (rng.next_u64() % 140) as usize,
            });
            let offs: [usize; 8] = core::array::from_fn(|_| (rng.next_u64() % 100) as usize);
            let inputs: [&[u8]; 8] = core::array::from_fn(|i| &data[offs[i]..offs[i] + lens[i]]);
            check_all_paths(inputs);
        }
        // One long lane among short ones, in every position.
        for i in 0..8 {
            let mut inputs: [&[u8]; 8] = [&data[..3]; 8];
            inputs[i] = &data[..1100];
            check_all_paths(inputs);
        }
    }
}
