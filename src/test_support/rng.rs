//! The unit tests' seeded generator (splitmix64), written once for every test module of
//! the crate. (The integration tests, tools and fuzz targets use `asmcrypto-testkit`'s; the
//! unit tests cannot share its types, which belong to another build of this crate.)

/// The next splitmix64 output of `state` (advancing it).
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// splitmix64 as a generator; the state is the seed.
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    /// The next 64-bit word.
    pub(crate) fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }

    /// The next four words, in order (a 256-bit value's little-endian limbs).
    pub(crate) fn words4(&mut self) -> [u64; 4] {
        core::array::from_fn(|_| self.next_u64())
    }

    /// The next `n` words.
    pub(crate) fn words(&mut self, n: usize) -> Vec<u64> {
        (0..n).map(|_| self.next_u64()).collect()
    }
}

#[test]
fn matches_the_reference_sequence() {
    // The first outputs for seed 0 of the reference implementation (Vigna's splitmix64.c).
    let mut r = SplitMix64(0);
    assert_eq!(
        r.words(3),
        [
            0xE220_A839_7B1D_CDAF,
            0x6E78_9E6A_A1B9_65F4,
            0x06C4_5D18_8009_454F
        ]
    );
}
