//! Seeded alloy transactions of every type and EIP-7702 authorizations, signed by random
//! keys through alloy's own signing function, and their spoiled variants; the bundled real
//! transactions decoded by alloy; and alloy's own per-item answers, the oracles of the
//! alloy tests and what the benchmarks and `examples/compare.rs` measure against: alloy's
//! `SignerRecoverable` with libsecp256k1 (alloy-consensus built with its `secp256k1`
//! feature, as reth builds it, and no provider installed), and alloy's k256 path.

use alloy_consensus::crypto::secp256k1::sign_message;
use alloy_consensus::crypto::{RecoveryError, SECP256K1N_HALF};
use alloy_consensus::transaction::{RlpEcdsaEncodableTx, SignerRecoverable};
use alloy_consensus::{
    EthereumTxEnvelope, EthereumTypedTransaction, SignableTransaction, TxEip1559, TxEip2930,
    TxEip4844, TxEip4844Variant, TxEip7702, TxEnvelope, TxLegacy,
};
use alloy_eips::eip2718::{Decodable2718, Encodable2718};
use alloy_eips::eip2930::{AccessList, AccessListItem};
use alloy_eips::eip7702::{Authorization, SignedAuthorization};
use alloy_primitives::{Address, B256, Bytes, Signature, TxKind, U256};

use crate::curve::N;
use crate::oracle::{address_of_key, public_key_of, secp_is_x_coordinate};
use crate::rng::SplitMix64;
use crate::samples::RealTx;

/// The six kinds of transaction: legacy without and with EIP-155, then types 1 to 4.
pub const KINDS: [&str; 6] = [
    "legacy",
    "legacy EIP-155",
    "EIP-2930",
    "EIP-1559",
    "EIP-4844",
    "EIP-7702",
];

/// The group order n as a `U256`.
pub fn n_u256() -> U256 {
    U256::from_be_bytes(N)
}

/// What an alloy call returned: the address, or the error's `Debug` (which shows its
/// source, such as alloy's own EIP-2 rejection).
pub type Outcome = Result<Address, String>;

/// An alloy result as an [`Outcome`].
pub fn outcome<E: core::fmt::Debug>(r: Result<Address, E>) -> Outcome {
    r.map_err(|e| format!("{e:?}"))
}

fn address(rng: &mut SplitMix64) -> Address {
    Address::from_slice(&rng.bytes(20))
}

/// Random 0- to 3-item access list.
fn access_list(rng: &mut SplitMix64) -> AccessList {
    let items = (0..rng.below(4))
        .map(|_| AccessListItem {
            address: address(rng),
            storage_keys: (0..rng.below(3))
                .map(|_| B256::from(rng.bytes32()))
                .collect(),
        })
        .collect();
    AccessList(items)
}

/// A chain id of every size class.
fn chain_id(rng: &mut SplitMix64) -> u64 {
    match rng.below(5) {
        0 => 1,
        1 => 56,
        2 => 11_155_111,
        3 => rng.below(1 << 32),
        _ => rng.next_u64() >> 1,
    }
}

/// A random secret key.
pub fn secret(rng: &mut SplitMix64) -> B256 {
    B256::from(rng.scalar())
}

/// Signs `tx` with `secret` through alloy's `sign_message`.
fn sign<T>(tx: T, secret: B256) -> TxEnvelope
where
    T: SignableTransaction<Signature> + RlpEcdsaEncodableTx,
    EthereumTypedTransaction<TxEip4844Variant>: From<T>,
{
    let sig = sign_message(secret, tx.signature_hash()).expect("a valid secret key");
    TxEnvelope::from(tx.into_signed(sig))
}

