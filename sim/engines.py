"""Engines: one interpreter per engine instance, executing decoded instructions.

An engine runs instructions until one takes time or cannot proceed, then hands control
back to the event queue:

- scalar, control, view and register-move instructions take no cycles (the arch file
  states no cost for them);
- ``vop`` holds the engine ``ceil(len / lanes) * issue_cycles[class]`` cycles, ``vcvt``
  as many plain issues as the wider side needs, ``vreduce`` the plain issues folding
  its beats into one plus ``ceil(log2(lanes))`` reduction steps;
- ``vld``, ``vst`` and ``send`` hold it while the block leaves over its route
  (:mod:`ktc.sim.machine`); a vector register is *ready* when its data has arrived,
  and an instruction reading it waits until then (counted as starved);
- ``dma`` starts a copy and goes on: the copy holds its route's resources and moves
  the data when it completes (both views are bounds-checked when it starts); copies
  of one engine complete in order;
- ``send`` on a full FIFO is back-pressured, ``recv`` on an empty one and ``srecv``
  without a signal are starved; ``ssend`` leaves once the engine's earlier copies and
  stores have completed.

Values follow ``ktc.sim.numerics``, the functions the reference interpreter uses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from ktc.arch.model import MEMORY, Node
from ktc.codegen import isa
from ktc.codegen.integer import BINARY as ALU
from ktc.codegen.integer import DIVIDING, wrap
from ktc.dialects.diagnostics import KtcError
from ktc.sim import numerics
from ktc.sim.fifo import Fifo, Message, Signals
from ktc.sim.machine import Leg, Machine, SimError
from ktc.sim.memory import Memory, OutOfBounds, View


STEPS_WITHOUT_TIME = 10_000_000
"""Instructions an engine may run without a cycle passing before it is taken for an
endless loop."""


class Fault(Exception):
    """A fault of the running instruction; the engine adds where it happened."""


# ---------------------------------------------------------------------------------
# Vector semantics
# ---------------------------------------------------------------------------------


def _elementwise(fn: Callable) -> Callable:
    """``fn`` in float64 (int64 for integer types), rounded once to the result type."""

    def apply(ty: str, *xs):
        compute = np.float64 if ty in numerics.FLOAT_TYPES else np.int64
        with np.errstate(all="ignore"):
            return numerics.round_to(ty, fn(*(np.asarray(x, compute) for x in xs)))

    return apply


def _float(fn: Callable) -> Callable:
    """A float-only formula, evaluated in float64 and rounded once."""

    def apply(ty: str, *xs):
        if ty not in numerics.FLOAT_TYPES:
            raise Fault(f"expects a floating-point type, not {ty}")
        with np.errstate(all="ignore"):
            return numerics.round_to(ty, fn(*(np.asarray(x, np.float64) for x in xs)))

    return apply


VECTOR_OPS: dict[str, tuple[str, Callable]] = {
    "add": ("plain", _elementwise(np.add)),
    "sub": ("plain", _elementwise(np.subtract)),
    "mul": ("plain", _elementwise(np.multiply)),
    "div": ("transcendental", _float(np.divide)),
    "max": ("plain", _elementwise(np.maximum)),
    "min": ("plain", _elementwise(np.minimum)),
    "neg": ("plain", _elementwise(np.negative)),
    "abs": ("plain", _elementwise(np.abs)),
    "exp": ("transcendental", numerics.exp),
    "sqrt": ("transcendental", numerics.sqrt),
    "rsqrt": ("transcendental", numerics.rsqrt),
    "reciprocal": ("transcendental", numerics.reciprocal),
    "sigmoid": ("transcendental", numerics.sigmoid),
    "tanh": ("transcendental", _float(np.tanh)),
    "gelu": ("transcendental", numerics.gelu),
    "silu": ("transcendental", numerics.silu),
    "fma": ("plain", _float(lambda a, b, c: a * b + c)),
}
"""Per ``vop`` kind: its issue class (``ktdf_arch.ISSUE_CLASSES``) and its values."""


def from_bits(dtype: str, bits) -> np.ndarray:
    """Values of ``dtype`` from their storage bit patterns (int64s)."""
    storage = numerics.storage_dtype(dtype)
    unsigned = np.asarray(bits, np.int64).astype(np.dtype(f"u{storage.itemsize}"))
    return numerics.from_storage(dtype, unsigned.view(storage))


# ---------------------------------------------------------------------------------
# Scalar semantics
# ---------------------------------------------------------------------------------


def render(instruction: isa.Instruction) -> str:
    """``vop.exp f16 f16 v2, [v1]``: an instruction as messages show it."""
    mnemonic, words = instruction.MNEMONIC, []
    for _, meta, value in isa.operands(instruction):
        slot, file = meta["slot"], meta.get("file")
        if slot == "variant":
            mnemonic += f".{value}"
        elif slot == "reg":
            words.append(f"{file}{value}")
        elif slot == "list":
            words.append("[" + ", ".join(f"{file or ''}{item}" for item in value) + "]")
        else:
            words.append(str(value))
    return " ".join([mnemonic, ", ".join(words)]).strip()


# ---------------------------------------------------------------------------------
# The run: what every engine of one execution shares
# ---------------------------------------------------------------------------------


@dataclass
class Stats:
    """Cycles of one engine instance."""

    busy: int = 0
    starved: int = 0
    backpressured: int = 0
    busy_until: int = 0
    """End of the busy time counted so far (intervals are merged)."""

    vector_cycles: int = 0
    """Issue cycles of its ``vop`` instructions."""


class Run:
    """One execution: the machine, the units, memories, FIFOs, signals and counters."""

    def __init__(self, machine: Machine, nodes: list[Node], memories: list[Memory | None], trace):
        self.machine = machine
        self.nodes = nodes
        """Per unit index, its device node."""
        self.memories = memories
        """Per unit index, its memory (None for an engine)."""
        self.trace = trace
        self.fifos: dict[tuple[int, int], Fifo] = {}
        self.signals = Signals()
        self.engines: list[Engine] = []
        self.memory_bytes: Counter[str] = Counter()
        """Bytes read plus written, per memory kind."""
        self.feed_bytes: Counter[int] = Counter()
        """Per core: bytes loaded from its scratchpad by ``vld``."""
        self.drain_bytes: Counter[int] = Counter()

    def fifo(self, source: int, target: int) -> Fifo:
        """The FIFO from unit ``source`` to unit ``target``: depth and beat from the
        queues on the route between them, which passes through no memory."""
        key = (source, target)
        if key not in self.fifos:
            a, b = self.node(source), self.node(target)
            links = self.machine.device.path(a, b)
            queues = [link.queue for link in links if link.queue is not None and link.queue.depth]
            through_memory = any(link.target.role == MEMORY for link in links)
            if not queues or through_memory:
                raise Fault(f"the arch file describes no FIFO from {a.name} to {b.name}")
            beat = min(queue.beat_bytes or 1 for queue in queues)
            self.fifos[key] = Fifo(f"{a.name} -> {b.name}", sum(q.depth for q in queues), beat, b.core)
        return self.fifos[key]

    def memory(self, unit: int) -> Memory:
        if not 0 <= unit < len(self.memories) or self.memories[unit] is None:
            raise Fault(f"unit {unit} is not a memory of this dataflow")
        return self.memories[unit]

    def node(self, unit: int) -> Node:
        if not 0 <= unit < len(self.nodes):
            raise Fault(f"unit {unit} is not in this dataflow's unit table ({len(self.nodes)} units)")
        return self.nodes[unit]

    def wake(self, engines: list[Engine]) -> None:
        for engine in engines:
            self.machine.at(self.machine.now, engine.resume)


@dataclass
class Block:
    """Why an engine does not proceed: until a cycle, or until someone wakes it."""

    kind: str | None
    """``starved``, ``backpressured``, or None (waiting for its own copies)."""
    until: int | None
    what: Callable[[], str]
    """What it waits on, rendered when a deadlock is reported."""


# ---------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------


class Engine:
    """One instance of an engine kind running its program."""

    def __init__(
        self,
        run: Run,
        unit: int,
        position: int,
        program: list[isa.Instruction],
        uniforms: tuple[tuple[int, ...], ...],
        location: Callable[[int], str | None],
    ):
        self.run = run
        self.unit = unit
        self.node = run.nodes[unit]
        self.name = self.node.name
        self.position = position
        """Its position among the instances of its binary (for ``uni``)."""
        self.program = program
        self.uniforms = uniforms
        self.location = location
        self.device_kind = run.machine.device.engine(self.node.kind)
        self.s = [0] * isa.REGISTERS["s"]
        self.v: list[tuple[str, np.ndarray] | None] = [None] * isa.REGISTERS["v"]
        self.ready = [0] * isa.REGISTERS["v"]
        self.d: list[View | None] = [None] * isa.REGISTERS["d"]
        self.pc = 0
        self.done = False
        self.block: Block | None = None
        self.blocked_since = 0
        self.outstanding = 0
        """Cycle by which its copies and stores have completed."""
        self.stats = Stats()

    # Driving -----------------------------------------------------------------------

    def resume(self) -> None:
        """Run from the current pc until the engine waits, takes time or ends."""
        now = self.run.machine.now
        if self.block is not None:
            if self.block.kind is not None:
                setattr(self.stats, self.block.kind, getattr(self.stats, self.block.kind)
                        + now - self.blocked_since)
            self.block = None
        program, steps = self.program, 0
        while self.pc < len(program):
            instruction = program[self.pc]
            handler = HANDLERS.get(type(instruction), _unknown)
            try:
                outcome = handler(self, instruction)
            except (Fault, OutOfBounds) as fault:
                raise SimError(self.where(f"{fault}")) from None
            except KtcError as error:
                raise SimError(self.where(error.message)) from None
            if outcome is None:
                steps += 1
                if steps > STEPS_WITHOUT_TIME:
                    raise SimError(self.where(f"{steps} instructions without a cycle passing: "
                                              "an endless loop?"))
                continue
            if isinstance(outcome, Block):
                self.block, self.blocked_since = outcome, now
                if outcome.until is not None:
                    self.run.machine.at(outcome.until, self.resume)
                return
            self.run.machine.at(outcome, self.resume)
            return
        self.done = True

    def where(self, message: str) -> str:
        """``SFU[0.0] pc 4 `vop.exp ...` (at file:line:col): message``."""
        text = render(self.program[self.pc]) if self.pc < len(self.program) else "end"
        location = self.location(self.pc)
        at = f" (at {location})" if location else ""
        return f"{self.name} pc {self.pc} `{text}`{at}: {message}"

    def busy(self, start: int, end: int, name: str) -> None:
        """Count ``[start, end)`` as busy (overlaps with earlier busy time once)."""
        stats = self.stats
        stats.busy += max(0, end - max(start, stats.busy_until))
        stats.busy_until = max(stats.busy_until, end)
        if self.run.trace is not None and end > start:
            self.run.trace.busy(self, name, start, end)

    def operands_ready(self, registers) -> Block | None:
        """A wait until the vector registers' data has arrived, or None."""
        for register in registers:
            if self.v[register] is None:
                raise Fault(f"v{register} holds no vector")
        until = max(self.ready[r] for r in registers)
        if until <= self.run.machine.now:
            return None
        return Block("starved", until, lambda: "data arriving in a vector register")

    def view(self, register: int) -> View:
        view = self.d[register]
        if view is None:
            raise Fault(f"d{register} holds no view")
        return view

    def row(self, instruction, length: int) -> View:
        """The elements a ``vld``/``vst`` touches, bounds-checked against the view."""
        index = tuple(self.s[r] for r in instruction.indices)
        return self.view(instruction.view).row(index, length)


