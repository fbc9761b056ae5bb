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

A copy (a gather only stored to a direct tile of a memory view, or a scatter of a
load of one) whose source and destination share no byte (``passes/analysis/arrays.py``:
views of two pointer arguments, or at constant addresses apart) is moved one run at a
time instead, when its runs span at least one loop variable or its tile and index
views do not fit the scratchpad: a pipeline copying the index views, then one
``scf.for`` over the points of the outer loop variables (each split out of it by
``affine.apply``) around a pipeline of two stages sharing a private scratchpad buffer
of one run: the first (device memory into the scratchpad) reads the run from the
copy's source, the second (back) writes it to its destination; the load, the store
and the direct tile are erased. No tile of the copy's shape is on chip, and the SIMD
engine takes no part: its DMA engines alone move the data, a run written out while
the next is read (the benchmark's small paged gather on spyre, a tile of 4 runs per
core: 1,035 cycles through the load, compute and store units, 822 streamed).
Streamed, a run is written before later runs are read, where the reference reads the
whole tile before it writes any: a copy whose two sides may share bytes (the corpus's
``indirect-access-copy.mlir``, whose Y overlaps X at its fixed addresses) is gathered
whole, and is an error at its store when it does not fit. A copy of single elements
(no loop variable in a run) that fits is gathered whole too, a choice of speed alone
(both are right): one DMA an element either way, and whole it took 801 cycles on toy
and 8,754 on spyre for a 16 x 16 point gather, 5,525 and 9,812 streamed (line4, whose
DMA engine moves both ways: 945 whole, 692 streamed).

The indirect tile is erased; a program without one is unchanged (idempotent).
An index outside its base view's coordinate set is masked as the reference masks it
(``docs/ktir.md``, "Masked accesses"): each index read is clamped to the view's extent
along its dimension (``arith.minui``, so a negative index is past the end too) and the
base view marked ``ktdf.masked``, so that its DMAs move only the part inside the box:
a gathered run at such an index is zeros, a scattered one is not written. An index
read at a subscript outside its index view's box is 0, as the reference reads it: when
the range analysis does not show a subscript inside for every point, it is clamped
into the box for the read and the index multiplied by 1 inside, 0 outside.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, MemRefType, ModuleOp, StringAttr
from xdsl.dialects.func import CallOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.upstream import ApplyOp
from ktc.passes.analysis.arrays import apart
from ktc.passes.analysis.indirect import Indirect, describe
from ktc.passes.analysis.ranges import Ranges
from ktc.passes.utils.affine import box_bounds
from ktc.passes.utils.copies import flat_loop, staged_copy
from ktc.passes.utils.ir import calls_by_callee, enclosing_function, locate
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
        device, ranges, calls = device_of(op), Ranges(op), calls_by_callee(op)
        for tile in tiles:
            facts = describe(tile)
            for use in list(tile.result.uses):
                _lower(facts, use.operation, device, ranges, calls)
            Rewriter.erase_op(tile)


@dataclass(frozen=True)
class _Index:
    """The scratchpad buffer holding an index view, and the extents of the view's
    coordinate set when a subscript into it may fall outside them (None: it stays
    inside for every point)."""

    buffer: SSAValue
    bounds: tuple[int, ...] | None


def _masked_indices(facts: Indirect, ranges: Ranges) -> list[tuple[int, ...] | None]:
    """Per index view, its box's extents when the subscript reading it may leave the
    box (from the values of the captured variables and the loop variables' extents);
    None when it provably stays inside."""
    captured = [ranges.of(value) for value in facts.op.captured_variables]
    dims = [*captured, *((0, extent - 1) for extent in facts.loops)]
    masked = []
    for subscript, position in facts.subscripts:
        if position is None:
            continue
        view = facts.op.indirect_memrefs[position]
        bounds = [_extent(view, dim) for dim in range(view.type.get_num_dims())]
        spans = [ranges.expr(expr, dims, []) for expr in subscript.results]
        inside = all(span is not None and 0 <= span[0] and span[1] < bound
                     for span, bound in zip(spans, bounds))
        masked.append(None if inside else tuple(bounds))
    return masked


