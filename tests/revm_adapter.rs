//! The `revm` adapter, end to end through revm-precompile's own entry points: the
//! `ecrecover` precompile (0x01) via `secp256k1::ec_recover_run` and via the
//! `Precompiles::latest()` table, on the 115 published precompile vectors and on thousands
//! of seeded random and hostile inputs, byte for byte and gas for gas.
//!
//! revm keeps its crypto backend in a process-wide, set-once slot that it fills with its
//! default backend the first time any precompile runs. So the default backend's answers
//! come from a child process (this same test binary, re-run on the one test with an
//! environment variable set), which runs the corpus before anything is installed; this
//! process then installs asmcrypto with `install_revm_crypto()` and runs the same corpus.
//! The other tests in this file call the `Crypto` trait methods directly and never run a
//! precompile, so they cannot fill the slot first.

#![cfg(feature = "revm")]

use std::process::{Command, Stdio};

use asmcrypto::adapters::{RevmCrypto, install_revm_crypto};
use asmcrypto_testkit::edge::{invalid_scalar, message_hash};
use asmcrypto_testkit::samples::precompile_vectors;
use asmcrypto_testkit::*;
use num_bigint::BigUint;
use revm_precompile::{Crypto, DefaultCrypto, PrecompileHalt, Precompiles, u64_to_address};

/// Set in the child process: where to write the default backend's answers.
const CHILD_OUT: &str = "ASMCRYPTO_TEST_REVM_DEFAULT_OUT";

const GAS: u64 = 3_000;

struct Input {
    what: String,
    bytes: Vec<u8>,
    gas_limit: u64,
    /// The expected output bytes from the published vectors (empty = failure).
    expected: Option<Vec<u8>>,
}

fn published_inputs() -> Vec<Input> {
    let mut out = Vec::new();
    for v in precompile_vectors() {
        let expected = v.expected.map_or(Vec::new(), |w| w.to_vec());
        for gas_limit in [GAS, 100_000, GAS - 1] {
            out.push(Input {
                what: format!("{} (gas limit {gas_limit})", v.name),
                bytes: v.input.clone(),
                gas_limit,
                expected: Some(expected.clone()),
            });
        }
    }
    assert_eq!(
        out.len(),
        3 * 115,
        "tests/data/precompile_ecrecover.jsonl changed"
    );
    out
}

/// Seeded inputs: valid signatures (low and high s), wrong v, v words that are not 27 or
/// 28, r or s zero or ≥ n, r not an x-coordinate, short, long and random inputs, and gas
/// limits below, at and above the price.
fn random_inputs(count: usize) -> Vec<Input> {
    let mut rng = SplitMix64(0x0EC2_EC0F);
    let n = n();
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let secret = rng.scalar();
        let hash = message_hash(&mut rng);
        let (mut r, mut s, recid) = sign(&secret, &hash);
        let mut v = 27 + recid;
        let kind = i % 16;
        let mut bytes = None;
        match kind {
            0..=3 => {}
            4 => {
                // The high-s twin: same signer, the other parity.
                s = to_be32(&(&n - from_be(&s)));
                v = if recid == 0 { 28 } else { 27 };
            }
            5 => v = if v == 27 { 28 } else { 27 },
            6 => v = [0, 1, 2, 3, 26, 29, 255][rng.below(7) as usize],
            7 => r = invalid_scalar(&mut rng),
            8 => s = invalid_scalar(&mut rng),
            9 => loop {
                let x = rng.scalar();
                if !is_x_coordinate(&from_be(&x)) {
                    r = x;
                    break;
                }
            },
            10 => {
                r = rng.bytes32();
                s = rng.bytes32();
            }
            11 => {
                // A v word with 27 or 28 in its last byte but other bytes set.
                let mut input = precompile_input(&hash, v, &r, &s).to_vec();
                input[32 + rng.below(31) as usize] = 1 + rng.below(255) as u8;
                bytes = Some(input);
            }
            12 => {
                // Truncated: the precompile pads with zeros.
                let mut input = precompile_input(&hash, v, &r, &s).to_vec();
                input.truncate(rng.below(128) as usize);
                bytes = Some(input);
            }
            13 => {
                // Trailing bytes past 128 are ignored.
                let mut input = precompile_input(&hash, v, &r, &s).to_vec();
                let extra = rng.below(100) as usize;
                input.extend(rng.bytes(extra));
                bytes = Some(input);
            }
            14 => {
                let len = rng.below(200) as usize;
                bytes = Some(rng.bytes(len));
            }
            _ => {
                // Small r and s.
                r = to_be32(&BigUint::from(rng.below(5)));
                s = to_be32(&BigUint::from(rng.below(5)));
            }
        }
        let bytes = bytes.unwrap_or_else(|| precompile_input(&hash, v, &r, &s).to_vec());
        let gas_limit = match rng.below(8) {
            0 => rng.below(GAS),
            1 => GAS - 1,
            2 => u64::MAX,
            3 => GAS + rng.below(1_000_000),
            _ => GAS,
        };
        out.push(Input {
            what: format!("random #{i} kind {kind} (gas limit {gas_limit})"),
            bytes,
            gas_limit,
            expected: None,
        });
    }
    out
}

fn corpus() -> Vec<Input> {
    let mut inputs = published_inputs();
    inputs.extend(random_inputs(6000));
    inputs
}

