//! Property tests: the field (mod p) and scalar (mod n) arithmetic of the scalar core
//! against `num-bigint` and against the algebraic laws, and recovery of signatures made by
//! `k256` through every single-signature entry point (the batch paths' property test is in
//! `tests/batch_paths.rs`).
//!
//! The arithmetic types are reached through the hidden `asmcrypto::internals` module. Field
//! elements are drawn as any 256-bit value (the representation is "weakly reduced": every
//! value below 2²⁵⁶ is a valid input), with extra weight on values near 0, p and 2²⁵⁶.
//!
//! Cases: 1024 for each of the seven arithmetic properties and 256 single signatures (7,424
//! in all, about a second). `PROPTEST_CASES=N` runs N cases of every property instead. See
//! `doc/reliability.md`.

use asmcrypto::Error;
use asmcrypto::internals::{self, FieldElement as Fe, InversionSchedule as S, Scalar};
use asmcrypto_testkit::oracle::k256_signed;
use asmcrypto_testkit::{
    address_of_key, address_word, n, p, precompile_input, proptest_cases, to_be32, two_256,
};
use num_bigint::BigUint;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// Big-integer oracle
// ---------------------------------------------------------------------------------------

fn big(w: [u64; 4]) -> BigUint {
    let mut b = [0u8; 32];
    for (i, x) in w.iter().enumerate() {
        b[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&x.to_be_bytes());
    }
    BigUint::from_bytes_be(&b)
}

/// The value of a field element mod p.
fn fv(x: &Fe) -> BigUint {
    big(x.to_u64x4()) % p()
}

fn sv(x: &Scalar) -> BigUint {
    BigUint::from_bytes_be(&x.to_bytes())
}

/// `base + k` as 256-bit words (wrapping).
fn words_add(base: [u64; 4], k: u64) -> [u64; 4] {
    let mut out = base;
    let (r, mut carry) = out[0].overflowing_add(k);
    out[0] = r;
    for w in out.iter_mut().skip(1) {
        if !carry {
            break;
        }
        let (r, c) = w.overflowing_add(1);
        *w = r;
        carry = c;
    }
    out
}

/// `base − k` as 256-bit words (wrapping).
fn words_sub(base: [u64; 4], k: u64) -> [u64; 4] {
    let mut out = base;
    let (r, mut borrow) = out[0].overflowing_sub(k);
    out[0] = r;
    for w in out.iter_mut().skip(1) {
        if !borrow {
            break;
        }
        let (r, b) = w.overflowing_sub(1);
        *w = r;
        borrow = b;
    }
    out
}

const P_WORDS: [u64; 4] = [0xFFFF_FFFE_FFFF_FC2F, u64::MAX, u64::MAX, u64::MAX];
const N_WORDS: [u64; 4] = [
    0xBFD2_5E8C_D036_4141,
    0xBAAE_DCE6_AF48_A03B,
    0xFFFF_FFFF_FFFF_FFFE,
    0xFFFF_FFFF_FFFF_FFFF,
];

/// Any 256-bit value, with extra weight on 0.., p ± k, 2²⁵⁶ − k and sparse limbs.
fn words() -> impl Strategy<Value = [u64; 4]> {
    let limb = prop_oneof![
        Just(0u64),
        Just(1u64),
        Just(u64::MAX),
        Just(u64::MAX - 1),
        any::<u64>()
    ];
    prop_oneof![
        6 => any::<[u64; 4]>(),
        1 => (0u64..1000).prop_map(|k| [k, 0, 0, 0]),
        // p − 1000 ..= p + 999 (below 2²⁵⁶: p + k < 2²⁵⁶ for k < 2³² + 977).
        1 => (0u64..2000).prop_map(|k| words_add(words_sub(P_WORDS, 1000), k)),
        1 => (0u64..1000).prop_map(|k| words_sub([0; 4], k + 1)),
        1 => [limb.clone(), limb.clone(), limb.clone(), limb],
    ]
}

fn fe() -> impl Strategy<Value = Fe> {
    words().prop_map(Fe::from_u64x4)
}

