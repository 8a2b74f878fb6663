//! # asmcrypto
//!
//! Fast Ethereum signature recovery: secp256k1 ECDSA public-key recovery followed by
//! Keccak-256 of the key, as every Ethereum node does for every transaction and as the
//! EVM's `ecrecover` precompile (address `0x01`) does inside contracts.
//!
//! By default the crate has no dependencies (the optional features `parallel`, `alloy`, `op`,
//! `reth` and `revm` bring rayon and the host crates of [`adapters`]), and no `unsafe`
//! outside CPU intrinsics and the BMI2/ADX field multiply.
//!
//! | you have | call | returns |
//! | --- | --- | --- |
//! | **one signature**: a hash and r ‖ s ‖ v (v ∈ {0, 1, 27, 28}) | [`recover_address`] ([`recover_public_key`] for the key) | the 20-byte address |
//! | one signature as r ‖ s and libsecp256k1's recovery id 0..=3 | [`ecrecover_public_key`] ([`ecrecover`]: revm's hook, the address in 32 bytes) | the 64-byte key X ‖ Y |
//! | the input bytes of the EVM precompile at `0x01` | [`ecrecover_precompile`] | its output, or `None` for the empty output |
//! | **a batch**: any number of (hash, r ‖ s ‖ v) | [`recover_addresses`] (exactly eight: [`recover_addresses_batch`]; on threads started for the call: [`recover_addresses_on_threads`]) | one `Result` per input, in order |
//! | **a block** of alloy transactions (feature `alloy`) | [`adapters::alloy::recover_signers`], [`try_into_recovered`](adapters::alloy::try_into_recovered) | each sender, with alloy's errors |
//! | a block of OP-stack transactions, `OpTxEnvelope` (feature `op`), or of a chain's own envelope type (implement [`BatchRecoverable`](adapters::alloy::BatchRecoverable)) | the same [`adapters::alloy::recover_signers`] | each sender (a deposit's stated one), with the host's errors |
//! | **reth's sealed blocks**, one or many (feature `reth`) | [`adapters::reth::recover_block`], [`recover_blocks`](adapters::reth::recover_blocks) (all blocks' transactions in one batch) | reth's `RecoveredBlock`, or the block back in its error |
//! | the EIP-7702 authorizations of a block (feature `alloy`) | [`adapters::alloy::recover_authorities`] | each authority, with alloy's errors |
//! | **a host's hook**: alloy-consensus's `CryptoProvider` (feature `alloy`) | [`adapters::install_alloy_provider`], once at start-up | every `recover_signer()` runs here |
//! | a host's hook: revm-precompile's `Crypto` (feature `revm`) | [`adapters::install_revm_crypto`], once at start-up | the `ecrecover` and `P256VERIFY` precompiles run here |
//! | bytes to hash | [`keccak256`], [`Keccak256`] (incremental), [`keccak256_batch`] (eight at once) | Keccak-256 |
//!
//! [`backend`] and [`backend_details`] say which paths this CPU takes. Every recovery
//! function returns [`Error`] for an input that is no signature, and none panics on any
//! input.
//!
//! ```
//! // A transaction signature (r ‖ s ‖ v) over its signing hash.
//! let hash: [u8; 32] = hex32("c8f2345bc628763f2f8324d099b26070e9a4f73d1ee8d654fd8537f59db8b4c6");
//! let mut sig = [0u8; 65];
//! sig[..32].copy_from_slice(&hex32("2ab9adbf933ea82559c127cf688532d1930b3d352748c2065a55759f5b84d750"));
//! sig[32..64].copy_from_slice(&hex32("7d9f53ffe4dd1d297b64738fee7f448a9523ff58f411595c9a148c3cfeee6c28"));
//! sig[64] = 0;
//! let sender = asmcrypto::recover_address(&hash, &sig).unwrap();
//! # let _ = sender;
//! # fn hex32(s: &str) -> [u8; 32] {
//! #     let mut out = [0u8; 32];
//! #     for i in 0..32 { out[i] = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap(); }
//! #     out
//! # }
//! ```
//!
//! ## Variable time
//!
//! Everything in this crate runs in **variable time**: branches and memory accesses depend
//! on the values being processed. That is sound here because every input of recovery — the
//! message hash, the signature and the recovered public key — is public. Do not reuse the
//! arithmetic in this crate for anything that handles secrets (signing, key derivation, ECDH).

#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// The table above links the adapters, which exist only with their features: the docs.rs
// build (`--cfg docsrs`, every adapter feature; CI runs it with `-D warnings`) checks those
// links, other builds let them fall back to plain text.
#![cfg_attr(not(docsrs), allow(rustdoc::broken_intra_doc_links))]

#[cfg(any(feature = "alloy", feature = "revm"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "alloy", feature = "revm"))))]
pub mod adapters;
mod arith;
mod batch;
// Unit tests at the recodings' and the field's boundaries (`tests/boundary.rs` runs the
// same values through the public paths), and of the 8-lane field and scalars at their limb
// bounds.
#[cfg(test)]
mod boundary_tests;
mod dispatch;
mod error;
#[doc(hidden)]
pub mod internals;
mod keccak;
#[cfg(test)]
mod lane_bounds_tests;
mod lanes;
mod p256;
mod p256verify;
mod recover;
mod secp256k1;
#[cfg(any(test, feature = "emu"))]
mod test_support;

pub use batch::p256::p256_verify_batch;
pub use batch::{
    MIN_THREAD_SHARE, recover_addresses, recover_addresses_batch, recover_addresses_on_threads,
};
pub use dispatch::{BackendDetails, backend, backend_details};
pub use error::Error;
pub use keccak::{Keccak256, keccak256, keccak256_batch};
pub use p256verify::{
    P256Error, P256VERIFY_INPUT_LEN, P256VERIFY_SUCCESS, p256_verify, p256verify_precompile,
};
pub use recover::{
    ecrecover, ecrecover_precompile, ecrecover_public_key, recover_address, recover_public_key,
};
