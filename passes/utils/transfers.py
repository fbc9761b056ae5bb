"""Transfers in loop nests: the ``ktdf.data_transfer`` ops of a nest, each moving
one piece per iteration, replaced by one transfer each that moves every piece at
once (``collapse``), and what that needs: how a value depends on loop indices
(``coefficients``), the ops a value needs cloned (``clone_needed``), the memory a
view is of (``memory_root``).

``stage-coarsening`` collapses nests so that the outer pipeline's DMA stages move a
whole tile per transfer; ``broadcast-promotion`` so that a hoisted operand moves
whole.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, StridedLayoutAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from ktc.dialects.diagnostics import located
from ktc.dialects.ktdf import (
    DYNAMIC_INDEX,
    DataTransferOp,
    DeriveSizeOp,
    LinearizeIndexOp,
    masked,
)
from ktc.dialects.ktdp import ConstructMemoryViewOp
from ktc.passes.utils.ir import defined_inside
from ktc.passes.utils.loops import empty_nest, is_normalized

Linear = dict[SSAValue, int]
"""How a value changes per step of each loop index it depends on."""


def memory_root(value: SSAValue) -> SSAValue:
    """The memref a view of memory was made from (through casts)."""
    while isinstance(value.owner, memref.ReinterpretCastOp | memref.MemorySpaceCastOp):
        value = value.owner.operands[0]
    return value


def collapse(nest: scf.ForOp) -> bool:
    """Replace each transfer of the perfect nest ``nest`` that steps through its
    sides, one dimension per loop, by one transfer before the nest moving what every
    iteration moved; the nest goes when only pure ops are left in it. Whether any
    transfer was replaced.

    A side steps through dimension ``d`` with a loop when each iteration moves the
    side's index in ``d`` by its size there (the pieces lie side by side: the rows
    of a tile, the vectors of a row). A ``memref.reinterpret_cast`` made in the nest
    may instead move its offset by a constant ``c`` while the cast and the transfer
    span one element of ``d`` (a row); the transfer then reads a new cast, made
    before the nest, whose stride in ``d`` is ``c`` (rows ``c`` elements apart in
    memory). The whole transfer's size in ``d`` is the loop's trip count times the
    piece's. Nothing changes unless the nest's loops count from 0 by 1, its
    innermost body holds only pure ops and transfers, and the transfers write
    distinct memories that none of them reads (so moving them apart keeps order).
    A splat transfer stays: it reads one element, which the pieces do not share.
    """
    loops = _perfect(nest)
    if loops is None:
        return False
    body = list(loops[-1].body.block.ops)
    transfers = [op for op in body if isinstance(op, DataTransferOp)]
    if not transfers or not _independent(transfers):
        return False
    if not all(isinstance(op, DataTransferOp | scf.YieldOp) or _pure(op) for op in body):
        return False
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    mapping: dict[SSAValue, SSAValue] = {loop.body.block.args[0]: zero.result for loop in loops}
    replaced = False
    for transfer in transfers:
        whole = None if transfer.is_splat else _whole(transfer, loops, mapping)
        if whole is None:
            continue
        Rewriter.insert_op([zero] if not replaced else [], InsertPoint.before(nest))
        Rewriter.insert_op(whole, InsertPoint.before(nest))
        Rewriter.erase_op(transfer)
        replaced = True
    if replaced:
        prune(nest)
    return replaced


def _pure(op: Operation) -> bool:
    return not op.regions and is_side_effect_free(op)


def _perfect(nest: scf.ForOp) -> list[scf.ForOp] | None:
    """The loops of a perfect nest from 0 by 1 (only pure ops beside each inner
    loop), outermost first; None if ``nest`` is not one."""
    loops = [nest]
    while True:
        loop = loops[-1]
        if loop.iter_args or not is_normalized(loop):
            return None
        ops = list(loop.body.block.ops)[:-1]
        inner = [op for op in ops if isinstance(op, scf.ForOp)]
        if not inner:
            return loops
        if len(inner) > 1 or not all(op is inner[0] or _pure(op) for op in ops):
            return None
        loops.append(inner[0])


def _independent(transfers: Sequence[DataTransferOp]) -> bool:
    written = [memory_root(transfer.destination) for transfer in transfers]
    read = {memory_root(transfer.source) for transfer in transfers}
    return len(set(written)) == len(written) and not read.intersection(written)


def prune(nest: scf.ForOp) -> None:
    """Erase the unused pure ops of ``nest``, and the nest if nothing else is left."""
    for op in reversed(list(nest.walk())):
        if op is not nest and _pure(op) and op.results and not any(r.uses for r in op.results):
            Rewriter.erase_op(op)
    if all(isinstance(op, scf.ForOp | scf.YieldOp) for op in nest.walk()):
        Rewriter.erase_op(nest)


# ---------------------------------------------------------------------------------
# How a value depends on loop indices
# ---------------------------------------------------------------------------------


def coefficients(value: SSAValue, ivs: Sequence[SSAValue], root: Operation) -> Linear | None:
    """How ``value`` changes per step of each of ``ivs`` (indices of loops inside
    ``root``); None unless it is affine in them with constant coefficients."""
    if value in ivs:
        return {value: 1}
    if not defined_inside(value, root):
        return {}
    op = value.owner
    if not isinstance(op, Operation) or not _pure(op):
        return None
    if isinstance(op, LinearizeIndexOp):
        return _linearized(op, ivs, root)
    terms = [coefficients(operand, ivs, root) for operand in op.operands]
    if None in terms:
        return None
    if not any(terms):
        return {}
    if isinstance(op, arith.AddiOp | arith.SubiOp):
        return _sum(terms[0], terms[1], 1 if isinstance(op, arith.AddiOp) else -1)
    if isinstance(op, arith.MuliOp):
        return _scaled(terms, [const_evaluate_operand(operand) for operand in op.operands])
    if isinstance(op, affine.ApplyOp):
        affine_map = op.map.data
        return affine_coefficients(affine_map.results[0], terms, affine_map.num_dims)
    return None


def _linearized(op: LinearizeIndexOp, ivs: Sequence[SSAValue], root: Operation) -> Linear | None:
    total: Linear = {}
    for iv, stride in zip(op.ivs, op.strides):
        term = coefficients(iv, ivs, root)
        if term is None or coefficients(stride, ivs, root) != {}:
            return None
        if term:
            if (factor := const_evaluate_operand(stride)) is None:
                return None
            total = _sum(total, term, factor)
    return total


def affine_coefficients(expr: AffineExpr, terms: Sequence[Linear | None],
                        num_dims: int) -> Linear | None:
    """``coefficients`` of an affine expression over operands with ``terms``."""
    if isinstance(expr, AffineDimExpr):
        return terms[expr.position]
    if isinstance(expr, AffineSymExpr):
        return terms[num_dims + expr.position]
    if isinstance(expr, AffineConstantExpr):
        return {}
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = affine_coefficients(expr.lhs, terms, num_dims)
    rhs = affine_coefficients(expr.rhs, terms, num_dims)
    if lhs is None or rhs is None:
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        return _sum(lhs, rhs, 1)
    if not lhs and not rhs:
        return {}
    if expr.kind == AffineBinaryOpKind.Mul:
        constants = [e.value if isinstance(e, AffineConstantExpr) else None
                     for e in (expr.lhs, expr.rhs)]
        return _scaled([lhs, rhs], constants)
    return None


def _sum(a: Linear, b: Linear, factor: int) -> Linear:
    total = dict(a)
    for iv, coefficient in b.items():
        total[iv] = total.get(iv, 0) + factor * coefficient
    return {iv: c for iv, c in total.items() if c}


def _scaled(terms: Sequence[Linear], constants: Sequence[int | None]) -> Linear | None:
    """A product of two factors, one of them a constant."""
    for term, other, constant in ((terms[0], terms[1], constants[1]),
                                  (terms[1], terms[0], constants[0])):
        if not other and constant is not None:
            return _sum({}, term, constant)
    return None


# ---------------------------------------------------------------------------------
# One transfer for the whole nest
# ---------------------------------------------------------------------------------


@dataclass
class _Stepping:
    """How a transfer side steps through its dimensions with the loops of a nest."""

    dims: list[int]
    """Per loop, outermost first, the dimension it steps through."""
    cast: memref.ReinterpretCastOp | None
    """The cast made in the nest that the side reads, remade for the whole transfer."""
    rows: dict[int, int]
    """Loops (by position) that step the cast's offset -> the stride they give their
    dimension of the remade cast."""


Size = int | SSAValue | tuple[int, int]
"""A planned size: static, dynamic, or (loop position, factor): the loop's trip
count times the factor."""


def _whole(transfer: DataTransferOp, loops: list[scf.ForOp],
           mapping: dict[SSAValue, SSAValue]) -> list[Operation] | None:
    """The ops doing ``transfer`` for every iteration of the loops of ``loops`` it
    can take in at once, inside copies of the others; ``mapping`` takes the indices
    of ``loops`` to 0 and the ops cloned before the nest to their clones."""
    ivs = [loop.body.block.args[0] for loop in loops]
    sides = (transfer.source_side, transfer.dest_side)
    steppings = [_stepping(side, ivs, loops[0]) for side in sides]
    if None in steppings:
        return None
    every = [k for k, loop in enumerate(loops) if _static_trip(loop)]
    opening = [k for k in every if all(side.sizes[st.dims[k]] == 1
                                       for side, st in zip(sides, steppings))]
    for taken in (every, opening):
        if taken and _one_dma([_plan(side, st, taken, loops) for side, st in zip(sides, steppings)]):
            return _build(transfer, loops, taken, steppings, mapping)
    return None


def _static_trip(loop: scf.ForOp) -> bool:
    """Whether the loop's trip count is a constant once tile sizes are: a constant,
    or a tile of a constant extent (whole when the tile size divides it)."""
    bound = loop.ub
    if isinstance(bound.owner, DeriveSizeOp):
        bound = bound.owner.total_size
    return const_evaluate_operand(bound) is not None


def _plan(side, stepping: _Stepping, taken: Sequence[int], loops: Sequence[scf.ForOp]):
    """(sizes, strides) of the block ``side`` moves once ``taken`` loops are in it."""
    dynamic = iter(side.dynamic_sizes)
    sizes: list[Size] = [next(dynamic) if size == DYNAMIC_INDEX else size for size in side.sizes]
    for k in taken:
        dim = stepping.dims[k]
        count = const_evaluate_operand(loops[k].ub)
        sizes[dim] = count * sizes[dim] if count is not None else (k, sizes[dim])
    memref_type = side.value.type
    assert isinstance(memref_type, MemRefType)
    strides = list(memref_type.get_strides() or [None] * len(sizes))
    for k, stride in stepping.rows.items():
        if k in taken:
            strides[stepping.dims[k]] = stride
    return sizes, strides


def _one_dma(plans) -> bool:
    """Whether one DMA moves the planned block: both sides have one shape (unit
    dimensions aside), or both are contiguous."""
    shapes = [[size for size in sizes if size != 1] for sizes, _ in plans]
    return shapes[0] == shapes[1] or all(_contiguous(*plan) for plan in plans)


def _contiguous(sizes: Sequence[Size], strides: Sequence[int | None]) -> bool:
    kept = [(size, stride) for size, stride in zip(sizes, strides) if size != 1]
    expected: int | None = 1
    for size, stride in reversed(kept):
        if stride != expected:
            return False
        expected = stride * size if isinstance(size, int) else None
    return True


def _build(transfer: DataTransferOp, loops: list[scf.ForOp], taken: Sequence[int],
           steppings: Sequence[_Stepping], mapping: dict[SSAValue, SSAValue]) -> list[Operation]:
    """``transfer`` over the ``taken`` loops, inside copies of the others."""
    kept = [loop for k, loop in enumerate(loops) if k not in taken]
    mapping = dict(mapping) if kept else mapping
    shell, body = _shell(kept, mapping)
    sides = (transfer.source_side, transfer.dest_side)
    needed = [loops[k].ub for k in taken]
    for side, stepping in zip(sides, steppings):
        needed += [*side.indices, *side.dynamic_sizes]
        needed += stepping.cast.operands if stepping.cast else [side.value]
    ops: list[Operation] = clone_needed(needed, loops[0], mapping)
    trips = {k: mapping.get(loops[k].ub, loops[k].ub) for k in taken}
    (source, source_sizes, source_access), (dest, dest_sizes, dest_access) = [
        _whole_side(side, stepping, trips, mapping, ops)
        for side, stepping in zip(sides, steppings)
    ]
    ops.append(located(DataTransferOp(source, source_sizes, dest, dest_sizes, source_access,
                                      dest_access, dict(transfer.attributes)), transfer))
    if shell is None:
        return ops
    Rewriter.insert_op(ops, InsertPoint.before(body.last_op))
    return [shell]


def _shell(loops: Sequence[scf.ForOp], mapping: dict[SSAValue, SSAValue]):
    """Copies of ``loops``, empty but for their terminators, the indices mapped in
    ``mapping``: (the outermost, the innermost body), or (None, None)."""
    if not loops:
        return None, None
    copies = empty_nest([(loop.lb, loop.ub, loop.step) for loop in loops], loops)
    for loop, copy in zip(loops, copies):
        copy.body.block.args[0].name_hint = loop.body.block.args[0].name_hint
        mapping[loop.body.block.args[0]] = copy.body.block.args[0]
    for copy in copies:
        copy.operands[1] = mapping.get(copy.ub, copy.ub)
    return copies[0], copies[-1].body.block


def _stepping(side, ivs: Sequence[SSAValue], nest: scf.ForOp) -> _Stepping | None:
    """The dimension each loop steps ``side`` through; None if some loop does not."""
    if side.access is None:
        return None
    terms = [coefficients(index, ivs, nest) for index in side.indices]
    per_dim = [affine_coefficients(expr, terms, len(terms)) for expr in side.access.data.results]
    if None in per_dim:
        return None
    stepping = _Stepping([], None, {})
    offset: Linear = {}
    if defined_inside(side.value, nest):
        stepping.cast = side.value.owner
        offset = _cast_offset(stepping.cast, ivs, nest)
        if offset is None:
            return None
    for k, iv in enumerate(ivs):
        moved = [dim for dim, term in enumerate(per_dim) if iv in term]
        if moved and iv in offset:
            return None
        if len(moved) == 1 and per_dim[moved[0]][iv] == side.sizes[moved[0]]:
            dim = moved[0]
        elif not moved and iv in offset:
            dim = _row_dim(stepping, side)
            stepping.rows[k] = offset[iv]
            if dim is not None and not _keeps_box(stepping.cast, dim, offset[iv]):
                return None
        else:
            return None
        if dim is None or dim in stepping.dims:
            return None
        stepping.dims.append(dim)
    return stepping


def _cast_offset(cast: Operation, ivs: Sequence[SSAValue], nest: scf.ForOp) -> Linear | None:
    """How the offset of a cast made in ``nest`` moves; None if it cannot be remade
    (not a cast of memory from outside the nest with constant strides and sizes)."""
    if not isinstance(cast, memref.ReinterpretCastOp) or cast.strides or cast.sizes:
        return None
    if defined_inside(cast.source, nest):
        return None
    return coefficients(cast.offsets[0], ivs, nest) if cast.offsets else {}


def _keeps_box(cast: memref.ReinterpretCastOp, dim: int, stride: int) -> bool:
    """Whether rows ``stride`` apart in ``dim`` keep the block of ``cast`` a box of
    its view's coordinates: always, unless the view is ``ktdf.masked`` (its transfers
    are clamped to the set dimension by dimension) and ``stride`` is not the view's
    stride of ``dim``."""
    view = cast.source.owner
    if not isinstance(view, ConstructMemoryViewOp) or not masked(view):
        return True
    return view.static_strides.get_values()[dim] == stride


def _row_dim(stepping: _Stepping, side) -> int | None:
    """A dimension the cast and the transfer span one element of from index 0: the
    row dimension for a loop that steps the cast's offset."""
    assert stepping.cast is not None
    cast_sizes = stepping.cast.static_sizes.get_values()
    for dim, expr in enumerate(side.access.data.results):
        if cast_sizes[dim] != 1 or side.sizes[dim] != 1 or dim in stepping.dims:
            continue
        if _is_zero(expr, side.indices):
            return dim
    return None


