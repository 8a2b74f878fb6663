//! Seeded OP-stack transactions of every kind (op-alloy-consensus's `OpTxEnvelope`): the four
//! signed kinds signed by random keys through alloy, deposits and post-exec transactions, and
//! their spoiled variants; the bundled real transactions as OP envelopes; and op-alloy's own
//! per-transaction answers, the oracle of the OP tests and what the benchmarks measure
//! against (`SignerRecoverable` for `OpTxEnvelope`, alloy's libsecp256k1 backend in this
//! repository's builds).

use alloy_consensus::transaction::SignerRecoverable;
use alloy_consensus::{EthereumTxEnvelope, Sealed, SignableTransaction, Signed};
use alloy_primitives::{Address, B256, Bytes, Signature, TxKind, U256};
use op_alloy_consensus::{OpTxEnvelope, PostExecPayload, SDMGasEntry, TxDeposit, TxPostExec};

use crate::alloy::{Outcome, outcome, random_tx, spoil};
use crate::rng::SplitMix64;

/// The kinds of OP-stack transaction: the four signed ones (legacy without and with EIP-155,
/// EIP-2930, EIP-1559, EIP-7702), then deposits (type `0x7E`) and post-exec ones (`0x7D`).
pub const OP_KINDS: [&str; 7] = [
    "legacy",
    "legacy EIP-155",
    "EIP-2930",
    "EIP-1559",
    "EIP-7702",
    "deposit",
    "post-exec",
];

/// The Ethereum envelope as an OP-stack one; `None` for EIP-4844 (no blobs on OP chains).
pub fn op_from_eth<T>(tx: EthereumTxEnvelope<T>) -> Option<OpTxEnvelope> {
    OpTxEnvelope::try_from(tx).ok()
}

/// A random deposit transaction (as the rollup node derives them from L1: the L1-info one
/// and users' deposits alike), sealed.
pub fn random_deposit(rng: &mut SplitMix64) -> OpTxEnvelope {
    let from = Address::from_slice(&rng.bytes(20));
    let to = if rng.below(8) == 0 {
        TxKind::Create
    } else {
        TxKind::Call(Address::from_slice(&rng.bytes(20)))
    };
    let input_len = [0, 4, 36, 260][rng.below(4) as usize] + rng.below(8) as usize;
    let deposit = TxDeposit {
        source_hash: B256::from(rng.bytes32()),
        from,
        to,
        mint: u128::from(rng.next_u64()) >> rng.below(64),
        value: U256::from_be_bytes(rng.bytes32()) >> (rng.below(256) as usize),
        gas_limit: rng.next_u64() >> rng.below(64),
        is_system_transaction: rng.below(4) == 0,
        input: Bytes::from(rng.bytes(input_len)),
    };
    OpTxEnvelope::Deposit(Sealed::new(deposit))
}

/// A random post-exec transaction (unsigned, synthetic; its signer is the zero address).
pub fn random_post_exec(rng: &mut SplitMix64) -> OpTxEnvelope {
    let payload = PostExecPayload {
        version: op_alloy_consensus::POST_EXEC_PAYLOAD_VERSION,
        block_number: rng.next_u64() >> rng.below(64),
        gas_refund_entries: (0..rng.below(4))
            .map(|_| SDMGasEntry {
                index: rng.below(1000),
                gas_refund: rng.next_u64() >> 32,
            })
            .collect(),
    };
    OpTxEnvelope::from(TxPostExec::new(payload))
}

/// A random OP-stack transaction of kind `kind` (an index into [`OP_KINDS`]), with its
/// signer: the signing key's address for the signed kinds (by libsecp256k1), the deposit's
/// `from`, the zero address for post-exec.
pub fn random_op_tx(rng: &mut SplitMix64, kind: usize) -> (OpTxEnvelope, Address) {
    match kind {
        // legacy, legacy EIP-155, EIP-2930, EIP-1559, EIP-7702: alloy's kinds 0-3 and 5.
        0..=4 => {
            let (tx, signer) = random_tx(rng, [0, 1, 2, 3, 5][kind]);
            (op_from_eth(tx).expect("not a blob transaction"), signer)
        }
        5 => {
            let tx = random_deposit(rng);
            let from = tx.as_deposit().expect("a deposit").from;
            (tx, from)
        }
        _ => (random_post_exec(rng), Address::ZERO),
    }
}

/// The same signed kind with another signature; deposits and post-exec transactions have
/// none and come back unchanged.
pub fn with_op_signature(tx: &OpTxEnvelope, sig: Signature) -> OpTxEnvelope {
    fn resign<T: SignableTransaction<Signature> + Clone>(
        t: &Signed<T>,
        sig: Signature,
    ) -> Signed<T> {
        t.tx().clone().into_signed(sig)
    }
    match tx {
        OpTxEnvelope::Legacy(t) => OpTxEnvelope::from(resign(t, sig)),
        OpTxEnvelope::Eip2930(t) => OpTxEnvelope::from(resign(t, sig)),
        OpTxEnvelope::Eip1559(t) => OpTxEnvelope::from(resign(t, sig)),
        OpTxEnvelope::Eip7702(t) => OpTxEnvelope::from(resign(t, sig)),
        OpTxEnvelope::Deposit(_) | OpTxEnvelope::PostExec(_) => tx.clone(),
    }
}

/// The transaction's signature spoiled as [`spoil`](crate::alloy::spoil) kind `kind` says
/// (deposits and post-exec transactions unchanged).
pub fn spoil_op_tx(rng: &mut SplitMix64, tx: &OpTxEnvelope, kind: u64) -> OpTxEnvelope {
    let sig = match tx {
        OpTxEnvelope::Legacy(t) => t.signature(),
        OpTxEnvelope::Eip2930(t) => t.signature(),
        OpTxEnvelope::Eip1559(t) => t.signature(),
        OpTxEnvelope::Eip7702(t) => t.signature(),
        OpTxEnvelope::Deposit(_) | OpTxEnvelope::PostExec(_) => return tx.clone(),
    };
    let (r, s, odd) = spoil(rng, sig.r(), sig.s(), sig.v(), kind);
    with_op_signature(tx, Signature::new(r, s, odd))
}

/// op-alloy's own answers for one transaction: (`recover_signer`,
/// `recover_signer_unchecked`) of its `SignerRecoverable`, no provider installed.
pub fn op_signers<T: SignerRecoverable>(tx: &T) -> (Outcome, Outcome) {
    (
        outcome(tx.recover_signer()),
        outcome(tx.recover_signer_unchecked()),
    )
}

/// The bundled transactions that alloy decodes and OP chains carry (all but EIP-4844), as
/// OP envelopes, with their published senders.
pub fn real_op_txs(txs: &[crate::samples::RealTx]) -> Vec<(OpTxEnvelope, Address)> {
    crate::alloy::decode_all(txs)
        .into_iter()
        .filter_map(|d| Some((op_from_eth(d.tx)?, d.sender)))
        .collect()
}
