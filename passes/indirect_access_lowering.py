"""``indirect-access-lowering``: every ``ktdp.load`` of an indirect access tile becomes
a gather into a scratchpad buffer, every ``ktdp.store`` to one a scatter out of
one, done by the device's DMA engines from the indices they read at run time.

Expects programs as ``compute-group-extraction`` leaves them, whose indirect tiles
``ktir-legality-check`` accepted (``ktc.passes.analysis.indirect.describe``), in a
module that declares its device.

Produces, per load (gather) or store (scatter) of an indirect tile:

- a scratchpad buffer of each index view, whole, and one of the tile's shape
  (``memref.alloc`` at the program's start);
- a ``ktdf.pipeline`` of two stages: the first copies the index views into their
  buffers (on the engine that moves device memory into the scratchpad); the
  second, on the engine that moves the tile (device memory into the scratchpad
  for a gather, back for a scatter), loops over the tile's outer variables, reads
  the indices of each point with ``memref.load`` from the index buffers, computes
  the start of its run in the base view and moves the run with one
  ``ktdf.data_transfer`` (``Indirect.runs`` says what a run is);
- for a gather, a ``ktdp.load`` of the whole tile buffer in place of the load; for
  a scatter, a ``ktdp.store`` of the data into it before the pipeline.

The indirect tile is erased; a program without one is unchanged (idempotent).
An index outside its base view's sizes is not masked: the DMA reaches outside the
view, and the simulator faults when that lies outside every buffer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.upstream import ApplyOp
from ktc.passes.analysis.indirect import Indirect, describe
from ktc.passes.utils.ir import enclosing_function
from ktc.passes.utils.phases import programs
from ktc.passes.utils.tiles import box_tile, origin
from ktc.passes.utils.views import type_with_memory


@dataclass(frozen=True)
class IndirectAccessLowering(ModulePass):
    """Lower loads and stores of ``ktdp.construct_indirect_access_tile``s."""

    name = "indirect-access-lowering"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tiles = [inner for program in programs(op) for inner in program.walk()
                 if isinstance(inner, ktdp.ConstructIndirectAccessTileOp)]
        if not tiles:
            return
        device = device_of(op)
        for tile in tiles:
            facts = describe(tile)
            for use in list(tile.result.uses):
                _lower(facts, use.operation, device)
            Rewriter.erase_op(tile)


def _lower(facts: Indirect, access: Operation, device: Device) -> None:
    tile = facts.op
    func = enclosing_function(tile)
    base = tile.base.owner
    type_with_memory(base, device)
    for index in tile.indirect_memrefs:
        type_with_memory(index.owner, device)
    element = tile.base.type.get_element_type()
    buffer = _alloc(func, element, facts.shape, device.scratchpad, "gathered"
                    if isinstance(access, ktdp.LoadOp) else "scattered")
    indices = [_alloc(func, view.type.get_element_type(), view.type.get_shape(),
                      device.scratchpad, "indices") for view in tile.indirect_memrefs]
    whole = box_tile(buffer, origin(len(facts.shape)), [], facts.shape)
    into = _engine(device, device.device_memory, device.scratchpad)
    if isinstance(access, ktdp.LoadOp):
        pipeline = _pipeline(facts, indices, buffer, into, into, gather=True)
        load = ktdp.LoadOp.build(operands=[whole.result], result_types=[access.result.type])
        _insert([pipeline, whole, load], access)
        access.result.replace_all_uses_with(load.result)
    else:
        out = _engine(device, device.scratchpad, device.device_memory)
        store = ktdp.StoreOp.build(operands=[access.data_tile, whole.result])
        pipeline = _pipeline(facts, indices, buffer, into, out, gather=False)
        _insert([whole, store, pipeline], access)
    Rewriter.erase_op(access)


def _alloc(func, element, shape: Sequence[int], memory: str, name: str) -> SSAValue:
    alloc = memref.AllocOp([], [], MemRefType(element, list(shape), memory_space=StringAttr(memory)))
    alloc.memref.name_hint = name
    Rewriter.insert_op(alloc, InsertPoint.at_start(func.body.block))
    return alloc.memref


def _engine(device: Device, source: str, target: str) -> str:
    """The engine kind on the device's path from memory ``source`` to ``target``."""
    hops = device.path(device.node(source), device.node(target))
    return hops[0].target.kind


