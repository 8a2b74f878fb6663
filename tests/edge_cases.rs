//! Edge cases of recovery: range limits of r and s, r that is not an x-coordinate, message
//! hashes 0 and ≥ n, keys at infinity, every v and every recid, recid 2 and 3, precompile
//! inputs of every length, malformed v words, the error type, and random bytes.

use asmcrypto::{
    Error, ecrecover, ecrecover_precompile, keccak256, recover_address, recover_public_key,
};
use asmcrypto_testkit::*;
use num_bigint::BigUint;

fn big(k: u64) -> BigUint {
    BigUint::from(k)
}

/// A real signature by a random key: (hash, r, s, recid, key).
fn real_signature(rng: &mut SplitMix64) -> ([u8; 32], [u8; 32], [u8; 32], u8, [u8; 64]) {
    let secret = rng.scalar();
    let hash = rng.bytes32();
    let (r, s, recid) = sign(&secret, &hash);
    (hash, r, s, recid, public_key_of(&secret))
}

fn ctx(hash: &[u8; 32], r: &[u8; 32], s: &[u8; 32]) -> String {
    format!(
        "hash={} r={} s={}",
        hex::encode(hash),
        hex::encode(r),
        hex::encode(s)
    )
}

/// Asserts that every entry point fails with `err` (and the oracles fail) for every
/// accepted v and for recid 0 and 1.
fn assert_fails(hash: &[u8; 32], r: &[u8; 32], s: &[u8; 32], err: Error) {
    for v in [0u8, 1, 27, 28] {
        let sig = sig65(r, s, v);
        assert_eq!(
            recover_public_key(hash, &sig),
            Err(err),
            "v={v} {}",
            ctx(hash, r, s)
        );
        assert_eq!(
            recover_address(hash, &sig),
            Err(err),
            "v={v} {}",
            ctx(hash, r, s)
        );
        assert_eq!(
            model_v(hash, r, s, v),
            Err(err),
            "model v={v} {}",
            ctx(hash, r, s)
        );
    }
    for recid in 0..=1u8 {
        assert_eq!(
            ecrecover(&sig64(r, s), recid, hash),
            Err(err),
            "recid={recid} {}",
            ctx(hash, r, s)
        );
        assert_eq!(
            secp_recover(hash, r, s, recid),
            None,
            "secp256k1 {}",
            ctx(hash, r, s)
        );
        assert_eq!(
            k256_recover(hash, r, s, recid),
            None,
            "k256 {}",
            ctx(hash, r, s)
        );
        let input = precompile_input(hash, recid + 27, r, s);
        assert_eq!(
            ecrecover_precompile(&input),
            None,
            "precompile {}",
            ctx(hash, r, s)
        );
    }
}

#[test]
fn r_and_s_range_limits() {
    let mut rng = SplitMix64(1);
    let n = n();
    let p = p();
    let (hash, r_ok, s_ok, _, _) = real_signature(&mut rng);
    for bad in asmcrypto_testkit::edge::out_of_range() {
        assert_fails(&hash, &bad, &s_ok, Error::InvalidR);
        assert_fails(&hash, &r_ok, &bad, Error::InvalidS);
        // r is checked before s.
        assert_fails(&hash, &bad, &bad, Error::InvalidR);
    }
    // r ∈ [n, p) that is an x-coordinate (so only the range check rejects it).
    let mut x = n.clone();
    while !is_x_coordinate(&x) {
        x += big(1);
    }
    assert!(x < p);
    assert_fails(&hash, &to_be32(&x), &s_ok, Error::InvalidR);

    // The largest and smallest in-range values, against the model (and so the oracles).
    let in_range = asmcrypto_testkit::edge::in_range_extremes();
    let mut seen_ok = 0;
    for a in &in_range {
        for b in &in_range {
            let (r, s) = (*a, *b);
            for v in [0u8, 1, 27, 28] {
                seen_ok += usize::from(check_all(&hash, &r, &s, v).is_ok());
            }
            for recid in 0..=3u8 {
                assert_eq!(
                    ecrecover(&sig64(&r, &s), recid, &hash),
                    model_ecrecover(&hash, &r, &s, recid),
                    "recid={recid} {}",
                    ctx(&hash, &r, &s)
                );
            }
        }
        // Extreme s with the real r, extreme r with the real s.
        for v in [0u8, 1, 27, 28] {
            let with_s = check_all(&hash, &r_ok, a, v);
            seen_ok += usize::from(with_s.is_ok());
            let _ = check_all(&hash, a, &s_ok, v);
        }
    }
    assert!(seen_ok > 0);
}