# ---------------------------------------------------------------------------------
# Instruction handlers: each advances the pc when it completes and returns None (go
# on), a cycle (the engine is held until then) or a Block (retried when it ends).
# ---------------------------------------------------------------------------------


def _li(e: Engine, i: isa.Li):
    e.s[i.dst] = wrap(i.value)
    e.pc += 1


def _uni(e: Engine, i: isa.Uni):
    if not 0 <= i.index < len(e.uniforms):
        raise Fault(f"uniform {i.index} does not exist ({len(e.uniforms)} uniforms)")
    e.s[i.dst] = wrap(e.uniforms[i.index][e.position])
    e.pc += 1


def _mov(e: Engine, i: isa.Mov):
    e.s[i.dst] = e.s[i.src]
    e.pc += 1


def _alu(e: Engine, i: isa.Alu):
    if i.op in DIVIDING and e.s[i.b] == 0:
        raise Fault("division by zero")
    e.s[i.dst] = wrap(ALU[i.op](e.s[i.a], e.s[i.b]))
    e.pc += 1


def _select(e: Engine, i: isa.Select):
    e.s[i.dst] = e.s[i.a] if e.s[i.cond] else e.s[i.b]
    e.pc += 1


def _loop(e: Engine, i: isa.Loop):
    if e.s[i.step] <= 0:
        raise Fault(f"loop step {e.s[i.step]} is not positive")
    e.s[i.var] = e.s[i.lower]
    e.pc = e.pc + 1 if e.s[i.var] < e.s[i.upper] else i.end


