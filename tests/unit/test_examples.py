"""The examples are kernels the pipeline takes, and they compute what they say.

Every ``examples/*.mlir`` states its numpy formula in its header, parses, verifies
and passes ``ktir-legality-check`` on spyre, toy and the line4 test chip. When the
reference interpreter is present, each runs on random inputs and matches the formula
written again here, independently of the kernel.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT, TOO_FEW_CORES
from formulas import swiglu_mlp

from ktc.arch import attach_device
from ktc.dialects import context
from ktc.dialects.diagnostics import KtcError
from ktc.dialects.source import parse_module, verify_module
from ktc.passes.ktir_legality_check import KtirLegalityCheck

EXAMPLES = ROOT / "examples"
DEVICES = ("spyre", "toy", str(ROOT / "tests" / "lit" / "arch" / "Inputs" / "line4.mlir"))


@dataclass(frozen=True)
class Formula:
    """Random inputs for an example, and what its output must then be."""

    inputs: Callable[[np.random.Generator], dict[str, object]]
    output: str
    """The pointer argument the kernel writes."""
    expected: Callable[[dict[str, np.ndarray]], np.ndarray]
    """Computed in float64 from the (rounded) inputs."""
    tolerance: float
    """Absolute and relative tolerance for the element type's rounding."""


def _f16(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float16)


def _wide(args: dict, name: str) -> np.ndarray:
    return np.asarray(args[name], np.float64)


def _silu_mul(args: dict) -> np.ndarray:
    x = _wide(args, "x")
    gate, up = x[:, :128], x[:, 128:]
    return gate / (1 + np.exp(-gate)) * up


def _softmax(args: dict) -> np.ndarray:
    x = _wide(args, "x")
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _rmsnorm(args: dict) -> np.ndarray:
    x, w = _wide(args, "x"), _wide(args, "w")
    return x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5) * w[None, :]


def _distributed_rmsnorm(args: dict) -> np.ndarray:
    x = np.concatenate([_wide(args, f"x{k}") for k in range(4)])
    return _rmsnorm({"x": x, "w": args["w"]})


def _layernorm(args: dict) -> np.ndarray:
    x, w, b = _wide(args, "x"), _wide(args, "w"), _wide(args, "b")
    centered = x - x.mean(axis=1, keepdims=True)
    variance = (centered * centered).mean(axis=1, keepdims=True)
    return centered / np.sqrt(variance + float(np.float16(args["eps"]))) * w[None, :] + b[None, :]


