"""``broadcast-promotion``: a transfer that moves the same data on every iteration of
its loops runs once, in a sibling pipeline before them."""

from collections.abc import Sequence
from dataclasses import dataclass, field

from ktc.dialects.diagnostics import located
from ktc.dialects.ktdf import (
    DYNAMIC_INDEX,
    DataTransferOp,
    DeriveSizeOp,
    LinearizeIndexOp,
    PipelineOp,
    PrivateOp,
    PrivateYieldOp,
    StageOp,
)
from ktc.passes.utils.ir import ancestor, defined_inside
from ktc.passes.utils.loops import empty_nest, remap_bounds
from ktc.passes.utils.resources import handed_out, remove_resources
from ktc.passes.utils.transfers import clone_needed, collapse, folded, memory_root, prune
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand


@dataclass(frozen=True)
class BroadcastPromotion(ModulePass):
    """Hoist loop-invariant memref-to-memref transfers out of their loops (IBM's
    broadcast-promotion, fixed and extended to whole operands).

    Expects ScheduleIR (after ``stage-coarsening`` or not): ``ktdf.data_transfer``
    ops inside stages, writing a buffer of the pipeline's ``ktdf.private`` that the
    pipeline's other transfers read.

    A transfer is hoisted past the loops around it (inside its stage and around its
    pipeline, up to any other op), up to the outermost one its source, source
    indices and sizes do not depend on and nothing inside writes the source memory.
    The loops in between that the source does depend on are carried along: a loop
    of its stage whose bounds are fixed there, or the tile and point loops of one
    tiled loop (the tile loop around the pipeline, the point loop in the stage
    running to ``derive_size`` of it), which the source may use only through their
    ``linearize_index``; the pair is carried as the untiled loop over the whole
    extent (a row vector read whole, all of its column tiles). The transfer must be
    the only writer of its destination buffer, every other use a transfer reading
    it. The buffer's dimensions indexed by the invariant loops' indices must be of
    extent 1 in every access, and the one indexed by a carried point loop indexed by
    a lone index in every access; the rest must be indexed by carried loops or by
    values that do not change.

    Produces, before the outermost hoisted loop: the pure ops the transfer needs, a
    ``memref.alloc`` of the buffer with the invariant loops' dimensions reduced to 1
    (IBM's copy kept them, and with them the expansion) and each carried point
    loop's dimension the whole extent, and a sibling ``ktdf.pipeline`` with one
    stage (the donor's ``applicable_units``) doing the transfer once, inside the
    carried loops, which then become one transfer where its pieces lie side by side
    (``ktc.passes.utils.transfers.collapse``). Readers read the new buffer at index 0
    in the reduced dimensions and at ``linearize_index`` of the tile index and their
    own in the grown ones; the old buffer leaves the ``ktdf.private``. Repeated until no
    transfer qualifies, so the pass is idempotent.
    """

    name = "broadcast-promotion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        while (hoist := _next(op)) is not None:
            hoist.run()


@dataclass
class _Pair:
    """The tile and point loops of one tiled loop, carried as the untiled loop."""

    tile: scf.ForOp
    point: scf.ForOp
    strides: tuple[SSAValue, SSAValue] | None = None
    """The strides of the ``linearize_index`` the source uses them through."""

    @property
    def total(self) -> SSAValue:
        derive = self.point.ub.owner
        assert isinstance(derive, DeriveSizeOp)
        return derive.total_size


