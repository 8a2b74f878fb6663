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

That reaches ``keys.ecdsa_sign``, ``keys.ecdsa_recover`` and the other methods of ``keys``,
not the key objects: ``keys.PrivateKey(...)`` is eth-keys' ``PrivateKey`` class, which
takes eth-keys' default backend (``ECC_BACKEND_CLASS``) unless given one, as in
``PrivateKey(secret, backend=AsmcryptoECCBackend())``.

A signature that cannot be recovered raises ``eth_keys.exceptions.BadSignature`` (as
the coincurve backend does), chained to asmcrypto's own exception, which says why.
"""

from __future__ import annotations

try:
    from eth_keys.backends.base import BaseECCBackend
    from eth_keys.datatypes import (
        BaseSignature,
        NonRecoverableSignature,
        PrivateKey,
        PublicKey,
        Signature,
    )
    from eth_keys.exceptions import BadSignature
    from eth_keys.utils.module_loading import import_string
except ModuleNotFoundError as exc:
    # eth-keys itself missing (not a module that an installed eth-keys fails to find,
    # whose own message is the right one): say what to install.
    if (exc.name or "").partition(".")[0] != "eth_keys":
        raise
    raise ModuleNotFoundError(
        "asmcrypto.eth_keys is a backend for eth-keys, which is not installed: "
        "pip install eth-keys (or asmcrypto with its extra, asmcrypto[eth-keys]; "
        'from a checkout: pip install "./python[eth-keys]")',
        name="eth_keys",
    ) from exc

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


_ACCEPTED = (
    "expected an eth-keys backend: an instance of a subclass of "
    "eth_keys.backends.BaseECCBackend, such a class, or the dotted import path of such a "
    "class as a str (e.g. 'eth_keys.backends.NativeECCBackend'), or None for the default"
)


def _resolve_wrapped(wrapped: object) -> BaseECCBackend:
    """The backend instance that ``wrapped`` stands for, resolved as eth-keys resolves its
    own backend argument (``KeyAPI(backend=...)``, ``ECC_BACKEND_CLASS``): a dotted path
    is imported with eth-keys' ``import_string``, a class instantiated. Anything that does
    not lead to a backend instance raises here, naming the argument."""
    if isinstance(wrapped, str):
        path = wrapped
        # eth-keys' import_string takes "module.attribute"; a relative or otherwise
        # malformed path would fail inside importlib with a message that names neither.
        if len(path.split(".")) < 2 or not all(part.isidentifier() for part in path.split(".")):
            raise ImportError(f"wrapped: {path!r} is not a dotted import path; {_ACCEPTED}")
        try:
            wrapped = import_string(path)
        except ImportError as exc:
            raise ImportError(
                f"wrapped: cannot import {path!r} ({exc}); {_ACCEPTED}", name=exc.name
            ) from exc
        if not (isinstance(wrapped, type) and issubclass(wrapped, BaseECCBackend)):
            # Not called: a path names a backend class, nothing else is run.
            raise TypeError(
                f"wrapped: {path!r} is {_describe(wrapped)}, not an eth-keys backend class; "
                f"{_ACCEPTED}"
            )
    if isinstance(wrapped, type):
        if not issubclass(wrapped, BaseECCBackend):
            raise TypeError(
                f"wrapped: got {_describe(wrapped)}, not an eth-keys backend class; {_ACCEPTED}"
            )
        wrapped = wrapped()
    if not isinstance(wrapped, BaseECCBackend):
        raise TypeError(f"wrapped: got {_describe(wrapped)}; {_ACCEPTED}")
    # An asmcrypto backend stands for the one it wraps: one level of wrapping, never a
    # chain, so that signing reaches a backend that signs.
    seen: list[AsmcryptoECCBackend] = []
    while isinstance(wrapped, AsmcryptoECCBackend):
        if any(wrapped is other for other in seen):
            raise ValueError(
                "wrapped: an AsmcryptoECCBackend that wraps itself (its wrapped backend "
                f"leads back to it); {_ACCEPTED}"
            )
        seen.append(wrapped)
        inner = getattr(wrapped, "wrapped", None)
        if not isinstance(inner, BaseECCBackend):
            raise TypeError(
                f"wrapped: an AsmcryptoECCBackend whose own wrapped backend is "
                f"{_describe(inner)}; {_ACCEPTED}"
            )
        wrapped = inner
    if type(wrapped) is BaseECCBackend:
        raise TypeError(
            "wrapped: eth_keys.backends.BaseECCBackend itself is the interface, which "
            f"implements nothing; {_ACCEPTED}"
        )
    return wrapped


def _describe(value: object) -> str:
    if isinstance(value, type):
        return f"the class {value.__module__}.{value.__qualname__}"
    return f"an object of type {type(value).__module__}.{type(value).__qualname__}"


class AsmcryptoECCBackend(BaseECCBackend):
    """eth-keys backend: recovery on asmcrypto, everything else on ``wrapped``.

    ``wrapped`` is taken as eth-keys takes a backend: an instance, a class (instantiated
    here) or the dotted import path of a class as a str (imported and instantiated here,
    e.g. ``"eth_keys.backends.NativeECCBackend"``). By default it is coincurve's backend
    when coincurve is installed, else eth-keys' native one; an ``AsmcryptoECCBackend``
    given stands for the backend it wraps. Anything else raises here (``TypeError`` for
    what is not a backend, ``ImportError`` for a path that does not import,
    ``ValueError`` for an ``AsmcryptoECCBackend`` that wraps itself), not at the first
    signature.

    The keys and signatures this backend hands out (from signing and key conversion)
    carry this backend, so that their own recovery calls come back here.
    """

    wrapped: BaseECCBackend

    def __init__(
        self, wrapped: BaseECCBackend | type[BaseECCBackend] | str | None = None
    ) -> None:
        self.wrapped = _default_wrapped() if wrapped is None else _resolve_wrapped(wrapped)
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
