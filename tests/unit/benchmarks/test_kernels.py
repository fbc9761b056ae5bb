"""The benchmark kernels compute what they say: each, at its small size, run on the
reference interpreter with random inputs, matches a numpy formula written again here
(in float64 from the rounded inputs); each at every size parses and verifies; and the
generators place rows and blocks where the formula expects them."""

import numpy as np
import pytest
from formulas import swiglu_mlp

from ktc.benchmarks import kernels
from ktc.benchmarks.kernels import SIZES, add, case, layernorm, row_sum
from ktc.dialects import context
from ktc.dialects.source import parse_module, verify_module
from ktc.sim import reference


def _wide(args: dict, name: str) -> np.ndarray:
    return np.asarray(args[name], np.float64)


def _softmax(args: dict) -> np.ndarray:
    x = _wide(args, "x")
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _silu_mul(args: dict) -> np.ndarray:
    x = _wide(args, "x")
    gate, up = np.split(x, 2, axis=1)
    return gate / (1 + np.exp(-gate)) * up


def _layernorm(args: dict) -> np.ndarray:
    x, w, b = _wide(args, "x"), _wide(args, "w"), _wide(args, "b")
    centered = x - x.mean(axis=1, keepdims=True)
    variance = (centered * centered).mean(axis=1, keepdims=True)
    return centered / np.sqrt(variance + float(np.float16(args["eps"]))) * w + b


def _rmsnorm(args: dict) -> np.ndarray:
    x, w = _wide(args, "x"), _wide(args, "w")
    return x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5) * w


def _rotary(args: dict) -> np.ndarray:
    x, cos, sin = _wide(args, "x"), _wide(args, "cos"), _wide(args, "sin")
    first, second = np.split(x, 2, axis=1)
    return np.concatenate([first * cos - second * sin, second * cos + first * sin], axis=1)


def _layernorm_fwd(args: dict) -> np.ndarray:
    """The first N columns normalized; the rest of Y keeps its zeros."""
    n = args["N"]
    x, w, b = (_wide(args, name)[:, :n] for name in ("X", "W", "B"))
    centered = x - x.mean(axis=1, keepdims=True)
    variance = (centered * centered).mean(axis=1, keepdims=True)
    y = np.zeros(_wide(args, "Y").shape)
    y[:, :n] = centered / np.sqrt(variance + float(np.float16(args["eps"]))) * w + b
    return y


def _paged_gather(args: dict) -> np.ndarray:
    """``k[s, h, t, d] = cache[table[s, t // 16], h, t % 16, d]``."""
    cache, table = _wide(args, "cache"), args["table"]
    t = np.arange(table.shape[1] * 16)
    return cache[table[:, t // 16], :, t % 16, :].transpose(0, 2, 1, 3)


def _attention(args: dict) -> np.ndarray:
    q, k, v = (_wide(args, name) for name in ("q", "k", "v"))
    scores = q @ k.T / np.sqrt(q.shape[1])
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True) @ v


FORMULAS = {
    "add": (lambda args: _wide(args, "a") + _wide(args, "b"), 1e-2),
    "broadcast_add": (lambda args: _wide(args, "a") + _wide(args, "b")[None, :], 1e-2),
    "silu_mul": (_silu_mul, 1e-2),
    "softmax": (_softmax, 1e-2),
    "layernorm": (_layernorm, 2e-2),
    "rmsnorm": (_rmsnorm, 2e-2),
    "row_sum": (lambda args: _wide(args, "x").sum(axis=1), 1e-4),
    "rotary": (_rotary, 1e-2),
    "layernorm_fwd": (_layernorm_fwd, 2e-2),
    "paged_gather": (_paged_gather, 0.0),
    "matmul": (lambda args: _wide(args, "a") @ _wide(args, "b"), 5e-2),
    "swiglu_mlp": (swiglu_mlp, 5e-2),
    "attention": (_attention, 2e-2),
    "distributed_copy": (lambda args: np.concatenate(
        [_wide(args, f"a{k}") for k in range(len(args) - 1)]), 0.0),
}
"""Per kernel: the expected output, and the absolute and relative tolerance (matmul's
f16 sums of 128 products of N(0, 1) inputs, of magnitude ~11, rounded once: u 11 ~ 0.005,
the sum's own roundings below that)."""


def _check(kernel_case, expected, tolerance: float) -> None:
    args = kernel_case.inputs(seed=3)
    outputs = reference.run(kernel_case.text, args, filename=kernel_case.kernel)
    got = np.asarray(outputs[kernel_case.output], np.float64)
    np.testing.assert_allclose(got, expected(args), rtol=tolerance, atol=tolerance)


def test_every_kernel_has_a_formula():
    assert sorted(SIZES) == sorted(FORMULAS)


def _case(kernel: str, size: str):
    """The benchmark case; a kernel read from the KTIR corpus skips, saying where it
    looked, when the corpus is absent."""
    if kernel == "layernorm_fwd" and not (kernels.CORPUS / kernels.LAYERNORM_FWD).exists():
        pytest.skip(f"KTIR corpus kernel not found at {kernels.CORPUS / kernels.LAYERNORM_FWD}")
    return case(kernel, size)


@pytest.mark.parametrize("kernel", sorted(FORMULAS))
def test_small_size_computes_its_formula(kernel: str):
    _check(_case(kernel, "small"), *FORMULAS[kernel])


@pytest.mark.parametrize("kernel, size", [(kernel, size) for kernel in sorted(SIZES)
                                          for size in SIZES[kernel]])
def test_every_size_parses_and_verifies(kernel: str, size: str):
    kernel_case = _case(kernel, size)
    verify_module(parse_module(kernel_case.text, kernel, context()))
    assert kernel_case.elements > 0


@pytest.mark.parametrize("ops", [2, 3, 4])
def test_a_chain_of_ops_alternates_adding_and_subtracting_b(ops: int):
    def expected(args):
        return _wide(args, "a") + (ops % 2) * _wide(args, "b")

    kernel_case = add(rows=64, cols=128, grid=8, ops=ops)
    assert kernel_case.text.count("arith.addf") + kernel_case.text.count("arith.subf") == ops
    _check(kernel_case, expected, 2e-2)


def test_rows_that_do_not_divide_among_tiles_take_every_grid_th_row():
    kernel_case = layernorm(rows=37, cols=64, grid=8)
    assert "scf.for %r = %tile to %rows step %grid" in kernel_case.text
    _check(kernel_case, *FORMULAS["layernorm"])


def test_the_split_block_adds_its_partial_down_products():
    """The intermediate dimension over 2 tiles per block of 32 tokens: the reduce of
    their partials gives the whole block's output."""
    _check(kernels.swiglu_mlp(tokens=64, hidden=32, intermediate=64, grid=2, split=2),
           *FORMULAS["swiglu_mlp"])


def test_blocks_of_rows_step_through_each_tiles_rows():
    _check(row_sum(rows=64, cols=32, grid=4, block=4), *FORMULAS["row_sum"])


def test_blocks_that_do_not_divide_are_refused():
    with pytest.raises(ValueError, match="do not split"):
        row_sum(rows=60, cols=32, grid=4, block=4)
