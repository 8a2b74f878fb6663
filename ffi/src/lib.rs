//! The C ABI of asmcrypto: the functions declared in `ffi/include/asmcrypto.h`, built as
//! `libasmcrypto_ffi.a` and `libasmcrypto_ffi.so`.
//!
//! Every function checks its pointers for NULL and its lengths for overflow before it
//! touches memory, copies its inputs out of the caller's buffers before it computes, and
//! writes its outputs last (so that a single-signature call may use one buffer for input
//! and output). The computation runs inside `catch_unwind`: no panic unwinds into the
//! caller. asmcrypto has no panicking path on any input; the guard is there for a bug
//! nobody has found yet, and turns it into the function's failure value.

use core::ffi::{c_char, c_int};
use core::ptr;
use std::ffi::{CStr, CString};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

/// Signatures handed to `asmcrypto::recover_addresses` (`asmcrypto::p256_verify_batch`)
/// at a time by [`asmcrypto_recover_addresses`] ([`asmcrypto_p256_verify_batch`]): bounds
/// the memory the call allocates (about 2.4 MB, 2.7 MB) whatever `n`, and is long enough
/// for the `parallel` feature to give every core of a big machine several tasks.
const BATCH_CHUNK: usize = 16384;

/// A batch call over `n` inputs in chunks of at most [`BATCH_CHUNK`] (so that the copies
/// of the inputs stay bounded): `read(i)` copies input i in, `batch` computes a chunk's
/// results, `put(i, result)` writes entry i out and says whether it counts as a success.
/// Returns the number of successes.
fn chunked<I, R>(
    n: usize,
    read: impl Fn(usize) -> I,
    batch: impl Fn(&[I]) -> Vec<R>,
    mut put: impl FnMut(usize, R) -> bool,
) -> usize {
    let mut successes = 0usize;
    let mut start = 0usize;
    let mut chunk = Vec::with_capacity(n.min(BATCH_CHUNK));
    while start < n {
        let len = (n - start).min(BATCH_CHUNK);
        chunk.clear();
        chunk.extend((start..start + len).map(&read));
        for (i, r) in (start..start + len).zip(batch(&chunk)) {
            successes += usize::from(put(i, r));
        }
        start += len;
    }
    successes
}

/// Runs `f`, and returns `on_panic` if it panics instead of letting the panic unwind.
///
/// The panic payload is leaked, not dropped: dropping it runs arbitrary `Drop` code, which
/// could panic again outside the guard.
fn guarded<T>(on_panic: T, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(payload) => {
            core::mem::forget(payload);
            on_panic
        }
    }
}

/// True if `count` items of `size` bytes can be one buffer: the total neither overflows
/// `size_t` nor exceeds `isize::MAX` (the largest object Rust, and in practice C, allows).
fn fits(count: usize, size: usize) -> bool {
    count
        .checked_mul(size)
        .is_some_and(|bytes| bytes <= isize::MAX as usize)
}

/// Copies `N` bytes from `p`.
///
/// # Safety
/// `p` must be valid for reads of `N` bytes (any alignment).
#[inline]
unsafe fn read<const N: usize>(p: *const u8) -> [u8; N] {
    // SAFETY: the caller guarantees N readable bytes at p; `[u8; N]` has alignment 1 and
    // read_unaligned needs none.
    unsafe { p.cast::<[u8; N]>().read_unaligned() }
}

/// Copies `bytes` to `p`.
///
/// # Safety
/// `p` must be valid for writes of `bytes.len()` bytes.
#[inline]
unsafe fn write(p: *mut u8, bytes: &[u8]) {
    // SAFETY: the caller guarantees the destination; `bytes` is Rust-owned memory
    // (a local or a Vec of this crate), so it cannot overlap the caller's buffer.
    unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len()) }
}

