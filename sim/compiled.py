"""The compiled timing core (``sim/_core.c``) and the value pass that follows it.

The Python engines (``ktc.sim.engines``) are the reference; this module runs the same
programs on the compiled core, which schedules every event exactly as they do (the
same queue order, reservations, FIFOs and signals) and so gives the same cycles and
figures, without computing a single element. Timing never depends on element values
(no instruction moves vector data into a scalar register), so values are computed
afterwards, from the core's *log*: every vector an instruction makes (a load, a
``vop``...) and every store and completed DMA copy, in the order they happened.
Replaying the log on the memories gives the bytes the Python engines would have left
there. The one place values would have to reach timing is an instruction whose time
or address depends on vector data (indirect access, when the ISA gains it): its
encoder below would have to send the core back for the values logged so far.

The core handles what its instruction table (``ENCODERS``) describes and nothing
else: an instruction without an encoder, or one the table cannot run exactly (a
type without lanes, an operation without semantics), becomes a *bail* instruction,
and any fault, deadlock or pass of the cycle budget also makes the core give up; the
caller then runs the Python engines from the start, which report it as they always
do (the core changes no memory, so the second run starts from the same state). A
new engine kind's instructions therefore run on the Python engines until an encoder
and an opcode of the core describe them.

Log entries (int64 words): ``LOAD vid unit address type length stride``, ``STORE vid
unit address type length stride``, ``OP vid engine pc n sources...`` (``n = -1``: one
scalar value follows instead) and ``DMA view view``, a view being ``unit address
type rank shape... strides...``; types are indices into ``isa.TYPES``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
from ktc.codegen import isa
from ktc.codegen.integer import wrap
from ktc.sim import numerics
from ktc.sim.engines import VALUES, VECTOR_OPS, Run
from ktc.sim import machine as event_queue
from ktc.sim.memory import View

try:
    from ktc.sim import _core
except ImportError:  # not built (a source tree without ``pip install``)
    _core = None

TYPE_CODES = {name: code for code, name in enumerate(isa.TYPES)}
BYTES_PER_TYPE = tuple(numerics.bytes_per_element(name) for name in isa.TYPES)


def available() -> bool:
    """Whether the compiled core is built."""
    return _core is not None


# ---------------------------------------------------------------------------------
# Encoding programs for the core
# ---------------------------------------------------------------------------------

Encoded = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class Unsupported(Exception):
    """The core cannot run this instruction exactly as the Python engines do."""


def _op(name: str) -> int:
    return _core.OPS.index(name)


def _type(name: str) -> int:
    return TYPE_CODES[name]


def _lanes(kind, dtype: str) -> int:
    return kind.lanes.get(isa.ELEMENT_TYPES[dtype]) or 0


def _issue(kind, op_class: str) -> int:
    if op_class not in kind.issue_cycles:
        raise Unsupported(op_class)
    return kind.issue_cycles[op_class]


def _vop(i: isa.Vop, kind) -> tuple:
    if i.kind not in VECTOR_OPS:
        raise Unsupported(i.kind)
    op_class, fn = VECTOR_OPS[i.kind]
    if not getattr(fn, "any_type", False) and i.dtype not in numerics.FLOAT_TYPES:
        raise Unsupported(i.dtype)
    fields = (_type(i.dtype), _type(i.source_type), i.dst, _issue(kind, op_class), _lanes(kind, i.dtype))
    return fields, tuple(i.sources)


def _vreduce(i: isa.Vreduce, kind) -> tuple:
    try:
        numerics.slice_reduction(i.dtype, i.kind, "in_slice", np.zeros(1), 1)
    except (ValueError, TypeError):
        raise Unsupported(i.kind) from None
    return (_type(i.dtype), i.dst, i.src, _lanes(kind, i.dtype), _issue(kind, "plain"),
            _issue(kind, "reduction_step")), ()


def _view(i: isa.View, kind) -> tuple:
    if len(i.shape) != len(i.strides) or len(i.shape) > _core.MAX_DIMENSIONS:
        raise Unsupported("rank")
    return (i.dst, i.unit, i.address, _type(i.dtype), len(i.shape)), tuple(i.shape), tuple(i.strides)


ENCODERS: dict[type, tuple[str, Callable]] = {
    isa.Li: ("li", lambda i, k: ((i.dst, wrap(i.value)),)),
    isa.Uni: ("uni", lambda i, k: ((i.dst, i.index),)),
    isa.Mov: ("mov", lambda i, k: ((i.dst, i.src),)),
    isa.Alu: ("alu", lambda i, k: ((_core.ALU_OPS.index(i.op), i.dst, i.a, i.b),)),
    isa.Select: ("select", lambda i, k: ((i.dst, i.cond, i.a, i.b),)),
    isa.Loop: ("loop", lambda i, k: ((i.var, i.lower, i.upper, i.step, i.end),)),
    isa.EndLoop: ("endloop", lambda i, k: ((i.var, i.upper, i.step, i.body),)),
    isa.Brz: ("brz", lambda i, k: ((i.cond, i.target),)),
    isa.Jmp: ("jmp", lambda i, k: ((i.target,),)),
    isa.Halt: ("halt", lambda i, k: ((),)),
    isa.View: ("view", _view),
    isa.Dim: ("dim", lambda i, k: ((i.view, i.size, i.dimension),)),
    isa.Dma: ("dma", lambda i, k: ((i.src, i.dst),)),
    isa.Vld: ("vld", lambda i, k: ((i.dst, i.view, i.length), tuple(i.indices))),
    isa.Vst: ("vst", lambda i, k: ((i.src, i.view), tuple(i.indices))),
    isa.Send: ("send", lambda i, k: ((i.src, i.peer, i.id),)),
    isa.Recv: ("recv", lambda i, k: ((i.dst, i.peer, i.id, _type(i.dtype), i.length),)),
    isa.Ssend: ("ssend", lambda i, k: ((i.peer, i.id),)),
    isa.Srecv: ("srecv", lambda i, k: ((i.peer, i.id),)),
    isa.Vop: ("vop", _vop),
    isa.Vconst: ("vconst", lambda i, k: ((i.dst, _type(i.dtype), i.length),)),
    isa.Vsplat: ("vsplat", lambda i, k: ((i.dst, i.src, _type(i.dtype), i.length),)),
    isa.Vmov: ("vmov", lambda i, k: ((i.dst, i.src),)),
    isa.Vreduce: ("vreduce", _vreduce),
    isa.Vbcast: ("vbcast", lambda i, k: ((i.dst, i.src, i.length, int(bool(k.splat or k.lanes))),)),
    isa.Vcvt: ("vcvt", lambda i, k: ((_type(i.dtype), _type(i.source_type), i.dst, i.src,
                                      _lanes(k, i.source_type), _lanes(k, i.dtype),
                                      _issue(k, "plain")),)),
}
"""Per instruction type: the core's opcode and ``(instruction, engine kind) ->
(fields, list, list2)`` (trailing parts may be left out)."""


def encode(instruction: isa.Instruction, kind) -> Encoded:
    """One instruction as the core reads it: a bail instruction when it cannot run it."""
    entry = ENCODERS.get(type(instruction))
    if entry is None:
        return (_op("bail"), (), (), ())
    name, encoder = entry
    try:
        parts = encoder(instruction, kind)
    except (Unsupported, ValueError):
        return (_op("bail"), (), (), ())
    fields, first, second = (*parts, (), ())[:3]
    return (_op(name), tuple(fields), tuple(first), tuple(second))


# ---------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------


class _Tables:
    """Dense ids the core uses for hops and memory kinds, and the callbacks that
    describe routes, FIFOs and memories on first use."""

    def __init__(self, run: Run):
        self.run = run
        self.hops: dict[tuple, int] = {}
        self.kinds: dict[str, int] = {}

    def kind(self, name: str) -> int:
        return self.kinds.setdefault(name, len(self.kinds))

    def _route(self, route) -> tuple:
        hops = tuple((self.hops.setdefault(key, len(self.hops)), granularity, per_cycle,
                      -1 if memory is None else self.kind(memory), int(interconnect))
                     for key, granularity, per_cycle, memory, interconnect in route.plan)
        return route.latency, hops

    def route(self, a: int, b: int) -> tuple:
        nodes = self.run.nodes
        return self._route(self.run.machine.route(nodes[a], nodes[b]))

    def fifo(self, a: int, b: int) -> tuple:
        fifo = self.run.fifo(a, b)
        return fifo.depth, fifo.beat_bytes, self._route(fifo.route)

    def memory(self, unit: int) -> tuple:
        memory, node = self.run.memory(unit), self.run.nodes[unit]
        return (memory.size, self.kind(node.kind), -1 if node.core is None else node.core,
                tuple(memory.allocations))


def execute(run: Run, limit: int, watch: Callable[[int, int], None] | None) -> bool:
    """Run ``run``'s engines (already made, none started) on the compiled core, then
    put the values in the memories and the figures in ``run``, its engines and its
    machine; False (nothing changed) when the core gives up."""
    tables = _Tables(run)
    programs: dict[tuple[int, str], int] = {}
    encoded, instances = [], []
    for engine in run.engines:
        key = (id(engine.program), engine.node.kind)
        if key not in programs:
            kind = engine.device_kind
            programs[key] = len(encoded)
            uniforms = tuple(tuple(wrap(v) for v in row) for row in engine.uniforms)
            encoded.append((tuple(encode(i, kind) for i in engine.program), uniforms))
        instances.append((programs[key], engine.unit, engine.position))
    core = _core.Core(tuple(encoded), tuple(instances), BYTES_PER_TYPE, len(run.nodes),
                      tables.route, tables.fifo, tables.memory)
    while True:
        status, now, events, _ = core.run(limit, event_queue.WATCH_EVERY)
        if status != "more":
            break
        if watch is not None:
            watch(now, events)
    if status != "done":
        return False
    _record(run, tables, core.figures())
    return True


def _record(run: Run, tables: _Tables, figures: dict) -> None:
    """The core's figures into ``run``, then the values of its log into the memories."""
    kinds = list(tables.kinds)
    for engine, (busy, starved, backpressured, until, vector, done) in zip(run.engines, figures["engines"]):
        stats = engine.stats
        stats.busy, stats.starved, stats.backpressured = busy, starved, backpressured
        stats.busy_until, stats.vector_cycles = until, vector
        engine.done = bool(done)
    run.memory_bytes = Counter({kinds[k]: n for k, n in figures["memory_bytes"]})
    run.feed_bytes = Counter(figures["feed_bytes"])
    run.drain_bytes = Counter(figures["drain_bytes"])
    machine = run.machine
    machine.port_bytes = Counter({kinds[k]: n for k, n in figures["port_bytes"].items()})
    machine.port_latency = {kinds[k]: n for k, n in figures["port_latency"].items()}
    machine.interconnect_bytes = figures["interconnect_bytes"]
    machine.now, machine.last_event = figures["now"], figures["last_event"]
    replay(run, np.frombuffer(figures["log"], np.int64).tolist())


