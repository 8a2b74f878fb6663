//! The independent oracles: libsecp256k1 (the `secp256k1` crate) and `k256` for recovery,
//! signing and key derivation, `sha3` (and `tiny-keccak`, the Keccak most Rust users pair
//! with libsecp256k1) for Keccak-256. Nothing here calls asmcrypto.

use crate::curve::B32;
use crate::sig::{Signed, sig64};
use sha3::Digest;

/// Keccak-256 with `sha3`.
pub fn keccak(data: &[u8]) -> [u8; 32] {
    sha3::Keccak256::digest(data).into()
}

/// Keccak-256 with `tiny-keccak`.
pub fn tiny_keccak256(data: &[u8]) -> [u8; 32] {
    use tiny_keccak::Hasher;
    let mut h = tiny_keccak::Keccak::v256();
    h.update(data);
    let mut out = [0u8; 32];
    h.finalize(&mut out);
    out
}

/// The Ethereum address of an uncompressed key X ‖ Y, with `sha3`.
pub fn address_of_key(key: &[u8; 64]) -> [u8; 20] {
    keccak(key)[12..].try_into().expect("20 bytes")
}

/// 12 zero bytes ‖ address: the `ecrecover` result word.
pub fn address_word(addr: &[u8; 20]) -> [u8; 32] {
    let mut w = [0u8; 32];
    w[12..].copy_from_slice(addr);
    w
}

/// The uncompressed public key X ‖ Y of a secret key, by libsecp256k1.
pub fn public_key_of(secret: &B32) -> [u8; 64] {
    let sk = secp256k1::SecretKey::from_secret_bytes(*secret).expect("valid secret key");
    let pk = secp256k1::PublicKey::from_secret_key(&sk);
    pk.serialize_uncompressed()[1..]
        .try_into()
        .expect("64 bytes")
}

/// Signs `hash` with libsecp256k1 (RFC 6979, low s). Returns (r, s, recid); the recid is
/// 0 or 1 but for a probability of about 2⁻¹²⁷ (R.x ≥ n).
pub fn sign(secret: &B32, hash: &B32) -> (B32, B32, u8) {
    use secp256k1::ecdsa::RecoverableSignature;
    let sk = secp256k1::SecretKey::from_secret_bytes(*secret).expect("valid secret key");
    let sig =
        RecoverableSignature::sign_ecdsa_recoverable(secp256k1::Message::from_digest(*hash), &sk);
    let (recid, compact) = sig.serialize_compact();
    let (r, s) = crate::sig::split_rs(&compact);
    (r, s, recid.to_u8())
}

/// A signature by `k256` (RFC 6979, low s) of `hash` with the secret key `secret`, as
/// (hash, r ‖ s ‖ v, the signer's key X ‖ Y); `high` replaces s by n − s (and flips the
/// parity), `v27` adds 27 to v. `None` for an invalid key, or a recid of 2 or 3.
pub fn k256_signed(
    secret: &B32,
    hash: &B32,
    high: bool,
    v27: bool,
) -> Option<(B32, [u8; 65], [u8; 64])> {
    let sk = k256::ecdsa::SigningKey::from_slice(secret).ok()?;
    let (sig, recid) = sk.sign_prehash_recoverable(hash);
    let mut recid = recid.to_byte();
    if recid > 1 {
        return None;
    }
    let (r, mut s) = crate::sig::split_rs(&sig.to_bytes());
    if high {
        s = crate::curve::neg_n(&s);
        recid ^= 1;
    }
    let point = sk.verifying_key().to_sec1_point(false);
    let key: [u8; 64] = point.as_bytes()[1..].try_into().expect("64 bytes");
    Some((
        *hash,
        crate::sig::sig65(&r, &s, recid + if v27 { 27 } else { 0 }),
        key,
    ))
}

