"""The KTIR the PyTorch front end writes for a matrix product or an attention, without
PyTorch: built by hand here (``ktc.frontend.kernel``), compiled for every test device
and simulated, each matching a numpy formula written here within the shared rule
(``ktc.sim.check``) for reductions of their ``k`` terms; the grid follows the device.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DEVICES

import ktc
from ktc.arch.model import Device
from ktc.frontend.contraction import (
    attention_plan,
    attention_shape,
    causal_mask,
    emit_attention,
    emit_product,
    product_plan,
    product_shape,
)
from ktc.frontend.kernel import COL, FULL, Array, Attention, Product
from ktc.sim.check import differences


def product(batch: int, m: int, n: int, k: int, transposed: bool, bias: str | None) -> Product:
    return Product("product", batch, m, n, k, Array("a", FULL, "f16"), Array("b", FULL, "f16"),
                   Array("c", FULL, "f16"), "mm", transposed=transposed,
                   bias=Array("bias", bias, "f16") if bias else None, alpha=2.0, beta=0.5)


def run(kernel, text: str, arch: str, arrays: list[np.ndarray], shape_of) -> np.ndarray:
    package = ktc.compile(text, arch=arch, filename=f"{kernel.name}.mlir")
    executable = ktc.Simulator(arch).prepare(package)
    output = np.zeros(shape_of(kernel, kernel.output), np.float16)
    got = executable.launch(*arrays, output)
    assert executable.report().cycles > 0
    return got[kernel.output.name]


def assert_within_rule(got: np.ndarray, want: np.ndarray, length: int) -> None:
    differ, _ = differences(got, want, "f16", length)
    assert not differ.any(), f"{int(differ.sum())} differ, largest {np.abs(got - want).max()}"


@pytest.mark.parametrize("arch", DEVICES)
@pytest.mark.parametrize("transposed, bias", [(False, None), (True, COL), (False, FULL)],
                         ids=["plain", "transposed-bias-per-column", "bias-per-element"])
def test_product_computes_its_formula(arch: str, transposed: bool, bias: str | None):
    """``c[b] = 2 a[b] b[b] + 0.5 bias`` for two 24 x 40 by 40 x 80 products (the second
    stored as 80 x 40 when transposed)."""
    batch, m, n, k = (1 if bias == FULL else 2), 24, 80, 40
    kernel = product(batch, m, n, k, transposed, bias)
    rng = np.random.default_rng(4)
    a = rng.standard_normal((batch, m, k)).astype(np.float16)
    b = rng.standard_normal((batch, k, n)).astype(np.float16)
    stored = np.ascontiguousarray(b.transpose(0, 2, 1)) if transposed else b
    arrays = [a.reshape(batch * m, k), stored.reshape(-1, stored.shape[-1])]
    want = 2 * (a.astype(np.float64) @ b.astype(np.float64))
    if bias:
        shape = (n,) if bias == COL else (m, n)
        arrays.append(rng.standard_normal(shape).astype(np.float16))
        want = want + 0.5 * arrays[-1].astype(np.float64)
    got = run(kernel, emit_product(kernel, Device.load(arch), "product.mlir"), arch, arrays,
              product_shape)
    assert_within_rule(got, want.reshape(batch * m, n), k)


def test_product_ops_are_located_at_their_node():
    text = emit_product(product(1, 8, 64, 32, True, COL), Device.load("spyre"), "p.mlir")
    ops = [line for line in text.splitlines() if line.lstrip().startswith(("%", "ktdp.", "return"))]
    assert len(ops) > 20 and all('loc("mm"("p.mlir":' in line for line in ops)
    assert "linalg.transpose" in text and "linalg.matmul" in text


@pytest.mark.parametrize("arch", DEVICES)
def test_product_grid_follows_the_device(arch: str):
    """As many tiles as cores where the blocks stay at least the matrix unit's rows and
    lanes; of those, the split reading least (``gn m k + gm n k``)."""
    device = Device.load(arch)
    rows, lanes = (device.matrix.rows, device.matrix.lanes) if device.matrix else (1, 1)
    for batch, m, n, k in ((1, 64, 256, 128), (4, 16, 24, 32), (1, 7, 13, 9), (64, 8, 8, 8)):
        g = product_plan(product(batch, m, n, k, False, None), device)
        tiles = g.batches * g.row_blocks * g.col_blocks
        assert tiles <= device.cores and batch % g.batches == 0
        assert m % g.row_blocks == 0 and n % g.col_blocks == 0
        assert g.row_blocks == 1 or m // g.row_blocks >= rows
        assert g.col_blocks == 1 or n // g.col_blocks >= lanes
    assert product_plan(product(1, 64, 256, 128, False, None), Device.load("spyre")) == \
        type(g)(1, 8, 4)


@pytest.mark.parametrize("arch", DEVICES)
@pytest.mark.parametrize("causal, tokens_first", [(False, False), (True, True)],
                         ids=["heads-first", "causal-tokens-first"])
def test_attention_computes_its_formula(arch: str, causal: bool, tokens_first: bool):
    """Two batches of two heads of 16 queries and 24 keys of 32:
    ``softmax(q k^T / sqrt(32) + mask) v``, every array stored heads first
    (``b x h x t x d``) or tokens first (``b x t x h x d``)."""
    batch, heads, queries, keys, dim = 2, 2, 16, 24, 32
    arrays = {role: Array(role, FULL, "f16") for role in ("q", "k", "v", "out", "mask")}
    kernel = Attention("attention", batch, heads, queries, keys, dim, dim, dim ** -0.5,
                       arrays["q"], arrays["k"], arrays["v"], arrays["out"], "sdpa",
                       mask=arrays["mask"] if causal else None,
                       tokens_first=frozenset({"q", "k", "v", "out"} if tokens_first else ()))
    rng = np.random.default_rng(9)
    q = rng.standard_normal((batch, heads, queries, dim)).astype(np.float16)
    k, v = (rng.standard_normal((batch, heads, keys, dim)).astype(np.float16) for _ in range(2))

    def stored(x: np.ndarray) -> np.ndarray:
        laid = x.transpose(0, 2, 1, 3) if tokens_first else x
        return np.ascontiguousarray(laid).reshape(attention_shape(kernel, arrays["q"])[0]
                                                  * x.shape[2] // queries, -1)

    inputs = [stored(q), stored(k), stored(v)]
    later = np.arange(keys)[None, :] > np.arange(queries)[:, None]
    if causal:
        inputs.append(causal_mask(kernel))
        assert np.array_equal(np.isinf(inputs[-1]), later)
    scores = q.astype(np.float64) @ k.astype(np.float64).transpose(0, 1, 3, 2) / np.sqrt(dim)
    scores = np.where(later, -np.inf, scores) if causal else scores
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    want = (weights / weights.sum(-1, keepdims=True)) @ v.astype(np.float64)
    device = Device.load(arch)
    got = run(kernel, emit_attention(kernel, device, "attention.mlir"), arch, inputs,
              attention_shape)
    assert_within_rule(got, stored(want), max(keys, dim))
    g = attention_plan(kernel, device)
    assert g.batches * g.heads * g.query_blocks <= device.cores


def test_more_products_than_cores_are_walked_in_a_loop():
    """40 products on spyre's 32 cores: a grid of 20, each tile looping over two."""
    device = Device.load("spyre")
    kernel = product(40, 8, 16, 16, False, None)
    assert product_plan(kernel, device).batches == 20
    text = emit_product(kernel, device, "product.mlir")
    assert "scf.for %t.b.step = %t.c0 to %t.b.count step %t.c1" in text
    rng = np.random.default_rng(2)
    a = rng.standard_normal((40, 8, 16)).astype(np.float16)
    b = rng.standard_normal((40, 16, 16)).astype(np.float16)
    got = run(kernel, text, "spyre", [a.reshape(-1, 16), b.reshape(-1, 16)], product_shape)
    want = 2 * (a.astype(np.float64) @ b.astype(np.float64))
    assert_within_rule(got, want.reshape(-1, 16), 16)
