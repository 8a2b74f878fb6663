//! Differential tests: seeded random signatures (and random invalid-ish inputs) through every
//! public entry point of `asmcrypto`, compared byte for byte with `secp256k1` (libsecp256k1)
//! and `k256`, each recovering independently, and with Keccak-256 from `sha3`.

use asmcrypto::{Error, ecrecover, ecrecover_precompile, recover_address, recover_public_key};
use asmcrypto_testkit::*;
use num_bigint::BigUint;

/// A message hash: mostly random, sometimes 0, n, ≥ n or small.
fn random_hash(rng: &mut SplitMix64, classes: &mut [usize; 6]) -> [u8; 32] {
    let class = match rng.below(64) {
        0 => 0,
        1 => 1,
        2 => 2,
        3 => 3,
        4 => 4,
        _ => 5,
    };
    classes[class] += 1;
    match class {
        0 => [0u8; 32],
        1 => to_be32(&n()),
        2 => [0xff; 32],
        3 => {
            // Uniform in [n, 2²⁵⁶).
            let span = two_256() - n();
            to_be32(&(n() + from_be(&rng.bytes32()) % span))
        }
        4 => to_be32(&BigUint::from(rng.next_u64())),
        _ => rng.bytes32(),
    }
}

fn random_secret(rng: &mut SplitMix64) -> [u8; 32] {
    match rng.below(256) {
        0 => to_be32(&BigUint::from(1u32)),
        1 => to_be32(&(n() - BigUint::from(1u32))),
        2 => to_be32(&BigUint::from(rng.next_u64() | 1)),
        _ => rng.scalar(),
    }
}

/// Every entry point on a signature that must recover `key`, against both oracles.
fn check_valid(hash: &[u8; 32], r: &[u8; 32], s: &[u8; 32], recid: u8, key: &[u8; 64]) {
    let ctx = || {
        format!(
            "hash={} r={} s={} recid={recid}",
            hex::encode(hash),
            hex::encode(r),
            hex::encode(s)
        )
    };
    assert_eq!(
        secp_recover(hash, r, s, recid).as_ref(),
        Some(key),
        "secp256k1: {}",
        ctx()
    );
    assert_eq!(
        k256_recover(hash, r, s, recid).as_ref(),
        Some(key),
        "k256: {}",
        ctx()
    );
    let addr = address_of_key(key);
    let word = address_word(&addr);
    for v in [recid, recid + 27] {
        let sig = sig65(r, s, v);
        assert_eq!(
            recover_public_key(hash, &sig),
            Ok(*key),
            "recover_public_key v={v}: {}",
            ctx()
        );
        assert_eq!(
            recover_address(hash, &sig),
            Ok(addr),
            "recover_address v={v}: {}",
            ctx()
        );
    }
    assert_eq!(
        ecrecover(&sig64(r, s), recid, hash),
        Ok(word),
        "ecrecover: {}",
        ctx()
    );
    let input = precompile_input(hash, recid + 27, r, s);
    assert_eq!(
        ecrecover_precompile(&input),
        Some(word),
        "precompile: {}",
        ctx()
    );
}

/// `count` random keys and hashes, each signed by secp256k1; the low-s signature and its
/// high-s twin (n − s, flipped parity) must both recover the signer's key.
fn run_valid(seed: u64, count: usize) {
    let mut rng = SplitMix64(seed);
    let n = n();
    let half_n = &n >> 1usize;
    let mut hash_classes = [0usize; 6];
    let mut recids = [0usize; 2];
    for _ in 0..count {
        let secret = random_secret(&mut rng);
        let hash = random_hash(&mut rng, &mut hash_classes);
        let key = public_key_of(&secret);
        let (r, s, recid) = sign(&secret, &hash);
        assert!(recid <= 1, "secp256k1 produced recid {recid}");
        recids[usize::from(recid)] += 1;
        assert!(from_be(&s) <= half_n, "secp256k1 signs with low s");
        check_valid(&hash, &r, &s, recid, &key);

        let s_high = to_be32(&(&n - from_be(&s)));
        assert!(from_be(&s_high) > half_n);
        check_valid(&hash, &r, &s_high, recid ^ 1, &key);
    }
    assert_eq!(hash_classes.iter().sum::<usize>(), count);
    assert!(
        hash_classes.iter().all(|&c| c > 0),
        "hash classes {hash_classes:?}"
    );
    assert!(
        recids[0] > count / 3 && recids[1] > count / 3,
        "recids {recids:?}"
    );
}

