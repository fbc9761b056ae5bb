"""``reduction-loop-exposure``: a reduction over a row longer than the SIMD width
becomes explicit loops over SIMD vectors, the FIFOs carrying one vector per slot.

IBM's version is ``ReductionLoopExposure.cpp`` (§1.1 item 14, §4.7 of the anchor
study). It handles one reduction per compute stage and writes its result from inside
the loop under ``scf.if``; this pass streams every generic of the stage that walks
the row (a softmax needs a max, a sum and an elementwise pass) and writes a reduced
result after its loop.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ktc.arch.model import device_of
from ktc.dialects.diagnostics import KtcError, located
from ktc.dialects.ktdf import (
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    LoopType,
    PipelineOp,
    ReadFromFifoOp,
    StageOp,
    WriteToFifoOp,
    loop_type,
    set_loop_type,
)
from ktc.dialects.upstream import ForOp
from ktc.passes.analysis.reductions import IDENTITIES, combiner, reduces_innermost
from ktc.passes.utils.resources import add_resources, remove_resources
from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

WIDENED: dict[Attribute, Attribute] = {Float16Type(): Float32Type()}
"""Element types whose sums and products accumulate their vector partial in a wider
type (when the compute engine has lanes for it), rounded once after the row: an f16
partial that takes thousands of terms stops growing once each term is below half its
spacing (a 262,144-element softmax row sums 14% low on 64 f16 lanes)."""

_STAGE_OPS = (ReadFromFifoOp, WriteToFifoOp, GenericOp, tensor.EmptyOp, arith.ConstantOp)
"""What a compute stage this pass streams may hold."""


@dataclass(frozen=True)
class ReductionLoopExposure(ModulePass):
    """Stream the reductions of compute stages over SIMD vectors.

    Expects ScheduleIR after ``ktir-to-schedule`` (optionally ``stage-coarsening`` and
    ``reduction-dim-chunking``): a ``ktdf.pipeline`` whose compute stage reads whole
    rows from FIFO slots (``ktdf.read_from_fifo``), runs ``linalg.generic``s on tensors
    of which at least one reduces the innermost dimension (extent R, longer than the
    compute engine's SIMD lanes ``device.lanes(type)``) with an ``arith`` combiner
    (add, mul, max, min), and writes its results to FIFO slots; other stages move
    each row between a memref and its slot with one ``ktdf.data_transfer``.

    Produces, with V = gcd(R, lanes) and K = R / V:

    - in the compute stage, each generic that walks the row becomes an ``scf.for``
      over K vectors that reads the V-element slice of each row operand from its own
      FIFO slot: a reduction accumulates elementwise into a vector ``iter_args``
      seeded with the combiner's identity (``{loop_type = reduction_loop}``) and is
      finished after the loop by a horizontal reduction of that one vector into the
      original init; a sum or product of f16 accumulates in f32 (``WIDENED``, when
      the compute engine has f32 lanes: each term ``arith.extf``-ed, each lane
      ``arith.truncf``-ed once in the horizontal reduction); an elementwise generic
      writes each result slice to its FIFO inside its loop
      (``{loop_type = parallel_loop}``);
    - the stages feeding and draining those slots run the same loops, moving one
      slice per iteration (the memref offset along the row grows by ``V * k``);
    - one ``ktdf.fifo.allocate`` per phase of the compute stage (the run of reads
      and writes before, inside or after one loop) and pair of ends, so that every
      FIFO is filled in its allocation order.

    Compute stages without such a reduction, or holding anything else, are left
    unchanged.
    """

    name = "reduction-loop-exposure"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        candidates = [p for p in op.walk() if isinstance(p, PipelineOp) and _reduction_stage(p)]
        if not candidates:
            return
        device = device_of(op)
        for pipeline in candidates:
            plan = _plan(pipeline, device.lanes)
            if plan is not None:
                _expose(plan)


# ---------------------------------------------------------------------------------
# Finding what to stream
# ---------------------------------------------------------------------------------


def _reduction_stage(pipeline: PipelineOp) -> StageOp | None:
    """The stage of ``pipeline`` (directly) that runs a reduction of its innermost
    dimension."""
    return next(
        (s for s in pipeline.stages if any(reduces_innermost(op) for op in s.body.block.ops)),
        None,
    )


@dataclass
class _Plan:
    pipeline: PipelineOp
    stage: StageOp
    extent: int
    """R: the row length."""
    width: int
    """V: elements per vector."""
    walkers: list[GenericOp]
    """The generics that walk the row, in order."""
    sliced: set[SSAValue]
    """The FIFO reads whose last dimension is the row."""
    peers: dict[SSAValue, DataTransferOp]
    """Per FIFO slot the compute stage uses, the transfer at its other end."""
    accumulates: Callable[[Attribute], Attribute]
    """The element type a reduction of elements of the given type accumulates in."""


def _accumulation(lanes: Callable[[Attribute], int]) -> Callable[[Attribute], Attribute]:
    """Per element type, the type its sums and products accumulate in (``WIDENED``
    when the compute engine has lanes for the wider type)."""

    def accumulates(element: Attribute) -> Attribute:
        wide = WIDENED.get(element)
        if wide is None:
            return element
        try:
            lanes(wide)
        except KtcError:
            return element
        return wide

    return accumulates


def _plan(pipeline: PipelineOp, lanes: Callable[[Attribute], int]) -> _Plan | None:
    """What to stream in ``pipeline``, or None when it is not a form this pass takes."""
    stage = _reduction_stage(pipeline)
    ops = list(stage.body.block.ops)
    if not all(isinstance(op, _STAGE_OPS) for op in ops):
        return None
    extent = next(_extents(op)[-1] for op in ops if reduces_innermost(op))
    walkers = [op for op in ops if isinstance(op, GenericOp) and _extents(op)[-1] == extent]
    if not all(_walkable(op) for op in walkers):
        return None
    reads = [op.result for op in ops if isinstance(op, ReadFromFifoOp)]
    sliced = {read for read in reads if any(use.operation in walkers for use in read.uses)}
    if not all(_sliceable(read, walkers, extent) for read in sliced):
        return None
    types = {read.type.get_element_type() for read in sliced}
    width = math.gcd(extent, *(lanes(t) for t in types))
    if width == extent:
        return None
    peers = _peers(pipeline, stage)
    streamed = [read.owner.fifo_slot for read in sliced] + [
        use.operation.fifo_slot
        for walker in walkers if not reduces_innermost(walker)
        for result in walker.results for use in result.uses
    ]
    if peers is None or not all(_peer_sliceable(peers[slot], extent) for slot in streamed):
        return None
    return _Plan(pipeline, stage, extent, width, walkers, sliced, peers, _accumulation(lanes))


def _extents(generic: GenericOp) -> list[int]:
    return list(generic.get_static_loop_ranges())


def _walkable(generic: GenericOp) -> bool:
    """A row walker this pass can slice: every operand either follows the row in its
    last dimension or does not depend on the row; a reduction has a combiner, an
    elementwise walker's results go only to FIFOs."""
    row = AffineDimExpr(generic.get_num_loops() - 1)
    for attr in generic.indexing_maps.data:
        results = attr.data.results
        if row in results[:-1] or any(row in r.used_dims() for r in results if not isinstance(r, AffineDimExpr)):
            return False
    if reduces_innermost(generic):
        return combiner(generic) is not None and len(generic.outputs) == 1
    return all(
        isinstance(use.operation, WriteToFifoOp) for result in generic.results for use in result.uses
    ) and all(_follows_row(attr.data, row) for attr in generic.indexing_maps.data[len(generic.inputs):])


def _follows_row(access: AffineMap, row: AffineDimExpr) -> bool:
    return bool(access.results) and access.results[-1] == row


def _sliceable(read: SSAValue, walkers: list[GenericOp], extent: int) -> bool:
    """A FIFO read every user of which is a walker taking it along the row."""
    if read.type.get_shape()[-1] != extent:
        return False
    for use in read.uses:
        user = use.operation
        if user not in walkers or use.index >= len(user.inputs):
            return False
        row = AffineDimExpr(user.get_num_loops() - 1)
        if not _follows_row(user.indexing_maps.data[use.index].data, row):
            return False
    return True


def _slots(stage: StageOp) -> list[SSAValue]:
    return [
        op.fifo_slot for op in stage.body.block.ops if isinstance(op, ReadFromFifoOp | WriteToFifoOp)
    ]


def _peers(pipeline: PipelineOp, stage: StageOp) -> dict[SSAValue, DataTransferOp] | None:
    """The one transfer in another stage of ``pipeline`` at the other end of each slot
    the compute stage uses, or None unless every slot has exactly one and is
    allocated in the pipeline's private region."""
    peers: dict[SSAValue, DataTransferOp] = {}
    for slot in _slots(stage):
        users = [use.operation for use in slot.uses]
        transfers = [op for op in users if isinstance(op, DataTransferOp)]
        if len(users) != 2 or len(transfers) != 1 or slot.owner is not pipeline.private:
            return None
        if _stage_of(transfers[0]) not in pipeline.stages:
            return None
        peers[slot] = transfers[0]
    return peers


def _stage_of(op: Operation) -> StageOp | None:
    parent = op.parent_op()
    return parent if isinstance(parent, StageOp) else None


def _peer_sliceable(transfer: DataTransferOp, extent: int) -> bool:
    """A slot's transfer sliceable along the row: its sizes end in the row on both
    sides (a splat source reads one element)."""
    source, dest = transfer.source_side, transfer.dest_side
    sides = [dest] if transfer.is_splat else [source, dest]
    return all(side.sizes and side.sizes[-1] == extent for side in sides)


# ---------------------------------------------------------------------------------
# Streaming the compute stage
# ---------------------------------------------------------------------------------


def _expose(plan: _Plan) -> None:
    block = plan.stage.body.block
    bounds = _bounds(block, plan.extent // plan.width)
    for walker in plan.walkers:
        loop = located(_walk(walker, plan, bounds), walker)
        Rewriter.insert_op(loop, InsertPoint.before(walker))
        if reduces_innermost(walker):
            finish = located(_horizontal(walker, loop.results[0]), walker)
            Rewriter.insert_op(finish, InsertPoint.before(walker))
            walker.results[0].replace_all_uses_with(finish.results[0])
        else:
            for use in [u for r in walker.results for u in r.uses]:
                Rewriter.erase_op(use.operation)
        seeds = [value.owner for value in walker.outputs]
        Rewriter.erase_op(walker)
        for seed in seeds:
            if isinstance(seed, tensor.EmptyOp) and not seed.tensor.uses:
                Rewriter.erase_op(seed)
    for read in plan.sliced:
        Rewriter.erase_op(read.owner)
    _refill(plan)


def _bounds(block: Block, trips: int) -> tuple[SSAValue, SSAValue, SSAValue]:
    """Index constants 0, ``trips`` and 1 at the top of ``block``."""
    ops = [arith.ConstantOp(IntegerAttr(v, IndexType())) for v in (0, trips, 1)]
    Rewriter.insert_op(ops, InsertPoint.at_start(block))
    return ops[0].result, ops[1].result, ops[2].result


def _sliced_type(value_type: TensorType, width: int) -> TensorType:
    return TensorType(value_type.get_element_type(), [*value_type.get_shape()[:-1], width])


def _walk(walker: GenericOp, plan: _Plan, bounds) -> ForOp:
    """The loop over the vectors of the row doing ``walker``'s work one slice at a
    time: fresh reads of the sliced inputs, the generic on slices, and either an
    accumulation into the vector ``iter_args`` or writes of each result slice."""
    width = plan.width
    reduction = reduces_innermost(walker)
    body = Block(arg_types=[IndexType()])
    reads: dict[SSAValue, SSAValue] = {}
    for value in walker.inputs:
        if value in plan.sliced and value not in reads:
            read = located(ReadFromFifoOp(value.owner.fifo_slot, _sliced_type(value.type, width)),
                           value.owner)
            body.add_op(read)
            reads[value] = read.result
    inputs = [reads.get(value, value) for value in walker.inputs]
    maps = list(walker.indexing_maps.data)
    loops = walker.get_num_loops()
    region = walker.body.clone()
    if reduction:
        out_map = maps[-1].data
        maps[-1] = AffineMapAttr(AffineMap(loops, 0, (*out_map.results, AffineDimExpr(loops - 1))))
        partial = _accumulator_type(walker, width, plan.accumulates)
        accumulator = body.insert_arg(partial, 1)
        outputs = [accumulator]
        _widen_fold(region.block, partial.get_element_type())
    else:
        empties = [tensor.EmptyOp([], _sliced_type(r.type, width)) for r in walker.results]
        body.add_ops(empties)
        outputs = [e.tensor for e in empties]
    parallel = [IteratorTypeAttr(IteratorType.PARALLEL)] * loops
    iterators = parallel if reduction else walker.iterator_types
    step = located(GenericOp(inputs, outputs, region, maps, iterators,
                             [o.type for o in outputs]), walker)
    body.add_op(step)
    if reduction:
        body.add_op(scf.YieldOp(step.results[0]))
    else:
        for result, new in zip(walker.results, step.results):
            body.add_ops([located(WriteToFifoOp(new, use.operation.fifo_slot), use.operation)
                          for use in result.uses])
        body.add_op(scf.YieldOp())
    seeds: list[SSAValue] = []
    if reduction:
        fill = _identity_fill(walker, width, plan.accumulates)
        Rewriter.insert_op(fill, InsertPoint.before(walker))
        seeds = [fill[-1].results[0]]
    loop = ForOp(*bounds, seeds, body)
    kind = LoopType.REDUCTION_LOOP if reduction else LoopType.PARALLEL_LOOP
    set_loop_type(loop, kind)
    return loop


def _accumulator_type(
    reduction: GenericOp, width: int, accumulates: Callable[[Attribute], Attribute]
) -> TensorType:
    """The vector partial of ``reduction``: its output with the row's V lanes added, in
    the type its combiner accumulates in (max and min stay in their own)."""
    output = reduction.outputs[0].type
    element = output.get_element_type()
    if combiner(reduction) in (arith.AddfOp, arith.MulfOp):
        element = accumulates(element)
    return TensorType(element, [*output.get_shape(), width])


def _widen_fold(block: Block, wide: Attribute) -> None:
    """A reduction body ``out' = comb(out, e)`` made to fold into an accumulator of
    type ``wide``: ``out' = comb(out, extf(e))`` (unchanged when ``out`` has that type)."""
    out = block.args[-1]
    if out.type == wide:
        return
    Rewriter.replace_value_with_new_type(out, wide)
    folding = block.last_op.operands[0].owner
    term = folding.operands[1] if folding.operands[0] is block.args[-1] else folding.operands[0]
    widened = arith.ExtFOp(term, wide)
    Rewriter.insert_op(widened, InsertPoint.before(folding))
    new = type(folding)(*[widened.result if v is term else v for v in folding.operands])
    Rewriter.replace_op(folding, new)


def _identity_fill(
    reduction: GenericOp, width: int, accumulates: Callable[[Attribute], Attribute]
) -> list[Operation]:
    """A vector partial of ``reduction`` filled with its combiner's identity."""
    partial = _accumulator_type(reduction, width, accumulates)
    element = partial.get_element_type()
    constant = arith.ConstantOp(FloatAttr(IDENTITIES[combiner(reduction)], element))
    empty = tensor.EmptyOp([], partial)
    body = Block(arg_types=[element])
    body.add_op(YieldOp(constant.result))
    rank = partial.get_num_dims()
    fill = GenericOp(
        [], [empty.tensor], Region(body), [AffineMapAttr(AffineMap.identity(rank))],
        [IteratorTypeAttr(IteratorType.PARALLEL)] * rank, [partial],
    )
    return [located(op, reduction) for op in (constant, empty, fill)]


def _horizontal(reduction: GenericOp, partial: SSAValue) -> GenericOp:
    """The reduction of the one vector ``partial`` into ``reduction``'s init (each lane
    rounded to the init's type first when the partial is wider)."""
    rank = partial.type.get_num_dims()
    element = partial.type.get_element_type()
    init = reduction.outputs[0]
    narrow = init.type.get_element_type()
    body = Block(arg_types=[element, narrow])
    lane: SSAValue = body.args[0]
    if element != narrow:
        rounded = arith.TruncFOp(lane, narrow)
        body.add_op(rounded)
        lane = rounded.result
    fold = combiner(reduction)(body.args[1], lane)
    body.add_ops([fold, YieldOp(fold.results[0])])
    maps = [AffineMap.identity(rank), AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank - 1)))]
    iterators = [IteratorType.PARALLEL] * (rank - 1) + [IteratorType.REDUCTION]
    return GenericOp(
        [partial], [init], Region(body), [AffineMapAttr(m) for m in maps],
        [IteratorTypeAttr(kind) for kind in iterators], [init.type],
    )


