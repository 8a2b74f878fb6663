//! Counts the instructions the 8-lane AVX-512 recovery cores execute per signature.
//!
//! Runs `asmcrypto_avx512_recover8` (the avx512-ifma engine: the whole lockstep core —
//! square roots, r⁻¹ tree, GLV split and recoding, the Strauss loop, the to-affine tree and
//! the 8-way Keccak) inside the BochsCPU emulator with instruction counting
//! (`BX_COUNT=1`), first on one group of eight real signatures, then on eight groups (64
//! signatures) in one call, which share their two inversions as the batch path's groups do;
//! checks every address against the published senders and prints the counts per
//! signature. Then the same for `asmcrypto_avx512f_recover8` (the avx512f engine: AVX-512
//! F without IFMA, the 9×29 field on `vpmuludq`, its scalars mod n on the scalar core).
//!
//! Needs the emulator runner in `BXRUN`:
//! ```sh
//! BXRUN=$(../shared/emu/setup.sh) cargo run --release -p asmcrypto-tools --features emu --bin avx512_instructions
//! ```

use asmcrypto::internals::emu;
use asmcrypto_testkit::samples::tx_senders;

type Group = [([u8; 32], [u8; 65]); 8];

fn main() {
    if !emu::available() {
        eprintln!(
            "BXRUN is not set: run `BXRUN=$(../shared/emu/setup.sh) cargo run --release -p asmcrypto-tools --features emu --bin avx512_instructions`"
        );
        std::process::exit(2);
    }
    let txs: Vec<_> = tx_senders().into_iter().take(64).collect();
    let groups: Vec<Group> = txs
        .chunks_exact(8)
        .map(|c| core::array::from_fn(|i| c[i].signed()))
        .collect();
    type Run = fn(&[Group], bool) -> emu::Emulated;
    let engines: [(&str, Run); 2] = [
        ("avx512-ifma", emu::recover8_emulated),
        ("avx512f", emu::recover8_emulated_avx512f),
    ];
    for (name, run) in engines {
        for n in [1, groups.len()] {
            let res = run(&groups[..n], true);
            for (g, (got, done)) in res.results.iter().zip(&res.finished).enumerate() {
                for i in 0..8 {
                    assert!(
                        done[i],
                        "{name}: group {g} lane {i} did not finish in lockstep"
                    );
                    assert_eq!(
                        got[i].as_ref(),
                        Ok(&txs[8 * g + i].address),
                        "{name}: group {g} lane {i}: wrong address"
                    );
                }
            }
            let total = res
                .instructions
                .expect("the emulator reports a count with BX_COUNT=1");
            let sigs = 8 * n as u64;
            println!("{name}: {sigs} of {sigs} addresses match the published senders");
            println!("{name}: instructions for {n} group(s) of 8 in one call: {total}");
            println!(
                "{name}: instructions per signature, {sigs} in one call: {}",
                total / sigs
            );
        }
    }
}
