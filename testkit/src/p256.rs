//! P-256 (P256VERIFY, EIP-7951) test support: the published vectors, the seeded generator
//! of valid and hostile precompile inputs, and the two independent oracles, RustCrypto's
//! `p256` crate and OpenSSL. Nothing here calls asmcrypto.

use crate::rng::SplitMix64;
use num_bigint::BigUint;
use p256::ecdsa::signature::hazmat::{PrehashSigner, PrehashVerifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
#[cfg(target_arch = "x86_64")]
use std::sync::OnceLock;

const PRECOMPILE: &str = include_str!("../../tests/data/precompile_p256verify.jsonl");
const WYCHEPROOF: &str = include_str!("../../tests/data/wycheproof_p256_sha256.jsonl");

/// A 160-byte P256VERIFY input: hash ‖ r ‖ s ‖ qx ‖ qy.
pub type Input = [u8; 160];

/// p, big-endian.
pub const P: [u8; 32] = be("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff");
/// n, big-endian.
pub const N: [u8; 32] = be("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");

const fn be(s: &str) -> [u8; 32] {
    let b = s.as_bytes();
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = (nib(b[2 * i]) << 4) | nib(b[2 * i + 1]);
        i += 1;
    }
    out
}

const fn nib(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        _ => c - b'a' + 10,
    }
}

/// One published vector: the input as published (any length) and the output.
#[derive(Clone, Debug)]
pub struct Vector {
    /// Where it comes from and its name, for messages.
    pub what: String,
    /// The call data.
    pub input: Vec<u8>,
    /// Whether the precompile returns 31 zero bytes then 1 (otherwise the empty output).
    pub valid: bool,
}

fn lines(data: &str) -> impl Iterator<Item = serde_json::Value> + '_ {
    data.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
}

fn text<'a>(v: &'a serde_json::Value, name: &str) -> &'a str {
    v[name]
        .as_str()
        .unwrap_or_else(|| panic!("field {name} missing in {v}"))
}

fn verdict(expected: &str) -> bool {
    match expected {
        "" => false,
        "0000000000000000000000000000000000000000000000000000000000000001" => true,
        other => panic!("unexpected P256VERIFY output {other}"),
    }
}

/// `precompile_p256verify.jsonl`: go-ethereum's and EIP-7951's vectors (295 distinct).
pub fn precompile_vectors() -> Vec<Vector> {
    let out: Vec<Vector> = lines(PRECOMPILE)
        .map(|v| Vector {
            what: format!("{} {}", text(&v, "source"), text(&v, "name")),
            input: hex::decode(text(&v, "input")).expect("hex"),
            valid: verdict(text(&v, "expected")),
        })
        .collect();
    assert_eq!(
        out.len(),
        295,
        "tests/data/precompile_p256verify.jsonl changed"
    );
    out
}

/// `wycheproof_p256_sha256.jsonl`: Wycheproof's ECDSA P-256 SHA-256 cases (DER and P1363)
/// whose signatures give explicit r and s, as precompile inputs, with Wycheproof's result.
pub fn wycheproof_vectors() -> Vec<Vector> {
    let out: Vec<Vector> = lines(WYCHEPROOF)
        .map(|v| {
            let result = text(&v, "result");
            let valid = match result {
                "valid" => true,
                "invalid" => false,
                other => panic!("Wycheproof result {other} has no precompile verdict"),
            };
            assert_eq!(
                valid,
                verdict(text(&v, "expected_precompile")),
                "Wycheproof's result and the precompile's verdict differ: {v}"
            );
            Vector {
                what: format!(
                    "wycheproof {} tcId {} ({})",
                    text(&v, "encoding"),
                    v["tc_id"],
                    text(&v, "comment")
                ),
                input: hex::decode(text(&v, "input")).expect("hex"),
                valid,
            }
        })
        .collect();
    assert_eq!(
        out.len(),
        490,
        "tests/data/wycheproof_p256_sha256.jsonl changed"
    );
    out
}

/// EIP-7951's answer by RustCrypto's `p256` crate (revm's default backend): the length,
/// then the key (it refuses coordinates ≥ p and points off the curve), then r and s in
/// [1, n−1], then the verification (which refuses R′ at infinity and compares x(R′) mod n).
pub fn p256_crate_verify(input: &[u8]) -> bool {
    let Ok(input) = <&Input>::try_from(input) else {
        return false;
    };
    let mut point = [0u8; 65];
    point[0] = 4;
    point[1..].copy_from_slice(&input[96..]);
    let Ok(key) = VerifyingKey::from_sec1_bytes(&point) else {
        return false;
    };
    let Ok(sig) = Signature::from_slice(&input[32..96]) else {
        return false;
    };
    key.verify_prehash(&input[..32], &sig).is_ok()
}

