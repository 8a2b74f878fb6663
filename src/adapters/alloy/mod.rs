//! asmcrypto for alloy's types (feature `alloy`): whole blocks of transactions and EIP-7702
//! authorizations at batch speed, and a drop-in backend for alloy's per-signature hook.
//!
//! Two ways in, with the same results as alloy's own calls:
//!
//! - **Many at once** — [`recover_signers`], [`recover_signers_unchecked`],
//!   [`recover_authorities`] and [`try_into_recovered`]: the signing hashes of all the items
//!   are computed together (alloy's own encoders, then Keccak-256 eight at a time), and the
//!   signatures go through the batch path of [`recover_addresses`](crate::recover_addresses)
//!   (the 8-lane AVX-512 engine, or the scalar core's batch paths), over the rayon pool with
//!   the feature `parallel`. This is where asmcrypto's batch speed is.
//! - **One at a time** — [`AlloyCryptoProvider`], installed with [`install_alloy_provider`]:
//!   every `recover_signer()` that alloy itself runs then recovers on asmcrypto. alloy asks
//!   its provider for one signature at a time, so this path runs at the speed of
//!   [`recover_address`](crate::recover_address).
//!
//! ```
//! use alloy_consensus::TxEnvelope;
//! use alloy_eips::eip2718::Decodable2718;
//! use alloy_primitives::{address, hex};
//!
//! // A real EIP-1559 transaction as it travels (EIP-2718 bytes).
//! let raw = hex!(
//!     "02f86401070682037082c35094cccccccccccccccccccccccccccccccccccccccc8080c080a0a0bbdc151d10b0"
//!     "e26c967627c2de05dba358ee52230d58e08a66859868f98235a01cf066ab7b927a4b65c2df18d22f5a875798"
//!     "1ae1869ccecd7195e21960253195"
//! );
//! let tx = TxEnvelope::decode_2718(&mut raw.as_slice()).unwrap();
//! let block = vec![tx; 3];
//!
//! let senders = asmcrypto::adapters::alloy::recover_signers(&block);
//! for sender in senders {
//!     assert_eq!(sender.unwrap(), address!("d02d72e067e77158444ef2020ff2d325f929b363"));
//! }
//! ```

#![cfg_attr(docsrs, doc(cfg(feature = "alloy")))]

mod authorities;
mod batch;
#[cfg(feature = "op")]
mod op;
mod provider;
mod recoverable;
mod senders;

pub use authorities::recover_authorities;
pub use provider::{AlloyCryptoProvider, install_alloy_provider};
pub use recoverable::{BatchRecoverable, SignerSource};
pub use senders::{
    recover_signers, recover_signers_unchecked, try_into_recovered, try_into_recovered_unchecked,
};