#[test]
fn check_order() {
    let z = [0u8; 32];
    // v first, then r, then s.
    for v in [2u8, 26, 29, 255] {
        assert_eq!(
            recover_public_key(&z, &sig65(&z, &z, v)),
            Err(Error::InvalidRecoveryId(v))
        );
        assert_eq!(
            recover_address(&z, &sig65(&z, &z, v)),
            Err(Error::InvalidRecoveryId(v))
        );
    }
    assert_eq!(
        recover_public_key(&z, &sig65(&z, &z, 27)),
        Err(Error::InvalidR)
    );
    for recid in 4..=255u8 {
        assert_eq!(
            ecrecover(&[0u8; 64], recid, &z),
            Err(Error::InvalidRecoveryId(recid))
        );
    }
    assert_eq!(ecrecover(&[0u8; 64], 0, &z), Err(Error::InvalidR));
    // s is range-checked before r is looked up on the curve.
    let not_x = (1u64..).map(big).find(|x| !is_x_coordinate(x)).unwrap();
    let r = to_be32(&not_x);
    assert_eq!(
        recover_public_key(&z, &sig65(&r, &z, 0)),
        Err(Error::InvalidS)
    );
    assert_eq!(ecrecover(&sig64(&r, &z), 0, &z), Err(Error::InvalidS));
    let s = to_be32(&big(1));
    assert_eq!(
        recover_public_key(&z, &sig65(&r, &s, 0)),
        Err(Error::NotOnCurve)
    );
}

#[test]
fn r_not_an_x_coordinate() {
    let mut rng = SplitMix64(2);
    let n = n();
    // Sanity of the residue test: G's x is an x-coordinate, and recovery with it works.
    let gx = hex32("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");
    assert!(is_x_coordinate(&from_be(&gx)));
    let mut non_residues = Vec::new();
    let mut residues = 0;
    let mut x = big(1);
    while non_residues.len() < 20 {
        if is_x_coordinate(&x) {
            residues += 1;
        } else {
            non_residues.push(x.clone());
        }
        x += big(1);
    }
    assert!(residues > 0);
    // Some large ones too, just below n.
    let mut x = &n - big(1);
    while non_residues.len() < 30 {
        if !is_x_coordinate(&x) {
            non_residues.push(x.clone());
        }
        x -= big(1);
    }
    for x in &non_residues {
        let r = to_be32(x);
        let s = rng.scalar();
        let hash = rng.bytes32();
        assert_fails(&hash, &r, &s, Error::NotOnCurve);
        // recid 2/3 look at x + n instead (not below p for the large ones).
        for recid in 2..=3u8 {
            assert_eq!(
                ecrecover(&sig64(&r, &s), recid, &hash),
                model_ecrecover(&hash, &r, &s, recid),
                "recid={recid} {}",
                ctx(&hash, &r, &s)
            );
        }
    }
    // And recovery with r = Gx succeeds where the oracles do.
    let s = rng.scalar();
    let hash = rng.bytes32();
    for v in [0u8, 1] {
        assert!(check_all(&hash, &gx, &s, v).is_ok());
    }
}

