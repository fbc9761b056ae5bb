"""``stream-copies``: a copy between two direct tiles of device memory whose tile does not
fit the scratchpad is streamed through it in pieces by the DMA engines alone.

Expects programs as ``compute-group-extraction`` leaves them (``indirect-access-lowering``
streams the copies of indirect tiles itself), in a module that declares its device:
``ktdp.load``s of ``ktdp.construct_access_tile``s, in the identity order, of
``ktdp.construct_memory_view``s in device memory.

Produces, per *copy*: a load whose only use is one ``ktdp.store`` of its tensor into
another such tile of the same static shape, later in the same block with no other
store or op holding others between, whose tile is larger than the scratchpad:
one ``scf.for`` over the points of the tile's outer
dimensions in row-major order (each split out of the loop's variable by
``affine.apply``) around a ``ktdf.pipeline`` of two stages sharing a private scratchpad
buffer of one *piece*, a block of the tile's trailing dimensions, as many as fit half
the scratchpad (a dimension too large for it stays outside, one row of it per point;
``double-buffering`` then gives the buffer its two copies): the first stage, on the
engine moving device memory into the scratchpad, copies the piece from the source
view at the tile's start plus the point; the second, on the engine moving the
scratchpad back, copies it to the destination view alike (``passes/utils/copies.py``).
A view one of whose two tiles may reach outside its coordinate set (a box) for some
value of its indices (``passes/analysis/ranges.py: tile_inside``; a distributed view's
copy per partition) is marked ``ktdf.masked``, as ``lower-ktdp-views`` marks the
others, so that each piece's DMA moves only what lies in the box: zeros into the
buffer for the rest of a piece read, nothing written outside. The load and the store
are erased, and the tiles when nothing else uses them. Pieces
go in the tiles' row-major order, as every tiled pipeline moves its tiles: a copy
between tiles that share bytes is not ordered as the reference's load of the whole
tile before its store.

Every other load and store is left as it is: one whose tile fits the scratchpad (the
three-stage pipeline moves it), one whose tensor is computed on (its capacity is
checked by ``address-assignment``). A program without copies is unchanged (idempotent).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdf, ktdp
from ktc.passes.analysis.ranges import Ranges, tile_inside
from ktc.passes.utils.copies import flat_loop, staged_copy
from ktc.passes.utils.ir import erase_unused
from ktc.passes.utils.phases import programs
from ktc.passes.utils.tiles import origin
from ktc.passes.utils.views import type_with_memory


@dataclass(frozen=True)
class StreamCopies(ModulePass):
    """Stream copies of direct tiles larger than the scratchpad through it in pieces."""

    name = "stream-copies"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loads = [inner for program in programs(op) for inner in program.walk()
                 if isinstance(inner, ktdp.LoadOp)]
        if not loads:
            return
        device, ranges = device_of(op), Ranges(op)
        for load in loads:
            copy = _copy(load, device)
            if copy is not None:
                _stream(copy, device, ranges)


@dataclass(frozen=True)
class _Copy:
    """A load only stored: its tile and the store's, each of a memory view."""

    load: ktdp.LoadOp
    store: ktdp.StoreOp
    source: ktdp.ConstructAccessTileOp
    target: ktdp.ConstructAccessTileOp

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.source.result.type.get_shape())


def _copy(load: ktdp.LoadOp, device: Device) -> _Copy | None:
    """The copy ``load`` is the first half of, when it is one that does not fit the
    scratchpad and can be streamed; None otherwise."""
    uses = list(load.result.uses)
    if len(uses) != 1 or not isinstance(uses[0].operation, ktdp.StoreOp):
        return None
    store = uses[0].operation
    source, target = load.access_tile.owner, store.access_tile.owner
    if not _nothing_written_between(load, store):
        return None
    if not all(_streamable(tile, device) for tile in (source, target)):
        return None
    copy = _Copy(load, store, source, target)
    if tuple(target.result.type.get_shape()) != copy.shape:
        return None
    if _bytes(copy.shape, source) <= device.memory(device.scratchpad).size:
        return None
    return copy


