//! CPU features, detected once for the whole crate, and the paths chosen from them.
//!
//! Every module that picks code by CPU reads [`cpu`]. The batch path is the first of
//! `avx512-ifma` (the 8-lane engine on AVX-512 F, BW and IFMA), `avx512f` (the same engine
//! on AVX-512 F and BW, its field multiplied with `vpmuludq`) and `scalar` (the scalar
//! core's batch paths) that the CPU supports. The 8-way Keccak needs AVX-512 F and BW; the
//! scalar field multiply uses MULX/ADCX/ADOX (BMI2 + ADX); Keccak uses ANDN (BMI1) and, for
//! batches, AVX2. Detection runs on first use and is cached in one atomic; reading it is a
//! relaxed load.
//!
//! The environment variable `ASMCRYPTO_BACKEND`, read once at that first use, names the
//! batch path to start from: `avx512-ifma`, `avx512f`, `avx2` or `scalar`. The path taken
//! is the first from that one on, in the order above, that the CPU supports, so naming one
//! the CPU lacks falls back to the next (`avx2` names the scalar path: no AVX2 lane engine
//! is built, see `doc/benchmarks.md`, issue 25); an unknown value is ignored. Results are
//! identical on every path. [`backend`] names the batch path, [`backend_details`] every
//! choice.

use core::sync::atomic::{AtomicU8, Ordering};

/// The batch path: which engine `recover_addresses` runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Batch {
    /// The 8-lane engine on AVX-512 F, BW and IFMA (5×52 field).
    Avx512Ifma,
    /// The 8-lane engine on AVX-512 F and BW without IFMA (9×29 field on `vpmuludq`).
    Avx512F,
    /// The scalar core's batch paths.
    Scalar,
}

impl Batch {
    /// The name [`backend`] returns and `ASMCRYPTO_BACKEND` takes.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Batch::Avx512Ifma => "avx512-ifma",
            Batch::Avx512F => "avx512f",
            Batch::Scalar => "scalar",
        }
    }
}

/// What the crate uses of this CPU. On other architectures every flag is false and the
/// batch path is [`Batch::Scalar`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cpu {
    /// The batch path (the CPU's best, or the one `ASMCRYPTO_BACKEND` starts from).
    pub batch: Batch,
    /// AVX-512 F and BW (the 8-way Keccak of `keccak256_batch`), where the batch path is
    /// one of the AVX-512 engines.
    pub avx512_keccak: bool,
    /// AVX2 (the 4-way Keccak of `keccak256_batch`).
    pub avx2: bool,
    /// BMI1 (ANDN in the Keccak permutation).
    pub bmi1: bool,
    /// BMI2 and ADX (the MULX/ADCX/ADOX field multiply).
    pub bmi2_adx: bool,
}

const DETECTED: u8 = 1 << 7;
const AVX512_IFMA: u8 = 1;
const AVX2: u8 = 2;
const BMI1: u8 = 4;
const BMI2_ADX: u8 = 8;
const AVX512F: u8 = 16;

/// 0 until detected; then `DETECTED` with the feature bits (at most one of `AVX512_IFMA`
/// and `AVX512F`: the batch path).
static FEATURES: AtomicU8 = AtomicU8::new(0);

/// The features of this CPU (detected on the first call, then cached).
#[inline(always)]
pub(crate) fn cpu() -> Cpu {
    let mut bits = FEATURES.load(Ordering::Relaxed);
    if bits == 0 {
        bits = detect();
    }
    let batch = if bits & AVX512_IFMA != 0 {
        Batch::Avx512Ifma
    } else if bits & AVX512F != 0 {
        Batch::Avx512F
    } else {
        Batch::Scalar
    };
    Cpu {
        batch,
        avx512_keccak: bits & (AVX512_IFMA | AVX512F) != 0,
        avx2: bits & AVX2 != 0,
        bmi1: bits & BMI1 != 0,
        bmi2_adx: bits & BMI2_ADX != 0,
    }
}

/// BMI2 and ADX, for the field multiply's per-call check: one relaxed load and a bit test
/// (what [`cpu`] gives, without building the whole record on every multiplication).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_bmi2_adx() -> bool {
    let bits = FEATURES.load(Ordering::Relaxed);
    if bits & BMI2_ADX != 0 {
        return true;
    }
    bits == 0 && detect() & BMI2_ADX != 0
}

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
/// The batch path to start from, as `ASMCRYPTO_BACKEND` names it (`None`: unset or
/// unknown, start from the best).
fn requested() -> Option<Batch> {
    let v = std::env::var_os("ASMCRYPTO_BACKEND")?;
    match v.to_str()? {
        "avx512-ifma" => Some(Batch::Avx512Ifma),
        "avx512f" => Some(Batch::Avx512F),
        "avx2" | "scalar" => Some(Batch::Scalar),
        _ => None,
    }
}

/// The batch path: the first, from `from` (or from the best) on in the order avx512-ifma,
/// avx512f, scalar, that the CPU supports (`f_bw`: AVX-512 F and BW; `ifma`: those and
/// IFMA).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn choose(from: Option<Batch>, f_bw: bool, ifma: bool) -> Batch {
    match from.unwrap_or(Batch::Avx512Ifma) {
        Batch::Avx512Ifma if ifma => Batch::Avx512Ifma,
        Batch::Avx512Ifma | Batch::Avx512F if f_bw => Batch::Avx512F,
        _ => Batch::Scalar,
    }
}

