//! Keccak-256 of one input: [`keccak256`], the incremental [`Keccak256`], and the
//! single-block hash of a 64-byte public key that every recovery ends with.

use core::fmt;

use super::permutation::{ANDN_NATIVE, permute_peeled, toggle_repr};
use super::sponge::{RATE, RATE_LANES, absorb_block, finish, load_le, squeeze};

/// A copy of [`keccak256_64`]'s body compiled with BMI1 enabled, for x86-64 builds whose
/// baseline lacks it; called where `crate::dispatch` found BMI1.
#[cfg(all(target_arch = "x86_64", not(target_feature = "bmi1")))]
#[target_feature(enable = "bmi1")]
fn hash64_bmi1(data: &[u8; 64]) -> [u8; 32] {
    hash64::<true>(data)
}

/// Keccak-256 of exactly 64 bytes (an uncompressed public key without its `0x04` prefix):
/// a single block, so the sponge reduces to one permutation of a state that is mostly zero.
pub(crate) fn keccak256_64(data: &[u8; 64]) -> [u8; 32] {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi1")))]
    if crate::dispatch::cpu().bmi1 {
        // SAFETY: the CPU supports BMI1, checked just above.
        return unsafe { hash64_bmi1(data) };
    }
    hash64::<ANDN_NATIVE>(data)
}

/// Body of [`keccak256_64`] in the given flavour. Inlined so that the 17 constant lanes of
/// the padded block fold into the first round and only the 4 squeezed lanes are computed in
/// the last.
#[inline(always)]
fn hash64<const ANDN: bool>(data: &[u8; 64]) -> [u8; 32] {
    let mut a = [0u64; 25];
    for (lane, bytes) in a.iter_mut().zip(data.chunks_exact(8)) {
        *lane = load_le(bytes);
    }
    // Padding 0x01 ‖ 0…0 ‖ 0x80: byte 64 is the first of lane 8, byte 135 the last of lane 16.
    a[8] = 0x01;
    a[RATE_LANES - 1] = 0x80 << 56;
    toggle_repr::<ANDN>(&mut a);
    permute_peeled::<ANDN>(&mut a);
    toggle_repr::<ANDN>(&mut a);
    squeeze(&a)
}

/// Keccak-256 of `data`, as used throughout Ethereum (addresses, transaction and block
/// hashes, `KECCAK256`/`SHA3` opcode).
///
/// This is the original Keccak padding (`0x01`), which differs from the standardised
/// SHA3-256 (`0x06`). Inputs of exactly 64 bytes — uncompressed public keys — take a
/// specialised single-block path.
///
/// ```
/// use asmcrypto::keccak256;
///
/// let hex = |h: [u8; 32]| h.iter().map(|b| format!("{b:02x}")).collect::<String>();
/// assert_eq!(
///     hex(keccak256(b"")),
///     "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
/// );
/// assert_eq!(
///     hex(keccak256(b"abc")),
///     "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"
/// );
/// ```
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    if let Ok(key) = <&[u8; 64]>::try_from(data) {
        return keccak256_64(key);
    }
    let mut state = [0u64; 25];
    let mut blocks = data.chunks_exact(RATE);
    for block in &mut blocks {
        absorb_block(&mut state, block);
    }
    finish(state, blocks.remainder())
}

/// Incremental Keccak-256 hasher, for input that arrives in pieces.
///
/// Feeding the same bytes in any split gives the same digest as [`keccak256`].
///
/// ```
/// use asmcrypto::{Keccak256, keccak256};
///
/// let mut hasher = Keccak256::new();
/// hasher.update(b"The quick brown fox ");
/// hasher.update(b"jumps over the lazy dog");
/// assert_eq!(
///     hasher.finalize(),
///     keccak256(b"The quick brown fox jumps over the lazy dog")
/// );
/// ```
#[derive(Clone)]
pub struct Keccak256 {
    state: [u64; 25],
    /// Bytes not yet absorbed; `buf[..buffered]` is meaningful.
    buf: [u8; RATE],
    /// Always less than `RATE` between calls.
    buffered: usize,
}

impl Keccak256 {
    /// A hasher with nothing absorbed yet.
    pub const fn new() -> Self {
        Keccak256 {
            state: [0; 25],
            buf: [0; RATE],
            buffered: 0,
        }
    }

    /// Absorbs `data`, which may be of any length (including empty).
    pub fn update(&mut self, mut data: &[u8]) {
        if self.buffered > 0 {
            let free = &mut self.buf[self.buffered..];
            let take = free.len().min(data.len());
            let (now, later) = data.split_at(take);
            free[..take].copy_from_slice(now);
            self.buffered += take;
            data = later;
            if self.buffered < RATE {
                return;
            }
            absorb_block(&mut self.state, &self.buf);
            self.buffered = 0;
        }
        let mut blocks = data.chunks_exact(RATE);
        for block in &mut blocks {
            absorb_block(&mut self.state, block);
        }
        let rest = blocks.remainder();
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buffered = rest.len();
    }

    /// Pads, finishes and returns the 32-byte digest.
    pub fn finalize(self) -> [u8; 32] {
        let tail = &self.buf[..self.buffered];
        finish(self.state, tail)
    }
}

impl Default for Keccak256 {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Keccak256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Keccak256")
            .field("buffered", &self.buffered)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::super::permutation::{keccak_f1600, permute};
    use super::*;

    fn bytes(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed;
        (0..len)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 56) as u8
            })
            .collect()
    }

    fn general(data: &[u8]) -> [u8; 32] {
        let mut h = Keccak256::new();
        h.update(data);
        h.finalize()
    }

    #[test]
    fn keccak256_64_matches_the_sponge() {
        for seed in 0..64 {
            let d = bytes(64, seed);
            let key: &[u8; 64] = d.as_slice().try_into().unwrap();
            let want = general(&d);
            assert_eq!(keccak256_64(key), want);
            assert_eq!(keccak256(&d), want);
            assert_eq!(hash64::<true>(key), want);
            assert_eq!(hash64::<false>(key), want);
        }
    }

    #[test]
    fn keccak_f1600_matches_both_flavours() {
        let mut s = [0u64; 25];
        keccak_f1600(&mut s);
        assert_eq!(s[0], 0xF1258F7940E1DDE7);
        for _ in 0..4 {
            let mut a = s;
            let mut b = s;
            permute::<true>(&mut a);
            permute::<false>(&mut b);
            keccak_f1600(&mut s);
            assert_eq!(s, a);
            assert_eq!(s, b);
        }
    }

    #[test]
    fn debug_is_short() {
        let mut h = Keccak256::default();
        h.update(b"abc");
        assert_eq!(format!("{h:?}"), "Keccak256 { buffered: 3, .. }");
    }
}
