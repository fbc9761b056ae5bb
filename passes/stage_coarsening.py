"""``stage-coarsening``: nested pipelines. The loops around a pipeline sink into it;
the outer pipeline works a tile at a time, the inner one a vector at a time."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ktc.dialects.diagnostics import located
from ktc.dialects.ktdf import (
    DYNAMIC_INDEX,
    DataTransferOp,
    DeriveSizeOp,
    FifoSlotType,
    LoopType,
    PipelineOp,
    PrivateOp,
    PrivateYieldOp,
    ReserveSizeOp,
    StageOp,
    TokenType,
    loop_type,
    set_loop_type,
)
from ktc.passes.analysis.iterations import carried
from ktc.passes.utils.ir import defined_inside
from ktc.passes.utils.loops import normalize, tile
from ktc.passes.utils.transfers import collapse, memory_root
from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    FunctionType,
    IndexType,
    MemRefType,
    ModuleOp,
    SymbolRefAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand


@dataclass(frozen=True)
class StageCoarsening(ModulePass):
    """Sink the loops around a pipeline into it, making a nested pipeline (IBM's
    stage-coarsening, plus orchestrator loops and strip-mining).

    Expects ScheduleIR after ``ktir-to-schedule``: an orchestrator ``func.func``
    calling ``@local_schedule_N`` programs whose innermost loops hold a
    ``ktdf.pipeline`` of stages joined by tokens, FIFOs and staging buffers.

    1. An orchestrator ``scf.for`` whose body is one ``func.call`` plus pure ops
       (no ``iter_args``), calling a program called nowhere else, moves into the
       program: the program gets the loop (constant bounds cloned, others passed
       as arguments) and the orchestrator calls it once. Repeated while possible.
    2. For a pipeline not yet nested, the up to ``loop-nest-depth`` loops around
       it that are perfectly nested (only pure ops beside the inner loop, no
       ``iter_args``, no reduction loop) are the sunk loops. Its stages are grouped:
       stages sharing a FIFO are one group (e.g. {MNILU}, {L1LU, SFU, L1SU},
       {MNISU}). With fewer than two groups nothing changes.
    3. The outermost sunk loop, unless a tiling made it (bounded by
       ``derive_size``), is strip-mined by a ``ktdf.tiling.reserve_size`` (rows
       per outer tile): the tile loop stays outside, the point loop runs to
       ``derive_size``, so the last tile is the partial one.

    Produces, in place of the sunk loops, an outer ``ktdf.pipeline`` with one
    stage per group, each wrapping its own copy of the sunk loops (with the pure
    ops it needs): a one-stage group holds the stage's body there; a larger group
    an inner ``ktdf.pipeline`` of its stages, with the FIFOs and tokens they
    share in its ``ktdf.private``, and ``applicable_units`` the union of theirs;
    a larger group's copy of a sunk loop is marked ``parallel_loop`` when its
    iterations are shown independent (``passes/analysis/iterations.py``: no
    ``iter_args``, every buffer or scratchpad view it writes touched at places no
    other iteration touches, e.g. the rows of the expanded buffers), so
    ``parallelize-loops-across-instances`` may share the rows of a tile out over the
    sub-cores; a loop carrying a tensor kept in the scratchpad from one iteration to
    the next keeps its type. Buffers used by several groups are expanded by one leading dimension per sunk
    loop (its trip count, or the tile size for a point loop) and indexed by the
    loop indices; tokens between groups order the outer stages. In a one-stage
    group (the DMA stages) each transfer then moves the whole tile at once
    (``ktc.passes.utils.transfers.collapse``): one transfer of ``derive_size`` rows by the
    row's columns, e.g. ``[ts, 128]``, into the expanded buffer at index 0, the
    rows a cast with the tile's row count when the row's address moved with the
    loop. A sunk loop whose trip count stays unknown once tile sizes are chosen
    (rows per tile computed at run time) keeps its transfers, and so does one
    whose whole block would not be one DMA (not contiguous and not shaped like
    the buffer: the vector loop over part of a wider row); such a loop stays
    around the transfer. Pipelines it cannot coarsen are left as they are; nested
    pipelines are never coarsened again, so the pass is idempotent.
    """

    name = "stage-coarsening"

    loop_nest_depth: int = 2
    """The most loops sunk into one pipeline."""

    def __post_init__(self):
        if self.loop_nest_depth < 1:
            raise ValueError(f"loop-nest-depth must be at least 1, got {self.loop_nest_depth}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        while _sink_one_orchestrator_loop(op):
            pass
        for pipeline in [p for p in op.walk() if isinstance(p, PipelineOp)]:
            _coarsen(pipeline, self.loop_nest_depth)


# ---------------------------------------------------------------------------------
# Orchestrator loops into programs
# ---------------------------------------------------------------------------------


def _sink_one_orchestrator_loop(module: ModuleOp) -> bool:
    """Sink one orchestrator loop into the program it calls; whether one was."""
    calls = [op for op in module.walk() if isinstance(op, func.CallOp)]
    for call in calls:
        loop = call.parent_op()
        if not isinstance(loop, scf.ForOp) or not _only_call_and_pure(loop, call):
            continue
        program = _definition(module, call.callee)
        callers = [other for other in calls if other.callee == call.callee]
        if program is None or len(callers) != 1 or not _single_return_block(program):
            continue
        _sink(loop, call, program, _declaration(module, call.callee))
        return True
    return False


def _only_call_and_pure(loop: scf.ForOp, call: func.CallOp) -> bool:
    if loop.iter_args or call.res:
        return False
    body = list(loop.body.block.ops)[:-1]
    return all(op is call or (not op.regions and is_side_effect_free(op)) for op in body)


def _definition(module: ModuleOp, callee: SymbolRefAttr) -> func.FuncOp | None:
    name = callee.string_value()
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.sym_name.data == name and op.body.blocks:
            return op
    return None


def _declaration(module: ModuleOp, callee: SymbolRefAttr) -> func.FuncOp | None:
    name = callee.string_value()
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.sym_name.data == name and not op.body.blocks:
            return op
    return None


def _single_return_block(program: func.FuncOp) -> bool:
    blocks = list(program.body.blocks)
    last = blocks[0].last_op if len(blocks) == 1 else None
    return isinstance(last, func.ReturnOp) and not last.operands


def _sink(loop: scf.ForOp, call: func.CallOp, program: func.FuncOp,
          declaration: func.FuncOp | None) -> None:
    """Move ``loop`` from the orchestrator into ``program``; the orchestrator calls
    the program once with what the loop used from outside it."""
    body = list(loop.body.block.ops)[:-1]
    bounds = [loop.lb, loop.ub, loop.step]
    used = _unique(
        value
        for value in [*bounds, *(operand for op in body for operand in op.operands)]
        if not defined_inside(value, loop)
    )
    constants = [value for value in used if isinstance(value.owner, arith.ConstantOp)]
    outside = [value for value in used if value not in constants]
    entry = Block(arg_types=[value.type for value in outside])
    mapping: dict[SSAValue, SSAValue] = dict(zip(outside, entry.args))
    for value, arg in mapping.items():
        arg.name_hint = value.name_hint
    for value in constants:
        entry.add_op(constant := value.owner.clone())
        mapping[value] = constant.results[0]
    inner = Block(arg_types=[IndexType()])
    inner.args[0].name_hint = loop.body.block.args[0].name_hint
    mapping[loop.body.block.args[0]] = inner.args[0]
    for op in body:
        if op is not call:
            inner.add_op(op.clone(value_mapper=mapping))
    old_entry = program.body.block
    for arg, operand in zip(old_entry.args, call.arguments):
        arg.replace_all_uses_with(mapping.get(operand, operand))
    for op in list(old_entry.ops)[:-1]:
        op.detach()
        inner.add_op(op)
    inner.add_op(scf.YieldOp())
    sunk = scf.ForOp(mapping[loop.lb], mapping[loop.ub], mapping[loop.step], [], Region(inner))
    sunk.attributes.update(loop.attributes)
    entry.add_ops([sunk, func.ReturnOp()])
    program.body.detach_block(old_entry).erase()
    program.body.add_block(entry)
    signature = FunctionType.from_lists([value.type for value in outside], [])
    program.function_type = signature
    if declaration is not None:
        declaration.function_type = signature
    Rewriter.replace_op(loop, func.CallOp(call.callee, outside, []))
    for value in constants:
        if not value.uses:
            Rewriter.erase_op(value.owner)
    _hoist_invariants(sunk)


def _unique(values: Iterable[SSAValue]) -> list[SSAValue]:
    return list(dict.fromkeys(values))


def _hoist_invariants(loop: scf.ForOp) -> None:
    """Move the pure ops of ``loop``'s body that use nothing defined in it out of it."""
    for op in list(loop.body.block.ops):
        movable = isinstance(op, ReserveSizeOp) or is_side_effect_free(op)
        if op.regions or not movable or isinstance(op, scf.YieldOp):
            continue
        if not any(defined_inside(operand, loop) for operand in op.operands):
            op.detach()
            Rewriter.insert_op(op, InsertPoint.before(loop))


