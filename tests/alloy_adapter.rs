//! The `alloy` adapter, end to end through alloy-consensus's own entry points.
//!
//! alloy keeps its crypto provider in a process-wide, set-once slot, so the comparison with
//! alloy's compile-time backend (libsecp256k1 in this crate's test builds, which enable
//! alloy-consensus's `secp256k1` feature as reth does; k256 otherwise) is one
//! ordered test: every case is first run with no provider installed, then
//! `install_alloy_provider()` is called, then every case runs again, now on asmcrypto, and
//! both runs are compared with each other and with the known answers. The other tests in
//! this file call `AlloyCryptoProvider` directly (never alloy's dispatching functions), so
//! they see the same thing whether or not the provider is installed yet.

#![cfg(feature = "alloy")]

use alloy_consensus::crypto::backend::{CryptoProvider, get_default_provider};
use alloy_consensus::crypto::secp256k1 as alloy_secp;
// alloy-consensus re-exports alloy-eips (whose 2718 traits encode and decode the
// envelopes) only under `private`; the test borrows it rather than adding a dependency.
use alloy_consensus::TxEnvelope;
use alloy_consensus::private::alloy_eips::eip2718::{Decodable2718, Encodable2718};
use alloy_consensus::transaction::SignerRecoverable;
use alloy_primitives::{Address, B256, Signature, U256};
use asmcrypto::adapters::{AlloyCryptoProvider, install_alloy_provider};
use asmcrypto_testkit::alloy::{KINDS, Outcome, outcome, random_tx, spoil, spoil_tx};
use asmcrypto_testkit::curve::neg_n;
use asmcrypto_testkit::edge::{invalid_scalar, message_hash};
use asmcrypto_testkit::samples::tx_senders;
use asmcrypto_testkit::*;
use num_bigint::BigUint;

fn u256(b: &[u8; 32]) -> U256 {
    U256::from_be_bytes(*b)
}

fn b32(x: U256) -> [u8; 32] {
    x.to_be_bytes()
}

// ---------------------------------------------------------------------------------------
// Real transactions.
// ---------------------------------------------------------------------------------------

/// A signed transaction as it travels (EIP-2718 bytes), and the address of its signer.
struct SignedTx {
    what: String,
    encoded: Vec<u8>,
    sender: Address,
    /// True if the signature has s > n/2 (alloy's `recover_signer` must refuse it).
    high_s: bool,
}

/// Seeded transactions of every type alloy's `TxEnvelope` holds (`testkit`'s generator:
/// random keys, fields and sizes), each with its low-s signature and with its high-s twin.
fn transactions(count: usize) -> Vec<SignedTx> {
    let mut rng = SplitMix64(0xA110_7AD0);
    let mut out = Vec::new();
    for i in 0..count {
        let kind = i % KINDS.len();
        let (tx, sender) = random_tx(&mut rng, kind);
        for high_s in [false, true] {
            // Spoiling kind 1 is the high-s twin: same signer, refused by EIP-2.
            let tx = if high_s {
                spoil_tx(&mut rng, &tx, 1)
            } else {
                tx.clone()
            };
            out.push(SignedTx {
                what: format!("#{i} {} high_s={high_s}", KINDS[kind]),
                encoded: tx.encoded_2718(),
                sender,
                high_s,
            });
        }
    }
    out
}

