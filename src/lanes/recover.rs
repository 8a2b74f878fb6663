//! The 8-lane recovery core: eight signatures in lockstep, from validated (x, parity, r,
//! s, m) to the public keys and their Keccak-256 hashes.
//!
//! Data path per batch (every arrow eight lanes wide):
//!
//! 1. Invalid lanes (rejected by the caller's checks) get a harmless dummy input.
//! 2. R = (x, √(x³ + 7)) with the requested parity; lanes with no square root are marked
//!    [`NOT_ON_CURVE`] and continue with a dummy point.
//! 3. r⁻¹ for all lanes by one product tree across the lanes and one safegcd inversion
//!    (Montgomery form), then u₁ = −m·r⁻¹ and u₂ = s·r⁻¹.
//! 4. Per lane (scalar bookkeeping): the GLV split u₂ = k₁ + k₂·λ and u₁'s two 128-bit
//!    halves, each recoded into **signed odd fixed windows** — every digit is odd and
//!    non-zero, so every lane adds in the same columns: width 5 (26 digits) for the R
//!    halves, width 14 (10 digits) for the G halves, whose tables are the static
//!    odd-multiple tables of G and 2¹²⁸·G. Even halves are made odd by adding 1 and
//!    corrected by one masked addition at the end.
//! 5. The table R, 3R, …, 31R built without inversion on the isomorphic curve where 2R is
//!    affine (as the scalar core does), and its λ image (βx, y).
//! 6. Strauss's loop from bit 126 down: a doubling per bit, two mixed additions every 5
//!    bits, two G additions every 14 bits. Table entries are fetched with gathers.
//! 7. To affine with one product-tree inversion across the lanes, then Keccak-256 of the
//!    eight keys, 8-way.
//!
//! A lane whose addition meets P = ±Q (impossible for honest signatures, reachable only by
//! crafted ones, e.g. a key at infinity) is marked [`RETRY_SCALAR`]; the caller recomputes
//! it with the scalar core, which handles every case.

use super::field::{Fe8, Linear};
use super::keccak::keccak256_64_x8;
use super::point::{Aff8, Jac8};
use super::scalar::{R2, Sc8};
use super::{Backend, LANES};
use crate::secp256k1::field::FieldElement;
use crate::secp256k1::group::G;
use crate::secp256k1::scalar::Scalar;
use crate::secp256k1::tables;

/// Status of a lane: key and hash are valid.
pub(crate) const OK: u64 = 0;
/// Status of a lane: x³ + 7 has no square root (r is not an x-coordinate).
pub(crate) const NOT_ON_CURVE: u64 = 1;
/// Status of a lane: the lockstep schedule met a degenerate addition (or the key is at
/// infinity); recompute the lane on the scalar path.
pub(crate) const RETRY_SCALAR: u64 = 2;
/// Status of a lane: the input was marked invalid; its output is meaningless.
pub(crate) const INVALID: u64 = 3;

use super::schedule::{LaneTable, Schedule, TABLE};
use crate::secp256k1::eisenstein::{COLUMNS, W as W_R};
use crate::secp256k1::recode::{G_DIGITS, TOP_BIT, W_G};

const _: () = assert!((COLUMNS - 1) * W_R as usize == TOP_BIT);

/// Inputs of one batch, word-major (`x[k][i]` is 64-bit word k of lane i).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Input8 {
    /// R's x-coordinate (r, or r + n), below p.
    pub x: [[u64; LANES]; 4],
    /// 1 where R's y must be odd.
    pub odd: [u64; LANES],
    /// r, in [1, n).
    pub r: [[u64; LANES]; 4],
    /// s, in [1, n).
    pub s: [[u64; LANES]; 4],
    /// The message hash reduced mod n.
    pub m: [[u64; LANES]; 4],
    /// Bit i set where lane i holds a real input.
    pub valid: u64,
}

/// Outputs of one batch, word-major.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Output8 {
    /// X (words 0..3) and Y (words 4..7) of each key, canonical little-endian words.
    pub key: [[u64; LANES]; 8],
    /// keccak256(X ‖ Y) as four little-endian words.
    pub hash: [[u64; LANES]; 4],
    /// One of [`OK`], [`NOT_ON_CURVE`], [`RETRY_SCALAR`], [`INVALID`] per lane.
    pub status: [u64; LANES],
}

