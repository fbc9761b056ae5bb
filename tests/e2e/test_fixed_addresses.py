"""Corpus kernels that take no pointer arguments and read and write device memory at
fixed (constant) element addresses, run as written: inputs are laid at those addresses
in the simulator's device memory and in the reference interpreter's (``preload``), and
after the run the two memory images are compared exactly over every element the
kernels reach, and with a numpy formula (C's first three rows A + B, the rest as it
was; the corpus's slice of that sum stores its first row only). The same kernels rewritten to take their arrays as pointer arguments, and the
runtime-argument form whose A starts at an address given at launch, give the same
results."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES, corpus_kernel  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.errors import KtcError  # noqa: E402
from ktc.runtime.executable import prepare  # noqa: E402
from ktc.sim.reference import Kernel, Placement  # noqa: E402
from ktc.sim.simulator import Simulator  # noqa: E402

FIXED = ["ktir-cpu/rfc/add-with-control-flow.mlir", "ktir-mlir-frontend/add.mlir",
         "ktir-mlir-frontend/add-with-control-flow.mlir"]
"""The corpus's fixed-address adds: A at element 1024, B at 12288, C at 18432, each
96 x 64 f16; one tile adds rows 0 to 2."""
A, B, C, ROWS = 1024, 12288, 18432, 96 * 64
END = 32768
"""Elements of the image compared: past every array the kernels reach."""


def inputs(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((96, 64)).astype(np.float16) for _ in range(3))


def images(text: str, device: str, placements: list[Placement], args=()) -> tuple[np.ndarray, np.ndarray]:
    """The first ``END`` f16 elements of device memory after the kernel ran on the
    simulator and on the reference, from the same placements."""
    package = compile_kernel(text, device)
    simulator = Simulator(device)
    executable = prepare(package, simulator)
    for p in placements:
        simulator.write(package.device_memory, p.address * 2, p.array.tobytes())
    executable.launch(*args)
    simulated = np.frombuffer(simulator.read(package.device_memory, 0, END * 2), np.float16)
    execution = Kernel.from_text(text).execute(list(args), arch=device, preload=placements)
    return simulated, execution.read(0, (END,), np.float16)


def expected_image(a, b, c, a_at: int = A, rows: int = 3) -> np.ndarray:
    image = np.zeros(END, np.float16)
    image[a_at : a_at + ROWS], image[B : B + ROWS] = a.ravel(), b.ravel()
    out = c.copy()
    out[:rows] = a[:rows] + b[:rows]
    image[C : C + ROWS] = out.ravel()
    return image


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", FIXED)
def test_fixed_address_kernels_as_written(device: str, name: str):
    text = corpus_kernel(name).read_text()
    a, b, c = inputs(len(name))
    placements = [Placement(A, a), Placement(B, b), Placement(C, c)]
    simulated, reference = images(text, device, placements)
    np.testing.assert_array_equal(simulated, reference)
    np.testing.assert_array_equal(simulated, expected_image(a, b, c))


SLICE_STORE_SET = "-d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,\n        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>\n    } : memref<96x64xf16> -> !ktdp.access_tile<1x64xindex>"
"""The set of ``tensor-extract-slice.mlir``'s store tile: two rows for a tile typed
<1x64>, which the compiler and the reference refuse (its 128 points do not fill the tile)."""


def test_the_slice_of_a_sum_as_written_is_refused():
    """As written, its store tile's set of two rows does not fit the tile's one-row
    type: refused at the tile (a whole one-row tile would leave the set's second row
    unwritten), as the reference refuses it."""
    text = corpus_kernel("ktir-mlir-frontend/tensor-extract-slice.mlir").read_text()
    with pytest.raises(KtcError, match=r"access_tile_set of 128 points \(2x64\) for a tile "
                                       r"type of 64 \(<1x64>\)"):
        compile_kernel(text, "spyre")


@pytest.mark.parametrize("device", DEVICES)
def test_the_slice_of_a_sum(device: str):
    """``tensor-extract-slice.mlir`` adds rows 0 to 2 of A and B and stores row 0 of
    the sum (``fold-reshapes-and-slices``: the slice is a one-row tile of A and B),
    run with the one-row set its store tile's type holds."""
    text = corpus_kernel("ktir-mlir-frontend/tensor-extract-slice.mlir").read_text()
    assert text.count(SLICE_STORE_SET) == 1
    text = text.replace(SLICE_STORE_SET, SLICE_STORE_SET.replace("-d0 + 1 >= 0", "-d0 >= 0"))
    a, b, c = inputs(7)
    simulated, reference = images(text, device, [Placement(A, a), Placement(B, b), Placement(C, c)])
    np.testing.assert_array_equal(simulated, reference)
    np.testing.assert_array_equal(simulated, expected_image(a, b, c, rows=1))


@pytest.mark.parametrize("device", DEVICES)
def test_the_same_add_with_pointer_arguments(device: str):
    text = corpus_kernel(FIXED[0]).read_text()
    text = text.replace("func.func @add()", "func.func @add(%A: index, %B: index, %C: index)")
    for array in "ABC":
        text = text.replace(f"construct_memory_view %{array}_start_address,",
                            f"construct_memory_view %{array},")
    a, b, c = inputs(7)
    simulated = prepare(compile_kernel(text, device), Simulator(device)).launch(a, b, c)
    reference = Kernel.from_text(text).execute([a, b, c], arch=device).outputs
    expected = c.copy()
    expected[:3] = a[:3] + b[:3]
    for outputs in (simulated, reference):
        np.testing.assert_array_equal(outputs["C"], expected)
        np.testing.assert_array_equal(outputs["A"], a)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("a_at", [0, 1024, 24576])
def test_the_runtime_argument_add_at_a_launch_address(device: str, a_at: int):
    """``add-with-control-flow-runtime-arg``: M = 96 rows (a multiple of its granularity
    32) and A's address are runtime arguments, B and C fixed; one tile adds M / 32 rows."""
    text = corpus_kernel("ktir-mlir-frontend/add-with-control-flow-runtime-arg.mlir").read_text()
    a, b, c = inputs(a_at)
    placements = [Placement(a_at, a), Placement(B, b), Placement(C, c)]
    simulated, reference = images(text, device, placements, args=(96, a_at))
    np.testing.assert_array_equal(simulated, reference)
    np.testing.assert_array_equal(simulated, expected_image(a, b, c, a_at))
