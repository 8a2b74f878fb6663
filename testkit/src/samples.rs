//! The bundled samples of `tests/data/` (their sources are in `tests/data/README.md`),
//! parsed once for every suite, tool and benchmark, and seeded signed samples.

use crate::curve::{B32, hex_to_vec, hex32};
use crate::sig::{Signed, sig65};

const TX_SENDERS: &str = include_str!("../../tests/data/tx_senders.jsonl");
const PRECOMPILE: &str = include_str!("../../tests/data/precompile_ecrecover.jsonl");
const RAW_TXS: &str = include_str!("../../tests/data/raw_txs.jsonl");
const BLOCKS: &str = include_str!("../../tests/data/blocks.jsonl");
const BSC_BLOCK: &str = include_str!("../../tests/data/bsc_block_19410658.json");

fn json_lines(data: &str) -> impl Iterator<Item = serde_json::Value> + '_ {
    data.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
}

fn field<'a>(v: &'a serde_json::Value, name: &str) -> &'a str {
    v[name]
        .as_str()
        .unwrap_or_else(|| panic!("field {name} missing in {v}"))
}

/// One signing tuple of `tx_senders.jsonl`: a transaction's signing hash, its signature
/// and its published sender.
#[derive(Clone, Debug)]
pub struct TxSender {
    /// The test it comes from.
    pub name: String,
    /// The signing hash.
    pub hash: B32,
    /// r.
    pub r: B32,
    /// s.
    pub s: B32,
    /// The y parity (0 or 1).
    pub recid: u8,
    /// The published sender.
    pub address: [u8; 20],
    /// The transaction type (0 = legacy).
    pub tx_type: u64,
    /// s > n/2 (refused by EIP-2, valid for recovery).
    pub high_s: bool,
}

impl TxSender {
    /// (hash, r ‖ s ‖ recid): the input of the batch calls.
    pub fn signed(&self) -> Signed {
        (self.hash, sig65(&self.r, &self.s, self.recid))
    }
}

/// `tx_senders.jsonl`: 147 signing tuples from ethereum/tests.
pub fn tx_senders() -> Vec<TxSender> {
    let out: Vec<TxSender> = json_lines(TX_SENDERS)
        .map(|v| TxSender {
            name: field(&v, "name").to_owned(),
            hash: hex32(field(&v, "hash")),
            r: hex32(field(&v, "r")),
            s: hex32(field(&v, "s")),
            recid: u8::try_from(v["recid"].as_u64().expect("recid")).expect("a byte"),
            address: hex_to_vec(field(&v, "address"))
                .try_into()
                .expect("20 bytes"),
            tx_type: v["tx_type"].as_u64().expect("tx_type"),
            high_s: v["high_s"].as_bool().expect("high_s"),
        })
        .collect();
    assert_eq!(out.len(), 147, "tests/data/tx_senders.jsonl changed");
    out
}

/// One published `ecrecover` precompile case.
#[derive(Clone, Debug)]
pub struct PrecompileVector {
    /// Its name in the source.
    pub name: String,
    /// Where it comes from (repository@commit:path).
    pub source: String,
    /// The call data.
    pub input: Vec<u8>,
    /// The published output: the address word, or `None` for the empty output.
    pub expected: Option<[u8; 32]>,
}

/// `precompile_ecrecover.jsonl`: 115 cases from go-ethereum, evmone and Besu.
pub fn precompile_vectors() -> Vec<PrecompileVector> {
    let out: Vec<PrecompileVector> = json_lines(PRECOMPILE)
        .map(|v| {
            let expected = field(&v, "expected");
            PrecompileVector {
                name: field(&v, "name").to_owned(),
                source: field(&v, "source").to_owned(),
                input: hex_to_vec(field(&v, "input")),
                expected: (!expected.is_empty()).then(|| hex32(expected)),
            }
        })
        .collect();
    assert_eq!(
        out.len(),
        115,
        "tests/data/precompile_ecrecover.jsonl changed"
    );
    out
}

