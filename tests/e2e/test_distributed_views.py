"""Distributed memory views and scratchpad-resident tensors, compiled and simulated,
checked against the reference interpreter and numpy formulas written here.

- Copies through a ``ktdp.construct_distributed_memory_view`` whose partitions split
  the rows or the columns, at constant boundaries or at one known only at launch, with
  tiles that straddle partitions (``split-distributed-views``): bit-exact copies.
- The corpus's three distributed-view copies, two of them with views whose sizes and
  strides come from an argument at launch: bit-exact copies on every device.
- A tensor placed in the scratchpad by the kernel stays there across loop iterations:
  the device-memory bytes of the whole launch are exactly those of its global accesses.
- ``examples/distributed_rmsnorm.mlir``: rows split over a 2x2 grid through a
  distributed view.
"""

from dataclasses import dataclass

import numpy as np
import pytest
from conftest import CORPUS, LINE4, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simulated import run
from test_simulate import assert_matches, assert_matches_numpy, simulate

from ktc.dialects.diagnostics import KtcError
from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim.reference import Kernel, Placement
from ktc.sim.simulator import Simulator

DEVICES = {"spyre": "spyre", "toy": "toy", "line4": str(LINE4)}


# ---------------------------------------------------------------------------------------
# Distributed copies


@dataclass(frozen=True)
class Layout:
    """A ``rows x cols`` f16 tensor A split along ``axis`` (0: rows, 1: columns) at
    ``bounds`` (partition k holds ``bounds[k] <= index < bounds[k + 1]`` of that axis),
    copied into B tile by tile (``tile`` rows x columns, stepping over the whole
    tensor). With ``at_launch`` there are two partitions along the columns and their
    boundary is the scalar argument ``s``; each partition's rows then lie ``cols``
    elements apart."""

    rows: int
    cols: int
    axis: int
    bounds: tuple[int, ...]
    tile: tuple[int, int]
    at_launch: bool = False

    def part_shape(self, k: int) -> tuple[int, int]:
        width = self.bounds[k + 1] - self.bounds[k]
        return (width, self.cols) if self.axis == 0 else (self.rows, width)


def _set(constraints: list[str], symbols: int = 0) -> str:
    head = "(d0, d1)" + (f"[{', '.join(f's{i}' for i in range(symbols))}]" if symbols else "")
    return f"affine_set<{head} : ({', '.join(constraints)})>"


def _box(axis_low: str, axis_high: str, other: int, axis: int) -> list[str]:
    """``axis_low <= d_axis <= axis_high`` and ``0 <= d_other < other``."""
    this, that = f"d{axis}", f"d{1 - axis}"
    box = [f"{this} - ({axis_low}) >= 0", f"-{this} + {axis_high} >= 0"]
    rest = [f"{that} >= 0", f"-{that} + {other - 1} >= 0"]
    return box + rest if axis == 0 else rest + box


