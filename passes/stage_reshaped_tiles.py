"""``stage-reshaped-tiles``: a reshape that no strides of the tile's memory describe is
made by the DMA, which writes the scratchpad in the new shape.

``fold-reshapes-and-slices`` folds every layout-preserving reshape into the access
tiles of loads and stores. A reshape of a loaded tile whose elements no strides of
the new shape reach (two tokens of four heads each, ``2x4x128`` at strides
``[4096, 128, 1]``, collapsed into ``8x128`` rows) it leaves, and so a store of one:
once the tile is copied into the scratchpad it is contiguous there, and a contiguous
tile has every shape of its elements. This pass makes that copy explicit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.passes.utils.ir import enclosing_function, erase_unused
from ktc.passes.utils.phases import programs
from ktc.passes.utils.tiles import box_tile, origin
from ktc.passes.utils.views import type_with_memory

RESHAPES = ("tensor.expand_shape", "tensor.collapse_shape", "tensor.reshape", "tensor.cast")
"""Ops that give a tensor's elements, in row-major order, another static shape."""


@dataclass(frozen=True)
class StageReshapedTiles(ModulePass):
    """Copy the tiles of reshapes left by ``fold-reshapes-and-slices`` through the
    scratchpad, in their new shape.

    Expects programs from ``compute-group-extraction`` whose reshapes
    (``tensor.expand_shape``/``collapse_shape``/``reshape``/``cast``) are each of a
    ``ktdp.load`` or stored by a ``ktdp.store``, through a
    ``ktdp.construct_access_tile`` of a ``ktdp.construct_memory_view`` (the ones no
    strides describe: ``fold-reshapes-and-slices`` folds the others); a module
    declaring its device.

    Produces, per reshape of a load: a scratchpad buffer of the reshape's shape
    (``memref.alloc`` at the program's start), a ``ktdf.pipeline`` of one stage on
    the engine moving device memory into the scratchpad whose ``ktdf.data_transfer``
    copies the tile (its shape, from its start in the view) into the whole buffer (the
    new shape: the same elements in row-major order; the view marked ``ktdf.masked``,
    so the copy moves only what lies in its box), and a ``ktdp.load`` of the
    whole buffer in place of the reshape. Per store of a reshape: a buffer of the
    reshape's source shape, a ``ktdp.store`` of the source into it and a pipeline of
    one stage on the engine moving the scratchpad to device memory copying the buffer
    into the tile. The reshape, and the load or store with its tile once unused, are
    erased; a program without such a reshape is unchanged (idempotent). A reshape of
    anything else is an error at the op.
    """

    name = "stage-reshaped-tiles"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reshapes = [inner for program in programs(op) for inner in program.walk()
                    if inner.name in RESHAPES]
        if not reshapes:
            return
        device = device_of(op)
        for reshape in reshapes:
            _stage(reshape, device)


def _stage(reshape: Operation, device: Device) -> None:
    """The reshape's load, or each store of it, copied through a scratchpad buffer."""
    source = reshape.operands[0].owner
    stores = [use.operation for use in reshape.results[0].uses
              if isinstance(use.operation, ktdp.StoreOp) and use.index == 0]
    for store in stores:
        _staged_store(store, reshape.operands[0], _direct(store.access_tile, reshape), device)
    if reshape.results[0].uses:
        if not isinstance(source, ktdp.LoadOp):
            raise KtcError(
                f"'{reshape.name}' reshapes the result of '{source.name}' into a shape no "
                "strides of its memory describe; the compiler copies such a reshape through "
                "the scratchpad only between a load or a store and the tile it moves",
                where(reshape))
        _staged_load(reshape, source, _direct(source.access_tile, reshape), device)
    Rewriter.erase_op(reshape)
    erase_unused([source])


