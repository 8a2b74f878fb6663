"""Runs eth-keys' and eth-account's own test suites with asmcrypto's eth-keys backend.

Each suite comes from its project's sdist on PyPI, at the version installed here (which
python/requirements-test.txt pins), unpacked into a temporary directory: nothing of it is
kept in this repository.

- eth-keys: every test, with eth-keys' default backend set to ours the way eth-keys
  documents it (``ECC_BACKEND_CLASS``), and its backend tests (tests/backends/
  test_backends.py, whose fixture runs them over each backend in the module's
  ``backends`` list) over ``AsmcryptoECCBackend()`` beside eth-keys' native and
  coincurve backends: one line appended to that list in the unpacked copy.
- eth-account: tests/core (messages, EIP-712 typed data, transactions of every type,
  blob transactions, EIP-7702 authorizations, key files, mnemonics), with eth-keys'
  default backend set to ours. Its tests/integration compares eth-account's *signing*
  with ethers and MetaMask's eth-sig-util run in Node from globally installed npm
  packages; it recovers nothing, so it is not run.

A suite passes when every test passes and its recoveries reached asmcrypto (the plugin
``peer_plugin`` counts them). A test that fails is run again with coincurve's backend in
ours' place: a failure both share is a property of the suite, printed by name with the
reason recorded for it in ``shared_failures.txt`` (a shared failure not recorded there
fails the run, so that every one has its reason written down); any other failure fails
the run.

Usage (in the environment where asmcrypto, python/requirements-test.txt and
python/peer_suites/requirements.txt are installed)::

    python python/peer_suites/run.py [--suite eth-keys|eth-account]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
OURS = "asmcrypto.eth_keys.AsmcryptoECCBackend"
COINCURVE = "eth_keys.backends.CoinCurveECCBackend"

# The line of eth-keys' tests/backends/test_backends.py after which our backend joins the
# list its backend fixture runs over, and what is appended.
ETH_KEYS_BACKENDS = "backends = [\n    NativeECCBackend(),\n]\n"
ETH_KEYS_APPEND = (
    "\n# Appended by asmcrypto's peer-suite runner: the same tests over asmcrypto's backend.\n"
    "from asmcrypto.eth_keys import AsmcryptoECCBackend\n\n"
    "backends.append(AsmcryptoECCBackend())\n"
)


def add_our_backend(root: Path) -> None:
    """eth-keys' backend tests over our backend too: the line appended to their list."""
    path = root / "tests" / "backends" / "test_backends.py"
    text = path.read_text()
    if text.count(ETH_KEYS_BACKENDS) != 1:
        sys.exit(f"{path}: the backends list was not found as expected; update run.py")
    path.write_text(text.replace(ETH_KEYS_BACKENDS, ETH_KEYS_BACKENDS + ETH_KEYS_APPEND))


@dataclass
class Suite:
    name: str
    paths: list[str]
    # What is changed in the unpacked copy before its tests run, if anything.
    patch: Callable[[Path], None] | None = None


SUITES = [
    Suite("eth-keys", ["tests"], add_our_backend),
    Suite("eth-account", ["tests/core"]),
]


def fetch(name: str, version: str, into: Path) -> Path:
    """The sdist of `name` at `version`, unpacked; the directory."""
    dest = into / name
    # --no-binary for this package only: its build requirements (for the sdist's metadata)
    # come as wheels.
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
         "--no-deps", "--no-binary", name, "--dest", str(dest), f"{name}=={version}"],
        check=True,
    )
    archives = sorted(dest.glob("*.tar.gz"))
    if len(archives) != 1:
        sys.exit(f"pip download {name}=={version}: expected one sdist, got {archives}")
    with tarfile.open(archives[0]) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")
        else:  # CPython before 3.11.4: no extraction filters
            tar.extractall(dest)
    roots = [p for p in dest.iterdir() if p.is_dir() and (p / "tests").is_dir()]
    if len(roots) != 1:
        sys.exit(f"{archives[0]}: expected one directory with tests/ in the sdist, got {roots}")
    return roots[0]


def run_pytest(root: Path, ids: list[str], backend: str) -> tuple[int, dict[str, str], int]:
    """pytest on `ids` in `root` with `backend` as eth-keys' default; the recoveries that
    reached asmcrypto, the failed tests with where and why each failed, and pytest's
    status."""
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ)
        env.update(
            ECC_BACKEND_CLASS=backend,
            ASMCRYPTO_PEER_OUT=out,
            PYTHONDONTWRITEBYTECODE="1",
            PYTHONPATH=os.pathsep.join(p for p in [str(HERE), env.get("PYTHONPATH", "")] if p),
        )
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "peer_plugin", "-p", "no:cacheprovider",
               "-o", "addopts=", "--hypothesis-seed=0", *ids]
        status = subprocess.run(cmd, cwd=root, env=env).returncode
        calls = sum(int(p.read_text()) for p in Path(out).glob("*.count"))
        failed: dict[str, str] = {}
        for p in Path(out).glob("*.failed.json"):
            failed.update(json.loads(p.read_text()))
        return calls, failed, status


def shared_reasons() -> dict[str, str]:
    reasons = {}
    for line in (HERE / "shared_failures.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            node, _, reason = line.partition("\t")
            reasons[node.strip()] = reason.strip()
    return reasons


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=[s.name for s in SUITES], action="append")
    args = parser.parse_args()
    reasons = shared_reasons()
    ok = True
    with tempfile.TemporaryDirectory() as work:
        for suite in SUITES:
            if args.suite and suite.name not in args.suite:
                continue
            version = metadata.version(suite.name)
            print(f"== {suite.name} {version}: its own tests ({' '.join(suite.paths)}) on {OURS}",
                  flush=True)
            root = fetch(suite.name, version, Path(work))
            if suite.patch:
                suite.patch(root)
            start = time.monotonic()
            calls, failed, status = run_pytest(root, suite.paths, OURS)
            print(f"   {calls} recoveries reached asmcrypto; {len(failed)} failed; "
                  f"{time.monotonic() - start:.0f} s", flush=True)
            if calls == 0:
                print(f"   FAIL: no recovery of {suite.name}'s suite reached asmcrypto")
                ok = False
            if status not in (0, 1) or (status == 1) != bool(failed):
                print(f"   FAIL: pytest exited with {status} and {len(failed)} recorded failures "
                      "(a collection error, no test collected, or a failure the plugin missed)")
                ok = False
            listed = {key for key in reasons if key.startswith(f"{suite.name}::")}
            if failed:
                # The same tests with coincurve's backend where ours stood.
                theirs = {node: node.replace("AsmcryptoECCBackend", "CoinCurveECCBackend")
                          for node in failed}
                _, failed_cc, status_cc = run_pytest(root, sorted(set(theirs.values())), COINCURVE)
                if status_cc not in (0, 1):
                    print(f"   (the rerun with coincurve's backend: pytest exited with {status_cc})")
                for node, line in sorted(failed.items()):
                    key = f"{suite.name}::{node}"
                    listed.discard(key)
                    if theirs[node] not in failed_cc:
                        print(f"   FAIL with asmcrypto's backend only: {key}: {line}")
                        ok = False
                    elif key in reasons:
                        print(f"   shared with coincurve's backend: {key}: {reasons[key]}")
                    else:
                        print(f"   FAIL: shared with coincurve's backend but not listed in "
                              f"shared_failures.txt with its reason: {key}: {line}")
                        ok = False
            for key in sorted(listed):
                print(f"   listed in shared_failures.txt but passed now: {key}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
