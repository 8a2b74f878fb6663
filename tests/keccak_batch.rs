//! `keccak256_batch` against the `sha3` crate as an independent oracle, over seeded random
//! combinations of input lengths (whichever batch path this machine takes).

use asmcrypto::{keccak256, keccak256_batch};
use sha3::Digest;

fn oracle(data: &[u8]) -> [u8; 32] {
    sha3::Keccak256::digest(data).into()
}

/// Deterministic pseudo-random numbers (splitmix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// Hashes the batch and checks every output against the oracle.
fn check(inputs: [&[u8]; 8]) {
    let got = keccak256_batch(inputs);
    for (i, (input, hash)) in inputs.iter().zip(&got).enumerate() {
        assert_eq!(
            *hash,
            oracle(input),
            "lane {i}, lengths {:?}",
            inputs.map(<[u8]>::len)
        );
    }
}

const MAX: usize = 600;

/// Lengths around the block boundaries (rate 136) and the 64-byte special case.
const SPECIAL: [usize; 16] = [
    0, 1, 31, 32, 63, 64, 65, 135, 136, 137, 271, 272, 273, 407, 408, 409,
];

/// Picks eight lengths in `0..=MAX` according to `mode`.
fn lengths(rng: &mut SplitMix64, mode: usize) -> [usize; 8] {
    match mode {
        // Independent uniform lengths.
        0 => core::array::from_fn(|_| rng.below(MAX + 1)),
        // All equal.
        1 => [rng.below(MAX + 1); 8],
        // One long lane among short ones.
        2 => {
            let mut l: [usize; 8] = core::array::from_fn(|_| rng.below(136));
            l[rng.below(8)] = 137 + rng.below(MAX - 136);
            l
        }
        // Exact multiples of the rate, and their neighbours.
        3 => core::array::from_fn(|_| {
            let m = 136 * rng.below(5);
            (m + [0, 0, 1, 135][rng.below(4)]).min(MAX)
        }),
        // The boundary lengths, mixed.
        4 => core::array::from_fn(|_| SPECIAL[rng.below(SPECIAL.len())]),
        // 135 / 136 / 137 only.
        5 => core::array::from_fn(|_| 135 + rng.below(3)),
        // All 64 (public keys), or all 64 but one.
        6 => {
            let mut l = [64; 8];
            if rng.below(2) == 0 {
                l[rng.below(8)] = rng.below(MAX + 1);
            }
            l
        }
        // Short inputs, all within one block.
        _ => core::array::from_fn(|_| rng.below(136)),
    }
}

#[test]
fn random_length_combinations() {
    let mut rng = SplitMix64(0x6B65_6363_616B);
    // Inputs are windows of one buffer at random offsets (so alignment varies too).
    let data = rng.bytes(MAX + 64);
    let cases = 8 * 500;
    for case in 0..cases {
        let lens = lengths(&mut rng, case % 8);
        let offs: [usize; 8] = core::array::from_fn(|_| rng.below(64));
        let inputs: [&[u8]; 8] = core::array::from_fn(|i| &data[offs[i]..offs[i] + lens[i]]);
        check(inputs);
    }
}

#[test]
fn every_length_up_to_600_in_every_lane() {
    let mut rng = SplitMix64(7);
    let data = rng.bytes(MAX);
    for len in 0..=MAX {
        // Lane i gets length len − i (wrapping into range), so every lane sees every length.
        let inputs: [&[u8]; 8] =
            core::array::from_fn(|i| &data[..(len + MAX + 1 - 37 * i) % (MAX + 1)]);
        check(inputs);
    }
}

#[test]
fn identical_inputs_give_identical_hashes() {
    let key = [0x5Au8; 64];
    let h = keccak256_batch([&key; 8]);
    assert!(h.iter().all(|x| *x == keccak256(&key)));
    let empty = keccak256_batch([b""; 8]);
    assert!(empty.iter().all(|x| *x == oracle(b"")));
}

#[test]
fn one_mebibyte_in_one_lane() {
    let mut rng = SplitMix64(99);
    let big = rng.bytes(1 << 20);
    let small = rng.bytes(200);
    for lane in [0, 5] {
        let mut inputs: [&[u8]; 8] = core::array::from_fn(|i| &small[..25 * i]);
        inputs[lane] = &big;
        check(inputs);
    }
    // Two long lanes, of different lengths.
    let mut inputs: [&[u8]; 8] = [&small; 8];
    inputs[2] = &big;
    inputs[6] = &big[..(1 << 19) + 77];
    check(inputs);
}
