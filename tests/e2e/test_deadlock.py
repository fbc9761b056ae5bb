"""A device whose FIFOs are too shallow for a schedule deadlocks, and the simulator
reports it, in bounded time, instead of hanging.

The device is the toy with every FIFO one beat deep (``inputs/toy_fifo_depth_1.mlir``).
The compiler's own schedules never need more than one beat: every engine pair is a
producer-consumer chain with sends and receives in the same order, and the simulator
streams a vector longer than a FIFO through it once it is empty; so the compiled
examples still run there (last test). The schedule that needs two beats is
hand-written DataflowIR (``inputs/queue_two_rows.mlir``): the load unit queues two rows
and only then signals the SIMD engine to start receiving. The driver packages it like
any kernel; ``ktc.Simulator(...).prepare(...).launch(...)`` runs it.

Each blocked engine, and an access out of bounds, is reported with the source
location of the op its instruction came from: the DataflowIR op here, the KTIR op
for a kernel compiled from KTIR (last test).
"""

import re
import time

import numpy as np
import pytest
from conftest import ROOT
from ktc import Simulator, compile
from ktc.codegen.binary import relocated
from ktc.codegen.plan import evaluate
from ktc.dialects.diagnostics import KtcError
from ktc.runtime.device import DeviceError
from ktc.sim.reference import Kernel, random_inputs
from ktc.sim.check import compare, reduction_length

INPUTS = ROOT / "tests" / "e2e" / "inputs"
SHALLOW = str(INPUTS / "toy_fifo_depth_1.mlir")
SCHEDULE = INPUTS / "queue_two_rows.mlir"
WALL_SECONDS = 10.0
"""A deadlock is found when the event queue runs dry, long before this."""


def launch_queue_two_rows(arch: str, x: np.ndarray) -> np.ndarray:
    """y = x * 0.5 for two rows of 8 f16 on ``arch``. The kernel takes the element
    index of each array in device memory (DataflowIR has no memory views from which a
    package could tell its pointers), so the arrays are placed by hand."""
    simulator = Simulator(arch)
    executable = simulator.prepare(compile(SCHEDULE.read_text(), arch, str(SCHEDULE)))
    x_at = simulator.allocate("DDR", x.nbytes, 128)
    y_at = simulator.allocate("DDR", x.nbytes, 128)
    simulator.write("DDR", x_at, x.tobytes())
    executable.launch(x_at // x.itemsize, y_at // x.itemsize)
    return np.frombuffer(simulator.read("DDR", y_at, x.nbytes), x.dtype)


def at(path, snippet: str) -> str:
    """``path:line:col`` of the op written as ``snippet`` (its only occurrence)."""
    lines = path.read_text().splitlines()
    [(line, text)] = [(n, t) for n, t in enumerate(lines, 1) if snippet in t]
    return f"{path}:{line}:{len(text) - len(text.lstrip()) + 1}"


def test_schedule_runs_where_the_fifo_holds_two_rows():
    x = np.arange(16, dtype=np.float16)
    np.testing.assert_array_equal(launch_queue_two_rows("toy", x), x * np.float16(0.5))


def test_shallow_fifo_deadlock_is_reported_in_bounded_time():
    """Every blocked engine, the op its instruction came from, what it waits on, and
    the FIFO's occupancy and depth."""
    started = time.perf_counter()
    with pytest.raises(KtcError) as error:
        launch_queue_two_rows(SHALLOW, np.arange(16, dtype=np.float16))
    assert time.perf_counter() - started < WALL_SECONDS
    lines = str(error.value).splitlines()
    assert lines[0].startswith("error: device: deadlock at cycle ")
    assert lines[0].endswith(": 4 engines wait forever")
    assert lines[1:] == [
        (f"  L1LU[c.0] on core 0 pc 10 `send v1, s4, 6` "
         f"(at {at(SCHEDULE, 'dfir.send %row1 to %sfu id 6')}): waits for room in FIFO "
         "L1LU[c.0] -> SFU[c.0] (id 6): 1/1 beats of 16 B"),
        (f"  SFU[c.0] on core 0 pc 3 `srecv s0, 5` "
         f"(at {at(SCHEDULE, 'dfir.sync_recv %ld id 5')}): waits for signal id 5 from L1LU[c.0]"),
        (f"  L1SU[c.0] on core 0 pc 7 `recv v0, s5, 3, f16, 8` "
         f"(at {at(SCHEDULE, '%ra = dfir.receive from %sfu id 3')}): waits for data in FIFO "
         "SFU[c.0] -> L1SU[c.0] (id 3): 0/1 beats of 16 B"),
        (f"  MNISU on core 0 pc 7 `srecv s3, 4` "
         f"(at {at(SCHEDULE, 'dfir.sync_recv %st id 4')}): waits for signal id 4 from L1SU[c.0]"),
    ]


@pytest.mark.parametrize("example", ["silu_mul", "softmax"])
def test_compiled_examples_need_one_beat(example: str):
    """Outputs as ``ktc run --check`` compares them: bit-exact, or within its tolerance
    for a kernel that reduces."""
    text = (ROOT / "examples" / f"{example}.mlir").read_text()
    kernel = Kernel.from_text(text, example)
    arrays = random_inputs(kernel, {}, {}, seed=5)
    expected = kernel.execute({name: a.copy() for name, a in arrays.items()}).outputs
    executable = Simulator(SHALLOW).prepare(compile(text, SHALLOW, example))
    actual = executable.launch(*(arrays[p.name] for p in kernel.parameters))
    elements = {p.name: p.element for p in kernel.parameters if p.pointer}
    assert compare(actual, expected, elements, reduction_length(kernel)) is None
    assert executable.report().cycles >= executable.report().bound_cycles


def test_out_of_bounds_access_of_a_compiled_kernel_names_the_ktir_op():
    """add.mlir compiled from KTIR, run through the device interface with arrays of
    64 bytes where it reads 256-byte rows: the first copy out of device memory stops
    the run, and the report names the ``ktdp.load`` it was compiled from."""
    add = ROOT / "examples" / "add.mlir"
    dataflow = compile(add.read_text(), "toy", str(add)).dataflows[0]
    simulator = Simulator("toy")
    handle = simulator.load(dataflow.binary)
    address = simulator.allocate("DDR", 64, 128)
    values = {s.id: evaluate(s.expr, {"param": (address // 2,) * len(dataflow.params)})
              for s in dataflow.symbols}
    for index, engine in enumerate(dataflow.binary.engines):
        simulator.patch(handle, index, relocated(engine, values))
    with pytest.raises(DeviceError) as error:
        simulator.execute(handle)
    loads = {at(add, f"%{name} = ktdp.load") for name in ("x", "y")}
    found = re.fullmatch(rf"MNILU\[0\] pc \d+ `dma d0, d1` \(at (\S+)\): bytes "
                         rf"\[{address:#x}, {address + 256:#x}\) of DDR outside every "
                         "allocated buffer", str(error.value))
    assert found is not None, str(error.value)
    assert found.group(1) in loads
