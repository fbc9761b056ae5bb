"""The KTIR corpus conforms.

Every corpus file meant to be valid parses, verifies and prints, and what is printed
reads back to the same text: the custom form is a fixed point, and the generic form
reads back to the custom form's text. Files whose ``// RUN:`` line allows unregistered
dialects (``"test.op"``) are read that way. Every file that carries ``expected-error``
comments is rejected with diagnostics of the same meaning at the same lines, run as its
``// RUN:`` line runs it (``--split-input-file --verify-diagnostics``).
"""

from pathlib import Path

import pytest
from conftest import CORPUS, corpus_files, require_corpus

from ktc.dialects import context
from ktc.dialects.printer import print_ir
from ktc.dialects.source import parse_module, verify_module
from ktc.tools.ktc_opt import main as ktc_opt


def _cases(negative: bool) -> list:
    """One param per corpus file that is (or is not) a negative test; a single
    ``None`` param, skipped, when the corpus is absent."""
    paths = [path for path in corpus_files() if _is_negative(path) == negative]
    cases = [pytest.param(path, id=str(path.relative_to(CORPUS))) for path in paths]
    return cases or [pytest.param(None, id="no-corpus")]


def _is_negative(path: Path) -> bool:
    return "expected-error" in path.read_text()


def _allows_unregistered(text: str) -> bool:
    run_lines = (line for line in text.splitlines() if "RUN:" in line)
    return any("allow-unregistered-dialect" in line for line in run_lines)


def _reprint(text: str, filename: str, unregistered: bool, generic: bool = False) -> str:
    module = parse_module(text, filename, context(allow_unregistered=unregistered))
    verify_module(module)
    return print_ir(module, generic)


@pytest.mark.parametrize("path", _cases(negative=False))
def test_valid_file_reads_back_to_what_it_prints(path: Path | None):
    if path is None:
        require_corpus()
    text = path.read_text()
    unregistered = _allows_unregistered(text)

    printed = _reprint(text, str(path), unregistered)
    generic = _reprint(text, str(path), unregistered, generic=True)

    assert _reprint(printed, f"{path.name} (printed)", unregistered) == printed
    assert _reprint(generic, f"{path.name} (generic)", unregistered) == printed


@pytest.mark.parametrize("path", _cases(negative=True))
def test_negative_file_gives_the_expected_diagnostics(path: Path | None, capsys):
    if path is None:
        require_corpus()
    status = ktc_opt([str(path), "--split-input-file", "--verify-diagnostics"])
    assert status == 0, capsys.readouterr().err
