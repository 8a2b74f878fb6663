//! Recovers the bundled sample signatures to addresses in a loop — a fixed workload for
//! profilers (`valgrind --tool=callgrind`, `perf`).
//!
//! Usage: `cargo run --release -p asmcrypto-tools --bin recover_loop -- [rounds] [asmcrypto|batch|batch8|libsecp256k1]`
//! (default 10 rounds of 147 signatures with asmcrypto). With 0 rounds it only parses the
//! samples, which gives the baseline to subtract from a profile. `batch` recovers 256 of the
//! samples in one `recover_addresses` call per round, `batch8` eight of them (a group of the
//! 8-lane engine, or the shortest scalar batch). libsecp256k1 recovers the key and
//! hashes it with tiny-keccak.

use asmcrypto_testkit::oracle::libsecp256k1_address;
use asmcrypto_testkit::samples::tx_senders;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(10, |a| a.parse().expect("rounds"));
    let lib = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "asmcrypto".into());
    let samples: Vec<([u8; 32], [u8; 65])> = tx_senders().iter().map(|t| t.signed()).collect();
    if lib == "batch" || lib == "batch8" {
        let n = if lib == "batch8" { 8 } else { 256 };
        let batch: Vec<_> = samples.iter().cycle().take(n).copied().collect();
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
        "libsecp256k1" => |h, s| libsecp256k1_address(&(*h, *s)),
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
