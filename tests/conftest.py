"""Shared pytest fixtures: where the KTIR corpus and real MLIR are, if present."""

import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "ktir-corpus"
REFERENCE = ROOT.parent / "shared" / "reference"


def corpus_files(pattern: str = "**/*.mlir") -> list[Path]:
    """Corpus files matching ``pattern``; empty when the corpus is absent."""
    return sorted(CORPUS.glob(pattern)) if CORPUS.is_dir() else []


def require_corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"KTIR corpus not found at {CORPUS} (it lives beside the project, in shared/)")
    return CORPUS


def mlir_opt_path() -> str | None:
    """The real upstream ``mlir-opt`` from the test extra, or $KTC_MLIR_OPT."""
    if os.environ.get("KTC_MLIR_OPT"):
        return os.environ["KTC_MLIR_OPT"]
    spec = importlib.util.find_spec("mlir")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "bin" / "mlir-opt"
    return str(path) if path.exists() else None


@pytest.fixture
def mlir_opt() -> str:
    path = mlir_opt_path()
    if path is None:
        pytest.skip("real mlir-opt not installed (pip install -e '.[test]')")
    return path
