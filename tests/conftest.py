"""Shared pytest fixtures and helpers: where the KTIR corpus and real MLIR are, if
present; the devices, examples and corpus kernels the pipeline tests run over; running a
named pipeline (or its first passes) on a kernel file."""

import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KTC_SHARED", ROOT.parent / "shared"))
"""The folder beside the project holding the KTIR corpus and references ($KTC_SHARED
names it when the checkout lives elsewhere)."""
CORPUS = SHARED / "ktir-corpus"
REFERENCE = SHARED / "reference"
LINE4 = ROOT / "tests" / "lit" / "arch" / "Inputs" / "line4.mlir"
DEVICES = [pytest.param("spyre", id="spyre"), pytest.param("toy", id="toy"),
           pytest.param(str(LINE4), id="line4")]
"""The three devices every pipeline test runs on: the two shipped and a third test chip."""
EXAMPLES = [pytest.param(path, id=path.stem) for path in sorted((ROOT / "examples").glob("*.mlir"))]
TOO_FEW_CORES = {("distributed_rmsnorm", "toy"), ("distributed_rmsnorm", "pair")}
"""(example, device) pairs that ``ktir-legality-check`` refuses: the example's tiles
keep data in their own scratchpads on a grid larger than the device's cores (toy and
the worked example of docs/arch-format.md, "pair", have 2). ``tests/unit/test_examples.py`` checks the diagnostic; the pipeline tests skip them."""


DEVICE_MEMORY_TOO_SMALL = {("paged-tensor-copy", "toy"), ("paged-tensor-write", "toy")}
"""(kernel, device) pairs whose fixed addresses lie beyond the device's memory (toy's
1 MiB): ``ktir-legality-check`` refuses them at the view; ``tests/e2e/test_paged_copies.py``
checks the diagnostic."""


def refused(example: str, device: str) -> None:
    """Skip, saying why, an example or corpus kernel (by file stem) a device refuses
    (``TOO_FEW_CORES``, ``DEVICE_MEMORY_TOO_SMALL``)."""
    if (example, Path(device).stem) in TOO_FEW_CORES:
        pytest.skip(f"{example} on {Path(device).stem}: refused, its grid of tiles with "
                    "scratchpad data exceeds the device's cores (tests/unit/test_examples.py)")
    if (example, Path(device).stem) in DEVICE_MEMORY_TOO_SMALL:
        pytest.skip(f"{example} on {Path(device).stem}: refused, its fixed addresses lie beyond "
                    "the device's memory (tests/e2e/test_paged_copies.py)")
CORPUS_IN_SCOPE = [
    "ktir-cpu/triton-ktir/vector_add_ktir.mlir",
    "ktir-cpu/triton-ktir/vector_add_dynamic_ktir.mlir",
    "ktir-cpu/triton-ktir/softmax_fwd_ktir.mlir",
    "ktir-cpu/triton-ktir/layernorm_fwd_ktir.mlir",
    "ktir-cpu/rfc/add-with-control-flow.mlir",
    "ktir-cpu/rfc/paged-tensor-copy.mlir",
    "ktir-cpu/rfc/paged-tensor-write.mlir",
    "ktir-mlir-frontend/paged-tensor-copy.mlir",
]
"""The corpus kernels the compiler takes in (the others use KTIR it rejects on purpose)."""


def corpus_files(pattern: str = "**/*.mlir") -> list[Path]:
    """Corpus files matching ``pattern``; empty when the corpus is absent."""
    return sorted(CORPUS.glob(pattern)) if CORPUS.is_dir() else []


def require_corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"KTIR corpus not found at {CORPUS} (it lives beside the project, in shared/)")
    return CORPUS


def corpus_kernel(name: str) -> Path:
    """A corpus kernel's path; the test is skipped, saying where it looked, without it."""
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"KTIR corpus kernel not found at {path}")
    return path


def pipeline_through(last: str, name: str = "ktir-to-dfir") -> str:
    """The passes of a named pipeline up to and including ``last``."""
    from ktc.passes.pipeline import expand

    passes = expand(name).split(",")
    return ",".join(passes[: passes.index(last) + 1])


def run_pipeline(path: Path, device: str, spec: str):
    """``path`` parsed, verified, given ``device`` and run through ``spec`` (pass names
    or named pipelines); the result verified."""
    from xdsl.passes import PassPipeline

    from ktc.arch import attach_device
    from ktc.dialects import context
    from ktc.dialects.source import parse_module, verify_module
    from ktc.passes import all_passes
    from ktc.passes.pipeline import expand

    ctx = context()
    module = parse_module(path.read_text(), str(path), ctx)
    verify_module(module)
    attach_device(module, device)
    PassPipeline.parse_spec(all_passes(), expand(spec)).apply(ctx, module)
    verify_module(module)
    return module


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
