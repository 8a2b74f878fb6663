//! The scalar core's batch path, for CPUs without the 8-lane engine: every input parsed
//! and every R lifted first (the square roots side by side), r⁻¹ and the final 1/Z shared
//! by batch inversions, from 16 signatures on R's tables built for many signatures at once
//! with shared inversions, each signature's u₁·G + u₂·R by the single path's Strauss loop,
//! and the keys hashed eight at a time. Returns exactly what
//! [`recover_address`](crate::recover_address) returns for each input.
//!
//! Why one signature at a time: on the MULX/ADX field a doubling or an addition already
//! keeps the core busy (≈ 2.9 instructions per cycle on AMD Zen 5), so running several
//! signatures' formulas side by side, or a batch-affine ladder with one inversion per round,
//! measured slower; the cost model and the measurements are in `doc/internals.md`
//! ("Batches without AVX-512").

use super::Signed;
use crate::error::Error;
use crate::recover::{Parsed, parse, recover_address, serialize};
use crate::secp256k1::ecmult::{ecmult_table_with, ecmult_with};
use crate::secp256k1::field::{FieldElement as Fe, FieldMul};
use crate::secp256k1::group::{Affine, Jacobian};
use crate::secp256k1::scalar::Scalar;
use crate::secp256k1::{affine_tables, batch_inv};

/// Every input's result on the scalar core: one signature alone as [`recover_address`]
/// does, more through the shared parse, lift, inversions and hashing.
pub(crate) fn recover_many(inputs: &[Signed]) -> Vec<Result<[u8; 20], Error>> {
    if let [(hash, sig)] = inputs {
        return vec![recover_address(hash, sig)];
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(m) = crate::secp256k1::field::MulxAdx::detect() {
        return recover_many_with(m, inputs);
    }
    recover_many_with(crate::secp256k1::field::BASELINE, inputs)
}

/// [`recover_many`] on the multiply `m`, the whole path compiled for it.
#[inline(never)]
fn recover_many_with<M: FieldMul>(m: M, inputs: &[Signed]) -> Vec<Result<[u8; 20], Error>> {
    let mut results = Vec::with_capacity(inputs.len());
    let lifted = parse_and_lift(m, inputs, &mut results);

    // r⁻¹ of every lifted signature by one batch inversion, then u₁ = −m·r⁻¹, u₂ = s·r⁻¹.
    let mut rinv: Vec<Scalar> = lifted.iter().map(|l| l.sig.r).collect();
    batch_inv::invert(&mut rinv, &mut Vec::new());

    // u₁·G + u₂·R, one signature after the other.
    let points = ecmult_all(m, &lifted, &rinv);

    // 1/Z of every point by one batch inversion (1 stands in for a point at infinity).
    let mut zs: Vec<Fe> = points
        .iter()
        .map(|p| if p.infinity { Fe::ONE } else { p.z })
        .collect();
    batch_inv::invert(&mut zs, &mut Vec::new());

    // The keys, hashed eight at a time.
    let mut keys: Vec<[u8; 64]> = Vec::with_capacity(points.len());
    let mut at: Vec<usize> = Vec::with_capacity(points.len());
    for ((l, p), zi) in lifted.iter().zip(&points).zip(&zs) {
        if p.infinity {
            results[l.at] = Err(Error::PointAtInfinity);
        } else {
            keys.push(serialize(&p.to_affine_with_zinv(zi)));
            at.push(l.at);
        }
    }
    let refs: Vec<&[u8]> = keys.iter().map(|k| &k[..]).collect();
    let mut hashes = Vec::with_capacity(keys.len());
    crate::keccak::keccak256_many(&refs, &mut hashes);
    for (at, h) in at.into_iter().zip(hashes) {
        let mut address = [0u8; 20];
        address.copy_from_slice(&h[12..]);
        results[at] = Ok(address);
    }
    results
}

/// From this many signatures on, R's tables are built a chunk of signatures at a time in
/// true affine coordinates ([`affine_tables`]), with eight inversions shared by the chunk:
/// at 16 that measured 1 % faster per signature than each signature's own table, at 64 to
/// 1024 4 % faster, at 8 1 % slower (`doc/benchmarks.md`, issue 25).
const SHARED_TABLES_FROM: usize = 16;
/// The most signatures whose tables are built together (their tables then take 1.2 KiB
/// each); 64 and 256 measured the same.
const TABLE_CHUNK: usize = 128;

/// u₁·G + u₂·R of every lifted signature, u₁ = −m·r⁻¹ and u₂ = s·r⁻¹ (`rinv` holds r⁻¹),
/// one signature after the other on the multiply `m`.
fn ecmult_all<M: FieldMul>(m: M, lifted: &[Lifted], rinv: &[Scalar]) -> Vec<Jacobian> {
    let u1 = |l: &Lifted, ri: &Scalar| l.sig.msg.mul(ri).negate();
    let u2 = |l: &Lifted, ri: &Scalar| l.sig.s.mul(ri);
    let n = lifted.len();
    if n < SHARED_TABLES_FROM {
        return lifted
            .iter()
            .zip(rinv)
            .map(|(l, ri)| ecmult_with(m, &l.big_r, &u2(l, ri), &u1(l, ri)))
            .collect();
    }
    // Equal chunks, so that no short remainder pays the eight inversions alone.
    let size = n.div_ceil(n.div_ceil(TABLE_CHUNK));
    let mut out = Vec::with_capacity(n);
    for (ls, ris) in lifted.chunks(size).zip(rinv.chunks(size)) {
        let rs: Vec<Affine> = ls.iter().map(|l| l.big_r).collect();
        let tables = affine_tables::odd_multiples_tables(m, &rs);
        for ((l, ri), table) in ls.iter().zip(ris).zip(&tables) {
            out.push(ecmult_table_with(m, table, &u2(l, ri), &u1(l, ri)));
        }
    }
    out
}

/// A signature that passed the parse and the lift: its index in the input, its parse, and R.
struct Lifted {
    at: usize,
    sig: Parsed,
    big_r: Affine,
}

/// Parses every input and lifts R for those that pass, all square roots side by side (a
/// square root is one long chain of squarings, which runs at the multiplier's latency
/// alone). Fills `results` with one entry per input: the error of each that fails, a
/// placeholder for each that goes on (the caller overwrites it).
fn parse_and_lift<M: FieldMul>(
    m: M,
    inputs: &[Signed],
    results: &mut Vec<Result<[u8; 20], Error>>,
) -> Vec<Lifted> {
    results.clear();
    let mut live = Vec::with_capacity(inputs.len());
    for (at, (hash, sig)) in inputs.iter().enumerate() {
        let parsed = parse(hash, sig);
        results.push(parsed.map(|_| [0u8; 20]));
        if let Ok(sig) = parsed {
            live.push((at, sig));
        }
    }
    let rhs: Vec<Fe> = live.iter().map(|(_, p)| Affine::curve_rhs(&p.x)).collect();
    let roots = Fe::sqrt_many_with(m, &rhs);
    let mut lifted = Vec::with_capacity(live.len());
    for ((at, sig), root) in live.into_iter().zip(roots) {
        let Some(y) = root else {
            results[at] = Err(Error::NotOnCurve);
            continue;
        };
        let big_r = Affine::from_root(&sig.x, &y, sig.odd);
        lifted.push(Lifted { at, sig, big_r });
    }
    lifted
}
