"""Affine sets the passes build."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir.affine import AffineExpr
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
