"""pytest plugin for the peer suites (loaded with ``-p peer_plugin``, this directory on
``PYTHONPATH``), writing into ``$ASMCRYPTO_PEER_OUT``:

- the number of recoveries that reached asmcrypto: it wraps
  ``asmcrypto.eth_keys.recover_public_key``, the one call through which
  ``AsmcryptoECCBackend`` recovers, and writes the count at the end of the session
  (a file per process), so that the runner can show that a suite's recoveries ran on asmcrypto;
- the tests that failed, each with where it failed (setup, call, teardown) and the
  exception's message, as JSON.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import asmcrypto.eth_keys

_calls = 0
_failed: dict[str, str] = {}
_recover = asmcrypto.eth_keys.recover_public_key


def _counting(*args: Any, **kwargs: Any) -> Any:
    global _calls
    _calls += 1
    return _recover(*args, **kwargs)


asmcrypto.eth_keys.recover_public_key = _counting


def pytest_runtest_logreport(report: Any) -> None:
    # The first failure of a test (its setup, call or teardown) with its message.
    if report.failed and report.nodeid not in _failed:
        crash = getattr(report.longrepr, "reprcrash", None)
        if crash is not None:
            where = os.path.relpath(crash.path) if os.path.isabs(crash.path) else crash.path
            why = f"{where}:{crash.lineno}: {crash.message}"
        else:
            lines = str(report.longrepr).strip().splitlines()
            why = lines[-1] if lines else ""
        _failed[report.nodeid] = f"{report.when}: {why}"


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    out = os.environ.get("ASMCRYPTO_PEER_OUT")
    if out:
        pid = os.getpid()
        Path(out, f"{pid}.count").write_text(str(_calls))
        Path(out, f"{pid}.failed.json").write_text(json.dumps(_failed))
