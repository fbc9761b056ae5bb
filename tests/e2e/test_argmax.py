"""Argmax and argmin: reductions into two outputs, a value and its index.

A ``linalg.reduce`` of values and f32 indices and a ``linalg.generic`` of the same
two inputs, each body breaking ties by the smaller index (so any fold order gives
numpy's answer), compile through ``normalize-select-combiners`` (a max or min, then a min of the
indices where the value equals it) on every test device. Rows and columns, lengths
that are not a multiple of the SIMD lanes, many ties and ``-inf`` are compared
exactly with ``np.argmax`` / ``np.argmin`` and ``np.max`` / ``np.min`` written here, and
with the reference interpreter; hypothesis draws shapes and values from a few
levels. Rows split over two tiles combine their (value, index) partials by
``ktdp.inter_tile_reduce`` with the same compare and selects (ties across the
tiles keep the smaller column). A wrong index among tied values fails the check. A strict compare without
the tie break, with the index as ``linalg.index`` cast to i32, runs on the reference
interpreter (its loop order keeps the first of equal values) and is refused by the
compiler with its reason.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES, LINE4, ROOT  # noqa: E402

from ktc.dialects.diagnostics import KtcError  # noqa: E402
from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.runtime.executable import prepare  # noqa: E402
from ktc.sim.reference import Kernel  # noqa: E402
from ktc.sim.simulator import Simulator  # noqa: E402

TIE_BREAK = """      %gt = arith.cmpf {strict}, %v, %accv : f16
      %eq = arith.cmpf oeq, %v, %accv : f16
      %lt = arith.cmpf olt, %j, %accj : f32
      %tie = arith.andi %eq, %lt : i1
      %take = arith.ori %gt, %tie : i1"""


def kernel(rows: int, cols: int, axis: int, greater: bool, form: str) -> str:
    """``mx = x.max(axis)`` (min) and ``am = x.argmax(axis)`` (argmin) of an f16
    ``rows x cols`` array, with the f32 indices ``ix`` an input: one tile per row
    (``axis`` 1) or one tile of the whole array (``axis`` 0), by a ``linalg.reduce``
    or a ``linalg.generic`` (``form``), ties broken by the index."""
    tile = (1, cols) if axis == 1 else (rows, cols)
    out = tile[1 - axis]
    start = "%r, %c0" if axis == 1 else "%c0, %c0"
    at = "%r" if axis == 1 else "%c0"
    condition = TIE_BREAK.format(strict="ogt" if greater else "olt")
    low = "0xFC00" if greater else "0x7C00"
    t = f"tensor<{tile[0]}x{tile[1]}x"
    o = f"tensor<{out}x"
    body = f"""
{condition}
      %nv = arith.select %take, %v, %accv : f16
      %nj = arith.select %take, %j, %accj : f32
      linalg.yield %nv, %nj : f16, f32"""
    if form == "reduce":
        reduction = f"""  %m, %k = linalg.reduce ins(%a, %i : {t}f16>, {t}f32>) outs(%low, %zero : {o}f16>, {o}f32>) dimensions = [{axis}]
    (%v: f16, %j: f32, %accv: f16, %accj: f32) {{{body}
    }}"""
    else:
        kept = "#rows" if axis == 1 else "#cols"
        reduction = f"""  %m, %k = linalg.generic {{indexing_maps = [#id, #id, {kept}, {kept}], iterator_types = [{'"parallel", "reduction"' if axis == 1 else '"reduction", "parallel"'}]}}
      ins(%a, %i : {t}f16>, {t}f32>) outs(%low, %zero : {o}f16>, {o}f32>) {{
  ^bb0(%v: f16, %j: f32, %accv: f16, %accj: f32):{body}
  }} -> ({o}f16>, {o}f32>)"""
    grid = rows if axis == 1 else 1
    return f"""#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, -d1 + {cols - 1} >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + {tile[0] - 1} >= 0, d1 >= 0, -d1 + {tile[1] - 1} >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + {(rows, cols)[1 - axis] - 1} >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 + {out - 1} >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#rows = affine_map<(d0, d1) -> (d0)>
#cols = affine_map<(d0, d1) -> (d1)>
func.func @arg_extremum(%x: index, %ix: index, %mx: index, %am: index) attributes {{grid = [{grid}]}} {{
  %c0 = arith.constant 0 : index
  %r = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [{rows}, {cols}], strides: [{cols}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{rows}x{cols}xf16>
  %iv = ktdp.construct_memory_view %ix, sizes: [{rows}, {cols}], strides: [{cols}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{rows}x{cols}xf32>
  %mv = ktdp.construct_memory_view %mx, sizes: [{(rows, cols)[1 - axis]}], strides: [1] {{coordinate_set = #out, memory_space = #ktdp.memory_space<global>}} : memref<{(rows, cols)[1 - axis]}xf16>
  %kv = ktdp.construct_memory_view %am, sizes: [{(rows, cols)[1 - axis]}], strides: [1] {{coordinate_set = #out, memory_space = #ktdp.memory_space<global>}} : memref<{(rows, cols)[1 - axis]}xf32>
  %xt = ktdp.construct_access_tile %xv[{start}] {{access_tile_set = #tile, access_tile_order = #id}} : memref<{rows}x{cols}xf16> -> !ktdp.access_tile<{tile[0]}x{tile[1]}xindex>
  %it = ktdp.construct_access_tile %iv[{start}] {{access_tile_set = #tile, access_tile_order = #id}} : memref<{rows}x{cols}xf32> -> !ktdp.access_tile<{tile[0]}x{tile[1]}xindex>
  %mt = ktdp.construct_access_tile %mv[{at}] {{access_tile_set = #one, access_tile_order = #id1}} : memref<{(rows, cols)[1 - axis]}xf16> -> !ktdp.access_tile<{out}xindex>
  %kt = ktdp.construct_access_tile %kv[{at}] {{access_tile_set = #one, access_tile_order = #id1}} : memref<{(rows, cols)[1 - axis]}xf32> -> !ktdp.access_tile<{out}xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<{tile[0]}x{tile[1]}xindex> -> {t}f16>
  %i = ktdp.load %it : !ktdp.access_tile<{tile[0]}x{tile[1]}xindex> -> {t}f32>
  %low = arith.constant dense<{low}> : {o}f16>
  %zero = arith.constant dense<0.0> : {o}f32>
{reduction}
  ktdp.store %m, %mt : {o}f16>, !ktdp.access_tile<{out}xindex>
  ktdp.store %k, %kt : {o}f32>, !ktdp.access_tile<{out}xindex>
  return
}}
"""


def inputs(x: np.ndarray, axis: int) -> dict[str, np.ndarray]:
    """The values, their positions along ``axis`` as f32, and zeroed outputs."""
    positions = np.indices(x.shape)[axis].astype(np.float32)
    n = x.shape[1 - axis]
    return {"x": x, "ix": positions, "mx": np.zeros(n, np.float16), "am": np.zeros(n, np.float32)}


def check(outputs: dict[str, np.ndarray], x: np.ndarray, axis: int, greater: bool) -> None:
    """The value and the first index of the extremum, exactly (both are exact)."""
    index = np.argmax(x, axis=axis) if greater else np.argmin(x, axis=axis)
    value = np.max(x, axis=axis) if greater else np.min(x, axis=axis)
    np.testing.assert_array_equal(outputs["am"], index.astype(np.float32))
    np.testing.assert_array_equal(outputs["mx"], value)


def run(text: str, device: str, x: np.ndarray, axis: int):
    """The simulated and the reference outputs."""
    args = inputs(x, axis)
    simulated = prepare(compile_kernel(text, device), Simulator(device)).launch(*args.values())
    reference = Kernel.from_text(text).execute(inputs(x, axis)).outputs
    return simulated, reference


def tied(rng: np.random.Generator, shape: tuple[int, ...], levels: int) -> np.ndarray:
    """Values from a few levels (many ties), a row of ``-inf`` and one of ``+inf``."""
    x = rng.integers(-levels, levels + 1, shape).astype(np.float16)
    x[rng.random(shape) < 0.1] = -np.inf
    x[0] = -np.inf
    if shape[0] > 2:
        x[2, ::3] = np.inf
    return x


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("form", ["reduce", "generic"])
@pytest.mark.parametrize(("axis", "greater"), [(1, True), (1, False), (0, True)])
def test_arg_extremum(device: str, form: str, axis: int, greater: bool):
    rows, cols = (4, 100) if axis == 1 else (37, 5)
    x = tied(np.random.default_rng(rows + cols), (rows, cols), levels=2)
    for outputs in run(kernel(rows, cols, axis, greater, form), device, x, axis):
        check(outputs, x, axis, greater)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 4), cols=st.integers(1, 140), levels=st.integers(0, 3),
       greater=st.booleans(), seed=st.integers(0, 2**16))
def test_drawn_rows(rows: int, cols: int, levels: int, greater: bool, seed: int):
    x = tied(np.random.default_rng(seed), (rows, cols), levels)
    for outputs in run(kernel(rows, cols, 1, greater, "reduce"), "spyre", x, 1):
        check(outputs, x, 1, greater)


SPLIT = ROOT / "tests" / "e2e" / "inputs" / "split_argmax.mlir"
"""m = x.max(axis=1), am = x.argmax(axis=1) of a 4x256 f16 array, each row over two tiles."""


@pytest.mark.parametrize("device", ["spyre", str(LINE4)], ids=["spyre", "line4"])
def test_rows_split_over_tiles(device: str):
    x = tied(np.random.default_rng(5), (4, 256), levels=2)
    x[3, [7, 130]] = 8  # the maximum in both tiles' halves: the first tile's column
    x[1, [200, 250]] = 8  # in the second tile only, twice
    columns = np.broadcast_to(np.arange(256, dtype=np.float32), x.shape).copy()
    args = {"x": x, "cols": columns, "m": np.zeros(4, np.float16), "am": np.zeros(4, np.float32)}
    text = SPLIT.read_text()
    simulated = prepare(compile_kernel(text, device), Simulator(device)).launch(*args.values())
    reference = Kernel.from_text(text).execute(dict(args)).outputs
    for outputs in (simulated, reference):
        check({"am": outputs["am"], "mx": outputs["m"]}, x, 1, True)


def test_rows_split_over_more_tiles_than_toy_has_cores():
    with pytest.raises(KtcError, match="grid \\[2, 2\\] has 4 tiles that communicate, but device "
                                       "@toy has 2 cores"):
        compile_kernel(SPLIT.read_text(), "toy")


def test_a_wrong_index_fails():
    """The last of the tied maxima instead of the first is caught."""
    x = np.array([[1, 3, 0, 3], [2, 2, 2, 2]], np.float16)
    last = x.shape[1] - 1 - np.argmax(x[:, ::-1], axis=1)
    wrong = {"am": last.astype(np.float32), "mx": x.max(axis=1)}
    with pytest.raises(AssertionError):
        check(wrong, x, 1, True)
    check({"am": np.argmax(x, axis=1).astype(np.float32), "mx": x.max(axis=1)}, x, 1, True)


POSITIONS = """#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 69 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 69 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#rows = affine_map<(d0, d1) -> (d0)>
func.func @argmax(%x: index, %am: index) attributes {grid = [3]} {
  %c0 = arith.constant 0 : index
  %r = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [3, 70], strides: [70, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<3x70xf16>
  %kv = ktdp.construct_memory_view %am, sizes: [3], strides: [1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<3xi32>
  %xt = ktdp.construct_access_tile %xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<3x70xf16> -> !ktdp.access_tile<1x70xindex>
  %kt = ktdp.construct_access_tile %kv[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<3xi32> -> !ktdp.access_tile<1xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x70xindex> -> tensor<1x70xf16>
  %low = arith.constant dense<0xFC00> : tensor<1xf16>
  %zero = arith.constant dense<0> : tensor<1xi32>
  %m, %k = linalg.generic {indexing_maps = [#id, #rows, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<1x70xf16>) outs(%low, %zero : tensor<1xf16>, tensor<1xi32>) {
  ^bb0(%v: f16, %accv: f16, %accj: i32):
    %n = linalg.index 1 : index
    %j = arith.index_cast %n : index to i32
    %gt = arith.cmpf ogt, %v, %accv : f16
    %nv = arith.select %gt, %v, %accv : f16
    %nj = arith.select %gt, %j, %accj : i32
    linalg.yield %nv, %nj : f16, i32
  } -> (tensor<1xf16>, tensor<1xi32>)
  ktdp.store %k, %kt : tensor<1xi32>, !ktdp.access_tile<1xindex>
  return
}
"""
"""am[r] = argmax(x[r]) as i32, the index from linalg.index."""


def test_positions_from_linalg_index_on_the_reference():
    x = tied(np.random.default_rng(3), (3, 70), levels=1)
    outputs = Kernel.from_text(POSITIONS).execute({"x": x, "am": np.zeros(3, np.int32)}).outputs
    np.testing.assert_array_equal(outputs["am"], np.argmax(x, axis=1))


def test_positions_from_linalg_index_are_refused():
    """An i32 index has no lanes; an f32 one from linalg.index has none that count."""
    with pytest.raises(KtcError, match="no lanes for i32"):
        compile_kernel(POSITIONS, "spyre")
    floats = (POSITIONS.replace("xi32>", "xf32>").replace("dense<0>", "dense<0.0>")
              .replace("%accj: i32", "%accj: f32").replace(", %accj : i32", ", %accj : f32")
              .replace("%j = arith.index_cast %n : index to i32",
                       "%c = arith.index_cast %n : index to i32\n    %j = arith.sitofp %c : i32 to f32")
              .replace("f16, i32", "f16, f32"))
    np.testing.assert_array_equal(
        Kernel.from_text(floats).execute({"x": np.eye(3, 70, 5, np.float16), "am": np.zeros(3, np.float32)})
        .outputs["am"], [5, 6, 7])
    with pytest.raises(KtcError, match="takes its index from linalg.index; .* pass the indices "
                                       "as an f32 input"):
        compile_kernel(floats, "spyre")


def test_ties_by_fold_order_are_refused():
    """Without the tie break the compiled answer could differ: the check says so."""
    strict = kernel(2, 10, 1, True, "reduce").replace(TIE_BREAK.format(strict="ogt"),
                                                      "      %take = arith.cmpf ogt, %v, %accv : f16")
    with pytest.raises(KtcError, match="keeps the first of equal values in the order it folds"):
        compile_kernel(strict, "spyre")
