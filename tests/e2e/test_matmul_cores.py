"""Products whose work the kernel's grid splits over cores, batched products, and the
corpus's matmul, compiled and simulated, each matching a numpy formula written here and
the reference interpreter.

- M x N over cores: tile (i, j) of a grid multiplies its rows of A by its columns of B.
- K over cores, for an M x N too small to fill the chip: each tile multiplies its k
  slice of A by that of B into an f32 partial, and ``ktdp.inter_tile_reduce`` folds the
  partials of a group (the tiles of one output block) over the interconnect into its
  first tile, which rounds them once to f16 and stores them.
- Both at once: a grid ``[gk, gn, gm]`` (k fastest) of groups of ``gk`` tiles.

Tolerances are ``test_matmul``'s (float64 product, per element): on a matrix unit the
products are exact in f32 and their sum, partials and fold included, adds K terms in
f32 (``K 2^-24 |A||B|``); on a SIMD engine, ``(2 + log2 K) u |A||B|``. Against the
reference interpreter the shared rule ``ktc.sim.check`` holds, for the kernel's
``reduction_length`` (its k extent times the loop's trips times the tiles a reduce
folds).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DEVICES, corpus_kernel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_matmul import MATRIX_UNIT, assert_product, run

from ktc.sim.check import compare, differences, reduction_length, tolerance
from ktc.sim.reference import Kernel

CORES = {"spyre": 32, "toy": 2, "line4": 4}


def _set(*extents: int) -> str:
    dims = ", ".join(f"d{i}" for i in range(len(extents)))
    bounds = ", ".join(f"d{i} >= 0, -d{i} + {e - 1} >= 0" for i, e in enumerate(extents))
    return f"affine_set<({dims}) : ({bounds})>"


def _view(name: str, shape: tuple[int, ...]) -> str:
    strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
    memref = "x".join(map(str, shape)) + "xf16"
    return (f"  %{name}_view = ktdp.construct_memory_view %{name}, sizes: {list(shape)}, "
            f"strides: {strides} {{coordinate_set = {_set(*shape)}, memory_space = "
            f"#ktdp.memory_space<global>}} : memref<{memref}>\n")


def _tile(name: str, shape: tuple[int, ...], at: list[str], block: tuple[int, ...]) -> str:
    memref = "x".join(map(str, shape)) + "xf16"
    tile = "x".join(map(str, block)) + "xindex"
    dims = ", ".join(f"d{i}" for i in range(len(block)))
    return (f"  %{name}_tile = ktdp.construct_access_tile %{name}_view[{', '.join(at)}] {{"
            f"access_tile_set = {_set(*block)}, access_tile_order = affine_map<({dims}) -> "
            f"({dims})>}} : memref<{memref}> -> !ktdp.access_tile<{tile}>\n")


def split_text(m: int, n: int, k: int, gm: int, gn: int, gk: int) -> str:
    """C = A B (A m x k, B k x n, f16) over a grid ``[gk, gn, gm]``: tile (s, j, i)
    multiplies rows i of A (m / gm of them) by columns j of B over k slice s; with
    ``gk`` > 1 the partials (f32) of the ``gk`` tiles of each output block are folded
    by an inter-tile reduce into the block's tile s = 0, which stores them."""
    bm, bn, bk = m // gm, n // gn, k // gk
    acc = "f32" if gk > 1 else "f16"
    text = (f"func.func @product(%a: index, %b: index, %c: index) attributes "
            f"{{grid = [{gk}, {gn}, {gm}]}} {{\n"
            f"  %c0 = arith.constant 0 : index\n"
            f"  %s, %j, %i = ktdp.get_compute_tile_id : index, index, index\n"
            f"  %bm = arith.constant {bm} : index\n  %bn = arith.constant {bn} : index\n"
            f"  %bk = arith.constant {bk} : index\n"
            f"  %row = arith.muli %i, %bm : index\n  %col = arith.muli %j, %bn : index\n"
            f"  %k0 = arith.muli %s, %bk : index\n"
            + _view("a", (m, k)) + _view("b", (k, n)) + _view("c", (m, n))
            + _tile("a", (m, k), ["%row", "%k0"], (bm, bk))
            + _tile("b", (k, n), ["%k0", "%col"], (bk, bn))
            + _tile("c", (m, n), ["%row", "%col"], (bm, bn))
            + f"  %x = ktdp.load %a_tile : !ktdp.access_tile<{bm}x{bk}xindex> -> tensor<{bm}x{bk}xf16>\n"
            f"  %y = ktdp.load %b_tile : !ktdp.access_tile<{bk}x{bn}xindex> -> tensor<{bk}x{bn}xf16>\n"
            f"  %zero = arith.constant 0.0 : {acc}\n"
            f"  %empty = tensor.empty() : tensor<{bm}x{bn}x{acc}>\n"
            f"  %init = linalg.fill ins(%zero : {acc}) outs(%empty : tensor<{bm}x{bn}x{acc}>) -> tensor<{bm}x{bn}x{acc}>\n"
            f"  %p = linalg.matmul ins(%x, %y : tensor<{bm}x{bk}xf16>, tensor<{bk}x{bn}xf16>) "
            f"outs(%init : tensor<{bm}x{bn}x{acc}>) -> tensor<{bm}x{bn}x{acc}>\n")
    if gk == 1:
        return text + (f"  ktdp.store %p, %c_tile : tensor<{bm}x{bn}xf16>, "
                       f"!ktdp.access_tile<{bm}x{bn}xindex>\n  return\n}}\n")
    partial = f"tensor<{bm}x{bn}xf32>"
    groups = f"affine_set<(g) : (g >= 0, -g + {gm * gn - 1} >= 0)>"
    return text + (
        f"  %future = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(t)[g] : "
        f"(t - {gk} * g >= 0, {gk} * g + {gk - 1} - t >= 0)> -> <({partial}), groups = {groups}> {{\n"
        f"  ^bb0(%group: index):\n    ktdp.yield_partial %p : {partial}\n  }}\n"
        f"  %sum = ktdp.inter_tile_reduce(%future) consumer_tiles_per_group = affine_set<(t)[g] : "
        f"(t - {gk} * g == 0)>, identity() : <({partial}), groups = {groups}> -> {partial} {{\n"
        f"  ^bb0(%lhs: {partial}, %rhs: {partial}):\n"
        f"    %both = arith.addf %lhs, %rhs : {partial}\n    ktdp.yield_reduced %both : {partial}\n  }}\n"
        f"  %first = arith.cmpi eq, %s, %c0 : index\n  scf.if %first {{\n"
        f"    %r = arith.truncf %sum : {partial} to tensor<{bm}x{bn}xf16>\n"
        f"    ktdp.store %r, %c_tile : tensor<{bm}x{bn}xf16>, !ktdp.access_tile<{bm}x{bn}xindex>\n"
        f"  }}\n  return\n}}\n")


