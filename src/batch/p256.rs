//! P-256 verification of many signatures: [`p256_verify_batch`].
//!
//! Each input is parsed first (a refused one costs its parse). The rest share two
//! inversions per chunk of up to [`CHUNK`]: one for every s⁻¹ mod n (Montgomery's trick
//! over the scalars) and one for the affine forms of every key's odd multiples (over the
//! field), where a single verification pays one of each. The double multiplication and
//! the x check then run per signature, as in [`p256_verify`](crate::p256_verify).

#[cfg(target_arch = "x86_64")]
use crate::p256::field::MulxAdx;
use crate::p256::field::{FieldMul, Portable};
use crate::p256::group::{Affine, G, Jacobian};
use crate::p256::scalar::Scalar;
use crate::p256::{ecmult, ecmult::TABLE_Q};
use crate::p256verify::{self, P256VERIFY_INPUT_LEN, Parsed};

/// Signatures per shared inversion: their key tables (64 bytes × 8 each) stay in L2.
const CHUNK: usize = 256;

/// Verifies many P256VERIFY inputs (EIP-7951: hash ‖ r ‖ s ‖ qx ‖ qy, 160 bytes each):
/// element i is exactly `p256verify_precompile(&inputs[i]).is_some()`.
///
/// With the `parallel` feature, long inputs are split across the rayon thread pool.
///
/// ```
/// let inputs = [[0u8; 160]; 3];
/// assert_eq!(asmcrypto::p256_verify_batch(&inputs), vec![false; 3]);
/// ```
pub fn p256_verify_batch(inputs: &[[u8; P256VERIFY_INPUT_LEN]]) -> Vec<bool> {
    #[cfg(feature = "parallel")]
    if let Some(chunk) = super::parallel_chunk(inputs.len()) {
        use rayon::prelude::*;
        return inputs
            .par_chunks(chunk)
            .flat_map_iter(verify_serial)
            .collect();
    }
    verify_serial(inputs)
}

fn verify_serial(inputs: &[[u8; P256VERIFY_INPUT_LEN]]) -> Vec<bool> {
    #[cfg(target_arch = "x86_64")]
    if let Some(m) = MulxAdx::detect() {
        return verify_with(m, inputs);
    }
    verify_with(Portable, inputs)
}

fn verify_with<M: FieldMul>(m: M, inputs: &[[u8; P256VERIFY_INPUT_LEN]]) -> Vec<bool> {
    let mut out = vec![false; inputs.len()];
    let mut parsed: Vec<(usize, Parsed)> = Vec::with_capacity(CHUNK.min(inputs.len()));
    for (base, chunk) in inputs.chunks(CHUNK).enumerate() {
        parsed.clear();
        for (i, input) in chunk.iter().enumerate() {
            let (hash, sig, key) = p256verify::split_input(input)
                .unwrap_or_else(|| unreachable!("a 160-byte array splits"));
            if let Ok(p) = p256verify::parse(&hash, &sig, &key) {
                parsed.push((base * CHUNK + i, p));
            }
        }
        let s: Vec<Scalar> = parsed.iter().map(|(_, p)| p.s).collect();
        let s_inv = Scalar::batch_inv_montgomery(&s);
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = crate::dispatch::avx512() {
            verify_lanes(cpu, &parsed, &s_inv, &mut out);
            continue;
        }
        let mut jac = Vec::with_capacity(parsed.len() * TABLE_Q);
        for (_, p) in &parsed {
            jac.extend_from_slice(&ecmult::odd_multiples_jacobian(m, &p.q));
        }
        let mut affine = vec![G; jac.len()];
        Jacobian::batch_to_affine_with(m, &jac, &mut affine);
        for (((i, p), s_inv), table) in parsed.iter().zip(&s_inv).zip(affine.chunks_exact(TABLE_Q))
        {
            let table: &[Affine; TABLE_Q] = table
                .try_into()
                .unwrap_or_else(|_| unreachable!("chunks of TABLE_Q"));
            out[*i] = p256verify::finish_with(m, p, s_inv, table);
        }
    }
    out
}

/// The double multiplications and x checks of a chunk on the 8-lane engine, eight
/// signatures a group (a last group of fewer repeats its first lane), the keys' tables
/// built on the lanes too; the lanes it reports back are verified by the scalar core.
#[cfg(target_arch = "x86_64")]
fn verify_lanes(
    cpu: crate::dispatch::Avx512Ifma,
    parsed: &[(usize, Parsed)],
    s_inv: &[Scalar],
    out: &mut [bool],
) {
    use crate::lanes::LANES;
    use crate::lanes::p256::verify::{Lane, verify_group_avx512};
    for (g, group) in parsed.chunks(LANES).enumerate() {
        let base = g * LANES;
        let lanes: [Lane; LANES] = core::array::from_fn(|i| {
            let k = base + if i < group.len() { i } else { 0 };
            let (p, s_inv) = (&parsed[k].1, &s_inv[k]);
            Lane {
                u1: p.h.mont_mul(s_inv),
                u2: p.r.mont_mul(s_inv),
                r: p.r,
                q: &p.q,
            }
        });
        let v = verify_group_avx512(cpu, &lanes);
        for (i, (at, p)) in group.iter().enumerate() {
            out[*at] = if v.retry >> i & 1 == 1 {
                p256verify::verify_parsed(p)
            } else {
                v.valid >> i & 1 == 1
            };
        }
    }
}
