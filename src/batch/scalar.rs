//! The scalar core's batch paths, for CPUs without AVX-512 IFMA: interleaved Strauss
//! loops with shared inversions for short inputs, the batch-affine ladder for long ones.
//! Both share the parse and the lift, and return exactly what
//! [`recover_address`](crate::recover_address) returns for each input.

use super::Signed;
use crate::error::Error;
use crate::recover::{Parsed, address_of, parse, recover_address, serialize};
use crate::secp256k1::batch_inv;
use crate::secp256k1::field::FieldElement as Fe;
use crate::secp256k1::group::{Affine, Jacobian};

/// A signature that passed the parse and the lift: its index in the input, its parse, and R.
struct Lifted {
    at: usize,
    sig: Parsed,
    big_r: Affine,
}

/// Parses every input and lifts R for those that pass, all square roots side by side.
/// Fills `results` with one entry per input: the error of each that fails, a placeholder
/// for each that goes on (the caller overwrites it).
fn parse_and_lift(inputs: &[Signed], results: &mut Vec<Result<[u8; 20], Error>>) -> Vec<Lifted> {
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
    let roots = Fe::sqrt_many(&rhs);
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

/// r⁻¹ of every lifted signature, by one batch inversion.
fn inverses_of_r(lifted: &[Lifted]) -> Vec<crate::secp256k1::scalar::Scalar> {
    let mut rinv: Vec<_> = lifted.iter().map(|l| l.sig.r).collect();
    batch_inv::invert(&mut rinv, &mut Vec::new());
    rinv
}

/// Every input's result on the scalar core, the path picked by how many inputs have an R
/// (parse and lift first, so junk costs a parse or a square root): the batch-affine ladder
/// for [`AFFINE_MIN`] or more, interleaved loops below, and one signature alone as
/// [`recover_address`] does.
pub(crate) fn recover_many(inputs: &[Signed]) -> Vec<Result<[u8; 20], Error>> {
    if let [(hash, sig)] = inputs {
        return vec![recover_address(hash, sig)];
    }
    let mut results = Vec::with_capacity(inputs.len());
    let lifted = parse_and_lift(inputs, &mut results);
    if lifted.len() >= AFFINE_MIN {
        affine_lifted(inputs, &lifted, &mut results);
    } else {
        interleaved_lifted(&lifted, super::LANES, &mut results);
    }
    results
}

/// Many signatures on the scalar core with the per-signature work shared or overlapped:
/// square roots side by side, r⁻¹ and the final 1/Z as batch inversions, and the Strauss
/// loops of up to `group` signatures advanced bit by bit together. For inputs too short
/// to amortise the batch-affine ladder's per-round inversion.
pub(crate) fn recover_interleaved(inputs: &[Signed], group: usize) -> Vec<Result<[u8; 20], Error>> {
    let mut results = Vec::with_capacity(inputs.len());
    let lifted = parse_and_lift(inputs, &mut results);
    interleaved_lifted(&lifted, group, &mut results);
    results
}

/// [`recover_interleaved`] after the parse and the lift.
fn interleaved_lifted(lifted: &[Lifted], group: usize, results: &mut [Result<[u8; 20], Error>]) {
    use crate::secp256k1::ecmult::Strauss;
    let rinv = inverses_of_r(lifted);
    let mut points: Vec<Jacobian> = Vec::with_capacity(lifted.len());
    let group = group.max(1);
    for (lanes, ri) in lifted.chunks(group).zip(rinv.chunks(group)) {
        let states: Vec<Strauss> = lanes
            .iter()
            .zip(ri)
            .map(|(l, ri)| Strauss::new(&l.big_r, &l.sig.s.mul(ri), &l.sig.msg.mul(ri).negate()))
            .collect();
        for st in &states {
            st.prefetch_g();
        }
        let mut acc = vec![Jacobian::INFINITY; states.len()];
        let bits = states.iter().map(Strauss::bits).max().unwrap_or(0);
        for b in (0..bits).rev() {
            for (st, r) in states.iter().zip(acc.iter_mut()) {
                st.step(r, b);
            }
        }
        points.extend(states.iter().zip(acc).map(|(st, r)| st.finish(r)));
    }
    let mut zs: Vec<Fe> = points
        .iter()
        .map(|p| if p.infinity { Fe::ONE } else { p.z })
        .collect();
    batch_inv::invert(&mut zs, &mut Vec::new());
    for ((l, p), zi) in lifted.iter().zip(&points).zip(&zs) {
        results[l.at] = if p.infinity {
            Err(Error::PointAtInfinity)
        } else {
            Ok(address_of(&serialize(&p.to_affine_with_zinv(zi))))
        };
    }
}

/// Largest number of signatures one batch-affine ladder runs at once (larger inputs are
/// split): keeps the per-lane tables within the L2 cache.
pub(crate) const AFFINE_CHUNK: usize = 256;

/// Inputs at least this long take the batch-affine ladder on the scalar path (measured:
/// below it the interleaved Strauss loops are as fast or faster).
pub(crate) const AFFINE_MIN: usize = 192;

/// Many signatures through the batch-affine ladder on the scalar field arithmetic: shared
/// r⁻¹, square roots side by side, one inversion per ladder round across all signatures.
/// Lanes the ladder cannot finish in lockstep are recomputed by the scalar core.
pub(crate) fn recover_batch_affine(inputs: &[Signed]) -> Vec<Result<[u8; 20], Error>> {
    let mut results = Vec::with_capacity(inputs.len());
    let lifted = parse_and_lift(inputs, &mut results);
    affine_lifted(inputs, &lifted, &mut results);
    results
}

/// [`recover_batch_affine`] after the parse and the lift.
fn affine_lifted(inputs: &[Signed], lifted: &[Lifted], results: &mut [Result<[u8; 20], Error>]) {
    use crate::secp256k1::affine_ladder;
    let rinv = inverses_of_r(lifted);
    let jobs: Vec<_> = lifted
        .iter()
        .zip(&rinv)
        .map(|(l, ri)| (l.big_r, l.sig.msg.mul(ri).negate(), l.sig.s.mul(ri)))
        .collect();
    for (chunk, lanes) in jobs.chunks(AFFINE_CHUNK).zip(lifted.chunks(AFFINE_CHUNK)) {
        for (q, l) in affine_ladder::ecmult_batch(chunk).into_iter().zip(lanes) {
            results[l.at] = match q {
                Some(q) => Ok(address_of(&serialize(&q))),
                // A degenerate addition in the lockstep schedule: the scalar core handles
                // every case.
                None => recover_address(&inputs[l.at].0, &inputs[l.at].1),
            };
        }
    }
}
