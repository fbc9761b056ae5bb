"""Indirect access tiles compiled and simulated: gathers (``ktdp.load``) and scatters
(``ktdp.store``) whose coordinates come from index tensors read at run time, in every
form of ``anchor-ktir.md``: ``ind(...)`` subscripts, captured variables (the tile id),
``floordiv`` / ``mod`` (a paged KV cache), two indirect dimensions, an i64 index
(the corpus's ``indexed_add``). Each run is compared by ``ktc.sim.check`` with a numpy
formula written here and with the reference interpreter; every pointer argument comes
back from the device, so a scatter that writes a row it should not fails. The timing
side: one descriptor per contiguous run (``ktdf_arch.descriptor_cycles``), so the
descriptors counted depend on the index values."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES, ROOT, pipeline_through, require_corpus, run_pipeline  # noqa: E402
from simulated import agree, run  # noqa: E402

from xdsl.dialects import memref  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.errors import KtcError  # noqa: E402
from ktc.sim.check import compare  # noqa: E402
from ktc.sim.simulator import Simulator  # noqa: E402
from ktc.tools.ktc import main  # noqa: E402

ROWS, WIDTH, TABLE = 8, 64, 100

EMBEDDING = """#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @embedding(%table: index, %ids: index, %out: index) attributes {grid = [2]} {
  %tile = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %first = arith.muli %tile, %c4 : index
  %tv = ktdp.construct_memory_view %table, sizes: [100, 64], strides: [64, 1]
      {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  %iv = ktdp.construct_memory_view %ids, sizes: [8], strides: [1]
      {coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %ov = ktdp.construct_memory_view %out, sizes: [8, 64], strides: [64, 1]
      {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %tv[ind(%iv[%first + %m]), (%k)] {variables_space_set = #half, variables_space_order = #id}
      : memref<100x64xf16>, memref<8xi32> -> !ktdp.access_tile<4x64xindex>
  %ot = ktdp.construct_access_tile %ov[%first, %c0] {access_tile_set = #half, access_tile_order = #id}
      : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %v = ktdp.load %rows : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %v, %ot : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
"""

SCATTER = """#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scatter_add_one(%x: index, %ids: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1]
      {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %iv = ktdp.construct_memory_view %ids, sizes: [8], strides: [1]
      {coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %yv = ktdp.construct_memory_view %y, sizes: [100, 64], strides: [64, 1]
      {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id}
      : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %yt = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %yv[ind(%iv[%m]), (%k)] {variables_space_set = #rows, variables_space_order = #id}
      : memref<100x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x64xindex>
  %v = ktdp.load %xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %one = arith.constant dense<1.0> : tensor<8x64xf16>
  %w = arith.addf %v, %one : tensor<8x64xf16>
  ktdp.store %w, %yt : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}
"""

def _points(n: int, scatter: bool = False) -> str:
    """A copy of ``n x n`` f16 elements through two indirect dimensions, one element
    per point (the corpus's ``indirect-access-copy`` and ``indirect-scatter`` with
    pointer arguments): ``y = x[i1, i2]`` as a gather, ``y[i1, i2] = x`` as a scatter."""
    view = "{coordinate_set = #square, memory_space = #ktdp.memory_space<global>}"
    square = f"memref<{n}x{n}xf16>"
    tile = f"!ktdp.access_tile<{n}x{n}xindex>"
    indirect, direct = ("%yv", "%xv") if scatter else ("%xv", "%yv")
    views = "\n".join(
        f"  {name} = ktdp.construct_memory_view {pointer}, sizes: [{n}, {n}], strides: [{n}, 1]\n"
        f"      {view} : memref<{n}x{n}x{element}>"
        for name, pointer, element in (("%xv", "%x", "f16"), ("%r", "%i1", "i32"),
                                        ("%c", "%i2", "i32"), ("%yv", "%y", "f16")))
    load, store = ("%dt", "%it") if scatter else ("%it", "%dt")
    return f"""#square = affine_set<(d0, d1) : (d0 >= 0, -d0 + {n - 1} >= 0, d1 >= 0, -d1 + {n - 1} >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @point_copy(%x: index, %i1: index, %i2: index, %y: index) {{
  %c0 = arith.constant 0 : index
{views}
  %it = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      {indirect}[ind(%r[%m, %k]), ind(%c[%m, %k])] {{variables_space_set = #square, variables_space_order = #id}}
      : {square}, memref<{n}x{n}xi32>, memref<{n}x{n}xi32> -> {tile}
  %dt = ktdp.construct_access_tile {direct}[%c0, %c0] {{access_tile_set = #square, access_tile_order = #id}}
      : {square} -> {tile}
  %v = ktdp.load {load} : {tile} -> tensor<{n}x{n}xf16>
  ktdp.store %v, {store} : tensor<{n}x{n}xf16>, {tile}
  return
}}
"""


POINTS = _points(16)


LOOPED = """#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#two = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @looped(%table: index, %ids: index, %out: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %tv = ktdp.construct_memory_view %table, sizes: [100, 64], strides: [64, 1]
      {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  %iv = ktdp.construct_memory_view %ids, sizes: [8], strides: [1]
      {coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %ov = ktdp.construct_memory_view %out, sizes: [8, 64], strides: [64, 1]
      {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  scf.for %i = %c0 to %c4 step %c1 {
    %first = arith.muli %i, %c2 : index
    %rows = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
        %tv[ind(%iv[%first + %m]), (%k)] {variables_space_set = #two, variables_space_order = #id}
        : memref<100x64xf16>, memref<8xi32> -> !ktdp.access_tile<2x64xindex>
    %ot = ktdp.construct_access_tile %ov[%first, %c0] {access_tile_set = #two, access_tile_order = #id}
        : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
    %v = ktdp.load %rows : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %w = arith.addf %v, %v : tensor<2x64xf16>
    ktdp.store %w, %ot : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  }
  return
}
"""

PAGED = (ROOT / "examples" / "paged_kv_gather.mlir").read_text()
PAGES, HEADS, PAGE, FEATURES, SEQUENCES, BLOCKS = 64, 4, 16, 32, 2, 4


def run_reported(text: str, name: str, device: str, inputs: dict) -> tuple[dict, dict, object]:
    """The outputs of the simulated kernel, of the reference interpreter, and the
    simulator's report."""
    simulator = Simulator(device)
    simulated, reference = run(text, device, inputs, name, simulator)
    return simulated, reference, simulator.report()


def check(simulated: dict, reference: dict, expected: dict) -> None:
    elements = {name: {"float16": "f16", "int32": "i32", "int64": "i64"}[str(array.dtype)]
                for name, array in simulated.items()}
    agree(simulated, reference, expected, elements)


def _table(rng) -> np.ndarray:
    return rng.standard_normal((TABLE, WIDTH)).astype(np.float16)


def _embedding(device: str, ids: np.ndarray):
    table = _table(np.random.default_rng(1))
    inputs = {"table": table, "ids": ids.astype(np.int32), "out": np.zeros((ROWS, WIDTH), np.float16)}
    simulated, reference, report = run_reported(EMBEDDING, "embedding", device, inputs)
    check(simulated, reference, {"table": table, "ids": inputs["ids"], "out": table[ids]})
    return report


@pytest.mark.parametrize("device", DEVICES)
def test_embedding_lookup_gathers_rows_named_by_a_captured_offset(device: str):
    _embedding(device, np.array([5, 99, 0, 5, 42, 43, 44, 7]))


@pytest.mark.parametrize("device", DEVICES)
def test_a_gather_in_a_loop_reads_its_indices_at_the_loop_variable(device: str):
    table = _table(np.random.default_rng(1))
    ids = np.array([5, 99, 0, 5, 42, 43, 44, 7], np.int32)
    inputs = {"table": table, "ids": ids, "out": np.zeros((ROWS, WIDTH), np.float16)}
    simulated, reference, _ = run_reported(LOOPED, "looped", device, inputs)
    check(simulated, reference, {"table": table, "ids": ids, "out": table[ids] + table[ids]})


@pytest.mark.parametrize("device", DEVICES)
def test_scatter_writes_only_the_rows_its_indices_name(device: str):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((ROWS, WIDTH)).astype(np.float16)
    y = _table(rng)
    ids = np.array([17, 3, 99, 0, 64, 65, 12, 50], np.int32)
    simulated, reference, _ = run_reported(SCATTER, "scatter_add_one", device, {"x": x, "ids": ids, "y": y.copy()})
    expected = y.copy()
    expected[ids] = x + np.float16(1)
    check(simulated, reference, {"x": x, "ids": ids, "y": expected})


def test_scatter_with_a_repeated_index_keeps_the_later_row():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((ROWS, WIDTH)).astype(np.float16)
    y = _table(rng)
    ids = np.array([4, 9, 4, 1, 9, 2, 4, 3], np.int32)
    simulated, reference, _ = run_reported(SCATTER, "scatter_add_one", "spyre", {"x": x, "ids": ids, "y": y.copy()})
    expected = y.copy()
    for row, target in enumerate(ids):
        expected[target] = x[row] + np.float16(1)
    check(simulated, reference, {"x": x, "ids": ids, "y": expected})


@pytest.mark.parametrize("device", DEVICES)
def test_two_indirect_dimensions_gather_point_by_point(device: str):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((16, 16)).astype(np.float16)
    rows = rng.integers(0, 16, (16, 16)).astype(np.int32)
    cols = rng.integers(0, 16, (16, 16)).astype(np.int32)
    inputs = {"x": x, "i1": rows, "i2": cols, "y": np.zeros((16, 16), np.float16)}
    simulated, reference, _ = run_reported(POINTS, "point_copy", device, inputs)
    check(simulated, reference, {"x": x, "i1": rows, "i2": cols, "y": x[rows, cols]})


def _paged(device: str, table: np.ndarray):
    pages = np.random.default_rng(5).standard_normal((PAGES, HEADS, PAGE, FEATURES)).astype(np.float16)
    keys = np.zeros((SEQUENCES, HEADS, BLOCKS * PAGE, FEATURES), np.float16)
    inputs = {"pages": pages, "table": table.astype(np.int32), "k": keys}
    simulated, reference, report = run_reported(PAGED, "paged_kv_gather", device, inputs)
    t = np.arange(BLOCKS * PAGE)
    expected = pages[inputs["table"][:, t // PAGE], :, t % PAGE, :].transpose(0, 2, 1, 3)
    check(simulated, reference, {"pages": pages, "table": inputs["table"], "k": expected})
    return report


@pytest.mark.parametrize("device", DEVICES)
def test_paged_kv_gather_through_a_block_table(device: str):
    _paged(device, np.array([[9, 3, 60, 0], [3, 17, 18, 63]]))


def test_a_gather_writes_one_descriptor_per_contiguous_run():
    """Rows named one after another form one run: [42, 43, 44] on tile 1 is one
    descriptor; the same rows out of order are three."""
    together = _embedding("spyre", np.array([5, 99, 0, 5, 42, 43, 44, 7]))
    apart = _embedding("spyre", np.array([5, 99, 0, 5, 44, 42, 43, 7]))
    assert together.engines["MNILU"].descriptors == 6
    assert apart.engines["MNILU"].descriptors == 7
    assert together.engines["MNILU"].busy < apart.engines["MNILU"].busy


def test_the_check_fails_on_a_gather_of_the_wrong_row():
    """The comparison this file relies on catches one row gathered from a neighbour."""
    table = _table(np.random.default_rng(1))
    ids = np.array([5, 99, 0, 5, 42, 43, 44, 7], np.int32)
    inputs = {"table": table, "ids": ids, "out": np.zeros((ROWS, WIDTH), np.float16)}
    simulated, _, _ = run_reported(EMBEDDING, "embedding", "spyre", inputs)
    wrong = ids.copy()
    wrong[6] = 45
    elements = {name: "f16" for name in ("table", "out")}
    assert compare({"table": simulated["table"], "out": simulated["out"]},
                   {"table": table, "out": table[wrong]}, elements, 1) is not None


OUTSIDE = np.array([5, -1, 100, 5, 42, 1 << 20, -(1 << 30), 7], np.int32)
"""Indices of the 100-row table, some outside it: negative, one past the end, far past."""


def _masked_rows(table: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """table[ids] with a zero row where an index lies outside the table (the reference's
    masking, docs/ktir.md)."""
    inside = (ids >= 0) & (ids < len(table))
    return np.where(inside[:, None], table[np.clip(ids, 0, len(table) - 1)], np.float16(0))


@pytest.mark.parametrize("device", DEVICES)
def test_a_gather_at_an_index_outside_its_view_reads_zeros(device: str):
    table = _table(np.random.default_rng(1))
    inputs = {"table": table, "ids": OUTSIDE, "out": np.ones((ROWS, WIDTH), np.float16)}
    simulated, reference, _ = run_reported(EMBEDDING, "embedding", device, inputs)
    check(simulated, reference, {"table": table, "ids": OUTSIDE, "out": _masked_rows(table, OUTSIDE)})


def test_the_masked_gather_check_sees_an_unmasked_row():
    """A row read at a clamped index instead of zeros fails the comparison."""
    table = _table(np.random.default_rng(1))
    inputs = {"table": table, "ids": OUTSIDE, "out": np.ones((ROWS, WIDTH), np.float16)}
    simulated, _, _ = run_reported(EMBEDDING, "embedding", "spyre", inputs)
    wrong = _masked_rows(table, OUTSIDE)
    wrong[2] = table[99]
    assert compare({"out": simulated["out"]}, {"out": wrong}, {"out": "f16"}, 1) is not None


@pytest.mark.parametrize("device", DEVICES)
def test_a_scatter_at_an_index_outside_its_view_writes_nothing(device: str):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((ROWS, WIDTH)).astype(np.float16)
    y = _table(rng)
    simulated, reference, _ = run_reported(SCATTER, "scatter_add_one", device,
                                           {"x": x, "ids": OUTSIDE, "y": y.copy()})
    expected = y.copy()
    inside = (OUTSIDE >= 0) & (OUTSIDE < TABLE)
    expected[OUTSIDE[inside]] = x[inside] + np.float16(1)
    check(simulated, reference, {"x": x, "ids": OUTSIDE, "y": expected})


SHIFTED = EMBEDDING.replace(
    "func.func @embedding(%table: index, %ids: index, %out: index)",
    "func.func @embedding(%table: index, %ids: index, %out: index, %shift: index)",
).replace(
    "%first = arith.muli %tile, %c4 : index",
    "%first = arith.muli %tile, %c4 : index\n  %late = arith.addi %first, %shift : index",
).replace("%iv[%first + %m]", "%iv[%late + %m]")
"""The embedding lookup with its subscript into the 8 ids shifted by a launch
argument: a shift of 4 has tile 1 read ids 8 to 11, outside the index view."""


def _shifted_rows(table: np.ndarray, ids: np.ndarray, shift: int) -> np.ndarray:
    """Row ``r`` of the output: the table's row at ``ids[r + shift]``, an index read
    outside the 8 ids being 0 (the reference's masking, docs/ktir.md), and a zero row
    where that index lies outside the table."""
    at = np.arange(ROWS) + shift
    read = np.where((at >= 0) & (at < ROWS), ids[np.clip(at, 0, ROWS - 1)], 0)
    return _masked_rows(table, read)


def _shifted(device: str, ids: np.ndarray, shift: int) -> None:
    table = _table(np.random.default_rng(1))
    inputs = {"table": table, "ids": ids, "out": np.ones((ROWS, WIDTH), np.float16), "shift": shift}
    simulated, reference, _ = run_reported(SHIFTED, "embedding", device, inputs)
    expected = {"table": table, "ids": ids, "out": _shifted_rows(table, ids, shift)}
    check(simulated, reference, expected)


@pytest.mark.parametrize("device", DEVICES)
def test_an_index_subscript_outside_its_index_view_reads_index_zero(device: str):
    """Tile 1 reads ids 8 to 11, outside the view: index 0 there, so table row 0."""
    assert SHIFTED.count("%late + %m") == 1
    _shifted(device, np.array([5, 99, 0, 5, 42, 43, 44, 7], np.int32), 4)


def test_the_shifted_subscript_check_sees_a_row_read_past_the_ids():
    """A row gathered at a clamped subscript (the last id) instead of index 0 fails
    the comparison."""
    table = _table(np.random.default_rng(1))
    ids = np.array([5, 99, 0, 5, 42, 43, 44, 7], np.int32)
    inputs = {"table": table, "ids": ids, "out": np.ones((ROWS, WIDTH), np.float16), "shift": 4}
    simulated, _, _ = run_reported(SHIFTED, "embedding", "spyre", inputs)
    wrong = _shifted_rows(table, ids, 4)
    wrong[4] = table[ids[-1]]
    assert compare({"out": simulated["out"]}, {"out": wrong}, {"out": "f16"}, 1) is not None


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(-2, TABLE + 2), min_size=ROWS, max_size=ROWS),
       st.integers(-ROWS - 2, ROWS + 2))
def test_generated_subscripts_in_and_out_of_the_index_view_match_numpy(ids: list[int], shift: int):
    """Shifts drawn below, inside and past the 8 ids, with indices in and out of the table."""
    _shifted("spyre", np.array(ids, np.int32), shift)


def test_two_indirect_dimensions_mask_each_point_outside():
    """A point whose row or column index lies outside the 16 x 16 view reads zero."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((16, 16)).astype(np.float16)
    rows = rng.integers(-3, 19, (16, 16)).astype(np.int32)
    cols = rng.integers(-3, 19, (16, 16)).astype(np.int32)
    inputs = {"x": x, "i1": rows, "i2": cols, "y": np.ones((16, 16), np.float16)}
    simulated, reference, _ = run_reported(POINTS, "point_copy", "spyre", inputs)
    inside = (rows >= 0) & (rows < 16) & (cols >= 0) & (cols < 16)
    expected = np.where(inside, x[np.clip(rows, 0, 15), np.clip(cols, 0, 15)], np.float16(0))
    check(simulated, reference, {"x": x, "i1": rows, "i2": cols, "y": expected})


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(-(1 << 31), (1 << 31) - 1) | st.integers(-2, TABLE + 2),
                min_size=ROWS, max_size=ROWS))
def test_generated_indices_in_and_out_of_the_view_match_numpy(ids: list[int]):
    table = _table(np.random.default_rng(6))
    ids = np.array(ids, np.int32)
    inputs = {"table": table, "ids": ids, "out": np.ones((ROWS, WIDTH), np.float16)}
    simulated, reference, _ = run_reported(EMBEDDING, "embedding", "spyre", inputs)
    check(simulated, reference, {"table": table, "ids": ids, "out": _masked_rows(table, ids)})


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(range(PAGES)), st.booleans())
def test_generated_block_tables_match_numpy(pages: list[int], repeat: bool):
    """Block tables drawn as out-of-order pages, some of them repeated."""
    table = np.array(pages[:SEQUENCES * BLOCKS]).reshape(SEQUENCES, BLOCKS)
    if repeat:
        table[1] = table[0][::-1]
    _paged("spyre", table)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, TABLE - 1), min_size=ROWS, max_size=ROWS))
def test_generated_embedding_indices_match_numpy(ids: list[int]):
    """Indices drawn with repeats, in any order."""
    _embedding("spyre", np.array(ids))


# Copies streamed one run at a time -----------------------------------------------

SIDE = 24
"""The side of the point copies below: a tile of 24 x 24 f16 (1,152 bytes) through two
index views of 24 x 24 i32 (4,608 bytes together)."""
INDEX_BYTES, TILE_BYTES = 2 * SIDE * SIDE * 4, SIDE * SIDE * 2


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> dict[str, str]:
    """Spyre's and toy's arch files with a scratchpad holding a point copy's index views
    and 512 bytes more, not its tile beside them: the copy streams."""
    size = INDEX_BYTES + 512
    assert size < INDEX_BYTES + TILE_BYTES
    directory = tmp_path_factory.mktemp("small_scratchpad")
    scratchpads = {"spyre": 'kind = "L1",\n  size = 2097152', "toy": 'kind = "L1", size = 65536'}
    paths = {}
    for device, scratchpad in scratchpads.items():
        text = (ROOT / "arch" / f"{device}.mlir").read_text()
        assert scratchpad in text
        paths[device] = str(directory / f"{device}.mlir")
        Path(paths[device]).write_text(text.replace(scratchpad, scratchpad.rsplit(" ", 1)[0] + f" {size}"))
    return paths


@pytest.mark.parametrize("device", ["spyre", "toy"])
@pytest.mark.parametrize("scatter", [False, True], ids=["gather", "scatter"])
def test_a_point_copy_larger_than_the_scratchpad_streams(device: str, scatter: bool, small, tmp_path):
    """On the small scratchpad the copy holds no buffer of its tile, only one of a run;
    on the device as shipped it is gathered (scattered) whole."""
    path = tmp_path / "point_copy.mlir"
    path.write_text(_points(SIDE, scatter))
    through = pipeline_through("indirect-access-lowering")
    for arch, streamed in ((small[device], True), (device, False)):
        module = run_pipeline(path, arch, through)
        buffers = {op.memref.name_hint for op in module.walk() if isinstance(op, memref.AllocOp)}
        assert ("run" in buffers) == streamed
        assert ({"gathered", "scattered"} & buffers == set()) == streamed


def _point_copy(arch: str, rows: np.ndarray, cols: np.ndarray, scatter: bool) -> None:
    rng = np.random.default_rng(8)
    x, y = (rng.standard_normal((SIDE, SIDE)).astype(np.float16) for _ in range(2))
    inputs = {"x": x, "i1": rows, "i2": cols, "y": y.copy()}
    simulated, reference, _ = run_reported(_points(SIDE, scatter), "point_copy", arch, inputs)
    inside = (rows >= 0) & (rows < SIDE) & (cols >= 0) & (cols < SIDE)
    if scatter:
        expected = y.copy()
        for m, k in zip(*np.nonzero(inside)):  # in point order: a repeated target keeps the later
            expected[rows[m, k], cols[m, k]] = x[m, k]
    else:
        at = np.clip(rows, 0, SIDE - 1), np.clip(cols, 0, SIDE - 1)
        expected = np.where(inside, x[at], np.float16(0))
    check(simulated, reference, {"x": x, "i1": rows, "i2": cols, "y": expected})


def _grid(values) -> np.ndarray:
    return np.array(values, np.int32).reshape(SIDE, SIDE)


POINT_INDICES = st.one_of(
    st.permutations(range(SIDE * SIDE)).map(lambda p: tuple(_grid(np.divmod(p, SIDE)[j]) for j in (0, 1))),
    st.tuples(*[st.lists(st.integers(-3, SIDE + 2), min_size=SIDE * SIDE, max_size=SIDE * SIDE).map(_grid)] * 2),
)
"""Row and column index tensors: a permutation of the points, or indices drawn with
repeats, some outside the view (negative or past its end)."""


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(indices=POINT_INDICES)
@pytest.mark.parametrize("streamed", [True, False], ids=["streamed", "whole"])
@pytest.mark.parametrize("device", ["spyre", "toy"])
@pytest.mark.parametrize("scatter", [False, True], ids=["gather", "scatter"])
def test_generated_point_copies_match_numpy(scatter: bool, device: str, streamed: bool, small,
                                            indices):
    """Gathers and scatters of single elements, streamed on the small scratchpad and
    whole on the device as shipped, each against numpy."""
    _point_copy(small[device] if streamed else device, *indices, scatter)


IN_PLACE = """#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_place(%table: index, %ids: index) {
  %c0 = arith.constant 0 : index
  %tv = ktdp.construct_memory_view %table, sizes: [100, 64], strides: [64, 1]
      {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  %iv = ktdp.construct_memory_view %ids, sizes: [8], strides: [1]
      {coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %first = ktdp.construct_memory_view %table, sizes: [8, 64], strides: [64, 1]
      {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %it = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
      %tv[ind(%iv[%m]), (%k)] {variables_space_set = #rows, variables_space_order = #id}
      : memref<100x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x64xindex>
  %dt = ktdp.construct_access_tile %first[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id}
      : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %v = ktdp.load LOADED : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  ktdp.store %v, STORED : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}
"""
"""A copy between rows of one table: its first 8 rows gathered from the rows the ids
name (LOADED %it, STORED %dt), or scattered to them (LOADED %dt, STORED %it)."""


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("scatter", [False, True], ids=["gather", "scatter"])
def test_a_copy_within_one_table_reads_every_row_before_it_writes(device: str, scatter: bool):
    """The gather writes row r from row 7 - r, the scatter row r + 1 from row r: moved a
    row at a time, a row would be read after it was written (rows of 64 elements are
    runs, which stream at any size when the two sides share no byte)."""
    table = _table(np.random.default_rng(9))
    ids = np.arange(1, ROWS + 1, dtype=np.int32) if scatter else np.arange(ROWS)[::-1].astype(np.int32)
    loaded, stored = ("%dt", "%it") if scatter else ("%it", "%dt")
    text = IN_PLACE.replace("LOADED", loaded).replace("STORED", stored)
    simulated, reference, _ = run_reported(text, "in_place", device, {"table": table.ravel(), "ids": ids})
    expected = table.copy()
    if scatter:
        expected[ids] = table[:ROWS]
    else:
        expected[:ROWS] = table[ids]
    check(simulated, reference, {"table": expected.ravel(), "ids": ids})


def test_a_copy_within_one_array_too_large_to_hold_is_refused(small):
    """Its two sides may share bytes, so it is not streamed; whole, it does not fit."""
    text = _points(SIDE).replace("construct_memory_view %y,", "construct_memory_view %x,")
    with pytest.raises(KtcError, match="may share bytes .*%xv and %yv.* more than the 5120 bytes"):
        compile_kernel(text, small["toy"], "point_copy")


# The corpus -----------------------------------------------------------------------


def _indexed_add(device: str):
    text = (require_corpus() / "ktir-cpu" / "triton-ktir" / "indexed_add.mlir").read_text()
    rng = np.random.default_rng(6)
    x = rng.standard_normal((128, 64, 8, 128)).astype(np.float16)
    y = rng.standard_normal((2, 32, 8, 128)).astype(np.float16)
    index = np.array([77, 3], np.int64)
    inputs = {"x_ptr": x, "y_ptr": y, "index_ptr": index,
              "output_ptr": np.zeros((2, 32, 8, 128), np.float16), "dim1_start": 0}
    simulated, reference, _ = run_reported(text, "indexed_add_kernel", device, inputs)
    expected = (x[index][:, :32] + y).astype(np.float16)
    check(simulated, reference, {"output_ptr": expected})


@pytest.mark.parametrize("device", [DEVICES[0], DEVICES[2]])
def test_corpus_indexed_add(device: str):
    _indexed_add(device)


def test_corpus_indexed_add_on_toy_does_not_fit_its_device_memory():
    """Its 16 MiB table is larger than toy's 1 MiB of device memory."""
    with pytest.raises(KtcError, match="DDR"):
        _indexed_add("toy")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", ["indirect-access-copy", "indirect-scatter"])
def test_corpus_fixed_address_kernels_match_as_written(name: str, device: str, capsys):
    """The RFC's gather and scatter at fixed addresses, run as written (``ktc run
    --check``: random inputs laid at the views' addresses): the simulator's device
    memory image equals the reference's over every element the views reach. (The
    gather of single elements, streamed one run at a time, once wrote into X.)"""
    path = require_corpus() / "ktir-cpu" / "rfc" / f"{name}.mlir"
    assert main(["run", str(path), "--arch", device, "--check"]) == 0
    assert "check passed" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["indirect-access-copy", "indirect-scatter"])
def test_corpus_fixed_address_kernels_compile(name: str):
    """The RFC's gather and scatter at fixed addresses compile on spyre; their
    pointer-argument forms are the kernels above (POINTS, SCATTER)."""
    text = (require_corpus() / "ktir-cpu" / "rfc" / f"{name}.mlir").read_text()
    package = compile_kernel(text, "spyre", name.replace("-", "_"))
    assert package.signature.kernel
