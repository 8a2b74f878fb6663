//! asmcrypto as revm's `ecrecover` backend: one call at start-up, and from then on the
//! precompile at 0x01 runs on asmcrypto (revm keeps its input parsing and gas rules).
//!
//! ```sh
//! cargo run --release --example revm_precompile --features revm
//! ```

use revm_precompile::{Precompiles, u64_to_address};

fn main() {
    // The one-call switch, before the first precompile runs.
    assert!(
        asmcrypto::adapters::install_revm_crypto(),
        "no other revm crypto backend in place"
    );

    // Call data for 0x01: hash ‖ v ‖ r ‖ s (a real transaction's signature, v = 27).
    let call = |input: &[u8]| {
        let ecrecover = Precompiles::latest()
            .get(&u64_to_address(1))
            .expect("0x01 is a precompile");
        let out = ecrecover
            .execute(input, 100_000, 0)
            .expect("no fatal error");
        println!(
            "status {:?}, gas used {}, output 0x{}",
            out.status,
            out.gas_used,
            hex::encode(&out.bytes)
        );
        out
    };
    let mut input = hex::decode(concat!(
        "c8f2345bc628763f2f8324d099b26070e9a4f73d1ee8d654fd8537f59db8b4c6",
        "000000000000000000000000000000000000000000000000000000000000001b",
        "2ab9adbf933ea82559c127cf688532d1930b3d352748c2065a55759f5b84d750",
        "7d9f53ffe4dd1d297b64738fee7f448a9523ff58f411595c9a148c3cfeee6c28",
    ))
    .expect("valid hex");
    let out = call(&input);
    assert_eq!(
        hex::encode(&out.bytes[12..]),
        "a94f5374fce5edbc8e2a8697c15331677e6ebf0b"
    );

    // r = 0 is no signature: the precompile succeeds with an empty output, same gas.
    input[64..96].fill(0);
    let out = call(&input);
    assert!(out.bytes.is_empty());
}
