//! The extension module `asmcrypto._asmcrypto`: asmcrypto's recovery, Keccak-256 and P-256
//! verification (EIP-7951's P256VERIFY) for Python, through PyO3. The package `asmcrypto`
//! (`python/asmcrypto/`) re-exports it and adds the numpy output of the batch calls and the
//! eth-keys backend.
//!
//! Inputs are any bytes-like object (`bytes` read in place, anything else through the buffer
//! protocol); the batch calls also take a list or tuple of them. Every recovery and
//! verification runs with the GIL released, on a copy of its input taken while the GIL is
//! held, so no other Python thread can change the bytes under it.

use core::fmt;
use core::ptr::NonNull;

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyTuple};

/// The Python exceptions: one base class, one subclass per variant of `asmcrypto::Error`
/// and of `asmcrypto::P256Error` (the two share `InvalidR` and `InvalidS`).
mod errors {
    use pyo3::create_exception;
    use pyo3::exceptions::PyValueError;

    create_exception!(
        asmcrypto,
        Error,
        PyValueError,
        "A signature that cannot be recovered or verified (the base class of asmcrypto's \
         errors).\n\n\
         A subclass of ValueError. Each subclass is one kind of asmcrypto::Error or \
         asmcrypto::P256Error."
    );
    create_exception!(
        asmcrypto,
        InvalidRecoveryId,
        Error,
        "The recovery id v is not 0, 1, 27 or 28. The byte given is the attribute `v`."
    );
    create_exception!(
        asmcrypto,
        InvalidR,
        Error,
        "The signature's r is zero or not below the group order n (secp256k1's in recovery, \
         P-256's in p256_verify)."
    );
    create_exception!(
        asmcrypto,
        InvalidS,
        Error,
        "The signature's s is zero or not below the group order n (secp256k1's in recovery, \
         P-256's in p256_verify)."
    );
    create_exception!(
        asmcrypto,
        NotOnCurve,
        Error,
        "The signature's r is not the x-coordinate of a point on secp256k1."
    );
    create_exception!(
        asmcrypto,
        PointAtInfinity,
        Error,
        "The recovered public key would be the point at infinity."
    );
    create_exception!(
        asmcrypto,
        KeyCoordinateOutOfRange,
        Error,
        "A coordinate of the P-256 public key is not below the field prime p."
    );
    create_exception!(
        asmcrypto,
        KeyNotOnCurve,
        Error,
        "The P-256 public key is not a point of the curve (this includes (0, 0))."
    );
    create_exception!(
        asmcrypto,
        Mismatch,
        Error,
        "The P-256 signature is well formed but does not verify: it does not match the hash \
         and the public key."
    );
}

/// One signed message: the 32-byte hash and the 65-byte signature r ‖ s ‖ v.
type Signed = ([u8; 32], [u8; 65]);

/// The Python exception for a recovery error: the subclass of its kind, with the crate's
/// message (and, for `InvalidRecoveryId`, the attribute `v`).
fn recovery_error(py: Python<'_>, err: asmcrypto::Error) -> PyErr {
    let message = err.to_string();
    match err {
        asmcrypto::Error::InvalidRecoveryId(v) => {
            let exc = errors::InvalidRecoveryId::new_err(message);
            match exc.value(py).setattr("v", v) {
                Ok(()) => exc,
                Err(failed) => failed,
            }
        }
        asmcrypto::Error::InvalidR => errors::InvalidR::new_err(message),
        asmcrypto::Error::InvalidS => errors::InvalidS::new_err(message),
        asmcrypto::Error::NotOnCurve => errors::NotOnCurve::new_err(message),
        asmcrypto::Error::PointAtInfinity => errors::PointAtInfinity::new_err(message),
        // `asmcrypto::Error` is non-exhaustive: a later kind is still an asmcrypto.Error.
        _ => errors::Error::new_err(message),
    }
}

