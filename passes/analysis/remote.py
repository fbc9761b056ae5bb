"""Accesses of another tile's scratchpad: a ``ktdp.load`` (``ktdp.store``) through a
tile of a ``ktdp.construct_memory_view`` in ``#ktdp.memory_space<ct_local, ct_id = N>``
reads (writes) the view's bytes in the scratchpad of tile ``N``; a load of a
``ct_local`` view marked ``ktdf.from_tiles`` (``split-distributed-views``) reads, on
tile ``t``, the scratchpad of the tile the table names for ``t``.
``ktir-legality-check`` refuses what ``remote-scratchpad-lowering`` cannot compile,
with the reason ``remote_access`` gives; the pass lowers what it returns.

The grid is static and runs in one wave, so the access resolves per tile of the grid
(linear id, x fastest) into the tile that owns the bytes and the start of the tile in
the owner's view (``RemoteAccess``): a constant per tile, or one that every tile can
compute for any other from its tile id (``per_tile``: loop indices, launch arguments),
since the owner makes the copy of each reader's tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import affine, arith, func, scf
from xdsl.dialects.builtin import IntAttr
from xdsl.ir import BlockArgument, SSAValue

from ktc.dialects import ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import from_tiles
from ktc.dialects.ktdp import MemorySpaceKind, grid_of
from ktc.passes.analysis.distributed import tile_box, tile_coordinates
from ktc.passes.utils.ir import calls_by_callee, enclosing_function
from ktc.passes.utils.values import INTEGER_CASTS, INTEGER_OPS, affine_value, evaluate


@dataclass(frozen=True)
class RemoteAccess:
    """What each tile of the grid reads or writes."""

    owners: tuple[int, ...]
    """Per tile, the tile whose scratchpad holds what it reads or writes."""
    starts: tuple[tuple[int, ...], ...] | None
    """Per tile, the first point of its tile in the owner's view; None when it is not
    a constant per tile (``per_tile``: each tile computes it for any other)."""
    address: int
    """The view's start in every owner's scratchpad."""

    def readers(self, owner: int) -> list[int]:
        """The tiles reading ``owner``'s scratchpad, ascending."""
        return [tile for tile, o in enumerate(self.owners) if o == owner]

    def ranks(self) -> int:
        """The most tiles reading one owner."""
        return max(len(self.readers(owner)) for owner in set(self.owners))


def owner_of(view: ktdp.ConstructMemoryViewOp) -> int | None:
    """``N`` for a view in ``ct_local, ct_id = N``; None for any other."""
    space = view.memory_space
    if isinstance(space, ktdp.SpyreMemorySpaceAttr):
        space = space.to_memory_space()
    if not isinstance(space, ktdp.MemorySpaceAttr) or space.kind.data != MemorySpaceKind.CT_LOCAL:
        return None
    return space.ct_id.data if isinstance(space.ct_id, IntAttr) else None


def remote_view(access: ktdp.LoadOp | ktdp.StoreOp) -> ktdp.ConstructMemoryViewOp | None:
    """The view of another tile's scratchpad ``access`` goes through, if it does."""
    tile = access.access_tile.owner
    if not isinstance(tile, ktdp.ConstructAccessTileOp):
        return None
    view = tile.base.owner
    if not isinstance(view, ktdp.ConstructMemoryViewOp):
        return None
    return view if owner_of(view) is not None or from_tiles(access) is not None else None


def _owners(access: ktdp.LoadOp | ktdp.StoreOp, view: ktdp.ConstructMemoryViewOp,
            tiles: int) -> tuple[int, ...]:
    table = from_tiles(access)
    if table is None:
        return (owner_of(view),) * tiles
    if len(table) != tiles:
        raise KtcError(f"has a ktdf.from_tiles table of {len(table)} entries for a grid of "
                       f"{tiles} tiles", where(access))
    return table


