//! `asmcrypto::adapters::reth` (feature `reth`): `recover_block[_unchecked]` and
//! `recover_blocks[_unchecked]` against reth-primitives-traits' own
//! `SealedBlock::try_recover` and `try_recover_unchecked` (alloy's per-transaction recovery,
//! libsecp256k1 backend in this repository's builds, no provider installed), block by block:
//! the same `RecoveredBlock` (block, hash, senders) or the same error handing the same block
//! back. On the bundled blocks, on their spoiled twins (high s, s = 0, r not on the curve,
//! r ≥ n, at every position of every block, each twin among good blocks), on seeded random
//! blocks, and with the feature `op` on OP-stack blocks.
//!
//! Oracle time dominates (reth recovers one transaction at a time): the suite is sized to
//! a few seconds.
//!
//! Run also with `--features reth,parallel` (the blocks' transactions then go through the
//! rayon pool) and with `ASMCRYPTO_BACKEND=scalar`; `.ci/run` does.

#![cfg(feature = "reth")]

use alloy_primitives::Address;
use asmcrypto::adapters::reth::{
    recover_block, recover_block_unchecked, recover_blocks, recover_blocks_unchecked,
};
use asmcrypto_testkit::SplitMix64;
use asmcrypto_testkit::alloy::{KINDS, SPOILS, as_reth, random_tx, spoil_tx};
use asmcrypto_testkit::reth::*;
use asmcrypto_testkit::samples::bsc_block;
use reth_primitives_traits::{Block, BlockBody, SealedBlock};

/// Both of asmcrypto's calls for one block (`low_s`: the checked form).
fn ours<B>(block: SealedBlock<B>, low_s: bool) -> BlockResult<B>
where
    B: Block,
    <B::Body as BlockBody>::Transaction: asmcrypto::adapters::BatchRecoverable,
{
    if low_s {
        recover_block(block)
    } else {
        recover_block_unchecked(block)
    }
}

/// `recover_blocks[_unchecked]` on `blocks` equals reth's own recovery block by block, and
/// so does `recover_block[_unchecked]` on each block when `one_by_one`. Returns how many
/// blocks failed (checked, unchecked).
fn check_blocks<B>(what: &str, blocks: &[SealedBlock<B>], one_by_one: bool) -> (usize, usize)
where
    B: Block,
    <B::Body as BlockBody>::Transaction: asmcrypto::adapters::BatchRecoverable,
{
    let mut failed = [0, 0];
    for (f, low_s) in [(0, true), (1, false)] {
        let want: Vec<BlockResult<B>> = blocks
            .iter()
            .map(|b| reth_recover(b.clone(), low_s))
            .collect();
        let got = if low_s {
            recover_blocks(blocks.to_vec())
        } else {
            recover_blocks_unchecked(blocks.to_vec())
        };
        assert_eq!(got.len(), blocks.len(), "{what}");
        for (i, ((g, w), b)) in got.iter().zip(&want).zip(blocks).enumerate() {
            assert!(same_result(g, w), "{what}: block {i}, low_s {low_s}");
            if let Err(e) = g {
                // The block handed back is the block given.
                assert_eq!(&e.0, b, "{what}: block {i}");
                failed[f] += 1;
            }
            if one_by_one {
                let one = ours(b.clone(), low_s);
                assert!(
                    same_result(&one, w),
                    "{what}: block {i} alone, low_s {low_s}"
                );
            }
        }
    }
    (failed[0], failed[1])
}

#[test]
fn bundled_blocks_match_try_recover() {
    let blocks = bundled_blocks();
    assert_eq!(blocks.len(), 41);
    assert_eq!(check_blocks("bundled blocks", &blocks, true), (0, 0));
    // And they give the published senders.
    let mut published = asmcrypto_testkit::samples::blocks();
    published.push(bsc_block());
    let recovered = recover_blocks_unchecked(blocks.clone());
    for ((r, p), b) in recovered.iter().zip(&published).zip(&blocks) {
        let r = r.as_ref().expect("a valid block");
        let senders: Vec<Address> = p.txs.iter().map(|t| Address::from(t.sender)).collect();
        assert_eq!(r.senders(), senders.as_slice(), "{}", p.what);
        assert_eq!(r.hash(), b.hash(), "{}", p.what);
    }
    // One block after another, and none at all.
    for n in 0..4 {
        check_blocks("first blocks", &blocks[..n], false);
    }
}

