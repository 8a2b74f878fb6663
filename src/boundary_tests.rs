//! Unit tests at the edges of the recodings and of the scalar core's field, on the values
//! of `asmcrypto_testkit::boundary` (num-bigint, independent of this crate): the GLV split
//! (`secp256k1::glv`) at its rounding ties and corners, the joint Eisenstein recoding
//! (`secp256k1::eisenstein`) at its largest top digits, the signed odd windows of the
//! lockstep paths (`secp256k1::recode`), the 8-lane schedule (`lanes::schedule`) on the
//! same scalars, and the field multiply's fused forms on long bit runs. The signatures
//! built from these scalars run through every public path in `tests/boundary.rs`.

use crate::lanes::LANES;
use crate::lanes::portable::Portable as LanePortable;
use crate::lanes::schedule::Schedule;
use crate::secp256k1::eisenstein::{self, COLUMNS, W, digit_value};
use crate::secp256k1::glv::{self, Half};
use crate::secp256k1::recode::recode_g;
use crate::secp256k1::scalar::Scalar;
use asmcrypto_testkit::boundary as bd;
use asmcrypto_testkit::{SplitMix64, from_be, n, to_be32};
use num_bigint::{BigInt, BigUint, Sign};

fn sc(v: &BigUint) -> Scalar {
    Scalar::from_bytes(&to_be32(v)).expect("below n")
}

fn signed((m, neg): Half) -> BigInt {
    let v = BigInt::from(m);
    if neg { -v } else { v }
}

/// Every boundary u₂ of the testkit (with 64 each near a corner and on an edge), and the
/// joint recoding's extremes.
fn u2_scalars() -> Vec<(String, Scalar)> {
    let mut v: Vec<(String, Scalar)> = bd::u2_values(0x6c5, 64)
        .iter()
        .map(|(w, u)| (w.clone(), sc(u)))
        .collect();
    v.extend(
        bd::eisenstein_extremes()
            .iter()
            .map(|(u, norm)| (format!("Eisenstein extreme, top norm {norm}"), sc(u))),
    );
    v
}

/// The library's halves recombine to u and are short; where they differ from the exactly
/// rounded split (a rounding within 2⁻¹²⁹ of a tie), the two differ by a lattice vector.
#[test]
fn glv_split_at_the_boundaries() {
    let n = BigInt::from_biguint(Sign::Plus, n());
    let lam = bd::lambda();
    let bound = BigInt::from(1) << 128u32;
    let mut differ = 0;
    for (what, u) in u2_scalars() {
        let (h1, h2) = glv::split_lambda_halves(&u).unwrap_or_else(|| panic!("{what}"));
        let (k1, k2) = (signed(h1), signed(h2));
        let ub = BigInt::from_bytes_be(Sign::Plus, &u.to_bytes());
        assert_eq!(((&k1 + &k2 * &lam - &ub) % &n), BigInt::from(0), "{what}");
        assert!(k1.magnitude() < bound.magnitude() && k2.magnitude() < bound.magnitude());
        let (e1, e2) = bd::split(&from_be(&u.to_bytes()));
        if (&e1, &e2) != (&k1, &k2) {
            differ += 1;
            let (d1, d2) = (&k1 - &e1, &k2 - &e2);
            assert_eq!((&d1 + &d2 * &lam) % &n, BigInt::from(0), "{what}");
        }
        // The mod-n form agrees.
        let (s1, s2) = glv::split_lambda(&u);
        let from = |s: Scalar| BigInt::from_bytes_be(Sign::Plus, &s.to_bytes());
        assert_eq!(
            (from(s1) + from(s2) * &lam - &ub) % &n,
            BigInt::from(0),
            "{what}"
        );
    }
    // Ties go either way; most scalars split exactly as the exact rounding does.
    eprintln!("{differ} boundary scalars split otherwise than by exact rounding");
    assert!(
        differ < 200,
        "{differ} splits differ from the exact rounding"
    );
}

/// The joint recoding rebuilds k₁ + k₂·ω digit by digit, and its top digit stays a table
/// digit (norm ≤ 16) on every boundary scalar, the constructed extremes included.
#[test]
fn eisenstein_recoding_at_the_boundaries() {
    let norm = |(a, b): (i128, i128)| a * a - a * b + b * b;
    let mut largest = 0;
    for (what, u) in u2_scalars() {
        let (h1, h2) = glv::split_lambda_halves(&u).expect("short halves");
        let digits = eisenstein::recode(h1, h2).unwrap_or_else(|| panic!("{what}"));
        let (mut a, mut b) = (BigInt::from(0), BigInt::from(0));
        for d in digits.iter().rev() {
            let (da, db) = digit_value(*d);
            a = (a << W) + BigInt::from(da);
            b = (b << W) + BigInt::from(db);
        }
        assert_eq!((a, b), (signed(h1), signed(h2)), "{what}");
        let top = norm(digit_value(digits[COLUMNS - 1]));
        assert!(top <= 16, "{what}: top digit of norm {top}");
        largest = largest.max(top);
    }
    eprintln!("largest top digit: norm {largest}");
    assert!(largest >= 13, "largest top digit norm {largest}");
}

