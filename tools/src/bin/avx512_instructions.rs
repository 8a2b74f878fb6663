//! Counts the instructions the 8-lane AVX-512 recovery cores execute per signature.
//!
//! Runs `asmcrypto_avx512_recover8` (the avx512-ifma engine: the whole lockstep core —
//! square roots, r⁻¹ tree, GLV split and recoding, the Strauss loop, the to-affine tree and
//! the 8-way Keccak) on a batch of eight real signatures inside the BochsCPU emulator with
//! instruction counting (`BX_COUNT=1`), checks the eight addresses, and prints the count
//! divided by eight; then the same for `asmcrypto_avx512f_recover8` (the avx512f engine:
//! AVX-512 F without IFMA, the 9×29 field on `vpmuludq`, its scalars mod n on the scalar
//! core).
//!
//! Needs the emulator runner in `BXRUN`:
//! ```sh
//! BXRUN=$(../shared/emu/setup.sh) cargo run --release -p asmcrypto-tools --features emu --bin avx512_instructions
//! ```

use asmcrypto::internals::emu;
use asmcrypto_testkit::samples::tx_senders;

fn main() {
    if !emu::available() {
        eprintln!(
            "BXRUN is not set: run `BXRUN=$(../shared/emu/setup.sh) cargo run --release -p asmcrypto-tools --features emu --bin avx512_instructions`"
        );
        std::process::exit(2);
    }
    let first: Vec<_> = tx_senders().into_iter().take(8).collect();
    let group: [([u8; 32], [u8; 65]); 8] = core::array::from_fn(|i| first[i].signed());
    let want: Vec<[u8; 20]> = first.iter().map(|t| t.address).collect();
    for (name, res) in [
        ("avx512-ifma", emu::recover8_emulated(&[group], true)),
        ("avx512f", emu::recover8_emulated_avx512f(&[group], true)),
    ] {
        for (i, w) in want.iter().enumerate() {
            assert!(
                res.finished[0][i],
                "{name}: lane {i} did not finish in lockstep"
            );
            assert_eq!(
                res.results[0][i].as_ref(),
                Ok(w),
                "{name}: lane {i}: wrong address"
            );
        }
        let total = res
            .instructions
            .expect("the emulator reports a count with BX_COUNT=1");
        println!("{name}: 8 of 8 addresses match the published senders");
        println!("{name}: instructions for the batch of 8: {total}");
        println!("{name}: instructions per signature: {}", total / 8);
    }
}
