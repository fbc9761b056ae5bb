"""``split-distributed-views``: every access of a ``ktdp.construct_distributed_memory_view``
rewritten as accesses of its partitions, so that the rest of the pipeline sees views of
one memory each.

Expects KTIR kernels that ``ktir-legality-check`` accepted: a distributed view's
inputs are ``ktdp.construct_memory_view``s whose coordinate sets are boxes
``l_j <= d_j < n_j`` (global coordinates), used through ``ktdp.construct_access_tile``s
(constant boxes, identity order) by loads and stores (``passes/analysis/distributed.py``).

Produces the same kernel without distributed views. Each partition gets a *local* view
(same memory, start, sizes and strides; coordinate set ``0 <= d_j < n_j - l_j``), where
global coordinate ``x`` is local ``x - l``:

- a load or store whose tile lies in one partition for every value of its indices
  reads or writes that partition's local view at the tile's start minus ``l``;
- one that lies, on each tile of a static grid, in one of partitions alike but for
  their start (for every value its indices take on that tile, loop variables
  included), reads or writes a local view whose start is chosen per tile: the sum of
  the partitions' starts, each times a ``ktdf.tile_table`` of 0 and 1 over the linear
  tile id (x fastest), at the tile's start minus its holder's ``l`` (a table where the
  holders' ``l`` differ);
- a load that lies so in partitions in other tiles' scratchpads (``ct_local, ct_id =
  N``, at one address) reads likewise a ``ct_local`` view chosen per tile, marked
  ``ktdf.from_tiles`` with each tile's holder: ``remote-scratchpad-lowering`` makes
  the holder copy it over the interconnect;
- a load whose tensor is only stored (a copy from the distributed view, tile at ``s``,
  into a tile at ``t`` of a view of sizes ``m``) becomes, per store and partition, a
  copy of the tile's extent ``e`` from the local view at ``q - l`` (``q = max(s, l)``,
  the first coordinate of the tile in the partition) into a view of the store's memory
  at ``t + q - s`` whose sizes are ``min(m, t + e, t + n - s)`` (where the tile or the
  partition ends). Both sides are masked tiles (``docs/ktir.md``): the copy moves the
  tile's part in the partition, nothing else, whatever the runtime values of ``s`` and
  the partitions' bounds; a partition the tile provably misses gets no copy. When the
  part's corners are constants, the copy is of exactly that part (a tile of its shape,
  into the store's own view), and an empty part gets no copy. A copy out of a partition
  in the scratchpad of tile ``N`` (``ct_local, ct_id = N``) is made by tile ``N``
  alone, from its own scratchpad: on the others the destination's first size is
  multiplied by a ``ktdf.tile_table`` that is 0 there, so they write nothing (they
  would write the same values) (``ktir-legality-check`` makes sure the kernel stores
  into no scratchpad and the copy goes to device memory).

The distributed view and the tiles of it are erased; nothing is left to change, so a
second run changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DYNAMIC_INDEX,
    AffineSetAttr,
    DenseArrayBase,
    IndexType,
    MemRefType,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpKind, AffineExpr, AffineMap
from xdsl.ir.affine.affine_set import AffineConstraintExpr, AffineConstraintKind, AffineSet
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.dialects import ktdf, ktdp
from ktc.dialects.ktdp import MemorySpaceAttr, MemorySpaceKind, grid_of, sizes_box
from ktc.passes.analysis.distributed import (
    COPY,
    HELD,
    REMOTE,
    Partition,
    access_kind,
    accesses,
    partitions,
    starts,
    tile_box,
    tile_coordinates,
)
from ktc.passes.analysis.ranges import Ranges
from ktc.passes.utils.affine import box, box_bounds
from ktc.passes.utils.ir import enclosing_function, erase_unused
from ktc.passes.utils.values import affine_value, evaluate, fold_affine

Index = SSAValue | int


@dataclass(frozen=True)
class SplitDistributedViews(ModulePass):
    """Rewrite accesses of distributed views as accesses of their partitions (see the
    module docstring)."""

    name = "split-distributed-views"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        views = [inner for inner in op.walk() if isinstance(inner, ktdp.ConstructDistributedMemoryViewOp)]
        ranges = Ranges(op)
        for view in views:
            _split(view, ranges)


def _split(view: ktdp.ConstructDistributedMemoryViewOp, ranges: Ranges) -> None:
    parts = partitions(view)
    local = {part.view: _local_view(part, view) for part in parts}
    tiles = []
    for access, tile in accesses(view):
        kind, held = access_kind(access, tile, parts, ranges)
        if kind == COPY:
            tiles += _copy(access, tile, parts, local, ranges)
        elif kind == HELD:
            _retarget(access, tile, held[0], local[held[0].view], ranges)
        else:
            _retarget_per_tile(access, tile, held, ranges)
        if kind == REMOTE:
            ktdf.set_from_tiles(access, [part.owner for part in held])
        tiles.append(tile)
    erase_unused(tiles + [view] + [value.owner for value in local.values()]
                 + [part.view for part in parts])


def _local_view(part: Partition, before: Operation) -> SSAValue:
    """The partition's view with local coordinates ``0 <= d_j < n_j - l_j``."""
    old = part.view
    constraints = []
    for dim, (low, high) in enumerate(zip(part.lows, part.highs)):
        coordinate = AffineExpr.dimension(dim)
        constraints += [
            AffineConstraintExpr(AffineConstraintKind.ge, coordinate, AffineExpr.constant(0)),
            AffineConstraintExpr(AffineConstraintKind.ge, high - low - 1, coordinate),
        ]
    coordinates = AffineSet(len(part.lows), old.coordinate_set.data.num_symbols, tuple(constraints))
    new = old.clone()
    new.properties["coordinate_set"] = AffineSetAttr(coordinates)
    if part.owner is not None:
        new.properties["memory_space"] = MemorySpaceAttr(MemorySpaceKind.CT_LOCAL)
    if old.result.name_hint:
        new.result.name_hint = f"{old.result.name_hint}_local"
    Rewriter.insert_op(new, InsertPoint.before(before))
    return new.result


