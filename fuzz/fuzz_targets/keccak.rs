//! Arbitrary bytes → `keccak256`, `Keccak256` (fed in pieces cut where the first bytes
//! say) and `keccak256_batch` (eight slices of the input) against `sha3`.

#![no_main]

use asmcrypto_testkit::keccak;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    assert_eq!(asmcrypto::keccak256(data), keccak(data));
    // Incremental: cut points from the first (up to) four bytes.
    let mut cuts: Vec<usize> = data
        .iter()
        .take(4)
        .map(|&b| usize::from(b) * data.len() / 256)
        .collect();
    cuts.sort_unstable();
    let mut h = asmcrypto::Keccak256::new();
    let mut at = 0;
    for c in cuts {
        h.update(&data[at..c]);
        at = c;
    }
    h.update(&data[at..]);
    assert_eq!(h.finalize(), keccak(data));
    // Batch: eight overlapping slices data[i·len/8 ..] of different lengths, plus the
    // whole input.
    let len = data.len();
    let slices: [&[u8]; 8] = core::array::from_fn(|i| {
        if i == 0 {
            data
        } else {
            let start = i * len / 8;
            let end = (start + usize::from(data.get(i).copied().unwrap_or(0)) * 2).min(len);
            &data[start..end]
        }
    });
    let got = asmcrypto::keccak256_batch(slices);
    for (i, s) in slices.iter().enumerate() {
        assert_eq!(got[i], keccak(s), "slice {i}");
    }
});