/// The Python exception for a P-256 verification error: the subclass of its kind, with the
/// crate's message.
fn p256_error(err: asmcrypto::P256Error) -> PyErr {
    use asmcrypto::P256Error;
    let message = err.to_string();
    match err {
        P256Error::InvalidR => errors::InvalidR::new_err(message),
        P256Error::InvalidS => errors::InvalidS::new_err(message),
        P256Error::KeyCoordinateOutOfRange => errors::KeyCoordinateOutOfRange::new_err(message),
        P256Error::KeyNotOnCurve => errors::KeyNotOnCurve::new_err(message),
        P256Error::Mismatch => errors::Mismatch::new_err(message),
        // `asmcrypto::P256Error` is non-exhaustive: a later kind is still an asmcrypto.Error.
        _ => errors::Error::new_err(message),
    }
}

/// The name of an object's type, for error messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |name| name.to_string())
}

/// A buffer whose items are single unsigned bytes, laid out C-contiguously: only
/// [`byte_buffer`] makes one, after checking that.
struct ByteBuffer(PyUntypedBuffer);

impl ByteBuffer {
    /// The buffer's shape (one length per dimension).
    fn shape(&self) -> &[usize] {
        self.0.shape()
    }

    /// The buffer's bytes, read while the GIL is held (the `Python` token).
    ///
    /// The slice must not be held across a call into Python code, which could write to a
    /// mutable buffer under it (the view keeps the exporter from resizing or freeing it).
    fn bytes<'a>(&'a self, _py: Python<'_>) -> &'a [u8] {
        let len = self.0.len_bytes();
        if len == 0 {
            return &[];
        }
        let ptr = NonNull::new(self.0.buf_ptr().cast::<u8>()).unwrap_or(NonNull::dangling());
        // SAFETY: `byte_buffer` checked that the buffer is C-contiguous with one-byte items,
        // so its `len_bytes()` bytes start at `buf_ptr()` (non-null for a non-empty buffer)
        // and are initialised; the view (`self.0`) keeps the exporter from freeing or
        // resizing them while it is alive, which the returned borrow cannot outlive. The GIL
        // is held (the `Python` token), so no Python code writes to them meanwhile.
        unsafe { core::slice::from_raw_parts(ptr.as_ptr(), len) }
    }
}

/// The buffer of a bytes-like object whose items are single unsigned bytes, laid out
/// C-contiguously; `TypeError` (saying what was `expected`) for an object without a buffer
/// or with other items, `ValueError` for a non-contiguous one.
fn byte_buffer(
    obj: &Bound<'_, PyAny>,
    name: &dyn fmt::Display,
    expected: &str,
) -> PyResult<ByteBuffer> {
    let Ok(buf) = PyUntypedBuffer::get(obj) else {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected {expected}, got {}",
            type_name(obj)
        )));
    };
    let format = buf.format().to_bytes();
    let unsigned_bytes = matches!(
        format,
        b"B" | b"c" | b"@B" | b"=B" | b"<B" | b">B" | b"!B" | b"@c" | b"=c" | b"<c" | b">c"
    );
    if buf.item_size() != 1 || !unsigned_bytes {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected a buffer of unsigned bytes (uint8, format 'B'), got format '{}' \
             with {}-byte items",
            String::from_utf8_lossy(format),
            buf.item_size()
        )));
    }
    if !buf.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "{name}: the buffer is not C-contiguous (numpy.ascontiguousarray makes a contiguous copy)"
        )));
    }
    Ok(ByteBuffer(buf))
}

/// Calls `f` on the bytes of a bytes-like object: a `bytes` (or subclass) in place, anything
/// else through the buffer protocol.
fn with_bytes<R>(
    obj: &Bound<'_, PyAny>,
    name: &dyn fmt::Display,
    f: impl FnOnce(&[u8]) -> PyResult<R>,
) -> PyResult<R> {
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        return f(bytes.as_bytes());
    }
    let buf = byte_buffer(obj, name, "a bytes-like object")?;
    f(buf.bytes(obj.py()))
}

/// A bytes-like object of exactly `N` bytes, copied out; `ValueError` for another length.
fn fixed<const N: usize>(obj: &Bound<'_, PyAny>, name: &dyn fmt::Display) -> PyResult<[u8; N]> {
    with_bytes(obj, name, |bytes| {
        bytes.try_into().map_err(|_| {
            PyValueError::new_err(format!("{name}: expected {N} bytes, got {}", bytes.len()))
        })
    })
}

/// The name of item `i` of an argument, for error messages (`name[i]`): a `Display`, so that
/// nothing is formatted unless an error is raised.
struct Item<'a>(&'a str, usize);

