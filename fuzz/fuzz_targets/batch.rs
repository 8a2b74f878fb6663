//! Arbitrary bytes split into (hash, r ‖ s ‖ v) pairs of 97 bytes → every batch path
//! (`internals::BatchPath`, each variant) and `recover_addresses_batch` (on the first eight,
//! cycled), each against the strict reference model (libsecp256k1 and k256, the exact
//! error included) on every pair.
//!
//! The v byte is mapped so that most lanes can recover: 0x00..=0x3f → 0/1,
//! 0x40..=0x7f → 27/28, 0x80..=0xff kept as is (an invalid v).

#![no_main]

use asmcrypto_testkit::{Reference, check_paths, paths};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
    let mut model = Reference::strict();
    let want: Vec<_> = inputs
        .iter()
        .map(|(hash, sig)| model.recover_address(hash, sig))
        .collect();
    let every = paths::every();
    check_paths(&every, &inputs, &want, "fuzz input");
    if !inputs.is_empty() {
        let n = inputs.len();
        let eight: [([u8; 32], [u8; 65]); 8] = core::array::from_fn(|i| inputs[i % n]);
        let want8: Vec<_> = (0..8).map(|i| want[i % n]).collect();
        check_paths(&every, &eight, &want8, "fuzz input, first eight cycled");
    }
});
