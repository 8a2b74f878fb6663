//! Checks of asmcrypto against the model and the oracles, shared by the suites: these call
//! asmcrypto (the model in [`crate::model`] never does) and panic with the input in hex on
//! the first difference.

use asmcrypto::Error;
use asmcrypto::internals::BatchPath;

use crate::curve::B32;
use crate::model::Reference;
use crate::oracle::address_of_key;
use crate::sig::{Signed, precompile_input, sig64, sig65};

fn ctx(hash: &B32, r: &B32, s: &B32, v: u8) -> String {
    format!(
        "hash={} r={} s={} v={v}",
        hex::encode(hash),
        hex::encode(r),
        hex::encode(s)
    )
}

/// Checks the entry points of asmcrypto on (hash, r, s) against the strict model: for the
/// Ethereum `v`, `recover_public_key` and `recover_address`; for `v` read as a libsecp256k1
/// recovery id, `ecrecover_public_key` and `ecrecover`; and the precompile on the input
/// with v word `v`. Returns the expected key for `v`.
pub fn check_all(hash: &B32, r: &B32, s: &B32, v: u8) -> Result<[u8; 64], Error> {
    let mut m = Reference::strict();
    let sig = sig65(r, s, v);
    let expected = m.recover_public_key(hash, &sig);
    assert_eq!(
        asmcrypto::recover_public_key(hash, &sig),
        expected,
        "recover_public_key: {}",
        ctx(hash, r, s, v)
    );
    assert_eq!(
        asmcrypto::recover_address(hash, &sig),
        expected.map(|k| address_of_key(&k)),
        "recover_address: {}",
        ctx(hash, r, s, v)
    );
    let rs = sig64(r, s);
    assert_eq!(
        asmcrypto::ecrecover_public_key(&rs, v, hash),
        m.ecrecover_public_key(&rs, v, hash),
        "ecrecover_public_key (recid = v): {}",
        ctx(hash, r, s, v)
    );
    assert_eq!(
        asmcrypto::ecrecover(&rs, v, hash),
        m.ecrecover(&rs, v, hash),
        "ecrecover (recid = v): {}",
        ctx(hash, r, s, v)
    );
    let input = precompile_input(hash, v, r, s);
    assert_eq!(
        asmcrypto::ecrecover_precompile(&input),
        m.ecrecover_precompile(&input),
        "ecrecover_precompile: {}",
        ctx(hash, r, s, v)
    );
    expected
}

/// Runs `paths` on `inputs` and compares every result, lane by lane, with `expected`;
/// with eight inputs, `recover_addresses_batch` too. Paths this CPU cannot run are
/// skipped. Returns how many paths ran.
pub fn check_paths(
    paths: &[BatchPath],
    inputs: &[Signed],
    expected: &[Result<[u8; 20], Error>],
    what: &str,
) -> usize {
    assert_eq!(
        inputs.len(),
        expected.len(),
        "{what}: one expected result per input"
    );
    let mut ran = 0;
    for &path in paths {
        let Some(got) = crate::paths::run(path, inputs) else {
            continue;
        };
        ran += 1;
        assert_eq!(got.len(), inputs.len(), "{what}: {path:?}: result count");
        for (i, (g, w)) in got.iter().zip(expected).enumerate() {
            assert_eq!(
                g,
                w,
                "{what}: {path:?}, lane {i} of {}: hash={} sig={}",
                inputs.len(),
                hex::encode(inputs[i].0),
                hex::encode(inputs[i].1)
            );
        }
    }
    if let Ok(eight) = <&[Signed; 8]>::try_from(inputs) {
        let got = asmcrypto::recover_addresses_batch(eight);
        assert_eq!(got.as_slice(), expected, "{what}: recover_addresses_batch");
    }
    ran
}

/// What `recover_address` (the scalar core) returns for each input: the reference of the
/// batch paths, which must equal it lane by lane.
pub fn scalar_core(inputs: &[Signed]) -> Vec<Result<[u8; 20], Error>> {
    inputs
        .iter()
        .map(|(h, s)| asmcrypto::recover_address(h, s))
        .collect()
}