impl fmt::Display for Item<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.0, self.1)
    }
}

/// One side of a batch call: items of a fixed size, either one buffer holding them back to
/// back or a list or tuple of bytes-like items.
enum Side<'py> {
    Flat(ByteBuffer),
    List(Bound<'py, PyList>),
    Tuple(Bound<'py, PyTuple>),
}

impl<'py> Side<'py> {
    /// Reads the shape of one side whose items are `item` bytes long and returns it with
    /// the number of items.
    fn new(obj: &Bound<'py, PyAny>, name: &str, item: usize) -> PyResult<(Self, usize)> {
        if let Ok(list) = obj.cast::<PyList>() {
            return Ok((Side::List(list.clone()), list.len()));
        }
        if let Ok(tuple) = obj.cast::<PyTuple>() {
            return Ok((Side::Tuple(tuple.clone()), tuple.len()));
        }
        let expected = format!("a bytes-like buffer of {item}-byte items or a list of bytes");
        let buf = byte_buffer(obj, &name, &expected)?;
        let count = match buf.shape() {
            [len] if len % item == 0 => len / item,
            [len] => {
                return Err(PyValueError::new_err(format!(
                    "{name}: a buffer of {len} bytes is not a whole number of {item}-byte items"
                )));
            }
            [rows, cols] if *cols == item => *rows,
            [rows, cols] => {
                return Err(PyValueError::new_err(format!(
                    "{name}: expected an array of shape (n, {item}), got ({rows}, {cols})"
                )));
            }
            shape => {
                return Err(PyValueError::new_err(format!(
                    "{name}: expected a one-dimensional buffer or an array of shape (n, {item}), \
                     got {} dimensions",
                    shape.len()
                )));
            }
        };
        Ok((Side::Flat(buf), count))
    }

    /// Copies the `out.len()` items into `field` of each element of `out`.
    fn copy_into<T, const N: usize>(
        &self,
        py: Python<'_>,
        name: &str,
        out: &mut [T],
        field: for<'a> fn(&'a mut T) -> &'a mut [u8; N],
    ) -> PyResult<()> {
        match self {
            Side::Flat(buf) => {
                let bytes = buf.bytes(py);
                for (slot, chunk) in out.iter_mut().zip(bytes.chunks_exact(N)) {
                    field(slot).copy_from_slice(chunk);
                }
            }
            // Indexed, not iterated: a list that a buffer exporter's Python code shortened
            // while this runs gives an IndexError, never a short read.
            Side::List(list) => {
                for (i, slot) in out.iter_mut().enumerate() {
                    *field(slot) = fixed::<N>(&list.get_item(i)?, &Item(name, i))?;
                }
            }
            Side::Tuple(tuple) => {
                for (i, slot) in out.iter_mut().enumerate() {
                    *field(slot) = fixed::<N>(&tuple.get_item(i)?, &Item(name, i))?;
                }
            }
        }
        Ok(())
    }
}

/// A recovery of the crate: the address (N = 20) or the public key (N = 64).
type Recover<const N: usize> = fn(&[u8; 32], &[u8; 65]) -> Result<[u8; N], asmcrypto::Error>;

/// One recovery by `recover` (the address or the public key) on Python's arguments: their
/// bytes checked and copied, the work done without the GIL, a failure raised as its
/// asmcrypto.Error subclass.
fn recover_one<'py, const N: usize>(
    py: Python<'py>,
    msg_hash: &Bound<'py, PyAny>,
    signature: &Bound<'py, PyAny>,
    recover: Recover<N>,
) -> PyResult<Bound<'py, PyBytes>> {
    let hash = fixed::<32>(msg_hash, &"msg_hash")?;
    let sig = fixed::<65>(signature, &"signature")?;
    let out = py
        .detach(|| recover(&hash, &sig))
        .map_err(|e| recovery_error(py, e))?;
    Ok(PyBytes::new(py, &out))
}

/// The 20-byte address that signed `msg_hash` (32 bytes) with `signature` (65 bytes:
/// r ‖ s ‖ v, v ∈ {0, 1, 27, 28}). Raises a subclass of asmcrypto.Error for a signature
/// that cannot be recovered, ValueError / TypeError for inputs of the wrong length / type.
#[pyfunction]
fn recover_address<'py>(
    py: Python<'py>,
    msg_hash: &Bound<'py, PyAny>,
    signature: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    recover_one(py, msg_hash, signature, asmcrypto::recover_address)
}

