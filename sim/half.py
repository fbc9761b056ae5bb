"""f16 arithmetic in float32 with the processor's conversion instructions: the values
of the float64 formulas of ``ktc.sim.engines``, faster.

``+``, ``-``, ``*`` and ``/`` of two f16 operands computed in float32 and rounded to
f16 (to nearest even) give the correctly rounded f16 result, which is also what the
float64 formula rounded once gives: rounding twice is harmless when the wider format
has at least ``2p + 2`` bits of precision (float32 has 24, f16 has ``p = 11``). f16
widens to float32 exactly. The compiled core's ``half`` does both over whole arrays;
each function here returns None where that does not apply (the core is not built or
the processor lacks the instructions, the operands are not f16 arrays of one shape, a
result is NaN, whose bits are left to the float64 rule) and the caller computes as
before.
"""

from __future__ import annotations

import numpy as np

try:
    from ktc.sim import _core
except ImportError:  # not built (a source tree without ``pip install``)
    _core = None

OPERATIONS = {} if _core is None else {
    np.add: _core.HALF_ADD, np.subtract: _core.HALF_SUB, np.multiply: _core.HALF_MUL,
    np.divide: _core.HALF_DIV}
"""The numpy functions computed here, with the core's code for each."""


def _halves(operands) -> list[np.ndarray] | None:
    """The operands as contiguous f16 arrays, when they are f16 arrays of one shape."""
    if not all(type(x) is np.ndarray and x.dtype == np.float16 and x.shape == operands[0].shape
               for x in operands):
        return None
    return [np.ascontiguousarray(x) for x in operands]


def binary(fn, ty: str, operands) -> np.ndarray | None:
    """``fn(a, b)`` rounded to f16 for f16 operands and result, or None."""
    code = OPERATIONS.get(fn)
    if code is None or ty != "f16" or len(operands) != 2:
        return None
    halves = _halves(operands)
    if halves is None:
        return None
    out = np.empty(halves[0].shape, np.float16)
    return out if _core.half(code, halves[0], halves[1], out) else None


def widen(x) -> np.ndarray | None:
    """f16 values as float32, or None."""
    halves = None if _core is None else _halves([x])
    if halves is None:
        return None
    out = np.empty(halves[0].shape, np.float32)
    return out if _core.half(_core.HALF_WIDEN, halves[0], halves[0], out) else None
