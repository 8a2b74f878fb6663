//! The bundled real signed transactions (`tests/data/raw_txs.jsonl`, `blocks.jsonl`,
//! `bsc_block_19410658.json`; their sources are in `tests/data/README.md`), as EIP-2718
//! bytes with the sender their publisher states. Shared by the tests, `benches/senders.rs`
//! and `examples/compare.rs` (included with `#[path]`); parses only, decodes nothing.

#![allow(dead_code)]

const RAW_TXS: &str = include_str!("../data/raw_txs.jsonl");
const BLOCKS: &str = include_str!("../data/blocks.jsonl");
const BSC_BLOCK: &str = include_str!("../data/bsc_block_19410658.json");

/// One published transaction.
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
    pub what: String,
    pub txs: Vec<RealTx>,
}

fn hex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("bundled data is hex")
}

fn sender(s: &str) -> [u8; 20] {
    hex(s).try_into().expect("a sender is 20 bytes")
}

/// `raw_txs.jsonl`: 300 transactions of types 0–4.
pub fn raw_txs() -> Vec<RealTx> {
    let txs: Vec<RealTx> = RAW_TXS
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let s = |k: &str| v[k].as_str().expect("a string field").to_owned();
            RealTx {
                what: format!("raw_txs {} {}", s("source"), v["test"]),
                raw: hex(&s("raw")),
                sender: sender(&s("sender")),
                tx_type: v["tx_type"].as_u64().expect("tx_type") as u8,
                high_s: v["high_s"].as_bool().expect("high_s"),
            }
        })
        .collect();
    assert_eq!(txs.len(), 300, "tests/data/raw_txs.jsonl changed");
    txs
}

/// The transactions of one block's JSON object (`txs`, `senders`, optional `tx_types`).
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
            let raw = hex(raw.as_str().expect("raw tx hex"));
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
    let blocks: Vec<RealBlock> = BLOCKS
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            block(&v, format!("blocks.jsonl #{i} ({})", v["network"]))
        })
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
