"""``remote-scratchpad-lowering``: a ``ktdp.load`` of another tile's scratchpad (a view
in ``#ktdp.memory_space<ct_local, ct_id = N>``) becomes a copy over the interconnect,
made by the tile that owns the bytes, into a receive buffer in the reader's
scratchpad, and a load of that buffer; a ``ktdp.store`` into another tile's
scratchpad becomes a store into a send buffer in the writer's scratchpad and a copy
over the interconnect, made by the writer, from it into the owner's scratchpad.

KTIR reads and writes another core's scratchpad as if it were memory; the cores have
no such path: a core's interconnect stop moves its own scratchpad's bytes into another
core's (``ktdf.to_tiles``, as ``inter-tile-reduce-lowering`` uses). So a read turns
into a write by the owner: per reader, the owner copies the tile the reader names into
the reader's buffer, at its start: a constant per tile, or computed by the owner from
the reader's tile id and the loop indices and launch arguments both share
(``passes/analysis/remote.py``, ``per_tile``), in the same iteration.
The owner reading its own view copies through its stop into its own buffer (no hop),
so that every tile reads the same buffer. A store is the writer's copy, at the start
its tile names in the owner's view.

Ordering. KTIR orders no two tiles' accesses but by inter-tile ops (the reference
interpreter runs tiles one after the other in id order, one outcome among those
allowed); the compiled kernel orders them by programs: a store ends a compute group,
and a program starts when the one before has ended on every core, its copies over the
interconnect included. So a copy into a tile's scratchpad is seen by every access of
a later compute group, and a read copies what earlier compute groups stored. Within
one program:

- a read's copy is part of the reader's program, whose hand-off signals make the
  reader's load wait for every copy into its buffer (``convert-ktdf-to-dfir``), and a
  store's copy waits for the store into its send buffer the same way;
- in a program that reads another tile's scratchpad and stores into its own, the
  owner's store waits until the copies out of its scratchpad that come before it have
  read their bytes (``convert-ktdf-to-dfir``'s signals from a copy between cores to a
  later store into the kernel's scratchpad data), so every reader gets the bytes as
  they were before the store, as the owner itself does;
- a program that stores into another tile's scratchpad bytes that it also reads (any
  tile, its own or another's view of them) is refused: nothing orders the owner's or
  the other readers' accesses against the writer's copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdp import MemorySpaceAttr, MemorySpaceKind, grid_of
from ktc.dialects.upstream import ApplyOp
from ktc.passes.analysis.arrays import constant_bytes
from ktc.passes.analysis.distributed import tile_box, tile_coordinates
from ktc.passes.analysis.remote import RemoteAccess, remote_access, remote_view
from ktc.passes.utils.affine import box
from ktc.passes.utils.ir import enclosing_function, erase_unused, linear_tile_id
from ktc.passes.utils.views import type_with_memory


@dataclass(frozen=True)
class RemoteScratchpadLowering(ModulePass):
    """Lower every load of and store into another tile's scratchpad.

    Expects programs as ``compute-group-extraction`` leaves them: ``func.func`` with a
    static ``grid`` that runs in one wave, holding ``ktdp.load``s and ``ktdp.store``s
    through tiles of ``ktdp.construct_memory_view``s in ``ct_local, ct_id = N``
    (static shape, at one constant address, the tile's start a constant per tile or
    computed from the tile id, launch arguments and indices of loops that run alike on
    every tile; ``ktir-legality-check``), in a module that declares a device with an
    interconnect.

    Produces, per such load:

    - a receive buffer ``memref.alloc`` of the tile's shape in the scratchpad at the
      function's start;
    - a view of the same bytes in the executing tile's own scratchpad (``ct_local``
      without ``ct_id``);
    - per rank ``k`` (the ``k``-th reader of the owner, ascending ids), a
      ``ktdf.pipeline`` with one stage on the interconnect stop's engine kind: a
      ``ktdf.data_transfer`` from that view, at the ``k``-th reader's start (a
      ``ktdf.tile_table`` per dimension; or, for a start that is not a constant per
      tile, the ops computing the tile's indices cloned before the pipeline with the
      tile id replaced by the reader's, and ``affine.apply`` of the base map), into
      the buffer of the tile its ``ktdf.to_tiles`` table names (the owner's ``k``-th
      reader, the owner itself included; -1 on the other tiles, which copy nothing);
    - the load a ``ktdp.load`` of the whole buffer.

    Per such store:

    - a send buffer ``memref.alloc`` of the tile's shape in the scratchpad at the
      function's start, the store a ``ktdp.store`` into the whole of it;
    - after it, a view of the owner's bytes as above and one ``ktdf.pipeline`` on the
      stop: a ``ktdf.data_transfer`` from the send buffer into that view at the tile's
      start (a ``ktdf.tile_table`` per dimension, or a constant), into the scratchpad
      of the tile ``ktdf.to_tiles`` names (each tile's owner).

    A function without such accesses is unchanged, so the pass is idempotent. A
    function storing into another tile's scratchpad bytes that it also reads is an
    error at the store.
    """

    name = "remote-scratchpad-lowering"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        accesses = [inner for inner in op.walk() if isinstance(inner, ktdp.LoadOp | ktdp.StoreOp)
                    and remote_view(inner) is not None]
        if not accesses:
            return
        device = device_of(op)
        if device.interconnect is None:
            raise KtcError(f"device @{device.name} has no interconnect to reach another tile's "
                           "scratchpad over", where(accesses[0]))
        functions = list(dict.fromkeys(enclosing_function(access) for access in accesses))
        for func in functions:
            _lower_function(func, device)


def _lower_function(func: FuncOp, device: Device) -> None:
    """Lower the accesses of other tiles' scratchpads of one program."""
    loads = [op for op in func.walk() if isinstance(op, ktdp.LoadOp) and remote_view(op)]
    stores = [op for op in func.walk() if isinstance(op, ktdp.StoreOp) and remote_view(op)]
    for store in stores:
        _unraced(store, func)
    accesses = [(op, remote_access(op, device.cores)) for op in loads + stores]
    for access, resolved in accesses:
        lower = _lower_load if isinstance(access, ktdp.LoadOp) else _lower_store
        lower(access, resolved, device)


def _view(access: ktdp.LoadOp | ktdp.StoreOp) -> ktdp.ConstructMemoryViewOp | None:
    """The memory view ``access`` goes through, if its tile is of one."""
    tile = access.access_tile.owner
    view = tile.base.owner if isinstance(tile, ktdp.ConstructAccessTileOp) else None
    return view if isinstance(view, ktdp.ConstructMemoryViewOp) else None


def _space(view: ktdp.ConstructMemoryViewOp) -> MemorySpaceAttr | None:
    space = view.memory_space
    if isinstance(space, ktdp.SpyreMemorySpaceAttr):
        space = space.to_memory_space()
    return space if isinstance(space, MemorySpaceAttr) else None


def _unraced(store: ktdp.StoreOp, func: FuncOp) -> None:
    """No access of ``func`` but ``store`` reads the scratchpad bytes it writes into
    another tile's scratchpad."""
    written = constant_bytes(remote_view(store))
    for op in func.walk():
        view = _view(op) if isinstance(op, ktdp.LoadOp) else None
        space = _space(view) if view is not None else None
        if space is None or space.kind.data != MemorySpaceKind.CT_LOCAL:
            continue
        read = constant_bytes(view)
        if written is None or read is None or (read[0] < written[1] and written[0] < read[1]):
            raise KtcError("stores into another tile's scratchpad bytes that the program also "
                           "reads; nothing orders the owner's accesses against the copy over "
                           "the interconnect within one program, so read them in a later "
                           f"compute group: the load at {where(op)}", where(store))


def _own_view(view: ktdp.ConstructMemoryViewOp, address: int, device: Device) -> list[Operation]:
    """A view of ``view``'s bytes in the executing tile's own scratchpad, at ``address``
    (its constant start), and that constant."""
    start = arith.ConstantOp.from_int_and_width(address, IndexType())
    own = view.clone()
    own.operands[0] = start.result
    own.properties["memory_space"] = MemorySpaceAttr(MemorySpaceKind.CT_LOCAL)
    own.result.name_hint = view.result.name_hint
    type_with_memory(own, device)
    return [start, own]


def _buffer(func: FuncOp, access: ktdp.LoadOp | ktdp.StoreOp, name: str, device: Device,
            shape: list[int]) -> memref.AllocOp:
    """A scratchpad buffer of the accessed tile's shape at ``func``'s start."""
    tensor = access.result.type if isinstance(access, ktdp.LoadOp) else access.data_tile.type
    buffer = memref.AllocOp([], [], MemRefType(tensor.get_element_type(), shape,
                                                memory_space=StringAttr(device.scratchpad)))
    buffer.memref.name_hint = name
    Rewriter.insert_op(buffer, InsertPoint.at_start(func.body.block))
    return buffer


def _whole(buffer: SSAValue, shape: list[int]) -> ktdp.ConstructAccessTileOp:
    """The access tile of all of ``buffer``."""
    return ktdp.ConstructAccessTileOp.build(
        operands=[buffer, [], []],
        result_types=[ktdp.AccessTileType(shape)],
        properties={
            "base_map": AffineMapAttr(AffineMap(0, 0, (AffineExpr.constant(0),) * len(shape))),
            "access_tile_set": AffineSetAttr(box(shape)),
            "access_tile_order": AffineMapAttr(AffineMap.identity(len(shape))),
        },
    )


def _located(ops: list[Operation], at: Operation) -> list[Operation]:
    for new in ops:
        if isinstance(new.location, UnknownLoc):
            new.location = at.location
    return ops


def _lower_load(load: ktdp.LoadOp, read: RemoteAccess, device: Device) -> None:
    func = enclosing_function(load)
    grid = grid_of(func)
    tile = load.access_tile.owner
    view = _view(load)
    shape = list(load.result.type.get_shape())
    received = _buffer(func, load, "received", device, shape)
    ops = _own_view(view, read.address, device)
    linear = linear_tile_id(load, grid)
    for rank in range(read.ranks()):
        table = _rank_table(read, rank)
        readers = _copying_for(table)
        firsts = (_computed_starts(tile, readers, linear, grid) if read.starts is None
                  else _constant_starts([read.starts[to] for to in readers], linear))
        ops += _ring_pipeline(ops[1].result, received.memref, table, firsts, shape,
                              device.interconnect.stop, into_buffer=True)
    whole = _whole(received.memref, shape)
    ops.append(whole)
    Rewriter.insert_op(_located(ops, load), InsertPoint.before(load))
    load.operands[0] = whole.result
    load.attributes.pop(ktdf.FROM_TILES, None)
    erase_unused([tile, view])


def _lower_store(store: ktdp.StoreOp, write: RemoteAccess, device: Device) -> None:
    func = enclosing_function(store)
    tile = store.access_tile.owner
    view = _view(store)
    shape = list(store.data_tile.type.get_shape())
    sent = _buffer(func, store, "sent", device, shape)
    whole = _whole(sent.memref, shape)
    Rewriter.insert_op(_located([whole], store), InsertPoint.before(store))
    store.operands[1] = whole.result
    ops = _own_view(view, write.address, device)
    linear = linear_tile_id(store, grid_of(func))
    firsts = (_constant_starts(list(write.starts), linear) if write.starts is not None
              else _computed_starts(tile, None, linear, grid_of(func)))
    ops += _ring_pipeline(sent.memref, ops[1].result, list(write.owners), firsts, shape,
                          device.interconnect.stop, into_buffer=False)
    Rewriter.insert_op(_located(ops, store), InsertPoint.after(store))
    store.attributes.pop(ktdf.FROM_TILES, None)
    erase_unused([tile, view])


def _rank_table(read: RemoteAccess, rank: int) -> list[int]:
    """Per tile, the reader its copy of rank ``rank`` goes to: every owner's
    ``rank``-th reader; -1 on the other tiles."""
    table = [-1] * len(read.owners)
    for owner in set(read.owners):
        readers = read.readers(owner)
        if rank < len(readers):
            table[owner] = readers[rank]
    return table


def _copying_for(table: list[int]) -> list[int]:
    """Per tile, the tile whose start it copies: the reader ``table`` names, or the
    first reader on a tile that copies nothing (unused, but a start the same on every
    copying tile is then a constant)."""
    first_reader = next(to for to in table if to >= 0)
    return [first_reader if to < 0 else to for to in table]


Starts = tuple[list[Operation], list[SSAValue]]
"""The ops computing a copy's start in the owner's view, and its value per dimension."""


def _constant_starts(starts: list[tuple[int, ...]], linear: SSAValue) -> Starts:
    """Per dimension, a constant or a ``ktdf.tile_table`` of the tiles' starts."""
    ops = [_per_tile(values, linear) for values in zip(*starts)]
    return ops, [op.result for op in ops]


def _per_tile(values: Sequence[int], linear: SSAValue) -> Operation:
    """An index that is ``values[t]`` on tile ``t``: a constant when they agree."""
    if len(set(values)) == 1:
        return arith.ConstantOp.from_int_and_width(values[0], IndexType())
    return ktdf.TileTableOp(linear, values)


def _computed_starts(tile: ktdp.ConstructAccessTileOp, readers: list[int] | None,
                     linear: SSAValue | None, grid: tuple[int, ...]) -> Starts:
    """The start of ``tile`` in its view computed on each tile for the tile
    ``readers`` names (None: for itself): the ops computing the tile's indices cloned
    with the tile id replaced by that tile's coordinates (``ktdf.tile_table``s), and
    the view's point ``base_map(indices)`` plus the tile set's lower corner."""
    ops: list[Operation] = []
    mapped: dict[SSAValue, SSAValue] = {}

    def value(of: SSAValue) -> SSAValue:
        if readers is None or isinstance(of, BlockArgument):
            return of
        if of not in mapped:
            op = of.owner
            if isinstance(op, ktdp.GetComputeTileIdOp):
                position = op.results.index(of)
                new = _per_tile([tile_coordinates(grid, reader)[position] for reader in readers],
                                linear)
            else:
                new = op.clone()
                for k, operand in enumerate(op.operands):
                    new.operands[k] = value(operand)
            ops.append(new)
            mapped[of] = new.results[0]
        return mapped[of]

    indices = [value(index) for index in tile.indices]
    lows, _ = tile_box(tile)
    base_map = tile.base_map.data
    firsts = [ApplyOp(indices, AffineMapAttr(AffineMap(base_map.num_dims, base_map.num_symbols,
                                                       (expr + low,))))
              for expr, low in zip(base_map.results, lows)]
    return [*ops, *firsts], [first.results[0] for first in firsts]


def _ring_pipeline(source: SSAValue, dest: SSAValue, table: list[int], firsts: Starts,
                   shape: list[int], stop: str, into_buffer: bool) -> list[Operation]:
    """A copy on the stop, per tile, of a tile of ``shape`` between ``source`` and
    ``dest`` in the scratchpad of the tile ``table`` names, at the start ``firsts``
    computes in ``source`` (a read, ``into_buffer``: the whole of ``dest``) or in
    ``dest`` (a store: from the whole of ``source``); its ops before the pipeline."""
    ops, starts = firsts
    at = (AffineMap.identity(len(shape)), starts)
    origin = (AffineMap(0, 0, (AffineExpr.constant(0),) * len(shape)), [])
    transfer = ktdf.DataTransferOp(
        source, shape, dest, shape,
        source_access=at if into_buffer else origin, dest_access=origin if into_buffer else at,
        attributes=ktdf.to_tiles_attribute(table),
    )
    token = ktdf.CreateTokenOp()
    private = ktdf.PrivateOp([token.result.type], [token, ktdf.PrivateYieldOp(token.result)])
    stage = ktdf.StageOp([], [private.resources[0]], [transfer], [StringAttr(stop)])
    return [*ops, ktdf.PipelineOp([private, stage])]