def _lower(facts: Indirect, access: Operation, device: Device, ranges: Ranges,
           calls: dict[str, list[CallOp]]) -> None:
    tile = facts.op
    func = enclosing_function(tile)
    base = tile.base.owner
    type_with_memory(base, device)
    ktdf.set_masked(base)
    for index in tile.indirect_memrefs:
        type_with_memory(index.owner, device)
    indices = [_Index(_alloc(func, view.type.get_element_type(), view.type.get_shape(),
                             device.scratchpad, "indices", access), bounds)
               for view, bounds in zip(tile.indirect_memrefs, _masked_indices(facts, ranges))]
    into = device.mover(device.device_memory, device.scratchpad)
    copy = _copy_partner(facts, access)
    if copy is not None and _streamed(facts, copy, device, calls):
        _lower_copy(facts, indices, copy, into, device)
        return
    element = tile.base.type.get_element_type()
    buffer = _alloc(func, element, facts.shape, device.scratchpad, "gathered"
                    if isinstance(access, ktdp.LoadOp) else "scattered", access)
    whole = box_tile(buffer, origin(len(facts.shape)), [], facts.shape)
    if isinstance(access, ktdp.LoadOp):
        pipeline = _pipeline(facts, indices, _buffer_side(buffer), into, into, gather=True)
        load = ktdp.LoadOp.build(operands=[whole.result], result_types=[access.result.type])
        _insert([pipeline, whole, load], access)
        access.result.replace_all_uses_with(load.result)
    else:
        out = device.mover(device.scratchpad, device.device_memory)
        store = ktdp.StoreOp.build(operands=[access.data_tile, whole.result])
        pipeline = _pipeline(facts, indices, _buffer_side(buffer), into, out, gather=False)
        _insert([whole, store, pipeline], access)
    Rewriter.erase_op(access)


@dataclass(frozen=True)
class _Copy:
    """An indirect access that is one side of a copy: a gather whose tile is only
    stored, or a scatter of a load; the other side a direct tile of a memory view."""

    load: ktdp.LoadOp
    store: ktdp.StoreOp
    direct: ktdp.ConstructAccessTileOp


def _copy_partner(facts: Indirect, access: Operation) -> _Copy | None:
    """The copy ``access`` belongs to, when its other side is a direct tile of the
    indirect tile's shape, in the identity order, of a memory view; None otherwise."""
    if isinstance(access, ktdp.LoadOp):
        uses = list(access.result.uses)
        if len(uses) != 1 or not isinstance(uses[0].operation, ktdp.StoreOp):
            return None
        load, store = access, uses[0].operation
        direct = store.access_tile.owner
    else:
        load, store = access.data_tile.owner, access
        if not isinstance(load, ktdp.LoadOp) or len(list(load.result.uses)) != 1:
            return None
        direct = load.access_tile.owner
    if not isinstance(direct, ktdp.ConstructAccessTileOp):
        return None
    if not isinstance(direct.base.owner, ktdp.ConstructMemoryViewOp):
        return None
    order = direct.access_tile_order.data
    if order != AffineMap.identity(order.num_dims) or box_bounds(direct.access_tile_set.data) != [AffineExpr.constant(n) for n in facts.shape]:
        return None
    return _Copy(load, store, direct)


def _streamed(facts: Indirect, copy: _Copy, device: Device, calls: dict[str, list[CallOp]]) -> bool:
    """Whether the copy moves one run at a time: only when its source and destination
    share no byte (``passes/analysis/arrays.py``), since streamed a run is written
    before the next is read, where the reference reads the whole tile before it writes
    any; then when its runs span at least one loop variable, or when it does not fit
    the scratchpad. A copy that may write what it reads and does not fit is an error."""
    fits = _fits(facts, device)
    if not apart(facts.op.base.owner, copy.direct.base.owner, calls):
        if not fits:
            raise KtcError(
                f"copies between views that may share bytes (%{_name(facts.op.base)} and "
                f"%{_name(copy.direct.base)}), so the whole tile is read before any of it is "
                f"written; the tile and its index views take {_needed(facts)} bytes, more "
                f"than the {device.memory(device.scratchpad).size} bytes of the scratchpad "
                f"({device.scratchpad}) of device @{device.name}: copy into a view of "
                "another array, or a smaller tile", where(copy.store))
        return False
    return facts.runs > 0 or not fits