def _retarget(access: Operation, tile: ktdp.ConstructAccessTileOp, part: Partition,
              local: SSAValue, ranges: Ranges) -> None:
    """``access`` through a tile of ``local`` at the tile's start minus ``l``."""
    emit = _Emit(InsertPoint.before(access), ranges)
    lows = [emit.affine(low, [], list(part.view.sizes)) for low in part.lows]
    first = [emit.sub(start, low) for start, low in zip(_starts(emit, tile), lows)]
    new = _tile(emit, local, first, tile.access_tile_set, tile.result.type, tile)
    index = 0 if isinstance(access, ktdp.LoadOp) else 1
    access.operands[index] = new


def _retarget_per_tile(access: Operation, tile: ktdp.ConstructAccessTileOp,
                       held: list[Partition], ranges: Ranges) -> None:
    """``access`` through a local view chosen per tile: its start the sum over the
    partitions of their start times a per-tile 0/1 table (``ktdf.tile_table`` of the
    linear tile id), the tile at its start minus the holder's ``l``, also a table."""
    emit = _Emit(InsertPoint.before(access), ranges)
    grid = grid_of(enclosing_function(access))
    linear = _linear_tile(emit, grid)
    offset: Index = 0
    for part in dict.fromkeys(held):
        chosen = emit.op(ktdf.TileTableOp(linear, [int(h is part) for h in held]))
        offset = emit.add(offset, emit.mul(chosen, part.view.offset))
    first = held[0]
    local = _local_view(first, access)
    local.owner.operands[0] = emit.ssa(offset)
    shifted = []
    for dim, start in enumerate(_starts(emit, tile)):
        lows = [affine_value(h.lows[dim], [], [evaluate(s, tile_coordinates(grid, t))
                                              for s in h.view.sizes])
                for t, h in enumerate(held)]
        low = lows[0] if len(set(lows)) == 1 else emit.op(ktdf.TileTableOp(linear, lows))
        shifted.append(emit.sub(start, low))
    new = _tile(emit, local, shifted, tile.access_tile_set, tile.result.type, tile)
    access.operands[0 if isinstance(access, ktdp.LoadOp) else 1] = new


def _linear_tile(emit: _Emit, grid: Sequence[int]) -> SSAValue:
    """The linear id of the executing tile (x fastest)."""
    ids = ktdp.GetComputeTileIdOp.build(result_types=[[IndexType()] * len(grid)])
    emit.op(ids, result=False)
    linear: Index = 0
    for dim in reversed(range(len(grid))):
        linear = emit.add(emit.mul(linear, grid[dim]), ids.results[dim])
    return emit.ssa(linear)


def _owner_gate(emit: _Emit, owner: int, grid: Sequence[int]) -> SSAValue:
    """1 on tile ``owner``, 0 on the others (a ``ktdf.tile_table``)."""
    tiles = prod(grid)
    return emit.op(ktdf.TileTableOp(_linear_tile(emit, grid), [int(t == owner) for t in range(tiles)]))


