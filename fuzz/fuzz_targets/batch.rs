//! Arbitrary bytes split into (hash, r ‖ s ‖ v) pairs of 97 bytes → `recover_addresses`,
//! `recover_addresses_batch` (on the first eight, cycled) and the internal batch-affine
//! and interleaved paths, each against `recover_address` on every pair.
//!
//! The v byte is mapped so that most lanes can recover: 0x00..=0x3f → 0/1,
//! 0x40..=0x7f → 27/28, 0x80..=0xff kept as is (an invalid v).

#![no_main]

use asmcrypto::internals::{BatchPath, recover_addresses_on};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&group, data)) = data.split_first() else {
        return;
    };
    let inputs: Vec<([u8; 32], [u8; 65])> = data
        .chunks_exact(97)
        .map(|c| {
            let mut sig: [u8; 65] = c[32..].try_into().unwrap();
            sig[64] = match sig[64] >> 6 {
                0 => sig[64] & 1,
                1 => 27 + (sig[64] & 1),
                _ => sig[64],
            };
            (c[..32].try_into().unwrap(), sig)
        })
        .collect();
    let want: Vec<_> = inputs
        .iter()
        .map(|(h, s)| asmcrypto::recover_address(h, s))
        .collect();
    assert_eq!(asmcrypto::recover_addresses(&inputs), want);
    assert_eq!(recover_addresses_on(BatchPath::Affine, &inputs).expect("every CPU"), want);
    let group = usize::from(group % 17).max(1);
    assert_eq!(recover_addresses_on(BatchPath::Interleaved { group }, &inputs).expect("every CPU"), want);
    if !inputs.is_empty() {
        let n = inputs.len();
        let eight: [([u8; 32], [u8; 65]); 8] = core::array::from_fn(|i| inputs[i % n]);
        let got = asmcrypto::recover_addresses_batch(&eight);
        for (i, g) in got.iter().enumerate() {
            assert_eq!(*g, want[i % n], "lane {i}");
        }
    }
});