/// The signer's public key as 64 bytes X ‖ Y (uncompressed, without the 0x04 prefix),
/// for `msg_hash` (32 bytes) and `signature` (65 bytes: r ‖ s ‖ v, v ∈ {0, 1, 27, 28}).
/// Errors as recover_address.
#[pyfunction]
fn recover_public_key<'py>(
    py: Python<'py>,
    msg_hash: &Bound<'py, PyAny>,
    signature: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    recover_one(py, msg_hash, signature, asmcrypto::recover_public_key)
}

/// The EVM's ecrecover precompile (address 0x01) on `data`, byte for byte: 32 bytes
/// (12 zero bytes, then the address) or b"" for any failure, as the EVM returns. `data` is
/// hash ‖ v (a 32-byte word, 27 or 28) ‖ r ‖ s; shorter input is right-padded with zeros,
/// bytes past the 128th are ignored.
#[pyfunction]
fn ecrecover_precompile<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    // The precompile reads the first 128 bytes: copy those, then recover without the GIL.
    let mut input = [0u8; 128];
    let len = with_bytes(data, &"data", |bytes| {
        let len = bytes.len().min(input.len());
        input[..len].copy_from_slice(&bytes[..len]);
        Ok(len)
    })?;
    let output = py.detach(|| asmcrypto::ecrecover_precompile(&input[..len]));
    Ok(match output {
        Some(word) => PyBytes::new(py, &word),
        None => PyBytes::new(py, b""),
    })
}

/// The 32-byte Keccak-256 hash of `data` (any bytes-like object), as Ethereum uses it
/// (the original Keccak padding, not SHA3-256's).
#[pyfunction]
fn keccak256<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    // Long `bytes` are hashed without the GIL: they cannot change, and the argument keeps
    // them alive. Other buffers (bytearray, numpy) could be written by another thread, so
    // they are hashed with the GIL held.
    const RELEASE_FROM: usize = 64 * 1024;
    let digest = match data.cast::<PyBytes>() {
        Ok(bytes) if bytes.as_bytes().len() >= RELEASE_FROM => {
            let slice = bytes.as_bytes();
            py.detach(|| asmcrypto::keccak256(slice))
        }
        _ => with_bytes(data, &"data", |bytes| Ok(asmcrypto::keccak256(bytes)))?,
    };
    Ok(PyBytes::new(py, &digest))
}

/// The batch call behind asmcrypto.recover_addresses: (addresses, valid), 20 bytes per
/// input (zeros where it failed) and one byte per input (1 recovered, 0 failed), as
/// `bytes`, or as `bytearray` when `writable` (for numpy arrays that can be written).
#[pyfunction]
#[pyo3(signature = (msg_hashes, signatures, threads, writable, /))]
fn _recover_addresses<'py>(
    py: Python<'py>,
    msg_hashes: &Bound<'py, PyAny>,
    signatures: &Bound<'py, PyAny>,
    threads: i64,
    writable: bool,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let threads = thread_count(threads)?;
    let (hashes, n_hashes) = Side::new(msg_hashes, "msg_hashes", 32)?;
    let (sigs, n_sigs) = Side::new(signatures, "signatures", 65)?;
    if n_hashes != n_sigs {
        return Err(PyValueError::new_err(format!(
            "msg_hashes has {n_hashes} items and signatures {n_sigs}: one hash per signature"
        )));
    }
    // The one copy: every input into one vector, under the GIL.
    let mut inputs: Vec<Signed> = vec![([0; 32], [0; 65]); n_hashes];
    hashes.copy_into::<_, 32>(py, "msg_hashes", &mut inputs, |signed| &mut signed.0)?;
    sigs.copy_into::<_, 65>(py, "signatures", &mut inputs, |signed| &mut signed.1)?;
    drop((hashes, sigs));

    let results = py.detach(|| asmcrypto::recover_addresses_on_threads(&inputs, threads));

    let fill_addresses = |out: &mut [u8]| {
        for (slot, result) in out.chunks_exact_mut(20).zip(&results) {
            if let Ok(address) = result {
                slot.copy_from_slice(address);
            }
        }
        Ok(())
    };
    let fill_valid = |out: &mut [u8]| {
        for (slot, result) in out.iter_mut().zip(&results) {
            *slot = u8::from(result.is_ok());
        }
        Ok(())
    };
    let n = results.len();
    if writable {
        Ok((
            PyByteArray::new_with(py, 20 * n, fill_addresses)?.into_any(),
            PyByteArray::new_with(py, n, fill_valid)?.into_any(),
        ))
    } else {
        Ok((
            PyBytes::new_with(py, 20 * n, fill_addresses)?.into_any(),
            PyBytes::new_with(py, n, fill_valid)?.into_any(),
        ))
    }
}