// 4 × 2,500 = 10,000 signatures (20,000 with the high-s twins), split for parallelism.
#[test]
fn random_signatures_0() {
    run_valid(0x0123_4567_89ab_cdef, 2500);
}

#[test]
fn random_signatures_1() {
    run_valid(0xdead_beef_cafe_f00d, 2500);
}

#[test]
fn random_signatures_2() {
    run_valid(0x5eed_0000_0000_0002, 2500);
}

#[test]
fn random_signatures_3() {
    run_valid(0x5eed_0000_0000_0003, 2500);
}

/// An r (or x-coordinate candidate) drawn from classes that stress the range checks.
fn random_r(rng: &mut SplitMix64) -> [u8; 32] {
    let n = n();
    let p = p();
    let small = |k: u64| BigUint::from(k);
    match rng.below(16) {
        // Random 256-bit: almost always < n, about half of them x-coordinates.
        0..=3 => rng.bytes32(),
        4 | 5 => to_be32(&(from_be(&rng.bytes32()) % &n)),
        // Below p − n: recid 2 and 3 can succeed.
        6 | 7 => {
            let mut b = [0u8; 32];
            b[16..].copy_from_slice(&rng.bytes(16));
            b
        }
        8 => to_be32(&(&n - small(1 + rng.below(4)))),
        9 => to_be32(&(&n + small(rng.below(4)))),
        10 => to_be32(&small(rng.below(3))),
        // [n, p)
        11 => to_be32(&(&n + from_be(&rng.bytes32()) % (&p - &n))),
        // [p, 2²⁵⁶)
        12 => to_be32(&(&p + from_be(&rng.bytes32()) % (two_256() - &p))),
        13 => [0xff; 32],
        // Around p − n, the boundary of recid 2 and 3.
        14 => to_be32(&(&p - &n + small(rng.below(5)) - small(2))),
        // An x-coordinate below n that is not on the curve.
        _ => loop {
            let x = from_be(&rng.bytes32()) % &n;
            if !is_zero(&x) && !is_x_coordinate(&x) {
                break to_be32(&x);
            }
        },
    }
}

fn random_s(rng: &mut SplitMix64) -> [u8; 32] {
    let n = n();
    let small = |k: u64| BigUint::from(k);
    match rng.below(12) {
        0..=3 => rng.bytes32(),
        4 => to_be32(&(from_be(&rng.bytes32()) % &n)),
        5 => to_be32(&(&n - small(1 + rng.below(3)))),
        6 => to_be32(&(&n + small(rng.below(3)))),
        7 => to_be32(&small(rng.below(3))),
        8 => [0xff; 32],
        9 => to_be32(&((&n >> 1usize) + small(rng.below(2)))),
        10 => to_be32(&(&n + from_be(&rng.bytes32()) % (two_256() - &n))),
        _ => to_be32(&small(rng.next_u64())),
    }
}

fn random_v(rng: &mut SplitMix64) -> u8 {
    if rng.below(4) != 0 {
        [0, 1, 27, 28][rng.below(4) as usize]
    } else {
        rng.below(256) as u8
    }
}

fn random_recid(rng: &mut SplitMix64) -> u8 {
    if rng.below(8) != 0 {
        rng.below(4) as u8
    } else {
        rng.below(256) as u8
    }
}

#[derive(Default, Debug)]
struct Outcomes {
    ok: usize,
    invalid_recid: usize,
    invalid_r: usize,
    invalid_s: usize,
    not_on_curve: usize,
    recid23_ok: usize,
    recid23_err: usize,
}

