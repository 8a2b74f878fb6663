//! The one error type of the crate.

use core::fmt;

/// Why a signature could not be recovered.
///
/// Every public recovery function returns this type (the precompile entry point maps any
/// error to the empty output, as the EVM does). The enum is `non_exhaustive`: match it with
/// a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The recovery id (`v`) is not one this entry point accepts. The byte is carried
    /// as given: `recover_*` accept `v ∈ {0, 1, 27, 28}`, `ecrecover` accepts `recid ∈ 0..=3`.
    InvalidRecoveryId(u8),
    /// `r` is zero or not below the group order `n`.
    InvalidR,
    /// `s` is zero or not below the group order `n`.
    InvalidS,
    /// `r` (plus `n`, for recovery ids 2 and 3) is not the x-coordinate of a curve point:
    /// either it is not below the field prime `p`, or `x³ + 7` has no square root.
    NotOnCurve,
    /// The recovered public key would be the point at infinity.
    PointAtInfinity,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidRecoveryId(v) => write!(f, "invalid recovery id {v}"),
            Error::InvalidR => f.write_str("signature r is zero or not below the group order"),
            Error::InvalidS => f.write_str("signature s is zero or not below the group order"),
            Error::NotOnCurve => {
                f.write_str("signature r is not the x-coordinate of a point on secp256k1")
            }
            Error::PointAtInfinity => f.write_str("recovered public key is the point at infinity"),
        }
    }
}

impl std::error::Error for Error {}