def _is_zero(expr: AffineExpr, indices: Sequence[SSAValue]) -> bool:
    if isinstance(expr, AffineConstantExpr):
        return expr.value == 0
    return isinstance(expr, AffineDimExpr) and const_evaluate_operand(indices[expr.position]) == 0


def _whole_side(side, stepping: _Stepping, trips: dict[int, SSAValue],
                mapping: dict[SSAValue, SSAValue], ops: list[Operation]):
    """(value, sizes, access) of a side of the whole transfer over the loops in
    ``trips`` (position -> trip count)."""
    dynamic = iter(side.dynamic_sizes)
    sizes: list[int | SSAValue] = [
        mapping.get(v := next(dynamic), v) if size == DYNAMIC_INDEX else size
        for size in side.sizes
    ]
    for k, trip in trips.items():
        dim = stepping.dims[k]
        sizes[dim] = _times(trip, side.sizes[dim], ops)
    value = mapping.get(side.value, side.value)
    if stepping.cast is not None:
        rows = {stepping.dims[k]: stride for k, stride in stepping.rows.items() if k in trips}
        ops.append(cast := _recast(stepping.cast, rows, sizes, mapping))
        value = cast.result
    indices = [mapping.get(index, index) for index in side.indices]
    return value, sizes, folded(side.access.data, indices)