/// Runs every input through both public entry points of the precompile; one line each,
/// with the whole result (status, gas, output bytes) in `Debug` form.
fn run(inputs: &[Input]) -> Vec<String> {
    let ecrecover = Precompiles::latest()
        .get(&u64_to_address(1))
        .expect("0x01 is a precompile");
    inputs
        .iter()
        .map(|input| {
            let direct = revm_precompile::secp256k1::ec_recover_run(&input.bytes, input.gas_limit);
            let table = ecrecover.execute(&input.bytes, input.gas_limit, 0);
            format!("{direct:?} | {table:?}")
        })
        .collect()
}

#[test]
fn precompile_default_backend_then_asmcrypto() {
    let inputs = corpus();

    if let Some(path) = std::env::var_os(CHILD_OUT) {
        // Child process: nothing installed, revm's default backend (k256 here).
        let lines = run(&inputs);
        assert!(
            !install_revm_crypto(),
            "revm locks its default backend in at the first precompile run"
        );
        std::fs::write(path, lines.join("\n")).expect("write the default backend's answers");
        return;
    }

    // 1. revm's default backend, in a child process (this binary, this test only).
    let path =
        std::env::temp_dir().join(format!("asmcrypto-revm-default-{}.txt", std::process::id()));
    let status = Command::new(std::env::current_exe().expect("test binary path"))
        .args([
            "precompile_default_backend_then_asmcrypto",
            "--exact",
            "--test-threads=1",
            "--quiet",
        ])
        .env(CHILD_OUT, &path)
        .stdout(Stdio::null())
        .status()
        .expect("run the child");
    assert!(status.success(), "child process failed: {status}");
    let default = std::fs::read_to_string(&path).expect("the child's answers");
    let _ = std::fs::remove_file(&path);
    let default: Vec<&str> = default.lines().collect();
    assert_eq!(default.len(), inputs.len());

    // 2. The one-call switch (before this process runs any precompile).
    assert!(
        install_revm_crypto(),
        "first and only install in this process"
    );
    assert!(!install_revm_crypto(), "revm's slot is set-once");

    // 3. The same inputs on asmcrypto.
    let ours = run(&inputs);
    let mut counts = [0usize; 3]; // [address, empty output, out of gas]
    for ((input, d), o) in inputs.iter().zip(&default).zip(&ours) {
        assert_eq!(
            *d,
            o.as_str(),
            "{}: default backend vs asmcrypto, input {}",
            input.what,
            hex::encode(&input.bytes)
        );
        // And against the model (libsecp256k1 and k256 on the parsed input), and the
        // published answer where there is one.
        let result = revm_precompile::secp256k1::ec_recover_run(&input.bytes, input.gas_limit);
        if input.gas_limit < GAS {
            assert_eq!(result, Err(PrecompileHalt::OutOfGas), "{}", input.what);
            counts[2] += 1;
            continue;
        }
        let output = result.expect("enough gas");
        assert_eq!(output.gas_used, GAS, "{}", input.what);
        let want = model_precompile(&input.bytes).map_or(Vec::new(), |w| w.to_vec());
        assert_eq!(output.bytes.to_vec(), want, "{}: model", input.what);
        if let Some(expected) = &input.expected {
            assert_eq!(
                &output.bytes.to_vec(),
                expected,
                "{}: published",
                input.what
            );
        }
        counts[usize::from(output.bytes.is_empty())] += 1;
    }
    assert!(
        counts.iter().all(|&c| c > 300),
        "every outcome must be exercised: {counts:?}"
    );
}

/// The hook itself against revm's default for every recovery id it can take (0..=3; revm's
/// default panics above 3, ours refuses), on valid, high-s and hostile signatures.
#[test]
fn hook_matches_revm_default_crypto() {
    let mut rng = SplitMix64(0x00C2_7970);
    let n = n();
    let p_minus_n = p() - &n;
    let mut recovered = 0;
    for i in 0..2000 {
        let secret = rng.scalar();
        let hash = rng.bytes32();
        let (mut r, mut s, _) = sign(&secret, &hash);
        match i % 6 {
            0 | 1 => {}
            2 => s = to_be32(&(&n - from_be(&s))),
            // r < p − n, so that recovery ids 2 and 3 (x = r + n) can succeed.
            3 => r = to_be32(&(from_be(&rng.bytes32()) % &p_minus_n)),
            4 => r = invalid_scalar(&mut rng),
            _ => {
                r = rng.bytes32();
                s = rng.bytes32();
            }
        }
        let sig = sig64(&r, &s);
        for recid in 0..=3 {
            let ours = RevmCrypto.secp256k1_ecrecover(&sig, recid, &hash);
            let theirs = DefaultCrypto.secp256k1_ecrecover(&sig, recid, &hash);
            assert_eq!(
                ours,
                theirs,
                "recid={recid} hash={} r={} s={}",
                hex::encode(hash),
                hex::encode(r),
                hex::encode(s)
            );
            let oracle =
                secp_recover(&hash, &r, &s, recid).map(|k| address_word(&address_of_key(&k)));
            assert_eq!(ours.as_ref().ok().copied(), oracle, "libsecp256k1");
            recovered += usize::from(ours.is_ok());
        }
        for recid in 4..=255 {
            assert_eq!(
                RevmCrypto.secp256k1_ecrecover(&sig, recid, &hash),
                Err(PrecompileHalt::Secp256k1RecoverFailed)
            );
        }
    }
    assert!(recovered > 2000);
}