def _nothing_written_between(load: ktdp.LoadOp, store: ktdp.StoreOp) -> bool:
    """Whether ``store`` follows ``load`` in its block with no store, and no op holding
    others, between: reading the source where the store was reads the same data."""
    if store.parent is not load.parent:
        return False
    op = load.next_op
    while op is not store:
        if isinstance(op, ktdp.StoreOp) or op.regions:
            return False
        op = op.next_op
    return True


def _streamable(tile: Operation, device: Device) -> bool:
    """Whether ``tile`` is a direct tile in the identity order, of static shape, of a
    memory view in device memory."""
    if not isinstance(tile, ktdp.ConstructAccessTileOp):
        return False
    view = tile.base.owner
    if not isinstance(view, ktdp.ConstructMemoryViewOp):
        return False
    order = tile.access_tile_order.data
    if order != AffineMap.identity(order.num_dims) or not tile.result.type.has_static_shape():
        return False
    return device.memory_space(view.memory_space).kind == device.device_memory


def _bytes(shape: Sequence[int], tile: ktdp.ConstructAccessTileOp) -> int:
    return prod(shape) * max(tile.base.type.get_element_type().bitwidth // 8, 1)


def _piece(copy: _Copy, room: int) -> int:
    """The first of the tile's trailing dimensions a piece spans: the least ``k`` whose
    block ``shape[k:]`` fits ``room`` bytes (the innermost, one row, at the least)."""
    shape = copy.shape
    first = len(shape) - 1
    while first > 0 and _bytes(shape[first - 1:], copy.source) <= room:
        first -= 1
    return first


def _stream(copy: _Copy, device: Device, ranges: Ranges) -> None:
    for tile in (copy.source, copy.target):
        view = tile.base.owner
        type_with_memory(view, device)
        if not ktdf.masked(view) and not tile_inside(tile, view, ranges):
            ktdf.set_masked(view)
    first = _piece(copy, device.memory(device.scratchpad).size // 2)
    shape = copy.shape
    sizes = [1] * first + list(shape[first:])
    engines = (device.mover(device.device_memory, device.scratchpad),
               device.mover(device.scratchpad, device.device_memory))
    element = copy.source.base.type.get_element_type()

    def piece(points: list[SSAValue]) -> list[Operation]:
        at_origin = (origin(len(sizes)), [])

        def read(buffer: SSAValue) -> list[Operation]:
            view, access = _at(copy.source, points)
            return [ktdf.DataTransferOp(view, sizes, buffer, sizes, source_access=access,
                                        dest_access=at_origin)]

        def write(buffer: SSAValue) -> list[Operation]:
            view, access = _at(copy.target, points)
            return [ktdf.DataTransferOp(buffer, sizes, view, sizes, source_access=at_origin,
                                        dest_access=access)]

        return [staged_copy(element, sizes, device.scratchpad, engines, read, write)]

    ops = flat_loop(shape[:first], len(shape) - first, piece)
    for op in ops:
        op.location = copy.store.location
    Rewriter.insert_op(ops, InsertPoint.before(copy.store))
    Rewriter.erase_op(copy.store)
    Rewriter.erase_op(copy.load)
    erase_unused([copy.source, copy.target])


def _at(tile: ktdp.ConstructAccessTileOp,
        points: Sequence[SSAValue]) -> tuple[SSAValue, tuple[AffineMap, list[SSAValue]]]:
    """The view of ``tile`` and the access of its element at the tile's start plus
    ``points``: the start's map over the tile's indices (its dimensions, then its
    symbols), the points added."""
    indices = list(tile.indices)
    start = tile.base_map.data
    dims = len(indices) + len(points)
    flat = start.replace_dims_and_symbols(
        [AffineExpr.dimension(k) for k in range(start.num_dims)],
        [AffineExpr.dimension(start.num_dims + k) for k in range(start.num_symbols)], dims, 0)
    at = AffineMap(dims, 0, tuple(expr + AffineExpr.dimension(len(indices) + k)
                                  for k, expr in enumerate(flat.results)))
    return tile.base, (at, [*indices, *points])