def _pipeline(facts: Indirect, indices: Sequence[SSAValue], buffer: SSAValue, into: str,
              mover: str, gather: bool) -> ktdf.PipelineOp:
    tile = facts.op
    copies = []
    for view, copy in zip(tile.indirect_memrefs, indices):
        shape = list(view.type.get_shape())
        start = (origin(len(shape)), [])
        copies.append(ktdf.DataTransferOp(view, shape, copy, shape,
                                          source_access=start, dest_access=start))
    tokens = [ktdf.CreateTokenOp(), ktdf.CreateTokenOp()]
    private = ktdf.PrivateOp([t.result.type for t in tokens],
                             [*tokens, ktdf.PrivateYieldOp(*(t.result for t in tokens))])
    first = ktdf.StageOp([], [private.resources[0]], copies, [StringAttr(into)])
    moves = _moves(facts, indices, buffer, gather)
    second = ktdf.StageOp([private.resources[0]], [private.resources[1]], moves,
                          [StringAttr(mover)])
    return ktdf.PipelineOp([private, first, second])


def _moves(facts: Indirect, indices: Sequence[SSAValue], buffer: SSAValue,
           gather: bool) -> list[Operation]:
    """The loop nest over the outer loop variables moving one run per point."""
    outer = len(facts.loops) - facts.runs
    constants: dict[int, arith.ConstantOp] = {}

    def constant(value: int) -> SSAValue:
        if value not in constants:
            constants[value] = arith.ConstantOp.from_int_and_width(value, IndexType())
        return constants[value].result

    blocks = [Block(arg_types=[IndexType()]) for _ in range(outer)]
    points = [*(block.args[0] for block in blocks), *([constant(0)] * facts.runs)]
    operands = [*facts.op.captured_variables, *points]
    ops: list[Operation] = []
    coordinates = []
    for subscript, index in facts.subscripts:
        values = _applied(subscript, operands, ops)
        if index is None:
            coordinates += values
            continue
        read = memref.LoadOp.get(indices[index], values)
        cast = arith.IndexCastOp(read.res, IndexType())
        ops += [read, cast]
        coordinates.append(cast.result)
    base_sizes = [1] * len(coordinates)
    for extent, dim in zip(facts.loops[outer:], facts.run_dims):
        base_sizes[dim] = extent
    block_sizes = [prod(extent for k, extent in enumerate(facts.loops)
                        if k >= outer and AffineExpr.dimension(k) in _terms(place))
                   for place in facts.placement.results]
    base_side = (AffineMap.identity(len(coordinates)), coordinates)
    buffer_side = (AffineMap.identity(len(facts.shape)), _applied(facts.placement, points, ops))
    if gather:
        move = ktdf.DataTransferOp(facts.op.base, base_sizes, buffer, block_sizes,
                                   source_access=base_side, dest_access=buffer_side)
    else:
        move = ktdf.DataTransferOp(buffer, block_sizes, facts.op.base, base_sizes,
                                   source_access=buffer_side, dest_access=base_side)
    inner: list[Operation] = [*ops, move]
    for depth in reversed(range(outer)):
        blocks[depth].add_ops([*inner, scf.YieldOp()])
        inner = [scf.ForOp(constant(0), constant(facts.loops[depth]), constant(1), [],
                           Region(blocks[depth]))]
    return [*constants.values(), *inner]


def _applied(affine_map: AffineMap, operands: Sequence[SSAValue], ops: list[Operation]) -> list[SSAValue]:
    """Each result of ``affine_map`` on ``operands`` (``affine.apply`` ops added to ``ops``)."""
    values = []
    for expr in affine_map.results:
        ops.append(ApplyOp(list(operands), AffineMapAttr(AffineMap(affine_map.num_dims, 0, (expr,)))))
        values.append(ops[-1].results[0])
    return values


def _terms(expr: AffineExpr) -> list[AffineExpr]:
    return list(expr.dfs())


def _insert(ops: list[Operation], before: Operation) -> None:
    for op in ops:
        op.location = before.location
    Rewriter.insert_op(ops, InsertPoint.before(before))