/// Writes `f()`'s value to `out` and returns true, or zero-fills `out` and returns false
/// (also when `f` panics); with a NULL `out`, runs nothing and returns false. `f` reads the
/// inputs, so they are all read before `out` is written.
///
/// # Safety
/// `out` is NULL or valid for writes of `N` bytes.
unsafe fn single<const N: usize>(out: *mut u8, f: impl FnOnce() -> Option<[u8; N]>) -> bool {
    if out.is_null() {
        return false;
    }
    let v = guarded(None, f);
    // SAFETY: non-NULL, so by the contract N writable bytes.
    unsafe { write(out, v.as_ref().unwrap_or(&[0; N])) };
    v.is_some()
}

/// The `len` bytes at `p` (NULL with `len` = 0 is the empty input), or None for NULL with
/// `len` > 0 or a `len` above `isize::MAX`.
///
/// # Safety
/// `p` is NULL or valid for reads of `len` bytes that nothing writes while the slice lives.
unsafe fn bytes_in<'a>(p: *const u8, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if p.is_null() || !fits(len, 1) {
        return None;
    }
    // SAFETY: non-NULL, len ≤ isize::MAX readable bytes by the contract.
    Some(unsafe { core::slice::from_raw_parts(p, len) })
}

/// geth's `secp256k1_ext_ecdsa_recover`: `sig` = r ‖ s ‖ recid (65 bytes, recid 0..=3),
/// `msg` 32 bytes; writes 0x04 ‖ X ‖ Y (65 bytes) to `pubkey_out` and returns 1, or
/// returns 0 (and zero-fills `pubkey_out` if it is not NULL).
///
/// # Safety
/// Each pointer is NULL or valid for its size (`pubkey_out`: 65 writable bytes, `sig`:
/// 65 readable, `msg`: 32 readable). The buffers may overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn asmcrypto_ecdsa_recover(
    pubkey_out: *mut u8,
    sig: *const u8,
    msg: *const u8,
) -> c_int {
    let recover = || {
        if sig.is_null() || msg.is_null() {
            return None;
        }
        // SAFETY: non-NULL, so by the contract 65 and 32 readable bytes.
        let (rs, recid, msg) = unsafe { (read::<64>(sig), *sig.add(64), read::<32>(msg)) };
        let key = asmcrypto::ecrecover_public_key(&rs, recid, &msg).ok()?;
        let mut out = [0x04; 65];
        out[1..].copy_from_slice(&key);
        Some(out)
    };
    // SAFETY: 65 writable bytes at pubkey_out, by the contract.
    c_int::from(unsafe { single(pubkey_out, recover) })
}

/// keccak256(X ‖ Y)[12..] of the key that signed `msg` with `sig` = r ‖ s ‖ v, v in
/// {0, 1, 27, 28}: writes 20 bytes to `addr_out` and returns 1, or returns 0 (and
/// zero-fills `addr_out` if it is not NULL).
///
/// # Safety
/// Each pointer is NULL or valid for its size (`addr_out`: 20 writable bytes, `msg`: 32
/// readable, `sig`: 65 readable). The buffers may overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn asmcrypto_recover_address(
    addr_out: *mut u8,
    msg: *const u8,
    sig: *const u8,
) -> c_int {
    let recover = || {
        if msg.is_null() || sig.is_null() {
            return None;
        }
        // SAFETY: non-NULL, so by the contract 32 and 65 readable bytes.
        let (msg, sig) = unsafe { (read::<32>(msg), read::<65>(sig)) };
        asmcrypto::recover_address(&msg, &sig).ok()
    };
    // SAFETY: 20 writable bytes at addr_out, by the contract.
    c_int::from(unsafe { single(addr_out, recover) })
}

