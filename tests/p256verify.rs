//! P256VERIFY (EIP-7951): the published vectors (go-ethereum, EIP-7951, Wycheproof) and
//! seeded valid and hostile inputs, through the precompile, the typed call and the batch,
//! against RustCrypto's p256 crate and OpenSSL.

use asmcrypto::{p256_verify, p256_verify_batch, p256verify_precompile};
use asmcrypto_testkit::SplitMix64;
use asmcrypto_testkit::p256::{self as tk, Input};

const SUCCESS: [u8; 32] = {
    let mut out = [0u8; 32];
    out[31] = 1;
    out
};

fn split(input: &Input) -> ([u8; 32], [u8; 64], [u8; 64]) {
    (
        input[..32].try_into().unwrap(),
        input[32..96].try_into().unwrap(),
        input[96..].try_into().unwrap(),
    )
}

/// Every entry point on one input, checked against `expected`; the typed call's error
/// against the input's own fields.
fn check(input: &[u8], expected: bool, what: &str) {
    let want = expected.then_some(SUCCESS);
    assert_eq!(p256verify_precompile(input), want, "{what}: precompile");
    let Ok(fixed) = <&Input>::try_from(input) else {
        assert!(!expected, "{what}: only 160 bytes can verify");
        return;
    };
    assert_eq!(
        p256_verify_batch(&[*fixed]),
        vec![expected],
        "{what}: batch of one"
    );
    let (hash, sig, key) = split(fixed);
    let got = p256_verify(&hash, &sig, &key);
    assert_eq!(got.is_ok(), expected, "{what}: typed call {got:?}");
    if let Err(e) = got {
        assert_eq!(e, tk::expected_error(fixed), "{what}");
    }
}

/// A published vector through every entry point, and both oracles against its published
/// output (OpenSSL where it is one).
fn check_vector(v: &tk::Vector) {
    check(&v.input, v.valid, &v.what);
    assert_eq!(
        tk::p256_crate_verify(&v.input),
        v.valid,
        "{}: p256 crate",
        v.what
    );
    if let Some(o) = tk::openssl_verify(&v.input) {
        assert_eq!(o, v.valid, "{}: OpenSSL", v.what);
    }
}

#[test]
fn published_precompile_vectors() {
    let vectors = tk::precompile_vectors();
    let mut valid = 0;
    for v in &vectors {
        check_vector(v);
        valid += v.valid as usize;
    }
    assert_eq!((vectors.len(), valid), (295, 211));
    // The published inputs as one batch.
    let fixed: Vec<Input> = vectors
        .iter()
        .filter_map(|v| <Input>::try_from(&v.input[..]).ok())
        .collect();
    let want: Vec<bool> = fixed.iter().map(|i| tk::p256_crate_verify(i)).collect();
    assert_eq!(p256_verify_batch(&fixed), want);
}

#[test]
fn wycheproof_vectors() {
    let vectors = tk::wycheproof_vectors();
    for v in &vectors {
        check_vector(v);
        // OpenSSL is an oracle for every Wycheproof input (160 bytes, coordinates below p)
        // on x86-64, where the test support links it.
        assert_eq!(
            tk::openssl_verify(&v.input).is_some(),
            cfg!(target_arch = "x86_64"),
            "{}",
            v.what
        );
    }
    let fixed: Vec<Input> = vectors
        .iter()
        .map(|v| <Input>::try_from(&v.input[..]).unwrap())
        .collect();
    let want: Vec<bool> = vectors.iter().map(|v| v.valid).collect();
    assert_eq!(p256_verify_batch(&fixed), want);
}

