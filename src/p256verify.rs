//! P-256 (secp256r1) ECDSA verification: the EVM's P256VERIFY precompile (EIP-7951,
//! address `0x100`) and a typed single-signature call.
//!
//! The checks, in EIP-7951's order: r and s in [1, n−1] (never reduced, no low-s rule),
//! qx and qy below p (never reduced), the key on the curve and not (0, 0), R′ = u₁·G + u₂·Q
//! not at infinity (u₁ = h·s⁻¹, u₂ = r·s⁻¹ mod n, with the 32-byte hash h taken as an
//! integer), and x(R′) ≡ r (mod n).

use core::fmt;

#[cfg(target_arch = "x86_64")]
use crate::p256::field::MulxAdx;
use crate::p256::field::{Fe, FieldMul, Portable};
use crate::p256::group::{Affine, G, Jacobian};
use crate::p256::scalar::Scalar;
use crate::p256::{ecmult, ecmult::TABLE_Q};

/// The length of P256VERIFY's input: hash ‖ r ‖ s ‖ qx ‖ qy, 32 bytes each.
pub const P256VERIFY_INPUT_LEN: usize = 160;

/// P256VERIFY's output for a valid signature: 31 zero bytes, then 1.
pub const P256VERIFY_SUCCESS: [u8; 32] = {
    let mut out = [0u8; 32];
    out[31] = 1;
    out
};

/// Why a P-256 signature did not verify ([`p256_verify`]).
///
/// The variants follow EIP-7951's checks in its order; the first that fails is reported.
/// The enum is `non_exhaustive`: match it with a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum P256Error {
    /// `r` is zero or not below the group order n.
    InvalidR,
    /// `s` is zero or not below the group order n.
    InvalidS,
    /// A coordinate of the public key is not below the field prime p.
    KeyCoordinateOutOfRange,
    /// The public key is not a point of P-256 (this includes (0, 0)).
    KeyNotOnCurve,
    /// The signature is well formed but does not verify: R′ = u₁·G + u₂·Q is the point at
    /// infinity, or its x-coordinate is not r mod n.
    Mismatch,
}

impl fmt::Display for P256Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            P256Error::InvalidR => "signature r is zero or not below the P-256 group order",
            P256Error::InvalidS => "signature s is zero or not below the P-256 group order",
            P256Error::KeyCoordinateOutOfRange => {
                "public key coordinate is not below the P-256 field prime"
            }
            P256Error::KeyNotOnCurve => "public key is not a point on P-256",
            P256Error::Mismatch => "signature does not match the hash and public key",
        })
    }
}

impl std::error::Error for P256Error {}

/// A signature and key that passed every check before the double multiplication.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parsed {
    /// The hash as an integer (below 2²⁵⁶, not reduced: the Montgomery product reduces it).
    pub h: Scalar,
    pub r: Scalar,
    pub s: Scalar,
    pub q: Affine,
}

/// The checks up to the key, in EIP-7951's order.
#[inline]
pub(crate) fn parse(hash: &[u8; 32], sig: &[u8; 64], key: &[u8; 64]) -> Result<Parsed, P256Error> {
    let (r, s) = halves(sig);
    let r = Scalar::from_bytes_nonzero(&r).ok_or(P256Error::InvalidR)?;
    let s = Scalar::from_bytes_nonzero(&s).ok_or(P256Error::InvalidS)?;
    let (qx, qy) = halves(key);
    let qx = Fe::from_bytes(&qx).ok_or(P256Error::KeyCoordinateOutOfRange)?;
    let qy = Fe::from_bytes(&qy).ok_or(P256Error::KeyCoordinateOutOfRange)?;
    // (0, 0) is not on the curve (b ≠ 0), so the curve check refuses it too.
    let q = Affine::from_coordinates(qx, qy).ok_or(P256Error::KeyNotOnCurve)?;
    Ok(Parsed {
        h: Scalar(crate::arith::words::from_be(hash)),
        r,
        s,
        q,
    })
}

fn halves(b: &[u8; 64]) -> ([u8; 32], [u8; 32]) {
    let mut lo = [0u8; 32];
    let mut hi = [0u8; 32];
    lo.copy_from_slice(&b[..32]);
    hi.copy_from_slice(&b[32..]);
    (lo, hi)
}

