"""Type stubs of the Rust extension module asmcrypto._asmcrypto (python/src/lib.rs)."""

from collections.abc import Sequence
from typing import Final, Literal

from typing_extensions import Buffer

__all__ = [
    "Error",
    "InvalidRecoveryId",
    "InvalidR",
    "InvalidS",
    "KeyCoordinateOutOfRange",
    "KeyNotOnCurve",
    "Mismatch",
    "NotOnCurve",
    "PointAtInfinity",
    "__version__",
    "_p256_verify_batch",
    "_recover_addresses",
    "backend",
    "backend_details",
    "ecrecover_precompile",
    "keccak256",
    "p256_verify",
    "p256verify_precompile",
    "recover_address",
    "recover_public_key",
]
__version__: Final[str]

class Error(ValueError):
    """A signature that cannot be recovered or verified (the base class of asmcrypto's
    errors)."""

class InvalidRecoveryId(Error):
    """The recovery id v is not 0, 1, 27 or 28."""

    v: int
    """The byte given as v."""

class InvalidR(Error):
    """The signature's r is zero or not below the group order n (secp256k1's in recovery,
    P-256's in p256_verify)."""

class InvalidS(Error):
    """The signature's s is zero or not below the group order n (secp256k1's in recovery,
    P-256's in p256_verify)."""

class NotOnCurve(Error):
    """The signature's r is not the x-coordinate of a point on secp256k1."""

class PointAtInfinity(Error):
    """The recovered public key would be the point at infinity."""

class KeyCoordinateOutOfRange(Error):
    """A coordinate of the P-256 public key is not below the field prime p."""

class KeyNotOnCurve(Error):
    """The P-256 public key is not a point of the curve (this includes (0, 0))."""

class Mismatch(Error):
    """The P-256 signature is well formed but does not verify."""

def recover_address(msg_hash: Buffer, signature: Buffer) -> bytes:
    """The 20-byte address that signed ``msg_hash`` (32 bytes) with ``signature``
    (65 bytes: r ‖ s ‖ v, v in {0, 1, 27, 28})."""

def recover_public_key(msg_hash: Buffer, signature: Buffer) -> bytes:
    """The signer's public key as 64 bytes X ‖ Y (uncompressed, without the 0x04 prefix)."""

def ecrecover_precompile(data: Buffer) -> bytes:
    """The EVM's ecrecover precompile (0x01): 32 bytes, or b"" for any failure."""

def keccak256(data: Buffer) -> bytes:
    """The 32-byte Keccak-256 hash of ``data``, as Ethereum uses it."""

def _recover_addresses(
    msg_hashes: Buffer | Sequence[Buffer],
    signatures: Buffer | Sequence[Buffer],
    threads: int,
    writable: bool,
    /,
) -> tuple[bytes | bytearray, bytes | bytearray]: ...
def p256_verify(msg_hash: Buffer, signature: Buffer, public_key: Buffer) -> Literal[True]:
    """Verify a P-256 signature by EIP-7951's rules: ``msg_hash`` (32 bytes), ``signature``
    (64 bytes: r ‖ s), ``public_key`` (64 bytes: qx ‖ qy). Returns True, or raises the
    subclass of Error of the first check that failed."""

def p256verify_precompile(data: Buffer) -> bytes:
    """The EVM's P256VERIFY precompile (0x100): 32 bytes (31 zeros, then 1), or b"" for
    any failure; ``data`` must be exactly 160 bytes."""

def _p256_verify_batch(
    inputs: Buffer | Sequence[Buffer], threads: int, writable: bool, /
) -> bytes | bytearray: ...
def backend() -> str:
    """The batch path this CPU takes: "avx512-ifma", "avx512f" or "scalar"."""

def backend_details() -> str:
    """Every choice made from the CPU, as one line."""