def batch_text(batch: int, m: int, n: int, k: int) -> str:
    """C[b] = A[b] B[b] by ``linalg.batch_matmul`` on one tile."""
    shapes = {"a": (batch, m, k), "b": (batch, k, n), "c": (batch, m, n)}
    zeros = ["%c0"] * 3
    text = ("func.func @product(%a: index, %b: index, %c: index) attributes {grid = [1]} {\n"
            "  %c0 = arith.constant 0 : index\n"
            + "".join(_view(name, shape) for name, shape in shapes.items())
            + "".join(_tile(name, shape, zeros, shape) for name, shape in shapes.items()))
    types = {name: "x".join(map(str, shape)) for name, shape in shapes.items()}
    return text + (
        f"  %x = ktdp.load %a_tile : !ktdp.access_tile<{types['a']}xindex> -> tensor<{types['a']}xf16>\n"
        f"  %y = ktdp.load %b_tile : !ktdp.access_tile<{types['b']}xindex> -> tensor<{types['b']}xf16>\n"
        f"  %zero = arith.constant 0.0 : f16\n"
        f"  %empty = tensor.empty() : tensor<{types['c']}xf16>\n"
        f"  %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<{types['c']}xf16>) -> tensor<{types['c']}xf16>\n"
        f"  %p = linalg.batch_matmul ins(%x, %y : tensor<{types['a']}xf16>, tensor<{types['b']}xf16>) "
        f"outs(%init : tensor<{types['c']}xf16>) -> tensor<{types['c']}xf16>\n"
        f"  ktdp.store %p, %c_tile : tensor<{types['c']}xf16>, !ktdp.access_tile<{types['c']}xindex>\n"
        f"  return\n}}\n")