def _endloop(e: Engine, i: isa.EndLoop):
    e.s[i.var] = wrap(e.s[i.var] + e.s[i.step])
    e.pc = i.body if e.s[i.var] < e.s[i.upper] else e.pc + 1


def _brz(e: Engine, i: isa.Brz):
    e.pc = i.target if e.s[i.cond] == 0 else e.pc + 1


def _jmp(e: Engine, i: isa.Jmp):
    e.pc = i.target


def _halt(e: Engine, i: isa.Halt):
    e.pc = len(e.program)


def _view(e: Engine, i: isa.View):
    e.run.memory(e.s[i.unit])
    e.d[i.dst] = View(e.s[i.unit], e.s[i.address], i.dtype, tuple(i.shape), tuple(i.strides))
    e.pc += 1


def _dim(e: Engine, i: isa.Dim):
    view, size = e.view(i.view), e.s[i.size]
    if i.dimension >= len(view.shape):
        raise Fault(f"d{i.view} has {len(view.shape)} dimensions, no dimension {i.dimension}")
    if size < 0:
        raise Fault(f"dimension {i.dimension} of d{i.view} would be {size}")
    shape = view.shape[:i.dimension] + (size,) + view.shape[i.dimension + 1:]
    e.d[i.view] = replace(view, shape=shape)
    e.pc += 1


