//! Arithmetic that is not tied to a curve: 64 × 64 → 128-bit products and safegcd inversion
//! modulo any odd modulus below 2²⁵⁶. secp256k1's field and scalars and P-256's field and
//! scalars all invert through [`modinv`], each with its own [`modinv::ModInfo`].

pub(crate) mod modinv;
pub(crate) mod wide;
pub(crate) mod words;
