"""The simulator's matrix unit, driven by a hand-assembled matmul on one core of toy:
the DMA engine copies A (m x k) and B (k x n, f16) into the scratchpad, the load unit
streams them through its FIFO to the PT (in ``chunks`` pieces along k), the PT
multiplies them into an f32 accumulator and sends it to the store unit, which writes it
back for the second DMA engine to copy out.

The values are checked against numpy (float64 products rounded once per ``vmma`` to
f32); the timing against the arch file's figures: steps per ``vmma``, fill and drain
once per accumulation chain (a chained ``vmma`` does not wait for the drain), and the
"matrix issue" term of the bound; the ideal's "matrix compute" term counts the
products' multiply-accumulates, not the steps a partly filled unit issues.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from test_simulator import binary

from ktc.arch.model import Device
from ktc.codegen import isa
from ktc.codegen.binary import DataflowBinary, Unit
from ktc.runtime.device import DeviceError
from ktc.sim import engines, matrix
from ktc.sim.simulator import Simulator

TOY = Path(__file__).parents[3] / "arch" / "toy.mlir"


def matmul_kernel(sim: Simulator, m: int, k: int, n: int, chunks: int = 1,
                  acc_type: str = "f32") -> tuple[DataflowBinary, int, int, int]:
    """The dataflow and the device-memory addresses of A, B and C."""
    a_bytes, b_bytes, c_bytes = m * k * 2, k * n * 2, m * n * 4
    a_at, b_at, c_at = (sim.allocate("DDR", size, 16) for size in (a_bytes, b_bytes, c_bytes))
    units = [Unit("DDR")] + [Unit(kind, 0, 0) for kind in ("L1", "MNILU", "L1LU", "PT", "L1SU", "MNISU")]
    ddr, l1, mnilu, l1lu, pt, l1su, mnisu = range(len(units))
    step = k // chunks
    # A in the scratchpad as chunks of m x step (each contiguous), B as k x n.
    a_view = (chunks, m, step), (step, k, 1)
    dma_in = binary("MNILU", [mnilu], [
        isa.Li(1, ddr), isa.Li(2, a_at), isa.Li(3, l1), isa.Li(4, 0), isa.Li(5, b_at),
        isa.Li(6, a_bytes), isa.Li(7, l1lu),
        isa.View(0, 1, 2, "f16", *a_view), isa.View(1, 3, 4, "f16", (chunks, m, step), (m * step, step, 1)),
        isa.Dma(0, 1),
        isa.View(2, 1, 5, "f16", (k, n), (n, 1)), isa.View(3, 3, 6, "f16", (k, n), (n, 1)),
        isa.Dma(2, 3), isa.Ssend(7, 1),
    ], [])
    loads = []
    for chunk in range(chunks):
        loads += [isa.Li(10, chunk * m * step * 2), isa.Li(11, a_bytes + chunk * step * n * 2),
                  isa.View(0, 1, 10, "f16", (m * step,), (1,)), isa.View(1, 1, 11, "f16", (step * n,), (1,)),
                  isa.Vld(0, 0, m * step, (4,)), isa.Send(0, 2, 2),
                  isa.Vld(1, 1, step * n, (4,)), isa.Send(1, 2, 2)]
    load = binary("L1LU", [l1lu], [
        isa.Li(1, l1), isa.Li(2, pt), isa.Li(3, mnilu), isa.Li(4, 0), isa.Srecv(3, 1), *loads,
    ], [])
    products = []
    for _ in range(chunks):
        products += [isa.Recv(0, 1, 2, "f16", m * step), isa.Recv(1, 1, 2, "f16", step * n),
                     isa.Vmma(acc_type, "f16", 2, 2, 0, 1, m, step, n)]
    compute = binary("PT", [pt], [
        isa.Li(1, l1lu), isa.Li(3, l1su), isa.Vconst(2, acc_type, m * n, (0,)), *products,
        isa.Send(2, 3, 3),
    ], [])
    store = binary("L1SU", [l1su], [
        isa.Li(1, pt), isa.Li(2, l1), isa.Li(3, a_bytes + b_bytes), isa.Li(4, 0), isa.Li(5, mnisu),
        isa.View(0, 2, 3, "f32", (m * n,), (1,)), isa.Recv(0, 1, 3, "f32", m * n), isa.Vst(0, 0, (4,)),
        isa.Ssend(5, 4),
    ], [])
    dma_out = binary("MNISU", [mnisu], [
        isa.Li(1, l1), isa.Li(2, a_bytes + b_bytes), isa.Li(3, ddr), isa.Li(4, c_at), isa.Li(5, l1su),
        isa.View(0, 1, 2, "f32", (m, n), (n, 1)), isa.View(1, 3, 4, "f32", (m, n), (n, 1)),
        isa.Srecv(5, 4), isa.Dma(0, 1),
    ], [])
    return DataflowBinary("matmul", tuple(units), (dma_in, load, compute, store, dma_out)), a_at, b_at, c_at


def run(arch, m: int = 4, k: int = 8, n: int = 8, chunks: int = 1, acc_type: str = "f32", seed: int = 0):
    sim = Simulator(arch)
    dataflow, a_at, b_at, c_at = matmul_kernel(sim, m, k, n, chunks, acc_type)
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    sim.write("DDR", a_at, a.tobytes())
    sim.write("DDR", b_at, b.tobytes())
    sim.execute(sim.load(dataflow))
    c = np.frombuffer(sim.read("DDR", c_at, m * n * 4), np.float32).reshape(m, n)
    return sim, a, b, c


def expected(a: np.ndarray, b: np.ndarray, chunks: int) -> np.ndarray:
    """f32 rounding after each chunk's products, summed in float64."""
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    step = a.shape[1] // chunks
    for chunk in range(chunks):
        part = slice(chunk * step, (chunk + 1) * step)
        acc = (acc.astype(np.float64) + a[:, part].astype(np.float64) @ b[part].astype(np.float64)).astype(np.float32)
    return acc


