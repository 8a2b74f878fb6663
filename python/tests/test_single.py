"""One signature per call: recover_address, recover_public_key, ecrecover_precompile and
keccak256 against coincurve, eth-keys' native backend, pycryptodome and the published
vectors; the exceptions; lengths and types."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hexbytes import HexBytes

import asmcrypto
import oracle

CASES = oracle.seeded_cases(seed=20261201, count=4000)
KINDS = sorted({case.kind for case in CASES})


def test_the_installed_package_is_tested():
    # --import-mode=importlib and no source folder on sys.path: the package under test is
    # the one pip installed, with its compiled extension.
    assert "site-packages" in asmcrypto.__file__ or "dist-packages" in asmcrypto.__file__
    assert asmcrypto.__version__ == "0.1.0"


def test_every_kind_of_input_is_generated():
    assert set(KINDS) == {
        "valid", "high_s", "bad_v", "bad_r", "bad_s", "off_curve", "infinity", "random"
    }
    errors = {case.error for case in CASES}
    assert errors == {
        None, "InvalidRecoveryId", "InvalidR", "InvalidS", "NotOnCurve", "PointAtInfinity"
    }
    assert sum(case.kind == "high_s" for case in CASES) >= 300


@pytest.mark.parametrize("kind", KINDS)
def test_seeded_signatures_against_coincurve(kind):
    cases = [case for case in CASES if case.kind == kind]
    assert cases
    for case in cases:
        if case.error is None:
            assert asmcrypto.recover_address(case.msg_hash, case.sig) == case.address, case
            assert asmcrypto.recover_public_key(case.msg_hash, case.sig) == case.public_key
            continue
        error = getattr(asmcrypto, case.error)
        for function in (asmcrypto.recover_address, asmcrypto.recover_public_key):
            with pytest.raises(asmcrypto.Error) as info:
                function(case.msg_hash, case.sig)
            assert type(info.value) is error, (case, info.value)
            if error is asmcrypto.InvalidRecoveryId:
                assert info.value.v == case.sig[64]
                assert str(info.value) == f"invalid recovery id {case.sig[64]}"


def test_seeded_signatures_against_the_native_backend():
    # eth-keys' pure-Python recovery takes milliseconds: every fifth case whose r and s
    # are in range (the native backend does not check r < n itself; coincurve covers those).
    checked = 0
    for case in CASES[::5]:
        r = int.from_bytes(case.sig[:32], "big")
        s = int.from_bytes(case.sig[32:64], "big")
        if case.sig[64] not in (0, 1, 27, 28) or not (0 < r < oracle.N and 0 < s < oracle.N):
            continue
        native = oracle.native_public_key(case.msg_hash, case.sig)
        assert native == case.public_key, case  # the two oracles agree
        try:
            ours = asmcrypto.recover_public_key(case.msg_hash, case.sig)
        except asmcrypto.Error:
            ours = None
        assert ours == native, case
        checked += 1
    assert checked >= 400


def test_published_transaction_signatures():
    vectors = oracle.load_jsonl("tx_senders.jsonl")
    assert len(vectors) == 147
    for i, vec in enumerate(vectors):
        msg_hash = bytes.fromhex(vec["hash"])
        rs = bytes.fromhex(vec["r"]) + bytes.fromhex(vec["s"])
        address = bytes.fromhex(vec["address"])
        for v in (vec["recid"], vec["recid"] + 27):
            sig = rs + bytes([v])
            assert asmcrypto.recover_address(msg_hash, sig) == address, vec["name"]
            public_key = asmcrypto.recover_public_key(msg_hash, sig)
            assert public_key == oracle.coincurve_public_key(msg_hash, sig)
            assert oracle.address_of_key(public_key) == address
        if i % 3 == 0:
            assert oracle.native_public_key(msg_hash, rs + bytes([vec["recid"]])) == public_key


def test_published_precompile_vectors():
    vectors = oracle.load_jsonl("precompile_ecrecover.jsonl")
    assert len(vectors) == 115
    outputs = set()
    for vec in vectors:
        data = bytes.fromhex(vec["input"])
        expected = bytes.fromhex(vec["expected"])
        assert asmcrypto.ecrecover_precompile(data) == expected, vec["name"]
        assert oracle.precompile_model(data) == expected, vec["name"]
        outputs.add(len(expected))
    assert outputs == {0, 32}


def test_precompile_on_seeded_inputs():
    rng = random.Random(7)
    for case in CASES[::2]:
        v = case.sig[64]
        data = case.msg_hash + v.to_bytes(32, "big") + case.sig[:64]
        expected = oracle.precompile_model(data)
        if v in (27, 28) and case.error is None:
            assert expected == bytes(12) + case.address
        assert asmcrypto.ecrecover_precompile(data) == expected, case
        # Bytes past 128 are ignored; shorter input is right-padded with zeros.
        assert asmcrypto.ecrecover_precompile(data + rng.randbytes(rng.randrange(1, 64))) == expected
        cut = data[: rng.randrange(0, 128)]
        assert asmcrypto.ecrecover_precompile(cut) == oracle.precompile_model(cut)
        # v must be exactly 27 or 28 as a whole word.
        word = (v + (1 << rng.randrange(8, 256))).to_bytes(32, "big")
        assert asmcrypto.ecrecover_precompile(case.msg_hash + word + case.sig[:64]) == b""


def test_precompile_takes_any_length():
    for length in (0, 1, 31, 32, 63, 64, 96, 127, 128, 129, 1000):
        assert asmcrypto.ecrecover_precompile(bytes(length)) == b""


def test_keccak256_against_pycryptodome():
    rng = random.Random(3)
    for length in list(range(0, 300)) + [1000, 4096, 65535, 65536, 65537, 1 << 20]:
        data = rng.randbytes(length)
        expected = oracle.keccak(data)
        assert asmcrypto.keccak256(data) == expected, length
        assert asmcrypto.keccak256(bytearray(data)) == expected
        assert asmcrypto.keccak256(memoryview(data)) == expected
        assert asmcrypto.keccak256(np.frombuffer(data, dtype=np.uint8)) == expected
    assert asmcrypto.keccak256(b"").hex() == (
        "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    )


def test_bytes_like_inputs():
    case = next(case for case in CASES if case.error is None)
    for convert in (
        bytes,
        bytearray,
        memoryview,
        HexBytes,
        lambda b: np.frombuffer(b, dtype=np.uint8),
        lambda b: np.frombuffer(b, dtype=np.uint8).reshape(1, -1),
        lambda b: memoryview(b"xx" + b + b"yy")[2:-2],  # a contiguous slice of a larger one
    ):
        assert asmcrypto.recover_address(convert(case.msg_hash), convert(case.sig)) == case.address
        assert asmcrypto.recover_public_key(convert(case.msg_hash), convert(case.sig)) == case.public_key


@pytest.mark.parametrize("length", [0, 1, 31, 33, 64, 65, 100])
def test_wrong_hash_length(length):
    case = CASES[0]
    with pytest.raises(ValueError, match=f"msg_hash: expected 32 bytes, got {length}") as info:
        asmcrypto.recover_address(bytes(length), case.sig)
    assert not isinstance(info.value, asmcrypto.Error)
    with pytest.raises(ValueError, match=f"msg_hash: expected 32 bytes, got {length}"):
        asmcrypto.recover_public_key(bytes(length), case.sig)


@pytest.mark.parametrize("length", [0, 1, 32, 63, 64, 66, 97, 130])
def test_wrong_signature_length(length):
    case = CASES[0]
    with pytest.raises(ValueError, match=f"signature: expected 65 bytes, got {length}") as info:
        asmcrypto.recover_address(case.msg_hash, bytes(length))
    assert not isinstance(info.value, asmcrypto.Error)
    with pytest.raises(ValueError, match=f"signature: expected 65 bytes, got {length}"):
        asmcrypto.recover_public_key(case.msg_hash, bytes(length))


@pytest.mark.parametrize(
    "value, type_name",
    [("ab" * 32, "str"), (12, "int"), (None, "NoneType"), ([1] * 32, "list"), (1.5, "float")],
)
def test_wrong_types(value, type_name):
    case = CASES[0]
    message = f"expected a bytes-like object, got {type_name}"
    with pytest.raises(TypeError, match=f"msg_hash: {message}"):
        asmcrypto.recover_address(value, case.sig)
    with pytest.raises(TypeError, match=f"signature: {message}"):
        asmcrypto.recover_public_key(case.msg_hash, value)
    with pytest.raises(TypeError, match=f"data: {message}"):
        asmcrypto.keccak256(value)
    with pytest.raises(TypeError, match=f"data: {message}"):
        asmcrypto.ecrecover_precompile(value)


def test_buffers_of_other_items_or_layouts():
    case = CASES[0]
    with pytest.raises(TypeError, match="unsigned bytes.*got format 'd' with 8-byte items"):
        asmcrypto.recover_address(np.zeros(4, dtype=np.float64), case.sig)
    with pytest.raises(TypeError, match="unsigned bytes.*got format 'b'"):
        asmcrypto.recover_address(np.zeros(32, dtype=np.int8), case.sig)
    with pytest.raises(TypeError, match="unsigned bytes"):
        asmcrypto.keccak256(np.zeros(8, dtype=np.uint16))
    strided = np.frombuffer(bytes(64), dtype=np.uint8)[::2]
    with pytest.raises(ValueError, match="not C-contiguous"):
        asmcrypto.recover_address(strided, case.sig)
    with pytest.raises(ValueError, match="not C-contiguous"):
        asmcrypto.keccak256(memoryview(bytes(64))[::2])


def test_exception_classes():
    assert issubclass(asmcrypto.Error, ValueError)
    for name in ("InvalidRecoveryId", "InvalidR", "InvalidS", "NotOnCurve", "PointAtInfinity"):
        error = getattr(asmcrypto, name)
        assert issubclass(error, asmcrypto.Error)
        assert error.__module__ == "asmcrypto"
        assert error.__doc__
    case = next(case for case in CASES if case.error == "NotOnCurve")
    with pytest.raises(asmcrypto.NotOnCurve, match="not the x-coordinate of a point"):
        asmcrypto.recover_address(case.msg_hash, case.sig)


def test_backend():
    assert asmcrypto.backend() in ("avx512-ifma", "avx512f", "scalar")
    details = asmcrypto.backend_details()
    assert details.startswith(f"batch {asmcrypto.backend()}, field ")
    for part in ("field ", "keccak ", "keccak batch "):
        assert part in details
