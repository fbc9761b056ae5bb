"""The cycle-level simulator: a ``ktc.runtime.device.Device`` built from an arch file.

``Simulator("spyre")`` lays out the device's memories (sparse, so device memory costs
what is used); ``load`` decodes a dataflow's programs and places them on their units;
``execute`` runs every program to the end, event by event, on the compiled timing core
(``ktc.sim.compiled``) where it is built and no trace is asked for, else (and whenever
the core gives up) on the Python engines (``ktc.sim.machine``, ``ktc.sim.engines``),
which are the reference (``timing`` chooses; both give the same figures), then checks
that no engine is left waiting (a deadlock is an error listing every blocked engine,
cores in the same state grouped) and that the run is not faster than its roofline
bound. A run stops at its cycle budget
(``max_cycles``; by default ``BUDGET_FACTOR`` times the cycles to move every byte the
host allocated in device memory once at its bandwidth, plus ``BUDGET_FLOOR``) with an
error listing every engine that has not ended and what it does. With ``progress``
(a text stream; by default stderr when it is a terminal) a run longer than
``PROGRESS_AFTER_S`` shows its cycle, share of the budget and events per second. ``report()`` gives the figures of the last
execution; ``Simulator(..., trace="t.json")`` writes a Chrome trace of each execution.

Only the timing of the arch file is used; scalar and control instructions take no
cycles. An ``EngineBinary`` may carry ``locations`` (per pc, the ``file:line:col`` of
the IR op it came from); faults and deadlock reports then name that op too.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from ktc.arch.model import ENGINE, MEMORY, Device, Node
from ktc.codegen import isa
from ktc.codegen.binary import DataflowBinary, EngineBinary, Unit
from ktc.errors import KtcError
from ktc.codegen.package import Package
from ktc.runtime.device import DeviceError
from ktc.runtime.executable import Executable, prepare
from ktc.sim import compiled
from ktc.sim.engines import Engine, Run, steps_of
from ktc.sim.machine import Machine, OverBudget, PastBudget, SimError
from ktc.sim.memory import Memory, OutOfBounds
from ktc.sim.report import Report, bound, engine_figures, ideal
from ktc.sim.trace import Trace

BUDGET_FACTOR = 1000
BUDGET_FLOOR = 1_000_000
"""The default cycle budget: ``BUDGET_FACTOR`` times the device-memory time of the
allocated bytes, plus ``BUDGET_FLOOR`` (kernels with little data)."""
PROGRESS_AFTER_S = 2.0
"""Wall seconds a run goes before it shows progress."""
PROGRESS_EVERY_S = 0.5
TIMINGS = ("compiled", "python")
"""Who runs the engines: the compiled core (``ktc.sim.compiled``; the default when it is
built) or the Python engines (the reference; also what a run with a trace uses)."""


def default_timing() -> str:
    """The compiled core where it is built, else the Python engines."""
    return "compiled" if compiled.available() else "python"


@dataclass
class Loaded:
    """A dataflow placed on the device: its nodes and decoded programs."""

    binary: DataflowBinary
    nodes: list[Node]
    programs: list[list[isa.Instruction]]


class Simulator:
    """The simulated chip (see the module docstring)."""

    def __init__(self, arch: str | Path | Device = "spyre", trace: str | Path | None = None,
                 max_cycles: int | None = None, progress=None, timing: str | None = None):
        self.device = arch if isinstance(arch, Device) else Device.load(arch)
        self.device.require_timing()
        self.arch_name = self.device.name
        self.arch_hash = self.device.content_hash
        self.trace_path = trace
        if max_cycles is not None and max_cycles <= 0:
            raise DeviceError(f"the cycle budget must be positive, not {max_cycles}")
        self.max_cycles = max_cycles
        timing = timing or default_timing()
        if timing not in TIMINGS:
            raise DeviceError(f"no timing \"{timing}\": choose {' or '.join(TIMINGS)}")
        if timing == "compiled" and not compiled.available():
            raise DeviceError("the compiled timing core is not built (pip install the package)")
        self.timing = timing
        self.progress = progress if progress is not None else (sys.stderr if sys.stderr.isatty() else None)
        self._memories: dict[int, Memory] = {}
        self._loaded: list[Loaded] = []
        self._report: Report | None = None
        self._arrays: dict[int, int] = {}
        """Bytes of each array the host wrote into device memory for the current launch
        (by address): what the ideal reads or writes once."""
        self._launched = False
        """An execution ran since the host's last write: its next write starts a launch."""
        self.ran_on: str | None = None
        """Who ran the engines of the last execution (``TIMINGS``)."""

    # Host memory operations -----------------------------------------------------------

    def alignment(self, memory: str) -> int:
        return self.device.alignment(self._kind(memory))

    def allocate(self, memory: str, nbytes: int, alignment: int) -> int:
        return self._host(memory, lambda m: m.allocate(nbytes, alignment))

    def write(self, memory: str, address: int, data) -> None:
        self._host(memory, lambda m: m.write(address, np.frombuffer(data, np.uint8)))
        if self._kind(memory) == self.device.device_memory:
            if self._launched:
                self._arrays, self._launched = {}, False
            self._arrays[address] = len(data)

    def read(self, memory: str, address: int, nbytes: int) -> memoryview:
        return self._host(memory, lambda m: memoryview(m.read(address, address + nbytes)))

    def _host(self, kind: str, action: Callable[[Memory], object]):
        nodes = [n for n in self.device.instances(self._kind(kind)) if n.core is None]
        if not nodes or nodes[0].role != MEMORY:
            raise DeviceError(f"the host reaches no memory \"{kind}\" on @{self.arch_name}")
        try:
            return action(self._memory(nodes[0]))
        except OutOfBounds as error:
            raise DeviceError(str(error)) from None

    def memory_of(self, kind: str, core: int = 0, subcore: int = 0) -> Memory:
        """The memory instance of ``kind`` in ``core`` and ``subcore`` (for tools and
        tests: scratchpads are out of the host's reach)."""
        node = self._node(Unit(kind, core, subcore))
        if node.role != MEMORY:
            raise DeviceError(f"{node.name} is not a memory")
        return self._memory(node)

    def _memory(self, node: Node) -> Memory:
        if node.index not in self._memories:
            self._memories[node.index] = Memory(node.name, self.device.memory(node.kind).size)
        return self._memories[node.index]

    def _kind(self, kind: str) -> str:
        """The device's spelling of a unit kind (matched exactly, else ignoring case)."""
        known = list(self.device.memory_kinds) + list(self.device.engine_kinds)
        if kind in known:
            return kind
        matches = [k for k in known if k.lower() == kind.lower()]
        if len(matches) != 1:
            raise DeviceError(f"@{self.arch_name} has no unit kind \"{kind}\" (it has {', '.join(known)})")
        return matches[0]

    # Programs -------------------------------------------------------------------------

    def load(self, dataflow: DataflowBinary) -> int:
        nodes = [self._node(unit) for unit in dataflow.units]
        programs = [self._decode(dataflow, engine, engine.code) for engine in dataflow.engines]
        for engine in dataflow.engines:
            for index in engine.instances:
                if not 0 <= index < len(nodes) or nodes[index].role != ENGINE:
                    raise DeviceError(f"{dataflow.name}: program \"{engine.kind}\" runs on unit "
                                      f"{index}, which is not an engine of the unit table")
        self._loaded.append(Loaded(dataflow, nodes, programs))
        return len(self._loaded) - 1

    def patch(self, handle: int, engine: int, code: bytes) -> None:
        loaded = self._handle(handle)
        if not 0 <= engine < len(loaded.programs):
            raise DeviceError(f"{loaded.binary.name} has no engine program {engine}")
        loaded.programs[engine] = self._decode(loaded.binary, loaded.binary.engines[engine], code)

    def _node(self, unit: Unit) -> Node:
        kind = self._kind(unit.kind)
        try:
            return self.device.node(kind, max(unit.core, 0), unit.subcore)
        except KtcError as error:
            raise DeviceError(error.message) from None

    @staticmethod
    def _decode(dataflow: DataflowBinary, engine: EngineBinary, code: bytes) -> list[isa.Instruction]:
        try:
            return isa.decode(code)
        except isa.IsaError as error:
            raise DeviceError(f"{dataflow.name}: program \"{engine.kind}\": {error.message}") from None

    def _handle(self, handle: int) -> Loaded:
        if not 0 <= handle < len(self._loaded):
            raise DeviceError(f"no dataflow was loaded with handle {handle}")
        return self._loaded[handle]

    # Running --------------------------------------------------------------------------

    def execute(self, handle: int) -> None:
        loaded = self._handle(handle)
        started = time.perf_counter()
        machine = Machine(self.device)
        trace = Trace(self.device.name, self.device.clock_mhz) if self.trace_path else None
        memories = [self._memory(n) if n.role == MEMORY else None for n in loaded.nodes]
        run = Run(machine, loaded.nodes, memories, trace)
        for binary, program in zip(loaded.binary.engines, loaded.programs):
            costs = self.device.engine(binary.kind).scalar_cycles
            locate, steps = _locator(binary), steps_of(program, binary.uniforms, costs)
            for position, unit in enumerate(binary.instances):
                run.engines.append(Engine(run, unit, position, program, steps, binary.uniforms,
                                          locate))
        limit, why = self.budget()
        watch = Progress(self.progress, limit) if self.progress is not None else None
        try:
            with np.errstate(all="ignore"):
                self.ran_on = "compiled"
                if not (self.timing == "compiled" and trace is None and compiled.execute(run, limit, watch)):
                    self.ran_on = "python"
                    for engine in run.engines:
                        machine.at(0, engine.resume)
                    machine.run(limit, watch)
        except OverBudget:
            raise PastBudget(states(f"the run passed its cycle budget of {limit} cycles ({why}); "
                                    "--max-cycles sets another", run.engines), limit) from None
        finally:
            if watch is not None:
                watch.close()
            if trace is not None:
                trace.write(self.trace_path)
        blocked = [e for e in run.engines if not e.done]
        if blocked:
            raise SimError(deadlock(machine.now, blocked))
        cycles = max([machine.last_event] + [e.stats.busy_until for e in run.engines])
        self._launched = True
        arrays = sum(self._arrays.values())
        bound_cycles, binding, terms = bound(self.device, run, arrays)
        ideal_cycles, ideal_terms, ideal_bytes = ideal(self.device, run, arrays)
        kinds, instances = engine_figures(run.engines)
        self._report = Report(
            self.device.name, self.device.clock_mhz, cycles, bound_cycles, binding, terms,
            dict(run.memory_bytes), kinds, instances, time.perf_counter() - started,
            ideal_cycles, ideal_terms, ideal_bytes,
            run.machine.port_bytes.get(self.device.device_memory, 0),
            run.machine.port_read_bytes.get(self.device.device_memory, 0),
        )
        if cycles < bound_cycles:
            raise SimError(f"simulator bug: {loaded.binary.name} ran in {cycles} cycles, below its "
                           f"roofline bound of {bound_cycles} ({binding})")

    def budget(self) -> tuple[int, str]:
        """The cycle budget of a run, and where it comes from."""
        if self.max_cycles is not None:
            return self.max_cycles, "as asked"
        memory = self.device.device_memory
        allocated = sum(n for node, m in self._node_memories() if node.kind == memory
                        for _, n in m.allocations)
        per_cycle = self.device.roofline.device_memory_bytes_per_cycle or 1
        ideal = -(-allocated // per_cycle)
        return (BUDGET_FACTOR * ideal + BUDGET_FLOOR,
                f"{BUDGET_FACTOR} x the {ideal} cycles to move the {allocated} bytes allocated "
                f"in {memory} once, plus {BUDGET_FLOOR}")

    def _node_memories(self):
        nodes = self.device.nodes
        return [(nodes[index], memory) for index, memory in self._memories.items()]

    def report(self) -> Report:
        """The figures of the last execution."""
        if self._report is None:
            raise DeviceError("nothing has been executed yet")
        return self._report

    def prepare(self, package: Package) -> Executable:
        """``package`` prepared on this simulator (its prepare plan run once):
        ``ktc.Simulator("spyre").prepare(pkg).launch(x, y)``."""
        return prepare(package, self)


def _locator(binary: EngineBinary) -> Callable[[int], str | None]:
    """pc -> the IR location of the op it came from, or None when the binary does not
    record it."""
    locations = binary.locations
    return lambda pc: locations[pc] if 0 <= pc < len(locations) and locations[pc] else None


# ---------------------------------------------------------------------------------
# Deadlock report
# ---------------------------------------------------------------------------------


def deadlock(now: int, blocked: list[Engine]) -> str:
    """Every blocked engine and what it waits on; cores in the same state as ranges."""
    return states(f"deadlock at cycle {now}: {len(blocked)} engines wait forever", blocked)


def states(headline: str, engines: list[Engine]) -> str:
    """``headline``, then every engine that has not ended and what it does; cores in the
    same state as ranges."""
    groups: dict[tuple, list[int]] = {}
    for engine in engines:
        if engine.done:
            continue
        node = engine.node
        kind = node.kind if node.subcore is None else f"{node.kind}[c.{node.subcore}]"
        key = (kind, engine.where(engine.state()).split(" ", 1)[1])
        groups.setdefault(key, []).append(-1 if node.core is None else node.core)
    lines = [headline]
    for (kind, state), cores in groups.items():
        place = "" if cores == [-1] else f" on core{'s' * (len(cores) > 1)} {ranges(cores)}"
        lines.append(f"  {kind}{place} {state}")
    return "\n".join(lines)


def ranges(numbers: list[int]) -> str:
    """``0-3,8-11``."""
    numbers = sorted(set(numbers))
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


class Progress:
    """A run's progress on one line of a terminal: the cycle, its share of the budget and
    events per second, from ``PROGRESS_AFTER_S`` into the run, every ``PROGRESS_EVERY_S``."""

    def __init__(self, stream, limit: int):
        self.stream, self.limit = stream, limit
        self.started = time.perf_counter()
        self.next = self.started + PROGRESS_AFTER_S
        self.shown = False

    def __call__(self, now: int, events: int) -> None:
        clock = time.perf_counter()
        if clock < self.next:
            return
        self.next = clock + PROGRESS_EVERY_S
        rate = events / (clock - self.started)
        self.stream.write(f"\rcycle {now:,} ({now / self.limit:.1%} of the budget), "
                          f"{rate:,.0f} events/s ")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