# ---------------------------------------------------------------------------------
# FIFOs and the stages at their other ends
# ---------------------------------------------------------------------------------


@dataclass
class _Phase:
    """A run of FIFO reads and writes of the compute stage: straight-line, or the
    body of one loop over the row."""

    loop: ForOp | None
    ops: list[ReadFromFifoOp | WriteToFifoOp]


def _phases(stage: StageOp) -> list[_Phase]:
    phases: list[_Phase] = []
    for op in stage.body.block.ops:
        if isinstance(op, ForOp):
            inner = [o for o in op.body.block.ops if isinstance(o, ReadFromFifoOp | WriteToFifoOp)]
            phases.append(_Phase(op, inner))
        elif isinstance(op, ReadFromFifoOp | WriteToFifoOp):
            if not phases or phases[-1].loop is not None:
                phases.append(_Phase(None, []))
            phases[-1].ops.append(op)
    return phases


def _data_type(op: ReadFromFifoOp | WriteToFifoOp) -> Attribute:
    return op.result.type if isinstance(op, ReadFromFifoOp) else op.data.type


def _refill(plan: _Plan) -> None:
    """New FIFO slots for the streamed compute stage and, in the stages at their other
    ends, the transfers that fill and drain them in the same order."""
    phases = _phases(plan.stage)
    peer = {op: plan.peers[op.fifo_slot] for phase in phases for op in phase.ops}
    allocations: list[FifoAllocateOp] = []
    position: dict[Operation, int] = {}
    for phase in phases:
        for ends in dict.fromkeys(_ends(op.fifo_slot.type) for op in phase.ops):
            members = [op for op in phase.ops if _ends(op.fifo_slot.type) == ends]
            for index, op in enumerate(members):
                position[op] = sum(len(a.results) for a in allocations) + index
            allocations.append(FifoAllocateOp([_slot_type(op) for op in members]))
    slots = add_resources(plan.pipeline, allocations)
    for stage in dict.fromkeys(_stage_of(transfer) for transfer in peer.values()):
        _refill_peer(stage, phases, plan, peer, lambda op: slots[position[op]])
    old_slots = [op.fifo_slot for op in position]
    for op, index in position.items():
        op.operands[0 if isinstance(op, ReadFromFifoOp) else 1] = slots[index]
    for transfer in set(peer.values()):
        Rewriter.erase_op(transfer)
    remove_resources(plan.pipeline, old_slots)


