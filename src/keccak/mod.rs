//! Keccak-256 as Ethereum uses it: the original Keccak submission with padding byte `0x01`
//! (not the `0x06` of FIPS 202 SHA3-256), capacity 512 bits, rate 136 bytes, 32-byte output.
//!
//! - [`permutation`]: Keccak-f\[1600\], in two flavours (literal χ where the CPU has an
//!   and-not instruction, lane complementing otherwise; on x86-64 builds without BMI1 at
//!   compile time, a BMI1 copy is picked at run time where `crate::dispatch` finds it).
//! - [`sponge`]: absorbing, padding and squeezing, for one state and for N side by side.
//! - [`scalar`]: [`keccak256`], the incremental [`Keccak256`], the 64-byte key hash.
//! - [`batch`]: [`keccak256_batch`], eight inputs at once on the AVX-512 engine's 8-way
//!   permutation or the AVX2 4-way one of [`x4`].

mod batch;
mod permutation;
mod scalar;
mod sponge;
mod x4;

pub use batch::keccak256_batch;
#[cfg_attr(not(feature = "alloy"), allow(unused_imports))]
pub(crate) use batch::keccak256_many;
#[cfg(all(test, target_arch = "x86_64"))] // the x86-64 paths' tests
pub(crate) use permutation::keccak_f1600;
pub(crate) use scalar::keccak256_64;
pub use scalar::{Keccak256, keccak256};
