"""Operands shared over the interconnect (``share-over-ring``), on the benchmark's
matmul: a grid of output blocks whose tiles of one grid row read the same rows of A and
those of one grid column the same columns of B. One tile of each group copies a block
from device memory, in turn, and forwards it to the others' scratchpads.

- The products match numpy's within ``test_matmul``'s bound and the reference
  interpreter's within the shared rule, on spyre (A and B shared by two tiles each),
  toy (B shared by its two cores) and the third chip (no matrix unit: its SIMD
  engine's contraction has no copies to share; it still matches).
- On the matrix units, the bytes the run moved through device memory (the report's
  figure, read plus written) are the arrays' once: every block of A and B read once
  for the chip, C written once. The same kernel compiled without the pass reads each
  shared block once per tile and exceeds that figure: the check fails when nothing is
  shared.
"""

from __future__ import annotations

import pytest
from test_matmul import DEVICES, MATRIX_UNIT
from test_matmul_cores import check_against_both

from ktc.benchmarks.kernels import matmul
from ktc.driver import Schedule
from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim.simulator import Simulator

CASES = [
    ("spyre", (400, 192, 120, 2, 2, 40)),
    ("toy", (48, 20, 36, 2, 1, 12)),
    ("line4", (24, 20, 36, 2, 1, 12)),
]
"""Device, then m, n, k, grid_m, grid_n, block_k of ``matmul``: on spyre a 2 x 2 grid
(each row of tiles shares A's rows, each column B's columns), on toy and the third chip
two tiles sharing B's columns; sizes off the units' shapes."""

WITHOUT_SHARING = Schedule(skip=("share-over-ring",))


def arrays_once(m: int, n: int, k: int) -> int:
    """Bytes of f16 through device memory when A and B are read once and C written once."""
    return 2 * (m * k + k * n + m * n)


def _moved(text: str, device: str, arrays: dict, schedule: Schedule | None = None) -> int:
    """Bytes read plus written through device memory by one run."""
    simulator = Simulator(DEVICES[device])
    package = compile_kernel(text, DEVICES[device], "matmul.mlir", schedule=schedule)
    executable = prepare(package, simulator)
    executable.launch(*arrays.values())
    return executable.report().bytes[simulator.device.device_memory]


@pytest.mark.parametrize("device, sizes", CASES)
def test_shared_operands_match_numpy(device, sizes):
    case = matmul(*sizes)
    check_against_both(case.text, device, case.inputs(seed=11), device in MATRIX_UNIT, name="matmul")


@pytest.mark.parametrize("device, sizes", [(d, s) for d, s in CASES if d in MATRIX_UNIT])
def test_each_array_crosses_device_memory_once(device, sizes):
    m, n, k = sizes[:3]
    case = matmul(*sizes)
    arrays = case.inputs(seed=11)
    assert _moved(case.text, device, arrays) == arrays_once(m, n, k)
    assert _moved(case.text, device, arrays, WITHOUT_SHARING) > arrays_once(m, n, k)
