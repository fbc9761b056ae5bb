"""``broadcast-promotion``: a transfer that moves the same data on every iteration of
its loops runs once, in a sibling pipeline before them."""

from collections.abc import Sequence
from dataclasses import dataclass

from ktc.dialects.ktdf import (
    DYNAMIC_INDEX,
    DataTransferOp,
    PipelineOp,
    PrivateOp,
    PrivateYieldOp,
    StageOp,
)
from ktc.passes.normalize_scf_for_loops import defined_inside
from ktc.passes.stage_coarsening import memory_root
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free


@dataclass(frozen=True)
class BroadcastPromotion(ModulePass):
    """Hoist loop-invariant memref-to-memref transfers out of their loops (IBM's
    broadcast-promotion, fixed).

    Expects ScheduleIR (after ``stage-coarsening`` or not): ``ktdf.data_transfer``
    ops inside stages, writing a buffer of the pipeline's ``ktdf.private`` that the
    pipeline's other transfers read.

    A transfer is hoisted past the loops around it (inside its stage and around its
    pipeline, innermost first, up to any other op) that its source, source indices
    and sizes do not depend on, as long as nothing inside them writes the source
    memory. It must be the only writer of its destination buffer, every other use
    a transfer reading it, and the buffer indexed by those loops' indices only in
    dimensions of extent 1 (the dimensions ``stage-coarsening`` expanded) or by
    loop-invariant values.

    Produces, before the outermost such loop: the pure ops the transfer needs, a
    ``memref.alloc`` of the buffer with those dimensions reduced to 1 (IBM's copy
    kept them, and with them the expansion), and a sibling ``ktdf.pipeline`` with
    one stage (the donor's ``applicable_units``) doing the transfer once. Readers
    read the new buffer at index 0 in the reduced dimensions; the old buffer leaves
    the ``ktdf.private``. Repeated until no transfer qualifies, so the pass is
    idempotent.
    """

    name = "broadcast-promotion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        while (hoist := _next(op)) is not None:
            hoist.run()


@dataclass
class _Hoist:
    transfer: DataTransferOp
    loops: list[scf.ForOp]
    """The loops hoisted past, innermost first."""
    reduced: list[int]
    """The dimensions of the destination indexed by those loops' indices."""

    @property
    def target(self) -> scf.ForOp:
        return self.loops[-1]

    @property
    def stage(self) -> StageOp:
        return _stage(self.transfer)

    def run(self) -> None:
        transfer, target = self.transfer, self.target
        old = transfer.destination
        before = InsertPoint.before(target)
        mapping = _clone_needed(transfer, target, before)
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        buffer = self._alloc(old)
        Rewriter.insert_op([zero, buffer], before)
        for loop in self.loops:
            mapping[loop.body.block.args[0]] = zero.result
        hoisted = _retarget(transfer, buffer.memref, mapping, self.reduced, zero.result)
        units = self.stage.applicable_units
        stage = StageOp([], [], [hoisted], units.data if units else None)
        Rewriter.insert_op(PipelineOp([stage]), before)
        for use in list(old.uses):
            reader = use.operation
            if isinstance(reader, DataTransferOp) and reader is not transfer:
                index = arith.ConstantOp(IntegerAttr(0, IndexType()))
                Rewriter.insert_op(index, InsertPoint.before(reader))
                Rewriter.replace_op(
                    reader, _reread(reader, buffer.memref, self.reduced, index.result)
                )
        Rewriter.erase_op(transfer)
        _drop_private_result(old)

    def _alloc(self, old: SSAValue) -> memref.AllocOp:
        alloc = _yielded(old).owner
        assert isinstance(alloc, memref.AllocOp) and isinstance(old.type, MemRefType)
        shape = list(old.type.get_shape())
        dynamic = iter(alloc.dynamic_sizes)
        sizes = [next(dynamic) if size == DYNAMIC_INDEX else None for size in shape]
        kept = [size for dim, size in enumerate(sizes) if size is not None and dim not in self.reduced]
        shape = [1 if dim in self.reduced else size for dim, size in enumerate(shape)]
        new_type = MemRefType(old.type.element_type, shape, memory_space=old.type.memory_space)
        return memref.AllocOp(kept, [], new_type)


