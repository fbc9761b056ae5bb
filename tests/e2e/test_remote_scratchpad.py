"""Loads of another tile's scratchpad (``remote-scratchpad-lowering``): every tile reads
what tile 0 stored into its scratchpad (a view in ``ct_local, ct_id = 0``), and every
tile reads its neighbour's (a distributed view whose partitions lie one in each tile's
scratchpad), on the test devices whose cores hold the grid at once, compared with
numpy formulas written here. The owner's store is in the program before the read, so
the copy over the interconnect reads what it stored. Then the time of those copies:
farther readers take longer, by the arch file's hop latency, and one copy takes the
time its route's figures give."""

from __future__ import annotations

import json
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
"""Byte address of the row each tile keeps in its scratchpad."""

DEVICES = [pytest.param("spyre", 4, id="spyre"), pytest.param("toy", 2, id="toy"),
           pytest.param(str(LINE4), 4, id="line4")]
"""Each device with a grid its cores hold at once."""


def _kernel(tiles: int, read_view: str, read_start: str, extra_views: str = "") -> str:
    """Each tile stores row t of x into its scratchpad at ADDRESS; then reads a row
    through ``read_view`` at ``read_start`` and stores it plus b[t] into y[t]."""
    return f"""#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + {tiles - 1} >= 0, d1 >= 0, -d1 + {WIDTH - 1} >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + {WIDTH - 1} >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @remote(%x: index, %b: index, %y: index) attributes {{grid = [{tiles}]}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tiles = arith.constant {tiles} : index
  %at = arith.constant {ADDRESS} : index
  %t = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [{tiles}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{tiles}x{WIDTH}xf16>
  %bv = ktdp.construct_memory_view %b, sizes: [{tiles}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{tiles}x{WIDTH}xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [{tiles}, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{tiles}x{WIDTH}xf16>
  %sv = ktdp.construct_memory_view %at, sizes: [1, {WIDTH}], strides: [{WIDTH}, 1] {{coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>}} : memref<1x{WIDTH}xf16>
{extra_views}
  %xt = ktdp.construct_access_tile %xv[%t, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{tiles}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %st = ktdp.construct_access_tile %sv[%c0, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<1x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
  ktdp.store %a, %st : tensor<1x{WIDTH}xf16>, !ktdp.access_tile<1x{WIDTH}xindex>
  %t1 = arith.addi %t, %c1 : index
  %next = arith.remui %t1, %tiles : index
  %rt = ktdp.construct_access_tile {read_view}[{read_start}, %c0] {{access_tile_set = #row, access_tile_order = #id}} : {_read_type(read_view, tiles)} -> !ktdp.access_tile<1x{WIDTH}xindex>
  %bt = ktdp.construct_access_tile %bv[%t, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{tiles}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %yt = ktdp.construct_access_tile %yv[%t, %c0] {{access_tile_set = #row, access_tile_order = #id}} : memref<{tiles}x{WIDTH}xf16> -> !ktdp.access_tile<1x{WIDTH}xindex>
  %r = ktdp.load %rt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
  %c = ktdp.load %bt : !ktdp.access_tile<1x{WIDTH}xindex> -> tensor<1x{WIDTH}xf16>
  %s = arith.addf %r, %c : tensor<1x{WIDTH}xf16>
  ktdp.store %s, %yt : tensor<1x{WIDTH}xf16>, !ktdp.access_tile<1x{WIDTH}xindex>
  return
}}
"""


def _read_type(view: str, tiles: int) -> str:
    return f"memref<{tiles}x{WIDTH}xf16>" if view == "%ring" else f"memref<1x{WIDTH}xf16>"


def from_tile(tiles: int, owner: int = 0) -> str:
    """Every tile reads row 0 of tile ``owner``'s scratchpad."""
    view = (f"  %ov = ktdp.construct_memory_view %at, sizes: [1, {WIDTH}], strides: [{WIDTH}, 1] "
            f"{{coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = {owner}>}} "
            f": memref<1x{WIDTH}xf16>")
    return _kernel(tiles, "%ov", "%c0", view)


