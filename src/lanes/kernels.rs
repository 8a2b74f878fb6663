//! Small AVX-512 leaf kernels over caller buffers: single lane operations, exported so
//! the tests can run each one natively or under the emulator against the scalar core, and
//! so that `llvm-mca` can analyse a field multiplication and a doubling in isolation
//! (see `doc/benchmarks.md`).
//!
//! Buffers are word-major: an element of eight lanes is four vectors of little-endian
//! 64-bit words, `w[k][lane]`, 32 words in all.

use super::avx512::Avx512;
use super::field::Fe8;
use super::point::{Aff8, Jac8};
use super::scalar::Sc8;
use super::{Backend, LANES};

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
fn fe(p: *const u64) -> Fe8<B> {
    Fe8::from_words(load4(p))
}

#[inline(always)]
fn put(p: *mut u64, f: Fe8<B>) {
    store4(p, f.normalize().to_words());
}

/// Field operations on `count` groups of eight lanes: for group g with inputs
/// `a[g]`, `b[g]` (32 words each), writes a·b, a², a + b, a − b, −a and the canonical a
/// to `out[g]` (6 × 32 words).
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
    for g in 0..count as usize {
        // SAFETY: in bounds by the caller's contract (see above).
        let (pa, pb, po) = unsafe { (a.add(g * ELEM), b.add(g * ELEM), out.add(g * 6 * ELEM)) };
        let (x, y) = (fe(pa), fe(pb));
        let results = [x.mul(&y), x.sqr(), x.add(&y), x.sub(&y), x.neg(), x];
        for (i, r) in results.into_iter().enumerate() {
            // SAFETY: in bounds by the caller's contract.
            put(unsafe { po.add(i * ELEM) }, r);
        }
    }
}

/// One field multiplication of eight lanes: `out = a·b` (canonical). The kernel `llvm-mca`
/// analyses.
///
/// # Safety
/// AVX-512 F, BW and IFMA; 32 words behind each pointer.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_fe_mul(a: *const u64, b: *const u64, out: *mut u64) {
    let r = fe(a).mul(&fe(b));
    store4(out, r.to_words());
}

/// Point operations on `count` groups: input `p[g]` is a Jacobian point (X, Y, Z: 96
/// words) and `q[g]` an affine point (x, y: 64 words); writes 2P (96 words), P + Q (96
/// words) and the degenerate mask of the addition (8 words, one per lane) to `out[g]`.
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
    for g in 0..count as usize {
        // SAFETY: in bounds by the caller's contract.
        let (pp, pq, po) = unsafe { (p.add(g * 3 * ELEM), q.add(g * 2 * ELEM), out.add(g * 200)) };
        // SAFETY: in bounds by the caller's contract.
        let jp = unsafe {
            Jac8 {
                x: fe(pp),
                y: fe(pp.add(ELEM)),
                z: fe(pp.add(2 * ELEM)),
            }
        };
        // SAFETY: in bounds by the caller's contract.
        let aq = unsafe {
            Aff8 {
                x: fe(pq),
                y: fe(pq.add(ELEM)),
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

/// One doubling of eight Jacobian points (96 words in, 96 out, not normalised). The kernel
/// `llvm-mca` analyses.
///
/// # Safety
/// AVX-512 F, BW and IFMA; 96 words behind each pointer.
#[unsafe(no_mangle)]
#[target_feature(enable = "avx512f,avx512bw,avx512ifma")]
pub unsafe extern "C" fn asmcrypto_avx512_point_double(p: *const u64, out: *mut u64) {
    // SAFETY: 96 readable words at `p`.
    let jp = unsafe {
        Jac8 {
            x: fe(p),
            y: fe(p.add(ELEM)),
            z: fe(p.add(2 * ELEM)),
        }
    };
    let d = jp.double();
    for (i, c) in [d.x, d.y, d.z].into_iter().enumerate() {
        // SAFETY: 96 writable words at `out`.
        store4(unsafe { out.add(i * ELEM) }, c.to_words());
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::emu;
    use crate::lanes::field::tests::{edge_elements, rng};
    use crate::secp256k1::field::FieldElement;
    use crate::secp256k1::group::{G, Jacobian};
    use crate::secp256k1::scalar::{N, Scalar};

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
        if crate::dispatch::has_avx512_ifma() {
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
                acc = acc.double_var().add_ge_var(&G).0;
            }
            let pj = acc.double_var(); // Z ≠ 1
            let qa = if i % 13 == 5 {
                pj.to_affine_var()
            } else {
                acc.add_ge_var(&G).0.to_affine_var()
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
                    let (a, b) = (a.to_affine_var(), b.to_affine_var());
                    a.x.to_bytes() == b.x.to_bytes() && a.y.to_bytes() == b.y.to_bytes()
                };
                assert!(same(&jac(0), &p[i].double_var()), "double {i}");
                let degenerate = o[6 * ELEM + lane] == 1;
                assert_eq!(degenerate, i % 13 == 5, "degenerate flag {i}");
                if !degenerate {
                    assert!(same(&jac(3), &p[i].add_ge_var(&q[i]).0), "add {i}");
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
            .inv_var();
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
