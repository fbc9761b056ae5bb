"""``normalize-scf-for-loops``: every ``scf.for`` counts from 0 in steps of 1."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ktc.passes.utils.loops import normalize


@dataclass(frozen=True)
class NormalizeScfForLoops(ModulePass):
    """Rewrite every ``scf.for`` to start at 0 and step by 1 (IBM's
    normalize-scf-for-loops).

    Expects any IR; loops with ``iter_args`` too, bounds of any integer type.
    Produces each loop as ``scf.for %i = %c0 to %trips step %c1``, where
    ``%trips = ceildivsi(ub - lb, step)`` (folded to a constant when the bounds
    are constants) is computed above the enclosing loops it does not depend on,
    so that perfect nests stay perfect. Each block that used the old index gets
    ``lb + %i * step`` with ``arith.muli``/``arith.addi`` just before its first use.
    Attributes (``loop_type``) stay. Already normalized loops are left alone, so the
    pass is idempotent.
    """

    name = "normalize-scf-for-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in [o for o in op.walk() if isinstance(o, scf.ForOp)]:
            normalize(loop)
