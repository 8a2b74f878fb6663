//! Shared helpers of the recovery test suites: a seeded PRNG, big-integer arithmetic for the
//! curve constants, and independent oracles (`secp256k1`, `k256`, `sha3`) plus a reference
//! model of the expected result (including the exact error) of every recovery entry point.
//!
//! Nothing in here calls `asmcrypto`: the model is built only from the oracles and from
//! arithmetic done with `num-bigint`, so every comparison against it can fail.

#![allow(dead_code)]

#[cfg(feature = "alloy")]
pub mod alloy;
pub mod real_txs;

use asmcrypto::Error;
use num_bigint::BigUint;
use sha3::Digest;

/// The group order n of secp256k1, big-endian hex.
pub const N_HEX: &str = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
/// The field prime p of secp256k1, big-endian hex.
pub const P_HEX: &str = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f";

/// Deterministic pseudo-random numbers (splitmix64).
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len + 8);
        while out.len() < len {
            out.extend_from_slice(&self.next_u64().to_le_bytes());
        }
        out.truncate(len);
        out
    }

    pub fn bytes32(&mut self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for chunk in out.chunks_mut(8) {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        out
    }

    /// Uniform-ish in 0..n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A random scalar in [1, n−1].
    pub fn scalar(&mut self) -> [u8; 32] {
        let n = n();
        loop {
            let b = self.bytes32();
            let v = from_be(&b);
            if v != BigUint::from(0u32) && v < n {
                return b;
            }
        }
    }
}

pub fn hex_to_vec(s: &str) -> Vec<u8> {
    hex::decode(s).expect("valid hex")
}

pub fn hex32(s: &str) -> [u8; 32] {
    hex_to_vec(s).try_into().expect("32 bytes")
}

pub fn from_be(b: &[u8]) -> BigUint {
    BigUint::from_bytes_be(b)
}

/// Big-endian, left-padded to 32 bytes. Panics if `x` ≥ 2²⁵⁶.
pub fn to_be32(x: &BigUint) -> [u8; 32] {
    let v = x.to_bytes_be();
    assert!(v.len() <= 32, "value does not fit in 32 bytes");
    let mut out = [0u8; 32];
    out[32 - v.len()..].copy_from_slice(&v);
    out
}

pub fn n() -> BigUint {
    BigUint::parse_bytes(N_HEX.as_bytes(), 16).unwrap()
}

pub fn p() -> BigUint {
    BigUint::parse_bytes(P_HEX.as_bytes(), 16).unwrap()
}

pub fn two_256() -> BigUint {
    BigUint::from(1u32) << 256usize
}

pub fn is_zero(x: &BigUint) -> bool {
    *x == BigUint::from(0u32)
}

/// Whether `x` (any size) is the x-coordinate of a point of y² = x³ + 7 over F_p: x < p and
/// x³ + 7 is a quadratic residue (Euler's criterion; x³ + 7 is never 0 since the group has
/// prime order).
pub fn is_x_coordinate(x: &BigUint) -> bool {
    let p = p();
    if *x >= p {
        return false;
    }
    let rhs = (x * x * x + BigUint::from(7u32)) % &p;
    let e = (&p - BigUint::from(1u32)) >> 1usize;
    rhs.modpow(&e, &p) == BigUint::from(1u32)
}

/// A square root of x³ + 7 mod p (p ≡ 3 mod 4), assuming `x` is an x-coordinate.
pub fn y_of(x: &BigUint) -> BigUint {
    let p = p();
    let rhs = (x * x * x + BigUint::from(7u32)) % &p;
    let e = (&p + BigUint::from(1u32)) >> 2usize;
    let y = rhs.modpow(&e, &p);
    assert_eq!((&y * &y) % &p, rhs, "not an x-coordinate");
    y
}

/// Keccak-256 from the `sha3` crate.
pub fn keccak(data: &[u8]) -> [u8; 32] {
    sha3::Keccak256::digest(data).into()
}

/// The Ethereum address of an uncompressed key X ‖ Y, computed with `sha3`.
pub fn address_of_key(key: &[u8; 64]) -> [u8; 20] {
    let h = keccak(key);
    h[12..].try_into().unwrap()
}

