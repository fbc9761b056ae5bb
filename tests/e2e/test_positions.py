"""Kernels whose ``linalg.generic`` body computes on its element's position
(``linalg.index``): a banded lower triangle of a 4 x 16 tile (row r keeps the columns
c <= 4r) with the column added to each kept element, the compare of positions read by
a select and the column converted to f16 by ``arith.sitofp``. The positions compile as
constant vectors of the generic's domain (``passes/analysis/positions.py``): on spyre,
whose 64 fp16 lanes hold the whole tile, the kernel matches a numpy formula written
here and the reference interpreter. Toy and line4 have no select instruction: their
select is a blend by min and max (``passes/utils/compares.py``), and the kernel
matches on them too although their lanes split the tile; so do the same positions
without the select (the row and the column added to the elements): a position along
a split loop is the tile's start plus the position within it.

A causal mask whose positions join run-time values (a launch argument, the tile id
and a loop's induction variable: row ``r`` of tile ``p`` keeps the columns
``16 j + c <= context + 4 p + r`` of the key tile ``j``, each plus its column) holds
them as f32 vectors and compares them with arithmetic alone; written with
``arith.uitofp`` of the compare and a product (no select), it matches numpy on all
three devices."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import LINE4  # noqa: E402
from simulated import agree, run  # noqa: E402

from ktc.sim.check import compare  # noqa: E402

ROWS, COLS = 4, 16

KERNEL = f"""#id = affine_map<(d0, d1) -> (d0, d1)>
#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + {ROWS - 1} >= 0, d1 >= 0, -d1 + {COLS - 1} >= 0)>
func.func @band(%x: index, %y: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %xv = ktdp.construct_memory_view %x, sizes: [{ROWS}, {COLS}], strides: [{COLS}, 1] {{coordinate_set = #box, memory_space = #ktdp.memory_space<global>}} : memref<{ROWS}x{COLS}xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [{ROWS}, {COLS}], strides: [{COLS}, 1] {{coordinate_set = #box, memory_space = #ktdp.memory_space<global>}} : memref<{ROWS}x{COLS}xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {{access_tile_set = #box, access_tile_order = #id}} : memref<{ROWS}x{COLS}xf16> -> !ktdp.access_tile<{ROWS}x{COLS}xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {{access_tile_set = #box, access_tile_order = #id}} : memref<{ROWS}x{COLS}xf16> -> !ktdp.access_tile<{ROWS}x{COLS}xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<{ROWS}x{COLS}xindex> -> tensor<{ROWS}x{COLS}xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<{ROWS}x{COLS}xf16>
  %b = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%a : tensor<{ROWS}x{COLS}xf16>) outs(%e : tensor<{ROWS}x{COLS}xf16>) {{
  ^bb0(%v: f16, %o: f16):
    %r = linalg.index 0 : index
    %c = linalg.index 1 : index
    %r4 = arith.muli %r, %c4 : index
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f16
    %s = arith.addf %v, %cf : f16
BODY
    linalg.yield %m : f16
  }} -> tensor<{ROWS}x{COLS}xf16>
  ktdp.store %b, %yt : tensor<{ROWS}x{COLS}xf16>, !ktdp.access_tile<{ROWS}x{COLS}xindex>
  return
}}
"""

BAND = KERNEL.replace("BODY", """    %keep = arith.cmpi ule, %c, %r4 : index
    %m = arith.select %keep, %s, %zero : f16""")
"""Row r keeps the columns c <= 4r, each plus c; the others are 0."""

RAMP = KERNEL.replace("BODY", """    %ri = arith.index_cast %r4 : index to i32
    %rf = arith.sitofp %ri : i32 to f16
    %m = arith.addf %s, %rf : f16""")
"""Every element plus its column (rounded to f16), then plus 4 times its row."""


def _inputs() -> dict:
    x = np.random.default_rng(0).standard_normal((ROWS, COLS)).astype(np.float16)
    return {"x": x, "y": np.zeros((ROWS, COLS), np.float16)}


def banded(x: np.ndarray, width: int = 4) -> np.ndarray:
    """Row r keeps the columns c <= width * r, each plus c, in float64 then f16."""
    rows, cols = np.indices(x.shape)
    return np.where(cols <= width * rows, x.astype(np.float64) + cols, 0).astype(np.float16)


@pytest.mark.parametrize("device", ["spyre", "toy", str(LINE4)], ids=["spyre", "toy", "line4"])
def test_the_band_matches_numpy(device: str):
    inputs = _inputs()
    simulated, reference = run(BAND, device, inputs)
    agree(simulated, reference, {**inputs, "y": banded(inputs["x"])}, {"x": "f16", "y": "f16"})


def test_the_comparison_tells_a_wider_band_apart():
    """The check can fail: the band c <= 5r (one more column kept per row) is refused."""
    x = _inputs()["x"]
    assert compare({"y": banded(x, 5)}, {"y": banded(x)}, {"y": "f16"}, 1) is not None


@pytest.mark.parametrize("device", ["toy", str(LINE4)], ids=["toy", "line4"])
def test_positions_along_loops_the_lanes_split_match_numpy(device: str):
    inputs = _inputs()
    simulated, reference = run(RAMP, device, inputs)
    rows, cols = np.indices(inputs["x"].shape)
    plus_column = (inputs["x"].astype(np.float64) + cols).astype(np.float16)
    ramp = (plus_column.astype(np.float64) + 4 * rows).astype(np.float16)
    agree(simulated, reference, {**inputs, "y": ramp}, {"x": "f16", "y": "f16"})


ROWS_PER_TILE, KEYS, KEY_TILES, QUERY_TILES = 4, 16, 4, 2

CAUSAL = f"""#id = affine_map<(d0, d1) -> (d0, d1)>
#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + {ROWS_PER_TILE * QUERY_TILES - 1} >= 0, d1 >= 0, -d1 + {KEYS * KEY_TILES - 1} >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + {ROWS_PER_TILE - 1} >= 0, d1 >= 0, -d1 + {KEYS - 1} >= 0)>
func.func @causal(%x: index, %y: index, %context: index, %tiles: index) attributes {{grid = [{QUERY_TILES}]}} {{
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant {ROWS_PER_TILE} : index
  %keys = arith.constant {KEYS} : index
  %row0 = arith.muli %pid, %rows : index
  %first = arith.addi %context, %row0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [{ROWS_PER_TILE * QUERY_TILES}, {KEYS * KEY_TILES}], strides: [{KEYS * KEY_TILES}, 1] {{coordinate_set = #view, memory_space = #ktdp.memory_space<global>}} : memref<{ROWS_PER_TILE * QUERY_TILES}x{KEYS * KEY_TILES}xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [{ROWS_PER_TILE * QUERY_TILES}, {KEYS * KEY_TILES}], strides: [{KEYS * KEY_TILES}, 1] {{coordinate_set = #view, memory_space = #ktdp.memory_space<global>}} : memref<{ROWS_PER_TILE * QUERY_TILES}x{KEYS * KEY_TILES}xf16>
  scf.for %j = %c0 to %tiles step %c1 {{
    %col0 = arith.muli %j, %keys : index
    %xt = ktdp.construct_access_tile %xv[%row0, %col0] {{access_tile_set = #tile, access_tile_order = #id}} : memref<{ROWS_PER_TILE * QUERY_TILES}x{KEYS * KEY_TILES}xf16> -> !ktdp.access_tile<{ROWS_PER_TILE}x{KEYS}xindex>
    %yt = ktdp.construct_access_tile %yv[%row0, %col0] {{access_tile_set = #tile, access_tile_order = #id}} : memref<{ROWS_PER_TILE * QUERY_TILES}x{KEYS * KEY_TILES}xf16> -> !ktdp.access_tile<{ROWS_PER_TILE}x{KEYS}xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<{ROWS_PER_TILE}x{KEYS}xindex> -> tensor<{ROWS_PER_TILE}x{KEYS}xf16>
    %e = tensor.empty() : tensor<{ROWS_PER_TILE}x{KEYS}xf16>
    %b = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
        ins(%a : tensor<{ROWS_PER_TILE}x{KEYS}xf16>) outs(%e : tensor<{ROWS_PER_TILE}x{KEYS}xf16>) {{
    ^bb0(%v: f16, %o: f16):
      %r = linalg.index 0 : index
      %c = linalg.index 1 : index
      %query = arith.addi %first, %r : index
      %start = arith.muli %j, %keys : index
      %key = arith.addi %start, %c : index
      %keep = arith.cmpi PREDICATE, %key, %query : index
      %kept = arith.uitofp %keep : i1 to f16
      %ki = arith.index_cast %key : index to i32
      %kf = arith.sitofp %ki : i32 to f16
      %m = arith.mulf %v, %kept : f16
      %s = arith.addf %m, %kf : f16
      linalg.yield %s : f16
    }} -> tensor<{ROWS_PER_TILE}x{KEYS}xf16>
    ktdp.store %b, %yt : tensor<{ROWS_PER_TILE}x{KEYS}xf16>, !ktdp.access_tile<{ROWS_PER_TILE}x{KEYS}xindex>
  }}
  return
}}
"""
"""Query tile p (4 rows) over key tiles j < tiles of 16 columns: each element kept where
its key position is at most its query's (context + row), then plus its key position."""


def causal(x: np.ndarray, context: int, tiles: int, unsigned: bool = False) -> np.ndarray:
    """Row r keeps the columns c <= context + r (compared as 64-bit unsigned integers:
    a negative bound keeps every column), each plus c, in float64 then f16; the columns
    of key tiles the loop does not reach stay 0."""
    rows, cols = np.indices(x.shape)
    bound = context + rows
    keep = (cols.astype(np.uint64) <= bound.astype(np.int64).astype(np.uint64)
            if unsigned else cols <= bound)
    masked = np.where(keep, x.astype(np.float64), 0) + cols
    masked[:, tiles * KEYS:] = 0
    return masked.astype(np.float16)


def _causal_inputs(context: int) -> dict:
    x = np.random.default_rng(1).standard_normal(
        (ROWS_PER_TILE * QUERY_TILES, KEYS * KEY_TILES)).astype(np.float16)
    return {"x": x, "y": np.zeros_like(x), "context": context, "tiles": KEY_TILES - 1}


@pytest.mark.parametrize("predicate", ["sle", "ule"])
@pytest.mark.parametrize("context", [20, -2], ids=["context", "negative"])
@pytest.mark.parametrize("device", ["spyre", "toy", str(LINE4)], ids=["spyre", "toy", "line4"])
def test_a_causal_mask_of_run_time_positions_matches_numpy(device: str, context: int,
                                                            predicate: str):
    """A negative context is converted to f32 as exactly: compared signed (``sle``),
    rows 0 and 1 keep no key; unsigned (``ule``), their negative bounds are larger than
    every key, so they keep all."""
    inputs = _causal_inputs(context)
    simulated, reference = run(CAUSAL.replace("PREDICATE", predicate), device, inputs)
    expected = {"x": inputs["x"],
                "y": causal(inputs["x"], context, KEY_TILES - 1, predicate == "ule")}
    agree(simulated, reference, expected, {"x": "f16", "y": "f16"})


def test_the_comparison_tells_a_causal_mask_one_key_later_apart():
    """The check can fail: the mask of a context one longer (one more key kept per row)
    is refused."""
    x = _causal_inputs(context=20)["x"]
    assert compare({"y": causal(x, 21, 3)}, {"y": causal(x, 20, 3)}, {"y": "f16"}, 1) is not None
