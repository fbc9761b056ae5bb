"""Contractions compile and simulate to numpy's product on every test device: on the
matrix unit (spyre, toy) and on the SIMD engine of the third chip, which has none.

Products of sizes that are no multiple of the units' rows and lanes, with a transposed
operand (a ``linalg.transpose`` of B, or A read through one) and an epilogue (none, a
scale, a bias broadcast over the rows): one fixed case each, and generated ones
(hypothesis draws M, N, K, the transpose, the epilogue and the device; K of one, an
outer product, only where the matrix unit multiplies it).

Tolerances against the float64 product ``C = A B`` of the f16 inputs, per element, in
units of f16's roundoff u = 2^-11: the result is rounded to f16 once (u |C|); with an
epilogue the product is rounded before it, and the device's rounding and numpy's may
fall on the two sides of a midpoint (2 u |C|), then the epilogue's result rounds once
(u |E|, E the epilogue's float64 result on numpy's rounded product); the sum adds rounding errors that scale with the sum of
the products' magnitudes S = |A| |B|: on the matrix unit (spyre and toy, either
operand stored transposed or not) each product is exact in f32 and the K terms add up in f32 (K 2^-24 S), on
the SIMD engine they are summed in a
tree whose partials round to f16 ((2 + log2 K) u S): every product on the third chip.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import LINE4, ROOT
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim.simulator import Simulator

U = 2.0**-11
DEVICES = {"spyre": "spyre", "toy": "toy", "line4": str(LINE4)}
MATRIX_UNIT = {"spyre", "toy"}


def matmul_text(m: int, n: int, k: int, transposed: str = "", epilogue: str = "") -> str:
    """C = A B (+ an epilogue) for A m x k, B k x n; ``transposed`` "b" keeps B in
    memory as n x k (read through a transpose), "a" keeps A as k x m."""
    a_shape = (k, m) if transposed == "a" else (m, k)
    b_shape = (n, k) if transposed == "b" else (k, n)

    def view(name: str, shape: tuple[int, int]) -> str:
        rows, cols = shape
        return (f"%{name}_view = ktdp.construct_memory_view %{name}, sizes: [{rows}, {cols}], "
                f"strides: [{cols}, 1] {{coordinate_set = affine_set<(d0, d1) : (d0 >= 0, "
                f"-d0 + {rows - 1} >= 0, d1 >= 0, -d1 + {cols - 1} >= 0)>, memory_space = "
                f"#ktdp.memory_space<global>}} : memref<{rows}x{cols}xf16>\n"
                f"    %{name}_tile = ktdp.construct_access_tile %{name}_view[%c0, %c0] {{"
                f"access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, "
                f"d1 >= 0, -d1 + {cols - 1} >= 0)>, access_tile_order = affine_map<(d0, d1) -> "
                f"(d0, d1)>}} : memref<{rows}x{cols}xf16> -> !ktdp.access_tile<{rows}x{cols}xindex>\n")

    def load(name: str, shape: tuple[int, int]) -> str:
        rows, cols = shape
        return (f"%{name}_loaded = ktdp.load %{name}_tile : !ktdp.access_tile<{rows}x{cols}xindex> "
                f"-> tensor<{rows}x{cols}xf16>\n")

    def operand(name: str, shape: tuple[int, int], flipped: bool) -> str:
        if not flipped:
            return f"%{name}_loaded"
        return f"%{name}_t"

    lines = [view("a", a_shape), view("b", b_shape), view("c", (m, n))]
    if epilogue == "bias":
        lines.append(
            f"%bias_view = ktdp.construct_memory_view %bias, sizes: [{n}], strides: [1] "
            f"{{coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + {n - 1} >= 0)>, memory_space = "
            f"#ktdp.memory_space<global>}} : memref<{n}xf16>\n"
            f"    %bias_tile = ktdp.construct_access_tile %bias_view[%c0] {{access_tile_set = "
            f"affine_set<(d0) : (d0 >= 0, -d0 + {n - 1} >= 0)>, access_tile_order = "
            f"affine_map<(d0) -> (d0)>}} : memref<{n}xf16> -> !ktdp.access_tile<{n}xindex>\n"
            f"    %bias_loaded = ktdp.load %bias_tile : !ktdp.access_tile<{n}xindex> -> tensor<{n}xf16>\n")
    lines += [load("a", a_shape), load("b", b_shape)]
    for name, flipped, shape in (("a", transposed == "a", (m, k)), ("b", transposed == "b", (k, n))):
        if flipped:
            lines.append(f"%{name}_empty = tensor.empty() : tensor<{shape[0]}x{shape[1]}xf16>\n"
                         f"    %{name}_t = linalg.transpose ins(%{name}_loaded : tensor<{shape[1]}x{shape[0]}xf16>) "
                         f"outs(%{name}_empty : tensor<{shape[0]}x{shape[1]}xf16>) permutation = [1, 0]\n")
    lines.append(f"%zero = arith.constant 0.0 : f16\n"
                 f"    %empty = tensor.empty() : tensor<{m}x{n}xf16>\n"
                 f"    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<{m}x{n}xf16>) -> tensor<{m}x{n}xf16>\n"
                 f"    %product = linalg.matmul ins({operand('a', (m, k), transposed == 'a')}, "
                 f"{operand('b', (k, n), transposed == 'b')} : tensor<{m}x{k}xf16>, tensor<{k}x{n}xf16>) "
                 f"outs(%init : tensor<{m}x{n}xf16>) -> tensor<{m}x{n}xf16>\n")
    result = "%product"
    if epilogue == "scale":
        lines.append(f"%half = arith.constant 0.5 : f16\n"
                     f"    %halves = tensor.splat %half : tensor<{m}x{n}xf16>\n"
                     f"    %scaled = arith.mulf %product, %halves : tensor<{m}x{n}xf16>\n")
        result = "%scaled"
    if epilogue == "bias":
        lines.append(f"%rows_empty = tensor.empty() : tensor<{m}x{n}xf16>\n"
                     f"    %rows = linalg.broadcast ins(%bias_loaded : tensor<{n}xf16>) "
                     f"outs(%rows_empty : tensor<{m}x{n}xf16>) dimensions = [0]\n"
                     f"    %biased = arith.addf %product, %rows : tensor<{m}x{n}xf16>\n")
        result = "%biased"
    lines.append(f"ktdp.store {result}, %c_tile : tensor<{m}x{n}xf16>, !ktdp.access_tile<{m}x{n}xindex>\n")
    arguments = "%a: index, %b: index, %c: index" + (", %bias: index" if epilogue == "bias" else "")
    body = "    ".join(lines)
    return (f"module {{\n  func.func @matmul({arguments}) attributes {{grid = [1]}} {{\n"
            f"    %c0 = arith.constant 0 : index\n    {body}    return\n  }}\n}}\n")


def run(text: str, device: str, arrays: dict[str, np.ndarray], scalars: dict | None = None):
    """The kernel's outputs on the simulated device."""
    simulator = Simulator(DEVICES[device])
    executable = prepare(compile_kernel(text, DEVICES[device], "matmul.mlir"), simulator)
    names = [name for name in arrays] + list(scalars or {})
    values = {**arrays, **(scalars or {})}
    return executable.launch(*[values[name] for name in names])