#[test]
fn hash_zero_and_above_n() {
    let mut rng = SplitMix64(3);
    let n = n();
    let zero = [0u8; 32];
    // Signatures over hash 0 and over hash n (which libsecp256k1 reduces to 0).
    for hash in [zero, to_be32(&n)] {
        for _ in 0..8 {
            let secret = rng.scalar();
            let key = public_key_of(&secret);
            let (r, s, recid) = sign(&secret, &hash);
            assert_eq!(check_all(&hash, &r, &s, recid), Ok(key));
            assert_eq!(check_all(&hash, &r, &s, recid + 27), Ok(key));
            // hash and hash ± n recover the same key.
            let other = if hash == zero { to_be32(&n) } else { zero };
            assert_eq!(recover_public_key(&other, &sig65(&r, &s, recid)), Ok(key));
            assert_eq!(
                ecrecover(&sig64(&r, &s), recid, &other),
                Ok(address_word(&address_of_key(&key)))
            );
        }
    }
    // m and m + n for several m, with random signatures.
    let limit = two_256() - &n;
    for i in 0..64u64 {
        let m = match i {
            0 => big(0),
            1 => big(1),
            2 => &limit - big(1),
            _ => from_be(&rng.bytes32()) % &limit,
        };
        let low = to_be32(&m);
        let high = to_be32(&(&m + &n));
        let (_, r, s, recid, _) = real_signature(&mut rng);
        for v in [recid, recid ^ 1, recid + 27] {
            let a = check_all(&low, &r, &s, v);
            let b = check_all(&high, &r, &s, v);
            assert_eq!(a, b, "m={m} v={v}");
            assert!(a.is_ok());
        }
        for recid in 0..=3u8 {
            assert_eq!(
                ecrecover(&sig64(&r, &s), recid, &low),
                ecrecover(&sig64(&r, &s), recid, &high)
            );
            assert_eq!(
                ecrecover(&sig64(&r, &s), recid, &high),
                model_ecrecover(&high, &r, &s, recid)
            );
        }
    }
    // 2²⁵⁶ − 1 behaves like 2²⁵⁶ − 1 − n.
    let (_, r, s, recid, _) = real_signature(&mut rng);
    let a = recover_public_key(&[0xff; 32], &sig65(&r, &s, recid));
    let b = recover_public_key(&to_be32(&(two_256() - big(1) - &n)), &sig65(&r, &s, recid));
    assert_eq!(a, b);
    assert_eq!(a, model_v(&[0xff; 32], &r, &s, recid));
}

/// s·R − m·G = O when R = k·G and m ≡ s·k (mod n).
#[test]
fn point_at_infinity() {
    let mut rng = SplitMix64(4);
    let n = n();
    let mut cases = 0;
    for i in 0..40u64 {
        let k = match i {
            0 => big(1),
            1 => &n - big(1),
            2 => big(2),
            _ => from_be(&rng.scalar()),
        };
        let big_r = public_key_of(&to_be32(&k));
        let x = from_be(&big_r[..32]);
        if x >= n {
            continue; // probability ~2⁻¹²⁸
        }
        let r = to_be32(&x);
        let recid = big_r[63] & 1;
        let s_val = if i % 5 == 0 {
            big(1)
        } else {
            from_be(&rng.scalar())
        };
        let s = to_be32(&s_val);
        let m = (&s_val * &k) % &n;
        let hash = to_be32(&m);
        cases += 1;

        for v in [recid, recid + 27] {
            let sig = sig65(&r, &s, v);
            assert_eq!(
                recover_public_key(&hash, &sig),
                Err(Error::PointAtInfinity),
                "k={k} s={s_val}"
            );
            assert_eq!(
                recover_address(&hash, &sig),
                Err(Error::PointAtInfinity),
                "k={k} s={s_val}"
            );
            assert_eq!(model_v(&hash, &r, &s, v), Err(Error::PointAtInfinity));
        }
        assert_eq!(
            ecrecover(&sig64(&r, &s), recid, &hash),
            Err(Error::PointAtInfinity)
        );
        assert_eq!(
            secp_recover(&hash, &r, &s, recid),
            None,
            "secp256k1 must fail too"
        );
        assert_eq!(
            k256_recover(&hash, &r, &s, recid),
            None,
            "k256 must fail too"
        );
        assert_eq!(
            ecrecover_precompile(&precompile_input(&hash, recid + 27, &r, &s)),
            None
        );

        // The same with hash = m + n, when it fits.
        let m_plus_n = &m + &n;
        if m_plus_n < two_256() {
            let hash2 = to_be32(&m_plus_n);
            let sig = sig65(&r, &s, recid);
            assert_eq!(
                recover_public_key(&hash2, &sig),
                Err(Error::PointAtInfinity)
            );
            assert_eq!(
                ecrecover(&sig64(&r, &s), recid, &hash2),
                Err(Error::PointAtInfinity)
            );
        }

        // The other parity (R negated) and a neighbouring hash recover real keys.
        assert!(check_all(&hash, &r, &s, (recid ^ 1) + 27).is_ok());
        let hash3 = to_be32(&((&m + big(1)) % &n));
        assert!(check_all(&hash3, &r, &s, recid).is_ok());
    }
    assert!(cases >= 40);
}

