//! The Node-API addon (napi-rs): `asmcrypto.node`, loaded by `lib/native.mjs`.
//!
//! Every function takes `Uint8Array`s (a `Buffer` is one) whose lengths the JavaScript layer
//! has checked and returns a new `Uint8Array` with the result, or, where there is none, a
//! status: a recovery error's number, or `BAD_ARGUMENT` for lengths the layer would never
//! pass. Nothing here throws for a signature; the layer turns statuses into errors.
//! The batch runs on the calling thread (and threads started for the call) or, in
//! [`recover_addresses_async`], on libuv's thread pool.

use napi::bindgen_prelude::{AsyncTask, Either, Uint8ArraySlice};
use napi::{Env, ScopedTask};
use napi_derive::napi;

use crate::{BAD_ARGUMENT, Signed, batch_inputs, status, write_batch};

/// A value, or the status that says why there is none.
type Outcome<'env> = napi::Result<Either<Bytes<'env>, u32>>;

/// A new `Uint8Array` holding a copy of the bytes. A copy into memory the JavaScript engine
/// allocates: an array over Rust's own memory (napi's external array buffers) costs more
/// to make than these few bytes cost to copy, and some runtimes refuse them.
type Bytes<'env> = Uint8ArraySlice<'env>;

/// A recovery's result as the addon returns it.
fn outcome<const N: usize>(env: &Env, result: Result<[u8; N], asmcrypto::Error>) -> Outcome<'_> {
    Ok(match result {
        Ok(value) => Either::A(Bytes::copy_from(env, value)?),
        Err(err) => Either::B(status(err)),
    })
}

/// The signer's address (20 bytes) for a 32-byte `hash` and a 65-byte signature r ‖ s ‖ v.
#[napi(ts_return_type = "Uint8Array | number")]
pub fn recover_address<'env>(env: &'env Env, hash: &[u8], sig: &[u8]) -> Outcome<'env> {
    let (Ok(hash), Ok(sig)) = (hash.try_into(), sig.try_into()) else {
        return Ok(Either::B(BAD_ARGUMENT));
    };
    outcome(env, asmcrypto::recover_address(hash, sig))
}

/// The signer's public key X ‖ Y (64 bytes), as [`recover_address`].
#[napi(ts_return_type = "Uint8Array | number")]
pub fn recover_public_key<'env>(env: &'env Env, hash: &[u8], sig: &[u8]) -> Outcome<'env> {
    let (Ok(hash), Ok(sig)) = (hash.try_into(), sig.try_into()) else {
        return Ok(Either::B(BAD_ARGUMENT));
    };
    outcome(env, asmcrypto::recover_public_key(hash, sig))
}

/// The ecrecover precompile's output for `input` (any length): 32 bytes, or none (the empty
/// output).
#[napi]
pub fn ecrecover_precompile<'env>(env: &'env Env, input: &[u8]) -> napi::Result<Bytes<'env>> {
    let output = asmcrypto::ecrecover_precompile(input);
    Bytes::copy_from(env, output.as_ref().map_or(&[][..], |word| &word[..]))
}

/// Keccak-256 of `data` (32 bytes).
#[napi]
pub fn keccak256<'env>(env: &'env Env, data: &[u8]) -> napi::Result<Bytes<'env>> {
    Bytes::copy_from(env, asmcrypto::keccak256(data))
}

/// A batch's results: n addresses (20 bytes each, zeros where recovery failed) and n flags
/// (1 recovered, 0 failed).
#[napi(object)]
pub struct BatchResult<'env> {
    /// 20 bytes per signature.
    pub addresses: Bytes<'env>,
    /// One byte per signature.
    pub valid: Bytes<'env>,
}

/// The batch's results in the addon's form.
fn batch_result<'env>(
    env: &'env Env,
    results: &[Result<[u8; 20], asmcrypto::Error>],
) -> napi::Result<BatchResult<'env>> {
    let n = results.len();
    let mut addresses = vec![0u8; 20 * n];
    let mut valid = vec![0u8; n];
    write_batch(results, &mut addresses, &mut valid);
    Ok(BatchResult {
        addresses: Bytes::copy_from(env, addresses)?,
        valid: Bytes::copy_from(env, valid)?,
    })
}

/// A batch in the flat form: n hashes (32 bytes each) and n signatures (65 bytes each) back
/// to back. On `threads` threads (0: one per CPU), the calling one among them, as
/// [`asmcrypto::recover_addresses_on_threads`]. A status for lengths that do not describe n
/// whole items.
#[napi(ts_return_type = "BatchResult | number")]
pub fn recover_addresses<'env>(
    env: &'env Env,
    hashes: &[u8],
    sigs: &[u8],
    threads: u32,
) -> napi::Result<Either<BatchResult<'env>, u32>> {
    let Some(inputs) = batch_inputs(hashes, sigs) else {
        return Ok(Either::B(BAD_ARGUMENT));
    };
    let threads = usize::try_from(threads).unwrap_or(usize::MAX);
    let results = asmcrypto::recover_addresses_on_threads(&inputs, threads);
    Ok(Either::A(batch_result(env, &results)?))
}

/// A batch on one thread of libuv's pool: the inputs copied when the call is made, so that
/// the caller may reuse its arrays at once.
pub struct Batch(Vec<Signed>);

impl<'task> ScopedTask<'task> for Batch {
    type Output = Vec<Result<[u8; 20], asmcrypto::Error>>;
    type JsValue = BatchResult<'task>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(asmcrypto::recover_addresses(&self.0))
    }

    fn resolve(&mut self, env: &'task Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        batch_result(env, &output)
    }
}

/// [`recover_addresses`] on one thread of libuv's pool: a `Promise` of the results. Lengths
/// that do not describe n whole items reject.
#[napi(ts_return_type = "Promise<BatchResult>")]
pub fn recover_addresses_async(hashes: &[u8], sigs: &[u8]) -> napi::Result<AsyncTask<Batch>> {
    match batch_inputs(hashes, sigs) {
        Some(inputs) => Ok(AsyncTask::new(Batch(inputs))),
        None => Err(napi::Error::new(
            napi::Status::InvalidArg,
            "hashes and signatures do not hold the same number of whole items",
        )),
    }
}

/// For `bench/bench.mjs`: the seconds [`asmcrypto::recover_addresses`] alone takes on a batch
/// in the flat form (parsed into the crate's input type first, outside the timing), so that
/// the benchmark can say what the binding adds to the Rust batch. A negative value for
/// lengths that do not describe n whole items.
#[napi]
pub fn rust_batch_seconds(hashes: &[u8], sigs: &[u8]) -> f64 {
    let Some(inputs) = batch_inputs(hashes, sigs) else {
        return -1.0;
    };
    let start = std::time::Instant::now();
    std::hint::black_box(asmcrypto::recover_addresses(std::hint::black_box(&inputs)));
    start.elapsed().as_secs_f64()
}

/// The batch path this CPU takes: "avx512-ifma", "avx512f" or "scalar".
#[napi]
pub fn backend() -> &'static str {
    asmcrypto::backend()
}

/// Every choice made from the CPU, as one line.
#[napi]
pub fn backend_details() -> String {
    asmcrypto::backend_details().to_string()
}
