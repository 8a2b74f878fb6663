"""The type stubs: mypy's stubtest compares asmcrypto/_asmcrypto.pyi with the compiled
module (every name, every parameter), and mypy --strict checks the package's Python."""

from __future__ import annotations

import subprocess
import sys


def _mypy(*args: str, cwd) -> None:
    # In an empty folder: the installed package is checked, not the source folder.
    result = subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_stubs_match_the_extension(tmp_path):
    _mypy("mypy.stubtest", "asmcrypto._asmcrypto", cwd=tmp_path)


def test_package_is_strictly_typed(tmp_path):
    _mypy("mypy", "--strict", "--no-incremental", "-p", "asmcrypto", cwd=tmp_path)