/// `n` signatures at once: entry i is `asmcrypto_recover_address(addrs_out + 20i,
/// msgs + 32i, sigs + 65i)`, with its return value in `ok_out[i]`. Returns the number of
/// 1s written to `ok_out`. With `n` = 0, or a NULL buffer, or `n` so large that `65·n`
/// bytes cannot exist, returns 0 and writes nothing.
///
/// # Safety
/// If `n` > 0 and no pointer is NULL: `msgs` valid for reads of `32·n` bytes, `sigs` of
/// `65·n`, `addrs_out` valid for writes of `20·n` bytes and `ok_out` of `n`; the two output
/// buffers overlap neither each other nor the inputs.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn asmcrypto_recover_addresses(
    n: usize,
    msgs: *const u8,
    sigs: *const u8,
    addrs_out: *mut u8,
    ok_out: *mut u8,
) -> usize {
    if n == 0
        || msgs.is_null()
        || sigs.is_null()
        || addrs_out.is_null()
        || ok_out.is_null()
        || !fits(n, 65)
    {
        return 0;
    }
    let run = || {
        chunked(
            n,
            // SAFETY: i < n, so bytes 32i..32i+32 of msgs and 65i..65i+65 of sigs lie inside
            // the 32n- and 65n-byte input buffers (65n fits in isize).
            |i| unsafe { (read::<32>(msgs.add(32 * i)), read::<65>(sigs.add(65 * i))) },
            asmcrypto::recover_addresses,
            |i, r| {
                let (addr, ok) = match r {
                    Ok(addr) => (addr, 1u8),
                    Err(_) => ([0u8; 20], 0u8),
                };
                // SAFETY: i < n, so bytes 20i..20i+20 of addrs_out and byte i of ok_out lie
                // inside the 20n- and n-byte output buffers.
                unsafe {
                    write(addrs_out.add(20 * i), &addr);
                    write(ok_out.add(i), &[ok]);
                }
                ok == 1
            },
        )
    };
    guarded(None, || Some(run())).unwrap_or_else(|| {
        // No result of this call can be trusted: report every entry as failed.
        // SAFETY: n > 0, no NULL pointer, so by the contract 20n and n writable bytes.
        unsafe {
            ptr::write_bytes(addrs_out, 0, 20 * n);
            ptr::write_bytes(ok_out, 0, n);
        }
        0
    })
}

/// The EVM precompile 0x01 on `len` bytes of call data: returns 32 and writes the output
/// word (12 zero bytes, then the address) to `out`, or returns 0 for the empty output (and
/// zero-fills `out` if it is not NULL). A NULL `input` with `len` = 0 is the empty input.
///
/// # Safety
/// `out` is NULL or valid for writes of 32 bytes; `input` is valid for reads of `len` bytes
/// (only the first 128 are read) unless `len` is 0. The buffers may overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn asmcrypto_ecrecover_precompile(
    input: *const u8,
    len: usize,
    out: *mut u8,
) -> usize {
    // SAFETY: out and input as the contract says; the precompile reads at most 128 bytes.
    let ok = unsafe {
        single(out, || {
            let data = bytes_in(input, len)?;
            asmcrypto::ecrecover_precompile(&data[..data.len().min(128)])
        })
    };
    if ok { 32 } else { 0 }
}

/// `asmcrypto_p256_verify`'s reason for a valid signature (`asmcrypto.h`:
/// `ASMCRYPTO_P256_OK`).
const P256_OK: c_int = 0;
/// r is zero or not below n (`ASMCRYPTO_P256_INVALID_R`).
const P256_INVALID_R: c_int = 1;
/// s is zero or not below n (`ASMCRYPTO_P256_INVALID_S`).
const P256_INVALID_S: c_int = 2;
/// qx or qy is not below p (`ASMCRYPTO_P256_KEY_COORDINATE_OUT_OF_RANGE`).
const P256_KEY_COORDINATE_OUT_OF_RANGE: c_int = 3;
/// The key is not a point of P-256 (`ASMCRYPTO_P256_KEY_NOT_ON_CURVE`).
const P256_KEY_NOT_ON_CURVE: c_int = 4;
/// The signature does not verify (`ASMCRYPTO_P256_MISMATCH`).
const P256_MISMATCH: c_int = 5;
/// No verdict (`ASMCRYPTO_P256_FAILED`): a NULL input pointer, or an internal error (a
/// panic caught, a kind of `asmcrypto::P256Error` this version does not name).
const P256_FAILED: c_int = -1;

