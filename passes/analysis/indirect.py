"""What an indirect access tile (``ktdp.construct_indirect_access_tile``) moves, as
``indirect-access-lowering`` compiles it and ``ktir-legality-check`` accepts it.

The tile enumerates the box of its intermediate variables in their order (the
identity); its point ``v`` is the element of the base view at, per base dimension,
the direct subscript ``f_j(c, v)`` or the value ``idx_j[g_j(c, v)]`` read from an
index view (``c``: the captured variables). The compiled gather or scatter reads
each index view whole into the scratchpad, then, per point of the *outer* loop
variables (``Indirect`` says how the intermediate variables become loop variables),
reads the indices it needs, computes the start of one *run* and moves that run with
one DMA. The run is the block of the trailing (innermost) loop variables that no
index subscript uses and whose direct subscripts each add one of them, with
coefficient 1, to a base dimension of their own, in the variables' order; its shape
is theirs in the base view's strides. ``Indirect.runs`` says how many variables
that is (0: one element per DMA).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.ir.affine.affine_set import AffineConstraintExpr, AffineConstraintKind, AffineSet

from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdp import (
    ConstructIndirectAccessTileOp,
    ConstructMemoryViewOp,
    LoadOp,
    MemorySpaceAttr,
    SpyreMemorySpaceAttr,
    StoreOp,
)
from ktc.passes.utils.affine import box_bounds
from ktc.passes.utils.transfers import affine_coefficients


@dataclass(frozen=True)
class Indirect:
    """The facts of one indirect access tile, over its *loop variables*: the
    intermediate variables, each one that subscripts use only as ``v floordiv P`` and
    ``v mod P`` (one constant ``P`` dividing its extent) split into the two, ``v = P *
    hi + lo``, so that ``lo`` may join a run (the tokens of one page)."""

    op: ConstructIndirectAccessTileOp
    shape: tuple[int, ...]
    """The extents of the intermediate variables (the tile's shape)."""
    loops: tuple[int, ...]
    """The extents of the loop variables."""
    subscripts: tuple[tuple[AffineMap, int | None], ...]
    """Per base dimension: its map over ``(captured..., loop variables...)`` and, if it
    is indirect, the position of its index view."""
    placement: AffineMap
    """The tile position of a point: the intermediate variables from the loop variables."""
    runs: int
    """How many trailing loop variables one DMA moves."""
    run_dims: tuple[int, ...]
    """The base dimension each of those variables advances, in order."""

    @property
    def captured(self) -> int:
        return len(self.op.captured_variables)


def describe(op: ConstructIndirectAccessTileOp) -> Indirect:
    """The facts of ``op``, or a located error saying which form is not compiled."""
    base = _view(op.base, op, "its base")
    for index in op.indirect_memrefs:
        view = _view(index, op, "an index view")
        if not isinstance(view.result.type.get_element_type(), IntegerType):
            raise _refused(op, "reads indices of a non-integer type")
    if op.symbol_operands:
        raise _refused(op, "has a variables_space_set with symbols; the compiler needs its "
                           "extents constant")
    bounds = box_bounds(_without_equalities(op.variables_space_set.data))
    if bounds is None or not all(_constant(bound) for bound in bounds):
        raise _refused(op, "has a variables_space_set that is not a box 0 <= d_j < n_j of "
                           "constant extents")
    order = op.variables_space_order.data
    if order != AffineMap.identity(order.num_dims):
        raise _refused(op, "has a variables_space_order that is not the identity; another "
                           "order transposes the tile")
    shape = tuple(bound.value for bound in bounds)
    if not shape:
        raise _refused(op, "has no intermediate variables (a rank-0 tile); the compute "
                           "stage works on tensors of rank 1 or more")
    if tuple(op.result.type.get_shape()) != shape:
        raise _refused(op, f"has a tile type of shape {list(op.result.type.get_shape())} for "
                           f"a variables space of {list(shape)}")
    for use in op.result.uses:
        if not isinstance(use.operation, LoadOp | StoreOp):
            raise _refused(op, f"is used by '{use.operation.name}'; the compiler lowers "
                               "indirect tiles that ktdp.load and ktdp.store use")
    kinds = [kind.value.data for kind in op.per_dim_subscript_kinds]
    maps = [subscript.data for subscript in op.per_dim_subscript_maps]
    views = iter(range(len(op.indirect_memrefs)))
    positions = [next(views) if kind else None for kind in kinds]
    loops, maps, placement = _split(len(op.captured_variables), shape, maps)
    facts = Indirect(op, shape, loops, tuple(zip(maps, positions)), placement, 0, ())
    runs, dims = _run(facts, list(base.static_strides.get_values()))
    return Indirect(op, shape, loops, facts.subscripts, placement, runs, dims)


def _split(captured: int, shape: Sequence[int], maps: Sequence[AffineMap]
           ) -> tuple[tuple[int, ...], list[AffineMap], AffineMap]:
    """The loop variables: each intermediate variable, or its ``floordiv`` / ``mod``
    parts when subscripts use it only so, with one divisor of its extent."""
    exprs = [expr for subscript in maps for expr in subscript.results]
    loops: list[int] = []
    places: list[AffineExpr] = []
    replace: dict[int, tuple[AffineExpr, AffineExpr, int] | AffineExpr] = {}
    for variable, extent in enumerate(shape):
        divisor = _divisor(captured + variable, exprs)
        here, shifted = AffineExpr.dimension(len(loops)), AffineExpr.dimension(captured + len(loops))
        if divisor is None or extent % divisor or divisor in (1, extent):
            loops.append(extent)
            places.append(here)
            replace[variable] = shifted
            continue
        loops += [extent // divisor, divisor]
        places.append(here * divisor + AffineExpr.dimension(len(loops) - 1))
        replace[variable] = (shifted, AffineExpr.dimension(captured + len(loops) - 1), divisor)
    dims = captured + len(loops)
    rewritten = [AffineMap(dims, 0, tuple(_rewrite(expr, captured, replace)
                                          for expr in subscript.results))
                 for subscript in maps]
    return tuple(loops), rewritten, AffineMap(len(loops), 0, tuple(places))


def _divisor(dim: int, exprs: Sequence[AffineExpr]) -> int | None:
    """``P`` when every use of dimension ``dim`` in ``exprs`` is ``dim floordiv P`` or
    ``dim mod P`` for one constant ``P``; None otherwise."""
    divisors: set[int] = set()
    bare = False

    def visit(expr: AffineExpr) -> None:
        nonlocal bare
        if isinstance(expr, AffineDimExpr):
            bare = bare or expr.position == dim
            return
        if not isinstance(expr, AffineBinaryOpExpr):
            return
        if (expr.kind in (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.Mod)
                and isinstance(expr.lhs, AffineDimExpr) and expr.lhs.position == dim
                and isinstance(expr.rhs, AffineConstantExpr)):
            divisors.add(expr.rhs.value)
            return
        visit(expr.lhs)
        visit(expr.rhs)

    for expr in exprs:
        visit(expr)
    return divisors.pop() if len(divisors) == 1 and not bare else None


def _rewrite(expr: AffineExpr, captured: int, replace: dict) -> AffineExpr:
    """``expr`` over the loop variables (``replace``: per intermediate variable, its
    loop variable, or its high part, low part and divisor)."""
    if isinstance(expr, AffineDimExpr):
        if expr.position < captured:
            return expr
        return replace[expr.position - captured]
    if not isinstance(expr, AffineBinaryOpExpr):
        return expr
    lhs = expr.lhs
    if (expr.kind in (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.Mod)
            and isinstance(lhs, AffineDimExpr) and lhs.position >= captured
            and isinstance(replace[lhs.position - captured], tuple)):
        high, low, _ = replace[lhs.position - captured]
        return high if expr.kind == AffineBinaryOpKind.FloorDiv else low
    return AffineBinaryOpExpr(expr.kind, _rewrite(lhs, captured, replace),
                              _rewrite(expr.rhs, captured, replace))


def _view(value, op: Operation, what: str) -> ConstructMemoryViewOp:
    view = value.owner
    if not isinstance(view, ConstructMemoryViewOp):
        raise _refused(op, f"has {what} that is no ktdp.construct_memory_view")
    space = view.memory_space
    if isinstance(space, SpyreMemorySpaceAttr):
        space = space.to_memory_space()
    if not isinstance(space, MemorySpaceAttr) or space.kind.data != "global":
        raise _refused(op, f"has {what} outside device memory (global); the compiler "
                           "gathers from and scatters to device memory")
    if view.strides or not view.result.type.has_static_shape():
        raise _refused(op, f"has {what} of dynamic shape or strides")
    bounds = box_bounds(view.coordinate_set.data)
    if bounds is None or not all(_constant(bound) for bound in bounds):
        raise _refused(op, f"has {what} whose coordinate set is not a box 0 <= d_j < n_j of "
                           "constant extents; the compiler masks indirect accesses at such a box")
    return view


def _run(facts: Indirect, strides: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The trailing variables one DMA moves and the base dimension each advances:
    from the innermost outwards, a variable only one base dimension's subscript uses,
    a direct one linear in it with coefficient 1, each in a dimension of its own
    outside the next one's and of a larger stride."""
    dims = _per_dimension(facts)
    run_dims: list[int] = []
    for variable in reversed(range(len(facts.loops))):
        users = [j for j, (_, used, _) in enumerate(dims) if variable in used]
        if len(users) != 1:
            break
        j = users[0]
        indirect, _, terms = dims[j]
        if indirect or terms is None or terms.get(variable) != 1:
            break
        if run_dims and (j >= run_dims[0] or strides[j] < strides[run_dims[0]]):
            break
        run_dims.insert(0, j)
    return len(run_dims), tuple(run_dims)


def _per_dimension(facts: Indirect) -> list[tuple[bool, set[int], dict[int, int] | None]]:
    """Per base dimension: whether it is indirect, the loop variables its subscript
    uses and, for a direct one linear in them, their coefficients."""
    captured = facts.captured
    result = []
    for subscript, index in facts.subscripts:
        used = {d - captured for expr in subscript.results for d in _dims(expr) if d >= captured}
        terms = None if index is not None else _coefficients(
            subscript.results[0], captured + len(facts.loops), captured)
        result.append((index is not None, used, terms))
    return result


def _coefficients(expr: AffineExpr, dims: int, captured: int) -> dict[int, int] | None:
    """The coefficient of each loop variable in ``expr`` when it is linear in them
    (captured variables and constants may appear anyhow); None otherwise."""
    terms = [{d - captured: 1} if d >= captured else {} for d in range(dims)]
    linear = affine_coefficients(expr, terms, dims)
    if linear is None:
        return None
    return {d: c for d, c in linear.items() if c}


def _without_equalities(space: AffineSet) -> AffineSet:
    """``space`` with each ``e == 0`` written ``e >= 0, -e >= 0`` (``d0 == 0``: an
    extent of 1)."""
    constraints = []
    for constraint in space.constraints:
        if constraint.kind != AffineConstraintKind.eq:
            constraints.append(constraint)
            continue
        expr = constraint.lhs - constraint.rhs
        zero = AffineExpr.constant(0)
        constraints += [AffineConstraintExpr(AffineConstraintKind.ge, expr, zero),
                        AffineConstraintExpr(AffineConstraintKind.ge, zero - expr, zero)]
    return AffineSet(space.num_dims, space.num_symbols, tuple(constraints))


def _dims(expr: AffineExpr) -> set[int]:
    return {inner.position for inner in expr.dfs() if isinstance(inner, AffineDimExpr)}


def _constant(expr: AffineExpr) -> bool:
    return isinstance(expr, AffineConstantExpr)


def _refused(op: Operation, reason: str) -> KtcError:
    return KtcError(f"'{op.name}' {reason}", where(op))
