//! reth's blocks for the tests and benchmarks: the bundled block bodies as reth's sealed
//! Ethereum blocks, spoiled twins of them, and reth-primitives-traits' own recovery
//! (`SealedBlock::try_recover[_unchecked]`, alloy's libsecp256k1 backend in this
//! repository's builds), the oracle of the reth tests and the baseline of the benchmarks.

use alloy_consensus::{
    BlockBody, EthereumTxEnvelope, Header, SignableTransaction, Signed, TxEip4844,
};
use alloy_primitives::Signature;
use reth_primitives_traits::block::error::BlockRecoveryError;
use reth_primitives_traits::{Block, RecoveredBlock, SealedBlock};

use crate::alloy::{decode, spoil};
use crate::rng::SplitMix64;
use crate::samples::{RealBlock, blocks, bsc_block};

/// reth's Ethereum block.
pub type EthBlock = alloy_consensus::Block<EthereumTxEnvelope<TxEip4844>>;

/// What recovering one block gives: reth's own result type.
pub type BlockResult<B> = Result<RecoveredBlock<B>, BlockRecoveryError<SealedBlock<B>>>;

/// A sealed block numbered `number` holding `transactions` (a default header otherwise:
/// recovery reads only the body, and the number keeps the blocks' hashes apart).
pub fn seal<T>(number: u64, transactions: Vec<T>) -> SealedBlock<alloy_consensus::Block<T>>
where
    alloy_consensus::Block<T>: Block<Body = BlockBody<T>, Header = Header>,
{
    let header = Header {
        number,
        ..Header::default()
    };
    let body = BlockBody {
        transactions,
        ommers: vec![],
        withdrawals: None,
    };
    SealedBlock::seal_slow(alloy_consensus::Block::new(header, body))
}

/// A bundled block body as reth's sealed block.
pub fn reth_block(number: u64, block: &RealBlock) -> SealedBlock<EthBlock> {
    let txs = block
        .txs
        .iter()
        .map(|t| {
            decode(t)
                .unwrap_or_else(|| panic!("alloy refuses {}", t.what))
                .reth
        })
        .collect();
    seal(number, txs)
}

/// The 40 bundled blocks of `blocks.jsonl` and the 121-transaction BSC block, as reth's
/// sealed blocks, numbered 0 to 40 (433 transactions).
pub fn bundled_blocks() -> Vec<SealedBlock<EthBlock>> {
    blocks()
        .iter()
        .chain([&bsc_block()])
        .enumerate()
        .map(|(i, b)| reth_block(i as u64, b))
        .collect()
}

/// `block` with transaction `index` replaced by `tx` (same header).
pub fn with_tx<T: Clone>(
    block: &SealedBlock<alloy_consensus::Block<T>>,
    index: usize,
    tx: T,
) -> SealedBlock<alloy_consensus::Block<T>>
where
    alloy_consensus::Block<T>: Block<Body = BlockBody<T>, Header = Header>,
{
    let mut txs = block.body().transactions.clone();
    txs[index] = tx;
    seal(block.header().number, txs)
}

/// reth's own recovery of `block`: `SealedBlock::try_recover` when `low_s` (EIP-2),
/// otherwise `try_recover_unchecked`.
pub fn reth_recover<B: Block>(block: SealedBlock<B>, low_s: bool) -> BlockResult<B> {
    if low_s {
        block.try_recover()
    } else {
        block.try_recover_unchecked()
    }
}

/// reth's transaction with its signature spoiled as [`spoil`](crate::alloy::spoil) kind
/// `kind` says.
pub fn spoil_reth_tx(
    rng: &mut SplitMix64,
    tx: &EthereumTxEnvelope<TxEip4844>,
    kind: u64,
) -> EthereumTxEnvelope<TxEip4844> {
    fn resign<T: SignableTransaction<Signature> + Clone>(
        rng: &mut SplitMix64,
        t: &Signed<T>,
        kind: u64,
    ) -> Signed<T> {
        let sig = t.signature();
        let (r, s, odd) = spoil(rng, sig.r(), sig.s(), sig.v(), kind);
        t.tx().clone().into_signed(Signature::new(r, s, odd))
    }
    match tx {
        EthereumTxEnvelope::Legacy(t) => EthereumTxEnvelope::Legacy(resign(rng, t, kind)),
        EthereumTxEnvelope::Eip2930(t) => EthereumTxEnvelope::Eip2930(resign(rng, t, kind)),
        EthereumTxEnvelope::Eip1559(t) => EthereumTxEnvelope::Eip1559(resign(rng, t, kind)),
        EthereumTxEnvelope::Eip4844(t) => EthereumTxEnvelope::Eip4844(resign(rng, t, kind)),
        EthereumTxEnvelope::Eip7702(t) => EthereumTxEnvelope::Eip7702(resign(rng, t, kind)),
    }
}

/// Both results are the same: the same `RecoveredBlock` (block, hash and senders), or both
/// errors handing back the same block.
pub fn same_result<B: Block>(a: &BlockResult<B>, b: &BlockResult<B>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => a == b && a.hash() == b.hash() && a.senders() == b.senders(),
        (Err(a), Err(b)) => a.0 == b.0 && a.0.hash() == b.0.hash(),
        _ => false,
    }
}