/// Splits a precompile input into hash, r ‖ s and qx ‖ qy; `None` unless exactly 160 bytes.
pub(crate) fn split_input(input: &[u8]) -> Option<([u8; 32], [u8; 64], [u8; 64])> {
    if input.len() != P256VERIFY_INPUT_LEN {
        return None;
    }
    let mut hash = [0u8; 32];
    let mut sig = [0u8; 64];
    let mut key = [0u8; 64];
    hash.copy_from_slice(&input[..32]);
    sig.copy_from_slice(&input[32..96]);
    key.copy_from_slice(&input[96..]);
    Some((hash, sig, key))
}

/// The double multiplication and the x check of a parsed signature, given s⁻¹·R mod n
/// ([`Scalar::inv_montgomery`]) and the affine odd multiples of Q.
#[inline(always)]
pub(crate) fn finish_with<M: FieldMul>(
    m: M,
    p: &Parsed,
    s_inv_mont: &Scalar,
    table_q: &[Affine; TABLE_Q],
) -> bool {
    let u1 = p.h.mont_mul(s_inv_mont);
    let u2 = p.r.mont_mul(s_inv_mont);
    let rp = ecmult::double_mul(m, &u1, &u2, table_q);
    ecmult::x_matches(m, &rp, &p.r)
}

#[inline(always)]
fn verify_parsed_with<M: FieldMul>(m: M, p: &Parsed) -> bool {
    let jac = ecmult::odd_multiples_jacobian(m, &p.q);
    let mut table = [G; TABLE_Q];
    Jacobian::batch_to_affine_with(m, &jac, &mut table);
    finish_with(m, p, &p.s.inv_montgomery(), &table)
}

/// The verification of a parsed signature on this CPU's field multiply.
pub(crate) fn verify_parsed(p: &Parsed) -> bool {
    #[cfg(target_arch = "x86_64")]
    if let Some(m) = MulxAdx::detect() {
        return verify_parsed_with(m, p);
    }
    verify_parsed_with(Portable, p)
}

/// Verifies a P-256 ECDSA signature `sig` = r ‖ s over the 32-byte message hash `hash`
/// with the public key `key` = qx ‖ qy (big-endian, uncompressed without the `04` prefix),
/// by EIP-7951's rules: `Ok(())` exactly when [`p256verify_precompile`] of
/// hash ‖ sig ‖ key returns `Some`. Otherwise the first check that failed.
///
/// The hash is taken as an integer as it stands (P-256's order is 256 bits: no
/// truncation), and s may be high: there is no low-s rule.
///
/// ```
/// // EIP-7951's first test vector.
/// let input = hex("4cee90eb86eaa050036147a12d49004b6b9c72bd725d39d4785011fe190f0b4da73bd4903f0ce3b639bbbf6e8e80d16931ff4bcf5993d58468e8fb19086e8cac36dbcd03009df8c59286b162af3bd7fcc0450c9aa81be5d10d312af6c66b1d604aebd3099c618202fcfe16ae7770b0c49ab5eadf74b754204a3bb6060e44eff37618b065f9832de4ca6ca971a7a1adc826d0f7c00181a5fb2ddf79ae00b4e10e");
/// let hash: [u8; 32] = input[..32].try_into().unwrap();
/// let sig: [u8; 64] = input[32..96].try_into().unwrap();
/// let key: [u8; 64] = input[96..].try_into().unwrap();
/// assert_eq!(asmcrypto::p256_verify(&hash, &sig, &key), Ok(()));
///
/// let mut bad = sig;
/// bad[63] ^= 1;
/// assert_eq!(asmcrypto::p256_verify(&hash, &bad, &key), Err(asmcrypto::P256Error::Mismatch));
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// ```
pub fn p256_verify(hash: &[u8; 32], sig: &[u8; 64], key: &[u8; 64]) -> Result<(), P256Error> {
    let p = parse(hash, sig, key)?;
    if verify_parsed(&p) {
        Ok(())
    } else {
        Err(P256Error::Mismatch)
    }
}

/// The EVM's P256VERIFY precompile (EIP-7951, address `0x100`), byte for byte: `input` must
/// be exactly 160 bytes, hash ‖ r ‖ s ‖ qx ‖ qy. A valid signature gives
/// `Some(`[`P256VERIFY_SUCCESS`]`)` (31 zero bytes, then 1); every other input, any other
/// length included, gives `None`, the empty output.
///
/// ```
/// assert_eq!(asmcrypto::p256verify_precompile(&[0u8; 160]), None); // r = 0
/// assert_eq!(asmcrypto::p256verify_precompile(&[]), None);
/// ```
pub fn p256verify_precompile(input: &[u8]) -> Option<[u8; 32]> {
    let (hash, sig, key) = split_input(input)?;
    p256_verify(&hash, &sig, &key)
        .ok()
        .map(|()| P256VERIFY_SUCCESS)
}
