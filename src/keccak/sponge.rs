//! The sponge of Keccak-256 (rate 136 bytes, padding `0x01 ‖ 0…0 ‖ 0x80`), for one state
//! and for `N` states side by side: absorbing, padding and squeezing, shared by the scalar
//! hash, the AVX2 4-way and the AVX-512 8-way paths.

use super::permutation::keccak_f1600;

/// Rate of Keccak-256 in bytes: 1600 − 2·256 bits.
pub(super) const RATE: usize = 136;
/// Rate in 64-bit lanes.
pub(super) const RATE_LANES: usize = RATE / 8;

/// Little-endian word from up to 8 bytes (exactly 8 at every call site).
#[inline(always)]
pub(super) fn load_le(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    for (d, s) in w.iter_mut().zip(bytes) {
        *d = *s;
    }
    u64::from_le_bytes(w)
}

/// XORs one full block (`RATE` bytes) into the state and permutes.
#[inline]
pub(super) fn absorb_block(state: &mut [u64; 25], block: &[u8]) {
    for (lane, bytes) in state.iter_mut().zip(block.chunks_exact(8)) {
        *lane ^= load_le(bytes);
    }
    keccak_f1600(state);
}

/// Pads the final partial block `tail` (shorter than `RATE`), absorbs it and squeezes.
#[inline]
pub(super) fn finish(mut state: [u64; 25], tail: &[u8]) -> [u8; 32] {
    let mut block = [0u8; RATE];
    for (d, s) in block.iter_mut().zip(tail) {
        *d = *s;
    }
    let pad = tail.len().min(RATE - 1);
    block[pad] ^= 0x01;
    block[RATE - 1] ^= 0x80;
    absorb_block(&mut state, &block);
    squeeze(&state)
}

/// The first 32 bytes of the state.
#[inline(always)]
pub(super) fn squeeze(state: &[u64; 25]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (bytes, lane) in out.chunks_exact_mut(8).zip(state) {
        for (d, s) in bytes.iter_mut().zip(lane.to_le_bytes()) {
            *d = s;
        }
    }
    out
}

/// `N` Keccak states side by side, word-major: `s[w][i]` is word `w` of state `i`.
pub(super) type States<const N: usize> = [[u64; N]; 25];

/// Keccak-f\[1600\] on `N` states at once.
pub(super) trait Permute<const N: usize> {
    /// Applies the permutation to each of the `N` states.
    fn permute(s: &mut States<N>);
}

/// Keccak-256 of `N` inputs of any lengths, `N` states per permutation.
#[inline(always)]
pub(super) fn sponge<const N: usize, P: Permute<N>>(inputs: [&[u8]; N]) -> [[u8; 32]; N] {
    let mut out = [[0u8; 32]; N];
    let mut state = [[0u64; N]; 25];
    // Permutations lane i needs: its full blocks, then the padded final block.
    let blocks = inputs.map(|m| m.len() / RATE + 1);
    let total = blocks.iter().copied().max().unwrap_or(0);
    for b in 0..total {
        let mut active = 0;
        let mut last = 0;
        for (i, &n) in blocks.iter().enumerate() {
            if n > b {
                active += 1;
                last = i;
            }
        }
        if active == 1 {
            // One lane left: finish it with the scalar permutation.
            let mut s: [u64; 25] = core::array::from_fn(|w| state[w][last]);
            // b < blocks[last] = len / RATE + 1, so b · RATE ≤ len.
            let mut rest = inputs[last]
                .get(b * RATE..)
                .unwrap_or_default()
                .chunks_exact(RATE);
            for block in &mut rest {
                absorb_block(&mut s, block);
            }
            out[last] = finish(s, rest.remainder());
            break;
        }
        for (i, &n) in blocks.iter().enumerate() {
            if n <= b {
                continue;
            }
            let data = inputs[i].get(b * RATE..).unwrap_or_default();
            let take = data.len().min(RATE);
            let mut words = data[..take].chunks_exact(8);
            for (w, bytes) in state.iter_mut().zip(&mut words) {
                w[i] ^= load_le(bytes);
            }
            if take < RATE {
                // The final block: its last partial word, then the padding
                // 0x01 ‖ 0…0 ‖ 0x80 (one byte 0x81 when the block has RATE − 1 bytes).
                let rem = words.remainder();
                let mut last = [0u8; 8];
                last[..rem.len()].copy_from_slice(rem);
                last[rem.len()] = 0x01;
                state[take / 8][i] ^= u64::from_le_bytes(last);
                state[RATE / 8 - 1][i] ^= 0x80 << 56;
            }
        }
        P::permute(&mut state);
        for (i, &n) in blocks.iter().enumerate() {
            if n == b + 1 {
                for (bytes, w) in out[i].chunks_exact_mut(8).zip(&state) {
                    bytes.copy_from_slice(&w[i].to_le_bytes());
                }
            }
        }
    }
    out
}

/// The inputs as 64-byte arrays if every one of them is exactly 64 bytes long.
#[inline(always)]
pub(super) fn all_64<'a, const N: usize>(inputs: &[&'a [u8]; N]) -> Option<[&'a [u8; 64]; N]> {
    let mut out = [&[0u8; 64]; N];
    for (o, m) in out.iter_mut().zip(inputs) {
        *o = (*m).try_into().ok()?;
    }
    Some(out)
}
