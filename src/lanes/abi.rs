//! The C-ABI leaf functions of the 8-lane engine: the whole recovery core, field, point
//! and scalar kernels, and the 8-way Keccak, each over caller buffers, exported by name so
//! that the tests (and, with the feature `emu`, the repository's tools) can run them
//! natively or under the AVX-512 emulator (`crate::test_support::emu`) against the scalar
//! core, and so that `llvm-mca` can analyse a field multiplication and a doubling alone
//! (`scripts/mca.sh`). Compiled only for the tests and with the feature `emu`: the crate's
//! own paths enter the engine through safe Rust functions.
//!
//! Buffers are word-major: an element of eight lanes is four vectors of little-endian
//! 64-bit words, `w[k][lane]`, 32 words in all.

use super::avx512::Avx512;
use super::hybrid::{self, Mode};
use super::keccak::{keccak_f1600_x8_words, keccak256_64_x8_words};
use super::lane_field::{LaneField, Linear};
use super::point::{Aff8, Jac8};
use super::records::{Input8, Output8};
use super::recover::{Avx512FField, IfmaField};
use super::scalar::Sc8;
use super::{Backend, LANES};
use crate::secp256k1::field::{FieldElement as Fe, MulxAdx};
use crate::secp256k1::group::Jacobian;

type B = Avx512;

/// Words per eight-lane element.
pub const ELEM: usize = 4 * LANES;

#[inline(always)]
fn load4(p: *const u64) -> [__V; 4] {
    // SAFETY: callers of the exported kernels guarantee 32 readable words at `p`.
    core::array::from_fn(|k| B::load(unsafe { &*(p.add(k * LANES) as *const [u64; LANES]) }))
}

#[inline(always)]
fn store4(p: *mut u64, w: [__V; 4]) {
    for (k, v) in w.into_iter().enumerate() {
        // SAFETY: callers of the exported kernels guarantee 32 writable words at `p`.
        unsafe { *(p.add(k * LANES) as *mut [u64; LANES]) = B::store(v) };
    }
}

type __V = <B as Backend>::V;

#[inline(always)]
fn fe<F: LaneField<B = B>>(p: *const u64) -> F {
    F::from_words(load4(p))
}

#[inline(always)]
fn put<F: LaneField<B = B>>(p: *mut u64, f: F) {
    store4(p, f.normalize().to_words());
}

/// The body of the `fe_ops` entries: see [`asmcrypto_avx512_fe_ops`].
#[inline(always)]
unsafe fn fe_ops<F: LaneField<B = B>>(a: *const u64, b: *const u64, out: *mut u64, count: u64) {
    for g in 0..count as usize {
        // SAFETY: in bounds by the caller's contract (see the entries).
        let (pa, pb, po) = unsafe { (a.add(g * ELEM), b.add(g * ELEM), out.add(g * 6 * ELEM)) };
        let (x, y) = (fe::<F>(pa), fe::<F>(pb));
        let results = [x.mul(&y), x.sqr(), x.add(&y), x.sub(&y), x.neg(), x];
        for (i, r) in results.into_iter().enumerate() {
            // SAFETY: in bounds by the caller's contract.
            put(unsafe { po.add(i * ELEM) }, r);
        }
    }
}

/// Field operations on `count` groups of eight lanes (5×52 on IFMA): for group g with
/// inputs `a[g]`, `b[g]` (32 words each), writes a·b, a², a + b, a − b, −a and the canonical
/// a to `out[g]` (6 × 32 words).
///
/// # Safety
/// AVX-512 F, BW and IFMA; `a` and `b` hold 32·`count` words, `out` 192·`count` words.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_fe_ops(
    a: *const u64,
    b: *const u64,
    out: *mut u64,
    count: u64,
) {
    // SAFETY: the caller's contract.
    unsafe { fe_ops::<IfmaField>(a, b, out, count) }
}

/// [`asmcrypto_avx512_fe_ops`] on the 9×29 field (AVX-512 F and BW, no IFMA).
///
/// # Safety
/// AVX-512 F and BW; buffers as [`asmcrypto_avx512_fe_ops`].
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe extern "C" fn asmcrypto_avx512f_fe_ops(
    a: *const u64,
    b: *const u64,
    out: *mut u64,
    count: u64,
) {
    // SAFETY: the caller's contract.
    unsafe { fe_ops::<Avx512FField>(a, b, out, count) }
}

/// One field multiplication of eight lanes (5×52 on IFMA): `out = a·b`, reduced but not
/// normalised, as the engine keeps its elements. A kernel `llvm-mca` analyses.
///
/// # Safety
/// AVX-512 F, BW and IFMA; 32 words behind each pointer.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_fe_mul(a: *const u64, b: *const u64, out: *mut u64) {
    let r = fe::<IfmaField>(a).mul(&fe(b));
    store4(out, r.to_words());
}

