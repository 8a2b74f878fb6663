//! secp256k1 arithmetic: the field, the scalars, the group and double-scalar
//! multiplication. Variable time throughout (all inputs are public).

pub(crate) mod affine_tables;
pub(crate) mod batch_inv;
pub(crate) mod ecmult;
pub(crate) mod eisenstein;
pub(crate) mod field;
#[cfg(target_arch = "x86_64")]
pub(crate) mod field_adx;
#[cfg(target_arch = "aarch64")]
pub(crate) mod field_arm64;
// The multiply for WebAssembly (tested on every host).
#[cfg(any(target_family = "wasm", test))]
pub(crate) mod field_wasm;
pub(crate) mod glv;
pub(crate) mod group;
pub(crate) mod recode;
pub(crate) mod scalar;
pub(crate) mod tables;