def copy_kernel(layout: Layout) -> str:
    """The KTIR of the copy (pointer arguments a0, a1, ..., b; ``s`` with ``at_launch``)."""
    parts = len(layout.bounds) - 1
    lines, views = [], []
    for k in range(parts):
        if layout.at_launch:
            size = "%s" if k == 0 else "%rest"
            low, high = ("0", "s0 - 1") if k == 0 else (f"{layout.cols} - s0", str(layout.cols - 1))
            coordinates = _set(_box(low, high, layout.rows, 1), 1)
            sizes, strides = f"[{layout.rows}, {size}]", f"[{layout.cols}, 1]"
            memref = f"memref<{layout.rows}x?xf16>"
        else:
            low, high = layout.bounds[k], layout.bounds[k + 1] - 1
            other = layout.cols if layout.axis == 0 else layout.rows
            coordinates = _set(_box(str(low), str(high), other, layout.axis))
            shape = layout.part_shape(k)
            sizes, strides = f"[{shape[0]}, {shape[1]}]", f"[{shape[1]}, 1]"
            memref = f"memref<{shape[0]}x{shape[1]}xf16>"
        lines.append(
            f"    %p{k} = ktdp.construct_memory_view %a{k}, sizes: {sizes}, strides: {strides} "
            f"{{coordinate_set = {coordinates}, memory_space = #ktdp.memory_space<global>}} : {memref}"
        )
        views.append((f"%p{k}", memref))
    whole = f"memref<{layout.rows}x{layout.cols}xf16>"
    every = _set(_box("0", str(layout.rows - 1), layout.cols, 0))
    tr, tc = layout.tile
    tile_set = _set(_box("0", str(tr - 1), tc, 0))
    tile_type = f"!ktdp.access_tile<{tr}x{tc}xindex>"
    scalar = ", %s_in: i32" if layout.at_launch else ""
    launch = ("    %s = arith.index_cast %s_in : i32 to index\n"
              f"    %c{layout.cols} = arith.constant {layout.cols} : index\n"
              f"    %rest = arith.subi %c{layout.cols}, %s : index\n") if layout.at_launch else ""
    args = ", ".join(f"%a{k}: index" for k in range(parts))
    return f"""#id = affine_map<(d0, d1) -> (d0, d1)>
module {{
  func.func @distributed_copy({args}, %b: index{scalar}) {{
    %c0 = arith.constant 0 : index
    %tr = arith.constant {tr} : index
    %tc = arith.constant {tc} : index
    %rows = arith.constant {layout.rows} : index
    %cols = arith.constant {layout.cols} : index
{launch}{chr(10).join(lines)}
    %a = ktdp.construct_distributed_memory_view({", ".join(v for v, _ in views)} : {", ".join(m for _, m in views)}) : {whole}
    %bv = ktdp.construct_memory_view %b, sizes: [{layout.rows}, {layout.cols}], strides: [{layout.cols}, 1] {{coordinate_set = {every}, memory_space = #ktdp.memory_space<global>}} : {whole}
    scf.for %i = %c0 to %rows step %tr {{
      scf.for %j = %c0 to %cols step %tc {{
        %at = ktdp.construct_access_tile %a[%i, %j] {{access_tile_set = {tile_set}, access_tile_order = #id}} : {whole} -> {tile_type}
        %bt = ktdp.construct_access_tile %bv[%i, %j] {{access_tile_set = {tile_set}, access_tile_order = #id}} : {whole} -> {tile_type}
        %x = ktdp.load %at : {tile_type} -> tensor<{tr}x{tc}xf16>
        ktdp.store %x, %bt : tensor<{tr}x{tc}xf16>, {tile_type}
      }}
    }}
    return
  }}
}}
"""


def copy_inputs(layout: Layout, seed: int) -> tuple[dict, dict, np.ndarray]:
    """The arrays (partitions of a random A, and a zero B), the scalars, and A."""
    a = np.random.default_rng(seed).standard_normal((layout.rows, layout.cols)).astype(np.float16)
    arrays, scalars = {}, {}
    for k in range(len(layout.bounds) - 1):
        low, high = layout.bounds[k], layout.bounds[k + 1]
        part = a[low:high] if layout.axis == 0 else a[:, low:high]
        if layout.at_launch:
            padded = np.zeros((layout.rows, layout.cols), np.float16)
            padded[:, : high - low] = part
            part = padded.ravel()[: (layout.rows - 1) * layout.cols + high - low]
        arrays[f"a{k}"] = np.ascontiguousarray(part)
    arrays["b"] = np.zeros_like(a)
    if layout.at_launch:
        scalars["s_in"] = layout.bounds[1]
    return arrays, scalars, a


def check_copy(layout: Layout, device: str, seed: int = 3) -> None:
    text = copy_kernel(layout)
    arrays, scalars, a = copy_inputs(layout, seed)
    actual, expected, report = simulate(text, "distributed_copy", device, arrays, scalars)
    np.testing.assert_array_equal(expected["b"], a)
    np.testing.assert_array_equal(actual["b"], a)
    assert report.bound_cycles <= report.cycles


