//! Eight P-256 verifications at once: u₁·G + u₂·Q on the lanes, then the x check.
//!
//! The scalar core parses, checks the keys, inverts every s (one shared inversion per
//! chunk, `crate::batch::p256`) and builds each key's affine odd multiples Q, 3Q, …, 15Q;
//! the lanes take u₁, u₂, r and those tables.
//!
//! Eight lanes in lockstep must add at the same columns, so the scalars are recoded in
//! signed odd windows (every digit odd, nonzero, at a fixed position) instead of wNAFs:
//! u₂ in windows of [`W_Q`] bits (digits ±1, ±3, …, ±15: the key's eight odd multiples),
//! u₁ in windows of [`W_G`] bits over the static table of G's 1,024 odd multiples
//! (`crate::p256::tables`), read by gathers in the scalar core's Montgomery form and
//! converted on the way (a shift and a fold, `super::field::P8::from_scalar_words`). The
//! recoding needs an odd scalar: an even u is replaced by n − u, and the points it
//! multiplies are negated in that lane. The chain is 253 doublings, 64 additions of Q's
//! multiples and 24 of G's (the first one a plain load).
//!
//! A lane whose addition meets P = ±B (`super::point::PJac8::add_affine`) is reported
//! for the scalar core to verify; no other case needs one (the accumulator never reaches
//! infinity without passing through such an addition, and P-256 has no point of order 2).
//! The x check is the scalar core's: X = r·Z² or, where r + n < p, X = (r + n)·Z².

use super::field::P8;
use super::point::{PAff8, PJac8};
use crate::arith::words;
use crate::lanes::{Ifma, LANES};
use crate::p256::ecmult::TABLE_Q;
use crate::p256::field::{Fe, P};
use crate::p256::group::Affine;
use crate::p256::scalar::{N, Scalar};
use crate::p256::tables;

/// Width of u₂'s windows: digits ±1, …, ±(2^W_Q − 1), the key's [`TABLE_Q`] odd multiples.
const W_Q: u32 = 4;
/// u₂'s digits: positions 0, 4, …, 252.
const DIGITS_Q: usize = 64;
/// Width of u₁'s windows: digits ±1, …, ±2047, G's odd multiples in the static table.
const W_G: u32 = 11;
/// u₁'s digits: positions 0, 11, …, 253.
const DIGITS_G: usize = 24;
const _: () = assert!(TABLE_Q == 1 << (W_Q - 1) && tables::LEN == 1 << (W_G - 1));
// The top digit of a value below 2²⁵⁶ is then odd and at most 2^(256 − W·(D−1)), so below 2^W (see `recode`).
const _: () = assert!(256 - W_Q as usize * (DIGITS_Q - 1) <= W_Q as usize);
const _: () = assert!(256 - W_G as usize * (DIGITS_G - 1) <= W_G as usize);

/// Words per element in the per-group table of Q's multiples (five limb rows of
/// [`LANES`] words, the layout `Backend::gather_limbs` reads).
const ELEM: usize = 5 * LANES;

/// One lane's verification: u₁ = e·s⁻¹ and u₂ = r·s⁻¹ (mod n, below n), r, and the key
/// (on the curve).
#[derive(Clone, Copy)]
pub(crate) struct Lane<'a> {
    pub u1: Scalar,
    pub u2: Scalar,
    pub r: Scalar,
    pub q: &'a Affine,
}

/// What eight verifications gave: lanes that verified, and lanes the scalar core must
/// verify again (their bit in `valid` is clear).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Verdict {
    pub valid: u8,
    pub retry: u8,
}

/// The signed odd windows of width `w` of an odd `k` below 2²⁵⁶: `D` digits, each odd with
/// |d| < 2^w, Σ dⱼ·2^(w·j) = k. Each step takes d = (k mod 2^(w+1)) − 2^w, which leaves
/// k − d an odd multiple of 2^w; the last digit is what remains, below
/// 2^(256 − w·(D−1)) + 1, odd and positive.
fn recode<const D: usize>(k: &[u64; 4], w: u32) -> [i16; D] {
    debug_assert!(k[0] & 1 == 1 && (1..32).contains(&w));
    let mut k = *k;
    let mut out = [0i16; D];
    let low = (1u64 << (w + 1)) - 1;
    for d in out.iter_mut().take(D - 1) {
        let digit = (k[0] & low) as i64 - (1i64 << w);
        let (next, overflow) = if digit >= 0 {
            words::sub(&k, &[digit as u64, 0, 0, 0])
        } else {
            words::add(&k, &[digit.unsigned_abs(), 0, 0, 0])
        };
        debug_assert!(!overflow);
        for i in 0..4 {
            k[i] = (next[i] >> w) | next.get(i + 1).map_or(0, |x| x << (64 - w));
        }
        *d = digit as i16;
    }
    debug_assert!(k[1..] == [0, 0, 0] && k[0] & 1 == 1 && k[0] < 1 << w);
    out[D - 1] = k[0] as i16;
    out
}