#[test]
fn every_v() {
    let mut rng = SplitMix64(5);
    for _ in 0..4 {
        let (hash, r, s, recid, key) = real_signature(&mut rng);
        let other = secp_recover(&hash, &r, &s, recid ^ 1).expect("the other parity recovers");
        assert_ne!(other, key);
        for v in 0..=255u8 {
            let sig = sig65(&r, &s, v);
            let expected = match v {
                0 | 27 if recid == 0 => Ok(key),
                1 | 28 if recid == 1 => Ok(key),
                0 | 1 | 27 | 28 => Ok(other),
                _ => Err(Error::InvalidRecoveryId(v)),
            };
            assert_eq!(recover_public_key(&hash, &sig), expected, "v={v}");
            assert_eq!(
                recover_address(&hash, &sig),
                expected.map(|k| address_of_key(&k)),
                "v={v}"
            );
            assert_eq!(check_all(&hash, &r, &s, v), expected, "v={v}");
            let word = ecrecover_precompile(&precompile_input(&hash, v, &r, &s));
            if v == 27 || v == 28 {
                assert_eq!(
                    word,
                    expected.ok().map(|k| address_word(&address_of_key(&k))),
                    "v={v}"
                );
            } else {
                assert_eq!(word, None, "v={v}");
            }
        }
    }
}

#[test]
fn ecrecover_every_recid() {
    let mut rng = SplitMix64(6);
    for _ in 0..4 {
        let (hash, r, s, recid, key) = real_signature(&mut rng);
        let sig = sig64(&r, &s);
        for id in 0..=255u8 {
            let got = ecrecover(&sig, id, &hash);
            if id > 3 {
                assert_eq!(got, Err(Error::InvalidRecoveryId(id)));
            } else {
                assert_eq!(got, model_ecrecover(&hash, &r, &s, id), "recid={id}");
                if id == recid {
                    assert_eq!(got, Ok(address_word(&address_of_key(&key))));
                }
            }
        }
    }
}

/// recid 2 and 3: R's x is r + n, which needs r < p − n. Pick curve points with x ∈ [n, p).
#[test]
fn recid_2_and_3_constructed() {
    let mut rng = SplitMix64(7);
    let n = n();
    let p = p();
    let mut found = 0;
    let mut t = big(1);
    while found < 12 {
        let x = &n + &t;
        assert!(x < p);
        if is_x_coordinate(&x) {
            found += 1;
            let r = to_be32(&t);
            for _ in 0..3 {
                let s = rng.scalar();
                let hash = rng.bytes32();
                let mut keys = Vec::new();
                for recid in 2..=3u8 {
                    let key =
                        secp_recover(&hash, &r, &s, recid).expect("secp256k1 recovers recid 2/3");
                    assert_eq!(
                        k256_recover(&hash, &r, &s, recid),
                        Some(key),
                        "k256 recid={recid}"
                    );
                    let word = address_word(&address_of_key(&key));
                    assert_eq!(
                        ecrecover(&sig64(&r, &s), recid, &hash),
                        Ok(word),
                        "recid={recid} t={t}"
                    );
                    assert_eq!(model_ecrecover(&hash, &r, &s, recid), Ok(word));

                    // Independent check: the signature verifies under the recovered key, with
                    // libsecp256k1's verifier (which accepts x(R) = r + n).
                    let mut pk = [4u8; 65];
                    pk[1..].copy_from_slice(&key);
                    let pk = secp256k1::PublicKey::from_byte_array_uncompressed(pk).unwrap();
                    let mut sig =
                        secp256k1::ecdsa::Signature::from_compact(&sig64(&r, &s)).unwrap();
                    sig.normalize_s();
                    sig.verify(secp256k1::Message::from_digest(hash), &pk)
                        .expect("recovered key verifies");
                    keys.push(key);

                    // recover_* take only the y parity: v = 2 and 3 are not recovery ids there.
                    assert_eq!(
                        recover_public_key(&hash, &sig65(&r, &s, recid)),
                        Err(Error::InvalidRecoveryId(recid))
                    );
                }
                assert_ne!(keys[0], keys[1]);
                // And recid 0/1 use x = t itself.
                for recid in 0..=1u8 {
                    assert_eq!(
                        ecrecover(&sig64(&r, &s), recid, &hash),
                        model_ecrecover(&hash, &r, &s, recid)
                    );
                }
            }
        }
        t += big(1);
    }
    // The boundary: x = r + n reaches p.
    let s = rng.scalar();
    let hash = rng.bytes32();
    for d in 0..=3u64 {
        let r = to_be32(&(&p - &n + big(d)));
        for recid in 2..=3u8 {
            assert_eq!(
                ecrecover(&sig64(&r, &s), recid, &hash),
                Err(Error::NotOnCurve),
                "d={d}"
            );
            assert_eq!(secp_recover(&hash, &r, &s, recid), None);
            assert_eq!(k256_recover(&hash, &r, &s, recid), None);
        }
    }
    for d in 1..=40u64 {
        let r = to_be32(&(&p - &n - big(d)));
        for recid in 2..=3u8 {
            assert_eq!(
                ecrecover(&sig64(&r, &s), recid, &hash),
                model_ecrecover(&hash, &r, &s, recid),
                "d={d}"
            );
        }
    }
}