/// [`asmcrypto_avx512_fe_mul`] on the 9×29 field (AVX-512 F): the nine limbs of a and b
/// from 72 words each (limb-major), a·b to `out` (72 words). A kernel `llvm-mca` analyses.
///
/// # Safety
/// AVX-512 F and BW; 72 words behind each pointer.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe extern "C" fn asmcrypto_avx512f_fe_mul(a: *const u64, b: *const u64, out: *mut u64) {
    let (mut x, mut y) = ([B::splat(0); 9], [B::splat(0); 9]);
    for k in 0..9 {
        // SAFETY: 72 readable words behind `a` and `b`.
        unsafe {
            x[k] = B::load(&*(a.add(k * LANES) as *const [u64; LANES]));
            y[k] = B::load(&*(b.add(k * LANES) as *const [u64; LANES]));
        }
    }
    let r = super::field29::Fe29::<B>(x).mul(&super::field29::Fe29(y));
    for (k, v) in r.0.into_iter().enumerate() {
        // SAFETY: 72 writable words at `out`.
        unsafe { *(out.add(k * LANES) as *mut [u64; LANES]) = B::store(v) };
    }
}

/// The body of the `point_ops` entries: see [`asmcrypto_avx512_point_ops`].
#[inline(always)]
unsafe fn point_ops<F: LaneField<B = B>>(p: *const u64, q: *const u64, out: *mut u64, count: u64) {
    for g in 0..count as usize {
        // SAFETY: in bounds by the caller's contract.
        let (pp, pq, po) = unsafe { (p.add(g * 3 * ELEM), q.add(g * 2 * ELEM), out.add(g * 200)) };
        // SAFETY: in bounds by the caller's contract.
        let jp = unsafe {
            Jac8 {
                x: fe::<F>(pp),
                y: fe::<F>(pp.add(ELEM)),
                z: fe::<F>(pp.add(2 * ELEM)),
            }
        };
        // SAFETY: in bounds by the caller's contract.
        let aq = unsafe {
            Aff8 {
                x: fe::<F>(pq),
                y: fe::<F>(pq.add(ELEM)),
            }
        };
        let d = jp.double();
        let (s, _, deg) = jp.add_affine(&aq);
        for (i, c) in [d.x, d.y, d.z, s.x, s.y, s.z].into_iter().enumerate() {
            // SAFETY: in bounds by the caller's contract.
            put(unsafe { po.add(i * ELEM) }, c);
        }
        for lane in 0..LANES {
            // SAFETY: in bounds by the caller's contract (words 192..200 of the group).
            unsafe { *po.add(6 * ELEM + lane) = u64::from(deg >> lane & 1) };
        }
    }
}

/// Point operations on `count` groups (5×52 on IFMA): input `p[g]` is a Jacobian point (X,
/// Y, Z: 96 words) and `q[g]` an affine point (x, y: 64 words); writes 2P (96 words),
/// P + Q (96 words) and the degenerate mask of the addition (8 words, one per lane) to
/// `out[g]`.
///
/// # Safety
/// AVX-512 F, BW and IFMA; `p` holds 96·`count` words, `q` 64·`count`, `out` 200·`count`.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_point_ops(
    p: *const u64,
    q: *const u64,
    out: *mut u64,
    count: u64,
) {
    // SAFETY: the caller's contract.
    unsafe { point_ops::<IfmaField>(p, q, out, count) }
}

/// [`asmcrypto_avx512_point_ops`] on the 9×29 field (AVX-512 F and BW, no IFMA).
///
/// # Safety
/// AVX-512 F and BW; buffers as [`asmcrypto_avx512_point_ops`].
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe extern "C" fn asmcrypto_avx512f_point_ops(
    p: *const u64,
    q: *const u64,
    out: *mut u64,
    count: u64,
) {
    // SAFETY: the caller's contract.
    unsafe { point_ops::<Avx512FField>(p, q, out, count) }
}

/// The body of the `point_double` entries.
#[inline(always)]
unsafe fn point_double<F: LaneField<B = B>>(p: *const u64, out: *mut u64) {
    // SAFETY: 96 readable words at `p`.
    let jp = unsafe {
        Jac8 {
            x: fe::<F>(p),
            y: fe::<F>(p.add(ELEM)),
            z: fe::<F>(p.add(2 * ELEM)),
        }
    };
    let d = jp.double();
    for (i, c) in [d.x, d.y, d.z].into_iter().enumerate() {
        // SAFETY: 96 writable words at `out`.
        store4(unsafe { out.add(i * ELEM) }, c.to_words());
    }
}

/// One doubling of eight Jacobian points (5×52 on IFMA; 96 words in, 96 out, not
/// normalised). A kernel `llvm-mca` analyses.
///
/// # Safety
/// AVX-512 F, BW and IFMA; 96 words behind each pointer.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_point_double(p: *const u64, out: *mut u64) {
    // SAFETY: the caller's contract.
    unsafe { point_double::<IfmaField>(p, out) }
}

/// [`asmcrypto_avx512_point_double`] on the 9×29 field (AVX-512 F and BW, no IFMA).
///
/// # Safety
/// AVX-512 F and BW; 96 words behind each pointer.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe extern "C" fn asmcrypto_avx512f_point_double(p: *const u64, out: *mut u64) {
    // SAFETY: the caller's contract.
    unsafe { point_double::<Avx512FField>(p, out) }
}