def _dma(e: Engine, i: isa.Dma):
    run, machine = e.run, e.run.machine
    source, target = e.view(i.src), e.view(i.dst)
    if source.shape != target.shape or source.dtype != target.dtype:
        raise Fault(f"copies {list(source.shape)}x{source.dtype} into "
                    f"{list(target.shape)}x{target.dtype}")
    read, written = run.memory(source.unit), run.memory(target.unit)
    read.check(*source.span())
    written.check(*target.span())
    legs = [
        Leg(machine.route(run.nodes[source.unit], e.node), *source.runs()),
        Leg(machine.route(e.node, run.nodes[target.unit]), *target.runs()),
    ]
    transfer = machine.transfer(legs)
    done = max(transfer.arrival, e.outstanding)
    e.outstanding = done
    machine.at(done, lambda: written.store(target, read.load(source)))
    run.memory_bytes[run.nodes[source.unit].kind] += source.nbytes
    run.memory_bytes[run.nodes[target.unit].kind] += target.nbytes
    e.busy(transfer.start, done, "dma")
    e.pc += 1


def _vld(e: Engine, i: isa.Vld):
    run, machine = e.run, e.run.machine
    row = e.row(i, i.length)
    node = run.nodes[row.unit]
    values = run.memory(row.unit).load(row)
    transfer = machine.transfer([Leg(machine.route(node, e.node), *row.runs())])
    e.v[i.dst], e.ready[i.dst] = (row.dtype, values), transfer.arrival
    run.memory_bytes[node.kind] += row.nbytes
    if node.core is not None:
        run.feed_bytes[node.core] += row.nbytes
    e.busy(transfer.start, transfer.sent, "vld")
    e.pc += 1
    return transfer.sent if transfer.sent > machine.now else None


def _vst(e: Engine, i: isa.Vst):
    run, machine = e.run, e.run.machine
    wait = e.operands_ready([i.src])
    if wait:
        return wait
    dtype, values = e.v[i.src]
    row = e.row(i, len(values))
    if dtype != row.dtype:
        raise Fault(f"stores {dtype} elements into a view of {row.dtype}")
    node = run.nodes[row.unit]
    memory = run.memory(row.unit)
    memory.store(row, values)
    transfer = machine.transfer([Leg(machine.route(e.node, node), *row.runs())])
    e.outstanding = max(e.outstanding, transfer.arrival)
    run.memory_bytes[node.kind] += row.nbytes
    if node.core is not None:
        run.drain_bytes[node.core] += row.nbytes
    e.busy(transfer.start, transfer.sent, "vst")
    e.pc += 1
    return transfer.sent if transfer.sent > machine.now else None


