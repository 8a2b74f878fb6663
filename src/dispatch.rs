//! Runtime CPU-feature dispatch, detected once.
//!
//! The batch entry points pick the fastest path the CPU supports: the 8-lane AVX-512 IFMA
//! engine where available, otherwise the scalar batch paths (the batch-affine ladder for
//! long inputs, interleaved Strauss loops with shared inversions for short ones; Keccak
//! batches on AVX2). The choice is made on first use and cached in an atomic; [`backend`]
//! reports it.
//!
//! The environment variable `ASMCRYPTO_BACKEND=scalar`, read once at that first use,
//! turns the AVX-512 engine off (for benchmarks and tests of the other paths on AVX-512
//! machines). Results are identical on every path.

use core::sync::atomic::{AtomicU8, Ordering};

/// The batch paths this build can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// 8 lanes in AVX-512 registers with IFMA multiplies.
    Avx512,
    /// The scalar core, one signature at a time.
    Scalar,
}

/// 0: not yet detected; otherwise 1 + the `Path` discriminant.
static PATH: AtomicU8 = AtomicU8::new(0);

/// The batch path for this CPU (detected on first call, then cached).
#[inline]
pub(crate) fn path() -> Path {
    match PATH.load(Ordering::Relaxed) {
        1 => Path::Avx512,
        2 => Path::Scalar,
        _ => detect(),
    }
}

#[cold]
fn detect() -> Path {
    let forced_scalar = std::env::var_os("ASMCRYPTO_BACKEND").is_some_and(|v| v == "scalar");
    let p = if has_avx512_ifma() && !forced_scalar {
        Path::Avx512
    } else {
        Path::Scalar
    };
    PATH.store(if p == Path::Avx512 { 1 } else { 2 }, Ordering::Relaxed);
    p
}

/// True if the CPU (and OS) support the AVX-512 subsets the lane engine uses:
/// F, BW and IFMA.
pub(crate) fn has_avx512_ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512ifma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
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
    match path() {
        Path::Avx512 => "avx512-ifma",
        Path::Scalar => "scalar",
    }
}