/// The first of EIP-7951's checks that `input` fails, from its fields alone, for an input
/// that does not verify (`p256_verify`'s error): r, then s, in [1, n − 1]; qx and qy below
/// p; the key on the curve (by the `p256` crate, for which (0, 0) is not); otherwise the
/// signature itself.
pub fn expected_error(input: &Input) -> asmcrypto::P256Error {
    use asmcrypto::P256Error;
    let in_range = |b: &[u8], m: &[u8; 32]| b.iter().any(|&x| x != 0) && b < &m[..];
    if !in_range(&input[32..64], &N) {
        P256Error::InvalidR
    } else if !in_range(&input[64..96], &N) {
        P256Error::InvalidS
    } else if input[96..128] >= P[..] || input[128..] >= P[..] {
        P256Error::KeyCoordinateOutOfRange
    } else if !key_on_curve(&input[96..].try_into().expect("64 bytes")) {
        P256Error::KeyNotOnCurve
    } else {
        P256Error::Mismatch
    }
}

/// Whether the key qx ‖ qy (coordinates below p) is a point of P-256, by the `p256` crate.
pub fn key_on_curve(key: &[u8; 64]) -> bool {
    let mut point = [4u8; 65];
    point[1..].copy_from_slice(key);
    p256::PublicKey::from_sec1_bytes(&point).is_ok()
}

/// OpenSSL's answer (ECDSA_do_verify over an EC_KEY from the affine coordinates), or `None`
/// where OpenSSL is no oracle for EIP-7951: an input that is not 160 bytes, or a key
/// coordinate ≥ p, which OpenSSL 3 reduces instead of refusing; and on every CPU but
/// x86-64, where the test support does not link OpenSSL (the aarch64 tests run under qemu).
#[cfg(not(target_arch = "x86_64"))]
pub fn openssl_verify(_input: &[u8]) -> Option<bool> {
    None
}

/// OpenSSL's answer (ECDSA_do_verify over an EC_KEY from the affine coordinates), or `None`
/// where OpenSSL is no oracle for EIP-7951: an input that is not 160 bytes, or a key
/// coordinate ≥ p, which OpenSSL 3 reduces instead of refusing.
#[cfg(target_arch = "x86_64")]
pub fn openssl_verify(input: &[u8]) -> Option<bool> {
    use openssl::bn::BigNum;
    use openssl::ec::{EcGroup, EcKey};
    use openssl::ecdsa::EcdsaSig;
    use openssl::nid::Nid;
    let input = <&Input>::try_from(input).ok()?;
    if input[96..128] >= P[..] || input[128..] >= P[..] {
        return None;
    }
    static GROUP: OnceLock<EcGroup> = OnceLock::new();
    let group =
        GROUP.get_or_init(|| EcGroup::from_curve_name(Nid::X9_62_PRIME256V1).expect("P-256 group"));
    let bn = |b: &[u8]| BigNum::from_slice(b).expect("BigNum");
    let Ok(key) =
        EcKey::from_public_key_affine_coordinates(group, &bn(&input[96..128]), &bn(&input[128..]))
    else {
        return Some(false);
    };
    if key.check_key().is_err() {
        return Some(false);
    }
    let sig = EcdsaSig::from_private_components(bn(&input[32..64]), bn(&input[64..96]))
        .expect("ECDSA_SIG");
    Some(sig.verify(&input[..32], &key).unwrap_or(false))
}

/// The kinds of [`case`]: valid signatures (low and high s) and every way an input can fail
/// one of EIP-7951's checks.
pub const KINDS: &[&str] = &[
    "valid",
    "valid, high s",
    "valid, hash ≥ n",
    "r = 0",
    "r = n",
    "r ≥ n (random)",
    "s = 0",
    "s = n",
    "s ≥ n (random)",
    "qx ≥ p",
    "qy ≥ p",
    "key (0, 0)",
    "key off the curve",
    "hash changed",
    "r changed",
    "s changed",
    "another key",
    "R′ at infinity",
    "random bytes",
];

fn random_key(rng: &mut SplitMix64) -> SigningKey {
    loop {
        if let Ok(k) = SigningKey::from_slice(&rng.bytes32()) {
            return k;
        }
    }
}

