"""Stores into another tile's scratchpad (``remote-scratchpad-lowering``): every tile
stores its row of x into row t of a view in the last tile's scratchpad
(``ct_local, ct_id = N``), the writer's stop copying it there over the interconnect;
a later compute group reads rows of that view back, compared with numpy formulas
written here, on the test devices whose cores hold the grid at once. Then a program
that reads another tile's scratchpad and stores into its own.

KTIR orders no two tiles' accesses but by inter-tile ops (the reference interpreter
runs the tiles one after the other in id order, one allowed outcome); the compiled
kernel orders its compute groups (a program starts once the one before has ended on
every core, its copies included). A tile reading back its own row is defined either
way and matches the reference exactly; a tile reading another's row sees what the
earlier compute group stored there."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import LINE4  # noqa: E402
from simulated import run  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.errors import KtcError  # noqa: E402
from ktc.runtime.executable import prepare  # noqa: E402
from ktc.sim.check import compare  # noqa: E402
from ktc.sim.simulator import Simulator  # noqa: E402

WIDTH = 128
ADDRESS = 512
"""Element address of the gathered rows in the owner's scratchpad."""

DEVICES = [pytest.param("spyre", 4, id="spyre"), pytest.param("toy", 2, id="toy"),
           pytest.param(str(LINE4), 4, id="line4")]
"""Each device with a grid its cores hold at once."""


def gather(tiles: int, read_row: str, owner: int | None = None) -> str:
    """Tile t stores row t of x into row t of a view in tile ``owner``'s scratchpad
    (the last tile by default); then reads row ``read_row`` of that view and stores
    it plus b[t] into y[t]."""
    owner = tiles - 1 if owner is None else owner
    return f"""#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + {tiles - 1} >= 0, d1 >= 0, -d1 + {WIDTH - 1} >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + {WIDTH - 1} >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather(%x: index, %b: index, %y: index) attributes {{grid = [{tiles}]}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tiles = arith.constant {tiles} : index
  %at = arith.constant {ADDRESS} : index
  %t = ktdp.get_compute_tile_id : index
  %t1 = arith.addi %t, %c1 : index
  %next = arith.remui %t1, %tiles : index
  %xv = ktdp.construct_memory_view %x, sizes: [{tiles}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{tiles}x{WIDTH}xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [{tiles}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{tiles}x{WIDTH}xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [{tiles}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{tiles}x{WIDTH}xf16>
  %gv = ktdp.construct_memory_view %at, sizes: [{tiles}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<ct_local, ct_id = {owner}>}} : memref<{tiles}x{WIDTH}xf16>
  %xt = ktdp.construct_access_tile %xv[%t, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{tiles}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %gt = ktdp.construct_access_tile %gv[%t, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{tiles}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
  ktdp.store %a, %gt : tensor<1x{WIDTH}xf16>, !ktdp.access_tile<1x{WIDTH}xindex>
  %rt = ktdp.construct_access_tile %gv[{read_row}, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{tiles}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %bt = ktdp.construct_access_tile %bv[%t, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{tiles}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %yt = ktdp.construct_access_tile %yv[%t, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{tiles}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %r = ktdp.load %rt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
  %c = ktdp.load %bt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
  %s = arith.addf %r, %c : tensor<1x{WIDTH}xf16>
  ktdp.store %s, %yt : tensor<1x{WIDTH}xf16>, !ktdp.access_tile<1x{WIDTH}xindex>
  return
}}
"""


