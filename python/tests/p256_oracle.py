"""Support of the P-256 tests (tests/test_p256.py): the seeded cases, the oracle and the
bundled vectors.

The oracle is independent of asmcrypto: the `cryptography` package (OpenSSL) verifies
ECDSA P-256 signatures over a prehashed SHA-256 digest, behind a model of EIP-7951's range
checks written here from the curve's definition (r and s in [1, n-1], qx and qy below p:
OpenSSL's own checks are not specified to be these, so the model decides them and OpenSSL
the rest). The key check is OpenSSL's: a point that is not on the curve cannot be made into
a public key. Signatures are made with `cryptography` too, deterministically (RFC 6979), so
that a seed gives the same cases on every run. Nothing here calls asmcrypto.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import (
    Prehashed,
    decode_dss_signature,
    encode_dss_signature,
)

import oracle

# P-256: the field prime, the group order, the curve's b (a = -3).
P = 2**256 - 2**224 + 2**192 + 2**96 - 1
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B

# The precompile's output for a valid signature: 31 zero bytes, then 1.
SUCCESS = bytes(31) + b"\x01"

_PREHASHED = ec.ECDSA(Prehashed(hashes.SHA256()))
_DETERMINISTIC = ec.ECDSA(Prehashed(hashes.SHA256()), deterministic_signing=True)


def be32(value: int) -> bytes:
    return value.to_bytes(32, "big")


def on_curve(x: int, y: int) -> bool:
    """Whether (x, y), both below p, satisfies y² = x³ - 3x + b."""
    return (y * y - (x * x * x - 3 * x + B)) % P == 0


def expected_error(data: bytes) -> str | None:
    """The oracle's verdict on a 160-byte input hash ‖ r ‖ s ‖ qx ‖ qy: the name of the
    exception p256_verify must raise (the first of EIP-7951's checks that fails), or None
    where the signature is valid."""
    assert len(data) == 160
    msg_hash = data[:32]
    r, s, x, y = (int.from_bytes(data[i : i + 32], "big") for i in (32, 64, 96, 128))
    if not 0 < r < N:
        return "InvalidR"
    if not 0 < s < N:
        return "InvalidS"
    if x >= P or y >= P:
        return "KeyCoordinateOutOfRange"
    try:
        key = ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
    except ValueError:
        # OpenSSL refuses the point; the curve's equation must say the same.
        assert not on_curve(x, y) or (x, y) == (0, 0)
        return "KeyNotOnCurve"
    assert on_curve(x, y)
    try:
        key.verify(encode_dss_signature(r, s), msg_hash, _PREHASHED)
    except InvalidSignature:
        return "Mismatch"
    return None


@dataclass(frozen=True)
class Case:
    """One seeded P256VERIFY input (160 bytes), what it must give, and how it was made."""

    kind: str
    data: bytes
    error: str | None  # the exception's name where verification must fail

    @property
    def parts(self) -> tuple[bytes, bytes, bytes]:
        """(hash, r ‖ s, qx ‖ qy)."""
        return self.data[:32], self.data[32:96], self.data[96:]


def _key(rng: random.Random) -> tuple[ec.EllipticCurvePrivateKey, int, int]:
    key = ec.derive_private_key(rng.randrange(1, N), ec.SECP256R1())
    numbers = key.public_key().public_numbers()
    return key, numbers.x, numbers.y


def _signed(rng: random.Random, msg_hash: bytes) -> tuple[int, int, int, int, int]:
    """A fresh key signs msg_hash (RFC 6979): (r, s, qx, qy, the secret)."""
    key, x, y = _key(rng)
    r, s = decode_dss_signature(key.sign(msg_hash, _DETERMINISTIC))
    return r, s, x, y, key.private_numbers().private_value


def _input(msg_hash: bytes, r: int, s: int, x: int, y: int) -> bytes:
    return msg_hash + be32(r) + be32(s) + be32(x) + be32(y)


KINDS = [
    "valid",
    "valid",
    "high_s",
    "hash_zero",
    "hash_at_least_n",
    "other_hash",
    "other_key",
    "bad_r",
    "bad_s",
    "coordinate_at_least_p",
    "off_curve",
    "key_zero",
    "infinity",
    "random_r_s",
    "random",
]


def seeded_cases(seed: int, count: int) -> list[Case]:
    """`count` seeded inputs of every kind in KINDS: valid signatures (low and high s, over
    random hashes, the zero hash and hashes ≥ n), the same with another hash or key, r or s
    zero or ≥ n, a key coordinate ≥ p, keys off the curve and (0, 0), R' at infinity, and
    random r ‖ s or random everything."""
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        msg_hash = rng.randbytes(32)
        if kind == "hash_zero":
            msg_hash = bytes(32)
        elif kind == "hash_at_least_n":
            msg_hash = be32(rng.randrange(N, 2**256))
        r, s, x, y, d = _signed(rng, msg_hash)
        if kind == "high_s":
            s = N - s if s <= N // 2 else s  # (r, n - s) verifies as (r, s) does
            assert s > N // 2
        elif kind == "other_hash":
            msg_hash = bytes([msg_hash[0] ^ (1 << rng.randrange(8))]) + msg_hash[1:]
        elif kind == "other_key":
            _, x, y = _key(rng)
        elif kind == "bad_r":
            r = rng.choice((0, N, N + 1, 2**256 - 1, rng.randrange(N, 2**256)))
            if rng.randrange(3) == 0:
                s = rng.choice((0, N))  # r is checked first
        elif kind == "bad_s":
            s = rng.choice((0, N, N + 1, 2**256 - 1, rng.randrange(N, 2**256)))
            if rng.randrange(3) == 0:
                x = P + rng.randrange(2**32)  # s is checked first
        elif kind == "coordinate_at_least_p":
            value = rng.choice((P, P + 1, 2**256 - 1, rng.randrange(P, 2**256)))
            if rng.randrange(2):
                x = value
            else:
                y = value
        elif kind == "off_curve":
            y ^= 1 << rng.randrange(256)
            if y >= P:
                y = rng.randrange(P)
        elif kind == "key_zero":
            x = y = 0
        elif kind == "infinity":
            # u1·G + u2·Q = s⁻¹·(h + r·d)·G is the point at infinity for h = -r·d mod n.
            msg_hash = be32(-r * d % N)
        elif kind == "random_r_s":
            r, s = rng.randrange(2**256), rng.randrange(2**256)
        elif kind == "random":
            data = rng.randbytes(160)
            cases.append(Case(kind, data, expected_error(data)))
            continue
        data = _input(msg_hash, r, s, x, y)
        error = expected_error(data)
        if kind in ("valid", "high_s", "hash_zero", "hash_at_least_n"):
            assert error is None, (kind, data.hex())
        elif kind in ("other_hash", "other_key", "infinity"):
            assert error == "Mismatch", (kind, data.hex(), error)
        elif kind == "off_curve":
            assert error == "KeyNotOnCurve", (kind, data.hex(), error)
        cases.append(Case(kind, data, error))
    return cases


def vectors() -> list[tuple[str, bytes, bytes]]:
    """The bundled published vectors of both P-256 files: (name, input, expected output)."""
    out = []
    for vec in oracle.load_jsonl("precompile_p256verify.jsonl"):
        out.append((vec["name"], bytes.fromhex(vec["input"]), bytes.fromhex(vec["expected"])))
    for vec in oracle.load_jsonl("wycheproof_p256_sha256.jsonl"):
        out.append(
            (
                f"wycheproof {vec['encoding']} {vec['tc_id']}",
                bytes.fromhex(vec["input"]),
                bytes.fromhex(vec["expected_precompile"]),
            )
        )
    return out
