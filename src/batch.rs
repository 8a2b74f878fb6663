//! Batch recovery: eight signatures through the lane engine, any number through batches.

use crate::dispatch::{Path, path};
use crate::error::Error;
use crate::lanes::LANES;
use crate::lanes::recover::{INVALID, Input8, NOT_ON_CURVE, OK, Output8, RETRY_SCALAR};
use crate::recover::{check, parity_from_v, r_x, recover_address};

/// One (message hash, r ‖ s ‖ v signature) pair.
pub(crate) type Signed = ([u8; 32], [u8; 65]);

/// Validates each lane and lays the valid ones out for the lane engine. Lanes that fail
/// keep their error and are marked invalid (the engine gives them a dummy).
pub fn prepare(inputs: &[Signed; LANES]) -> (Input8, [Option<Error>; LANES]) {
    let mut inp = Input8::default();
    let mut errors = [None; LANES];
    for (i, (hash, sig)) in inputs.iter().enumerate() {
        let lane = parity_from_v(sig[64]).and_then(|recid| {
            let r: [u8; 32] = sig[..32].try_into().unwrap_or([0; 32]);
            let s: [u8; 32] = sig[32..64].try_into().unwrap_or([0; 32]);
            let c = check(hash, &r, &s, recid)?;
            let x = r_x(&c).ok_or(Error::NotOnCurve)?;
            Ok((c, x))
        });
        match lane {
            Ok((c, x)) => {
                let xw = x.normalize().to_u64x4();
                for (k, xk) in xw.into_iter().enumerate() {
                    inp.x[k][i] = xk;
                    inp.r[k][i] = c.r.0[k];
                    inp.s[k][i] = c.s.0[k];
                    inp.m[k][i] = c.msg.0[k];
                }
                inp.odd[i] = u64::from(c.recid & 1);
                inp.valid |= 1 << i;
            }
            Err(e) => errors[i] = Some(e),
        }
    }
    (inp, errors)
}

/// Turns the engine's output into per-lane results, recomputing on the scalar path the
/// lanes the engine could not finish in lockstep.
pub(crate) fn finish(
    inputs: &[Signed; LANES],
    errors: &[Option<Error>; LANES],
    out: &Output8,
) -> [Result<[u8; 20], Error>; LANES] {
    core::array::from_fn(|i| match (errors[i], out.status[i]) {
        (Some(e), _) => Err(e),
        (None, OK) => {
            let mut hash = [0u8; 32];
            for k in 0..4 {
                hash[8 * k..8 * k + 8].copy_from_slice(&out.hash[k][i].to_le_bytes());
            }
            let mut addr = [0u8; 20];
            addr.copy_from_slice(&hash[12..]);
            Ok(addr)
        }
        (None, NOT_ON_CURVE) => Err(Error::NotOnCurve),
        // RETRY_SCALAR, and INVALID (which cannot happen without an error, but the scalar
        // path gives the right answer either way).
        (None, RETRY_SCALAR | INVALID | _) => recover_address(&inputs[i].0, &inputs[i].1),
    })
}

/// The per-signature checks and the lift of R for many signatures: returns, for each
/// input that passes, (index, checked signature, R), and writes every failure's error
/// into `results` (which it fills with one entry per input).
fn check_and_lift(
    inputs: &[Signed],
    results: &mut Vec<Result<[u8; 20], Error>>,
) -> Vec<(
    usize,
    crate::recover::Checked,
    crate::secp256k1::group::Affine,
)> {
    use crate::secp256k1::field::FieldElement as Fe;
    use crate::secp256k1::group::Affine;
    results.clear();
    let mut live = Vec::with_capacity(inputs.len());
    for (i, (hash, sig)) in inputs.iter().enumerate() {
        let lane = parity_from_v(sig[64]).and_then(|recid| {
            let r: [u8; 32] = sig[..32].try_into().unwrap_or([0; 32]);
            let s: [u8; 32] = sig[32..64].try_into().unwrap_or([0; 32]);
            let c = check(hash, &r, &s, recid)?;
            let x = r_x(&c).ok_or(Error::NotOnCurve)?;
            Ok((c, x))
        });
        // Placeholder for the lanes still running; overwritten below.
        results.push(lane.map(|_| [0u8; 20]));
        if let Ok((c, x)) = lane {
            live.push((i, c, x));
        }
    }
    // All square roots at once: their chains run side by side.
    let rhs: Vec<Fe> = live
        .iter()
        .map(|(_, _, x)| x.sqr().mul(x).add(&Fe::B))
        .collect();
    let roots = Fe::sqrt_many_var(&rhs);
    let mut lifted = Vec::with_capacity(live.len());
    for ((i, c, x), root) in live.into_iter().zip(roots) {
        match root {
            Some(y) => {
                let y = y.normalize();
                let y = if y.is_odd() != (c.recid & 1 == 1) {
                    y.neg().normalize()
                } else {
                    y
                };
                lifted.push((
                    i,
                    c,
                    Affine {
                        x: x.normalize(),
                        y,
                        infinity: false,
                    },
                ));
            }
            None => results[i] = Err(Error::NotOnCurve),
        }
    }
    lifted
}

