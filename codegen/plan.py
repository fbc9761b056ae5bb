"""The data of a package's plans: expressions, symbols and plan steps.

An **expression** is a postfix tuple of tokens: an ``int`` pushes a constant, a ``str``
applies an operator (``"add"``, ``"divsi"``, ``"cmp.slt"``, ``"select"``, ...), a pair
``(kind, n)`` pushes a leaf or applies a width operator (``("wrap", 32)`` keeps the low
32 bits as a signed value, ``("zext", 32)`` as an unsigned one; ``("sitofp", 16)`` and
``("uitofp", 16)`` round a signed or unsigned integer to the nearest IEEE float of 16,
32 or 64 bits and push its bits, as a float kernel argument travels). A leaf is
``("arg", i)`` kernel argument i (a pointer's value is the element index of its array,
as in KTIR), ``("loop", k)`` the variable of launch-plan loop k, ``("param", i)``
parameter i of a dataflow (in its symbol table), or ``("alloc", k)`` the address the
prepare plan's allocation k returned. Expressions are data: ``evaluate`` runs them on
a stack machine, never with ``eval`` (the compiler folds the static ones, the runtime
evaluates the rest at launch).

The **prepare plan** (run once) holds ``Allocate`` and ``InitTransfer`` steps; the
**launch plan** (run per call) holds ``ComputeOnHost`` (evaluate a dataflow's symbols),
``DataTransfer`` (patch them into its code on the device), ``ComputeOnDevice`` (run
it) and ``Loop`` steps, in order. Names follow IBM's SpyreCode.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass

import numpy as np

from ktc.codegen import integer
from ktc.errors import KtcError

Token = int | str | tuple[str, int]
Expr = tuple[Token, ...]

LEAVES = ("arg", "loop", "param", "alloc")
"""Leaf kinds, each numbered from 0."""
WIDTH_OPS = ("wrap", "zext")
"""Operators that take one value and a bit width."""
FLOAT_OPS = ("sitofp", "uitofp")
"""Operators that take one integer and the width of the IEEE float they make."""
FLOAT_WIDTHS = (16, 32, 64)
PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
"""``arith.cmpi`` predicates in the order of their numbers."""
BINARY = (
    "add", "sub", "mul", "divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui",
    "floordivsi", "floormod", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor",
    "shl", "shrsi", "shrui", *(f"cmp.{p}" for p in PREDICATES),
)
"""Operators that take two values (``floormod`` is affine ``mod``: never negative)."""
TERNARY = ("select",)

# ---------------------------------------------------------------------------------------
# Expressions


def leaves(expr: Expr) -> list[tuple[str, int]]:
    """The leaves an expression reads, in order."""
    return [t for t in expr if isinstance(t, tuple) and t[0] in LEAVES]


def check(expr: Expr, scope: Mapping[str, Container[int]]) -> str | None:
    """Why ``expr`` is not a well-formed expression whose leaves ``(kind, n)`` all have
    ``n in scope[kind]`` (absent kinds: none), or None. Never raises on any input."""
    if not isinstance(expr, tuple) or not expr:
        return "an expression is a non-empty list of tokens"
    depth = 0
    for token in expr:
        pops, problem = _arity(token, scope)
        if problem:
            return problem
        if depth < pops:
            return f"operator {token!r} lacks operands"
        depth += 1 - pops
    return None if depth == 1 else f"leaves {depth} values instead of one"


def _arity(token, scope: Mapping[str, Container[int]]) -> tuple[int, str | None]:
    if isinstance(token, bool):
        return 0, f"unknown token {token!r}"
    if isinstance(token, int):
        ok = -(1 << 63) <= token < 1 << 64
        return 0, None if ok else f"constant {token} does not fit in 64 bits"
    if isinstance(token, str):
        if token in BINARY:
            return 2, None
        return (3, None) if token in TERNARY else (0, f"unknown operator {token!r}")
    if not (isinstance(token, tuple) and len(token) == 2 and isinstance(token[0], str)
            and isinstance(token[1], int) and not isinstance(token[1], bool)):
        return 0, f"unknown token {token!r}"
    kind, n = token
    if kind in WIDTH_OPS:
        return 1, None if 1 <= n <= 64 else f"bad width {n}"
    if kind in FLOAT_OPS:
        return 1, None if n in FLOAT_WIDTHS else f"bad float width {n}"
    if kind not in LEAVES:
        return 0, f"unknown leaf {kind!r}"
    return 0, None if n in scope.get(kind, ()) else f"no {kind} {n}"


def render(expr: Expr, name: Callable[[str, int], str]) -> str:
    """An expression in infix form for people (``name`` spells a leaf)."""
    stack: list[str] = []
    for token in expr:
        if isinstance(token, int):
            stack.append(str(token))
        elif isinstance(token, tuple) and token[0] in LEAVES:
            stack.append(name(*token))
        elif isinstance(token, tuple):
            stack.append(f"{token[0]}{token[1]}({stack.pop()})")
        else:
            operands = [stack.pop() for _ in range(3 if token in TERNARY else 2)][::-1]
            stack.append(_infix(token, operands))
    return stack[0]


INFIX = {"add": "+", "sub": "-", "mul": "*", "and": "&", "or": "|", "xor": "^", "shl": "<<"}


def _infix(op: str, operands: list[str]) -> str:
    if op in INFIX:
        return f"({operands[0]} {INFIX[op]} {operands[1]})"
    return f"{op}({', '.join(operands)})"


def evaluate(expr: Expr, leaves: Mapping[str, tuple[int, ...]]) -> int:
    """The value of a well-formed expression; ``leaves[kind][n]`` is leaf ``(kind, n)``.

    Every value is a signed 64-bit integer; results wrap as they would in ``index``
    arithmetic; the operators mean what ``ktc.codegen.integer`` says, the table the
    simulator's ALU uses too. Division by zero is a ``KtcError`` (it comes from the
    launch arguments).
    """
    stack: list[int] = []
    for token in expr:
        if isinstance(token, int):
            stack.append(integer.wrap(token))
        elif isinstance(token, tuple) and token[0] in LEAVES:
            stack.append(integer.wrap(leaves[token[0]][token[1]]))
        elif isinstance(token, tuple) and token[0] in FLOAT_OPS:
            value = stack.pop()
            signed = token[0] == "sitofp"
            stack.append(_float_bits(value if signed else integer.unsigned(value), token[1]))
        elif isinstance(token, tuple):
            value, bits = stack.pop(), token[1]
            kept = integer.wrap(value, bits) if token[0] == "wrap" else value & ((1 << bits) - 1)
            stack.append(kept)
        elif token == "select":
            other, chosen, condition = stack.pop(), stack.pop(), stack.pop()
            stack.append(chosen if condition & 1 else other)
        else:
            b, a = stack.pop(), stack.pop()
            if token in integer.DIVIDING and b == 0:
                raise KtcError(f"a symbol divides by zero ('{token}' of {a} by 0)")
            stack.append(integer.wrap(integer.BINARY[token](a, b)))
    return stack[0]


def _float_bits(value: int, bits: int) -> int:
    """The bits of the IEEE float of ``bits`` bits nearest to ``value`` (numpy rounds
    to nearest even, and overflows to infinity as the conversion does)."""
    with np.errstate(over="ignore"):
        return int(np.array(value, np.float64).astype(f"f{bits // 8}").view(f"u{bits // 8}"))


# ---------------------------------------------------------------------------------------
# Symbols and plan steps


@dataclass(frozen=True)
class Symbol:
    """Symbol ``id`` of a dataflow: an expression over the dataflow's parameters."""

    id: int
    name: str
    expr: Expr


