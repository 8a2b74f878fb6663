//! Many signatures through the 8-lane engine (`crate::lanes`), parse first, then compact:
//!
//! 1. Every input is parsed on the scalar side; the ones refused (v, r, s out of range) keep
//!    their error and never reach the engine.
//! 2. The rest are lifted sixteen at a time ([`Engine::lift`], R's square root, two groups'
//!    chains side by side); those whose r is no x-coordinate keep [`Error::NotOnCurve`] and
//!    go no further.
//! 3. The ones with an R are packed eight to a group and recovered ([`Engine::recover`]),
//!    up to [`GROUPS`] groups a call, which share their two inversions (r⁻¹ and the keys'
//!    Z); a remainder of [`Engine::padded_tail_min`] or more runs as one more group with
//!    idle lanes, a shorter one on the scalar core.
//!
//! So a batch costs what its valid part costs: junk costs a parse (or a parse and one
//! eighth of a lift) per input. Results come back in input order, each exactly what
//! [`recover_address`] returns.

use super::Signed;
use crate::error::Error;
use crate::lanes::records::{
    AT_INFINITY, INVALID, Input8, NOT_ON_CURVE, OK, Output8, RETRY_SCALAR,
};
use crate::lanes::{GROUPS, LANES};
use crate::recover::{Parsed, parse, recover_address};

/// A remainder this long after the full groups of eight goes through the avx512-ifma
/// engine as one group with idle lanes; a shorter one takes the scalar core
/// ([`super::scalar::recover_many`]).
///
/// Measured on AMD Zen 5 (AVX-512 IFMA): an engine group of eight costs about 1.2
/// libsecp256k1 recoveries, one signature on the scalar core about 0.82, so two signatures
/// are already cheaper as a group.
pub(crate) const PADDED_TAIL_MIN: usize = 2;

/// [`PADDED_TAIL_MIN`] for the avx512f engine (9×29 field), whose group of eight costs
/// about 5.5 signatures on the scalar core (measured on AMD Zen 5 with
/// `ASMCRYPTO_BACKEND=avx512f`: 93 µs against 16.5–17.5 µs): a remainder of six or more
/// is cheaper as a group.
#[cfg(target_arch = "x86_64")]
pub(crate) const PADDED_TAIL_MIN_AVX512F: usize = 6;

/// The engine's two passes on one lane backend.
pub(crate) trait Engine {
    /// [`lift`](crate::lanes::recover::lift) of two groups side by side: R's y for the
    /// valid lanes, and the mask of those that have one.
    fn lift(&self, inps: &mut [Input8; 2]) -> [u8; 2];
    /// [`recover_groups`](crate::lanes::recover::recover_groups): the keys and their
    /// hashes, for up to [`GROUPS`] groups sharing their inversions.
    fn recover(&self, inps: &[Input8], outs: &mut [Output8]);
    /// The shortest remainder worth a padded group of this engine ([`PADDED_TAIL_MIN`]).
    fn padded_tail_min(&self) -> usize {
        PADDED_TAIL_MIN
    }
}

/// The engine on the portable backend (plain Rust; for the tests and the soak runner, far
/// slower than either production path).
pub(crate) struct PortableEngine;

impl Engine for PortableEngine {
    fn lift(&self, inps: &mut [Input8; 2]) -> [u8; 2] {
        crate::lanes::recover::lift::<PortableIfma, 2>(inps)
    }
    fn recover(&self, inps: &[Input8], outs: &mut [Output8]) {
        crate::lanes::recover::recover_groups::<PortableIfma>(inps, outs);
    }
}

/// The portable backend's 5×52 field (the IFMA engine's algorithm on `[u64; 8]`).
type PortableIfma = crate::lanes::field::Fe8<crate::lanes::portable::Portable>;
/// The portable backend's 9×29 field (the avx512f engine's algorithm on `[u64; 8]`).
type Portable29 = crate::lanes::field29::Fe29<crate::lanes::portable::Portable>;

