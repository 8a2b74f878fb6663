//! Signature and precompile input layouts.

use crate::curve::B32;

/// One input of the batch calls: (message hash, r ‖ s ‖ v).
pub type Signed = ([u8; 32], [u8; 65]);

/// r ‖ s ‖ v.
pub fn sig65(r: &B32, s: &B32, v: u8) -> [u8; 65] {
    let mut out = [0u8; 65];
    out[..32].copy_from_slice(r);
    out[32..64].copy_from_slice(s);
    out[64] = v;
    out
}

/// r ‖ s.
pub fn sig64(r: &B32, s: &B32) -> [u8; 64] {
    let mut out = [0u8; 64];
    out[..32].copy_from_slice(r);
    out[32..].copy_from_slice(s);
    out
}

/// (r, s) of r ‖ s ‖ …
pub fn split_rs(sig: &[u8]) -> (B32, B32) {
    (
        sig[..32].try_into().expect("32 bytes of r"),
        sig[32..64].try_into().expect("32 bytes of s"),
    )
}

/// hash ‖ v (as a 32-byte big-endian word) ‖ r ‖ s.
pub fn precompile_input(hash: &B32, v: u8, r: &B32, s: &B32) -> [u8; 128] {
    let mut out = [0u8; 128];
    out[..32].copy_from_slice(hash);
    out[63] = v;
    out[64..96].copy_from_slice(r);
    out[96..].copy_from_slice(s);
    out
}

/// An input of the `ecrecover` precompile as the EVM reads it (yellow paper, appendix E):
/// right-padded with zeros to 128 bytes, bytes past 128 ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrecompileInput {
    /// Bytes 0..32.
    pub hash: B32,
    /// The v word (bytes 32..64) when it is exactly 27 or 28; `None` for any other word.
    pub v: Option<u8>,
    /// Bytes 64..96.
    pub r: B32,
    /// Bytes 96..128.
    pub s: B32,
}

impl PrecompileInput {
    /// Reads `input`.
    pub fn parse(input: &[u8]) -> Self {
        let mut buf = [0u8; 128];
        let len = input.len().min(128);
        buf[..len].copy_from_slice(&input[..len]);
        let word = &buf[32..64];
        let v =
            (word[..31].iter().all(|&b| b == 0) && matches!(word[31], 27 | 28)).then_some(word[31]);
        let (r, s) = split_rs(&buf[64..]);
        PrecompileInput {
            hash: buf[..32].try_into().expect("32 bytes"),
            v,
            r,
            s,
        }
    }
}