/// Montgomery products mod n on `count` groups: `out[g] = a[g]·b[g]·2⁻²⁶⁰ mod n`.
///
/// # Safety
/// AVX-512 F, BW and IFMA; 32·`count` words behind each pointer.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_scalar_mont_mul(
    a: *const u64,
    b: *const u64,
    out: *mut u64,
    count: u64,
) {
    for g in 0..count as usize {
        // SAFETY: in bounds by the caller's contract.
        let (pa, pb, po) = unsafe { (a.add(g * ELEM), b.add(g * ELEM), out.add(g * ELEM)) };
        let r = Sc8::<B>::from_words(load4(pa)).mont_mul(&Sc8::from_words(load4(pb)));
        store4(po, r.to_words());
    }
}

// ----- The whole recovery core -----

/// The `count` records behind `input` and `output` as slices.
///
/// # Safety
/// `input` and `output` point to `count` valid `Input8` / `Output8` records that do not
/// overlap, and nothing else uses them while the slices live.
unsafe fn records<'a>(
    input: *const Input8,
    output: *mut Output8,
    count: u64,
) -> (&'a [Input8], &'a mut [Output8]) {
    // SAFETY: the caller's contract.
    unsafe {
        (
            core::slice::from_raw_parts(input, count as usize),
            core::slice::from_raw_parts_mut(output, count as usize),
        )
    }
}

/// The AVX-512 IFMA recovery core over caller buffers: processes `count` consecutive
/// groups of eight (up to `GROUPS` at a time, their inversions shared, as the batch path
/// does). A leaf function (no allocation, no I/O), so it also runs under the AVX-512
/// emulator.
///
/// # Safety
/// The CPU must support AVX-512 F, BW and IFMA; `input` and `output` must point to
/// `count` valid, non-overlapping `Input8` / `Output8` records.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_recover8(
    input: *const Input8,
    output: *mut Output8,
    count: u64,
) {
    // SAFETY: the caller's contract (valid, non-overlapping records).
    let (inps, outs) = unsafe { records(input, output, count) };
    super::recover::lift_recover_avx512_body(inps, outs);
}

/// [`asmcrypto_avx512_recover8`] on AVX-512 F without IFMA (the 9×29 field).
///
/// # Safety
/// The CPU must support AVX-512 F and BW; records as [`asmcrypto_avx512_recover8`].
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe extern "C" fn asmcrypto_avx512f_recover8(
    input: *const Input8,
    output: *mut Output8,
    count: u64,
) {
    // SAFETY: the caller's contract (valid, non-overlapping records).
    let (inps, outs) = unsafe { records(input, output, count) };
    super::recover::lift_recover_avx512f_body(inps, outs);
}

// ----- P-256 -----

/// Words per lane of [`asmcrypto_avx512_p256_verify8`]'s input.
pub const P256_LANE_WORDS: usize = 20;

/// Eight P-256 verifications a group on AVX-512 IFMA (`super::p256::verify::verify_group`),
/// `count` groups. Per group, `input` holds eight lanes of [`P256_LANE_WORDS`] words each:
/// u₁, u₂ and r (little-endian, below n), then the key's x and y as the scalar core's
/// Montgomery words; `output` gets two words per group, the lanes that verified and the
/// lanes for the scalar core. A leaf function, so it also runs under the AVX-512 emulator.
///
/// # Safety
/// The CPU must support AVX-512 F, BW and IFMA; `input` must point to
/// `count`·8·[`P256_LANE_WORDS`] readable words and `output` to `count`·2 writable ones,
/// not overlapping; every key must be on the curve.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_p256_verify8(
    input: *const u64,
    output: *mut u64,
    count: u64,
) {
    use super::p256::verify::{Lane, verify_group};
    use crate::p256::field::Fe;
    use crate::p256::group::Affine;
    use crate::p256::scalar::Scalar;
    let n = count as usize;
    // SAFETY: the caller's contract (sizes, no overlap).
    let (inp, out) = unsafe {
        (
            core::slice::from_raw_parts(input, n * LANES * P256_LANE_WORDS),
            core::slice::from_raw_parts_mut(output, 2 * n),
        )
    };
    for (group, verdict) in inp
        .chunks_exact(LANES * P256_LANE_WORDS)
        .zip(out.chunks_exact_mut(2))
    {
        let word4 = |i: usize, k: usize| -> [u64; 4] {
            let at = i * P256_LANE_WORDS + 4 * k;
            [group[at], group[at + 1], group[at + 2], group[at + 3]]
        };
        let keys: [Affine; LANES] = core::array::from_fn(|i| Affine {
            x: Fe::from_montgomery(word4(i, 3)),
            y: Fe::from_montgomery(word4(i, 4)),
        });
        let lanes: [Lane; LANES] = core::array::from_fn(|i| Lane {
            u1: Scalar(word4(i, 0)),
            u2: Scalar(word4(i, 1)),
            r: Scalar(word4(i, 2)),
            q: &keys[i],
        });
        let v = verify_group::<B>(&lanes);
        verdict[0] = v.valid as u64;
        verdict[1] = v.retry as u64;
    }
}

// ----- 8-way Keccak -----

/// Eight states side by side, word-major: `g[w][i]` is word `w` of state `i`.
type Group = [[u64; LANES]; 25];