/// The reason code of a result of `asmcrypto::p256_verify`.
fn p256_reason(result: Result<(), asmcrypto::P256Error>) -> c_int {
    use asmcrypto::P256Error;
    match result {
        Ok(()) => P256_OK,
        Err(P256Error::InvalidR) => P256_INVALID_R,
        Err(P256Error::InvalidS) => P256_INVALID_S,
        Err(P256Error::KeyCoordinateOutOfRange) => P256_KEY_COORDINATE_OUT_OF_RANGE,
        Err(P256Error::KeyNotOnCurve) => P256_KEY_NOT_ON_CURVE,
        Err(P256Error::Mismatch) => P256_MISMATCH,
        // `P256Error` is non-exhaustive: a later kind is a failure without a name here.
        Err(_) => P256_FAILED,
    }
}

/// P-256 (secp256r1) ECDSA verification by EIP-7951's rules (`asmcrypto::p256_verify`):
/// `hash` 32 bytes, `sig` = r ‖ s (64), `key` = qx ‖ qy (64), all big-endian. Returns 1
/// if the signature is valid, 0 otherwise; writes the reason (`P256_OK` or the failed
/// check's code, `P256_FAILED` for a NULL input) to `reason_out` unless it is NULL.
///
/// # Safety
/// Each pointer is NULL or valid for its size (`hash`: 32 readable bytes, `sig` and `key`:
/// 64 readable, `reason_out`: one writable `int`). The input buffers may overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn asmcrypto_p256_verify(
    hash: *const u8,
    sig: *const u8,
    key: *const u8,
    reason_out: *mut c_int,
) -> c_int {
    let reason = if hash.is_null() || sig.is_null() || key.is_null() {
        P256_FAILED
    } else {
        // SAFETY: non-NULL, so by the contract 32, 64 and 64 readable bytes.
        let (hash, sig, key) = unsafe { (read::<32>(hash), read::<64>(sig), read::<64>(key)) };
        guarded(P256_FAILED, || {
            p256_reason(asmcrypto::p256_verify(&hash, &sig, &key))
        })
    };
    if !reason_out.is_null() {
        // SAFETY: non-NULL, so by the contract one writable int (written unaligned: no
        // alignment is assumed).
        unsafe { reason_out.write_unaligned(reason) };
    }
    c_int::from(reason == P256_OK)
}

/// The EVM precompile P256VERIFY (EIP-7951, address 0x100) on `len` bytes of call data:
/// returns 32 and writes the output word (31 zero bytes, then 1) to `out` for a valid
/// signature, or returns 0 for the empty output (and zero-fills `out` if it is not NULL).
/// Only `len` = 160 can succeed; other lengths read nothing.
///
/// # Safety
/// `out` is NULL or valid for writes of 32 bytes; `input` is valid for reads of `len` bytes
/// unless `len` is not 160 or `input` is NULL. The buffers may overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn asmcrypto_p256verify_precompile(
    input: *const u8,
    len: usize,
    out: *mut u8,
) -> usize {
    // SAFETY: out as the contract says; input is read only when it is non-NULL and `len`
    // is 160, and then holds 160 readable bytes by the contract.
    let ok = unsafe {
        single(out, || {
            if len != asmcrypto::P256VERIFY_INPUT_LEN || input.is_null() {
                return None;
            }
            let data = read::<{ asmcrypto::P256VERIFY_INPUT_LEN }>(input);
            asmcrypto::p256verify_precompile(&data)
        })
    };
    if ok { 32 } else { 0 }
}