#[cold]
fn detect() -> u8 {
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))] // no features to add
    let mut bits = DETECTED;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let f_bw = has!("avx512f") && has!("avx512bw");
        bits |= match choose(requested(), f_bw, f_bw && has!("avx512ifma")) {
            Batch::Avx512Ifma => AVX512_IFMA,
            Batch::Avx512F => AVX512F,
            Batch::Scalar => 0,
        };
        if has!("avx2") {
            bits |= AVX2;
        }
        if has!("bmi1") {
            bits |= BMI1;
        }
        if has!("bmi2") && has!("adx") {
            bits |= BMI2_ADX;
        }
    }
    FEATURES.store(bits, Ordering::Relaxed);
    bits
}

/// Proof that the CPU has AVX-512 F, BW and IFMA, for the safe entries of the code
/// compiled with those features. Only [`avx512`] and [`avx512_native`] make one, after
/// detecting them. x86-64 only, like the engine.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Ifma(());

/// The avx512-ifma engine's token, if that is the batch path.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn avx512() -> Option<Avx512Ifma> {
    (cpu().batch == Batch::Avx512Ifma).then_some(Avx512Ifma(()))
}

/// The AVX-512 IFMA token where the CPU itself has F, BW and IFMA, whatever
/// `ASMCRYPTO_BACKEND` says: for the tests and tools that run the engine natively next to
/// the other paths (never for the crate's own dispatch).
#[cfg(target_arch = "x86_64")]
pub(crate) fn avx512_native() -> Option<Avx512Ifma> {
    use std::arch::is_x86_feature_detected as has;
    (has!("avx512f") && has!("avx512bw") && has!("avx512ifma")).then_some(Avx512Ifma(()))
}

/// Proof that the CPU has AVX-512 F and BW, for the safe entries of the code compiled with
/// those features (the avx512f engine, the 8-way Keccak). Only [`avx512f`],
/// [`avx512_keccak`] and [`avx512f_native`] make one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512F(());

/// The avx512f engine's token, if that is the batch path.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn avx512f() -> Option<Avx512F> {
    (cpu().batch == Batch::Avx512F).then_some(Avx512F(()))
}

/// The 8-way Keccak's token: AVX-512 F and BW, where the batch path is an AVX-512 engine.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn avx512_keccak() -> Option<Avx512F> {
    cpu().avx512_keccak.then_some(Avx512F(()))
}

/// The AVX-512 F token where the CPU itself has F and BW, whatever `ASMCRYPTO_BACKEND`
/// says (tests and tools only, as [`avx512_native`]).
#[cfg(target_arch = "x86_64")]
pub(crate) fn avx512f_native() -> Option<Avx512F> {
    use std::arch::is_x86_feature_detected as has;
    (has!("avx512f") && has!("avx512bw")).then_some(Avx512F(()))
}

/// The name of the path the batch functions take on this CPU: `"avx512-ifma"`,
/// `"avx512f"` or `"scalar"` (the scalar core's batch paths, with AVX2 Keccak where
/// available). Useful in logs; results are identical on every path.
///
/// ```
/// let b = asmcrypto::backend();
/// assert!(["avx512-ifma", "avx512f", "scalar"].contains(&b));
/// ```
pub fn backend() -> &'static str {
    cpu().batch.name()
}

/// Every choice made from the CPU's features, for logs and bug reports.
///
/// `non_exhaustive`: a new backend may add a field, and each field may gain values.
///
/// ```
/// let d = asmcrypto::backend_details();
/// assert_eq!(d.batch, asmcrypto::backend());
/// println!("{d}"); // e.g. "batch avx512-ifma, field mulx-adx, keccak andn, keccak batch avx512"
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BackendDetails {
    /// The batch path: `"avx512-ifma"`, `"avx512f"` or `"scalar"` (as [`backend`]).
    pub batch: &'static str,
    /// The scalar field multiply: `"mulx-adx"` (BMI2 + ADX), `"arm64"` (the aarch64
    /// assembly) or `"portable"`.
    pub field: &'static str,
    /// The scalar Keccak permutation: `"andn"` (BMI1) or `"portable"`.
    pub keccak: &'static str,
    /// [`keccak256_batch`](crate::keccak256_batch): `"avx512"`, `"avx2"` or `"scalar"`.
    pub keccak_batch: &'static str,
}

impl core::fmt::Display for BackendDetails {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "batch {}, field {}, keccak {}, keccak batch {}",
            self.batch, self.field, self.keccak, self.keccak_batch
        )
    }
}

/// The choices [`backend`] and its siblings make on this CPU; see [`BackendDetails`].
pub fn backend_details() -> BackendDetails {
    let c = cpu();
    BackendDetails {
        batch: backend(),
        field: if c.bmi2_adx {
            "mulx-adx"
        } else if cfg!(target_arch = "aarch64") {
            "arm64"
        } else {
            "portable"
        },
        keccak: if c.bmi1 { "andn" } else { "portable" },
        keccak_batch: if c.avx512_keccak {
            "avx512"
        } else if c.avx2 {
            "avx2"
        } else {
            "scalar"
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every request on every kind of CPU: the first supported path from the one named,
    /// never one the CPU lacks.
    #[test]
    fn the_path_is_the_first_supported_from_the_request() {
        use Batch::*;
        let cpus = [(false, false), (true, false), (true, true)]; // (F + BW, IFMA)
        let best = [Scalar, Avx512F, Avx512Ifma];
        for (&(f_bw, ifma), &best) in cpus.iter().zip(&best) {
            assert_eq!(choose(None, f_bw, ifma), best);
            assert_eq!(choose(Some(Avx512Ifma), f_bw, ifma), best);
            let f = if f_bw { Avx512F } else { Scalar };
            assert_eq!(choose(Some(Avx512F), f_bw, ifma), f);
            assert_eq!(choose(Some(Scalar), f_bw, ifma), Scalar);
        }
        assert_eq!(Avx512Ifma.name(), "avx512-ifma");
        assert_eq!(Avx512F.name(), "avx512f");
        assert_eq!(Scalar.name(), "scalar");
    }
}