/// An odd scalar for the recoding: `u` itself, or n − u (odd, n being odd) where `u` is
/// even, and whether it was replaced.
fn odd(u: &Scalar) -> ([u64; 4], bool) {
    if u.0[0] & 1 == 1 {
        (u.0, false)
    } else {
        (words::sub(&N, &u.0).0, true)
    }
}

/// Per column, the lanes' table indices and the lanes whose digit is negative.
struct Columns<const D: usize> {
    idx: [[u64; LANES]; D],
    neg: [u8; D],
}

impl<const D: usize> Columns<D> {
    /// From each lane's digits; `index(lane, entry)` is where the lane reads entry
    /// (|d| − 1)/2, and lanes in `flip` negate every digit.
    fn new(digits: &[[i16; D]; LANES], flip: u8, index: impl Fn(usize, usize) -> u64) -> Self {
        let mut c = Columns {
            idx: [[0; LANES]; D],
            neg: [0; D],
        };
        for (i, lane) in digits.iter().enumerate() {
            for (j, &d) in lane.iter().enumerate() {
                c.idx[j][i] = index(i, (d.unsigned_abs() / 2) as usize);
                c.neg[j] |= (((d < 0) as u8) ^ (flip >> i & 1)) << i;
            }
        }
        c
    }
}

/// The points with y negated in the lanes of `neg`.
#[inline(always)]
fn signed<B: Ifma>(x: P8<B>, y: P8<B>, neg: u8) -> PAff8<B> {
    PAff8 {
        x,
        y: P8::select(neg, &y.neg(), &y),
    }
}

/// G's multiples for column `j`: eight words of x and of y per lane from the static
/// table's bytes.
#[inline(always)]
fn g_point<B: Ifma>(g: &[u8], cols: &Columns<DIGITS_G>, j: usize) -> PAff8<B> {
    let idx = B::load(&cols.idx[j]);
    let mut w = [idx; 8];
    for (k, wk) in w.iter_mut().enumerate() {
        *wk = B::gather(g, B::add(idx, B::splat(k as u64)));
    }
    let x = P8::from_scalar_words([w[0], w[1], w[2], w[3]]);
    let y = P8::from_scalar_words([w[4], w[5], w[6], w[7]]);
    signed(x, y, cols.neg[j])
}

/// Q's multiples for column `j`, from the group's table.
#[inline(always)]
fn q_point<B: Ifma>(t: &[u64; QT], cols: &Columns<DIGITS_Q>, j: usize) -> PAff8<B> {
    let idx = B::load(&cols.idx[j]);
    let x = P8(B::gather_limbs(t, idx));
    let y = P8(B::gather_limbs(t, B::add(idx, B::splat(ELEM as u64))));
    signed(x, y, cols.neg[j])
}

/// Lane i from the scalar core's Montgomery words `w[k][i]`.
#[inline(always)]
fn load_scalar_words<B: Ifma>(w: &[[u64; LANES]; 4]) -> P8<B> {
    P8::from_scalar_words([
        B::load(&w[0]),
        B::load(&w[1]),
        B::load(&w[2]),
        B::load(&w[3]),
    ])
}

/// Words of a group's table of Q's multiples.
const QT: usize = 2 * TABLE_Q * ELEM;