/// 12 zero bytes ‖ address.
pub fn address_word(addr: &[u8; 20]) -> [u8; 32] {
    let mut w = [0u8; 32];
    w[12..].copy_from_slice(addr);
    w
}

pub fn sig65(r: &[u8; 32], s: &[u8; 32], v: u8) -> [u8; 65] {
    let mut out = [0u8; 65];
    out[..32].copy_from_slice(r);
    out[32..64].copy_from_slice(s);
    out[64] = v;
    out
}

pub fn sig64(r: &[u8; 32], s: &[u8; 32]) -> [u8; 64] {
    let mut out = [0u8; 64];
    out[..32].copy_from_slice(r);
    out[32..].copy_from_slice(s);
    out
}

/// hash ‖ v (as a 32-byte big-endian word) ‖ r ‖ s.
pub fn precompile_input(hash: &[u8; 32], v: u8, r: &[u8; 32], s: &[u8; 32]) -> [u8; 128] {
    let mut out = [0u8; 128];
    out[..32].copy_from_slice(hash);
    out[63] = v;
    out[64..96].copy_from_slice(r);
    out[96..].copy_from_slice(s);
    out
}

/// The uncompressed public key X ‖ Y of a secret key, computed by `secp256k1`.
pub fn public_key_of(secret: &[u8; 32]) -> [u8; 64] {
    let sk = secp256k1::SecretKey::from_secret_bytes(*secret).expect("valid secret key");
    let pk = secp256k1::PublicKey::from_secret_key(&sk);
    pk.serialize_uncompressed()[1..].try_into().unwrap()
}

/// Signs `hash` with `secp256k1` (RFC 6979, low s). Returns (r, s, recid ∈ {0, 1}).
pub fn sign(secret: &[u8; 32], hash: &[u8; 32]) -> ([u8; 32], [u8; 32], u8) {
    use secp256k1::ecdsa::RecoverableSignature;
    let sk = secp256k1::SecretKey::from_secret_bytes(*secret).expect("valid secret key");
    let sig =
        RecoverableSignature::sign_ecdsa_recoverable(secp256k1::Message::from_digest(*hash), &sk);
    let (recid, compact) = sig.serialize_compact();
    let r: [u8; 32] = compact[..32].try_into().unwrap();
    let s: [u8; 32] = compact[32..].try_into().unwrap();
    (r, s, recid.to_u8())
}

/// Recovery with `secp256k1` (libsecp256k1); `recid` in 0..=3. `None` on any failure.
pub fn secp_recover(hash: &[u8; 32], r: &[u8; 32], s: &[u8; 32], recid: u8) -> Option<[u8; 64]> {
    use secp256k1::ecdsa::{RecoverableSignature, RecoveryId};
    let id = RecoveryId::try_from(i32::from(recid)).ok()?;
    let sig = RecoverableSignature::from_compact(&sig64(r, s), id).ok()?;
    let pk = sig
        .recover_ecdsa(secp256k1::Message::from_digest(*hash))
        .ok()?;
    Some(pk.serialize_uncompressed()[1..].try_into().unwrap())
}

/// Recovery with `k256`; `recid` in 0..=3. `None` on any failure.
pub fn k256_recover(hash: &[u8; 32], r: &[u8; 32], s: &[u8; 32], recid: u8) -> Option<[u8; 64]> {
    use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};
    let id = RecoveryId::from_byte(recid)?;
    let sig = Signature::from_scalars(*r, *s).ok()?;
    let vk = VerifyingKey::recover_from_prehash(hash, &sig, id).ok()?;
    let point = vk.to_sec1_point(false);
    let bytes = point.as_bytes();
    assert_eq!(bytes.len(), 65);
    assert_eq!(bytes[0], 4);
    Some(bytes[1..].try_into().unwrap())
}

/// Both oracles; asserts that they agree.
pub fn oracle_recover(hash: &[u8; 32], r: &[u8; 32], s: &[u8; 32], recid: u8) -> Option<[u8; 64]> {
    let a = secp_recover(hash, r, s, recid);
    let b = k256_recover(hash, r, s, recid);
    assert_eq!(
        a,
        b,
        "secp256k1 and k256 disagree: hash={} r={} s={} recid={recid}",
        hex::encode(hash),
        hex::encode(r),
        hex::encode(s)
    );
    a
}

