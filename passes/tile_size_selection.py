"""``tile-size-selection``: every tile size left open becomes a constant chosen by
a cost model built from the device's bandwidths, latencies and capacities."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    FixedBitwidthType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    ShapedType,
    StridedLayoutAttr,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ktc.arch.model import kind_name
from ktc.arch.model import Device, Link, Node, device_of
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import (
    BY_COST_MODEL,
    BY_OPTION,
    DataTransferOp,
    DeriveSizeOp,
    FifoSlotType,
    ParallelOp,
    PipelineOp,
    ReserveSizeOp,
    StageOp,
    TileChoice,
    set_tile_choice,
    set_tile_size_chosen_by,
)
from ktc.dialects.ktdf_arch import attr_text
from ktc.passes.analysis.memory_layout import (
    Buffer,
    Sizes,
    bound,
    calls_indexed,
    exact,
    find_buffers,
    high_water,
    kernel_placed,
    program_layouts,
)
from ktc.passes.utils.ir import ancestor, enclosing_function
from ktc.passes.utils.loops import trip_count


MAX_CANDIDATES = 64
"""Sizes tried per tile size: every allowed size up to the largest useful one when
there are at most this many, else powers of two (times the divisibility)."""

OPEN_LIMIT = 1 << 16
"""The largest size tried for a tile size no constant loop bound limits."""

ROUNDS = 4
"""Rounds of choosing each tile size of a function in turn, the others fixed."""

# ---------------------------------------------------------------------------------
# The cost model
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Work:
    """An op a stage runs each time it runs: a transfer or a computation."""

    op: Operation
    engine: str
    loops: tuple[Operation, ...]
    """The loops around it in its function, outermost first."""

    route: tuple[Link, ...] | None
    """The links a transfer crosses; None for a computation."""

    cycles: int
    """A computation's cycles per run (a transfer's depend on the sizes)."""

    stage: StageOp
    """The outermost stage around it: the step of the pipeline it belongs to."""

    inside: int
    """How many of ``loops`` (the innermost ones) lie inside ``stage``."""


@dataclass
class CostModel:
    """Estimated cycles of one function (a program) on one core, for given sizes.

    Every transfer costs the latency of its route plus its bytes at the route's
    slowest link (``Device.path_cycles``); every computation its SIMD vectors times
    the issue cost of its op class; every index computation of a stage a scalar
    instruction and every loop trip in it a control instruction, at the engine
    kind's ``ktdf_arch.scalar_cycles`` (address arithmetic weighs when a tile holds
    few vectors). An engine is busy for the sum of its work times how often it runs
    (loop trip counts, a ``ktdf.parallel`` split over its instances), except that an
    engine kind with copies in flight (``ktdf_arch.outstanding = N``, a DMA engine)
    overlaps the latencies of N copies: a run of its transfer keeps it busy for its
    bytes at the slowest link or 1 / N of the latency, whichever is more. The stages
    overlap, so the estimate is the busiest engine (or a pipeline's turnaround, below)
    plus the time to fill the pipelines: one run of every stage, since a stage
    signals the next when its run ends. A run is each piece of work of the stage once
    (latency included) plus the further trips of the loops inside the stage on its
    busiest engine, so a stage copying a tile in several pieces, or computing it a
    row at a time, holds the next stage back until its last piece. A pipeline's
    turnaround: a stage may start a tile only when the next stage is done with the
    buffer of the tile ``modulo`` tiles before, so tiles so small that a core runs
    many of them wait a stage's latency each. Large tiles amortize latencies but
    lengthen the fill, so a core with little work splits it into a few tiles whose
    loads, compute and stores overlap; the capacity bounds them.
    """

    device: Device
    func: FuncOp
    reserved: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """The bytes of the kernel's own data per memory (``kernel_placed``)."""
    work: list[_Work] = field(init=False)
    buffers: list[Buffer] = field(init=False)

    def __post_init__(self):
        self.work = [
            self._work(op, engine)
            for op in self.func.walk()
            if isinstance(op, DataTransferOp | GenericOp) and (engine := _engine(op)) is not None
        ]
        self.work += [item for op in self.func.walk() if (item := self._scalar(op)) is not None]
        self.buffers = find_buffers(self.func, self.device)

    def cycles(self, sizes: Sizes) -> int:
        busy: dict[str, int] = {}
        stages: dict[StageOp, tuple[int, dict[str, int]]] = {}
        outer: dict[StageOp, int] = {}
        for item in self.work:
            once, repeat, pace = self._costs(item, sizes)
            busy[item.engine] = busy.get(item.engine, 0) + repeat * _runs(item.loops, sizes)
            inner = _runs(item.loops[len(item.loops) - item.inside:], sizes)
            first, further = stages.get(item.stage, (0, {}))
            further[item.engine] = further.get(item.engine, 0) + pace * (inner - 1)
            stages[item.stage] = (first + once, further)
            outer[item.stage] = _runs(item.loops[:len(item.loops) - item.inside], sizes)
        run = {stage: first + max(further.values()) for stage, (first, further) in stages.items()}
        turnarounds = [_turnaround(pipeline, run, outer) for pipeline in {s.parent_op() for s in run}]
        return max([*busy.values(), *turnarounds], default=0) + sum(run.values())

    def _costs(self, item: _Work, sizes: Sizes) -> tuple[int, int, int]:
        """A run of ``item``: its cycles alone (latency included), the cycles it keeps
        its engine busy, and those a further run in the same stage adds.

        A computation costs the same each way. A transfer keeps its engine busy for
        all of it, or on an engine kind with N copies in flight for its bytes at the
        route's slowest link or a share 1 / N of the latency, whichever is more; a
        further copy of the stage lands that much later, or, on an engine kind with
        no limit, its bytes later (the copies' latencies overlap)."""
        if item.route is None:
            return item.cycles, item.cycles, item.cycles
        nbytes = _transfer_bytes(item.op, sizes)
        once = self.device.path_cycles(item.route, nbytes)
        latency = self.device.path_cycles(item.route, 0)
        limit = self.device.engine(item.engine).outstanding
        if limit is None:
            return once, once, once - latency
        repeat = max(once - latency, -(-latency // limit))
        return once, repeat, repeat

    def peaks(self, sizes: Sizes) -> dict[str, int]:
        """Per memory below device memory, the bytes its buffers span when laid out
        as ``address-assignment`` lays them out."""
        layouts = program_layouts(self.buffers, self.device, sizes, self.reserved)
        return {kind: high_water(placed) for kind, placed in layouts.items()}

    def fits(self, sizes: Sizes) -> bool:
        peaks = self.peaks(sizes)
        return all(used <= self.device.memory(kind).size for kind, used in peaks.items())

    def _work(self, op: Operation, engine: str) -> _Work:
        loops = _loops(op, self.func)
        if isinstance(op, GenericOp):
            return _placed(op, engine, loops, None, self._compute(op))
        source, target = self._node(op, op.source, "source"), self._node(op, op.destination, "dest")
        return _placed(op, engine, loops, self.device.path(source, target), 0)

    def _scalar(self, op: Operation) -> _Work | None:
        """The scalar or control instruction ``op`` becomes in a stage of one engine
        kind, where that kind states its cost: index arithmetic a scalar
        instruction each time it runs, a loop a control instruction per trip."""
        stage = ancestor(op, StageOp)
        if stage is None or stage.applicable_units is None or len(stage.applicable_units.data) != 1:
            return None
        if isinstance(op, scf.ForOp):
            kind = "control"
        elif _index_arithmetic(op):
            kind = "scalar"
        else:
            return None
        engine = kind_name(stage.applicable_units.data[0])
        cycles = self.device.engine(engine).scalar_cycles.get(kind)
        if not cycles:
            return None
        loops = _loops(op, self.func) + ((op,) if kind == "control" else ())
        return _placed(op, engine, loops, None, cycles)

    def _node(self, op: DataTransferOp, value: SSAValue, side: str) -> Node:
        value_type = value.type
        if isinstance(value_type, FifoSlotType):
            end = value_type.source if side == "source" else value_type.destination
            name = kind_name(end)
            if name in self.device.engine_kinds:
                return self.device.node(name)
            return self.device.node(self.device.memory_space(name).kind)
        assert isinstance(value_type, MemRefType)
        memory = self.device.memory_of(value_type, where(op))
        if memory is None:
            raise KtcError(f"'{op.name}' moves {attr_text(value_type)}, which has no memory space",
                           where(op))
        return self.device.node(memory.kind)

    def _compute(self, op: GenericOp) -> int:
        shapes = [v.type for v in op.operands if isinstance(v.type, ShapedType)]
        elements = max((math.prod(max(1, d) for d in t.get_shape()) for t in shapes), default=1)
        element = shapes[0].get_element_type() if shapes else None
        lanes = self.device.compute.lanes.get(element, 1) if element else 1
        costs = self.device.compute.issue_cycles
        transcendental = any(
            inner.dialect_name() in ("math", "spyreop") for inner in op.body.walk()
        )
        issue = costs.get("transcendental" if transcendental else "plain", 1)
        return -(-elements // lanes) * issue


def _transfer_bytes(op: DataTransferOp, sizes: Sizes) -> int:
    """Bytes one run of a transfer moves, dynamic sizes at their bound."""
    side = op.source_side
    elements = 1
    dynamic = iter(side.dynamic_sizes)
    for size in side.sizes:
        elements *= size if size >= 0 else (bound(next(dynamic), sizes) or 1)
    return elements * _element_bytes(side.element_type())


def _element_bytes(element: Attribute) -> int:
    return element.size if isinstance(element, FixedBitwidthType) else 8


def _engine(op: Operation) -> str | None:
    """The first unit kind of the stage that runs ``op``."""
    stage = ancestor(op, StageOp)
    if stage is None or stage.applicable_units is None:
        return None
    return kind_name(stage.applicable_units.data[0])


def _turnaround(pipeline: PipelineOp, run: dict[StageOp, int], outer: dict[StageOp, int]) -> int:
    """The cycles a pipeline's buffers bound it to beyond its fill: a stage's run of
    one tile may start only when the next stage has finished with the buffer of the
    tile ``modulo`` tiles before (one tile before without ``modulo``), so every
    ``modulo`` tiles after the first ones take at least the runs of two neighbouring
    stages."""
    order = [stage for stage in pipeline.stages if stage in run]
    pairs = [run[a] + run[b] for a, b in pairwise(order)]
    phases = pipeline.modulo.value.data if pipeline.modulo is not None else 1
    waiting = outer[order[0]] - phases if order else 0
    if not pairs or waiting <= 0:
        return 0
    return -(-waiting * max(pairs) // phases)


def _placed(op: Operation, engine: str, loops: tuple[Operation, ...],
            route: tuple[Link, ...] | None, cycles: int) -> _Work:
    """The work of ``op`` with the outermost stage around it and the loops inside
    that stage."""
    stage = ancestor(op, StageOp)
    while (outer := ancestor(stage, StageOp)) is not None:
        stage = outer
    inside = sum(1 for loop in loops if stage.is_ancestor(loop))
    return _Work(op, engine, loops, route, cycles, stage, inside)


def _index_arithmetic(op: Operation) -> bool:
    """An op computing index values (not a constant): a scalar instruction."""
    return (not isinstance(op, arith.ConstantOp) and bool(op.results)
            and all(isinstance(result.type, IndexType) for result in op.results))


def _loops(op: Operation, func: FuncOp) -> tuple[Operation, ...]:
    loops = []
    parent = op.parent_op()
    while parent is not None and parent is not func:
        if isinstance(parent, scf.ForOp | ParallelOp):
            loops.insert(0, parent)
        parent = parent.parent_op()
    return tuple(loops)


def _runs(loops: Sequence[Operation], sizes: Sizes) -> int:
    """How often the body of the innermost of ``loops`` runs on one instance."""
    runs = 1
    for loop in loops:
        if isinstance(loop, scf.ForOp):
            runs *= _trips(loop.lb, loop.ub, loop.step, sizes)
            continue
        trips = math.prod(
            _trips(lb, ub, step, sizes)
            for lb, ub, step in zip(loop.lower_bounds, loop.upper_bounds, loop.steps)
        )
        runs *= -(-trips // loop.num_instances.value.data)
    return runs


def _trips(lb: SSAValue, ub: SSAValue, step: SSAValue, sizes: Sizes) -> int:
    """A loop's trip count, at most; 1 when its upper bound is unknown."""
    high = bound(ub, sizes)
    if high is None:
        return 1
    low, stride = exact(lb, sizes) or 0, exact(step, sizes) or 1
    return trip_count(low, high, stride)


# ---------------------------------------------------------------------------------
# Choosing
# ---------------------------------------------------------------------------------


def _allowed(op: ReserveSizeOp, size: int) -> bool:
    return size >= op.min_value.value.data and size % op.divisibility.value.data == 0


def _largest_useful(op: ReserveSizeOp) -> int:
    """The largest constant extent the size tiles (a larger tile is one tile)."""
    totals = [
        exact(use.operation.lhs, {})
        for use in op.result.uses
        if isinstance(use.operation, arith.CeilDivUIOp) and use.index == 1
    ]
    known = [total for total in totals if total is not None]
    return max(known) if known and len(known) == len(totals) else OPEN_LIMIT


def candidates(op: ReserveSizeOp) -> list[int]:
    """The sizes tried for ``op``, smallest first; at least the smallest allowed."""
    step, low = op.divisibility.value.data, op.min_value.value.data
    first = -(-low // step) * step
    high = max(first, _largest_useful(op))
    every = range(first, high + 1, step)
    if len(every) <= MAX_CANDIDATES:
        return list(every)
    doubled = [step << k for k in range(high.bit_length()) if first <= step << k <= high]
    return sorted({first, *doubled, high - high % step})


def choose(model: CostModel, reserves: Sequence[ReserveSizeOp]) -> dict[ReserveSizeOp, int]:
    """Sizes for ``reserves`` that fit, each in turn the one with the fewest
    estimated cycles (the larger on a tie) while the others stay fixed; the
    smallest allowed where nothing fits (``address-assignment`` then reports it)."""
    sizes = {op: candidates(op)[0] for op in reserves}
    tried = {op: _tried(op) for op in reserves}
    for _ in range(ROUNDS):
        changed = False
        for op in reserves:
            best = _best(model, sizes, op, tried[op])
            changed |= best != sizes[op]
            sizes[op] = best
        if not changed:
            break
    return sizes


def _tried(op: ReserveSizeOp) -> list[int]:
    """The candidates of ``op`` it may take: those that divide its extent where a copy
    over a memref of launch-time strides takes its block from it."""
    extent = _largest_useful(op) if _sizes_launch_strided_copy(op) else OPEN_LIMIT
    return [size for size in candidates(op) if extent == OPEN_LIMIT or extent % size == 0]


def _best(model: CostModel, sizes: dict[ReserveSizeOp, int], op: ReserveSizeOp,
          tried: Sequence[int]) -> int:
    scored = []
    for size in tried:
        trial = sizes | {op: size}
        if model.fits(trial):
            scored.append((model.cycles(trial), -size))
    return -min(scored)[1] if scored else sizes[op]


def _sizes_launch_strided_copy(op: ReserveSizeOp) -> bool:
    """Whether a value computed from ``op`` reaches a copy over a memref whose strides
    come at launch. Such a copy is lowered only between blocks of one static shape
    (a descriptor holds constant strides, so the block is moved piece by piece over
    a loop of constant trips), so ``op`` must tile its extent whole: no last tile of
    another size."""
    seen: set[int] = set()
    todo: list[Operation] = [op]
    while todo:
        for result in todo.pop().results:
            for use in result.uses:
                user = use.operation
                if isinstance(user, DataTransferOp) and any(map(_launch_strided, user.operands)):
                    return True
                if id(user) not in seen:
                    seen.add(id(user))
                    todo.append(user)
    return False


def _launch_strided(value: SSAValue) -> bool:
    layout = value.type.layout if isinstance(value.type, MemRefType) else None
    return isinstance(layout, StridedLayoutAttr) and None in layout.get_strides()


# ---------------------------------------------------------------------------------
# Rewriting
# ---------------------------------------------------------------------------------


def _replace(op: ReserveSizeOp, size: int, chosen_by: str) -> None:
    constant = arith.ConstantOp(IntegerAttr(size, IndexType()))
    set_tile_size_chosen_by(constant, chosen_by)
    Rewriter.replace_op(op, constant)
    for use in list(constant.result.uses):
        _fold(use.operation)


def _fold(op: Operation) -> None:
    """Replace a ``ceildivui`` of constants, or a ``derive_size`` whose every tile
    is whole, by its constant value."""
    if op.parent is None:
        return
    value = None
    if isinstance(op, arith.CeilDivUIOp):
        value = exact(op.result, {})
    elif isinstance(op, DeriveSizeOp):
        value = _whole_tile(op)
    if value is not None:
        Rewriter.replace_op(op, arith.ConstantOp(IntegerAttr(value, IndexType())))


def _whole_tile(op: DeriveSizeOp) -> int | None:
    """The size every tile has when each level's tile divides the level above
    (the total first), or the total when one tile covers it."""
    total = exact(op.total_size, {})
    tiles = [exact(size, {}) for size in op.tile_sizes]
    if total is None or None in tiles:
        return None
    if len(tiles) == 1 and tiles[0] >= total:
        return total
    extents = [total, *tiles]
    if all(outer % inner == 0 for outer, inner in pairwise(extents)):
        return tiles[-1]
    return None


def _record(func: FuncOp, model: CostModel, sizes: dict[ReserveSizeOp, int], chosen_by: str):
    peaks = model.peaks(sizes)
    capacity = {kind: model.device.memory(kind).size for kind in peaks}
    choice = TileChoice(chosen_by, tuple(sizes.values()), model.cycles(sizes), peaks, capacity)
    set_tile_choice(func, choice)


def _function(op: ReserveSizeOp) -> FuncOp:
    func = enclosing_function(op)
    if func is None:
        raise KtcError("'ktdf.tiling.reserve_size' outside a function sizes no loop", where(op))
    return func


@dataclass(frozen=True)
class TileSizeSelection(ModulePass):
    """Chooses every tile size left open, from a cost model of the device.

    Expects ScheduleIR in a module that declares its device, with
    ``ktdf.tiling.reserve_size`` placeholders used as tile sizes (``arith.ceildivui``
    loop bounds, ``derive_size``, ``linearize_index`` strides, dynamic sizes of
    buffers and transfers).

    Produces each placeholder replaced by an ``arith.constant`` marked
    ``ktdf.tile_size = "cost model"`` (or ``"option"``): a multiple of its
    ``divisibility``, at least its ``min_value``. The sizes of one function are
    chosen together (``choose``) so that its buffers, laid out as
    ``address-assignment`` does (a ``modulo(size : 2)`` pipeline's buffers twice),
    fit every memory of the device, with the fewest estimated cycles
    (``CostModel``). The function records the choice in ``ktdf.tile_sizes``: the
    sizes in program order, who chose them, the estimated cycles, and per memory
    the peak bytes and the capacity. ``ceildivui`` of constants and ``derive_size``
    whose tiles are all whole become constants.

    ``sizes`` overrides the model: one size per placeholder of the module, in
    program order; each must satisfy its placeholder's constraints. Without
    placeholders the module is left unchanged.
    """

    name = "tile-size-selection"

    sizes: tuple[int, ...] = ()
    """Tile sizes for every ``reserve_size`` of the module, in program order;
    none to let the cost model choose."""

    def __post_init__(self):
        if any(size < 1 for size in self.sizes):
            raise ValueError(f"sizes must be positive, got {list(self.sizes)}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reserves = [r for r in op.walk() if isinstance(r, ReserveSizeOp)]
        if not reserves:
            return
        device = device_of(op)
        given = self._given(reserves)
        chosen_by = BY_OPTION if given else BY_COST_MODEL
        reserved = kernel_placed(op, device)
        functions: dict[FuncOp, list[ReserveSizeOp]] = {}
        for reserve in reserves:
            functions.setdefault(_function(reserve), []).append(reserve)
        for func, own in functions.items():
            with calls_indexed():
                model = CostModel(device, func, reserved)
                sizes = {r: given[r] for r in own} if given else choose(model, own)
                _record(func, model, sizes, chosen_by)
            for reserve, size in sizes.items():
                _replace(reserve, size, chosen_by)

    def _given(self, reserves: Sequence[ReserveSizeOp]) -> dict[ReserveSizeOp, int]:
        if not self.sizes:
            return {}
        if len(self.sizes) != len(reserves):
            raise KtcError(
                f"tile-size-selection was given {len(self.sizes)} sizes, but the module "
                f"has {len(reserves)} 'ktdf.tiling.reserve_size' ops"
            )
        for reserve, size in zip(reserves, self.sizes):
            if not _allowed(reserve, size):
                raise KtcError(
                    f"tile size {size} is not allowed here: it must be a multiple of "
                    f"{reserve.divisibility.value.data} and at least "
                    f"{reserve.min_value.value.data}",
                    where(reserve),
                )
        return dict(zip(reserves, self.sizes))