/// The `threads` argument of a batch call as a count: 0 (one per CPU, as
/// `recover_addresses_on_threads` reads it) or positive; `ValueError` for a negative one.
fn thread_count(threads: i64) -> PyResult<usize> {
    match threads {
        0.. => Ok(usize::try_from(threads).unwrap_or(usize::MAX)),
        _ => Err(PyValueError::new_err(format!(
            "threads: expected 0 (one per CPU) or a positive number, got {threads}"
        ))),
    }
}

/// The length of a P256VERIFY input: hash ‖ r ‖ s ‖ qx ‖ qy.
const P256_INPUT: usize = asmcrypto::P256VERIFY_INPUT_LEN;

/// Verifies a P-256 (secp256r1) ECDSA signature by the rules of the EVM's P256VERIFY
/// (EIP-7951): `msg_hash` (32 bytes, taken as an integer as it stands), `signature`
/// (64 bytes: r ‖ s) and `public_key` (64 bytes: qx ‖ qy, the uncompressed key without its
/// 0x04 prefix), all big-endian. Returns True for a valid signature; otherwise raises the
/// subclass of asmcrypto.Error of the first check that failed (InvalidR, InvalidS,
/// KeyCoordinateOutOfRange, KeyNotOnCurve, Mismatch): it never returns False.
/// ValueError / TypeError for inputs of the wrong length / type.
#[pyfunction]
fn p256_verify<'py>(
    py: Python<'py>,
    msg_hash: &Bound<'py, PyAny>,
    signature: &Bound<'py, PyAny>,
    public_key: &Bound<'py, PyAny>,
) -> PyResult<bool> {
    let hash = fixed::<32>(msg_hash, &"msg_hash")?;
    let sig = fixed::<64>(signature, &"signature")?;
    let key = fixed::<64>(public_key, &"public_key")?;
    py.detach(|| asmcrypto::p256_verify(&hash, &sig, &key))
        .map_err(p256_error)?;
    Ok(true)
}

/// The EVM's P256VERIFY precompile (EIP-7951, address 0x100) on `data`, byte for byte:
/// 32 bytes (31 zero bytes, then 1) for a valid signature, or b"" for anything else, as the
/// EVM returns. `data` must be exactly 160 bytes, hash ‖ r ‖ s ‖ qx ‖ qy; any other length
/// gives b"".
#[pyfunction]
fn p256verify_precompile<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let input = with_bytes(data, &"data", |bytes| {
        Ok(<[u8; P256_INPUT]>::try_from(bytes).ok())
    })?;
    let output = input.and_then(|input| py.detach(|| asmcrypto::p256verify_precompile(&input)));
    Ok(match output {
        Some(word) => PyBytes::new(py, &word),
        None => PyBytes::new(py, b""),
    })
}

/// `asmcrypto::p256_verify_batch` spread over `threads` threads (0: one per CPU): the
/// calling thread and `threads − 1` started for the call (scoped), each taking one
/// contiguous run of at least `asmcrypto::MIN_THREAD_SHARE` inputs, as
/// `asmcrypto::recover_addresses_on_threads` splits a recovery batch. Where no thread can
/// be started, that share runs on the calling thread.
fn p256_verify_on_threads(inputs: &[[u8; P256_INPUT]], threads: usize) -> Vec<bool> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        k => k,
    };
    let threads = threads
        .min(inputs.len() / asmcrypto::MIN_THREAD_SHARE)
        .max(1);
    if threads == 1 {
        return asmcrypto::p256_verify_batch(inputs);
    }
    let chunk = inputs.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let mut chunks = inputs.chunks(chunk);
        let first = chunks.next().unwrap_or_default();
        let others: Vec<_> = chunks
            .map(|part| {
                let handle = std::thread::Builder::new()
                    .name("asmcrypto".into())
                    .spawn_scoped(scope, move || asmcrypto::p256_verify_batch(part));
                (part, handle)
            })
            .collect();
        let mut results = asmcrypto::p256_verify_batch(first);
        for (part, handle) in others {
            match handle {
                Ok(handle) => match handle.join() {
                    Ok(part_results) => results.extend(part_results),
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                // No thread to be had: this part runs here.
                Err(_) => results.extend(asmcrypto::p256_verify_batch(part)),
            }
        }
        results
    })
}