def assert_product(got: np.ndarray, a: np.ndarray, b: np.ndarray, on_matrix_unit: bool,
                   after: np.ndarray | None = None, roundings: int = 1) -> None:
    """``got`` within the tolerance of the module docstring of ``after`` (the product
    with its epilogue, float64), or of ``a @ b``; ``roundings`` 2 for an epilogue."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    product = a64 @ b64
    exact = product if after is None else after
    scale = np.abs(a64) @ np.abs(b64)
    k = a.shape[-1]
    summed = k * 2.0**-24 if on_matrix_unit else (2 + math.log2(max(k, 1))) * U
    rounded_product = 2 * U * np.abs(product) * (roundings - 1)
    allowed = U * np.abs(exact) + rounded_product + summed * scale + 2.0**-24
    error = np.abs(got.astype(np.float64) - exact)
    worst = np.unravel_index(np.argmax(error - allowed), error.shape)
    assert np.all(error <= allowed), (f"at {list(worst)}: {got[worst]} vs {exact[worst]} "
                                      f"(allowed {allowed[worst]:.3g})")


@pytest.mark.parametrize("device", DEVICES)
def test_example_matches_numpy(device: str):
    text = (ROOT / "examples" / "matmul.mlir").read_text()
    rng = np.random.default_rng(3)
    a = rng.standard_normal((64, 128)).astype(np.float16)
    b = rng.standard_normal((128, 64)).astype(np.float16)
    out = run(text, device, {"a": a, "b": b, "c": np.zeros((64, 64), np.float16)})
    assert_product(out["c"], a, b, device in MATRIX_UNIT)


@pytest.mark.parametrize("epilogue", ["", "scale", "bias"])
@pytest.mark.parametrize("transposed", ["", "a", "b"])
@pytest.mark.parametrize("device", DEVICES)
def test_product_of_odd_sizes_matches_numpy(device, transposed, epilogue):
    """M, N and K no multiple of any unit's rows or lanes (7 x 9 by 9 x 13)."""
    check_product(7, 13, 9, transposed, epilogue, device, seed=5)


@pytest.mark.parametrize("epilogue", ["", "bias"])
def test_product_whose_accumulator_reads_outweigh_its_scratchpad_loads(epilogue):
    """18 x 13 by 13 x 24 on toy: the matrix unit reads its accumulators six times the
    bytes the load unit reads from the scratchpad; the scratchpad's feed bound counts
    only the latter (counting both put it above the simulated cycles), and the bias
    epilogue's product rounds across a midpoint from numpy's."""
    check_product(18, 24, 13, "", epilogue, "toy", seed=24145)


