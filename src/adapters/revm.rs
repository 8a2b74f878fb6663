//! asmcrypto as revm's `ecrecover` and `P256VERIFY` backend (feature `revm`).
//!
//! `revm-precompile` runs every precompile's cryptography through a process-wide
//! [`Crypto`] object. [`install_revm_crypto`] installs [`RevmCrypto`], which sends two of
//! its methods to asmcrypto:
//!
//! - `secp256k1_ecrecover` — the whole of the `ecrecover` precompile at `0x01` but for its
//!   input parsing and gas — to [`crate::ecrecover`];
//! - `secp256r1_verify_signature` — the whole of the `P256VERIFY` precompile at `0x100`
//!   (EIP-7951, from Osaka; RIP-7212 on L2s) but for its length check and gas — to
//!   [`crate::p256_verify`];
//!
//! and keeps revm's own implementations of every other method (SHA-256, RIPEMD-160, BN254,
//! BLS12-381, KZG, …). The trait has no Keccak hook, so there is nothing else to forward.
//!
//! ```
//! // Once, at start-up, before the first precompile runs: revm locks its default backend
//! // in at the first use. `false` if that already happened or another backend won.
//! let installed = asmcrypto::adapters::install_revm_crypto();
//!
//! // The precompile at 0x01, through revm's own entry point: hash ‖ v ‖ r ‖ s.
//! let input = hex(concat!(
//!     "c8f2345bc628763f2f8324d099b26070e9a4f73d1ee8d654fd8537f59db8b4c6",
//!     "000000000000000000000000000000000000000000000000000000000000001b",
//!     "2ab9adbf933ea82559c127cf688532d1930b3d352748c2065a55759f5b84d750",
//!     "7d9f53ffe4dd1d297b64738fee7f448a9523ff58f411595c9a148c3cfeee6c28",
//! ));
//! let out = revm_precompile::secp256k1::ec_recover_run(&input, 10_000).unwrap();
//! assert_eq!(out.gas_used, 3_000);
//! assert_eq!(&out.bytes[..12], &[0u8; 12]);
//! assert_eq!(&out.bytes[12..], hex("a94f5374fce5edbc8e2a8697c15331677e6ebf0b"));
//!
//! // The precompile at 0x100 (Osaka's gas, 6900), through revm's own entry point:
//! // hash ‖ r ‖ s ‖ qx ‖ qy, 160 bytes (revm's own test case ok_1).
//! let mut input = hex(concat!(
//!     "4cee90eb86eaa050036147a12d49004b6b9c72bd725d39d4785011fe190f0b4d",
//!     "a73bd4903f0ce3b639bbbf6e8e80d16931ff4bcf5993d58468e8fb19086e8cac",
//!     "36dbcd03009df8c59286b162af3bd7fcc0450c9aa81be5d10d312af6c66b1d60",
//!     "4aebd3099c618202fcfe16ae7770b0c49ab5eadf74b754204a3bb6060e44eff3",
//!     "7618b065f9832de4ca6ca971a7a1adc826d0f7c00181a5fb2ddf79ae00b4e10e",
//! ));
//! let out = revm_precompile::secp256r1::p256_verify_osaka(&input, 10_000).unwrap();
//! assert_eq!(out.gas_used, 6_900);
//! assert_eq!(&out.bytes[..], &[&[0u8; 31][..], &[1]].concat());
//!
//! // Another hash: the signature does not verify, the output is empty, the gas the same.
//! input[0] ^= 1;
//! let out = revm_precompile::secp256r1::p256_verify_osaka(&input, 10_000).unwrap();
//! assert_eq!(out.gas_used, 6_900);
//! assert!(out.bytes.is_empty());
//! # let _ = installed;
//! # fn hex(s: &str) -> Vec<u8> {
//! #     (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect()
//! # }
//! ```

#![cfg_attr(docsrs, doc(cfg(feature = "revm")))]

use revm_precompile::{Crypto, PrecompileHalt, install_crypto};