@pytest.mark.parametrize("m, k, n, chunks", [(4, 8, 8, 1), (4, 8, 8, 2), (3, 6, 5, 3)])
def test_values_and_steps(m, k, n, chunks):
    sim, a, b, c = run("toy", m, k, n, chunks)
    np.testing.assert_array_equal(c, expected(a, b, chunks))
    unit = sim.device.matrix
    report = sim.report()
    steps = chunks * unit.cycles(m, k // chunks, n)
    link, = sim.device.path(sim.device.node("PT"), sim.device.node("L1SU"))
    granule = min(link.granularity)
    send = -(-(-(-m * n * 4 // granule) * granule) // link.bytes_per_cycle)
    assert report.engines["PT"].busy == steps + send, "the PT is busy issuing steps and sending"
    assert report.bound_terms["matrix issue"] == steps
    units = sim.device.roofline.matrix_units
    needed = -(-m * k * n * unit.issue_cycles // (unit.rows * unit.lanes * units))
    assert report.ideal_terms["matrix compute"] == needed
    assert needed <= steps


def with_fill(tmp_path: Path, fill: int) -> Path:
    text = re.sub(r"\bfill = 2\b", f"fill = {fill}", TOY.read_text())
    path = tmp_path / f"toy_fill{fill}.mlir"
    path.write_text(text)
    return path


@pytest.mark.parametrize("chunks", [1, 2, 4])
def test_fill_is_paid_once_per_chain(tmp_path, chunks):
    """Raising the fill by 10 delays the accumulator's departure by 10 cycles, however
    many vmma the chain has: chained products follow each other at the issue rate."""
    fast, slow = (run(with_fill(tmp_path, fill), 4, 8, 8, chunks)[0].report().cycles for fill in (2, 12))
    assert slow - fast == 10


def with_drain(tmp_path: Path, drain: int) -> Path:
    text = re.sub(r"\bdrain = 2\b", f"drain = {drain}", TOY.read_text())
    path = tmp_path / f"toy_drain{drain}.mlir"
    path.write_text(text)
    return path


@pytest.mark.parametrize("chunks", [1, 3])
def test_drain_is_paid_once_per_chain(tmp_path, chunks):
    """The PT's send waits for its accumulator to leave the unit: 7 more cycles of
    drain are 7 more cycles of the run, starved on the PT."""
    fast, slow = (run(with_drain(tmp_path, drain), 3, 6, 5, chunks)[0].report() for drain in (2, 9))
    assert slow.cycles - fast.cycles == 7
    assert slow.engines["PT"].starved - fast.engines["PT"].starved == 7


def test_another_accumulator_type_is_a_fault():
    with pytest.raises(DeviceError, match=r"PT\[0.0\] pc \d+ `vmma.*`: PT accumulates in f32, not f64"):
        run("toy", acc_type="f64")


def test_a_unit_without_the_feature_refuses_vmma():
    device = Device.load("toy")
    assert device.engine("SFU").matrix is None
    assert "matrix" in isa.RUNS_ON[isa.Vmma] and "compute" not in isa.RUNS_ON[isa.Vmma]


def test_wait_kinds_agree():
    assert matrix.STARVED == engines.STARVED


def test_encoding_round_trips():
    instruction = isa.Vmma("f32", "f16", 3, 2, 0, 1, 64, 32, 64)
    assert isa.decode(isa.encode([instruction])) == [instruction]
    with pytest.raises(isa.IsaError, match="empty product"):
        isa.encode([isa.Vmma("f32", "f16", 3, 2, 0, 1, 0, 32, 64)])


def test_a_right_operand_n_by_k_is_multiplied_transposed():
    """``vmma.nk`` reads vB as n x k: its product is A times vB transposed, checked
    against numpy, and the same bits as ``vmma.kn`` of B laid out k x n."""
    rng = np.random.default_rng(3)
    m, k, n = 3, 5, 4
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((n, k)).astype(np.float16)
    acc = rng.standard_normal(m * n).astype(np.float32)
    transposed = isa.Vmma("f32", "f16", 3, 2, 0, 1, m, k, n, "nk")
    plain = isa.Vmma("f32", "f16", 3, 2, 0, 1, m, k, n)
    got = matrix.vmma_value(transposed, [acc, a.reshape(-1), b.reshape(-1)])
    expected = (acc.astype(np.float64) + (a.astype(np.float64) @ b.astype(np.float64).T).reshape(-1))
    np.testing.assert_allclose(got, expected.astype(np.float32), rtol=1e-6)
    assert np.array_equal(got, matrix.vmma_value(plain, [acc, a.reshape(-1), b.T.reshape(-1)]))


def test_only_a_unit_with_transposed_rhs_takes_n_by_k():
    transposed = isa.Vmma("f32", "f16", 3, 2, 0, 1, 8, 32, 64, "nk")
    assert matrix.unfit(transposed, Device.load("spyre").matrix, "PT") is None
    assert "k x n only" in matrix.unfit(transposed, Device.load("toy").matrix, "PT")
    assert isa.decode(isa.encode([transposed])) == [transposed]
