//! Signatures crafted so that u₁ = −z·r⁻¹ and u₂ = s·r⁻¹ sit at the edges of the
//! recovery's recodings (`asmcrypto_testkit::boundary`): u₂ at the GLV rounding's ties and
//! corners, at the joint recoding's largest top digits, at 2ⁱ ± 1, n − 2ⁱ, multiples of λ
//! and halves of all ones; u₁ with 128-bit halves at 0, 2¹²⁷, 2¹²⁸ − 1, window-sized runs
//! of ones, 2ⁱ ± 1 and n − 2ⁱ. Each signature's key is worked out from R's discrete log
//! ((u₁ ± u₂·k)·G, or the point at infinity) and checked against libsecp256k1 first; then
//! every single-signature entry point (against the strict model: libsecp256k1 and k256),
//! the precompile, every batch path of `paths::every` (whatever backends it lists), and
//! `recover_addresses_batch` on every group of eight must give that key.

use asmcrypto::Error;
use asmcrypto_testkit::boundary::{Crafted, craft, some_k, u1_values, u2_values};
use asmcrypto_testkit::{
    Signed, SplitMix64, address_of_key, check_all, check_paths, from_be, paths, secp_recover,
};
use num_bigint::BigUint;

/// Every batch path.
fn every() -> Vec<asmcrypto::internals::BatchPath> {
    paths::every()
}

/// One signature per u₂ of `u2_values`, u₁ random or (one in three) a boundary u₁ too;
/// R = k·G with k from `some_k`; one in four with v naming −R; one in four with the hash
/// written as z + n where that fits.
fn crafted_u2(seed: u64) -> Vec<Crafted> {
    let mut rng = SplitMix64(seed);
    let u1s = u1_values();
    u2_values(seed, 96)
        .into_iter()
        .enumerate()
        .filter_map(|(i, (what, u2))| {
            let (w1, u1) = if rng.below(3) == 0 {
                u1s[i % u1s.len()].clone()
            } else {
                ("random".to_owned(), from_be(&rng.scalar()))
            };
            let k = some_k(&mut rng);
            craft(
                &format!("u2 {what}, u1 {w1}"),
                &u1,
                &u2,
                &k,
                rng.below(4) == 0,
                rng.below(4) == 0,
            )
        })
        .collect()
}

/// One signature per u₁ of `u1_values`, with a random u₂.
fn crafted_u1(seed: u64) -> Vec<Crafted> {
    let mut rng = SplitMix64(seed);
    u1_values()
        .into_iter()
        .filter_map(|(what, u1)| {
            let u2 = from_be(&rng.scalar());
            let k = some_k(&mut rng);
            craft(
                &format!("u1 {what}"),
                &u1,
                &u2,
                &k,
                rng.below(4) == 0,
                rng.coin(),
            )
        })
        .collect()
}

/// Signatures whose key is the point at infinity (u₁ = −u₂·k) or ±G (u₁ = ±1 − u₂·k), for
/// the boundary u₂: the last additions of the lockstep schedules meet a zero denominator.
fn crafted_degenerate(seed: u64) -> Vec<Crafted> {
    let mut rng = SplitMix64(seed);
    let n = asmcrypto_testkit::n();
    u2_values(seed, 8)
        .into_iter()
        .step_by(7)
        .filter_map(|(what, u2)| {
            let k = some_k(&mut rng);
            let j = [0u8, 1, 2][rng.index(3)];
            let u1 = (&n + BigUint::from(j) - &u2 * from_be(&k) % &n) % &n;
            craft(&format!("u2 {what}, Q = {j}·G"), &u1, &u2, &k, false, false)
        })
        .collect()
}

/// The crafted key against libsecp256k1 (a check of the construction), then every
/// single-signature entry point against the strict model.
fn check_singles(cases: &[Crafted]) {
    for c in cases {
        let lib = secp_recover(&c.hash, &c.r, &c.s, c.parity);
        assert_eq!(
            lib,
            c.key.ok(),
            "libsecp256k1 and the construction: {}",
            c.what
        );
        for v in [c.parity, c.parity + 27] {
            let got = check_all(&c.hash, &c.r, &c.s, v);
            assert_eq!(got, c.key, "{}", c.what);
        }
    }
}