/// The reference for the precompile, built from asmcrypto's other entry points.
fn precompile_via_recover(input: &[u8]) -> Option<[u8; 32]> {
    let PrecompileInput { hash, v, r, s } = PrecompileInput::parse(input);
    let v = v?;
    let a = recover_address(&hash, &sig65(&r, &s, v))
        .ok()
        .map(|a| address_word(&a));
    let b = ecrecover(&sig64(&r, &s), v - 27, &hash).ok();
    assert_eq!(a, b);
    a
}

#[test]
fn precompile_every_length() {
    let mut rng = SplitMix64(8);
    let mut inputs = Vec::new();
    for _ in 0..3 {
        let (hash, r, s, recid, _) = real_signature(&mut rng);
        let mut valid = precompile_input(&hash, recid + 27, &r, &s).to_vec();
        valid.extend_from_slice(&rng.bytes(32));
        inputs.push(valid);
    }
    // Random bytes with a well-formed v word, and plain random bytes.
    for i in 0..3 {
        let mut b = rng.bytes(160);
        b[32..63].fill(0);
        b[63] = 27 + (i & 1);
        inputs.push(b);
        inputs.push(rng.bytes(160));
    }
    // Small s so that short prefixes still end in a valid s.
    let (hash, r, _, _, _) = real_signature(&mut rng);
    let mut s = [0u8; 32];
    s[0] = 1;
    inputs.push(precompile_input(&hash, 28, &r, &s).to_vec());

    let mut some = 0;
    for full in &inputs {
        for len in 0..=full.len() {
            let input = &full[..len];
            let expected = model_precompile(input);
            assert_eq!(
                ecrecover_precompile(input),
                expected,
                "len={len} input={}",
                hex::encode(input)
            );
            assert_eq!(precompile_via_recover(input), expected, "len={len}");
            if len < 64 {
                assert_eq!(expected, None);
            }
            some += usize::from(expected.is_some());
        }
        // Long inputs: everything past 128 bytes is ignored.
        let mut long = full.clone();
        long.resize(128, 0);
        let expected = model_precompile(&long);
        for extra in [1usize, 31, 100, 1000] {
            let mut l = long.clone();
            l.extend(rng.bytes(extra));
            assert_eq!(ecrecover_precompile(&l), expected);
        }
    }
    assert!(some > 200, "only {some} successful prefixes");
}

