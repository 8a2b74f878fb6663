//! hash (32) ‖ r ‖ s ‖ v (65) → `recover_public_key`, `recover_address`,
//! `ecrecover_public_key` and `ecrecover` against the strict reference model (libsecp256k1
//! and k256), including the exact error. Each input is also tried with v folded to
//! 0/1/27/28 and with recovery ids 0..=3, so that most inputs reach the curve code.

#![no_main]

use asmcrypto_testkit::Reference;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 97 {
        return;
    }
    let mut model = Reference::strict();
    let hash: [u8; 32] = data[..32].try_into().unwrap();
    let mut sig: [u8; 65] = data[32..97].try_into().unwrap();
    let raw_v = sig[64];
    let folded = (raw_v & 1) + if raw_v & 2 != 0 { 27 } else { 0 };
    for v in [raw_v, folded] {
        sig[64] = v;
        assert_eq!(
            asmcrypto::recover_public_key(&hash, &sig),
            model.recover_public_key(&hash, &sig),
            "v={v}"
        );
        assert_eq!(
            asmcrypto::recover_address(&hash, &sig),
            model.recover_address(&hash, &sig),
            "v={v}"
        );
    }
    let sig64: [u8; 64] = sig[..64].try_into().unwrap();
    for recid in [raw_v, raw_v & 3] {
        assert_eq!(
            asmcrypto::ecrecover_public_key(&sig64, recid, &hash),
            model.ecrecover_public_key(&sig64, recid, &hash),
            "recid={recid}"
        );
        assert_eq!(
            asmcrypto::ecrecover(&sig64, recid, &hash),
            model.ecrecover(&sig64, recid, &hash),
            "recid={recid}"
        );
    }
});
