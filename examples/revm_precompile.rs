//! asmcrypto as revm's `ecrecover` and `P256VERIFY` backend: one call at start-up, and from
//! then on the precompiles at 0x01 and 0x100 run on asmcrypto (revm keeps their input
//! parsing and gas rules).
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

    let call = |address: u64, input: &[u8]| {
        let precompile = Precompiles::latest()
            .get(&u64_to_address(address))
            .expect("a precompile");
        let out = precompile
            .execute(input, 100_000, 0)
            .expect("no fatal error");
        println!(
            "{address:#05x}: status {:?}, gas used {}, output 0x{}",
            out.status,
            out.gas_used,
            hex::encode(&out.bytes)
        );
        out
    };

    // Call data for 0x01: hash ‖ v ‖ r ‖ s (a real transaction's signature, v = 27).
    let mut input = hex::decode(concat!(
        "c8f2345bc628763f2f8324d099b26070e9a4f73d1ee8d654fd8537f59db8b4c6",
        "000000000000000000000000000000000000000000000000000000000000001b",
        "2ab9adbf933ea82559c127cf688532d1930b3d352748c2065a55759f5b84d750",
        "7d9f53ffe4dd1d297b64738fee7f448a9523ff58f411595c9a148c3cfeee6c28",
    ))
    .expect("valid hex");
    let out = call(1, &input);
    assert_eq!(
        hex::encode(&out.bytes[12..]),
        "a94f5374fce5edbc8e2a8697c15331677e6ebf0b"
    );

    // r = 0 is no signature: the precompile succeeds with an empty output, same gas.
    input[64..96].fill(0);
    let out = call(1, &input);
    assert!(out.bytes.is_empty());

    // Call data for 0x100 (P256VERIFY, EIP-7951): hash ‖ r ‖ s ‖ qx ‖ qy.
    let mut input = hex::decode(concat!(
        "4cee90eb86eaa050036147a12d49004b6b9c72bd725d39d4785011fe190f0b4d",
        "a73bd4903f0ce3b639bbbf6e8e80d16931ff4bcf5993d58468e8fb19086e8cac",
        "36dbcd03009df8c59286b162af3bd7fcc0450c9aa81be5d10d312af6c66b1d60",
        "4aebd3099c618202fcfe16ae7770b0c49ab5eadf74b754204a3bb6060e44eff3",
        "7618b065f9832de4ca6ca971a7a1adc826d0f7c00181a5fb2ddf79ae00b4e10e",
    ))
    .expect("valid hex");
    let out = call(0x100, &input);
    assert_eq!(out.gas_used, 6_900);
    assert_eq!(out.bytes[..], [[0u8; 31].as_slice(), &[1]].concat());

    // Another hash: the signature does not verify, an empty output for the same gas.
    input[0] ^= 1;
    let out = call(0x100, &input);
    assert!(out.bytes.is_empty());
}
