"""The batch call: every input form, every batch size, threads, the GIL, errors."""

from __future__ import annotations

import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import asmcrypto
import oracle

CASES = oracle.seeded_cases(seed=28, count=3000)
HASHES = [case.msg_hash for case in CASES]
SIGS = [case.sig for case in CASES]
ADDRESSES = b"".join(case.address or bytes(20) for case in CASES)
VALID = bytes(case.error is None for case in CASES)


def _np(items: list[bytes], width: int) -> np.ndarray:
    return np.frombuffer(b"".join(items), dtype=np.uint8).reshape(-1, width).copy()


# Each form turns a list of n items of `width` bytes into one batch input.
FORMS = {
    "list": lambda items, width: list(items),
    "tuple": lambda items, width: tuple(items),
    "bytes": lambda items, width: b"".join(items),
    "bytearray": lambda items, width: bytearray(b"".join(items)),
    "memoryview": lambda items, width: memoryview(b"".join(items)),
    "numpy": lambda items, width: _np(items, width),
    "numpy_flat": lambda items, width: _np(items, width).reshape(-1),
    "list_of_bytearray": lambda items, width: [bytearray(item) for item in items],
    "list_of_numpy_rows": lambda items, width: list(_np(items, width)),
    "list_of_memoryview": lambda items, width: [memoryview(item) for item in items],
}


def _expect(cases, addresses, valid):
    """Compares a batch result, in either output form, with the oracle's."""
    want_addresses = b"".join(case.address or bytes(20) for case in cases)
    want_valid = bytes(case.error is None for case in cases)
    if isinstance(addresses, np.ndarray):
        assert addresses.dtype == np.uint8 and addresses.shape == (len(cases), 20)
        assert valid.dtype == np.bool_ and valid.shape == (len(cases),)
        assert addresses.tobytes() == want_addresses
        assert valid.tobytes() == want_valid
    else:
        assert type(addresses) is bytes and type(valid) is bytes
        assert addresses == want_addresses
        assert valid == want_valid


@pytest.mark.parametrize("hash_form", sorted(FORMS))
@pytest.mark.parametrize("sig_form", sorted(FORMS))
def test_every_input_form(hash_form, sig_form):
    hashes = FORMS[hash_form](HASHES, 32)
    sigs = FORMS[sig_form](SIGS, 65)
    addresses, valid = asmcrypto.recover_addresses(hashes, sigs)
    numpy_in = isinstance(hashes, np.ndarray) or isinstance(sigs, np.ndarray)
    assert isinstance(addresses, np.ndarray) == numpy_in
    _expect(CASES, addresses, valid)


def test_numpy_output_is_writable_and_inputs_are_unchanged():
    hashes, sigs = _np(HASHES, 32), _np(SIGS, 65)
    before = (hashes.copy(), sigs.copy())
    addresses, valid = asmcrypto.recover_addresses(hashes, sigs)
    assert addresses.flags.writeable and valid.flags.writeable
    assert addresses.flags.c_contiguous
    assert np.array_equal(hashes, before[0]) and np.array_equal(sigs, before[1])
    assert valid.sum() == sum(case.error is None for case in CASES)
    # Row i is signature i's address.
    for i in range(0, len(CASES), 97):
        if CASES[i].error is None:
            assert addresses[i].tobytes() == CASES[i].address


@pytest.mark.parametrize(
    "size", [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 63, 64, 65, 191, 192, 193, 255, 256, 257, 511, 1000]
)
def test_batch_sizes_equal_single_calls(size):
    # Every batch path (short, eight lanes, ladder, remainders) gives exactly the single
    # call's result, valid or not, in input order.
    rng = random.Random(size)
    picked = [CASES[rng.randrange(len(CASES))] for _ in range(size)]
    for form in ("list", "bytes", "numpy"):
        hashes = FORMS[form]([c.msg_hash for c in picked], 32)
        sigs = FORMS[form]([c.sig for c in picked], 65)
        addresses, valid = asmcrypto.recover_addresses(hashes, sigs)
        _expect(picked, addresses, valid)
    for i, case in enumerate(picked):
        try:
            single = asmcrypto.recover_address(case.msg_hash, case.sig)
        except asmcrypto.Error:
            single = None
        assert single == case.address


