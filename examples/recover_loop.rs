//! Recovers the bundled sample signatures to addresses in a loop — a fixed workload for
//! profilers (`valgrind --tool=callgrind`, `perf`).
//!
//! Usage: `cargo run --release --example recover_loop -- [rounds] [asmcrypto|batch|libsecp256k1]`
//! (default 10 rounds of 147 signatures with asmcrypto). With 0 rounds it only parses the
//! samples, which gives the baseline to subtract from a profile. `batch` recovers the 147
//! signatures in one `recover_addresses` call per round. libsecp256k1 recovers the key and
//! hashes it with tiny-keccak.

// The libsecp256k1 reference of the benchmarks (its seeded-signature generator is unused
// here: this loop runs the bundled real transactions).
#[allow(dead_code)]
#[path = "../benches/support/mod.rs"]
mod support;

const TX_SENDERS: &str = include_str!("../tests/data/tx_senders.jsonl");

fn hex<const N: usize>(s: &str) -> [u8; N] {
    hex::decode(s).expect("hex").try_into().expect("length")
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(10, |a| a.parse().expect("rounds"));
    let lib = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "asmcrypto".into());
    let samples: Vec<([u8; 32], [u8; 65])> = TX_SENDERS
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            let f = |k: &str| v[k].as_str().expect("field").to_owned();
            let mut sig = [0u8; 65];
            sig[..32].copy_from_slice(&hex::<32>(&f("r")));
            sig[32..64].copy_from_slice(&hex::<32>(&f("s")));
            sig[64] = v["recid"].as_u64().expect("recid") as u8;
            (hex(&f("hash")), sig)
        })
        .collect();
    if lib == "batch" {
        let batch: Vec<_> = samples.iter().cycle().take(256).copied().collect();
        let mut ok = 0usize;
        for _ in 0..rounds {
            let out = asmcrypto::recover_addresses(std::hint::black_box(&batch));
            ok += out.iter().filter(|r| r.is_ok()).count();
        }
        println!("{ok} recoveries");
        return;
    }
    let recover: fn(&[u8; 32], &[u8; 65]) -> Option<[u8; 20]> = match lib.as_str() {
        "asmcrypto" => |h, s| asmcrypto::recover_address(h, s).ok(),
        "libsecp256k1" => |h, s| support::libsecp256k1_address(&(*h, *s)),
        other => panic!("unknown library {other}"),
    };
    let mut ok = 0usize;
    for _ in 0..rounds {
        for (hash, sig) in &samples {
            ok += std::hint::black_box(recover(hash, sig)).is_some() as usize;
        }
    }
    println!("{ok} recoveries");
}
