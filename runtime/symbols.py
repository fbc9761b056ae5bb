"""Evaluating symbol expressions (``ktc.codegen.plan``) on the host: a stack machine
over 64-bit integers, never ``eval``.

Every value is a signed 64-bit integer; results wrap as they would in ``index``
arithmetic. Unsigned operators read their operands as unsigned 64-bit values.
Division by zero is a ``KtcError`` (it comes from the launch arguments).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from ktc.codegen.plan import FLOAT_OPS, LEAVES, Expr
from ktc.dialects.diagnostics import KtcError

MASK = (1 << 64) - 1


def wrap(value: int, bits: int = 64) -> int:
    """``value`` as a signed integer of ``bits`` bits."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _u(value: int) -> int:
    return value & MASK


def _div(a: int, b: int) -> int:
    """Signed division truncating toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _ceildiv(a: int, b: int) -> int:
    return -((-a) // b)


def _float_bits(value: int, bits: int) -> int:
    """The bits of the IEEE float of ``bits`` bits nearest to ``value`` (numpy rounds
    to nearest even, and overflows to infinity as the conversion does)."""
    with np.errstate(over="ignore"):
        return int(np.array(value, np.float64).astype(f"f{bits // 8}").view(f"u{bits // 8}"))


DIVIDING = {"divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi", "floormod"}

BINARY: dict[str, Callable[[int, int], int]] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "divsi": _div,
    "divui": lambda a, b: _u(a) // _u(b),
    "remsi": lambda a, b: a - b * _div(a, b),
    "remui": lambda a, b: _u(a) % _u(b),
    "ceildivsi": _ceildiv,
    "ceildivui": lambda a, b: _ceildiv(_u(a), _u(b)),
    "floordivsi": lambda a, b: a // b,
    "floormod": lambda a, b: a % abs(b),
    "minsi": min,
    "maxsi": max,
    "minui": lambda a, b: min(_u(a), _u(b)),
    "maxui": lambda a, b: max(_u(a), _u(b)),
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "shl": lambda a, b: a << b if 0 <= b < 64 else 0,
    "shrsi": lambda a, b: a >> min(max(b, 0), 63),
    "shrui": lambda a, b: _u(a) >> b if 0 <= b < 64 else 0,
    "cmp.eq": lambda a, b: int(a == b),
    "cmp.ne": lambda a, b: int(a != b),
    "cmp.slt": lambda a, b: int(a < b),
    "cmp.sle": lambda a, b: int(a <= b),
    "cmp.sgt": lambda a, b: int(a > b),
    "cmp.sge": lambda a, b: int(a >= b),
    "cmp.ult": lambda a, b: int(_u(a) < _u(b)),
    "cmp.ule": lambda a, b: int(_u(a) <= _u(b)),
    "cmp.ugt": lambda a, b: int(_u(a) > _u(b)),
    "cmp.uge": lambda a, b: int(_u(a) >= _u(b)),
}


def evaluate(expr: Expr, leaves: Mapping[str, tuple[int, ...]]) -> int:
    """The value of a well-formed expression; ``leaves[kind][n]`` is leaf ``(kind, n)``."""
    stack: list[int] = []
    for token in expr:
        if isinstance(token, int):
            stack.append(wrap(token))
        elif isinstance(token, tuple) and token[0] in LEAVES:
            stack.append(wrap(leaves[token[0]][token[1]]))
        elif isinstance(token, tuple) and token[0] in FLOAT_OPS:
            value = stack.pop()
            stack.append(_float_bits(value if token[0] == "sitofp" else _u(value), token[1]))
        elif isinstance(token, tuple):
            value = stack.pop()
            bits = token[1]
            stack.append(wrap(value, bits) if token[0] == "wrap" else value & ((1 << bits) - 1))
        elif token == "select":
            other, chosen, condition = stack.pop(), stack.pop(), stack.pop()
            stack.append(chosen if condition & 1 else other)
        else:
            b, a = stack.pop(), stack.pop()
            if token in DIVIDING and b == 0:
                raise KtcError(f"a symbol divides by zero ('{token}' of {a} by 0)")
            stack.append(wrap(BINARY[token](a, b)))
    return stack[0]
