"""The corpus's paged copies compiled and simulated: a gather of 128 pages of a paged
KV cache into a contiguous tensor (``paged-tensor-copy.mlir``, in the RFC's and the
frontend's spelling) and the scatter back (``paged-tensor-write.mlir``). Their
access tiles are 16 MiB, larger than any scratchpad, and they are copies, so
``indirect-access-lowering`` moves them one page run at a time through the
scratchpad. The kernels take no arguments and read and write device memory at fixed
addresses: inputs are laid there before the launch, the outputs read after it and
compared bit for bit with numpy formulas written here and with the reference
interpreter (given a scratchpad the tile fits in); ``ktc run --check`` passes on them.
Toy's 1 MiB of device memory does not hold the kernels' addresses: a located capacity
diagnostic."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import LINE4, corpus_kernel  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.errors import KtcError  # noqa: E402
from ktc.runtime.executable import prepare  # noqa: E402
from ktc.sim.reference import Kernel, Placement  # noqa: E402
from ktc.sim.simulator import Simulator  # noqa: E402
from ktc.tools.ktc import main  # noqa: E402

COPIES = ["ktir-cpu/rfc/paged-tensor-copy.mlir", "ktir-mlir-frontend/paged-tensor-copy.mlir"]
WRITE = "ktir-cpu/rfc/paged-tensor-write.mlir"
FITTING = [pytest.param("spyre", id="spyre"), pytest.param(str(LINE4), id="line4")]
PAGE = 8 * 64 * 128
"""Elements of one page of the cache [10000, 8, 64, 128]."""
BIG_SCRATCHPAD = 64 << 20
"""The reference interpreter holds the whole 16 MiB tile in a scratchpad this large."""


def _pages(avoid: int) -> tuple[np.ndarray, np.ndarray]:
    """128 distinct pages, none ``avoid`` (the page the page table's bytes lie in), and
    the page table [4, 32] naming them."""
    rng = np.random.default_rng(7)
    pages = rng.choice(np.setdiff1d(np.arange(10000), [avoid]), 128, replace=False)
    return pages, pages.astype(np.int32).reshape(4, 32)


def _simulate(text: str, device: str, placements: list[Placement],
              reads: list[tuple[int, tuple, type]]) -> list[np.ndarray]:
    """The arrays at ``reads`` (element address of f16 data, shape, dtype) after the
    compiled kernel ran on the simulator from ``placements``."""
    package = compile_kernel(text, device)
    simulator = Simulator(device)
    executable = prepare(package, simulator)
    for p in placements:
        simulator.write(package.device_memory, p.address * p.array.itemsize, p.array.tobytes())
    executable.launch()
    return [np.frombuffer(simulator.read(package.device_memory, at * np.dtype(dtype).itemsize,
                                         int(np.prod(shape)) * np.dtype(dtype).itemsize),
                          dtype).reshape(shape) for at, shape, dtype in reads]


def _copy_inputs() -> tuple[np.ndarray, np.ndarray, list[Placement]]:
    """X's used pages at element 30e6 and the page table at i32 element 20e6 (byte
    80e6, inside page 152 of X, which is not used)."""
    pages, table = _pages(152)
    data = np.random.default_rng(8).standard_normal((128, 8, 64, 128)).astype(np.float16)
    placements = [Placement(30_000_000 + int(p) * PAGE, data[i]) for i, p in enumerate(pages)]
    return data, table, [*placements, Placement(20_000_000, table)]


def _gathered(data: np.ndarray, table: np.ndarray, pages: np.ndarray) -> np.ndarray:
    """Y[b, t, h, d] = X[Idx[b, t // 64], h, t % 64, d]."""
    slot = {int(p): i for i, p in enumerate(pages)}
    tokens = np.arange(2048)
    rows = [data[[slot[int(p)] for p in table[b, tokens // 64]], :, tokens % 64, :] for b in range(4)]
    return np.stack(rows)


@pytest.mark.parametrize("device", FITTING)
@pytest.mark.parametrize("name", COPIES)
def test_paged_copy_matches_numpy_and_the_reference(name: str, device: str):
    text = corpus_kernel(name).read_text()
    data, table, placements = _copy_inputs()
    y_shape = (4, 2048, 8, 128)
    (simulated,) = _simulate(text, device, placements, [(10_000_000, y_shape, np.float16)])
    np.testing.assert_array_equal(simulated, _gathered(data, table, table.ravel()))
    reference = Kernel.from_text(text).execute([], preload=placements, scratchpad_bytes=BIG_SCRATCHPAD)
    np.testing.assert_array_equal(simulated, reference.read(10_000_000, y_shape, np.float16))


@pytest.mark.parametrize("device", FITTING)
def test_paged_write_matches_numpy_and_the_reference(device: str):
    """Y[Idx[b, t // 64], h, t % 64, d] = X[b, t, h, d]: X at element 10e6, the page
    table at i32 element 30e6 (inside page 305 of Y at 40e6, not used)."""
    text = corpus_kernel(WRITE).read_text()
    pages, table = _pages(305)
    x = np.random.default_rng(9).standard_normal((4, 2048, 8, 128)).astype(np.float16)
    placements = [Placement(10_000_000, x), Placement(30_000_000, table)]
    reads = [(40_000_000 + int(table[b, j]) * PAGE, (8, 64, 128), np.float16)
             for b in range(4) for j in range(32)]
    simulated = _simulate(text, device, placements, reads)
    reference = Kernel.from_text(text).execute([], preload=placements, scratchpad_bytes=BIG_SCRATCHPAD)
    for (at, shape, dtype), page, k in zip(reads, simulated, range(len(reads))):
        b, j = divmod(k, 32)
        np.testing.assert_array_equal(page, x[b, 64 * j : 64 * (j + 1)].transpose(1, 0, 2))
        np.testing.assert_array_equal(page, reference.read(at, shape, dtype))


def test_paged_copy_check_sees_a_perturbed_answer():
    """The copy check compares bits: one element off fails it."""
    data, table, _ = _copy_inputs()
    expected = _gathered(data, table, table.ravel())
    perturbed = expected.copy()
    perturbed[3, 2000, 7, 127] = np.nextafter(perturbed[3, 2000, 7, 127], np.float16(np.inf))
    with pytest.raises(AssertionError):
        np.testing.assert_array_equal(perturbed, expected)


@pytest.mark.parametrize("name", [COPIES[0], WRITE])
def test_ktc_run_check_passes_on_spyre(name: str, capsys):
    """``ktc run --check`` on spyre: the reference refuses the 16 MiB tile on the 2 MiB
    scratchpad, the check says so and runs it with one as large as device memory, and
    the device memory images over every element the views reach (the 1.3 GB paged
    cache included, read a chunk at a time) match bit for bit. The write's cache is
    only written, so nothing is laid there and the run stays small (343 MB peak); the
    copy's cache is read, so its 1.3 GB are drawn and held by the host, the simulator
    and the reference (4.1 GB peak): one of the two spellings of the copy runs here,
    the other is the same kernel."""
    assert main(["run", str(corpus_kernel(name)), "--arch", "spyre", "--check"]) == 0
    out = capsys.readouterr().out
    assert ("the reference interpreter refuses the kernel on the device's scratchpad ("
            in out and "ktdp.load materializes a tensor of 16777216 bytes" in out)
    assert "check passed: 3 regions of device memory at fixed addresses" in out
    assert "worst error 0" in out


@pytest.mark.parametrize("name", [*COPIES, WRITE])
def test_paged_kernels_on_toy_name_its_device_memory(name: str):
    """Toy's device memory (1 MiB) does not reach the kernels' fixed addresses: the
    view that reaches furthest first is named, with the bytes and the capacity."""
    path = corpus_kernel(name)
    with pytest.raises(KtcError, match=r"\.mlir:\d+:\d+: error: 'ktdp.construct_memory_view' "
                                       r"reaches byte \d+ of device memory at its fixed address, "
                                       r"beyond the 1048576 bytes of DDR on device @toy"):
        compile_kernel(path.read_text(), "toy", str(path))
