//! Internals for the repository's own tests, tools, benchmarks and fuzz targets: the batch
//! paths one by one whatever the CPU, the batch inversion schedules, the arithmetic types,
//! and (feature `emu`) the AVX-512 engine run under the emulator.
//!
//! **Not part of the API**: hidden from the docs, and free to change in any release. A
//! program of this repository reaches inside the crate only through this module.

use crate::Error;
use crate::batch::{Signed, lanes8, scalar};

/// The MULX/ADX field multiply (the lane multiplies' yardstick in `tools`' `lane_mul`).
#[cfg(target_arch = "x86_64")]
pub use crate::secp256k1::field::MulxAdx;
pub use crate::secp256k1::field::{FieldElement, FieldMul};
pub use crate::secp256k1::scalar::Scalar;

#[cfg(target_arch = "x86_64")]
pub use crate::p256::field::MulxAdx as P256MulxAdx;
/// P-256's field: its elements (Montgomery form, [`P256Fe::from_bytes`] and
/// [`P256Fe::to_bytes`] convert), the product trait, its portable implementation and the
/// MULX/ADX one (the yardstick of `tools`' `p256_lane_mul`).
pub use crate::p256::field::{Fe as P256Fe, FieldMul as P256FieldMul, Portable as P256Portable};

/// One batch path of [`recover_addresses`](crate::recover_addresses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchPath {
    /// What `recover_addresses` picks on this CPU.
    Dispatched,
    /// The scalar core's batch path (what CPUs without AVX-512 IFMA take).
    Scalar,
    /// The 8-lane engine on its portable backend (plain Rust, slow) with the 5×52 field:
    /// the same lockstep algorithm as the avx512-ifma engine, on every CPU.
    PortableLanes,
    /// The 8-lane engine on its portable backend with the 9×29 field: the avx512f engine's
    /// algorithm, on every CPU.
    PortableLanes29,
    /// The 8-lane engine on AVX-512 IFMA, natively (whatever `ASMCRYPTO_BACKEND` says).
    Avx512Lanes,
    /// The 8-lane engine on AVX-512 F without IFMA (the 9×29 field), natively (whatever
    /// `ASMCRYPTO_BACKEND` says).
    Avx512FLanes,
}

/// The results of `path` for `inputs`, each exactly what
/// [`recover_address`](crate::recover_address) returns; `None` if the path needs a CPU
/// feature this one lacks ([`BatchPath::Avx512Lanes`], [`BatchPath::Avx512FLanes`]).
pub fn recover_addresses_on(
    path: BatchPath,
    inputs: &[([u8; 32], [u8; 65])],
) -> Option<Vec<Result<[u8; 20], Error>>> {
    Some(match path {
        BatchPath::Dispatched => crate::recover_addresses(inputs),
        BatchPath::Scalar => scalar::recover_many(inputs),
        BatchPath::PortableLanes => lanes8::recover_many(&lanes8::PortableEngine, inputs),
        BatchPath::PortableLanes29 => lanes8::recover_many(&lanes8::Portable29Engine, inputs),
        BatchPath::Avx512Lanes => avx512_lanes(inputs)?,
        BatchPath::Avx512FLanes => avx512f_lanes(inputs)?,
    })
}

#[cfg(target_arch = "x86_64")]
fn avx512_lanes(inputs: &[Signed]) -> Option<Vec<Result<[u8; 20], Error>>> {
    let cpu = crate::dispatch::avx512_native()?;
    Some(lanes8::recover_many(&lanes8::Avx512Engine(cpu), inputs))
}

#[cfg(target_arch = "x86_64")]
fn avx512f_lanes(inputs: &[Signed]) -> Option<Vec<Result<[u8; 20], Error>>> {
    let cpu = crate::dispatch::avx512f_native()?;
    Some(lanes8::recover_many(&lanes8::Avx512FEngine(cpu), inputs))
}

#[cfg(not(target_arch = "x86_64"))]
fn avx512_lanes(_: &[Signed]) -> Option<Vec<Result<[u8; 20], Error>>> {
    None
}

#[cfg(not(target_arch = "x86_64"))]
fn avx512f_lanes(_: &[Signed]) -> Option<Vec<Result<[u8; 20], Error>>> {
    None
}

/// A schedule of the batch inversion (`benches/batch_inv.rs` compares them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InversionSchedule {
    /// Montgomery's trick as one chain of products.
    SingleChain,
    /// Two interleaved chains (the default for most lengths).
    TwoChains,
    /// Four interleaved chains.
    FourChains,
    /// Eight interleaved chains.
    EightChains,
    /// A product tree.
    Tree,
    /// What the crate picks for the length (`batch_inv::invert`).
    Chosen,
}

