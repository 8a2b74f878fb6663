//! `asmcrypto::adapters::alloy`'s batch calls on OP-stack transactions (feature `op`):
//! `recover_signers`, `recover_signers_unchecked` and `try_into_recovered*` on
//! op-alloy-consensus's `OpTxEnvelope` and `OpPooledTransaction`, against op-alloy's own
//! per-transaction `SignerRecoverable::recover_signer[_unchecked]` (no provider installed;
//! alloy's backend is libsecp256k1 in this repository's builds), on thousands of seeded
//! transactions of every kind (deposits and post-exec ones among them) with spoiled
//! signatures of every kind at every position, and on the bundled real transactions.
//!
//! Run also with `--features op,parallel` (long inputs then go through the rayon pool) and
//! with `ASMCRYPTO_BACKEND=scalar` (the paths of CPUs without AVX-512); `.ci/run` does.

#![cfg(feature = "op")]

use alloy_consensus::transaction::SignerRecoverable;
use alloy_primitives::Address;
use asmcrypto::adapters::alloy::{
    BatchRecoverable, recover_signers, recover_signers_unchecked, try_into_recovered,
    try_into_recovered_unchecked,
};
use asmcrypto_testkit::SplitMix64;
use asmcrypto_testkit::alloy::{Outcome, SPOILS, outcome};
use asmcrypto_testkit::op::*;
use asmcrypto_testkit::samples::all_real_txs;
use op_alloy_consensus::{OpPooledTransaction, OpTxEnvelope};

/// Both batch calls on `txs`, as outcomes: (checked, unchecked).
fn batch<T: BatchRecoverable + Sync>(txs: &[T]) -> (Vec<Outcome>, Vec<Outcome>) {
    let checked: Vec<Outcome> = recover_signers(txs).into_iter().map(outcome).collect();
    let unchecked: Vec<Outcome> = recover_signers_unchecked(txs)
        .into_iter()
        .map(outcome)
        .collect();
    assert_eq!(checked.len(), txs.len());
    assert_eq!(unchecked.len(), txs.len());
    (checked, unchecked)
}

/// Both batch calls on `txs` equal op-alloy's own per-transaction calls, item by item.
fn check_against_op_alloy<T>(what: &str, txs: &[T])
where
    T: BatchRecoverable + SignerRecoverable + Sync,
{
    let (checked, unchecked) = batch(txs);
    for (i, tx) in txs.iter().enumerate() {
        let (want_checked, want_unchecked) = op_signers(tx);
        assert_eq!(
            checked[i], want_checked,
            "{what}: recover_signers, item {i}"
        );
        assert_eq!(
            unchecked[i], want_unchecked,
            "{what}: recover_signers_unchecked, item {i}"
        );
    }
}

/// `per_kind` seeded transactions of each OP kind, a third of the signed ones with a
/// spoiled signature (every kind of spoiling), shuffled together; with the signer each
/// was made with and whether it was spoiled.
fn random_op_txs(seed: u64, per_kind: usize) -> Vec<(OpTxEnvelope, Address, bool)> {
    let mut rng = SplitMix64(seed);
    let mut txs = Vec::with_capacity(per_kind * OP_KINDS.len());
    for i in 0..per_kind * OP_KINDS.len() {
        let (tx, signer) = random_op_tx(&mut rng, i % OP_KINDS.len());
        let kind = if rng.below(3) == 0 {
            1 + rng.below(SPOILS - 1)
        } else {
            0
        };
        let signed = !matches!(tx, OpTxEnvelope::Deposit(_) | OpTxEnvelope::PostExec(_));
        txs.push((
            spoil_op_tx(&mut rng, &tx, kind),
            signer,
            signed && kind != 0,
        ));
    }
    // Fisher–Yates, so that every kind lands at every position.
    for i in (1..txs.len()).rev() {
        txs.swap(i, rng.below(i as u64 + 1) as usize);
    }
    txs
}

