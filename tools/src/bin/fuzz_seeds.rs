//! The fuzz targets' seed corpus, `fuzz/seeds/<target>/`: the published vectors and the
//! crafted cases of the shared test support, in each target's input format.
//!
//! - `recover` (hash ‖ r ‖ s ‖ v, 97 bytes): the real transactions' signing tuples, and
//!   every hostile kind of the soak's generator (valid and high-s signatures, special
//!   values, every v, recovery ids 2 and 3, keys at infinity, r not an x-coordinate, r or
//!   s out of range, u₁ and u₂ at the edges of the recodings), each with its v byte and,
//!   where the case's libsecp256k1 recovery id is another byte (ids 2 and 3 among them),
//!   once more with that byte as v (the target passes the v byte to `ecrecover*` as the
//!   recovery id);
//! - `precompile` (any bytes): the published precompile vectors, and the generator's
//!   precompile inputs (dirty v words, cut and padded lengths);
//! - `batch` (97-byte pairs): the real tuples in runs of 1, 7, 8, 9, 16, 17 and 64 pairs,
//!   and the hostile kinds mixed into runs of 8 and 9 (v bytes written so that the target's
//!   v mapping gives back 0, 1, 27, 28 and the bytes from 0x80 on, and another invalid v
//!   as an invalid byte from 0x80 on);
//! - `keccak` (any bytes): lengths around the rate (135–137, 271–273 bytes), the empty
//!   input, and raw signed transactions of every type;
//! - `p256verify` (any bytes, P256VERIFY's call data): the published precompile vectors,
//!   the Wycheproof inputs not already among them (each input once), two seeded inputs of
//!   each kind of the P-256 generator, inputs of 0, 159 and 161 bytes, and inputs of the
//!   target's structured mode (first byte 0xa5: a private key, a hash and operations), one
//!   for each operation, none, and four chained.
//!
//! `cargo run --release -p asmcrypto-tools --bin fuzz_seeds` writes them (deterministic: the
//! same files on every run, replacing each target's directory: an input worth keeping, such
//! as a crash's, belongs in the generator); `-- --check` compares the checked-in files
//! with what it would write and exits 1 on any difference.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use asmcrypto_testkit::hostile::{Generator, Kind};
use asmcrypto_testkit::p256 as tk256;
use asmcrypto_testkit::rng::SplitMix64;
use asmcrypto_testkit::samples::{precompile_vectors, raw_txs, tx_senders};
use asmcrypto_testkit::sig::Signed;

/// Target → file name → contents.
type Corpus = BTreeMap<&'static str, BTreeMap<String, Vec<u8>>>;

fn pair(s: &Signed) -> Vec<u8> {
    let mut out = s.0.to_vec();
    out.extend_from_slice(&s.1);
    out
}

/// The batch target maps v bytes 0x00–0x3f to 0/1 and 0x40–0x7f to 27/28 and keeps the rest:
/// 0, 1, 27 and 28 written as the target reads them back, so a pair means what it says.
fn batch_pair(s: &Signed) -> Vec<u8> {
    let mut out = pair(s);
    out[96] = match s.1[64] {
        v @ (0 | 1) => v,
        v @ (27 | 28) => 0x40 + (v - 27),
        v if v >= 0x80 => v,
        // Another invalid v (2..=26, 29..=0x7f) becomes an invalid one the target keeps.
        v => 0x80 | v,
    };
    out
}

fn corpus() -> Corpus {
    let mut c = Corpus::new();
    let txs = tx_senders();
    let vectors = precompile_vectors();
    // Four cases of each hostile kind, and 64 of the generator's own mix.
    let hostile: Vec<_> = Kind::ALL
        .iter()
        .flat_map(|&k| {
            Generator::new(0x5eed_f022 ^ k.index() as u64)
                .only(k)
                .generate(4)
        })
        .collect();
    let mixed = Generator::new(0x5eed_f022).generate(64);

    let recover = c.entry("recover").or_default();
    for (i, t) in txs.iter().enumerate() {
        recover.insert(format!("tx-{i:03}"), pair(&t.signed()));
    }
    for (i, h) in hostile.iter().enumerate() {
        let signed = h.signed();
        recover.insert(format!("{}-{i:03}", h.kind.key()), pair(&signed));
        if h.recid != signed.1[64] {
            let mut with_recid = pair(&signed);
            with_recid[96] = h.recid;
            recover.insert(format!("{}-{i:03}-recid", h.kind.key()), with_recid);
        }
    }

    let precompile = c.entry("precompile").or_default();
    for (i, v) in vectors.iter().enumerate() {
        precompile.insert(format!("vector-{i:03}"), v.input.clone());
    }
    for (i, h) in hostile.iter().chain(&mixed).enumerate() {
        precompile.insert(format!("{}-{i:03}", h.kind.key()), h.pre.clone());
    }

    let batch = c.entry("batch").or_default();
    let signed: Vec<Signed> = txs.iter().map(|t| t.signed()).collect();
    let mut at = 0;
    for len in [1, 7, 8, 9, 16, 17, 64] {
        let run: Vec<u8> = (0..len)
            .flat_map(|j| batch_pair(&signed[(at + j) % signed.len()]))
            .collect();
        batch.insert(format!("tx-run-{len:02}"), run);
        at += len;
    }
    let mut rng = SplitMix64(0xba7c);
    for (i, chunk) in mixed.chunks(8).enumerate() {
        let mut run: Vec<u8> = chunk.iter().flat_map(|h| batch_pair(&h.signed())).collect();
        batch.insert(format!("mixed-8-{i}"), run.clone());
        // A ninth pair: the group of 8 and a remainder of one.
        run.extend(batch_pair(&signed[rng.index(signed.len())]));
        batch.insert(format!("mixed-9-{i}"), run);
    }

    let keccak = c.entry("keccak").or_default();
    let mut rng = SplitMix64(0x4ecc);
    for len in [
        0usize, 1, 31, 32, 33, 64, 135, 136, 137, 271, 272, 273, 1000,
    ] {
        let bytes: Vec<u8> = (0..len).map(|_| rng.byte()).collect();
        keccak.insert(format!("len-{len:04}"), bytes);
    }
    let raw = raw_txs();
    let mut types_seen = std::collections::BTreeSet::new();
    for t in &raw {
        if types_seen.insert(t.tx_type) {
            keccak.insert(format!("raw-tx-type-{}", t.tx_type), t.raw.clone());
        }
    }
    p256verify(c.entry("p256verify").or_default());
    c
}