@dataclass
class _Hoist:
    transfer: DataTransferOp
    loops: list[scf.ForOp]
    """The loops hoisted past, innermost first."""
    carried: list[scf.ForOp]
    """The loops of ``loops`` the source depends on, carried along."""
    pairs: list[_Pair]
    linearized: dict[SSAValue, _Pair] = field(default_factory=dict)
    """``linearize_index`` results the source uses -> the pair they linearize."""
    reduced: list[int] = field(default_factory=list)
    """Destination dimensions indexed by the invariant loops' indices."""
    grown: dict[int, _Pair] = field(default_factory=dict)
    """Destination dimensions indexed by a carried point loop -> its pair."""

    @property
    def target(self) -> scf.ForOp:
        return self.loops[-1]

    def run(self) -> None:
        transfer, target = self.transfer, self.target
        old = transfer.destination
        before = InsertPoint.before(target)
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        one = arith.ConstantOp(IntegerAttr(1, IndexType()))
        mapping: dict[SSAValue, SSAValue] = {
            loop.body.block.args[0]: zero.result for loop in self.loops if loop not in self.carried
        }
        alloc = handed_out(old).owner
        assert isinstance(alloc, memref.AllocOp)
        bounds = [b for loop in self.unpaired() for b in (loop.lb, loop.ub, loop.step)]
        pre = clone_needed([*alloc.dynamic_sizes, *(p.total for p in self.pairs), *bounds],
                           target, mapping)
        buffer = self._alloc(old, alloc, mapping)
        Rewriter.insert_op([zero, *([one] if self.pairs else []), *pre, buffer], before)
        nest, body, untiled = self._nest(mapping, zero.result, one.result)
        for value, pair in self.linearized.items():
            mapping[value] = untiled[id(pair)]
        ops = clone_needed([*_source_operands(transfer), *transfer.dest_indices], target, mapping)
        indices = {dim: untiled[id(pair)] for dim, pair in self.grown.items()}
        indices |= {dim: zero.result for dim in self.reduced}
        hoisted = _retarget(transfer, buffer.memref, mapping, indices)
        if body is not None:
            Rewriter.insert_op([*ops, hoisted], InsertPoint.before(body.last_op))
        units = _stage(transfer).applicable_units
        content = [nest] if nest is not None else [*ops, hoisted]
        Rewriter.insert_op(PipelineOp([StageOp([], [], content, units.data if units else None)]),
                           before)
        if nest is not None:
            collapse(nest)
        for use in list(old.uses):
            reader = use.operation
            if isinstance(reader, DataTransferOp) and reader is not transfer:
                self._reread(reader, buffer.memref)
        stage = _stage(transfer)
        Rewriter.erase_op(transfer)
        _drop_private_result(old)
        for loop in [loop for loop in self.loops if stage.is_ancestor(loop)][-1:]:
            prune(loop)
        for constant in (zero, one):
            if constant.parent is not None and not constant.result.uses:
                Rewriter.erase_op(constant)

    def unpaired(self) -> list[scf.ForOp]:
        paired = {id(loop) for pair in self.pairs for loop in (pair.tile, pair.point)}
        return [loop for loop in self.carried if id(loop) not in paired]

    def _alloc(self, old: SSAValue, alloc: memref.AllocOp,
               mapping: dict[SSAValue, SSAValue]) -> memref.AllocOp:
        assert isinstance(old.type, MemRefType)
        dynamic = iter(alloc.dynamic_sizes)
        sizes: list[int | SSAValue] = [
            mapping.get(v := next(dynamic), v) if size == DYNAMIC_INDEX else size
            for size in old.type.get_shape()
        ]
        for dim in self.reduced:
            sizes[dim] = 1
        for dim, pair in self.grown.items():
            total = mapping.get(pair.total, pair.total)
            count = const_evaluate_operand(total)
            sizes[dim] = total if count is None else count
        shape = [size if isinstance(size, int) else DYNAMIC_INDEX for size in sizes]
        new_type = MemRefType(old.type.element_type, shape, memory_space=old.type.memory_space)
        return memref.AllocOp([s for s in sizes if not isinstance(s, int)], [], new_type)

    def _nest(self, mapping: dict[SSAValue, SSAValue], zero: SSAValue, one: SSAValue):
        """Copies of the carried loops, outermost first, a pair as one loop over its
        whole extent: (outermost, innermost body, id(pair) -> its index), or
        (None, None, {}) when nothing is carried."""
        tiles = {id(pair.tile): pair for pair in self.pairs}
        unpaired = self.unpaired()
        like = [loop for loop in reversed(self.loops) if id(loop) in tiles or loop in unpaired]
        if not like:
            return None, None, {}
        bounds = [(zero, tiles[id(loop)].total, one) if id(loop) in tiles
                  else (loop.lb, loop.ub, loop.step) for loop in like]
        copies = empty_nest(bounds, like)
        untiled: dict[int, SSAValue] = {}
        for loop, copy in zip(like, copies):
            if id(loop) in tiles:
                untiled[id(tiles[id(loop)])] = copy.body.block.args[0]
            else:
                mapping[loop.body.block.args[0]] = copy.body.block.args[0]
        remap_bounds(copies, mapping)
        return copies[0], copies[-1].body.block, untiled

    def _reread(self, reader: DataTransferOp, buffer: SSAValue) -> None:
        """``reader`` reading ``buffer``: at 0 in the reduced dimensions, at the
        untiled index in the grown ones."""
        access = reader.source_map
        assert access is not None
        results = access.data.results
        indices = list(reader.source_indices)
        point = InsertPoint.before(reader)
        for dim in self.reduced:
            zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
            Rewriter.insert_op(zero, point)
            indices[results[dim].position] = zero.result
        for dim, pair in self.grown.items():
            position = results[dim].position
            assert pair.strides is not None
            index = LinearizeIndexOp([pair.tile.body.block.args[0], indices[position]],
                                     list(pair.strides))
            Rewriter.insert_op(index, point)
            indices[position] = index.result
        dest_access = None if reader.dest_map is None else (reader.dest_map.data,
                                                            list(reader.dest_indices))
        Rewriter.replace_op(reader, located(DataTransferOp(
            buffer,
            _sizes(reader.static_source_sizes.get_values(), reader.source_sizes, {}),
            reader.destination,
            _sizes(reader.static_dest_sizes.get_values(), reader.dest_sizes, {}),
            folded(access.data, indices),
            dest_access,
            dict(reader.attributes),
        ), reader))


