"""The eth-keys backend, directly and through eth-account: messages, signed transactions of
every type (0 to 4), the bundled raw transactions, EIP-7702 authorizations, eth-keys' own
backend-selection setting, the wrapped backend's forms (instance, class, dotted path) and
refusals, the import without eth-keys, and where eth-keys' key objects take their backend."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import coincurve
import pytest
from eth_account import Account
from eth_account.messages import encode_defunct
from eth_keys import KeyAPI
from eth_keys.backends import BaseECCBackend, CoinCurveECCBackend, NativeECCBackend
from eth_keys.datatypes import PrivateKey
from eth_keys.exceptions import BadSignature
from eth_utils import to_checksum_address

import asmcrypto
import asmcrypto.eth_keys
import oracle
from asmcrypto.eth_keys import AsmcryptoECCBackend

BACKEND_PATH = "asmcrypto.eth_keys.AsmcryptoECCBackend"
NATIVE_PATH = "eth_keys.backends.NativeECCBackend"
# What every refusal of the wrapped backend says is accepted.
ACCEPTED = "expected an eth-keys backend: an instance of a subclass of eth_keys.backends.BaseECCBackend"


@pytest.fixture
def recoveries(monkeypatch):
    """Counts the recoveries that reach asmcrypto through the backend."""
    calls = []
    real = asmcrypto.eth_keys.recover_public_key

    def counting(msg_hash, signature):
        calls.append(msg_hash)
        return real(msg_hash, signature)

    monkeypatch.setattr(asmcrypto.eth_keys, "recover_public_key", counting)
    return calls


@pytest.fixture
def account(monkeypatch):
    """eth-account's Account with this backend selected through eth-keys' setting, which
    eth-keys reads at each call. (`Account.set_key_backend` does not reach
    `recover_message` / `recover_transaction` in eth-account 0.14: they build their
    Signature objects with eth-keys' default backend.)"""
    monkeypatch.setenv("ECC_BACKEND_CLASS", BACKEND_PATH)
    return Account


def _keys(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["0x" + rng.randrange(1, oracle.N).to_bytes(32, "big").hex() for _ in range(count)]


def test_wraps_coincurve_by_default_or_what_it_is_given():
    assert type(AsmcryptoECCBackend().wrapped) is CoinCurveECCBackend
    assert type(AsmcryptoECCBackend(NativeECCBackend).wrapped) is NativeECCBackend
    native = NativeECCBackend()
    assert AsmcryptoECCBackend(native).wrapped is native
    assert type(AsmcryptoECCBackend(AsmcryptoECCBackend()).wrapped) is CoinCurveECCBackend


@pytest.mark.parametrize("wrapped", [CoinCurveECCBackend, NativeECCBackend])
def test_key_api(wrapped, recoveries):
    keys = KeyAPI(backend=AsmcryptoECCBackend(wrapped))
    rng = random.Random(1)
    for secret in _keys(2, 40 if wrapped is CoinCurveECCBackend else 8):
        private_key = keys.PrivateKey(bytes.fromhex(secret[2:]))
        msg_hash = rng.randbytes(32)
        signature = keys.ecdsa_sign(msg_hash, private_key)
        assert isinstance(signature.backend, AsmcryptoECCBackend)
        public_key = keys.ecdsa_recover(msg_hash, signature)
        assert public_key == private_key.public_key
        assert isinstance(public_key.backend, AsmcryptoECCBackend)
        assert keys.ecdsa_verify(msg_hash, signature, public_key)
        assert signature.recover_public_key_from_msg_hash(msg_hash) == public_key
        compressed = public_key.to_compressed_bytes()
        assert keys.PublicKey.from_compressed_bytes(compressed) == public_key
    # Two recoveries per key went through asmcrypto.
    assert len(recoveries) == 2 * (40 if wrapped is CoinCurveECCBackend else 8)


def test_recovery_against_coincurve_and_native_backends():
    ours = AsmcryptoECCBackend()
    coincurve_backend = CoinCurveECCBackend()
    native_backend = NativeECCBackend()
    from eth_keys.datatypes import Signature

    checked = 0
    for i, case in enumerate(oracle.seeded_cases(seed=5, count=600)):
        v = case.sig[64]
        r = int.from_bytes(case.sig[:32], "big")
        s = int.from_bytes(case.sig[32:64], "big")
        if v not in (0, 1, 27, 28) or r >= oracle.N or s >= oracle.N:
            continue  # eth-keys' Signature takes only v in {0, 1} and r, s below n
        signature = Signature(vrs=(v % 27 if v >= 27 else v, r, s))
        try:
            expected = coincurve_backend.ecdsa_recover(case.msg_hash, signature)
        except BadSignature:
            expected = None
        if case.error is None:
            assert expected is not None and expected.to_bytes() == case.public_key
            assert ours.ecdsa_recover(case.msg_hash, signature) == expected
        else:
            assert expected is None
            with pytest.raises(BadSignature) as info:
                ours.ecdsa_recover(case.msg_hash, signature)
            assert type(info.value.__cause__) is getattr(asmcrypto, case.error)
        if i % 6 == 0 and r < oracle.N and s < oracle.N and 0 < r and 0 < s:
            try:
                native = native_backend.ecdsa_recover(case.msg_hash, signature)
            except BadSignature:
                native = None
            assert native == expected, case
        checked += 1
    assert checked > 350


def test_bad_hash_is_a_bad_signature():
    from eth_keys.datatypes import Signature

    signature = Signature(vrs=(0, 1, 1))
    with pytest.raises(BadSignature, match="msg_hash: expected 32 bytes, got 31"):
        AsmcryptoECCBackend().ecdsa_recover(bytes(31), signature)


def test_recover_message(account, recoveries):
    for i, key in enumerate(_keys(3, 60)):
        address = account.from_key(key).address
        message = encode_defunct(text=f"asmcrypto message {i}")
        signed = account.sign_message(message, key)
        assert account.recover_message(message, signature=signed.signature) == address
        assert account.recover_message(message, vrs=(signed.v, signed.r, signed.s)) == address
        other = encode_defunct(text=f"another message {i}")
        assert account.recover_message(other, signature=signed.signature) != address
    assert len(recoveries) == 180


def _transactions(key: str, address: str, i: int) -> dict[int, dict]:
    rng = random.Random(i)
    to = to_checksum_address(rng.randbytes(20))
    common = {"nonce": i, "to": to, "value": rng.randrange(10**18), "gas": 100_000, "data": rng.randbytes(rng.randrange(40))}
    fees = {"maxFeePerGas": 3 * 10**9, "maxPriorityFeePerGas": 10**9}
    access = [{"address": to, "storageKeys": ["0x" + rng.randbytes(32).hex()]}]
    authorization = Account.sign_authorization(
        {"chainId": 1, "address": "0x" + rng.randbytes(20).hex(), "nonce": i + 1}, key
    )
    return {
        0: {**common, "gasPrice": 10**9, **({"chainId": 1} if i % 2 else {})},
        1: {**common, "type": 1, "gasPrice": 10**9, "chainId": 1, "accessList": access},
        2: {**common, "type": 2, **fees, "chainId": 1, "accessList": access},
        3: {
            **common, "type": 3, **fees, "chainId": 1, "accessList": [],
            "maxFeePerBlobGas": 10**9,
            "blobVersionedHashes": ["0x01" + rng.randbytes(31).hex()],
        },
        4: {**common, "type": 4, **fees, "chainId": 1, "accessList": [], "authorizationList": [authorization]},
    }


def test_recover_signed_transactions_of_every_type(account, recoveries):
    for i, key in enumerate(_keys(4, 12)):
        address = account.from_key(key).address
        for tx_type, tx in _transactions(key, address, i).items():
            signed = account.sign_transaction(tx, key)
            raw = bytes(signed.raw_transaction)
            assert (raw[0] == tx_type) if tx_type else raw[0] >= 0xC0
            assert account.recover_transaction(raw) == address, tx_type
            assert account.recover_transaction("0x" + raw.hex()) == address
            if tx_type == 4:
                # The authorization's authority is recovered through eth-keys too.
                assert tx["authorizationList"][0].authority == bytes.fromhex(address[2:])
    # One recovery per transaction and form, and the authorizations'.
    assert len(recoveries) == 12 * (5 * 2 + 1)


def test_recover_bundled_raw_transactions(account, recoveries):
    txs = oracle.load_jsonl("raw_txs.jsonl")
    assert len(txs) == 300
    types = {}
    for tx in txs:
        sender = account.recover_transaction(bytes.fromhex(tx["raw"]))
        assert sender.lower() == "0x" + tx["sender"], tx["test"]
        types[tx["tx_type"]] = types.get(tx["tx_type"], 0) + 1
    assert types == {0: 196, 1: 20, 2: 53, 3: 30, 4: 1}
    assert len(recoveries) == 300


def test_backend_selection_by_environment(tmp_path):
    # eth-keys reads ECC_BACKEND_CLASS at each call: eth-account's module-level Account and
    # a plain KeyAPI() then recover on asmcrypto with no change to their code.
    script = """
import json
import asmcrypto.eth_keys
from eth_account import Account
from eth_account.messages import encode_defunct
from eth_keys import KeyAPI
from eth_keys.backends import get_backend

real = asmcrypto.eth_keys.recover_public_key
calls = []
asmcrypto.eth_keys.recover_public_key = lambda h, s: calls.append(1) or real(h, s)

key = "0x" + "4c" * 32
signed = Account.sign_message(encode_defunct(text="env"), key)
recovered = Account.recover_message(encode_defunct(text="env"), signature=signed.signature)
tx = Account.sign_transaction(
    {"type": 2, "chainId": 1, "nonce": 0, "to": "0x" + "11" * 20, "value": 1, "gas": 21000,
     "maxFeePerGas": 2, "maxPriorityFeePerGas": 1}, key)
sender = Account.recover_transaction(tx.raw_transaction)
print(json.dumps({
    "backend": type(get_backend()).__module__ + "." + type(get_backend()).__name__,
    "key_api": type(KeyAPI().backend).__name__,
    "ok": recovered == sender == Account.from_key(key).address,
    "calls": len(calls),
}))
"""
    env = dict(os.environ, ECC_BACKEND_CLASS=BACKEND_PATH)
    # (In an empty folder: `python -c` puts the working folder first on sys.path.)
    out = subprocess.run(
        [sys.executable, "-c", script],
        env=env, cwd=tmp_path, capture_output=True, text=True, check=True,
    )
    result = json.loads(out.stdout)
    assert result == {"backend": BACKEND_PATH, "key_api": "AsmcryptoECCBackend", "ok": True, "calls": 2}


def test_backend_by_dotted_path():
    keys = KeyAPI(backend=BACKEND_PATH)
    assert isinstance(keys.backend, AsmcryptoECCBackend)


def test_scalar_backend_setting(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", "import asmcrypto; print(asmcrypto.backend())"],
        env=dict(os.environ, ASMCRYPTO_BACKEND="scalar"),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "scalar"


@pytest.mark.parametrize(
    "wrapped", [NATIVE_PATH, "eth_keys.backends.native.main.NativeECCBackend", NativeECCBackend]
)
def test_wrapped_by_dotted_path_or_class_signs_as_the_native_backend(wrapped, recoveries):
    # The dotted path is imported and instantiated as eth-keys does with its own backend
    # argument; then signing is eth-keys' native backend's (and libsecp256k1's: both sign
    # with RFC 6979 nonces), recovery asmcrypto's, equal to coincurve's.
    ours = AsmcryptoECCBackend(wrapped)
    assert type(ours.wrapped) is NativeECCBackend
    native = NativeECCBackend()
    keys = KeyAPI(backend=ours)
    rng = random.Random(6)
    secrets = _keys(7, 6)
    for secret in secrets:
        secret_bytes = bytes.fromhex(secret[2:])
        msg_hash = rng.randbytes(32)
        private_key = PrivateKey(secret_bytes, backend=ours)
        signature = keys.ecdsa_sign(msg_hash, private_key)
        assert signature.backend is ours
        expected = native.ecdsa_sign(msg_hash, private_key)
        compact = coincurve.PrivateKey(secret_bytes).sign_recoverable(msg_hash, hasher=None)
        assert signature.to_bytes() == expected.to_bytes() == compact
        non_recoverable = keys.ecdsa_sign_non_recoverable(msg_hash, private_key)
        assert non_recoverable.to_bytes() == compact[:64]
        public_key = keys.ecdsa_recover(msg_hash, signature)
        assert public_key.to_bytes() == oracle.coincurve_public_key(msg_hash, compact)
        assert public_key == native.ecdsa_recover(msg_hash, expected) == private_key.public_key
        assert keys.ecdsa_verify(msg_hash, signature, public_key)
        assert keys.ecdsa_verify(msg_hash, non_recoverable, public_key)
    assert len(recoveries) == len(secrets)


def test_wrapped_forms():
    # A class is instantiated, each time; an instance is kept; an asmcrypto backend, in any
    # form, stands for the backend it wraps (one level of wrapping, never a chain).
    first, second = AsmcryptoECCBackend(NativeECCBackend), AsmcryptoECCBackend(NativeECCBackend)
    assert first.wrapped is not second.wrapped
    assert type(AsmcryptoECCBackend("eth_keys.backends.CoinCurveECCBackend").wrapped) is CoinCurveECCBackend
    native = NativeECCBackend()
    assert AsmcryptoECCBackend(AsmcryptoECCBackend(native)).wrapped is native
    for form in (BACKEND_PATH, AsmcryptoECCBackend, AsmcryptoECCBackend()):
        assert type(AsmcryptoECCBackend(form).wrapped) is CoinCurveECCBackend


class _NotABackend:
    """Has a backend's methods, but is no eth_keys BaseECCBackend (eth-keys refuses it too)."""

    def ecdsa_sign(self, msg_hash, private_key):
        raise AssertionError("never called")


def _case_id(value: object) -> str:
    if isinstance(value, type):
        return value.__qualname__
    if isinstance(value, (str, bytes, int)):
        return repr(value)
    return f"{type(value).__qualname__}()"


NOT_BACKENDS = [
    (42, TypeError, "wrapped: got an object of type builtins.int; "),
    (
        NATIVE_PATH.encode(),
        TypeError,
        "wrapped: got an object of type builtins.bytes; ",
    ),
    (
        _NotABackend(),
        TypeError,
        f"wrapped: got an object of type {__name__}._NotABackend; ",
    ),
    (
        _NotABackend,
        TypeError,
        f"wrapped: got the class {__name__}._NotABackend, not an eth-keys backend class; ",
    ),
    (
        PrivateKey,
        TypeError,
        "wrapped: got the class eth_keys.datatypes.PrivateKey, not an eth-keys backend class; ",
    ),
    (BaseECCBackend, TypeError, "wrapped: eth_keys.backends.BaseECCBackend itself is the interface"),
    (BaseECCBackend(), TypeError, "wrapped: eth_keys.backends.BaseECCBackend itself is the interface"),
    ("NativeECCBackend", ImportError, "wrapped: 'NativeECCBackend' is not a dotted import path; "),
    ("", ImportError, "wrapped: '' is not a dotted import path; "),
    (
        ".backends.NativeECCBackend",
        ImportError,
        "wrapped: '.backends.NativeECCBackend' is not a dotted import path; ",
    ),
    (
        "eth_keys.backends.NativeECCBackend()",
        ImportError,
        "wrapped: 'eth_keys.backends.NativeECCBackend()' is not a dotted import path; ",
    ),
    (
        "eth_keys.backends.NoSuchBackend",
        ImportError,
        "wrapped: cannot import 'eth_keys.backends.NoSuchBackend' (Module \"eth_keys.backends\" "
        'does not define a "NoSuchBackend" attribute/class); ',
    ),
    (
        "no_such_module_for_asmcrypto.Backend",
        ImportError,
        "wrapped: cannot import 'no_such_module_for_asmcrypto.Backend' "
        "(No module named 'no_such_module_for_asmcrypto'); ",
    ),
    (
        "eth_keys.backends.get_backend",
        TypeError,
        "wrapped: 'eth_keys.backends.get_backend' is an object of type builtins.function, "
        "not an eth-keys backend class; ",
    ),
    (
        "eth_keys.datatypes.PrivateKey",
        TypeError,
        "wrapped: 'eth_keys.datatypes.PrivateKey' is the class eth_keys.datatypes.PrivateKey, "
        "not an eth-keys backend class; ",
    ),
]


@pytest.mark.parametrize(
    "wrapped, error, message", NOT_BACKENDS, ids=[_case_id(w) for w, _, _ in NOT_BACKENDS]
)
def test_not_a_backend_is_refused_at_construction(wrapped, error, message):
    with pytest.raises(error) as info:
        AsmcryptoECCBackend(wrapped)
    assert type(info.value) is error
    assert str(info.value).startswith(message), str(info.value)
    assert ACCEPTED in str(info.value)
    assert "dotted import path of such a class as a str" in str(info.value)


def test_unimportable_path_keeps_the_import_error():
    with pytest.raises(ImportError) as info:
        AsmcryptoECCBackend("no_such_module_for_asmcrypto.Backend")
    assert info.value.name == "no_such_module_for_asmcrypto"
    assert type(info.value.__cause__) is ModuleNotFoundError


def test_path_to_a_callable_is_not_called(monkeypatch):
    # A path names a backend class; nothing else it names is run.
    calls = []
    monkeypatch.setattr(os, "getpid", lambda: calls.append(1) or 0)
    with pytest.raises(TypeError, match=re.escape("wrapped: 'os.getpid' is an object of type")):
        AsmcryptoECCBackend("os.getpid")
    assert calls == []


def test_backend_that_wraps_itself_is_refused():
    looped = AsmcryptoECCBackend()
    looped.wrapped = looped
    with pytest.raises(ValueError) as info:
        AsmcryptoECCBackend(looped)
    assert str(info.value).startswith(
        "wrapped: an AsmcryptoECCBackend that wraps itself (its wrapped backend leads back to it); "
    )
    assert ACCEPTED in str(info.value)
    # Two that wrap each other, likewise; and one whose wrapped backend is no backend.
    a, b = AsmcryptoECCBackend(), AsmcryptoECCBackend()
    a.wrapped, b.wrapped = b, a
    with pytest.raises(ValueError, match="wraps itself"):
        AsmcryptoECCBackend(a)
    broken = AsmcryptoECCBackend()
    broken.wrapped = "eth_keys.backends.NativeECCBackend"
    with pytest.raises(
        TypeError,
        match=re.escape(
            "wrapped: an AsmcryptoECCBackend whose own wrapped backend is an object of type "
            "builtins.str; "
        ),
    ):
        AsmcryptoECCBackend(broken)


_IMPORT = """
import json
import sys

{prelude}
import asmcrypto  # the package itself needs no eth-keys

try:
    import asmcrypto.eth_keys
except ImportError as exc:
    print(json.dumps({{
        "type": type(exc).__name__,
        "name": exc.name,
        "message": str(exc),
        "cause": type(exc.__cause__).__name__,
        "cause_name": getattr(exc.__cause__, "name", None),
    }}))
"""

NO_ETH_KEYS = {
    "type": "ModuleNotFoundError",
    "name": "eth_keys",
    "message": "asmcrypto.eth_keys is a backend for eth-keys, which is not installed: "
    "pip install eth-keys (or asmcrypto with its extra, asmcrypto[eth-keys]; "
    'from a checkout: pip install "./python[eth-keys]")',
    "cause": "ModuleNotFoundError",
}


def _import(prelude: str, cwd, *flags: str, env: dict | None = None) -> dict:
    # (In an empty folder: `python -c` puts the working folder first on sys.path.)
    out = subprocess.run(
        [sys.executable, *flags, "-c", _IMPORT.format(prelude=prelude)],
        cwd=cwd, env=env, capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout)


def test_import_without_eth_keys_says_what_to_install(tmp_path):
    # eth-keys not on the path at all: without site-packages (-S), with only the installed
    # asmcrypto package on PYTHONPATH.
    only = tmp_path / "only-asmcrypto"
    only.mkdir()
    (only / "asmcrypto").symlink_to(Path(asmcrypto.__file__).parent, target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(only)
    result = _import("", tmp_path, "-S", env=env)
    assert result == {**NO_ETH_KEYS, "cause_name": "eth_keys"}
    # eth_keys made unimportable in an environment that has it.
    result = _import("sys.modules['eth_keys'] = None", tmp_path)
    assert result == {**NO_ETH_KEYS, "cause_name": "eth_keys.backends"}
    # The extra that the message names is the package's, and installs eth-keys.
    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    extra = pyproject["project"]["optional-dependencies"]["eth-keys"]
    assert [r for r in extra if re.match(r"eth-keys\b", r)], extra


def test_import_with_a_dependency_of_eth_keys_missing_keeps_its_error(tmp_path):
    # eth-keys installed but a module it imports missing: that module's error, unchanged.
    result = _import("sys.modules['eth_utils'] = None", tmp_path)
    assert result["type"] == "ModuleNotFoundError"
    assert result["name"] == "eth_utils"
    assert "eth_utils" in result["message"] and "pip install" not in result["message"]


def test_key_objects_take_their_backend_from_eth_keys_not_from_key_api(monkeypatch, recoveries):
    # python/README.md: KeyAPI(backend=...) serves the KeyAPI's own methods; its PrivateKey,
    # PublicKey and Signature are eth-keys' classes, which take ECC_BACKEND_CLASS (else
    # eth-keys' default) unless given backend= (eth-keys 0.8).
    monkeypatch.delenv("ECC_BACKEND_CLASS", raising=False)
    keys = KeyAPI(backend=AsmcryptoECCBackend())
    secret, msg_hash = b"\x4c" * 32, bytes(range(32))
    assert keys.PrivateKey is PrivateKey
    private_key = keys.PrivateKey(secret)
    assert type(private_key.backend) is CoinCurveECCBackend
    signature = private_key.sign_msg_hash(msg_hash)
    assert signature.recover_public_key_from_msg_hash(msg_hash) == private_key.public_key
    assert recoveries == []  # recovered on coincurve
    # The ways onto asmcrypto: backend= on the key object, or ECC_BACKEND_CLASS.
    private_key = PrivateKey(secret, backend=AsmcryptoECCBackend())
    signature = private_key.sign_msg_hash(msg_hash)
    assert signature.recover_public_key_from_msg_hash(msg_hash) == private_key.public_key
    assert len(recoveries) == 1
    monkeypatch.setenv("ECC_BACKEND_CLASS", BACKEND_PATH)
    private_key = keys.PrivateKey(secret)
    assert isinstance(private_key.backend, AsmcryptoECCBackend)
    signature = private_key.sign_msg_hash(msg_hash)
    assert signature.recover_public_key_from_msg_hash(msg_hash) == private_key.public_key
    assert len(recoveries) == 2