/// Decodes each transaction with alloy's own decoder and recovers its sender with
/// `recover_signer()` and `recover_signer_unchecked()`.
fn recover_transactions(txs: &[SignedTx]) -> Vec<(Outcome, Outcome)> {
    txs.iter()
        .map(|t| {
            let envelope =
                TxEnvelope::decode_2718_exact(&t.encoded).expect("alloy decodes its own encoding");
            (
                outcome(envelope.recover_signer()),
                outcome(envelope.recover_signer_unchecked()),
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Signatures: the published sample and seeded random / hostile ones.
// ---------------------------------------------------------------------------------------

/// (hash, r, s, y parity) and, where known, the signer.
#[derive(Clone)]
struct Case {
    what: String,
    hash: [u8; 32],
    r: [u8; 32],
    s: [u8; 32],
    parity: bool,
    signer: Option<Address>,
}

impl Case {
    fn signature(&self) -> Signature {
        Signature::new(u256(&self.r), u256(&self.s), self.parity)
    }

    fn sig65(&self) -> [u8; 65] {
        sig65(&self.r, &self.s, u8::from(self.parity))
    }
}

fn data_file_cases() -> Vec<Case> {
    tx_senders()
        .into_iter()
        .map(|t| {
            assert!(t.recid <= 1);
            Case {
                what: t.name,
                hash: t.hash,
                r: t.r,
                s: t.s,
                parity: t.recid == 1,
                signer: Some(Address::from(t.address)),
            }
        })
        .collect()
}

/// Seeded signatures: valid ones (low and high s, right and wrong parity, hashes of every
/// class) and hostile ones (r or s zero, ≥ n, random, r not an x-coordinate; `testkit`'s
/// spoiling kinds), a tampered hash, and the extremes of r and s.
fn random_cases(count: usize) -> Vec<Case> {
    let mut rng = SplitMix64(0x5EED_A110);
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let secret = rng.scalar();
        let hash = message_hash(&mut rng);
        let (r, s, recid) = sign(&secret, &hash);
        let signer = Address::from(address_of_key(&public_key_of(&secret)));
        let mut c = Case {
            what: String::new(),
            hash,
            r,
            s,
            parity: recid == 1,
            signer: Some(signer),
        };
        let kind = i % 14;
        c.what = format!("random #{i} kind {kind}");
        // The spoiling kind for each case kind: unchanged; the high-s twin (same signer
        // for the unchecked path); the wrong parity (some other key, or none); r = 0;
        // s = 0; r ≥ n; s ≥ n; r not an x-coordinate; r and s random.
        let spoiling = match kind {
            0..=3 => Some(0),
            4 => Some(1),
            5 => Some(9),
            6 => Some(2),
            7 => Some(3),
            8 => Some(4),
            9 => Some(5),
            10 => Some(6),
            11 => Some(10),
            _ => None,
        };
        match (spoiling, kind) {
            (Some(k), _) => {
                let (r, s, odd) = spoil(&mut rng, u256(&c.r), u256(&c.s), c.parity, k);
                (c.r, c.s, c.parity) = (b32(r), b32(s), odd);
                if k > 1 {
                    c.signer = None;
                }
            }
            (None, 12) => {
                // Tampered hash: a valid recovery of some other key.
                c.hash[(rng.below(32)) as usize] ^= 1 << rng.below(8);
                c.signer = None;
            }
            (None, _) => {
                // Extremes: r, s ∈ {1, n−1}, and r = p − 1 (≥ n: invalid).
                let one = to_be32(&BigUint::from(1u32));
                let top = to_be32(&(n() - BigUint::from(1u32)));
                c.r = [one, top, to_be32(&(p() - BigUint::from(1u32)))][rng.below(3) as usize];
                c.s = [one, top][rng.below(2) as usize];
                c.signer = None;
            }
        }
        out.push(c);
    }
    out
}

/// alloy's `recover_signer` (EIP-2 checked) and `recover_signer_unchecked` for each case.
fn recover_cases(cases: &[Case]) -> Vec<(Outcome, Outcome)> {
    cases
        .iter()
        .map(|c| {
            let sig = c.signature();
            let hash = B256::from(c.hash);
            (
                outcome(alloy_secp::recover_signer(&sig, hash)),
                outcome(alloy_secp::recover_signer_unchecked(&sig, hash)),
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Verification against a known key.
// ---------------------------------------------------------------------------------------

struct VerifyCase {
    what: String,
    pubkey: [u8; 65],
    hash: [u8; 32],
    r: [u8; 32],
    s: [u8; 32],
    /// Expected result if known: the key's address, or `None` for a failure.
    expected: Option<Option<Address>>,
}

fn verify_cases(count: usize) -> Vec<VerifyCase> {
    let mut rng = SplitMix64(0x7E21_F1ED);
    let n = n();
    let p = p();
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let secret = rng.scalar();
        let key = public_key_of(&secret);
        let mut pubkey = [4u8; 65];
        pubkey[1..].copy_from_slice(&key);
        let hash = rng.bytes32();
        let (r, s, _) = sign(&secret, &hash);
        let address = Address::from(address_of_key(&key));
        let mut c = VerifyCase {
            what: String::new(),
            pubkey,
            hash,
            r,
            s,
            expected: Some(Some(address)),
        };
        let kind = i % 13;
        c.what = format!("verify #{i} kind {kind}");
        match kind {
            0..=2 => {}
            3 => c.s = neg_n(&s), // high s: "unchecked" accepts it
            4 => {
                // Somebody else's key.
                c.pubkey[1..].copy_from_slice(&public_key_of(&rng.scalar()));
                c.expected = Some(None);
            }
            5 => {
                c.hash[0] ^= 0x80;
                c.expected = Some(None);
            }
            6 => {
                c.r = invalid_scalar(&mut rng);
                c.expected = Some(None);
            }
            7 => {
                c.s = invalid_scalar(&mut rng);
                c.expected = Some(None);
            }
            8 => {
                // Not the uncompressed tag (0x06 / 0x07 are libsecp256k1's hybrid forms).
                c.pubkey[0] = [0x00, 0x02, 0x03, 0x05, 0x06, 0x07][rng.below(6) as usize];
                c.expected = Some(None);
            }
            9 => {
                // Off the curve: y + 1.
                let y = (from_be(&c.pubkey[33..]) + BigUint::from(1u32)) % &p;
                c.pubkey[33..].copy_from_slice(&to_be32(&y));
                c.expected = Some(None);
            }
            10 => {
                // A coordinate ≥ p (x + p when that fits, else all ones).
                let x = from_be(&c.pubkey[1..33]) + &p;
                let x = if x < two_256() {
                    to_be32(&x)
                } else {
                    [0xff; 32]
                };
                c.pubkey[1..33].copy_from_slice(&x);
                c.expected = Some(None);
            }
            11 => {
                // x(R) = r + n: pick r < p − n, recover a key with recovery id 2 or 3, and
                // verify against it (x(R) ≡ r mod n, so the signature holds).
                let p_minus_n = &p - &n;
                loop {
                    let r = to_be32(&(from_be(&rng.bytes32()) % &p_minus_n));
                    let s = rng.scalar();
                    let recid = 2 + rng.below(2) as u8;
                    if let Some(key) = secp_recover(&hash, &r, &s, recid) {
                        c.pubkey[1..].copy_from_slice(&key);
                        c.r = r;
                        c.s = s;
                        c.expected = Some(Some(Address::from(address_of_key(&key))));
                        break;
                    }
                }
            }
            _ => {
                // Random r and s against a real key: fails (unless astronomically lucky).
                c.r = rng.bytes32();
                c.s = rng.bytes32();
                c.expected = None;
            }
        }
        out.push(c);
    }
    out
}

/// alloy's `verify_and_compute_signer_unchecked` on each case. The trait promises a check
/// "without ensuring low S values", which alloy's k256 backend keeps by normalising s first;
/// its libsecp256k1 backend passes s on unchanged and libsecp256k1 refuses s > n/2. So that
/// the comparison holds with either compile-time backend, s in (n/2, n) is given to alloy
/// normalised (n − s): the same signature for the "unchecked" contract.
fn verify_all(cases: &[VerifyCase]) -> Vec<Outcome> {
    let n = n();
    cases
        .iter()
        .map(|c| {
            let s = from_be(&c.s);
            let s = if s > (&n >> 1usize) && s < n {
                neg_n(&c.s)
            } else {
                c.s
            };
            let sig = Signature::new(u256(&c.r), u256(&s), false);
            outcome(alloy_secp::verify_and_compute_signer_unchecked(
                &c.pubkey,
                &sig,
                B256::from(c.hash),
            ))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// The ordered test: alloy's default backend, then asmcrypto installed.
// ---------------------------------------------------------------------------------------

#[test]
fn alloy_default_backend_then_asmcrypto_provider() {
    let txs = transactions(600);
    let data = data_file_cases();
    let random = random_cases(4200);
    let verify = verify_cases(1200);

    // 1. Nothing installed: alloy's compile-time backend (libsecp256k1 in this build).
    let tx_default = recover_transactions(&txs);
    let data_default = recover_cases(&data);
    let random_default = recover_cases(&random);
    let verify_default = verify_all(&verify);

    // 2. The one-call switch.
    install_alloy_provider().expect("first and only install in this process");
    assert!(
        install_alloy_provider().is_err(),
        "alloy's slot is set-once: a second install must be refused"
    );
    // The installed provider is the one that answers from now on.
    let _installed: &dyn CryptoProvider = get_default_provider();

    // 3. The same calls, now on asmcrypto.
    let tx_ours = recover_transactions(&txs);
    let data_ours = recover_cases(&data);
    let random_ours = recover_cases(&random);
    let verify_ours = verify_all(&verify);

    // Transactions: both backends agree, and with the signer.
    let (mut ok, mut high) = (0, 0);
    for ((t, d), o) in txs.iter().zip(&tx_default).zip(&tx_ours) {
        assert_eq!(d, o, "{}: default backend vs asmcrypto", t.what);
        assert_eq!(o.1, Ok(t.sender), "{}: recover_signer_unchecked", t.what);
        if t.high_s {
            assert!(o.0.is_err(), "{}: EIP-2 must refuse high s", t.what);
            high += 1;
        } else {
            assert_eq!(o.0, Ok(t.sender), "{}: recover_signer", t.what);
            ok += 1;
        }
    }
    assert_eq!((ok, high), (600, 600));

    // The published senders.
    for ((c, d), o) in data.iter().zip(&data_default).zip(&data_ours) {
        assert_eq!(d, o, "{}: default backend vs asmcrypto", c.what);
        assert_eq!(o.1, Ok(c.signer.unwrap()), "{}: unchecked", c.what);
        let high_s = from_be(&c.s) > (n() >> 1usize);
        assert_eq!(o.0.is_err(), high_s, "{}: EIP-2", c.what);
    }

    // Random and hostile signatures, also through the provider trait directly.
    let mut failures = 0;
    for ((c, d), o) in random.iter().zip(&random_default).zip(&random_ours) {
        assert_eq!(
            d,
            o,
            "{}: default backend vs asmcrypto (hash={} r={} s={} parity={})",
            c.what,
            hex::encode(c.hash),
            hex::encode(c.r),
            hex::encode(c.s),
            c.parity
        );
        let direct = outcome(AlloyCryptoProvider.recover_signer_unchecked(&c.sig65(), &c.hash));
        assert_eq!(direct, d.1, "{}: provider called directly", c.what);
        if let Some(signer) = c.signer {
            assert_eq!(o.1, Ok(signer), "{}: known signer", c.what);
        }
        failures += usize::from(o.1.is_err());
    }
    assert!(
        failures > random.len() / 4,
        "the hostile cases must exercise failures"
    );

    // Verification against a known key.
    for ((c, d), o) in verify.iter().zip(&verify_default).zip(&verify_ours) {
        // libsecp256k1 also parses the hybrid key forms 0x06 / 0x07; k256 (alloy's default
        // backend) and asmcrypto take only 0x04 ‖ X ‖ Y, alloy's `UncompressedPublicKey`.
        // There the expected refusal is checked below instead.
        if !matches!(c.pubkey[0], 0x06 | 0x07) {
            assert_eq!(d, o, "{}: default backend vs asmcrypto", c.what);
        }
        let direct = outcome(AlloyCryptoProvider.verify_and_compute_signer_unchecked(
            &c.pubkey,
            &sig64(&c.r, &c.s),
            &c.hash,
        ));
        assert_eq!(&direct, o, "{}: provider called directly", c.what);
        if let Some(expected) = c.expected {
            assert_eq!(o.as_ref().ok().copied(), expected, "{}", c.what);
        }
    }
}

// ---------------------------------------------------------------------------------------
// The provider called directly, against libsecp256k1 (install-order independent).
// ---------------------------------------------------------------------------------------

/// Every recovery id byte: 0..=3 as libsecp256k1 reads them (2 and 3: x = r + n), anything
/// else refused without a panic (27 and 28 included: alloy passes the bare parity).
#[test]
fn provider_recovery_ids_match_libsecp256k1() {
    let mut rng = SplitMix64(0x1D50_FA11);
    let p_minus_n = p() - n();
    let mut recovered_with_r_plus_n = 0;
    for i in 0..300 {
        let secret = rng.scalar();
        let hash = rng.bytes32();
        let (mut r, s, _) = sign(&secret, &hash);
        if i % 3 == 0 {
            // r < p − n, so that recovery ids 2 and 3 (x = r + n) can succeed.
            r = to_be32(&(from_be(&rng.bytes32()) % &p_minus_n));
        }
        for v in 0..=255u8 {
            let got = AlloyCryptoProvider.recover_signer_unchecked(&sig65(&r, &s, v), &hash);
            let want = if v <= 3 {
                secp_recover(&hash, &r, &s, v).map(|k| Address::from(address_of_key(&k)))
            } else {
                None
            };
            assert_eq!(
                got.as_ref().ok().copied(),
                want,
                "v={v} hash={} r={} s={}",
                hex::encode(hash),
                hex::encode(r),
                hex::encode(s)
            );
            if let (true, Ok(signer)) = (v >= 2, &got) {
                recovered_with_r_plus_n += 1;
                // x(R) = r + n ≡ r (mod n): the signature verifies under the recovered key.
                let key = secp_recover(&hash, &r, &s, v).unwrap();
                let mut pubkey = [4u8; 65];
                pubkey[1..].copy_from_slice(&key);
                let verified = AlloyCryptoProvider.verify_and_compute_signer_unchecked(
                    &pubkey,
                    &sig64(&r, &s),
                    &hash,
                );
                assert_eq!(verified.ok(), Some(*signer), "verify with x(R) = r + n");
            }
        }
    }
    assert!(recovered_with_r_plus_n > 0);
}

/// Verification against libsecp256k1's (after normalising s, since the provider's
/// "unchecked" verification accepts high s) on valid, wrong-key and random signatures.
#[test]
fn provider_verify_matches_libsecp256k1() {
    let mut rng = SplitMix64(0x0E21_F1ED);
    let mut accepted = 0;
    for i in 0..1500 {
        let secret = rng.scalar();
        let key = public_key_of(&secret);
        let hash = rng.bytes32();
        let (r, mut s, _) = sign(&secret, &hash);
        let mut pubkey = [4u8; 65];
        pubkey[1..].copy_from_slice(&key);
        match i % 5 {
            0 | 1 => {}
            2 => s = neg_n(&s),
            3 => pubkey[1..].copy_from_slice(&public_key_of(&rng.scalar())),
            _ => s = rng.bytes32(),
        }
        let got =
            AlloyCryptoProvider.verify_and_compute_signer_unchecked(&pubkey, &sig64(&r, &s), &hash);
        let want = {
            let pk = secp256k1::PublicKey::from_byte_array_uncompressed(pubkey).unwrap();
            secp256k1::ecdsa::Signature::from_compact(&sig64(&r, &s))
                .ok()
                .and_then(|mut sig| {
                    sig.normalize_s();
                    sig.verify(secp256k1::Message::from_digest(hash), &pk).ok()
                })
                .map(|()| Address::from(address_of_key(pubkey[1..].try_into().unwrap())))
        };
        assert_eq!(
            got.as_ref().ok().copied(),
            want,
            "case {i}: hash={} r={} s={}",
            hex::encode(hash),
            hex::encode(r),
            hex::encode(s)
        );
        accepted += usize::from(got.is_ok());
    }
    assert_eq!(accepted, 900, "kinds 0, 1 and 2 verify, the others do not");
}

/// Keys that are no curve point, which the provider's verification must refuse before
/// any arithmetic (and libsecp256k1 refuses to parse): a bit of y or of x flipped (off the
/// curve), x at or above p, a prefix other than 04.
#[test]
fn provider_verify_refuses_keys_that_are_not_points() {
    let mut rng = SplitMix64(0x0FF_C0DE);
    for i in 0..400 {
        let secret = rng.scalar();
        let hash = rng.bytes32();
        let (r, s, _) = sign(&secret, &hash);
        let mut pubkey = [4u8; 65];
        pubkey[1..].copy_from_slice(&public_key_of(&secret));
        match i % 4 {
            0 => pubkey[33 + rng.below(32) as usize] ^= 1 << rng.below(8),
            1 => pubkey[1 + rng.below(32) as usize] ^= 1 << rng.below(8),
            2 => pubkey[1..33].copy_from_slice(&curve::offset(&curve::P, rng.below(1000) as i64)),
            _ => pubkey[0] = [0, 2, 3, 5][rng.index(4)],
        }
        assert!(
            secp256k1::PublicKey::from_byte_array_uncompressed(pubkey).is_err(),
            "case {i}"
        );
        let got =
            AlloyCryptoProvider.verify_and_compute_signer_unchecked(&pubkey, &sig64(&r, &s), &hash);
        assert!(got.is_err(), "case {i}: key {}", hex::encode(pubkey));
    }
}

/// Signatures whose verification equation lands on the point at infinity: with key
/// Q = d·G and the hash z = −r·d mod n (or z + n where that fits in 256 bits, which the
/// provider reduces mod n), u₁·G + u₂·Q = ((z + r·d)/s)·G is the point at infinity, which
/// has no x-coordinate to compare with r: the provider must refuse, as libsecp256k1 does.
#[test]
fn provider_verify_refuses_a_sum_at_infinity() {
    let mut rng = SplitMix64(0x1AF1_0171);
    let n = n();
    for i in 0..200 {
        let secret = rng.scalar();
        let mut pubkey = [4u8; 65];
        pubkey[1..].copy_from_slice(&public_key_of(&secret));
        let (r, s) = (rng.scalar(), rng.scalar());
        let rd = from_be(&r) * from_be(&secret) % &n;
        let mut z = (&n - rd) % &n;
        if i % 2 == 1 && &z + &n < two_256() {
            z += &n;
        }
        let hash = to_be32(&z);
        let got =
            AlloyCryptoProvider.verify_and_compute_signer_unchecked(&pubkey, &sig64(&r, &s), &hash);
        assert!(got.is_err(), "case {i}: hash={}", hex::encode(hash));
        let pk = secp256k1::PublicKey::from_byte_array_uncompressed(pubkey).unwrap();
        let mut sig = secp256k1::ecdsa::Signature::from_compact(&sig64(&r, &s)).unwrap();
        sig.normalize_s();
        assert!(
            sig.verify(secp256k1::Message::from_digest(hash), &pk)
                .is_err(),
            "case {i}: libsecp256k1 refuses it too"
        );
    }
}
