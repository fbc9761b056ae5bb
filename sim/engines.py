"""Engines: one interpreter per engine instance, executing decoded instructions.

An engine runs instructions until one takes time or cannot proceed, then hands control
back to the event queue (``hold``: go on at a later cycle; ``wait``: retry the
instruction at a cycle, or when another engine wakes it):

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
  without a signal are starved; ``ssend`` is posted: the engine goes on at once, and
  the signal leaves once the engine's earlier copies and stores have completed (the
  completion notice of the last of them).

Values follow ``ktc.sim.numerics``, the functions the reference interpreter uses; the
simulator runs them under one ``np.errstate(all="ignore")``. Each program is decoded
once into ``(handler, instruction, next pc)`` steps, which the engine's loop runs
(``ktc.sim.steps``: a run of instructions that take no time is one step).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from heapq import heappush

import numpy as np
from ktc.arch.model import MEMORY, Node
from ktc.codegen import isa
from ktc.codegen.integer import BINARY as ALU
from ktc.codegen.integer import DIVIDING, wrap
from ktc.dialects.diagnostics import KtcError
from ktc.sim import half, numerics
from ktc.sim.fifo import Fifo, Message, Signals
from ktc.sim.machine import Machine, SimError
from ktc.sim.matrix import vmma, vmma_value
from ktc.sim.memory import Memory, OutOfBounds, View
from ktc.sim.steps import compile_steps


SIGNED_LIMIT = 1 << 63
"""Scalar registers hold signed 64-bit values: ``-SIGNED_LIMIT <= s < SIGNED_LIMIT``."""

STEPS_WITHOUT_TIME = 10_000_000
"""Steps (``ktc.sim.steps``: an instruction, or a run of instructions that take no
time) an engine may run without a cycle passing before it is taken for an endless loop."""


class Fault(Exception):
    """A fault of the running instruction; the engine adds where it happened."""


# ---------------------------------------------------------------------------------
# Vector semantics
# ---------------------------------------------------------------------------------


def _elementwise(fn: np.ufunc) -> Callable:
    """``fn`` in float64 (int64 for integer types), rounded once to the result type."""

    def apply(ty: str, *xs):
        fast = half.binary(fn, ty, xs)
        if fast is not None:
            return fast
        compute = np.float64 if ty in numerics.FLOAT_TYPES else np.int64
        return numerics.rounding(ty)(fn(*xs, dtype=compute, casting="unsafe"))

    apply.any_type = True  # integer and floating-point types alike
    return apply


def _float(fn: Callable) -> Callable:
    """A float-only formula, evaluated in float64 and rounded once."""

    def apply(ty: str, *xs):
        if ty not in numerics.FLOAT_TYPES:
            raise Fault(f"expects a floating-point type, not {ty}")
        fast = half.binary(fn, ty, xs)
        if fast is not None:
            return fast
        return numerics.rounding(ty)(fn(*[np.asarray(x, np.float64) for x in xs]))

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
    "softplus": ("transcendental", numerics.softplus),
    "layernormscale": ("transcendental", numerics.layernormscale),
    "layernormnorm": ("plain", numerics.layernormnorm),
    "select": ("plain", numerics.select),
    "exx2_mean": ("plain", lambda ty, x: numerics.exx2(ty, x)[0]),
    "exx2_squares": ("plain", lambda ty, x: numerics.exx2(ty, x)[1]),
    "cmp_eq": ("plain", lambda ty, a, b: numerics.compare(ty, "equal", a, b)),
    "cmp_ne": ("plain", lambda ty, a, b: numerics.compare(ty, "notequal", a, b)),
    "cmp_gt": ("plain", lambda ty, a, b: numerics.compare(ty, "greaterthan", a, b)),
    "cmp_ge": ("plain", lambda ty, a, b: numerics.compare(ty, "greaterequal", a, b)),
    "cmp_lt": ("plain", lambda ty, a, b: numerics.compare(ty, "lesserthan", a, b)),
    "cmp_le": ("plain", lambda ty, a, b: numerics.compare(ty, "lesserequal", a, b)),
}
"""Per ``vop`` kind: its issue class (``ktdf_arch.ISSUE_CLASSES``) and its values
(computed under the run's ``np.errstate(all="ignore")``). ``softplus`` takes its
beta and threshold as f32 vectors after x."""


def from_bits(dtype: str, bits) -> np.ndarray:
    """Values of ``dtype`` from their storage bit patterns (int64s)."""
    storage = numerics.storage_dtype(dtype)
    unsigned = np.asarray(bits, np.int64).astype(np.dtype(f"u{storage.itemsize}"))
    return numerics.from_storage(dtype, unsigned.view(storage))


def vop_value(i: isa.Vop, operands: list[np.ndarray], scalar: int = 0) -> np.ndarray:
    return np.asarray(VECTOR_OPS[i.kind][1](i.dtype, *operands))


def vreduce_value(i: isa.Vreduce, operands: list[np.ndarray], scalar: int = 0) -> np.ndarray:
    """The fold in element 0 (``numerics.slice_reduction`` over the whole vector)."""
    (x,) = operands
    return np.asarray(numerics.slice_reduction(i.dtype, i.kind, "in_slice", x, x.shape[-1])[..., :1])


def vcvt_value(i: isa.Vcvt, operands: list[np.ndarray], scalar: int = 0) -> np.ndarray:
    """Floats to floats rounded, floats to integers truncated, integers converted."""
    (values,) = operands
    floats = numerics.FLOAT_TYPES
    round_to = numerics.rounding(i.dtype)
    if i.dtype in floats and i.source_type in floats:
        exact = half.widen(values) if (i.source_type, i.dtype) == ("f16", "f32") else None
        return exact if exact is not None else np.asarray(round_to(np.asarray(values, np.float64)))
    if i.source_type in floats:
        return np.asarray(round_to(np.trunc(np.asarray(values, np.float64))))
    return np.asarray(round_to(np.asarray(values, np.int64)))


def vbcast_value(i: isa.Vbcast, operands: list[np.ndarray], scalar: int = 0) -> np.ndarray:
    return np.repeat(operands[0], i.length, axis=-1)


def vconst_value(i: isa.Vconst, operands: list[np.ndarray], scalar: int = 0) -> np.ndarray:
    return _filled(i.dtype, i.values, i.length)


def vsplat_value(i: isa.Vsplat, operands: list[np.ndarray], scalar=0) -> np.ndarray:
    """``scalar``: the value of the source scalar register (an array of them: one
    vector each, as rows)."""
    if np.ndim(scalar):
        return np.broadcast_to(from_bits(i.dtype, scalar)[:, None], (len(scalar), i.length))
    return _filled(i.dtype, (wrap(scalar),), i.length)


@lru_cache(maxsize=4096)
def _filled(dtype: str, bits: tuple[int, ...], length: int) -> np.ndarray:
    """``length`` elements repeating the values of ``bits``, read-only: no instruction
    changes a vector in place, so registers share one array."""
    values = np.broadcast_to(from_bits(dtype, bits), (length,)).copy()
    values.flags.writeable = False
    return values


VALUES: dict[type, Callable[..., np.ndarray]] = {
    isa.Vop: vop_value,
    isa.Vreduce: vreduce_value,
    isa.Vcvt: vcvt_value,
    isa.Vbcast: vbcast_value,
    isa.Vconst: vconst_value,
    isa.Vsplat: vsplat_value,
    isa.Vmma: vmma_value,
}
"""The values of every instruction that makes a vector from others (or from nothing):
``VALUES[type(i)](i, operand values, scalar)``, apart from its timing. The handlers
below call them with one vector per operand; the compiled core's value pass
(``ktc.sim.compiled``) calls them once for many executions of an instruction, every
operand an array of vectors as rows (the last axis is the vector's), and expects
the results as rows too."""


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

    descriptors: int = 0
    """Descriptors of indirect copies it wrote (one per contiguous run)."""


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
        """Per core: bytes stored into its scratchpad by ``vst``."""

    def scratchpad_of(self, node: Node) -> int | None:
        """The core whose scratchpad ``node`` is (None for any other memory: a
        register file or a matrix unit's accumulators are not the feed and drain the
        bound counts)."""
        return node.core if node.kind == self.machine.device.scratchpad else None

    def fifo(self, source: int, target: int) -> Fifo:
        """The FIFO from unit ``source`` to unit ``target``: depth and beat from the
        queues on the route between them, which passes through no memory."""
        fifo = self.fifos.get((source, target))
        if fifo is None:
            a, b = self.node(source), self.node(target)
            links = self.machine.device.path(a, b)
            queues = [link.queue for link in links if link.queue is not None and link.queue.depth]
            through_memory = any(link.target.role == MEMORY for link in links)
            if not queues or through_memory:
                raise Fault(f"the arch file describes no FIFO from {a.name} to {b.name}")
            beat = min(queue.beat_bytes or 1 for queue in queues)
            depth = sum(q.depth for q in queues)
            fifo = Fifo(f"{a.name} -> {b.name}", depth, beat, self.machine.route(a, b), b.core)
            self.fifos[source, target] = fifo
        return fifo

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


STARVED = "starved"
BACKPRESSURED = "backpressured"
"""The kinds of wait counted in ``Stats``; a wait for the engine's own copies is not."""


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
        steps: list[tuple],
        uniforms: tuple[tuple[int, ...], ...],
        location: Callable[[int], str | None],
    ):
        self.run = run
        self.machine = run.machine
        self.unit = unit
        self.node = run.nodes[unit]
        self.name = self.node.name
        self.position = position
        """Its position among the instances of its binary (for ``uni``)."""
        self.program = program
        self.steps = steps
        """Per pc: the handler, the instruction and the pc after it; then the end
        (``ktc.sim.steps``)."""
        self.uniforms = uniforms
        self.location = location
        self.device_kind = run.machine.device.engine(self.node.kind)
        self.s = [0] * isa.REGISTERS["s"]
        self.v: list[tuple[str, np.ndarray] | None] = [None] * isa.REGISTERS["v"]
        self.ready = [0] * isa.REGISTERS["v"]
        self.d: list[View | None] = [None] * isa.REGISTERS["d"]
        self.pc = 0
        self.done = False
        self.block: tuple[str | None, str | Callable[..., str], tuple] | None = None
        """Why it does not proceed: the kind of wait (``STARVED``, ``BACKPRESSURED`` or
        None), and what it waits on as a text or a function of arguments (rendered
        when a deadlock is reported)."""
        self.blocked_since = 0
        self.outstanding = 0
        """Cycle by which its copies and stores have completed."""
        self.pending = 0
        """Cycles of the scalar and control instructions run since they were last
        spent (``charge``)."""
        self.writes: deque[tuple[int, int, int, int]] = deque()
        """Its copies in flight: when each completes, the unit and the bytes it writes
        (``ldx`` waits for those that write what it reads)."""
        self.describing: int | None = None
        """The pc of the ``dmai`` whose descriptor it has written and not yet issued."""
        self.last_run: tuple | None = None
        """Where the last ``dmai``'s copy ended (``_run_end``), for the next to continue."""
        self.copies: deque[int] = deque()
        """When each of its copies in flight completes, earliest first (kept where its
        kind limits them: ``outstanding``)."""
        self.stats = Stats()
        self.trace = run.trace
        self.sending: dict[int, Fifo] = {}
        self.receiving: dict[int, Fifo] = {}
        """The FIFOs to and from each peer unit it has used."""

    # Driving -----------------------------------------------------------------------

    def resume(self) -> None:
        """Run from the current pc until the engine waits, takes time or ends."""
        if self.block is not None:
            kind = self.block[0]
            if kind == STARVED:
                self.stats.starved += self.machine.now - self.blocked_since
            elif kind == BACKPRESSURED:
                self.stats.backpressured += self.machine.now - self.blocked_since
            self.block = None
        steps, pc = self.steps, self.pc
        try:
            for _ in range(STEPS_WITHOUT_TIME + 1):
                handler, instruction, following = steps[pc]
                self.pc = pc
                pc = handler(self, instruction, following)
                if pc is None:
                    return
        except (Fault, OutOfBounds) as fault:
            raise SimError(self.where(f"{fault}")) from None
        except KtcError as error:
            raise SimError(self.where(error.message)) from None
        self.pc = pc
        raise SimError(self.where(f"{STEPS_WITHOUT_TIME + 1} steps without a cycle "
                                  "passing: an endless loop?"))

    def hold(self, until: int, following: int) -> None:
        """Go on at ``following`` at cycle ``until`` (not before now: the instruction
        took time)."""
        self.pc = following
        machine = self.machine
        heappush(machine.events, (until, next(machine.order), self.resume))

    def wait(self, kind: str | None, until: int | None, what: str | Callable[..., str],
             *args) -> None:
        """Retry the current instruction at cycle ``until`` (later than now), or when
        woken if None."""
        machine = self.machine
        self.block, self.blocked_since = (kind, what, args), machine.now
        if until is not None:
            heappush(machine.events, (until, next(machine.order), self.resume))

    def state(self) -> str:
        """What the engine does, as a deadlock or budget report says it."""
        if self.block is None:
            return "runs"
        _, what, args = self.block
        return "waits for " + (what if isinstance(what, str) else what(*args))

    def where(self, message: str) -> str:
        """``SFU[0.0] pc 4 `vop.exp ...` (at file:line:col): message``."""
        text = render(self.program[self.pc]) if self.pc < len(self.program) else "end"
        location = self.location(self.pc)
        at = f" (at {location})" if location else ""
        return f"{self.name} pc {self.pc} `{text}`{at}: {message}"

    def busy(self, start: int, end: int, instruction: isa.Instruction | None) -> None:
        """Count ``[start, end)`` as busy (overlaps with earlier busy time once), for
        ``instruction`` (None: scalar and control instructions)."""
        stats = self.stats
        if end > stats.busy_until:
            stats.busy += end - max(start, stats.busy_until)
            stats.busy_until = end
        if self.trace is not None and end > start:
            kind = getattr(instruction, "kind", None)
            name = "scalar" if instruction is None else instruction.MNEMONIC
            self.trace.busy(self, f"{name}.{kind}" if kind else name, start, end)

    def charge(self) -> None:
        """Spend the cycles of the scalar and control instructions run since the last
        charge: busy for them, then on at the same pc."""
        now = self.machine.now
        until, self.pending = now + self.pending, 0
        self.busy(now, until, None)
        self.hold(until, self.pc)

    def starves_for(self, registers) -> bool:
        """Whether the vector registers' data is still on its way (the engine then
        waits for it)."""
        v, ready, until = self.v, self.ready, self.machine.now
        for register in registers:
            if v[register] is None:
                raise Fault(f"v{register} holds no vector")
            until = max(until, ready[register])
        if until == self.machine.now:
            return False
        self.wait(STARVED, until, "data arriving in a vector register")
        return True

    def starves_for_one(self, register: int) -> bool:
        """``starves_for((register,))``."""
        if self.v[register] is None:
            raise Fault(f"v{register} holds no vector")
        until = self.ready[register]
        if until <= self.machine.now:
            return False
        self.wait(STARVED, until, "data arriving in a vector register")
        return True

    def fifo_to(self, peer: int) -> Fifo:
        fifo = self.sending.get(peer)
        if fifo is None:
            fifo = self.sending[peer] = self.run.fifo(self.unit, peer)
        return fifo

    def fifo_from(self, peer: int) -> Fifo:
        fifo = self.receiving.get(peer)
        if fifo is None:
            fifo = self.receiving[peer] = self.run.fifo(peer, self.unit)
        return fifo

    def view(self, register: int) -> View:
        view = self.d[register]
        if view is None:
            raise Fault(f"d{register} holds no view")
        return view

    def row(self, instruction, length: int) -> View:
        """The elements a ``vld``/``vst`` touches, bounds-checked against the view."""
        s = self.s
        return self.view(instruction.view).row(tuple([s[r] for r in instruction.indices]), length)


# ---------------------------------------------------------------------------------
# Instruction handlers: each gets the engine, the instruction and the pc after it; it
# returns the pc to go on at, or None when the engine stops (it has then called
# ``hold`` or ``wait``, or ended).
# ---------------------------------------------------------------------------------


def _end(e: Engine, i: None, following: int):
    e.done = True


def _li(e: Engine, i: isa.Li, following: int):
    e.s[i.dst] = wrap(i.value)
    return following


def _uni(e: Engine, i: isa.Uni, following: int):
    if not 0 <= i.index < len(e.uniforms):
        raise Fault(f"uniform {i.index} does not exist ({len(e.uniforms)} uniforms)")
    e.s[i.dst] = wrap(e.uniforms[i.index][e.position])
    return following


def _mov(e: Engine, i: isa.Mov, following: int):
    e.s[i.dst] = e.s[i.src]
    return following


def _alu(e: Engine, i: isa.Alu, following: int):
    s = e.s
    value = ALU[i.op](s[i.a], s[i.b])
    s[i.dst] = value if -SIGNED_LIMIT <= value < SIGNED_LIMIT else wrap(value)
    return following


def _dividing_alu(e: Engine, i: isa.Alu, following: int):
    if e.s[i.b] == 0:
        raise Fault("division by zero")
    return _alu(e, i, following)


def _select(e: Engine, i: isa.Select, following: int):
    s = e.s
    s[i.dst] = s[i.a] if s[i.cond] else s[i.b]
    return following


def _loop(e: Engine, i: isa.Loop, following: int):
    s = e.s
    if s[i.step] <= 0:
        raise Fault(f"loop step {s[i.step]} is not positive")
    s[i.var] = s[i.lower]
    return following if s[i.var] < s[i.upper] else i.end


def _endloop(e: Engine, i: isa.EndLoop, following: int):
    s = e.s
    s[i.var] = wrap(s[i.var] + s[i.step])
    return i.body if s[i.var] < s[i.upper] else following


def _brz(e: Engine, i: isa.Brz, following: int):
    return i.target if e.s[i.cond] == 0 else following


def _jmp(e: Engine, i: isa.Jmp, following: int):
    return i.target


def _halt(e: Engine, i: isa.Halt, following: int):
    return len(e.program)


def _view(e: Engine, i: isa.View, following: int):
    e.run.memory(e.s[i.unit])
    e.d[i.dst] = View(e.s[i.unit], e.s[i.address], i.dtype, i.shape, i.strides)
    return following


def _dim(e: Engine, i: isa.Dim, following: int):
    view, size = e.view(i.view), e.s[i.size]
    if i.dimension >= len(view.shape):
        raise Fault(f"d{i.view} has {len(view.shape)} dimensions, no dimension {i.dimension}")
    if size < 0:
        raise Fault(f"dimension {i.dimension} of d{i.view} would be {size}")
    shape = view.shape[:i.dimension] + (size,) + view.shape[i.dimension + 1:]
    e.d[i.view] = replace(view, shape=shape)
    return following


def _dma(e: Engine, i: isa.Dma | isa.Dmaz | isa.Dmai | isa.Dmaiz, following: int):
    run, machine = e.run, e.machine
    limit, copies = e.device_kind.outstanding, e.copies
    while copies and copies[0] <= machine.now:
        copies.popleft()
    if limit is not None and len(copies) >= limit:
        return e.wait(None, copies[0], f"one of its {limit} copies in flight to complete")
    source, target = e.view(i.src), e.view(i.dst)
    if not _copyable(source, target, isinstance(i, (isa.Dmaz, isa.Dmaiz))):
        raise Fault(f"copies {list(source.shape)}x{source.dtype} into "
                    f"{list(target.shape)}x{target.dtype}")
    read, written = run.memory(source.unit), run.memory(target.unit)
    read.check(*source.span())
    written.check(*target.span())
    start, _, arrival = machine.transfer((
        (machine.route(run.nodes[source.unit], e.node), *source.runs()),
        (machine.route(e.node, run.nodes[target.unit]), *target.runs()),
    ))
    done = max(arrival, e.outstanding)
    e.outstanding = done
    if limit is not None:
        copies.append(done)
    writes = e.writes
    while writes and writes[0][0] <= machine.now:
        writes.popleft()
    writes.append((done, target.unit, *target.span()))
    machine.at(done, lambda: written.store(target, in_corner(read.load(source), target.shape)))
    run.memory_bytes[run.nodes[source.unit].kind] += source.nbytes
    run.memory_bytes[run.nodes[target.unit].kind] += target.nbytes
    e.busy(start, done, i)
    return following


def _ldx(e: Engine, i: isa.Ldx, following: int):
    """Reads one index once the engine's copies in flight that write it are done."""
    view = e.view(i.view)
    if not view.dtype.startswith("i"):
        raise Fault(f"ldx reads an index from a view of {view.dtype}")
    row = view.row(tuple([e.s[r] for r in i.indices]), 1)
    lo, hi = row.span()
    pending = [done for done, unit, start, end in e.writes
               if done > e.machine.now and unit == row.unit and start < hi and lo < end]
    if pending:
        return e.wait(None, max(pending), "its copy of the index to complete")
    e.s[i.dst] = int(e.run.memory(row.unit).load(row)[0])
    return following


def _dmai(e: Engine, i: isa.Dmai | isa.Dmaiz, following: int):
    """A ``dma`` whose descriptor the engine writes first, unless the copy continues
    the previous ``dmai`` (both sides contiguous and adjacent): one descriptor per
    contiguous run."""
    source, target = e.view(i.src), e.view(i.dst)
    if e.describing != e.pc:
        e.describing = e.pc
        cycles = e.device_kind.descriptor_cycles
        if cycles and not _continues(e.last_run, source, target):
            now = e.machine.now
            e.stats.descriptors += 1
            e.busy(now, now + cycles, i)
            return e.hold(now + cycles, e.pc)
    issued = _dma(e, i, following)
    if issued is not None:
        e.describing = None
        e.last_run = _run_end(source, target)
    return issued


def _run_end(source: View, target: View) -> tuple | None:
    """Where a copy of two contiguous views ends (units and byte addresses)."""
    if source.runs()[0] != 1 or target.runs()[0] != 1:
        return None
    return (source.unit, source.address + source.nbytes, target.unit, target.address + target.nbytes)


def _continues(last: tuple | None, source: View, target: View) -> bool:
    return (last is not None and source.runs()[0] == 1 and target.runs()[0] == 1
            and last == (source.unit, source.address, target.unit, target.address))


def _copyable(source: View, target: View, fill: bool) -> bool:
    """Whether a copy (``fill``: a ``dmaz``) may move ``source`` into ``target``."""
    if source.dtype != target.dtype or len(source.shape) != len(target.shape):
        return False
    return all(a <= b if fill else a == b for a, b in zip(source.shape, target.shape))


def in_corner(values: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``values`` at the leading corner of zeros of ``shape``."""
    if values.shape == shape:
        return values
    out = np.zeros(shape, values.dtype)
    out[tuple(slice(0, n) for n in values.shape)] = values
    return out


def _vld(e: Engine, i: isa.Vld, following: int):
    run, machine = e.run, e.machine
    row = e.row(i, i.length)
    node = run.nodes[row.unit]
    values = run.memory(row.unit).load(row)
    start, sent, arrival = machine.transfer(((machine.route(node, e.node), *row.runs()),))
    e.v[i.dst], e.ready[i.dst] = (row.dtype, values), arrival
    nbytes = row.nbytes
    run.memory_bytes[node.kind] += nbytes
    if (core := run.scratchpad_of(node)) is not None:
        run.feed_bytes[core] += nbytes
    e.busy(start, sent, i)
    return e.hold(sent, following) if sent > machine.now else following


def _vst(e: Engine, i: isa.Vst, following: int):
    run, machine = e.run, e.machine
    if e.starves_for_one(i.src):
        return None
    dtype, values = e.v[i.src]
    row = e.row(i, len(values))
    if dtype != row.dtype:
        raise Fault(f"stores {dtype} elements into a view of {row.dtype}")
    node = run.nodes[row.unit]
    run.memory(row.unit).store(row, values)
    start, sent, arrival = machine.transfer(((machine.route(e.node, node), *row.runs()),))
    e.outstanding = max(e.outstanding, arrival)
    nbytes = row.nbytes
    run.memory_bytes[node.kind] += nbytes
    if (core := run.scratchpad_of(node)) is not None:
        run.drain_bytes[core] += nbytes
    e.busy(start, sent, i)
    return e.hold(sent, following) if sent > machine.now else following


def _send(e: Engine, i: isa.Send, following: int):
    if e.starves_for_one(i.src):
        return None
    fifo = e.fifo_to(e.s[i.peer])
    dtype, values = e.v[i.src]
    nbytes = values.size * numerics.bytes_per_element(dtype)
    beats = fifo.beats(nbytes)
    if fifo.occupancy + beats > fifo.depth:
        fifo.waiting.append(e)
        return e.wait(BACKPRESSURED, None, _fifo_state, "room in", fifo, i.id, e)
    machine = e.machine
    start, sent, arrival = machine.transfer(((fifo.route, 1, nbytes),))
    fifo.push(Message(i.id, dtype, values, beats, arrival))
    _fifo_changed(e.run, fifo)
    e.busy(start, sent, i)
    return e.hold(sent, following) if sent > machine.now else following


def _recv(e: Engine, i: isa.Recv, following: int):
    fifo = e.fifo_from(e.s[i.peer])
    if not fifo.messages:
        fifo.waiting.append(e)
        return e.wait(STARVED, None, _fifo_state, "data in", fifo, i.id, e)
    head = fifo.messages[0]
    if head.id != i.id or head.dtype != i.dtype or head.values.size != i.length:
        raise Fault(f"expects id {i.id}: {i.length}x{i.dtype}, but the FIFO {fifo.name} "
                    f"holds id {head.id}: {head.values.size}x{head.dtype} first")
    now = e.machine.now
    if head.arrival > now:
        return e.wait(STARVED, head.arrival, "a vector on its way")
    fifo.pop()
    _fifo_changed(e.run, fifo)
    e.v[i.dst], e.ready[i.dst] = (head.dtype, head.values), now
    return following


def _fifo_changed(run: Run, fifo: Fifo) -> None:
    if run.trace is not None:
        run.trace.counter(fifo, run.machine.now)
    if fifo.waiting:
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


def _ssend(e: Engine, i: isa.Ssend, following: int):
    """Posted: the engine goes on; the signal leaves once its earlier copies and
    stores have completed."""
    run = e.run
    peer = e.s[i.peer]
    run.node(peer)
    key = (e.unit, peer, i.id)
    if e.outstanding > e.machine.now:
        e.machine.at(e.outstanding, lambda: run.wake(run.signals.send(key)))
    else:
        run.wake(run.signals.send(key))
    return following


def _srecv(e: Engine, i: isa.Srecv, following: int):
    run = e.run
    peer = e.s[i.peer]
    key = (peer, e.unit, i.id)
    if run.signals.take(key):
        return following
    run.signals.wait(key, e)
    return e.wait(STARVED, None, _signal_state, i.id, run.node(peer).name, e)


def _signal_state(id_: int, peer: str, engine: Engine) -> str:
    return f"signal id {id_} from {_relative(peer, engine)}"


def _vop(e: Engine, i: isa.Vop, following: int):
    if e.starves_for(i.sources):
        return None
    if i.kind not in VECTOR_OPS:
        raise Fault(f"the simulator has no semantics for vop.{i.kind}")
    op_class = VECTOR_OPS[i.kind][0]
    operands = [e.v[r] for r in i.sources]
    length = operands[0][1].size
    for dtype, values in operands:
        if dtype != i.source_type or values.size != length:
            shown = ", ".join(f"{values.size}x{dtype}" for dtype, values in operands)
            raise Fault(f"expects operands of one length of {i.source_type}, got {shown}")
    values = vop_value(i, [values for _, values in operands])
    cycles = -(-length // _lanes(e, i.dtype)) * e.device_kind.issue_cycles[op_class]
    return _computed(e, i, i.dtype, values, cycles, following)


def _vreduce(e: Engine, i: isa.Vreduce, following: int):
    """A horizontal fold: the vector's beats folded into one (plain issues), then
    ``log2(lanes)`` reduction steps; values by ``numerics.slice_reduction``."""
    if e.starves_for((i.src,)):
        return None
    dtype, values = e.v[i.src]
    if dtype != i.dtype or not values.size:
        raise Fault(f"folds {values.size}x{dtype} as {i.dtype}")
    lanes = _lanes(e, dtype)
    issue = e.device_kind.issue_cycles
    steps = max(1, (min(values.size, lanes) - 1).bit_length())
    cycles = (-(-values.size // lanes) - 1) * issue["plain"] + steps * issue["reduction_step"]
    return _computed(e, i, dtype, vreduce_value(i, [values]), cycles, following)


def _vcvt(e: Engine, i: isa.Vcvt, following: int):
    if e.starves_for((i.src,)):
        return None
    dtype, values = e.v[i.src]
    if dtype != i.source_type:
        raise Fault(f"converts {dtype} elements as {i.source_type}")
    beats = max(-(-values.size // _lanes(e, t)) for t in (dtype, i.dtype))
    return _computed(e, i, i.dtype, vcvt_value(i, [values]),
                     beats * e.device_kind.issue_cycles["plain"], following)


def _computed(e: Engine, i: isa.Instruction, dtype: str, values, cycles: int, following: int):
    """Put a SIMD result in place after ``cycles`` issue cycles; the engine is held."""
    now = e.machine.now
    e.v[i.dst], e.ready[i.dst] = (dtype, np.asarray(values)), now + cycles
    e.stats.vector_cycles += cycles
    e.busy(now, now + cycles, i)
    return e.hold(now + cycles, following)


def _vbcast(e: Engine, i: isa.Vbcast, following: int):
    if e.starves_for((i.src,)):
        return None
    if not (e.device_kind.splat or e.device_kind.lanes):
        raise Fault(f"{e.node.kind} has neither SIMD lanes nor the splat feature in the arch file")
    dtype, values = e.v[i.src]
    if values.size != 1:
        raise Fault(f"broadcasts a vector of {values.size} elements, not one")
    e.v[i.dst], e.ready[i.dst] = (dtype, vbcast_value(i, [values])), e.machine.now
    return following


def _lanes(e: Engine, dtype: str) -> int:
    lanes = e.device_kind.lanes
    found = lanes.get(isa.ELEMENT_TYPES[dtype])
    if not found:
        raise Fault(f"{e.node.kind} has no SIMD lanes for {dtype}")
    return found


def _vconst(e: Engine, i: isa.Vconst, following: int):
    e.v[i.dst] = (i.dtype, vconst_value(i, []))
    e.ready[i.dst] = e.machine.now
    return following


def _vsplat(e: Engine, i: isa.Vsplat, following: int):
    e.v[i.dst] = (i.dtype, vsplat_value(i, [], e.s[i.src]))
    e.ready[i.dst] = e.machine.now
    return following


def _vmov(e: Engine, i: isa.Vmov, following: int):
    if e.v[i.src] is None:
        raise Fault(f"v{i.src} holds no vector")
    e.v[i.dst], e.ready[i.dst] = e.v[i.src], e.ready[i.src]
    return following


def _unknown(e: Engine, i: isa.Instruction, following: int):
    raise Fault(f"the simulator cannot execute {i.MNEMONIC}")


def steps_of(program: list[isa.Instruction], uniforms: tuple[tuple[int, ...], ...],
             costs: Mapping[str, int] | None = None) -> list[tuple]:
    """The steps an engine runs ``program`` by (shared by the instances of a binary);
    ``costs``: its kind's ``scalar_cycles``."""
    return compile_steps(program, uniforms, _handler, _end, Fault, costs, _charged)


def _charged(handler: Callable) -> Callable:
    """``handler``, run once the engine has spent its pending scalar and control cycles."""

    def step(e: Engine, i: isa.Instruction, following: int):
        if e.pending:
            return e.charge()
        return handler(e, i, following)

    return step


def _handler(instruction: isa.Instruction) -> Callable:
    if isinstance(instruction, isa.Alu) and instruction.op in DIVIDING:
        return _dividing_alu
    return HANDLERS.get(type(instruction), _unknown)


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
    isa.Dmaz: _dma,
    isa.Ldx: _ldx,
    isa.Dmai: _dmai,
    isa.Dmaiz: _dmai,
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
    isa.Vmma: vmma,
}