#[test]
fn random_op_transactions_match_op_alloy_at_every_length() {
    let made = random_op_txs(0x0F5_7AC4, 700);
    let txs: Vec<OpTxEnvelope> = made.iter().map(|(tx, _, _)| tx.clone()).collect();
    let want: Vec<(Outcome, Outcome)> = txs.iter().map(op_signers).collect();
    // op-alloy's answers are the signers the transactions were made with (deposits: their
    // `from`; post-exec: the zero address), wherever the signature was left alone.
    let (mut ok, mut high_s, mut failed, mut stated) = (0, 0, 0, 0);
    for ((tx, signer, spoiled), (checked, unchecked)) in made.iter().zip(&want) {
        if !spoiled {
            assert_eq!(checked, &Ok(*signer), "{tx:?}");
            assert_eq!(unchecked, &Ok(*signer), "{tx:?}");
        }
        match (tx, checked, unchecked) {
            (OpTxEnvelope::Deposit(_) | OpTxEnvelope::PostExec(_), _, _) => stated += 1,
            (_, Ok(_), _) => ok += 1,
            (_, Err(_), Ok(_)) => high_s += 1,
            (_, Err(_), Err(_)) => failed += 1,
        }
    }
    // The mix really holds valid, high-s and failing signatures and stated signers.
    assert!(
        stated == 1_400 && ok > 2_000 && high_s > 50 && failed > 600,
        "{stated} {ok} {high_s} {failed}"
    );

    let run = |range: core::ops::Range<usize>| {
        let (checked, unchecked) = batch(&txs[range.clone()]);
        for (k, (c, u)) in checked.iter().zip(&unchecked).enumerate() {
            let i = range.start + k;
            assert_eq!((c, u), (&want[i].0, &want[i].1), "item {i} of {range:?}");
        }
    };
    let mut rng = SplitMix64(71);
    for len in 0..=70 {
        for _ in 0..3 {
            let start = rng.below((txs.len() - len) as u64) as usize;
            run(start..start + len);
        }
    }
    for len in [191, 192, 257, 383, 384, 1_000, 3_001] {
        let start = rng.below((txs.len() - len) as u64) as usize;
        run(start..start + len);
    }
    run(0..txs.len());

    // The pool's type: the signed ones.
    let pooled: Vec<OpPooledTransaction> = txs
        .iter()
        .filter_map(|t| OpPooledTransaction::try_from(t.clone()).ok())
        .collect();
    assert_eq!(pooled.len(), txs.len() - 1_400);
    check_against_op_alloy("OpPooledTransaction", &pooled);
}

/// One spoiled signature of every kind at every position of a block that mixes every kind,
/// deposits and post-exec ones included: the spoiled item gets op-alloy's own answer, and
/// every other item keeps the answer it has in the clean block.
#[test]
fn a_spoiled_signature_at_every_position_disturbs_nothing_else() {
    let mut rng = SplitMix64(0xB10C);
    // An OP block starts with its L1-info deposit; user deposits and post-exec ones follow
    // anywhere.
    let mut block = vec![random_deposit(&mut rng)];
    for i in 0..47 {
        block.push(random_op_tx(&mut rng, (i * 5 + 3) % OP_KINDS.len()).0);
    }
    let clean = batch(&block);
    for (tx, c, u) in block
        .iter()
        .zip(&clean.0)
        .zip(&clean.1)
        .map(|((t, c), u)| (t, c, u))
    {
        assert!(c.is_ok() && u.is_ok(), "{tx:?}");
    }
    let mut spoiled_items = 0;
    for p in 0..block.len() {
        for kind in 1..SPOILS {
            let mut twin = block.clone();
            twin[p] = spoil_op_tx(&mut rng, &block[p], kind);
            let (checked, unchecked) = batch(&twin);
            let (want_checked, want_unchecked) = op_signers(&twin[p]);
            assert_eq!(checked[p], want_checked, "position {p}, spoil {kind}");
            assert_eq!(unchecked[p], want_unchecked, "position {p}, spoil {kind}");
            for i in (0..block.len()).filter(|&i| i != p) {
                assert_eq!(checked[i], clean.0[i], "item {i}, spoiled {p} ({kind})");
                assert_eq!(unchecked[i], clean.1[i], "item {i}, spoiled {p} ({kind})");
            }
            spoiled_items += usize::from(want_unchecked.is_err());
        }
    }
    assert!(spoiled_items > 200, "{spoiled_items}");
}

