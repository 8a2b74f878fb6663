//! What `backend()` and `backend_details()` report, against the CPU's own feature flags
//! (x86-64; `tests/batch_paths.rs` checks the other architectures), and under
//! `ASMCRYPTO_BACKEND=scalar` (CI runs this file both ways).

#[cfg(target_arch = "x86_64")]
#[test]
fn details_match_the_cpu() {
    use std::arch::is_x86_feature_detected as has;
    let d = asmcrypto::backend_details();
    assert_eq!(d.batch, asmcrypto::backend());
    let forced_scalar = std::env::var_os("ASMCRYPTO_BACKEND").is_some_and(|v| v == "scalar");
    if forced_scalar {
        assert_eq!(d.batch, "scalar", "{d}");
    }
    assert_eq!(d.field == "mulx-adx", has!("bmi2") && has!("adx"), "{d}");
    assert_eq!(d.keccak == "andn", has!("bmi1"), "{d}");
    assert!(!d.keccak_batch.is_empty());
    let shown = d.to_string();
    for part in [d.batch, d.field, d.keccak, d.keccak_batch] {
        assert!(shown.contains(part), "{shown}");
    }
    // Every result is the same on every path: the Keccak batch agrees with the one-message
    // hash whatever it chose.
    let msgs: [&[u8]; 8] = [
        b"", b"a", &[7; 135], &[8; 136], &[9; 137], &[1; 300], b"xyz", &[0; 64],
    ];
    let got = asmcrypto::keccak256_batch(msgs);
    for (m, h) in msgs.iter().zip(got) {
        assert_eq!(h, asmcrypto::keccak256(m));
    }
}
