"""``inter-tile-reduce-lowering``: a ``ktdp.inter_tile_reduce`` (reduce-to-one,
reduce-to-subset or all-reduce) becomes a copy of each partial over the interconnect
into a receive buffer in the scratchpad of every consumer tile of its group, and a
fold of that buffer on every tile.

The grid is static and runs in one wave (``ktir-legality-check``), so the affine sets
of the inter-tile ops resolve here, once, into per-tile facts (``Exchange``): the
producers of every group in ascending tile id, its consumers, and the slot of each
producer in the receive buffer. The reference interpreter folds the partials of a
group in ascending tile id (``sim/reference_grid.py``); the receive buffer holds them
in that order and the fold reads it slot by slot, so every consumer gets the
reference's bits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    DenseArrayBase,
    IndexType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnknownLoc,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstraintKind, AffineExpr, AffineMap, AffineSet
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import attr_text
from ktc.passes.construct_three_stage_pipeline import box
from ktc.passes.normalize_grid_to_1d import grid_of

TO_TILES = "ktdf.to_tiles"
"""On a ``ktdf.data_transfer`` between two scratchpads: per linear tile id, the tile
whose scratchpad the destination is in (-1: that tile does not transfer)."""


@dataclass(frozen=True)
class Exchange:
    """What a reduce means on a static grid of ``tiles`` tiles."""

    tiles: int
    producers: tuple[tuple[int, ...], ...]
    """Per group, its producer tiles in ascending id: the fold order."""
    consumers: tuple[tuple[int, ...], ...]
    """Per group, the tiles that combine the partials, in ascending id."""

    @property
    def slots(self) -> int:
        return len(self.producers[0])

    def slot_table(self) -> list[int]:
        """Per tile, its slot in its group's receive buffer (0 for a non-producer)."""
        table = [0] * self.tiles
        for members in self.producers:
            for slot, tile in enumerate(members):
                table[tile] = slot
        return table

    def send_table(self, rank: int) -> list[int]:
        """Per tile, the ``rank``-th consumer of its group, which it sends its partial
        to (-1: a non-producer, a group with fewer consumers, or the tile itself)."""
        table = [-1] * self.tiles
        for members, consumers in zip(self.producers, self.consumers):
            if rank < len(consumers):
                for tile in members:
                    table[tile] = consumers[rank] if consumers[rank] != tile else -1
        return table

    def send_tables(self) -> list[list[int]]:
        """The send table of every consumer rank on which some tile sends."""
        tables = [self.send_table(rank) for rank in range(max(map(len, self.consumers)))]
        return [table for table in tables if any(to >= 0 for to in table)]

    def group_table(self, groups: Sequence[int]) -> list[int]:
        """Per tile, the group it produces for (0 for a non-producer)."""
        table = [0] * self.tiles
        for group, members in zip(groups, self.producers):
            for tile in members:
                table[tile] = group
        return table


def _contains(aset: AffineSet, dims: Sequence[int], symbols: Sequence[int]) -> bool:
    """Whether the point ``dims`` is in ``aset`` with ``symbols`` bound."""
    for constraint in aset.constraints:
        value = (constraint.lhs - constraint.rhs).eval(list(dims), list(symbols))
        if constraint.kind == AffineConstraintKind.eq:
            holds = value == 0
        else:
            holds = value >= 0 if constraint.kind == AffineConstraintKind.ge else value <= 0
        if not holds:
            return False
    return True


def _members(aset: AffineSet, group: int, tiles: int) -> tuple[int, ...]:
    """The tiles of ``aset`` with the group symbol bound to ``group``, ascending."""
    return tuple(tile for tile in range(tiles) if _contains(aset, [tile], [group]))


def groups_of(produce: ktdp.InterTileProduceOp, tiles: int) -> list[int]:
    """The group ids of the future ``produce`` makes. A group has a producer tile, so
    there are at most as many as tiles; they are looked for among 0 .. tiles - 1."""
    groups = produce.future.type.groups.data
    return [group for group in range(tiles) if _contains(groups, [group], [])]