def _times(trip: SSAValue, size: int, ops: list[Operation]) -> int | SSAValue:
    """``trip * size``: a constant, or a value computed by ops appended to ``ops``."""
    if (count := const_evaluate_operand(trip)) is not None:
        return count * size
    if size == 1:
        return trip
    factor = arith.ConstantOp(IntegerAttr(size, IndexType()))
    product = arith.MuliOp(trip, factor.result)
    ops += [factor, product]
    return product.result


def _recast(cast: memref.ReinterpretCastOp, rows: dict[int, int],
            sizes: Sequence[int | SSAValue],
            mapping: dict[SSAValue, SSAValue]) -> memref.ReinterpretCastOp:
    """``cast`` remade at its mapped offset, each dimension of ``rows`` spanning the
    transfer's size with its new stride."""
    cast_sizes = list(cast.static_sizes.get_values())
    strides = list(cast.static_strides.get_values())
    for dim, stride in rows.items():
        cast_sizes[dim], strides[dim] = sizes[dim], stride
    offsets = [mapping.get(v, v) for v in cast.offsets] or list(cast.static_offsets.get_values())
    old = cast.result.type
    assert isinstance(old, MemRefType)
    shape = [size if isinstance(size, int) else DYNAMIC_INDEX for size in cast_sizes]
    offset = offsets[0] if isinstance(offsets[0], int) else None
    new_type = MemRefType(old.element_type, shape, StridedLayoutAttr(strides, offset),
                          old.memory_space)
    new = memref.ReinterpretCastOp.from_dynamic(
        mapping.get(cast.source, cast.source), offsets, cast_sizes, strides, new_type
    )
    new.result.name_hint = cast.result.name_hint
    return new