/// The 8-lane schedule on the boundary scalars, eight at a time: no lane retried, and
/// every column of every lane what the scalar recodings give (the joint digit's sign,
/// liveness and table offsets; the G digits and the lanes negated).
#[test]
fn lanes_schedule_at_the_boundaries() {
    let u2s: Vec<Scalar> = u2_scalars().into_iter().map(|(_, u)| u).collect();
    let u1s: Vec<Scalar> = bd::u1_values().iter().map(|(_, u)| sc(u)).collect();
    // Word offset of coordinate c of table entry e, lane 0 (`LaneTable`'s layout).
    let offset = |e: u8, c: u8| ((e as usize * 5 + c as usize) * 5 * LANES) as u64;
    for (start, group) in u2s.chunks(LANES).enumerate() {
        let u2: [Scalar; LANES] = core::array::from_fn(|i| group[i % group.len()]);
        let u1: [Scalar; LANES] = core::array::from_fn(|i| u1s[(start * LANES + i) % u1s.len()]);
        let s = Schedule::new::<crate::lanes::field::Fe8<LanePortable>>(&u1, &u2);
        assert_eq!(s.retry, 0, "group {start}");
        for lane in 0..LANES {
            // Where u₁ is even, the lane runs −u₁ and −u₂ (and negates the result).
            let (g, flip) = recode_g(&u1[lane]).expect("fits");
            assert_eq!(s.flip >> lane & 1 == 1, flip);
            let u2 = if flip { u2[lane].negate() } else { u2[lane] };
            let (h1, h2) = glv::split_lambda_halves(&u2).expect("short");
            let want = eisenstein::recode(h1, h2).expect("digit");
            for (col, d) in want.iter().enumerate() {
                let bit = |m: u8| m >> lane & 1 == 1;
                assert_eq!(
                    bit(s.r_live[col]),
                    d.is_some(),
                    "group {start} lane {lane} col {col}"
                );
                if let Some(d) = d {
                    assert_eq!(s.r_x[col][lane], offset(d.entry, d.rot) + lane as u64);
                    // −y (coordinate 4) where the digit is negative.
                    let y = 3 + u8::from(d.neg);
                    assert_eq!(s.r_y[col][lane], offset(d.entry, y) + lane as u64);
                }
            }
            for (h, half) in g.iter().enumerate() {
                for (col, &d) in half.iter().enumerate() {
                    assert_eq!(s.g_idx[h][col][lane], (d.unsigned_abs() >> 1) as u64);
                    assert_eq!(s.g_neg[h][col] >> lane & 1 == 1, d < 0);
                }
            }
        }
    }
}