# ---------------------------------------------------------------------------------
# Pipelines
# ---------------------------------------------------------------------------------


def _coarsen(pipeline: PipelineOp, depth: int) -> None:
    if _nested(pipeline) or pipeline.private is None:
        return
    groups = _groups(pipeline)
    if len(groups) < 2 or not _expandable(pipeline, groups) or _shares_memory(groups):
        return
    for loop in _sunk_loops(pipeline, depth):
        normalize(loop)
    loops = _sunk_loops(pipeline, depth)
    if not loops or not all(_extent(loop, loops[0]) is not None for loop in loops[1:]):
        return
    if not _from_tiling(loops[0]):
        size = ReserveSizeOp()
        Rewriter.insert_op(size, InsertPoint.before(loops[0]))
        tile([loops[0]], [size.result])
    _Coarsening(pipeline, loops, groups).run()


def _from_tiling(loop: scf.ForOp) -> bool:
    """A point loop (bounded by ``derive_size``) or a tile loop (feeding one)."""
    if isinstance(loop.ub.owner, DeriveSizeOp):
        return True
    return any(isinstance(use.operation, DeriveSizeOp) for use in loop.body.block.args[0].uses)


def _nested(pipeline: PipelineOp) -> bool:
    """Whether the pipeline holds a pipeline or sits in a stage: coarsened already."""
    parent = pipeline.parent_op()
    while parent is not None and not isinstance(parent, StageOp):
        parent = parent.parent_op()
    inner = any(isinstance(op, PipelineOp) for op in pipeline.walk() if op is not pipeline)
    return parent is not None or inner