/// Every position of every bundled block spoiled in each of four ways (the 121-transaction
/// BSC block: every position in one of the four ways, each way at every fourth position),
/// every twin right after its good original in one call: each twin gets reth's own answer,
/// and the good blocks around it are untouched.
#[test]
fn spoiled_twins_at_every_position_match_try_recover() {
    let mut rng = SplitMix64(0x5EA1);
    let originals = bundled_blocks();
    // spoil kinds: 1 high s (refused by the checked form only), 3 s = 0, 6 r not an
    // x-coordinate, 4 r ≥ n.
    let kinds = [
        (1, "high s"),
        (3, "s = 0"),
        (6, "r not on the curve"),
        (4, "r ≥ n"),
    ];
    for (k, (kind, name)) in kinds.into_iter().enumerate() {
        let mut mixed = Vec::new();
        for b in &originals {
            mixed.push(b.clone());
            let len = b.body().transactions.len();
            for (i, tx) in b.body().transactions.iter().enumerate() {
                if len < 100 || i % kinds.len() == k {
                    mixed.push(with_tx(b, i, spoil_reth_tx(&mut rng, tx, kind)));
                }
            }
        }
        let twins = mixed.len() - originals.len();
        assert_eq!(twins, 312 + (121 - k).div_ceil(4));
        let (checked, unchecked) = check_blocks(name, &mixed, false);
        // Every twin fails the checked form; every twin fails the unchecked one too but for
        // the high-s ones, which are valid signatures.
        assert_eq!(checked, twins, "{name}");
        assert_eq!(unchecked, if kind == 1 { 0 } else { twins }, "{name}");
    }
    // recover_block on its own, on the twins of a few blocks (the 13-, 60- and 121-transaction
    // ones among them), every spoiling kind.
    for b in originals
        .iter()
        .filter(|b| b.body().transactions.len() >= 13)
    {
        for (i, tx) in b.body().transactions.iter().enumerate().step_by(3) {
            let kind = rng.below(SPOILS);
            let twin = with_tx(b, i, spoil_reth_tx(&mut rng, tx, kind));
            for low_s in [true, false] {
                let want = reth_recover(twin.clone(), low_s);
                assert!(same_result(&ours(twin.clone(), low_s), &want), "{i} {kind}");
            }
        }
    }
}

/// Seeded blocks of 0 to 24 random transactions of every type, a fifth of them spoiled
/// every way, in one call and in runs of every length.
#[test]
fn random_blocks_match_try_recover() {
    let mut rng = SplitMix64(0xB10C5);
    let mut blocks = Vec::new();
    let mut txs = 0;
    while txs < 3_000 {
        let n = rng.below(25) as usize;
        let block: Vec<_> = (0..n)
            .map(|_| {
                let kind = rng.index(KINDS.len());
                let (tx, _) = random_tx(&mut rng, kind);
                let tx = if rng.below(5 * n as u64) == 0 {
                    let kind = 1 + rng.below(SPOILS - 1);
                    spoil_tx(&mut rng, &tx, kind)
                } else {
                    tx
                };
                as_reth(&tx)
            })
            .collect();
        txs += n;
        blocks.push(seal(blocks.len() as u64, block));
    }
    let (checked, unchecked) = check_blocks("random blocks", &blocks, true);
    assert!(checked > 30 && unchecked > 20, "{checked} {unchecked}");
    assert!(checked < blocks.len() / 2, "{checked} of {}", blocks.len());
    for len in [1, 2, 3, 7, 20, 64] {
        let start = rng.below((blocks.len() - len) as u64) as usize;
        check_blocks("random runs", &blocks[start..start + len], false);
    }
}

/// OP-stack blocks (`op_alloy_consensus::OpBlock`): an L1-info deposit first, then
/// transactions of every OP kind, some spoiled.
#[cfg(feature = "op")]
#[test]
fn op_blocks_match_try_recover() {
    use asmcrypto_testkit::op::{OP_KINDS, random_deposit, random_op_tx, spoil_op_tx};

    let mut rng = SplitMix64(0x0B10C);
    let mut blocks: Vec<SealedBlock<op_alloy_consensus::OpBlock>> = Vec::new();
    for number in 0..150 {
        let mut txs = vec![random_deposit(&mut rng)];
        for _ in 0..rng.below(20) {
            let kind = rng.index(OP_KINDS.len());
            let (tx, _) = random_op_tx(&mut rng, kind);
            let kind = if rng.below(40) == 0 {
                1 + rng.below(SPOILS - 1)
            } else {
                0
            };
            txs.push(spoil_op_tx(&mut rng, &tx, kind));
        }
        blocks.push(seal(number, txs));
    }
    let (checked, unchecked) = check_blocks("OP blocks", &blocks, true);
    assert!(checked > 10 && unchecked > 5, "{checked} {unchecked}");
    let senders = recover_blocks(blocks.clone());
    for (r, b) in senders.iter().zip(&blocks) {
        if let Ok(r) = r {
            let deposit = b.body().transactions[0].as_deposit().expect("a deposit");
            assert_eq!(r.senders()[0], deposit.from);
        }
    }
}
