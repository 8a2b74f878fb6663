//! hash (32) ‖ r ‖ s ‖ v (65) → `recover_public_key`, `recover_address` and `ecrecover`
//! against libsecp256k1, including the exact error. Each input is also tried with v folded
//! to 0/1/27/28 and with recovery ids 0..=3, so that most inputs reach the curve code.

#![no_main]

use asmcrypto_fuzz::{address, expected, expected_v, word};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 97 {
        return;
    }
    let hash: [u8; 32] = data[..32].try_into().unwrap();
    let mut sig: [u8; 65] = data[32..97].try_into().unwrap();
    let raw_v = sig[64];
    let folded = (raw_v & 1) + if raw_v & 2 != 0 { 27 } else { 0 };
    for v in [raw_v, folded] {
        sig[64] = v;
        let want = expected_v(&hash, &sig);
        assert_eq!(asmcrypto::recover_public_key(&hash, &sig), want, "v={v}");
        assert_eq!(
            asmcrypto::recover_address(&hash, &sig),
            want.map(|k| address(&k)),
            "v={v}"
        );
    }
    let r: [u8; 32] = sig[..32].try_into().unwrap();
    let s: [u8; 32] = sig[32..64].try_into().unwrap();
    let sig64: [u8; 64] = sig[..64].try_into().unwrap();
    for recid in [raw_v, raw_v & 3] {
        let want = expected(&hash, &r, &s, recid).map(|k| word(&address(&k)));
        assert_eq!(
            asmcrypto::ecrecover(&sig64, recid, &hash),
            want,
            "recid={recid}"
        );
    }
});