def _private_values(pipeline: PipelineOp) -> dict[SSAValue, SSAValue]:
    """Each ``ktdf.private`` result -> the value its region yields for it."""
    private = pipeline.private
    assert private is not None
    terminator = private.body.block.last_op
    assert isinstance(terminator, PrivateYieldOp)
    return dict(zip(private.resources, terminator.values))


def _stage_uses(stage: StageOp) -> set[SSAValue]:
    return {operand for op in stage.walk() for operand in op.operands}


def _groups(pipeline: PipelineOp) -> list[list[StageOp]]:
    """The stages, grouped: stages using slots of one FIFO are in one group."""
    inner = _private_values(pipeline)
    fifo_of = {
        result: inner[result].owner
        for result in inner
        if isinstance(result.type, FifoSlotType)
    }
    groups: list[list[StageOp]] = []
    fifos: list[set[Operation]] = []
    for stage in pipeline.stages:
        mine = {fifo_of[value] for value in _stage_uses(stage) if value in fifo_of}
        joined = [index for index, used in enumerate(fifos) if used & mine]
        merged = [s for index in joined for s in groups[index]] + [stage]
        merged_fifos = mine.union(*(fifos[index] for index in joined))
        for index in reversed(joined):
            del groups[index], fifos[index]
        groups.append(merged)
        fifos.append(merged_fifos)
    order = {stage: index for index, stage in enumerate(pipeline.stages)}
    for group in groups:
        group.sort(key=order.__getitem__)
    return sorted(groups, key=lambda group: order[group[0]])


