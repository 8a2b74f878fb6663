//! Drop-in adapters: plug asmcrypto into the crypto hooks of other Ethereum crates, so that
//! code already written against them recovers (and, in revm's P256VERIFY, verifies)
//! signatures with asmcrypto without other changes.
//!
//! | feature | host crate | what runs on asmcrypto | one-call switch |
//! | --- | --- | --- | --- |
//! | `alloy` | `alloy-consensus` 2.x | `recover_signer()` / `recover_signer_unchecked()` of every signed transaction, and the `alloy_consensus::crypto::secp256k1` functions | [`install_alloy_provider`] |
//! | `alloy` | `alloy-consensus` 2.x | whole blocks: the senders of many transactions, the authorities of many EIP-7702 authorizations, at batch speed; any chain's envelope through the [`BatchRecoverable`] trait | — (call [`recover_signers`], [`recover_authorities`]) |
//! | `op` | `op-alloy-consensus` 2.x | OP-stack transactions (`OpTxEnvelope`, `OpPooledTransaction`) in those batch calls; deposits give their `from` without recovery | — (call [`recover_signers`]) |
//! | `reth` | `reth-primitives-traits` 0.8 | reth's `SealedBlock::try_recover[_unchecked]`: one block, or many blocks in one batch | — (call `reth::recover_block`, `reth::recover_blocks`) |
//! | `revm` | `revm-precompile` 43.x | the `ecrecover` precompile (address `0x01`) and the `P256VERIFY` precompile (address `0x100`, EIP-7951) | [`install_revm_crypto`] |
//!
//! Both hosts keep the installed backend in a process-wide, set-once slot: install at
//! start-up, before the first signature is recovered. Both adapters only take effect if
//! the application's own copy of the host crate is the one asmcrypto was built against
//! (same semver-compatible version; `cargo tree -d` shows duplicates), since a second
//! copy has a second, separate slot.
//!
//! The adapter types can also be called directly through the host traits:
//!
//! ```
//! # #[cfg(feature = "alloy")]
//! # {
//! use alloy_consensus::crypto::backend::CryptoProvider;
//!
//! // r = 0 is no signature: the provider refuses it, as alloy's own backends do.
//! let sig = [0u8; 65];
//! assert!(asmcrypto::adapters::AlloyCryptoProvider
//!     .recover_signer_unchecked(&sig, &[0u8; 32])
//!     .is_err());
//! # }
//! ```

#[cfg(feature = "alloy")]
pub mod alloy;
#[cfg(feature = "reth")]
pub mod reth;
#[cfg(feature = "revm")]
pub mod revm;

#[cfg(feature = "alloy")]
pub use self::alloy::{AlloyCryptoProvider, install_alloy_provider};
#[cfg(feature = "alloy")]
pub use self::alloy::{
    BatchRecoverable, recover_authorities, recover_signers, recover_signers_unchecked,
};
#[cfg(feature = "revm")]
pub use self::revm::{RevmCrypto, install_revm_crypto};