def _inputs(tiles: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(tiles + 7)
    x, b = (rng.standard_normal((tiles, WIDTH)).astype(np.float16) for _ in range(2))
    return {"x": x, "b": b, "y": np.zeros_like(x)}


def _agrees(simulated: np.ndarray, expected: np.ndarray) -> bool:
    return compare({"y": simulated}, {"y": expected}, {"y": "f16"}, 1) is None


def _simulate(text: str, device: str, inputs: dict[str, np.ndarray]) -> np.ndarray:
    package = compile_kernel(text, device)
    return prepare(package, Simulator(device)).launch(*inputs.values())["y"]


@pytest.mark.parametrize("device, tiles", DEVICES)
def test_each_tile_reads_back_the_row_it_stored(device: str, tiles: int):
    """y[t] = x[t] + b[t]: each row goes to the last tile's scratchpad and back, both
    ways over the interconnect (the last tile's own through its stop). Defined by KTIR
    whatever the order of the tiles, so the reference gives the same bits."""
    inputs = _inputs(tiles)
    simulated, reference = run(gather(tiles, "%t"), device, inputs)
    assert _agrees(simulated["y"], inputs["x"] + inputs["b"])
    assert not _agrees(simulated["y"], inputs["b"])
    np.testing.assert_array_equal(simulated["y"], reference["y"])


@pytest.mark.parametrize("device, tiles", DEVICES)
def test_a_later_compute_group_reads_what_other_tiles_stored(device: str, tiles: int):
    """y[t] = x[(t + 1) mod tiles] + b[t]: each tile reads the row its neighbour
    stored into the last tile's scratchpad, in the compute group after the stores."""
    inputs = _inputs(tiles)
    simulated = _simulate(gather(tiles, "%next"), device, inputs)
    assert _agrees(simulated, np.roll(inputs["x"], -1, axis=0) + inputs["b"])
    assert not _agrees(simulated, inputs["x"] + inputs["b"])


def looped(tiles: int) -> str:
    """Tile t stores rows 2t and 2t + 1 of x, one per iteration of a loop, into the
    same rows of a view in the last tile's scratchpad; then, in a second loop, reads
    row (2t + 2 + i) mod 2 tiles (its neighbour's) and stores it plus b[2t + i] into
    y[2t + i]. Every start depends on the loop index and the tile id."""
    rows = 2 * tiles
    return f"""#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, -d1 + {WIDTH - 1} >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + {WIDTH - 1} >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @looped(%x: index, %b: index, %y: index) attributes {{grid = [{tiles}]}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rows = arith.constant {rows} : index
  %at = arith.constant {ADDRESS} : index
  %t = ktdp.get_compute_tile_id : index
  %first = arith.muli %t, %c2 : index
  %xv = ktdp.construct_memory_view %x, sizes: [{rows}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{rows}x{WIDTH}xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [{rows}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{rows}x{WIDTH}xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [{rows}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{rows}x{WIDTH}xf16>
  %gv = ktdp.construct_memory_view %at, sizes: [{rows}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<ct_local, ct_id = {tiles - 1}>}} : memref<{rows}x{WIDTH}xf16>
  scf.for %i = %c0 to %c2 step %c1 {{
    %r = arith.addi %first, %i : index
    %xt = ktdp.construct_access_tile %xv[%r, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{rows}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
    %gt = ktdp.construct_access_tile %gv[%r, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{rows}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
    ktdp.store %a, %gt : tensor<1x{WIDTH}xf16>, !ktdp.access_tile<1x{WIDTH}xindex>
  }}
  scf.for %i = %c0 to %c2 step %c1 {{
    %r = arith.addi %first, %i : index
    %n = arith.addi %r, %c2 : index
    %next = arith.remui %n, %rows : index
    %rt = ktdp.construct_access_tile %gv[%next, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{rows}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
    %bt = ktdp.construct_access_tile %bv[%r, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{rows}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
    %yt = ktdp.construct_access_tile %yv[%r, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{rows}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
    %v = ktdp.load %rt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
    %c = ktdp.load %bt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
    %s = arith.addf %v, %c : tensor<1x{WIDTH}xf16>
    ktdp.store %s, %yt : tensor<1x{WIDTH}xf16>, !ktdp.access_tile<1x{WIDTH}xindex>
  }}
  return
}}
"""


@pytest.mark.parametrize("device, tiles", DEVICES)
def test_stores_and_reads_at_starts_from_a_loop_index(device: str, tiles: int):
    """y[r] = x[(r + 2) mod 2 tiles] + b[r]: the rows each tile stored in the first
    loop, read by the tile before it in the second, each copy over the interconnect
    at the start its loop index and its reader's (writer's) tile id give."""
    rng = np.random.default_rng(tiles + 9)
    x, b = (rng.standard_normal((2 * tiles, WIDTH)).astype(np.float16) for _ in range(2))
    inputs = {"x": x, "b": b, "y": np.zeros_like(x)}
    simulated = _simulate(looped(tiles), device, inputs)
    assert _agrees(simulated, np.roll(x, -2, axis=0) + b)
    assert not _agrees(simulated, x + b)


def test_32_cores_gather_into_one():
    """All of spyre's 32 cores store their row into tile 31's scratchpad and read
    their neighbour's back: y[t] = x[(t + 1) mod 32] + b[t]."""
    inputs = _inputs(32)
    simulated = _simulate(gather(32, "%next"), "spyre", inputs)
    assert _agrees(simulated, np.roll(inputs["x"], -1, axis=0) + inputs["b"])


def read_then_store(tiles: int) -> str:
    """Tile t stores x[t] into its scratchpad at ADDRESS; then (one program) reads tile
    0's row there and stores it plus b[t] over its own row; then stores its own row
    into y[t]."""
    return f"""#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + {tiles - 1} >= 0, d1 >= 0, -d1 + {WIDTH - 1} >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + {WIDTH - 1} >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @read_then_store(%x: index, %b: index, %y: index) attributes {{grid = [{tiles}]}} {{
  %c0 = arith.constant 0 : index
  %at = arith.constant {ADDRESS} : index
  %t = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [{tiles}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{tiles}x{WIDTH}xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [{tiles}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{tiles}x{WIDTH}xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [{tiles}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{tiles}x{WIDTH}xf16>
  %mine = ktdp.construct_memory_view %at, sizes: [1, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>}} : memref<1x{WIDTH}xf16>
  %first = ktdp.construct_memory_view %at, sizes: [1, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}} : memref<1x{WIDTH}xf16>
  %xt = ktdp.construct_access_tile %xv[%t, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{tiles}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %mt = ktdp.construct_access_tile %mine[%c0, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<1x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
  ktdp.store %a, %mt : tensor<1x{WIDTH}xf16>, !ktdp.access_tile<1x{WIDTH}xindex>
  %ft = ktdp.construct_access_tile %first[%c0, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<1x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %bt = ktdp.construct_access_tile %bv[%t, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{tiles}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %r = ktdp.load %ft : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
  %c = ktdp.load %bt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
  %s = arith.addf %r, %c : tensor<1x{WIDTH}xf16>
  ktdp.store %s, %mt : tensor<1x{WIDTH}xf16>, !ktdp.access_tile<1x{WIDTH}xindex>
  %yt = ktdp.construct_access_tile %yv[%t, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{tiles}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %m = ktdp.load %mt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
  ktdp.store %m, %yt : tensor<1x{WIDTH}xf16>, !ktdp.access_tile<1x{WIDTH}xindex>
  return
}}
"""


@pytest.mark.parametrize("device, tiles", DEVICES)
def test_a_program_reading_another_scratchpad_and_storing_into_its_own(device: str, tiles: int):
    """y[t] = x[0] + b[t]: every tile reads tile 0's row in the program in which tile
    0 stores x[0] + b[0] over it. Tile 0's store goes through its stop after the copies
    out of its row, so every reader gets the row as it was before the program's
    stores, as tile 0 itself does."""
    inputs = _inputs(tiles)
    simulated = _simulate(read_then_store(tiles), device, inputs)
    assert _agrees(simulated, inputs["x"][0] + inputs["b"])
    assert not _agrees(simulated, inputs["x"][0] + inputs["b"][0] + inputs["b"])


def test_a_store_into_bytes_the_program_also_reads_is_refused():
    """Tile t stores into row t of tile 1's view and, in the same compute group, reads
    those bytes of tile 1's through its own view of them; nothing orders the two."""
    text = gather(2, "%t", owner=1).replace(
        "  %a = ktdp.load %xt",
        "  %mv = ktdp.construct_memory_view %at, sizes: [2, 128], strides: [128, 1] "
        "{coordinate_set = #all, memory_space = #ktdp.memory_space<ct_local>} : memref<2x128xf16>\n"
        "  %mt = ktdp.construct_access_tile %mv[%c0, %c0] {access_tile_set = #row, "
        "access_tile_order = #id} : memref<2x128xf16> -> !ktdp.access_tile<1x128xindex>\n"
        "  %old = ktdp.load %mt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>\n"
        "  %a0 = ktdp.load %xt")
    text = text.replace("  ktdp.store %a, %gt", "  %a = arith.addf %a0, %old : tensor<1x128xf16>\n"
                                                "  ktdp.store %a, %gt")
    with pytest.raises(KtcError, match="kernel.mlir:23:3: error: stores into another tile's "
                                       "scratchpad bytes that the program also reads; .* the "
                                       "load at kernel.mlir:20:3"):
        compile_kernel(text, "spyre", "kernel.mlir")
