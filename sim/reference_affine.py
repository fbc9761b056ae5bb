"""Affine expressions and integer sets of KTIR, evaluated on numpy arrays by the
reference interpreter: coordinate sets, access-tile sets and orders, subscript maps.

An expression compiles once into a Python function of its dimension and symbol values,
which may be ints or arrays that broadcast together, so one call evaluates a whole
tile. A set binds its symbols (``IntegerSet.bind``) and then answers membership for
arrays of points, gives its bounding box, and lists its points sorted by an order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineConstraintKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSet,
    AffineSymExpr,
)

from ktc.dialects.printer import affine_set_text

AffineFn = Callable[[Sequence, Sequence], object]
"""An affine expression as a function of (dims, symbols); ints or broadcasting arrays."""

_BINARY: dict[AffineBinaryOpKind, Callable[[object, object], object]] = {
    AffineBinaryOpKind.Add: lambda a, b: a + b,
    AffineBinaryOpKind.Mul: lambda a, b: a * b,
    AffineBinaryOpKind.Mod: lambda a, b: a % b,
    AffineBinaryOpKind.FloorDiv: lambda a, b: a // b,
    AffineBinaryOpKind.CeilDiv: lambda a, b: -((-a) // b),
}


def affine_function(expr: AffineExpr) -> AffineFn:
    """``expr`` compiled to a function of its dimension and symbol values. ``mod`` and
    ``floordiv`` round toward minus infinity, as in MLIR (numpy's ``%`` and ``//``)."""
    if isinstance(expr, AffineDimExpr):
        position = expr.position
        return lambda dims, symbols: dims[position]
    if isinstance(expr, AffineSymExpr):
        position = expr.position
        return lambda dims, symbols: symbols[position]
    if isinstance(expr, AffineConstantExpr):
        value = expr.value
        return lambda dims, symbols: value
    assert isinstance(expr, AffineBinaryOpExpr)
    combine, lhs, rhs = _BINARY[expr.kind], affine_function(expr.lhs), affine_function(expr.rhs)
    return lambda dims, symbols: combine(lhs(dims, symbols), rhs(dims, symbols))


def map_function(amap: AffineMap) -> Callable[[Sequence, Sequence], list]:
    """The results of ``amap`` as a function of its dimension and symbol values."""
    results = [affine_function(expr) for expr in amap.results]
    return lambda dims, symbols: [result(dims, symbols) for result in results]


def permutation_of(amap: AffineMap) -> tuple[int, ...] | None:
    """The dimensions ``amap`` returns, when it is a permutation of all of them."""
    dims = tuple(expr.position for expr in amap.results if isinstance(expr, AffineDimExpr))
    if len(dims) != len(amap.results) or sorted(dims) != list(range(amap.num_dims)):
        return None
    return dims


def _is_linear(expr: AffineExpr) -> bool:
    return all(
        node.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul)
        for node in expr.dfs()
        if isinstance(node, AffineBinaryOpExpr)
    )


@dataclass(frozen=True)
class _Constraint:
    value: AffineFn
    """lhs - rhs."""
    kind: AffineConstraintKind
    linear: bool

    def holds(self, dims: Sequence, symbols: Sequence):
        value = self.value(dims, symbols)
        if self.kind == AffineConstraintKind.eq:
            return value == 0
        return value >= 0 if self.kind == AffineConstraintKind.ge else value <= 0


class IntegerSet:
    """An affine integer set compiled once; ``bind`` gives it symbol values."""

    def __init__(self, aset: AffineSet):
        self.text = affine_set_text(aset)
        self.rank = aset.num_dims
        self.num_symbols = aset.num_symbols
        self.constraints = tuple(
            _Constraint(affine_function(c.lhs - c.rhs), c.kind, _is_linear(c.lhs - c.rhs))
            for c in aset.constraints
        )
        self._bound: dict[tuple[int, ...], BoundSet] = {}

    def bind(self, symbols: Sequence[int]) -> BoundSet:
        key = tuple(int(s) for s in symbols)
        bound = self._bound.get(key)
        if bound is None:
            bound = self._bound[key] = BoundSet(self, key)
        return bound