/// Applies Keccak-f\[1600\] to every group of eight states.
#[inline(always)]
fn permute_groups<B: Backend>(groups: &mut [Group]) {
    for g in groups {
        keccak_f1600_x8_words::<B>(g);
    }
}

/// Hashes every group of eight 64-byte messages (`msgs[g][k]` lane `i`: word `k` of message
/// `i` of group `g`) into `out[g]` (word `k` of hash `i` at `out[g][k][i]`). Stops at the
/// shorter of the two slices.
#[inline(always)]
fn hash64_groups<B: Backend>(msgs: &[[[u64; LANES]; 8]], out: &mut [[[u64; LANES]; 4]]) {
    for (m, o) in msgs.iter().zip(out.iter_mut()) {
        *o = keccak256_64_x8_words::<B>(m);
    }
}

/// [`keccak_f1600_x8`](super::keccak::keccak_f1600_x8) with the portable backend, on groups of states laid out as the
/// AVX-512 entry point expects.
#[cfg(test)]
fn keccak_f1600_x8_portable(groups: &mut [Group]) {
    permute_groups::<super::portable::Portable>(groups);
}

/// Applies Keccak-f\[1600\] with the AVX-512 backend to `count` consecutive groups of eight
/// states, in place. Each group is `[u64; 25 * 8]`, word-major: word `w` of state `i` at
/// index `8 * w + i`.
///
/// A leaf function (no allocation, no panics, no calls), so the emulator in `../shared/emu`
/// can run it; the tests drive it natively and emulated.
///
/// # Safety
///
/// The CPU must support AVX-512 F, BW and IFMA, and `state` must point to `200 * count`
/// readable and writable `u64`s (8-byte aligned) that nothing else accesses during the call.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_keccak_f1600_x8(state: *mut u64, count: u64) {
    // SAFETY: the caller guarantees `state` addresses `count` groups of 200 words, exclusively.
    let groups = unsafe { core::slice::from_raw_parts_mut(state.cast::<Group>(), count as usize) };
    permute_groups::<Avx512>(groups);
}

/// Computes [`keccak256_64_x8`](super::keccak::keccak256_64_x8) with the AVX-512 backend for `count` groups of eight
/// 64-byte messages: group `g` reads `msg[64 g .. 64 g + 64]` (word `k` of message `i` at
/// index `8 k + i`) and writes `out[32 g .. 32 g + 32]` (word `k` of hash `i` at `8 k + i`).
///
/// A leaf function for the tests and the emulator, like
/// [`asmcrypto_avx512_keccak_f1600_x8`].
///
/// # Safety
///
/// The CPU must support AVX-512 F, BW and IFMA; `msg` must point to `64 * count` readable
/// `u64`s and `out` to `32 * count` writable `u64`s (both 8-byte aligned, not overlapping,
/// `out` not accessed by anything else during the call).
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_keccak256_64_x8(
    msg: *const u64,
    out: *mut u64,
    count: u64,
) {
    // SAFETY: the caller guarantees `msg` addresses `count` groups of 64 readable words.
    let msgs = unsafe { core::slice::from_raw_parts(msg.cast(), count as usize) };
    // SAFETY: the caller guarantees `out` addresses `count` groups of 32 words, exclusively.
    let outs = unsafe { core::slice::from_raw_parts_mut(out.cast(), count as usize) };
    hash64_groups::<Avx512>(msgs, outs);
}

/// The body of the hybrid entries (issue 39's experiment, `super::hybrid`): `iters`
/// chained doublings, issued as `mode` says, of the eight Jacobian points at `lanes`
/// (x, y, z: 96 words, word-major) and of the `K` scalar-core Jacobian points at `scalar`
/// (x, y, z as four little-endian words each: 12 words a point), none at infinity; the
/// results replace them (the lanes normalised).
#[inline(always)]
unsafe fn hybrid_double<F: LaneField<B = B>, const K: usize>(
    mode: Mode,
    lanes: *mut u64,
    scalar: *mut u64,
    iters: u64,
) {
    let Some(m) = MulxAdx::detect() else {
        return;
    };
    // SAFETY: 96 words at `lanes`, 12·K at `scalar`, by the caller's contract.
    let (mut jl, mut js) = unsafe {
        let jl = Jac8 {
            x: fe::<F>(lanes),
            y: fe::<F>(lanes.add(ELEM)),
            z: fe::<F>(lanes.add(2 * ELEM)),
        };
        let js: [Jacobian; K] = core::array::from_fn(|j| {
            let w = |c: usize| Fe::from_u64x4(*(scalar.add(12 * j + 4 * c) as *const [u64; 4]));
            Jacobian {
                x: w(0),
                y: w(1),
                z: w(2),
                infinity: false,
            }
        });
        (jl, js)
    };
    // The second group of the pair modes is checked inside (the first spoiled where it
    // disagrees), so only the first comes back.
    let _ = hybrid::run(mode, m, &mut jl, &mut js, iters);
    for (i, c) in [jl.x, jl.y, jl.z].into_iter().enumerate() {
        // SAFETY: 96 writable words at `lanes`.
        put(unsafe { lanes.add(i * ELEM) }, c);
    }
    for (j, p) in js.iter().enumerate() {
        for (c, f) in [p.x, p.y, p.z].into_iter().enumerate() {
            // SAFETY: 12·K writable words at `scalar`.
            unsafe { *(scalar.add(12 * j + 4 * c) as *mut [u64; 4]) = f.normalize().to_u64x4() };
        }
    }
}

