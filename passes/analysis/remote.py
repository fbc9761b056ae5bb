"""Accesses of another tile's scratchpad: a ``ktdp.load`` (``ktdp.store``) through a
tile of a ``ktdp.construct_memory_view`` in ``#ktdp.memory_space<ct_local, ct_id = N>``
reads (writes) the view's bytes in the scratchpad of tile ``N``; a load of a
``ct_local`` view marked ``ktdf.from_tiles`` (``split-distributed-views``) reads, on
tile ``t``, the scratchpad of the tile the table names for ``t``.
``ktir-legality-check`` refuses what ``remote-scratchpad-lowering`` cannot compile,
with the reason ``remote_access`` gives; the pass lowers what it returns.

The grid is static and runs in one wave, so the access resolves per tile of the grid
(linear id, x fastest) into the tile that owns the bytes and the constant start of
the tile in the owner's view (``RemoteAccess``).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects.builtin import IntAttr

from ktc.dialects import ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import from_tiles
from ktc.dialects.ktdp import MemorySpaceKind, grid_of
from ktc.passes.analysis.distributed import tile_box, tile_coordinates
from ktc.passes.utils.ir import enclosing_function
from ktc.passes.utils.values import affine_value, evaluate


@dataclass(frozen=True)
class RemoteAccess:
    """What each tile of the grid reads or writes."""

    owners: tuple[int, ...]
    """Per tile, the tile whose scratchpad holds what it reads or writes."""
    starts: tuple[tuple[int, ...], ...]
    """Per tile, the first point of its tile in the owner's view."""
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
    lows, _ = tile_box(tile)
    base_map = tile.base_map.data
    starts = []
    for linear in range(tiles):
        indices = [evaluate(index, tile_coordinates(grid, linear)) for index in tile.indices]
        if None in indices:
            raise KtcError(f"{verb} another tile's scratchpad at a start that is not a "
                           "constant of the tile id; the copies over the interconnect are "
                           "planned per tile, so the start of every tile must be known",
                           where(access))
        first = [affine_value(e, indices[:base_map.num_dims], indices[base_map.num_dims:])
                 for e in base_map.results]
        starts.append(tuple(s + a for s, a in zip(first, lows)))
    return RemoteAccess(owners, tuple(starts), addresses.pop())