def _stage(op: Operation) -> StageOp:
    stage = ancestor(op, StageOp)
    assert stage is not None
    return stage


def _next(module: ModuleOp) -> _Hoist | None:
    for op in module.walk():
        if isinstance(op, DataTransferOp) and (hoist := _candidate(op)) is not None:
            return hoist
    return None


def _candidate(transfer: DataTransferOp) -> _Hoist | None:
    """The hoist of ``transfer`` past the most loops, if any."""
    if not isinstance(transfer.source.type, MemRefType) or not _private_buffer(transfer.destination):
        return None
    if not _only_writer(transfer):
        return None
    chain = _chain(transfer)
    root = memory_root(transfer.source)
    for count in range(len(chain), 0, -1):
        hoist = _hoist(transfer, chain[:count], root)
        if hoist is not None:
            return hoist
    return None


def _private_buffer(value: SSAValue) -> bool:
    """A ``memref.alloc`` handed out by a ``ktdf.private``."""
    if not isinstance(value.owner, PrivateOp):
        return False
    return isinstance(handed_out(value).owner, memref.AllocOp)


def _only_writer(transfer: DataTransferOp) -> bool:
    """``transfer`` writes its destination; every other use reads it in a transfer."""
    for use in transfer.destination.uses:
        user = use.operation
        if user is transfer or isinstance(user, PrivateYieldOp):
            continue
        if not isinstance(user, DataTransferOp) or user.destination is transfer.destination:
            return False
        if user.source_map is None:
            return False
    return True


def _chain(op: Operation) -> list[scf.ForOp]:
    """The loops around ``op``, innermost first, through stages and pipelines, up to
    any other op."""
    loops: list[scf.ForOp] = []
    parent = op.parent_op()
    while isinstance(parent, scf.ForOp | StageOp | PipelineOp):
        if isinstance(parent, scf.ForOp):
            if parent.iter_args:
                break
            loops.append(parent)
        parent = parent.parent_op()
    return loops


def _source_operands(transfer: DataTransferOp) -> list[SSAValue]:
    return [transfer.source, *transfer.source_indices, *transfer.source_sizes,
            *transfer.dest_sizes]


def _depends_on(value: SSAValue, loop: scf.ForOp) -> bool:
    """Whether ``value`` changes across the iterations of ``loop``."""
    if not defined_inside(value, loop):
        return False
    owner = value.owner
    if not isinstance(owner, Operation) or owner.regions or not is_side_effect_free(owner):
        return True
    return any(_depends_on(operand, loop) for operand in owner.operands)