def check_product(m, n, k, transposed, epilogue, device, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    arrays = {"a": a.T.copy() if transposed == "a" else a,
              "b": b.T.copy() if transposed == "b" else b,
              "c": np.zeros((m, n), np.float16)}
    product = a.astype(np.float64) @ b.astype(np.float64)
    after, roundings = None, 1
    if epilogue:
        # The product is rounded to f16 before the epilogue, which rounds again.
        rounded = product.astype(np.float16).astype(np.float64)
        if epilogue == "scale":
            after = rounded * 0.5
        else:
            bias = rng.standard_normal(n).astype(np.float16)
            arrays["bias"] = bias
            after = rounded + bias.astype(np.float64)[None, :]
        roundings = 2
    out = run(matmul_text(m, n, k, transposed, epilogue), device, arrays)
    # A transposed operand is multiplied on the matrix unit too (the DMA transposes it).
    assert_product(out["c"], a, b, device in MATRIX_UNIT, after, roundings)



@pytest.mark.parametrize("transposed", ["a", "b"])
@pytest.mark.parametrize("device", sorted(MATRIX_UNIT))
def test_transposed_operand_is_multiplied_on_the_matrix_unit(device, transposed):
    """A stored k-major (A as k x m, B as n x k) reaches the matrix unit: the report's
    issued-traffic bound counts the unit's steps of the 16 x 32 by 32 x 64 product, on
    average over the units that share it (a core's, one per sub-core: its rows split
    between them; no matrix term when the SIMD engine multiplies), and the result is
    within the matrix unit's tolerance."""
    m, n, k = 16, 64, 32
    rng = np.random.default_rng(11)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    simulator = Simulator(DEVICES[device])
    executable = prepare(compile_kernel(matmul_text(m, n, k, transposed), DEVICES[device],
                                        "matmul.mlir"), simulator)
    out = executable.launch(a.T.copy() if transposed == "a" else a,
                            b.T.copy() if transposed == "b" else b, np.zeros((m, n), np.float16))
    unit = simulator.device.matrix
    units = simulator.device.matrix_subcores
    assert executable.report().bound_terms.get("matrix issue", 0) * units >= unit.steps(m, k, n)
    assert_product(out["c"], a, b, True)


@pytest.mark.parametrize("example, shapes, products", [
    ("attention", [(64, 64)] * 4, [(32, 64, 64), (32, 64, 64)]),
    ("swiglu_mlp", [(64, 32), (32, 64), (32, 64), (64, 32), (64, 32)],
     [(32, 32, 64), (32, 32, 64), (32, 64, 32)]),
])
def test_on_chip_operand_is_multiplied_on_the_matrix_unit(example, shapes, products):
    """Attention's P V (P the softmax of the scores) and SwiGLU's down product (its
    left operand the gated product) run on spyre's matrix units beside the products of
    loaded operands: the report's issued-traffic bound counts, over the matrix units
    that ran (a product's rows or blocks shared out over a core's two), at least the
    steps of every product of each of the two tiles (``products``: m, k, n; without the
    on-chip one it falls short), and the ideal's matrix compute term the
    multiply-accumulates of those products, however they are shared out."""
    text = (ROOT / "examples" / f"{example}.mlir").read_text()
    simulator = Simulator("spyre")
    executable = prepare(compile_kernel(text, "spyre", f"{example}.mlir"), simulator)
    rng = np.random.default_rng(2)
    executable.launch(*(rng.standard_normal(shape).astype(np.float16) / 4 for shape in shapes))
    unit = simulator.device.matrix
    steps = sum(unit.steps(m, k, n) for m, k, n in products)
    report = executable.report()
    ran = sum(1 for name, figures in report.instances.items() if name.startswith("PT[") and figures.busy)
    # "matrix issue" is the units' issued steps on average over those that ran.
    assert report.bound_terms["matrix issue"] * ran >= 2 * steps
    roof = simulator.device.roofline
    peak = roof.matrix_units * roof.matrix.rows * roof.matrix.lanes
    macs = 2 * sum(m * k * n for m, k, n in products)
    assert report.ideal_terms["matrix compute"] == -(-macs // peak)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=st.integers(1, 24), n=st.integers(1, 24), k=st.integers(1, 40),
       transposed=st.sampled_from(["", "a", "b"]), epilogue=st.sampled_from(["", "scale", "bias"]),
       device=st.sampled_from(sorted(DEVICES)), seed=st.integers(0, 2**16))
def test_generated_product_matches_numpy(m, n, k, transposed, epilogue, device, seed):
    # An outer product (K = 1) the SIMD engine refuses (contraction-tiling's negative test).
    assume(k > 1 or (device in MATRIX_UNIT and not transposed))
    check_product(m, n, k, transposed, epilogue, device, seed)