def _copy(load: ktdp.LoadOp, tile: ktdp.ConstructAccessTileOp, parts: list[Partition],
          local: dict[ktdp.ConstructMemoryViewOp, SSAValue],
          ranges: Ranges) -> list[ktdp.ConstructAccessTileOp]:
    """One copy per store of ``load`` and partition the tile may meet; the stores'
    tiles."""
    lows, highs = tile_box(tile)
    extents = [b - a for a, b in zip(lows, highs)]
    dest_tiles = []
    for use in list(load.result.uses):
        store = use.operation
        dest_tile = store.access_tile.owner
        emit = _Emit(InsertPoint.before(store), ranges)
        source = [emit.add(s, a) for s, a in zip(_starts(emit, tile), lows)]
        dest_lows, _ = tile_box(dest_tile)
        dest = [emit.add(t, a) for t, a in zip(_starts(emit, dest_tile), dest_lows)]
        for part in parts:
            if _misses(tile, part, ranges):
                continue
            gate = None if part.owner is None else _owner_gate(
                emit, part.owner, grid_of(enclosing_function(load)))
            _piece(emit, load, store, part, local[part.view], source, dest, extents, gate)
        Rewriter.erase_op(store)
        dest_tiles.append(dest_tile)
    Rewriter.erase_op(load)
    return dest_tiles


def _misses(tile: ktdp.ConstructAccessTileOp, part: Partition, ranges: Ranges) -> bool:
    """Whether the tile names no coordinate of ``part`` for any value of its indices."""
    lows, highs = tile_box(tile)
    for dim, (start, a, b) in enumerate(zip(starts(tile, ranges), lows, highs)):
        low, high = part.bounds(ranges, dim)
        if start is not None and low is not None and start[1] + b <= low[0]:
            return True
        if start is not None and high is not None and start[0] + a >= high[1]:
            return True
    return False


def _piece(emit: _Emit, load: ktdp.LoadOp, store: ktdp.StoreOp, part: Partition,
           local: SSAValue, source: list[Index], dest: list[Index], extents: list[int],
           gate: SSAValue | None) -> None:
    """The copy of the tile's part in ``part`` (see the module docstring); when its
    corners are constants, a copy of exactly that part. With a ``gate`` (1 on the tile
    that makes the copy, 0 elsewhere) the destination's first size is multiplied by
    it: the other tiles write nothing."""
    sizes = list(part.view.sizes)
    lows = [emit.affine(low, [], sizes) for low in part.lows]
    highs = [emit.affine(high, [], sizes) for high in part.highs]
    first = [emit.max(s, low) for s, low in zip(source, lows)]
    ends = [emit.min(emit.add(s, e), n) for s, e, n in zip(source, extents, highs)]
    dest_view = store.access_tile.owner.base.owner
    # t + max(s, l) - s, written max(t, t + l - s) so that its range starts at t's
    at = [emit.max(t, emit.add(t, emit.sub(low, s))) for t, low, s in zip(dest, lows, source)]
    shape = extents
    limits = [emit.affine(bound, [], list(dest_view.sizes))
              for bound in box_bounds(dest_view.coordinate_set.data)]
    if all(isinstance(x, int) for x in first + ends):
        shape = [end - q for q, end in zip(first, ends)]
        if min(shape) <= 0:
            return
        bounds = list(limits)
    else:
        bounds = [emit.min(emit.min(m, emit.add(t, e)), emit.add(t, emit.sub(n, s)))
                  for m, t, e, n, s in zip(limits, dest, extents, highs, source)]
    if gate is not None:
        bounds[0] = emit.mul(bounds[0], gate)
    written_view = dest_view.result if bounds == limits else _bounded_view(emit, dest_view, bounds)
    points = AffineSetAttr(box(shape))
    tile_type = ktdp.AccessTileType(shape)
    read = _tile(emit, local, [emit.sub(q, low) for q, low in zip(first, lows)], points, tile_type,
                 load.access_tile.owner)
    data_type = TensorType(load.result.type.get_element_type(), shape)
    data = emit.op(ktdp.LoadOp.build(operands=[read], result_types=[data_type]))
    written = _tile(emit, written_view, at, points, tile_type, store.access_tile.owner)
    emit.op(ktdp.StoreOp.build(operands=[data, written]), result=False)


def _bounded_view(emit: _Emit, view: ktdp.ConstructMemoryViewOp, bounds: list[Index]) -> SSAValue:
    """``view`` with sizes ``bounds`` and the box of them as its coordinate set."""
    static = [b if isinstance(b, int) else DYNAMIC_INDEX for b in bounds]
    dynamic = [emit.ssa(b) for b in bounds if not isinstance(b, int)]
    memref_type = MemRefType(view.result.type.get_element_type(),
                             [DYNAMIC_INDEX if b == DYNAMIC_INDEX else b for b in static])
    return emit.op(ktdp.ConstructMemoryViewOp.build(
        operands=[view.offset, dynamic, list(view.strides)],
        result_types=[memref_type],
        properties={
            "static_sizes": DenseArrayBase.from_list(i64, static),
            "static_strides": view.static_strides,
            "memory_space": view.memory_space,
            "coordinate_set": AffineSetAttr(sizes_box(static)),
        },
    ), like=view)


