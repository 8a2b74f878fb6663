"""Shared support of the Python tests: the seeded cases, the oracles and the bundled vectors.

The oracles are independent of asmcrypto: coincurve (libsecp256k1 through cffi) for
recovery, pycryptodome for Keccak-256, eth-keys' native backend (pure Python) for a second
recovery, and a reference model of the error kinds written here from the curve's
definition. Nothing here calls asmcrypto.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import coincurve
from Crypto.Hash import keccak as _keccak
from eth_keys.backends.native.ecdsa import ecdsa_raw_recover

# secp256k1: the field prime and the group order.
P = 2**256 - 2**32 - 977
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141

# The bundled published vectors: the repository's tests/data (the crate's tests read the
# same files).
DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


def keccak(data: bytes) -> bytes:
    return _keccak.new(digest_bits=256, data=data).digest()


def address_of_key(public_key: bytes) -> bytes:
    """The address of a 64-byte public key X ‖ Y."""
    return keccak(public_key)[12:]


def be32(value: int) -> bytes:
    return value.to_bytes(32, "big")


def is_x_coordinate(x: int) -> bool:
    """Whether x (below p) is the x-coordinate of a point on y² = x³ + 7 (Euler's criterion)."""
    rhs = (x * x * x + 7) % P
    return rhs == 0 or pow(rhs, (P - 1) // 2, P) == 1


def coincurve_public_key(msg_hash: bytes, sig: bytes) -> bytes | None:
    """libsecp256k1's recovery (through coincurve) of r ‖ s ‖ v with v in {0, 1, 27, 28}:
    X ‖ Y, or None where libsecp256k1 refuses."""
    v = sig[64]
    if v not in (0, 1, 27, 28):
        return None
    compact = sig[:64] + bytes([v % 27 if v >= 27 else v])
    try:
        key = coincurve.PublicKey.from_signature_and_message(compact, msg_hash, hasher=None)
    except Exception:  # coincurve raises plain Exception/ValueError for every refusal
        return None
    return key.format(compressed=False)[1:]


def native_public_key(msg_hash: bytes, sig: bytes) -> bytes | None:
    """eth-keys' native (pure Python) recovery, or None where it refuses. Only for
    r and s below n: the native backend does not check r < n itself."""
    v = sig[64]
    v = v - 27 if v >= 27 else v
    try:
        return ecdsa_raw_recover(
            msg_hash, (v, int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:64], "big"))
        )
    except Exception:
        return None


def expected_error(msg_hash: bytes, sig: bytes) -> str | None:
    """The reference model of the error kinds, in asmcrypto's order of checks: the name of
    the exception recovery must raise, or None where it must succeed."""
    v = sig[64]
    r = int.from_bytes(sig[:32], "big")
    s = int.from_bytes(sig[32:64], "big")
    if v not in (0, 1, 27, 28):
        return "InvalidRecoveryId"
    if r == 0 or r >= N:
        return "InvalidR"
    if s == 0 or s >= N:
        return "InvalidS"
    if not is_x_coordinate(r):
        return "NotOnCurve"
    if coincurve_public_key(msg_hash, sig) is None:
        # Every other input recovers, unless u1·G + u2·R is the point at infinity, where
        # libsecp256k1 refuses too.
        return "PointAtInfinity"
    return None


@dataclass(frozen=True)
class Case:
    """One seeded input: the hash, the 65-byte signature, what it must give, and why."""

    kind: str
    msg_hash: bytes
    sig: bytes
    address: bytes | None  # None where recovery must fail
    public_key: bytes | None
    error: str | None  # the exception's name where it must fail


def _signature(rng: random.Random) -> tuple[bytes, bytes, bytes, int, int, int]:
    """A fresh key signs a random hash: (hash, public key, address, r, s, parity)."""
    while True:
        secret = rng.randrange(1, N).to_bytes(32, "big")
        msg_hash = rng.randbytes(32)
        key = coincurve.PrivateKey(secret)
        compact = key.sign_recoverable(msg_hash, hasher=None)
        if compact[64] < 2:  # recovery ids 2 and 3 (x = r + n) have probability ~2^-127
            public_key = key.public_key.format(compressed=False)[1:]
            return (
                msg_hash,
                public_key,
                address_of_key(public_key),
                int.from_bytes(compact[:32], "big"),
                int.from_bytes(compact[32:64], "big"),
                compact[64],
            )


def _sig(r: int, s: int, v: int) -> bytes:
    return be32(r) + be32(s) + bytes([v])