def _send(e: Engine, i: isa.Send):
    run, machine = e.run, e.run.machine
    wait = e.operands_ready([i.src])
    if wait:
        return wait
    peer = e.s[i.peer]
    fifo = run.fifo(e.unit, peer)
    dtype, values = e.v[i.src]
    nbytes = values.size * numerics.bytes_per_element(dtype)
    if not fifo.fits(nbytes):
        fifo.waiting.append(e)
        return Block("backpressured", None, lambda: _fifo_state("room in", fifo, i.id, e))
    transfer = machine.transfer([Leg(machine.route(e.node, run.node(peer)), 1, nbytes)])
    fifo.push(Message(i.id, dtype, values, fifo.beats(nbytes), transfer.arrival))
    _fifo_changed(run, fifo)
    e.busy(transfer.start, transfer.sent, "send")
    e.pc += 1
    return transfer.sent if transfer.sent > machine.now else None


def _recv(e: Engine, i: isa.Recv):
    run, machine = e.run, e.run.machine
    fifo = run.fifo(e.s[i.peer], e.unit)
    if not fifo.messages:
        fifo.waiting.append(e)
        return Block("starved", None, lambda: _fifo_state("data in", fifo, i.id, e))
    head = fifo.messages[0]
    if (head.id, head.dtype, head.values.size) != (i.id, i.dtype, i.length):
        raise Fault(f"expects id {i.id}: {i.length}x{i.dtype}, but the FIFO {fifo.name} "
                    f"holds id {head.id}: {head.values.size}x{head.dtype} first")
    if head.arrival > machine.now:
        return Block("starved", head.arrival, lambda: "a vector on its way")
    fifo.pop()
    _fifo_changed(run, fifo)
    e.v[i.dst], e.ready[i.dst] = (head.dtype, head.values), machine.now
    e.pc += 1


def _fifo_changed(run: Run, fifo: Fifo) -> None:
    if run.trace is not None:
        run.trace.counter(fifo, run.machine.now)
    run.wake(fifo.take_waiting())


def _fifo_state(need: str, fifo: Fifo, id_: int, engine: Engine) -> str:
    return (f"{need} FIFO {_relative(fifo.name, engine)} (id {id_}): "
            f"{fifo.occupancy}/{fifo.depth} beats of {fifo.beat_bytes} B")


def _relative(text: str, engine: Engine) -> str:
    """``text`` with the engine's own core written ``c`` so that cores group."""
    core = engine.node.core
    if core is None:
        return text
    return text.replace(f"[{core}.", "[c.").replace(f"[{core}]", "[c]")


def _ssend(e: Engine, i: isa.Ssend):
    run = e.run
    if e.outstanding > run.machine.now:
        return Block(None, e.outstanding, lambda: "its copies to complete")
    peer = e.s[i.peer]
    run.node(peer)
    run.wake(run.signals.send((e.unit, peer, i.id)))
    e.pc += 1


def _srecv(e: Engine, i: isa.Srecv):
    run = e.run
    peer = e.s[i.peer]
    key = (peer, e.unit, i.id)
    if run.signals.take(key):
        e.pc += 1
        return None
    run.signals.wait(key, e)
    peer_name = run.node(peer).name
    return Block("starved", None, lambda: f"signal id {i.id} from {_relative(peer_name, e)}")


