//! Verifies 64 seeded valid P-256 signatures (by 64 keys) in a loop: a fixed workload for
//! profilers and for scripts/arm_instructions.sh's instruction count under qemu.
//!
//! Usage: `cargo run --release -p asmcrypto-tools --bin p256_loop -- [rounds]
//! [asmcrypto|batch|p256]` (default 10 rounds with asmcrypto). `asmcrypto` runs
//! `p256verify_precompile` on each input, `batch` one `p256_verify_batch` of all 64 per
//! round, `p256` RustCrypto's `p256` crate on the same bytes (its key from the coordinates,
//! then `verify_prehash`: revm's default backend). With 0 rounds it only builds the inputs,
//! the baseline to subtract. Every verification must succeed, or it panics.

use asmcrypto_testkit::p256::{self as tk, Input};
use std::hint::black_box;

/// Signatures per round.
const PER_ROUND: usize = 64;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(10, |a| a.parse().expect("rounds"));
    let lib = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "asmcrypto".into());
    // Kind 0 of the test support's generator: valid signatures by fresh keys.
    let inputs: Vec<Input> = (0..PER_ROUND as u64)
        .map(|i| tk::case(&mut asmcrypto_testkit::SplitMix64(0x7951 + i), 0))
        .collect();
    let mut ok = 0usize;
    for _ in 0..rounds {
        match lib.as_str() {
            "asmcrypto" => {
                for input in &inputs {
                    ok += asmcrypto::p256verify_precompile(black_box(input)).is_some() as usize;
                }
            }
            "batch" => {
                let out = asmcrypto::p256_verify_batch(black_box(&inputs));
                ok += out.iter().filter(|&&v| v).count();
            }
            "p256" => {
                for input in &inputs {
                    ok += tk::p256_crate_verify(black_box(input)) as usize;
                }
            }
            other => panic!("unknown library {other} (asmcrypto, batch or p256)"),
        }
    }
    assert_eq!(ok, rounds * PER_ROUND, "every signature verifies");
    println!("{ok} verifications");
}