/// The expected result of recovery with a libsecp256k1 recovery id (0..=3), including the
/// exact error, built from the two oracles and from big-integer checks of r and s.
pub fn model(hash: &[u8; 32], r: &[u8; 32], s: &[u8; 32], recid: u8) -> Result<[u8; 64], Error> {
    assert!(recid <= 3);
    let oracle = oracle_recover(hash, r, s, recid);
    let n = n();
    let rb = from_be(r);
    let sb = from_be(s);
    let expected = if is_zero(&rb) || rb >= n {
        Err(Error::InvalidR)
    } else if is_zero(&sb) || sb >= n {
        Err(Error::InvalidS)
    } else {
        let x = if recid & 2 != 0 { &rb + &n } else { rb };
        if !is_x_coordinate(&x) {
            Err(Error::NotOnCurve)
        } else {
            // r and s are in range and R exists, so the only way left to fail is Q = O.
            oracle.ok_or(Error::PointAtInfinity)
        }
    };
    assert_eq!(
        oracle.is_some(),
        expected.is_ok(),
        "oracles fail where the model succeeds (or the reverse): hash={} r={} s={} recid={recid}",
        hex::encode(hash),
        hex::encode(r),
        hex::encode(s)
    );
    expected
}

/// The expected result of `recover_public_key` for an Ethereum `v`.
pub fn model_v(hash: &[u8; 32], r: &[u8; 32], s: &[u8; 32], v: u8) -> Result<[u8; 64], Error> {
    match v {
        0 | 1 => model(hash, r, s, v),
        27 | 28 => model(hash, r, s, v - 27),
        _ => Err(Error::InvalidRecoveryId(v)),
    }
}

/// The expected result of `ecrecover`.
pub fn model_ecrecover(
    hash: &[u8; 32],
    r: &[u8; 32],
    s: &[u8; 32],
    recid: u8,
) -> Result<[u8; 32], Error> {
    if recid > 3 {
        return Err(Error::InvalidRecoveryId(recid));
    }
    model(hash, r, s, recid).map(|k| address_word(&address_of_key(&k)))
}

/// The expected output of the EVM precompile 0x01 for `input`.
pub fn model_precompile(input: &[u8]) -> Option<[u8; 32]> {
    let mut buf = [0u8; 128];
    let len = input.len().min(128);
    buf[..len].copy_from_slice(&input[..len]);
    let hash: [u8; 32] = buf[..32].try_into().unwrap();
    let vword = &buf[32..64];
    let r: [u8; 32] = buf[64..96].try_into().unwrap();
    let s: [u8; 32] = buf[96..].try_into().unwrap();
    if vword[..31].iter().any(|&b| b != 0) || !(vword[31] == 27 || vword[31] == 28) {
        return None;
    }
    model(&hash, &r, &s, vword[31] - 27)
        .ok()
        .map(|k| address_word(&address_of_key(&k)))
}

/// Checks all four entry points of `asmcrypto` on (hash, r, s) against the model, for the
/// given Ethereum `v` (recover_*), libsecp256k1 `recid` (ecrecover) and a precompile input
/// with v word `v` when `v` fits. Returns the expected key for `v`.
pub fn check_all(hash: &[u8; 32], r: &[u8; 32], s: &[u8; 32], v: u8) -> Result<[u8; 64], Error> {
    let ctx = || {
        format!(
            "hash={} r={} s={} v={v}",
            hex::encode(hash),
            hex::encode(r),
            hex::encode(s)
        )
    };
    let expected = model_v(hash, r, s, v);
    let sig = sig65(r, s, v);
    assert_eq!(
        asmcrypto::recover_public_key(hash, &sig),
        expected,
        "recover_public_key: {}",
        ctx()
    );
    assert_eq!(
        asmcrypto::recover_address(hash, &sig),
        expected.map(|k| address_of_key(&k)),
        "recover_address: {}",
        ctx()
    );
    let input = precompile_input(hash, v, r, s);
    assert_eq!(
        asmcrypto::ecrecover_precompile(&input),
        model_precompile(&input),
        "ecrecover_precompile: {}",
        ctx()
    );
    expected
}