def _users(pipeline: PipelineOp, groups: Sequence[Sequence[StageOp]]) -> dict[SSAValue, set[int]]:
    """Each private result -> the indices of the groups that use it."""
    users: dict[SSAValue, set[int]] = {value: set() for value in _private_values(pipeline)}
    for index, group in enumerate(groups):
        for stage in group:
            for value in _stage_uses(stage):
                if value in users:
                    users[value].add(index)
    return users


def _expandable(pipeline: PipelineOp, groups: Sequence[Sequence[StageOp]]) -> bool:
    """Every buffer shared by groups is a ``memref.alloc`` that only transfers use,
    and every FIFO or buffer op of the private region serves one kind of place."""
    inner = _private_values(pipeline)
    for value, used_by in _users(pipeline, groups).items():
        if len(used_by) < 2 or isinstance(value.type, TokenType):
            continue
        if not isinstance(inner[value].owner, memref.AllocOp):
            return False
        if not all(isinstance(use.operation, DataTransferOp | PrivateYieldOp)
                   for use in value.uses):
            return False
    return True


def _shares_memory(groups: Sequence[Sequence[StageOp]]) -> bool:
    """Whether one group writes memory from outside the pipeline that another group
    touches: then running each group over all sunk iterations before the next
    (loop distribution) could reorder a write and a read."""
    written: dict[SSAValue, set[int]] = {}
    touched: dict[SSAValue, set[int]] = {}
    for index, group in enumerate(groups):
        for op in (op for stage in group for op in stage.walk()):
            for operand in op.operands:
                if not isinstance(operand.type, MemRefType):
                    continue
                root = memory_root(operand)
                touched.setdefault(root, set()).add(index)
                if not isinstance(op, DataTransferOp) or operand is op.destination:
                    written.setdefault(root, set()).add(index)
    pipeline = groups[0][0].parent_op()
    return any(
        len(touched[root]) > 1 and not defined_inside(root, pipeline) for root in written
    )


def _mark_independent(loops: Sequence[scf.ForOp]) -> None:
    """Mark ``parallel_loop`` those of ``loops`` whose iterations are independent."""
    for loop in loops:
        if carried(loop) is None:
            set_loop_type(loop, LoopType.PARALLEL_LOOP)


def _between(loop: scf.ForOp, inner: Operation) -> list[Operation]:
    """The ops of ``loop``'s body beside ``inner`` and the terminator."""
    return [op for op in loop.body.block.ops if op is not inner and not isinstance(op, scf.YieldOp)]


def _sinkable(loop: scf.ForOp, inner: Operation) -> bool:
    return (
        not loop.iter_args
        and isinstance(loop.ub.type, IndexType)
        and loop_type(loop) != LoopType.REDUCTION_LOOP
        and all(not op.regions and is_side_effect_free(op) for op in _between(loop, inner))
    )


def _sunk_loops(pipeline: PipelineOp, depth: int) -> list[scf.ForOp]:
    """The up to ``depth`` perfectly nested loops around ``pipeline``, outermost first."""
    loops: list[scf.ForOp] = []
    inner: Operation = pipeline
    while len(loops) < depth and isinstance(loop := inner.parent_op(), scf.ForOp):
        if not _sinkable(loop, inner):
            break
        loops.insert(0, loop)
        inner = loop
    return loops


def _extent(loop: scf.ForOp, outermost: scf.ForOp) -> int | SSAValue | None:
    """The most iterations ``loop`` makes, known before ``outermost``: a constant,
    the tile size of a point loop, or a bound from outside; None if unknown there."""
    if (count := const_evaluate_operand(loop.ub)) is not None:
        return count
    bound = loop.ub.owner.tile_sizes[-1] if isinstance(loop.ub.owner, DeriveSizeOp) else loop.ub
    return None if defined_inside(bound, outermost) else bound