def _stage(op: Operation) -> StageOp:
    parent = op.parent_op()
    while not isinstance(parent, StageOp):
        assert parent is not None
        parent = parent.parent_op()
    return parent


def _yielded(result: SSAValue) -> SSAValue:
    private = result.owner
    assert isinstance(private, PrivateOp)
    terminator = private.body.block.last_op
    assert isinstance(terminator, PrivateYieldOp)
    return terminator.values[private.resources.index(result)]


def _next(module: ModuleOp) -> _Hoist | None:
    for op in module.walk():
        if isinstance(op, DataTransferOp) and (hoist := _candidate(op)) is not None:
            return hoist
    return None


def _candidate(transfer: DataTransferOp) -> _Hoist | None:
    destination = transfer.destination
    if not isinstance(transfer.source.type, MemRefType) or not _private_buffer(destination):
        return None
    if not _only_writer(transfer):
        return None
    loops = _invariant_loops(transfer)
    while loops and _writes(loops[-1], memory_root(transfer.source)):
        loops.pop()
    if not loops:
        return None
    reduced = _reduced_dims(transfer, loops)
    if reduced is None or not _dynamic_sizes_outside(transfer, reduced, loops[-1]):
        return None
    return _Hoist(transfer, loops, reduced)


def _private_buffer(value: SSAValue) -> bool:
    """A ``memref.alloc`` handed out by a ``ktdf.private``."""
    if not isinstance(value.owner, PrivateOp):
        return False
    return isinstance(_yielded(value).owner, memref.AllocOp)


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


def _invariant_loops(transfer: DataTransferOp) -> list[scf.ForOp]:
    """The innermost loops around ``transfer`` its source side does not depend on."""
    loops: list[scf.ForOp] = []
    for loop in _chain(transfer):
        if any(_depends_on(value, loop) for value in _source_operands(transfer)):
            break
        loops.append(loop)
    return loops


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


def _reduced_dims(transfer: DataTransferOp, loops: Sequence[scf.ForOp]) -> list[int] | None:
    """The destination dimensions indexed by the indices of ``loops``; None unless
    each is a lone index over an extent of 1 in the transfer and in every reader,
    and the other indices do not change in the loops."""
    ivs = {loop.body.block.args[0] for loop in loops}
    access = transfer.dest_map
    assert access is not None
    results = access.data.results
    reduced = [
        dim for dim, expr in enumerate(results)
        if isinstance(expr, AffineDimExpr) and transfer.dest_indices[expr.position] in ivs
    ]
    positions = {results[dim].position for dim in reduced}
    for position, value in enumerate(transfer.dest_indices):
        if position not in positions and (value in ivs or _depends_on(value, loops[-1])):
            return None
    sides = [(results, transfer.static_dest_sizes.get_values())] + [
        (use.operation.source_map.data.results, use.operation.static_source_sizes.get_values())
        for use in transfer.destination.uses
        if isinstance(use.operation, DataTransferOp) and use.operation is not transfer
    ]
    return reduced if all(_lone_unit(r, sizes, reduced) for r, sizes in sides) else None


def _lone_unit(results: Sequence[AffineExpr], sizes: Sequence[int], dims: list[int]) -> bool:
    """Each of ``dims`` is indexed by a dimension no other result uses, over extent 1."""
    for dim in dims:
        expr = results[dim]
        if not isinstance(expr, AffineDimExpr) or sizes[dim] != 1:
            return False
        if any(expr.position in _dims_of(other) for k, other in enumerate(results) if k != dim):
            return False
    return True


def _dims_of(expr: AffineExpr) -> set[int]:
    return {e.position for e in expr.dfs() if isinstance(e, AffineDimExpr)}


def _dynamic_sizes_outside(transfer: DataTransferOp, reduced: list[int], target: scf.ForOp) -> bool:
    alloc = _yielded(transfer.destination).owner
    assert isinstance(alloc, memref.AllocOp)
    shape = transfer.destination.type.get_shape()
    dims = [dim for dim, size in enumerate(shape) if size == DYNAMIC_INDEX]
    return all(
        dim in reduced or not defined_inside(size, target)
        for dim, size in zip(dims, alloc.dynamic_sizes)
    )


