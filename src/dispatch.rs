//! CPU features, detected once for the whole crate, and the paths chosen from them.
//!
//! Every module that picks code by CPU reads [`cpu`]: the 8-lane engine and the 8-way
//! Keccak need AVX-512 F, BW and IFMA; the scalar field multiply uses MULX/ADCX/ADOX
//! (BMI2 + ADX); Keccak uses ANDN (BMI1) and, for batches, AVX2. Detection runs on first
//! use and is cached in one atomic; reading it is a relaxed load.
//!
//! The environment variable `ASMCRYPTO_BACKEND=scalar`, read once at that first use,
//! turns the AVX-512 engine off (for benchmarks and tests of the other paths on AVX-512
//! machines). Results are identical on every path. [`backend`] names the batch path,
//! [`backend_details`] every choice.

use core::sync::atomic::{AtomicU8, Ordering};

/// What the crate uses of this CPU. On other architectures every flag is false.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cpu {
    /// AVX-512 F, BW and IFMA, and the engine not turned off by `ASMCRYPTO_BACKEND=scalar`.
    pub avx512_ifma: bool,
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

/// 0 until detected; then `DETECTED` with the feature bits.
static FEATURES: AtomicU8 = AtomicU8::new(0);

/// The features of this CPU (detected on the first call, then cached).
#[inline(always)]
pub(crate) fn cpu() -> Cpu {
    let mut bits = FEATURES.load(Ordering::Relaxed);
    if bits == 0 {
        bits = detect();
    }
    Cpu {
        avx512_ifma: bits & AVX512_IFMA != 0,
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

#[cold]
fn detect() -> u8 {
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))] // no features to add
    let mut bits = DETECTED;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let forced_scalar = std::env::var_os("ASMCRYPTO_BACKEND").is_some_and(|v| v == "scalar");
        if has!("avx512f") && has!("avx512bw") && has!("avx512ifma") && !forced_scalar {
            bits |= AVX512_IFMA;
        }
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
/// compiled with those features. Only [`avx512`] makes one, after detecting them. x86-64
/// only, like the engine.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Ifma(());

/// The AVX-512 engine's token, if this CPU has the features (and the engine is not
/// turned off by `ASMCRYPTO_BACKEND=scalar`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn avx512() -> Option<Avx512Ifma> {
    cpu().avx512_ifma.then_some(Avx512Ifma(()))
}

/// The AVX-512 token where the CPU itself has F, BW and IFMA, whatever
/// `ASMCRYPTO_BACKEND` says: for the tests and tools that run the engine natively next to
/// the other paths (never for the crate's own dispatch).
#[cfg(target_arch = "x86_64")]
pub(crate) fn avx512_native() -> Option<Avx512Ifma> {
    use std::arch::is_x86_feature_detected as has;
    (has!("avx512f") && has!("avx512bw") && has!("avx512ifma")).then_some(Avx512Ifma(()))
}

/// The name of the path the batch functions take on this CPU: `"avx512-ifma"` or
/// `"scalar"` (the scalar core's batch paths, with AVX2 Keccak where available). Useful
/// in logs; results are identical on every path.
///
/// ```
/// let b = asmcrypto::backend();
/// assert!(b == "avx512-ifma" || b == "scalar");
/// ```
pub fn backend() -> &'static str {
    if cpu().avx512_ifma {
        "avx512-ifma"
    } else {
        "scalar"
    }
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
    /// The batch path: `"avx512-ifma"` or `"scalar"` (as [`backend`]).
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
        keccak_batch: if c.avx512_ifma {
            "avx512"
        } else if c.avx2 {
            "avx2"
        } else {
            "scalar"
        },
    }
}