def _starts(emit: _Emit, tile: ktdp.ConstructAccessTileOp) -> list[Index]:
    """The tile's start per dimension (its base map over its indices)."""
    base_map = tile.base_map.data
    indices = list(tile.indices)
    return [emit.affine(start, indices[:base_map.num_dims], indices[base_map.num_dims:])
            for start in base_map.results]


def _tile(emit: _Emit, view: SSAValue, first: Sequence[Index], points: AffineSetAttr,
          tile_type, like: ktdp.ConstructAccessTileOp) -> SSAValue:
    """A tile of ``view`` at ``first`` (one index per dimension)."""
    rank = len(first)
    return emit.op(ktdp.ConstructAccessTileOp.build(
        operands=[view, [emit.ssa(f) for f in first], []],
        result_types=[tile_type],
        properties={
            "base_map": AffineMapAttr(AffineMap.identity(rank)),
            "access_tile_set": points,
            "access_tile_order": AffineMapAttr(AffineMap.identity(rank)),
        },
    ), like=like)


def _constant(value: Index) -> Index:
    """``value`` as an integer when it is a constant."""
    if isinstance(value, int):
        return value
    known = evaluate(value, [])
    return value if known is None else known


class _Emit:
    """Index arithmetic inserted at one point, folded where its operands are constants."""

    def __init__(self, point: InsertPoint, ranges: Ranges):
        self.point = point
        self.ranges = ranges

    def op(self, op: Operation, like: Operation | None = None, result: bool = True) -> SSAValue | None:
        if like is not None:
            op.location = like.location
            if op.results and like.results and like.results[0].name_hint:
                op.results[0].name_hint = like.results[0].name_hint
        Rewriter.insert_op(op, self.point)
        return op.results[0] if result else None

    def ssa(self, value: Index) -> SSAValue:
        if isinstance(value, int):
            return self.op(arith.ConstantOp.from_int_and_width(value, IndexType()))
        return value

    def _binary(self, kind: type[Operation], fold: Callable[[int, int], int],
                lhs: Index, rhs: Index) -> Index:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return fold(lhs, rhs)
        return self.op(kind(self.ssa(lhs), self.ssa(rhs)))

    def add(self, lhs: Index, rhs: Index) -> Index:
        if rhs == 0 or lhs == 0:
            return lhs if rhs == 0 else rhs
        return self._binary(arith.AddiOp, int.__add__, lhs, rhs)

    def sub(self, lhs: Index, rhs: Index) -> Index:
        if lhs is rhs:
            return 0
        return lhs if rhs == 0 else self._binary(arith.SubiOp, int.__sub__, lhs, rhs)

    def mul(self, lhs: Index, rhs: Index) -> Index:
        if rhs == 1 or lhs == 1:
            return lhs if rhs == 1 else rhs
        return self._binary(arith.MuliOp, int.__mul__, lhs, rhs)

    def max(self, lhs: Index, rhs: Index) -> Index:
        if self._at_least(lhs, rhs):
            return lhs
        if self._at_least(rhs, lhs):
            return rhs
        return self._binary(arith.MaxSIOp, max, lhs, rhs)

    def min(self, lhs: Index, rhs: Index) -> Index:
        if self._at_least(rhs, lhs):
            return lhs
        if self._at_least(lhs, rhs):
            return rhs
        return self._binary(arith.MinSIOp, min, lhs, rhs)

    def _at_least(self, lhs: Index, rhs: Index) -> bool:
        """Whether ``lhs >= rhs`` for every value they can take."""
        if lhs is rhs:
            return True
        low = (lhs, lhs) if isinstance(lhs, int) else self.ranges.of(lhs)
        high = (rhs, rhs) if isinstance(rhs, int) else self.ranges.of(rhs)
        return low is not None and high is not None and low[0] >= high[1]

    def affine(self, expr: AffineExpr, dims: Sequence[Index], symbols: Sequence[Index]) -> Index:
        dims, symbols = [_constant(d) for d in dims], [_constant(s) for s in symbols]
        return fold_affine(expr, dims, symbols, {
            AffineBinaryOpKind.Add: self.add,
            AffineBinaryOpKind.Mul: self.mul,
            AffineBinaryOpKind.FloorDiv: lambda a, b: self._binary(arith.FloorDivSIOp, int.__floordiv__, a, b),
            AffineBinaryOpKind.CeilDiv: lambda a, b: self._binary(arith.CeilDivSIOp, lambda x, y: -(-x // y), a, b),
            AffineBinaryOpKind.Mod: lambda a, b: self._binary(arith.RemSIOp, int.__mod__, a, b),
        })
