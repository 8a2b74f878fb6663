//! The reference the fuzz targets compare `asmcrypto` with: libsecp256k1 for recovery (the
//! reason of a failure classified by the crate's documented rules, in the crate's order)
//! and `sha3` for Keccak-256. Nothing here calls `asmcrypto`.

use asmcrypto::Error;
use secp256k1::ecdsa::{RecoverableSignature, RecoveryId};
use secp256k1::{Message, PublicKey};
use sha3::Digest;

/// The group order n, big-endian.
pub const N: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
    0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41,
];
/// The field prime p, big-endian.
pub const P: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xfc, 0x2f,
];

/// In [1, n − 1] (arrays compare as big-endian numbers).
pub fn is_scalar(a: &[u8; 32]) -> bool {
    a.iter().any(|&b| b != 0) && *a < N
}

/// `r + n` and whether it overflowed 2²⁵⁶.
fn add_n(r: &[u8; 32]) -> ([u8; 32], bool) {
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for i in (0..32).rev() {
        let t = u16::from(r[i]) + u16::from(N[i]) + carry;
        out[i] = t as u8;
        carry = t >> 8;
    }
    (out, carry != 0)
}

/// Whether x is the x-coordinate of a curve point, asked of libsecp256k1.
pub fn is_x_coordinate(x: &[u8; 32]) -> bool {
    if *x >= P {
        return false;
    }
    let mut c = [2u8; 33];
    c[1..].copy_from_slice(x);
    PublicKey::from_byte_array_compressed(c).is_ok()
}

/// libsecp256k1's recovery (recid 0..=3), X ‖ Y.
pub fn libsecp_recover(hash: &[u8; 32], r: &[u8; 32], s: &[u8; 32], recid: u8) -> Option<[u8; 64]> {
    let mut compact = [0u8; 64];
    compact[..32].copy_from_slice(r);
    compact[32..].copy_from_slice(s);
    let id = RecoveryId::try_from(i32::from(recid)).ok()?;
    let sig = RecoverableSignature::from_compact(&compact, id).ok()?;
    let pk = sig.recover_ecdsa(Message::from_digest(*hash)).ok()?;
    Some(pk.serialize_uncompressed()[1..].try_into().unwrap())
}

/// Expected recovery with a libsecp256k1 recovery id (any byte).
pub fn expected(hash: &[u8; 32], r: &[u8; 32], s: &[u8; 32], recid: u8) -> Result<[u8; 64], Error> {
    if recid > 3 {
        return Err(Error::InvalidRecoveryId(recid));
    }
    let lib = libsecp_recover(hash, r, s, recid);
    if !is_scalar(r) {
        assert!(lib.is_none(), "libsecp256k1 accepted r outside [1, n−1]");
        return Err(Error::InvalidR);
    }
    if !is_scalar(s) {
        assert!(lib.is_none(), "libsecp256k1 accepted s outside [1, n−1]");
        return Err(Error::InvalidS);
    }
    if let Some(k) = lib {
        return Ok(k);
    }
    let (x, overflow) = if recid & 2 != 0 {
        add_n(r)
    } else {
        (*r, false)
    };
    if overflow || !is_x_coordinate(&x) {
        Err(Error::NotOnCurve)
    } else {
        Err(Error::PointAtInfinity)
    }
}

/// Expected `recover_public_key` for sig = r ‖ s ‖ v.
pub fn expected_v(hash: &[u8; 32], sig: &[u8; 65]) -> Result<[u8; 64], Error> {
    let r: [u8; 32] = sig[..32].try_into().unwrap();
    let s: [u8; 32] = sig[32..64].try_into().unwrap();
    match sig[64] {
        v @ (0 | 1) => expected(hash, &r, &s, v),
        v @ (27 | 28) => expected(hash, &r, &s, v - 27),
        v => Err(Error::InvalidRecoveryId(v)),
    }
}

/// Keccak-256 with `sha3`.
pub fn keccak(data: &[u8]) -> [u8; 32] {
    sha3::Keccak256::digest(data).into()
}

/// The Ethereum address of X ‖ Y.
pub fn address(key: &[u8; 64]) -> [u8; 20] {
    keccak(key)[12..].try_into().unwrap()
}

/// 12 zero bytes ‖ address.
pub fn word(addr: &[u8; 20]) -> [u8; 32] {
    let mut w = [0u8; 32];
    w[12..].copy_from_slice(addr);
    w
}

/// Expected output of the EVM precompile 0x01.
pub fn expected_precompile(input: &[u8]) -> Option<[u8; 32]> {
    let mut buf = [0u8; 128];
    let len = input.len().min(128);
    buf[..len].copy_from_slice(&input[..len]);
    if buf[32..63].iter().any(|&b| b != 0) || !(buf[63] == 27 || buf[63] == 28) {
        return None;
    }
    let hash: [u8; 32] = buf[..32].try_into().unwrap();
    let r: [u8; 32] = buf[64..96].try_into().unwrap();
    let s: [u8; 32] = buf[96..].try_into().unwrap();
    expected(&hash, &r, &s, buf[63] - 27)
        .ok()
        .map(|k| word(&address(&k)))
}
