"""Distributed memory views (``ktdp.construct_distributed_memory_view``): their
partitions as boxes of global coordinates, and what the compiler does with each access
of one (``access_kind``). ``ktir-legality-check`` refuses what ``split-distributed-views``
cannot rewrite, with the reason this module gives.

A partition is a ``ktdp.construct_memory_view`` whose ``coordinate_set`` is a box
``l_j <= d_j < n_j`` (``l_j``, ``n_j`` expressions of its dynamic sizes); coordinate
``x`` lies at its local coordinate ``x - l``. An access tile of the distributed view is
a box of points ``a_j <= p_j < b_j`` (constants) at the start its indices give, in the
identity order. A load whose every user is a ``ktdp.store`` (a copy) is split into
one copy per partition and store unless it lies in one partition as below; any other
load, and a store, must lie in one
partition for every value its indices can take (``passes/analysis/ranges.py``), or, in
a static grid, on each tile in one of partitions alike but for their start for every
value its indices take on that tile (the rows of a 2x2 grid of tiles split over four
arrays, each tile's rows walked by a loop). A load lying so in partitions in other
tiles' scratchpads (alike but for their owner too, at one address) reads its holder's
over the interconnect.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects.builtin import IntAttr
from xdsl.ir import Operation
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap

from ktc.dialects import ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.printer import affine_set_text
from ktc.passes.analysis.ranges import Interval, Ranges
from ktc.dialects.ktdp import MemorySpaceKind, grid_of
from ktc.passes.utils.affine import box_range
from ktc.passes.utils.ir import enclosing_function
from ktc.passes.utils.values import affine_value, evaluate

COPY = "copy"
"""A load whose users are all stores: one copy per partition."""
HELD = "held"
"""An access that lies in one partition."""
REMOTE = "remote"
"""A load that lies, on each tile of a static grid, in one of partitions alike but for
their start and owner, all in other tiles' scratchpads at one address: the tile
reads its holder's partition over the interconnect (``remote-scratchpad-lowering``)."""
PER_TILE = "per tile"
"""An access that lies, on each tile of a static grid, in one partition, the
partitions alike but for their start (same memory space, sizes, strides and extents):
the partition chosen per tile."""


@dataclass(frozen=True, eq=False)
class Partition:
    """One input of a distributed view: the box of global coordinates it holds."""

    view: ktdp.ConstructMemoryViewOp
    lows: list[AffineExpr]
    """``l_j`` over the view's dynamic sizes (its coordinate set's symbols)."""
    highs: list[AffineExpr]
    """``n_j`` likewise (one past the last coordinate)."""

    @property
    def owner(self) -> int | None:
        """The tile whose scratchpad holds the partition (``ct_local, ct_id = N``)."""
        ct_id = _space(self.view).ct_id
        return ct_id.data if isinstance(ct_id, IntAttr) else None

    def bounds(self, ranges: Ranges, dim: int) -> tuple[Interval | None, Interval | None]:
        sizes = [ranges.of(size) for size in self.view.sizes]
        return ranges.expr(self.lows[dim], [], sizes), ranges.expr(self.highs[dim], [], sizes)


def partitions(view: ktdp.ConstructDistributedMemoryViewOp) -> list[Partition]:
    """The partitions of ``view``; a located error for an input that is not a memory
    view whose coordinate set is a box."""
    parts = []
    for index, memref in enumerate(view.memrefs):
        owner = memref.owner
        if not isinstance(owner, ktdp.ConstructMemoryViewOp):
            raise KtcError(f"input #{index} of the distributed view is not a "
                           "'ktdp.construct_memory_view'; the compiler composes memory views",
                           where(view))
        ranged = box_range(owner.coordinate_set.data)
        if ranged is None:
            raise KtcError(f"input #{index} of the distributed view covers "
                           f"affine_set<{affine_set_text(owner.coordinate_set.data)}>, not a box "
                           "l_j <= d_j < n_j per dimension; the compiler routes coordinates to "
                           "partitions that are boxes", where(view))
        parts.append(Partition(owner, *ranged))
    return parts


