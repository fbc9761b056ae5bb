"""Evaluating symbol expressions (``ktc.codegen.plan``) on the host: a stack machine
over 64-bit integers, never ``eval``.

Every value is a signed 64-bit integer; results wrap as they would in ``index``
arithmetic; the operators mean what ``ktc.codegen.integer`` says, the table the
simulator's ALU uses too.
Division by zero is a ``KtcError`` (it comes from the launch arguments).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ktc.codegen.integer import BINARY, DIVIDING, unsigned, wrap
from ktc.codegen.plan import FLOAT_OPS, LEAVES, Expr
from ktc.dialects.diagnostics import KtcError


def _float_bits(value: int, bits: int) -> int:
    """The bits of the IEEE float of ``bits`` bits nearest to ``value`` (numpy rounds
    to nearest even, and overflows to infinity as the conversion does)."""
    with np.errstate(over="ignore"):
        return int(np.array(value, np.float64).astype(f"f{bits // 8}").view(f"u{bits // 8}"))


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
            stack.append(_float_bits(value if token[0] == "sitofp" else unsigned(value), token[1]))
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