/// The keys' odd multiples Q, 3Q, …, 15Q, affine, in the layout [`q_point`] reads (entry
/// e's x at 2e·[`ELEM`], its y at (2e + 1)·[`ELEM`]), with one scalar inversion. D = 2Q
/// is affine on the curve isomorphic by λ = Z_D (x ↦ λ²x, y ↦ λ³y), where Q is
/// (λ²x, λ³y); there each next multiple is one mixed addition of D, whose ratio H of Z's
/// brings every entry to the last one's Z (X·f², Y·f³ for f the product of the later
/// ratios), and one inversion of that Z times λ gives them all in affine form. Lanes
/// where an addition met its special case (impossible for a key of prime order, reported
/// all the same) are added to `retry`.
#[inline(always)]
fn q_table<B: Ifma>(lanes: &[Lane; LANES], one: &P8<B>, retry: &mut u8) -> [u64; QT] {
    let (mut x, mut y) = ([[0u64; LANES]; 4], [[0u64; LANES]; 4]);
    for (i, l) in lanes.iter().enumerate() {
        for k in 0..4 {
            x[k][i] = l.q.x.0[k];
            y[k][i] = l.q.y.0[k];
        }
    }
    let q = PAff8 {
        x: load_scalar_words::<B>(&x),
        y: load_scalar_words::<B>(&y),
    };
    let d = PJac8::from_affine(&q, one).double();
    let (l2, d_aff) = (d.z.sqr(), PAff8 { x: d.x, y: d.y });
    let mut t = [PJac8 {
        x: q.x.mul(&l2),
        y: q.y.mul(&l2.mul(&d.z)),
        z: *one,
    }; TABLE_Q];
    let mut ratio = [*one; TABLE_Q];
    for e in 1..TABLE_Q {
        let (sum, same_x, h) = t[e - 1].add_affine_ratio(&d_aff);
        t[e] = sum;
        ratio[e] = h;
        *retry |= same_x;
    }
    // Every entry to the last one's Z, then to affine.
    let zinv = t[TABLE_Q - 1].z.mul(&d.z).invert();
    let zinv2 = zinv.sqr();
    let (mut f2, mut f3) = (zinv2, zinv2.mul(&zinv));
    let mut out = [0u64; QT];
    for e in (0..TABLE_Q).rev() {
        t[e].x.mul(&f2).put(&mut out, 2 * e * ELEM);
        t[e].y.mul(&f3).put(&mut out, (2 * e + 1) * ELEM);
        if e > 0 {
            let h2 = ratio[e].sqr();
            f2 = f2.mul(&h2);
            f3 = f3.mul(&h2.mul(&ratio[e]));
        }
    }
    out
}

/// Eight verifications. Every lane must hold a real verification (a caller with fewer
/// repeats one and ignores its result).
#[inline(always)]
pub(crate) fn verify_group<B: Ifma>(lanes: &[Lane; LANES]) -> Verdict {
    // The scalars' windows.
    let mut dg = [[0i16; DIGITS_G]; LANES];
    let mut dq = [[0i16; DIGITS_Q]; LANES];
    let (mut flip_g, mut flip_q) = (0u8, 0u8);
    for (i, l) in lanes.iter().enumerate() {
        let (u1, f1) = odd(&l.u1);
        let (u2, f2) = odd(&l.u2);
        dg[i] = recode(&u1, W_G);
        dq[i] = recode(&u2, W_Q);
        flip_g |= (f1 as u8) << i;
        flip_q |= (f2 as u8) << i;
    }
    let gc = Columns::new(&dg, flip_g, |_, e| (e * tables::ENTRY_BYTES / 8) as u64);
    let qc = Columns::new(&dq, flip_q, |i, e| (2 * e * ELEM + i) as u64);

    let mut retry = 0u8;
    let one = P8::<B>::splat_scalar_words(Fe::ONE.0);
    let qt = q_table::<B>(lanes, &one, &mut retry);

    let g = tables::bytes();
    let mut acc = PJac8::from_affine(&g_point(g, &gc, DIGITS_G - 1), &one);
    let top = W_G as usize * (DIGITS_G - 1);
    for bit in (0..top).rev() {
        acc = acc.double();
        if bit % W_Q as usize == 0 {
            let (sum, same_x) = acc.add_affine(&q_point(&qt, &qc, bit / W_Q as usize));
            acc = sum;
            retry |= same_x;
        }
        if bit % W_G as usize == 0 {
            let (sum, same_x) = acc.add_affine(&g_point(g, &gc, bit / W_G as usize));
            acc = sum;
            retry |= same_x;
        }
    }

    // The x check: X = r·Z², or X = (r + n)·Z² where r + n < p.
    let mut rn_ok = 0u8;
    let (mut rw, mut rnw) = ([[0u64; LANES]; 4], [[0u64; LANES]; 4]);
    for (i, l) in lanes.iter().enumerate() {
        let r = Fe::from_canonical(l.r.0).0;
        let (rn, carry) = words::add(&l.r.0, &N);
        let rn = if !carry && !words::ge(&rn, &P) {
            rn_ok |= 1 << i;
            Fe::from_canonical(rn).0
        } else {
            r
        };
        for k in 0..4 {
            rw[k][i] = r[k];
            rnw[k][i] = rn[k];
        }
    }
    let z2 = acc.z.sqr();
    let r = load_scalar_words::<B>(&rw);
    let rn = load_scalar_words::<B>(&rnw);
    let ok = acc.x.eq(&r.mul(&z2)) | (rn_ok & acc.x.eq(&rn.mul(&z2)));
    Verdict {
        valid: ok & !retry,
        retry,
    }
}

