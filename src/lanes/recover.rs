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

use super::field::Fe8;
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

use crate::secp256k1::recode::{G_DIGITS, R_DIGITS, R_TABLE, Recoding, TOP_BIT, W_G, W_R};

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

#[cfg(all(target_arch = "x86_64", any(test, feature = "emu")))]
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

#[cfg(all(target_arch = "x86_64", any(test, feature = "emu")))]
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

/// Per-lane recodings of the four half-scalars, column-major, plus the corrections.
struct Schedule {
    /// Table index (|d| >> 1) of the R and λR digits per column, lane.
    r_idx: [[[u64; LANES]; R_DIGITS]; 2],
    /// Lanes whose R / λR digit is negative, per column.
    r_neg: [[u8; R_DIGITS]; 2],
    /// Table index of the G and 2¹²⁸G digits.
    g_idx: [[[u64; LANES]; G_DIGITS]; 2],
    g_neg: [[u8; G_DIGITS]; 2],
    /// Lanes needing a correction of ∓R, ∓λR (sign in `corr_r_neg`), −G, −2¹²⁸G.
    corr_r: [u8; 2],
    corr_r_neg: [u8; 2],
    corr_g: [u8; 2],
    /// Lanes that must go to the scalar path.
    retry: u8,
}

impl Schedule {
    fn new(u1: &[Scalar; LANES], u2: &[Scalar; LANES]) -> Self {
        let mut s = Schedule {
            r_idx: [[[0; LANES]; R_DIGITS]; 2],
            r_neg: [[0; R_DIGITS]; 2],
            g_idx: [[[0; LANES]; G_DIGITS]; 2],
            g_neg: [[0; G_DIGITS]; 2],
            corr_r: [0; 2],
            corr_r_neg: [0; 2],
            corr_g: [0; 2],
            retry: 0,
        };
        for lane in 0..LANES {
            let bit = 1u8 << lane;
            let Some(rc) = Recoding::new(&u1[lane], &u2[lane]) else {
                s.retry |= bit;
                continue;
            };
            for h in 0..2 {
                for (col, &d) in rc.r[h].iter().enumerate() {
                    s.r_idx[h][col][lane] = (d.unsigned_abs() >> 1) as u64;
                    if d < 0 {
                        s.r_neg[h][col] |= bit;
                    }
                }
                for (col, &d) in rc.g[h].iter().enumerate() {
                    s.g_idx[h][col][lane] = (d.unsigned_abs() >> 1) as u64;
                    if d < 0 {
                        s.g_neg[h][col] |= bit;
                    }
                }
                if rc.corr_r[h] != 0 {
                    s.corr_r[h] |= bit;
                    if rc.corr_r[h] < 0 {
                        s.corr_r_neg[h] |= bit;
                    }
                }
                if rc.corr_g[h] {
                    s.corr_g[h] |= bit;
                }
            }
        }
        s
    }
}

/// A table of 16 lane points laid out for gathers: word ((e·2 + c)·5 + k)·8 + lane holds
/// limb k of coordinate c (0 = x, 1 = y) of entry e in that lane.
struct LaneTable {
    words: [u64; R_TABLE * 2 * 5 * LANES],
}

impl LaneTable {
    #[inline(always)]
    fn new<B: Backend>(pts: &[Aff8<B>; R_TABLE]) -> Self {
        let mut words = [0u64; R_TABLE * 2 * 5 * LANES];
        for (e, p) in pts.iter().enumerate() {
            for (c, coord) in [p.x, p.y].iter().enumerate() {
                for k in 0..5 {
                    let at = ((e * 2 + c) * 5 + k) * LANES;
                    words[at..at + LANES].copy_from_slice(&B::store(coord.0[k]));
                }
            }
        }
        LaneTable { words }
    }

    /// Entry `idx[i]` in lane i, negated where `neg` is set.
    #[inline(always)]
    fn get<B: Backend>(&self, idx: &[u64; LANES], neg: u8) -> Aff8<B> {
        let lane = B::load(&[0, 1, 2, 3, 4, 5, 6, 7]);
        let base = B::add(B::shl::<4>(B::load(idx)), B::shl::<6>(B::load(idx))); // idx·80
        let base = B::add(base, lane);
        let mut xy = [[B::splat(0); 5]; 2];
        for (c, coord) in xy.iter_mut().enumerate() {
            for (k, limb) in coord.iter_mut().enumerate() {
                let off = B::splat(((c * 5 + k) * LANES) as u64);
                *limb = B::gather_words(&self.words, B::add(base, off));
            }
        }
        Aff8 {
            x: Fe8(xy[0]),
            y: Fe8(xy[1]),
        }
        .neg_lanes(neg)
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
    let sched = Schedule::new(&u1, &u2);
    let mut degenerate = sched.retry;

    // 5. R, 3R, …, 31R on the isomorphic curve where 2R is affine, and their λ images.
    let d = Jac8 {
        x: big_r.x,
        y: big_r.y,
        z: Fe8::splat(&FieldElement::ONE),
    }
    .double();
    let d_aff = Aff8 { x: d.x, y: d.y };
    let cz = d.z;
    let cz2 = cz.sqr();
    let mut pts = [Jac8 {
        x: big_r.x.mul(&cz2),
        y: big_r.y.mul(&cz2.mul(&cz)),
        z: Fe8::splat(&FieldElement::ONE),
    }; R_TABLE];
    let mut zr = [Fe8::<B>::zero(); R_TABLE];
    for i in 1..R_TABLE {
        let (p, ratio, deg) = pts[i - 1].add_affine(&d_aff);
        degenerate |= deg;
        pts[i] = p;
        zr[i] = ratio;
    }
    let last = R_TABLE - 1;
    let mut table = [Aff8 {
        x: pts[last].x,
        y: pts[last].y,
    }; R_TABLE];
    let mut zs = zr[last];
    for i in (0..last).rev() {
        let zs2 = zs.sqr();
        table[i] = Aff8 {
            x: pts[i].x.mul(&zs2),
            y: pts[i].y.mul(&zs2.mul(&zs)),
        };
        if i > 0 {
            zs = zs.mul(&zr[i]);
        }
    }
    let zt = cz.mul(&pts[last].z);
    let beta = Fe8::splat(&FieldElement::BETA);
    let mut lam_table = table;
    for p in lam_table.iter_mut() {
        p.x = p.x.mul(&beta);
    }
    let tab = [LaneTable::new(&table), LaneTable::new(&lam_table)];
    let gtab = [tables::pre_g(), tables::pre_g128()];

    // 6. Strauss: bit 126 down to 0.
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
    for bit in (0..TOP_BIT).rev() {
        acc = acc.double();
        if bit % W_R as usize == 0 {
            let col = bit / W_R as usize;
            for (h, t) in tab.iter().enumerate() {
                let p = t.get::<B>(&sched.r_idx[h][col], sched.r_neg[h][col]);
                let (a, _, deg) = acc.add_affine(&p);
                acc = a;
                degenerate |= deg;
            }
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

    // Corrections for halves that were even: ∓R, ∓λR, −G, −2¹²⁸G, in the lanes that need
    // them.
    for (h, gt) in gtab.iter().enumerate() {
        let mask = sched.corr_r[h];
        if mask != 0 {
            let p = [table[0], lam_table[0]][h].neg_lanes(sched.corr_r_neg[h]);
            let (a, _, deg) = acc.add_affine(&p);
            acc = Jac8::select(mask, &a, &acc);
            degenerate |= deg & mask;
        }
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
