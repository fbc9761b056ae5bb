"""The ``convert-ktdf-to-dfir`` pass: a scheduled ScheduleIR program becomes DataflowIR.

Each program function (``module @local_schedule_N``) keeps its signature; its body
becomes host code that computes the symbols (``dfir.define_symbol``) and one
``dfir.dataflow``: a unit per engine and memory instance it uses, uniform maps for the
per-instance values, and one SPMD ``dfir.program`` per engine kind. Each program runs
the loops around its own stages; stages of one pipeline run concurrently on their
engines, ordered by FIFOs and by sync signals. The kernel's orchestrator (the launch
sequence) is left as it is.

The parts, each a small function of the schedule:

- ``Plan``: which engine kind runs every leaf stage, the two ends of every FIFO, the
  scratchpad hand-offs that need signals, and the sub-core instances per kind;
- ``Dataflow`` (declarations) and ``Program`` (one per kind, with its materializer of
  index values: constants, per-core uniform maps, host symbols, program arithmetic);
- the lowering of transfers, FIFO ops, compute (``convert_ktdf_to_dfir_compute``),
  loops, ``ktdf.parallel`` and signals; a copy between cores (``ktdf.to_tiles``) is a
  DMA into the other core's scratchpad unit on the cores that copy, signalled to
  the reader on that core, which waits for each core copying to it (and, inside
  loops, signals each of them back once the slot may be written again).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    UnknownLoc,
    VectorType,
    i64,
)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import is_side_effect_free

from ktc.arch.model import Device, device_of
from ktc.dialects.dfir import (
    DataflowOp,
    DefineSymbolOp,
    DmaOp,
    LoadOp,
    ProgramOp,
    QueryOp,
    ReceiveOp,
    SendOp,
    SplatOp,
    StoreOp,
    SymbolOp,
    SyncRecvOp,
    SyncSendOp,
    UniformMapOp,
    UniformType,
    UnitOp,
    UnitType,
    ViewOp,
)
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import (
    BufferPhaseOp,
    CreateTokenOp,
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    ParallelOp,
    ParallelYieldOp,
    PipelineOp,
    PrivateOp,
    ReadFromFifoOp,
    SelectMemrefOp,
    StageOp,
    WriteToFifoOp,
)
from ktc.dialects.ktdp import ConstructMemoryViewOp, GetComputeTileIdOp
from ktc.passes.convert_ktdf_to_dfir_compute import lower_fill, lower_generic
from ktc.passes.convert_ktdf_to_dfir_plan import (
    WAVE,
    Handoff,
    Plan,
    per_core,
    per_subcore,
    phase_loops,
    stage_loops,
    through_private,
)
from ktc.passes.convert_ktdf_to_dfir_values import (
    ARG,
    TILE,
    Arith,
    Index,
    evaluate,
    is_scalar,
    roots,
)
from ktc.passes.inter_tile_reduce_lowering import TO_TILES

_SKIPPED = (PrivateOp, FifoAllocateOp, CreateTokenOp, memref.AllocOp, memref.DeallocOp,
            tensor.EmptyOp, ReturnOp, scf.YieldOp, ParallelYieldOp)
"""Ops with nothing to run: their values are read where they are used."""


@dataclass(frozen=True)
class ConvertKtdfToDfir(ModulePass):
    """Lowers every scheduled program to DataflowIR.

    Expects ScheduleIR after ``address-assignment``: each ``module @local_schedule_N``
    holds a ``func.func`` with a 1-D (or small) ``grid`` whose pipelines' leaf stages
    each name one engine kind in ``applicable_units``; every scratchpad buffer is a
    ``memref.alloc`` with ``ktdf.address`` (bytes); device memory is reached through
    ``ktdp.construct_memory_view`` of a kernel argument (an element index).

    Produces, per program, host code over the arguments (``dfir.define_symbol``) and
    one ``dfir.dataflow``: engines per core and sub-core, uniform maps for per-core
    values (tile ids folded in), one program per engine kind; transfers become
    ``dfir.dma`` / ``dfir.load`` + ``dfir.send`` / ``dfir.receive`` + ``dfir.store``,
    generics become ``dfir.compute`` / ``dfir.reduce`` / ``dfir.splat``, and each
    scratchpad hand-off between engines a ``dfir.sync_send`` / ``dfir.sync_recv``
    pair forward and, inside loops, one backward per buffer copy, guarded so that
    every send has its receive. The orchestrator is unchanged.
    """

    name = "convert-ktdf-to-dfir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op)
        functions = [func for func in op.walk() if isinstance(func, FuncOp)
                     and any(isinstance(inner, StageOp) for inner in func.walk())]
        by_name = {func.sym_name.data: func for func in functions}
        for call in [inner for inner in op.walk() if isinstance(inner, CallOp)]:
            callee = by_name.get(call.callee.string_value())
            if callee is not None:
                localize_tile_ids(call, callee, op)
        for func in functions:
            lower_function(func, device)


def localize_tile_ids(call: CallOp, callee: FuncOp, module: ModuleOp) -> None:
    """An argument the orchestrator computes from the tile id differs per core: its
    expression moves into the program (the tile id a per-core value there), and the
    host values it reads become extra arguments."""
    cache: dict[SSAValue, frozenset[str]] = {}
    for position, operand in enumerate(list(call.arguments)):
        if TILE not in roots(operand, cache):
            continue
        if not list(callee.args[position].uses):
            continue
        mapping: dict[SSAValue, SSAValue] = {}
        body = callee.body.block
        first = body.first_op
        for op in _expression_ops(operand):
            for value in op.operands:
                if value not in mapping and not isinstance(value.owner, Operation):
                    mapping[value] = _pass_along(call, callee, module, value)
            clone = op.clone(value_mapper=mapping)
            body.insert_op_before(clone, first)
            mapping.update(zip(op.results, clone.results))
        callee.args[position].replace_all_uses_with(mapping[operand])
    _drop_tile_arguments(call, callee, module, cache)


def _drop_tile_arguments(call: CallOp, callee: FuncOp, module: ModuleOp,
                         cache: dict[SSAValue, frozenset[str]]) -> None:
    """The orchestrator stops computing and passing the per-core arguments (the host
    has no tile id); what computed them and is now unused goes too."""
    dropped = [position for position, operand in enumerate(call.arguments)
               if TILE in roots(operand, cache) and not list(callee.args[position].uses)]
    if not dropped:
        return
    expressions = [op for position in dropped for op in _expression_ops(call.arguments[position])]
    for position in reversed(dropped):
        callee.body.block.erase_arg(callee.args[position])
    call.operands = [operand for position, operand in enumerate(call.operands) if position not in dropped]
    callee.update_function_type()
    for declaration in module.walk():
        if isinstance(declaration, FuncOp) and declaration.sym_name == callee.sym_name and declaration is not callee:
            declaration.function_type = callee.function_type
    for op in reversed(expressions):
        if op.parent is not None and not any(list(result.uses) for result in op.results):
            op.parent.erase_op(op)


def _expression_ops(value: SSAValue) -> list[Operation]:
    """The ops computing ``value`` from block arguments, definitions first."""
    ordered: list[Operation] = []

    def visit(current: SSAValue) -> None:
        op = current.owner
        if not isinstance(op, Operation) or op in ordered:
            return
        if op.regions or not is_side_effect_free(op):
            raise KtcError(f"'{op.name}' computes a per-core program argument the lowering "
                           "cannot move into the program", where(op))
        for operand in op.operands:
            visit(operand)
        ordered.append(op)

    visit(value)
    return ordered


def _pass_along(call: CallOp, callee: FuncOp, module: ModuleOp, value: SSAValue) -> SSAValue:
    """A new argument of ``callee`` that ``call`` (and its declaration) passes ``value`` as."""
    argument = callee.body.block.insert_arg(value.type, len(callee.args))
    call.operands = [*call.operands, value]
    callee.update_function_type()
    name = callee.sym_name.data
    for declaration in module.walk():
        if isinstance(declaration, FuncOp) and declaration.sym_name.data == name and declaration is not callee:
            declaration.function_type = callee.function_type
    return argument


# ---------------------------------------------------------------------------------
# Declarations and programs
# ---------------------------------------------------------------------------------


class Dataflow:
    """The ``dfir.dataflow`` being built: its declarations and the host code."""

    def __init__(self, device: Device, grid: Sequence[int], cores: int, waves: int):
        self.device = device
        self.grid = list(grid)
        self.cores = cores
        self.waves = waves
        self.decls = Block()
        self.host = Block()
        self.host_values: dict[SSAValue, SSAValue] = {}
        self.units: dict[tuple, SSAValue] = {}
        self.constants: dict[tuple, SSAValue] = {}
        self.symbols: dict[tuple, SSAValue] = {}
        self.definitions: list[DefineSymbolOp] = []
        self.roots: dict[SSAValue, frozenset[str]] = {}
        self.ids = 0
        self.fifo_ids: dict[SSAValue, int] = {}

    def new_id(self) -> int:
        self.ids += 1
        return self.ids

    def fifo_id(self, slot: SSAValue) -> int:
        return self.fifo_ids[slot]

    def tile_ids(self, core: int) -> list[int]:
        """The grid coordinates of the tile core ``core`` runs (first wave), x fastest."""
        ids, rest = [], core
        for size in self.grid:
            ids.append(rest % size)
            rest //= size
        return ids

    def unit(self, kind: str, core: int | None, subcore: int | None) -> SSAValue:
        key = (kind, core, subcore)
        if key not in self.units:
            properties = {name: IntegerAttr(value, i64)
                          for name, value in (("core", core), ("subcore", subcore)) if value is not None}
            op = UnitOp.build(properties=properties, result_types=[UnitType(kind)])
            self.decls.add_op(op)
            self.units[key] = op.unit
        return self.units[key]

    def constant(self, value: int, value_type: Attribute | None = None) -> SSAValue:
        value_type = value_type or IndexType()
        key = (value, value_type)
        if key not in self.constants:
            op = arith.ConstantOp(IntegerAttr(value, value_type), value_type)
            self.decls.add_op(op)
            self.constants[key] = op.result
        return self.constants[key]

    def host_value(self, value: SSAValue) -> SSAValue:
        """``value`` computed by host code (cloned from the schedule, over the arguments)."""
        if value in self.host_values or value.owner is None:
            return self.host_values.get(value, value)
        op = value.owner
        if not isinstance(op, Operation):
            return value
        operands = [self.host_value(operand) for operand in op.operands]
        clone = op.clone(value_mapper=dict(zip(op.operands, operands)))
        self.host.add_op(clone)
        for old, new in zip(op.results, clone.results):
            self.host_values[old] = new
        return self.host_values[value]

    def host_constant(self, value: int, value_type: Attribute) -> SSAValue:
        key = ("host", value, value_type)
        if key not in self.constants:
            op = arith.ConstantOp(IntegerAttr(value, value_type), value_type)
            self.host.insert_op_before(op, self.host.first_op) if self.host.first_op else self.host.add_op(op)
            self.constants[key] = op.result
        return self.constants[key]

    def symbol(self, value: SSAValue, scale: int = 1) -> SSAValue:
        """A device value the host computes as ``value * scale`` at launch."""
        key = (value, scale)
        if key not in self.symbols:
            host = self.host_value(value)
            if scale != 1:
                product = arith.MuliOp(host, self.host_constant(scale, host.type))
                self.host.add_op(product)
                host = product.result
            ident = len(self.definitions) + 1
            self.definitions.append(DefineSymbolOp.build(
                operands=[host], properties={"id": IntegerAttr(ident, i64)}))
            op = SymbolOp.build(properties={"id": IntegerAttr(ident, i64)}, result_types=[host.type])
            self.decls.add_op(op)
            self.symbols[key] = op.result
        return self.symbols[key]


class Program:
    """The program of one engine kind under construction."""

    def __init__(self, dataflow: Dataflow, plan: Plan, kind: str):
        self.df = dataflow
        self.plan = plan
        self.kind = kind
        device = dataflow.device
        self.subcores = plan.subcores.get(kind, 1) if per_subcore(device, kind) else 1
        if not per_core(device, kind):
            raise KtcError(f"engine kind '{kind}' is not part of a core of device @{device.name}",
                           device.where)
        self.instances = [(core, sub if per_subcore(device, kind) else None)
                          for core in range(dataflow.cores) for sub in range(self.subcores)]
        self.units = [dataflow.unit(kind, core, sub) for core, sub in self.instances]
        self.prologue: list[Operation] = []
        self.queries: dict[tuple, SSAValue] = {}
        self.block = Block()
        self.cursor = self.block
        self.env: dict[SSAValue, Index] = {}
        self.cache: dict[tuple, Index] = {}
        self.loop_state: dict[Operation | str, Callable[[], tuple[Index, Index]]] = {}
        """Per loop around the cursor: a function emitting (iteration index, trip count)."""
        self.forwarded: dict[SSAValue, SSAValue] = {}
        self.active = False
        self.in_parallel = False
        self.arith = Arith(self.emit, dataflow.constant)
        self.origin: Attribute = UnknownLoc()
        """The source location emitted ops take (see ``lowering``)."""

    # Emission ----------------------------------------------------------------

    def emit(self, op: Operation) -> Operation:
        if isinstance(op.location, UnknownLoc):
            op.location = self.origin
        self.cursor.add_op(op)
        return op

    @contextmanager
    def lowering(self, op: Operation) -> Iterator[None]:
        """Ops emitted meanwhile take the source location of ``op`` or, when it has
        none (a stage, a loop made by tiling), of the first op inside it that has one
        (one with effects, such as a transfer, first), else the enclosing op's; so each
        instruction can name what it came from."""
        saved = self.origin
        located = [inner for inner in op.walk() if not isinstance(inner.location, UnknownLoc)]
        effects = [inner for inner in located if not is_side_effect_free(inner)]
        if located:
            self.origin = op.location if located[0] is op else (effects or located)[0].location
        try:
            yield
        finally:
            self.origin = saved

    @contextmanager
    def inside(self, block: Block) -> Iterator[None]:
        saved = self.cursor
        self.cursor = block
        try:
            yield
        finally:
            self.cursor = saved

    def finish(self) -> ProgramOp:
        first = self.block.first_op
        for op in self.prologue:
            if first is None:
                self.block.add_op(op)
            else:
                self.block.insert_op_before(op, first)
        return ProgramOp.build(operands=[self.units], properties={"kind": StringAttr(self.kind)},
                               regions=[Region(self.block)])

    # Per-instance values -----------------------------------------------------

    def per_instance(self, values: Sequence[Attribute | int], value_type: Attribute) -> SSAValue | int:
        """This instance's entry of ``values`` (one per instance): a uniform map query,
        or the value itself when every instance has the same."""
        if all(isinstance(v, int) for v in values) and len(set(values)) == 1:
            return values[0]
        key = (tuple(values), value_type)
        if key not in self.queries:
            entries = [self.df.constant(v, value_type) if isinstance(v, int) else v for v in values]
            map_type = UniformType(self.kind, value_type)
            mapping = UniformMapOp.build(operands=[self.units, entries], result_types=[map_type])
            self.df.decls.add_op(mapping)
            query = QueryOp.build(operands=[mapping.map], result_types=[value_type])
            self.prologue.append(query)
            self.queries[key] = query.value
        return self.queries[key]

    def peer(self, kind: str, sub: int | None = None) -> SSAValue:
        """The unit of ``kind`` this instance talks to: on its core, in sub-core ``sub``
        (None: its own sub-core, or 0 for a per-core engine)."""
        device = self.df.device
        units = []
        for core, mine in self.instances:
            target = sub if sub is not None else (mine or 0)
            units.append(self.df.unit(kind, core if per_core(device, kind) else None,
                                      target if per_subcore(device, kind) else None))
        return self.per_instance(units, UnitType(kind))

    def remote(self, kind: str, sub: int | None, cores: Sequence[int]) -> SSAValue:
        """Per instance, the unit of ``kind`` on core ``cores[i]`` (sub-core ``sub``, or
        0 for a per-sub-core kind)."""
        device = self.df.device
        units = [self.df.unit(kind, core, (sub or 0) if per_subcore(device, kind) else None)
                 for core in cores]
        return self.per_instance(units, UnitType(kind))

    def my_subcore(self) -> Index:
        return self.per_instance([sub or 0 for _, sub in self.instances], IndexType())

    # Index values --------------------------------------------------------------

    def value(self, value: SSAValue) -> Index:
        """``value`` of the schedule, in this program."""
        if value in self.env:
            return self.env[value]
        key = (value, id(self.cursor))
        if key not in self.cache:
            self.cache[key] = self._materialize(value)
        return self.cache[key]

    def ssa(self, value: SSAValue) -> SSAValue:
        return self.arith.ssa(self.value(value))

    def _materialize(self, value: SSAValue) -> Index:
        found = roots(value, self.df.roots)
        if not found and (constant := evaluate(value, [])) is not None:
            return constant
        if found == {TILE} and self.df.waves == 1:
            per_core_values = [evaluate(value, self.df.tile_ids(core)) for core, _ in self.instances]
            if None not in per_core_values:
                return self.per_instance(per_core_values, value.type)
        if found <= {ARG} and is_scalar(value):
            return self.df.symbol(value)
        op = value.owner
        if isinstance(op, GetComputeTileIdOp):
            return self._tile_id(op)
        if not isinstance(op, Operation) or op.name not in _CLONED:
            raise KtcError("a value the DataflowIR programs cannot compute (an induction "
                           "variable outside its loop, or an unsupported op)",
                           where(op) if isinstance(op, Operation) else "")
        return self.arith.clone(op, [self.value(operand) for operand in op.operands])

    def _tile_id(self, op: GetComputeTileIdOp) -> Index:
        """The tile id of a grid larger than the device: wave * cores + core."""
        if len(self.df.grid) != 1:
            raise KtcError("a grid with more tiles than cores must be 1-D (run normalize-grid-to-1d)",
                           where(op))
        wave = self.loop_state[WAVE]()[0]
        core = self.per_instance([core for core, _ in self.instances], IndexType())
        return self.arith.add(self.arith.mul(wave, self.df.cores), core)


_CLONED = {"arith.addi", "arith.subi", "arith.muli", "arith.divui", "arith.divsi", "arith.remui",
           "arith.remsi", "arith.ceildivui", "arith.ceildivsi", "arith.floordivsi", "arith.minsi",
           "arith.maxsi", "arith.minui", "arith.maxui", "arith.index_cast", "affine.apply",
           "ktdf.tiling.derive_size", "ktdf.tiling.linearize_index", "arith.cmpi"}


# ---------------------------------------------------------------------------------
# The walk: one program's code from the schedule
# ---------------------------------------------------------------------------------


class Walker:
    """Emits one program: the schedule's control flow around the stages of its kind,
    with their transfers, FIFO ops, compute and signals."""

    def __init__(self, program: Program):
        self.p = program
        self.plan = program.plan
        self.at_child: dict[Operation, list[Handoff]] = {}
        for handoff in self.plan.handoffs:
            for child in (handoff.writer_child, handoff.reader_child):
                self.at_child.setdefault(child, []).append(handoff)

    def run(self, body: Block) -> None:
        waves = self.p.df.waves
        if waves == 1:
            self.block(body)
            return
        loop_body = Block(arg_types=[IndexType()])
        self.p.emit(scf.ForOp(self.p.df.constant(0), self.p.df.constant(waves),
                              self.p.df.constant(1), [], Region(loop_body)))
        self.p.loop_state[WAVE] = lambda: (loop_body.args[0], waves)
        with self.p.inside(loop_body):
            self.block(body)
            self.p.emit(scf.YieldOp())

    def block(self, block: Block) -> None:
        for op in block.ops:
            with self.p.lowering(op):
                self.signals(op, before=True)
                self.op(op)
                self.signals(op, before=False)

    # Control flow ---------------------------------------------------------------

    def op(self, op: Operation) -> None:
        kinds = self.plan.kinds_in.get(op, set())
        if isinstance(op, StageOp):
            if op in self.plan.kind_of:
                if self.plan.kind_of[op] == self.p.kind:
                    self.stage(op)
            elif self.p.kind in kinds:
                self.block(op.body.block)
        elif isinstance(op, PipelineOp):
            if self.p.kind in kinds:
                self.block(op.body.block)
        elif isinstance(op, scf.ForOp):
            if self.p.kind in kinds or self.p.active:
                self.loop(op)
        elif isinstance(op, scf.IfOp):
            if self.p.kind in kinds or self.p.active:
                self.branch(op)
        elif isinstance(op, ParallelOp):
            if self.p.kind in kinds:
                self.parallel(op)
        elif self.p.active:
            self.work(op)
        elif not _is_free(op):
            raise KtcError(f"'{op.name}' outside a stage: no engine runs it", where(op))

    def stage(self, stage: StageOp) -> None:
        """A leaf stage of this kind; outside a ktdf.parallel, only sub-core 0 runs it
        when the kind has several instances per core."""
        if _runs_elsewhere(stage, self.plan):
            return
        self.p.active = True
        if self.p.subcores > 1 and not self.p.in_parallel:
            with self.guarded(self.p.arith.compare("eq", self.p.my_subcore(), 0)):
                self.block(stage.body.block)
        else:
            self.block(stage.body.block)
        self.p.active = False

    @contextmanager
    def guarded(self, condition: SSAValue) -> Iterator[None]:
        then = Block()
        self.p.emit(scf.IfOp(condition, [], Region(then)))
        with self.p.inside(then):
            yield
            self.p.emit(scf.YieldOp())

    def loop(self, op: scf.ForOp) -> None:
        """A loop of the schedule; inside a stage its iter_args carry vectors."""
        if op.iter_args and not self.p.active:
            raise KtcError("loops with iter_args are lowered only inside a stage", where(op))
        a = self.p.arith
        lb, ub, step = (self.p.value(v) for v in (op.lb, op.ub, op.step))
        carried = [self.vector(value, op) for value in op.iter_args]
        body = Block(arg_types=[IndexType(), *(value.type for value in carried)])
        loop = self.p.emit(scf.ForOp(a.ssa(lb), a.ssa(ub), a.ssa(step), carried, Region(body)))
        for old_arg, new_arg in zip(op.body.block.args, body.args):
            self.p.env[old_arg] = new_arg
        for old_result, new_result in zip(op.results, loop.results):
            self.p.env[old_result] = new_result
        self.p.loop_state[op] = (lambda: (a.div(a.sub(body.args[0], lb), step),
                                          a.ceildiv(a.sub(ub, lb), step)))
        with self.p.inside(body):
            self.block(op.body.block)
            yielded = op.body.block.last_op
            self.p.emit(scf.YieldOp(*(self.vector(value, yielded) for value in yielded.operands)))

    def branch(self, op: scf.IfOp) -> None:
        if op.results:
            raise KtcError("scf.if with results is not lowered to DataflowIR", where(op))
        then = Block()
        regions = [Region(then)]
        otherwise = None
        if op.false_region.blocks:
            otherwise = Block()
            regions.append(Region(otherwise))
        self.p.emit(scf.IfOp(self.p.ssa(op.cond), [], *regions))
        for source, target in ((op.true_region, then), (op.false_region, otherwise)):
            if target is None:
                continue
            with self.p.inside(target):
                self.block(source.block)
                self.p.emit(scf.YieldOp())

    def parallel(self, op: ParallelOp) -> None:
        """Block distribution: instance k runs iterations [k*C, min((k+1)*C, T)) of the
        linearized space, C = ceil(T / N), delinearized row-major."""
        instances = op.num_instances.value.data
        if self.p.subcores != instances:
            raise KtcError(f"ktdf.parallel over {instances} instances, but '{self.p.kind}' runs "
                           f"on {self.p.subcores} per core", where(op))
        a = self.p.arith
        lbs = [self.p.value(v) for v in op.lower_bounds]
        steps = [self.p.value(v) for v in op.steps]
        trips = [a.ceildiv(a.sub(self.p.value(ub), lb), step)
                 for ub, lb, step in zip(op.upper_bounds, lbs, steps)]
        total: Index = 1
        for trip in trips:
            total = a.mul(total, trip)
        chunk = a.ceildiv(total, instances)
        me = self.p.my_subcore()
        start = a.mul(me, chunk)
        end = a.min(a.add(start, chunk), total)
        body = Block(arg_types=[IndexType()])
        self.p.emit(scf.ForOp(a.ssa(start), a.ssa(end), self.p.df.constant(1), [], Region(body)))
        with self.p.inside(body):
            rest: Index = body.args[0]
            for dim in reversed(range(len(trips))):
                index = a.rem(rest, trips[dim]) if dim else rest
                rest = a.div(rest, trips[dim]) if dim else rest
                self.p.env[op.induction_variables[dim]] = a.add(lbs[dim], a.mul(index, steps[dim]))
            self.p.env[op.instance_id] = me
            self.p.loop_state[op] = lambda: (a.sub(body.args[0], start), a.sub(end, start))
            self.p.in_parallel = True
            self.block(op.body.block)
            self.p.in_parallel = False
            self.p.emit(scf.YieldOp())

    # Work of a stage --------------------------------------------------------------

    def work(self, op: Operation) -> None:
        if op in self.plan.inlined_at:
            return
        if isinstance(op, DataTransferOp):
            self.transfer(op)
        elif isinstance(op, ReadFromFifoOp):
            self.p.env[op.result] = self.receive(op.fifo_slot)
        elif isinstance(op, WriteToFifoOp):
            self.send(op.fifo_slot, self.operand(op.data, op), op)
        elif isinstance(op, GenericOp):
            self.generic(op)
        elif not _is_free(op):
            raise KtcError(f"'{op.name}' has no DataflowIR lowering", where(op))

    def vector(self, value: SSAValue, user: Operation) -> SSAValue:
        found = self.p.env.get(value)
        if not isinstance(found, SSAValue) or not isinstance(found.type, VectorType):
            raise KtcError("a compute stage uses a tensor that no FIFO read or generic "
                           "of the stage produced", where(user))
        return found

    def generic(self, op: GenericOp) -> None:
        """Tensor form: the result is a vector. Buffer form (outs a memref in a memory
        of the compute engine): operands are loaded, the result stored."""
        result = lower_fill(op, self.p.emit)
        if result is None:
            inputs = [self.operand(value, op) for value in op.inputs]
            out_args = op.body.block.args[len(op.inputs):]
            outputs = [self.operand(value, op) if arg.uses else None
                       for value, arg in zip(op.outputs, out_args)]
            result = lower_generic(op, inputs, outputs, self.p.emit, self.capture)
        if op.results:
            self.p.env[op.results[0]] = result
            return
        self.p.emit(StoreOp.build(operands=[result, self.whole(op.outputs[0], op),
                                            [self.p.df.constant(0)]]))

    def capture(self, value: SSAValue) -> SSAValue | None:
        """A scalar kernel argument a generic body uses: a symbol."""
        if roots(value, self.p.df.roots) <= {ARG}:
            return self.p.df.symbol(value)
        return None

    def operand(self, value: SSAValue, user: Operation) -> SSAValue:
        """A vector for a tensor or memref operand: held in a register, or loaded."""
        found = self.p.env.get(value)
        if isinstance(found, SSAValue) and isinstance(found.type, VectorType):
            return found
        if not isinstance(value.type, MemRefType):
            return self.vector(value, user)
        view = self.whole(value, user)
        vector_type = VectorType(value.type.element_type, view.type.get_shape())
        return self.p.emit(LoadOp.build(operands=[view, [self.p.df.constant(0)]],
                                        result_types=[vector_type])).results[0]

    def whole(self, value: SSAValue, user: Operation) -> SSAValue:
        """A one-dimensional view of every element of a contiguous buffer."""
        memory, base, strides, element = self.root(value, user)
        shape = list(value.type.get_shape())
        if DYNAMIC in shape or _block_layout(shape, strides)[1] != _row_major(_block_layout(shape, strides)[0]):
            raise KtcError("a compute operand in a buffer that is not static and contiguous", where(user))
        view_type = MemRefType(element, [prod(shape)])
        return self.p.emit(ViewOp.build(operands=[self.memory_unit(memory), self.p.arith.ssa(base), []],
                                        result_types=[view_type])).results[0]

    def transfer(self, op: DataTransferOp) -> None:
        source, dest = op.source_side, op.dest_side
        if isinstance(source.value.type, FifoSlotType):
            self.store_from_fifo(op, self.receive(source.value))
        elif isinstance(dest.value.type, FifoSlotType):
            self.send(dest.value, self.load_into_fifo(op), op)
        elif TO_TILES in op.attributes:
            self.copy_between_cores(op)
        else:
            contiguous = _kept(source.sizes) != _kept(dest.sizes)
            views = [self.view(side, contiguous, user=op) for side in (source, dest)]
            self.p.emit(DmaOp.build(operands=views))

    def copy_between_cores(self, op: DataTransferOp) -> None:
        """A DMA from this core's scratchpad into the one of the core its table names;
        the cores marked -1 copy nothing."""
        table = op.attributes[TO_TILES].get_values()
        cores = [core for core, _ in self.p.instances]
        if len(table) != self.p.df.cores * self.p.df.waves or self.p.df.waves != 1:
            raise KtcError("a copy between cores needs a grid that runs in one wave, with one "
                           "table entry per tile", where(op))
        with self.flagged([table[core] >= 0 for core in cores]):
            memory = self.root(op.dest_side.value, op)[0]
            remote = self.p.remote(memory, None, [max(table[core], 0) for core in cores])
            source = self.view(op.source_side, False, user=op)
            dest = self.view(op.dest_side, False, user=op, unit=remote)
            self.p.emit(DmaOp.build(operands=[source, dest]))

    @contextmanager
    def aligned(self, transfer: DataTransferOp) -> Iterator[None]:
        """Emitting an inlined transfer at the other end of its FIFO: the loops of its
        stage take the values of their k-th iteration at the other end's k-th run
        (the linear iteration over the other end's stage loops, delinearized)."""
        a = self.p.arith
        index, total = self._linear(stage_loops(self.plan.inlined_at[transfer]))
        loops = stage_loops(transfer)
        trips = [a.ceildiv(a.sub(self.p.value(loop.ub), self.p.value(loop.lb)), self.p.value(loop.step))
                 for loop in loops]
        count: Index = 1
        for trip in trips:
            count = a.mul(count, trip)
        if count != total:
            raise KtcError(f"a FIFO between two stages of one engine is written {count} and "
                           f"read {total} times per run of its pipeline", where(transfer))
        saved = self.p.cache
        self.p.cache = dict(saved)
        for depth in reversed(range(len(loops))):
            position = a.rem(index, trips[depth]) if depth else index
            index = a.div(index, trips[depth]) if depth else index
            loop = loops[depth]
            self.p.env[loop.body.block.args[0]] = a.add(self.p.value(loop.lb),
                                                        a.mul(position, self.p.value(loop.step)))
        try:
            yield
        finally:
            self.p.cache = saved
            for loop in loops:
                self.p.env.pop(loop.body.block.args[0])

    def load_into_fifo(self, op: DataTransferOp) -> SSAValue:
        """The vector a transfer from memory puts into its FIFO slot."""
        slot = op.destination
        view = self.view(op.source_side, contiguous=True, user=op)
        vector_type = VectorType(slot.type.element_type, [view.type.get_shape()[0]])
        loaded = self.p.emit(LoadOp.build(operands=[view, [self.p.df.constant(0)]],
                                          result_types=[vector_type])).results[0]
        if not op.is_splat:
            return loaded
        return self.p.emit(SplatOp.build(operands=[loaded],
                                         result_types=[_slot_vector(slot, op)])).results[0]

    def store_from_fifo(self, op: DataTransferOp, vector: SSAValue) -> None:
        """A transfer from a FIFO slot into memory stores ``vector``."""
        view = self.view(op.dest_side, contiguous=True, user=op)
        self.p.emit(StoreOp.build(operands=[vector, view, [self.p.df.constant(0)]]))

    # FIFOs ------------------------------------------------------------------------

    def send(self, slot: SSAValue, vector: SSAValue, writer: Operation) -> None:
        """``writer`` puts ``vector`` into ``slot``."""
        reader = self.plan.fifo_ends[slot][1]
        expected = _slot_vector(slot, writer)
        if vector.type != expected:
            raise KtcError(f"{vector.type} does not fill the FIFO slot of {expected}", where(writer))
        if slot in self.plan.inlined and self.plan.inlined[slot].source == slot:
            with self.aligned(self.plan.inlined[slot]):
                self.store_from_fifo(self.plan.inlined[slot], vector)
            return
        if reader == self.p.kind:
            self.p.forwarded[slot] = vector
            return
        ident = self.p.df.fifo_id(slot)
        self.p.emit(SendOp.build(operands=[vector, self.p.peer(reader)],
                                 properties={"id": IntegerAttr(ident, i64)}))

    def receive(self, slot: SSAValue) -> SSAValue:
        writer, _ = self.plan.fifo_ends[slot]
        if slot in self.plan.inlined and self.plan.inlined[slot].destination == slot:
            with self.aligned(self.plan.inlined[slot]):
                return self.load_into_fifo(self.plan.inlined[slot])
        if writer == self.p.kind:
            return self.p.forwarded[slot]
        ident = self.p.df.fifo_id(slot)
        return self.p.emit(ReceiveOp.build(operands=[self.p.peer(writer)],
                                           properties={"id": IntegerAttr(ident, i64)},
                                           result_types=[_slot_vector(slot, slot.owner)])).results[0]

    # Memory views -------------------------------------------------------------------

    def view(self, side, contiguous: bool, user: Operation, unit: SSAValue | None = None) -> SSAValue:
        """A view of the block a transfer side moves: the block's shape (unit
        dimensions dropped) with the memory's strides, or one row of its elements when
        ``contiguous`` (an error if they are not). A size the program computes (the
        rows of a partial last tile) is a dynamic dimension of the view."""
        memory, base, strides, element = self.root(side.value, user)
        a = self.p.arith
        starts = [a.affine(expr, [self.p.value(i) for i in side.indices], [])
                  for expr in side.access.data.results]
        offset: Index = 0
        for start, stride in zip(starts, strides):
            offset = a.add(offset, a.mul(start, stride))
        address = a.add(base, a.mul(offset, _element_bytes(element)))
        dynamic = iter(side.dynamic_sizes)
        sizes = [self.p.value(next(dynamic)) if size == DYNAMIC else size for size in side.sizes]
        shape, layout = _block_layout(sizes, strides)
        if contiguous and len(shape) > 1 and layout != _row_major(shape):
            raise KtcError("a FIFO transfer moves a block that is not contiguous in memory", where(user))
        if contiguous:
            total: Index = 1
            for size in shape:
                total = a.mul(total, size)
            shape, layout = [total], [1]
        layout_attr = NoneAttr() if layout == _row_major(shape) else StridedLayoutAttr(layout, 0)
        view_type = MemRefType(element, [size if isinstance(size, int) else DYNAMIC for size in shape],
                               layout_attr)
        dynamic_sizes = [size for size in shape if not isinstance(size, int)]
        unit = unit if unit is not None else self.memory_unit(memory)
        return self.p.emit(ViewOp.build(operands=[unit, a.ssa(address), dynamic_sizes],
                                        result_types=[view_type])).results[0]

    def memory_unit(self, kind: str) -> SSAValue:
        device = self.p.df.device
        if not per_core(device, kind):
            return self.p.df.unit(kind, None, None)
        return self.p.peer(kind)

    def root(self, value: SSAValue, user: Operation) -> tuple[str, Index, list[int], Attribute]:
        """(memory kind, byte address of element 0, element strides, element type)."""
        value = through_private(value)
        op = value.owner
        if isinstance(op, memref.MemorySpaceCastOp):
            return self.root(op.source, user)
        if isinstance(op, memref.ReinterpretCastOp):
            memory, base, _, element = self.root(op.source, user)
            strides = list(op.static_strides.get_values())
            if DYNAMIC in strides:
                raise KtcError("a view with dynamic strides is not lowered", where(op))
            offsets = list(op.static_offsets.get_values())
            offset = self.p.value(op.offsets[0]) if offsets[0] == DYNAMIC else offsets[0]
            return memory, self.p.arith.add(base, self.p.arith.mul(offset, _element_bytes(element))), strides, element
        if isinstance(op, ConstructMemoryViewOp):
            element = value.type.element_type
            strides = list(op.static_strides.get_values())
            if DYNAMIC in strides:
                raise KtcError("a memory view with dynamic strides is not lowered", where(op))
            memory = self._memory_kind(value.type, op)
            return memory, self._scaled(op.offset, _element_bytes(element)), strides, element
        if isinstance(op, memref.AllocOp):
            return (self._memory_kind(value.type, op), _address(op), _row_major(_static_shape(op)),
                    value.type.element_type)
        if isinstance(op, SelectMemrefOp):
            return self._selected(op, user)
        raise KtcError(f"cannot find the memory behind a transfer operand ('{getattr(op, 'name', 'argument')}')",
                       where(user))

    def _scaled(self, value: SSAValue, scale: int) -> Index:
        """``value * scale``; the host computes it when it depends on arguments only."""
        if roots(value, self.p.df.roots) <= {ARG} and is_scalar(value) and evaluate(value, []) is None:
            return self.p.df.symbol(value, scale)
        return self.p.arith.mul(self.p.value(value), scale)

    def _selected(self, op: SelectMemrefOp, user: Operation) -> tuple[str, Index, list[int], Attribute]:
        """Double buffering: the address of the copy the current phase uses."""
        candidates = [self.root(candidate, user) for candidate in op.candidates]
        addresses = [candidate[1] for candidate in candidates]
        phase = self._phase(op.phase)
        memory, _, strides, element = candidates[0]
        if isinstance(phase, int):
            return memory, addresses[phase], strides, element
        a = self.p.arith
        address: Index = addresses[-1]
        for index in reversed(range(len(addresses) - 1)):
            chosen = a.compare("eq", phase, index)
            address = self.p.emit(arith.SelectOp(chosen, a.ssa(addresses[index]), a.ssa(address))).results[0]
        return memory, address, strides, element

    def _phase(self, phase: SSAValue) -> Index:
        op = phase.owner
        if not isinstance(op, BufferPhaseOp):
            return self.p.value(phase)
        waves = [WAVE] if self.p.df.waves > 1 else []
        return self.p.arith.rem(self._linear(waves + phase_loops(op))[0], op.num_phases.value.data)

    def _memory_kind(self, memref_type: MemRefType, op: Operation) -> str:
        space = memref_type.memory_space
        if isinstance(space, NoneAttr):
            raise KtcError("a memref without a memory space", where(op))
        if isinstance(space, StringAttr):
            return self.p.df.device.memory(space.data).kind
        return self.p.df.device.memory_space(space).kind

    # Signals --------------------------------------------------------------------------

    def signals(self, op: Operation, before: bool) -> None:
        """Signals of the hand-offs whose writing or reading child ``op`` is: forward
        after the writer and before the reader; backward (inside loops) after the
        reader and before the writer. A carried hand-off (reader first) has only the
        signal from the writer's iteration i to the reader's iteration i + 1."""
        for handoff in self.at_child.get(op, []):
            writing = op is handoff.writer_child and handoff.writer == self.p.kind
            reading = op is handoff.reader_child and handoff.reader == self.p.kind
            if handoff.carried:
                if handoff.loops and ((before and reading) or (not before and writing)):
                    self.later(handoff, send=writing, sender_writes=True)
                continue
            if before and writing and handoff.loops:
                self.later(handoff, send=False, sender_writes=False)
            if before and reading:
                self.forward(handoff, send=False)
            if not before and writing:
                self.forward(handoff, send=True)
            if not before and reading and handoff.loops:
                self.later(handoff, send=True, sender_writes=False)

    def forward(self, handoff: Handoff, send: bool) -> None:
        """Writer to reader: the buffer is filled."""
        self.exchange(handoff, send, writer_side=send, backward=False)

    def exchange(self, handoff: Handoff, send: bool, writer_side: bool, backward: bool) -> None:
        """The forward or backward signals of ``handoff`` on its writer's or reader's
        side. A copy between cores takes part on the cores that copy only; when it is
        the writer, each copying core exchanges with the core it writes to, which
        exchanges with every core writing to it (the k-th in ascending id on the k-th
        of ``slot_ids``)."""
        position = 3 if backward else 2
        pairs = list(enumerate(self._pairs(handoff, writer_side)))
        ring_writes, table = handoff.ring or (False, None)
        cores = [core for core, _ in self.p.instances]
        if not ring_writes:
            with self.flagged([table is None or table[core] >= 0 for core in cores]):
                for index, (mine, theirs) in pairs:
                    self.sync(handoff, send, mine, theirs, handoff.pairs[index][position])
            return
        for index, (mine, theirs) in pairs:
            for k, ids in enumerate(handoff.slot_ids[index]):
                flags, peers = (_copying(table, k, cores) if writer_side
                                else _copied_from(table, k, cores))
                with self.flagged(flags):
                    self.sync(handoff, send, mine, theirs, ids[1 if backward else 0], peers)

    @contextmanager
    def flagged(self, flags: Sequence[bool]) -> Iterator[None]:
        """Emit under ``scf.if`` unless every instance's flag is set."""
        if all(flags):
            yield
            return
        flag = self.p.per_instance([int(f) for f in flags], IndexType())
        with self.guarded(self.p.arith.compare("eq", flag, 1)):
            yield

    def later(self, handoff: Handoff, send: bool, sender_writes: bool) -> None:
        """A signal to a later iteration: the sender signals after iteration
        i < total - copies, the receiver waits before iteration i >= copies. Backward
        (the reader frees a copy for the writer) or carried (``sender_writes``)."""
        index, total = self._linear(handoff.loops)
        a = self.p.arith
        copies = 1 if handoff.carried else handoff.copies
        if send:
            condition = a.compare("slt", a.add(index, copies), total)
        else:
            condition = a.compare("sge", index, copies)
        with self.guarded(condition):
            self.exchange(handoff, send, writer_side=send == sender_writes, backward=True)

    def _pairs(self, handoff: Handoff, writer_side: bool) -> list[tuple[int | None, int | None]]:
        """(my sub-core, the peer's sub-core) per signal, seen from this program."""
        return [(w, r) if writer_side else (r, w) for w, r, _, _ in handoff.pairs]

    def sync(self, handoff: Handoff, send: bool, mine: int | None, theirs: int | None, ident: int,
             cores: Sequence[int] | None = None) -> None:
        """One signal with the peer's sub-core ``theirs``, on this instance's core or,
        per instance, on ``cores``."""
        peer_kind = handoff.reader if self.p.kind == handoff.writer else handoff.writer
        op_type = SyncSendOp if send else SyncRecvOp
        peer = (self.p.peer(peer_kind, theirs) if cores is None
                else self.p.remote(peer_kind, theirs, cores))
        build = lambda: self.p.emit(op_type.build(operands=[peer],
                                                  properties={"id": IntegerAttr(ident, i64)}))
        if mine is None or self.p.subcores == 1:
            build()
            return
        with self.guarded(self.p.arith.compare("eq", self.p.my_subcore(), mine)):
            build()

    def _linear(self, loops: Sequence[Operation | str]) -> tuple[Index, Index]:
        """The iteration count over ``loops`` (outermost first) and their total."""
        a = self.p.arith
        index: Index = 0
        total: Index = 1
        for loop in loops:
            if loop not in self.p.loop_state:
                raise KtcError("a loop-carried hand-off across loops this engine does not run",
                               where(loop) if isinstance(loop, Operation) else "")
            position, trip = self.p.loop_state[loop]()
            index = a.add(a.mul(index, trip), position)
            total = a.mul(total, trip)
        return index, total


DYNAMIC = -(2 ** 63)
"""xDSL's dynamic size and offset marker (INT64_MIN)."""


def _runs_elsewhere(stage: StageOp, plan: Plan) -> bool:
    """A stage whose only work is transfers inlined at the other end of their FIFO."""
    return all(op in plan.inlined_at or isinstance(op, scf.ForOp) or _is_free(op)
               for op in stage.body.walk())


def _is_free(op: Operation) -> bool:
    """Ops that run nothing by themselves (pure values, read where they are used;
    allocations; terminators)."""
    return (isinstance(op, _SKIPPED) or op.name in _CLONED
            or (not op.regions and is_side_effect_free(op)))


def _slot_vector(slot: SSAValue, user: Operation) -> VectorType:
    slot_type = slot.type
    if slot_type.is_dynamic:
        raise KtcError("a FIFO slot of dynamic size is not lowered", where(user))
    return VectorType(slot_type.element_type, [slot_type.num_elements.data])


def _element_bytes(element: Attribute) -> int:
    width = getattr(element, "bitwidth", None)
    if width is None:
        width = 16 if "df16" in str(element) else 0
    if not width or width % 8:
        raise KtcError(f"elements of {element} are not whole bytes")
    return width // 8


def _row_major(shape: Sequence[Index]) -> list[int] | None:
    """The strides of a contiguous block of ``shape``; None when a dimension inside
    the outermost is dynamic (its strides are not constants)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        if not isinstance(size, int):
            return strides if len(strides) == len(shape) else None
        step *= size
    return strides


def _static_shape(op: memref.AllocOp) -> list[int]:
    """The buffer's shape, its dynamic sizes evaluated (they must be constants)."""
    dynamic = iter(evaluate(size, []) for size in op.dynamic_sizes)
    shape = [next(dynamic) if size == DYNAMIC else size for size in op.memref.type.get_shape()]
    if None in shape:
        raise KtcError("a scratchpad buffer whose size is not a constant", where(op))
    return shape


def _address(op: memref.AllocOp) -> int:
    address = op.attributes.get("ktdf.address")
    if not isinstance(address, IntegerAttr):
        raise KtcError("buffer has no 'ktdf.address' (run address-assignment first)", where(op))
    return address.value.data


def _kept(sizes: Sequence[int]) -> list[int]:
    """The static sizes of a block without its unit dimensions (``DYNAMIC`` stays)."""
    return [size for size in sizes if size != 1] or [1]


def _block_layout(sizes: list[Index], strides: list[int]) -> tuple[list[Index], list[int]]:
    """The block's shape and strides without its unit dimensions (at least one left)."""
    kept = [(size, stride) for size, stride in zip(sizes, strides) if size != 1]
    if not kept:
        return [1], [1]
    return [size for size, _ in kept], [stride for _, stride in kept]


# ---------------------------------------------------------------------------------
# One program function
# ---------------------------------------------------------------------------------


def grid_of(func: FuncOp) -> list[int]:
    grid = func.attributes.get("grid")
    if grid is None:
        return [1]
    if isinstance(grid, ArrayAttr):
        return [entry.value.data for entry in grid.data]
    return list(grid.get_values())


def lower_function(func: FuncOp, device: Device) -> None:
    grid = grid_of(func)
    tiles = prod(grid)
    cores = min(tiles, device.cores)
    waves = -(-tiles // cores)
    if tiles % cores:
        raise KtcError(f"grid {grid} has {tiles} tiles, not a multiple of the {cores} cores of "
                       f"device @{device.name}", where(func))
    plan = Plan(func, waves, device)
    dataflow = Dataflow(device, grid, cores, waves)
    _number_pairs(plan, dataflow)
    programs = []
    for kind in plan.kinds:
        program = Program(dataflow, plan, kind)
        Walker(program).run(func.body.block)
        programs.append(program.finish())
    body = func.body.block
    for op in reversed(list(body.ops)):
        body.erase_op(op, safe_erase=False)
    for op in list(dataflow.host.ops):
        body.add_op(dataflow.host.detach_op(op))
    body.add_ops(dataflow.definitions)
    decls = dataflow.decls
    for program in programs:
        decls.add_op(program)
    body.add_op(DataflowOp.build(regions=[Region(decls)]))
    body.add_op(ReturnOp())


def _number_pairs(plan: Plan, dataflow: Dataflow) -> None:
    """Ids for the FIFOs (in schedule order) and the signals of every hand-off."""
    dataflow.fifo_ids = {slot: dataflow.new_id() for slot in plan.fifo_ends
                         if plan.fifo_ends[slot][0] != plan.fifo_ends[slot][1]}
    for handoff in plan.handoffs:
        handoff.pairs = [(w, r, dataflow.new_id(), dataflow.new_id()) for w, r, _, _ in handoff.pairs]
        if handoff.ring is not None and handoff.ring[0]:
            handoff.slot_ids = [[(dataflow.new_id(), dataflow.new_id())
                                 for _ in range(_fan_in(handoff.ring[1]))]
                                for _ in handoff.pairs]


def _fan_in(table: Sequence[int]) -> int:
    """The most copies between cores that land on one core."""
    return max((list(table).count(core) for core in set(table) if core >= 0), default=0)


def _senders(table: Sequence[int], core: int) -> list[int]:
    """The cores copying to ``core``, ascending."""
    return [sender for sender, to in enumerate(table) if to == core]


def _copying(table: Sequence[int], k: int, cores: Sequence[int]) -> tuple[list[bool], list[int]]:
    """Per instance: whether its core is the k-th of the cores copying to the same core,
    and that core."""
    flags = [table[core] >= 0 and _senders(table, table[core]).index(core) == k for core in cores]
    return flags, [max(table[core], 0) for core in cores]


def _copied_from(table: Sequence[int], k: int, cores: Sequence[int]) -> tuple[list[bool], list[int]]:
    """Per instance: whether more than k cores copy to its core, and the k-th of them
    (its own core when there is none, unused)."""
    found = [_senders(table, core) for core in cores]
    return [len(f) > k for f in found], [f[k] if len(f) > k else core for f, core in zip(found, cores)]