/// The body of both loop entries: `mode` by number ([`Mode::ALL`]) and `k` (1 or 2) checked,
/// then [`hybrid_double`]; other values do nothing.
#[inline(always)]
unsafe fn hybrid_loop<F: LaneField<B = B>>(
    lanes: *mut u64,
    scalar: *mut u64,
    k: u64,
    iters: u64,
    mode: u64,
) {
    let Some(&mode) = Mode::ALL.get(mode as usize) else {
        return;
    };
    // SAFETY: the caller's contract, passed on.
    unsafe {
        match k {
            1 => hybrid_double::<F, 1>(mode, lanes, scalar, iters),
            2 => hybrid_double::<F, 2>(mode, lanes, scalar, iters),
            _ => {}
        }
    }
}

/// `iters` chained doublings of eight lanes (5×52 on IFMA) and of `k` (1 or 2) points on
/// the scalar core's MULX/ADX multiply, in mode `mode` (0 to 5: [`Mode::ALL`]); see
/// [`hybrid_double`] for the buffers. Other `k` or `mode` do nothing.
///
/// # Safety
/// AVX-512 F, BW and IFMA, BMI2 and ADX; 96 words at `lanes` and 12·`k` at `scalar`,
/// readable and writable.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma,bmi2,adx")]
pub unsafe extern "C" fn asmcrypto_avx512_hybrid_double_loop(
    lanes: *mut u64,
    scalar: *mut u64,
    k: u64,
    iters: u64,
    mode: u64,
) {
    // SAFETY: the caller's contract.
    unsafe { hybrid_loop::<IfmaField>(lanes, scalar, k, iters, mode) }
}

/// [`asmcrypto_avx512_hybrid_double_loop`] on the 9×29 field (AVX-512 F and BW, no IFMA).
///
/// # Safety
/// AVX-512 F and BW, BMI2 and ADX; buffers as [`asmcrypto_avx512_hybrid_double_loop`].
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,bmi2,adx")]
pub unsafe extern "C" fn asmcrypto_avx512f_hybrid_double_loop(
    lanes: *mut u64,
    scalar: *mut u64,
    k: u64,
    iters: u64,
    mode: u64,
) {
    // SAFETY: the caller's contract.
    unsafe { hybrid_loop::<Avx512FField>(lanes, scalar, k, iters, mode) }
}

/// One doubling as straight-line code, the kernels `llvm-mca` models (`scripts/mca.sh`):
/// `$name` runs mode `$mode` with `$k` scalar points on the lane field `$f`.
macro_rules! hybrid_kernel {
    ($name:ident, $features:literal, $f:ty, $k:literal, $mode:expr) => {
        #[doc = concat!("One doubling, mode `", stringify!($mode), "`, ", stringify!($k),
            " scalar point(s), lane field `", stringify!($f), "` (a kernel `llvm-mca` models).")]
        ///
        /// # Safety
        /// The target features named; buffers as [`asmcrypto_avx512_hybrid_double_loop`].
        #[unsafe(no_mangle)]
        #[target_feature(enable = $features)]
        pub unsafe extern "C" fn $name(lanes: *mut u64, scalar: *mut u64) {
            // SAFETY: the caller's contract.
            unsafe { hybrid_double::<$f, $k>($mode, lanes, scalar, 1) }
        }
    };
}

