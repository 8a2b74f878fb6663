//! Counts the instructions the 8-lane AVX-512 recovery core executes per signature.
//!
//! Runs `asmcrypto_avx512_recover8` (the whole lockstep core: square roots, r⁻¹ tree,
//! GLV split and recoding, the Strauss loop, the to-affine tree and the 8-way Keccak) on a
//! batch of eight real signatures inside the BochsCPU emulator with instruction counting
//! (`BX_COUNT=1`), checks the eight addresses, and prints the count divided by eight.
//!
//! Needs the emulator runner in `BXRUN`:
//! ```sh
//! BXRUN=$(../shared/emu/setup.sh) cargo run --release --example avx512_instructions
//! ```

use asmcrypto::internals::emu;

const TX_SENDERS: &str = include_str!("../tests/data/tx_senders.jsonl");

fn hex<const N: usize>(s: &str) -> [u8; N] {
    hex::decode(s).expect("hex").try_into().expect("length")
}

fn main() {
    if !emu::available() {
        eprintln!(
            "BXRUN is not set: run `BXRUN=$(../shared/emu/setup.sh) cargo run --release --example avx512_instructions`"
        );
        std::process::exit(2);
    }
    let mut group = Vec::new();
    let mut want = Vec::new();
    for line in TX_SENDERS.lines().take(8) {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        let f = |k: &str| v[k].as_str().expect("field").to_owned();
        let mut sig = [0u8; 65];
        sig[..32].copy_from_slice(&hex::<32>(&f("r")));
        sig[32..64].copy_from_slice(&hex::<32>(&f("s")));
        sig[64] = v["recid"].as_u64().expect("recid") as u8;
        group.push((hex::<32>(&f("hash")), sig));
        want.push(hex::<20>(&f("address")));
    }
    let group: [([u8; 32], [u8; 65]); 8] = group.try_into().expect("8 samples");
    let res = emu::recover8_emulated(&[group], true);
    for (i, w) in want.iter().enumerate() {
        assert!(res.finished[0][i], "lane {i} did not finish in lockstep");
        assert_eq!(res.results[0][i].as_ref(), Ok(w), "lane {i}: wrong address");
    }
    let total = res
        .instructions
        .expect("the emulator reports a count with BX_COUNT=1");
    println!("8 of 8 addresses match the published senders");
    println!("instructions for the batch of 8: {total}");
    println!("instructions per signature: {}", total / 8);
}