def check_against_both(text: str, device: str, arrays: dict, on_matrix_unit: bool,
                       scalars: dict | None = None, name: str = "product") -> None:
    """The simulated ``c`` within the numpy bound of ``a @ b``, and every array within
    the shared rule of the reference interpreter's."""
    simulated = run(text, device, arrays, scalars)
    kernel = Kernel.from_text(text, name)
    reference = kernel.execute({**arrays, **(scalars or {})}).outputs
    a, b = (arrays[key] for key in list(arrays)[:2])
    c = list(arrays)[2]
    assert_product(simulated[c], a, b, on_matrix_unit)
    length = reduction_length(kernel, scalars or {})
    elements = {key: "f16" for key in arrays}
    mismatch = compare(simulated, {key: reference[key] for key in arrays}, elements, length)
    assert mismatch is None, str(mismatch)


def _inputs(m: int, n: int, k: int, seed: int, batch: tuple[int, ...] = ()) -> dict:
    rng = np.random.default_rng(seed)
    return {"a": rng.standard_normal((*batch, m, k)).astype(np.float16),
            "b": rng.standard_normal((*batch, k, n)).astype(np.float16),
            "c": np.zeros((*batch, m, n), np.float16)}


SPLITS = {
    "spyre": [(2, 2, 1), (1, 1, 4), (2, 2, 2), (1, 2, 8)],
    "toy": [(2, 1, 1), (1, 1, 2)],
    "line4": [(2, 2, 1), (1, 1, 4), (1, 2, 2)],
}


@pytest.mark.parametrize("device, split", [(device, split) for device in SPLITS
                                           for split in SPLITS[device]])
def test_split_over_cores_matches_numpy(device: str, split: tuple[int, int, int]):
    """A 16 x 128 by 128 x 64 product (grid [gk, gn, gm])."""
    gm, gn, gk = split
    check_against_both(split_text(16, 64, 128, gm, gn, gk), device, _inputs(16, 64, 128, 7),
                       device in MATRIX_UNIT)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), device=st.sampled_from(sorted(CORES)), seed=st.integers(0, 2**16))
def test_generated_split_matches_numpy(data, device, seed):
    """M, N, K and the split drawn (no multiple of the units' rows or lanes needed)
    over at most the device's cores."""
    gk = data.draw(st.sampled_from([g for g in (1, 2, 4) if g <= CORES[device]]))
    gm = data.draw(st.sampled_from([g for g in (1, 2) if g * gk <= CORES[device]]))
    gn = data.draw(st.sampled_from([g for g in (1, 2) if g * gm * gk <= CORES[device]]))
    m = gm * data.draw(st.integers(1, 12))
    n = gn * data.draw(st.integers(1, 12))
    k = gk * data.draw(st.integers(2, 24))
    check_against_both(split_text(m, n, k, gm, gn, gk), device, _inputs(m, n, k, seed),
                       device in MATRIX_UNIT)


@pytest.mark.parametrize("device", [param.id for param in DEVICES])
def test_batch_matmul_matches_numpy(device: str):
    """Four products of 7 x 19 by 19 x 13 (no multiple of any unit's rows or lanes):
    multiplied and reduced along k on the SIMD engine of every device."""
    check_against_both(batch_text(4, 7, 13, 19), device, _inputs(7, 13, 19, 11, (4,)), False)