/// Every batch path on the whole list, in groups of eight (with
/// `recover_addresses_batch`) and in runs of 37; returns how many paths ran.
fn check_batches(cases: &[Crafted], what: &str) -> usize {
    let inputs: Vec<Signed> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| c.signed(i % 2 == 1))
        .collect();
    let want: Vec<Result<[u8; 20], Error>> = cases
        .iter()
        .map(|c| c.key.map(|k| address_of_key(&k)))
        .collect();
    let paths = every();
    let ran = check_paths(&paths, &inputs, &want, what);
    for (i, (g, w)) in inputs.chunks(8).zip(want.chunks(8)).enumerate() {
        check_paths(&paths, g, w, &format!("{what}, group {i}"));
    }
    for (i, (g, w)) in inputs.chunks(37).zip(want.chunks(37)).enumerate() {
        check_paths(&paths, g, w, &format!("{what}, run {i} of 37"));
    }
    ran
}

#[test]
fn boundary_u2_through_every_entry_point_and_path() {
    let cases = crafted_u2(0x27);
    assert!(cases.len() > 1400, "{}", cases.len());
    for kind in [
        "corner",
        "edge",
        "Eisenstein",
        "λ",
        "halves of ones",
        "n - 2^i",
    ] {
        assert!(
            cases.iter().any(|c| c.what.contains(kind)),
            "no case of {kind}"
        );
    }
    check_singles(&cases);
    let ran = check_batches(&cases, "boundary u2");
    assert!(ran >= 3, "{ran} paths ran");
}

#[test]
fn boundary_u1_through_every_entry_point_and_path() {
    let cases = crafted_u1(0x127);
    assert!(cases.len() > 900, "{}", cases.len());
    assert!(cases.iter().any(|c| c.u1 == [0; 32]), "u1 = 0 (z = 0)");
    check_singles(&cases);
    check_batches(&cases, "boundary u1");
}

#[test]
fn boundary_u2_with_keys_at_infinity_and_at_g() {
    let cases = crafted_degenerate(0x0);
    assert!(cases.len() > 100);
    assert!(
        cases.iter().any(|c| c.key == Err(Error::PointAtInfinity)),
        "a key at infinity"
    );
    check_singles(&cases);
    check_batches(&cases, "boundary u2, degenerate keys");
}

/// Both AVX-512 engines (avx512-ifma, and avx512f without IFMA) under the emulator
/// (machines without AVX-512, `BXRUN` set, feature `emu`) on the boundary u₂ cases: every
/// lane as `recover_address` gives, and every lane with a key finished by the engine
/// itself.
#[cfg(all(feature = "emu", target_arch = "x86_64"))]
#[test]
fn boundary_u2_on_the_emulated_avx512_engines() {
    use asmcrypto::internals::emu;
    if !emu::available() {
        eprintln!("skipped: BXRUN not set (no emulated run)");
        return;
    }
    let cases = crafted_u2(0x5e);
    // The corners, edges and Eisenstein extremes (the lanes' own schedule), 16 groups.
    let chosen: Vec<&Crafted> = cases
        .iter()
        .filter(|c| {
            c.what.contains("corner") || c.what.contains("edge") || c.what.contains("Eisenstein")
        })
        .take(128)
        .collect();
    let groups: Vec<[Signed; 8]> = chosen
        .chunks_exact(8)
        .map(|g| core::array::from_fn(|i| g[i].signed(false)))
        .collect();
    assert!(groups.len() >= 8);
    for (engine, run) in [
        ("avx512-ifma", emu::recover8_emulated(&groups, false)),
        ("avx512f", emu::recover8_emulated_avx512f(&groups, false)),
    ] {
        assert_eq!(run.results.len(), groups.len(), "{engine}");
        for ((g, got), done) in chosen.chunks_exact(8).zip(&run.results).zip(&run.finished) {
            for (i, c) in g.iter().enumerate() {
                let want = c.key.map(|k| address_of_key(&k));
                assert_eq!(got[i], want, "{engine}: {}", c.what);
                assert!(
                    done[i],
                    "{engine}: lane {i} handed back to the scalar core: {}",
                    c.what
                );
            }
        }
    }
}