/// One published transaction (`raw_txs.jsonl`, the blocks).
#[derive(Clone, Debug)]
pub struct RealTx {
    /// Where it comes from, for messages.
    pub what: String,
    /// The EIP-2718 bytes (legacy: the bare RLP list).
    pub raw: Vec<u8>,
    /// The published sender.
    pub sender: [u8; 20],
    /// 0 (legacy) to 4 (EIP-7702).
    pub tx_type: u8,
    /// s > n/2: a valid signature that EIP-2 (Homestead on) refuses.
    pub high_s: bool,
}

/// A whole block body: its transactions in block order.
#[derive(Clone, Debug)]
pub struct RealBlock {
    /// Where it comes from, for messages.
    pub what: String,
    /// Its transactions.
    pub txs: Vec<RealTx>,
}

fn sender(s: &str) -> [u8; 20] {
    hex_to_vec(s).try_into().expect("a sender is 20 bytes")
}

/// `raw_txs.jsonl`: 300 transactions of types 0–4.
pub fn raw_txs() -> Vec<RealTx> {
    let txs: Vec<RealTx> = json_lines(RAW_TXS)
        .map(|v| RealTx {
            what: format!("raw_txs {} {}", field(&v, "source"), v["test"]),
            raw: hex_to_vec(field(&v, "raw")),
            sender: sender(field(&v, "sender")),
            tx_type: v["tx_type"].as_u64().expect("tx_type") as u8,
            high_s: v["high_s"].as_bool().expect("high_s"),
        })
        .collect();
    assert_eq!(txs.len(), 300, "tests/data/raw_txs.jsonl changed");
    txs
}

/// The transactions of one block's JSON object (`txs`, `senders`).
fn block(v: &serde_json::Value, what: String) -> RealBlock {
    let raws = v["txs"].as_array().expect("txs");
    let senders = v["senders"].as_array().expect("senders");
    assert_eq!(
        raws.len(),
        senders.len(),
        "{what}: one sender per transaction"
    );
    let txs = raws
        .iter()
        .zip(senders)
        .enumerate()
        .map(|(i, (raw, who))| {
            let raw = hex_to_vec(raw.as_str().expect("raw tx hex"));
            // The type byte of a typed transaction; a legacy one starts with an RLP list
            // header (0xc0 or above).
            let tx_type = if raw.first().is_some_and(|&b| b < 0x7f) {
                raw[0]
            } else {
                0
            };
            RealTx {
                what: format!("{what} tx {i}"),
                raw,
                sender: sender(who.as_str().expect("sender hex")),
                tx_type,
                high_s: false,
            }
        })
        .collect();
    RealBlock { what, txs }
}

/// `blocks.jsonl`: 40 block bodies from ethereum/tests, 1 to 61 transactions each.
pub fn blocks() -> Vec<RealBlock> {
    let blocks: Vec<RealBlock> = json_lines(BLOCKS)
        .enumerate()
        .map(|(i, v)| block(&v, format!("blocks.jsonl #{i} ({})", v["network"])))
        .collect();
    assert_eq!(blocks.len(), 40, "tests/data/blocks.jsonl changed");
    blocks
}

/// BNB Smart Chain block 19,410,658: 121 transactions.
pub fn bsc_block() -> RealBlock {
    let v: serde_json::Value = serde_json::from_str(BSC_BLOCK).expect("JSON");
    let b = block(&v, "BSC block 19410658".to_owned());
    assert_eq!(
        b.txs.len(),
        121,
        "tests/data/bsc_block_19410658.json changed"
    );
    b
}

/// Every bundled transaction once: `raw_txs.jsonl`, then the blocks, then the BSC block.
pub fn all_real_txs() -> Vec<RealTx> {
    let mut all = raw_txs();
    all.extend(blocks().into_iter().flat_map(|b| b.txs));
    all.extend(bsc_block().txs);
    all
}

/// `count` signatures (v = the recid, 0 or 1) by random keys over random hashes, signed
/// with libsecp256k1: the benchmarks' inputs.
pub fn signed(count: usize, seed: u64) -> Vec<Signed> {
    let mut rng = crate::rng::SplitMix64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let secret = rng.bytes32();
        if secp256k1::SecretKey::from_secret_bytes(secret).is_err() {
            continue;
        }
        let hash = rng.bytes32();
        let (r, s, recid) = crate::oracle::sign(&secret, &hash);
        out.push((hash, sig65(&r, &s, recid)));
    }
    out
}
