//! Arbitrary bytes → `ecrecover_precompile` against the precompile's definition in the
//! strict reference model (libsecp256k1 and k256); also with the v word forced to 27/28 so
//! that most inputs reach recovery.

#![no_main]

use asmcrypto_testkit::model_precompile as expected_precompile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    assert_eq!(
        asmcrypto::ecrecover_precompile(data),
        expected_precompile(data)
    );
    if data.len() >= 64 {
        let mut forced = data.to_vec();
        let v = 27 + (forced[63] & 1);
        forced[32..63].fill(0);
        forced[63] = v;
        assert_eq!(
            asmcrypto::ecrecover_precompile(&forced),
            expected_precompile(&forced)
        );
    }
});