/// The p256verify target's structured mode: inputs whose first byte is this tag are also
/// read as d ‖ hash ‖ operations (`fuzz/fuzz_targets/p256verify.rs`).
const P256_STRUCTURED: u8 = 0xa5;
/// The number of the structured mode's operations (the selector byte is taken mod this).
const P256_OPS: u8 = 23;

fn p256verify(seeds: &mut BTreeMap<String, Vec<u8>>) {
    let vectors = tk256::precompile_vectors();
    let mut seen = std::collections::BTreeSet::new();
    for (i, v) in vectors.iter().enumerate() {
        seen.insert(v.input.clone());
        seeds.insert(format!("vector-{i:03}"), v.input.clone());
    }
    // Wycheproof's DER and P1363 cases often give the same input: each one once.
    for (i, v) in tk256::wycheproof_vectors().iter().enumerate() {
        if seen.insert(v.input.clone()) {
            seeds.insert(format!("wycheproof-{i:03}"), v.input.clone());
        }
    }
    for kind in 0..tk256::KINDS.len() {
        let mut rng = SplitMix64(0x5eed_0256 ^ kind as u64);
        for j in 0..2 {
            seeds.insert(
                format!("kind-{kind:02}-{j}"),
                tk256::case(&mut rng, kind).to_vec(),
            );
        }
    }
    let first = &vectors[0].input;
    seeds.insert("len-000".into(), Vec::new());
    seeds.insert("len-159".into(), first[..159].to_vec());
    let mut long = first.clone();
    long.push(0);
    seeds.insert("len-161".into(), long);
    // The structured mode: a key, a hash, then each operation with 33 parameter bytes
    // (enough for any), none, and four chained.
    let mut rng = SplitMix64(0x5eed_a5a5);
    let mut structured = |ops: &[u8]| {
        let mut s = vec![P256_STRUCTURED];
        s.extend(rng.bytes(64));
        for &op in ops {
            s.push(op);
            s.extend(rng.bytes(33));
        }
        s
    };
    seeds.insert("structured-none".into(), structured(&[]));
    for op in 0..P256_OPS {
        seeds.insert(format!("structured-op-{op:02}"), structured(&[op]));
    }
    for (i, ops) in [
        [0u8, 1, 6, 22],
        [13, 14, 12, 16],
        [19, 0, 18, 3],
        [20, 12, 10, 7],
    ]
    .iter()
    .enumerate()
    {
        seeds.insert(format!("structured-chain-{i}"), structured(ops));
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = match args.as_slice() {
        [] => false,
        [a] if a == "--check" => true,
        _ => {
            eprintln!("usage: fuzz_seeds [--check]");
            return ExitCode::FAILURE;
        }
    };
    let c = corpus();
    let root = root();
    let mut differences = 0;
    for (target, files) in &c {
        let dir = root.join(target);
        if check {
            // A file that cannot be read compares as different (None).
            let on_disk: BTreeMap<String, Option<Vec<u8>>> = std::fs::read_dir(&dir)
                .map(|d| {
                    d.filter_map(Result::ok)
                        .map(|e| {
                            let name = e.file_name().to_string_lossy().into_owned();
                            (name, std::fs::read(e.path()).ok())
                        })
                        .collect()
                })
                .unwrap_or_default();
            for (name, bytes) in files {
                if on_disk.get(name).and_then(Option::as_ref) != Some(bytes) {
                    eprintln!("fuzz/seeds/{target}/{name}: missing or different");
                    differences += 1;
                }
            }
            for name in on_disk.keys().filter(|n| !files.contains_key(*n)) {
                eprintln!("fuzz/seeds/{target}/{name}: not generated here");
                differences += 1;
            }
        } else {
            if dir.exists() {
                std::fs::remove_dir_all(&dir).expect("remove the old seeds");
            }
            std::fs::create_dir_all(&dir).expect("create the seed directory");
            for (name, bytes) in files {
                std::fs::write(dir.join(name), bytes).expect("write a seed");
            }
        }
        let total: usize = files.values().map(Vec::len).sum();
        println!("{target}: {} seeds, {total} bytes", files.len());
    }
    if check {
        // A directory of a target the generator does not know.
        for entry in std::fs::read_dir(&root).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !c.contains_key(name.as_str()) {
                eprintln!("fuzz/seeds/{name}: not a target the generator writes");
                differences += 1;
            }
        }
    }
    if differences > 0 {
        eprintln!(
            "{differences} difference(s): run `cargo run --release -p asmcrypto-tools --bin fuzz_seeds`"
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
