"""Fast Ethereum signature recovery: secp256k1 ecrecover and Keccak-256, in Rust; and
P-256 (secp256r1) ECDSA verification by the rules of the EVM's P256VERIFY (EIP-7951).

Every function takes bytes-like objects (``bytes``, ``bytearray``, ``memoryview``, numpy
``uint8`` arrays) and returns ``bytes``. Signatures are 65 bytes ``r ‖ s ‖ v`` with
``v`` in {0, 1, 27, 28}; hashes are 32 bytes.

- :func:`recover_address`, :func:`recover_public_key`: one signature.
- :func:`recover_addresses`: a whole batch in one call, with the GIL released.
- :func:`ecrecover_precompile`: the EVM's precompile at address 0x01, byte for byte.
- :func:`keccak256`: Ethereum's Keccak-256.
- :func:`p256_verify`, :func:`p256verify_precompile`, :func:`p256_verify_batch`: P-256
  signatures, one or a whole batch, by EIP-7951's rules.
- :func:`backend`, :func:`backend_details`: the paths this CPU takes.
- :mod:`asmcrypto.eth_keys`: an eth-keys backend, so that eth-account and web3.py
  recover on asmcrypto.

A signature that cannot be recovered raises a subclass of :class:`Error` (itself a
``ValueError``): :class:`InvalidRecoveryId`, :class:`InvalidR`, :class:`InvalidS`,
:class:`NotOnCurve`, :class:`PointAtInfinity`; a P-256 signature that does not verify
:class:`InvalidR`, :class:`InvalidS`, :class:`KeyCoordinateOutOfRange`,
:class:`KeyNotOnCurve` or :class:`Mismatch`. An input of the wrong length raises
``ValueError``, one of the wrong type ``TypeError``. High s (s > n/2) is accepted: the
low-s rule belongs to transaction validation, not to recovery.

Recovery and verification are variable-time: they handle public data only.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, overload

from ._asmcrypto import (
    Error,
    InvalidR,
    InvalidRecoveryId,
    InvalidS,
    KeyCoordinateOutOfRange,
    KeyNotOnCurve,
    Mismatch,
    NotOnCurve,
    PointAtInfinity,
    __version__,
    _p256_verify_batch,
    _recover_addresses,
    backend,
    backend_details,
    ecrecover_precompile,
    keccak256,
    p256_verify,
    p256verify_precompile,
    recover_address,
    recover_public_key,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np
    import numpy.typing as npt
    from typing_extensions import Buffer

    _Batch = Buffer | Sequence[Buffer]

__all__ = [
    "Error",
    "InvalidR",
    "InvalidRecoveryId",
    "InvalidS",
    "KeyCoordinateOutOfRange",
    "KeyNotOnCurve",
    "Mismatch",
    "NotOnCurve",
    "PointAtInfinity",
    "__version__",
    "backend",
    "backend_details",
    "ecrecover_precompile",
    "keccak256",
    "p256_verify",
    "p256_verify_batch",
    "p256verify_precompile",
    "recover_address",
    "recover_addresses",
    "recover_public_key",
]


def _is_ndarray(obj: object) -> bool:
    # An ndarray exists only once numpy is imported: no import here.
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(obj, numpy.ndarray)


# numpy in, numpy out. From Python 3.12 an ndarray is a Buffer too, so these overlap the
# last one: the first that matches is the one that applies, as intended.
@overload
def recover_addresses(  # type: ignore[overload-overlap, unused-ignore]
    msg_hashes: npt.NDArray[np.uint8], signatures: _Batch, *, threads: int = 1
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]: ...
@overload
def recover_addresses(  # type: ignore[overload-overlap, unused-ignore]
    msg_hashes: _Batch, signatures: npt.NDArray[np.uint8], *, threads: int = 1
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]: ...
@overload
def recover_addresses(
    msg_hashes: _Batch, signatures: _Batch, *, threads: int = 1
) -> tuple[bytes, bytes]: ...
def recover_addresses(msg_hashes, signatures, *, threads=1):  # type: ignore[no-untyped-def]
    """Recover the addresses of a whole batch of signatures in one call.

    ``msg_hashes`` holds n hashes of 32 bytes and ``signatures`` n signatures of 65 bytes
    (r ‖ s ‖ v, v in {0, 1, 27, 28}), each side in either form:

    - one C-contiguous buffer of unsigned bytes holding the items back to back: ``bytes``,
      ``bytearray``, ``memoryview``, a numpy ``uint8`` array of shape (n, 32) / (n, 65) or
      a flat one of n × 32 / n × 65 bytes;
    - a list or tuple of bytes-like items.

    The inputs are copied once into one block (no Python object per item), then
    recovered with the GIL released.

    Returns ``(addresses, valid)``: ``addresses`` holds 20 bytes per signature, in input
    order (zeros where recovery failed), and ``valid`` one flag per signature (true where
    it recovered). With a numpy array among the inputs both are numpy arrays,
    ``uint8`` of shape (n, 20) and ``bool`` of shape (n,); otherwise both are ``bytes``,
    of 20 × n and n bytes (``valid[i]`` is 1 or 0). Each result is exactly what
    :func:`recover_address` gives for that signature; to learn why one failed, call
    :func:`recover_address` on it.

    ``threads``: 1 (the default) recovers on the calling thread; k > 1 splits the batch
    over k threads started for the call (the calling one among them), each taking at
    least 256 signatures; 0 takes one thread per CPU.

    Raises ``ValueError`` when the two sides differ in count, an item has the wrong
    length, a buffer is not a whole number of items or not C-contiguous; ``TypeError``
    for an input that is neither a buffer of unsigned bytes nor a list or tuple of
    bytes-like items.
    """
    as_numpy = _is_ndarray(msg_hashes) or _is_ndarray(signatures)
    addresses, valid = _recover_addresses(msg_hashes, signatures, threads, as_numpy)
    if as_numpy:
        import numpy

        return (
            numpy.frombuffer(addresses, dtype=numpy.uint8).reshape(-1, 20),
            numpy.frombuffer(valid, dtype=numpy.bool_),
        )
    return addresses, valid


@overload
def p256_verify_batch(  # type: ignore[overload-overlap, unused-ignore]
    inputs: npt.NDArray[np.uint8], *, threads: int = 1
) -> npt.NDArray[np.bool_]: ...
@overload
def p256_verify_batch(inputs: _Batch, *, threads: int = 1) -> bytes: ...
def p256_verify_batch(inputs, *, threads=1):  # type: ignore[no-untyped-def]
    """Verify a whole batch of P-256 signatures (EIP-7951's P256VERIFY inputs) in one call.

    ``inputs`` holds n inputs of 160 bytes each, hash ‖ r ‖ s ‖ qx ‖ qy (what
    :func:`p256verify_precompile` takes), in either form:

    - one C-contiguous buffer of unsigned bytes holding the inputs back to back:
      ``bytes``, ``bytearray``, ``memoryview``, a numpy ``uint8`` array of shape (n, 160)
      or a flat one of n × 160 bytes;
    - a list or tuple of bytes-like items of 160 bytes.

    The inputs are copied once into one block (no Python object per item), then verified
    with the GIL released, sharing the modular inversions across the batch.

    Returns one flag per input, in input order, true where the signature is valid: with a
    numpy array as input a numpy ``bool`` array of shape (n,), otherwise ``bytes`` of n
    bytes (``valid[i]`` is 1 or 0). Each flag is exactly whether
    :func:`p256verify_precompile` returns the success word for that input; to learn why
    one failed, call :func:`p256_verify` on its parts.

    ``threads``: as for :func:`recover_addresses`: 1 (the default) verifies on the calling
    thread; k > 1 splits the batch over k threads started for the call (the calling one
    among them), each taking at least 256 inputs; 0 takes one thread per CPU.

    Raises ``ValueError`` when an item is not 160 bytes, a buffer is not a whole number of
    160-byte inputs or not C-contiguous; ``TypeError`` for an input that is neither a
    buffer of unsigned bytes nor a list or tuple of bytes-like items.
    """
    as_numpy = _is_ndarray(inputs)
    valid = _p256_verify_batch(inputs, threads, as_numpy)
    if as_numpy:
        import numpy

        return numpy.frombuffer(valid, dtype=numpy.bool_)
    return valid
