//! The seeded generator of every test, tool and fuzz helper: splitmix64.

use crate::curve::{B32, is_scalar};

/// splitmix64's output function: a bijective mix of one 64-bit word (seeds are derived
/// with it, e.g. a soak round's seed from the run's seed, thread and round).
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Deterministic pseudo-random numbers (splitmix64); the state is the seed.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64-bit word.
    pub fn next_u64(&mut self) -> u64 {
        let z = mix(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Uniform-ish index in `0..len` (`len > 0`).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// Uniform-ish in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// A random byte.
    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// Fills `buf`, eight bytes (one little-endian word) at a time.
    pub fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let w = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        self.fill(&mut out);
        out
    }

    /// 32 random bytes.
    pub fn bytes32(&mut self) -> B32 {
        let mut out = [0u8; 32];
        self.fill(&mut out);
        out
    }

    /// A random scalar in [1, n − 1], big-endian.
    pub fn scalar(&mut self) -> B32 {
        loop {
            let b = self.bytes32();
            if is_scalar(&b) {
                return b;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs for seed 0 of the reference implementation (Vigna's splitmix64.c).
    #[test]
    fn matches_the_reference_sequence() {
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn bytes_are_little_endian_words_cut_to_length() {
        let mut a = SplitMix64(5);
        let mut b = SplitMix64(5);
        let w0 = b.next_u64().to_le_bytes();
        let w1 = b.next_u64().to_le_bytes();
        let got = a.bytes(11);
        assert_eq!(&got[..8], &w0);
        assert_eq!(&got[8..], &w1[..3]);
    }
}
