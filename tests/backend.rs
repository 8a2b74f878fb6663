//! What `backend()` and `backend_details()` report, against the CPU's own feature flags
//! (x86-64; `tests/batch_paths.rs` checks the other architectures), and under
//! `ASMCRYPTO_BACKEND` (CI runs this file unset, with `scalar`, with `avx512f` and with a
//! name the library does not know; `avx2` and `avx512-ifma` are checked the same way when
//! set), and the batch of the path it names against one signature at a time.

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
    // The batch path: the first, from the one requested on (avx512-ifma, avx512f, scalar;
    // `avx2` names scalar), that the CPU has.
    let f_bw = has!("avx512f") && has!("avx512bw");
    let has_path = [f_bw && has!("avx512ifma"), f_bw, true];
    let from = match std::env::var("ASMCRYPTO_BACKEND").as_deref() {
        Ok("avx512f") => 1,
        Ok("scalar" | "avx2") => 2,
        _ => 0,
    };
    let want = (from..3)
        .find(|&i| has_path[i])
        .expect("scalar is always there");
    assert_eq!(d.batch, ["avx512-ifma", "avx512f", "scalar"][want], "{d}");
    // The 8-way Keccak goes with the AVX-512 engines, the 4-way one with AVX2 otherwise.
    let keccak_batch = if d.batch != "scalar" {
        "avx512"
    } else if has!("avx2") {
        "avx2"
    } else {
        "scalar"
    };
    assert_eq!(d.keccak_batch, keccak_batch, "{d}");
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

/// The path `backend()` names (whatever `ASMCRYPTO_BACKEND` requests) gives every
/// signature's own answer: 40 seeded signatures, some spoilt, through `recover_addresses`
/// against `recover_address` one by one.
#[test]
fn the_reported_path_recovers() {
    use asmcrypto_testkit::{SplitMix64, scalar_core, sig65, sign};
    let mut rng = SplitMix64(0x0BAC_CE5D);
    let inputs: Vec<([u8; 32], [u8; 65])> = (0..40)
        .map(|i| {
            let hash = rng.bytes32();
            let (r, s, recid) = sign(&rng.scalar(), &hash);
            let mut sig = sig65(&r, &s, recid);
            if i % 5 == 4 {
                sig[rng.below(64) as usize] ^= 1 << rng.below(8);
            }
            (hash, sig)
        })
        .collect();
    let one_by_one = scalar_core(&inputs);
    assert!(one_by_one.iter().filter(|r| r.is_ok()).count() >= 30);
    assert_eq!(
        asmcrypto::recover_addresses(&inputs),
        one_by_one,
        "{}",
        asmcrypto::backend()
    );
}