/// `n` P256VERIFY inputs at once: entry i is 1 in `ok_out[i]` exactly when
/// `asmcrypto_p256verify_precompile(inputs + 160i, 160, …)` returns 32, else 0. Returns
/// the number of 1s written. With `n` = 0, or a NULL buffer, or `n` so large that `160·n`
/// bytes cannot exist, returns 0 and writes nothing.
///
/// # Safety
/// If `n` > 0 and no pointer is NULL: `inputs` valid for reads of `160·n` bytes, `ok_out`
/// valid for writes of `n` bytes, not overlapping `inputs`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn asmcrypto_p256_verify_batch(
    n: usize,
    inputs: *const u8,
    ok_out: *mut u8,
) -> usize {
    const LEN: usize = asmcrypto::P256VERIFY_INPUT_LEN;
    if n == 0 || inputs.is_null() || ok_out.is_null() || !fits(n, LEN) {
        return 0;
    }
    let run = || {
        chunked(
            n,
            // SAFETY: i < n, so bytes 160i..160i+160 lie inside the 160n-byte input buffer
            // (160n fits in isize).
            |i| unsafe { read::<LEN>(inputs.add(LEN * i)) },
            asmcrypto::p256_verify_batch,
            |i, ok| {
                // SAFETY: i < n, so byte i lies inside the n-byte output buffer.
                unsafe { write(ok_out.add(i), &[u8::from(ok)]) };
                ok
            },
        )
    };
    guarded(None, || Some(run())).unwrap_or_else(|| {
        // No result of this call can be trusted: report every entry as failed.
        // SAFETY: n > 0, no NULL pointer, so by the contract n writable bytes.
        unsafe { ptr::write_bytes(ok_out, 0, n) };
        0
    })
}

/// keccak256 of the `len` bytes at `data`, written to `out` (32 bytes). With a NULL `out`
/// it does nothing; a NULL `data` with `len` = 0 is the empty input; a NULL `data` with
/// `len` > 0, or a `len` above `PTRDIFF_MAX`, zero-fills `out`.
///
/// # Safety
/// `out` is NULL or valid for writes of 32 bytes; `data` is valid for reads of `len` bytes
/// unless it is NULL. The buffers may overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn asmcrypto_keccak256(data: *const u8, len: usize, out: *mut u8) {
    // SAFETY: out and data as the contract says.
    unsafe { single(out, || bytes_in(data, len).map(asmcrypto::keccak256)) };
}

/// The batch path this CPU takes, as a static NUL-terminated string: `"avx512-ifma"`,
/// `"avx512f"` or `"scalar"` (`asmcrypto::backend()`).
#[unsafe(no_mangle)]
pub extern "C" fn asmcrypto_backend() -> *const c_char {
    static NAME: OnceLock<CString> = OnceLock::new();
    let name: Option<&'static CStr> = guarded(None, || {
        Some(
            NAME.get_or_init(|| CString::new(asmcrypto::backend()).unwrap_or_default())
                .as_c_str(),
        )
    });
    name.unwrap_or(c"unknown").as_ptr()
}

#[cfg(test)]
mod tests {
    //! What C cannot check from outside: the panic guard, and that calls with impossible
    //! sizes return before touching memory; and the P-256 entry points on the published
    //! vectors, their reason codes against the crate's `P256Error`. The C ABI itself is
    //! tested from C (`tests/c_abi.rs`).

    use super::*;

    #[test]
    fn guard_turns_a_panic_into_the_failure_value() {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let caught = guarded(7u32, || panic!("a bug"));
        let caught_payload = guarded(7u32, || std::panic::panic_any(String::from("boxed")));
        std::panic::set_hook(prev);
        assert_eq!(caught, 7);
        assert_eq!(caught_payload, 7);
        assert_eq!(guarded(7u32, || 3), 3);
    }