fn key_bytes(key: &SigningKey) -> [u8; 64] {
    let p = key.verifying_key().to_encoded_point(false);
    p.as_bytes()[1..].try_into().expect("64 bytes")
}

fn big(b: &[u8]) -> BigUint {
    BigUint::from_bytes_be(b)
}

fn b32(v: &BigUint) -> [u8; 32] {
    let b = v.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(&b);
    out
}

/// A valid signature over `hash` by `key`, as an input.
fn signed(key: &SigningKey, hash: &[u8; 32]) -> Input {
    let sig: Signature = key.sign_prehash(hash).expect("signing a 32-byte prehash");
    let mut out = [0u8; 160];
    out[..32].copy_from_slice(hash);
    out[32..96].copy_from_slice(&sig.to_bytes());
    out[96..].copy_from_slice(&key_bytes(key));
    out
}

/// A valid signature over `hash` by the secret key `d` (a small integer: the key d·G), as
/// an input.
pub fn signed_by_secret(d: u64, hash: &[u8; 32]) -> Input {
    let mut secret = [0u8; 32];
    secret[24..].copy_from_slice(&d.to_be_bytes());
    signed(
        &SigningKey::from_slice(&secret).expect("a nonzero secret below n"),
        hash,
    )
}

/// A seeded input of kind `KINDS[kind]`.
pub fn case(rng: &mut SplitMix64, kind: usize) -> Input {
    let n = big(&N);
    let p = big(&P);
    let key = random_key(rng);
    let hash = rng.bytes32();
    let mut input = signed(&key, &hash);
    let above = |rng: &mut SplitMix64, m: &BigUint| {
        // m + a random offset, below 2²⁵⁶.
        let room = (BigUint::from(1u8) << 256u32) - m;
        b32(&(m + big(&rng.bytes32()) % room))
    };
    match KINDS[kind] {
        "valid" => {}
        "valid, high s" => {
            let s = &n - big(&input[64..96]);
            input[64..96].copy_from_slice(&b32(&s));
        }
        "valid, hash ≥ n" => {
            let h = above(rng, &n);
            input = signed(&key, &h);
        }
        "r = 0" => input[32..64].fill(0),
        "r = n" => input[32..64].copy_from_slice(&N),
        "r ≥ n (random)" => input[32..64].copy_from_slice(&above(rng, &n)),
        "s = 0" => input[64..96].fill(0),
        "s = n" => input[64..96].copy_from_slice(&N),
        "s ≥ n (random)" => input[64..96].copy_from_slice(&above(rng, &n)),
        // A coordinate plus p: the same point mod p, which EIP-7951 refuses.
        "qx ≥ p" | "qy ≥ p" => {
            let at = if KINDS[kind] == "qx ≥ p" { 96 } else { 128 };
            let c = big(&input[at..at + 32]);
            if c + &p < BigUint::from(1u8) << 256u32 {
                let c = big(&input[at..at + 32]) + &p;
                input[at..at + 32].copy_from_slice(&b32(&c));
            } else {
                input[at..at + 32].copy_from_slice(&above(rng, &p));
            }
        }
        "key (0, 0)" => input[96..].fill(0),
        "key off the curve" => input[159] ^= 1 << rng.below(8),
        "hash changed" => input[rng.index(32)] ^= 1 << rng.below(8),
        "r changed" => input[32 + rng.index(32)] ^= 1 << rng.below(8),
        "s changed" => input[64 + rng.index(32)] ^= 1 << rng.below(8),
        "another key" => input[96..].copy_from_slice(&key_bytes(&random_key(rng))),
        "R′ at infinity" => {
            // u₁·G + u₂·Q = (h + r·d)·s⁻¹·G: infinity when h ≡ −r·d (mod n).
            let d = big(&key.to_bytes());
            let r = big(&rng.scalar()) % (&n - 1u8) + 1u8;
            let h = (&n - (&r * d) % &n) % &n;
            input[..32].copy_from_slice(&b32(&h));
            input[32..64].copy_from_slice(&b32(&r));
        }
        "random bytes" => rng.fill(&mut input),
        other => unreachable!("kind {other}"),
    }
    input
}

/// `count` seeded inputs cycling through every kind.
pub fn cases(count: usize, seed: u64) -> Vec<Input> {
    let mut rng = SplitMix64(seed);
    (0..count)
        .map(|i| case(&mut rng, i % KINDS.len()))
        .collect()
}