/// The scalar core's field multiply in every form (portable; the MULX/ADX assembly and its
/// fused forms K·a·b, K·a², a·b − c, a² − c, a^(2^k) where the CPU has BMI2/ADX) on long
/// runs of ones and zeros and on the limb extremes, against num-bigint mod p.
#[test]
fn field_multiplies_on_long_bit_runs() {
    use crate::secp256k1::field::{FieldElement as Fe, FieldMul, Portable};
    let p = asmcrypto_testkit::p();
    let mut rng = SplitMix64(0xb175);
    let words = |b: &[u8; 32]| crate::secp256k1::field::words_from_be(b);
    let fv = |x: &Fe| {
        let w = x.to_u64x4();
        let mut b = [0u8; 32];
        for (i, x) in w.iter().enumerate() {
            b[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&x.to_be_bytes());
        }
        from_be(&b)
    };
    let mut vals: Vec<Fe> = [
        [0u64; 4],
        [u64::MAX; 4],
        [0xFFFF_FFFE_FFFF_FC2F, u64::MAX, u64::MAX, u64::MAX],
        [0xFFFF_FFFE_FFFF_FC30, u64::MAX, u64::MAX, u64::MAX],
        [0xFFFF_FFFE_FFFF_FC2E, u64::MAX, u64::MAX, u64::MAX],
        [u64::MAX, 0, u64::MAX, 0],
        [0, u64::MAX, 0, u64::MAX],
        [u64::MAX, u64::MAX, 0, 0],
        [0, 0, u64::MAX, u64::MAX],
    ]
    .into_iter()
    .map(Fe::from_u64x4)
    .collect();
    for _ in 0..3000 {
        vals.push(Fe::from_u64x4(words(&bd::bit_runs(&mut rng))));
    }
    fn check<M: FieldMul>(m: M, a: &Fe, b: &Fe, c: &Fe, fv: &dyn Fn(&Fe) -> BigUint) {
        let p = asmcrypto_testkit::p();
        let (x, y, z) = (fv(a), fv(b), fv(c));
        let modp = |v: BigUint| v % &p;
        let sub = |v: BigUint, w: &BigUint| (v + &p - w % &p) % &p;
        assert_eq!(modp(fv(&m.mul(a, b))), modp(&x * &y), "{a:x?} {b:x?}");
        assert_eq!(modp(fv(&m.sqr(a))), modp(&x * &x), "{a:x?}");
        assert_eq!(modp(fv(&m.mul_scaled::<1>(a, b))), modp(&x * &y));
        assert_eq!(modp(fv(&m.mul_scaled::<2>(a, b))), modp(&x * &y * 2u8));
        assert_eq!(modp(fv(&m.mul_scaled::<3>(a, b))), modp(&x * &y * 3u8));
        assert_eq!(modp(fv(&m.mul_scaled::<4>(a, b))), modp(&x * &y * 4u8));
        assert_eq!(modp(fv(&m.mul_scaled::<8>(a, b))), modp(&x * &y * 8u8));
        assert_eq!(modp(fv(&m.sqr_scaled::<2>(a))), modp(&x * &x * 2u8));
        assert_eq!(modp(fv(&m.sqr_scaled::<3>(a))), modp(&x * &x * 3u8));
        assert_eq!(modp(fv(&m.sqr_scaled::<8>(a))), modp(&x * &x * 8u8));
        assert_eq!(
            modp(fv(&m.mul_sub(a, b, c))),
            sub(&x * &y % &p, &z),
            "{a:x?} {b:x?} {c:x?}"
        );
        assert_eq!(modp(fv(&m.sqr_sub(a, c))), sub(&x * &x % &p, &z));
        let e = BigUint::from(1u8) << 5u32;
        assert_eq!(modp(fv(&m.sqr_n(a, 5))), x.modpow(&e, &p));
        assert_eq!(modp(fv(&m.sqr_n(a, 0))), modp(x.clone()));
    }
    let fvr: &dyn Fn(&Fe) -> BigUint = &fv;
    for (i, a) in vals.iter().enumerate() {
        let b = &vals[(i * 7 + 3) % vals.len()];
        let c = &vals[(i * 13 + 1) % vals.len()];
        check(Portable, a, b, c, fvr);
        #[cfg(target_arch = "x86_64")]
        if let Some(m) = crate::secp256k1::field::MulxAdx::detect() {
            check(m, a, b, c, fvr);
        }
        // The linear operations and the canonical form.
        let (x, y) = (fv(a), fv(b));
        assert_eq!(fv(&a.add(b)) % &p, (&x + &y) % &p);
        assert_eq!(fv(&a.sub(b)) % &p, (&x % &p + &p - &y % &p) % &p);
        assert_eq!(fv(&a.neg()) % &p, (&p - &x % &p) % &p);
        assert_eq!(fv(&a.normalize()), &x % &p);
        assert_eq!(a.normalizes_to_zero(), &x % &p == BigUint::from(0u8));
    }
}

