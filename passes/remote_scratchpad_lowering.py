"""``remote-scratchpad-lowering``: a ``ktdp.load`` of another tile's scratchpad (a view
in ``#ktdp.memory_space<ct_local, ct_id = N>``) becomes a copy over the interconnect,
made by the tile that owns the bytes, into a receive buffer in the reader's
scratchpad, and a load of that buffer.

KTIR reads another core's scratchpad as if it were memory; the cores have no such
path: a core's interconnect stop moves its own scratchpad's bytes into another core's
(``ktdf.to_tiles``, as ``inter-tile-reduce-lowering`` uses). So a read turns into a
write by the owner: per reader, the owner copies the tile the reader names (its start,
a constant per tile, ``passes/analysis/remote.py``) into the reader's buffer. The owner
reading its own view copies through its stop into its own buffer (no hop), so that every
tile reads the same buffer.

Ordering: the copy is part of the reader's program, whose hand-off signals make the
reader's load wait for every copy into its buffer (``convert-ktdf-to-dfir``). What the
owner stores into its scratchpad before is in an earlier program (a store ends a
compute group), and a program starts when the one before has ended on every core, so
the copy reads what the owner wrote. A program that reads another tile's scratchpad
and also stores into a scratchpad is refused: there the owner's write and the copy
would race.
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
    UnknownLoc,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdp import MemorySpaceAttr, MemorySpaceKind, grid_of
from ktc.passes.analysis.remote import RemoteRead, owner_of, remote_read, remote_view
from ktc.passes.utils.affine import box
from ktc.passes.utils.ir import enclosing_function, erase_unused, linear_tile_id
from ktc.passes.utils.views import type_with_memory


@dataclass(frozen=True)
class RemoteScratchpadLowering(ModulePass):
    """Lower every load of another tile's scratchpad.

    Expects programs as ``compute-group-extraction`` leaves them: ``func.func`` with a
    static ``grid`` that runs in one wave, holding ``ktdp.load``s through tiles of
    ``ktdp.construct_memory_view``s in ``ct_local, ct_id = N`` (static shape, the
    tile's start a constant per tile; ``ktir-legality-check``), in a module that
    declares a device with an interconnect.

    Produces, per such load:

    - a receive buffer ``memref.alloc`` of the tile's shape in the scratchpad at the
      function's start;
    - a view of the same bytes in the executing tile's own scratchpad (``ct_local``
      without ``ct_id``);
    - per rank ``k`` (the ``k``-th reader of the owner, ascending ids), a
      ``ktdf.pipeline`` with one stage on the interconnect stop's engine kind: a
      ``ktdf.data_transfer`` from that view, at the ``k``-th reader's start (a
      ``ktdf.tile_table`` per dimension), into the buffer of the tile its
      ``ktdf.to_tiles`` table names (the owner's ``k``-th reader, the owner itself
      included; -1 on the other tiles, which copy nothing);
    - the load a ``ktdp.load`` of the whole buffer.

    A function without such loads is unchanged, so the pass is idempotent. A program
    that also stores into a scratchpad is an error at the load.
    """

    name = "remote-scratchpad-lowering"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loads = [inner for inner in op.walk()
                 if isinstance(inner, ktdp.LoadOp) and remote_view(inner) is not None]
        if not loads:
            return
        device = device_of(op)
        if device.interconnect is None:
            raise KtcError(f"device @{device.name} has no interconnect to read another tile's "
                           "scratchpad over", where(loads[0]))
        for load in loads:
            _unraced(load)
            _lower(load, remote_read(load, device.cores), device)


def _unraced(load: ktdp.LoadOp) -> None:
    """A program reading another tile's scratchpad stores into none."""
    for op in enclosing_function(load).walk():
        tile = op.access_tile.owner if isinstance(op, ktdp.StoreOp) else None
        view = tile.base.owner if isinstance(tile, ktdp.ConstructAccessTileOp) else None
        if isinstance(view, ktdp.ConstructMemoryViewOp) and _in_scratchpad(view):
            raise KtcError("reads another tile's scratchpad in a program that also stores into "
                           "a scratchpad; the copy over the interconnect would race with that "
                           f"store, so store in an earlier compute group: the store at {where(op)}",
                           where(load))