def folded(access: AffineMap, indices: Sequence[SSAValue]) -> tuple[AffineMap, list[SSAValue]]:
    """``access`` with every constant index written into the map."""
    kept: list[SSAValue] = []
    replacements: list[AffineExpr] = []
    for index in indices:
        value = const_evaluate_operand(index)
        if value is None:
            replacements.append(AffineExpr.dimension(len(kept)))
            kept.append(index)
        else:
            replacements.append(AffineExpr.constant(value))
    return access.replace_dims_and_symbols(replacements, [], len(kept), 0), kept


def clone_needed(values: Iterable[SSAValue], root: Operation,
                 mapping: dict[SSAValue, SSAValue]) -> list[Operation]:
    """Clones, in order and not inserted, of the ops inside ``root`` that ``values``
    depend on (not through ``mapping``'s keys); ``mapping`` gains their results."""
    needed: list[Operation] = []
    pending = list(values)
    while pending:
        value = pending.pop()
        owner = value.owner
        if value in mapping or not isinstance(owner, Operation) or owner in needed:
            continue
        if defined_inside(value, root):
            needed.append(owner)
            pending += owner.operands
    order = {op: index for index, op in enumerate(root.walk())}
    return [op.clone(value_mapper=mapping) for op in sorted(needed, key=order.__getitem__)]