/// A random transaction of kind `kind` (an index into [`KINDS`]), signed by a random key;
/// returns it with the signer's address (from the secret key, by libsecp256k1).
pub fn random_tx(rng: &mut SplitMix64, kind: usize) -> (TxEnvelope, Address) {
    let key = secret(rng);
    let signer = Address::from(address_of_key(&public_key_of(&key.0)));
    let input_len = [0, 4, 36, 68, 200, 1000][rng.below(6) as usize] + rng.below(8) as usize;
    let input = Bytes::from(rng.bytes(input_len));
    let value = U256::from_be_bytes(rng.bytes32()) >> (rng.below(256) as usize);
    let nonce = rng.next_u64() >> rng.below(64);
    let gas_limit = 21_000 + rng.below(30_000_000);
    let fee = u128::from(rng.next_u64()) >> rng.below(64);
    let to = address(rng);
    let kind_to = if rng.below(8) == 0 {
        TxKind::Create
    } else {
        TxKind::Call(to)
    };
    // A fee-market transaction (types 2 to 4): the fields they share, then `$field`s
    // (drawn in that order).
    macro_rules! fee_market {
        ($ty:ident { $($field:ident: $value:expr),* $(,)? }) => {
            $ty {
                chain_id: chain_id(rng),
                nonce,
                gas_limit,
                max_fee_per_gas: fee,
                max_priority_fee_per_gas: fee >> 3,
                value,
                access_list: access_list(rng),
                input,
                $($field: $value),*
            }
        };
    }
    let tx = match kind {
        0 | 1 => sign(
            TxLegacy {
                chain_id: (kind == 1).then(|| chain_id(rng)),
                nonce,
                gas_price: fee,
                gas_limit,
                to: kind_to,
                value,
                input,
            },
            key,
        ),
        2 => sign(
            TxEip2930 {
                chain_id: chain_id(rng),
                nonce,
                gas_price: fee,
                gas_limit,
                to: kind_to,
                value,
                access_list: access_list(rng),
                input,
            },
            key,
        ),
        3 => sign(fee_market!(TxEip1559 { to: kind_to }), key),
        4 => sign(
            fee_market!(TxEip4844 {
                to: to,
                blob_versioned_hashes: (0..1 + rng.below(6))
                    .map(|_| B256::from(rng.bytes32()))
                    .collect(),
                max_fee_per_blob_gas: u128::from(rng.next_u64()),
            }),
            key,
        ),
        _ => {
            let authorization_list = (0..1 + rng.below(3))
                .map(|_| random_authorization(rng).0)
                .collect();
            sign(
                fee_market!(TxEip7702 {
                    to: to,
                    authorization_list: authorization_list,
                }),
                key,
            )
        }
    };
    (tx, signer)
}

/// The same transaction with another signature.
pub fn with_signature(tx: &TxEnvelope, sig: Signature) -> TxEnvelope {
    match tx {
        EthereumTxEnvelope::Legacy(t) => TxEnvelope::from(t.tx().clone().into_signed(sig)),
        EthereumTxEnvelope::Eip2930(t) => TxEnvelope::from(t.tx().clone().into_signed(sig)),
        EthereumTxEnvelope::Eip1559(t) => TxEnvelope::from(t.tx().clone().into_signed(sig)),
        EthereumTxEnvelope::Eip4844(t) => TxEnvelope::from(t.tx().clone().into_signed(sig)),
        EthereumTxEnvelope::Eip7702(t) => TxEnvelope::from(t.tx().clone().into_signed(sig)),
    }
}

/// The ways a signature is spoiled; `spoil(.., k)` for k in 0..SPOILS.
pub const SPOILS: u64 = 13;

/// Signature number `kind` of the spoiled family of (r, s, parity), from 0 (unchanged) via
/// the high-s twin (valid, same signer, refused by EIP-2) to signatures that never recover:
/// r or s zero, n, above n, all ones; r not an x-coordinate; a flipped bit; the other
/// parity; both random; and the extremes r = 1, s = n − 1 and r = n − 1.
pub fn spoil(rng: &mut SplitMix64, r: U256, s: U256, odd: bool, kind: u64) -> (U256, U256, bool) {
    let n = n_u256();
    let above_n = |rng: &mut SplitMix64| match rng.below(3) {
        0 => n,
        1 => n + U256::from(rng.next_u64()),
        _ => U256::MAX,
    };
    match kind {
        0 => (r, s, odd),
        1 => (r, n - s, !odd),
        2 => (U256::ZERO, s, odd),
        3 => (r, U256::ZERO, odd),
        4 => (above_n(rng), s, odd),
        5 => (r, above_n(rng), odd),
        6 => loop {
            let x = rng.scalar();
            if !secp_is_x_coordinate(&x) {
                break (U256::from_be_bytes(x), s, odd);
            }
        },
        7 => (r ^ (U256::from(1) << rng.below(256) as usize), s, odd),
        8 => (r, s ^ (U256::from(1) << rng.below(256) as usize), odd),
        9 => (r, s, !odd),
        10 => (
            U256::from_be_bytes(rng.bytes32()),
            U256::from_be_bytes(rng.bytes32()),
            odd,
        ),
        11 => (U256::from(1), n - U256::from(1), odd),
        // The largest r in range (alloy's parity is one bit, so x = r + n is never tried).
        _ => (n - U256::from(1), s, odd),
    }
}

