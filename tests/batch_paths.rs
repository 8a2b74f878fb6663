//! Every batch path — each variant of `internals::BatchPath` (the dispatched
//! `recover_addresses`, the scalar core's batch path, the portable lane engine with each
//! field, and the AVX-512 lane engines (IFMA, and F without IFMA) where this CPU has them) —
//! and
//! `recover_addresses_batch` on every group of eight, lane by lane against the scalar core
//! (`recover_address`, itself checked against the oracles by the other suites), the
//! published results and the reference model:
//!
//! - the published vectors (precompile cases with a 27/28 v word, transaction senders), at
//!   every tail length and at every lane position;
//! - seeded signatures with invalid lanes of every kind, at every batch size 0..=70 and a
//!   few large ones, and 10,240 at once;
//! - crafted lanes whose key is at infinity (the lockstep engines' additions meet acc = −Q
//!   there and must complete them), and an invalid lane, at every position of a group;
//! - the soak runner's hostile mix, against the strict model directly;
//! - `k256` signatures, some corrupted (a property test);
//! - `recover_addresses_on_threads` on every split of the input.

use asmcrypto::Error;
use asmcrypto::internals::BatchPath;
use asmcrypto_testkit::hostile::{Generator, at_infinity};
use asmcrypto_testkit::oracle::k256_signed;
use asmcrypto_testkit::samples::{precompile_vectors, tx_senders};
use asmcrypto_testkit::{
    PrecompileInput, Reference, Signed, SplitMix64, address_of_key, check_paths, paths,
    proptest_cases, scalar_core, secp_recover, sig65, sign,
};
use proptest::prelude::*;

/// Every path.
fn every() -> Vec<BatchPath> {
    paths::every()
}

/// The published (input, result) pairs: tx vectors expect their sender; precompile vectors
/// whose input decodes to a (hash, r, s, v ∈ {27, 28}) expect their published output.
fn published() -> Vec<(Signed, Option<[u8; 20]>)> {
    let mut out: Vec<_> = tx_senders()
        .iter()
        .map(|t| (t.signed(), Some(t.address)))
        .collect();
    let mut precompile = 0;
    for c in precompile_vectors() {
        let i = PrecompileInput::parse(&c.input);
        let Some(v) = i.v else {
            continue;
        };
        let want = c.expected.map(|w| w[12..].try_into().expect("20 bytes"));
        out.push(((i.hash, sig65(&i.r, &i.s, v)), want));
        precompile += 1;
    }
    assert!(
        precompile >= 100,
        "precompile vectors with a 27/28 v word: {precompile}"
    );
    assert_eq!(out.len(), 147 + precompile);
    out
}

/// Seeded inputs: real signatures (low and high s, v as 0/1 or 27/28) with invalid lanes
/// of each kind and crafted at-infinity lanes mixed in.
fn inputs(seed: u64, count: usize) -> Vec<Signed> {
    let mut rng = SplitMix64(seed);
    (0..count)
        .map(|_| {
            let secret = rng.scalar();
            let mut hash = rng.bytes32();
            let (r, mut s, mut recid) = sign(&secret, &hash);
            let kind = rng.below(40);
            if kind < 12 {
                // High-s twin.
                s = asmcrypto_testkit::curve::neg_n(&s);
                recid ^= 1;
            }
            let mut sig = sig65(&r, &s, recid + if rng.below(2) == 0 { 0 } else { 27 });
            match kind {
                12 => sig[64] = rng.below(256) as u8,
                13 => sig[..32].fill(0),
                14 => sig[32..64].copy_from_slice(&asmcrypto_testkit::curve::N),
                15 | 16 => sig[rng.below(32) as usize] ^= 1 << rng.below(8),
                17 => hash = [0xff; 32],
                18 | 19 => return at_infinity(&mut rng),
                _ => {}
            }
            (hash, sig)
        })
        .collect()
}

