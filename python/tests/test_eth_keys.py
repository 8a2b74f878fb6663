"""The eth-keys backend, directly and through eth-account: messages, signed transactions of
every type (0 to 4), the bundled raw transactions, EIP-7702 authorizations, and eth-keys'
own backend-selection setting."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest
from eth_account import Account
from eth_account.messages import encode_defunct
from eth_keys import KeyAPI
from eth_keys.backends import CoinCurveECCBackend, NativeECCBackend
from eth_keys.exceptions import BadSignature
from eth_utils import to_checksum_address

import asmcrypto
import asmcrypto.eth_keys
import oracle
from asmcrypto.eth_keys import AsmcryptoECCBackend

BACKEND_PATH = "asmcrypto.eth_keys.AsmcryptoECCBackend"


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
