//! The WebAssembly module: `wasm/asmcrypto.wasm`, instantiated by `wasm/backend.mjs`.
//!
//! Its interface is a handful of plain functions over one buffer in its own linear memory,
//! the I/O buffer, and needs no generated glue: the JavaScript side asks for the buffer at
//! the size a call needs ([`io`] returns its address), writes the inputs there, calls the
//! function, and reads the outputs from the start of the same buffer. Each function copies
//! its inputs out of the buffer before it writes its outputs over them. Everything here is
//! safe Rust: the JavaScript side only ever writes into the buffer between calls, through the
//! address [`io`] returned.
//!
//! | function | inputs in the buffer | outputs at its start | returns |
//! | --- | --- | --- | --- |
//! | [`recover_address`] | hash (32) ‖ r ‖ s ‖ v (65) | address (20) | status |
//! | [`recover_public_key`] | hash ‖ signature | X ‖ Y (64) | status |
//! | [`ecrecover_precompile`] | `len` bytes | the output (32, or nothing) | its length |
//! | [`keccak_update`] | `len` bytes | — | `OK` |
//! | [`keccak_finish`] | — | the hash of all bytes given since the last (32) | `OK` |
//! | [`recover_addresses`] | n hashes (32n) ‖ n signatures (65n) | n addresses (20n) ‖ n flags (n) | status |
//! | [`backend`] | — | the name, UTF-8 | its length |

use std::cell::RefCell;

use crate::{BAD_ARGUMENT, OK, batch_inputs, write, write_batch};

thread_local! {
    /// The I/O buffer (wasm32-unknown-unknown has one thread).
    static IO: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The Keccak-256 hash that [`keccak_update`] feeds.
    static KECCAK: RefCell<asmcrypto::Keccak256> = const { RefCell::new(asmcrypto::Keccak256::new()) };
}

/// The I/O buffer made at least `len` bytes long; returns its address in linear memory.
/// Growing it may grow the memory, which detaches the JavaScript side's views of it.
#[unsafe(no_mangle)]
pub extern "C" fn io(len: usize) -> *mut u8 {
    IO.with_borrow_mut(|io| {
        if io.len() < len {
            io.resize(len, 0);
        }
        io.as_mut_ptr()
    })
}

/// Runs `f` on the I/O buffer, `None` if it is shorter than `len` (no [`io`] call made it
/// that long).
fn with_io<R>(len: usize, f: impl FnOnce(&mut [u8]) -> R) -> Option<R> {
    IO.with_borrow_mut(|io| io.get_mut(..len).map(f))
}

/// A single-signature recovery of the crate, giving `N` bytes.
type Recovery<const N: usize> = fn(&[u8; 32], &[u8; 65]) -> Result<[u8; N], asmcrypto::Error>;

/// One recovery on the hash and signature at the start of the I/O buffer, its result
/// written over them: the status.
fn recover_one<const N: usize>(recover: Recovery<N>) -> u32 {
    with_io(97, |io| {
        let (mut hash, mut sig) = ([0u8; 32], [0u8; 65]);
        hash.copy_from_slice(&io[..32]);
        sig.copy_from_slice(&io[32..97]);
        match io.first_chunk_mut::<N>() {
            Some(out) => write(recover(&hash, &sig), out),
            None => BAD_ARGUMENT,
        }
    })
    .unwrap_or(BAD_ARGUMENT)
}

/// The signer's address (see the module's table).
#[unsafe(no_mangle)]
pub extern "C" fn recover_address() -> u32 {
    recover_one(asmcrypto::recover_address)
}

/// The signer's public key X ‖ Y (see the module's table).
#[unsafe(no_mangle)]
pub extern "C" fn recover_public_key() -> u32 {
    recover_one(asmcrypto::recover_public_key)
}

/// The ecrecover precompile on the first `len` bytes of the buffer; returns the output's
/// length, 32 or 0 (the empty output).
#[unsafe(no_mangle)]
pub extern "C" fn ecrecover_precompile(len: usize) -> u32 {
    with_io(len.max(32), |io| {
        match asmcrypto::ecrecover_precompile(&io[..len]) {
            Some(word) => {
                io[..32].copy_from_slice(&word);
                32
            }
            None => 0,
        }
    })
    .unwrap_or(0)
}

/// Absorbs the first `len` bytes of the buffer into the Keccak-256 hash being computed (data
/// of any length goes through the buffer a piece at a time).
#[unsafe(no_mangle)]
pub extern "C" fn keccak_update(len: usize) -> u32 {
    with_io(len, |io| KECCAK.with_borrow_mut(|k| k.update(io))).map_or(BAD_ARGUMENT, |()| OK)
}

/// The hash of everything absorbed since the last call into the buffer (32 bytes), and a
/// fresh hash begun.
#[unsafe(no_mangle)]
pub extern "C" fn keccak_finish() -> u32 {
    let hash = KECCAK.with_borrow_mut(core::mem::take).finalize();
    io(32);
    with_io(32, |io| io.copy_from_slice(&hash)).map_or(BAD_ARGUMENT, |()| OK)
}

/// A batch of `n` signatures (see the module's table).
#[unsafe(no_mangle)]
pub extern "C" fn recover_addresses(n: usize) -> u32 {
    let Some(len) = n.checked_mul(97) else {
        return BAD_ARGUMENT;
    };
    with_io(len, |io| {
        let (hashes, sigs) = io.split_at(32 * n);
        let Some(inputs) = batch_inputs(hashes, sigs) else {
            return BAD_ARGUMENT;
        };
        let results = asmcrypto::recover_addresses(&inputs);
        let (addresses, rest) = io.split_at_mut(20 * n);
        write_batch(&results, addresses, &mut rest[..n]);
        OK
    })
    .unwrap_or(BAD_ARGUMENT)
}

/// The name of the batch path (`which` = 0) or the backend details (1) into the buffer;
/// returns its length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn backend(which: u32) -> usize {
    let text = match which {
        0 => asmcrypto::backend().to_owned(),
        _ => asmcrypto::backend_details().to_string(),
    };
    io(text.len());
    with_io(text.len(), |io| io.copy_from_slice(text.as_bytes()));
    text.len()
}
