//! The senders of many transactions at once: any [`BatchRecoverable`] items.

use alloy_consensus::crypto::{InvalidSignatureS, RecoveryError, SECP256K1N_HALF};
use alloy_consensus::transaction::Recovered;
use alloy_primitives::Address;

use super::batch::{Prepared, recover_payloads, sig65};
use super::recoverable::{BatchRecoverable, SignerSource};

/// The signers of `txs`, in input order, each exactly what alloy's
/// [`SignerRecoverable::recover_signer`](alloy_consensus::transaction::SignerRecoverable::recover_signer)
/// returns for it: the EIP-2 rule holds (s above n/2 is refused with alloy's own
/// `InvalidSignatureS` error, as from Homestead on), and every signature that does not
/// recover is alloy's opaque [`RecoveryError`].
///
/// The whole input is one batch: the signing payloads are encoded by the items (with
/// alloy's own encoders for alloy's types) into one buffer and hashed eight at a time, then the signatures go through the batch path
/// of [`recover_addresses`](crate::recover_addresses). With the feature `parallel`, long
/// inputs are spread over the rayon pool, each thread running the whole job on its share.
/// Works for every [`BatchRecoverable`] item: alloy's
/// [`TxEnvelope`](alloy_consensus::TxEnvelope) and reth's `EthereumTxEnvelope<TxEip4844>`
/// alike, op-alloy's `OpTxEnvelope` with the feature `op`, a chain's own envelope type. An
/// item that states its signer (an OP-stack deposit's `from`) gets that signer, in both
/// forms, as op-alloy's `recover_signer` gives it.
///
/// ```
/// use alloy_consensus::crypto::SECP256K1N_HALF;
/// use alloy_consensus::{SignableTransaction, TxEnvelope};
/// use alloy_eips::eip2718::Decodable2718;
/// use alloy_primitives::{Signature, U256, hex};
/// use asmcrypto::adapters::alloy::{recover_signers, recover_signers_unchecked};
///
/// // A real EIP-1559 transaction (EIP-2718 bytes).
/// let raw = hex!(
///     "02f86401070682037082c35094cccccccccccccccccccccccccccccccccccccccc8080c080a0a0bbdc151d10b0"
///     "e26c967627c2de05dba358ee52230d58e08a66859868f98235a01cf066ab7b927a4b65c2df18d22f5a875798"
///     "1ae1869ccecd7195e21960253195"
/// );
/// let tx = TxEnvelope::decode_2718(&mut raw.as_slice()).unwrap();
/// // Its signature's high-s twin (s' = n − s, parity flipped), which EIP-2 forbids.
/// let sig = *tx.signature();
/// let n = SECP256K1N_HALF * U256::from(2) + U256::from(1);
/// let twin = Signature::new(sig.r(), n - sig.s(), !sig.v());
/// let twin = TxEnvelope::from(tx.as_eip1559().unwrap().tx().clone().into_signed(twin));
/// let block = [tx, twin];
///
/// let checked = recover_signers(&block);
/// assert!(checked[0].is_ok() && checked[1].is_err());
/// let unchecked = recover_signers_unchecked(&block);
/// assert_eq!(unchecked[0].as_ref().unwrap(), unchecked[1].as_ref().unwrap());
/// ```
pub fn recover_signers<T>(txs: &[T]) -> Vec<Result<Address, RecoveryError>>
where
    T: BatchRecoverable + Sync,
{
    recover(txs, true)
}

/// The signers of `txs`, in input order, each exactly what alloy's
/// [`SignerRecoverable::recover_signer_unchecked`](alloy_consensus::transaction::SignerRecoverable::recover_signer_unchecked)
/// returns for it: like [`recover_signers`], but s above n/2 is accepted (as for Frontier
/// transactions and as reth's sender-recovery stage asks).
///
/// ```
/// use alloy_consensus::{SignableTransaction, TxEip1559, TxEnvelope};
/// use alloy_primitives::{Signature, U256};
///
/// // r = 0 is no signature: an error, never a panic.
/// let tx = TxEip1559::default().into_signed(Signature::new(U256::ZERO, U256::from(1), false));
/// let out = asmcrypto::adapters::alloy::recover_signers_unchecked(&[TxEnvelope::from(tx)]);
/// assert!(out[0].is_err());
/// ```
pub fn recover_signers_unchecked<T>(txs: &[T]) -> Vec<Result<Address, RecoveryError>>
where
    T: BatchRecoverable + Sync,
{
    recover(txs, false)
}

/// Pairs every transaction with its signer, as alloy's
/// [`SignerRecoverable::try_into_recovered`](alloy_consensus::transaction::SignerRecoverable::try_into_recovered)
/// does for one (the [`Recovered`] values reth hands to its executor), recovering all the
/// signers in one batch with [`recover_signers`].
///
/// # Errors
/// The error of the first transaction, in input order, whose signer does not recover
/// (use [`recover_signers`] to see every result).
pub fn try_into_recovered<T>(txs: Vec<T>) -> Result<Vec<Recovered<T>>, RecoveryError>
where
    T: BatchRecoverable + Sync,
{
    let signers = recover_signers(&txs);
    pair(txs, signers)
}

/// [`try_into_recovered`] with the senders of [`recover_signers_unchecked`] (s above n/2
/// accepted).
///
/// # Errors
/// As for [`try_into_recovered`].
pub fn try_into_recovered_unchecked<T>(txs: Vec<T>) -> Result<Vec<Recovered<T>>, RecoveryError>
where
    T: BatchRecoverable + Sync,
{
    let signers = recover_signers_unchecked(&txs);
    pair(txs, signers)
}

fn pair<T>(
    txs: Vec<T>,
    signers: Vec<Result<Address, RecoveryError>>,
) -> Result<Vec<Recovered<T>>, RecoveryError> {
    txs.into_iter()
        .zip(signers)
        .map(|(tx, signer)| signer.map(|s| Recovered::new_unchecked(tx, s)))
        .collect()
}

/// Both forms; `low_s`: refuse s > n/2 as alloy's `recover_signer` does.
fn recover<T>(txs: &[T], low_s: bool) -> Vec<Result<Address, RecoveryError>>
where
    T: BatchRecoverable + Sync,
{
    let prepare = |tx: &T, buf: &mut Vec<u8>| -> Result<Prepared, RecoveryError> {
        match tx.signer_source(buf)? {
            SignerSource::Stated(signer) => Ok(Prepared::Signer(signer.into_array())),
            // alloy's own error for this case, source included (the payload just written
            // is dropped with the item).
            SignerSource::Signature(sig) if low_s && sig.s() > SECP256K1N_HALF => {
                Err(RecoveryError::from_source(InvalidSignatureS))
            }
            SignerSource::Signature(sig) => {
                Ok(Prepared::Signature(sig65(&sig.r(), &sig.s(), sig.v())))
            }
        }
    };
    // alloy's backends drop the cause of a failed recovery: one opaque error for all.
    recover_payloads(txs, prepare, |_| RecoveryError::new())
        .into_iter()
        .map(|r| r.map(Address::from))
        .collect()
}
