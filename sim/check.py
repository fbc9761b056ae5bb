"""The check of a kernel's outputs against the reference interpreter's: one rule, used by
``ktc run --check``, the end-to-end tests and the benchmarks.

Per element, ``|got - ref| <= atol + rtol * |ref|``:

- ``rtol = tolerance(element, length)``: 0 for a kernel that does not reduce (the
  simulator rounds every elementwise operation as the reference does, so its outputs
  must be bit-exact: signed zeros apart, any NaN like any other) and for integers.
  For a float reduction of ``length`` terms it is the type's unit roundoff ``u`` times
  the roundings the compiled sum may gather where the reference rounds once (it folds
  exactly): f16 sums accumulate in f32 lanes and are combined over chunks and lanes
  in f16, a tree's worth of roundings, ``u * (2 + log2(length))``; other types
  accumulate in their own precision lane by lane, whose roundings add up as a random
  walk, ``u * (2 + sqrt(length))``.
- ``atol = ATOL_SCALE * rtol * max|ref|`` over the finite reference values of that
  output (nothing else): the roundings of a sum scale with its partial sums, not with
  a result that cancellation made small; plus as many spacings of the type's
  subnormals as ``rtol`` counts roundings, for sums that round below its normal range
  (an f16 subnormal keeps fewer than 11 bits).
- NaN and infinities must match: a NaN where the reference has one, an infinity of the
  same sign where the reference has one, and nothing else there.

``reduction_length`` reads the length from a KTIR kernel: an upper bound of the terms
one reduction folds (reduced extents, times the trips of value-carrying loops, times
the tiles an inter-tile reduce combines).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation

from ktc.dialects.diagnostics import KtcError
from ktc.dialects.upstream import ReduceOp
from ktc.sim import numerics
from ktc.sim.reference import Kernel, static_trips

UNIT_ROUNDOFF = {"f16": 2.0**-11, "df16": 2.0**-10, "f32": 2.0**-24, "f64": 2.0**-53}
"""Half the spacing of the values near 1, relative: f16 and f32 round to nearest, df16
(9 fraction bits) rounds half away from zero."""

SUBNORMAL_SPACING = {"f16": 2.0**-24, "df16": 0.0, "f32": 2.0**-149, "f64": 0.0}
"""The spacing of the type's subnormals (df16 has none; f64's is negligible)."""

PAIRWISE = {"f16"}
"""The element types whose reductions the compiler accumulates wider than themselves."""

CONTRACTIONS = ("linalg.matmul", "linalg.batch_matmul")
"""Named ops that sum over their first operand's last dimension."""

ATOL_SCALE = 1.0
"""atol in units of ``rtol * max|ref|``."""


def tolerance(element: str, length: int) -> float:
    """rtol for outputs of ``element`` made by reductions of ``length`` terms."""
    if length <= 1 or element not in UNIT_ROUNDOFF:
        return 0.0
    growth = math.log2(length) if element in PAIRWISE else math.sqrt(length)
    return UNIT_ROUNDOFF[element] * (2 + growth)


@dataclass(frozen=True)
class Mismatch:
    """The first element where an output differs from the reference beyond the rule."""

    name: str
    index: tuple[int, ...]
    actual: object
    expected: object
    count: int
    """How many elements differ."""
    size: int
    allowed: float
    """The tolerance at that element (0: bit-exact, or a special value)."""

    def __str__(self) -> str:
        bound = f" (allowed {self.allowed:.3g})" if self.allowed else ""
        return (f"%{self.name} differs at {list(self.index)}: {self.actual} (simulator) vs "
                f"{self.expected} (reference){bound}; {self.count} of {self.size} elements differ")


def rule(length: int) -> str:
    """The rule for a kernel whose reductions have ``length`` terms, in words."""
    if length <= 1:
        return "bit-exact (the kernel does not reduce)"
    shown = ", ".join(f"{name} {tolerance(name, length):.3g}" for name in UNIT_ROUNDOFF)
    return (f"|got - ref| <= rtol * (|ref| + max|finite ref|) (+ subnormal spacings) for "
            f"reductions of {length} terms, rtol {shown}; integers, NaN and infinities exact")


def differences(
    got: np.ndarray, want: np.ndarray, element: str, length: int
) -> tuple[np.ndarray, np.ndarray]:
    """Where two outputs (values of ``element``, same shape) differ beyond the rule, and
    the tolerance at every element."""
    rtol = tolerance(element, length)
    if rtol == 0.0:
        return _bits_differ(got, want, element), np.zeros(want.shape)
    got, want = got.astype(np.float64), want.astype(np.float64)
    finite = np.isfinite(want)
    scale = float(np.max(np.abs(want[finite]), initial=0.0))
    roundings = rtol / UNIT_ROUNDOFF[element]
    atol = ATOL_SCALE * rtol * scale + roundings * SUBNORMAL_SPACING[element]
    allowed = atol + rtol * np.abs(np.where(finite, want, 0.0))
    with np.errstate(invalid="ignore"):
        close = np.abs(got - want) <= allowed
    special = ~finite
    same_special = (np.isnan(got) & np.isnan(want)) | (np.isinf(want) & (got == want))
    differ = np.where(special, ~same_special, ~close | ~np.isfinite(got))
    return differ, np.where(special, 0.0, allowed)