def remote_access(access: ktdp.LoadOp | ktdp.StoreOp, cores: int) -> RemoteAccess:
    """Per tile, the owner and the start of what ``access`` reads or writes of another
    tile's scratchpad; a located error for an access it does not compile."""
    view = remote_view(access)
    verb = "reads" if isinstance(access, ktdp.LoadOp) else "stores into"
    kernel = enclosing_function(access)
    grid = grid_of(kernel) if kernel is not None else (1,)
    tiles = prod(grid)
    owners = _owners(access, view, tiles)
    if tiles > cores:
        raise KtcError(f"{verb} another tile's scratchpad in a grid of {tiles} tiles, which "
                       f"does not run in one wave on the device's {cores} cores (a tile reads "
                       "another's scratchpad only while both run)", where(access))
    if max(owners) >= tiles:
        raise KtcError(f"{verb} the scratchpad of tile {max(owners)}, but the grid has {tiles} "
                       "tiles", where(access))
    addresses = {evaluate(view.offset, tile_coordinates(grid, t)) for t in range(tiles)}
    if len(addresses) != 1 or None in addresses:
        raise KtcError(f"{verb} other tiles' scratchpads at an address that is not one "
                       "constant; a copy over the interconnect reaches one address on every "
                       "tile", where(access))
    if view.sizes or view.strides:
        raise KtcError(f"{verb} another tile's scratchpad through a view of dynamic shape; "
                       "the copy over the interconnect moves a tile of constant shape",
                       where(access))
    tile = access.access_tile.owner
    starts = _constant_starts(tile, grid)
    calls = calls_by_callee(access.get_toplevel_object()) if starts is None else {}
    if starts is None and not all(per_tile(index, calls) for index in tile.indices):
        raise KtcError(f"{verb} another tile's scratchpad at a start computed from other "
                       "than constants, the tile id, launch arguments and the indices of "
                       "loops that run the same iterations on every tile; the copies over "
                       "the interconnect are planned per tile, from starts each tile "
                       "computes for any other", where(access))
    return RemoteAccess(owners, starts, addresses.pop())


def _constant_starts(tile: ktdp.ConstructAccessTileOp, grid) -> tuple[tuple[int, ...], ...] | None:
    """Per tile of the grid, the first point of ``tile`` in its view, when it is a
    constant per tile; None otherwise."""
    lows, _ = tile_box(tile)
    base_map = tile.base_map.data
    starts = []
    for linear in range(prod(grid)):
        indices = [evaluate(index, tile_coordinates(grid, linear)) for index in tile.indices]
        if None in indices:
            return None
        first = [affine_value(e, indices[:base_map.num_dims], indices[base_map.num_dims:])
                 for e in base_map.results]
        starts.append(tuple(s + a for s, a in zip(first, lows)))
    return tuple(starts)


def per_tile(value: SSAValue, calls: dict[str, list[func.CallOp]], tile: bool = True) -> bool:
    """Whether every tile can compute ``value`` for any other tile, given its tile
    id: ``value`` is computed by integer arithmetic from constants, the tile id (when
    ``tile``), launch arguments, program arguments passed such values without the
    tile id, and indices of ``scf.for`` loops whose bounds are such values (loops
    that run the same iterations on every tile)."""
    if isinstance(value, BlockArgument):
        parent = value.block.parent_op()
        if isinstance(parent, scf.ForOp):
            return value.index == 0 and all(per_tile(bound, calls, False)
                                            for bound in (parent.lb, parent.ub, parent.step))
        if isinstance(parent, func.FuncOp):
            return all(per_tile(call.arguments[value.index], calls, False)
                       for call in calls.get(parent.sym_name.data, []))
        return False
    op = value.owner
    if isinstance(op, ktdp.GetComputeTileIdOp):
        return tile
    if isinstance(op, arith.ConstantOp):
        return True
    if type(op) in INTEGER_OPS or isinstance(op, INTEGER_CASTS | affine.ApplyOp):
        return all(per_tile(operand, calls, tile) for operand in op.operands)
    return False