class BoundSet:
    """An integer set with its symbols bound to values: membership of (broadcasting)
    coordinate arrays, and a bounding box.

    The box comes from the linear constraints: those on one dimension bound it
    directly (when every constraint is such, the set *is* its box), the others tighten
    each dimension from the bounds of the rest until nothing changes."""

    def __init__(self, compiled: IntegerSet, symbols: tuple[int, ...]):
        self.text = compiled.text
        self.rank = compiled.rank
        self.symbols = symbols
        self.constraints = compiled.constraints
        self.empty = False
        self.is_box = True
        self._lows: list[int | None] = [None] * self.rank
        self._highs: list[int | None] = [None] * self.rank
        coupled = []
        for constraint in self.constraints:
            if not constraint.linear:
                self.is_box = False
                continue
            for at0, slopes in self._halves(constraint):  # at0 + slopes . x >= 0
                used = [dim for dim, slope in enumerate(slopes) if slope]
                if not used:
                    self.empty |= at0 < 0
                elif len(used) == 1:
                    self._tighten(used[0], slopes[used[0]], at0)
                else:
                    self.is_box = False
                    coupled.append((at0, slopes, used))
        for _ in range(self.rank):
            for at0, slopes, used in coupled:
                for dim in used:
                    rest = self._greatest(at0, slopes, [d for d in used if d != dim])
                    if rest is not None:
                        self._tighten(dim, slopes[dim], rest)
        self.lows, self.highs = tuple(self._lows), tuple(self._highs)
        self.empty |= any(
            lo is not None and hi is not None and lo > hi for lo, hi in zip(self.lows, self.highs)
        )

    def _halves(self, constraint: _Constraint) -> list[tuple[int, list[int]]]:
        """The constraint as one or two ``at0 + slopes . x >= 0``."""
        zero = [0] * self.rank
        at0 = int(constraint.value(zero, self.symbols))
        slopes = []
        for dim in range(self.rank):
            unit = zero.copy()
            unit[dim] = 1
            slopes.append(int(constraint.value(unit, self.symbols)) - at0)
        if constraint.kind == AffineConstraintKind.ge:
            return [(at0, slopes)]
        negated = (-at0, [-slope for slope in slopes])
        return [negated] if constraint.kind == AffineConstraintKind.le else [(at0, slopes), negated]

    def _greatest(self, at0: int, slopes: list[int], dims: list[int]) -> int | None:
        """The greatest ``at0 + sum(slopes[d] * x[d])`` over the box for ``dims``."""
        total = at0
        for dim in dims:
            bound = self._highs[dim] if slopes[dim] > 0 else self._lows[dim]
            if bound is None:
                return None
            total += slopes[dim] * bound
        return total

    def _tighten(self, dim: int, slope: int, start: int) -> None:
        """Apply ``slope * x[dim] + start >= 0``."""
        if slope > 0:
            low = -(start // slope)
            self._lows[dim] = low if self._lows[dim] is None else max(self._lows[dim], low)
        else:
            high = start // -slope
            self._highs[dim] = high if self._highs[dim] is None else min(self._highs[dim], high)

    def contains(self, coords: Sequence):
        """Whether each point (coordinate arrays that broadcast together) is in the set."""
        inside = True
        for constraint in self.constraints:
            inside = inside & constraint.holds(coords, self.symbols)
        return inside

    def box(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The bounding box, (lows, highs) inclusive; a ValueError when the linear
        constraints leave a dimension unbounded."""
        for dim in range(self.rank):
            if self.lows[dim] is None or self.highs[dim] is None:
                raise ValueError(f"the set {self.text} does not bound d{dim}")
        return self.lows, self.highs  # type: ignore[return-value]

    def points(self, order: AffineMap | None) -> tuple[list[np.ndarray], tuple[int, ...]]:
        """The set's points sorted by ``order`` (lexicographic, last result fastest):
        coordinate arrays and the layout they broadcast to. A box under a permutation
        gives open-grid arrays in the permuted box's shape, anything else flat arrays."""
        lows, highs = self.box()
        extents = [max(high - low + 1, 0) for low, high in zip(lows, highs)]
        if self.empty:
            extents = [0] * self.rank
        permutation = tuple(range(self.rank)) if order is None else permutation_of(order)
        if self.is_box and permutation is not None:
            layout = tuple(extents[dim] for dim in permutation)
            coords = []
            for dim in range(self.rank):
                shape = [1] * self.rank
                shape[permutation.index(dim)] = extents[dim]
                coords.append(np.arange(lows[dim], lows[dim] + extents[dim]).reshape(shape))
            return coords, layout
        grid = np.indices(extents).reshape(self.rank, -1) + np.asarray(lows).reshape(-1, 1)
        points = list(grid)
        if not self.is_box:
            keep = np.broadcast_to(self.contains(points), grid.shape[1:])
            points = [axis[keep] for axis in points]
        if order is not None:
            keys = [
                np.broadcast_to(key, points[0].shape) for key in map_function(order)(points, ())
            ]
            sort = np.lexsort(keys[::-1]) if keys else np.arange(points[0].size)
            points = [axis[sort] for axis in points]
        return points, (points[0].size if points else 1,)