def _direct(tile: SSAValue, reshape: Operation) -> ktdp.ConstructAccessTileOp:
    """The tile a staged reshape's load or store moves: a direct tile of a view."""
    owner = tile.owner
    if not (isinstance(owner, ktdp.ConstructAccessTileOp)
            and isinstance(owner.base.owner, ktdp.ConstructMemoryViewOp)):
        raise KtcError(
            f"'{reshape.name}' reshapes a tile that is not a ktdp.construct_access_tile of a "
            "ktdp.construct_memory_view; the compiler copies a reshape through the scratchpad "
            "only for such tiles", where(reshape))
    return owner


def _staged_load(reshape: Operation, load: ktdp.LoadOp, tile: ktdp.ConstructAccessTileOp,
                 device: Device) -> None:
    shape = list(reshape.results[0].type.get_shape())
    buffer = _buffer(reshape, shape, device)
    into = device.mover(device.device_memory, device.scratchpad)
    whole = box_tile(buffer, origin(len(shape)), [], shape)
    loaded = ktdp.LoadOp.build(operands=[whole.result], result_types=[reshape.results[0].type])
    _insert([_copy(_view_side(tile, device), _buffer_side(buffer, shape), into), whole, loaded],
            reshape)
    reshape.results[0].replace_all_uses_with(loaded.result)


def _staged_store(store: ktdp.StoreOp, data: SSAValue, tile: ktdp.ConstructAccessTileOp,
                  device: Device) -> None:
    shape = list(data.type.get_shape())
    buffer = _buffer(store, shape, device)
    out = device.mover(device.scratchpad, device.device_memory)
    whole = box_tile(buffer, origin(len(shape)), [], shape)
    into = ktdp.StoreOp.build(operands=[data, whole.result])
    _insert([whole, into, _copy(_buffer_side(buffer, shape), _view_side(tile, device), out)], store)
    Rewriter.erase_op(store)
    erase_unused([tile])


Side = tuple[SSAValue, list[int], AffineMap, list[SSAValue]]
"""One end of a copy: the memref, the block's sizes, the map to its start and its operands."""


def _view_side(tile: ktdp.ConstructAccessTileOp, device: Device) -> Side:
    """The tile in its view, which is marked ``ktdf.masked``: the copy moves only the
    part of the tile inside the view's box, as a load or store of the tile would."""
    type_with_memory(tile.base.owner, device)
    ktdf.set_masked(tile.base.owner)
    return tile.base, list(tile.result.type.get_shape()), tile.base_map.data, list(tile.indices)


def _buffer_side(buffer: SSAValue, shape: list[int]) -> Side:
    return buffer, shape, origin(len(shape)), []


def _copy(source: Side, dest: Side, engine: str) -> ktdf.PipelineOp:
    """A pipeline of one stage on ``engine`` copying ``source``'s block into ``dest``'s
    (blocks of one element count, maybe of two shapes)."""
    token = ktdf.CreateTokenOp()
    private = ktdf.PrivateOp([token.result.type], [token, ktdf.PrivateYieldOp(token.result)])
    transfer = ktdf.DataTransferOp(source[0], source[1], dest[0], dest[1],
                                   source_access=(source[2], source[3]),
                                   dest_access=(dest[2], dest[3]))
    stage = ktdf.StageOp([], [private.resources[0]], [transfer], [StringAttr(engine)])
    return ktdf.PipelineOp([private, stage])


def _buffer(at: Operation, shape: Sequence[int], device: Device) -> SSAValue:
    """A scratchpad buffer of ``shape`` at the start of ``at``'s program."""
    element = at.operands[0].type.get_element_type()
    alloc = memref.AllocOp([], [], MemRefType(element, list(shape),
                                              memory_space=StringAttr(device.scratchpad)))
    alloc.memref.name_hint = "reshaped"
    alloc.location = at.location
    Rewriter.insert_op(alloc, InsertPoint.at_start(enclosing_function(at).body.block))
    return alloc.memref


def _insert(ops: list[Operation], before: Operation) -> None:
    for op in ops:
        op.location = before.location
        for inner in op.walk():
            inner.location = before.location
    Rewriter.insert_op(ops, InsertPoint.before(before))