def _vop(e: Engine, i: isa.Vop):
    wait = e.operands_ready(i.sources)
    if wait:
        return wait
    if i.kind not in VECTOR_OPS:
        raise Fault(f"the simulator has no semantics for vop.{i.kind}")
    op_class, fn = VECTOR_OPS[i.kind]
    operands = [e.v[r] for r in i.sources]
    lengths = {values.size for _, values in operands}
    if any(dtype != i.source_type for dtype, _ in operands) or len(lengths) != 1:
        shown = ", ".join(f"{values.size}x{dtype}" for dtype, values in operands)
        raise Fault(f"expects operands of one length of {i.source_type}, got {shown}")
    values = fn(i.dtype, *(values for _, values in operands))
    cycles = -(-lengths.pop() // _lanes(e, i.dtype)) * e.device_kind.issue_cycles[op_class]
    return _computed(e, i, i.dtype, values, cycles)


def _vreduce(e: Engine, i: isa.Vreduce):
    """A horizontal fold: the vector's beats folded into one (plain issues), then
    ``log2(lanes)`` reduction steps; values by ``numerics.slice_reduction``."""
    wait = e.operands_ready([i.src])
    if wait:
        return wait
    dtype, values = e.v[i.src]
    if dtype != i.dtype or not values.size:
        raise Fault(f"folds {values.size}x{dtype} as {i.dtype}")
    lanes = _lanes(e, dtype)
    issue = e.device_kind.issue_cycles
    steps = max(1, (min(values.size, lanes) - 1).bit_length())
    cycles = (-(-values.size // lanes) - 1) * issue["plain"] + steps * issue["reduction_step"]
    folded = numerics.slice_reduction(dtype, i.kind, "in_slice", values, values.size)[:1]
    return _computed(e, i, dtype, folded, cycles)


def _vcvt(e: Engine, i: isa.Vcvt):
    wait = e.operands_ready([i.src])
    if wait:
        return wait
    dtype, values = e.v[i.src]
    if dtype != i.source_type:
        raise Fault(f"converts {dtype} elements as {i.source_type}")
    floats = numerics.FLOAT_TYPES
    if i.dtype in floats and dtype in floats:
        converted = numerics.round_to(i.dtype, np.asarray(values, np.float64))
    elif dtype in floats:
        converted = numerics.round_to(i.dtype, np.trunc(np.asarray(values, np.float64)))
    else:
        converted = numerics.round_to(i.dtype, np.asarray(values, np.int64))
    beats = max(-(-values.size // _lanes(e, t)) for t in (dtype, i.dtype))
    return _computed(e, i, i.dtype, converted, beats * e.device_kind.issue_cycles["plain"])


def _computed(e: Engine, i: isa.Instruction, dtype: str, values, cycles: int) -> int:
    """Put a SIMD result in place after ``cycles`` issue cycles; the engine is held."""
    now = e.run.machine.now
    e.v[i.dst], e.ready[i.dst] = (dtype, np.asarray(values)), now + cycles
    e.stats.vector_cycles += cycles
    kind = getattr(i, "kind", None)
    e.busy(now, now + cycles, f"{i.MNEMONIC}.{kind}" if kind else i.MNEMONIC)
    e.pc += 1
    return now + cycles


def _vbcast(e: Engine, i: isa.Vbcast):
    wait = e.operands_ready([i.src])
    if wait:
        return wait
    if not (e.device_kind.splat or e.device_kind.lanes):
        raise Fault(f"{e.node.kind} has neither SIMD lanes nor the splat feature in the arch file")
    dtype, values = e.v[i.src]
    if values.size != 1:
        raise Fault(f"broadcasts a vector of {values.size} elements, not one")
    e.v[i.dst], e.ready[i.dst] = (dtype, np.repeat(values, i.length)), e.run.machine.now
    e.pc += 1


def _lanes(e: Engine, dtype: str) -> int:
    lanes = e.device_kind.lanes
    found = lanes.get(dtype) or lanes.get(f"!spyreop.{dtype}")
    if not found:
        raise Fault(f"{e.node.kind} has no SIMD lanes for {dtype}")
    return found


def _vconst(e: Engine, i: isa.Vconst):
    values = from_bits(i.dtype, i.values)
    e.v[i.dst] = (i.dtype, np.broadcast_to(values, (i.length,)).copy())
    e.ready[i.dst] = e.run.machine.now
    e.pc += 1


def _vsplat(e: Engine, i: isa.Vsplat):
    values = from_bits(i.dtype, [wrap(e.s[i.src])])
    e.v[i.dst] = (i.dtype, np.broadcast_to(values, (i.length,)).copy())
    e.ready[i.dst] = e.run.machine.now
    e.pc += 1


def _vmov(e: Engine, i: isa.Vmov):
    if e.v[i.src] is None:
        raise Fault(f"v{i.src} holds no vector")
    e.v[i.dst], e.ready[i.dst] = e.v[i.src], e.ready[i.src]
    e.pc += 1


def _unknown(e: Engine, i: isa.Instruction):
    raise Fault(f"the simulator cannot execute {i.MNEMONIC}")


HANDLERS: dict[type, Callable] = {
    isa.Li: _li,
    isa.Uni: _uni,
    isa.Mov: _mov,
    isa.Alu: _alu,
    isa.Select: _select,
    isa.Loop: _loop,
    isa.EndLoop: _endloop,
    isa.Brz: _brz,
    isa.Jmp: _jmp,
    isa.Halt: _halt,
    isa.View: _view,
    isa.Dim: _dim,
    isa.Dma: _dma,
    isa.Vld: _vld,
    isa.Vst: _vst,
    isa.Send: _send,
    isa.Recv: _recv,
    isa.Ssend: _ssend,
    isa.Srecv: _srecv,
    isa.Vop: _vop,
    isa.Vconst: _vconst,
    isa.Vsplat: _vsplat,
    isa.Vmov: _vmov,
    isa.Vreduce: _vreduce,
    isa.Vbcast: _vbcast,
    isa.Vcvt: _vcvt,
}