def _clone_needed(transfer: DataTransferOp, target: scf.ForOp,
                  point: InsertPoint) -> dict[SSAValue, SSAValue]:
    """Clone before ``target`` the pure ops inside it that the source side uses."""
    needed: list[Operation] = []
    pending = [*_source_operands(transfer), *transfer.dest_indices]
    while pending:
        value = pending.pop()
        owner = value.owner
        if isinstance(owner, Operation) and defined_inside(value, target) and owner not in needed:
            needed.append(owner)
            pending += owner.operands
    mapping: dict[SSAValue, SSAValue] = {}
    for op in sorted(needed, key=_position(target)):
        Rewriter.insert_op(op.clone(value_mapper=mapping), point)
    return mapping


def _position(root: Operation):
    order = {op: index for index, op in enumerate(root.walk())}
    return order.__getitem__


def _sizes(static: Sequence[int], dynamic: Sequence[SSAValue],
           mapping: dict[SSAValue, SSAValue]) -> list[int | SSAValue]:
    values = iter(dynamic)
    return [mapping.get(v := next(values), v) if s == DYNAMIC_INDEX else s for s in static]


def _retarget(transfer: DataTransferOp, buffer: SSAValue, mapping: dict[SSAValue, SSAValue],
              reduced: list[int], zero: SSAValue) -> DataTransferOp:
    """``transfer`` with its operands mapped, writing ``buffer``."""
    access = transfer.dest_map
    assert access is not None and transfer.source_map is not None
    indices = _zeroed(access.data.results, transfer.dest_indices, reduced, zero, mapping)
    return DataTransferOp(
        mapping.get(transfer.source, transfer.source),
        _sizes(transfer.static_source_sizes.get_values(), transfer.source_sizes, mapping),
        buffer,
        _sizes(transfer.static_dest_sizes.get_values(), transfer.dest_sizes, mapping),
        (transfer.source_map.data, [mapping.get(v, v) for v in transfer.source_indices]),
        (access.data, indices),
        dict(transfer.attributes),
    )


def _reread(reader: DataTransferOp, buffer: SSAValue, reduced: list[int],
            zero: SSAValue) -> DataTransferOp:
    """``reader`` reading ``buffer`` at index 0 in the ``reduced`` dimensions."""
    access = reader.source_map
    assert access is not None
    indices = _zeroed(access.data.results, reader.source_indices, reduced, zero, {})
    dest_access = None if reader.dest_map is None else (reader.dest_map.data, list(reader.dest_indices))
    return DataTransferOp(
        buffer,
        _sizes(reader.static_source_sizes.get_values(), reader.source_sizes, {}),
        reader.destination,
        _sizes(reader.static_dest_sizes.get_values(), reader.dest_sizes, {}),
        (access.data, indices),
        dest_access,
        dict(reader.attributes),
    )


def _zeroed(results, indices: Sequence[SSAValue], reduced: list[int], zero: SSAValue,
            mapping: dict[SSAValue, SSAValue]) -> list[SSAValue]:
    """``indices`` mapped, with the index of each reduced dimension 0."""
    new = [mapping.get(value, value) for value in indices]
    for dim in reduced:
        expr = results[dim]
        assert isinstance(expr, AffineDimExpr)
        new[expr.position] = zero
    return new


def _drop_private_result(result: SSAValue) -> None:
    """Remove an unused resource (and its op) from its ``ktdf.private``."""
    private = result.owner
    assert isinstance(private, PrivateOp) and not [u for u in result.uses]
    index = private.resources.index(result)
    terminator = private.body.block.last_op
    assert isinstance(terminator, PrivateYieldOp)
    values = list(terminator.values)
    source = values.pop(index)
    Rewriter.replace_op(terminator, PrivateYieldOp(*values))
    if not source.uses:
        Rewriter.erase_op(source.owner)
    kept = [r for r in private.resources if r is not result]
    new = PrivateOp([r.type for r in kept], private.detach_region(private.body))
    Rewriter.insert_op(new, InsertPoint.before(private))
    for old, replacement in zip(kept, new.resources):
        old.replace_all_uses_with(replacement)
    Rewriter.erase_op(private)
