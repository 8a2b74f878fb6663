//! Published vectors: EVM `ecrecover` precompile cases (go-ethereum, evmone, Besu) and
//! transaction senders from ethereum/tests, checked through every public entry point.

use asmcrypto::{ecrecover, ecrecover_precompile, recover_address, recover_public_key};
use asmcrypto_testkit::samples;
use asmcrypto_testkit::*;

#[test]
fn precompile_vectors() {
    let mut total = 0;
    let mut well_formed = 0;
    let mut succeeding = 0;
    let mut sources = std::collections::BTreeSet::new();
    for case in samples::precompile_vectors() {
        total += 1;
        let name = &case.name;
        sources.insert(case.source.split('@').next().unwrap().to_owned());
        let input = &case.input;
        let expected = case.expected;
        if let Some(w) = expected {
            assert_eq!(&w[..12], &[0u8; 12], "{name}: malformed expected word");
            succeeding += 1;
        }

        // The published output, byte for byte.
        assert_eq!(ecrecover_precompile(input), expected, "{name}");
        // The reference model (secp256k1 + k256 + sha3) agrees with the published output.
        assert_eq!(model_precompile(input), expected, "{name}: reference model");

        // Well-formed v word: also through recover_address and ecrecover.
        let PrecompileInput { hash, v, r, s } = PrecompileInput::parse(input);
        let Some(v) = v else {
            assert_eq!(expected, None, "{name}: malformed v must give empty output");
            continue;
        };
        well_formed += 1;
        let recid = v - 27;
        for v in [v, recid] {
            let addr = recover_address(&hash, &sig65(&r, &s, v));
            assert_eq!(
                addr.ok().map(|a| address_word(&a)),
                expected,
                "{name}: recover_address v={v}"
            );
            let key = recover_public_key(&hash, &sig65(&r, &s, v));
            assert_eq!(
                key.ok().map(|k| address_word(&address_of_key(&k))),
                expected,
                "{name}: recover_public_key v={v}"
            );
        }
        assert_eq!(
            ecrecover(&sig64(&r, &s), recid, &hash).ok(),
            expected,
            "{name}: ecrecover"
        );
        // And the full model, including the exact error for the failing ones.
        let model = check_all(&hash, &r, &s, v);
        assert_eq!(
            model.ok().map(|k| address_word(&address_of_key(&k))),
            expected,
            "{name}: model"
        );
    }
    assert_eq!(total, 115, "precompile vector count");
    assert!(
        well_formed >= 100,
        "only {well_formed} well-formed precompile vectors"
    );
    assert!(
        succeeding >= 100,
        "only {succeeding} succeeding precompile vectors"
    );
    assert_eq!(sources.len(), 3, "vector sources: {sources:?}");
}

#[test]
fn tx_sender_vectors() {
    let mut total = 0;
    let mut high_s = 0;
    let mut by_recid = [0usize; 2];
    let mut tx_types = std::collections::BTreeSet::new();
    let half_n = n() >> 1usize;
    for case in samples::tx_senders() {
        total += 1;
        let name = &case.name;
        let (hash, r, s, recid, address) = (case.hash, case.r, case.s, case.recid, case.address);
        assert!(recid <= 1, "{name}: recid {recid}");
        by_recid[usize::from(recid)] += 1;
        tx_types.insert(case.tx_type);
        let is_high_s = case.high_s;
        assert_eq!(is_high_s, from_be(&s) > half_n, "{name}: high_s flag");
        if is_high_s {
            high_s += 1;
        }

        let oracle_key = secp_recover(&hash, &r, &s, recid).expect("secp256k1 recovers the vector");
        assert_eq!(
            k256_recover(&hash, &r, &s, recid),
            Some(oracle_key),
            "{name}: k256"
        );
        assert_eq!(
            address_of_key(&oracle_key),
            address,
            "{name}: oracle address"
        );
        let word = address_word(&address);

        for v in [recid, recid + 27] {
            let sig = sig65(&r, &s, v);
            assert_eq!(
                recover_address(&hash, &sig),
                Ok(address),
                "{name}: recover_address v={v}"
            );
            let key = recover_public_key(&hash, &sig).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(keccak(&key)[12..], address, "{name}: keccak of key v={v}");
            assert_eq!(key, oracle_key, "{name}: key v={v}");
        }
        assert_eq!(
            ecrecover(&sig64(&r, &s), recid, &hash),
            Ok(word),
            "{name}: ecrecover"
        );
        let input = precompile_input(&hash, recid + 27, &r, &s);
        assert_eq!(
            ecrecover_precompile(&input),
            Some(word),
            "{name}: precompile"
        );
        // Trailing bytes past 128 are ignored.
        let mut long = input.to_vec();
        long.extend_from_slice(&[0xa5; 37]);
        assert_eq!(
            ecrecover_precompile(&long),
            Some(word),
            "{name}: precompile + tail"
        );

        // The other parity gives another key (or none): check it against the model too.
        assert!(
            check_all(&hash, &r, &s, (recid ^ 1) + 27).is_ok(),
            "{name}: other parity"
        );
    }
    assert_eq!(total, 147, "tx vector count");
    assert!(high_s >= 1, "no high-s vector");
    assert!(by_recid[0] >= 1 && by_recid[1] >= 1, "recids: {by_recid:?}");
    assert!(tx_types.len() >= 3, "tx types: {tx_types:?}");
}