/// The engine's 9×29 field on the portable backend: the avx512f engine's algorithm in
/// plain Rust (the tests, every CPU).
pub(crate) struct Portable29Engine;

impl Engine for Portable29Engine {
    fn lift(&self, inps: &mut [Input8; 2]) -> [u8; 2] {
        crate::lanes::recover::lift::<Portable29, 2>(inps)
    }
    fn recover(&self, inps: &[Input8], outs: &mut [Output8]) {
        crate::lanes::recover::recover_groups::<Portable29>(inps, outs);
    }
}

/// The engine on AVX-512 F without IFMA (9×29 field); the token proves the CPU has F and
/// BW.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx512FEngine(pub crate::dispatch::Avx512F);

#[cfg(target_arch = "x86_64")]
impl Engine for Avx512FEngine {
    fn lift(&self, inps: &mut [Input8; 2]) -> [u8; 2] {
        crate::lanes::recover::lift2_avx512f(self.0, inps)
    }
    fn recover(&self, inps: &[Input8], outs: &mut [Output8]) {
        crate::lanes::recover::recover_groups_avx512f(self.0, inps, outs);
    }
    fn padded_tail_min(&self) -> usize {
        PADDED_TAIL_MIN_AVX512F
    }
}

/// The engine on AVX-512 IFMA; the token proves the CPU has it.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx512Engine(pub crate::dispatch::Avx512Ifma);

#[cfg(target_arch = "x86_64")]
impl Engine for Avx512Engine {
    fn lift(&self, inps: &mut [Input8; 2]) -> [u8; 2] {
        crate::lanes::recover::lift2_avx512(self.0, inps)
    }
    fn recover(&self, inps: &[Input8], outs: &mut [Output8]) {
        crate::lanes::recover::recover_groups_avx512(self.0, inps, outs);
    }
}

/// Lane `lane` of `inp` from a parse: x, parity, r, s and m (y comes from the lift).
fn put(inp: &mut Input8, lane: usize, p: &Parsed) {
    for (k, xk) in p.x.normalize().to_u64x4().into_iter().enumerate() {
        inp.x[k][lane] = xk;
        inp.r[k][lane] = p.r.0[k];
        inp.s[k][lane] = p.s.0[k];
        inp.m[k][lane] = p.msg.0[k];
    }
    inp.odd[lane] = u64::from(p.odd);
    inp.valid |= 1 << lane;
}

/// Every input's result, in input order, through `engine` (see the module docs).
pub(crate) fn recover_many(
    engine: &impl Engine,
    inputs: &[Signed],
) -> Vec<Result<[u8; 20], Error>> {
    // 1. Parse.
    let mut results = Vec::with_capacity(inputs.len());
    let mut live: Vec<(usize, Parsed)> = Vec::with_capacity(inputs.len());
    for (at, (hash, sig)) in inputs.iter().enumerate() {
        match parse(hash, sig) {
            Ok(p) => {
                live.push((at, p));
                // Overwritten below.
                results.push(Ok([0; 20]));
            }
            Err(e) => results.push(Err(e)),
        }
    }
    if live.len() < engine.padded_tail_min() {
        scalar_tail(inputs, &live, &mut results);
        return results;
    }
    // 2. Lift, sixteen at a time (two groups' square roots side by side); keep the lanes
    //    that have an R, with its y.
    let mut lifted: Vec<(usize, Parsed, [u64; 4])> = Vec::with_capacity(live.len());
    for pair in live.chunks(2 * LANES) {
        let mut inps = [Input8::default(); 2];
        for (i, (_, p)) in pair.iter().enumerate() {
            put(&mut inps[i / LANES], i % LANES, p);
        }
        let on_curve = engine.lift(&mut inps);
        for (i, &(at, p)) in pair.iter().enumerate() {
            let (g, lane) = (i / LANES, i % LANES);
            if on_curve[g] >> lane & 1 == 1 {
                lifted.push((at, p, core::array::from_fn(|k| inps[g].y[k][lane])));
            } else {
                results[at] = Err(Error::NotOnCurve);
            }
        }
    }
    // 3. Recover, eight to a group and up to GROUPS groups a call (their inversions
    //    shared); a remainder after the full groups joins the last call as a padded group,
    //    or takes the scalar core if it is short.
    let full = lifted.len() / LANES * LANES;
    let engine_len = if lifted.len() - full >= engine.padded_tail_min() {
        lifted.len()
    } else {
        full
    };
    for run in lifted[..engine_len].chunks(GROUPS * LANES) {
        recover_run(engine, inputs, run, &mut results);
    }
    if engine_len < lifted.len() {
        let tail: Vec<(usize, Parsed)> = lifted[engine_len..]
            .iter()
            .map(|&(at, p, _)| (at, p))
            .collect();
        scalar_tail(inputs, &tail, &mut results);
    }
    results
}