def test_empty_inputs():
    assert asmcrypto.recover_addresses([], []) == (b"", b"")
    assert asmcrypto.recover_addresses(b"", b"") == (b"", b"")
    addresses, valid = asmcrypto.recover_addresses(
        np.zeros((0, 32), np.uint8), np.zeros((0, 65), np.uint8)
    )
    assert addresses.shape == (0, 20) and valid.shape == (0,)


@pytest.mark.parametrize("threads", [0, 1, 2, 3, 4, 7])
def test_threads(threads):
    hashes, sigs = _np(HASHES * 2, 32), b"".join(SIGS * 2)
    addresses, valid = asmcrypto.recover_addresses(hashes, sigs, threads=threads)
    _expect(CASES * 2, addresses, valid)


def test_threads_argument():
    with pytest.raises(ValueError, match="threads: expected 0 .* got -1"):
        asmcrypto.recover_addresses(HASHES[:2], SIGS[:2], threads=-1)
    with pytest.raises(TypeError):
        asmcrypto.recover_addresses(HASHES[:2], SIGS[:2], threads=1.5)
    with pytest.raises(TypeError):
        asmcrypto.recover_addresses(HASHES[:2], SIGS[:2], 2)  # keyword only


def test_count_mismatch():
    with pytest.raises(ValueError, match="msg_hashes has 3 items and signatures 2"):
        asmcrypto.recover_addresses(HASHES[:3], SIGS[:2])
    with pytest.raises(ValueError, match="msg_hashes has 2 items and signatures 3"):
        asmcrypto.recover_addresses(b"".join(HASHES[:2]), _np(SIGS[:3], 65))


def test_wrong_item_lengths():
    sigs = SIGS[:5]
    sigs[3] = sigs[3][:64]
    with pytest.raises(ValueError, match=r"signatures\[3\]: expected 65 bytes, got 64"):
        asmcrypto.recover_addresses(HASHES[:5], sigs)
    hashes = HASHES[:5]
    hashes[0] = b""
    with pytest.raises(ValueError, match=r"msg_hashes\[0\]: expected 32 bytes, got 0"):
        asmcrypto.recover_addresses(hashes, SIGS[:5])
    with pytest.raises(
        ValueError, match="signatures: a buffer of 129 bytes is not a whole number of 65-byte items"
    ):
        asmcrypto.recover_addresses(HASHES[:2], b"".join(SIGS[:2])[:-1])
    with pytest.raises(ValueError, match=r"msg_hashes: expected an array of shape \(n, 32\), got \(2, 33\)"):
        asmcrypto.recover_addresses(np.zeros((2, 33), np.uint8), SIGS[:2])
    with pytest.raises(ValueError, match="got 3 dimensions"):
        asmcrypto.recover_addresses(np.zeros((2, 1, 32), np.uint8), SIGS[:2])


def test_wrong_types():
    with pytest.raises(TypeError, match="msg_hashes: expected a bytes-like buffer of 32-byte items or a list of bytes, got str"):
        asmcrypto.recover_addresses("00" * 32, SIGS[:1])
    with pytest.raises(TypeError, match="signatures: expected .* got int"):
        asmcrypto.recover_addresses(HASHES[:1], 5)
    with pytest.raises(TypeError, match="got generator"):
        asmcrypto.recover_addresses((h for h in HASHES[:1]), SIGS[:1])
    with pytest.raises(TypeError, match="got NoneType"):
        asmcrypto.recover_addresses(None, None)
    with pytest.raises(TypeError, match=r"msg_hashes\[1\]: expected a bytes-like object, got str"):
        asmcrypto.recover_addresses([HASHES[0], "ab"], SIGS[:2])
    with pytest.raises(TypeError, match=r"signatures\[0\]: expected a bytes-like object, got NoneType"):
        asmcrypto.recover_addresses(HASHES[:1], [None])
    with pytest.raises(TypeError, match="signatures: expected a buffer of unsigned bytes .*got format 'i' with 4-byte items"):
        asmcrypto.recover_addresses(HASHES[:1], np.zeros((1, 65), dtype=np.int32))
    with pytest.raises(TypeError, match="unsigned bytes"):
        asmcrypto.recover_addresses(np.zeros((1, 32), dtype=np.bool_), SIGS[:1])