impl Outcomes {
    fn add(&mut self, r: &Result<[u8; 64], Error>) {
        match r {
            Ok(_) => self.ok += 1,
            Err(Error::InvalidRecoveryId(_)) => self.invalid_recid += 1,
            Err(Error::InvalidR) => self.invalid_r += 1,
            Err(Error::InvalidS) => self.invalid_s += 1,
            Err(Error::NotOnCurve) => self.not_on_curve += 1,
            Err(_) => {}
        }
    }
}

/// Random invalid-ish inputs: asmcrypto must fail exactly when the oracles fail (with the
/// error the model predicts) and agree with them otherwise.
fn run_invalid(seed: u64, count: usize) {
    let mut rng = SplitMix64(seed);
    let mut out = Outcomes::default();
    let mut hash_classes = [0usize; 6];
    for i in 0..count {
        let hash = random_hash(&mut rng, &mut hash_classes);
        let (r, s) = if i % 8 == 7 {
            // A real signature with one bit flipped in r or s.
            let (mut r, mut s, _) = sign(&rng.scalar(), &hash);
            let bit = rng.below(512) as usize;
            let target = if bit < 256 { &mut r } else { &mut s };
            target[(bit % 256) / 8] ^= 1 << (bit % 8);
            (r, s)
        } else {
            (random_r(&mut rng), random_s(&mut rng))
        };

        let v = random_v(&mut rng);
        out.add(&check_all(&hash, &r, &s, v));

        let recid = random_recid(&mut rng);
        let expected = model_ecrecover(&hash, &r, &s, recid);
        assert_eq!(
            ecrecover(&sig64(&r, &s), recid, &hash),
            expected,
            "ecrecover: hash={} r={} s={} recid={recid}",
            hex::encode(hash),
            hex::encode(r),
            hex::encode(s)
        );
        if recid == 2 || recid == 3 {
            if expected.is_ok() {
                out.recid23_ok += 1;
            } else {
                out.recid23_err += 1;
            }
        }
    }
    // Every class of outcome was reached, so a silently degenerate generator fails.
    assert!(out.ok > count / 20, "{out:?}");
    assert!(out.invalid_recid > count / 20, "{out:?}");
    assert!(out.invalid_r > count / 20, "{out:?}");
    assert!(out.invalid_s > count / 20, "{out:?}");
    assert!(out.not_on_curve > count / 20, "{out:?}");
    assert!(out.recid23_ok > count / 100, "{out:?}");
    assert!(out.recid23_err > count / 100, "{out:?}");
}

#[test]
fn random_invalid_inputs_0() {
    run_invalid(0x1a2b_3c4d_5e6f_7081, 2000);
}

#[test]
fn random_invalid_inputs_1() {
    run_invalid(0x9988_7766_5544_3322, 2000);
}

/// Near-miss r values for recid 2 and 3: r + n just below and just above p, and random
/// r < p − n, against secp256k1 (which supports recid 2 and 3) and k256.
#[test]
fn recid_2_and_3() {
    let mut rng = SplitMix64(0x0023_0023_0023_0023);
    let n = n();
    let p = p();
    let mut ok = 0;
    for i in 0..600u64 {
        let r = if i < 40 {
            to_be32(&(&p - &n + BigUint::from(i % 20) - BigUint::from(10u32)))
        } else {
            let mut b = [0u8; 32];
            b[16..].copy_from_slice(&rng.bytes(16));
            b
        };
        let s = rng.scalar();
        let hash = rng.bytes32();
        for recid in 0..=3u8 {
            let expected = model_ecrecover(&hash, &r, &s, recid);
            ok += usize::from(expected.is_ok() && recid >= 2);
            assert_eq!(
                ecrecover(&sig64(&r, &s), recid, &hash),
                expected,
                "hash={} r={} s={} recid={recid}",
                hex::encode(hash),
                hex::encode(r),
                hex::encode(s)
            );
        }
    }
    assert!(ok > 300, "only {ok} successful recid 2/3 recoveries");
}