#[test]
fn seeded_cases_agree_with_p256_and_openssl() {
    // 12,000 inputs, every kind of the test support's P-256 generator in turn (valid, high s, hash ≥ n,
    // r or s out of range, key coordinates ≥ p, (0, 0), off-curve keys, changed fields,
    // another key, R′ at infinity, random bytes).
    let cases = tk::cases(12_000, 0x7951);
    let mut per_kind = vec![[0usize; 2]; tk::KINDS.len()];
    let mut openssl_skipped = 0;
    for (i, input) in cases.iter().enumerate() {
        let kind = tk::KINDS[i % tk::KINDS.len()];
        let want = tk::p256_crate_verify(input);
        match tk::openssl_verify(input) {
            Some(o) => assert_eq!(o, want, "case {i} ({kind}): OpenSSL against p256"),
            None => openssl_skipped += 1,
        }
        check(input, want, &format!("case {i} ({kind})"));
        per_kind[i % tk::KINDS.len()][want as usize] += 1;
    }
    // Every kind is what it says: the valid kinds verify, the others are refused (a changed
    // field or random bytes could in principle still verify, never in practice).
    for (kind, [refused, verified]) in tk::KINDS.iter().zip(&per_kind) {
        if kind.starts_with("valid") {
            assert_eq!(*refused, 0, "{kind}");
        } else {
            assert_eq!(*verified, 0, "{kind}");
        }
    }
    // OpenSSL is no oracle only for the coordinates ≥ p (and there p256 refuses them).
    let coordinate_kinds = (0..cases.len())
        .filter(|i| tk::KINDS[i % tk::KINDS.len()].starts_with('q'))
        .count();
    if cfg!(target_arch = "x86_64") {
        assert_eq!(openssl_skipped, coordinate_kinds);
    }
    assert_eq!(p256_verify_batch(&cases), {
        let v: Vec<bool> = cases.iter().map(|i| tk::p256_crate_verify(i)).collect();
        v
    });
}

#[test]
fn batch_equals_single_at_every_length() {
    let mut rng = SplitMix64(0x100);
    let pool = tk::cases(600, 0x0100_0100);
    let single: Vec<bool> = pool
        .iter()
        .map(|i| p256verify_precompile(i).is_some())
        .collect();
    for len in (0..=70).chain(255..=257).chain([513]) {
        let start = rng.index(pool.len() - len + 1);
        assert_eq!(
            p256_verify_batch(&pool[start..start + len]),
            single[start..start + len],
            "length {len}"
        );
    }
}

#[test]
fn batch_lanes_that_meet_their_key_table() {
    // The key 2G: where u₂'s top 4-bit window equals u₁'s top 11-bit one (about one
    // signature in eight), the 8-lane engine's first addition of a multiple of Q (on CPUs
    // with AVX-512 IFMA) meets its accumulator, 2·d·G = d·Q, and hands the lane back to
    // the scalar core. Every verdict must still be the precompile's.
    let mut rng = SplitMix64(0x2222);
    let mut inputs: Vec<Input> = (0..240)
        .map(|_| tk::signed_by_secret(2, &rng.bytes32()))
        .collect();
    for x in inputs.iter_mut().skip(1).step_by(2) {
        x[95] ^= 1; // s changed
    }
    let single: Vec<bool> = inputs
        .iter()
        .map(|i| p256verify_precompile(i).is_some())
        .collect();
    assert_eq!(single.iter().filter(|&&v| v).count(), 120);
    assert_eq!(p256_verify_batch(&inputs), single);
}

#[test]
fn lengths_other_than_160_are_refused() {
    let valid = tk::cases(1, 1)[0];
    assert!(p256verify_precompile(&valid).is_some());
    for len in [0usize, 1, 31, 32, 96, 128, 159, 161, 192, 256] {
        let mut input = valid.to_vec();
        input.resize(len, 0);
        assert_eq!(p256verify_precompile(&input), None, "length {len}");
    }
    // Trailing zeros after a valid input are not ignored.
    let mut long = valid.to_vec();
    long.push(0);
    assert_eq!(p256verify_precompile(&long), None);
}

#[test]
fn each_error_names_its_check() {
    use asmcrypto::P256Error::{
        InvalidR, InvalidS, KeyCoordinateOutOfRange, KeyNotOnCurve, Mismatch,
    };
    // Each variant with a word its message must contain.
    let named = [
        (InvalidR, "signature r "),
        (InvalidS, "signature s "),
        (KeyCoordinateOutOfRange, "coordinate"),
        (KeyNotOnCurve, "not a point"),
        (Mismatch, "does not match"),
    ];
    for (i, (e, word)) in named.iter().enumerate() {
        let text = e.to_string();
        assert!(text.contains(word), "{e:?}: {text}");
        // The same text through `std::error::Error`, and no other variant's.
        let dynamic: &dyn std::error::Error = e;
        assert_eq!(dynamic.to_string(), text);
        for (other, _) in &named[i + 1..] {
            assert_ne!(other.to_string(), text, "{e:?} and {other:?}");
        }
    }
}