#[cfg(any(test, feature = "emu"))]
impl Input8 {
    /// The record as little-endian bytes in `repr(C)` order (for the emulator, which takes
    /// buffers as bytes).
    pub fn encode(&self) -> Vec<u8> {
        let mut w: Vec<u64> = Vec::with_capacity(137);
        w.extend(self.x.iter().flatten());
        w.extend(&self.odd);
        for v in [&self.r, &self.s, &self.m] {
            w.extend(v.iter().flatten());
        }
        w.push(self.valid);
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
}

#[cfg(any(test, feature = "emu"))]
impl Output8 {
    /// Size of the record in bytes.
    pub const BYTES: usize = (8 + 4 + 1) * LANES * 8;

    /// The record from little-endian bytes in `repr(C)` order.
    pub fn from_bytes(b: &[u8]) -> Self {
        let mut words = b.chunks_exact(8).map(|c| {
            let mut a = [0u8; 8];
            a.copy_from_slice(c);
            u64::from_le_bytes(a)
        });
        let mut next = || words.next().unwrap_or(0);
        let mut o = Output8::default();
        for row in o.key.iter_mut().chain(o.hash.iter_mut()) {
            row.iter_mut().for_each(|x| *x = next());
        }
        o.status.iter_mut().for_each(|x| *x = next());
        o
    }
}

/// `acc` plus column `col`'s joint digit, in the lanes whose digit is not zero; the lanes
/// where the addition is degenerate are added to `degenerate`.
#[inline(always)]
fn add_joint<B: Backend>(
    acc: Jac8<B>,
    sched: &Schedule,
    tab: &LaneTable,
    col: usize,
    degenerate: &mut u8,
) -> Jac8<B> {
    let live = sched.r_live[col];
    if live == 0 {
        return acc;
    }
    let p = tab.digit::<B>(sched, col);
    let (a, _, deg) = acc.add_affine(&p);
    *degenerate |= deg & live;
    if live == 0xFF {
        a
    } else {
        Jac8::select(live, &a, &acc)
    }
}

/// Entry `idx[i]` of a static odd-multiple table in lane i, negated where `neg` is set.
#[inline(always)]
fn g_entry<B: Backend>(table: &tables::OddMultiples, idx: &[u64; LANES], neg: u8) -> Aff8<B> {
    let base = B::shl::<3>(B::load(idx));
    let bytes = table.as_bytes();
    let mut w = [base; 8];
    for (k, wk) in w.iter_mut().enumerate() {
        *wk = B::gather(bytes, B::add(base, B::splat(k as u64)));
    }
    Aff8 {
        x: Fe8::from_words([w[0], w[1], w[2], w[3]]),
        y: Fe8::from_words([w[4], w[5], w[6], w[7]]),
    }
    .neg_lanes(neg)
}

/// The same point in every lane.
#[inline(always)]
fn splat_point<B: Backend>(x: &FieldElement, y: &FieldElement) -> Aff8<B> {
    Aff8 {
        x: Fe8::splat(x),
        y: Fe8::splat(y),
    }
}

/// Four vectors from four rows of words.
#[inline(always)]
fn load4<B: Backend>(w: &[[u64; LANES]; 4]) -> [B::V; 4] {
    [
        B::load(&w[0]),
        B::load(&w[1]),
        B::load(&w[2]),
        B::load(&w[3]),
    ]
}

/// Recovers the eight lanes of `inp` into `out`.
#[inline(always)]
pub(crate) fn recover8<B: Backend>(inp: &Input8, out: &mut Output8) {
    let valid = inp.valid as u8;

    // 1. Dummy inputs for invalid lanes: R = G (x = Gx, y even), r = Gx, s = 1, m = 1.
    let gx = G.x.normalize().to_u64x4();
    let dummy_x = Fe8::<B>::splat(&G.x);
    let x = Fe8::select(valid, &Fe8::from_words(load4::<B>(&inp.x)), &dummy_x);
    let want_odd = (!B::eq(B::load(&inp.odd), B::splat(0))) & valid;
    let dummy_r = Sc8::<B>::splat(&Scalar::from_words(gx));
    let one = Sc8::<B>::splat(&Scalar::ONE);
    let r = Sc8::select(valid, &Sc8::from_words(load4::<B>(&inp.r)), &dummy_r);
    let s = Sc8::select(valid, &Sc8::from_words(load4::<B>(&inp.s)), &one);
    let m = Sc8::select(valid, &Sc8::from_words(load4::<B>(&inp.m)), &one);

    // 2. Lift x to R.
    let c = x.sqr().mul(&x).add(&Fe8::splat(&FieldElement::B));
    let (y, on_curve) = c.sqrt();
    let y = y.normalize();
    let flip = y.is_odd() ^ want_odd;
    let y = Fe8::select(flip, &y.neg(), &y);
    let not_on_curve = !on_curve & valid;
    let big_r = Aff8::select(on_curve, &Aff8 { x, y }, &splat_point(&G.x, &G.y));

    // 3. r⁻¹ (Montgomery form) for all lanes, then u₁ and u₂ (plain).
    let r_mont = r.mont_mul(&Sc8::splat(&R2));
    let rinv = r_mont.invert_lanes_mont();
    let u2 = s.mont_mul(&rinv).to_lanes();
    let u1 = m.mont_mul(&rinv).neg().to_lanes();

    // 4. Recode.
    let sched = Schedule::new::<B>(&u1, &u2);
    let mut degenerate = sched.retry;

    // 5. The table of the joint digits: 1, 2, 3, 4, 1−ω, 2−ω, 3+ω, 3−ω, 4+ω, 2−2ω and 5+2ω
    // times R (ω acting as λ: (x, y) ↦ (βx, y)), from doublings and additions of R or
    // ±λR. No lane is degenerate here: R has order n, and none of these small combinations
    // of R and λR is zero or repeats. Then all on one isomorphic curve where every entry is
    // affine: with Z the product of the entries' z, entry j is (X·(Z/zⱼ)², Y·(Z/zⱼ)³).
    let one = Fe8::splat(&FieldElement::ONE);
    let r_jac = Jac8 {
        x: big_r.x,
        y: big_r.y,
        z: one,
    };
    let beta = Fe8::splat(&FieldElement::BETA);
    let lam_r = Aff8 {
        x: big_r.x.mul(&beta),
        y: big_r.y,
    };
    let neg_lam_r = lam_r.neg_lanes(0xFF);
    let e2 = r_jac.double();
    let e3 = e2.add_affine(&big_r).0;
    let e4 = e2.double();
    let e1w = r_jac.add_affine(&neg_lam_r).0;
    let e2w = e2.add_affine(&neg_lam_r).0;
    let e3pw = e3.add_affine(&lam_r).0;
    let e3mw = e3.add_affine(&neg_lam_r).0;
    let e4w = e4.add_affine(&lam_r).0;
    let e2_2w = e1w.double();
    // 5 + 2ω = −ω²·(2 − 2ω) + 1, and ω²·(x, y) = (β²x, y) with β² = −1 − β.
    let t = Jac8 {
        x: e2_2w.x.neg_sub(&e2_2w.x.mul(&beta)),
        y: e2_2w.y.neg(),
        z: e2_2w.z,
    };
    let e5w = t.add_affine(&big_r).0;
    let jac = [e2, e3, e4, e1w, e2w, e3pw, e3mw, e4w, e2_2w, e5w];
    // Z / zⱼ for every entry j ≥ 1 (entry 0, R itself, has z = 1): prefix products, then
    // a backward pass with the running suffix.
    let mut prefix = [one; TABLE - 1];
    prefix[0] = jac[0].z;
    for j in 1..TABLE - 1 {
        prefix[j] = prefix[j - 1].mul(&jac[j].z);
    }
    let zt = prefix[TABLE - 2];
    let mut table = [Aff8 { x: one, y: one }; TABLE];
    let mut suffix = one;
    for j in (0..TABLE - 1).rev() {
        let others = if j == 0 {
            suffix
        } else {
            prefix[j - 1].mul(&suffix)
        };
        if j > 0 {
            suffix = suffix.mul(&jac[j].z);
        }
        let o2 = others.sqr();
        table[j + 1] = Aff8 {
            x: jac[j].x.mul(&o2),
            y: jac[j].y.mul(&o2.mul(&others)),
        };
    }
    let zt2 = zt.sqr();
    table[0] = Aff8 {
        x: big_r.x.mul(&zt2),
        y: big_r.y.mul(&zt2.mul(&zt)),
    };
    let tab = LaneTable::new(&table);
    let gtab = [tables::pre_g(), tables::pre_g128()];

    // 6. Strauss from bit 126 down: a doubling per bit, one joint addition every 3 bits
    // (skipped in lanes whose digit is zero), two G additions every 14 bits.
    let g0 = g_entry::<B>(
        gtab[0],
        &sched.g_idx[0][G_DIGITS - 1],
        sched.g_neg[0][G_DIGITS - 1],
    );
    let mut acc = Jac8::from_affine_zinv(&g0, &zt);
    let g1 = g_entry::<B>(
        gtab[1],
        &sched.g_idx[1][G_DIGITS - 1],
        sched.g_neg[1][G_DIGITS - 1],
    );
    let (a, deg) = acc.add_zinv(&g1, &zt);
    acc = a;
    degenerate |= deg;
    acc = add_joint(acc, &sched, &tab, COLUMNS - 1, &mut degenerate);
    for bit in (0..TOP_BIT).rev() {
        acc = acc.double();
        if bit % W_R as usize == 0 {
            acc = add_joint(acc, &sched, &tab, bit / W_R as usize, &mut degenerate);
        }
        if bit % W_G as usize == 0 {
            let col = bit / W_G as usize;
            for (h, t) in gtab.iter().enumerate() {
                let p = g_entry::<B>(t, &sched.g_idx[h][col], sched.g_neg[h][col]);
                let (a, deg) = acc.add_zinv(&p, &zt);
                acc = a;
                degenerate |= deg;
            }
        }
    }

    // Corrections for G halves that were even: −G, −2¹²⁸G, in the lanes that need them.
    for (h, gt) in gtab.iter().enumerate() {
        let mask = sched.corr_g[h];
        if mask != 0 {
            let p = g_entry::<B>(gt, &[0; LANES], 0xFF);
            let (a, deg) = acc.add_zinv(&p, &zt);
            acc = Jac8::select(mask, &a, &acc);
            degenerate |= deg & mask;
        }
    }

    // 7. Back from the isomorphic frame, to affine, hash.
    let z = acc.z.mul(&zt);
    let zinv = z.invert_lanes();
    let zi2 = zinv.sqr();
    let qx = acc.x.mul(&zi2).normalize();
    let qy = acc.y.mul(&zi2.mul(&zinv)).normalize();
    let xw = qx.to_words();
    let yw = qy.to_words();
    let msg = [
        B::bswap(xw[3]),
        B::bswap(xw[2]),
        B::bswap(xw[1]),
        B::bswap(xw[0]),
        B::bswap(yw[3]),
        B::bswap(yw[2]),
        B::bswap(yw[1]),
        B::bswap(yw[0]),
    ];
    let h = keccak256_64_x8::<B>(&msg);
    for k in 0..4 {
        out.key[k] = B::store(xw[k]);
        out.key[4 + k] = B::store(yw[k]);
        out.hash[k] = B::store(h[k]);
    }
    for (i, st) in out.status.iter_mut().enumerate() {
        let bit = 1u8 << i;
        *st = if valid & bit == 0 {
            INVALID
        } else if not_on_curve & bit != 0 {
            NOT_ON_CURVE
        } else if degenerate & bit != 0 {
            RETRY_SCALAR
        } else {
            OK
        };
    }
}

/// [`recover8`] on AVX-512, for a CPU that has it: the crate's entry into the engine.
#[cfg(target_arch = "x86_64")]
pub(crate) fn recover8_avx512(_cpu: crate::dispatch::Avx512Ifma, inp: &Input8, out: &mut Output8) {
    // SAFETY: the token exists only where `crate::dispatch` detected AVX-512 F, BW, IFMA.
    unsafe { recover8_avx512_body(inp, out) }
}

/// The body of [`recover8_avx512`], compiled with the AVX-512 features (also entered by the
/// C-ABI wrapper the emulator runs, `super::abi`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub(crate) fn recover8_avx512_body(inp: &Input8, out: &mut Output8) {
    recover8::<super::avx512::Avx512>(inp, out);
}