hybrid_kernel!(
    asmcrypto_avx512_hybrid_point_double,
    "avx512f,avx512bw,avx512ifma,bmi2,adx",
    IfmaField,
    1,
    Mode::Interleaved
);
hybrid_kernel!(
    asmcrypto_avx512_hybrid2_point_double,
    "avx512f,avx512bw,avx512ifma,bmi2,adx",
    IfmaField,
    2,
    Mode::Interleaved
);
hybrid_kernel!(
    asmcrypto_avx512_pair_point_double,
    "avx512f,avx512bw,avx512ifma,bmi2,adx",
    IfmaField,
    1,
    Mode::Pair
);
hybrid_kernel!(
    asmcrypto_avx512f_hybrid_point_double,
    "avx512f,avx512bw,bmi2,adx",
    Avx512FField,
    1,
    Mode::Interleaved
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::field::tests::edge_elements;
    use crate::secp256k1::field::FieldElement;
    use crate::secp256k1::group::{G, Jacobian};
    use crate::secp256k1::scalar::{N, Scalar};
    use crate::test_support::emu;
    use crate::test_support::rng::splitmix64 as rng;

    /// Runs a kernel natively (if the CPU has AVX-512 IFMA) and under the emulator (if
    /// BXRUN is set), returning each run's output buffer.
    fn runs(
        symbol: &str,
        native: impl Fn(&[u64], &[u64], &mut [u64]),
        a: &[u64],
        b: &[u64],
        out_len: usize,
        count: u64,
    ) -> Vec<Vec<u64>> {
        let mut outs = Vec::new();
        if crate::dispatch::avx512_native().is_some() {
            let mut out = vec![0u64; out_len];
            native(a, b, &mut out);
            outs.push(out);
        }
        if emu::runner().is_some() {
            let bytes = |w: &[u64]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
            let (ba, bb, bo) = (bytes(a), bytes(b), vec![0u8; out_len * 8]);
            let res = emu::call(
                symbol,
                &[
                    emu::Arg::Buf(&ba),
                    emu::Arg::Buf(&bb),
                    emu::Arg::Buf(&bo),
                    emu::Arg::Int(count),
                ],
                false,
            );
            outs.push(
                res.bufs[2]
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                    .collect(),
            );
        }
        if outs.is_empty() {
            eprintln!("skipped: no AVX-512");
        }
        outs
    }

    fn lanes_of(w: &[u64], lane: usize) -> [u64; 4] {
        core::array::from_fn(|k| w[k * LANES + lane])
    }

    fn pack(vals: &[[u64; 4]]) -> Vec<u64> {
        let mut out = vec![0u64; vals.len().div_ceil(LANES) * ELEM];
        for (i, v) in vals.iter().enumerate() {
            let (g, lane) = (i / LANES, i % LANES);
            for k in 0..4 {
                out[g * ELEM + k * LANES + lane] = v[k];
            }
        }
        out
    }

    #[test]
    fn avx512_field_ops_match_scalar_core() {
        std::hint::black_box(asmcrypto_avx512_fe_ops as *const () as usize);
        let a: Vec<[u64; 4]> = edge_elements(11, 1011)
            .iter()
            .map(|f| f.to_u64x4())
            .collect();
        let b: Vec<[u64; 4]> = a.iter().rev().cloned().collect();
        let (pa, pb) = (pack(&a), pack(&b));
        let count = (a.len() / LANES) as u64;
        for out in runs(
            "asmcrypto_avx512_fe_ops",
            // SAFETY: the CPU has AVX-512 IFMA (checked by `runs`); buffer sizes as documented.
            |a, b, o| unsafe {
                asmcrypto_avx512_fe_ops(a.as_ptr(), b.as_ptr(), o.as_mut_ptr(), count)
            },
            &pa,
            &pb,
            count as usize * 6 * ELEM,
            count,
        ) {
            for i in 0..count as usize * LANES {
                let (g, lane) = (i / LANES, i % LANES);
                let (x, y) = (
                    FieldElement::from_u64x4(a[i]),
                    FieldElement::from_u64x4(b[i]),
                );
                let want = [x.mul(&y), x.sqr(), x.add(&y), x.sub(&y), x.neg(), x];
                for (j, w) in want.iter().enumerate() {
                    let got = lanes_of(&out[g * 6 * ELEM + j * ELEM..], lane);
                    assert_eq!(got, w.normalize().to_u64x4(), "op {j}, input {i}");
                }
            }
        }
    }

    #[test]
    fn avx512_point_ops_match_scalar_core() {
        std::hint::black_box(asmcrypto_avx512_point_ops as *const () as usize);
        let count = 16;
        let mut s = 5u64;
        let mut p = Vec::new();
        let mut q = Vec::new();
        let mut acc = G.to_jacobian();
        for i in 0..count * LANES {
            for _ in 0..1 + rng(&mut s) % 3 {
                acc = acc.double().add_ge(&G).0;
            }
            let pj = acc.double(); // Z ≠ 1
            let qa = if i % 13 == 5 {
                pj.to_affine()
            } else {
                acc.add_ge(&G).0.to_affine()
            };
            p.push(pj);
            q.push(qa);
        }
        let coords = |f: &dyn Fn(&Jacobian) -> FieldElement| {
            pack(&p.iter().map(|j| f(j).to_u64x4()).collect::<Vec<_>>())
        };
        let (px, py, pz) = (coords(&|j| j.x), coords(&|j| j.y), coords(&|j| j.z));
        let (qx, qy) = (
            pack(&q.iter().map(|a| a.x.to_u64x4()).collect::<Vec<_>>()),
            pack(&q.iter().map(|a| a.y.to_u64x4()).collect::<Vec<_>>()),
        );
        let mut pbuf = Vec::new();
        let mut qbuf = Vec::new();
        for g in 0..count {
            for c in [&px, &py, &pz] {
                pbuf.extend_from_slice(&c[g * ELEM..(g + 1) * ELEM]);
            }
            for c in [&qx, &qy] {
                qbuf.extend_from_slice(&c[g * ELEM..(g + 1) * ELEM]);
            }
        }
        for out in runs(
            "asmcrypto_avx512_point_ops",
            // SAFETY: AVX-512 IFMA checked by `runs`; buffer sizes as documented.
            |a, b, o| unsafe {
                asmcrypto_avx512_point_ops(a.as_ptr(), b.as_ptr(), o.as_mut_ptr(), count as u64)
            },
            &pbuf,
            &qbuf,
            count * 200,
            count as u64,
        ) {
            for i in 0..count * LANES {
                let (g, lane) = (i / LANES, i % LANES);
                let o = &out[g * 200..];
                let jac = |c: usize| Jacobian {
                    x: FieldElement::from_u64x4(lanes_of(&o[c * ELEM..], lane)),
                    y: FieldElement::from_u64x4(lanes_of(&o[(c + 1) * ELEM..], lane)),
                    z: FieldElement::from_u64x4(lanes_of(&o[(c + 2) * ELEM..], lane)),
                    infinity: false,
                };
                let same = |a: &Jacobian, b: &Jacobian| {
                    let (a, b) = (a.to_affine(), b.to_affine());
                    a.x.to_bytes() == b.x.to_bytes() && a.y.to_bytes() == b.y.to_bytes()
                };
                assert!(same(&jac(0), &p[i].double()), "double {i}");
                let degenerate = o[6 * ELEM + lane] == 1;
                assert_eq!(degenerate, i % 13 == 5, "degenerate flag {i}");
                if !degenerate {
                    assert!(same(&jac(3), &p[i].add_ge(&q[i]).0), "add {i}");
                }
            }
        }
    }

    #[test]
    fn avx512_scalar_mont_mul_matches_scalar_core() {
        std::hint::black_box(asmcrypto_avx512_scalar_mont_mul as *const () as usize);
        let mut s = 9u64;
        let mut vals: Vec<[u64; 4]> = vec![
            [0; 4],
            [1, 0, 0, 0],
            Scalar::ONE.negate().0,
            [N[0] - 2, N[1], N[2], N[3]],
        ];
        while vals.len() < 800 {
            let w = [rng(&mut s), rng(&mut s), rng(&mut s), rng(&mut s)];
            vals.push(Scalar::from_bytes_reduced(&Scalar::from_words(w).to_bytes()).0);
        }
        let other: Vec<[u64; 4]> = vals.iter().rev().cloned().collect();
        let (pa, pb) = (pack(&vals), pack(&other));
        let count = (vals.len() / LANES) as u64;
        // 2⁻²⁶⁰ mod n, to check the Montgomery factor.
        let rinv = Scalar::from_words([0, 1 << 4, 0, 0])
            .mul(&Scalar::from_words([0, 0, 0, 1]))
            .inv();
        for out in runs(
            "asmcrypto_avx512_scalar_mont_mul",
            // SAFETY: AVX-512 IFMA checked by `runs`; buffer sizes as documented.
            |a, b, o| unsafe {
                asmcrypto_avx512_scalar_mont_mul(a.as_ptr(), b.as_ptr(), o.as_mut_ptr(), count)
            },
            &pa,
            &pb,
            count as usize * ELEM,
            count,
        ) {
            for i in 0..vals.len() {
                let got = lanes_of(&out[(i / LANES) * ELEM..], i % LANES);
                let want = Scalar::from_words(vals[i])
                    .mul(&Scalar::from_words(other[i]))
                    .mul(&rinv);
                assert_eq!(got, want.0, "input {i}");
            }
        }
    }
}