/// Inverts field elements (four little-endian 64-bit words each, below p and non-zero) in
/// place with `schedule`.
pub fn batch_invert(schedule: InversionSchedule, v: &mut [[u64; 4]]) {
    use crate::secp256k1::batch_inv::{
        invert, invert_chain, invert_chains, invert_tree, invert_two_chains,
    };
    use InversionSchedule as S;
    let mut fe: Vec<FieldElement> = v.iter().map(|w| FieldElement::from_u64x4(*w)).collect();
    let mut scratch = Vec::with_capacity(2 * fe.len() + 64);
    match schedule {
        S::SingleChain => invert_chain(&mut fe, &mut scratch),
        S::TwoChains => invert_two_chains(&mut fe, &mut scratch),
        S::FourChains => invert_chains::<FieldElement, 4>(&mut fe, &mut scratch),
        S::EightChains => invert_chains::<FieldElement, 8>(&mut fe, &mut scratch),
        S::Tree => invert_tree(&mut fe, &mut scratch),
        S::Chosen => invert(&mut fe, &mut scratch),
    }
    for (w, f) in v.iter_mut().zip(&fe) {
        *w = f.to_u64x4();
    }
}

/// The 8-lane AVX-512 engines under the AVX-512 emulator (`$BXRUN`), for machines without
/// AVX-512: an engine's C-ABI entry run inside BochsCPU on groups of eight signatures.
#[cfg(all(feature = "emu", target_arch = "x86_64"))]
pub mod emu {

    pub use crate::test_support::Emulated;

    /// Whether `$BXRUN` names the emulator runner.
    pub fn available() -> bool {
        crate::test_support::emu::runner().is_some()
    }

    /// Runs the avx512-ifma engine on `groups` in one emulated call, counting instructions
    /// if `count`.
    ///
    /// # Panics
    /// If `$BXRUN` is not set, or the runner fails (a tool's error, not a recovery's).
    pub fn recover8_emulated(groups: &[[([u8; 32], [u8; 65]); 8]], count: bool) -> Emulated {
        crate::batch::lanes8::run_emulated(crate::batch::lanes8::EMU_IFMA, groups, count)
    }

    /// [`recover8_emulated`] on the avx512f engine (AVX-512 F without IFMA, 9×29 field).
    ///
    /// # Panics
    /// As [`recover8_emulated`].
    pub fn recover8_emulated_avx512f(
        groups: &[[([u8; 32], [u8; 65]); 8]],
        count: bool,
    ) -> Emulated {
        crate::batch::lanes8::run_emulated(crate::batch::lanes8::EMU_AVX512F, groups, count)
    }
}

/// Issue 39's hybrid experiment (`lanes::hybrid`): chained doublings of eight points on the
/// lanes and of one or two on the scalar core's MULX/ADX multiply, alone, as coarse blocks
/// or interleaved a field operation at a time, for `tools/src/bin/hybrid_double.rs`.
#[cfg(all(feature = "emu", target_arch = "x86_64"))]
pub mod hybrid {
    use crate::secp256k1::group::{G, Jacobian};

    /// The lane field a run uses.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Engine {
        /// 5×52 on AVX-512 IFMA.
        Ifma,
        /// 9×29 on AVX-512 F.
        Avx512F,
    }

    /// The modes of [`double_loop`].
    pub use crate::lanes::hybrid::Mode;

    /// The points a run starts from: lane i holds 2^(i+1)·G and scalar point j
    /// 2^(j+9)·G, as Jacobian coordinates with Z ≠ 1 (words as the loop entries take
    /// them).
    pub fn start() -> ([u64; 96], [u64; 24]) {
        let mut p = G.to_jacobian();
        let mut pts = [Jacobian::INFINITY; 10];
        for q in &mut pts {
            p = p.double();
            *q = p;
        }
        let mut lanes = [0u64; 96];
        let mut scalar = [0u64; 24];
        for (i, q) in pts.iter().enumerate() {
            for (c, f) in [q.x, q.y, q.z].into_iter().enumerate() {
                let w = f.normalize().to_u64x4();
                if i < 8 {
                    for k in 0..4 {
                        lanes[32 * c + 8 * k + i] = w[k];
                    }
                } else {
                    scalar[12 * (i - 8) + 4 * c..][..4].copy_from_slice(&w);
                }
            }
        }
        (lanes, scalar)
    }

    /// `iters` chained doublings of the eight points in `lanes` and of the first `k`
    /// (1 or 2) in `scalar`, issued as `mode` says, on `engine`; the results replace them.
    /// Returns false (and does nothing) if this CPU lacks the engine's features, BMI2 or
    /// ADX, or `k` is not 1 or 2.
    pub fn double_loop(
        engine: Engine,
        mode: Mode,
        k: usize,
        lanes: &mut [u64; 96],
        scalar: &mut [u64; 24],
        iters: u64,
    ) -> bool {
        let ok = crate::dispatch::has_bmi2_adx()
            && (1..=2).contains(&k)
            && match engine {
                Engine::Ifma => crate::dispatch::avx512_native().is_some(),
                Engine::Avx512F => crate::dispatch::avx512f_native().is_some(),
            };
        if !ok {
            return false;
        }
        let entry = match engine {
            Engine::Ifma => crate::lanes::abi::asmcrypto_avx512_hybrid_double_loop,
            Engine::Avx512F => crate::lanes::abi::asmcrypto_avx512f_hybrid_double_loop,
        };
        // SAFETY: the features the entry needs are present (checked above); `lanes` holds
        // 96 words and `scalar` 24 ≥ 12·k, both exclusively borrowed.
        unsafe {
            entry(
                lanes.as_mut_ptr(),
                scalar.as_mut_ptr(),
                k as u64,
                iters,
                mode as u64,
            )
        };
        true
    }
}
