"""``reduction-dim-chunking``: a reduction whose row does not fit its scratchpad budget
is cut into chunks that do.

IBM's version is ``ReductionDimChunking.cpp`` (§1.1 item 13, §4.7 of the anchor study):
it wraps the inner pipeline in a chunk loop, picks the first chunk or a later one with
an ``scf.if`` at run time, and uses a fixed 1 MiB threshold. Here the first chunk is
peeled off, so every pipeline stays straight-line for ``reduction-loop-exposure`` and
the lowering, and the threshold is a share of the device's scratchpad.

A grid that splits the reduced dimension over cores (tiles that reduce different parts
of the same rows into the same result) is diagnosed. Such tiles' stores race: KTIR
keeps the last tile's partial (the reference interpreter runs tiles in id order), so
combining them would change the kernel's meaning. The KTIR way to ask for combined
partials is ``ktdp.inter_tile_reduce``, which ``ktir-legality-check`` rejects today.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ktc.arch.model import Device, device_of
from ktc.dialects.diagnostics import KtcError, located, where
from ktc.dialects.ktdf import (
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    LoopType,
    PipelineOp,
    PrivateOp,
    ReadFromFifoOp,
    StageOp,
    WriteToFifoOp,
    set_loop_type,
)
from ktc.dialects.ktdp import grid_of
from ktc.dialects.upstream import ForOp
from ktc.passes.analysis.reductions import IDENTITIES, combiner, reduces_innermost
from ktc.passes.utils.ir import defined_inside, enclosing_function
from ktc.passes.utils.resources import add_resources, handed_out, remove_resources, stage_in
from ktc.passes.utils.values import evaluate
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    FixedBitwidthType,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

SCRATCHPAD_SHARE = 8
"""The default budget of a reduction's staged row: the scratchpad's capacity divided
by this. The chunked row is staged twice (by the first chunk's pipeline and by the
later chunks'), and double buffering may double both: half the scratchpad at the
smallest tile, the rest for the other buffers and larger tiles."""

MAX_TILES_CHECKED = 4096
"""Grids up to this many tiles are checked for reductions split over cores."""


@dataclass(frozen=True)
class ReductionDimChunking(ModulePass):
    """Cut reductions whose staged row exceeds the budget into chunks.

    Expects ScheduleIR after ``ktir-to-schedule`` (optionally ``stage-coarsening``): a
    ``ktdf.pipeline`` P whose ``ktdf.private`` holds a scratchpad buffer with the rows
    of a reduction (last dimension R) and a buffer for its results; stages of P load
    the rows from device memory, a compute stage (in P or in a pipeline nested in a
    stage of P) reads a row from a FIFO fed from the row buffer, reduces its innermost
    dimension with one ``linalg.generic`` (an ``arith`` combiner, initialized with the
    combiner's identity) and writes the result to a FIFO drained into the result
    buffer; the other stages of P store the result buffer to device memory.

    When the row buffer (dynamic dimensions counted at their minimum, 1) takes more
    than ``chunk-size-threshold`` bytes, or ``num-chunks`` is given, the reduced
    dimension is cut into C chunks of R/C elements, a multiple of the vector width
    gcd(R, lanes). Produces, where P was:

    - the result buffer's ``memref.alloc``, hoisted out of P: it holds the partial
      results across chunks;
    - P, the first chunk: loads and feeds R/C elements per row (buffer and FIFO
      slot shrunk), no store stages;
    - ``scf.for %c = 1 to C {loop_type = reduction_loop}`` around a copy of P for the
      later chunks: loads chunk %c (device-memory offset + %c * R/C); its compute
      stage also reads the partial, reloaded from the result buffer through a new
      FIFO slot, and combines it with the chunk's result before writing it back;
    - a pipeline with P's store stages: device memory is written after the last chunk.

    Reductions of other forms (the row also used elementwise, a non-identity init,
    ...) are left unchanged. Errors: a row that cannot be cut into whole vectors that
    fit, a ``num-chunks`` that does not divide it, a grid whose tiles reduce parts of
    the same rows into the same results.
    """

    name = "reduction-dim-chunking"

    chunk_size_threshold: int = 0
    """Bytes a reduction's staged row may take; 0: the scratchpad capacity divided
    by ``SCRATCHPAD_SHARE``."""
    num_chunks: int = 0
    """Cut every reduction of the handled form into this many chunks (tests); 0: the
    fewest chunks that fit ``chunk-size-threshold``."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reductions = [g for g in op.walk() if reduces_innermost(g) and isinstance(g.parent_op(), StageOp)]
        if not reductions:
            return
        device = device_of(op)
        budget = self.chunk_size_threshold or device.memory(device.scratchpad).size // SCRATCHPAD_SHARE
        for reduction in reductions:
            plan = _plan(reduction)
            if plan is None:
                continue
            _refuse_split_over_cores(plan)
            chunks = _chunks(plan, self.num_chunks, budget, device)
            if chunks > 1:
                _chunk(plan, chunks)


# ---------------------------------------------------------------------------------
# Finding a chunkable reduction
# ---------------------------------------------------------------------------------


@dataclass
class _Plan:
    pipeline: PipelineOp
    """P: its private region holds the row buffer and the result buffer."""
    reduction: GenericOp
    write: WriteToFifoOp
    """Sends the reduction's result."""
    feed: DataTransferOp
    """Row buffer -> the FIFO the reduction reads."""
    drain: DataTransferOp
    """The FIFO the reduction writes -> result buffer."""
    loads: list[DataTransferOp]
    """Device memory -> row buffer."""
    stores: list[StageOp]
    """Stages of P that read the result buffer."""
    extent: int
    """R: the row length."""


def _plan(reduction: GenericOp) -> _Plan | None:
    """The reduction's pipeline and the ops chunking rewrites, or None when the
    reduction is not of the form this pass takes."""
    if len(reduction.inputs) != 1 or not _identity_init(reduction):
        return None
    read, row = reduction.inputs[0].owner, reduction.inputs[0]
    uses = [use.operation for use in reduction.results[0].uses]
    if not isinstance(read, ReadFromFifoOp) or len(list(row.uses)) != 1 or len(uses) != 1:
        return None
    write = uses[0]
    if not isinstance(write, WriteToFifoOp) or write.parent_op() is not reduction.parent_op():
        return None
    feed, drain = _other_end(read.fifo_slot, read), _other_end(write.fifo_slot, write)
    if feed is None or drain is None or feed.destination != read.fifo_slot or drain.source != write.fifo_slot:
        return None
    if not all(isinstance(end.parent_op(), StageOp) for end in (feed, drain)):
        return None
    buffer, result = feed.source, drain.destination
    if not _private_pair(buffer, result):
        return None
    pipeline = buffer.owner.parent_op()
    extent = row.type.get_shape()[-1]
    loads = [use.operation for use in buffer.uses if use.operation is not feed]
    stores = [stage_in(pipeline, use.operation) for use in result.uses if use.operation is not drain]
    if not all(_is_load(t, buffer, extent) for t in loads) or feed.source_side.sizes[-1] != extent:
        return None
    if not loads or None in stores or stage_in(pipeline, feed) in stores or not _sinks(stores, pipeline):
        return None
    if any(defined_inside(v, pipeline) for v in handed_out(result).owner.operands):
        return None
    if any(defined_inside(v, drain.parent_op()) for v in drain.dest_indices):
        return None
    return _Plan(pipeline, reduction, write, feed, drain, loads, list(dict.fromkeys(stores)), extent)


def _identity_init(reduction: GenericOp) -> bool:
    """Whether the reduction starts from a fill with its combiner's identity."""
    kind = combiner(reduction)
    fill = reduction.outputs[0].owner
    if kind is None or not isinstance(fill, GenericOp) or fill.inputs:
        return False
    constant = fill.body.block.last_op.operands[0].owner
    return (
        isinstance(constant, arith.ConstantOp)
        and isinstance(constant.value, FloatAttr)
        and constant.value.value.data == IDENTITIES[kind]
    )


def _other_end(slot: SSAValue, user: Operation) -> DataTransferOp | None:
    """The one transfer at the other end of a FIFO slot ``user`` reads or writes."""
    others = [use.operation for use in slot.uses if use.operation is not user]
    if len(others) != 1 or not isinstance(others[0], DataTransferOp) or others[0].is_splat:
        return None
    return others[0]


def _private_pair(buffer: SSAValue, result: SSAValue) -> bool:
    """Two memrefs handed out by the same ``ktdf.private``, both allocated there."""
    private = buffer.owner
    return (
        isinstance(private, PrivateOp)
        and result.owner is private
        and all(isinstance(handed_out(v).owner, memref.AllocOp) for v in (buffer, result))
    )


def _is_load(transfer: Operation, buffer: SSAValue, extent: int) -> bool:
    """A memref-to-buffer transfer of whole rows."""
    return (
        isinstance(transfer, DataTransferOp)
        and transfer.destination == buffer
        and isinstance(transfer.source.type, MemRefType)
        and not transfer.is_splat
        and transfer.source_side.sizes[-1] == extent
        and transfer.dest_side.sizes[-1] == extent
    )


def _sinks(stages: list[StageOp], pipeline: PipelineOp) -> bool:
    """Whether no other stage of ``pipeline`` waits for ``stages``."""
    released = {token for stage in stages for token in stage.depends_out}
    return not any(t in released for s in pipeline.stages if s not in stages for t in s.depends_in)


# ---------------------------------------------------------------------------------
# How many chunks
# ---------------------------------------------------------------------------------


def _chunks(plan: _Plan, forced: int, budget: int, device: Device) -> int:
    """C: ``forced``, or the fewest that fit ``budget``; 1 when the row fits."""
    buffer = plan.feed.source.type
    element = buffer.get_element_type()
    width = math.gcd(plan.extent, device.lanes(element))
    vectors = plan.extent // width
    if forced:
        if vectors % forced:
            raise KtcError(
                f"num-chunks={forced} does not cut a row of {plan.extent} elements into whole "
                f"vectors of {width}", where(plan.reduction),
            )
        return forced
    size = math.prod(max(extent, 1) for extent in buffer.get_shape()) * _bytes(element, plan.reduction)
    if size <= budget:
        return 1
    fitting = (c for c in range(2, vectors + 1) if vectors % c == 0 and size // c <= budget)
    chunks = next(fitting, None)
    if chunks is None:
        raise KtcError(
            f"the row of this reduction ({plan.extent} elements, {size} bytes staged) exceeds "
            f"the chunk budget of {budget} bytes, and no cut into whole vectors of {width} "
            "elements fits it", where(plan.reduction),
        )
    return chunks


def _bytes(element: Attribute, op: Operation) -> int:
    if not isinstance(element, FixedBitwidthType):
        raise KtcError(f"elements of {element} have no size in bytes", where(op))
    return element.size


# ---------------------------------------------------------------------------------
# Reductions split over cores
# ---------------------------------------------------------------------------------


def _refuse_split_over_cores(plan: _Plan) -> None:
    """Fail when two tiles of the grid load different parts of the rows and store
    their results at the same device-memory offset."""
    func = enclosing_function(plan.pipeline)
    grid = grid_of(func) if func is not None else None
    stores = [
        t for stage in plan.stores for t in stage.walk()
        if isinstance(t, DataTransferOp) and t.source == plan.drain.destination
    ]
    offsets = [_tile_offset(t.source) for t in plan.loads] + [_tile_offset(t.destination) for t in stores]
    if grid is None or math.prod(grid) > MAX_TILES_CHECKED or None in offsets or not stores:
        return
    loads, store = offsets[:len(plan.loads)], offsets[len(plan.loads)]
    seen: dict[int, tuple[tuple[int, ...], list[int | None]]] = {}
    for tile in itertools.product(*(range(n) for n in grid)):
        target = evaluate(store, tile)
        parts = [evaluate(load, tile) for load in loads]
        if target is None or None in parts:
            return
        other = seen.setdefault(target, (tile, parts))
        if other[1] != parts:
            raise KtcError(
                f"tiles {list(other[0])} and {list(tile)} of grid {list(grid)} reduce different "
                f"parts of the same rows into the same results (device-memory offset {target}): "
                "the grid splits the reduced dimension over cores; their stores race (KTIR keeps "
                "the last tile's partial), and combining partials across cores is asked with "
                "ktdp.inter_tile_reduce, which is not scheduled yet; give each tile whole rows",
                where(plan.reduction),
            )


def _tile_offset(value: SSAValue) -> SSAValue | None:
    """The dynamic offset of the device-memory tile a transfer side addresses."""
    cast = value.owner
    if not isinstance(cast, memref.ReinterpretCastOp) or len(cast.offsets) != 1:
        return None
    return cast.offsets[0]


# ---------------------------------------------------------------------------------
# Chunking
# ---------------------------------------------------------------------------------


def _chunk(plan: _Plan, chunks: int) -> None:
    length = plan.extent // chunks
    pipeline = plan.pipeline
    _hoist_result(plan.drain.destination, pipeline)
    plan.loads = [_resized(t, length) for t in plan.loads]
    plan.feed = _resized(plan.feed, length)
    _shrink_row(plan, length)
    _split_stores(pipeline, plan.stores)
    _later_chunks(plan, chunks, length)


def _hoist_result(result: SSAValue, pipeline: PipelineOp, before: Operation | None = None) -> None:
    """The buffer ``pipeline`` hands out as ``result`` allocated before ``before``
    (default: ``pipeline``), so that it lives from there to its last use."""
    alloc = handed_out(result).owner.clone()
    Rewriter.insert_op(alloc, InsertPoint.before(before or pipeline))
    result.replace_all_uses_with(alloc.results[0])
    remove_resources(pipeline, [result])


def _shrink_row(plan: _Plan, length: int) -> None:
    """The row buffer, the FIFO slot and the FIFO read hold ``length`` elements of
    the row."""
    buffer, slot = plan.feed.source, plan.feed.destination
    _retype_private(buffer, _with_last(buffer.type, length))
    old = slot.type
    elements = old.num_elements.data // plan.extent * length
    _retype_private(slot, FifoSlotType(old.source, old.destination, elements, old.element_type))
    row = plan.reduction.inputs[0]
    Rewriter.replace_value_with_new_type(row, _with_last(row.type, length))


def _with_last(shaped: MemRefType | TensorType, length: int) -> Attribute:
    shape = [*shaped.get_shape()[:-1], length]
    if isinstance(shaped, TensorType):
        return TensorType(shaped.get_element_type(), shape)
    return MemRefType(shaped.get_element_type(), shape, shaped.layout, shaped.memory_space)


def _retype_private(value: SSAValue, new_type: Attribute) -> None:
    """A ``ktdf.private`` result and the value it hands out, retyped."""
    private = value.owner
    yielded = private.body.block.last_op.operands[private.results.index(value)]
    Rewriter.replace_value_with_new_type(yielded, new_type)
    Rewriter.replace_value_with_new_type(value, new_type)


def _resized(transfer: DataTransferOp, length: int, chunk: SSAValue | None = None) -> DataTransferOp:
    """``transfer`` moving ``length`` elements of the row; its source offset moved
    ``chunk * length`` along the row when ``chunk`` is given."""
    sides = []
    for side in (transfer.source_side, transfer.dest_side):
        sizes = side.mixed_sizes
        sizes[-1] = length
        access = None if side.access is None else (side.access.data, list(side.indices))
        if access is not None and chunk is not None and side.name == "source":
            old, indices = access
            shifted = old.results[-1] + AffineDimExpr(old.num_dims) * length
            access = (AffineMap(old.num_dims + 1, 0, (*old.results[:-1], shifted)), [*indices, chunk])
        sides.append((side.value, sizes, access))
    (source, source_sizes, source_access), (dest, dest_sizes, dest_access) = sides
    new = located(DataTransferOp(
        source, source_sizes, dest, dest_sizes, source_access, dest_access,
        attributes=dict(transfer.attributes),
    ), transfer)
    Rewriter.replace_op(transfer, new)
    return new


def _split_stores(pipeline: PipelineOp, stores: list[StageOp]) -> None:
    """``stores`` moved into a pipeline of their own after ``pipeline``; the tokens
    only they waited for are gone."""
    waited = {token for stage in stores for token in stage.depends_in}
    moved = []
    for stage in stores:
        units = stage.applicable_units.data if stage.applicable_units else None
        moved.append(StageOp([], [], stage.detach_region(stage.body), units))
        Rewriter.erase_op(stage)
    Rewriter.insert_op(PipelineOp(moved), InsertPoint.after(pipeline))
    for stage in pipeline.stages:
        released = [t for t in stage.depends_out if t not in waited]
        if len(released) != len(stage.depends_out):
            units = stage.applicable_units.data if stage.applicable_units else None
            body = stage.detach_region(stage.body)
            Rewriter.replace_op(stage, StageOp(stage.depends_in, released, body, units))
    remove_resources(pipeline, [t for t in waited if not t.uses])


def _later_chunks(plan: _Plan, chunks: int, length: int) -> None:
    """A loop over chunks 1..C-1 after ``plan.pipeline`` running a copy of it that
    loads chunk %c and combines each result with the partial in the result buffer.

    The copy's row buffer is allocated before ``plan.pipeline``, so that it is live
    while the first chunk's is: ``address-assignment`` then gives them different
    space. Sharing it would let the load of chunk 1 overwrite chunk 0's row while the
    load unit still feeds it to the compute engine (the engines run the two pipelines
    each at its own pace; nothing orders one pipeline's reads before the next one's
    writes to another buffer at the same address)."""
    pipeline = plan.pipeline
    bounds = [arith.ConstantOp(IntegerAttr(v, IndexType())) for v in (1, chunks)]
    Rewriter.insert_op(bounds, InsertPoint.after(pipeline))
    copy = pipeline.clone()
    twin = dict(zip(pipeline.walk(), copy.walk()))
    body = Block([copy, scf.YieldOp()], arg_types=[IndexType()])
    loop = ForOp(bounds[0].result, bounds[1].result, bounds[0].result, [], body)
    set_loop_type(loop, LoopType.REDUCTION_LOOP)
    Rewriter.insert_op(loop, InsertPoint.after(bounds[1]))
    for load in plan.loads:
        _resized(twin[load], length, body.args[0])
    _combine(twin[plan.reduction], twin[plan.write], twin[plan.feed], twin[plan.drain])
    _hoist_result(twin[plan.feed].source, copy, before=pipeline)


def _combine(reduction: GenericOp, write: WriteToFifoOp, feed: DataTransferOp, drain: DataTransferOp) -> None:
    """The partial reloaded from the result buffer through a new FIFO slot beside
    ``feed``'s, and combined with ``reduction``'s result before ``write``."""
    slot = feed.destination
    inner = slot.owner.parent_op()
    row_slot, out_slot = slot.type, write.fifo_slot.type
    partial_slot = FifoSlotType(row_slot.source, row_slot.destination, out_slot.num_elements.data,
                                out_slot.element_type)
    [partial] = add_resources(inner, [FifoAllocateOp([partial_slot])])
    source = drain.dest_side
    reload = located(DataTransferOp(
        drain.destination, source.mixed_sizes, partial, drain.source_side.mixed_sizes,
        (source.access.data, list(source.indices)), None,
    ), drain)
    Rewriter.insert_op(reload, InsertPoint.after(feed))
    result = reduction.results[0]
    read = ReadFromFifoOp(partial, result.type)
    empty = tensor.EmptyOp([], result.type)
    combined = _elementwise(combiner(reduction), [read.result, result], empty.tensor)
    Rewriter.insert_op([located(op, reduction) for op in (read, empty, combined)],
                       InsertPoint.before(write))
    write.operands[0] = combined.results[0]


def _elementwise(kind: type[Operation], inputs: Sequence[SSAValue], init: SSAValue) -> GenericOp:
    """``kind`` applied element by element to two tensors of ``init``'s type."""
    result_type = init.type
    element = result_type.get_element_type()
    body = Block(arg_types=[element, element, element])
    fold = kind(body.args[0], body.args[1])
    body.add_ops([fold, YieldOp(fold.results[0])])
    rank = result_type.get_num_dims()
    maps = [AffineMapAttr(AffineMap.identity(rank))] * 3
    return GenericOp(
        inputs, [init], Region(body), maps, [IteratorTypeAttr(IteratorType.PARALLEL)] * rank, [result_type],
    )
