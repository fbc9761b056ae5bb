"""The SwiGLU MLP block of the benchmarks (``ktc.benchmarks.kernels.swiglu_mlp``: each
tile multiplies its rows of x by the gate and up weights, gates the products and
multiplies the result by the down weight: the weights whole, or, split, a slice of the
intermediate dimension, whose partial down products an inter-tile reduce adds), at
intermediate sizes whose rows of the gated product are too long for the matrix unit's
FIFO in one chunk.

- The output matches the numpy formula of ``tests/formulas.py`` within the shared rule
  of ``ktc.sim.check`` (its tolerance grows with the kernel's reduction length), on
  spyre (the down product on the matrix unit, its left operand staged chunk-major and
  fed several rows by a part of a row at a time), toy (whose SIMD engine, at one multiply-add per lane, is estimated faster than
  its 2 x 8 matrix unit fed that way, and multiplies the down product) and the third
  chip (no matrix unit), at sizes that are no multiple of the units' rows and lanes,
  split or not; a perturbed output fails the same check.
- On spyre, the bytes the run issued through the device-memory port (the report's
  figure, every transfer rounded up to the port's granularity) are within 10% of what
  each tile needs once: its rows of x for each of the two products that load them, its
  slices of the three weights, and each block of the output once, each stored row
  rounded up to the granularity (the 10%: the products of x may copy its rows in chunks
  narrower than a granule).
  With rows of the gated product that start off the scratchpad's alignment, spyre's
  SIMD engine multiplies the down product, reading the down weight through a permuted
  view, an element per transfer, and exceeds that bound: it fails on a schedule that
  re-reads.
- Weights shared over the ring (``share-over-ring``): where the tiles share a weight,
  it crosses device memory once per run of tiles sharing it instead of once per tile;
  the report's bytes read plus written fall by the other tiles' reads of it against
  the same kernel compiled without the pass (the check fails when nothing is shared),
  and the output still matches numpy.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from formulas import swiglu_mlp as formula
from test_matmul import DEVICES

from ktc.arch.model import Device
from ktc.benchmarks.kernels import swiglu_mlp
from ktc.driver import Schedule
from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim.check import differences, reduction_length
from ktc.sim.reference import Kernel
from ktc.sim.simulator import Simulator

CASES = [
    ("spyre", (16, 64, 512, 2)),
    ("spyre", (10, 40, 320, 2)),
    ("spyre", (16, 64, 512, 2, 2)),
    ("spyre", (10, 40, 320, 2, 2)),
    ("toy", (6, 20, 96, 2)),
    ("toy", (10, 12, 64, 2)),
    ("toy", (6, 20, 96, 1, 2)),
    ("line4", (8, 20, 96, 4)),
    ("line4", (8, 20, 96, 2, 2)),
]
"""Device, then tokens, hidden, intermediate, grid and split of ``swiglu_mlp``: spyre's
down product over rows of 512 and 320 (its FIFO takes 16 KiB: a whole row of 320 in a
chunk leaves blocks of at most 3 columns), 5 tokens a tile and a hidden size of 40,
neither a multiple of its 8 rows or 64 lanes; toy's and the third chip's likewise;
with a split, the intermediate dimension over 2 tiles per block of tokens, their
partials added by an inter-tile reduce."""


SHARED = [
    ("spyre", (32, 64, 512, 4), 3, 2),
    ("toy", (6, 20, 96, 2), 2, 1),
]
"""Device, sizes of ``swiglu_mlp``, how many of its weights the tiles share and how many
tiles read each of them from device memory: on spyre all three, each one copy of 64 KiB
(the down product's A staged chunk-major, all of k one k tile), shared in runs of 2
(an owner forwarding to 3 others sends as many bytes from its stop as the port would
serve the 4 tiles: no gain); with 2 tiles a single copy is not shared, its forwarding
only following it (8,407 cycles against 8,398 when forced); on toy the gate and up
weights (in k tiles), one reader for the 2 tiles."""

WITHOUT_SHARING = Schedule(skip=("share-over-ring",))


def _report(text: str, device: str, arrays: dict, schedule: Schedule | None = None):
    """The outputs of one run and its report."""
    simulator = Simulator(DEVICES[device])
    package = compile_kernel(text, DEVICES[device], "swiglu_mlp.mlir", schedule=schedule)
    executable = prepare(package, simulator)
    outputs = executable.launch(*arrays.values())
    return outputs, executable.report()


def _run(text: str, device: str, arrays: dict) -> tuple[dict, int]:
    """The outputs of one run and the bytes it issued through the device-memory port."""
    outputs, report = _report(text, device, arrays)
    return outputs, report.issued_bytes


def _differing(case, outputs: dict, arrays: dict) -> np.ndarray:
    """Where the output differs from the numpy formula beyond the shared rule."""
    length = reduction_length(Kernel.from_text(case.text, "swiglu_mlp"))
    return differences(outputs["out"], formula(arrays), "f16", length)[0]


def needed_bytes(device: str, tokens: int, hidden: int, intermediate: int, grid: int,
                 split: int = 1) -> int:
    """Bytes of f16 through device memory when every tile reads its rows of x twice and
    its slices of the three weights once, and each block of tokens is written once,
    each stored row a run rounded up to the granularity."""
    granule = Device.load(DEVICES[device]).roofline.dma_granularity

    def rows(count: int, length: int) -> int:
        return count * math.ceil(2 * length / granule) * granule

    rows_per_tile, width = tokens // grid, intermediate // split
    per_tile = 2 * rows(rows_per_tile, hidden) + 2 * rows(hidden, width) + rows(width, hidden)
    return grid * (split * per_tile + rows(rows_per_tile, hidden))


@pytest.mark.parametrize("device, sizes", CASES)
def test_block_matches_numpy(device, sizes):
    case = swiglu_mlp(*sizes)
    arrays = case.inputs(seed=5)
    outputs, _ = _run(case.text, device, arrays)
    differ = _differing(case, outputs, arrays)
    assert not differ.any(), f"{int(differ.sum())} of {differ.size} elements differ"


def test_the_check_fails_on_a_perturbed_output():
    case = swiglu_mlp(*CASES[0][1])
    arrays = case.inputs(seed=5)
    outputs, _ = _run(case.text, "spyre", arrays)
    length = reduction_length(Kernel.from_text(case.text, "swiglu_mlp"))
    perturbed = outputs["out"].astype(np.float64)
    perturbed[3, 7] += 0.05 * np.max(np.abs(perturbed))
    assert differences(perturbed, formula(arrays), "f16", length)[0].any()


@pytest.mark.parametrize("device, sizes", [c for c in CASES if c[0] == "spyre"])
def test_each_tile_reads_its_operands_once(device, sizes):
    case = swiglu_mlp(*sizes)
    _, issued = _run(case.text, device, case.inputs(seed=5))
    assert issued <= 1.1 * needed_bytes(device, *sizes)


def test_the_simd_engine_reads_the_down_weight_an_element_a_transfer():
    """Rows of 650 f16 (1,300 bytes) start off the scratchpad's 128-byte units: no part
    of one can be fed, whole ones leave blocks of 2 columns, and spyre's SIMD engine
    multiplies the down product."""
    sizes = (10, 40, 650, 2)
    case = swiglu_mlp(*sizes)
    _, issued = _run(case.text, "spyre", case.inputs(seed=5))
    assert issued > 1.1 * needed_bytes("spyre", *sizes)


@pytest.mark.parametrize("device, sizes, shared, readers", SHARED)
def test_a_shared_weight_crosses_device_memory_once_per_run(device, sizes, shared, readers):
    tokens, hidden, intermediate, grid = sizes
    case = swiglu_mlp(*sizes)
    arrays = case.inputs(seed=5)
    outputs, report = _report(case.text, device, arrays)
    _, alone = _report(case.text, device, arrays, WITHOUT_SHARING)
    memory = Device.load(DEVICES[device]).device_memory
    weight = 2 * hidden * intermediate
    assert alone.bytes[memory] - report.bytes[memory] == shared * (grid - readers) * weight
    assert not _differing(case, outputs, arrays).any()