#[test]
fn precompile_v_word() {
    let mut rng = SplitMix64(9);
    let (hash, r, s, recid, key) = real_signature(&mut rng);
    let good = precompile_input(&hash, recid + 27, &r, &s);
    let word = address_word(&address_of_key(&key));
    assert_eq!(ecrecover_precompile(&good), Some(word));
    // Any non-zero byte in the high 31 bytes of the v word: empty output.
    for i in 32..63 {
        for b in [1u8, 0x80, 0xff] {
            let mut input = good;
            input[i] = b;
            assert_eq!(ecrecover_precompile(&input), None, "byte {i} = {b:#x}");
            assert_eq!(model_precompile(&input), None);
        }
    }
    // 0x...01_1b and 0x...01_1c: 27 + 256, 28 + 256.
    for low in [27u8, 28] {
        let mut input = good;
        input[62] = 1;
        input[63] = low;
        assert_eq!(ecrecover_precompile(&input), None);
    }
    // v = 0 and 1 are accepted by recover_* but not by the precompile.
    for v in 0..=255u8 {
        let mut input = good;
        input[63] = v;
        let expected = match v {
            27 | 28 => model(&hash, &r, &s, v - 27)
                .ok()
                .map(|k| address_word(&address_of_key(&k))),
            _ => None,
        };
        assert_eq!(ecrecover_precompile(&input), expected, "v={v}");
    }
}

#[test]
fn error_type() {
    fn is_std_error<E: std::error::Error + Send + Sync + 'static>() {}
    is_std_error::<Error>();
    let errors = [
        Error::InvalidRecoveryId(0),
        Error::InvalidRecoveryId(4),
        Error::InvalidRecoveryId(255),
        Error::InvalidR,
        Error::InvalidS,
        Error::NotOnCurve,
        Error::PointAtInfinity,
    ];
    let messages: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    for (e, m) in errors.iter().zip(&messages) {
        assert!(!m.trim().is_empty(), "{e:?} has an empty Display");
        let boxed: Box<dyn std::error::Error> = Box::new(*e);
        assert_eq!(&boxed.to_string(), m);
    }
    // The kinds are told apart by their messages.
    let kinds = &messages[2..];
    for i in 0..kinds.len() {
        for j in i + 1..kinds.len() {
            assert_ne!(kinds[i], kinds[j]);
        }
    }
}

#[test]
fn keccak_published_values() {
    // Keccak-256 of the empty string and of "abc" (original Keccak padding, not SHA3-256).
    assert_eq!(
        keccak256(b""),
        hex32("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
    );
    assert_eq!(
        keccak256(b"abc"),
        hex32("4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45")
    );
    // The address of the secret key 1 (G itself).
    let g = public_key_of(&to_be32(&big(1)));
    assert_eq!(
        hex::encode(&keccak256(&g)[12..]),
        "7e5f4552091a69125d5dfcb7b8c2659029395bdf"
    );
}

/// Random bytes everywhere: nothing panics, and every result matches the model.
#[test]
fn random_bytes_never_panic() {
    let mut rng = SplitMix64(10);
    for i in 0..3000u32 {
        let hash = rng.bytes32();
        let raw = rng.bytes(65);
        let sig: [u8; 65] = raw.try_into().unwrap();
        let r: [u8; 32] = sig[..32].try_into().unwrap();
        let s: [u8; 32] = sig[32..64].try_into().unwrap();
        let v = if i % 2 == 0 {
            sig[64]
        } else {
            [0, 1, 27, 28][(i as usize / 2) % 4]
        };
        let mut sig = sig;
        sig[64] = v;
        let expected = model_v(&hash, &r, &s, v);
        assert_eq!(
            recover_public_key(&hash, &sig),
            expected,
            "{}",
            ctx(&hash, &r, &s)
        );
        assert_eq!(
            recover_address(&hash, &sig),
            expected.map(|k| address_of_key(&k))
        );
        let recid = rng.below(256) as u8;
        let recid = if i % 3 == 0 { recid } else { recid & 3 };
        assert_eq!(
            ecrecover(&sig64(&r, &s), recid, &hash),
            model_ecrecover(&hash, &r, &s, recid)
        );
        let len = rng.below(300) as usize;
        let input = rng.bytes(len);
        assert_eq!(ecrecover_precompile(&input), model_precompile(&input));
        let _ = keccak256(&input);
    }
}
