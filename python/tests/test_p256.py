"""P-256 (P256VERIFY, EIP-7951): p256_verify, p256verify_precompile and p256_verify_batch
against the published vectors and, on seeded cases, the `cryptography` package (OpenSSL)
behind a model of EIP-7951's range checks (tests/p256_oracle.py); every batch input form;
the exceptions; lengths and types."""

from __future__ import annotations

import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hexbytes import HexBytes

import asmcrypto
import p256_oracle

CASES = p256_oracle.seeded_cases(seed=7951, count=4000)
KINDS = sorted(set(p256_oracle.KINDS))
VECTORS = p256_oracle.vectors()
ERRORS = ("InvalidR", "InvalidS", "KeyCoordinateOutOfRange", "KeyNotOnCurve", "Mismatch")


def _verdict(msg_hash, signature, public_key) -> str | None:
    """p256_verify's result as the oracle's: None, or the name of the exception raised."""
    try:
        result = asmcrypto.p256_verify(msg_hash, signature, public_key)
    except asmcrypto.Error as error:
        assert type(error).__module__ == "asmcrypto"
        return type(error).__name__
    assert result is True
    return None


def test_every_kind_of_input_is_generated():
    assert {case.kind for case in CASES} == set(KINDS)
    assert {case.error for case in CASES} == {None, *ERRORS}
    assert sum(case.error is None for case in CASES) >= 1000


def test_published_vectors():
    assert len(VECTORS) == 295 + 490
    outputs = {b"": 0, p256_oracle.SUCCESS: 0}
    for name, data, expected in VECTORS:
        assert len(data) == 160, name
        assert asmcrypto.p256verify_precompile(data) == expected, name
        outputs[expected] += 1
        error = _verdict(data[:32], data[32:96], data[96:])
        assert (error is None) == (expected == p256_oracle.SUCCESS), name
        # The oracle (OpenSSL behind the range checks) gives the same reason.
        assert error == p256_oracle.expected_error(data), name
    assert outputs == {b"": 84 + 143, p256_oracle.SUCCESS: 211 + 347}
    valid = asmcrypto.p256_verify_batch([data for _, data, _ in VECTORS])
    assert valid == bytes(expected == p256_oracle.SUCCESS for _, _, expected in VECTORS)


@pytest.mark.parametrize("kind", KINDS)
def test_seeded_cases_against_cryptography(kind):
    cases = [case for case in CASES if case.kind == kind]
    assert cases
    for case in cases:
        assert _verdict(*case.parts) == case.error, (case.kind, case.data.hex())
        expected = p256_oracle.SUCCESS if case.error is None else b""
        assert asmcrypto.p256verify_precompile(case.data) == expected, case.data.hex()
    valid = asmcrypto.p256_verify_batch([case.data for case in cases])
    assert valid == bytes(case.error is None for case in cases)


def test_exception_messages():
    by_error = {case.error: case for case in CASES}
    messages = {
        "InvalidR": "signature r is zero or not below the P-256 group order",
        "InvalidS": "signature s is zero or not below the P-256 group order",
        "KeyCoordinateOutOfRange": "public key coordinate is not below the P-256 field prime",
        "KeyNotOnCurve": "public key is not a point on P-256",
        "Mismatch": "signature does not match the hash and public key",
    }
    for name, message in messages.items():
        error = getattr(asmcrypto, name)
        with pytest.raises(error) as info:
            asmcrypto.p256_verify(*by_error[name].parts)
        assert type(info.value) is error
        assert str(info.value) == message
        assert isinstance(info.value, asmcrypto.Error) and isinstance(info.value, ValueError)


def test_exception_classes():
    for name in ("KeyCoordinateOutOfRange", "KeyNotOnCurve", "Mismatch"):
        error = getattr(asmcrypto, name)
        assert issubclass(error, asmcrypto.Error)
        assert error.__module__ == "asmcrypto"
        assert error.__doc__
        assert name in asmcrypto.__all__
    # One class per kind: InvalidR and InvalidS serve both curves, the others are apart.
    kinds = [asmcrypto.InvalidR, asmcrypto.InvalidS, asmcrypto.KeyCoordinateOutOfRange,
             asmcrypto.KeyNotOnCurve, asmcrypto.Mismatch, asmcrypto.NotOnCurve,
             asmcrypto.PointAtInfinity, asmcrypto.InvalidRecoveryId]
    for a in kinds:
        for b in kinds:
            assert issubclass(a, b) == (a is b)


def test_precompile_takes_any_length():
    valid = next(case for case in CASES if case.error is None)
    for length in (0, 1, 32, 96, 128, 159, 161, 192, 320, 1000):
        data = (valid.data * 7)[:length]
        assert asmcrypto.p256verify_precompile(data) == b"", length
    assert asmcrypto.p256verify_precompile(bytes(160)) == b""
    assert asmcrypto.p256verify_precompile(b"\xff" * 160) == b""
    assert asmcrypto.p256verify_precompile(valid.data) == p256_oracle.SUCCESS