    #[test]
    fn sizes_that_cannot_exist_return_before_any_access() {
        assert!(fits(0, 65));
        assert!(fits(isize::MAX as usize / 65, 65));
        assert!(!fits(isize::MAX as usize / 65 + 1, 65));
        assert!(!fits(usize::MAX, 1));
        // Dangling but non-NULL pointers: any access would fault.
        let bad = ptr::dangling::<u8>();
        let bad_mut = ptr::dangling_mut::<u8>();
        for n in [
            isize::MAX as usize / 65 + 1,
            usize::MAX / 65 + 1,
            usize::MAX,
        ] {
            // SAFETY: the call must return 0 before reading or writing, as `n` is too large
            // for any buffer; that is what this test checks.
            assert_eq!(
                unsafe { asmcrypto_recover_addresses(n, bad, bad, bad_mut, bad_mut) },
                0
            );
        }
        // SAFETY: n = 0 reads and writes nothing.
        assert_eq!(
            unsafe { asmcrypto_recover_addresses(0, bad, bad, bad_mut, bad_mut) },
            0
        );
        let mut out = [0xAAu8; 32];
        // SAFETY: len above isize::MAX must be refused before the input is read; out is
        // a valid 32-byte buffer.
        assert_eq!(
            unsafe { asmcrypto_ecrecover_precompile(bad, usize::MAX, out.as_mut_ptr()) },
            0
        );
        assert_eq!(out, [0u8; 32]);
        let mut out = [0xAAu8; 32];
        // SAFETY: as above, for the hash.
        unsafe { asmcrypto_keccak256(bad, isize::MAX as usize + 1, out.as_mut_ptr()) };
        assert_eq!(out, [0u8; 32]);
    }

    #[test]
    fn p256_sizes_that_cannot_exist_return_before_any_access() {
        assert!(!fits(isize::MAX as usize / 160 + 1, 160));
        let bad = ptr::dangling::<u8>();
        let bad_mut = ptr::dangling_mut::<u8>();
        for n in [
            isize::MAX as usize / 160 + 1,
            usize::MAX / 160 + 1,
            usize::MAX,
        ] {
            // SAFETY: the call must return 0 before reading or writing, as `n` is too large
            // for any buffer; that is what this test checks.
            assert_eq!(unsafe { asmcrypto_p256_verify_batch(n, bad, bad_mut) }, 0);
        }
        // SAFETY: n = 0 reads and writes nothing.
        assert_eq!(unsafe { asmcrypto_p256_verify_batch(0, bad, bad_mut) }, 0);
        for len in [0, 1, 159, 161, isize::MAX as usize + 1, usize::MAX] {
            let mut out = [0xAAu8; 32];
            // SAFETY: only a 160-byte input is read: this dangling one must not be.
            assert_eq!(
                unsafe { asmcrypto_p256verify_precompile(bad, len, out.as_mut_ptr()) },
                0
            );
            assert_eq!(out, [0u8; 32]);
        }
    }

