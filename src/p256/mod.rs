//! P-256 (secp256r1) arithmetic for ECDSA verification: the field, the scalars, the group
//! and u₁·G + u₂·Q. Variable time throughout (all inputs of a verification are public).

pub(crate) mod ecmult;
pub(crate) mod field;
pub(crate) mod group;
pub(crate) mod scalar;
pub(crate) mod tables;