/// Up to [`GROUPS`] × 8 lifted signatures through one [`Engine::recover`] call, eight to a
/// group (the last group possibly padded), their results written to `results`.
fn recover_run(
    engine: &impl Engine,
    inputs: &[Signed],
    run: &[(usize, Parsed, [u64; 4])],
    results: &mut [Result<[u8; 20], Error>],
) {
    let mut inps = [Input8::default(); GROUPS];
    for (i, (_, p, y)) in run.iter().enumerate() {
        let (g, lane) = (i / LANES, i % LANES);
        put(&mut inps[g], lane, p);
        for (row, yk) in inps[g].y.iter_mut().zip(y) {
            row[lane] = *yk;
        }
    }
    let n = run.len().div_ceil(LANES);
    let mut outs = [Output8::default(); GROUPS];
    engine.recover(&inps[..n], &mut outs[..n]);
    for (i, &(at, _, _)) in run.iter().enumerate() {
        results[at] = lane_result(&outs[i / LANES], i % LANES, &inputs[at]);
    }
}

/// The result of lane `lane` of the engine's output; a lane handed back to the scalar core
/// ([`RETRY_SCALAR`]) is recomputed there from its input.
fn lane_result(out: &Output8, lane: usize, input: &Signed) -> Result<[u8; 20], Error> {
    match out.status[lane] {
        OK => {
            let mut hash = [0u8; 32];
            for k in 0..4 {
                hash[8 * k..8 * k + 8].copy_from_slice(&out.hash[k][lane].to_le_bytes());
            }
            let mut addr = [0u8; 20];
            addr.copy_from_slice(&hash[12..]);
            Ok(addr)
        }
        AT_INFINITY => Err(Error::PointAtInfinity),
        NOT_ON_CURVE => Err(Error::NotOnCurve),
        RETRY_SCALAR => recover_address(&input.0, &input.1),
        INVALID => unreachable!("the engine marks invalid only the lanes the caller left empty"),
        status => unreachable!("the engine returned status {status}, which it has not"),
    }
}

/// The parsed inputs `live` on the scalar core (too few for an engine group).
fn scalar_tail(
    inputs: &[Signed],
    live: &[(usize, Parsed)],
    results: &mut [Result<[u8; 20], Error>],
) {
    let subset: Vec<Signed> = live.iter().map(|&(at, _)| inputs[at]).collect();
    for (&(at, _), r) in live.iter().zip(super::scalar::recover_many(&subset)) {
        results[at] = r;
    }
}

/// Parses one group of eight for the engine's combined entry (the tests and the emulator):
/// the valid lanes laid out, the others keeping their error.
#[cfg(any(test, feature = "emu"))]
pub(crate) fn prepare(inputs: &[Signed; LANES]) -> (Input8, [Option<Error>; LANES]) {
    let mut inp = Input8::default();
    let mut errors = [None; LANES];
    for (lane, (hash, sig)) in inputs.iter().enumerate() {
        match parse(hash, sig) {
            Ok(p) => put(&mut inp, lane, &p),
            Err(e) => errors[lane] = Some(e),
        }
    }
    (inp, errors)
}