/// A transaction's signature spoiled as [`spoil`] kind `kind` says.
pub fn spoil_tx(rng: &mut SplitMix64, tx: &TxEnvelope, kind: u64) -> TxEnvelope {
    let sig = tx.signature();
    let (r, s, odd) = spoil(rng, sig.r(), sig.s(), sig.v(), kind);
    with_signature(tx, Signature::new(r, s, odd))
}

/// alloy's own per-transaction answer: `recover_signer` (with EIP-2's low-s rule) when
/// `low_s`, else `recover_signer_unchecked`, through `SignerRecoverable` with no provider
/// installed (in this repository's builds alloy's compile-time backend is libsecp256k1, as
/// reth builds it): what reth runs for each transaction.
pub fn alloy_signer<T>(tx: &EthereumTxEnvelope<T>, low_s: bool) -> Result<Address, RecoveryError>
where
    T: SignableTransaction<Signature> + RlpEcdsaEncodableTx,
{
    if low_s {
        tx.recover_signer()
    } else {
        tx.recover_signer_unchecked()
    }
}

/// Both of alloy's answers: (`recover_signer`, `recover_signer_unchecked`).
pub fn alloy_signers<T>(tx: &EthereumTxEnvelope<T>) -> (Outcome, Outcome)
where
    T: SignableTransaction<Signature> + RlpEcdsaEncodableTx,
{
    (
        outcome(alloy_signer(tx, true)),
        outcome(alloy_signer(tx, false)),
    )
}

/// alloy's k256 path (alloy's default backend): alloy's signing hash, then
/// `alloy_primitives::Signature::recover_from_prehash` (k256) and the key's address, with
/// EIP-2's bound when `low_s`. `None` where it fails.
pub fn k256_signer<T>(tx: &EthereumTxEnvelope<T>, low_s: bool) -> Option<Address>
where
    T: SignableTransaction<Signature> + RlpEcdsaEncodableTx,
{
    let sig = tx.signature();
    if low_s && sig.s() > SECP256K1N_HALF {
        return None;
    }
    let key = sig.recover_from_prehash(&tx.signature_hash()).ok()?;
    Some(Address::from_public_key(&key))
}

/// The transaction as reth holds it: `EthereumTxEnvelope<TxEip4844>` (blob transactions
/// without sidecar), through alloy's 2718 encoding and decoding.
pub fn as_reth(tx: &TxEnvelope) -> EthereumTxEnvelope<TxEip4844> {
    let bytes = tx.encoded_2718();
    EthereumTxEnvelope::<TxEip4844>::decode_2718_exact(&bytes).expect("alloy decodes its own 2718")
}

/// A random EIP-7702 authorization (chain id of every size, including 0 = any chain),
/// signed by a random key through alloy's `sign_message`, and its signer.
pub fn random_authorization(rng: &mut SplitMix64) -> (SignedAuthorization, Address) {
    let key = secret(rng);
    let signer = Address::from(address_of_key(&public_key_of(&key.0)));
    let auth = Authorization {
        chain_id: match rng.below(4) {
            0 => U256::ZERO,
            1 => U256::from(1),
            2 => U256::from(rng.next_u64()),
            _ => U256::from_be_bytes(rng.bytes32()),
        },
        address: address(rng),
        nonce: rng.next_u64() >> rng.below(64),
    };
    let sig = sign_message(key, auth.signature_hash()).expect("a valid secret key");
    (auth.into_signed(sig), signer)
}

/// A bundled transaction that alloy decodes: as alloy's `TxEnvelope` and as reth's
/// `EthereumTxEnvelope<TxEip4844>`, with what the data says about it.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// The transaction as it is bundled.
    pub real: RealTx,
    /// alloy's decoding.
    pub tx: TxEnvelope,
    /// reth's decoding.
    pub reth: EthereumTxEnvelope<TxEip4844>,
    /// The published sender.
    pub sender: Address,
}

/// Decodes a bundled transaction with alloy; `None` where alloy refuses the bytes.
pub fn decode(t: &RealTx) -> Option<Decoded> {
    Some(Decoded {
        tx: TxEnvelope::decode_2718_exact(&t.raw).ok()?,
        reth: EthereumTxEnvelope::<TxEip4844>::decode_2718_exact(&t.raw).ok()?,
        sender: Address::from(t.sender),
        real: t.clone(),
    })
}

/// The transactions of `txs` that alloy's decoder accepts (it refuses eight of
/// `raw_txs.jsonl`, whose gas price or nonce do not fit alloy's fields).
pub fn decode_all(txs: &[RealTx]) -> Vec<Decoded> {
    txs.iter().filter_map(decode).collect()
}