class _Coarsening:
    """One pipeline and its sunk loops turned into a nested pipeline."""

    def __init__(self, pipeline: PipelineOp, loops: list[scf.ForOp], groups: list[list[StageOp]]):
        self.pipeline, self.loops, self.groups = pipeline, loops, groups
        self.users = _users(pipeline, groups)
        self.yielded = _private_values(pipeline)
        self.outer: dict[SSAValue, SSAValue] = {}
        """Private results -> their counterparts in the outer private region."""
        self.expanded: set[SSAValue] = set()
        """Outer private results that are buffers expanded over the sunk loops."""

    def run(self) -> None:
        outer_private = self._outer_private()
        stages = [self._outer_stage(index, group) for index, group in enumerate(self.groups)]
        coarse = PipelineOp([outer_private, *stages])
        Rewriter.insert_op(coarse, InsertPoint.before(self.loops[0]))
        Rewriter.erase_op(self.loops[0], safe_erase=False)

    # The outer private region: shared buffers expanded, cross-group tokens, and
    # the resources of one-stage groups.

    def _local_group(self, op: Operation) -> int | None:
        """The multi-stage group all of ``op``'s resources belong to, if any."""
        groups = set().union(*(self.users[r] for r in self._results_of(op)))
        if len(groups) == 1 and len(self.groups[index := groups.pop()]) > 1:
            return index
        return None

    def _results_of(self, op: Operation) -> list[SSAValue]:
        return [result for result, value in self.yielded.items() if value.owner is op]

    def _outer_private(self) -> PrivateOp:
        ops: list[Operation] = []
        for op in self._private_ops():
            results = self._results_of(op)
            if self._local_group(op) is not None or not results:
                continue
            if isinstance(op, memref.AllocOp) and len(self.users[results[0]]) > 1:
                new = self._expanded_alloc(op)
                self.expanded.add(results[0])
            else:
                new = op.clone()
            ops.append(new)
            for result in results:
                self.outer[result] = new.results[self.yielded[result].index]
        values = list(self.outer.values())
        private = PrivateOp([v.type for v in values], [*ops, PrivateYieldOp(*values)])
        for key, result in zip(list(self.outer), private.resources):
            self.outer[key] = result
        self.expanded = {self.outer[value] for value in self.expanded}
        return private

    def _private_ops(self) -> list[Operation]:
        private = self.pipeline.private
        assert private is not None
        return list(private.body.block.ops)[:-1]

    def _expanded_alloc(self, alloc: memref.AllocOp) -> memref.AllocOp:
        extents = [_extent(loop, self.loops[0]) for loop in self.loops]
        old = alloc.memref.type
        assert isinstance(old, MemRefType)
        shape = [e if isinstance(e, int) else DYNAMIC_INDEX for e in extents] + list(old.get_shape())
        dynamic = [e for e in extents if isinstance(e, SSAValue)] + list(alloc.dynamic_sizes)
        new_type = MemRefType(old.element_type, shape, memory_space=old.memory_space)
        return memref.AllocOp(dynamic, [], new_type)

    # The outer stages.

    def _outer_stage(self, index: int, group: list[StageOp]) -> StageOp:
        mapping = dict(self.outer)
        crossing = [t for t in self.outer if isinstance(t.type, TokenType)]
        depends_in = _unique(mapping[t] for s in group for t in s.depends_in if t in crossing)
        depends_out = _unique(mapping[t] for s in group for t in s.depends_out if t in crossing)
        loops, innermost, ivs = self._nest(group, mapping)
        if len(group) == 1:
            content = [op.clone(value_mapper=mapping) for op in group[0].body.block.ops]
        else:
            content = [self._inner_pipeline(index, group, mapping)]
        Rewriter.insert_op(content, InsertPoint.before(innermost.last_op))
        for op in content:
            self._index_expanded(op, ivs)
        units = _unique(u for s in group for u in (s.applicable_units or ArrayAttr([])).data)
        stage = StageOp(depends_in, depends_out, [loops[0]], units or None)
        if len(group) == 1:
            collapse(loops[0])
        else:
            _mark_independent(loops)
        return stage

    def _nest(
        self, group: list[StageOp], mapping: dict[SSAValue, SSAValue]
    ) -> tuple[list[scf.ForOp], Block, list[SSAValue]]:
        """Copies of the sunk loops with the pure ops ``group`` needs; the copies,
        outermost first, the innermost body (only its terminator) and the copied
        indices."""
        needed = self._needed(group)
        blocks: list[Block] = []
        loops: list[scf.ForOp] = []
        for level, loop in enumerate(self.loops):
            block = Block(arg_types=[IndexType()])
            block.args[0].name_hint = loop.body.block.args[0].name_hint
            bounds = [mapping.get(v, v) for v in (loop.lb, loop.ub, loop.step)]
            copy = scf.ForOp(*bounds, [], Region(block))
            copy.attributes.update(loop.attributes)
            mapping[loop.body.block.args[0]] = block.args[0]
            block.add_ops(op.clone(value_mapper=mapping)
                          for op in _between(loop, self._inner(level)) if op in needed)
            if blocks:
                blocks[-1].add_op(copy)
            blocks.append(block)
            loops.append(copy)
        for block in blocks:
            block.add_op(scf.YieldOp())
        return loops, blocks[-1], [loop.body.block.args[0] for loop in loops]

    def _needed(self, group: list[StageOp]) -> set[Operation]:
        """The ops between the sunk loops that ``group`` or the loop bounds use."""
        between = {op for level, loop in enumerate(self.loops)
                   for op in _between(loop, self._inner(level))}
        pending = [v for s in group for v in _stage_uses(s)]
        pending += [v for loop in self.loops[1:] for v in (loop.lb, loop.ub, loop.step)]
        needed: set[Operation] = set()
        while pending:
            owner = pending.pop().owner
            if owner in between and owner not in needed:
                needed.add(owner)
                pending += owner.operands
        return needed

    def _inner(self, level: int) -> Operation:
        return self.loops[level + 1] if level + 1 < len(self.loops) else self.pipeline

    def _inner_pipeline(self, index: int, group: list[StageOp],
                        mapping: dict[SSAValue, SSAValue]) -> PipelineOp:
        local: list[Operation] = []
        for op in self._private_ops():
            if self._local_group(op) == index:
                local.append(new := op.clone())
                for result in self._results_of(op):
                    mapping[result] = new.results[self.yielded[result].index]
        locals_ = [r for r in self.yielded if r in mapping and r not in self.outer]
        private = PrivateOp([mapping[r].type for r in locals_],
                            [*local, PrivateYieldOp(*(mapping[r] for r in locals_))])
        for result, new in zip(locals_, private.resources):
            mapping[result] = new
        stages = [self._inner_stage(stage, mapping, set(locals_)) for stage in group]
        return PipelineOp([private, *stages])

    def _inner_stage(self, stage: StageOp, mapping: dict[SSAValue, SSAValue],
                     locals_: set[SSAValue]) -> StageOp:
        copy = stage.clone(value_mapper=mapping)
        body = copy.detach_region(copy.body)
        copy.drop_all_references()
        units = stage.applicable_units.data if stage.applicable_units else None
        return StageOp(
            [mapping[t] for t in stage.depends_in if t in locals_],
            [mapping[t] for t in stage.depends_out if t in locals_],
            body, units,
        )

    def _index_expanded(self, root: Operation, ivs: Sequence[SSAValue]) -> None:
        """Index every access to an expanded buffer under ``root`` by ``ivs``."""
        for op in list(root.walk()):
            if isinstance(op, DataTransferOp) and {op.source, op.destination} & self.expanded:
                Rewriter.replace_op(op, self._indexed(op, ivs))

    def _indexed(self, op: DataTransferOp, ivs: Sequence[SSAValue]) -> DataTransferOp:
        sides = []
        for side in (op.source_side, op.dest_side):
            dynamic = iter(side.dynamic_sizes)
            sizes: list[int | SSAValue] = [
                next(dynamic) if size == DYNAMIC_INDEX else size for size in side.sizes
            ]
            access = None if side.access is None else (side.access.data, list(side.indices))
            if side.value in self.expanded and access is not None:
                old = access[0]
                leading = [AffineExpr.dimension(old.num_dims + k) for k in range(len(ivs))]
                access = (AffineMap(old.num_dims + len(ivs), 0, (*leading, *old.results)),
                          [*access[1], *ivs])
                sizes = [1] * len(ivs) + sizes
            sides.append((sizes, access))
        (source_sizes, source_access), (dest_sizes, dest_access) = sides
        return located(DataTransferOp(
            op.source, source_sizes, op.destination, dest_sizes,
            source_access, dest_access, dict(op.attributes),
        ), op)

