"""Reductions split over cores: where the compiler stands (issue 6, "reductions across
cores combine partials over the ring").

What the reference interpreter means by the two ways to write such a kernel, and what
ktc does with them today on spyre and toy:

- split_row_sum (each tile stores its partial to the same results) is a race: the
  reference keeps the last tile's partial, not the sum, so combining the partials would
  change the kernel. reduction-dim-chunking refuses it with a diagnostic at the reduction.
- split_row_sum_reduce (ktdp.inter_tile_reduce combines the partials, one consumer per
  group stores them) means the full row sums. ktc refuses it: ktir-legality-check on
  spyre; on toy the grid's 4 communicating tiles do not fit its 2 cores at once.

The simulator side of a combine over the ring (a copy from one core's scratchpad to
another's through the ring stop) is tested in tests/unit/sim/test_simulator.py.
"""

import numpy as np
import pytest

from conftest import ROOT
from ktc.dialects.diagnostics import KtcError
from ktc.driver import compile as compile_kernel
from ktc.sim.reference import Kernel

RACING = ROOT / "tests" / "lit" / "passes" / "reduction-dim-chunking" / "Inputs" / "split_row_sum.mlir"
REDUCING = ROOT / "tests" / "e2e" / "inputs" / "split_row_sum_reduce.mlir"
NAME = "split_row_sum"


def _reference(path) -> tuple[np.ndarray, np.ndarray]:
    """y of the kernel at ``path`` on the reference interpreter, and x."""
    x = np.random.default_rng(0).standard_normal((4, 256)).astype(np.float32)
    kernel = Kernel.from_text(path.read_text(), NAME)
    return kernel.execute({"x": x.copy(), "y": np.zeros(4, np.float32)}).outputs["y"], x


def test_partials_stored_to_the_same_results_race_and_the_last_tile_wins():
    y, x = _reference(RACING)
    np.testing.assert_allclose(y, x[:, 128:].sum(axis=1), rtol=1e-5)
    assert not np.allclose(y, x.sum(axis=1), rtol=1e-2)


def test_inter_tile_reduce_means_the_sum_of_the_partials():
    y, x = _reference(REDUCING)
    np.testing.assert_allclose(y, x.sum(axis=1), rtol=1e-5)


@pytest.mark.parametrize("device", ["spyre", "toy"])
def test_racing_partials_are_refused_at_the_reduction(device):
    with pytest.raises(KtcError, match=r"split_row_sum:35:\d+: error: tiles \[0, 0\] and \[0, 1\] .*"
                       r"their stores race .* ktdp.inter_tile_reduce, which is not scheduled yet"):
        compile_kernel(RACING.read_text(), device, NAME)


@pytest.mark.parametrize(("device", "reason"), [
    ("spyre", r"'ktdp.inter_tile_produce' is not supported yet: the pipeline schedules tiles "
              r"that do not communicate"),
    ("toy", r"grid \[2, 2\] has 4 tiles that communicate, but device @toy has 2 cores"),
])
def test_inter_tile_reduce_is_refused_with_a_diagnostic(device, reason):
    with pytest.raises(KtcError, match=reason):
        compile_kernel(REDUCING.read_text(), device, NAME)