def test_bytes_like_inputs():
    case = next(case for case in CASES if case.error is None)
    for convert in (
        bytes,
        bytearray,
        memoryview,
        HexBytes,
        lambda b: np.frombuffer(b, dtype=np.uint8),
        lambda b: np.frombuffer(b, dtype=np.uint8).reshape(2, -1),
        lambda b: memoryview(b"xx" + b + b"yy")[2:-2],
    ):
        assert asmcrypto.p256_verify(*(convert(part) for part in case.parts)) is True
        assert asmcrypto.p256verify_precompile(convert(case.data)) == p256_oracle.SUCCESS


@pytest.mark.parametrize(
    "index, length, name",
    [(0, 31, "msg_hash"), (0, 33, "msg_hash"), (0, 0, "msg_hash"),
     (1, 63, "signature"), (1, 65, "signature"),
     (2, 65, "public_key"), (2, 63, "public_key"), (2, 33, "public_key")],
)
def test_wrong_lengths(index, length, name):
    parts = list(CASES[0].parts)
    parts[index] = bytes(length)
    with pytest.raises(ValueError, match=f"{name}: expected {len(CASES[0].parts[index])} bytes, got {length}") as info:
        asmcrypto.p256_verify(*parts)
    assert not isinstance(info.value, asmcrypto.Error)


def test_an_uncompressed_key_with_its_prefix_is_refused():
    msg_hash, signature, public_key = next(case for case in CASES if case.error is None).parts
    with pytest.raises(ValueError, match="public_key: expected 64 bytes, got 65"):
        asmcrypto.p256_verify(msg_hash, signature, b"\x04" + public_key)


@pytest.mark.parametrize(
    "value, type_name",
    [("ab" * 32, "str"), (12, "int"), (None, "NoneType"), ([1] * 32, "list"), (1.5, "float")],
)
def test_wrong_types(value, type_name):
    msg_hash, signature, public_key = CASES[0].parts
    message = f"expected a bytes-like object, got {type_name}"
    with pytest.raises(TypeError, match=f"msg_hash: {message}"):
        asmcrypto.p256_verify(value, signature, public_key)
    with pytest.raises(TypeError, match=f"signature: {message}"):
        asmcrypto.p256_verify(msg_hash, value, public_key)
    with pytest.raises(TypeError, match=f"public_key: {message}"):
        asmcrypto.p256_verify(msg_hash, signature, value)
    with pytest.raises(TypeError, match=f"data: {message}"):
        asmcrypto.p256verify_precompile(value)
    with pytest.raises(TypeError, match="unsigned bytes"):
        asmcrypto.p256verify_precompile(np.zeros(40, dtype=np.uint32))


# The batch.

DATA = [case.data for case in CASES]
WANT = bytes(case.error is None for case in CASES)


def _np(items: list[bytes]) -> np.ndarray:
    return np.frombuffer(b"".join(items), dtype=np.uint8).reshape(-1, 160).copy()


FORMS = {
    "list": lambda items: list(items),
    "tuple": lambda items: tuple(items),
    "bytes": lambda items: b"".join(items),
    "bytearray": lambda items: bytearray(b"".join(items)),
    "memoryview": lambda items: memoryview(b"".join(items)),
    "numpy": _np,
    "numpy_flat": lambda items: _np(items).reshape(-1),
    "list_of_bytearray": lambda items: [bytearray(item) for item in items],
    "list_of_numpy_rows": lambda items: list(_np(items)),
    "list_of_memoryview": lambda items: [memoryview(item) for item in items],
}


def _expect(valid, want: bytes) -> None:
    if isinstance(valid, np.ndarray):
        assert valid.dtype == np.bool_ and valid.shape == (len(want),)
        assert valid.tobytes() == want
        assert valid.flags.writeable
    else:
        assert type(valid) is bytes
        assert valid == want


@pytest.mark.parametrize("form", sorted(FORMS))
def test_batch_every_input_form(form):
    inputs = FORMS[form](DATA)
    valid = asmcrypto.p256_verify_batch(inputs)
    assert isinstance(valid, np.ndarray) == isinstance(inputs, np.ndarray)
    _expect(valid, WANT)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 8, 9, 63, 64, 65, 255, 256, 257, 511, 512, 513, 1000])
def test_batch_sizes_equal_single_calls(size):
    # Every chunk boundary of the batch (its shared inversions run per 256) gives exactly
    # the single call's result, in input order.
    rng = random.Random(size)
    picked = [CASES[rng.randrange(len(CASES))] for _ in range(size)]
    want = bytes(case.error is None for case in picked)
    for form in ("list", "bytes", "numpy"):
        _expect(asmcrypto.p256_verify_batch(FORMS[form]([c.data for c in picked])), want)
    for case in picked[:50]:
        assert (_verdict(*case.parts) is None) == (case.error is None)


