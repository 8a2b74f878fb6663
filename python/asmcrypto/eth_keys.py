"""An eth-keys backend whose public-key recovery runs on asmcrypto.

eth-account (``Account.recover_message``, ``Account.recover_transaction``) and web3.py
recover signers through eth-keys, and eth-keys through a backend. With this one, every
``ecdsa_recover`` runs on asmcrypto; signing, verification and key conversion stay with
the backend it wraps (coincurve's when coincurve is installed, else eth-keys' native one).

Select it for the whole process through eth-keys' own setting, which eth-keys reads at
each call::

    ECC_BACKEND_CLASS=asmcrypto.eth_keys.AsmcryptoECCBackend

That is the setting that reaches eth-account's ``Account.recover_message`` and
``Account.recover_transaction``: they build their ``Signature`` objects with eth-keys'
default backend, so ``Account.set_key_backend`` does not change them (eth-account 0.14).
For eth-keys' own API, a backend can also be given directly::

    from eth_keys import KeyAPI
    keys = KeyAPI(backend="asmcrypto.eth_keys.AsmcryptoECCBackend")  # or an instance

A signature that cannot be recovered raises ``eth_keys.exceptions.BadSignature`` (as
the coincurve backend does), chained to asmcrypto's own exception, which says why.
"""

from __future__ import annotations

from eth_keys.backends.base import BaseECCBackend
from eth_keys.datatypes import (
    BaseSignature,
    NonRecoverableSignature,
    PrivateKey,
    PublicKey,
    Signature,
)
from eth_keys.exceptions import BadSignature

from ._asmcrypto import recover_public_key

__all__ = ["AsmcryptoECCBackend"]


_default: BaseECCBackend | None = None


def _default_wrapped() -> BaseECCBackend:
    # One shared instance (the backends keep no state): eth-keys makes a new backend for
    # every call when it is selected by ECC_BACKEND_CLASS.
    global _default
    if _default is None:
        from eth_keys.backends.coincurve import CoinCurveECCBackend, is_coincurve_available
        from eth_keys.backends.native.main import NativeECCBackend

        _default = CoinCurveECCBackend() if is_coincurve_available() else NativeECCBackend()
    return _default


class AsmcryptoECCBackend(BaseECCBackend):
    """eth-keys backend: recovery on asmcrypto, everything else on ``wrapped``.

    ``wrapped`` is a backend instance or class; by default coincurve's backend when
    coincurve is installed, else eth-keys' native one. The keys and signatures this
    backend hands out (from signing and key conversion) carry this backend, so that their
    own recovery calls come back here.
    """

    wrapped: BaseECCBackend

    def __init__(self, wrapped: BaseECCBackend | type[BaseECCBackend] | None = None) -> None:
        if wrapped is None:
            wrapped = _default_wrapped()
        elif isinstance(wrapped, type):
            wrapped = wrapped()
        if isinstance(wrapped, AsmcryptoECCBackend):
            wrapped = wrapped.wrapped
        self.wrapped = wrapped
        super().__init__()

    def __repr__(self) -> str:
        return f"AsmcryptoECCBackend(wrapped={type(self.wrapped).__name__}())"

    def ecdsa_recover(self, msg_hash: bytes, signature: Signature) -> PublicKey:
        try:
            public_key_bytes = recover_public_key(msg_hash, signature.to_bytes())
        except ValueError as err:
            # asmcrypto.Error (a ValueError) for the signature, ValueError for a hash of
            # the wrong length: both are a bad signature to eth-keys' callers.
            raise BadSignature(str(err)) from err
        return PublicKey(public_key_bytes, backend=self)

    def ecdsa_sign(self, msg_hash: bytes, private_key: PrivateKey) -> Signature:
        signature = self.wrapped.ecdsa_sign(msg_hash, private_key)
        signature.backend = self
        return signature

    def ecdsa_sign_non_recoverable(
        self, msg_hash: bytes, private_key: PrivateKey
    ) -> NonRecoverableSignature:
        signature = self.wrapped.ecdsa_sign_non_recoverable(msg_hash, private_key)
        signature.backend = self
        return signature

    def ecdsa_verify(
        self, msg_hash: bytes, signature: BaseSignature, public_key: PublicKey
    ) -> bool:
        return self.wrapped.ecdsa_verify(msg_hash, signature, public_key)

    def private_key_to_public_key(self, private_key: PrivateKey) -> PublicKey:
        public_key = self.wrapped.private_key_to_public_key(private_key)
        public_key.backend = self
        return public_key

    def decompress_public_key_bytes(self, compressed_public_key_bytes: bytes) -> bytes:
        return self.wrapped.decompress_public_key_bytes(compressed_public_key_bytes)

    def compress_public_key_bytes(self, uncompressed_public_key_bytes: bytes) -> bytes:
        return self.wrapped.compress_public_key_bytes(uncompressed_public_key_bytes)