/// 32 big-endian bytes with weight on 0, n ± k and 2²⁵⁶ − k.
fn scalar_bytes() -> impl Strategy<Value = [u8; 32]> {
    prop_oneof![
        6 => any::<[u8; 32]>(),
        1 => (0u64..1000).prop_map(|k| to_be32(&BigUint::from(k))),
        1 => (0u64..2000).prop_map(|k| to_be32(&(big(N_WORDS) + BigUint::from(k) - BigUint::from(1000u32)))),
        1 => (0u64..1000).prop_map(|k| to_be32(&(two_256() - BigUint::from(k + 1)))),
    ]
}

/// A scalar (reduced mod n).
fn scalar() -> impl Strategy<Value = Scalar> {
    scalar_bytes().prop_map(|b| Scalar::from_bytes_reduced(&b))
}

// ---------------------------------------------------------------------------------------
// Field
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(1024)))]

    /// Every operation agrees with big-integer arithmetic mod p, and the canonical forms
    /// (normalize, to_bytes, from_bytes) are what they should be.
    #[test]
    fn field_ops_match_bigint(a in fe(), b in fe(), k in any::<u64>(), sh in 1u32..=8) {
        let p = p();
        let (x, y) = (fv(&a), fv(&b));
        prop_assert_eq!(fv(&a.add(&b)), (&x + &y) % &p);
        prop_assert_eq!(fv(&a.sub(&b)), (&x + &p - &y) % &p);
        prop_assert_eq!(fv(&a.neg()), (&p - &x) % &p);
        prop_assert_eq!(fv(&a.mul(&b)), (&x * &y) % &p);
        prop_assert_eq!(fv(&a.sqr()), (&x * &x) % &p);
        prop_assert_eq!(fv(&a.mul_portable(&b)), (&x * &y) % &p);
        prop_assert_eq!(fv(&a.sqr_portable()), (&x * &x) % &p);
        prop_assert_eq!(fv(&a.mul_int(k)), (&x * BigUint::from(k)) % &p);
        prop_assert_eq!(fv(&a.shl(sh)), (&x << sh as usize) % &p);
        let n = a.normalize();
        prop_assert!(n.is_normalized());
        prop_assert_eq!(big(n.to_u64x4()), x.clone());
        prop_assert_eq!(a.to_bytes(), to_be32(&x));
        prop_assert_eq!(a.is_zero(), x == BigUint::from(0u32));
        prop_assert_eq!(a.is_odd(), x.bit(0));
        prop_assert_eq!(a.equals(&b), x == y);
        // from_bytes accepts exactly the values below p.
        let raw = to_be32(&big(a.to_u64x4()));
        let parsed = Fe::from_bytes(&raw);
        prop_assert_eq!(parsed.is_some(), big(a.to_u64x4()) < p);
        if let Some(f) = parsed {
            prop_assert_eq!(f.to_bytes(), raw);
        }
    }

    /// Commutativity, associativity, distributivity, negation and subtraction.
    #[test]
    fn field_laws(a in fe(), b in fe(), c in fe()) {
        prop_assert!(a.add(&b).equals(&b.add(&a)));
        prop_assert!(a.mul(&b).equals(&b.mul(&a)));
        prop_assert!(a.add(&b).add(&c).equals(&a.add(&b.add(&c))));
        prop_assert!(a.mul(&b).mul(&c).equals(&a.mul(&b.mul(&c))));
        prop_assert!(a.mul(&b.add(&c)).equals(&a.mul(&b).add(&a.mul(&c))));
        prop_assert!(a.sub(&b).equals(&a.add(&b.neg())));
        prop_assert!(a.neg().neg().equals(&a));
        prop_assert!(a.add(&a.neg()).is_zero());
        prop_assert!(a.sub(&a).is_zero());
        prop_assert!(a.mul(&Fe::ONE).equals(&a));
        prop_assert!(a.add(&Fe::ZERO).equals(&a));
        prop_assert!(a.mul(&Fe::ZERO).is_zero());
        prop_assert!(a.sqr().equals(&a.mul(&a)));
        prop_assert!(a.sqr().equals(&a.neg().sqr()));
        prop_assert!(a.mul_int(3).equals(&a.add(&a).add(&a)));
        prop_assert!(a.shl(1).equals(&a.add(&a)));
    }

    /// The inverse: a · a⁻¹ = 1, (a⁻¹)⁻¹ = a, a⁻¹ = a^(p−2), 0⁻¹ = 0.
    #[test]
    fn field_inverse(a in fe()) {
        let p = p();
        let x = fv(&a);
        let inv = a.inv();
        if x == BigUint::from(0u32) {
            prop_assert!(inv.is_zero());
        } else {
            prop_assert!(a.mul(&inv).equals(&Fe::ONE));
            prop_assert!(inv.inv().equals(&a));
            prop_assert_eq!(fv(&inv), x.modpow(&(&p - BigUint::from(2u32)), &p));
        }
    }

    /// Square roots: √(a²) = ±a; √a exists exactly when a is a quadratic residue (or 0);
    /// the side-by-side version gives the same answers; sqr_n is repeated squaring.
    #[test]
    fn field_sqrt(a in fe(), b in fe(), c in fe(), k in 0u32..40) {
        let p = p();
        let sq = a.sqr();
        let r = sq.sqrt();
        prop_assert!(r.is_some());
        let r = r.unwrap();
        prop_assert!(r.equals(&a) || r.equals(&a.neg()));
        prop_assert!(r.sqr().equals(&sq));
        // Euler's criterion.
        let x = fv(&b);
        let qr = x == BigUint::from(0u32)
            || x.modpow(&((&p - BigUint::from(1u32)) >> 1usize), &p) == BigUint::from(1u32);
        let rb = b.sqrt();
        prop_assert_eq!(rb.is_some(), qr);
        if let Some(rb) = rb {
            prop_assert!(rb.sqr().equals(&b));
        }
        let many = Fe::sqrt_many(&[a, b, c, sq]);
        let one = [a.sqrt(), rb, c.sqrt(), Some(r)];
        for (m, o) in many.iter().zip(&one) {
            prop_assert_eq!(m.is_some(), o.is_some());
            if let (Some(m), Some(o)) = (m, o) {
                prop_assert!(m.equals(o));
            }
        }
        let mut t = a;
        for _ in 0..k {
            t = t.sqr();
        }
        prop_assert!(a.sqr_n(k).equals(&t));
    }

    /// Batch inversion, every schedule, against one inversion at a time.
    #[test]
    fn field_batch_inverse(v in prop::collection::vec(fe(), 1..40)) {
        let v: Vec<Fe> = v.into_iter().filter(|x| !x.is_zero()).collect();
        for schedule in [S::SingleChain, S::TwoChains, S::FourChains, S::EightChains, S::Tree, S::Chosen] {
            let mut w: Vec<[u64; 4]> = v.iter().map(|x| x.to_u64x4()).collect();
            internals::batch_invert(schedule, &mut w);
            for (x, wi) in v.iter().zip(&w) {
                prop_assert!(
                    Fe::from_u64x4(*wi).equals(&x.inv()),
                    "schedule {:?}", schedule
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(1024)))]

    /// Parsing, reduction and every operation against big-integer arithmetic mod n.
    #[test]
    fn scalar_ops_match_bigint(
        ab in scalar_bytes(),
        bb in scalar_bytes(),
        shift in 256u32..512,
        offset in 0u32..256,
        count in 1u32..=32,
    ) {
        let n = n();
        let (xa, xb) = (BigUint::from_bytes_be(&ab), BigUint::from_bytes_be(&bb));
        let parsed = Scalar::from_bytes(&ab);
        prop_assert_eq!(parsed.is_some(), xa < n);
        if let Some(s) = parsed {
            prop_assert_eq!(s.to_bytes(), ab);
        }
        let a = Scalar::from_bytes_reduced(&ab);
        let b = Scalar::from_bytes_reduced(&bb);
        let (x, y) = (&xa % &n, &xb % &n);
        prop_assert_eq!(sv(&a), x.clone());
        prop_assert_eq!(sv(&a.add(&b)), (&x + &y) % &n);
        prop_assert_eq!(sv(&a.mul(&b)), (&x * &y) % &n);
        prop_assert_eq!(sv(&a.negate()), (&n - &x) % &n);
        prop_assert_eq!(a.is_zero(), x == BigUint::from(0u32));
        prop_assert_eq!(a.is_high(), x > (&n >> 1usize));
        prop_assert_eq!(u64::from(a.bit_len()), x.bits());
        // ⌊a·b / 2^shift⌉.
        let prod = &x * &y;
        let rounded = (&prod >> shift as usize) + u32::from(prod.bit(u64::from(shift) - 1));
        prop_assert_eq!(sv(&a.mul_shift(&b, shift)), rounded);
        // count bits from offset (bits past 255 read as 0).
        let offset = offset.min(256 + 32 - count);
        let bits = (&x >> offset as usize) % (BigUint::from(1u64) << count as usize);
        prop_assert_eq!(BigUint::from(a.bits(offset, count)), bits);
    }

    /// Commutativity, associativity, distributivity, negation and the inverse.
    #[test]
    fn scalar_laws(a in scalar(), b in scalar(), c in scalar()) {
        let n = n();
        prop_assert_eq!(a.add(&b), b.add(&a));
        prop_assert_eq!(a.mul(&b), b.mul(&a));
        prop_assert_eq!(a.add(&b).add(&c), a.add(&b.add(&c)));
        prop_assert_eq!(a.mul(&b).mul(&c), a.mul(&b.mul(&c)));
        prop_assert_eq!(a.mul(&b.add(&c)), a.mul(&b).add(&a.mul(&c)));
        prop_assert_eq!(a.negate().negate(), a);
        prop_assert!(a.add(&a.negate()).is_zero());
        prop_assert_eq!(a.mul(&Scalar::ONE), a);
        prop_assert_eq!(a.add(&Scalar::ZERO), a);
        prop_assert_eq!(a.mul(&b.negate()), a.mul(&b).negate());
        let inv = a.inv();
        if a.is_zero() {
            prop_assert!(inv.is_zero());
        } else {
            prop_assert_eq!(a.mul(&inv), Scalar::ONE);
            prop_assert_eq!(inv.inv(), a);
            prop_assert_eq!(sv(&inv), sv(&a).modpow(&(&n - BigUint::from(2u32)), &n));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Recovery of k256 signatures
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(256)))]

    /// One signature through every single-signature entry point (both v encodings, the
    /// precompile with exact, short-padded and over-long input) and an 8-lane batch.
    #[test]
    fn recovers_k256_signatures(
        secret in any::<[u8; 32]>(),
        hash in any::<[u8; 32]>(),
        high in any::<bool>(),
        v27 in any::<bool>(),
        extra in 0usize..64,
    ) {
        let signed = k256_signed(&secret, &hash, high, v27);
        prop_assume!(signed.is_some());
        let (hash, sig, key) = signed.unwrap();
        let addr = address_of_key(&key);
        let parity = sig[64] % 27;
        prop_assert_eq!(asmcrypto::recover_public_key(&hash, &sig), Ok(key));
        prop_assert_eq!(asmcrypto::recover_address(&hash, &sig), Ok(addr));
        let mut other = sig;
        other[64] = parity + if v27 { 0 } else { 27 };
        prop_assert_eq!(asmcrypto::recover_address(&hash, &other), Ok(addr));
        let sig64: [u8; 64] = sig[..64].try_into().unwrap();
        prop_assert_eq!(asmcrypto::ecrecover(&sig64, parity, &hash), Ok(address_word(&addr)));
        // The wrong parity recovers some other key, never this one.
        prop_assert_ne!(asmcrypto::ecrecover(&sig64, parity ^ 1, &hash), Ok(address_word(&addr)));
        let mut input = precompile_input(
            &hash,
            parity + 27,
            &sig[..32].try_into().unwrap(),
            &sig[32..64].try_into().unwrap(),
        )
        .to_vec();
        prop_assert_eq!(asmcrypto::ecrecover_precompile(&input), Some(address_word(&addr)));
        input.extend(std::iter::repeat_n(0xa5, extra));
        prop_assert_eq!(asmcrypto::ecrecover_precompile(&input), Some(address_word(&addr)));
        // v as a raw 0/1 is not a precompile v.
        input[63] = parity;
        prop_assert_eq!(asmcrypto::ecrecover_precompile(&input), None);
        let mut bad = sig;
        bad[64] = 2;
        prop_assert_eq!(asmcrypto::recover_address(&hash, &bad), Err(Error::InvalidRecoveryId(2)));
    }
}