@dataclass(frozen=True)
class Allocate:
    """Prepare: reserve ``size`` bytes of memory kind ``memory``; leaf ``("alloc", k)``
    of the k-th Allocate is its address."""

    memory: str
    size: int
    alignment: int


@dataclass(frozen=True)
class InitTransfer:
    """Prepare: place dataflow ``dataflow``'s programs on their units."""

    dataflow: int


@dataclass(frozen=True)
class ComputeOnHost:
    """Launch: bind dataflow ``dataflow``'s parameters to ``args`` and evaluate its symbols."""

    dataflow: int
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class DataTransfer:
    """Launch: write the symbol values into the dataflow's code on the device."""

    dataflow: int


@dataclass(frozen=True)
class ComputeOnDevice:
    """Launch: run every program of the dataflow and wait for all of them."""

    dataflow: int


@dataclass(frozen=True)
class Loop:
    """Launch: ``for loop var in range(lower, upper, step)``, running ``body`` each time."""

    var: int
    lower: Expr
    upper: Expr
    step: Expr
    body: tuple[Step, ...]


Step = Allocate | InitTransfer | ComputeOnHost | DataTransfer | ComputeOnDevice | Loop

MAX_LAUNCH_TRIPS = 1 << 24
"""Iterations the loops of a launch plan may run, nested loops multiplied: a damaged
package cannot keep the host looping (checked on load for constant bounds, at launch
for the others)."""


def trips(lower: int, upper: int, step: int) -> int:
    """Iterations of ``range(lower, upper, step)`` for a positive ``step``."""
    return max(0, -(-(upper - lower) // step))