LAYOUTS = {
    # the corpus's row merge with constant strides: 64 + 64 rows, tiles of 64 rows at
    # rows 0 and 64, and 16-column tiles
    "rows 64+64": Layout(128, 32, 0, (0, 64, 128), (64, 16)),
    # a tile of 64 rows starting at row 32 straddles the boundary
    "rows 32+64+32": Layout(128, 32, 0, (0, 32, 96, 128), (64, 16)),
    # the corpus's column split, the boundary known at launch: at 16 a 32-wide tile
    # straddles both partitions, at 40 the second tile does
    "columns at launch 16": Layout(16, 64, 1, (0, 16, 64), (16, 32), at_launch=True),
    "columns at launch 40": Layout(16, 64, 1, (0, 40, 64), (16, 32), at_launch=True),
}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", LAYOUTS)
def test_distributed_copy_matches(name: str, device: str):
    """On toy (8 lanes) the 32-column window of the second partition at a boundary of
    40 (columns 40..71, masked at 64) moves as 8-column DMAs, one of them starting at
    column 64: past the row, so outside the box (not row 1, column 0)."""
    check_copy(LAYOUTS[name], DEVICES[device])


@st.composite
def layouts(draw) -> Layout:
    """Rows or columns split in 2 or 3 partitions at drawn boundaries (one known only
    at launch when drawn so), tiles of drawn power-of-two shapes narrower than the
    tensor (a masked copy of whole rows into a block of another shape is not lowered
    yet, docs/ktir.md), partitions at least 4 wide (a column partition 1 wide has
    equal strides, and a masked DMA needs the view's dimensions told apart by them)."""
    rows, cols = draw(st.sampled_from([(16, 32), (32, 64), (64, 16)]))
    at_launch = draw(st.booleans())
    axis = 1 if at_launch else draw(st.integers(0, 1))
    extent = (rows, cols)[axis]
    count = 1 if at_launch else draw(st.integers(1, 2))
    cuts = draw(st.lists(st.integers(1, extent // 4 - 1), min_size=count, max_size=count,
                         unique=True).map(lambda quarters: [4 * q for q in quarters]))
    bounds = (0, *sorted(cuts), extent)
    narrowest = min(b - a for a, b in zip(bounds, bounds[1:])) if axis == 1 else cols
    tile = (draw(st.sampled_from([t for t in (4, 8, 16) if rows % t == 0])),
            draw(st.sampled_from([t for t in (2, 4, 8, 16) if cols % t == 0 and t < narrowest])))
    return Layout(rows, cols, axis, bounds, tile, at_launch)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=layouts())
@pytest.mark.parametrize("device", DEVICES)
def test_generated_distributed_copy_matches(device: str, layout: Layout):
    check_copy(layout, DEVICES[device])


def test_copy_check_sees_a_perturbed_answer():
    """The copy checks compare bits: one element off fails them."""
    layout = LAYOUTS["rows 32+64+32"]
    arrays, scalars, a = copy_inputs(layout, 3)
    actual, _, _ = simulate(copy_kernel(layout), "distributed_copy", "spyre", arrays, scalars)
    perturbed = actual["b"].copy()
    perturbed[40, 3] = np.nextafter(perturbed[40, 3], np.float16(np.inf))
    with pytest.raises(AssertionError):
        np.testing.assert_array_equal(perturbed, a)


DYNAMIC_CORPUS = {
    "distributed-view-copy-dynamic.mlir": (16, 32, 48),
    "distributed-view-copy-rowmerge-dynamic.mlir": (16, 48),
}
"""The corpus's distributed copies whose views' sizes and strides come from the
argument ``s0_in``, and the values of it each is run with."""


