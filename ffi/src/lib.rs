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

/// Signatures handed to `asmcrypto::recover_addresses` at a time by
/// [`asmcrypto_recover_addresses`]: bounds the memory the call allocates (about 2.4 MB)
/// whatever `n`, and is long enough for the `parallel` feature to give every core of a big
/// machine several 256-signature tasks.
const BATCH_CHUNK: usize = 16384;

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
        let mut recovered = 0usize;
        let mut start = 0usize;
        let mut inputs = Vec::with_capacity(n.min(BATCH_CHUNK));
        while start < n {
            let len = (n - start).min(BATCH_CHUNK);
            inputs.clear();
            for i in start..start + len {
                // SAFETY: i < n, so bytes 32i..32i+32 of msgs and 65i..65i+65 of sigs lie
                // inside the 32n- and 65n-byte input buffers (65n fits in isize).
                inputs
                    .push(unsafe { (read::<32>(msgs.add(32 * i)), read::<65>(sigs.add(65 * i))) });
            }
            let results = asmcrypto::recover_addresses(&inputs);
            for (i, r) in (start..start + len).zip(&results) {
                let (addr, ok) = match r {
                    Ok(addr) => (*addr, 1u8),
                    Err(_) => ([0u8; 20], 0u8),
                };
                recovered += usize::from(ok);
                // SAFETY: i < n, so bytes 20i..20i+20 of addrs_out and byte i of ok_out lie
                // inside the 20n- and n-byte output buffers.
                unsafe {
                    write(addrs_out.add(20 * i), &addr);
                    write(ok_out.add(i), &[ok]);
                }
            }
            start += len;
        }
        recovered
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
    //! sizes return before touching memory. The C ABI itself is tested from C
    //! (`tests/c_abi.rs`).

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
    fn backend_is_the_crates() {
        // SAFETY: asmcrypto_backend returns a static NUL-terminated string.
        let name = unsafe { CStr::from_ptr(asmcrypto_backend()) };
        assert_eq!(name.to_str().unwrap(), asmcrypto::backend());
        assert_eq!(asmcrypto_backend(), asmcrypto_backend());
    }
}