def test_non_contiguous_arrays():
    hashes = _np(HASHES[:10], 32)
    with pytest.raises(ValueError, match="msg_hashes: the buffer is not C-contiguous"):
        asmcrypto.recover_addresses(hashes[::2], SIGS[:5])
    with pytest.raises(ValueError, match="not C-contiguous"):
        asmcrypto.recover_addresses(np.asfortranarray(hashes), SIGS[:10])
    sigs = _np(SIGS[:10], 65)
    with pytest.raises(ValueError, match="signatures: the buffer is not C-contiguous"):
        asmcrypto.recover_addresses(HASHES[:10], np.asfortranarray(sigs))
    # A contiguous copy works.
    addresses, valid = asmcrypto.recover_addresses(np.ascontiguousarray(hashes[::2]), SIGS[:10:2])
    _expect(CASES[:10:2], addresses, valid)


def _big_batch(count: int) -> tuple[np.ndarray, np.ndarray]:
    valid = [case for case in CASES if case.error is None]
    picked = [valid[i % len(valid)] for i in range(count)]
    return _np([c.msg_hash for c in picked], 32), _np([c.sig for c in picked], 65)


def _ticks_during(action) -> int:
    """How often a second Python thread ran while `action` ran on this one. The switch
    interval is raised far above the test's length, so the second thread gets the GIL only
    when this thread releases it."""
    ticks = 0
    stop = False

    def worker():
        nonlocal ticks
        while not stop:
            ticks += 1
            time.sleep(0.0002)  # releases the GIL, then waits for it

    old = sys.getswitchinterval()
    sys.setswitchinterval(60.0)
    thread = threading.Thread(target=worker)
    try:
        thread.start()
        time.sleep(0.02)  # the worker is running
        before = ticks
        action()
        return ticks - before
    finally:
        stop = True
        sys.setswitchinterval(old)
        thread.join()


def test_the_gil_is_released_while_recovering():
    hashes, sigs = _big_batch(20_000)
    assert _ticks_during(lambda: asmcrypto.recover_addresses(hashes, sigs)) > 0
    # The control: a computation that holds the GIL as long gives the worker no turn.
    start = time.perf_counter()
    asmcrypto.recover_addresses(hashes, sigs)
    length = time.perf_counter() - start

    def busy():
        end = time.perf_counter() + length
        while time.perf_counter() < end:
            pass

    assert _ticks_during(busy) == 0


def test_long_bytes_are_hashed_without_the_gil():
    data = bytes(random.Random(5).randbytes(1 << 20)) * 48
    digest = oracle.keccak(data)
    assert _ticks_during(lambda: asmcrypto.keccak256(data)) > 0
    # A bytearray can change under another thread: hashed with the GIL held.
    mutable = bytearray(data)
    assert _ticks_during(lambda: asmcrypto.keccak256(mutable)) == 0
    assert asmcrypto.keccak256(data) == asmcrypto.keccak256(mutable) == digest


def test_python_threads_calling_at_once():
    def job(i: int) -> int:
        rng = random.Random(i)
        part = CASES[i * 250 : (i + 1) * 250]
        hashes = FORMS[rng.choice(sorted(FORMS))]([c.msg_hash for c in part], 32)
        sigs = FORMS[rng.choice(sorted(FORMS))]([c.sig for c in part], 65)
        for round_ in range(6):
            addresses, valid = asmcrypto.recover_addresses(hashes, sigs, threads=1 + round_ % 2)
            _expect(part, addresses, valid)
            for case in part[round_ :: 25]:
                if case.error is None:
                    assert asmcrypto.recover_address(case.msg_hash, case.sig) == case.address
                else:
                    with pytest.raises(getattr(asmcrypto, case.error)):
                        asmcrypto.recover_public_key(case.msg_hash, case.sig)
        return len(part)

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert sum(pool.map(job, range(12))) == 3000
