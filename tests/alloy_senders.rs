//! `asmcrypto::adapters::alloy`'s batch calls — `recover_signers`,
//! `recover_signers_unchecked`, `try_into_recovered*` and `recover_authorities` — against
//! alloy's own per-item calls, on the bundled real transactions and blocks and on seeded
//! random and spoiled ones, at every batch length from 0 to 70 and some long ones.
//!
//! Oracles: alloy's `SignerRecoverable` and `SignedAuthorization::recover_authority` with no
//! provider installed (this binary never installs one; in the crate's test builds alloy's
//! backend is libsecp256k1, as reth builds it), alloy's k256 path
//! (`alloy_primitives::Signature::recover_from_prehash`), and the published senders.
//! Run also with `--features alloy,parallel` (long inputs then go through the rayon pool)
//! and with `ASMCRYPTO_BACKEND=scalar` (the paths of CPUs without AVX-512); `.ci/run` does.

#![cfg(feature = "alloy")]

use alloy_consensus::transaction::{RlpEcdsaEncodableTx, SignerRecoverable};
use alloy_consensus::{EthereumTxEnvelope, SignableTransaction, TxEip4844, TxEnvelope};
use alloy_eips::eip7702::SignedAuthorization;
use alloy_eips::eip7702::constants::SECP256K1N_HALF;
use alloy_primitives::{Address, Signature};
use asmcrypto::adapters::alloy::{
    recover_authorities, recover_signers, recover_signers_unchecked, try_into_recovered,
    try_into_recovered_unchecked,
};
use asmcrypto_testkit::SplitMix64;
use asmcrypto_testkit::alloy::*;
use asmcrypto_testkit::samples::{RealTx, all_real_txs, blocks, bsc_block, raw_txs};

/// The bundled transactions alloy decodes, with their decodings. Eight of `raw_txs.jsonl`
/// (legacy ones from ethereum/tests' TransactionTests: a gas price or nonce wider than
/// alloy's `u128` / `u64` fields, a gas limit × price overflow, `V_equals38`) are refused by
/// alloy's decoder, so an alloy user never holds them; every block transaction decodes.
fn decoded(txs: &[RealTx]) -> Vec<Decoded> {
    txs.iter()
        .filter_map(|t| {
            let d = decode(t);
            if d.is_none() {
                assert!(
                    t.tx_type == 0 && t.what.contains("TransactionTests"),
                    "alloy refuses {}",
                    t.what
                );
            }
            d
        })
        .collect()
}