def from_neighbour(tiles: int) -> str:
    """Tile t reads row (t + 1) mod tiles of a distributed view whose row i lies in
    tile i's scratchpad."""
    lines = []
    for i in range(tiles):
        part = (f"affine_set<(d0, d1) : (d0 - {i} >= 0, -d0 + {i} >= 0, d1 >= 0, "
                f"-d1 + {WIDTH - 1} >= 0)>")
        lines.append(f"  %p{i} = ktdp.construct_memory_view %at, sizes: [1, {WIDTH}], strides: "
                     f"[{WIDTH}, 1] {{coordinate_set = {part}, memory_space = "
                     f"#ktdp.memory_space<ct_local, ct_id = {i}>}} : memref<1x{WIDTH}xf16>")
    names = ", ".join(f"%p{i}" for i in range(tiles))
    types = ", ".join(f"memref<1x{WIDTH}xf16>" for _ in range(tiles))
    lines.append(f"  %ring = ktdp.construct_distributed_memory_view({names} : {types}) : "
                 f"memref<{tiles}x{WIDTH}xf16>")
    return _kernel(tiles, "%ring", "%next", "\n".join(lines))


def _inputs(tiles: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(tiles)
    x, b = (rng.standard_normal((tiles, WIDTH)).astype(np.float16) for _ in range(2))
    return {"x": x, "b": b, "y": np.zeros_like(x)}


def _agrees(simulated: np.ndarray, expected: np.ndarray) -> bool:
    return compare({"y": simulated}, {"y": expected}, {"y": "f16"}, 1) is None


@pytest.mark.parametrize("device, tiles", DEVICES)
def test_every_tile_reads_what_tile_0_stored(device: str, tiles: int):
    """y[t] = x[0] + b[t]: tile 0's row, copied over the interconnect to every tile.
    The reference runs tile 0 first, so it reads the same (exactly)."""
    inputs = _inputs(tiles)
    simulated, reference = run(from_tile(tiles), device, inputs)
    expected = inputs["x"][0] + inputs["b"]
    assert _agrees(simulated["y"], expected)
    assert not _agrees(simulated["y"], inputs["x"] + inputs["b"])
    np.testing.assert_array_equal(simulated["y"], reference["y"])


@pytest.mark.parametrize("device, tiles", DEVICES)
def test_every_tile_reads_its_neighbours_scratchpad(device: str, tiles: int):
    """y[t] = x[(t + 1) mod tiles] + b[t]: each tile's row read by the tile before it.
    (The reference interpreter runs tile 0 to its end before tile 1 stores its row:
    KTIR orders nothing between the tiles here. The compiled kernel's read is in the
    program after the stores, which starts once they have ended on every core.)"""
    inputs = _inputs(tiles)
    package = compile_kernel(from_neighbour(tiles), device)
    simulated = prepare(package, Simulator(device)).launch(*inputs.values())
    assert _agrees(simulated["y"], np.roll(inputs["x"], -1, axis=0) + inputs["b"])


def in_loop(text: str, trips: int) -> str:
    """``text`` with its read and its store into y repeated ``trips`` times."""
    loop = (f"  %trips = arith.constant {trips} : index\n"
            "  scf.for %it = %c0 to %trips step %c1 {\n")
    text = text.replace("  %t1 = arith.addi %t, %c1 : index\n",
                        "  %t1 = arith.addi %t, %c1 : index\n" + loop)
    return text.replace("  return\n}", "  }\n  return\n}")


@pytest.mark.parametrize("device, tiles", DEVICES)
def test_a_read_repeated_in_a_loop(device: str, tiles: int):
    """The read of tile 0's row three times: the receive buffer is reused, each copy
    into it waiting until the reader has read the one before (the backward signals of
    a copy between cores in a loop)."""
    inputs = _inputs(tiles)
    package = compile_kernel(in_loop(from_tile(tiles), 3), device)
    simulated = prepare(package, Simulator(device)).launch(*inputs.values())
    assert _agrees(simulated["y"], inputs["x"][0] + inputs["b"])


ROTATING = """#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#two = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @looped(%x: index, %y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %at = arith.constant 512 : index
  %t = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [8, 128], strides: [128, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %sv = ktdp.construct_memory_view %at, sizes: [2, 128], strides: [128, 1] {coordinate_set = #two, memory_space = #ktdp.memory_space<ct_local>} : memref<2x128xf16>
  %ov = ktdp.construct_memory_view %at, sizes: [2, 128], strides: [128, 1] {coordinate_set = #two, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<2x128xf16>
  %first = arith.muli %t, %c2 : index
  %xt = ktdp.construct_access_tile %xv[%first, %c0] {access_tile_set = #two, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<2x128xindex>
  %st = ktdp.construct_access_tile %sv[%c0, %c0] {access_tile_set = #two, access_tile_order = #id} : memref<2x128xf16> -> !ktdp.access_tile<2x128xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
  ktdp.store %a, %st : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
  scf.for %i = %c0 to %c4 step %c1 {
    %s = arith.addi %i, %t : index
    %r = arith.remui %s, %c2 : index
    %rt = ktdp.construct_access_tile %ov[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x128xf16> -> !ktdp.access_tile<1x128xindex>
    %o = arith.muli %t, %c4 : index
    %oi = arith.addi %o, %i : index
    %yt = ktdp.construct_access_tile %yv[%oi, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<8x128xf16> -> !ktdp.access_tile<1x128xindex>
    %v = ktdp.load %rt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
    %w = arith.addf %v, %v : tensor<1x128xf16>
    ktdp.store %w, %yt : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
  }
  return
}
"""
"""Two tiles each store two rows of x into their scratchpads; then, in iteration i of
a loop, tile t reads row (i + t) mod 2 of tile 0's and stores it doubled into y[4t + i]:
a start that depends on the loop index and the reader's tile id, which the owner
computes per reader and iteration."""


@pytest.mark.parametrize("device", ["spyre", "toy", str(LINE4)])
def test_a_read_at_a_start_from_the_loop_index(device: str):
    """y[4t + i] = 2 x[(i + t) mod 2], for tiles t < 2 and iterations i < 4."""
    x = np.random.default_rng(11).standard_normal((4, WIDTH)).astype(np.float16)
    simulated, reference = run(ROTATING, device, {"x": x, "y": np.zeros((8, WIDTH), np.float16)})
    t, i = np.divmod(np.arange(8), 4)
    expected = 2 * x[(i + t) % 2]
    assert _agrees(simulated["y"], expected)
    assert not _agrees(simulated["y"], 2 * x[np.zeros(8, int)])
    np.testing.assert_array_equal(simulated["y"], reference["y"])


def test_all_32_cores_read_tile_0():
    """Every one of spyre's 32 cores reads tile 0's row: 32 copies from tile 0's stop,
    each with its own destination and signals; the registers these take do not grow
    with the number of readers (each core's per-reader values are queried where they
    are used), so the kernel compiles and matches y[t] = x[0] + b[t]."""
    inputs = _inputs(32)
    package = compile_kernel(from_tile(32), "spyre")
    simulated = prepare(package, Simulator("spyre")).launch(*inputs.values())
    assert _agrees(simulated["y"], inputs["x"][0] + inputs["b"])
    assert not _agrees(simulated["y"], inputs["x"] + inputs["b"])


def test_a_read_needs_its_tiles_at_once():
    with pytest.raises(KtcError, match="grid \\[4\\] has 4 tiles that keep data in their own "
                                       "scratchpad"):
        compile_kernel(from_tile(4), "toy")


# ---------------------------------------------------------------------------------------
# Timing


def _ring_copies(device: str, tiles: int, owner: int, tmp_path: Path) -> list[int]:
    """The cycles each copy over the interconnect of ``from_tile(tiles, owner)`` takes,
    per reader in ascending id (the owner's ring stop copies one after the other), from
    the run's trace (the Python engines; the compiled core gives the same cycles)."""
    trace = tmp_path / "trace.json"
    simulator = Simulator(device, trace=trace)
    prepare(compile_kernel(from_tile(tiles, owner), device), simulator).launch(*_inputs(tiles).values())
    stop = simulator.device.interconnect.stop
    events = json.loads(trace.read_text())["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    busy = [e for e in events if e["ph"] == "X" and names[(e["pid"], e["tid"])].startswith(stop)
            and "dma" in e["name"]]
    cycle = 1 / simulator.device.clock_mhz
    return [round(e["dur"] / cycle) for e in busy]


def test_a_farther_reader_takes_longer_by_the_hop_latency(tmp_path: Path):
    """On line4 (4 cores on a line) tile 0 copies to tiles 0, 1, 2, 3: 0 to 3 hops.
    Each copy takes the previous one's time plus one hop's latency from the arch file."""
    copies = _ring_copies(str(LINE4), 4, 0, tmp_path)
    device = Simulator(str(LINE4)).device
    assert len(copies) == 4
    hop = device.interconnect.latency
    assert [b - a for a, b in zip(copies, copies[1:])] == [hop] * 3


def test_a_copy_takes_its_routes_figures(tmp_path: Path):
    """One row of f16 from tile 0 to tile 1 on line4: the route's link latencies (from
    the arch file) plus the bytes at the slowest link's bandwidth."""
    copies = _ring_copies(str(LINE4), 4, 0, tmp_path)
    device = Simulator(str(LINE4)).device
    scratchpad, stop = device.scratchpad, device.interconnect.stop
    route = (device.path(device.node(scratchpad, 0), device.node(stop, 0))
             + device.path(device.node(stop, 0), device.node(scratchpad, 1)))
    nbytes = 2 * WIDTH
    slowest = min(link.bytes_per_cycle for link in route)
    assert copies[1] == sum(link.latency for link in route) + nbytes // slowest