def test_batch_empty_inputs():
    assert asmcrypto.p256_verify_batch([]) == b""
    assert asmcrypto.p256_verify_batch(()) == b""
    assert asmcrypto.p256_verify_batch(b"") == b""
    valid = asmcrypto.p256_verify_batch(np.zeros((0, 160), np.uint8))
    assert valid.shape == (0,) and valid.dtype == np.bool_


@pytest.mark.parametrize("threads", [0, 1, 2, 3, 4, 7])
def test_batch_threads(threads):
    inputs = _np(DATA * 2)
    _expect(asmcrypto.p256_verify_batch(inputs, threads=threads), WANT * 2)
    _expect(asmcrypto.p256_verify_batch(DATA[:300], threads=threads), WANT[:300])


def test_batch_threads_argument():
    with pytest.raises(ValueError, match="threads: expected 0 .* got -1"):
        asmcrypto.p256_verify_batch(DATA[:2], threads=-1)
    with pytest.raises(TypeError):
        asmcrypto.p256_verify_batch(DATA[:2], threads=1.5)
    with pytest.raises(TypeError):
        asmcrypto.p256_verify_batch(DATA[:2], 2)  # keyword only


def test_batch_wrong_item_lengths():
    items = DATA[:5]
    items[3] = items[3][:159]
    with pytest.raises(ValueError, match=r"inputs\[3\]: expected 160 bytes, got 159"):
        asmcrypto.p256_verify_batch(items)
    with pytest.raises(
        ValueError, match="inputs: a buffer of 319 bytes is not a whole number of 160-byte items"
    ):
        asmcrypto.p256_verify_batch(b"".join(DATA[:2])[:-1])
    with pytest.raises(ValueError, match=r"inputs: expected an array of shape \(n, 160\), got \(2, 161\)"):
        asmcrypto.p256_verify_batch(np.zeros((2, 161), np.uint8))
    with pytest.raises(ValueError, match="got 3 dimensions"):
        asmcrypto.p256_verify_batch(np.zeros((2, 1, 160), np.uint8))
    with pytest.raises(ValueError, match="inputs: the buffer is not C-contiguous"):
        asmcrypto.p256_verify_batch(_np(DATA[:10])[::2])


def test_batch_wrong_types():
    with pytest.raises(TypeError, match="inputs: expected a bytes-like buffer of 160-byte items or a list of bytes, got str"):
        asmcrypto.p256_verify_batch("00" * 160)
    with pytest.raises(TypeError, match="got NoneType"):
        asmcrypto.p256_verify_batch(None)
    with pytest.raises(TypeError, match="got generator"):
        asmcrypto.p256_verify_batch(d for d in DATA[:1])
    with pytest.raises(TypeError, match=r"inputs\[1\]: expected a bytes-like object, got str"):
        asmcrypto.p256_verify_batch([DATA[0], "ab"])
    with pytest.raises(TypeError, match="unsigned bytes .*got format 'i' with 4-byte items"):
        asmcrypto.p256_verify_batch(np.zeros((1, 160), dtype=np.int32))


def test_batch_inputs_are_unchanged():
    inputs = _np(DATA[:500])
    before = inputs.copy()
    asmcrypto.p256_verify_batch(inputs)
    assert np.array_equal(inputs, before)


def _ticks_during(action) -> int:
    """How often a second Python thread ran while `action` ran on this one (the switch
    interval raised far above the test's length: the second thread runs only when this one
    releases the GIL)."""
    ticks = 0
    stop = False

    def worker():
        nonlocal ticks
        while not stop:
            ticks += 1
            time.sleep(0.0002)

    old = sys.getswitchinterval()
    sys.setswitchinterval(60.0)
    thread = threading.Thread(target=worker)
    try:
        thread.start()
        time.sleep(0.02)
        before = ticks
        action()
        return ticks - before
    finally:
        stop = True
        sys.setswitchinterval(old)
        thread.join()


def test_the_gil_is_released_while_verifying():
    valid = [case.data for case in CASES if case.error is None]
    inputs = _np([valid[i % len(valid)] for i in range(6000)])
    assert _ticks_during(lambda: asmcrypto.p256_verify_batch(inputs)) > 0


def test_python_threads_calling_at_once():
    def job(i: int) -> int:
        rng = random.Random(i)
        part = CASES[i * 300 : (i + 1) * 300]
        inputs = FORMS[rng.choice(sorted(FORMS))]([c.data for c in part])
        for round_ in range(4):
            _expect(asmcrypto.p256_verify_batch(inputs, threads=1 + round_ % 2),
                    bytes(c.error is None for c in part))
            for case in part[round_::30]:
                assert _verdict(*case.parts) == case.error
        return len(part)

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert sum(pool.map(job, range(12))) == 3600
