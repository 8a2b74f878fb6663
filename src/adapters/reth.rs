//! reth's blocks (feature `reth`): `SealedBlock`s turned into `RecoveredBlock`s with every
//! sender recovered at batch speed, one block or many blocks in one batch.
//!
//! reth recovers a block's senders with `SealedBlock::try_recover` (or
//! `try_recover_unchecked`, as its sender-recovery stage does for historical blocks): alloy's
//! per-transaction `recover_signer` on each transaction in turn. The calls here return the
//! same thing, the same `RecoveredBlock` or the same error handing the block back, for
//! every block type `B` of reth-primitives-traits 0.8 whose transactions are
//! [`BatchRecoverable`]: reth's Ethereum block
//! `alloy_consensus::Block<EthereumTxEnvelope<TxEip4844>>`, and with the feature `op` the
//! OP-stack block `op_alloy_consensus::OpBlock`.
//!
//! Sync and backfill hand over many blocks of a handful of transactions each:
//! [`recover_blocks`] and [`recover_blocks_unchecked`] run the transactions of all of them
//! through one batch (over the rayon pool with the feature `parallel`), so that short blocks
//! recover at the speed of long inputs.
//!
//! ```
//! use alloy_consensus::{Block, BlockBody, EthereumTxEnvelope, Header, TxEip4844};
//! use alloy_eips::eip2718::Decodable2718;
//! use alloy_primitives::{address, hex};
//! use reth_primitives_traits::SealedBlock;
//!
//! // A real EIP-1559 transaction (EIP-2718 bytes), as reth holds it.
//! let raw = hex!(
//!     "02f86401070682037082c35094cccccccccccccccccccccccccccccccccccccccc8080c080a0a0bbdc151d10b0"
//!     "e26c967627c2de05dba358ee52230d58e08a66859868f98235a01cf066ab7b927a4b65c2df18d22f5a875798"
//!     "1ae1869ccecd7195e21960253195"
//! );
//! let tx = EthereumTxEnvelope::<TxEip4844>::decode_2718(&mut raw.as_slice()).unwrap();
//! let body = BlockBody { transactions: vec![tx; 3], ommers: vec![], withdrawals: None };
//! let block = SealedBlock::seal_slow(Block::new(Header::default(), body));
//!
//! let recovered = asmcrypto::adapters::reth::recover_block(block.clone()).unwrap();
//! assert_eq!(recovered.senders(), &[address!("d02d72e067e77158444ef2020ff2d325f929b363"); 3]);
//! assert_eq!(recovered, block.try_recover().unwrap());
//! ```

#![cfg_attr(docsrs, doc(cfg(feature = "reth")))]

use alloy_consensus::crypto::RecoveryError;
use alloy_primitives::Address;
use reth_primitives_traits::block::error::BlockRecoveryError;
use reth_primitives_traits::{Block, BlockBody, RecoveredBlock, SealedBlock};

use super::alloy::{BatchRecoverable, recover_signers, recover_signers_unchecked};

/// The result of recovering one block: reth's own, as `SealedBlock::try_recover` returns it.
pub type BlockResult<B> = Result<RecoveredBlock<B>, BlockRecoveryError<SealedBlock<B>>>;

/// `block` with its senders, exactly as reth-primitives-traits'
/// [`SealedBlock::try_recover`] returns it: the same senders (alloy's `recover_signer`,
/// EIP-2's low-s rule included), the same `RecoveredBlock`, and where any transaction's
/// sender does not recover, the same error, which hands the block back.
///
/// The block's transactions go through one batch of
/// [`recover_signers`].
///
/// # Errors
/// [`BlockRecoveryError`] holding `block`, unchanged, if the sender of any of its
/// transactions does not recover.
pub fn recover_block<B>(block: SealedBlock<B>) -> BlockResult<B>
where
    B: Block,
    <B::Body as BlockBody>::Transaction: BatchRecoverable,
{
    let senders = recover_signers(block.body().transactions());
    assemble(block, senders)
}

