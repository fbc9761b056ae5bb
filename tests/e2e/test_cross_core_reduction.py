"""Reductions split over cores (issue 6, "reductions across cores combine partials over
the ring").

What the reference interpreter means by the two ways to write such a kernel, and what
ktc does with them:

- split_row_sum (each tile stores its partial to the same results) is a race: the
  reference keeps the last tile's partial, not the sum, so combining the partials would
  change the kernel. reduction-dim-chunking refuses it with a diagnostic at the reduction.
- split_row_sum_reduce (ktdp.inter_tile_reduce combines the partials, one consumer per
  group stores them) means the full row sums. ktc compiles it: each producer's ring stop
  copies its partial into the consumer core's receive buffer, the consumer folds the
  buffer in ascending tile id; on toy the grid's 4 communicating tiles do not fit its
  2 cores at once, which is refused. split_row_sum_reduce4 has four producers per group.
- split_row_sum_allreduce makes every tile of a group a consumer (an all-reduce): each
  producer copies its partial to every other tile of its group, and each tile stores
  the total it folded to its own copy of the results. split_row_sum_loop does the same
  inside an scf.for, reusing the receive buffer every iteration.

The simulator side of a copy over the ring is tested in tests/unit/sim/test_simulator.py.
"""

import numpy as np
import pytest

from conftest import LINE4, ROOT
from test_simulate import simulate
from ktc.dialects.diagnostics import KtcError
from ktc.driver import compile as compile_kernel
from ktc.sim.reference import Kernel

RACING = ROOT / "tests" / "lit" / "passes" / "reduction-dim-chunking" / "Inputs" / "split_row_sum.mlir"
REDUCING = ROOT / "tests" / "e2e" / "inputs" / "split_row_sum_reduce.mlir"
REDUCING4 = ROOT / "tests" / "e2e" / "inputs" / "split_row_sum_reduce4.mlir"
ALL_REDUCING = ROOT / "tests" / "e2e" / "inputs" / "split_row_sum_allreduce.mlir"
ALL_REDUCING_IN_LOOP = ROOT / "tests" / "e2e" / "inputs" / "split_row_sum_loop.mlir"
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


def test_inter_tile_reduce_on_toy_is_refused_as_the_tiles_do_not_fit_at_once():
    with pytest.raises(KtcError, match=r"grid \[2, 2\] has 4 tiles that communicate, but "
                                       r"device @toy has 2 cores"):
        compile_kernel(REDUCING.read_text(), "toy", NAME)


@pytest.mark.parametrize(("path", "device"), [
    (REDUCING, "spyre"),
    (REDUCING, str(LINE4)),
    (REDUCING4, "spyre"),
], ids=["2-spyre", "2-line4", "4-spyre"])
def test_inter_tile_reduce_combines_the_partials_over_the_ring(path, device):
    x = np.random.default_rng(0).standard_normal((4, 256)).astype(np.float32)
    actual, expected, report = simulate(
        path.read_text(), NAME, device, {"x": x, "y": np.zeros(4, np.float32)}, {})
    np.testing.assert_allclose(actual["y"], expected["y"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(actual["y"], x.sum(axis=1), rtol=1e-5, atol=1e-5)
    producers = 4 if path is REDUCING4 else 2
    own_partial = x[:, : 256 // producers].sum(axis=1)
    assert not np.allclose(actual["y"], own_partial, rtol=1e-2)
    assert report.bound_terms["interconnect"] > 0


@pytest.mark.parametrize(("path", "device"), [
    (ALL_REDUCING, "spyre"),
    (ALL_REDUCING, str(LINE4)),
    (ALL_REDUCING_IN_LOOP, "spyre"),
    (ALL_REDUCING_IN_LOOP, "toy"),
    (ALL_REDUCING_IN_LOOP, str(LINE4)),
], ids=["spyre", "line4", "loop-spyre", "loop-toy", "loop-line4"])
def test_all_reduce_gives_every_tile_the_total(path, device):
    x = np.random.default_rng(0).standard_normal((4, 256)).astype(np.float32)
    actual, expected, report = simulate(
        path.read_text(), NAME, device, {"x": x, "y": np.zeros(8, np.float32)}, {})
    copies = actual["y"].reshape(2, 4)
    np.testing.assert_allclose(actual["y"], expected["y"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(copies, np.stack([x.sum(axis=1)] * 2), rtol=1e-5, atol=1e-5)
    # Both tiles of a group fold the same partials in the same order: the same bits.
    assert copies[0].tobytes() == copies[1].tobytes()
    assert report.bound_terms["interconnect"] > 0