/// Recovery with libsecp256k1; `recid` in 0..=3. `None` on any failure.
pub fn secp_recover(hash: &B32, r: &B32, s: &B32, recid: u8) -> Option<[u8; 64]> {
    use secp256k1::ecdsa::{RecoverableSignature, RecoveryId};
    let id = RecoveryId::try_from(i32::from(recid)).ok()?;
    let sig = RecoverableSignature::from_compact(&sig64(r, s), id).ok()?;
    let pk = sig
        .recover_ecdsa(secp256k1::Message::from_digest(*hash))
        .ok()?;
    Some(
        pk.serialize_uncompressed()[1..]
            .try_into()
            .expect("64 bytes"),
    )
}

/// Recovery with `k256`; `recid` in 0..=3. `None` on any failure.
pub fn k256_recover(hash: &B32, r: &B32, s: &B32, recid: u8) -> Option<[u8; 64]> {
    use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};
    let id = RecoveryId::from_byte(recid)?;
    let sig = Signature::from_scalars(*r, *s).ok()?;
    let vk = VerifyingKey::recover_from_prehash(hash, &sig, id).ok()?;
    let point = vk.to_sec1_point(false);
    let bytes = point.as_bytes();
    assert_eq!(bytes.len(), 65);
    assert_eq!(bytes[0], 4);
    Some(bytes[1..].try_into().expect("64 bytes"))
}

/// Both recovery oracles; panics if they disagree.
pub fn oracle_recover(hash: &B32, r: &B32, s: &B32, recid: u8) -> Option<[u8; 64]> {
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

/// Whether libsecp256k1 takes `x` as the x-coordinate of a curve point: it parses the
/// compressed key 02 ‖ x only if x < p and x³ + 7 has a square root.
pub fn secp_is_x_coordinate(x: &B32) -> bool {
    let mut c = [2u8; 33];
    c[1..].copy_from_slice(x);
    secp256k1::PublicKey::from_byte_array_compressed(c).is_ok()
}

/// The signer's address of a (hash, r ‖ s ‖ recid) input by libsecp256k1 and `tiny-keccak`:
/// the per-signature way the benchmarks compare with.
pub fn libsecp256k1_address(s: &Signed) -> Option<[u8; 20]> {
    let (r, sv) = crate::sig::split_rs(&s.1);
    let key = secp_recover(&s.0, &r, &sv, s.1[64])?;
    tiny_keccak256(&key)[12..].try_into().ok()
}

/// The same by `k256` and `tiny-keccak`.
pub fn k256_address(s: &Signed) -> Option<[u8; 20]> {
    let (r, sv) = crate::sig::split_rs(&s.1);
    let key = k256_recover(&s.0, &r, &sv, s.1[64])?;
    tiny_keccak256(&key)[12..].try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::{GX, h32, small};

    #[test]
    fn published_values() {
        assert_eq!(
            keccak(b""),
            h32("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
        );
        assert_eq!(tiny_keccak256(b"abc"), keccak(b"abc"));
        // The key of secret 1 is G; its address is well known.
        let g = public_key_of(&small(1));
        assert_eq!(g[..32], GX);
        assert_eq!(
            hex::encode(address_of_key(&g)),
            "7e5f4552091a69125d5dfcb7b8c2659029395bdf"
        );
        assert!(secp_is_x_coordinate(&GX));
    }

    #[test]
    fn signatures_recover_their_signer_with_both_oracles() {
        let mut rng = crate::rng::SplitMix64(3);
        for _ in 0..8 {
            let secret = rng.scalar();
            let hash = rng.bytes32();
            let (r, s, recid) = sign(&secret, &hash);
            assert_eq!(
                oracle_recover(&hash, &r, &s, recid),
                Some(public_key_of(&secret))
            );
            let v = crate::sig::sig65(&r, &s, recid);
            let addr = address_of_key(&public_key_of(&secret));
            assert_eq!(libsecp256k1_address(&(hash, v)), Some(addr));
            assert_eq!(k256_address(&(hash, v)), Some(addr));
        }
    }
}