/// `paths` on `v` against the scalar core (with eight inputs, `recover_addresses_batch`
/// too); returns the scalar core's results.
fn check_on(paths: &[BatchPath], v: &[Signed], what: &str) -> Vec<Result<[u8; 20], Error>> {
    let expected = scalar_core(v);
    let ran = check_paths(paths, v, &expected, what);
    let can_run = paths.iter().filter(|&&p| paths::available(p)).count();
    assert_eq!(ran, can_run, "{what}: paths that ran");
    expected
}

/// The two portable lane engines (plain Rust: the slowest paths).
const PORTABLE: [BatchPath; 2] = [BatchPath::PortableLanes, BatchPath::PortableLanes29];

/// Whether the long sweeps below (every length, every rotation, the large batches) run
/// the portable engines too. Not under coverage instrumentation (`cfg(coverage)`, which
/// cargo-llvm-cov sets), where their lane loops run about two orders of magnitude slower
/// than in the plain test build, nor with `ASMCRYPTO_TEST_SWEEP_PORTABLE=0` (set by
/// `scripts/test_aarch64.sh`: under qemu they take minutes). The tests that reach the
/// same code on fewer inputs (the libsecp256k1 comparison, the hostile mix, the k256
/// property test, 16 groups of the 10,240) run them either way; a plain `cargo test`
/// runs every sweep on every path.
fn sweep_portable() -> bool {
    !cfg!(coverage) && std::env::var_os("ASMCRYPTO_TEST_SWEEP_PORTABLE").is_none_or(|v| v != "0")
}

/// Every path on `v` against the scalar core (the portable engines only where
/// [`sweep_portable`]).
fn check(v: &[Signed], what: &str) -> Vec<Result<[u8; 20], Error>> {
    let sweep = sweep_portable();
    let every: Vec<BatchPath> = every()
        .into_iter()
        .filter(|p| sweep || !PORTABLE.contains(p))
        .collect();
    assert!(every.len() >= 4);
    check_on(&every, v, what)
}

#[test]
fn published_vectors_at_every_length_and_lane_position() {
    let cases = published();
    let inputs: Vec<Signed> = cases.iter().map(|c| c.0).collect();
    let expected = check(&inputs, "published");
    for (i, (r, (_, want))) in expected.iter().zip(&cases).enumerate() {
        assert_eq!(r.ok(), *want, "case {i}");
    }
    // Every tail length.
    for len in 0..=17 {
        check(&inputs[..len], &format!("published, first {len}"));
    }
    // Rotate the data so each vector visits every lane position.
    for shift in 0..8 {
        let rotated: Vec<_> = cases
            .iter()
            .cycle()
            .skip(shift)
            .take(cases.len() - cases.len() % 8)
            .cloned()
            .collect();
        for group in rotated.chunks_exact(8) {
            let g: Vec<Signed> = group.iter().map(|c| c.0).collect();
            let got = check(&g, &format!("published, shift {shift}"));
            for (r, (_, want)) in got.iter().zip(group) {
                assert_eq!(r.ok(), *want);
            }
        }
    }
}

#[test]
fn ten_thousand_signatures_through_every_path() {
    let v = inputs(1, 10_240);
    // The portable engines (plain Rust, the slowest paths) on the first 400 groups of
    // eight only (16 where not [`sweep_portable`]), below.
    let portable_groups = if sweep_portable() { 400 } else { 16 };
    let fast: Vec<BatchPath> = every()
        .into_iter()
        .filter(|p| !PORTABLE.contains(p))
        .collect();
    let expected = check_on(&fast, &v, "10,240 seeded");
    let infinity = expected
        .iter()
        .filter(|r| **r == Err(Error::PointAtInfinity))
        .count();
    assert!(infinity > 100, "crafted lanes present: {infinity}");
    assert!(expected.iter().filter(|r| r.is_ok()).count() > 8000);
    for (i, (g, w)) in v
        .chunks_exact(8)
        .zip(expected.chunks_exact(8))
        .take(portable_groups)
        .enumerate()
    {
        let got = check_on(&PORTABLE, g, &format!("group {i}"));
        assert_eq!(got, w);
    }
}

