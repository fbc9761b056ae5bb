"""How the compute engine computes an ``arith.cmpf`` and the ``arith.select`` reading it:
what ``ktir-legality-check`` requires of the device and what ``convert-ktdf-to-dfir``
emits.

The engine's compare instructions (``cmp_eq cmp_ne cmp_gt cmp_ge cmp_lt cmp_le``) give
1 where the test holds and 0 elsewhere, with IEEE's rules for NaN: every test but
``cmp_ne`` fails on a NaN, so they are ``oeq une ogt oge olt ole``. The other
predicates are built from them (``Test``): ``one`` as ``olt`` or ``ogt`` (the larger
of the two masks), ``ord`` as ``a == a`` and ``b == b`` (the smaller), and each
unordered predicate as the complement of an ordered one (``ugt`` is not ``ole``),
which the select reading it honours by swapping its two values; ``false`` and
``true`` need no instruction. ``select`` picks its first value where the mask is
non-zero.

An engine without a ``select`` instruction selects by a blend of min and max
(``BLEND``). With ``m`` the 0/1 mask in the values' type, ``M = (m - 0.5) * inf`` is
``+inf`` where the condition holds and ``-inf`` where not (``m - 0.5`` is exactly
``+-0.5``; ``-M = (m - 0.5) * -inf``), and ``select(c, a, b) = max(min(a, M), min(b,
-M))``: where ``c`` holds ``max(min(a, inf), min(b, -inf)) = max(a, -inf) = a``,
elsewhere ``max(min(a, -inf), min(b, inf)) = max(-inf, b) = b``, exactly, for every
``a`` and ``b`` but NaN (infinities and signed zeros included: each min and max meets
an infinity, never two different zeros). A value that is an infinite constant leaves
one min or max: ``select(c, a, -inf) = min(a, M)`` (a causal mask),
``select(c, a, inf) = max(a, -M)``, ``select(c, -inf, b) = min(b, -M)``,
``select(c, inf, b) = max(b, M)``. Where the engine's min and max propagate NaN (the
simulator's do), a NaN reaches the result through the min it meets whichever value
is selected: the blend gives NaN wherever ``a`` or ``b`` is NaN, one min or max
wherever the value it reads is, where a select instruction gives the selected value.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from xdsl.dialects import arith
from xdsl.ir import Operation


@dataclass(frozen=True)
class Test:
    """A predicate as compare instructions: each term an instruction on a pair of the
    operands (0 the left, 1 the right), the terms' masks joined by ``join`` (``max``:
    either holds, ``min``: both); ``negated``: the mask holds where the predicate
    does not. No terms: a mask that never holds."""

    terms: tuple[tuple[str, int, int], ...]
    join: str | None = None
    negated: bool = False

    @property
    def instructions(self) -> frozenset[str]:
        """The compute instructions the test takes."""
        joins = {self.join} if self.join else set()
        return frozenset({name for name, _, _ in self.terms} | joins)


_DIRECT = {"oeq": "cmp_eq", "une": "cmp_ne", "ogt": "cmp_gt", "oge": "cmp_ge",
           "olt": "cmp_lt", "ole": "cmp_le"}

TESTS: dict[str, Test] = {
    "false": Test(()),
    **{predicate: Test(((name, 0, 1),)) for predicate, name in _DIRECT.items()},
    "one": Test((("cmp_lt", 0, 1), ("cmp_gt", 0, 1)), "max"),
    "ord": Test((("cmp_eq", 0, 0), ("cmp_eq", 1, 1)), "min"),
}
TESTS.update({
    predicate: replace(TESTS[complement], negated=True)
    for predicate, complement in (("true", "false"), ("ugt", "ole"), ("uge", "olt"),
                                  ("ult", "oge"), ("ule", "ogt"), ("ueq", "one"),
                                  ("uno", "ord"))
})
"""Every ``arith.cmpf`` predicate, by name."""

SELECT = "select"
"""The instruction an ``arith.select`` becomes where the engine has it."""

BLEND = frozenset({"sub", "mul", "min", "max"})
"""The instructions an ``arith.select`` becomes on an engine without ``select``."""


def test_of(compare: arith.CmpfOp) -> Test:
    """How ``compare``'s predicate is computed."""
    return TESTS[arith.CMPF_COMPARISON_OPERATIONS[compare.predicate.value.data]]


def instructions_of(op: Operation, available: Collection[str]) -> frozenset[str]:
    """The compute instructions an ``arith.cmpf`` or ``arith.select`` takes on an
    engine that has ``available``: a select ``select`` where it is one of them, else
    the blend's."""
    if isinstance(op, arith.CmpfOp):
        return test_of(op).instructions
    return frozenset({SELECT}) if SELECT in available else BLEND
