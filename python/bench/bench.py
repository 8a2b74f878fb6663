"""Signatures per second from Python: asmcrypto per call and batched, against coincurve per
call and eth-keys on coincurve, one thread, interleaved best-of rounds.

    python python/bench/bench.py [--count 10000] [--rounds 15]
    ASMCRYPTO_BACKEND=scalar python python/bench/bench.py      # the path without AVX-512

Every contestant turns the same `count` seeded (hash, signature) pairs into addresses;
all are first checked to give the same addresses. Each round then times one pass of
every contestant over all of them, in an order that rotates by one each round, and the
best round of each is kept (bursts of other load on a shared machine hit every contestant
alike, and the best round is the one least disturbed). Each pass is timed by the wall clock
and by the process's CPU time; ratios are to the coincurve loop in the same rounds.

Needs coincurve, eth-keys, numpy and pycryptodome (python/requirements-test.txt).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from importlib.metadata import version

import coincurve
import numpy as np
from Crypto.Hash import keccak as pycryptodome_keccak
from eth_keys import KeyAPI
from eth_keys.backends import CoinCurveECCBackend
from eth_keys.datatypes import Signature

import asmcrypto
from asmcrypto.eth_keys import AsmcryptoECCBackend

N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141


def keccak(data: bytes) -> bytes:
    return pycryptodome_keccak.new(digest_bits=256, data=data).digest()


def signatures(count: int, seed: int) -> tuple[list[bytes], list[bytes]]:
    """`count` signatures by as many seeded keys over random hashes: r ‖ s ‖ v, v ∈ {0, 1}."""
    rng = random.Random(seed)
    hashes, sigs = [], []
    while len(sigs) < count:
        key = coincurve.PrivateKey(rng.randrange(1, N).to_bytes(32, "big"))
        msg_hash = rng.randbytes(32)
        sig = key.sign_recoverable(msg_hash, hasher=None)
        if sig[64] < 2:
            hashes.append(msg_hash)
            sigs.append(sig)
    return hashes, sigs


def contestants(hashes: list[bytes], sigs: list[bytes]):
    """(name, threads, run, addresses) of each contestant: `run` is what is timed, and
    `addresses` turns its result into the list of addresses (for the check, not timed)."""
    hash_array = np.frombuffer(b"".join(hashes), dtype=np.uint8).reshape(-1, 32)
    sig_array = np.frombuffer(b"".join(sigs), dtype=np.uint8).reshape(-1, 65)
    pairs = list(zip(hashes, sigs))
    from_signature = coincurve.PublicKey.from_signature_and_message
    recover_address = asmcrypto.recover_address
    coincurve_keys = KeyAPI(backend=CoinCurveECCBackend())
    asmcrypto_keys = KeyAPI(backend=AsmcryptoECCBackend())

    def from_numpy(result):
        addresses, valid = result
        assert valid.all()
        return [row.tobytes() for row in addresses]

    def from_bytes(result):
        addresses, valid = result
        assert all(valid)
        return [addresses[i : i + 20] for i in range(0, len(addresses), 20)]

    def as_list(result):
        return result

    def per_call():
        return [recover_address(h, s) for h, s in pairs]

    def coincurve_loop():
        return [
            keccak(from_signature(s, h, hasher=None).format(compressed=False)[1:])[12:]
            for h, s in pairs
        ]

    def eth_keys_with(keys):
        def run():
            return [
                keys.ecdsa_recover(h, Signature(signature_bytes=s)).to_canonical_address()
                for h, s in pairs
            ]

        return run

    return [
        (
            "asmcrypto.recover_addresses, numpy (n, 32) / (n, 65)",
            1,
            lambda: asmcrypto.recover_addresses(hash_array, sig_array),
            from_numpy,
        ),
        (
            "asmcrypto.recover_addresses, lists of bytes",
            1,
            lambda: asmcrypto.recover_addresses(hashes, sigs),
            from_bytes,
        ),
        ("asmcrypto.recover_address, one call per signature", 1, per_call, as_list),
        ("coincurve, one call per signature (+ pycryptodome Keccak)", 1, coincurve_loop, as_list),
        ("eth-keys on coincurve (its default backend)", 1, eth_keys_with(coincurve_keys), as_list),
        (
            "eth-keys on asmcrypto.eth_keys.AsmcryptoECCBackend",
            1,
            eth_keys_with(asmcrypto_keys),
            as_list,
        ),
        (
            "asmcrypto.recover_addresses, numpy, threads=0 (one per CPU)",
            0,
            lambda: asmcrypto.recover_addresses(hash_array, sig_array, threads=0),
            from_numpy,
        ),
    ]


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            fields = dict(
                line.split(":", 1) for line in f.read().split("\n\n")[0].splitlines() if ":" in line
            )
        fields = {k.strip(): v.strip() for k, v in fields.items()}
        return (
            f"{fields.get('model name', '?')} (family {fields.get('cpu family', '?')}, "
            f"model {fields.get('model', '?')})"
        )
    except OSError:
        return platform.processor() or "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000, help="signatures per pass")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds")
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()

    hashes, sigs = signatures(args.count, args.seed)
    runs = contestants(hashes, sigs)
    reference = runs[3][2]()
    for name, _, run, addresses in runs:
        assert addresses(run()) == reference, name  # every contestant gives the same addresses
    # Two clocks: wall time, and the CPU time of the process (all its threads). On a busy
    # machine the wall time of a long pass (a per-call loop: ~0.5 s) rarely escapes being
    # preempted while a 50 ms batch call often does, so best-of wall times favour the short
    # contestants; CPU time leaves out the time the process waits for a CPU.
    best_wall = {name: float("inf") for name, _, _, _ in runs}
    best_cpu = dict(best_wall)
    for round_ in range(args.rounds):
        shift = round_ % len(runs)
        for name, _, run, _ in runs[shift:] + runs[:shift]:
            wall, cpu = time.perf_counter(), time.process_time()
            run()
            best_cpu[name] = min(best_cpu[name], time.process_time() - cpu)
            best_wall[name] = min(best_wall[name], time.perf_counter() - wall)

    ref = runs[3][0]
    print(f"CPU: {cpu_name()}, {os.cpu_count()} logical CPUs, load average {os.getloadavg()}")
    print(f"asmcrypto {asmcrypto.__version__}: {asmcrypto.backend_details()}")
    print(
        f"Python {platform.python_version()}, coincurve {version('coincurve')}, "
        f"eth-keys {version('eth-keys')}, numpy {np.__version__}, "
        f"pycryptodome {version('pycryptodome')}"
    )
    print(f"{args.count} signatures per pass, best of {args.rounds} interleaved rounds\n")
    print(
        "| contestant | threads | µs / signature (wall) | signatures / s (wall) "
        "| × coincurve loop (wall) | µs / signature (CPU) | × coincurve loop (CPU) |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, threads, _, _ in runs:
        wall, cpu = best_wall[name], best_cpu[name]
        # With more than one thread, CPU time adds up the threads: no per-call figure.
        cpu_columns = (
            f"{cpu / args.count * 1e6:.2f} | {best_cpu[ref] / cpu:.2f}"
            if threads == 1
            else "— | —"
        )
        print(
            f"| {name} | {threads if threads else os.cpu_count()} | "
            f"{wall / args.count * 1e6:.2f} | {args.count / wall:,.0f} | "
            f"{best_wall[ref] / wall:.2f} | {cpu_columns} |"
        )


if __name__ == "__main__":
    main()