def _dynamic_corpus_inputs(name: str, s0: int) -> tuple[dict, np.ndarray]:
    """A's partitions (columns [0, s0) and [s0, 2 s0), or rows [0, 64) and [64, 128))
    and the zeroed B, and the A that B must become."""
    rng = np.random.default_rng(s0)
    if name == "distributed-view-copy-dynamic.mlir":
        a = rng.standard_normal((64, 2 * s0)).astype(np.float16)
        parts = np.ascontiguousarray(a[:, :s0]), np.ascontiguousarray(a[:, s0:])
    else:
        a = rng.standard_normal((128, s0)).astype(np.float16)
        parts = a[:64].copy(), a[64:].copy()
    return {"a0_ptr": parts[0], "a1_ptr": parts[1], "b_ptr": np.zeros_like(a), "s0_in": s0}, a


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", DYNAMIC_CORPUS)
def test_corpus_dynamic_distributed_copy_matches(name: str, device: str):
    """Views whose row stride is ``s0`` (or ``2 s0``), known at launch: B is A, bit
    for bit, as on the reference, for each ``s0`` (16 makes a tile straddle the column
    partitions)."""
    path = CORPUS / "ktir-cpu" / "rfc" / name
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    for s0 in DYNAMIC_CORPUS[name]:
        inputs, a = _dynamic_corpus_inputs(name, s0)
        simulated, reference = run(path.read_text(), DEVICES[device], inputs, str(path))
        np.testing.assert_array_equal(simulated["b_ptr"], a)
        np.testing.assert_array_equal(reference["b_ptr"], a)


@pytest.mark.parametrize("device", ["spyre", "toy", "line4"])
def test_corpus_distributed_view_copy_matches(device: str):
    """distributed-view-copy.mlir takes no arguments: A's rows 0..95 lie in device
    memory at element 0, rows 96..127 column-major in tile 0's scratchpad at element
    12288, rows 128..191 in tile 1's at element 16384; both tiles copy all of A into B
    at element 24576 of device memory. Written and read around the launch; B must be A,
    bit for bit, as on the reference."""
    path = CORPUS / "ktir-cpu" / "rfc" / "distributed-view-copy.mlir"
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    a = np.random.default_rng(5).standard_normal((192, 64)).astype(np.float16)
    column_major = np.zeros((64, 64), np.float16)
    column_major[:, :32] = a[96:128].T
    reference = Kernel.from_text(path.read_text(), str(path)).execute(
        {}, preload=[Placement(0, a[:96]), Placement(12288, column_major, ct_id=0),
                     Placement(16384, a[128:], ct_id=1)])
    np.testing.assert_array_equal(reference.read(24576, (192, 64), np.float16), a)
    simulator = Simulator(DEVICES[device])
    memory, scratchpad = simulator.device.device_memory, simulator.device.scratchpad
    assert simulator.allocate(memory, 2 * (24576 + a.size), 128) == 0
    simulator.write(memory, 0, a[:96].tobytes())
    simulator.memory_of(scratchpad, 0).write(2 * 12288, np.frombuffer(column_major.tobytes(), np.uint8))
    simulator.memory_of(scratchpad, 1).write(2 * 16384, np.frombuffer(a[128:].tobytes(), np.uint8))
    prepare(compile_kernel(path.read_text(), DEVICES[device], str(path)), simulator).launch()
    out = np.frombuffer(simulator.read(memory, 2 * 24576, a.nbytes), np.float16).reshape(a.shape)
    np.testing.assert_array_equal(out, a)


# ---------------------------------------------------------------------------------------
# Scratchpad residency

RESIDENT = """#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blocks = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @resident(%x: index, %z: index, %y: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %trips = arith.constant 4 : index
    %at = arith.constant ADDRESS : index
    %x_view = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %z_view = ktdp.construct_memory_view %z, sizes: [256, 64], strides: [64, 1] {coordinate_set = #blocks, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %s_view = ktdp.construct_memory_view %at, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local>} : memref<64x64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %s_tile = ktdp.construct_access_tile %s_view[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %x0 = ktdp.load %x_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
    ktdp.store %x0, %s_tile : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
    scf.for %i = %c0 to %trips step %c1 {
      %v = ktdp.load %s_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
      %z_tile = ktdp.construct_access_tile %z_view[%i * 64, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
      %w = ktdp.load %z_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
      %sum = arith.addf %v, %w : tensor<64x64xf16>
      ktdp.store %sum, %s_tile : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
    }
    %r = ktdp.load %s_tile : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
    ktdp.store %r, %y_tile : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
    return
  }
}
"""
"""y = x + z[0:64] + z[64:128] + z[128:192] + z[192:256]: x kept in the scratchpad at
element ADDRESS across the four iterations, one block of z read from device memory in
each."""