#[cfg(test)]
mod keccak_tests {
    use super::super::portable::Portable;
    use super::*;
    use crate::keccak::{keccak_f1600, keccak256};
    use crate::test_support::rng::SplitMix64 as Rng;

    fn random_groups(n: usize, seed: u64) -> Vec<Group> {
        let mut rng = Rng(seed);
        (0..n)
            .map(|g| {
                let mut grp = [[0u64; LANES]; 25];
                for (w, word) in grp.iter_mut().enumerate() {
                    for (i, x) in word.iter_mut().enumerate() {
                        // Group 0, lane 0 stays all-zero (the published test vector).
                        *x = if g == 0 && i == 0 {
                            0
                        } else if g == 0 && i == 1 {
                            // A sparse state: one bit per word.
                            1 << (w % 64)
                        } else {
                            rng.next_u64()
                        };
                    }
                }
                grp
            })
            .collect()
    }

    /// The reference: the scalar permutation applied to every state of every group.
    fn scalar_permute(groups: &[Group]) -> Vec<Group> {
        groups
            .iter()
            .map(|g| {
                let mut out = *g;
                for i in 0..LANES {
                    let mut s: [u64; 25] = core::array::from_fn(|w| g[w][i]);
                    keccak_f1600(&mut s);
                    for w in 0..25 {
                        out[w][i] = s[w];
                    }
                }
                out
            })
            .collect()
    }

