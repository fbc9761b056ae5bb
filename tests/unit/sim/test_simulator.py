"""The cycle-level simulator driven by hand-assembled programs.

The kernel used throughout is ``y = exp(x)`` on rows of vectors, one core per tile:
a DMA engine copies the tile into the scratchpad and signals the load unit, which
streams rows through the FIFO to the SIMD engine, which streams results to the store
unit, which writes them back and signals the second DMA engine, which copies them
out. Timing figures are read from the arch files, never restated as constants.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from ktc.arch.model import Device
from ktc.codegen import isa
from ktc.codegen.binary import DataflowBinary, EngineBinary, Unit
from ktc.runtime.device import DeviceError
from ktc.sim import numerics
from ktc.sim.machine import Machine, PastBudget
from ktc.sim import simulator
from ktc.sim.simulator import Simulator, ranges

LINE4 = Path(__file__).parents[2] / "lit" / "arch" / "Inputs" / "line4.mlir"


@pytest.fixture(autouse=True, params=simulator.TIMINGS)
def timing(request, monkeypatch):
    """Every test runs on the compiled core and on the Python engines: both give the
    same figures, values and errors."""
    monkeypatch.setattr(simulator, "default_timing", lambda: request.param)
    return request.param

# ---------------------------------------------------------------------------------
# A tiny assembler: a loop is ("loop", var, lower, upper, step, [body]).
# ---------------------------------------------------------------------------------


def assemble(parts: list, start: int = 0) -> list[isa.Instruction]:
    out: list[isa.Instruction] = []
    for part in parts:
        if isinstance(part, isa.Instruction):
            out.append(part)
            continue
        _, var, lower, upper, step, body = part
        at = start + len(out)
        inner = assemble(body, at + 1)
        end = at + 1 + len(inner)
        out += [isa.Loop(var, lower, upper, step, end + 1), *inner,
                isa.EndLoop(var, upper, step, at + 1)]
    return out


def binary(kind: str, instances: list[int], parts: list, uniforms: list[list[int]]) -> EngineBinary:
    code = isa.encode(assemble(parts))
    return EngineBinary(kind, tuple(instances), code, (), tuple(tuple(u) for u in uniforms))


def counted(var: int, count_reg: int, body: list) -> list:
    """``for s{var} in range(s{count_reg})`` with s60 = 0 and s61 = 1."""
    return [isa.Li(60, 0), isa.Li(61, 1), ("loop", var, 60, count_reg, 61, body)]


# ---------------------------------------------------------------------------------
# The exp kernel
# ---------------------------------------------------------------------------------


def exp_kernel(sim: Simulator, cores: list[int], rows: int, width: int, op: str = "exp",
               fifo_id_shift: int = 0) -> tuple[DataflowBinary, list[int], list[int]]:
    """The dataflow, and per core the device-memory address of its x tile and y tile."""
    tile = rows * width * 2
    xs = [sim.allocate("DDR", tile, 128) for _ in cores]
    ys = [sim.allocate("DDR", tile, 128) for _ in cores]
    units = [Unit("DDR")]
    index = {}
    for core in cores:
        for kind, sub in (("L1", 0), ("MNILU", 0), ("L1LU", 0), ("SFU", 0), ("L1SU", 0), ("MNISU", 0)):
            index[kind, core] = len(units)
            units.append(Unit(kind, core, sub))

    def per_core(*kinds):
        return [[index[k, c] for c in cores] if isinstance(k, str) else [k[c] for c in range(len(cores))]
                for k in kinds]

    shape, strides = (rows, width), (width, 1)
    dma_in = binary("MNILU", [index["MNILU", c] for c in cores], [
        isa.Li(1, 0), isa.Uni(2, 0), isa.Uni(3, 1), isa.Li(4, 0), isa.Uni(5, 2),
        isa.View(0, 1, 2, "f16", shape, strides), isa.View(1, 3, 4, "f16", shape, strides),
        isa.Dma(0, 1), isa.Ssend(5, 1), isa.Halt(),
    ], [xs, *per_core("L1", "L1LU")])
    load = binary("L1LU", [index["L1LU", c] for c in cores], [
        isa.Uni(1, 0), isa.Li(2, 0), isa.Uni(3, 1), isa.Uni(4, 2), isa.Li(11, rows),
        isa.View(0, 1, 2, "f16", shape, strides), isa.Srecv(4, 1),
        *counted(10, 11, [isa.Vld(0, 0, width, (10, 60)), isa.Send(0, 3, 2 + fifo_id_shift)]),
    ], per_core("L1", "SFU", "MNILU"))
    compute = binary("SFU", [index["SFU", c] for c in cores], [
        isa.Uni(1, 0), isa.Uni(2, 1), isa.Li(11, rows),
        *counted(10, 11, [isa.Recv(0, 1, 2, "f16", width), isa.Vop(op, "f16", "f16", 1, (0,)),
                          isa.Send(1, 2, 3)]),
    ], per_core("L1LU", "L1SU"))
    store = binary("L1SU", [index["L1SU", c] for c in cores], [
        isa.Uni(1, 0), isa.Uni(2, 1), isa.Li(3, tile), isa.Uni(4, 2), isa.Li(11, rows),
        isa.View(0, 2, 3, "f16", shape, strides),
        *counted(10, 11, [isa.Recv(0, 1, 3, "f16", width), isa.Vst(0, 0, (10, 60))]),
        isa.Ssend(4, 4),
    ], per_core("SFU", "L1", "MNISU"))
    dma_out = binary("MNISU", [index["MNISU", c] for c in cores], [
        isa.Uni(1, 0), isa.Li(2, tile), isa.Li(3, 0), isa.Uni(4, 1), isa.Uni(5, 2),
        isa.View(0, 1, 2, "f16", shape, strides), isa.View(1, 3, 4, "f16", shape, strides),
        isa.Srecv(5, 4), isa.Dma(0, 1),
    ], [*per_core("L1"), ys, *per_core("L1SU")])
    return DataflowBinary("exp", tuple(units), (dma_in, load, compute, store, dma_out)), xs, ys


def run_exp(arch: str = "toy", cores: int = 1, rows: int = 4, trace=None, seed: int = 0):
    sim = Simulator(arch, trace=trace)
    width = sim.device.lanes(isa.ELEMENT_TYPES["f16"])
    dataflow, xs, ys = exp_kernel(sim, list(range(cores)), rows, width)
    rng = np.random.default_rng(seed)
    inputs = [rng.standard_normal((rows, width)).astype(np.float16) for _ in range(cores)]
    for address, x in zip(xs, inputs):
        sim.write("DDR", address, x.tobytes())
    sim.execute(sim.load(dataflow))
    outputs = [np.frombuffer(sim.read("DDR", y, x.nbytes), np.float16).reshape(x.shape)
               for y, x in zip(ys, inputs)]
    return sim, inputs, outputs


# ---------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ["toy", "spyre"])
def test_exp_values_match_numerics_bit_for_bit(arch):
    sim, inputs, outputs = run_exp(arch, cores=2, rows=6)
    for x, y in zip(inputs, outputs):
        assert np.array_equal(y.view(np.uint16), numerics.exp("f16", x).view(np.uint16))
    report = sim.report()
    assert report.bound_cycles <= report.cycles
    assert 0 < report.efficiency <= 1


def test_an_instruction_outside_the_compiled_table_runs_on_the_python_engines(timing, monkeypatch):
    """The compiled core hands a program with an instruction it has no encoder for (as a
    new engine kind's would be) to the Python engines, with the same figures and values."""
    from ktc.sim import compiled

    sim, inputs, outputs = run_exp("toy", cores=2, rows=6)
    assert sim.ran_on == timing
    monkeypatch.delitem(compiled.ENCODERS, isa.Vop)
    again, inputs_again, outputs_again = run_exp("toy", cores=2, rows=6)
    assert again.ran_on == "python"
    assert again.report().to_json() | {"wall_s": 0, "cycles_per_wall_s": 0} == (
        sim.report().to_json() | {"wall_s": 0, "cycles_per_wall_s": 0})
    assert all(np.array_equal(a, b) for a, b in zip(outputs, outputs_again))


def test_runs_are_deterministic():
    first, _, _ = run_exp(cores=2, rows=5)
    second, _, _ = run_exp(cores=2, rows=5)
    assert first.report().to_json() | {"wall_s": 0, "cycles_per_wall_s": 0} == \
        second.report().to_json() | {"wall_s": 0, "cycles_per_wall_s": 0}


# ---------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------


def test_events_of_one_cycle_run_in_the_order_they_were_scheduled():
    """Ties in time decide who is served first at a shared resource; they run in the
    order they were scheduled: an event scheduled later for the same cycle runs later."""
    machine = Machine(Device.load("toy"))
    ran = []

    def event(name, then=None):
        def callback():
            ran.append((machine.now, name))
            if then is not None:
                machine.at(5, then)
        return callback

    machine.at(5, event("a"))
    machine.at(3, event("b", then=event("d")))
    machine.at(5, event("c"))
    machine.run()
    assert ran == [(3, "b"), (5, "a"), (5, "c"), (5, "d")]
    assert machine.last_event == 5


def single_dma(arch: str, nbytes: int, cores: int = 1):
    """Each core copies ``nbytes`` from device memory into its scratchpad."""
    sim = Simulator(arch)
    sources = [sim.allocate("DDR", nbytes, 128) for _ in range(cores)]
    units = [Unit("DDR")] + [Unit(k, c) for c in range(cores) for k in ("L1", "MNILU")]
    program = binary("MNILU", [2 + 2 * c for c in range(cores)], [
        isa.Li(1, 0), isa.Uni(2, 0), isa.Uni(3, 1), isa.Li(4, 0),
        isa.View(0, 1, 2, "i8", (nbytes,), (1,)), isa.View(1, 3, 4, "i8", (nbytes,), (1,)),
        isa.Dma(0, 1), isa.Halt(),
    ], [sources, [1 + 2 * c for c in range(cores)]])
    sim.execute(sim.load(DataflowBinary("copy", tuple(units), (program,))))
    return sim


def test_dma_time_is_latency_plus_bytes_over_the_slowest_link():
    device = Device.load("toy")
    route = device.path(device.node("DDR"), device.node("MNILU")) + device.path(
        device.node("MNILU"), device.node("L1"))
    latency = sum(link.latency for link in route)
    slowest = min([link.bytes_per_cycle for link in route]
                  + [device.memory("DDR").port_bandwidth])
    nbytes = 1024
    report = single_dma("toy", nbytes).report()
    assert report.cycles == latency + nbytes // slowest
    assert report.bytes == {"DDR": nbytes, "L1": nbytes}
    assert report.binding_resource == "DDR bandwidth"
    assert report.bound_efficiency == 1.0


def test_dma_rounds_runs_up_to_the_transfer_granularity():
    device = Device.load("toy")
    granule = device.roofline.dma_granularity
    whole = single_dma("toy", 4 * granule).report().cycles
    assert single_dma("toy", 4 * granule - 1).report().cycles == whole


def test_cores_contend_for_device_memory_bandwidth():
    """Two cores each copying a block take the time of one core copying both: the
    device-memory port (shared) is the bottleneck, not the per-core links. Beyond the
    bound each run takes only the DMA engines' scalar instructions before the copy."""
    one = single_dma("spyre", 8192, cores=1).report()
    four = single_dma("spyre", 8192, cores=4).report()
    port = Device.load("spyre").memory("DDR").port_bandwidth
    assert four.cycles - one.cycles == 3 * 8192 // port
    assert four.binding_resource == "DDR bandwidth"
    assert four.cycles - four.bound_cycles == one.cycles - one.bound_cycles


def test_small_fifo_back_pressures_the_producer():
    """The SIMD engine spends 4 issue slots per transcendental vector while the load unit
    could send one per cycle: with a 2-beat FIFO the load unit waits."""
    sim, _, _ = run_exp("toy", rows=32)
    report = sim.report()
    assert report.engines["L1LU"].backpressured > 0
    assert report.engines["SFU"].busy >= 32 * Device.load("toy").compute.issue_cycles["transcendental"]
    assert report.engines["SFU"].starved > 0  # waiting for the first tile


def test_simd_issue_cost_scales_with_vector_length_over_lanes():
    sim = Simulator("toy")
    lanes = sim.device.lanes(isa.ELEMENT_TYPES["f16"])
    units = (Unit("DDR"), Unit("SFU", 0, 0))
    program = binary("SFU", [1], [
        isa.Vconst(0, "f16", 3 * lanes + 1, (0x3C00,)),
        isa.Vop("exp", "f16", "f16", 1, (0,)), isa.Vop("add", "f16", "f16", 2, (1, 1)),
    ], [])
    sim.execute(sim.load(DataflowBinary("ops", units, (program,))))
    issue = sim.device.compute.issue_cycles
    beats = 4
    assert sim.report().cycles == beats * issue["transcendental"] + beats * issue["plain"]
    assert sim.report().binding_resource == "SIMD issue"


def test_cross_core_copy_crosses_the_ring():
    """Core 0's ring stop copies its scratchpad into core 1's: hop latency and ring
    bandwidth from the arch file."""
    sim = Simulator("toy")
    ring = sim.device.interconnect
    nbytes = 256
    units = (Unit("L1", 0), Unit("L1", 1), Unit("RING", 0))
    program = binary("RING", [2], [
        isa.Li(1, 0), isa.Li(2, 1), isa.Li(3, 0),
        isa.View(0, 1, 3, "i8", (nbytes,), (1,)), isa.View(1, 2, 3, "i8", (nbytes,), (1,)),
        isa.Dma(0, 1),
    ], [])
    sim.execute(sim.load(DataflowBinary("hop", units, (program,))))
    report = sim.report()
    device = sim.device
    route = device.path(device.node("L1", 0), device.node("RING", 0)) + device.path(
        device.node("RING", 0), device.node("L1", 1))
    assert report.cycles == sum(link.latency for link in route) + nbytes // ring.bytes_per_cycle
    assert report.bound_terms["interconnect"] > 0


# ---------------------------------------------------------------------------------
# Faults
# ---------------------------------------------------------------------------------


def test_deadlock_is_reported_with_every_blocked_engine_and_fifo_state():
    """Without the DMA engine's program its signal never comes: the load unit waits for
    it and everything downstream starves. Both cores are in the same state."""
    sim = Simulator("toy")
    dataflow, _, _ = exp_kernel(sim, [0, 1], rows=2, width=sim.device.lanes(isa.ELEMENT_TYPES["f16"]))
    dataflow = DataflowBinary(dataflow.name, dataflow.units, dataflow.engines[1:])
    with pytest.raises(DeviceError) as error:
        sim.execute(sim.load(dataflow))
    lines = str(error.value).splitlines()
    assert lines == [
        "deadlock at cycle 0: 8 engines wait forever",
        "  L1LU[c.0] on cores 0-1 pc 6 `srecv s4, 1`: waits for signal id 1 from MNILU[c]",
        ("  SFU[c.0] on cores 0-1 pc 6 `recv v0, s1, 2, f16, 8`: waits for data in FIFO "
        "L1LU[c.0] -> SFU[c.0] (id 2): 0/2 beats of 16 B"),
        ("  L1SU[c.0] on cores 0-1 pc 9 `recv v0, s1, 3, f16, 8`: waits for data in FIFO "
        "SFU[c.0] -> L1SU[c.0] (id 3): 0/2 beats of 16 B"),
        "  MNISU on cores 0-1 pc 7 `srecv s5, 4`: waits for signal id 4 from L1SU[c.0]",
    ]


def test_deadlock_on_a_full_fifo_names_its_occupancy():
    """A SIMD program that receives nothing leaves the load unit stuck on a full FIFO
    (the toy's FIFOs hold 2 beats) in a bounded number of events."""
    sim = Simulator("toy")
    dataflow, _, _ = exp_kernel(sim, [0], rows=8, width=sim.device.lanes(isa.ELEMENT_TYPES["f16"]))
    engines = list(dataflow.engines)
    engines[2] = binary("SFU", list(engines[2].instances), [isa.Halt()], [])
    with pytest.raises(DeviceError) as error:
        sim.execute(sim.load(DataflowBinary(dataflow.name, dataflow.units, tuple(engines))))
    message = str(error.value)
    assert "  L1LU[c.0] on core 0 pc 11 `send v0, s3, 2`: waits for room in FIFO " \
           "L1LU[c.0] -> SFU[c.0] (id 2): 2/2 beats of 16 B" in message
    assert "L1SU[c.0] on core 0 pc 9 `recv v0, s1, 3, f16, 8`" in message


def test_mismatched_fifo_ids_stop_the_run():
    sim = Simulator("toy")
    dataflow, _, _ = exp_kernel(sim, [0], rows=2, width=sim.device.lanes(isa.ELEMENT_TYPES["f16"]), fifo_id_shift=10)
    with pytest.raises(DeviceError, match=r"SFU\[0.0\] pc 6 `recv v0, s1, 2, f16, 8`: expects id 2: "
                                          r"8xf16, but the FIFO L1LU\[0.0\] -> SFU\[0.0\] holds id 12"):
        sim.execute(sim.load(dataflow))


def test_out_of_bounds_access_names_engine_instruction_and_address():
    sim = Simulator("toy")
    size = sim.device.memory("L1").size
    units = (Unit("L1", 0), Unit("L1LU", 0, 0))
    program = binary("L1LU", [1], [
        isa.Li(1, 0), isa.Li(2, size - 8), isa.Li(3, 0),
        isa.View(0, 1, 2, "f16", (1, 8), (8, 1)), isa.Vld(0, 0, 8, (3, 3)),
    ], [])
    with pytest.raises(DeviceError, match=r"L1LU\[0.0\] pc 4 `vld v0, d0, 8, \[s3, s3\]`: "
                                          rf"bytes \[{size - 8:#x}, {size + 8:#x}\) outside L1\[0\]"):
        sim.execute(sim.load(DataflowBinary("oob", units, (program,))))


def test_device_memory_access_outside_every_buffer_stops_the_run():
    sim = Simulator("toy")
    buffer = sim.allocate("DDR", 64, 128)
    units = (Unit("DDR"), Unit("L1", 0), Unit("MNILU", 0))
    program = binary("MNILU", [2], [
        isa.Li(1, 0), isa.Li(2, buffer + 32), isa.Li(3, 1), isa.Li(4, 0),
        isa.View(0, 1, 2, "i8", (64,), (1,)), isa.View(1, 3, 4, "i8", (64,), (1,)), isa.Dma(0, 1),
    ], [])
    with pytest.raises(DeviceError, match=r"MNILU\[0\] pc 6 `dma d0, d1`: bytes \[0x20, 0x60\) "
                                          r"of DDR outside every allocated buffer"):
        sim.execute(sim.load(DataflowBinary("oob", units, (program,))))


@pytest.mark.parametrize("timing, waits", [
    ("python", "signal id 4 from L1SU[c.0]"),
    ("compiled", "its input (a FIFO or a signal)"),
])
def test_a_run_past_its_cycle_budget_stops_with_every_engine_state(timing, waits):
    """Both timings stop at the budget with every engine that has not ended, at the
    same instruction; the compiled core stops there itself (it does not hand the run
    to the Python engines), saying what kind of thing each engine waits for."""
    sim = Simulator("toy", max_cycles=20, timing=timing)
    dataflow, _, _ = exp_kernel(sim, [0, 1], rows=4, width=sim.device.lanes(isa.ELEMENT_TYPES["f16"]))
    with pytest.raises(PastBudget) as error:
        sim.execute(sim.load(dataflow))
    lines = str(error.value).splitlines()
    assert lines[0] == ("the run passed its cycle budget of 20 cycles (as asked); "
                        "--max-cycles sets another")
    assert error.value.limit == 20 and sim.ran_on == timing
    assert f"  MNISU on cores 0-1 pc 7 `srecv s5, 4`: waits for {waits}" in lines
    assert "  SFU[c.0] on cores 0-1 pc 6 `recv v0, s1, 2, f16, 8`: waits for " in "\n".join(lines)
    assert not any(line.startswith("  MNILU") for line in lines)  # it has ended


def test_the_default_budget_scales_with_the_data_in_device_memory():
    from ktc.sim.simulator import BUDGET_FACTOR, BUDGET_FLOOR

    sim = Simulator("toy")
    assert sim.budget()[0] == BUDGET_FLOOR
    nbytes = 1 << 16
    sim.allocate("DDR", nbytes, 128)
    per_cycle = sim.device.roofline.device_memory_bytes_per_cycle
    assert sim.budget()[0] == BUDGET_FACTOR * (nbytes // per_cycle) + BUDGET_FLOOR
    with pytest.raises(DeviceError, match="must be positive"):
        Simulator("toy", max_cycles=0)


def test_progress_goes_to_the_stream_given_and_ends_its_line(monkeypatch):
    import io

    from ktc.sim import machine, simulator

    monkeypatch.setattr(simulator, "PROGRESS_AFTER_S", 0.0)
    monkeypatch.setattr(machine, "WATCH_EVERY", 1)
    stream = io.StringIO()
    sim = Simulator("toy", progress=stream)
    dataflow, _, _ = exp_kernel(sim, [0], rows=4, width=sim.device.lanes(isa.ELEMENT_TYPES["f16"]))
    sim.execute(sim.load(dataflow))
    text = stream.getvalue()
    assert text.startswith("\rcycle ") and "of the budget" in text and text.endswith("\n")
    quiet = Simulator("toy")
    assert quiet.progress is None  # stderr is not a terminal under pytest


def test_ranges_group_cores():
    assert ranges([0, 1, 2, 3, 8, 9, 10, 11, 5]) == "0-3,5,8-11"


# ---------------------------------------------------------------------------------
# Report and trace
# ---------------------------------------------------------------------------------


def test_report_json_has_the_required_keys(tmp_path):
    sim, _, _ = run_exp(cores=2, rows=4)
    data = json.loads(json.dumps(sim.report().to_json()))
    for key in ("cycles", "bound_cycles", "binding_resource", "efficiency", "bytes", "engines", "wall_s",
                "ideal_cycles", "ideal_terms", "bound_efficiency", "ideal_bytes", "issued_bytes",
                "traffic_overhead"):
        assert key in data
    assert data["efficiency"] == data["ideal_cycles"] / data["cycles"]
    assert data["bound_efficiency"] == data["bound_cycles"] / data["cycles"]
    assert set(data["engines"]) == {"MNILU", "L1LU", "SFU", "L1SU", "MNISU"}
    assert set(data["engines"]["SFU"]) >= {"busy", "starved", "backpressured"}
    assert data["bytes"]["DDR"] == 2 * 2 * 4 * 8 * 2
    assert data["read_bytes"] == 2 * 4 * 8 * 2  # the copies in; as many bytes go back out
    assert data["issued_bytes"] - data["read_bytes"] == 2 * 4 * 8 * 2
    assert "cycles:" in sim.report().text()


def test_trace_has_a_process_per_busy_core_a_thread_per_engine_and_fifo_counters(tmp_path):
    """Processes only for cores that ran something (spyre has 32, one is used), threads
    named by their units, timestamps in microseconds at the arch file's clock."""
    path = tmp_path / "trace.json"
    sim, _, _ = run_exp("spyre", cores=1, rows=4, trace=path)
    document = json.loads(path.read_text())
    events = document["traceEvents"]
    processes = {e["args"]["name"] for e in events if e["name"] == "process_name"}
    assert processes == {"core 0"}
    threads = {(e["pid"], e["args"]["name"]) for e in events if e["name"] == "thread_name"}
    assert {(1, "SFU[0.0]"), (1, "MNILU[0]"), (1, "MNISU[0]")} <= threads
    busy = [e for e in events if e["ph"] == "X"]
    assert busy and all(e["dur"] > 0 for e in busy)
    clock = document["otherData"]["clock_mhz"]
    assert clock == sim.device.clock_mhz
    last = max(e["ts"] + e["dur"] for e in busy)
    assert last * clock == pytest.approx(sim.report().cycles)
    counters = {e["name"] for e in events if e["ph"] == "C"}
    assert "FIFO L1LU[0.0] -> SFU[0.0]" in counters


def test_copies_of_one_engine_complete_in_order_and_move_data_on_completion():
    """line4's two-way DMA engine copies x into its scratchpad and back out to y with no
    signal between: the second copy sees the first's data because copies complete in
    order; y is written only when the second copy completes."""
    sim = Simulator(Device.load(LINE4))
    x, y = sim.allocate("HBM", 256, 64), sim.allocate("HBM", 256, 64)
    data = np.arange(256, dtype=np.uint8)
    sim.write("HBM", x, data.tobytes())
    units = (Unit("HBM"), Unit("SPM", 0), Unit("DMA", 0))
    program = binary("DMA", [2], [
        isa.Li(1, 0), isa.Li(2, x), isa.Li(3, 1), isa.Li(4, 0), isa.Li(5, y),
        isa.View(0, 1, 2, "i8", (4, 64), (64, 1)), isa.View(1, 3, 4, "i8", (4, 64), (64, 1)),
        isa.View(2, 1, 5, "i8", (4, 64), (64, 1)),
        isa.Dma(0, 1), isa.Dma(1, 2),
    ], [])
    sim.execute(sim.load(DataflowBinary("twice", units, (program,))))
    assert sim.read("HBM", y, 256) == data.tobytes()
    assert sim.report().bytes == {"HBM": 512, "SPM": 512}


def test_dim_sets_a_dynamic_row_count_before_the_copy():
    """A partial tile: the views are made with 0 rows and ``dim`` sets 3 of 4 from a
    register; the copy moves exactly those rows (y's last row keeps its bytes)."""
    sim = Simulator(Device.load(LINE4))
    x, y = sim.allocate("HBM", 256, 64), sim.allocate("HBM", 256, 64)
    sim.write("HBM", x, np.arange(256, dtype=np.uint8).tobytes())
    sim.write("HBM", y, bytes(256))
    units = (Unit("HBM"), Unit("DMA", 0))
    program = binary("DMA", [1], [
        isa.Li(1, 0), isa.Li(2, x), isa.Li(3, y), isa.Li(4, 3),
        isa.View(0, 1, 2, "i8", (0, 64), (64, 1)), isa.Dim(0, 4, 0),
        isa.View(1, 1, 3, "i8", (0, 64), (64, 1)), isa.Dim(1, 4, 0), isa.Dma(0, 1),
    ], [])
    sim.execute(sim.load(DataflowBinary("partial", units, (program,))))
    assert sim.read("HBM", y, 256) == bytes(range(192)) + bytes(64)
    assert sim.report().bytes == {"HBM": 384}


def test_dim_rejects_a_negative_size():
    units = (Unit("L1", 0), Unit("MNILU", 0))
    sim = Simulator("toy")
    program = binary("MNILU", [1], [
        isa.Li(1, 0), isa.Li(2, -1), isa.View(0, 1, 1, "i8", (0, 64), (64, 1)), isa.Dim(0, 2, 0),
    ], [])
    with pytest.raises(DeviceError, match=r"MNILU\[0\] pc 3 `dim d0, s2, 0`: dimension 0 of d0 "
                                          r"would be -1"):
        sim.execute(sim.load(DataflowBinary("negative", units, (program,))))


# ---------------------------------------------------------------------------------
# Single instructions
# ---------------------------------------------------------------------------------


def run_on(kind: str, parts: list, arch: str = "toy", core: int = 0, subcore: int = 0):
    """Run one program on one instance; the simulator and the engine's registers."""
    sim = Simulator(arch)
    units = (Unit("L1", core), Unit(kind, core, subcore))
    sim.execute(sim.load(DataflowBinary("one", units, (binary(kind, [1], parts, []),))))
    return sim


def vector_out(parts: list, register: int, dtype: str, length: int) -> np.ndarray:
    """Run ``parts`` on the SIMD engine, send v``register`` to the store unit, which
    writes it at scratchpad address 0; the values found there."""
    sim = Simulator("toy")
    units = (Unit("L1", 0), Unit("SFU", 0, 0), Unit("L1SU", 0, 0))
    sfu = binary("SFU", [1], [*parts, isa.Li(62, 2), isa.Send(register, 62, 1)], [])
    store = binary("L1SU", [2], [
        isa.Li(1, 1), isa.Li(2, 0), isa.Li(3, 0), isa.Recv(0, 1, 1, dtype, length),
        isa.View(0, 2, 3, dtype, (length,), (1,)), isa.Vst(0, 0, (3,)),
    ], [])
    sim.execute(sim.load(DataflowBinary("one", units, (sfu, store))))
    raw = sim.memory_of("L1", 0).read(0, length * numerics.bytes_per_element(dtype))
    return numerics.from_storage(dtype, raw.view(numerics.storage_dtype(dtype)))


def f32_bits(x: np.ndarray) -> tuple[int, ...]:
    return tuple(int(b) for b in np.asarray(x, np.float32).view(np.int32))


def test_vreduce_folds_every_lane_and_costs_beats_plus_log_steps():
    sim = Simulator("toy")
    lanes = sim.device.lanes(isa.ELEMENT_TYPES["f32"])
    x = np.linspace(-1, 2, 3 * lanes, dtype=np.float32)
    units = (Unit("L1", 0), Unit("SFU", 0, 0))
    program = binary("SFU", [1], [isa.Vconst(0, "f32", x.size, f32_bits(x)),
                                  isa.Vreduce("add", "f32", 1, 0)], [])
    sim.execute(sim.load(DataflowBinary("fold", units, (program,))))
    issue = sim.device.compute.issue_cycles
    steps = (lanes - 1).bit_length()
    assert sim.report().cycles == 2 * issue["plain"] + steps * issue["reduction_step"]


def test_vector_instructions_compute_with_the_shared_numerics():
    x = (np.arange(8, dtype=np.float32) - 3.5) * 1.37
    got = vector_out([
        isa.Vconst(0, "f32", 8, f32_bits(x)),
        isa.Vcvt("f16", "f32", 1, 0),
        isa.Vreduce("max", "f16", 2, 1),
        isa.Vconst(4, "f16", 8, (0x3C00,)),
        isa.Vop("fma", "f16", "f16", 5, (1, 4, 4)),
    ], 5, "f16", 8)
    half = x.astype(np.float16)
    expected = numerics.round_to("f16", half.astype(np.float64) + 1.0)
    assert np.array_equal(got, expected)


def test_vsplat_and_vreduce_values():
    x = np.array([3.0, -1.0, 7.5, 2.0], np.float32)
    folded = vector_out([isa.Vconst(0, "f32", 4, f32_bits(x)), isa.Vreduce("max", "f32", 1, 0)],
                        1, "f32", 1)
    assert folded.tolist() == [7.5]
    splat = vector_out([isa.Li(5, int(np.float32(2.5).view(np.int32))), isa.Vsplat(1, 5, "f32", 4)],
                       1, "f32", 4)
    assert splat.tolist() == [2.5] * 4


def test_alu_follows_mlir_arith_on_64_bit_integers():
    from ktc.sim.engines import ALU, wrap

    assert wrap(ALU["divsi"](-7, 2)) == -3
    assert wrap(ALU["remsi"](-7, 2)) == -1
    assert wrap(ALU["floordivsi"](-7, 2)) == -4
    assert wrap(ALU["ceildivsi"](-7, 2)) == -3
    assert wrap(ALU["divui"](-1, 2)) == (1 << 63) - 1
    assert wrap(ALU["shrsi"](-8, 70)) == -1
    assert wrap(ALU["shl"](1, 64)) == 0
    assert wrap(ALU["add"]((1 << 63) - 1, 1)) == -(1 << 63)
    assert ALU["cmp.ult"](1, -1) == 1 and ALU["cmp.slt"](1, -1) == 0


def test_alu_results_in_memory_follow_the_shared_integer_table(timing):
    """Every ALU operation on edge values (the wrap-arounds, shifts past 63, the most
    negative value over -1), each result splatted, sent to the store unit and stored:
    what memory holds is what ``ktc.codegen.integer.BINARY`` computes, wrapped."""
    from ktc.codegen.integer import BINARY, DIVIDING, wrap

    edges = [0, 1, -1, 7, -7, 64, -(1 << 63), (1 << 63) - 1]
    cases = [(op, a, b) for op in isa.ALU_OPS for a in edges for b in edges
             if not (op in DIVIDING and b == 0)]
    sfu = []
    for op, a, b in cases:
        sfu += [isa.Li(0, a), isa.Li(1, b), isa.Alu(op, 2, 0, 1), isa.Vsplat(0, 2, "i64", 1),
                isa.Send(0, 62, 1)]
    sim = Simulator("toy")
    units = (Unit("L1", 0), Unit("SFU", 0, 0), Unit("L1SU", 0, 0))
    store = binary("L1SU", [2], [
        isa.Li(1, 1), isa.Li(2, 0), isa.Li(3, 0), isa.Li(4, len(cases)),
        isa.View(0, 2, 3, "i64", (len(cases),), (1,)),
        ("loop", 5, 3, 4, 1, [isa.Recv(0, 1, 1, "i64", 1), isa.Vst(0, 0, (5,))]),
    ], [])
    program = binary("SFU", [1], [isa.Li(62, 2), *sfu], [])
    sim.execute(sim.load(DataflowBinary("alu", units, (program, store))))
    assert sim.ran_on == timing
    got = sim.memory_of("L1", 0).read(0, 8 * len(cases)).view(np.int64).tolist()
    assert got == [wrap(BINARY[op](a, b)) for op, a, b in cases]


def test_division_by_zero_stops_the_run():
    with pytest.raises(DeviceError, match=r"SFU\[0.0\] pc 2 `alu.divsi s2, s0, s1`: division by zero"):
        run_on("SFU", [isa.Li(0, 1), isa.Li(1, 0), isa.Alu("divsi", 2, 0, 1)])


def test_an_endless_loop_without_time_stops_the_run(monkeypatch):
    from ktc.sim import engines

    monkeypatch.setattr(engines, "STEPS_WITHOUT_TIME", 1000)
    with pytest.raises(DeviceError, match="endless loop"):
        run_on("SFU", [isa.Jmp(0)])


def test_vbcast_needs_simd_lanes_or_the_splat_feature():
    one = [isa.Vconst(0, "f16", 1, (0x3C00,)), isa.Vbcast(1, 0, 8)]
    run_on("L1LU", one)
    run_on("SFU", one)
    with pytest.raises(DeviceError, match=r"L1SU\[0.0\] pc 1 `vbcast v1, v0, 8`: L1SU has neither"):
        run_on("L1SU", one)


def test_a_peer_outside_the_unit_table_stops_the_run():
    with pytest.raises(DeviceError, match=r"SFU\[0.0\] pc 2 `send v0, s1, 1`: unit 9 is not in "
                                          r"this dataflow's unit table \(2 units\)"):
        run_on("SFU", [isa.Vconst(0, "f16", 8, (0,)), isa.Li(1, 9), isa.Send(0, 1, 1)])


def test_a_fifo_the_arch_file_lacks_stops_the_run():
    sim = Simulator("toy")
    units = (Unit("L1", 0), Unit("SFU", 0, 0), Unit("MNILU", 0))
    program = binary("SFU", [1], [isa.Vconst(0, "f16", 8, (0,)), isa.Li(1, 2), isa.Send(0, 1, 1)], [])
    with pytest.raises(DeviceError, match=r"no FIFO from SFU\[0.0\] to MNILU\[0\]"):
        sim.execute(sim.load(DataflowBinary("x", units, (program,))))


# ---------------------------------------------------------------------------------
# Copies in flight
# ---------------------------------------------------------------------------------


def run_copies(copies: int) -> int:
    """Cycles of spyre's DMA load engine of core 0 copying ``copies`` sticks from device
    memory into the scratchpad, one ``dma`` each, issued back to back."""
    sim = Simulator("spyre")
    stick = 128
    source = sim.allocate("DDR", copies * stick, stick)
    units = (Unit("DDR"), Unit("L1", 0, 0), Unit("MNILU", 0, 0))
    program = [
        isa.Li(1, 0), isa.Li(2, source), isa.Li(3, 1), isa.Li(4, 0), isa.Li(5, stick), isa.Li(11, copies),
        *counted(10, 11, [isa.View(0, 1, 2, "f16", (stick // 2,), (1,)),
                          isa.View(1, 3, 4, "f16", (stick // 2,), (1,)), isa.Dma(0, 1),
                          isa.Alu("add", 2, 2, 5), isa.Alu("add", 4, 4, 5)]),
    ]
    sim.execute(sim.load(DataflowBinary("copies", units, (binary("MNILU", [2], program, []),))))
    return sim.report().cycles


def test_a_dma_engine_waits_for_room_among_its_copies_in_flight():
    """spyre's DMA engines have ``outstanding`` copies in flight at most: that many
    sticks, issued one loop trip apart, all travel together (each a trip or a cycle of
    the device-memory port later than the one before, the latency overlaps), but twice
    that many pay the latency twice, the second half waiting for the first to complete."""
    kind = Device.load("spyre").engine("MNILU")
    limit, costs = kind.outstanding, kind.scalar_cycles
    assert limit is not None and limit > 1
    trip = 4 * costs.get("scalar", 0) + costs.get("control", 0)  # two views, two adds, the loop's end
    one = run_copies(1)
    assert run_copies(limit) == one + (limit - 1) * max(trip, 1)
    assert run_copies(2 * limit) >= 2 * one


def signal_each_copy(interleaved: bool) -> tuple[int, int]:
    """spyre's DMA load engine of core 0 copies two tiles into the scratchpad and
    signals the load unit once per tile, after each copy (``interleaved``: ``dma; ssend;
    dma; ssend``) or after both (``dma; dma; ssend; ssend``); the load unit waits for
    the first signal only. The run's cycles and the cycles the load unit waited."""
    sim = Simulator("spyre")
    tile = 4096
    source = sim.allocate("DDR", 2 * tile, 128)
    units = (Unit("DDR"), Unit("L1", 0, 0), Unit("MNILU", 0, 0), Unit("L1LU", 0, 0))
    views = [isa.Li(1, 0), isa.Li(2, source), isa.Li(3, 1), isa.Li(4, 0), isa.Li(5, tile),
             isa.Li(6, 3), isa.View(0, 1, 2, "i8", (tile,), (1,)), isa.View(1, 3, 4, "i8", (tile,), (1,)),
             isa.Alu("add", 2, 2, 5), isa.Alu("add", 4, 4, 5),
             isa.View(2, 1, 2, "i8", (tile,), (1,)), isa.View(3, 3, 4, "i8", (tile,), (1,))]
    copies = ([isa.Dma(0, 1), isa.Ssend(6, 1), isa.Dma(2, 3), isa.Ssend(6, 2)] if interleaved
              else [isa.Dma(0, 1), isa.Dma(2, 3), isa.Ssend(6, 1), isa.Ssend(6, 2)])
    dma = binary("MNILU", [2], views + copies, [])
    load = binary("L1LU", [3], [isa.Li(1, 2), isa.Srecv(1, 1)], [])
    sim.execute(sim.load(DataflowBinary("signals", units, (dma, load))))
    report = sim.report()
    return report.cycles, report.instances["L1LU[0.0]"].starved


def test_a_signal_after_a_copy_waits_for_that_copy_only():
    """``ssend`` is posted: a DMA engine goes on at once, and the signal leaves when the
    engine's earlier copies have completed. A signal between two copies therefore
    reaches the load unit when the first copy lands, before the second (which started
    at once, not after the first), and the run takes as long as with both signals at
    the end."""
    interleaved, first_signal = signal_each_copy(interleaved=True)
    at_the_end, both_copies = signal_each_copy(interleaved=False)
    assert interleaved == at_the_end
    assert first_signal < both_copies < at_the_end


# ---------------------------------------------------------------------------------
# The scratchpad's port
# ---------------------------------------------------------------------------------


def test_the_scratchpad_port_serves_bytes_shared_by_copies_and_load_units():
    """spyre's scratchpad serves ``port_bandwidth`` bytes a cycle through all its ports:
    128-byte rows to and from its four load and store units all in one cycle, one more
    row (to a DMA engine, over a link of its own) a cycle later; a copy written into it
    takes its bytes' share of the port first, so a row read after it starts once those
    bytes are served. (Both timings run this rule: the figures test holds them to the
    same cycles, softmax on spyre among them.)"""
    device = Device.load("spyre")
    port = device.memory("L1").port_bandwidth
    row = 128
    assert port == 4 * row
    machine = Machine(device)
    l1, ddr = device.node("L1"), device.node(device.device_memory)
    units = [device.node("L1LU", 0, 0), device.node("L1LU", 0, 1)]
    routes = [*(machine.route(l1, u) for u in units),
              *(machine.route(device.node("L1SU", 0, k), l1) for k in (0, 1)),
              machine.route(l1, device.node("MNISU"))]
    starts = [machine.transfer(((route, 1, row),))[0] for route in routes]
    assert starts == [0, 0, 0, 0, 1]

    machine = Machine(device)
    tile = 16 * port
    dma = device.node("MNILU")
    machine.transfer(((machine.route(ddr, dma), 1, tile), (machine.route(dma, l1), 1, tile)))
    start, _, _ = machine.transfer(((machine.route(l1, units[0]), 1, row),))
    assert start == tile // port


# ---------------------------------------------------------------------------------
# Scalar and control instructions
# ---------------------------------------------------------------------------------


def run_scalars(iterations: int) -> tuple[int, int]:
    """Cycles and busy cycles of spyre's DMA load engine of core 0 running a loop of
    ``iterations`` trips, each an add and a move, then a copy of one stick."""
    sim = Simulator("spyre")
    stick = 128
    source = sim.allocate("DDR", stick, stick)
    units = (Unit("DDR"), Unit("L1", 0, 0), Unit("MNILU", 0, 0))
    program = [
        isa.Li(1, 0), isa.Li(2, source), isa.Li(3, 1), isa.Li(4, 0), isa.Li(11, iterations),
        *counted(10, 11, [isa.Alu("add", 5, 5, 10), isa.Mov(6, 5)]),
        isa.View(0, 1, 2, "f16", (stick // 2,), (1,)), isa.View(1, 3, 4, "f16", (stick // 2,), (1,)),
        isa.Dma(0, 1), isa.Halt(),
    ]
    sim.execute(sim.load(DataflowBinary("scalars", units, (binary("MNILU", [2], program, []),))))
    report = sim.report().to_json()
    return report["cycles"], report["engines"]["MNILU"]["busy"]


def test_scalar_and_control_instructions_cost_their_cycles_before_the_next_timed_one():
    """spyre states cycles per scalar and per control instruction: a loop of n trips
    (an add, a move and the loop's end each trip) delays the copy after it by n times
    its cycles, which count as busy."""
    costs = Device.load("spyre").engine("MNILU").scalar_cycles
    scalar, control = costs.get("scalar", 0), costs.get("control", 0)
    assert scalar or control
    (cycles0, busy0), (cycles5, busy5) = run_scalars(0), run_scalars(5)
    trip = 2 * scalar + control
    assert cycles5 - cycles0 == 5 * trip
    assert busy5 - busy0 == 5 * trip
