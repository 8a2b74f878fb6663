"""pytest plugin for the peer suites (loaded with ``-p peer_plugin``, this directory on
``PYTHONPATH``), writing into ``$ASMCRYPTO_PEER_OUT``:

- the number of recoveries that reached asmcrypto: it wraps
  ``asmcrypto.eth_keys.recover_public_key``, the one call through which
  ``AsmcryptoECCBackend`` recovers, and writes the count at the end of the session
  (a file per process), so that the runner can show that a suite's recoveries ran on asmcrypto;
- the tests that failed, each with the last line of its report, as JSON.
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
    if report.failed:
        lines = str(report.longrepr).strip().splitlines()
        _failed[report.nodeid] = lines[-1] if lines else report.when


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    out = os.environ.get("ASMCRYPTO_PEER_OUT")
    if out:
        pid = os.getpid()
        Path(out, f"{pid}.count").write_text(str(_calls))
        Path(out, f"{pid}.failed.json").write_text(json.dumps(_failed))