/// Both batch calls on `txs` equal alloy's own per-transaction calls, item by item.
fn check_against_alloy<T>(what: &str, txs: &[EthereumTxEnvelope<T>])
where
    T: SignableTransaction<Signature> + RlpEcdsaEncodableTx + Sync,
{
    let checked: Vec<Outcome> = recover_signers(txs).into_iter().map(outcome).collect();
    let unchecked: Vec<Outcome> = recover_signers_unchecked(txs)
        .into_iter()
        .map(outcome)
        .collect();
    assert_eq!(checked.len(), txs.len(), "{what}");
    assert_eq!(unchecked.len(), txs.len(), "{what}");
    for (i, tx) in txs.iter().enumerate() {
        let (want_checked, want_unchecked) = alloy_signers(tx);
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

#[test]
fn bundled_transactions_recover_their_published_senders() {
    let all = raw_txs();
    let real = decoded(&all);
    assert_eq!(all.len() - real.len(), 8, "alloy refuses exactly eight");
    let ours: Vec<TxEnvelope> = real.iter().map(|d| d.tx.clone()).collect();
    let reths: Vec<EthereumTxEnvelope<TxEip4844>> = real.iter().map(|d| d.reth.clone()).collect();
    for (what, checked, unchecked) in [
        (
            "TxEnvelope",
            recover_signers(&ours),
            recover_signers_unchecked(&ours),
        ),
        (
            "reth's envelope",
            recover_signers(&reths),
            recover_signers_unchecked(&reths),
        ),
    ] {
        for (i, d) in real.iter().enumerate() {
            let (t, sender) = (&d.real, d.sender);
            assert_eq!(
                unchecked[i].as_ref().ok(),
                Some(&sender),
                "{what}: {}",
                t.what
            );
            if t.high_s {
                assert!(
                    checked[i].is_err(),
                    "{what}: {}: EIP-2 refuses high s",
                    t.what
                );
            } else {
                assert_eq!(
                    checked[i].as_ref().ok(),
                    Some(&sender),
                    "{what}: {}",
                    t.what
                );
            }
        }
    }
    let mut by_type = [0usize; 5];
    for d in &real {
        by_type[usize::from(d.real.tx_type)] += 1;
    }
    assert_eq!(by_type, [188, 20, 53, 30, 1]);
    assert!(real.iter().filter(|d| d.real.high_s).count() >= 20);
    check_against_alloy("raw_txs.jsonl", &ours);
    check_against_alloy("raw_txs.jsonl as reth's envelope", &reths);
}

#[test]
fn bundled_blocks_recover_their_published_senders() {
    let mut blocks = blocks();
    blocks.push(bsc_block());
    let mut total = 0;
    for b in &blocks {
        let (ours, reths): (Vec<_>, Vec<_>) = b
            .txs
            .iter()
            .map(|t| decode(t).unwrap_or_else(|| panic!("alloy refuses {}", t.what)))
            .map(|d| (d.tx, d.reth))
            .unzip();
        let senders: Vec<Address> = b.txs.iter().map(|t| Address::from(t.sender)).collect();
        for (what, got) in [
            ("recover_signers", recover_signers(&ours)),
            (
                "recover_signers_unchecked",
                recover_signers_unchecked(&ours),
            ),
            ("recover_signers (reth)", recover_signers(&reths)),
            (
                "recover_signers_unchecked (reth)",
                recover_signers_unchecked(&reths),
            ),
        ] {
            let got: Vec<Address> = got
                .into_iter()
                .map(|r| r.unwrap_or_else(|e| panic!("{}: {what}: {e}", b.what)))
                .collect();
            assert_eq!(got, senders, "{}: {what}", b.what);
        }
        // Paired with the transactions, as reth's executor takes them.
        let recovered = try_into_recovered(ours.clone()).expect("a valid block");
        for ((r, tx), sender) in recovered.iter().zip(&ours).zip(&senders) {
            assert_eq!(r.signer(), *sender, "{}", b.what);
            assert_eq!(r.inner(), tx, "{}", b.what);
        }
        let recovered = try_into_recovered_unchecked(reths.clone()).expect("a valid block");
        assert_eq!(recovered.len(), b.txs.len(), "{}", b.what);
        check_against_alloy(&b.what, &ours);
        total += b.txs.len();
    }
    assert_eq!(total, 312 + 121);
}

/// Seeded transactions: `per_kind` of each of the six kinds, a third of them with a
/// spoiled signature (every kind of spoiling), shuffled together.
fn random_txs(seed: u64, per_kind: usize) -> Vec<TxEnvelope> {
    let mut rng = SplitMix64(seed);
    let mut txs = Vec::with_capacity(per_kind * KINDS.len());
    for i in 0..per_kind * KINDS.len() {
        let (tx, _) = random_tx(&mut rng, i % KINDS.len());
        let kind = if rng.below(3) == 0 {
            1 + rng.below(SPOILS - 1)
        } else {
            0
        };
        txs.push(spoil_tx(&mut rng, &tx, kind));
    }
    // Fisher–Yates, so that every kind lands at every position.
    for i in (1..txs.len()).rev() {
        txs.swap(i, rng.below(i as u64 + 1) as usize);
    }
    txs
}

#[test]
fn random_and_spoiled_transactions_match_alloy_at_every_length() {
    let txs = random_txs(0x5E4D_E125, 5_000);
    // alloy's answers, item by item, and the k256 path where it must agree.
    let want: Vec<(Outcome, Outcome)> = txs.iter().map(alloy_signers).collect();
    let (mut ok, mut high_s, mut failed) = (0, 0, 0);
    for (tx, (checked, unchecked)) in txs.iter().zip(&want) {
        assert_eq!(
            checked.as_ref().ok().copied(),
            k256_signer(tx, true),
            "{tx:?}"
        );
        assert_eq!(
            unchecked.as_ref().ok().copied(),
            k256_signer(tx, false),
            "{tx:?}"
        );
        match (checked, unchecked) {
            (Ok(_), _) => ok += 1,
            (Err(_), Ok(_)) => high_s += 1,
            (Err(_), Err(_)) => failed += 1,
        }
    }
    // The mix really holds valid, high-s and failing signatures in numbers.
    assert!(
        ok > 15_000 && high_s > 1_000 && failed > 4_000,
        "{ok} {high_s} {failed}"
    );

    let run = |range: core::ops::Range<usize>| {
        let slice = &txs[range.clone()];
        let checked: Vec<Outcome> = recover_signers(slice).into_iter().map(outcome).collect();
        let unchecked: Vec<Outcome> = recover_signers_unchecked(slice)
            .into_iter()
            .map(outcome)
            .collect();
        for (k, (c, u)) in checked.iter().zip(&unchecked).enumerate() {
            let i = range.start + k;
            assert_eq!((c, u), (&want[i].0, &want[i].1), "item {i} of {range:?}");
        }
        assert_eq!(checked.len(), slice.len());
        assert_eq!(unchecked.len(), slice.len());
    };
    let mut rng = SplitMix64(70);
    for len in 0..=70 {
        for _ in 0..4 {
            let start = rng.below((txs.len() - len) as u64) as usize;
            run(start..start + len);
        }
    }
    for len in [191, 192, 257, 383, 384, 1_000, 4_099] {
        let start = rng.below((txs.len() - len) as u64) as usize;
        run(start..start + len);
    }
    run(0..txs.len());

    // reth's envelope type, on a stretch of the same transactions.
    let reths: Vec<EthereumTxEnvelope<TxEip4844>> = txs[..3_000].iter().map(as_reth).collect();
    check_against_alloy("random, reth's envelope", &reths);
}

#[test]
fn try_into_recovered_stops_at_the_first_failure_like_alloy() {
    let mut rng = SplitMix64(0x7EC0);
    let mut block: Vec<TxEnvelope> = (0..40).map(|i| random_tx(&mut rng, i % 6).0).collect();
    let senders: Vec<Address> = block.iter().map(|t| t.recover_signer().unwrap()).collect();
    let got = try_into_recovered(block.clone()).unwrap();
    assert_eq!(got.iter().map(|r| r.signer()).collect::<Vec<_>>(), senders);
    // A high-s twin at position 17: refused by the checked form only, as alloy refuses it.
    block[17] = spoil_tx(&mut rng, &block[17], 1);
    let err = try_into_recovered(block.clone()).unwrap_err();
    assert_eq!(
        format!("{err:?}"),
        format!("{:?}", block[17].recover_signer().unwrap_err())
    );
    let all = try_into_recovered_unchecked(block.clone()).unwrap();
    assert_eq!(all[17].signer(), senders[17]);
    // r = 0 at position 3 comes first.
    block[3] = spoil_tx(&mut rng, &block[3], 2);
    let err = try_into_recovered_unchecked(block.clone()).unwrap_err();
    assert_eq!(
        format!("{err:?}"),
        format!("{:?}", block[3].recover_signer_unchecked().unwrap_err())
    );
}

#[test]
fn authorities_match_recover_authority() {
    let mut rng = SplitMix64(0x7702);
    let mut auths = Vec::new();
    let mut signers = Vec::new();
    for _ in 0..4_000 {
        let (auth, signer) = random_authorization(&mut rng);
        let (r, s, odd) = (auth.r(), auth.s(), auth.y_parity() == 1);
        let inner = auth.inner().clone();
        let spoiled = match rng.below(4) {
            0 => {
                let kind = 1 + rng.below(SPOILS - 1);
                let (r, s, odd) = spoil(&mut rng, r, s, odd, kind);
                SignedAuthorization::new_unchecked(inner, u8::from(odd), r, s)
            }
            // A y parity that is no parity at all.
            1 if rng.below(3) == 0 => {
                SignedAuthorization::new_unchecked(inner, 2 + rng.below(254) as u8, r, s)
            }
            _ => auth,
        };
        let expect_signer =
            spoiled.r() == r && spoiled.s() == s && spoiled.y_parity() == u8::from(odd);
        signers.push(expect_signer.then_some(signer));
        auths.push(spoiled);
    }
    let want: Vec<String> = auths
        .iter()
        .map(|a| format!("{:?}", a.recover_authority()))
        .collect();
    for ((a, w), signer) in auths.iter().zip(&want).zip(&signers) {
        if let Some(signer) = signer {
            assert_eq!(w, &format!("{:?}", Ok::<_, ()>(*signer)), "{a:?}");
        }
        // alloy's k256 path, with recover_authority's checks before it.
        let k256 = a
            .signature()
            .ok()
            .filter(|sig| sig.s() <= SECP256K1N_HALF)
            .and_then(|sig| sig.recover_from_prehash(&a.inner().signature_hash()).ok())
            .map(|key| Address::from_public_key(&key));
        assert_eq!(a.recover_authority().ok(), k256, "{a:?}");
    }
    // Valid authorities and every alloy error occur, in numbers.
    let count = |pat: &str| want.iter().filter(|w| w.contains(pat)).count();
    assert!(count("Ok(") > 2_500, "{}", count("Ok("));
    assert!(count("InvalidParity") > 100, "{}", count("InvalidParity"));
    assert!(count("InvalidSValue") > 50, "{}", count("InvalidSValue"));
    assert!(count("Err(Signature(") > count("InvalidParity") + 200);

    let check = |range: core::ops::Range<usize>| {
        let got = recover_authorities(&auths[range.clone()]);
        assert_eq!(got.len(), range.len());
        for (k, g) in got.iter().enumerate() {
            let i = range.start + k;
            assert_eq!(format!("{g:?}"), want[i], "authorization {i} of {range:?}");
        }
    };
    for len in 0..=70 {
        let start = rng.below((auths.len() - len) as u64) as usize;
        check(start..start + len);
    }
    check(0..auths.len());
}

/// Every real transaction spoiled in every way, at once: the batch still equals alloy item
/// by item (the real transactions' payloads have every shape: short r and s, huge chain
/// ids, pre-EIP-155 and typed).
#[test]
fn real_transactions_spoiled_every_way_match_alloy() {
    let mut rng = SplitMix64(0xBAD5);
    let mut txs = Vec::new();
    for d in decoded(&all_real_txs()) {
        let kind = rng.below(SPOILS);
        txs.push(spoil_tx(&mut rng, &d.tx, kind));
    }
    check_against_alloy("real, spoiled", &txs);
}