#[test]
fn every_batch_size_and_lane_position() {
    let v = inputs(2, 70 + 8);
    for len in 0..=70 {
        for start in [0, 1, 5] {
            check(&v[start..start + len], &format!("len {len} from {start}"));
        }
    }
    // A crafted lane and an invalid lane at every position of a batch of eight.
    let mut rng = SplitMix64(3);
    let base: Vec<Signed> = inputs(4, 64)
        .into_iter()
        .filter(|(h, s)| asmcrypto::recover_address(h, s).is_ok())
        .take(8)
        .collect();
    for pos in 0..8 {
        let mut g: [Signed; 8] = base.clone().try_into().unwrap();
        g[pos] = at_infinity(&mut rng);
        g[(pos + 3) % 8].1[64] = 5;
        let expected = check(&g, &format!("crafted lane {pos}"));
        assert_eq!(expected[pos], Err(Error::PointAtInfinity));
        assert_eq!(expected[(pos + 3) % 8], Err(Error::InvalidRecoveryId(5)));
    }
}

/// `recover_addresses_on_threads` at every thread count that splits the input differently
/// (0 = one per CPU, more threads than shares), at the lengths where the split changes
/// (below, at and above multiples of `MIN_THREAD_SHARE`): exactly the scalar core's results.
#[test]
fn on_threads_matches_the_scalar_core() {
    let share = asmcrypto::MIN_THREAD_SHARE;
    let v = inputs(23, 3 * share + 13);
    for len in [
        0,
        1,
        share - 1,
        share,
        share + 1,
        2 * share - 1,
        2 * share,
        2 * share + 8,
        v.len(),
    ] {
        let expected = scalar_core(&v[..len]);
        for threads in [0, 1, 2, 3, 4, 64] {
            assert_eq!(
                asmcrypto::recover_addresses_on_threads(&v[..len], threads),
                expected,
                "{len} signatures on {threads} threads"
            );
        }
    }
}

#[test]
fn large_batches() {
    for (seed, len) in [(5u64, 255usize), (6, 256), (7, 257), (8, 1000)] {
        check(&inputs(seed, len), &format!("len {len}"));
    }
}

#[test]
fn agrees_with_libsecp256k1() {
    // The scalar core is itself checked against the oracles elsewhere; here one more
    // direct comparison of every path's output with libsecp256k1.
    let v = inputs(9, 512);
    let oracle: Vec<Option<[u8; 20]>> = v
        .iter()
        .map(|(h, s)| {
            if !matches!(s[64], 0 | 1 | 27 | 28) {
                return None;
            }
            let (r, sv) = asmcrypto_testkit::sig::split_rs(s);
            secp_recover(h, &r, &sv, s[64] % 27).map(|k| address_of_key(&k))
        })
        .collect();
    for path in paths::every_available() {
        let got = paths::run(path, &v).expect("available");
        let got: Vec<_> = got.into_iter().map(Result::ok).collect();
        assert_eq!(got, oracle, "{path:?}");
    }
}

/// The soak runner's hostile mix (special values, bit flips, every v, random bytes,
/// recovery ids 2/3, crafted keys at infinity, r off the curve, r or s out of range)
/// against the strict model itself, at several lengths.
#[test]
fn hostile_mix_against_the_model() {
    let mut g = Generator::with_reference(0x5047_a11e, Reference::strict());
    for len in [8, 37, 200, 700] {
        let cases = g.generate(len);
        let v: Vec<Signed> = cases.iter().map(|c| c.signed()).collect();
        let want: Vec<_> = cases.iter().map(|c| c.want_addr).collect();
        let ran = check_paths(&every(), &v, &want, &format!("hostile, len {len}"));
        assert!(ran >= 3);
        assert_eq!(scalar_core(&v), want, "hostile, len {len}: recover_address");
        let failures = want.iter().filter(|w| w.is_err()).count();
        assert!(failures > len / 8, "len {len}: {failures} failing lanes");
    }
    assert!(g.reference.take_inconsistencies().is_empty());
}