def _paged_keys(args: dict) -> np.ndarray:
    t = np.arange(64)
    pages = _wide(args, "pages")
    return pages[args["table"][:, t // 16], :, t % 16, :].transpose(0, 2, 1, 3)
def _argmax_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Values from few levels (many ties), a row of -inf, the column numbers as f32."""
    x = rng.integers(-3, 4, (64, 200)).astype(np.float16)
    x[5] = -np.inf
    cols = np.broadcast_to(np.arange(200, dtype=np.float32), (64, 200)).copy()
    return {"x": x, "cols": cols, "m": np.zeros(64, np.float16), "am": np.zeros(64, np.float32)}


def _attention(args: dict) -> np.ndarray:
    q, k, v = _wide(args, "q"), _wide(args, "k"), _wide(args, "v")
    scores = q @ k.T / 8
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True) @ v


FORMULAS: dict[str, Formula] = {
    "add.mlir": Formula(
        lambda rng: {"a": _f16(rng, 256, 128), "b": _f16(rng, 256, 128),
                     "c": np.zeros((256, 128), np.float16)},
        "c", lambda args: _wide(args, "a") + _wide(args, "b"), 1e-2),
    "broadcast_add.mlir": Formula(
        lambda rng: {"a": _f16(rng, 64, 128), "b": _f16(rng, 128),
                     "c": np.zeros((64, 128), np.float16)},
        "c", lambda args: _wide(args, "a") + _wide(args, "b")[None, :], 1e-2),
    "silu_mul.mlir": Formula(
        lambda rng: {"x": _f16(rng, 32, 256), "out": np.zeros((32, 128), np.float16)},
        "out", _silu_mul, 1e-2),
    "softmax.mlir": Formula(
        lambda rng: {"x": _f16(rng, 64, 256), "y": np.zeros((64, 256), np.float16)},
        "y", _softmax, 1e-2),
    "rmsnorm.mlir": Formula(
        lambda rng: {"x": _f16(rng, 64, 256), "w": _f16(rng, 256),
                     "y": np.zeros((64, 256), np.float16)},
        "y", _rmsnorm, 2e-2),
    "distributed_rmsnorm.mlir": Formula(
        lambda rng: {**{f"x{k}": _f16(rng, 16, 256) for k in range(4)}, "w": _f16(rng, 256),
                     "y": np.zeros((64, 256), np.float16)},
        "y", _distributed_rmsnorm, 2e-2),
    "split_rmsnorm.mlir": Formula(
        lambda rng: {"x": _f16(rng, 16, 256), "w": _f16(rng, 256),
                     "y": np.zeros((16, 256), np.float16)},
        "y", _rmsnorm, 2e-2),
    "layernorm.mlir": Formula(
        lambda rng: {"x": _f16(rng, 64, 256), "w": _f16(rng, 256), "b": _f16(rng, 256),
                     "y": np.zeros((64, 256), np.float16), "eps": 1e-5},
        "y", _layernorm, 2e-2),
    "matmul.mlir": Formula(
        lambda rng: {"a": _f16(rng, 64, 128), "b": _f16(rng, 128, 64),
                     "c": np.zeros((64, 64), np.float16)},
        "c", lambda args: _wide(args, "a") @ _wide(args, "b"), 1e-2),
    "swiglu_mlp.mlir": Formula(
        lambda rng: {"x": _f16(rng, 64, 32), "wg": _f16(rng, 32, 64), "wu": _f16(rng, 32, 64),
                     "wd": _f16(rng, 64, 32), "out": np.zeros((64, 32), np.float16)},
        "out", swiglu_mlp, 5e-2),
    "embedding.mlir": Formula(
        lambda rng: {"table": _f16(rng, 512, 128), "ids": rng.integers(0, 512, 64).astype(np.int32),
                     "out": np.zeros((64, 128), np.float16)},
        "out", lambda args: _wide(args, "table")[args["ids"]], 0.0),
    "paged_kv_gather.mlir": Formula(
        lambda rng: {"pages": _f16(rng, 64, 4, 16, 32),
                     "table": rng.permutation(64)[:8].reshape(2, 4).astype(np.int32),
                     "k": np.zeros((2, 4, 64, 32), np.float16)},
        "k", _paged_keys, 0.0),
    "attention.mlir": Formula(
        lambda rng: {"q": _f16(rng, 64, 64), "k": _f16(rng, 64, 64), "v": _f16(rng, 64, 64),
                     "out": np.zeros((64, 64), np.float16)},
        "out", _attention, 2e-2),
    "argmax.mlir": Formula(
        _argmax_inputs, "am", lambda args: np.argmax(args["x"], axis=1).astype(np.float64), 0.0),
    "row_sum.mlir": Formula(
        lambda rng: {"x": rng.standard_normal((64, 256)).astype(np.float32),
                     "y": np.zeros(64, np.float32)},
        "y", lambda args: _wide(args, "x").sum(axis=1), 1e-4),
}


def _examples() -> list[Path]:
    return sorted(EXAMPLES.glob("*.mlir"))


@pytest.mark.parametrize("path", _examples(), ids=lambda path: path.name)
def test_header_states_the_numpy_formula(path: Path):
    header = [line for line in path.read_text().splitlines() if line.startswith("//")]
    assert any("numpy:" in line for line in header), f"{path.name} states no numpy formula"


@pytest.mark.parametrize("device", DEVICES, ids=lambda device: Path(device).stem)
@pytest.mark.parametrize("path", _examples(), ids=lambda path: path.name)
def test_passes_the_legality_check(path: Path, device: str):
    ctx = context()
    module = parse_module(path.read_text(), str(path), ctx)
    verify_module(module)
    attach_device(module, device)
    before = str(module)
    if (path.stem, Path(device).stem) in TOO_FEW_CORES:
        with pytest.raises(KtcError, match=r"tiles that keep data in their own scratchpad "
                                           r"\(ct_local views\), but the device has \d+ cores"):
            KtirLegalityCheck().apply(ctx, module)
        return
    KtirLegalityCheck().apply(ctx, module)
    assert str(module) == before


def test_every_example_has_a_formula():
    assert sorted(path.name for path in _examples()) == sorted(FORMULAS)


@pytest.mark.parametrize("path", _examples(), ids=lambda path: path.name)
def test_computes_its_formula(path: Path):
    reference = pytest.importorskip("ktc.sim.reference", reason="no reference interpreter")
    formula = FORMULAS[path.name]
    args = formula.inputs(np.random.default_rng(7))
    outputs = reference.run(path.read_text(), args, filename=str(path))
    np.testing.assert_allclose(
        np.asarray(outputs[formula.output], np.float64), formula.expected(args),
        rtol=formula.tolerance, atol=formula.tolerance,
    )
