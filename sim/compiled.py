"""The compiled timing core (``sim/_core.c``) and the value pass that follows it.

The Python engines (``ktc.sim.engines``) are the reference; this module runs the same
programs on the compiled core, which schedules every event exactly as they do (the
same queue order, reservations, FIFOs and signals) and so gives the same cycles and
figures, without computing a single element. Timing never depends on element values
(no instruction moves vector data into a scalar register), so values are computed
afterwards, from the core's *log*: every vector an instruction makes (a load, a
``vop``...) and every store and completed DMA copy, in the order they happened. The
one place values would have to reach timing is an instruction whose time or address
depends on vector data (indirect access, when the ISA gains it): its encoder below
would have to send the core back for the values logged so far.

**Values in batches.** The core turns the log into a *plan* (``_core.c``: "The plan
of the values"): every entry gets a level, one more than the levels of what it
depends on (its operands; for a read of memory the last write of its bytes; for a
write the last write and the reads since), so entries of one level are independent
and can run in any order. Those of one level and one shape (every load of f16 rows
of 64 elements, every execution of one ``vop``) form a batch, which :func:`evaluate`
runs as one numpy call over all of them: vectors of one element type and length are
the rows of one array (a row is reused once the last level reading it has run; a
batch's vectors take consecutive rows, so its results are one block copy), and
the memories' pages are laid side by side in one byte arena, so a batch of loads is
one gather from it and a batch of stores one scatter. The value functions are the
Python engines' own (``ktc.sim.engines.VALUES``), applied to rows, so the memories
end with the same bytes.

The core handles what its instruction table (``ENCODERS``) describes and nothing
else: an instruction without an encoder, or one the table cannot run exactly (a
type without lanes, an operation without semantics), becomes a *bail* instruction,
and any fault or deadlock also makes the core give up; the caller then runs the
Python engines from the start, which report it as they always do (the core changes
no memory, so the second run starts from the same state). A pass of the cycle budget
stops the run at once (``OverBudget``), each engine's pc and what it waits for taken
from the core: the Python engines would reach the same cycle on the same events, only
many times slower. A
new engine kind's instructions therefore run on the Python engines until an encoder
and an opcode of the core describe them.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager

import numpy as np
from ktc.codegen import isa
from ktc.codegen.integer import wrap
from ktc.sim import matrix, numerics
from ktc.sim.engines import VALUES, VECTOR_OPS, Run, in_corner
from ktc.sim import machine as event_queue
from ktc.sim.machine import OverBudget
from ktc.sim.memory import View
from ktc.sim.steps import cost_class

try:
    from ktc.sim import _core
except ImportError:  # not built (a source tree without ``pip install``)
    _core = None

TYPE_CODES = {name: code for code, name in enumerate(isa.TYPES)}
BYTES_PER_TYPE = tuple(numerics.bytes_per_element(name) for name in isa.TYPES)
_BIT_TYPE = isa.TYPES.index("i1")


def available() -> bool:
    """Whether the compiled core is built."""
    return _core is not None


# ---------------------------------------------------------------------------------
# Encoding programs for the core
# ---------------------------------------------------------------------------------

Encoded = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


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


def _vmma(i: isa.Vmma, kind) -> tuple:
    unit = kind.matrix
    if unit is None or matrix.unfit(i, unit, kind.kind):
        raise Unsupported("matrix unit")
    return ((i.dst, i.acc, i.a, i.b, unit.cycles(i.m, i.k, i.n), unit.fill, unit.drain, _type(i.dtype)),
            (_type(i.source_type), i.m * i.k, i.k * i.n, i.m * i.n, i.m * i.k * i.n))


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
    isa.Dma: ("dma", lambda i, k: ((i.src, i.dst, k.outstanding or 0, 0),)),
    isa.Dmaz: ("dma", lambda i, k: ((i.src, i.dst, k.outstanding or 0, 1),)),
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
    isa.Vmma: ("vmma", _vmma),
}
"""Per instruction type: the core's opcode and ``(instruction, engine kind) ->
(fields, list, list2)`` (trailing parts may be left out)."""


def encode(instruction: isa.Instruction, kind) -> Encoded:
    """One instruction as the core reads it, with its scalar or control cycles: a bail
    instruction when it cannot run it."""
    entry = ENCODERS.get(type(instruction))
    if entry is None:
        return (_op("bail"), (), (), (), 0)
    name, encoder = entry
    try:
        parts = encoder(instruction, kind)
    except (Unsupported, ValueError):
        return (_op("bail"), (), (), (), 0)
    fields, first, second = (*parts, (), ())[:3]
    cycles = kind.scalar_cycles.get(cost_class(instruction), 0)
    return (_op(name), tuple(fields), tuple(first), tuple(second), cycles)


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
                      -1 if memory is None else self.kind(memory), int(interconnect), int(reads))
                     for key, granularity, per_cycle, memory, interconnect, reads in route.plan)
        return route.latency, hops

    def route(self, a: int, b: int) -> tuple:
        nodes = self.run.nodes
        return self._route(self.run.machine.route(nodes[a], nodes[b]))

    def fifo(self, a: int, b: int) -> tuple:
        fifo = self.run.fifo(a, b)
        return fifo.depth, fifo.beat_bytes, self._route(fifo.route)

    def memory(self, unit: int) -> tuple:
        memory, node = self.run.memory(unit), self.run.nodes[unit]
        core = self.run.scratchpad_of(node)
        return (memory.size, self.kind(node.kind), -1 if core is None else core,
                memory.page_bytes, tuple(memory.allocations))


def execute(run: Run, limit: int, watch: Callable[[int, int], None] | None) -> bool:
    """Run ``run``'s engines (already made, none started) on the compiled core, then
    put the values in the memories and the figures in ``run``, its engines and its
    machine; False (nothing changed) when the core gives up. Python's cycle collector
    is paused meanwhile: the run makes few objects, but enough to start collections
    that would walk every object of the process (a compiled module's IR too)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _execute(run, limit, watch)
    finally:
        if paused:
            gc.enable()


def _execute(run: Run, limit: int, watch: Callable[[int, int], None] | None) -> bool:
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
    if status == "over":
        _stopped(run, core.figures())
        raise OverBudget(limit)
    if status != "done":
        return False
    _record(run, tables, core.figures())
    evaluate(run, *core.plan())
    return True


_BLOCKED = (None, "its input (a FIFO or a signal)", "room in its output FIFO", "a copy or a signal")
"""What an engine the core stopped waits for, by the core's blocking code (``B_*``)."""


def _stopped(run: Run, figures: dict) -> None:
    """Where the core stopped each engine of ``run`` (its pc, whether it ended, what it
    waits for), for the budget's message; the run's values and figures are not made."""
    for engine, (*_, done, _steps, _macs, pc, block) in zip(run.engines, figures["engines"]):
        engine.done, engine.pc = bool(done), pc
        engine.block = None if _BLOCKED[block] is None else (None, _BLOCKED[block], ())


def _record(run: Run, tables: _Tables, figures: dict) -> None:
    """The core's figures into ``run``, its engines and its machine."""
    kinds = list(tables.kinds)
    for engine, (busy, starved, backpressured, until, vector, done, steps, macs, _pc, _block) in zip(
            run.engines, figures["engines"]):
        stats = engine.stats
        stats.busy, stats.starved, stats.backpressured = busy, starved, backpressured
        stats.busy_until, stats.vector_cycles = until, vector
        engine.done = bool(done)
        if steps:
            unit = matrix.accumulators(engine)
            unit.cycles, unit.macs = steps, macs
    run.memory_bytes = Counter({kinds[k]: n for k, n in figures["memory_bytes"]})
    run.feed_bytes = Counter(figures["feed_bytes"])
    run.drain_bytes = Counter(figures["drain_bytes"])
    machine = run.machine
    machine.port_bytes = Counter({kinds[k]: n for k, n in figures["port_bytes"].items()})
    machine.port_read_bytes = Counter({kinds[k]: n for k, n in figures["port_read_bytes"].items()})
    machine.port_latency = {kinds[k]: n for k, n in figures["port_latency"].items()}
    machine.interconnect_bytes = figures["interconnect_bytes"]
    machine.now, machine.last_event = figures["now"], figures["last_event"]


# ---------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------


def evaluate(run: Run, plan: bytes, tables: tuple, segments: list, size: int) -> None:
    """The values of the core's plan (``_core.c``: the log in levels, each level in
    batches) into the run's memories: the touched pages are gathered into one arena,
    each batch is one gather, one value function or one scatter over all its entries
    (vectors of one table are the rows of one array), and the pages are the arena's."""
    memories = run.memories
    with _small_pages():
        space = np.zeros(size, np.uint8)
        rows = [np.empty((count, length), numerics.value_dtype(isa.TYPES[dtype]))
                for dtype, length, count in tables]
    for unit, first, pages, offset, page_bytes in segments:
        for k in range(pages):
            data = memories[unit].pages.get(first + k)
            if data is not None:
                space[offset + k * page_bytes:offset + (k + 1) * page_bytes] = data
    words = np.frombuffer(plan, np.int64)
    at, end = 0, len(words)
    while at < end:
        kind, count = words[at:at + 2].tolist()
        at = BATCHES[kind](run, space, rows, words, at, count)
    for unit, first, pages, offset, page_bytes in segments:
        for k in range(pages):
            memories[unit].pages[first + k] = space[offset + k * page_bytes:offset + (k + 1) * page_bytes]


@contextmanager
def _small_pages():
    """numpy's arrays made meanwhile without its request for huge pages. The value
    tables and the arena are hundreds of megabytes touched once; where the system has
    no free huge pages, the kernel compacts memory to find each one, which took 0.8 s
    for the large layernorm's 177 MB of rows against 0.15 s in ordinary pages."""
    toggle = getattr(np._core.multiarray, "_set_madvise_hugepage", None)
    was = toggle(False) if toggle else None
    try:
        yield
    finally:
        if toggle:
            toggle(was)


def _rows(space: np.ndarray, addresses: np.ndarray, dtype: str, length: int, stride: int):
    """The rows at ``addresses`` (bytes in ``space``), each ``length`` elements
    ``stride`` apart, as ``(array, index)``: ``array[index]`` reads them and assigning
    to it writes them. Where every address is aligned to the elements and the stride is
    positive, ``array`` is every such row of ``space`` at once (a strided view) and the
    index one number per row; otherwise the index is one per byte."""
    storage = numerics.storage_dtype(dtype)
    size = storage.itemsize
    if stride > 0 and not (addresses % size).any():
        flat = space.view(storage)
        windows = np.lib.stride_tricks.as_strided(
            flat, (flat.size - (length - 1) * stride, length), (size, stride * size))
        return windows, addresses // size
    steps = (np.arange(length) * stride * size)[:, None] + np.arange(size)
    return space, addresses[:, None, None] + steps


def _loads(run, space, rows, words, at, count):
    dtype, length, stride, table = words[at + 2:at + 6].tolist()
    addresses, where = words[at + 6:at + 6 + count], words[at + 6 + count:at + 6 + 2 * count]
    name = isa.TYPES[dtype]
    source, index = _rows(space, addresses, name, length, stride)
    raw = source[index]
    if raw.ndim == 3:
        raw = raw.reshape(count, -1).view(numerics.storage_dtype(name))
    _scatter(rows[table], where, numerics.from_storage(name, raw))
    return at + 6 + 2 * count


def _stores(run, space, rows, words, at, count):
    dtype, length, stride, table = words[at + 2:at + 6].tolist()
    addresses, where = words[at + 6:at + 6 + count], words[at + 6 + count:at + 6 + 2 * count]
    name = isa.TYPES[dtype]
    target, index = _rows(space, addresses, name, length, stride)
    stored = np.ascontiguousarray(numerics.to_storage(name, _gather(rows[table], where)), numerics.storage_dtype(name))
    target[index] = stored if index.ndim == 1 else stored.view(np.uint8).reshape(index.shape)
    return at + 6 + 2 * count


def _computes(run, space, rows, words, at, count):
    engine, pc, table, n = words[at + 2:at + 6].tolist()
    tables = words[at + 6:at + 6 + max(n, 0)].tolist()
    at += 6 + max(n, 0)
    where = words[at:at + count]
    at += count
    instruction = run.engines[engine].program[pc]
    if n < 0:
        scalars = words[at:at + count]
        _scatter(rows[table], where, VALUES[type(instruction)](instruction, [], scalars))
        return at + count
    operands = [_gather(rows[t], words[at + k * count:at + (k + 1) * count]) for k, t in enumerate(tables)]
    _scatter(rows[table], where, VALUES[type(instruction)](instruction, operands))
    return at + n * count


def _run(where: np.ndarray) -> slice | None:
    """``where`` as a slice when it is consecutive rows in ascending order (the plan
    gives a batch's vectors consecutive rows), so reading and writing them is one block
    copy, or none."""
    count = len(where)
    if not count or where[-1] - where[0] != count - 1 or (count > 1 and (np.diff(where) != 1).any()):
        return None
    return slice(int(where[0]), int(where[0]) + count)


def _gather(table: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Rows ``where`` of a table: a view of them when they are consecutive, else a copy
    (``np.take`` copies whole rows, several times faster than indexing, which walks them
    element by element)."""
    rows = _run(where)
    return table[rows] if rows is not None else np.take(table, where, axis=0)


def _scatter(table: np.ndarray, where: np.ndarray, values) -> None:
    """``table[where] = values`` (cast to the table's type, broadcast to its rows): one
    block copy into consecutive rows, else each row assigned as one opaque item of its
    bytes rather than element by element."""
    rows = _run(where)
    if rows is not None:
        table[rows] = values
        return
    if not table.shape[1]:
        return
    values = np.broadcast_to(np.asarray(values).astype(table.dtype, copy=False), (len(where), table.shape[1]))
    items = np.dtype((np.void, table.shape[1] * table.itemsize))
    table.view(items).reshape(-1)[where] = np.ascontiguousarray(values).view(items).reshape(-1)


def _copy(run, space, rows, words, at, count):
    """The copies from ``at`` on in the compiled core (bytes as they lie, but for ``i1``
    elements, made 0 or 1 as a value is), or this one here: views of two types, or whose
    bytes overlap."""
    made = _core.copies(space, words, at, BYTES_PER_TYPE, _BIT_TYPE)
    if made != at:
        return made
    dtype, source, at = _copied(space, words, at + 2)
    _, target, at = _copied(space, words, at)
    copied = numerics.to_storage(dtype, numerics.from_storage(dtype, source).copy())
    target[...] = in_corner(copied, target.shape)
    return at


def _copied(space: np.ndarray, words, at: int) -> tuple[str, np.ndarray, int]:
    """A copy's view in the plan (arena address, address, type, rank, shape, strides):
    its type and its elements in the arena."""
    address, _, dtype, rank = words[at:at + 4].tolist()
    shape, strides = words[at + 4:at + 4 + rank].tolist(), words[at + 4 + rank:at + 4 + 2 * rank].tolist()
    name = isa.TYPES[dtype]
    storage = numerics.storage_dtype(name)
    elements = np.ndarray(tuple(shape), storage, space, address, tuple(s * storage.itemsize for s in strides))
    return name, elements, at + 4 + 2 * rank


BATCHES = {} if _core is None else {
    _core.LOG_LOAD: _loads, _core.LOG_STORE: _stores, _core.LOG_OP: _computes, _core.LOG_DMA: _copy}
"""Per batch kind of the plan, its evaluation."""
