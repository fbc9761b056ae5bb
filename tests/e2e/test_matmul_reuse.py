"""Operand reuse in the matrix unit's schedule, on the benchmark's matmul: a grid of
output blocks, each accumulating its product over the kernel's loop over k. When a
block spans several of the unit's output tiles (its accumulators hold one), the tiles
that share B's columns (or A's rows) keep that panel in the scratchpad, copied from
device memory once.

- The products match numpy's within ``test_matmul``'s bound and the reference
  interpreter's within the shared rule of ``ktc.sim.check`` (its tolerance grows with
  the kernel's reduction length: the loop's trips times its k step), on spyre and toy
  (matrix units) and on the third chip (no matrix unit: the SIMD engine), at sizes
  that are no multiple of the units' rows and lanes.
- On the matrix units, each tile reading its own operands (``share-over-ring`` left
  out: sharing between tiles is ``test_ring_sharing``'s), the bytes the run moved
  through device memory (the report's figure for it, read plus written) are at most
  what each block needs once: its rows
  of A and columns of B over all of k, and its block of C. The same kernel with the
  loop's bound a launch argument (its trips unknown to the compiler, so no panel can be
  sized) copies operands again for every output tile and exceeds that bound: the
  bound fails when no operand is reused.
"""

from __future__ import annotations

import pytest
from test_matmul import DEVICES, MATRIX_UNIT, assert_product, run
from test_matmul_cores import check_against_both

from ktc.benchmarks.kernels import matmul
from ktc.driver import Schedule
from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim.simulator import Simulator

CASES = [
    ("spyre", (512, 128, 256, 1, 1, 64)),
    ("spyre", (200, 96, 120, 1, 1, 40)),
    ("spyre", (400, 192, 120, 2, 2, 40)),
    ("toy", (24, 20, 36, 1, 1, 12)),
    ("toy", (48, 20, 36, 2, 1, 12)),
    ("toy", (12, 40, 36, 1, 1, 12)),
    ("line4", (24, 20, 36, 2, 1, 12)),
]
"""Device, then m, n, k, grid_m, grid_n, block_k of ``matmul``: blocks of several
output tiles, sharing B's columns (spyre 512 x 128, toy 24 x 20) or A's rows (spyre
200 x 96, toy 12 x 40); sizes off the units' shapes."""


def needed_bytes(m: int, n: int, k: int, grid_m: int, grid_n: int) -> int:
    """Bytes of f16 through device memory when every block reads its rows of A and
    columns of B once and writes its block of C once."""
    blocks = grid_m * grid_n
    rows, columns = m // grid_m, n // grid_n
    return 2 * blocks * (rows * k + k * columns + rows * columns)


def unknown_trips(text: str, k: int) -> str:
    """The kernel with its loop's bound a launch argument ``%depth`` instead of the
    constant ``k``."""
    constant = f"    %depth = arith.constant {k} : index\n"
    assert constant in text
    return text.replace(constant, "").replace(
        "(%a: index, %b: index, %c: index)", "(%a: index, %b: index, %c: index, %depth: index)")


def _moved(text: str, device: str, arrays: dict, scalars: dict | None = None) -> int:
    """Bytes read plus written through device memory by one run, each tile reading its
    own operands (no copy shared over the interconnect: ``test_ring_sharing``)."""
    simulator = Simulator(DEVICES[device])
    package = compile_kernel(text, DEVICES[device], "matmul.mlir",
                             schedule=Schedule(skip=("share-over-ring",)))
    executable = prepare(package, simulator)
    executable.launch(*arrays.values(), *(scalars or {}).values())
    return executable.report().bytes[simulator.device.device_memory]


@pytest.mark.parametrize("device, sizes", CASES)
def test_blocks_of_several_output_tiles_match_numpy(device, sizes):
    case = matmul(*sizes)
    check_against_both(case.text, device, case.inputs(seed=7), device in MATRIX_UNIT, name="matmul")


@pytest.mark.parametrize("device, sizes", [(d, s) for d, s in CASES if d in MATRIX_UNIT])
def test_each_block_reads_its_operands_once(device, sizes):
    m, n, k, grid_m, grid_n, _ = sizes
    case = matmul(*sizes)
    arrays = case.inputs(seed=7)
    bound = needed_bytes(m, n, k, grid_m, grid_n)
    assert _moved(case.text, device, arrays) <= bound
    assert _moved(unknown_trips(case.text, k), device, arrays, {"depth": k}) > bound


def test_unknown_trips_still_match_numpy():
    """The kernel whose loop bound is a launch argument streams both operands and
    still matches."""
    case = matmul(48, 20, 36, 2, 1, 12)
    arrays = case.inputs(seed=3)
    out = run(unknown_trips(case.text, 36), "toy", dict(arrays), {"depth": 36})
    assert_product(out["c"], arrays["a"], arrays["b"], True)