def test_the_corpus_matmul_on_spyre():
    """The corpus's matmul_fwd as written: a 64 x 2048 by 2048 x 8192 product over a
    [2, 16] grid of 32 x 512 output blocks, its own loop over k in blocks of 128
    accumulating in f16 (the reference rounds each block's sum; the compiled kernel
    accumulates the whole k in f32 and rounds once)."""
    path = corpus_kernel("ktir-cpu/triton-ktir/matmul_fwd_ktir.mlir")
    scalars = {"K": 2048, "BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 512, "BLOCK_SIZE_K": 128}
    rng = np.random.default_rng(5)
    arrays = {"a_ptr": rng.standard_normal((64, 2048)).astype(np.float16),
              "b_ptr": rng.standard_normal((2048, 8192)).astype(np.float16),
              "c_ptr": np.zeros((64, 8192), np.float16)}
    assert reduction_length(Kernel.from_text(path.read_text()), scalars) == 2048
    check_against_both(path.read_text(), "spyre", arrays, True, scalars, "matmul_kernel")


@pytest.mark.parametrize("split", [1, 4])
def test_the_check_of_a_large_k_product_grows_with_k_and_fails_a_perturbed_one(split: int):
    """An 8 x 8192 by 8192 x 64 product on spyre (on one tile, or k split over 4 tiles
    whose partials an inter-tile reduce folds): ``reduction_length`` counts all 8192
    terms (the slice times the tiles), the rule's tolerance grows with them, the
    simulated product passes it against the reference and against numpy's product
    rounded once to f16, and the same output with one element moved by three times
    the tolerance there fails it."""
    m, n, k = 8, 64, 8192
    text = split_text(m, n, k, 1, 1, split)
    arrays = _inputs(m, n, k, 3)
    kernel = Kernel.from_text(text, "product")
    length = reduction_length(kernel)
    assert length == k
    assert tolerance("f16", length) > tolerance("f16", 64) > tolerance("f16", 2) > 0
    simulated = run(text, "spyre", arrays)
    assert_product(simulated["c"], arrays["a"], arrays["b"], True)
    reference = kernel.execute(dict(arrays)).outputs
    numpy_product = (arrays["a"].astype(np.float64) @ arrays["b"].astype(np.float64)).astype(np.float16)
    elements = {"c": "f16"}
    for expected in (reference["c"], numpy_product):
        assert compare({"c": simulated["c"]}, {"c": expected}, elements, length) is None
        _, allowed = differences(simulated["c"], expected, "f16", length)
        index = (3, 17)
        wrong = simulated["c"].copy()
        wrong[index] = np.float16(float(expected[index]) + 3 * allowed[index])
        mismatch = compare({"c": wrong}, {"c": expected}, elements, length)
        assert mismatch is not None and mismatch.index == index


def attention_bound(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float) -> tuple:
    """softmax(Q K^T scale) V in float64, and a bound of the error of an f16 kernel that
    computes it as sdpa_2d does (f16 roundings of u each): a score sums d products in a
    tree ((2 + log2 d) u of sum |q||k|), is scaled (one more u of it) and shifted by the
    row maximum (exact in value, one rounding); its error e moves exp by a factor of
    e^(e) ~ 1 + e, the exp rounds (u), the row sum of n terms ((2 + log2 n) u) and the
    division (u): a relative error r of each probability of at most 2 e + (5 + log2 n)
    u; the product with V adds (2 + log2 n) u of sum p |v| and each output one u."""
    q64, k64, v64 = (x.astype(np.float64) for x in (q, k, v))
    d, n = q.shape[1], k.shape[0]
    scores = q64 @ k64.T * scale
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    out = p @ v64
    score_error = ((2 + np.log2(d)) * U * (np.abs(q64) @ np.abs(k64).T) * scale
                   + 2 * U * np.abs(scores)).max(axis=1, keepdims=True)
    relative = 2 * score_error + (5 + np.log2(n)) * U
    bound = (relative + (2 + np.log2(n)) * U) * (p @ np.abs(v64)) + U * np.abs(out) + 2.0**-24
    return out, bound


U = 2.0**-11


@pytest.mark.parametrize("device", [param.id for param in DEVICES])
def test_the_corpus_attention(device: str):
    """The corpus's sdpa_2d as written (one tile: Q, K, V and the output 32 x 64 f16;
    Q K^T through a transpose of K, scaled by 1/8, a softmax over each row, times V):
    the scores and P V are multiplied on the SIMD engine (P is computed on chip; K is
    read transposed), the scores stored once to the scratchpad for the softmax."""
    path = corpus_kernel("ktir-cpu/triton-ktir/sdpa_2d.mlir")
    rng = np.random.default_rng(9)
    q, k, v = (rng.standard_normal((32, 64)).astype(np.float16) for _ in range(3))
    arrays = {"q_ptr": q, "k_ptr": k, "v_ptr": v, "output_ptr": np.zeros((32, 64), np.float16)}
    text = path.read_text()
    simulated = run(text, device, arrays)
    kernel = Kernel.from_text(text, "sdpa_kernel_2d")
    reference = kernel.execute(dict(arrays)).outputs
    exact, bound = attention_bound(q, k, v, 0.125)
    error = np.abs(simulated["output_ptr"].astype(np.float64) - exact)
    assert np.all(error <= bound), f"worst {np.max(error - bound):.3g} past the bound"
    # The bound tells a wrong attention apart: scores scaled by 1/7 instead of 1/8, or
    # the rows of V taken in the reverse order.
    assert np.any(np.abs(attention_bound(q, k, v, 1 / 7)[0] - exact) > bound)
    assert np.any(np.abs(attention_bound(q, k, v[::-1], 0.125)[0] - exact) > bound)
    elements = {key: "f16" for key in arrays}
    mismatch = compare(simulated, {key: reference[key] for key in arrays}, elements,
                       reduction_length(kernel))
    assert mismatch is None, str(mismatch)