def _name(view: SSAValue) -> str:
    return view.name_hint or "view"


def _fits(facts: Indirect, device: Device) -> bool:
    """Whether the tile and the index views fit in the scratchpad together."""
    return _needed(facts) <= device.memory(device.scratchpad).size


def _needed(facts: Indirect) -> int:
    """The bytes of the tile and the index views."""
    views = [facts.op.base, *facts.op.indirect_memrefs]
    sizes = [prod(facts.shape), *(prod(view.type.get_shape()) for view in views[1:])]
    return sum(size * _element_bytes(view) for size, view in zip(sizes, views))


def _element_bytes(view: SSAValue) -> int:
    return max(view.type.get_element_type().bitwidth // 8, 1)


def _lower_copy(facts: Indirect, indices: Sequence[_Index], copy: _Copy, into: str,
                device: Device) -> None:
    """The copy as a pipeline reading the index views into the scratchpad, then, per
    point of the outer loop variables, a pipeline moving its run from the source view
    into a scratchpad buffer of one run (on the engine moving device memory into the
    scratchpad) and from there to the destination view (on the one moving it back):
    no tile of the copy's shape is ever on chip, one run at a time is."""
    type_with_memory(copy.direct.base.owner, device)
    gather = copy.load.access_tile.owner is facts.op
    out = device.mover(device.scratchpad, device.device_memory)
    direct = _direct_side(copy.direct)
    nest = flat_loop(facts.loops[:len(facts.loops) - facts.runs], facts.runs,
                     lambda points: [_run_copy(facts, indices, direct, points, gather,
                                               (into, out), device.scratchpad)])
    _insert([_index_copies(facts, indices, into), *nest], copy.store)
    Rewriter.erase_op(copy.store)
    Rewriter.erase_op(copy.load)
    Rewriter.erase_op(copy.direct)


def _run_copy(facts: Indirect, indices: Sequence[_Index], direct: Side,
              points: Sequence[SSAValue], gather: bool, engines: tuple[str, str],
              scratchpad: str) -> ktdf.PipelineOp:
    """The pipeline moving the run at ``points`` through a scratchpad buffer of its
    shape: read from the copy's source in the first stage, written to its
    destination in the second."""
    sizes = _run_block(facts)
    at_origin = (origin(len(sizes)), [])
    indirect_ops: list[Operation] = []
    base_sizes, base_side = _base_side(facts, indices, points, indirect_ops)
    direct_ops: list[Operation] = []
    target, target_side = direct(facts.placement, points, direct_ops)

    def from_base(buffer):
        return [*indirect_ops, ktdf.DataTransferOp(facts.op.base, base_sizes, buffer, sizes,
                                                   source_access=base_side, dest_access=at_origin)]

    def to_target(buffer):
        return [*direct_ops, ktdf.DataTransferOp(buffer, sizes, target, sizes,
                                                 source_access=at_origin, dest_access=target_side)]

    def from_target(buffer):
        return [*direct_ops, ktdf.DataTransferOp(target, sizes, buffer, sizes,
                                                 source_access=target_side, dest_access=at_origin)]

    def to_base(buffer):
        return [*indirect_ops, ktdf.DataTransferOp(buffer, sizes, facts.op.base, base_sizes,
                                                   source_access=at_origin, dest_access=base_side)]

    read, write = (from_base, to_target) if gather else (from_target, to_base)
    return staged_copy(facts.op.base.type.get_element_type(), sizes, scratchpad, engines,
                       read, write)


Side = Callable[[AffineMap, Sequence[SSAValue], list[Operation]],
               tuple[SSAValue, tuple[AffineMap, list[SSAValue]]]]
"""The non-indirect side of the moves: from the placement of the tile's points and the
points (ops added to the list), the memref moved to or from and its access."""


def _buffer_side(buffer: SSAValue) -> Side:
    """The tile buffer: a point at tile position ``p`` is its element ``p``."""
    def side(placement, points, ops):
        return buffer, (AffineMap.identity(len(placement.results)), _applied(placement, points, ops))
    return side


def _direct_side(tile: ktdp.ConstructAccessTileOp) -> Side:
    """A direct tile of a view: a point at tile position ``p`` is the view's element
    at the tile's start plus ``p``."""
    indices = list(tile.indices)
    start = tile.base_map.data

    def side(placement, points, ops):
        dims = len(indices) + placement.num_dims
        shifted = placement.replace_dims_and_symbols(
            [AffineExpr.dimension(len(indices) + k) for k in range(placement.num_dims)], [], dims, 0)
        at = AffineMap(dims, 0, tuple(a + b for a, b in zip(start.results, shifted.results)))
        return tile.base, (at, [*indices, *points])
    return side


def _alloc(func, element, shape: Sequence[int], memory: str, name: str,
           access: Operation) -> SSAValue:
    """A buffer at the start of ``func``, at the location of the ``access`` it serves
    (a capacity diagnostic then names the kernel's load or store)."""
    alloc = memref.AllocOp([], [], MemRefType(element, list(shape), memory_space=StringAttr(memory)))
    alloc.memref.name_hint = name
    alloc.location = access.location
    Rewriter.insert_op(alloc, InsertPoint.at_start(func.body.block))
    return alloc.memref


def _pipeline(facts: Indirect, indices: Sequence[_Index], other: Side, into: str,
              mover: str, gather: bool) -> ktdf.PipelineOp:
    tokens = [ktdf.CreateTokenOp(), ktdf.CreateTokenOp()]
    private = ktdf.PrivateOp([t.result.type for t in tokens],
                             [*tokens, ktdf.PrivateYieldOp(*(t.result for t in tokens))])
    first = ktdf.StageOp([], [private.resources[0]], _index_transfers(facts, indices),
                         [StringAttr(into)])
    moves = _nest(facts, lambda points: _moves(facts, indices, other, points, gather))
    second = ktdf.StageOp([private.resources[0]], [private.resources[1]], moves,
                          [StringAttr(mover)])
    return ktdf.PipelineOp([private, first, second])


def _index_transfers(facts: Indirect, indices: Sequence[_Index]) -> list[Operation]:
    """Each index view copied whole into its scratchpad buffer."""
    copies = []
    for view, copy in zip(facts.op.indirect_memrefs, indices):
        shape = list(view.type.get_shape())
        start = (origin(len(shape)), [])
        copies.append(ktdf.DataTransferOp(view, shape, copy.buffer, shape,
                                          source_access=start, dest_access=start))
    return copies


def _index_copies(facts: Indirect, indices: Sequence[_Index], into: str) -> ktdf.PipelineOp:
    """A pipeline of one stage copying the index views into their buffers."""
    token = ktdf.CreateTokenOp()
    private = ktdf.PrivateOp([token.result.type], [token, ktdf.PrivateYieldOp(token.result)])
    stage = ktdf.StageOp([], [private.resources[0]], _index_transfers(facts, indices),
                         [StringAttr(into)])
    return ktdf.PipelineOp([private, stage])


def _nest(facts: Indirect, body: Callable[[list[SSAValue]], list[Operation]]) -> list[Operation]:
    """A loop nest over the outer loop variables around ``body`` of the points (the
    loop variables, 0 for those of the run)."""
    outer = len(facts.loops) - facts.runs
    constants: dict[int, arith.ConstantOp] = {}

    def constant(value: int) -> SSAValue:
        if value not in constants:
            constants[value] = arith.ConstantOp.from_int_and_width(value, IndexType())
        return constants[value].result

    blocks = [Block(arg_types=[IndexType()]) for _ in range(outer)]
    points = [*(block.args[0] for block in blocks), *([constant(0)] * facts.runs)]
    inner = body(points)
    for depth in reversed(range(outer)):
        blocks[depth].add_ops([*inner, scf.YieldOp()])
        inner = [scf.ForOp(constant(0), constant(facts.loops[depth]), constant(1), [],
                           Region(blocks[depth]))]
    return [*constants.values(), *inner]


def _base_side(facts: Indirect, indices: Sequence[_Index], points: Sequence[SSAValue],
               ops: list[Operation]) -> tuple[list[int], tuple[AffineMap, list[SSAValue]]]:
    """The run at ``points`` in the base view: its sizes there and its access, the
    indices it needs read from their buffers (ops added to ``ops``)."""
    operands = [*facts.op.captured_variables, *points]
    coordinates = []
    for subscript, index in facts.subscripts:
        values = _applied(subscript, operands, ops)
        if index is None:
            coordinates += values
            continue
        read = _read_index(indices[index], values, ops)
        bound = _constant(_extent(facts.op.base, len(coordinates)), ops)
        clamped = arith.MinUIOp(read, bound)
        ops.append(clamped)
        coordinates.append(clamped.result)
    base_sizes = [1] * len(coordinates)
    outer = len(facts.loops) - facts.runs
    for extent, dim in zip(facts.loops[outer:], facts.run_dims):
        base_sizes[dim] = extent
    return base_sizes, (AffineMap.identity(len(coordinates)), coordinates)


def _read_index(index: _Index, subscript: Sequence[SSAValue], ops: list[Operation]) -> SSAValue:
    """The index at ``subscript`` of its view, as an ``index``: read from its buffer,
    or, where the subscript may leave the view's box, 0 outside it (the reference's
    rule): the subscript clamped into the box for the read, and the value multiplied
    by ``min(n - min(s, n), 1)`` per dimension, 1 inside and 0 outside (unsigned, so
    a negative subscript is past the end too)."""
    if index.bounds is None:
        read = memref.LoadOp.get(index.buffer, subscript)
        cast = arith.IndexCastOp(read.res, IndexType())
        ops += [read, cast]
        return cast.result
    one = _constant(1, ops)
    clamped, inside = [], []
    for value, bound in zip(subscript, index.bounds):
        extent, last = _constant(bound, ops), _constant(max(bound - 1, 0), ops)
        clamped.append(arith.MinUIOp(value, last))
        room = arith.SubiOp(extent, _op(arith.MinUIOp(value, extent), ops))
        inside.append(arith.MinUIOp(_op(room, ops), one))
    ops += [*clamped, *inside]
    read = memref.LoadOp.get(index.buffer, [op.result for op in clamped])
    value = arith.IndexCastOp(read.res, IndexType())
    ops += [read, value]
    for flag in inside:
        value = arith.MuliOp(value.result, flag.result)
        ops.append(value)
    return value.result


def _op(op: Operation, ops: list[Operation]) -> SSAValue:
    ops.append(op)
    return op.results[0]


def _constant(value: int, ops: list[Operation]) -> SSAValue:
    return _op(arith.ConstantOp.from_int_and_width(value, IndexType()), ops)


def _extent(view: SSAValue, dim: int) -> int:
    """A view's extent along ``dim``: its coordinate set's bound there (a constant,
    as ``ktir-legality-check`` accepted)."""
    bound = box_bounds(view.owner.coordinate_set.data)[dim]
    assert isinstance(bound, AffineConstantExpr)
    return bound.value


def _run_block(facts: Indirect) -> list[int]:
    """The run's shape in the tile: per tile dimension, the extents of the run's loop
    variables its placement uses."""
    outer = len(facts.loops) - facts.runs
    return [prod(extent for k, extent in enumerate(facts.loops)
                 if k >= outer and AffineExpr.dimension(k) in _terms(place))
            for place in facts.placement.results]


def _moves(facts: Indirect, indices: Sequence[_Index], other: Side,
           points: Sequence[SSAValue], gather: bool) -> list[Operation]:
    """The ops moving the run at ``points`` with one transfer."""
    ops: list[Operation] = []
    base_sizes, base_side = _base_side(facts, indices, points, ops)
    block_sizes = _run_block(facts)
    target, target_side = other(facts.placement, points, ops)
    if gather:
        move = ktdf.DataTransferOp(facts.op.base, base_sizes, target, block_sizes,
                                   source_access=base_side, dest_access=target_side)
    else:
        move = ktdf.DataTransferOp(target, block_sizes, facts.op.base, base_sizes,
                                   source_access=target_side, dest_access=base_side)
    return [*ops, move]


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
        locate(op, before.location)
    Rewriter.insert_op(ops, InsertPoint.before(before))