/// revm-precompile [`Crypto`] whose `secp256k1_ecrecover` is asmcrypto's
/// [`ecrecover`](crate::ecrecover) and whose `secp256r1_verify_signature` is asmcrypto's
/// [`p256_verify`](crate::p256_verify); every other method is the trait's default (revm's
/// own).
///
/// Install it with [`install_revm_crypto`], or call it from a `Crypto` of your own that
/// overrides other methods too:
///
/// ```
/// use asmcrypto::adapters::RevmCrypto;
/// use revm_precompile::{Crypto, PrecompileHalt};
///
/// #[derive(Debug)]
/// struct MyCrypto;
///
/// impl Crypto for MyCrypto {
///     fn secp256k1_ecrecover(
///         &self,
///         sig: &[u8; 64],
///         recid: u8,
///         msg: &[u8; 32],
///     ) -> Result<[u8; 32], PrecompileHalt> {
///         RevmCrypto.secp256k1_ecrecover(sig, recid, msg)
///     }
///
///     fn secp256r1_verify_signature(&self, msg: &[u8; 32], sig: &[u8; 64], pk: &[u8; 64]) -> bool {
///         RevmCrypto.secp256r1_verify_signature(msg, sig, pk)
///     }
///     // … your own sha256, bn254_pairing_check, …
/// }
///
/// // r = s = 0 is no signature: the precompile's failure, not a panic.
/// assert_eq!(
///     MyCrypto.secp256k1_ecrecover(&[0u8; 64], 0, &[0u8; 32]),
///     Err(PrecompileHalt::Secp256k1RecoverFailed)
/// );
/// // Nor on P-256, where the key (0, 0) is not on the curve either.
/// assert!(!MyCrypto.secp256r1_verify_signature(&[0u8; 32], &[0u8; 64], &[0u8; 64]));
/// ```
///
/// **ecrecover.** `recid` is libsecp256k1's recovery id, 0..=3 (the precompile passes
/// `v − 27`, 0 or 1); anything above 3 fails instead of panicking as revm's own backends do.
/// High s is accepted, as the precompile requires. Every failure is
/// [`PrecompileHalt::Secp256k1RecoverFailed`], the variant revm's own backends return (the
/// precompile turns it into the empty output; asmcrypto's finer [`Error`](crate::Error)
/// is available from [`crate::ecrecover`] directly).
///
/// **P256VERIFY.** `true` exactly when revm's default backend (RustCrypto's `p256`) says
/// `true`: r and s in [1, n−1] (high s accepted, nothing reduced), the untagged key
/// qx ‖ qy with both coordinates below p and on the curve, and the prehash `msg` verifying
/// (R′ not at infinity, x(R′) ≡ r mod n) — EIP-7951's checks. `false` for every other
/// input, never a panic; which check failed is available from [`crate::p256_verify`]'s
/// [`P256Error`](crate::P256Error) directly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RevmCrypto;

impl Crypto for RevmCrypto {
    #[inline]
    fn secp256k1_ecrecover(
        &self,
        sig: &[u8; 64],
        recid: u8,
        msg: &[u8; 32],
    ) -> Result<[u8; 32], PrecompileHalt> {
        crate::ecrecover(sig, recid, msg).map_err(|_| PrecompileHalt::Secp256k1RecoverFailed)
    }

    #[inline]
    fn secp256r1_verify_signature(&self, msg: &[u8; 32], sig: &[u8; 64], pk: &[u8; 64]) -> bool {
        crate::p256_verify(msg, sig, pk).is_ok()
    }
}

/// Installs [`RevmCrypto`] as revm-precompile's process-wide crypto backend: from then on
/// the `ecrecover` precompile (`0x01`) and the `P256VERIFY` precompile (`0x100`) run on
/// asmcrypto, in every spec's precompile set that has them; revm keeps their input
/// parsing, their gas and every other precompile.
///
/// Returns `true` if it was installed, `false` if a backend was in place already: one
/// installed earlier, or revm's default, which revm locks in the first time any
/// precompile runs. Call it at start-up, before the first transaction executes.
///
/// ```
/// if !asmcrypto::adapters::install_revm_crypto() {
///     eprintln!("a revm crypto backend was already in place; it stays");
/// }
/// ```
pub fn install_revm_crypto() -> bool {
    install_crypto(RevmCrypto)
}