/// The bundled real transactions that OP chains carry (every type but EIP-4844), with
/// deposits among them: the published senders, and op-alloy's answers item by item.
#[test]
fn real_transactions_as_op_envelopes_recover_their_published_senders() {
    let mut rng = SplitMix64(0x0E);
    let real = real_op_txs(&all_real_txs());
    let mut txs = Vec::new();
    let mut want = Vec::new();
    for (i, (tx, sender)) in real.iter().enumerate() {
        if i % 16 == 0 {
            let deposit = random_deposit(&mut rng);
            want.push(Some(deposit.as_deposit().expect("a deposit").from));
            txs.push(deposit);
        }
        txs.push(tx.clone());
        want.push(Some(*sender));
    }
    // 292 of raw_txs.jsonl that alloy decodes, the 312 of blocks.jsonl and the BSC block's
    // 121, less the 81 EIP-4844 ones.
    assert_eq!(real.len(), 644);
    let (checked, unchecked) = batch(&txs);
    let mut refused = 0;
    for i in 0..txs.len() {
        assert_eq!(unchecked[i].as_ref().ok(), want[i].as_ref(), "item {i}");
        if checked[i].is_err() {
            refused += 1;
        } else {
            assert_eq!(checked[i].as_ref().ok(), want[i].as_ref(), "item {i}");
        }
    }
    // The bundled high-s ones (valid only before EIP-2).
    assert!((20..=30).contains(&refused), "{refused}");
    check_against_op_alloy("real OP transactions", &txs);

    // Every real transaction spoiled some way, deposits unchanged.
    let spoiled: Vec<OpTxEnvelope> = txs
        .iter()
        .map(|t| {
            let kind = rng.below(SPOILS);
            spoil_op_tx(&mut rng, t, kind)
        })
        .collect();
    check_against_op_alloy("real OP transactions, spoiled", &spoiled);
}

#[test]
fn try_into_recovered_pairs_op_transactions_like_op_alloy() {
    let mut rng = SplitMix64(0x7EC1);
    let mut block: Vec<OpTxEnvelope> = (0..42)
        .map(|i| random_op_tx(&mut rng, i % OP_KINDS.len()).0)
        .collect();
    let senders: Vec<Address> = block.iter().map(|t| t.recover_signer().unwrap()).collect();
    let got = try_into_recovered(block.clone()).unwrap();
    assert_eq!(got.iter().map(|r| r.signer()).collect::<Vec<_>>(), senders);
    for (r, tx) in got.iter().zip(&block) {
        assert_eq!(r.inner(), tx);
    }
    // A high-s twin at position 3 (EIP-1559): refused by the checked form only, as op-alloy
    // refuses it; then r = 0 at position 1 (legacy EIP-155) comes first for both.
    assert!(matches!(block[3], OpTxEnvelope::Eip1559(_)));
    block[3] = spoil_op_tx(&mut rng, &block[3], 1);
    let err = try_into_recovered(block.clone()).unwrap_err();
    assert_eq!(
        format!("{err:?}"),
        format!("{:?}", block[3].recover_signer().unwrap_err())
    );
    let all = try_into_recovered_unchecked(block.clone()).unwrap();
    assert_eq!(all[3].signer(), senders[3]);
    block[1] = spoil_op_tx(&mut rng, &block[1], 2);
    for err in [
        try_into_recovered(block.clone()).unwrap_err(),
        try_into_recovered_unchecked(block.clone()).unwrap_err(),
    ] {
        assert_eq!(
            format!("{err:?}"),
            format!("{:?}", block[1].recover_signer_unchecked().unwrap_err())
        );
    }
}
