"""The integer semantics shared by host symbol expressions (``ktc.codegen.plan.evaluate``)
and the ISA's ``alu`` instruction (the simulator): one table, so the host and the
device compute the same values.

Values are signed 64-bit integers; ``BINARY`` results are wrapped by the caller.
Unsigned operators read their operands as unsigned 64-bit values; a shift amount is
read as unsigned, so one of 64 or more (a negative one included) shifts everything
out (``shrsi`` fills with the sign). The operators in ``DIVIDING`` must not be given
a zero divisor: each caller reports that in its own terms.
"""

from __future__ import annotations

from collections.abc import Callable

MASK = (1 << 64) - 1


def wrap(value: int, bits: int = 64) -> int:
    """``value`` as a signed integer of ``bits`` bits."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def unsigned(value: int) -> int:
    return value & MASK


def _div(a: int, b: int) -> int:
    """Signed division truncating toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _ceildiv(a: int, b: int) -> int:
    return -((-a) // b)


def _shift_right(a: int, b: int) -> int:
    """``a >> b`` for a shift amount read as unsigned."""
    return a >> min(unsigned(b), 63)


DIVIDING = frozenset(
    {"divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi", "floormod"}
)

BINARY: dict[str, Callable[[int, int], int]] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "divsi": _div,
    "divui": lambda a, b: unsigned(a) // unsigned(b),
    "remsi": lambda a, b: a - b * _div(a, b),
    "remui": lambda a, b: unsigned(a) % unsigned(b),
    "ceildivsi": _ceildiv,
    "ceildivui": lambda a, b: _ceildiv(unsigned(a), unsigned(b)),
    "floordivsi": lambda a, b: a // b,
    "floormod": lambda a, b: a % abs(b),
    "minsi": min,
    "maxsi": max,
    "minui": lambda a, b: min(unsigned(a), unsigned(b)),
    "maxui": lambda a, b: max(unsigned(a), unsigned(b)),
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "shl": lambda a, b: a << b if unsigned(b) < 64 else 0,
    "shrsi": _shift_right,
    "shrui": lambda a, b: unsigned(a) >> b if unsigned(b) < 64 else 0,
    "cmp.eq": lambda a, b: int(a == b),
    "cmp.ne": lambda a, b: int(a != b),
    "cmp.slt": lambda a, b: int(a < b),
    "cmp.sle": lambda a, b: int(a <= b),
    "cmp.sgt": lambda a, b: int(a > b),
    "cmp.sge": lambda a, b: int(a >= b),
    "cmp.ult": lambda a, b: int(unsigned(a) < unsigned(b)),
    "cmp.ule": lambda a, b: int(unsigned(a) <= unsigned(b)),
    "cmp.ugt": lambda a, b: int(unsigned(a) > unsigned(b)),
    "cmp.uge": lambda a, b: int(unsigned(a) >= unsigned(b)),
}
"""Each operator of ``ktc.codegen.plan.BINARY`` (the ALU's are a subset)."""
