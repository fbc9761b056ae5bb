"""Both matrix units of a core: an output tile of several blocks of accumulators has
its blocks shared out over the core's sub-cores (on spyre two, each with its own
matrix unit, load and store units and FIFOs), reading the k tiles of A and B the DMA
copied once into the scratchpad they share; a tile of fewer blocks than units, or of
a count of blocks the units do not divide, has each block's rows split between them.

- The benchmark's matmul matches numpy within ``test_matmul``'s bound and the
  reference interpreter within the shared rule of ``ktc.sim.check`` on spyre (blocks
  split two ways, an odd count of blocks split unevenly), on toy (one sub-core: one
  unit does every block) and on the third chip (no matrix unit), at sizes that are no
  multiple of the units' rows and lanes.
- On spyre both units of every core are busy: their busy cycles add up to more than
  the run's cycles (so they overlapped), each does at least the steps of its share of
  the blocks (``rows x lanes`` multiply-adds a step, counted here from the sizes), and
  the two shares differ by at most one block's steps; an output tile of one block
  (the small matmul's 32 x 64) keeps both units busy too, each doing at least the
  steps of half its rows and fewer than those of all of them. The same overlap check fails on toy, whose one unit cannot
  overlap with itself.
"""

from __future__ import annotations

import math

import pytest
from test_matmul import DEVICES, MATRIX_UNIT
from test_matmul_cores import check_against_both

from ktc.benchmarks.kernels import matmul
from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim.report import Report
from ktc.sim.simulator import Simulator

CASES = [
    ("spyre", (64, 256, 128, 1, 1, 64)),
    ("spyre", (40, 192, 120, 1, 1, 40)),
    ("spyre", (72, 130, 96, 2, 1, 48)),
    ("spyre", (64, 64, 96, 2, 1, 32)),
    ("spyre", (48, 192, 64, 1, 1, 64)),
    ("toy", (12, 40, 36, 1, 1, 12)),
    ("line4", (24, 20, 36, 2, 1, 12)),
]
"""Device, then m, n, k, grid_m, grid_n, block_k of ``matmul``: spyre blocks of 4
and 3 blocks of 64 columns, 130 columns (two blocks of 65), one block of 64 (its rows
split between the units) and three of 64 over 48 rows (each block's rows split: six
pieces, three a unit); toy's one sub-core; line4's SIMD engine."""

ROWS, LANES = 8, 64
"""spyre's matrix unit, as its arch file gives it (8 rows x 64 fp16 lanes)."""


def report_of(sizes: tuple[int, ...], device: str) -> Report:
    case = matmul(*sizes)
    simulator = Simulator(DEVICES[device])
    executable = prepare(compile_kernel(case.text, DEVICES[device], "matmul.mlir"), simulator)
    executable.launch(*case.inputs(seed=11).values())
    return executable.report()


def unit_busy(report: Report, core: int) -> list[int]:
    """Busy cycles of each matrix unit of ``core``, in sub-core order."""
    return [figures.busy for name, figures in sorted(report.instances.items())
            if name.startswith(f"PT[{core}.")]


def overlapped(report: Report, core: int) -> bool:
    """Whether the units of ``core`` were busy for more cycles than the run took."""
    return sum(unit_busy(report, core)) > report.cycles


@pytest.mark.parametrize("device, sizes", CASES)
def test_blocks_shared_over_the_units_match_numpy(device, sizes):
    case = matmul(*sizes)
    check_against_both(case.text, device, case.inputs(seed=5), device in MATRIX_UNIT, name="matmul")


def test_both_units_of_a_core_multiply_their_share_of_the_blocks():
    m, n, k = 64, 256, 1024
    report = report_of((m, n, k, 1, 1, 128), "spyre")
    busy = unit_busy(report, 0)
    assert len(busy) == 2 and overlapped(report, 0)
    blocks = math.ceil(n / LANES)
    block_steps = math.ceil(m / ROWS) * k
    shares = [math.ceil(blocks / 2), blocks // 2]
    assert all(b >= share * block_steps for b, share in zip(busy, shares)), busy
    assert abs(busy[0] - busy[1]) <= block_steps, busy


def test_one_unit_does_not_overlap_with_itself():
    report = report_of((12, 40, 36, 1, 1, 12), "toy")
    assert len(unit_busy(report, 0)) == 1
    assert not overlapped(report, 0)


def test_both_units_multiply_half_the_rows_of_a_one_block_tile():
    m, n, k = 32, 64, 512
    report = report_of((m, n, k, 1, 1, 128), "spyre")
    busy = unit_busy(report, 0)
    half_steps = math.ceil(m / 2 / ROWS) * k
    assert len(busy) == 2 and all(b >= half_steps for b in busy), busy
    assert all(b < 2 * half_steps for b in busy), busy
