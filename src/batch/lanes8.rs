//! Eight signatures through the 8-lane engine (`crate::lanes`): each lane parsed on the
//! scalar side and laid out word-major for the engine, the engine run (on AVX-512, or on
//! the portable backend for tests), and its per-lane status turned into results, with the
//! lanes the lockstep schedule cannot finish recomputed by the scalar core.

use super::Signed;
use crate::error::Error;
use crate::lanes::LANES;
use crate::lanes::recover::{INVALID, Input8, NOT_ON_CURVE, OK, Output8, RETRY_SCALAR};
use crate::recover::{parse, recover_address};

/// Parses each lane and lays the valid ones out for the engine. Lanes that fail keep their
/// error and are marked invalid (the engine gives them a dummy).
pub(crate) fn prepare(inputs: &[Signed; LANES]) -> (Input8, [Option<Error>; LANES]) {
    let mut inp = Input8::default();
    let mut errors = [None; LANES];
    for (i, (hash, sig)) in inputs.iter().enumerate() {
        match parse(hash, sig) {
            Ok(p) => {
                let xw = p.x.normalize().to_u64x4();
                for (k, xk) in xw.into_iter().enumerate() {
                    inp.x[k][i] = xk;
                    inp.r[k][i] = p.r.0[k];
                    inp.s[k][i] = p.s.0[k];
                    inp.m[k][i] = p.msg.0[k];
                }
                inp.odd[i] = u64::from(p.odd);
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
        (None, RETRY_SCALAR) => recover_address(&inputs[i].0, &inputs[i].1),
        (None, INVALID) => {
            unreachable!("the engine marks invalid only the lanes `prepare` refused")
        }
        (None, status) => unreachable!("the engine returned status {status}, which it has not"),
    })
}

/// Eight signatures through the lane engine with backend `B` (the portable one is for the
/// tests and the soak runner; it is far slower than either production path).
pub(crate) fn recover8_with<B: crate::lanes::Backend>(
    inputs: &[Signed; LANES],
) -> [Result<[u8; 20], Error>; LANES] {
    run(inputs, crate::lanes::recover::recover8::<B>)
}

/// Eight signatures through the AVX-512 engine.
#[cfg(target_arch = "x86_64")]
pub(crate) fn recover8_avx512(
    cpu: crate::dispatch::Avx512Ifma,
    inputs: &[Signed; LANES],
) -> [Result<[u8; 20], Error>; LANES] {
    run(inputs, |inp, out| {
        crate::lanes::recover::recover8_avx512(cpu, inp, out);
    })
}

/// [`prepare`], the engine, [`finish`].
#[inline(always)]
fn run(
    inputs: &[Signed; LANES],
    engine: impl FnOnce(&Input8, &mut Output8),
) -> [Result<[u8; 20], Error>; LANES] {
    let (inp, errors) = prepare(inputs);
    let mut out = Output8::default();
    engine(&inp, &mut out);
    finish(inputs, &errors, &out)
}

/// Groups of eight signatures through the AVX-512 engine's C-ABI entry
/// (`crate::lanes::abi`) inside the AVX-512 emulator: the results (lanes handed back to the
/// scalar core finished outside the emulator), which lanes the engine finished itself, and
/// the instruction count if `count`. For the tests and, with the feature `emu`, the tools.
#[cfg(all(target_arch = "x86_64", any(test, feature = "emu")))]
pub(crate) fn run_emulated(
    groups: &[[Signed; LANES]],
    count: bool,
) -> crate::test_support::Emulated {
    use crate::test_support::emu::{Arg, call};
    // Keep the entry in this executable, where the emulator looks it up by name.
    std::hint::black_box(crate::lanes::abi::asmcrypto_avx512_recover8 as *const () as usize);
    let prepared: Vec<_> = groups.iter().map(prepare).collect();
    let input: Vec<u8> = prepared.iter().flat_map(|(inp, _)| inp.encode()).collect();
    let output = vec![0u8; groups.len() * Output8::BYTES];
    let res = call(
        "asmcrypto_avx512_recover8",
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
        finished.push(core::array::from_fn(|i| out.status[i] == OK));
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
    use crate::lanes::portable::Portable;
    use crate::test_support::rng::splitmix64 as rng;

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

    /// The AVX-512 core run natively (x86-64 only: the engine exists nowhere else).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_engine_native_matches_scalar_core() {
        let Some(cpu) = crate::dispatch::avx512_native() else {
            eprintln!(
                "skipped: no AVX-512 (this CPU lacks IFMA; the emulated test covers it when BXRUN is set)"
            );
            return;
        };
        check_engine(
            |i, o| crate::lanes::recover::recover8_avx512(cpu, i, o),
            5,
            300,
        );
    }

    /// The AVX-512 core run for real under the emulator (BochsCPU), whenever `BXRUN` names
    /// the runner — on CI machines without AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_engine_emulated_matches_scalar_core() {
        let Some(_) = crate::test_support::emu::runner() else {
            eprintln!("skipped: no AVX-512 (BXRUN not set: no emulated run)");
            return;
        };
        let batches = 4;
        let sigs = signatures(6, batches * LANES);
        let groups: Vec<[Signed; LANES]> = sigs
            .chunks_exact(LANES)
            .map(|g| g.try_into().unwrap())
            .collect();
        let run = run_emulated(&groups, false);
        for ((g, got), done) in groups.iter().zip(&run.results).zip(&run.finished) {
            for (i, (h, s)) in g.iter().enumerate() {
                let want = recover_address(h, s);
                assert_eq!(got[i], want);
                if want.is_ok() {
                    assert!(done[i], "lane {i} not finished in lockstep");
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