/// Many signatures on the scalar core with the per-signature work shared or overlapped:
/// square roots side by side, r⁻¹ and the final 1/Z as batch inversions, and the Strauss
/// loops of up to `group` signatures advanced bit by bit together. For inputs too short
/// to amortise the batch-affine ladder's per-round inversion.
pub(crate) fn recover_interleaved(inputs: &[Signed], group: usize) -> Vec<Result<[u8; 20], Error>> {
    use crate::secp256k1::batch_inv;
    use crate::secp256k1::ecmult::Strauss;
    use crate::secp256k1::field::FieldElement as Fe;
    use crate::secp256k1::group::Jacobian;
    let mut results = Vec::with_capacity(inputs.len());
    let lifted = check_and_lift(inputs, &mut results);
    let mut rinv: Vec<_> = lifted.iter().map(|(_, c, _)| c.r).collect();
    batch_inv::invert(&mut rinv, &mut Vec::new());
    let mut points: Vec<Jacobian> = Vec::with_capacity(lifted.len());
    let group = group.max(1);
    for (lanes, ri) in lifted.chunks(group).zip(rinv.chunks(group)) {
        let states: Vec<Strauss> = lanes
            .iter()
            .zip(ri)
            .map(|((_, c, big_r), ri)| Strauss::new(big_r, &c.s.mul(ri), &c.msg.mul(ri).negate()))
            .collect();
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
    for (((i, _, _), p), zi) in lifted.iter().zip(&points).zip(&zs) {
        results[*i] = if p.infinity {
            Err(Error::PointAtInfinity)
        } else {
            Ok(crate::recover::address_of(&crate::recover::serialize(
                &p.to_affine_with_zinv(zi),
            )))
        };
    }
    results
}

/// Largest number of signatures one batch-affine ladder runs at once (larger inputs are
/// split): keeps the per-lane tables within the L2 cache.
pub(crate) const AFFINE_CHUNK: usize = 256;

/// Many signatures through the batch-affine ladder on the scalar field arithmetic: shared
/// r⁻¹, square roots side by side, one inversion per ladder round across all signatures.
/// Lanes the ladder cannot finish in lockstep are recomputed by the scalar core.
pub(crate) fn recover_batch_affine(inputs: &[Signed]) -> Vec<Result<[u8; 20], Error>> {
    use crate::secp256k1::{affine_ladder, batch_inv};
    let mut results = Vec::with_capacity(inputs.len());
    let lifted = check_and_lift(inputs, &mut results);
    let mut rinv: Vec<_> = lifted.iter().map(|(_, c, _)| c.r).collect();
    batch_inv::invert(&mut rinv, &mut Vec::new());
    let jobs: Vec<_> = lifted
        .iter()
        .zip(&rinv)
        .map(|((_, c, r), ri)| (*r, c.msg.mul(ri).negate(), c.s.mul(ri)))
        .collect();
    for (chunk, lanes) in jobs.chunks(AFFINE_CHUNK).zip(lifted.chunks(AFFINE_CHUNK)) {
        for (q, (i, _, _)) in affine_ladder::ecmult_batch(chunk).into_iter().zip(lanes) {
            results[*i] = match q {
                Some(q) => Ok(crate::recover::address_of(&crate::recover::serialize(&q))),
                None => recover_address(&inputs[*i].0, &inputs[*i].1),
            };
        }
    }
    results
}

/// Eight signatures through the lane engine with backend `B` (the portable one is exposed,
/// hidden, for the soak runner; it is far slower than either production path).
pub(crate) fn recover8_with<B: crate::lanes::Backend>(
    inputs: &[Signed; LANES],
) -> [Result<[u8; 20], Error>; LANES] {
    let (inp, errors) = prepare(inputs);
    let mut out = Output8::default();
    crate::lanes::recover::recover8::<B>(&inp, &mut out);
    finish(inputs, &errors, &out)
}

/// Eight signatures through the AVX-512 core.
#[cfg(target_arch = "x86_64")]
fn recover8_avx512(inputs: &[Signed; LANES]) -> [Result<[u8; 20], Error>; LANES] {
    let (inp, errors) = prepare(inputs);
    let mut out = Output8::default();
    // SAFETY: only called on `Path::Avx512`, which the dispatcher selects after detecting
    // AVX-512 F, BW and IFMA; the pointers are to one valid Input8 and one Output8.
    unsafe { crate::lanes::recover::asmcrypto_avx512_recover8(&inp, &mut out, 1) };
    finish(inputs, &errors, &out)
}

/// Recovers the addresses of eight signatures at once: on CPUs with AVX-512 IFMA the eight
/// run in lockstep in vector registers; elsewhere each goes through the scalar core.
///
/// Lane by lane, the result is exactly what [`recover_address`](crate::recover_address)
/// returns for that input: an invalid lane gets its own `Err` and never disturbs the others.
///
/// ```
/// # let (hash, sig) = ([0x11u8; 32], [0u8; 65]);
/// let inputs = [(hash, sig); 8];
/// let results = asmcrypto::recover_addresses_batch(&inputs);
/// for (r, (h, s)) in results.iter().zip(&inputs) {
///     assert_eq!(*r, asmcrypto::recover_address(h, s));
/// }
/// ```
pub fn recover_addresses_batch(inputs: &[([u8; 32], [u8; 65]); 8]) -> [Result<[u8; 20], Error>; 8] {
    match path() {
        #[cfg(target_arch = "x86_64")]
        Path::Avx512 => recover8_avx512(inputs),
        _ => {
            let v = recover_interleaved(inputs, LANES);
            core::array::from_fn(|i| v.get(i).copied().unwrap_or(Err(Error::PointAtInfinity)))
        }
    }
}

/// Recovers the addresses of any number of signatures; results are in input order and
/// equal [`recover_address`](crate::recover_address) on each input.
///
/// With AVX-512 IFMA, full groups of eight go through the 8-lane engine (a remainder of
/// three or more as a padded group). Elsewhere, inputs of 192 or more signatures run
/// through the batch-affine ladder (up to 256 at a time, one shared inversion per
/// doubling or addition round), shorter ones through interleaved Strauss loops with shared
/// inversions. With the `parallel` feature, long inputs are split across the rayon thread
/// pool in chunks that keep each thread on its fastest path (at least 64 signatures with
/// AVX-512, 192 otherwise; at most 256).
///
/// ```
/// let results = asmcrypto::recover_addresses(&[]);
/// assert!(results.is_empty());
/// ```
pub fn recover_addresses(inputs: &[([u8; 32], [u8; 65])]) -> Vec<Result<[u8; 20], Error>> {
    #[cfg(feature = "parallel")]
    if let Some(chunk) = parallel_chunk(inputs.len()) {
        use rayon::prelude::*;
        return inputs
            .par_chunks(chunk)
            .flat_map_iter(recover_addresses_serial)
            .collect();
    }
    recover_addresses_serial(inputs)
}

/// With the `parallel` feature, how `n` inputs are split over the rayon thread pool: `None`
/// to run them on the calling thread, otherwise the length of each task's chunk.
///
/// Each thread gets an equal share, but never less than the shortest input that runs at its
/// path's best speed per signature (64 for the 8-lane engine, whose speed is the same at
/// every multiple of eight; [`AFFINE_MIN`] for the batch-affine ladder) and never more than
/// [`AFFINE_CHUNK`], so the tasks balance across the pool and the ladder's tables stay in
/// cache. Inputs too short for two such chunks stay on the calling thread.
#[cfg(feature = "parallel")]
pub(crate) fn parallel_chunk(n: usize) -> Option<usize> {
    let threads = rayon::current_num_threads();
    let min = match path() {
        Path::Avx512 => 64,
        Path::Scalar => AFFINE_MIN,
    };
    if threads < 2 || n < 2 * min {
        return None;
    }
    Some(
        n.div_ceil(threads)
            .next_multiple_of(LANES)
            .clamp(min, AFFINE_CHUNK),
    )
}

/// Inputs at least this long take the batch-affine ladder on the scalar path (measured:
/// below it the interleaved Strauss loops are as fast or faster).
pub(crate) const AFFINE_MIN: usize = 192;

/// [`recover_addresses`] on the calling thread.
pub(crate) fn recover_addresses_serial(inputs: &[Signed]) -> Vec<Result<[u8; 20], Error>> {
    if path() != Path::Avx512 {
        return if inputs.len() >= AFFINE_MIN {
            recover_batch_affine(inputs)
        } else {
            recover_interleaved(inputs, LANES)
        };
    }
    let mut out = Vec::with_capacity(inputs.len());
    let mut chunks = inputs.chunks_exact(LANES);
    for c in &mut chunks {
        if let Ok(group) = <&[Signed; LANES]>::try_from(c) {
            out.extend(recover_addresses_batch(group));
        }
    }
    let tail = chunks.remainder();
    if tail.len() >= 3 {
        // Pad with copies of the first tail entry; keep only the real lanes.
        let group: [Signed; LANES] = core::array::from_fn(|i| tail[i.min(tail.len() - 1)]);
        out.extend(recover_addresses_batch(&group).into_iter().take(tail.len()));
    } else {
        out.extend(tail.iter().map(|(h, s)| recover_address(h, s)));
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::lanes::field::tests::rng;
    use crate::lanes::portable::Portable;

    /// Seeded signatures: mostly real ones (signed with libsecp256k1, low and high s, both
    /// parities), with invalid lanes of every kind mixed in at every position.
    pub(crate) fn signatures(seed: u64, count: usize) -> Vec<Signed> {
        let mut st = seed;
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            let mut k = [0u8; 32];
            let mut h = [0u8; 32];
            for i in 0..4 {
                k[8 * i..8 * i + 8].copy_from_slice(&rng(&mut st).to_le_bytes());
                h[8 * i..8 * i + 8].copy_from_slice(&rng(&mut st).to_le_bytes());
            }
            let Ok(sk) = secp256k1::SecretKey::from_secret_bytes(k) else {
                continue;
            };
            let rs = secp256k1::ecdsa::RecoverableSignature::sign_ecdsa_recoverable(
                secp256k1::Message::from_digest(h),
                &sk,
            );
            let (recid, compact) = rs.serialize_compact();
            let mut sig = [0u8; 65];
            sig[..64].copy_from_slice(&compact);
            sig[64] = recid.to_u8() + if rng(&mut st) & 1 == 0 { 0 } else { 27 };
            let kind = rng(&mut st) % 16;
            match kind {
                // High-s twin: s' = n − s, parity flipped.
                0..=3 => {
                    let sv = crate::secp256k1::scalar::Scalar::from_bytes(
                        &sig[32..64].try_into().unwrap(),
                    )
                    .unwrap();
                    sig[32..64].copy_from_slice(&sv.negate().to_bytes());
                    sig[64] ^= 1;
                }
                4 => sig[64] = (rng(&mut st) % 256) as u8, // usually a bad v
                5 => sig[..32].fill(0),                    // r = 0
                6 => sig[32..64].fill(0xff),               // s ≥ n
                7 => sig[rng(&mut st) as usize % 32] ^= 1 << (rng(&mut st) % 8), // r bit flip: often not on curve
                8 => h = [0u8; 32],
                _ => {}
            }
            out.push((h, sig));
        }
        out
    }

    fn check_batches(
        f: impl Fn(&[Signed; LANES]) -> [Result<[u8; 20], Error>; LANES],
        seed: u64,
        batches: usize,
    ) {
        let sigs = signatures(seed, batches * LANES);
        let mut kinds = std::collections::BTreeMap::new();
        for group in sigs.chunks_exact(LANES) {
            let group: &[Signed; LANES] = group.try_into().unwrap();
            let got = f(group);
            for (i, (h, s)) in group.iter().enumerate() {
                let want = recover_address(h, s);
                assert_eq!(got[i], want, "lane {i}: hash {h:02x?} sig {s:02x?}");
                *kinds.entry(format!("{:?}", want.map(|_| ()))).or_insert(0) += 1;
            }
        }
        // The mix really contains successes and each failure kind.
        assert!(kinds.len() >= 4, "{kinds:?}");
    }

    /// Runs the engine itself (no scalar retry) and checks every lane's status and output:
    /// honest lanes must finish in lockstep.
    fn check_engine(run: impl Fn(&Input8, &mut Output8), seed: u64, batches: usize) {
        let sigs = signatures(seed, batches * LANES);
        let mut finished = 0;
        for group in sigs.chunks_exact(LANES) {
            let group: &[Signed; LANES] = group.try_into().unwrap();
            let (inp, errors) = prepare(group);
            let mut out = Output8::default();
            run(&inp, &mut out);
            for (i, (h, s)) in group.iter().enumerate() {
                let want = recover_address(h, s);
                match (errors[i], want) {
                    (Some(e), w) => {
                        assert_eq!(out.status[i], INVALID);
                        assert_eq!(Err(e), w);
                    }
                    (None, Ok(addr)) => {
                        assert_eq!(out.status[i], OK, "lane {i} not finished in lockstep");
                        assert_eq!(finish(group, &errors, &out)[i], Ok(addr));
                        finished += 1;
                    }
                    (None, Err(Error::NotOnCurve)) => assert_eq!(out.status[i], NOT_ON_CURVE),
                    (None, Err(e)) => {
                        panic!("unexpected scalar error {e:?} for a lane the checks accepted")
                    }
                }
            }
        }
        assert!(
            finished > batches * LANES / 2,
            "only {finished} lanes finished"
        );
    }

    #[test]
    fn portable_engine_matches_scalar_core() {
        check_batches(recover8_with::<Portable>, 1, 300);
        check_engine(crate::lanes::recover::recover8::<Portable>, 4, 200);
    }

    #[test]
    fn avx512_engine_native_matches_scalar_core() {
        if !crate::dispatch::has_avx512_ifma() {
            eprintln!(
                "skipped: no AVX-512 (this CPU lacks IFMA; the emulated test covers it when BXRUN is set)"
            );
            return;
        }
        check_engine(
            // SAFETY: the CPU has AVX-512 F/BW/IFMA (checked above); one record each.
            |i, o| unsafe { crate::lanes::recover::asmcrypto_avx512_recover8(i, o, 1) },
            5,
            300,
        );
    }

    /// The AVX-512 core run for real under the emulator (BochsCPU), whenever `BXRUN` names
    /// the runner — on CI machines without AVX-512.
    #[test]
    fn avx512_engine_emulated_matches_scalar_core() {
        let Some(_) = crate::lanes::emu::runner() else {
            eprintln!("skipped: no AVX-512 (BXRUN not set: no emulated run)");
            return;
        };
        std::hint::black_box(
            crate::lanes::recover::asmcrypto_avx512_recover8 as *const () as usize,
        );
        let batches = 4;
        let sigs = signatures(6, batches * LANES);
        let groups: Vec<&[Signed; LANES]> = sigs
            .chunks_exact(LANES)
            .map(|g| g.try_into().unwrap())
            .collect();
        let prepared: Vec<_> = groups.iter().map(|g| prepare(g)).collect();
        let input: Vec<u8> = prepared
            .iter()
            .flat_map(|(inp, _)| inp.to_bytes())
            .collect();
        let output = vec![0u8; batches * Output8::BYTES];
        use crate::lanes::emu::{Arg, call};
        let res = call(
            "asmcrypto_avx512_recover8",
            &[
                Arg::Buf(&input),
                Arg::Buf(&output),
                Arg::Int(batches as u64),
            ],
            false,
        );
        for (b, g) in groups.iter().enumerate() {
            let out =
                Output8::from_bytes(&res.bufs[1][b * Output8::BYTES..(b + 1) * Output8::BYTES]);
            let got = finish(g, &prepared[b].1, &out);
            for (i, (h, s)) in g.iter().enumerate() {
                let want = recover_address(h, s);
                assert_eq!(got[i], want);
                if want.is_ok() {
                    assert_eq!(out.status[i], OK, "lane {i} not finished in lockstep");
                }
            }
        }
    }

    #[test]
    fn dispatched_batch_and_any_length_match_scalar_core() {
        check_batches(recover_addresses_batch, 2, 100);
        let sigs = signatures(3, 83);
        for len in [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 30, 83] {
            let got = recover_addresses(&sigs[..len]);
            let want: Vec<_> = sigs[..len]
                .iter()
                .map(|(h, s)| recover_address(h, s))
                .collect();
            assert_eq!(got, want, "length {len}");
        }
    }
}
