//! asmcrypto for JavaScript: the Rust half of the npm package `asmcrypto` (`js/`).
//!
//! One crate, built twice by `scripts/build.mjs`:
//! - for the host, as a Node-API addon (napi-rs, [`node`]): `asmcrypto.node`, the package's
//!   main entry and `asmcrypto/viem`;
//! - for `wasm32-unknown-unknown`, as a WebAssembly module ([`wasm`]): `asmcrypto/wasm`.
//!
//! Both are thin: the JavaScript layer (`lib/`) checks and converts every argument (bytes,
//! `Buffer`, hex; lengths; the batch's two forms), throws the errors, and calls these
//! functions with byte arrays of the right lengths only. What the two halves share is
//! here: the status codes that name each [`asmcrypto::Error`] (`lib/errors.mjs` maps them
//! to error classes), and the batch's flat layout.

#[cfg(not(target_family = "wasm"))]
mod node;
#[cfg(target_family = "wasm")]
mod wasm;

/// One signed message: the 32-byte hash and the 65-byte signature r ‖ s ‖ v.
type Signed = ([u8; 32], [u8; 65]);

/// The call succeeded.
#[cfg(target_family = "wasm")]
const OK: u32 = 0;
/// The status of each recovery error; `lib/errors.mjs` holds the same numbers.
const fn status(err: asmcrypto::Error) -> u32 {
    match err {
        asmcrypto::Error::InvalidRecoveryId(_) => 1,
        asmcrypto::Error::InvalidR => 2,
        asmcrypto::Error::InvalidS => 3,
        asmcrypto::Error::NotOnCurve => 4,
        asmcrypto::Error::PointAtInfinity => 5,
        // `asmcrypto::Error` is non-exhaustive: a later kind is still an asmcrypto error.
        _ => 6,
    }
}
/// An argument of the wrong length reached the Rust side (the JavaScript layer checks every
/// length first, so only a caller of the raw functions sees this).
const BAD_ARGUMENT: u32 = 100;

/// A result as its status, with the value written to `out` on success.
#[cfg(target_family = "wasm")]
fn write<const N: usize>(result: Result<[u8; N], asmcrypto::Error>, out: &mut [u8; N]) -> u32 {
    match result {
        Ok(value) => {
            *out = value;
            OK
        }
        Err(err) => status(err),
    }
}

/// The inputs of a batch from its flat form: `hashes` holds n hashes of 32 bytes back to
/// back, `sigs` n signatures of 65 bytes. `None` where the lengths do not describe the same
/// n whole items.
fn batch_inputs(hashes: &[u8], sigs: &[u8]) -> Option<Vec<Signed>> {
    let n = hashes.len() / 32;
    if !hashes.len().is_multiple_of(32) || sigs.len() != 65 * n {
        return None;
    }
    let mut inputs = vec![([0u8; 32], [0u8; 65]); n];
    for ((slot, hash), sig) in inputs
        .iter_mut()
        .zip(hashes.chunks_exact(32))
        .zip(sigs.chunks_exact(65))
    {
        slot.0.copy_from_slice(hash);
        slot.1.copy_from_slice(sig);
    }
    Some(inputs)
}

/// The results of a batch in its flat form: 20 bytes per input into `addresses` (zeros
/// where recovery failed) and one byte per input into `valid` (1 recovered, 0 failed).
fn write_batch(
    results: &[Result<[u8; 20], asmcrypto::Error>],
    addresses: &mut [u8],
    valid: &mut [u8],
) {
    for ((result, address), flag) in results
        .iter()
        .zip(addresses.chunks_exact_mut(20))
        .zip(valid.iter_mut())
    {
        match result {
            Ok(a) => {
                address.copy_from_slice(a);
                *flag = 1;
            }
            Err(_) => {
                address.fill(0);
                *flag = 0;
            }
        }
    }
}