    fn random_messages(n: usize, seed: u64) -> Vec<[[u64; LANES]; 8]> {
        let mut rng = Rng(seed);
        (0..n)
            .map(|_| core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64())))
            .collect()
    }

    fn scalar_hash64(msgs: &[[[u64; LANES]; 8]]) -> Vec<[[u64; LANES]; 4]> {
        msgs.iter()
            .map(|m| {
                let mut out = [[0u64; LANES]; 4];
                for i in 0..LANES {
                    let mut bytes = [0u8; 64];
                    for k in 0..8 {
                        bytes[8 * k..8 * k + 8].copy_from_slice(&m[k][i].to_le_bytes());
                    }
                    let h = keccak256(&bytes);
                    for k in 0..4 {
                        out[k][i] = u64::from_le_bytes(h[8 * k..8 * k + 8].try_into().unwrap());
                    }
                }
                out
            })
            .collect()
    }

    fn flatten<const N: usize>(groups: &[[[u64; LANES]; N]]) -> Vec<u8> {
        groups
            .iter()
            .flat_map(|g| {
                g.iter()
                    .flat_map(|w| w.iter().flat_map(|x| x.to_le_bytes()))
            })
            .collect()
    }

    fn unflatten<const N: usize>(bytes: &[u8]) -> Vec<[[u64; LANES]; N]> {
        let words: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        words
            .chunks_exact(N * LANES)
            .map(|g| core::array::from_fn(|w| core::array::from_fn(|i| g[LANES * w + i])))
            .collect()
    }

    #[test]
    fn portable_permutation_matches_scalar() {
        let mut groups = random_groups(64, 1);
        let want = scalar_permute(&groups);
        keccak_f1600_x8_portable(&mut groups);
        assert_eq!(groups, want);
        // The all-zero state's image, from the Keccak team's intermediate values.
        assert_eq!(groups[0][0][0], 0xF125_8F79_40E1_DDE7);
        assert_eq!(groups[0][24][0], 0xEAF1_FF7B_5CEC_A249);
    }

    #[test]
    fn portable_hash64_matches_scalar() {
        let msgs = random_messages(64, 2);
        let mut out = vec![[[0u64; LANES]; 4]; msgs.len()];
        hash64_groups::<Portable>(&msgs, &mut out);
        assert_eq!(out, scalar_hash64(&msgs));
    }

    #[test]
    fn portable_hash64_of_zero_keys() {
        let out = keccak256_64_x8_words::<Portable>(&[[0u64; LANES]; 8]);
        let want = keccak256(&[0u8; 64]);
        for (k, word) in out.iter().enumerate() {
            let w = u64::from_le_bytes(want[8 * k..8 * k + 8].try_into().unwrap());
            assert_eq!(*word, [w; LANES]);
        }
    }

    /// Keeps the exported symbols in the test binary, where the emulator looks them up.
    #[cfg(target_arch = "x86_64")]
    fn keep_symbols() {
        std::hint::black_box(
            asmcrypto_avx512_keccak_f1600_x8 as unsafe extern "C" fn(_, _) as usize,
        );
        std::hint::black_box(
            asmcrypto_avx512_keccak256_64_x8 as unsafe extern "C" fn(_, _, _) as usize,
        );
    }

    #[test]
    fn avx512_permutation_matches_scalar() {
        let mut ran = false;
        #[cfg(target_arch = "x86_64")]
        {
            keep_symbols();
            let groups = random_groups(256, 3);
            let want = scalar_permute(&groups);
            if crate::dispatch::avx512_native().is_some() {
                let mut native = groups.clone();
                // SAFETY: the CPU has AVX-512 F/BW/IFMA (checked above) and `native` holds
                // `native.len()` groups of 200 words, exclusively borrowed.
                unsafe {
                    asmcrypto_avx512_keccak_f1600_x8(
                        native.as_mut_ptr().cast(),
                        native.len() as u64,
                    )
                };
                assert_eq!(native, want, "native AVX-512");
                ran = true;
            }
            if crate::test_support::emu::runner().is_some() {
                use crate::test_support::emu::{Arg, call};
                let buf = flatten(&groups);
                let out = call(
                    "asmcrypto_avx512_keccak_f1600_x8",
                    &[Arg::Buf(&buf), Arg::Int(groups.len() as u64)],
                    false,
                );
                assert_eq!(unflatten::<25>(&out.bufs[0]), want, "emulated AVX-512");
                ran = true;
            }
        }
        if !ran {
            println!("skipped: no AVX-512");
        }
    }

    #[test]
    fn avx512_hash64_matches_scalar() {
        let mut ran = false;
        #[cfg(target_arch = "x86_64")]
        {
            keep_symbols();
            let msgs = random_messages(256, 4);
            let want = scalar_hash64(&msgs);
            if crate::dispatch::avx512_native().is_some() {
                let mut out = vec![[[0u64; LANES]; 4]; msgs.len()];
                // SAFETY: the CPU has AVX-512 F/BW/IFMA (checked above); `msgs` and `out`
                // hold `msgs.len()` groups of 64 and 32 words, `out` exclusively borrowed.
                unsafe {
                    asmcrypto_avx512_keccak256_64_x8(
                        msgs.as_ptr().cast(),
                        out.as_mut_ptr().cast(),
                        msgs.len() as u64,
                    )
                };
                assert_eq!(out, want, "native AVX-512");
                ran = true;
            }
            if crate::test_support::emu::runner().is_some() {
                use crate::test_support::emu::{Arg, call};
                let out = call(
                    "asmcrypto_avx512_keccak256_64_x8",
                    &[
                        Arg::Buf(&flatten(&msgs)),
                        Arg::Buf(&vec![0u8; 256 * msgs.len()]),
                        Arg::Int(msgs.len() as u64),
                    ],
                    false,
                );
                assert_eq!(unflatten::<4>(&out.bufs[1]), want, "emulated AVX-512");
                ran = true;
            }
        }
        if !ran {
            println!("skipped: no AVX-512");
        }
    }
}
