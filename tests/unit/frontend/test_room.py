"""Only ``frontend/`` imports ``torch``, and nothing in the repository is named
``torch`` (run from the repository root it would shadow the real package)."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import ROOT

IMPORT = re.compile(r"^\s*(import torch\b|from torch[\s.])", re.MULTILINE)


def test_torch_is_imported_only_in_the_frontend_and_its_tests():
    importing = sorted(
        str(path.relative_to(ROOT)) for path in ROOT.rglob("*.py")
        if "build" not in path.relative_to(ROOT).parts[:1]  # `pip install .`'s copy
        and IMPORT.search(path.read_text(encoding="utf-8"))
    )
    allowed = ("frontend/", "tests/unit/frontend/", "tests/e2e/test_pytorch.py", "examples/torch_")
    assert importing and all(p.startswith(allowed) for p in importing), importing


def test_nothing_is_named_torch():
    assert not [p for p in ROOT.rglob("torch*") if p.stem == "torch" and ".git" not in p.parts]


def test_the_kernel_emitter_does_not_need_torch():
    code = "import sys, ktc, ktc.frontend.ktir, ktc.frontend.kernel; print('torch' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