/// The group law's special cases, which recovery itself never meets (its table entries
/// and accumulators are never the point at infinity, and its one general Jacobian sum
/// serves the table fallback that the group's prime order rules out): P + O, O + P,
/// P + P, P + (−P), and the general sum of two Jacobian points with Z ≠ 1, against
/// libsecp256k1's k·G.
#[test]
fn group_law_special_cases() {
    use crate::secp256k1::field::FieldElement as Fe;
    use crate::secp256k1::group::{Affine, Jacobian};
    let n = n();
    let point = |k: &BigUint| {
        let key = asmcrypto_testkit::public_key_of(&to_be32(&(k % &n)));
        Affine {
            x: Fe::from_bytes(&key[..32].try_into().expect("32")).expect("below p"),
            y: Fe::from_bytes(&key[32..].try_into().expect("32")).expect("below p"),
            infinity: false,
        }
    };
    let same = |a: &Affine, b: &Affine| {
        a.infinity == b.infinity && (a.infinity || (a.x.equals(&b.x) && a.y.equals(&b.y)))
    };
    assert!(Affine::INFINITY.is_on_curve());
    assert!(Jacobian::INFINITY.to_affine().infinity);
    let mut rng = SplitMix64(0x9e);
    for _ in 0..64 {
        let (a, b) = (from_be(&rng.scalar()), from_be(&rng.scalar()));
        let (pa, pb) = (point(&a), point(&b));
        // Jacobian points with Z ≠ 1: 2·P.
        let (ja, jb) = (pa.to_jacobian().double(), pb.to_jacobian().double());
        let sum = ja.add(&jb).to_affine();
        assert!(same(&sum, &point(&((&a + &b) * 2u8))));
        assert!(same(&ja.add(&ja).to_affine(), &point(&(&a * 4u8))));
        assert!(ja.add(&ja.neg()).infinity);
        assert!(same(
            &ja.add(&Jacobian::INFINITY).to_affine(),
            &point(&(&a * 2u8))
        ));
        assert!(same(
            &Jacobian::INFINITY.add(&ja).to_affine(),
            &point(&(&a * 2u8))
        ));
        let (s, ratio) = ja.add_ge(&Affine::INFINITY);
        assert!(ratio.is_none() && same(&s.to_affine(), &point(&(&a * 2u8))));
        let (s, ratio) = Jacobian::INFINITY.add_ge(&pb);
        assert!(ratio.is_none() && same(&s.to_affine(), &pb));
        let zinv = Fe::from_u64x4([rng.next_u64(), 1, 0, 0]);
        assert!(same(
            &ja.add_zinv(&Affine::INFINITY, &zinv).to_affine(),
            &point(&(&a * 2u8))
        ));
    }
}

/// The parse of every entry point against its documented rules, on the edge values of r
/// and s (0, 1, n ± k, p ± k, p − n ± k, 2²⁵⁶ − k, …), every recovery id 0..=4 and the v
/// bytes around 0, 1, 27 and 28: which check fails first, and the parsed fields of the
/// ones that pass (r, s, the hash mod n, R's x = r or r + n, the parity). Then the
/// precompile's own input format (v word, length) against the reference model.
#[test]
fn parse_against_its_rules_on_edge_values() {
    use crate::recover::{parse, parse_recid};
    use asmcrypto_testkit::curve::{N, ONES, ZERO};
    use asmcrypto_testkit::edge::{out_of_range, specials};
    let (nb, pb) = (n(), asmcrypto_testkit::p());
    let mut rng = SplitMix64(0x9a55);
    let mut vals: Vec<[u8; 32]> = specials().to_vec();
    vals.extend(out_of_range());
    vals.push(rng.scalar());
    let hashes = [ZERO, N, ONES, rng.bytes32(), rng.bytes32()];
    let mut checked = 0;
    for (i, r) in vals.iter().enumerate() {
        for (j, s) in vals.iter().enumerate() {
            let hash = hashes[(i + j) % hashes.len()];
            let mut rs = [0u8; 64];
            rs[..32].copy_from_slice(r);
            rs[32..].copy_from_slice(s);
            let (rv, sv) = (from_be(r), from_be(s));
            let scalar = |v: &BigUint| *v > BigUint::from(0u8) && *v < nb;
            let rule = |recid: u8| -> Result<BigUint, String> {
                if recid > 3 {
                    return Err(format!("InvalidRecoveryId({recid})"));
                }
                if !scalar(&rv) {
                    return Err("InvalidR".into());
                }
                if !scalar(&sv) {
                    return Err("InvalidS".into());
                }
                let x = if recid & 2 != 0 {
                    &rv + &nb
                } else {
                    rv.clone()
                };
                if x >= pb {
                    return Err("NotOnCurve".into());
                }
                Ok(x)
            };
            let check = |got: Result<crate::recover::Parsed, crate::Error>,
                         want: Result<BigUint, String>,
                         parity: u8| match (got, want) {
                (Ok(p), Ok(x)) => {
                    assert_eq!(p.r.to_bytes(), *r);
                    assert_eq!(p.s.to_bytes(), *s);
                    assert_eq!(from_be(&p.msg.to_bytes()), from_be(&hash) % &nb);
                    assert_eq!(from_be(&p.x.normalize().to_bytes()), x);
                    assert_eq!(p.odd, parity == 1);
                }
                (Err(e), Err(w)) => assert_eq!(format!("{e:?}"), w),
                (g, w) => panic!("r={rv:x} s={sv:x}: got {g:?}, want {w:?}"),
            };
            for recid in 0..=4u8 {
                check(parse_recid(&hash, &rs, recid), rule(recid), recid & 1);
                checked += 1;
            }
            for v in [0u8, 1, 2, 26, 27, 28, 29, 255] {
                let mut sig = [0u8; 65];
                sig[..64].copy_from_slice(&rs);
                sig[64] = v;
                let want = match v {
                    0 | 1 => rule(v),
                    27 | 28 => rule(v - 27),
                    _ => Err(format!("InvalidRecoveryId({v})")),
                };
                check(parse(&hash, &sig), want, v % 27);
                checked += 1;
            }
        }
    }
    assert!(checked > 20_000, "{checked}");
    // The precompile's input: v word 27/28 exactly (any other byte, or a non-zero byte in
    // its top 31), every length up to 130 (right-padded with zeros), against the model.
    let mut reference = asmcrypto_testkit::Reference::strict();
    for i in 0..600usize {
        let secret = rng.scalar();
        let hash = rng.bytes32();
        let (r, s, recid) = asmcrypto_testkit::sign(&secret, &hash);
        let mut input = asmcrypto_testkit::precompile_input(&hash, 27 + recid, &r, &s).to_vec();
        match i % 6 {
            0 => {}
            1 => input[63] = [0, 1, 26, 29, 255][i / 6 % 5],
            2 => input[32 + i / 6 % 31] = 1,
            3 => input.truncate(i / 6 % 129),
            4 => input.extend_from_slice(&rng.bytes(i / 6 % 40)),
            _ => input[64..96].copy_from_slice(&vals[i / 6 % vals.len()]),
        }
        assert_eq!(
            crate::ecrecover_precompile(&input),
            reference.ecrecover_precompile(&input),
            "{}",
            hex::encode(&input)
        );
    }
}

