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

#[path = "../src/lanes/emu.rs"]
#[allow(dead_code)]
mod emu;

use asmcrypto::__lanes::{Input8, OK, Output8, prepare};

const TX_SENDERS: &str = include_str!("../tests/data/tx_senders.jsonl");

fn hex<const N: usize>(s: &str) -> [u8; N] {
    hex::decode(s).expect("hex").try_into().expect("length")
}

fn main() {
    if emu::runner().is_none() {
        eprintln!(
            "BXRUN is not set: run `BXRUN=$(../shared/emu/setup.sh) cargo run --release --example avx512_instructions`"
        );
        std::process::exit(2);
    }
    // Keep the core in this binary so the emulator can find it.
    std::hint::black_box(asmcrypto::__lanes::asmcrypto_avx512_recover8 as *const () as usize);

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
    let (inp, errors): (Input8, _) = prepare(&group);
    assert!(errors.iter().all(Option::is_none));

    let input = inp.to_bytes();
    let output = vec![0u8; Output8::BYTES];
    let res = emu::call(
        "asmcrypto_avx512_recover8",
        &[
            emu::Arg::Buf(&input),
            emu::Arg::Buf(&output),
            emu::Arg::Int(1),
        ],
        true,
    );
    let out = Output8::from_bytes(&res.bufs[1]);
    for (i, w) in want.iter().enumerate() {
        assert_eq!(out.status[i], OK, "lane {i} did not finish");
        let mut hash = [0u8; 32];
        for k in 0..4 {
            hash[8 * k..8 * k + 8].copy_from_slice(&out.hash[k][i].to_le_bytes());
        }
        assert_eq!(&hash[12..], w, "lane {i}: wrong address");
    }
    let total = res
        .instructions
        .expect("the emulator reports a count with BX_COUNT=1");
    println!("8 of 8 addresses match the published senders");
    println!("instructions for the batch of 8: {total}");
    println!("instructions per signature: {}", total / 8);
}