class Totals(Simulator):
    """A simulator that adds up the bytes per memory of every execution of a launch
    (a kernel of several programs runs one execution each)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.totals: dict[str, int] = {}

    def execute(self, handle: int) -> None:
        super().execute(handle)
        for memory, count in self.report().bytes.items():
            self.totals[memory] = self.totals.get(memory, 0) + count


@pytest.mark.parametrize("address", [0, 20000])
@pytest.mark.parametrize("device", DEVICES)
def test_scratchpad_tensor_stays_across_iterations(device: str, address: int):
    """The result matches numpy and the reference, and device memory moves x once,
    each block of z once and y once, nothing more: the resident tensor makes no round trip. At
    element 0 the tensor lies where the compiler's first buffers would: they are laid
    out around it."""
    text = RESIDENT.replace("ADDRESS", str(address))
    rng = np.random.default_rng(9)
    x = rng.standard_normal((64, 64)).astype(np.float16)
    z = rng.standard_normal((256, 64)).astype(np.float16)
    expected = Kernel.from_text(text).execute(dict(x=x, z=z, y=np.zeros_like(x))).outputs["y"]
    want = x
    for block in range(4):
        want = want + z[64 * block : 64 * (block + 1)]
    np.testing.assert_array_equal(expected, want)
    simulator = Totals(DEVICES[device])
    out = prepare(compile_kernel(text, DEVICES[device], "resident"), simulator).launch(
        x, z, np.zeros_like(x))
    np.testing.assert_array_equal(out["y"], want)
    assert simulator.totals[simulator.device.device_memory] == 6 * x.nbytes


def test_scratchpad_tensor_beyond_the_scratchpad_is_refused():
    """Toy's scratchpad holds 64 KiB: a tensor the kernel places at element 40000
    (bytes 80000 ..) does not fit, and the compiler says so at the view."""
    text = RESIDENT.replace("ADDRESS", "40000")
    with pytest.raises(KtcError, match=r"resident:13:\d+: .*the kernel's data in L1 ends at "
                                       r"byte 88192, beyond its 65536 bytes on device @toy"):
        compile_kernel(text, "toy", "resident")


# ---------------------------------------------------------------------------------------
# The 2x2 row normalization


@pytest.mark.parametrize("device", ["spyre", "line4"])
def test_distributed_rmsnorm_matches(device: str):
    """Rows of a 2x2 grid of tiles split over four arrays: the reference's results and
    numpy's formula (toy's 2 cores cannot run the 4 tiles at once: refused, see
    tests/unit/test_examples.py)."""
    text = (ROOT / "examples" / "distributed_rmsnorm.mlir").read_text()
    rng = np.random.default_rng(7)
    arrays = {f"x{k}": rng.standard_normal((16, 256)).astype(np.float16) for k in range(4)}
    arrays["w"] = rng.standard_normal(256).astype(np.float16)
    arrays["y"] = np.zeros((64, 256), np.float16)
    actual, expected, report = simulate(text, "distributed_rmsnorm", DEVICES[device], arrays, {})
    assert_matches(actual, expected, text, {})
    x = np.concatenate([arrays[f"x{k}"] for k in range(4)]).astype(np.float64)
    formula = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5) * arrays["w"].astype(np.float64)
    assert_matches_numpy({"y": actual["y"]}, {"y": formula.astype(np.float16)}, text, {})
    assert report.bound_cycles <= report.cycles
