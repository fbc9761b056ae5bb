"""``inter-tile-reduce-lowering``: a ``ktdp.inter_tile_reduce`` (reduce-to-one,
reduce-to-subset or all-reduce) becomes a copy of each partial over the interconnect
into a receive buffer in the scratchpad of every consumer tile of its group, and a
fold of that buffer on every tile; a ``ktdp.inter_tile_consume`` a copy of the one
partial each consumer depends on into its buffer, and a load of it.

The grid is static and runs in one wave (``ktir-legality-check``), so the affine sets
of the inter-tile ops resolve, once, into per-tile facts (``Exchange`` of
``ktc.passes.analysis.inter_tile``): the producers of every group in ascending tile
id, its consumers, and the slot of each producer in the receive buffer. The
reference interpreter folds the partials of a group in ascending tile id
(``sim/reference_grid.py``); the receive buffer holds them in that order and the
fold reads it slot by slot, so every consumer gets the reference's bits.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    IndexType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnknownLoc,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdp import grid_of
from ktc.passes.analysis.inter_tile import (
    Exchange,
    consumer_of,
    function_of,
    groups_of,
    resolve,
    resolve_consume,
)
from ktc.passes.utils.affine import box
from ktc.passes.utils.ir import linear_tile_id


@dataclass(frozen=True)
class InterTileReduceLowering(ModulePass):
    """Lower each ``ktdp.inter_tile_produce`` + ``ktdp.inter_tile_reduce`` pair.

    Expects programs as ``compute-group-extraction`` leaves them (or KTIR kernels):
    ``func.func`` with a static ``grid`` that fits the device's cores in one wave, the
    pair at the function's top level or inside ``scf.for`` loops (``function_of``),
    a reduce of one partial or several, each of rank >= 1, whose consumers are
    producers of their group (reduce-to-one, reduce-to-subset or all-reduce; see
    ``resolve``), in a module that declares its device.

    Produces, per pair:

    - per partial, a receive buffer ``memref.alloc`` in the scratchpad at the function's start,
      ``slots`` partials stacked along dimension 0 (same address on every tile),
      reused by every iteration of the loops around the pair (the signals that keep
      a copy from overwriting a slot not yet folded are ``convert-ktdf-to-dfir``'s);
    - the producer body inlined (its group id a ``ktdf.tile_table`` of the linear tile
      id, x fastest) and each partial stored with ``ktdp.store`` into the tile's slot
      (``ktdf.tile_table`` of slots times the partial's first extent);
    - per consumer rank ``k`` (the ``k``-th consumer of a group in ascending id), a
      ``ktdf.pipeline`` with one stage on the interconnect stop's engine kind: a
      ``ktdf.data_transfer`` of that slot to the same slot of the same buffer in the
      scratchpad of the tile its ``ktdf.to_tiles`` table names, the group's ``k``-th
      consumer (-1 on that consumer itself and on non-producers, which send
      nothing; a rank on which no tile sends has no pipeline);
    - at the reduce, a ``ktdp.load`` of every slot of each buffer and the combiner
      inlined as a fold of the partials' tuples in slot order (from the identity when there is one); the reduce's result is the
      fold's, meaningful on consumer tiles only, as in KTIR.

    A produce + ``ktdp.inter_tile_consume`` pair (``resolve_consume``: each consumer
    tile depends on one producer) is lowered alike with a two-slot buffer: the
    tile's partial stored in slot 0, a pipeline per fan-out rank copying it into slot
    1 of each tile that receives it (``ktdf.to_tiles``), and at the consume a load of
    slot 1, or of slot 0 on a tile whose partial is its own (a ``ktdf.tile_table``).

    A function without inter-tile ops is unchanged, so the pass is idempotent.
    """

    name = "inter-tile-reduce-lowering"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        produces = [inner for inner in op.walk() if isinstance(inner, ktdp.InterTileProduceOp)]
        if not produces:
            return
        device = device_of(op)
        if device.interconnect is None:
            raise KtcError(f"device @{device.name} has no interconnect to combine partials over",
                           where(produces[0]))
        for produce in produces:
            lower = _lower if isinstance(consumer_of(produce), ktdp.InterTileReduceOp) else _consume
            lower(produce, device.scratchpad, device.interconnect.stop)


def _lower(produce: ktdp.InterTileProduceOp, scratchpad: str, stop: str) -> None:
    func = function_of(produce)
    grid = grid_of(func)
    reduce, exchange = resolve(produce, prod(grid))
    tile = linear_tile_id(produce, grid)
    partials = _inline_producer(produce, tile, exchange.group_table(groups_of(produce, exchange.tiles)))
    slot = ktdf.TileTableOp(tile, exchange.slot_table())
    ops: list[Operation] = [slot]
    buffers = []
    for k, (partial, result) in enumerate(zip(partials, reduce.outputs)):
        partial_type = result.type
        rows = partial_type.get_shape()[0]
        shape = [rows * exchange.slots, *partial_type.get_shape()[1:]]
        received = memref.AllocOp([], [], MemRefType(partial_type.get_element_type(), shape,
                                                      memory_space=StringAttr(scratchpad)))
        received.memref.name_hint = "received" if len(partials) == 1 else f"received{k}"
        Rewriter.insert_op(received, InsertPoint.at_start(func.body.block))
        extent = arith.ConstantOp.from_int_and_width(rows, IndexType())
        offset = arith.MuliOp(slot, extent)
        own = _slot_tile(received.memref, offset.result, partial_type)
        store = ktdp.StoreOp.build(operands=[partial, own.result])
        rings = [_ring_pipeline(received.memref, offset.result, offset.result, partial_type, table, stop)
                 for table in exchange.send_tables()]
        ops += [extent, offset, own, store, *rings]
        buffers.append(received.memref)
    _insert(ops, produce)
    _fold(reduce, buffers, exchange)
    Rewriter.erase_op(produce)


def _consume(produce: ktdp.InterTileProduceOp, scratchpad: str, stop: str) -> None:
    """A produce + consume pair: each tile's partial stored in slot 0 of a two-slot
    buffer and copied into slot 1 of every tile that receives it; a consumer loads slot
    1, or slot 0 when its partial is its own."""
    func = function_of(produce)
    grid = grid_of(func)
    consume, delivery = resolve_consume(produce, prod(grid))
    partial_type = consume.outputs[0].type
    tile = linear_tile_id(produce, grid)
    (partial,) = _inline_producer(produce, tile, list(delivery.groups))
    rows = partial_type.get_shape()[0]
    shape = [2 * rows, *partial_type.get_shape()[1:]]
    buffer = memref.AllocOp([], [], MemRefType(partial_type.get_element_type(), shape,
                                                memory_space=StringAttr(scratchpad)))
    buffer.memref.name_hint = "delivered"
    Rewriter.insert_op(buffer, InsertPoint.at_start(func.body.block))
    own, received = (arith.ConstantOp.from_int_and_width(n, IndexType()) for n in (0, rows))
    slot = _slot_tile(buffer.memref, 0, partial_type)
    store = ktdp.StoreOp.build(operands=[partial, slot.result])
    rings = [_ring_pipeline(buffer.memref, own.result, received.result, partial_type, table, stop)
             for table in delivery.send_tables()]
    _insert([own, received, slot, store, *rings], produce)
    which = ktdf.TileTableOp(tile, delivery.received_table())
    offset = arith.MuliOp(which, received)
    read = _slot_tile(buffer.memref, offset.result, partial_type)
    load = ktdp.LoadOp.build(operands=[read.result], result_types=[partial_type])
    _insert([which, offset, read, load], consume)
    consume.outputs[0].replace_all_uses_with(load.results[0])
    Rewriter.erase_op(consume)
    Rewriter.erase_op(produce)


def _insert(ops: list[Operation], before: Operation) -> None:
    for op in ops:
        if isinstance(op.location, UnknownLoc):
            op.location = before.location
    Rewriter.insert_op(ops, InsertPoint.before(before))


def _inline_producer(produce: ktdp.InterTileProduceOp, tile: SSAValue,
                     groups: list[int]) -> list[SSAValue]:
    """Move the producer's body before it (its group id the tile's entry of
    ``groups``); its yielded partials."""
    block = produce.body.block
    group = block.args[0]
    if group.uses:
        table = ktdf.TileTableOp(tile, list(groups))
        _insert([table], produce)
        group.replace_all_uses_with(table.result)
    partials = list(block.last_op.operands)
    for op in list(block.ops)[:-1]:
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(produce))
    return partials


def _slot_tile(buffer: SSAValue, offset: SSAValue | int, partial: TensorType) -> ktdp.ConstructAccessTileOp:
    """The access tile of one slot of the receive buffer, at row ``offset``."""
    rank = partial.get_num_dims()
    zeros = (AffineExpr.constant(0),) * (rank - 1)
    if isinstance(offset, int):
        base_map, indices = AffineMap(0, 0, (AffineExpr.constant(offset), *zeros)), []
    else:
        base_map, indices = AffineMap(1, 0, (AffineExpr.dimension(0), *zeros)), [offset]
    return ktdp.ConstructAccessTileOp.build(
        operands=[buffer, indices, []],
        result_types=[ktdp.AccessTileType(partial.get_shape())],
        properties={
            "base_map": AffineMapAttr(base_map),
            "access_tile_set": AffineSetAttr(box(partial.get_shape())),
            "access_tile_order": AffineMapAttr(AffineMap.identity(rank)),
        },
    )


def _ring_pipeline(buffer: SSAValue, source: SSAValue, dest: SSAValue, partial: TensorType,
                   table: list[int], stop: str) -> ktdf.PipelineOp:
    """One stage on the interconnect stop: the slot at row ``source`` of the tile's
    buffer into the slot at row ``dest`` of the buffer of the tile ``table`` names."""
    rank = partial.get_num_dims()
    map_ = AffineMap(1, 0, (AffineExpr.dimension(0), *(AffineExpr.constant(0),) * (rank - 1)))
    sizes = list(partial.get_shape())
    transfer = ktdf.DataTransferOp(
        buffer, sizes, buffer, sizes, source_access=(map_, [source]), dest_access=(map_, [dest]),
        attributes=ktdf.to_tiles_attribute(table),
    )
    token = ktdf.CreateTokenOp()
    private = ktdf.PrivateOp([token.result.type], [token, ktdf.PrivateYieldOp(token.result)])
    stage = ktdf.StageOp([], [private.resources[0]], [transfer], [StringAttr(stop)])
    return ktdf.PipelineOp([private, stage])


def _fold(reduce: ktdp.InterTileReduceOp, buffers: list[SSAValue], exchange: Exchange) -> None:
    """Load every slot of each partial's buffer and combine them in slot order where
    ``reduce`` was."""
    ops: list[Operation] = []
    slots = []
    for slot in range(exchange.slots):
        loads = []
        for k, (buffer, result) in enumerate(zip(buffers, reduce.outputs)):
            partial_type = result.type
            tile = _slot_tile(buffer, slot * partial_type.get_shape()[0], partial_type)
            load = ktdp.LoadOp.build(operands=[tile.result], result_types=[partial_type])
            load.result.name_hint = f"partial{slot}" if len(buffers) == 1 else f"slot{slot}_partial{k}"
            ops += [tile, load]
            loads.append(load.result)
        slots.append(loads)
    totals = list(reduce.identity) if reduce.identity else slots.pop(0)
    combiner = reduce.combiner.block
    for values in slots:
        mapping = dict(zip(combiner.args, [*totals, *values]))
        for op in list(combiner.ops)[:-1]:
            ops.append(op.clone(mapping))
        totals = [mapping.get(v, v) for v in combiner.last_op.operands]
    _insert(ops, reduce)
    for result, total in zip(reduce.outputs, totals):
        result.replace_all_uses_with(total)
    Rewriter.erase_op(reduce)