/// `backend()` names the path dispatch takes: the best the CPU has, or, with
/// `ASMCRYPTO_BACKEND`, the first from the one it names that the CPU has (this test runs
/// under whatever the environment sets; CI runs the suites with it unset and with
/// `scalar`).
#[cfg(target_arch = "x86_64")]
#[test]
fn backend_is_reported() {
    use std::arch::is_x86_feature_detected as has;
    let b = asmcrypto::backend();
    let f_bw = has!("avx512f") && has!("avx512bw");
    let ifma = f_bw && has!("avx512ifma");
    let order = ["avx512-ifma", "avx512f", "scalar"];
    let from = match std::env::var("ASMCRYPTO_BACKEND").as_deref() {
        Ok("avx512f") => 1,
        Ok("avx2" | "scalar") => 2,
        _ => 0,
    };
    let available = [ifma, f_bw, true];
    let want = (from..3).find(|&i| available[i]).map(|i| order[i]);
    assert_eq!(Some(b), want, "{b}");
    assert_eq!(asmcrypto::backend_details().batch, b);
    assert_eq!(paths::available(BatchPath::Avx512Lanes), ifma);
    assert_eq!(paths::available(BatchPath::Avx512FLanes), f_bw);
    assert_eq!(
        asmcrypto::backend_details().keccak_batch == "avx512",
        b != "scalar"
    );
}

/// Off x86-64 (aarch64 in CI, under qemu) the portable code runs, but for the field
/// multiply on aarch64 (its own assembly): every other choice `backend_details` reports is
/// the portable one, and the AVX-512 lane engine is absent.
#[cfg(not(target_arch = "x86_64"))]
#[test]
fn backend_is_portable_off_x86() {
    let d = asmcrypto::backend_details();
    assert_eq!(asmcrypto::backend(), "scalar");
    let field = if cfg!(target_arch = "aarch64") {
        "arm64"
    } else {
        "portable"
    };
    assert_eq!(
        (d.batch, d.field, d.keccak, d.keccak_batch),
        ("scalar", field, "portable", "scalar"),
        "{d}"
    );
    assert!(!paths::available(BatchPath::Avx512Lanes));
    assert!(!paths::available(BatchPath::Avx512FLanes));
    assert!(paths::available(BatchPath::PortableLanes));
    assert!(paths::available(BatchPath::PortableLanes29));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(64)))]

    /// Many k256 signatures (some corrupted) through every batch path, against the
    /// expected address of each (or `recover_address` where the signature was corrupted).
    #[test]
    fn batch_paths_recover_k256_signatures(
        items in prop::collection::vec(
            (any::<[u8; 32]>(), any::<[u8; 32]>(), any::<bool>(), any::<bool>(), 0u8..8),
            1..=20,
        ),
    ) {
        let mut inputs = Vec::new();
        let mut want = Vec::new();
        for (secret, hash, high, v27, corrupt) in items {
            let Some((hash, mut sig, key)) = k256_signed(&secret, &hash, high, v27) else {
                continue;
            };
            match corrupt {
                0 => sig[64] = 5,
                1 => sig[..32].fill(0),
                2 => sig[40] ^= 0x10,
                _ => {}
            }
            want.push(match corrupt {
                0 => Err(Error::InvalidRecoveryId(5)),
                1 => Err(Error::InvalidR),
                2 => asmcrypto::recover_address(&hash, &sig),
                _ => Ok(address_of_key(&key)),
            });
            inputs.push((hash, sig));
        }
        prop_assume!(!inputs.is_empty());
        let every = paths::every();
        check_paths(&every, &inputs, &want, "k256 signatures");
        let len = inputs.len();
        let eight: [Signed; 8] = core::array::from_fn(|i| inputs[i % len]);
        let want8: [Result<[u8; 20], Error>; 8] = core::array::from_fn(|i| want[i % len]);
        check_paths(&every, &eight, &want8, "k256 signatures, cycled to eight");
    }
}
