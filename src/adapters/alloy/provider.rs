//! [`AlloyCryptoProvider`]: asmcrypto behind alloy's per-signature crypto hook.

use std::sync::Arc;

use alloy_consensus::crypto::RecoveryError;
use alloy_consensus::crypto::backend::{
    CryptoProvider, CryptoProviderAlreadySetError, install_default_provider,
};
use alloy_primitives::Address;

use crate::recover::{address_of, halves};
use crate::secp256k1::ecmult::ecmult;
use crate::secp256k1::field::FieldElement;
use crate::secp256k1::group::Affine;
use crate::secp256k1::scalar::Scalar;

/// alloy-consensus [`CryptoProvider`] backed by asmcrypto.
///
/// Install it once with [`install_alloy_provider`] (or hand `Arc::new(AlloyCryptoProvider)`
/// to `alloy_consensus::crypto::install_default_provider` yourself), or call it directly:
///
/// ```
/// use alloy_consensus::crypto::backend::CryptoProvider;
/// use asmcrypto::adapters::AlloyCryptoProvider;
///
/// // r ‖ s ‖ y-parity of a real transaction, and its signing hash.
/// let mut sig = [0u8; 65];
/// sig[..32].copy_from_slice(&hex("2ab9adbf933ea82559c127cf688532d1930b3d352748c2065a55759f5b84d750"));
/// sig[32..64].copy_from_slice(&hex("7d9f53ffe4dd1d297b64738fee7f448a9523ff58f411595c9a148c3cfeee6c28"));
/// sig[64] = 0;
/// let hash: [u8; 32] = hex("c8f2345bc628763f2f8324d099b26070e9a4f73d1ee8d654fd8537f59db8b4c6")
///     .try_into()
///     .unwrap();
///
/// let sender = AlloyCryptoProvider.recover_signer_unchecked(&sig, &hash).unwrap();
/// assert_eq!(sender.as_slice(), hex("a94f5374fce5edbc8e2a8697c15331677e6ebf0b"));
///
/// // v = 27 is no recovery id (alloy passes the y parity): an error, never a panic.
/// sig[64] = 27;
/// assert!(AlloyCryptoProvider.recover_signer_unchecked(&sig, &hash).is_err());
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect()
/// # }
/// ```
///
/// Semantics, method by method:
///
/// - `recover_signer_unchecked(sig, msg)`: `sig` is r ‖ s ‖ recovery id, the id in
///   0..=3 as libsecp256k1 takes it (alloy passes the y parity, 0 or 1). Any s in
///   [1, n−1] is accepted (the low-s rule is alloy's `recover_signer`'s job). Any other id,
///   r or s out of range, r not on the curve: [`RecoveryError`].
/// - `verify_and_compute_signer_unchecked(pubkey, sig, msg)`: `pubkey` is the 65-byte
///   uncompressed SEC1 key (`0x04` ‖ X ‖ Y, on the curve); the ECDSA check
///   x(u₁·G + u₂·Q) ≡ r (mod n) with u₁ = msg/s, u₂ = r/s, high s accepted (as the trait
///   says, and as alloy's k256 backend does). Returns the key's address.
///
/// Errors are opaque [`RecoveryError`]s with no source, as alloy's own backends return
/// them (alloy asks providers not to carry cryptographic failure details in the source).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AlloyCryptoProvider;

impl CryptoProvider for AlloyCryptoProvider {
    #[inline]
    fn recover_signer_unchecked(
        &self,
        sig: &[u8; 65],
        msg: &[u8; 32],
    ) -> Result<Address, RecoveryError> {
        recover(sig, msg)
            .map(Address::from)
            .ok_or_else(RecoveryError::new)
    }

    #[inline]
    fn verify_and_compute_signer_unchecked(
        &self,
        pubkey: &[u8; 65],
        sig: &[u8; 64],
        msg: &[u8; 32],
    ) -> Result<Address, RecoveryError> {
        verify(pubkey, sig, msg)
            .map(Address::from)
            .ok_or_else(RecoveryError::new)
    }
}

/// Installs [`AlloyCryptoProvider`] as alloy-consensus's process-wide crypto provider.
///
/// Call it once, at start-up, before the first signature is recovered. alloy keeps the
/// first provider installed for the life of the process.
///
/// ```
/// if let Err(e) = asmcrypto::adapters::install_alloy_provider() {
///     // Someone else installed a provider first; theirs stays in place.
///     eprintln!("asmcrypto not installed: {e}");
/// }
/// ```
///
/// # Errors
/// alloy's [`CryptoProviderAlreadySetError`] (which hands back the provider that was not
/// installed) if a provider is already installed, whatever it is.
pub fn install_alloy_provider() -> Result<(), CryptoProviderAlreadySetError> {
    install_default_provider(Arc::new(AlloyCryptoProvider))
}

/// The address of the key that signed `msg` with `sig` = r ‖ s ‖ recid (recid 0..=3).
fn recover(sig: &[u8; 65], msg: &[u8; 32]) -> Option<[u8; 20]> {
    let mut rs = [0u8; 64];
    rs.copy_from_slice(&sig[..64]);
    // `ecrecover` takes libsecp256k1's recovery id (0..=3) and returns the address as a
    // 32-byte word.
    let word = crate::ecrecover(&rs, sig[64], msg).ok()?;
    let mut address = [0u8; 20];
    address.copy_from_slice(&word[12..]);
    Some(address)
}

/// ECDSA verification of `sig` = r ‖ s over `msg` against the uncompressed SEC1 key
/// `pubkey`; the key's address if it holds. Variable time, like the rest of the crate:
/// every input is public.
fn verify(pubkey: &[u8; 65], sig: &[u8; 64], msg: &[u8; 32]) -> Option<[u8; 20]> {
    if pubkey[0] != 0x04 {
        return None;
    }
    let mut xy = [0u8; 64];
    xy.copy_from_slice(&pubkey[1..]);
    let (x, y) = halves(&xy);
    let (r, s) = halves(sig);
    let q = Affine {
        x: FieldElement::from_bytes(&x)?,
        y: FieldElement::from_bytes(&y)?,
        infinity: false,
    };
    if !q.is_on_curve() {
        return None;
    }
    let r = Scalar::from_bytes(&r).filter(|r| !r.is_zero())?;
    let s = Scalar::from_bytes(&s).filter(|s| !s.is_zero())?;
    let w = s.inv();
    let u1 = Scalar::from_bytes_reduced(msg).mul(&w);
    let u2 = r.mul(&w);
    let big_r = ecmult(&q, &u2, &u1);
    if big_r.infinity {
        return None;
    }
    // x(R) is below p < 2n, so reducing it mod n is one conditional subtraction.
    let x_r = Scalar::from_bytes_reduced(&big_r.to_affine().x.to_bytes());
    (x_r == r).then(|| address_of(&xy))
}
