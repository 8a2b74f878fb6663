//! The bundled real transactions decoded by alloy, and the per-transaction way of
//! recovering their senders that asmcrypto's batch calls are measured against: alloy's own
//! `SignerRecoverable` with libsecp256k1 (alloy-consensus built with its `secp256k1`
//! feature, as reth builds it, and no provider installed), and alloy's k256 path. Shared by
//! `benches/senders.rs` and `examples/compare.rs` (included with `#[path]`).

#![allow(dead_code)]

use alloy_consensus::TxEnvelope;
use alloy_consensus::crypto::{RecoveryError, SECP256K1N_HALF};
use alloy_consensus::transaction::SignerRecoverable;
use alloy_eips::eip2718::Decodable2718;
use alloy_primitives::Address;

#[path = "../../tests/common/real_txs.rs"]
mod real_txs;
#[allow(unused_imports)] // each includer uses its own part
pub use real_txs::{RealTx, all_real_txs, blocks, bsc_block, raw_txs};

/// A bundled transaction that alloy decodes, with its published sender.
pub struct Decoded {
    pub tx: TxEnvelope,
    pub sender: Address,
    pub high_s: bool,
}

/// The transactions of `txs` that alloy's decoder accepts (it refuses eight of
/// `raw_txs.jsonl`, whose gas price or nonce do not fit alloy's fields).
pub fn decode_all(txs: &[RealTx]) -> Vec<Decoded> {
    txs.iter()
        .filter_map(|t| {
            let tx = TxEnvelope::decode_2718_exact(&t.raw).ok()?;
            Some(Decoded {
                tx,
                sender: Address::from(t.sender),
                high_s: t.high_s,
            })
        })
        .collect()
}

/// The per-transaction way with libsecp256k1: what reth runs for each transaction.
pub fn libsecp256k1(tx: &TxEnvelope, low_s: bool) -> Result<Address, RecoveryError> {
    if low_s {
        tx.recover_signer()
    } else {
        tx.recover_signer_unchecked()
    }
}

/// The per-transaction way with k256, alloy's default backend: alloy's signing hash, then
/// `alloy_primitives::Signature::recover_from_prehash` (k256) and the key's address.
pub fn k256(tx: &TxEnvelope, low_s: bool) -> Option<Address> {
    let sig = tx.signature();
    if low_s && sig.s() > SECP256K1N_HALF {
        return None;
    }
    let key = sig.recover_from_prehash(&tx.signature_hash()).ok()?;
    Some(Address::from_public_key(&key))
}