def _in_scratchpad(view: ktdp.ConstructMemoryViewOp) -> bool:
    space = view.memory_space
    if isinstance(space, ktdp.SpyreMemorySpaceAttr):
        space = space.to_memory_space()
    return isinstance(space, MemorySpaceAttr) and space.kind.data == MemorySpaceKind.CT_LOCAL


def _lower(load: ktdp.LoadOp, read: RemoteRead, device: Device) -> None:
    func = enclosing_function(load)
    grid = grid_of(func)
    tile = load.access_tile.owner
    view = remote_view(load)
    shape = list(load.result.type.get_shape())
    received = memref.AllocOp([], [], MemRefType(load.result.type.get_element_type(), shape,
                                                  memory_space=StringAttr(device.scratchpad)))
    received.memref.name_hint = "received"
    Rewriter.insert_op(received, InsertPoint.at_start(func.body.block))
    address = arith.ConstantOp.from_int_and_width(read.address, IndexType())
    own = view.clone()
    own.operands[0] = address.result
    own.properties["memory_space"] = MemorySpaceAttr(MemorySpaceKind.CT_LOCAL)
    own.result.name_hint = view.result.name_hint
    type_with_memory(own, device)
    linear = linear_tile_id(load, grid)
    ops: list[Operation] = [address, own]
    for rank in range(read.ranks()):
        ops += _ring_pipeline(own.result, received.memref, read, rank, linear, shape, device.interconnect.stop)
    whole = ktdp.ConstructAccessTileOp.build(
        operands=[received.memref, [], []],
        result_types=[ktdp.AccessTileType(shape)],
        properties={
            "base_map": AffineMapAttr(AffineMap(0, 0, (AffineExpr.constant(0),) * len(shape))),
            "access_tile_set": AffineSetAttr(box(shape)),
            "access_tile_order": AffineMapAttr(AffineMap.identity(len(shape))),
        },
    )
    ops.append(whole)
    for new in ops:
        if isinstance(new.location, UnknownLoc):
            new.location = load.location
    Rewriter.insert_op(ops, InsertPoint.before(load))
    load.operands[0] = whole.result
    load.attributes.pop(ktdf.FROM_TILES, None)
    erase_unused([tile, view])


def _ring_pipeline(source: SSAValue, dest: SSAValue, read: RemoteRead, rank: int,
                   linear: SSAValue, shape: list[int], stop: str) -> list[Operation]:
    """The copies of rank ``rank``: every owner's ``rank``-th reader's tile of
    ``source`` into ``dest`` on that reader; the per-tile starts before the pipeline."""
    tiles = len(read.owners)
    table = [-1] * tiles
    for owner in set(read.owners):
        readers = read.readers(owner)
        if rank < len(readers):
            table[owner] = readers[rank]
    first_reader = next(to for to in table if to >= 0)
    # A tile that copies nothing takes the first reader's start: unused, but a start
    # the same on every copying tile is then a constant.
    starts = [[read.starts[first_reader if to < 0 else to][dim] for to in table]
              for dim in range(len(shape))]
    firsts = [ktdf.TileTableOp(linear, values) if len(set(values)) > 1
              else arith.ConstantOp.from_int_and_width(values[0], IndexType()) for values in starts]
    rank_map = AffineMap.identity(len(shape))
    origin = AffineMap(0, 0, (AffineExpr.constant(0),) * len(shape))
    transfer = ktdf.DataTransferOp(
        source, shape, dest, shape,
        source_access=(rank_map, [first.result for first in firsts]), dest_access=(origin, []),
        attributes=ktdf.to_tiles_attribute(table),
    )
    token = ktdf.CreateTokenOp()
    private = ktdf.PrivateOp([token.result.type], [token, ktdf.PrivateYieldOp(token.result)])
    stage = ktdf.StageOp([], [private.resources[0]], [transfer], [StringAttr(stop)])
    return [*firsts, ktdf.PipelineOp([private, stage])]
