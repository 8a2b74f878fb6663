//! [`BatchRecoverable`]: what one signed item hands the batch calls, and its
//! implementations for alloy's own types.

use alloy_consensus::crypto::RecoveryError;
use alloy_consensus::{EthereumTxEnvelope, SignableTransaction, Signed};
use alloy_primitives::{Address, Signature};

/// Where an item's signer comes from, as [`BatchRecoverable::signer_source`] states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignerSource {
    /// Recover the signer from this signature over the signing payload the item has just
    /// appended (its signing hash is that payload's Keccak-256).
    Signature(Signature),
    /// The item states its signer, and there is nothing to recover: an OP-stack deposit's
    /// `from`, a chain's system transaction.
    Stated(Address),
}

/// A signed item that the batch calls of this module take: a transaction envelope of any
/// chain, or a part of one.
///
/// [`recover_signers`](super::recover_signers),
/// [`recover_signers_unchecked`](super::recover_signers_unchecked) and
/// [`try_into_recovered`](super::try_into_recovered)`[_unchecked]` accept a slice or `Vec`
/// of any type that implements it. Each item, through [`signer_source`](Self::signer_source),
/// does one of three things:
///
/// - it appends its **signing payload** (the bytes whose Keccak-256 is its signing hash,
///   such as `SignableTransaction::encode_for_signing` writes them) to the buffer it is
///   given and returns its [`SignerSource::Signature`]: the batch hashes all the payloads
///   eight at a time and recovers all the signatures together;
/// - it **states its signer** ([`SignerSource::Stated`]): that address is its result, with
///   no recovery (and no EIP-2 check, since there is no signature);
/// - it **refuses** with an error, which becomes its result.
///
/// Around that, the batch calls apply alloy's rules for
/// [`SignerRecoverable`](alloy_consensus::transaction::SignerRecoverable) on a signature:
/// the checked forms refuse s above n/2 with alloy's own error (source
/// `InvalidSignatureS`), and a signature that does not recover gives alloy's opaque
/// [`RecoveryError`]. So if an item's `signer_source` mirrors its `SignerRecoverable` (the
/// payload of the signing hash it recovers over, the address it returns without recovery,
/// the error it refuses with), the batch returns for it exactly what `recover_signer` and
/// `recover_signer_unchecked` return.
///
/// Implemented here for alloy's [`Signed<T>`] (any signed transaction type),
/// [`EthereumTxEnvelope<T>`] (alloy's `TxEnvelope`, reth's `EthereumTxEnvelope<TxEip4844>`,
/// alloy's `PooledTransaction`), references to implementors, and with the feature `op`
/// op-alloy's `OpTxEnvelope` and `OpPooledTransaction`.
///
/// A chain's own envelope implements it by handing each signed variant to the `Signed<T>`
/// it holds, stating the signer of a transaction that carries one, and refusing what it
/// cannot recover:
///
/// ```
/// use alloy_consensus::crypto::RecoveryError;
/// use alloy_consensus::{Signed, TxEip1559, TxEnvelope, TxLegacy};
/// use alloy_eips::eip2718::Decodable2718;
/// use alloy_primitives::{Address, address, hex};
/// use asmcrypto::adapters::alloy::{BatchRecoverable, SignerSource, recover_signers};
///
/// /// A chain's envelope: two kinds of signed transaction, a system transaction that
/// /// carries its sender, and a kind this node cannot recover.
/// enum ChainTx {
///     Legacy(Signed<TxLegacy>),
///     Eip1559(Signed<TxEip1559>),
///     System { from: Address },
///     Unknown(u8),
/// }
///
/// impl BatchRecoverable for ChainTx {
///     fn signer_source(&self, payload: &mut Vec<u8>) -> Result<SignerSource, RecoveryError> {
///         match self {
///             ChainTx::Legacy(tx) => tx.signer_source(payload),
///             ChainTx::Eip1559(tx) => tx.signer_source(payload),
///             ChainTx::System { from } => Ok(SignerSource::Stated(*from)),
///             ChainTx::Unknown(_) => Err(RecoveryError::new()),
///         }
///     }
/// }
///
/// // A real EIP-1559 transaction (EIP-2718 bytes) and its sender.
/// let raw = hex!(
///     "02f86401070682037082c35094cccccccccccccccccccccccccccccccccccccccc8080c080a0a0bbdc151d10b0"
///     "e26c967627c2de05dba358ee52230d58e08a66859868f98235a01cf066ab7b927a4b65c2df18d22f5a875798"
///     "1ae1869ccecd7195e21960253195"
/// );
/// let sender = address!("d02d72e067e77158444ef2020ff2d325f929b363");
/// let tx = TxEnvelope::decode_2718(&mut raw.as_slice()).unwrap();
/// let system = address!("fffffffffffffffffffffffffffffffffffffffe");
///
/// let block = vec![
///     ChainTx::Eip1559(tx.as_eip1559().unwrap().clone()),
///     ChainTx::System { from: system },
///     ChainTx::Unknown(0x7f),
/// ];
/// let senders = recover_signers(&block);
/// assert_eq!(senders[0].as_ref().unwrap(), &sender);
/// assert_eq!(senders[1].as_ref().unwrap(), &system);
/// assert!(senders[2].is_err());
/// ```
pub trait BatchRecoverable {
    /// Where this item's signer comes from: append the signing payload to `payload` and
    /// return the signature over it, or return the signer the item states, or refuse with
    /// an error.
    ///
    /// Append nothing but the payload, and only when returning a signature (anything
    /// appended on the other two ways is dropped). Do not read or change what `payload`
    /// already holds: other items' payloads.
    ///
    /// # Errors
    /// The error the item's own per-item recovery returns for it without looking at its
    /// signature (for instance a variant it cannot recover).
    fn signer_source(&self, payload: &mut Vec<u8>) -> Result<SignerSource, RecoveryError>;
}

impl<T: BatchRecoverable + ?Sized> BatchRecoverable for &T {
    fn signer_source(&self, payload: &mut Vec<u8>) -> Result<SignerSource, RecoveryError> {
        (**self).signer_source(payload)
    }
}

/// Any signed transaction: its `encode_for_signing` payload and its signature, as alloy's
/// `SignerRecoverable` for `Signed<T>` recovers it.
impl<T: SignableTransaction<Signature>> BatchRecoverable for Signed<T> {
    fn signer_source(&self, payload: &mut Vec<u8>) -> Result<SignerSource, RecoveryError> {
        self.tx().encode_for_signing(payload);
        Ok(SignerSource::Signature(*self.signature()))
    }
}

/// Every variant is a `Signed<_>` (the legacy one's payload carries the EIP-155 fields
/// where it has a chain id).
impl<T: SignableTransaction<Signature>> BatchRecoverable for EthereumTxEnvelope<T> {
    fn signer_source(&self, payload: &mut Vec<u8>) -> Result<SignerSource, RecoveryError> {
        match self {
            Self::Legacy(t) => t.signer_source(payload),
            Self::Eip2930(t) => t.signer_source(payload),
            Self::Eip1559(t) => t.signer_source(payload),
            Self::Eip4844(t) => t.signer_source(payload),
            Self::Eip7702(t) => t.signer_source(payload),
        }
    }
}