    /// The published vectors (`tests/data`), one JSON object a line: (input, expected).
    fn p256_vectors() -> Vec<(Vec<u8>, bool)> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/");
        let hex = |s: &str| -> Vec<u8> {
            (0..s.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
                .collect()
        };
        let mut out = Vec::new();
        for (file, field, min) in [
            ("precompile_p256verify.jsonl", "expected", 200),
            ("wycheproof_p256_sha256.jsonl", "expected_precompile", 400),
        ] {
            let text = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
            let before = out.len();
            for line in text.lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                let input = hex(v["input"].as_str().unwrap());
                let expected = hex(v[field].as_str().unwrap());
                assert!(expected.is_empty() || expected == asmcrypto::P256VERIFY_SUCCESS);
                out.push((input, !expected.is_empty()));
            }
            assert!(
                out.len() - before >= min,
                "{file}: {} vectors",
                out.len() - before
            );
        }
        out
    }

    #[test]
    fn p256_vectors_through_the_c_entry_points() {
        let vectors = p256_vectors();
        let mut flat = Vec::new();
        for (i, (input, valid)) in vectors.iter().enumerate() {
            assert_eq!(input.len(), 160);
            let mut out = [0xAAu8; 32];
            // SAFETY: 160 readable bytes, 32 writable.
            let r = unsafe {
                asmcrypto_p256verify_precompile(input.as_ptr(), input.len(), out.as_mut_ptr())
            };
            let want = if *valid {
                asmcrypto::P256VERIFY_SUCCESS
            } else {
                [0; 32]
            };
            assert_eq!((r, out), (if *valid { 32 } else { 0 }, want), "vector {i}");
            let mut reason: c_int = 99;
            // SAFETY: 32, 64 and 64 readable bytes inside the input; one writable int.
            let ok = unsafe {
                asmcrypto_p256_verify(
                    input.as_ptr(),
                    input[32..].as_ptr(),
                    input[96..].as_ptr(),
                    &mut reason,
                )
            };
            assert_eq!(ok, c_int::from(*valid), "vector {i}");
            let (hash, rest) = input.split_at(32);
            let (sig, key) = rest.split_at(64);
            let typed = asmcrypto::p256_verify(
                hash.try_into().unwrap(),
                sig.try_into().unwrap(),
                key.try_into().unwrap(),
            );
            assert_eq!(reason, p256_reason(typed), "vector {i}");
            assert_eq!(reason == P256_OK, *valid, "vector {i}");
            flat.extend_from_slice(input);
        }
        // The batch, at lengths around the chunk of the crate's batch, with one byte past
        // the end that must stay untouched.
        for n in [1, 2, 255, 256, 257, vectors.len()] {
            let n = n.min(vectors.len());
            let mut ok = vec![0xAAu8; n + 1];
            // SAFETY: 160n readable bytes, n + 1 writable.
            let count = unsafe { asmcrypto_p256_verify_batch(n, flat.as_ptr(), ok.as_mut_ptr()) };
            let want: Vec<u8> = vectors[..n].iter().map(|(_, v)| u8::from(*v)).collect();
            assert_eq!(&ok[..n], &want[..], "batch of {n}");
            assert_eq!(ok[n], 0xAA, "batch of {n} wrote past its end");
            assert_eq!(count, want.iter().filter(|&&b| b == 1).count());
        }
    }

    #[test]
    fn p256_hostile_inputs() {
        let (input, valid) = p256_vectors()
            .into_iter()
            .find(|(_, valid)| *valid)
            .unwrap();
        assert!(valid);
        let (hash, sig, key) = (input.as_ptr(), input[32..].as_ptr(), input[96..].as_ptr());
        let null = ptr::null::<u8>();
        // NULL inputs: 0 and P256_FAILED, with or without a reason to write.
        for (h, s, k) in [(null, sig, key), (hash, null, key), (hash, sig, null)] {
            let mut reason: c_int = 99;
            // SAFETY: each pointer NULL or valid for its size.
            assert_eq!(unsafe { asmcrypto_p256_verify(h, s, k, &mut reason) }, 0);
            assert_eq!(reason, P256_FAILED);
            // SAFETY: as above; a NULL reason_out is allowed.
            assert_eq!(
                unsafe { asmcrypto_p256_verify(h, s, k, ptr::null_mut()) },
                0
            );
        }
        // SAFETY: valid buffers; a NULL reason_out is allowed.
        assert_eq!(
            unsafe { asmcrypto_p256_verify(hash, sig, key, ptr::null_mut()) },
            1
        );
        // Each check, in EIP-7951's order.
        let n: [u8; 32] = *b"\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff\
              \xbc\xe6\xfa\xad\xa7\x17\x9e\x84\xf3\xb9\xca\xc2\xfc\x63\x25\x51";
        let p: [u8; 32] = *b"\xff\xff\xff\xff\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\
              \x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff";
        let spoiled = |at: usize, bytes: &[u8]| {
            let mut v = input.clone();
            v[at..at + bytes.len()].copy_from_slice(bytes);
            v
        };
        let mut high_s = input.clone();
        {
            // s → n − s: still valid (no low-s rule).
            let mut borrow = 0i16;
            for i in (0..32).rev() {
                let d = i16::from(n[i]) - i16::from(input[64 + i]) - borrow;
                borrow = i16::from(d < 0);
                high_s[64 + i] = (d + 256 * borrow) as u8;
            }
        }
        let cases: [(Vec<u8>, c_int); 10] = [
            (high_s, P256_OK),
            (spoiled(32, &[0; 32]), P256_INVALID_R),
            (spoiled(32, &n), P256_INVALID_R),
            (spoiled(32, &[0xff; 64]), P256_INVALID_R),
            (spoiled(64, &[0; 32]), P256_INVALID_S),
            (spoiled(64, &n), P256_INVALID_S),
            (spoiled(96, &p), P256_KEY_COORDINATE_OUT_OF_RANGE),
            (spoiled(128, &[0xff; 32]), P256_KEY_COORDINATE_OUT_OF_RANGE),
            (spoiled(96, &[0; 64]), P256_KEY_NOT_ON_CURVE),
            (spoiled(0, &[input[0] ^ 1]), P256_MISMATCH),
        ];
        let mut flat = Vec::new();
        for (i, (v, want)) in cases.iter().enumerate() {
            let mut reason: c_int = 99;
            // SAFETY: 160 readable bytes hold all three inputs.
            let ok = unsafe {
                asmcrypto_p256_verify(v.as_ptr(), v[32..].as_ptr(), v[96..].as_ptr(), &mut reason)
            };
            assert_eq!(
                (ok, reason),
                (c_int::from(*want == P256_OK), *want),
                "case {i}"
            );
            flat.extend_from_slice(v);
        }
        let mut ok = [0xAAu8; 10];
        // SAFETY: 1600 readable bytes, 10 writable.
        let count = unsafe { asmcrypto_p256_verify_batch(10, flat.as_ptr(), ok.as_mut_ptr()) };
        assert_eq!((count, ok), (1, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
        // The precompile with its output over its input, and with NULLs.
        let mut buf = input.clone();
        // SAFETY: 160 readable bytes; the first 32 of them writable.
        assert_eq!(
            unsafe { asmcrypto_p256verify_precompile(buf.as_ptr(), 160, buf.as_mut_ptr()) },
            32
        );
        assert_eq!(buf[..32], asmcrypto::P256VERIFY_SUCCESS);
        // SAFETY: a NULL out runs nothing.
        assert_eq!(
            unsafe { asmcrypto_p256verify_precompile(input.as_ptr(), 160, ptr::null_mut()) },
            0
        );
        let mut out = [0xAAu8; 32];
        // SAFETY: a NULL input reads nothing; out is 32 writable bytes.
        assert_eq!(
            unsafe { asmcrypto_p256verify_precompile(null, 160, out.as_mut_ptr()) },
            0
        );
        assert_eq!(out, [0; 32]);
        // The batch refuses NULL buffers without writing.
        let mut ok = [0xAAu8; 1];
        // SAFETY: NULL pointers must be refused before any access.
        unsafe {
            assert_eq!(asmcrypto_p256_verify_batch(1, null, ok.as_mut_ptr()), 0);
            assert_eq!(
                asmcrypto_p256_verify_batch(1, input.as_ptr(), ptr::null_mut()),
                0
            );
            assert_eq!(asmcrypto_p256_verify_batch(0, null, ptr::null_mut()), 0);
        }
        assert_eq!(ok, [0xAA]);
    }

    #[test]
    fn backend_is_the_crates() {
        // SAFETY: asmcrypto_backend returns a static NUL-terminated string.
        let name = unsafe { CStr::from_ptr(asmcrypto_backend()) };
        assert_eq!(name.to_str().unwrap(), asmcrypto::backend());
        assert_eq!(asmcrypto_backend(), asmcrypto_backend());
    }
}