/// [`recover_block`] with EIP-2's low-s rule off, exactly as
/// [`SealedBlock::try_recover_unchecked`] (alloy's `recover_signer_unchecked`): what reth's
/// sender-recovery stage asks for historical blocks.
///
/// # Errors
/// As for [`recover_block`].
pub fn recover_block_unchecked<B>(block: SealedBlock<B>) -> BlockResult<B>
where
    B: Block,
    <B::Body as BlockBody>::Transaction: BatchRecoverable,
{
    let senders = recover_signers_unchecked(block.body().transactions());
    assemble(block, senders)
}

/// Every block of `blocks` with its senders: one result per block, in order, each exactly
/// what [`recover_block`] (that is, [`SealedBlock::try_recover`]) returns for it. A block
/// that fails is handed back in its error and does not disturb the others.
///
/// The transactions of all the blocks go through one batch (over the rayon pool with the
/// feature `parallel`), which is where many short blocks gain the most.
///
/// ```
/// use alloy_consensus::{Block, BlockBody, EthereumTxEnvelope, Header, Signed, TxEip4844, TxLegacy};
/// use alloy_primitives::{Signature, U256};
/// use reth_primitives_traits::SealedBlock;
///
/// // r = 0 is no signature: the second block fails, the empty first one does not.
/// let bad = Signed::new_unhashed(TxLegacy::default(), Signature::new(U256::ZERO, U256::from(1), false));
/// let block = |txs: Vec<EthereumTxEnvelope<TxEip4844>>| {
///     SealedBlock::seal_slow(Block::new(
///         Header::default(),
///         BlockBody { transactions: txs, ommers: vec![], withdrawals: None },
///     ))
/// };
/// let blocks = vec![block(vec![]), block(vec![EthereumTxEnvelope::Legacy(bad)])];
/// let out = asmcrypto::adapters::reth::recover_blocks(blocks.clone());
/// assert!(out[0].as_ref().unwrap().senders().is_empty());
/// assert_eq!(out[1].as_ref().unwrap_err().0, blocks[1]);
/// ```
pub fn recover_blocks<B>(blocks: Vec<SealedBlock<B>>) -> Vec<BlockResult<B>>
where
    B: Block,
    <B::Body as BlockBody>::Transaction: BatchRecoverable,
{
    let senders = recover_signers(&all_transactions(&blocks));
    assemble_all(blocks, senders)
}

/// [`recover_blocks`] with EIP-2's low-s rule off: one result per block, each exactly what
/// [`SealedBlock::try_recover_unchecked`] returns for it.
pub fn recover_blocks_unchecked<B>(blocks: Vec<SealedBlock<B>>) -> Vec<BlockResult<B>>
where
    B: Block,
    <B::Body as BlockBody>::Transaction: BatchRecoverable,
{
    let senders = recover_signers_unchecked(&all_transactions(&blocks));
    assemble_all(blocks, senders)
}

/// The transactions of all `blocks`, in order, by reference.
fn all_transactions<B: Block>(
    blocks: &[SealedBlock<B>],
) -> Vec<&<B::Body as BlockBody>::Transaction> {
    let count = blocks.iter().map(|b| b.body().transactions().len()).sum();
    let mut all = Vec::with_capacity(count);
    for block in blocks {
        all.extend(block.body().transactions());
    }
    all
}

/// Each block with its share of `senders`, in order.
fn assemble_all<B: Block>(
    blocks: Vec<SealedBlock<B>>,
    senders: Vec<Result<Address, RecoveryError>>,
) -> Vec<BlockResult<B>> {
    let mut senders = senders.into_iter();
    blocks
        .into_iter()
        .map(|block| {
            let share = senders
                .by_ref()
                .take(block.body().transactions().len())
                .collect();
            assemble(block, share)
        })
        .collect()
}

/// `block` with `senders` (one per transaction), built as reth's
/// `RecoveredBlock::try_recover_sealed[_unchecked]` builds it; the block back in the error if
/// any sender failed.
fn assemble<B: Block>(
    block: SealedBlock<B>,
    senders: Vec<Result<Address, RecoveryError>>,
) -> BlockResult<B> {
    let Ok(senders) = senders.into_iter().collect::<Result<Vec<Address>, _>>() else {
        return Err(BlockRecoveryError::new(block));
    };
    let (block, hash) = block.split();
    Ok(RecoveredBlock::new(block, senders, hash))
}
