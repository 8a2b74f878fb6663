//! The asmcrypto repository's shared test support, used by the integration tests, the
//! benchmarks and examples (a dev-dependency), the tools (`tools/`) and the fuzz targets
//! (`fuzz/`):
//!
//! - [`rng`]: the seeded generator (splitmix64);
//! - [`curve`]: the curve constants, 32-byte and big-integer arithmetic on them;
//! - [`edge`]: the edge values around 0, 1, n, p, p − n and 2²⁵⁶;
//! - [`boundary`]: the boundary scalars of the GLV split and the recodings, signatures
//!   crafted to reach them, and 256-bit values of long bit runs;
//! - [`sig`]: signature and precompile input layouts;
//! - [`oracle`]: the independent oracles (libsecp256k1, k256, sha3, tiny-keccak);
//! - [`p256`]: P256VERIFY's published vectors, seeded valid and hostile inputs, and its
//!   oracles (RustCrypto's p256 and OpenSSL);
//! - [`model`]: THE reference model of every recovery entry point, exact errors included;
//! - [`hostile`]: the seeded signature generator with hostile kinds;
//! - [`samples`]: the bundled samples of `tests/data/` and seeded signed samples;
//! - [`paths`]: the list of batch paths;
//! - [`check`]: asmcrypto compared with the model, for the suites;
//! - `alloy` (feature `alloy`): alloy transaction and authorization generators, the bundled
//!   transactions decoded by alloy, and alloy's own per-item answers;
//! - `op` (feature `op`): OP-stack transactions of every kind, deposits included, and
//!   op-alloy's own per-transaction answers;
//! - `reth` (feature `reth`): the bundled blocks as reth's sealed blocks, and reth's own
//!   block recovery.
//!
//! Only [`check`] and [`paths`] call asmcrypto; the model and the oracles never do (the
//! model uses `asmcrypto::Error` for its answers).

pub mod boundary;
pub mod check;
pub mod curve;
pub mod edge;
pub mod hostile;
pub mod model;
pub mod oracle;
pub mod p256;
pub mod paths;
pub mod rng;
pub mod samples;
pub mod sig;

#[cfg(feature = "alloy")]
pub mod alloy;
#[cfg(feature = "op")]
pub mod op;
#[cfg(feature = "reth")]
pub mod reth;

pub use check::{check_all, check_paths, scalar_core};

/// Cases per property test: `default`, unless the environment variable `PROPTEST_CASES`
/// says otherwise (for longer runs).
pub fn proptest_cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
pub use curve::{
    B32, from_be, hex_to_vec, hex32, is_x_coordinate, is_zero, n, p, to_be32, two_256,
};
pub use model::{Reference, model, model_ecrecover, model_precompile, model_v};
pub use oracle::{
    address_of_key, address_word, k256_recover, keccak, oracle_recover, public_key_of,
    secp_recover, sign,
};
pub use rng::SplitMix64;
pub use sig::{PrecompileInput, Signed, precompile_input, sig64, sig65};
