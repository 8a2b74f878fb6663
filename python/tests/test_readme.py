"""The examples of the READMEs run as written: every ```python block that checks itself
(has an assert) in README.md and python/README.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = [
    (path.name if path.parent == ROOT else "python/" + path.name, i, block)
    for path in (ROOT / "README.md", ROOT / "python" / "README.md")
    for i, block in enumerate(re.findall(r"```python\n(.*?)```", path.read_text(), re.S))
    if "assert" in block
]


def test_the_readmes_have_examples():
    assert {name for name, _, _ in BLOCKS} == {"README.md", "python/README.md"}


@pytest.mark.parametrize("name, index, block", BLOCKS, ids=[f"{n}:{i}" for n, i, _ in BLOCKS])
def test_readme_example(name, index, block):
    exec(compile(block, f"{name} python block {index}", "exec"), {})