def _slot_type(op: ReadFromFifoOp | WriteToFifoOp) -> FifoSlotType:
    old = op.fifo_slot.type
    data = op.result.type if isinstance(op, ReadFromFifoOp) else op.data.type
    return FifoSlotType(old.source, old.destination, math.prod(data.get_shape()), old.element_type)


def _refill_peer(
    stage: StageOp,
    phases: list[_Phase],
    plan: _Plan,
    peer: dict[Operation, DataTransferOp],
    slot_of: Callable[[Operation], SSAValue],
) -> None:
    """Append to ``stage`` its transfers for the compute stage's FIFO ops, phase by
    phase: straight, or one slice per iteration of a loop like the compute's."""
    block = stage.body.block
    bounds = None
    for phase in phases:
        mine = [op for op in phase.ops if _stage_of(peer[op]) is stage]
        if not mine:
            continue
        if phase.loop is None:
            block.add_ops(_moved(peer[op], slot_of(op), None, plan) for op in mine)
            continue
        bounds = bounds or _bounds(block, plan.extent // plan.width)
        body = Block(arg_types=[IndexType()])
        body.add_ops(_moved(peer[op], slot_of(op), body.args[0], plan) for op in mine)
        body.add_op(scf.YieldOp())
        loop = ForOp(*bounds, [], body)
        set_loop_type(loop, loop_type(phase.loop))
        block.add_op(loop)


def _moved(transfer: DataTransferOp, slot: SSAValue, vector: SSAValue | None, plan: _Plan) -> DataTransferOp:
    """``transfer`` to or from ``slot`` instead of its slot; when ``vector`` is given,
    only that vector's slice of the row."""
    sides = []
    for side in (transfer.source_side, transfer.dest_side):
        sizes = side.mixed_sizes
        if vector is not None and not (transfer.is_splat and side.name == "source"):
            sizes[-1] = plan.width
        if isinstance(side.value.type, FifoSlotType):
            sides.append((slot, sizes, None))
            continue
        access = (side.access.data, list(side.indices))
        if vector is not None and sizes[-1] == plan.width:
            access = _shifted(access, vector, plan.width)
        sides.append((side.value, sizes, access))
    (source, source_sizes, source_access), (dest, dest_sizes, dest_access) = sides
    return located(DataTransferOp(
        source, source_sizes, dest, dest_sizes, source_access, dest_access,
        attributes=dict(transfer.attributes),
    ), transfer)


def _shifted(access: tuple[AffineMap, list[SSAValue]], vector: SSAValue, width: int):
    """``access`` moved ``width * vector`` further along its last dimension."""
    old, indices = access
    results = (*old.results[:-1], old.results[-1] + AffineDimExpr(old.num_dims) * width)
    return AffineMap(old.num_dims + 1, 0, results), [*indices, vector]


def _ends(slot: FifoSlotType) -> tuple[Attribute, Attribute]:
    return slot.source, slot.destination