# ---------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------


def replay(run: Run, log: list[int]) -> None:
    """The values of the log, in its order, into the run's memories."""
    memories, engines, types = run.memories, run.engines, isa.TYPES
    values: list[np.ndarray] = []
    at, end = 0, len(log)
    while at < end:
        entry = log[at]
        if entry == _core.LOG_LOAD:
            _, vid, unit, address, dtype, length, stride = log[at:at + 7]
            values.append(memories[unit].load(View(unit, address, types[dtype], (length,), (stride,))))
            at += 7
        elif entry == _core.LOG_STORE:
            _, vid, unit, address, dtype, length, stride = log[at:at + 7]
            memories[unit].store(View(unit, address, types[dtype], (length,), (stride,)), values[vid])
            at += 7
        elif entry == _core.LOG_OP:
            _, vid, engine, pc, count = log[at:at + 5]
            at += 5
            instruction = engines[engine].program[pc]
            if count < 0:
                values.append(VALUES[type(instruction)](instruction, [], log[at]))
                at += 1
            else:
                operands = [values[v] for v in log[at:at + count]]
                values.append(VALUES[type(instruction)](instruction, operands))
                at += count
        else:
            source, at = _view(log, at + 1)
            target, at = _view(log, at)
            memories[target.unit].store(target, memories[source.unit].load(source))


def _view(log: list[int], at: int) -> tuple[View, int]:
    unit, address, dtype, rank = log[at:at + 4]
    at += 4
    shape, strides = tuple(log[at:at + rank]), tuple(log[at + rank:at + 2 * rank])
    return View(unit, address, isa.TYPES[dtype], shape, strides), at + 2 * rank