def resolve(produce: ktdp.InterTileProduceOp, tiles: int) -> tuple[ktdp.InterTileReduceOp, Exchange]:
    """The one reduce of ``produce``'s future and what the pair means on ``tiles``
    tiles; a diagnostic for every form that is not a reduce of one partial whose
    consumers are producers of their group."""
    uses = list(produce.future.uses)
    reduce = uses[0].operation if len(uses) == 1 else None
    if not isinstance(reduce, ktdp.InterTileReduceOp):
        raise KtcError(
            f"'{produce.name}' must have exactly one use, by a ktdp.inter_tile_reduce in the "
            "same block (inter_tile_consume is not supported yet)", where(produce))
    if reduce.parent_block() is not produce.parent_block():
        raise KtcError(f"'{reduce.name}' must be in the block of its ktdp.inter_tile_produce",
                       where(reduce))
    if reduce.producer_dependency_per_consumer is not None:
        raise KtcError(f"'{reduce.name}' with producer_dependency_per_consumer is not supported "
                       "yet: every producer of a group is combined", where(reduce))
    if len(reduce.outputs) != 1:
        raise KtcError(f"'{reduce.name}' combines {len(reduce.outputs)} partials per tile; one is "
                       "supported yet", where(reduce))
    partial = reduce.outputs[0].type
    if not isinstance(partial, TensorType) or partial.get_num_dims() < 1:
        raise KtcError(f"'{reduce.name}' combines {attr_text(partial)}; a partial is a tensor of "
                       "rank 1 or more", where(reduce))
    producer_set = produce.producer_tiles_per_group.data
    consumer_set = reduce.consumer_tiles_per_group.data
    groups = groups_of(produce, tiles)
    if not groups:
        raise KtcError(f"'{produce.name}' has no group among ids 0 .. {tiles - 1}", where(produce))
    producers, consumers = [], []
    for group in groups:
        members = _members(producer_set, group, tiles)
        chosen = _members(consumer_set, group, tiles)
        if not chosen:
            raise KtcError(f"'{reduce.name}' has no consumer tile in group {group}", where(reduce))
        for tile in chosen:
            if tile not in members:
                raise KtcError(f"'{reduce.name}' consumer tile {tile} of group {group} is not "
                               "one of its producers", where(reduce))
        producers.append(members)
        consumers.append(chosen)
    counts = sorted({len(members) for members in producers})
    if len(counts) != 1:
        raise KtcError(f"'{produce.name}' groups have {', '.join(map(str, counts))} producers; "
                       "every group must have as many", where(produce))
    seen = [tile for members in producers for tile in members]
    if len(seen) != len(set(seen)):
        raise KtcError(f"'{produce.name}' names a tile as a producer of several groups",
                       where(produce))
    return reduce, Exchange(tiles, tuple(producers), tuple(consumers))


@dataclass(frozen=True)
class InterTileReduceLowering(ModulePass):
    """Lower each ``ktdp.inter_tile_produce`` + ``ktdp.inter_tile_reduce`` pair.

    Expects programs as ``compute-group-extraction`` leaves them (or KTIR kernels):
    ``func.func`` with a static ``grid`` that fits the device's cores in one wave, the
    pair at the function's top level or inside ``scf.for`` loops (``function_of``),
    a reduce of one partial of rank >= 1 whose consumers are producers of their
    group (reduce-to-one, reduce-to-subset or all-reduce; see ``resolve``), in a
    module that declares its device.

    Produces, per pair:

    - a receive buffer ``memref.alloc`` in the scratchpad at the function's start,
      ``slots`` partials stacked along dimension 0 (same address on every tile),
      reused by every iteration of the loops around the pair (the signals that keep
      a copy from overwriting a slot not yet folded are ``convert-ktdf-to-dfir``'s);
    - the producer body inlined (its group id a ``ktdf.tile_table`` of the linear tile
      id, x fastest) and its partial stored with ``ktdp.store`` into the tile's slot
      (``ktdf.tile_table`` of slots times the partial's first extent);
    - per consumer rank ``k`` (the ``k``-th consumer of a group in ascending id), a
      ``ktdf.pipeline`` with one stage on the interconnect stop's engine kind: a
      ``ktdf.data_transfer`` of that slot to the same slot of the same buffer in the
      scratchpad of the tile its ``ktdf.to_tiles`` table names, the group's ``k``-th
      consumer (-1 on that consumer itself and on non-producers, which send
      nothing; a rank on which no tile sends has no pipeline);
    - at the reduce, a ``ktdp.load`` of every slot and the combiner inlined as a fold
      in slot order (from the identity when there is one); the reduce's result is the
      fold's, meaningful on consumer tiles only, as in KTIR.

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
            _lower(produce, device.scratchpad, device.interconnect.stop)


def function_of(op: Operation) -> FuncOp:
    """The kernel ``op`` is in, at its top level or in ``scf.for`` loops only."""
    parent = op.parent_op()
    while isinstance(parent, scf.ForOp):
        parent = parent.parent_op()
    if not isinstance(parent, FuncOp):
        raise KtcError(f"'{op.name}' inside '{parent.name}' is not supported yet: inter-tile "
                       "ops must be at the kernel's top level or in scf.for loops", where(op))
    return parent


def _lower(produce: ktdp.InterTileProduceOp, scratchpad: str, stop: str) -> None:
    func = function_of(produce)
    grid = grid_of(func) or (1,)
    reduce, exchange = resolve(produce, prod(grid))
    partial_type = reduce.outputs[0].type
    tile = _linear_tile_id(produce, grid)
    partial = _inline_producer(produce, tile, exchange)
    rows = partial_type.get_shape()[0]
    shape = [rows * exchange.slots, *partial_type.get_shape()[1:]]
    received = memref.AllocOp([], [], MemRefType(partial_type.get_element_type(), shape,
                                                  memory_space=StringAttr(scratchpad)))
    received.memref.name_hint = "received"
    Rewriter.insert_op(received, InsertPoint.at_start(func.body.block))
    slot = ktdf.TileTableOp(tile, exchange.slot_table())
    extent = arith.ConstantOp.from_int_and_width(rows, IndexType())
    offset = arith.MuliOp(slot, extent)
    own = _slot_tile(received.memref, offset.result, partial_type)
    store = ktdp.StoreOp.build(operands=[partial, own.result])
    rings = [_ring_pipeline(received.memref, offset.result, partial_type, table, stop)
             for table in exchange.send_tables()]
    _insert([slot, extent, offset, own, store, *rings], produce)
    _fold(reduce, received.memref, exchange)
    Rewriter.erase_op(produce)


def _insert(ops: list[Operation], before: Operation) -> None:
    for op in ops:
        if isinstance(op.location, UnknownLoc):
            op.location = before.location
    Rewriter.insert_op(ops, InsertPoint.before(before))


def _linear_tile_id(at: Operation, grid: Sequence[int]) -> SSAValue:
    """The linear tile id (x fastest), computed before ``at``."""
    coords = ktdp.GetComputeTileIdOp.build(result_types=[[IndexType()] * len(grid)])
    ops: list[Operation] = [coords]
    linear: SSAValue = coords.results[0]
    stride = 1
    for size, coord in zip(grid[:-1], coords.results[1:]):
        stride *= size
        factor = arith.ConstantOp.from_int_and_width(stride, IndexType())
        scaled = arith.MuliOp(coord, factor)
        total = arith.AddiOp(linear, scaled)
        ops += [factor, scaled, total]
        linear = total.result
    _insert(ops, at)
    return linear


def _inline_producer(produce: ktdp.InterTileProduceOp, tile: SSAValue, exchange: Exchange) -> SSAValue:
    """Move the producer's body before it; its yielded partial."""
    block = produce.body.block
    group = block.args[0]
    if group.uses:
        table = ktdf.TileTableOp(tile, exchange.group_table(groups_of(produce, exchange.tiles)))
        _insert([table], produce)
        group.replace_all_uses_with(table.result)
    yielded = block.last_op
    partial = yielded.operands[0]
    for op in list(block.ops)[:-1]:
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(produce))
    return partial


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