/// The batch call behind asmcrypto.p256_verify_batch: one byte per input (1 valid, 0 not),
/// as `bytes`, or as `bytearray` when `writable` (for numpy arrays that can be written).
#[pyfunction]
#[pyo3(signature = (inputs, threads, writable, /))]
fn _p256_verify_batch<'py>(
    py: Python<'py>,
    inputs: &Bound<'py, PyAny>,
    threads: i64,
    writable: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = thread_count(threads)?;
    let (side, n) = Side::new(inputs, "inputs", P256_INPUT)?;
    // The one copy: every input into one vector, under the GIL.
    let mut copied = vec![[0u8; P256_INPUT]; n];
    side.copy_into::<_, P256_INPUT>(py, "inputs", &mut copied, |input| input)?;
    drop(side);

    let results = py.detach(|| p256_verify_on_threads(&copied, threads));

    let fill = |out: &mut [u8]| {
        for (slot, valid) in out.iter_mut().zip(&results) {
            *slot = u8::from(*valid);
        }
        Ok(())
    };
    if writable {
        Ok(PyByteArray::new_with(py, results.len(), fill)?.into_any())
    } else {
        Ok(PyBytes::new_with(py, results.len(), fill)?.into_any())
    }
}

/// The batch path this CPU takes: "avx512-ifma", "avx512f" or "scalar"
/// (ASMCRYPTO_BACKEND=scalar in the environment before the first call selects "scalar",
/// ASMCRYPTO_BACKEND=avx512f the AVX-512 engine without IFMA where the CPU has AVX-512 F).
#[pyfunction]
fn backend() -> &'static str {
    asmcrypto::backend()
}

/// Every choice made from the CPU, as one line: the batch path, the field multiply, the
/// Keccak permutation and the batch Keccak.
#[pyfunction]
fn backend_details() -> String {
    asmcrypto::backend_details().to_string()
}

#[pymodule]
fn _asmcrypto(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add(
        "InvalidRecoveryId",
        py.get_type::<errors::InvalidRecoveryId>(),
    )?;
    m.add("InvalidR", py.get_type::<errors::InvalidR>())?;
    m.add("InvalidS", py.get_type::<errors::InvalidS>())?;
    m.add("NotOnCurve", py.get_type::<errors::NotOnCurve>())?;
    m.add("PointAtInfinity", py.get_type::<errors::PointAtInfinity>())?;
    m.add(
        "KeyCoordinateOutOfRange",
        py.get_type::<errors::KeyCoordinateOutOfRange>(),
    )?;
    m.add("KeyNotOnCurve", py.get_type::<errors::KeyNotOnCurve>())?;
    m.add("Mismatch", py.get_type::<errors::Mismatch>())?;
    m.add_function(wrap_pyfunction!(recover_address, m)?)?;
    m.add_function(wrap_pyfunction!(recover_public_key, m)?)?;
    m.add_function(wrap_pyfunction!(ecrecover_precompile, m)?)?;
    m.add_function(wrap_pyfunction!(keccak256, m)?)?;
    m.add_function(wrap_pyfunction!(_recover_addresses, m)?)?;
    m.add_function(wrap_pyfunction!(p256_verify, m)?)?;
    m.add_function(wrap_pyfunction!(p256verify_precompile, m)?)?;
    m.add_function(wrap_pyfunction!(_p256_verify_batch, m)?)?;
    m.add_function(wrap_pyfunction!(backend, m)?)?;
    m.add_function(wrap_pyfunction!(backend_details, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
