//! P-256 verification on the 8-lane engine: a field of its own beside the secp256k1 lane
//! fields, its a = −3 points, and the verification of eight signatures in lockstep. It
//! shares the engine's vector backends ([`super::Backend`], [`super::Ifma`]) and nothing
//! curve-specific: the secp256k1 lane field's fold by 2²⁵⁶ ≡ 2³² + 977 and its a = 0
//! formulas do not apply here (see `doc/internals.md`, "P-256 on the lanes").

// Only the AVX-512 IFMA path runs it outside the tests (the portable backend is the
// tests' way through it on every machine).
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

pub(crate) mod field;
pub(crate) mod point;
pub(crate) mod verify;