def tile_box(tile: ktdp.ConstructAccessTileOp) -> tuple[list[int], list[int]]:
    """The points ``[a_j, b_j)`` of a tile's set, constants; a located error otherwise."""
    ranged = box_range(tile.access_tile_set.data)
    order = tile.access_tile_order.data
    if ranged is None or not all(isinstance(e, AffineConstantExpr) for e in ranged[0] + ranged[1]):
        raise KtcError("a tile of a distributed view must be a box of constant extents",
                       where(tile))
    if order != AffineMap.identity(order.num_dims):
        raise KtcError("a tile of a distributed view must take the identity order", where(tile))
    return [e.value for e in ranged[0]], [e.value for e in ranged[1]]


def starts(tile: ktdp.ConstructAccessTileOp, ranges: Ranges) -> list[Interval | None]:
    """The values each dimension's first point (the start plus ``a_j``) can take."""
    base_map = tile.base_map.data
    indices = [ranges.of(index) for index in tile.indices]
    return [ranges.expr(start, indices[:base_map.num_dims], indices[base_map.num_dims:])
            for start in base_map.results]


def holder(tile: ktdp.ConstructAccessTileOp, parts: list[Partition],
           ranges: Ranges) -> Partition | None:
    """The partition holding every coordinate ``tile`` can name, or None."""
    lows, highs = tile_box(tile)
    first = starts(tile, ranges)
    for part in parts:
        inside = True
        for dim, (start, a, b) in enumerate(zip(first, lows, highs)):
            low, high = part.bounds(ranges, dim)
            if start is None or low is None or high is None:
                inside = False
            else:
                inside &= start[0] + a >= low[1] and start[1] + b <= high[0]
        if inside:
            return part
    return None


def tile_holders(tile: ktdp.ConstructAccessTileOp, parts: list[Partition]) -> list[Partition] | None:
    """Per tile of the kernel's grid (linear id, x fastest), the partition holding
    every coordinate ``tile`` names there for every value its indices can take on that
    tile (``Ranges`` of the one tile: constants of the tile id, loop variables), when
    the partitions' bounds are constants of the tile id and those partitions are alike
    but for their start; None otherwise."""
    kernel = enclosing_function(tile)
    if kernel is None:
        return None
    grid = grid_of(kernel)
    lows, highs = tile_box(tile)
    module = kernel.get_toplevel_object()
    found = []
    for linear in range(prod(grid)):
        ids = tile_coordinates(grid, linear)
        first = _starts_on(tile, Ranges(module, ids), ids)
        if None in first:
            return None
        held = [part for part in parts if _holds(part, first, lows, highs, ids)]
        if not held:
            return None
        found.append(held[0])
    if not all(_alike(part, found[0]) for part in found):
        return None
    return found


def _starts_on(tile: ktdp.ConstructAccessTileOp, ranges: Ranges,
               ids: list[int]) -> list[Interval | None]:
    """Like ``starts``, on the tile ``ids`` (``ranges`` of that tile): an index that is
    a constant of the tile id exactly, the others as intervals."""
    base_map = tile.base_map.data
    indices = [(value, value) if (value := evaluate(index, ids)) is not None else ranges.of(index)
               for index in tile.indices]
    return [ranges.expr(start, indices[:base_map.num_dims], indices[base_map.num_dims:])
            for start in base_map.results]