/// The last fold of the scalar product's reduction: (n − x)·(n − y) with x·y in
/// [2²⁵⁶ − n, 2·(2²⁵⁶ − n)) leaves the third fold at 2²⁵⁶ or above, which random products
/// reach with probability about 2⁻¹²⁷ (the fold's tail, `reduce512`). Against num-bigint,
/// with the neighbours of each pair.
#[test]
fn scalar_product_reduction_tail() {
    let n = n();
    let n_c = (BigUint::from(1u8) << 256u32) - &n;
    let mut rng = SplitMix64(0x7a11);
    let mut pairs: Vec<(BigUint, BigUint)> = Vec::new();
    for x in [2u64, 3, 5, 7, 1 << 20, u64::MAX] {
        let x = BigUint::from(x);
        let y = (&n_c + &x - 1u8) / &x;
        for dy in 0..4u8 {
            pairs.push((x.clone(), &y + dy));
        }
    }
    for _ in 0..200 {
        let x = BigUint::from(rng.next_u64() | 1) << 32u32;
        let y = (&n_c + &x - 1u8) / &x + BigUint::from(rng.below(1 << 20));
        pairs.push((x, y));
    }
    for (x, y) in pairs {
        let (a, b) = (&n - &x, &n - &y);
        let got = sc(&a).mul(&sc(&b));
        assert_eq!(from_be(&got.to_bytes()), &a * &b % &n, "x={x:x} y={y:x}");
        assert_eq!(from_be(&sc(&b).mul(&sc(&a)).to_bytes()), &a * &b % &n);
    }
}

/// The last column's digit: `top_digit` gives back exactly the values that are 0 or a
/// unit times a table entry (every element of norm ≤ 19 in the box checked against the
/// 66 digit values), and refuses every other remainder (the lanes' retry).
#[test]
fn top_digit_accepts_exactly_the_digits() {
    use crate::secp256k1::eisenstein::{Digit, ENTRIES, top_digit};
    let mut digits = std::collections::BTreeSet::new();
    for entry in 0..ENTRIES.len() as u8 {
        for rot in 0..3 {
            for neg in [false, true] {
                digits.insert(Digit { entry, rot, neg }.value());
            }
        }
    }
    for a in -12i32..=12 {
        for b in -12i32..=12 {
            let got = top_digit(a as i128, b as i128);
            if (a, b) == (0, 0) {
                assert_eq!(got, Some(None));
            } else if digits.contains(&(a, b)) {
                let d = got.expect("a digit").expect("not zero");
                assert_eq!(d.value(), (a, b));
            } else {
                assert_eq!(got, None, "({a}, {b})");
            }
        }
    }
    assert_eq!(top_digit(1 << 100, 3), None);
}
