"""Symbol evaluation: a stack machine over 64-bit integers with the semantics of MLIR's
arith ops (signed division truncates, floor division floors, unsigned ops read two's
complement as unsigned, results wrap), and a KtcError for a division by zero."""

import pytest

from ktc.codegen import integer
from ktc.codegen.plan import BINARY, TERNARY, check, evaluate
from ktc.errors import KtcError


def test_every_operator_has_an_evaluation():
    assert set(BINARY) == set(integer.BINARY)
    assert TERNARY == ("select",)


@pytest.mark.parametrize("expr, value", [
    ((-7, 2, "divsi"), -3),
    ((-7, 2, "floordivsi"), -4),
    ((-7, 2, "ceildivsi"), -3),
    ((7, 2, "ceildivsi"), 4),
    ((-7, 2, "remsi"), -1),
    ((-7, 3, "floormod"), 2),
    ((-1, 2, "divui"), 2**63 - 1),
    ((-1, 0, "minui"), 0),
    ((-1, 1, "maxsi"), 1),
    ((2**62, 4, "mul"), 0),
    ((2**63 - 1, 1, "add"), -(2**63)),
    ((1, 70, "shl"), 0),
    ((-8, 1, "shrsi"), -4),
    ((-8, 1, "shrui"), 2**63 - 4),
    ((-1, 1, "cmp.ult"), 0),
    ((-1, 1, "cmp.slt"), 1),
    ((1, 10, 20, "select"), 10),
    ((0, 10, 20, "select"), 20),
    ((2**32 + 5, ("wrap", 32)), 5),
    ((2**31, ("wrap", 32)), -(2**31)),
    ((-1, ("zext", 32)), 2**32 - 1),
    ((8192, ("sitofp", 16)), 0x7000),  # 2^13 in f16
    ((2049, ("sitofp", 16)), 0x6800),  # between two f16s: to even, 2048
    ((-3, ("sitofp", 32)), 0xC0400000),
    ((-1, ("uitofp", 16)), 0x7C00),  # 2^64 - 1 overflows f16: infinity
    ((70000, ("sitofp", 16)), 0x7C00),
])
def test_values(expr, value):
    assert check(expr, {}) is None
    assert evaluate(expr, {}) == value


def test_leaves():
    expr = (("param", 0), ("param", 1), 64, "mul", "add", 2, "mul")
    assert evaluate(expr, {"param": (1000, 6)}) == (1000 + 6 * 64) * 2


def test_division_by_zero():
    with pytest.raises(KtcError, match="divides by zero"):
        evaluate((("arg", 0), 0, "remui"), {"arg": (3,)})


@pytest.mark.parametrize("expr, problem", [
    ((), "non-empty"),
    (("add",), "lacks operands"),
    ((1, 2), "leaves 2 values"),
    ((("arg", 1),), "no arg 1"),
    ((("loop", 0),), "no loop 0"),
    ((True,), "unknown token"),
    ((1, ("wrap", 65)), "bad width 65"),
    ((2**64,), "does not fit"),
    (([1, 2, 3],), "unknown token"),
])
def test_malformed(expr, problem):
    assert problem in check(expr, {"arg": range(1)})