def _bits_differ(got: np.ndarray, want: np.ndarray, element: str) -> np.ndarray:
    """Bit-exact: every value the same, signed zeros apart, any NaN like any other."""
    if element not in numerics.FLOAT_TYPES:
        return got != want
    wide = np.dtype(f"u{got.itemsize}")
    both_nan = np.isnan(got) & np.isnan(want)
    return (np.ascontiguousarray(got).view(wide) != np.ascontiguousarray(want).view(wide)) & ~both_nan


def compare(actual: Mapping[str, np.ndarray], expected: Mapping[str, np.ndarray],
            elements: Mapping[str, str], length: int) -> Mismatch | None:
    """The first mismatch of ``actual`` against ``expected`` (arrays by argument name,
    in storage form, of element types ``elements``) for reductions of ``length``
    terms, or None."""
    for name, want in expected.items():
        element = elements[name]
        got = actual[name]
        if (got.dtype, got.shape) != (want.dtype, want.shape):
            raise KtcError(f"%{name}: the simulator returned {got.dtype}{list(got.shape)}, "
                           f"the reference {want.dtype}{list(want.shape)}")
        values = numerics.from_storage(element, got), numerics.from_storage(element, want)
        differ, allowed = differences(*values, element, length)
        if differ.any():
            index = tuple(int(i) for i in np.argwhere(differ)[0])
            return Mismatch(name, index, values[0][index], values[1][index],
                            int(differ.sum()), differ.size, float(allowed[index]))
    return None


def worst_error(actual: Mapping[str, np.ndarray], expected: Mapping[str, np.ndarray],
                elements: Mapping[str, str]) -> float:
    """The largest ``|got - ref|`` over the elements where both values are finite
    (arrays by name, in storage form, of element types ``elements``)."""
    worst = 0.0
    for name, want in expected.items():
        got, ref = (numerics.from_storage(elements[name], a).astype(np.float64)
                    for a in (actual[name], want))
        finite = np.isfinite(got) & np.isfinite(ref)
        worst = max(worst, float(np.max(np.abs(got - ref)[finite], initial=0.0)))
    return worst


def reduction_length(kernel: Kernel, scalars: Mapping[str, object] = {}) -> int:
    """The most terms one reduction of the kernel folds (1: none), an upper bound: the
    largest reduced extent of one op, times the most trips of nested loops that carry
    values (``iter_args``, which may accumulate partials elementwise before or after
    the reduction; loops whose trip count does not follow from constants and the
    scalar arguments ``scalars`` count once), times the grid's tiles when an
    inter-tile reduce folds partials across them."""
    func = kernel.func
    scalars = kernel.scalar_values(scalars)
    terms = max((_terms(op) for op in func.walk()), default=1)
    if terms <= 1:
        return 1
    loops = [op for op in func.walk() if op.name == "scf.for" and op.results]
    carried = max((_carried_trips(loop, scalars) for loop in loops), default=1)
    across = kernel.tiles if any(op.name == "ktdp.inter_tile_reduce" for op in func.walk()) else 1
    return terms * carried * across


def _terms(op: Operation) -> int:
    """The terms one result of a reduction op folds (1 for any other op)."""
    if isinstance(op, ReduceOp):
        shape = op.inputs[0].type.get_shape()
        return math.prod(max(shape[d], 1) for d in op.dimensions.get_values())
    if op.name in CONTRACTIONS:
        return max(op.operands[0].type.get_shape()[-1], 1)
    if isinstance(op, GenericOp):
        kinds = [attr.data for attr in op.iterator_types.data]
        ranges = op.get_static_loop_ranges()
        return math.prod(max(n, 1) for n, kind in zip(ranges, kinds) if kind == IteratorType.REDUCTION)
    return 1


def _carried_trips(loop: Operation, scalars: Mapping[str, object]) -> int:
    """The product of the static trip counts of a value-carrying ``scf.for`` and of
    the value-carrying loops around it."""
    trips = static_trips(loop, scalars) or 1
    for parent in _parents(loop):
        if parent.name == "scf.for" and parent.results:
            trips *= static_trips(parent, scalars) or 1
    return trips


def _parents(op: Operation):
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        yield parent
        parent = parent.parent_op()