def tile_coordinates(grid: tuple[int, ...], linear: int) -> list[int]:
    """The grid coordinates of the tile of linear id ``linear`` (x fastest)."""
    return [linear // prod(grid[:d]) % grid[d] for d in range(len(grid))]


def _holds(part: Partition, first: list[Interval], lows: list[int], highs: list[int],
           ids: list[int]) -> bool:
    """Whether ``part`` holds the tile on the tile ``ids``, wherever in ``first`` (per
    dimension, the values its first point can take there) it starts."""
    sizes = [evaluate(size, ids) for size in part.view.sizes]
    if None in sizes:
        return False
    return all(
        start[0] + a >= affine_value(low, [], sizes) and start[1] + b <= affine_value(high, [], sizes)
        for start, a, b, low, high in zip(first, lows, highs, part.lows, part.highs)
    )


def _alike(part: Partition, other: Partition) -> bool:
    """The same kind of memory (the owners may differ), sizes, strides and extents
    (``n_j - l_j``)."""
    a, b = part.view, other.view
    return (_space(a).kind == _space(b).kind and a.static_sizes == b.static_sizes
            and list(a.sizes) == list(b.sizes) and a.static_strides == b.static_strides
            and list(a.strides) == list(b.strides)
            and [h - l for l, h in zip(part.lows, part.highs)]
            == [h - l for l, h in zip(other.lows, other.highs)])


def is_copy(load: ktdp.LoadOp) -> bool:
    """Whether every user of ``load``'s tensor stores it, whole, through a memory view."""
    uses = list(load.result.uses)
    return bool(uses) and all(
        isinstance(use.operation, ktdp.StoreOp) and use.index == 0
        and isinstance(use.operation.access_tile.owner, ktdp.ConstructAccessTileOp)
        and isinstance(use.operation.access_tile.owner.base.owner, ktdp.ConstructMemoryViewOp)
        for use in uses
    )


def _owned_copy(load: ktdp.LoadOp, parts: list[Partition]) -> None:
    """A copy out of a partition in a tile's scratchpad is made by that tile alone, from
    its own scratchpad (the others would write the same values): it must go to device
    memory, the tile must be in the grid, and nothing in the kernel may store into a
    scratchpad (which could change what the tiles would read)."""
    owners = [part.owner for part in parts if part.owner is not None]
    if not owners:
        return
    kernel = enclosing_function(load)
    tiles = prod(grid_of(kernel)) if kernel is not None else 1
    for use in load.result.uses:
        dest = use.operation.access_tile.owner.base.owner
        if _space(dest).kind.data != MemorySpaceKind.GLOBAL:
            raise KtcError("a copy out of another tile's scratchpad is compiled only into "
                           "device memory (made by the tile that holds it); this one stores "
                           "into a scratchpad", where(use.operation))
    if max(owners) >= tiles:
        raise KtcError(f"a partition lies in the scratchpad of tile {max(owners)}, but the grid "
                       f"has {tiles} tiles", where(load))
    if kernel is not None and _stores_to_scratchpad(kernel):
        raise KtcError("a copy out of another tile's scratchpad is compiled only in a kernel "
                       "that stores into no scratchpad (its tile makes it alone, from what the "
                       "scratchpad holds at the start)", where(load))


def _remote_starts(load: ktdp.LoadOp, tile: ktdp.ConstructAccessTileOp) -> None:
    """A remote load's start is a constant per tile: its holder copies each reader's
    tile."""
    grid = grid_of(enclosing_function(load))
    for linear in range(prod(grid)):
        if any(evaluate(index, tile_coordinates(grid, linear)) is None for index in tile.indices):
            raise KtcError("reads other tiles' scratchpads through a distributed view at a "
                           "start that is not a constant of the tile id; the holder copies "
                           "each reader's tile, so it must know the start of every tile: read "
                           "through a view of the holder's scratchpad (ct_local, ct_id = N), "
                           "whose start may also depend on loop indices", where(load))


def _one_address(load: ktdp.LoadOp, held: list[Partition]) -> None:
    """The partitions a remote load reads lie at one constant address: the owner copies
    from there whoever reads."""
    addresses = {evaluate(part.view.offset, []) for part in held}
    if len(addresses) != 1 or None in addresses:
        raise KtcError("the partitions this load reads lie in other tiles' scratchpads at "
                       "different or non-constant addresses; a read over the interconnect "
                       "needs them at one constant address", where(load))


def _stores_to_scratchpad(kernel: Operation) -> bool:
    for op in kernel.walk():
        tile = op.access_tile.owner if isinstance(op, ktdp.StoreOp) else None
        view = tile.base.owner if isinstance(tile, ktdp.ConstructAccessTileOp) else None
        views = view.memrefs if isinstance(view, ktdp.ConstructDistributedMemoryViewOp) else (
            [view.result] if isinstance(view, ktdp.ConstructMemoryViewOp) else [])
        if any(isinstance(v.owner, ktdp.ConstructMemoryViewOp)
               and _space(v.owner).kind.data == MemorySpaceKind.CT_LOCAL for v in views):
            return True
    return False


def _space(view: ktdp.ConstructMemoryViewOp) -> ktdp.MemorySpaceAttr:
    space = view.memory_space
    return space.to_memory_space() if isinstance(space, ktdp.SpyreMemorySpaceAttr) else space


def accesses(view: ktdp.ConstructDistributedMemoryViewOp) -> list[tuple[Operation, ktdp.ConstructAccessTileOp]]:
    """Every load and store through a tile of ``view``, with its tile; a located error
    for another use of the view or of one of its tiles."""
    found = []
    for use in list(view.result.uses):
        tile = use.operation
        if not isinstance(tile, ktdp.ConstructAccessTileOp) or use.index != 0:
            raise KtcError(f"'{tile.name}' uses a distributed view; the compiler reads and "
                           "writes one through 'ktdp.construct_access_tile'", where(tile))
        for tile_use in tile.result.uses:
            access = tile_use.operation
            if not isinstance(access, ktdp.LoadOp | ktdp.StoreOp):
                raise KtcError(f"'{access.name}' uses a tile of a distributed view; the "
                               "compiler loads and stores them", where(access))
            found.append((access, tile))
    return found


def access_kind(access: Operation, tile: ktdp.ConstructAccessTileOp, parts: list[Partition],
                ranges: Ranges) -> tuple[str, list[Partition]]:
    """How ``split-distributed-views`` rewrites ``access``: ``COPY``, ``HELD`` (with
    the partition), ``PER_TILE`` or ``REMOTE`` (with the partition of each tile); a
    located error naming what it does not rewrite."""
    tile_box(tile)
    part = holder(tile, parts, ranges)
    if part is not None and part.owner is None:
        return HELD, [part]
    per_tile = tile_holders(tile, parts)
    if per_tile is not None and all(p.owner is None for p in per_tile):
        return PER_TILE, per_tile
    if isinstance(access, ktdp.LoadOp) and is_copy(access):
        _owned_copy(access, parts)
        return COPY, []
    if (isinstance(access, ktdp.LoadOp) and per_tile is not None
            and all(p.owner is not None for p in per_tile)):
        _remote_starts(access, tile)
        _one_address(access, per_tile)
        return REMOTE, per_tile
    if part is not None:
        raise KtcError(f"the tile lies in the scratchpad of tile {part.owner}; another tile's "
                       "scratchpad is read by a copy into device memory (a load only stored "
                       "there), which that tile makes, or by a load at a start that is a "
                       "constant per tile (over the interconnect); a store into it is not "
                       "compiled", where(access))
    rule = ("the tile must lie in one partition for every value of its indices, or on "
            "each tile in one of partitions alike but for their start")
    if isinstance(access, ktdp.LoadOp):
        raise KtcError("a load through a tile of a distributed view that may span several "
                       "partitions, whose tensor is computed with, is not compiled: " + rule
                       + "; load each partition's part through a tile that lies in it and "
                       "compute on each part (for a row-wise computation, one per partition "
                       "of rows), or copy the tile into a view of device memory first (a load "
                       "only stored, compiled per partition) and load that view in a later "
                       "compute group", where(access))
    raise KtcError("a store through a tile of a distributed view that may span several "
                   "partitions is not compiled: " + rule + "; store each partition's part "
                   "(a tensor.extract_slice of the data) through a tile that lies in it",
                   where(access))