def _varies(value: SSAValue, loop: scf.ForOp) -> bool:
    """Whether ``value`` changes with the index of ``loop`` (the indices of loops
    inside it taken as fixed)."""
    if value is loop.body.block.args[0]:
        return True
    if not defined_inside(value, loop):
        return False
    owner = value.owner
    if not isinstance(owner, Operation):
        return not isinstance(owner.parent_op(), scf.ForOp)
    if owner.regions or not is_side_effect_free(owner):
        return True
    return any(_varies(operand, loop) for operand in owner.operands)


def _dependent(transfer: DataTransferOp, loop: scf.ForOp) -> bool:
    """Whether the source side of ``transfer`` changes with the index of ``loop``."""
    return any(_varies(value, loop) for value in _source_operands(transfer))


def _hoist(transfer: DataTransferOp, loops: list[scf.ForOp], root: SSAValue) -> _Hoist | None:
    """The hoist of ``transfer`` past ``loops`` (innermost first), if it is one."""
    target = loops[-1]
    if _dependent(transfer, target) or _writes(target, root):
        return None
    carried = [loop for loop in loops if _dependent(transfer, loop)]
    pairs = _pairs(transfer, carried)
    if pairs is None:
        return None
    hoist = _Hoist(transfer, loops, carried, pairs)
    if any(_depends_on(b, target) for loop in hoist.unpaired() for b in (loop.lb, loop.ub, loop.step)):
        return None
    if not _linearized(hoist) or not _destination_dims(hoist):
        return None
    alloc = handed_out(transfer.destination).owner
    assert isinstance(alloc, memref.AllocOp)
    if any(_depends_on(size, target) for size in alloc.dynamic_sizes):
        return None
    if any(_depends_on(pair.total, target) for pair in pairs):
        return None
    return hoist


def _pairs(transfer: DataTransferOp, carried: list[scf.ForOp]) -> list[_Pair] | None:
    """The carried tile and point loops of tiled loops; None if a carried loop
    outside the transfer's stage is not the tile loop of a carried point loop."""
    stage = _stage(transfer)
    pairs: list[_Pair] = []
    for point in carried:
        derive = point.ub.owner
        if not stage.is_ancestor(point) or not isinstance(derive, DeriveSizeOp):
            continue
        tiles = [loop for loop in carried if list(derive.ivs) == [loop.body.block.args[0]]]
        if tiles and not stage.is_ancestor(tiles[0]) and const_evaluate_operand(point.step) == 1:
            pairs.append(_Pair(tiles[0], point))
    paired = {id(pair.tile) for pair in pairs}
    if any(not stage.is_ancestor(loop) and id(loop) not in paired for loop in carried):
        return None
    return pairs


def _linearized(hoist: _Hoist) -> bool:
    """Find the ``linearize_index`` ops through which the source uses each pair;
    whether it uses the pairs' indices in no other way."""
    transfer, target = hoist.transfer, hoist.target
    of = {id(loop.body.block.args[0]): pair for pair in hoist.pairs
          for loop in (pair.tile, pair.point)}
    pending = _source_operands(transfer)
    seen: set[int] = set()
    while pending:
        value = pending.pop()
        if id(value) in of:
            return False
        owner = value.owner
        if not isinstance(owner, Operation) or not defined_inside(value, target) or id(owner) in seen:
            continue
        seen.add(id(owner))
        pair = _pair_of(owner, hoist.pairs)
        if pair is not None:
            if pair.strides is not None and pair.strides != tuple(owner.strides):
                return False
            pair.strides = (owner.strides[0], owner.strides[1])
            hoist.linearized[value] = pair
            continue
        pending += owner.operands
    return True


def _pair_of(op: Operation, pairs: Sequence[_Pair]) -> _Pair | None:
    """The pair ``op`` linearizes: ``linearize_index [tile : size], [point : 1]``."""
    if not isinstance(op, LinearizeIndexOp) or len(op.ivs) != 2:
        return None
    for pair in pairs:
        derive = pair.point.ub.owner
        assert isinstance(derive, DeriveSizeOp)
        ivs = [pair.tile.body.block.args[0], pair.point.body.block.args[0]]
        if list(op.ivs) == ivs and op.strides[0] == derive.tile_sizes[0] \
                and const_evaluate_operand(op.strides[1]) == 1:
            return pair
    return None