/// [`verify_group`] on AVX-512 IFMA, for a CPU that has it.
#[cfg(target_arch = "x86_64")]
pub(crate) fn verify_group_avx512(
    _cpu: crate::dispatch::Avx512Ifma,
    lanes: &[Lane; LANES],
) -> Verdict {
    // SAFETY: the token exists only where `crate::dispatch` detected AVX-512 F, BW, IFMA.
    unsafe { verify_group_avx512_body(lanes) }
}

/// The body of [`verify_group_avx512`], compiled with the AVX-512 features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
fn verify_group_avx512_body(lanes: &[Lane; LANES]) -> Verdict {
    verify_group::<crate::lanes::avx512::Avx512>(lanes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::portable::Portable;
    use crate::p256::ecmult::{self, odd_multiples_jacobian};
    use crate::p256::field::Portable as ScalarMul;
    use crate::p256::group::{G, Jacobian};
    use crate::test_support::rng::SplitMix64;
    use num_bigint::BigUint;

    fn big(w: &[u64; 4]) -> BigUint {
        w.iter()
            .rev()
            .fold(BigUint::default(), |b, &x| (b << 64) + x)
    }

    #[test]
    fn windows_reconstruct_the_scalar() {
        let mut rng = SplitMix64(40);
        let mut cases = vec![[1, 0, 0, 0], words::sub(&N, &[2, 0, 0, 0]).0, [u64::MAX; 4]];
        for _ in 0..2000 {
            cases.push(rng.words4());
        }
        for mut k in cases {
            k[0] |= 1;
            for (w, digits) in [
                (W_G, recode::<DIGITS_G>(&k, W_G).to_vec()),
                (W_Q, recode::<DIGITS_Q>(&k, W_Q).to_vec()),
            ] {
                let mut sum = num_bigint::BigInt::default();
                for (j, &d) in digits.iter().enumerate() {
                    assert!(
                        d % 2 != 0 && d.unsigned_abs() < 1 << w,
                        "{k:x?}: digit {j} = {d}"
                    );
                    sum += num_bigint::BigInt::from(d) << (w as usize * j);
                }
                assert_eq!(sum, big(&k).into(), "{k:x?} width {w}");
            }
        }
    }

    /// The affine odd multiples of `q`.
    fn table(q: &Affine) -> [Affine; TABLE_Q] {
        let jac = odd_multiples_jacobian(ScalarMul, q);
        let mut t = [G; TABLE_Q];
        Jacobian::batch_to_affine_with(ScalarMul, &jac, &mut t);
        t
    }

    /// k·G for a scalar k.
    fn mul_g(k: &Scalar) -> Affine {
        let t = table(&G);
        ecmult::double_mul(ScalarMul, &Scalar::ZERO, k, &t)
            .to_affine()
            .unwrap()
    }

    /// A scalar below n from the generator.
    fn scalar(rng: &mut SplitMix64) -> Scalar {
        loop {
            let w = rng.words4();
            if !words::ge(&w, &N) && !words::is_zero(&w) {
                return Scalar(w);
            }
        }
    }

    /// The scalar core's answer for a lane.
    fn scalar_core(l: &Lane) -> bool {
        let rp = ecmult::double_mul(ScalarMul, &l.u1, &l.u2, &table(l.q));
        ecmult::x_matches(ScalarMul, &rp, &l.r)
    }

    /// Groups of lanes: random u₁, u₂ (even and odd, u₁ = 0 among them), keys, and r
    /// either the x of u₁·G + u₂·Q (mod n, so the lane verifies) or not.
    fn groups<B: Ifma>(count: usize) {
        let mut rng = SplitMix64(7);
        let keys: Vec<(Affine, [Affine; TABLE_Q])> = (0..6)
            .map(|_| {
                let q = mul_g(&scalar(&mut rng));
                (q, table(&q))
            })
            .collect();
        let mut seen = [0usize; 2];
        for g in 0..count {
            let lanes: [Lane; LANES] = core::array::from_fn(|i| {
                let (q, t) = &keys[(g + i) % keys.len()];
                let u1 = if (g + i) % 13 == 0 {
                    Scalar::ZERO
                } else {
                    scalar(&mut rng)
                };
                let u2 = scalar(&mut rng);
                let rp = ecmult::double_mul(ScalarMul, &u1, &u2, t)
                    .to_affine()
                    .unwrap();
                let mut x = rp.x.to_canonical();
                if words::ge(&x, &N) {
                    x = words::sub(&x, &N).0;
                }
                let r = if rng.next_u64().is_multiple_of(3) {
                    scalar(&mut rng)
                } else {
                    Scalar(x)
                };
                Lane { u1, u2, r, q }
            });
            let v = verify_group::<B>(&lanes);
            for (i, l) in lanes.iter().enumerate() {
                let want = scalar_core(l);
                seen[want as usize] += 1;
                if v.retry >> i & 1 == 0 {
                    assert_eq!(v.valid >> i & 1 == 1, want, "group {g} lane {i}");
                }
            }
            assert_eq!(v.retry, 0, "group {g}: random lanes meet no special case");
        }
        assert!(
            seen[0] > 0 && seen[1] > 0,
            "both answers exercised: {seen:?}"
        );
    }

    /// Lanes whose additions meet the accumulator (P = ±B), each of which must come back
    /// marked for the scalar core and not valid. A lane that has met P = B sits at
    /// (0, 0, 0) and one that has met P = −B at (t², t³, 0), which the next addition takes
    /// to X = 0; either way X = r·Z² then holds for any r, and the later additions meet
    /// P = ±B again. So a mark matters most at the last addition of each kind, and the
    /// lanes there have an r that their sum does not have:
    /// - lane 5 at its first addition of Q: Q = 2G, u₁'s top window 1 (the accumulator is
    ///   G, doubled to 2G) and u₂'s top window 1 (it adds Q = 2G);
    /// - lane 6 at its last addition of Q (bit 0), P = −B: with Q = k·G and d the last
    ///   digit of u₁, u₂ = (d − u₁)/k, so that the sum is d·G and the accumulator before
    ///   that addition is the negated entry it adds;
    /// - lane 2 at its last addition, of G's digit d, P = B: u₂ = (2d − u₁)/k, the sum
    ///   2d·G.
    fn special_case<B: Ifma>() {
        let q = mul_g(&Scalar([2, 0, 0, 0]));
        let u1 = Scalar([1, 0, 0, 1 << 61]); // 2²⁵³ + 1
        let u2 = Scalar([1, 0, 0, 1 << 60]); // 2²⁵² + 1
        assert_eq!(recode::<DIGITS_G>(&u1.0, W_G)[DIGITS_G - 1], 1);
        assert_eq!(recode::<DIGITS_Q>(&u2.0, W_Q)[DIGITS_Q - 1], 1);
        let mut rng = SplitMix64(3);
        let k = scalar(&mut rng);
        let other = mul_g(&k);
        let k_inv = k.inv_montgomery();
        // (times·d − u₁)/k for a random odd u₁ and its last digit d.
        let mut last = |times: u64| {
            let u1 = Scalar([rng.next_u64() | 1, rng.next_u64(), rng.next_u64(), 1 << 62]);
            let d = recode::<DIGITS_G>(&u1.0, W_G)[0];
            let minus_u1 = words::sub(&N, &u1.0).0;
            let td = [times * d.unsigned_abs() as u64, 0, 0, 0];
            let num = if d > 0 {
                words::add(&minus_u1, &td).0
            } else {
                words::sub(&minus_u1, &td).0
            };
            (u1, Scalar(num).mont_mul(&k_inv))
        };
        let (l6, l2) = (last(1), last(2));
        let lanes: [Lane; LANES] = core::array::from_fn(|i| match i {
            5 => Lane {
                u1,
                u2,
                r: scalar(&mut rng),
                q: &q,
            },
            6 => Lane {
                u1: l6.0,
                u2: l6.1,
                r: Scalar::ONE,
                q: &other,
            },
            2 => Lane {
                u1: l2.0,
                u2: l2.1,
                r: Scalar::ONE,
                q: &other,
            },
            _ => Lane {
                u1: scalar(&mut rng),
                u2: scalar(&mut rng),
                r: scalar(&mut rng),
                q: &other,
            },
        });
        assert!(
            !scalar_core(&lanes[6]) && !scalar_core(&lanes[2]),
            "r = 1 is wrong"
        );
        let v = verify_group::<B>(&lanes);
        let special = 1 << 6 | 1 << 5 | 1 << 2;
        assert_eq!(v.retry, special);
        assert_eq!(v.valid & special, 0);
    }

    /// The same groups through the C-ABI entry `asmcrypto_avx512_p256_verify8`, natively
    /// where the CPU has AVX-512 IFMA and under the emulator where it is set up, against
    /// the scalar core.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn abi_entry_matches_the_scalar_core() {
        use crate::lanes::abi::P256_LANE_WORDS;
        let mut rng = SplitMix64(11);
        let keys: Vec<Affine> = (0..5).map(|_| mul_g(&scalar(&mut rng))).collect();
        let (mut input, mut want) = (Vec::new(), Vec::new());
        let count = 6;
        for g in 0..count {
            let (mut valid, mut lanes) = (0u64, Vec::new());
            for i in 0..LANES {
                let q = &keys[(g + i) % keys.len()];
                let (u1, u2) = (scalar(&mut rng), scalar(&mut rng));
                let rp = ecmult::double_mul(ScalarMul, &u1, &u2, &table(q))
                    .to_affine()
                    .unwrap();
                let mut x = rp.x.to_canonical();
                if words::ge(&x, &N) {
                    x = words::sub(&x, &N).0;
                }
                let r = if (g + i) % 3 == 0 {
                    scalar(&mut rng)
                } else {
                    Scalar(x)
                };
                lanes.push((u1, u2, r, *q));
                for w in [u1.0, u2.0, r.0, q.x.0, q.y.0] {
                    input.extend_from_slice(&w);
                }
            }
            for (i, (u1, u2, r, q)) in lanes.iter().enumerate() {
                let l = Lane {
                    u1: *u1,
                    u2: *u2,
                    r: *r,
                    q,
                };
                valid |= (scalar_core(&l) as u64) << i;
            }
            want.extend_from_slice(&[valid, 0]);
        }
        assert_eq!(input.len(), count * LANES * P256_LANE_WORDS);
        let paths = abi_paths(&input, count);
        for (name, out) in &paths {
            assert_eq!(out, &want, "{name}");
        }
        if paths.is_empty() {
            eprintln!("skipped: no AVX-512");
        }
    }

    /// `asmcrypto_avx512_p256_verify8` on `groups` groups of `input` natively (with
    /// AVX-512 IFMA) and under the emulator (where it is set up): each path's name and its
    /// two words a group. The emulated run's instructions per verification are printed.
    #[cfg(target_arch = "x86_64")]
    fn abi_paths(input: &[u64], groups: usize) -> Vec<(&'static str, Vec<u64>)> {
        use crate::lanes::abi::{P256_LANE_WORDS, asmcrypto_avx512_p256_verify8};
        use crate::test_support::emu;
        std::hint::black_box(asmcrypto_avx512_p256_verify8 as *const () as usize);
        assert_eq!(input.len(), groups * LANES * P256_LANE_WORDS);
        let mut paths = Vec::new();
        if crate::dispatch::avx512_native().is_some() {
            let mut out = vec![0u64; 2 * groups];
            // SAFETY: the CPU has AVX-512 F, BW and IFMA (checked above); the buffers hold
            // `groups` groups and do not overlap; the callers' keys are on the curve.
            unsafe {
                asmcrypto_avx512_p256_verify8(input.as_ptr(), out.as_mut_ptr(), groups as u64)
            };
            paths.push(("native", out));
        }
        if emu::runner().is_some() {
            let bytes: Vec<u8> = input.iter().flat_map(|w| w.to_le_bytes()).collect();
            let res = emu::call(
                "asmcrypto_avx512_p256_verify8",
                &[
                    emu::Arg::Buf(&bytes),
                    emu::Arg::Buf(&vec![0u8; 16 * groups]),
                    emu::Arg::Int(groups as u64),
                ],
                true,
            );
            if let Some(n) = res.instructions {
                eprintln!(
                    "emulated: {} instructions per verification",
                    n / (groups * LANES) as u64
                );
            }
            let out = res.bufs[1]
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                .collect();
            paths.push(("emulated", out));
        }
        paths
    }

    /// Every published and Wycheproof input that parses, eight to a group, through the
    /// portable backend, the C-ABI entry natively (with AVX-512 IFMA) and under the
    /// emulator (where it is set up): each lane's verdict (the scalar core's where the lane
    /// is handed back) is the vector's.
    #[test]
    fn vectors_through_every_path() {
        use crate::p256verify::{parse, split_input};
        let vectors: Vec<_> = asmcrypto_testkit::p256::precompile_vectors()
            .into_iter()
            .chain(asmcrypto_testkit::p256::wycheproof_vectors())
            .collect();
        let mut parsed = Vec::new();
        for v in &vectors {
            let Ok(input) = <[u8; 160]>::try_from(&v.input[..]) else {
                continue;
            };
            let (hash, sig, key) = split_input(&input).unwrap();
            if let Ok(p) = parse(&hash, &sig, &key) {
                parsed.push((p, v.valid, v.what.clone()));
            }
        }
        assert!(parsed.len() > 400, "{} parsed vectors", parsed.len());
        let lanes: Vec<(Scalar, Scalar, Scalar, Affine)> = parsed
            .iter()
            .map(|(p, _, _)| {
                let s_inv = p.s.inv_montgomery();
                (p.h.mont_mul(&s_inv), p.r.mont_mul(&s_inv), p.r, p.q)
            })
            .collect();
        let groups = lanes.len().div_ceil(LANES);
        let lane = |g: usize, i: usize| &lanes[(g * LANES + i).min(lanes.len() - 1)];
        // Each path's verdicts, two words a group.
        let mut paths: Vec<(&str, Vec<u64>)> = Vec::new();
        let portable: Vec<u64> = (0..groups)
            .flat_map(|g| {
                let l: [Lane; LANES] = core::array::from_fn(|i| {
                    let (u1, u2, r, q) = lane(g, i);
                    Lane {
                        u1: *u1,
                        u2: *u2,
                        r: *r,
                        q,
                    }
                });
                let v = verify_group::<Portable>(&l);
                [v.valid as u64, v.retry as u64]
            })
            .collect();
        paths.push(("portable", portable));
        #[cfg(target_arch = "x86_64")]
        {
            let input: Vec<u64> = (0..groups * LANES)
                .flat_map(|k| {
                    let (u1, u2, r, q) = lane(k / LANES, k % LANES);
                    [u1.0, u2.0, r.0, q.x.0, q.y.0].into_iter().flatten()
                })
                .collect();
            paths.extend(abi_paths(&input, groups));
        }
        for (name, out) in &paths {
            for (k, (p, valid, what)) in parsed.iter().enumerate() {
                let (g, i) = (k / LANES, k % LANES);
                let got = if out[2 * g + 1] >> i & 1 == 1 {
                    crate::p256verify::verify_parsed(p)
                } else {
                    out[2 * g] >> i & 1 == 1
                };
                assert_eq!(got, *valid, "{name}: {what}");
            }
        }
    }

    #[test]
    fn groups_match_the_scalar_core_portable() {
        groups::<Portable>(12);
        special_case::<Portable>();
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn groups_match_the_scalar_core_avx512() {
        if crate::dispatch::avx512_native().is_some() {
            // SAFETY: the CPU has AVX-512 F, BW and IFMA (checked above).
            unsafe { groups_avx512() }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
    fn groups_avx512() {
        groups::<crate::lanes::avx512::Avx512>(200);
        special_case::<crate::lanes::avx512::Avx512>();
    }
}