def _ring_pipeline(buffer: SSAValue, offset: SSAValue, partial: TensorType, table: list[int],
                   stop: str) -> ktdf.PipelineOp:
    """One stage on the interconnect stop: the tile's slot into the same slot of the
    receive buffer of the tile ``table`` names."""
    rank = partial.get_num_dims()
    access = (AffineMap(1, 0, (AffineExpr.dimension(0), *(AffineExpr.constant(0),) * (rank - 1))),
              [offset])
    sizes = list(partial.get_shape())
    transfer = ktdf.DataTransferOp(
        buffer, sizes, buffer, sizes, source_access=access, dest_access=access,
        attributes={TO_TILES: DenseArrayBase.from_list(i64, table)},
    )
    token = ktdf.CreateTokenOp()
    private = ktdf.PrivateOp([token.result.type], [token, ktdf.PrivateYieldOp(token.result)])
    stage = ktdf.StageOp([], [private.resources[0]], [transfer], [StringAttr(stop)])
    return ktdf.PipelineOp([private, stage])


def _fold(reduce: ktdp.InterTileReduceOp, buffer: SSAValue, exchange: Exchange) -> None:
    """Load every slot and combine them in slot order where ``reduce`` was."""
    partial_type = reduce.outputs[0].type
    rows = partial_type.get_shape()[0]
    ops: list[Operation] = []
    partials = []
    for slot in range(exchange.slots):
        tile = _slot_tile(buffer, slot * rows, partial_type)
        load = ktdp.LoadOp.build(operands=[tile.result], result_types=[partial_type])
        load.result.name_hint = f"partial{slot}"
        ops += [tile, load]
        partials.append(load.result)
    total = reduce.identity[0] if reduce.identity else partials.pop(0)
    combiner = reduce.combiner.block
    for value in partials:
        mapping = {combiner.args[0]: total, combiner.args[1]: value}
        for op in list(combiner.ops)[:-1]:
            copy = op.clone(mapping)
            ops.append(copy)
        total = mapping.get(combiner.last_op.operands[0], combiner.last_op.operands[0])
    _insert(ops, reduce)
    reduce.outputs[0].replace_all_uses_with(total)
    Rewriter.erase_op(reduce)
