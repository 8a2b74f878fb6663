//! Keccak-256 as Ethereum uses it: the original Keccak submission with padding byte `0x01`
//! (not the `0x06` of FIPS 202 SHA3-256), capacity 512 bits, rate 136 bytes, 32-byte output.
//!
//! The permutation lives in [`permutation`]. It is compiled in one of two flavours (see
//! there); on x86-64 builds without BMI1 enabled at compile time, a second copy compiled for
//! BMI1 (`andn`) is picked at run time when the CPU has it.

mod batch;
mod permutation;
mod x4;

pub use batch::keccak256_batch;
#[cfg_attr(not(feature = "alloy"), allow(unused_imports))]
pub(crate) use batch::keccak256_many;

use core::fmt;
use permutation::{permute, permute_peeled, toggle_repr};

/// Rate of Keccak-256 in bytes: 1600 − 2·256 bits.
const RATE: usize = 136;
/// Rate in 64-bit lanes.
const RATE_LANES: usize = RATE / 8;

/// Whether the compilation target has an and-not instruction, making the literal χ the
/// fastest flavour (x86 BMI1 `andn`, Arm `bic`). Otherwise lane complementing is used.
const ANDN_NATIVE: bool = cfg!(any(
    target_arch = "aarch64",
    target_arch = "arm",
    target_feature = "bmi1"
));

/// Copies of the hot functions compiled with BMI1 enabled, for x86-64 builds whose baseline
/// lacks it. Callers check the CPU first.
#[cfg(all(target_arch = "x86_64", not(target_feature = "bmi1")))]
mod x86_bmi1 {
    #[target_feature(enable = "bmi1")]
    pub(super) unsafe fn keccak_f1600(state: &mut [u64; 25]) {
        super::permute::<true>(state)
    }

    #[target_feature(enable = "bmi1")]
    pub(super) unsafe fn keccak256_64(data: &[u8; 64]) -> [u8; 32] {
        super::hash64::<true>(data)
    }
}

/// Whether the running CPU supports BMI1 (std caches the answer after the first query).
#[cfg(all(target_arch = "x86_64", not(target_feature = "bmi1")))]
#[inline(always)]
fn has_bmi1() -> bool {
    std::arch::is_x86_feature_detected!("bmi1")
}

/// The Keccak-f\[1600\] permutation (24 rounds) on a state of 25 lanes, lane `(x, y)` at
/// index `x + 5 * y`, bytes of the sponge in little-endian order within each lane.
pub(crate) fn keccak_f1600(state: &mut [u64; 25]) {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi1")))]
    if has_bmi1() {
        // SAFETY: the CPU supports BMI1, checked just above.
        return unsafe { x86_bmi1::keccak_f1600(state) };
    }
    permute::<ANDN_NATIVE>(state)
}

/// Keccak-256 of exactly 64 bytes (an uncompressed public key without its `0x04` prefix):
/// a single block, so the sponge reduces to one permutation of a state that is mostly zero.
pub(crate) fn keccak256_64(data: &[u8; 64]) -> [u8; 32] {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi1")))]
    if has_bmi1() {
        // SAFETY: the CPU supports BMI1, checked just above.
        return unsafe { x86_bmi1::keccak256_64(data) };
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

/// Little-endian word from up to 8 bytes (exactly 8 at every call site).
#[inline(always)]
fn load_le(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    for (d, s) in w.iter_mut().zip(bytes) {
        *d = *s;
    }
    u64::from_le_bytes(w)
}

/// XORs one full block (`RATE` bytes) into the state and permutes.
#[inline]
fn absorb_block(state: &mut [u64; 25], block: &[u8]) {
    for (lane, bytes) in state.iter_mut().zip(block.chunks_exact(8)) {
        *lane ^= load_le(bytes);
    }
    keccak_f1600(state);
}

/// Pads the final partial block `tail` (shorter than `RATE`), absorbs it and squeezes.
#[inline]
fn finish(mut state: [u64; 25], tail: &[u8]) -> [u8; 32] {
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
fn squeeze(state: &[u64; 25]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (bytes, lane) in out.chunks_exact_mut(8).zip(state) {
        for (d, s) in bytes.iter_mut().zip(lane.to_le_bytes()) {
            *d = s;
        }
    }
    out
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
