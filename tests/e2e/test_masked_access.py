"""Tiles that reach past their view's coordinate set, compiled and simulated: a load
reads zeros outside the set, a store writes nothing there (docs/ktir.md, "Masked
accesses"). Each kernel runs on every test device for lengths that leave a tail tile
of 1, 63, 1000 or 1025 elements (or a whole tile masked), and its outputs are compared
by ``ktc.sim.check`` with numpy formulas written here and with the reference
interpreter. Every pointer argument comes back from the device: an input changed or
an output written past its valid part fails the comparison. Sums take terms in
[0.5, 1.5), so that the check's tolerance, relative to the result, is not spent on
cancellation."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES, require_corpus  # noqa: E402
from simulated import agree  # noqa: E402
from simulated import run as simulated_and_reference  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.runtime.executable import prepare  # noqa: E402
from ktc.sim.simulator import TIMINGS, Simulator, default_timing  # noqa: E402

TILE = 1024
ADD = (Path(__file__).resolve().parent / "inputs" / "masked_add.mlir").read_text()

SCALE_2D = """#box = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @masked_scale(%x: index, %out: index, %m: index, %k: index) attributes {grid = [2]} {
  %tile = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %row = arith.muli %tile, %c8 : index
  %xv = ktdp.construct_memory_view %x, sizes: [%m, %k], strides: [64, 1]
      {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<?x?xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [%m, %k], strides: [64, 1]
      {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<?x?xf32>
  %xt = ktdp.construct_access_tile %xv[%row, %c0] {access_tile_set = #block, access_tile_order = #id}
      : memref<?x?xf32> -> !ktdp.access_tile<8x64xindex>
  %ot = ktdp.construct_access_tile %ov[%row, %c0] {access_tile_set = #block, access_tile_order = #id}
      : memref<?x?xf32> -> !ktdp.access_tile<8x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
  %two = arith.constant dense<2.0> : tensor<8x64xf32>
  %half = arith.constant dense<0.5> : tensor<8x64xf32>
  %p = arith.mulf %a, %two : tensor<8x64xf32>
  %r = arith.addf %p, %half : tensor<8x64xf32>
  ktdp.store %r, %ot : tensor<8x64xf32>, !ktdp.access_tile<8x64xindex>
  return
}
"""

ROWS = 4
ROW_SUM = """#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @masked_row_sum(%x: index, %out: index, %n: index) attributes {grid = [4]} {
  %r = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, %n], strides: [1024, 1]
      {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x?xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [4], strides: [1]
      {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
  %xt = ktdp.construct_access_tile %xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<4x?xf32> -> !ktdp.access_tile<1x1024xindex>
  %ot = ktdp.construct_access_tile %ov[%r] {access_tile_set = #one, access_tile_order = #id1}
      : memref<4xf32> -> !ktdp.access_tile<1xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf32>
  %zero = arith.constant dense<0.0> : tensor<1xf32>
  %s = linalg.reduce ins(%a : tensor<1x1024xf32>) outs(%zero : tensor<1xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  ktdp.store %s, %ot : tensor<1xf32>, !ktdp.access_tile<1xindex>
  return
}
"""

ROW_SOFTMAX = """#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @masked_row_softmax(%x: index, %y: index, %n: index) attributes {grid = [4]} {
  %r = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4, %n], strides: [1024, 1]
      {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x?xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [4, %n], strides: [1024, 1]
      {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x?xf32>
  %xt = ktdp.construct_access_tile %xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<4x?xf32> -> !ktdp.access_tile<1x1024xindex>
  %yt = ktdp.construct_access_tile %yv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<4x?xf32> -> !ktdp.access_tile<1x1024xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf32>
  %minus_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scalar = tensor.empty() : tensor<1xf32>
  %full = tensor.empty() : tensor<1x1024xf32>
  %max_init = linalg.fill ins(%minus_inf : f32) outs(%scalar : tensor<1xf32>) -> tensor<1xf32>
  %max = linalg.reduce { arith.maxnumf } ins(%a : tensor<1x1024xf32>) outs(%max_init : tensor<1xf32>) dimensions = [1]
  %max_row = linalg.broadcast ins(%max : tensor<1xf32>) outs(%full : tensor<1x1024xf32>) dimensions = [1]
  %shifted = arith.subf %a, %max_row : tensor<1x1024xf32>
  %e = math.exp %shifted : tensor<1x1024xf32>
  %sum_init = linalg.fill ins(%zero : f32) outs(%scalar : tensor<1xf32>) -> tensor<1xf32>
  %sum = linalg.reduce { arith.addf } ins(%e : tensor<1x1024xf32>) outs(%sum_init : tensor<1xf32>) dimensions = [1]
  %sum_row = linalg.broadcast ins(%sum : tensor<1xf32>) outs(%full : tensor<1x1024xf32>) dimensions = [1]
  %out = arith.divf %e, %sum_row : tensor<1x1024xf32>
  ktdp.store %out, %yt : tensor<1x1024xf32>, !ktdp.access_tile<1x1024xindex>
  return
}
"""

CHUNK_SUMS = """#first_n = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#three = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @chunk_sums(%x: index, %out: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c1024 = arith.constant 1024 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, %n], strides: [4096, 1]
      {coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>} : memref<1x?xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [3], strides: [1]
      {coordinate_set = #three, memory_space = #ktdp.memory_space<global>} : memref<3xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    %start = arith.muli %i, %c1024 : index
    %xt = ktdp.construct_access_tile %xv[%c0, %start] {access_tile_set = #block, access_tile_order = #id2}
        : memref<1x?xf32> -> !ktdp.access_tile<1x1024xindex>
    %ot = ktdp.construct_access_tile %ov[%i] {access_tile_set = #one, access_tile_order = #id1}
        : memref<3xf32> -> !ktdp.access_tile<1xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf32>
    %zero = arith.constant dense<0.0> : tensor<1xf32>
    %s = linalg.reduce ins(%a : tensor<1x1024xf32>) outs(%zero : tensor<1xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %t = arith.addf %in, %acc : f32
        linalg.yield %t : f32
      }
    ktdp.store %s, %ot : tensor<1xf32>, !ktdp.access_tile<1xindex>
  }
  return
}
"""

AFTER_A_FULL_TILE = """#row_n = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @after_a_full_tile(%y: index, %yo: index, %x: index, %out: index, %n: index) {
  %c0 = arith.constant 0 : index
  %yv = ktdp.construct_memory_view %y, sizes: [1, 1024], strides: [1024, 1]
      {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x1024xf32>
  %yov = ktdp.construct_memory_view %yo, sizes: [1, 1024], strides: [1024, 1]
      {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x1024xf32>
  %xv = ktdp.construct_memory_view %x, sizes: [1, %n], strides: [1024, 1]
      {coordinate_set = #row_n, memory_space = #ktdp.memory_space<global>} : memref<1x?xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [1], strides: [1]
      {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1xf32>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<1x1024xf32> -> !ktdp.access_tile<1x1024xindex>
  %yot = ktdp.construct_access_tile %yov[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<1x1024xf32> -> !ktdp.access_tile<1x1024xindex>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<1x?xf32> -> !ktdp.access_tile<1x1024xindex>
  %ot = ktdp.construct_access_tile %ov[%c0] {access_tile_set = #one, access_tile_order = #id1}
      : memref<1xf32> -> !ktdp.access_tile<1xindex>
  %b = ktdp.load %yt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf32>
  %two = arith.constant dense<2.0> : tensor<1x1024xf32>
  %b2 = arith.mulf %b, %two : tensor<1x1024xf32>
  ktdp.store %b2, %yot : tensor<1x1024xf32>, !ktdp.access_tile<1x1024xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf32>
  %zero = arith.constant dense<0.0> : tensor<1xf32>
  %s = linalg.reduce ins(%a : tensor<1x1024xf32>) outs(%zero : tensor<1xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  ktdp.store %s, %ot : tensor<1xf32>, !ktdp.access_tile<1xindex>
  return
}
"""


def run(text: str, name: str, device: str, inputs: dict) -> tuple[dict, dict]:
    """The outputs of the simulated kernel and of the reference interpreter; the
    simulator runs on its default timing (the compiled core where it is built: a
    ``dmaz`` does not send it to the Python engines)."""
    simulator = Simulator(device)
    simulated, reference = simulated_and_reference(text, device, inputs, name, simulator)
    assert simulator.ran_on == default_timing()
    return simulated, reference


def check(simulated: dict, reference: dict, expected: dict, length: int = 1) -> None:
    agree(simulated, reference, expected, {key: "f32" for key in expected}, length)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [1, 63, 1000, 1025, 2 * TILE])
def test_vector_add_with_a_tail_tile(device: str, n: int):
    """Two 1024-element tiles over n elements: the tail tile moves n - 1024 of them
    (none at all for n <= 1024), its store writes only those."""
    rng = np.random.default_rng(n)
    x, y = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    simulated, reference = run(ADD, "masked_add", device,
                               {"x": x, "y": y, "out": np.zeros(n, np.float32), "n": n})
    check(simulated, reference, {"x": x, "y": y, "out": x + y + np.float32(1)})


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("m, k", [(2, 1), (9, 63), (13, 50), (16, 37)])
def test_two_dimensional_tiles_masked_in_rows_and_columns(device: str, m: int, k: int):
    """Tiles of 8 x 64 over an m x k box of rows 64 elements apart: rows past m and
    columns past k are masked; the elements between a row's k-th and the next row
    (inside the argument's array, outside the set) keep their values."""
    size = (m - 1) * 64 + k
    rng = np.random.default_rng(m * 100 + k)
    x = rng.standard_normal(size).astype(np.float32)
    out = rng.standard_normal(size).astype(np.float32)
    expected = out.copy()
    inside = (np.arange(size) % 64) < k
    expected[inside] = x[inside] * np.float32(2) + np.float32(0.5)
    simulated, reference = run(SCALE_2D, "masked_scale", device,
                               {"x": x, "out": out, "m": m, "k": k})
    check(simulated, reference, {"x": x, "out": expected})


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [1, 63, 1000])
def test_row_sum_over_a_masked_tail(device: str, n: int):
    """Each row's 1024-element tile holds n elements of the view and zeros after them,
    so the sum is the sum of the n."""
    rng = np.random.default_rng(n)
    size = (ROWS - 1) * TILE + n
    x = (rng.random(size) + 0.5).astype(np.float32)
    simulated, reference = run(ROW_SUM, "masked_row_sum", device,
                               {"x": x, "out": np.zeros(ROWS, np.float32), "n": n})
    rows = np.stack([x[r * TILE:r * TILE + n].astype(np.float64) for r in range(ROWS)])
    check(simulated, reference, {"x": x, "out": rows.sum(axis=1).astype(np.float32)}, TILE)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [1, 63, 1000])
def test_row_softmax_over_a_masked_tail(device: str, n: int):
    """A softmax over a row's 1024-element tile of which n are in the view: the tile's
    other elements are zeros, and they take part in the max and the sum as the rule
    says (a kernel that wants them left out masks them itself); only the n are
    stored, the elements after them keep their values. The rows are negative, so a
    zero is the row's max: a compiler that dropped the masked elements from the
    reductions would differ everywhere."""
    rng = np.random.default_rng(n + 7)
    size = (ROWS - 1) * TILE + n
    x = (-1.0 - rng.random(size)).astype(np.float32)
    y = rng.standard_normal(size).astype(np.float32)
    simulated, reference = run(ROW_SOFTMAX, "masked_row_softmax", device, {"x": x, "y": y.copy(), "n": n})
    expected = y.copy()
    for r in range(ROWS):
        row = np.zeros(TILE)
        row[:n] = x[r * TILE:r * TILE + n]
        e = np.exp(row - row.max())
        expected[r * TILE:r * TILE + n] = (e / e.sum())[:n]
    check(simulated, reference, {"x": x, "y": expected}, TILE)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [1500, 2049, 3048])
def test_chunk_sums_reuse_a_buffer_filled_before(device: str, n: int):
    """One core sums three 1024-element chunks of n elements in a loop: a chunk's
    staging buffer held a whole earlier chunk, so a tail that did not overwrite the
    rest with zeros would add the earlier chunk's elements (and a chunk wholly past n
    would repeat an earlier sum)."""
    rng = np.random.default_rng(n)
    x = (rng.random((1, n)) + 0.5).astype(np.float32)
    simulated, reference = run(CHUNK_SUMS, "chunk_sums", device,
                               {"x": x, "out": np.zeros(3, np.float32), "n": n})
    sums = [x[0, i * TILE:(i + 1) * TILE].astype(np.float64).sum() for i in range(3)]
    check(simulated, reference, {"x": x, "out": np.array(sums, np.float32)}, TILE)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [1, 63, 1000])
def test_a_masked_load_into_space_a_whole_tile_used_before(device: str, n: int):
    """A whole tile of y is staged, doubled and stored; then a masked tile of x is
    staged where it was (the scratchpad is reused between steps) and summed: the
    elements past n must be zeros, not y's."""
    rng = np.random.default_rng(n)
    y = (rng.random((1, TILE)) + 1).astype(np.float32)
    x = (rng.random((1, n)) + 0.5).astype(np.float32)
    simulated, reference = run(AFTER_A_FULL_TILE, "after_a_full_tile", device,
                               {"y": y, "yo": np.zeros_like(y), "x": x,
                                "out": np.zeros(1, np.float32), "n": n})
    expected = {"y": y, "yo": y * np.float32(2), "x": x,
                "out": np.array([x.astype(np.float64).sum()], np.float32)}
    check(simulated, reference, expected, TILE)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [1, 63, 1000])
def test_the_corpus_dynamic_vector_add(device: str, n: int):
    """The corpus's vector_add_dynamic as written: one 1024-element tile over
    n_elements (an i32 launch argument), fewer than the tile."""
    path = require_corpus() / "ktir-cpu" / "triton-ktir" / "vector_add_dynamic_ktir.mlir"
    rng = np.random.default_rng(n)
    x, y = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    simulated, reference = run(path.read_text(), "add_kernel_dynamic", device,
                               {"x_ptr": x, "y_ptr": y, "output_ptr": np.zeros(n, np.float32),
                                "n_elements": n})
    check(simulated, reference, {"x_ptr": x, "y_ptr": y, "output_ptr": x + y})


@pytest.mark.parametrize("device", DEVICES)
def test_masked_tiles_time_and_compute_alike_on_both_timings(device: str):
    """The compiled core and the Python engines give a masked kernel (loads by
    ``dmaz``, stores of the valid part) the same cycles, figures and outputs."""
    if "compiled" not in TIMINGS or default_timing() != "compiled":
        pytest.skip("the compiled timing core is not built")
    rng = np.random.default_rng(5)
    m, k = 13, 50
    size = (m - 1) * 64 + k
    x, out = (rng.standard_normal(size).astype(np.float32) for _ in range(2))
    compiled = compile_kernel(SCALE_2D, device, "masked_scale")
    runs = []
    for timing in ("compiled", "python"):
        simulator = Simulator(device, timing=timing)
        outputs = prepare(compiled, simulator).launch(x, out.copy(), m, k)
        assert simulator.ran_on == timing
        figures = simulator.report().to_json() | {"wall_s": 0, "cycles_per_wall_s": 0}
        runs.append((figures, outputs["out"].tobytes()))
    assert runs[0] == runs[1]
