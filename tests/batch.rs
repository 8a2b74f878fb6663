//! The batch entry points on the published data: every precompile vector and every real
//! transaction through `recover_addresses_batch` (groups of eight, every lane position)
//! and `recover_addresses`, and through the portable lane engine, against the published
//! results.

use asmcrypto::internals::{BatchPath, recover_addresses_on};

type Signed = ([u8; 32], [u8; 65]);

const TX: &str = include_str!("data/tx_senders.jsonl");
const PRECOMPILE: &str = include_str!("data/precompile_ecrecover.jsonl");

fn hex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("hex")
}

/// (input, expected result) pairs: tx vectors expect their sender; precompile vectors
/// whose input decodes to a (hash, r, s, v ∈ {27, 28}) expect their published output.
fn cases() -> Vec<(Signed, Option<[u8; 20]>)> {
    let mut out = Vec::new();
    for line in TX.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let f = |k: &str| hex(v[k].as_str().unwrap());
        let mut sig = [0u8; 65];
        sig[..32].copy_from_slice(&f("r"));
        sig[32..64].copy_from_slice(&f("s"));
        sig[64] = v["recid"].as_u64().unwrap() as u8;
        out.push((
            (f("hash").try_into().unwrap(), sig),
            Some(f("address").try_into().unwrap()),
        ));
    }
    let mut precompile = 0;
    for line in PRECOMPILE.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut input = hex(v["input"].as_str().unwrap());
        input.resize(input.len().max(128), 0);
        let vword = &input[32..64];
        if vword[..31].iter().any(|&b| b != 0) || !(vword[31] == 27 || vword[31] == 28) {
            continue;
        }
        let mut sig = [0u8; 65];
        sig[..64].copy_from_slice(&input[64..128]);
        sig[64] = vword[31];
        let expected = hex(v["expected"].as_str().unwrap());
        let want = if expected.is_empty() {
            None
        } else {
            Some(expected[12..].try_into().unwrap())
        };
        out.push(((input[..32].try_into().unwrap(), sig), want));
        precompile += 1;
    }
    assert!(
        precompile >= 100,
        "precompile vectors with a 27/28 v word: {precompile}"
    );
    assert_eq!(out.len(), 147 + precompile);
    out
}

fn check(results: &[Result<[u8; 20], asmcrypto::Error>], cases: &[(Signed, Option<[u8; 20]>)]) {
    assert_eq!(results.len(), cases.len());
    for (i, (r, (_, want))) in results.iter().zip(cases).enumerate() {
        assert_eq!(r.ok(), *want, "case {i}");
    }
}

#[test]
fn published_vectors_through_recover_addresses() {
    let cases = cases();
    let inputs: Vec<Signed> = cases.iter().map(|c| c.0).collect();
    check(&asmcrypto::recover_addresses(&inputs), &cases);
    // Every tail length.
    for len in 0..=17 {
        check(&asmcrypto::recover_addresses(&inputs[..len]), &cases[..len]);
    }
}

#[test]
fn published_vectors_through_batches_at_every_lane_position() {
    let cases = cases();
    // Rotate the data so each vector visits every lane position.
    for shift in 0..8 {
        let rotated: Vec<_> = cases
            .iter()
            .cycle()
            .skip(shift)
            .take(cases.len() - cases.len() % 8)
            .cloned()
            .collect();
        for group in rotated.chunks_exact(8) {
            let inputs: [Signed; 8] = core::array::from_fn(|i| group[i].0);
            let got = asmcrypto::recover_addresses_batch(&inputs);
            check(&got, group);
            if shift == 0 {
                check(
                    &recover_addresses_on(BatchPath::PortableLanes, &inputs).expect("every CPU"),
                    group,
                );
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn backend_is_reported() {
    let b = asmcrypto::backend();
    assert!(b == "avx512-ifma" || b == "scalar", "{b}");
    let has = std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512ifma");
    assert_eq!(b == "avx512-ifma", has);
}
