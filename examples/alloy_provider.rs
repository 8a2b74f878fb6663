//! asmcrypto as alloy's signature-recovery backend: one call at start-up, and from then on
//! `recover_signer()` on every alloy transaction runs on asmcrypto.
//!
//! ```sh
//! cargo run --release --example alloy_provider --features alloy
//! ```

use alloy_consensus::transaction::SignerRecoverable;
use alloy_consensus::{SignableTransaction, TxEip1559, TxEnvelope};
use alloy_primitives::{Address, Signature, TxKind, U256, address};
use secp256k1::ecdsa::RecoverableSignature;
use secp256k1::{Message, PublicKey, SecretKey};

fn main() {
    // The one-call switch, before the first sender is recovered.
    asmcrypto::adapters::install_alloy_provider().expect("no other provider installed");

    // A transaction, signed as a wallet would sign it (with libsecp256k1 here).
    let secret = SecretKey::from_secret_bytes([0x42; 32]).expect("valid secret key");
    let tx = TxEip1559 {
        chain_id: 1,
        nonce: 7,
        gas_limit: 21_000,
        max_fee_per_gas: 30_000_000_000,
        max_priority_fee_per_gas: 1_000_000_000,
        to: TxKind::Call(address!("d8da6bf26964af9d7eed9e03e53415d37aa96045")),
        value: U256::from(1_000_000_000_000_000_000u64),
        ..Default::default()
    };
    let (recid, rs) = RecoverableSignature::sign_ecdsa_recoverable(
        Message::from_digest(tx.signature_hash().0),
        &secret,
    )
    .serialize_compact();
    let signature = Signature::new(
        U256::from_be_slice(&rs[..32]),
        U256::from_be_slice(&rs[32..]),
        recid.to_u8() == 1,
    );
    let envelope = TxEnvelope::from(tx.into_signed(signature));

    // alloy's own entry point, answered by asmcrypto.
    let sender = envelope.recover_signer().expect("valid signature");

    let key = PublicKey::from_secret_key(&secret).serialize_uncompressed();
    let expected = Address::from_slice(&asmcrypto::keccak256(&key[1..])[12..]);
    println!("transaction {}", envelope.tx_hash());
    println!("sender      {sender} (recovered by asmcrypto through alloy)");
    println!("signer      {expected}");
    assert_eq!(sender, expected);
}