def _case(kind: str, msg_hash: bytes, sig: bytes) -> Case:
    error = expected_error(msg_hash, sig)
    public_key = None if error else coincurve_public_key(msg_hash, sig)
    return Case(
        kind,
        msg_hash,
        sig,
        None if public_key is None else address_of_key(public_key),
        public_key,
        error,
    )


def seeded_cases(seed: int, count: int) -> list[Case]:
    """`count` seeded inputs of every kind: valid signatures (v as 0/1 or 27/28), the same
    with high s, invalid v, r zero or ≥ n, s zero or ≥ n, r off the curve, keys at
    infinity, and random r ‖ s."""
    rng = random.Random(seed)
    kinds = [
        "valid",
        "valid",
        "valid",
        "high_s",
        "bad_v",
        "bad_r",
        "bad_s",
        "off_curve",
        "infinity",
        "random",
    ]
    cases = []
    for i in range(count):
        kind = kinds[i % len(kinds)]
        if kind in ("valid", "high_s"):
            msg_hash, public_key, address, r, s, parity = _signature(rng)
            if kind == "high_s":
                # libsecp256k1 signs with low s; (r, n - s) with the other parity is the
                # same key's signature, with high s.
                s, parity = N - s, parity ^ 1
                assert s > N // 2
            v = parity + rng.choice((0, 27))
            case = _case(kind, msg_hash, _sig(r, s, v))
            # The signer is known: the oracle must agree with it.
            assert case.address == address and case.public_key == public_key, case
        elif kind == "bad_v":
            msg_hash, _, _, r, s, parity = _signature(rng)
            v = rng.choice((2, 3, 4, 26, 29, 30, 35, 36, 37, 38, 127, 128, 255, rng.randrange(256)))
            case = _case(kind, msg_hash, _sig(r, s, v))
        elif kind == "bad_r":
            msg_hash, _, _, _, s, parity = _signature(rng)
            r = rng.choice((0, N, N + 1, 2**256 - 1, rng.randrange(N, 2**256)))
            case = _case(kind, msg_hash, _sig(r, s, parity + rng.choice((0, 27))))
        elif kind == "bad_s":
            msg_hash, _, _, r, _, parity = _signature(rng)
            s = rng.choice((0, N, N + 1, 2**256 - 1, rng.randrange(N, 2**256)))
            case = _case(kind, msg_hash, _sig(r, s, parity + rng.choice((0, 27))))
        elif kind == "off_curve":
            msg_hash = rng.randbytes(32)
            while True:
                r = rng.randrange(1, N)
                if not is_x_coordinate(r):
                    break
            case = _case(kind, msg_hash, _sig(r, rng.randrange(1, N), rng.choice((0, 1, 27, 28))))
        elif kind == "infinity":
            # R = k·G with x(R) = r: u1·G + u2·R = r⁻¹·(s·k - z)·G, the point at infinity
            # for the hash z = s·k (or -s·k for the other parity, which is -R = (-k)·G).
            while True:
                k = rng.randrange(1, N)
                point = coincurve.PublicKey.from_secret(k.to_bytes(32, "big")).format(False)
                x, y = int.from_bytes(point[1:33], "big"), int.from_bytes(point[33:], "big")
                if x < N:
                    break
            s = rng.randrange(1, N)
            parity = rng.randrange(2)
            z = s * k % N if parity == y & 1 else -s * k % N
            case = _case(kind, be32(z), _sig(x, s, parity + rng.choice((0, 27))))
            assert case.error == "PointAtInfinity", case
        else:
            case = _case(kind, rng.randbytes(32), rng.randbytes(64) + bytes([rng.choice((0, 1, 27, 28))]))
        cases.append(case)
    return cases


def load_jsonl(name: str) -> list[dict]:
    with open(DATA / name) as f:
        return [json.loads(line) for line in f if line.strip()]


def precompile_model(data: bytes) -> bytes:
    """The EVM's ecrecover precompile, modelled on coincurve: the input right-padded with
    zeros (or cut) to 128 bytes, hash ‖ v (a 32-byte word, exactly 27 or 28) ‖ r ‖ s; 12 zero
    bytes and the address, or b"" for any failure."""
    data = data[:128].ljust(128, b"\0")
    v = int.from_bytes(data[32:64], "big")
    if v not in (27, 28):
        return b""
    msg_hash, sig = data[:32], data[64:128] + bytes([v - 27])
    if expected_error(msg_hash, sig) is not None:
        return b""
    public_key = coincurve_public_key(msg_hash, sig)
    assert public_key is not None
    return bytes(12) + address_of_key(public_key)
