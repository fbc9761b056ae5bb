"""Affine sets the passes build (``box``) and read (``box_bounds``, ``box_range``), and
an expression as a sum of its dimensions (``linear``)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)
from xdsl.ir.affine.affine_set import AffineConstraintExpr, AffineConstraintKind, AffineSet


def box(shape: Sequence[int]) -> AffineSet:
    """``0 <= d_j <= shape[j] - 1`` for every dimension ``j``."""
    constraints = []
    for j, extent in enumerate(shape):
        dim = AffineExpr.dimension(j)
        constraints += [
            AffineConstraintExpr(AffineConstraintKind.ge, dim, AffineExpr.constant(0)),
            AffineConstraintExpr(AffineConstraintKind.ge, AffineExpr.constant(extent - 1), dim),
        ]
    return AffineSet(len(shape), 0, tuple(constraints))


def box_bounds(coordinates: AffineSet) -> list[AffineExpr] | None:
    """Per dimension ``j`` the bound ``n_j`` (an expression of the set's symbols) when
    the set is the box ``0 <= d_j < n_j``: one constraint ``d_j >= 0`` and one
    ``-d_j + e >= 0`` (``n_j = e + 1``) per dimension and nothing else; None otherwise."""
    ranged = box_range(coordinates)
    if ranged is None or any(low != AffineExpr.constant(0) for low in ranged[0]):
        return None
    return ranged[1]


def box_range(coordinates: AffineSet) -> tuple[list[AffineExpr], list[AffineExpr]] | None:
    """Per dimension ``j`` the bounds ``(l_j, n_j)`` (expressions of the set's symbols)
    when the set is the box ``l_j <= d_j < n_j``: one constraint ``d_j - l >= 0`` and
    one ``-d_j + e >= 0`` (``n_j = e + 1``) per dimension and nothing else; None
    otherwise."""
    lower: dict[int, AffineExpr] = {}
    upper: dict[int, AffineExpr] = {}
    for constraint in coordinates.constraints:
        terms = linear(constraint.lhs - constraint.rhs)
        if constraint.kind != AffineConstraintKind.ge or terms is None or len(terms[0]) != 1:
            return None
        ((dim, coefficient),) = terms[0].items()
        rest = terms[1]
        if coefficient == 1 and dim not in lower:
            lower[dim] = rest * -1
        elif coefficient == -1 and dim not in upper:
            upper[dim] = rest + 1
        else:
            return None
    dims = set(range(coordinates.num_dims))
    if set(lower) != dims or set(upper) != dims:
        return None
    return [lower[d] for d in range(coordinates.num_dims)], [upper[d] for d in range(coordinates.num_dims)]


def linear(expr: AffineExpr) -> tuple[dict[int, int], AffineExpr] | None:
    """``expr`` as ``sum(c_j * d_j) + rest``, ``rest`` free of dimensions: the
    coefficients (zero ones left out) and ``rest``; None when a dimension appears
    otherwise than in such a sum."""
    if isinstance(expr, AffineDimExpr):
        return {expr.position: 1}, AffineExpr.constant(0)
    if not isinstance(expr, AffineBinaryOpExpr):
        return {}, expr
    lhs, rhs = linear(expr.lhs), linear(expr.rhs)
    if lhs is None or rhs is None:
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        coefficients = dict(lhs[0])
        for dim, c in rhs[0].items():
            coefficients[dim] = coefficients.get(dim, 0) + c
        return {d: c for d, c in coefficients.items() if c}, lhs[1] + rhs[1]
    if not lhs[0] and not rhs[0]:
        return {}, expr
    if expr.kind == AffineBinaryOpKind.Mul and isinstance(expr.rhs, AffineConstantExpr):
        factor = expr.rhs.value
        return {d: c * factor for d, c in lhs[0].items() if c * factor}, lhs[1] * factor
    return None
