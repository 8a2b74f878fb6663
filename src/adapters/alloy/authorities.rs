//! The authorities of many EIP-7702 authorizations at once.

use alloy_eips::eip7702::constants::{MAGIC, SECP256K1N_HALF};
use alloy_eips::eip7702::{Eip7702Error, SignedAuthorization};
use alloy_primitives::{Address, B256, Signature, SignatureError, U256};
use alloy_rlp::Encodable;

use super::batch::{Prepared, recover_payloads, sig65};

/// The authorities (signers) of `auths`, in input order, each exactly what alloy's
/// [`SignedAuthorization::recover_authority`] returns for it:
///
/// - a y parity other than 0 or 1: `Eip7702Error::Signature(SignatureError::InvalidParity(y))`;
/// - s above n/2 (EIP-2, which EIP-7702 requires): `Eip7702Error::InvalidSValue(s)`;
/// - a signature that does not recover (r or s zero or ≥ n, r not an x-coordinate, a key
///   at infinity): `Eip7702Error::Signature(e)` with the error alloy's signature backend
///   gives for a failed recovery (one opaque value for every such failure).
///
/// The authorization signing hashes, keccak256(0x05 ‖ rlp([chain_id, address, nonce])), are
/// encoded with alloy's own encoder and hashed eight at a time, and the signatures go
/// through the batch path of [`recover_addresses`](crate::recover_addresses) (over the
/// rayon pool with the feature `parallel`).
///
/// ```
/// use alloy_eips::eip7702::{Authorization, SignedAuthorization};
/// use alloy_primitives::{U256, address};
///
/// let auth = Authorization {
///     chain_id: U256::from(1),
///     address: address!("0000000000000000000000000000000000000001"),
///     nonce: 7,
/// };
/// // y parity 2 is no signature: alloy's InvalidParity error, as from recover_authority.
/// let signed = SignedAuthorization::new_unchecked(auth, 2, U256::from(1), U256::from(1));
/// let out = asmcrypto::adapters::alloy::recover_authorities(&[signed.clone()]);
/// assert_eq!(format!("{:?}", out[0]), format!("{:?}", signed.recover_authority()));
/// ```
pub fn recover_authorities(auths: &[SignedAuthorization]) -> Vec<Result<Address, Eip7702Error>> {
    let prepare =
        |auth: &SignedAuthorization, buf: &mut Vec<u8>| -> Result<Prepared, Eip7702Error> {
            let y = auth.y_parity();
            if y > 1 {
                return Err(SignatureError::InvalidParity(u64::from(y)).into());
            }
            if auth.s() > SECP256K1N_HALF {
                return Err(Eip7702Error::InvalidSValue(auth.s()));
            }
            buf.push(MAGIC);
            auth.inner().encode(buf);
            Ok(Prepared::Signature(sig65(&auth.r(), &auth.s(), y == 1)))
        };
    recover_payloads(auths, prepare, |_| {
        Eip7702Error::Signature(recovery_failed())
    })
    .into_iter()
    .map(|r| r.map(Address::from))
    .collect()
}

/// The error alloy's signature backend returns for a signature that does not recover.
///
/// `recover_authority` recovers through `alloy_primitives::Signature`, whose backend
/// (k256, or libsecp256k1 when alloy-primitives is built with its `secp256k1` feature) is
/// chosen by the features of the application's build, and each backend returns one opaque
/// error for every failure. The error is taken from that same backend, by asking it to
/// recover a signature with r = 0, which it refuses before any curve arithmetic.
fn recovery_failed() -> SignatureError {
    match Signature::new(U256::ZERO, U256::from(1), false).recover_address_from_prehash(&B256::ZERO)
    {
        Err(e) => e,
        // Unreachable with either backend (r = 0 is never a signature); an error all the same.
        Ok(_) => SignatureError::FromBytes("signature does not recover"),
    }
}