def _destination_dims(hoist: _Hoist) -> bool:
    """Classify the destination's dimensions (reduced, grown, kept); whether every
    access to the buffer allows it."""
    transfer, target = hoist.transfer, hoist.target
    invariant = {loop.body.block.args[0] for loop in hoist.loops if loop not in hoist.carried}
    points = {pair.point.body.block.args[0]: pair for pair in hoist.pairs}
    kept = {loop.body.block.args[0] for loop in hoist.unpaired()}
    access = transfer.dest_map
    assert access is not None
    results = access.data.results
    for dim, expr in enumerate(results):
        value = transfer.dest_indices[expr.position] if isinstance(expr, AffineDimExpr) else None
        if value in invariant:
            hoist.reduced.append(dim)
        elif value in points:
            hoist.grown[dim] = points[value]
        elif value not in kept and any(
            index in invariant or index in points or _depends_on(index, target)
            for index in (transfer.dest_indices[p] for p in _dims_of(expr))
        ):
            return False
    if len(hoist.grown) != len(hoist.pairs):
        return False
    sides = [(results, transfer.static_dest_sizes.get_values())] + [
        (use.operation.source_map.data.results, use.operation.static_source_sizes.get_values())
        for use in transfer.destination.uses
        if isinstance(use.operation, DataTransferOp) and use.operation is not transfer
    ]
    return all(
        all(_lone(r, dim, sizes, unit=True) for dim in hoist.reduced)
        and all(_lone(r, dim, sizes, unit=False) for dim in hoist.grown)
        for r, sizes in sides
    )


def _writes(loop: scf.ForOp, root: SSAValue) -> bool:
    """Whether anything in ``loop`` may write the memory ``root`` views."""
    for op in loop.walk():
        for operand in op.operands:
            if not isinstance(operand.type, MemRefType) or memory_root(operand) != root:
                continue
            if isinstance(op, memref.ReinterpretCastOp | memref.MemorySpaceCastOp):
                continue
            if not isinstance(op, DataTransferOp) or operand is op.destination:
                return True
    return False


def _lone(results: Sequence[AffineExpr], dim: int, sizes: Sequence[int], unit: bool) -> bool:
    """Dimension ``dim`` is indexed by an index no other result uses (over extent 1
    when ``unit``)."""
    expr = results[dim]
    if not isinstance(expr, AffineDimExpr) or (unit and sizes[dim] != 1):
        return False
    return not any(expr.position in _dims_of(other) for k, other in enumerate(results) if k != dim)


def _dims_of(expr: AffineExpr) -> set[int]:
    return {e.position for e in expr.dfs() if isinstance(e, AffineDimExpr)}


def _sizes(static: Sequence[int], dynamic: Sequence[SSAValue],
           mapping: dict[SSAValue, SSAValue]) -> list[int | SSAValue]:
    values = iter(dynamic)
    return [mapping.get(v := next(values), v) if s == DYNAMIC_INDEX else s for s in static]


def _retarget(transfer: DataTransferOp, buffer: SSAValue, mapping: dict[SSAValue, SSAValue],
              indices: dict[int, SSAValue]) -> DataTransferOp:
    """``transfer`` with its operands mapped, writing ``buffer`` with the index of
    each dimension in ``indices`` replaced."""
    access = transfer.dest_map
    assert access is not None and transfer.source_map is not None
    new = [mapping.get(value, value) for value in transfer.dest_indices]
    for dim, index in indices.items():
        expr = access.data.results[dim]
        assert isinstance(expr, AffineDimExpr)
        new[expr.position] = index
    return located(DataTransferOp(
        mapping.get(transfer.source, transfer.source),
        _sizes(transfer.static_source_sizes.get_values(), transfer.source_sizes, mapping),
        buffer,
        _sizes(transfer.static_dest_sizes.get_values(), transfer.dest_sizes, mapping),
        (transfer.source_map.data, [mapping.get(v, v) for v in transfer.source_indices]),
        folded(access.data, new),
        dict(transfer.attributes),
    ), transfer)


def _drop_private_result(result: SSAValue) -> None:
    """Remove an unused resource (and its op) from its ``ktdf.private``."""
    private = result.owner
    assert isinstance(private, PrivateOp) and not result.uses
    remove_resources(private.parent_op(), [result])