/// The results of one group run by the combined entry (`lanes::recover::lift_recover`).
#[cfg(any(test, feature = "emu"))]
pub(crate) fn finish(
    inputs: &[Signed; LANES],
    errors: &[Option<Error>; LANES],
    out: &Output8,
) -> [Result<[u8; 20], Error>; LANES] {
    core::array::from_fn(|i| match errors[i] {
        Some(e) => Err(e),
        None => lane_result(out, i, &inputs[i]),
    })
}

/// The avx512-ifma engine's C-ABI entry, for [`run_emulated`].
#[cfg(all(target_arch = "x86_64", any(test, feature = "emu")))]
pub(crate) const EMU_IFMA: &str = "asmcrypto_avx512_recover8";
/// The avx512f engine's C-ABI entry, for [`run_emulated`].
#[cfg(all(target_arch = "x86_64", any(test, feature = "emu")))]
pub(crate) const EMU_AVX512F: &str = "asmcrypto_avx512f_recover8";

/// Groups of eight signatures through an AVX-512 engine's C-ABI entry (`entry`, one of
/// [`EMU_IFMA`] and [`EMU_AVX512F`]: `crate::lanes::abi`, lift and recover) inside the
/// AVX-512 emulator: the results (lanes handed back to the scalar core finished outside the
/// emulator), which lanes the engine finished itself, and the instruction count if `count`.
/// For the tests and, with the feature `emu`, the tools.
#[cfg(all(target_arch = "x86_64", any(test, feature = "emu")))]
pub(crate) fn run_emulated(
    entry: &str,
    groups: &[[Signed; LANES]],
    count: bool,
) -> crate::test_support::Emulated {
    use crate::test_support::emu::{Arg, call};
    // Keep the entries in this executable, where the emulator looks them up by name.
    std::hint::black_box(crate::lanes::abi::asmcrypto_avx512_recover8 as *const () as usize);
    std::hint::black_box(crate::lanes::abi::asmcrypto_avx512f_recover8 as *const () as usize);
    let prepared: Vec<_> = groups.iter().map(prepare).collect();
    let input: Vec<u8> = prepared.iter().flat_map(|(inp, _)| inp.encode()).collect();
    let output = vec![0u8; groups.len() * Output8::BYTES];
    let res = call(
        entry,
        &[
            Arg::Buf(&input),
            Arg::Buf(&output),
            Arg::Int(groups.len() as u64),
        ],
        count,
    );
    let mut results = Vec::with_capacity(groups.len());
    let mut finished = Vec::with_capacity(groups.len());
    for (b, (g, (_, errors))) in groups.iter().zip(&prepared).enumerate() {
        let out = Output8::from_bytes(&res.bufs[1][b * Output8::BYTES..(b + 1) * Output8::BYTES]);
        results.push(finish(g, errors, &out));
        finished.push(core::array::from_fn(|i| out.status[i] != RETRY_SCALAR));
    }
    crate::test_support::Emulated {
        results,
        finished,
        instructions: res.instructions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{recover_addresses, recover_addresses_batch};
    use crate::test_support::rng::splitmix64 as rng;

    /// Seeded signatures: mostly real ones (signed with libsecp256k1, low and high s, both
    /// parities), with invalid lanes of every kind and crafted keys at infinity mixed in at
    /// every position.
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
                // A crafted key at infinity (R = kG, m = s·k): the last addition meets
                // acc = −P, which the engine finishes itself.
                9 => {
                    let mut t = asmcrypto_testkit::SplitMix64(rng(&mut st));
                    out.push(asmcrypto_testkit::hostile::at_infinity(&mut t));
                    continue;
                }
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
    /// honest lanes must finish in lockstep. The groups go in runs of 1, 2, …, GROUPS + 1
    /// per call: a group alone, inversions shared by several, and more groups than one
    /// sharing takes.
    fn check_engine(run: impl Fn(&[Input8], &mut [Output8]), seed: u64, batches: usize) {
        let sigs = signatures(seed, batches * LANES);
        let groups: Vec<&[Signed; LANES]> = sigs
            .chunks_exact(LANES)
            .map(|g| g.try_into().unwrap())
            .collect();
        let mut finished = 0;
        let (mut at, mut len) = (0, 1);
        while at < groups.len() {
            let run_groups = &groups[at..(at + len).min(groups.len())];
            (at, len) = (at + run_groups.len(), len % (GROUPS + 1) + 1);
            let prepared: Vec<_> = run_groups.iter().map(|g| prepare(g)).collect();
            let inps: Vec<Input8> = prepared.iter().map(|(inp, _)| *inp).collect();
            let mut outs = vec![Output8::default(); inps.len()];
            run(&inps, &mut outs);
            for ((group, (_, errors)), out) in run_groups.iter().zip(&prepared).zip(&outs) {
                check_group(group, errors, out, &mut finished);
            }
        }
        assert!(
            finished > batches * LANES / 2,
            "only {finished} lanes finished"
        );
    }

    /// One group's lanes against the scalar core (see [`check_engine`]).
    fn check_group(
        group: &[Signed; LANES],
        errors: &[Option<Error>; LANES],
        out: &Output8,
        finished: &mut usize,
    ) {
        {
            for (i, (h, s)) in group.iter().enumerate() {
                let want = recover_address(h, s);
                match (errors[i], want) {
                    (Some(e), w) => {
                        assert_eq!(out.status[i], INVALID);
                        assert_eq!(Err(e), w);
                    }
                    (None, Ok(addr)) => {
                        assert_eq!(out.status[i], OK, "lane {i} not finished in lockstep");
                        assert_eq!(finish(group, errors, out)[i], Ok(addr));
                        *finished += 1;
                    }
                    (None, Err(Error::NotOnCurve)) => assert_eq!(out.status[i], NOT_ON_CURVE),
                    (None, Err(Error::PointAtInfinity)) => {
                        assert_eq!(out.status[i], AT_INFINITY)
                    }
                    (None, Err(e)) => {
                        panic!("unexpected scalar error {e:?} for a lane the checks accepted")
                    }
                }
            }
        }
    }

    /// The engine's contract on the scalar core, lane by lane: a stand-in whose results are
    /// right by construction, so that the compaction around it (parse, lift, packing,
    /// groups and calls, the padded or scalar tail, the results' order, the retries) is
    /// checked alone, and fast in any build. Every third lane it recovers is handed back
    /// as [`RETRY_SCALAR`], which the driver must finish on the scalar path; it records
    /// how many groups each call took.
    struct ScalarEngine {
        tail_min: usize,
        calls: std::cell::RefCell<Vec<usize>>,
    }

    fn words(v: &[[u64; LANES]; 4], i: usize) -> [u64; 4] {
        [v[0][i], v[1][i], v[2][i], v[3][i]]
    }

    impl Engine for ScalarEngine {
        fn lift(&self, inps: &mut [Input8; 2]) -> [u8; 2] {
            use crate::secp256k1::field::FieldElement;
            use crate::secp256k1::group::Affine;
            let mut out = [0u8; 2];
            for (g, inp) in inps.iter_mut().enumerate() {
                for i in (0..LANES).filter(|i| inp.valid >> i & 1 == 1) {
                    let x = FieldElement::from_u64x4(words(&inp.x, i));
                    if let Some(r) = Affine::from_x(&x, inp.odd[i] == 1) {
                        for (k, w) in r.y.to_u64x4().into_iter().enumerate() {
                            inp.y[k][i] = w;
                        }
                        out[g] |= 1 << i;
                    }
                }
            }
            out
        }

        fn recover(&self, inps: &[Input8], outs: &mut [Output8]) {
            use crate::secp256k1::field::FieldElement;
            use crate::secp256k1::scalar::Scalar;
            assert!(!inps.is_empty() && inps.len() <= GROUPS && inps.len() == outs.len());
            self.calls.borrow_mut().push(inps.len());
            let mut recovered = 0;
            for (inp, out) in inps.iter().zip(outs.iter_mut()) {
                for i in 0..LANES {
                    if inp.valid >> i & 1 == 0 {
                        out.status[i] = INVALID;
                        continue;
                    }
                    let x = FieldElement::from_u64x4(words(&inp.x, i));
                    let p = Parsed {
                        r: Scalar::from_words(words(&inp.r, i)),
                        s: Scalar::from_words(words(&inp.s, i)),
                        msg: Scalar::from_words(words(&inp.m, i)),
                        x,
                        odd: inp.odd[i] == 1,
                    };
                    // The lift left only x-coordinates, with y written.
                    let y = FieldElement::from_u64x4(words(&inp.y, i));
                    assert!(crate::secp256k1::group::Affine::from_x(&x, p.odd).is_some());
                    assert_eq!(y.is_odd(), p.odd);
                    out.status[i] = match crate::recover::recover_point(&p) {
                        Ok(q) => {
                            let h = crate::keccak::keccak256_64(&crate::recover::serialize(&q));
                            for k in 0..4 {
                                out.hash[k][i] =
                                    u64::from_le_bytes(h[8 * k..8 * k + 8].try_into().unwrap());
                            }
                            recovered += 1;
                            if recovered % 3 == 0 { RETRY_SCALAR } else { OK }
                        }
                        Err(Error::PointAtInfinity) => AT_INFINITY,
                        Err(e) => panic!("the engine met {e:?} after the lift"),
                    };
                }
            }
        }

        fn padded_tail_min(&self) -> usize {
            self.tail_min
        }
    }

    /// [`ScalarEngine`] without its own shortest padded tail: the trait's default.
    struct DefaultTail(ScalarEngine);

    impl Engine for DefaultTail {
        fn lift(&self, inps: &mut [Input8; 2]) -> [u8; 2] {
            self.0.lift(inps)
        }
        fn recover(&self, inps: &[Input8], outs: &mut [Output8]) {
            self.0.recover(inps, outs)
        }
    }

    /// The compaction on inputs of every length up to three full calls and more (with
    /// refusals, points off the curve and keys at infinity mixed in), against
    /// `recover_address` input by input, for each shortest padded tail; and the calls:
    /// [`GROUPS`] groups each but the last, every group full but the last one, which is
    /// padded only from the shortest padded tail on.
    #[test]
    fn compaction_matches_recover_address() {
        let mixed = signatures(0xc0, 3 * GROUPS * LANES + 40);
        let has_r = |(h, s): &&Signed| {
            !matches!(
                recover_address(h, s),
                Err(Error::InvalidRecoveryId(_)
                    | Error::InvalidR
                    | Error::InvalidS
                    | Error::NotOnCurve)
            )
        };
        // Also inputs that all have an R: there, as many parse as reach the engine, so
        // the parsed count alone decides the first shortcut (to the scalar core) at the
        // shortest padded tail, which the engine's calls then show.
        let clean: Vec<Signed> = mixed.iter().filter(has_r).copied().collect();
        // `None`: the trait's default, PADDED_TAIL_MIN.
        for (sigs, tail_min) in [&mixed, &clean]
            .into_iter()
            .flat_map(|s| [Some(1), Some(2), Some(6), Some(LANES), None].map(|t| (s, t)))
        {
            for len in (0..=2 * LANES + 3).chain([GROUPS * LANES + 5, sigs.len()]) {
                let engine = ScalarEngine {
                    tail_min: tail_min.unwrap_or(0),
                    calls: Default::default(),
                };
                let input = &sigs[..len];
                let (got, engine) = match tail_min {
                    Some(_) => (recover_many(&engine, input), engine),
                    None => {
                        let default = DefaultTail(engine);
                        (recover_many(&default, input), default.0)
                    }
                };
                let tail_min = tail_min.unwrap_or(PADDED_TAIL_MIN);
                assert_eq!(got.len(), len);
                for ((h, s), r) in input.iter().zip(&got) {
                    assert_eq!(*r, recover_address(h, s), "tail_min {tail_min}, len {len}");
                }
                // What reached the engine: the inputs with an R.
                let lifted = input.iter().filter(has_r).count();
                let through = if lifted < tail_min {
                    0
                } else if lifted % LANES >= tail_min {
                    lifted
                } else {
                    lifted / LANES * LANES
                };
                let groups = through.div_ceil(LANES);
                let calls = engine.calls.into_inner();
                assert_eq!(
                    calls.iter().sum::<usize>(),
                    groups,
                    "tail_min {tail_min}, len {len}"
                );
                assert!(
                    calls.iter().rev().skip(1).all(|&c| c == GROUPS),
                    "{calls:?}"
                );
            }
        }
    }

    #[test]
    fn portable_engine_matches_scalar_core() {
        check_batches(
            |g| {
                recover_many(&PortableEngine, g)
                    .try_into()
                    .expect("one result per input")
            },
            1,
            300,
        );
        check_engine(crate::lanes::recover::lift_recover::<PortableIfma>, 4, 200);
    }

    /// The avx512f engine's algorithm (9×29 field) on the portable backend, whose debug
    /// checks hold every limb to the bounds the hardware relies on.
    #[test]
    fn portable29_engine_matches_scalar_core() {
        check_batches(
            |g| {
                recover_many(&Portable29Engine, g)
                    .try_into()
                    .expect("one result per input")
            },
            7,
            150,
        );
        check_engine(crate::lanes::recover::lift_recover::<Portable29>, 8, 100);
    }

    /// The AVX-512 IFMA core run natively (x86-64 only: the engine exists nowhere else).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_engine_native_matches_scalar_core() {
        let Some(cpu) = crate::dispatch::avx512_native() else {
            eprintln!(
                "skipped: no AVX-512 (this CPU lacks IFMA; the emulated test covers it when BXRUN is set)"
            );
            return;
        };
        let _ = cpu;
        check_engine(
            // SAFETY: `cpu` proves the CPU has the body's target features.
            |i, o| unsafe { crate::lanes::recover::lift_recover_avx512_body(i, o) },
            5,
            300,
        );
    }

    /// The AVX-512 F core (no IFMA, 9×29 field) run natively, on thousands of seeded
    /// signatures with invalid ones mixed in.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512f_engine_native_matches_scalar_core() {
        let Some(cpu) = crate::dispatch::avx512f_native() else {
            eprintln!("skipped: no AVX-512 F (the emulated test covers it when BXRUN is set)");
            return;
        };
        let _ = cpu;
        check_engine(
            // SAFETY: `cpu` proves the CPU has the body's target features.
            |i, o| unsafe { crate::lanes::recover::lift_recover_avx512f_body(i, o) },
            9,
            500,
        );
        check_batches(
            |g| {
                recover_many(&Avx512FEngine(cpu), g)
                    .try_into()
                    .expect("one result per input")
            },
            10,
            500,
        );
    }

    /// The AVX-512 cores run for real under the emulator (BochsCPU), whenever `BXRUN` names
    /// the runner — on CI machines without AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_engines_emulated_match_scalar_core() {
        let Some(_) = crate::test_support::emu::runner() else {
            eprintln!("skipped: no AVX-512 (BXRUN not set: no emulated run)");
            return;
        };
        for (entry, seed) in [(EMU_IFMA, 6), (EMU_AVX512F, 11)] {
            let batches = 4;
            let sigs = signatures(seed, batches * LANES);
            let groups: Vec<[Signed; LANES]> = sigs
                .chunks_exact(LANES)
                .map(|g| g.try_into().unwrap())
                .collect();
            let run = run_emulated(entry, &groups, false);
            for ((g, got), done) in groups.iter().zip(&run.results).zip(&run.finished) {
                for (i, (h, s)) in g.iter().enumerate() {
                    assert_eq!(got[i], recover_address(h, s), "{entry}");
                    assert!(done[i], "{entry}: lane {i} handed back to the scalar core");
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
