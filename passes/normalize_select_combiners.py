"""``normalize-select-combiners``: a reduction that keeps the larger (or smaller) of
the accumulator and a term by ``arith.cmpf`` + ``arith.select`` combines with
``arith.maxnumf`` (``arith.minnumf``) instead.

A body ``out' = select(cmpf(p, t, out), t, out)`` with ``p`` one of ``ogt oge ugt
uge`` keeps the larger value; with ``olt ole ult ule`` the smaller; the operands of
the compare swapped, or those of the select, turn one into the other. Without NaNs
the two spellings give the same value in any fold order (ties keep an equal value),
so the pipeline's one-op reductions (``passes/analysis/reductions.py``) compile it.
With a NaN term they differ: ``maxnumf`` skips it, the select keeps or drops it
depending on where the fold meets it (``docs/kernels.md``).
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ktc.dialects.upstream import ReduceOp
from ktc.passes.analysis.reductions import extremum_of


@dataclass(frozen=True)
class NormalizeSelectCombiners(ModulePass):
    """Rewrites compare-and-select reduction bodies into one max or min.

    Expects KTIR kernels (after ``ktir-legality-check``): ``linalg.reduce`` and
    reduction ``linalg.generic``s with one output. Produces the same reductions, each
    body that yields ``select(cmpf(p, a, b), a, b)`` over the accumulator and one
    other value (``a``, ``b`` in either order) yielding ``maxnumf`` or ``minnumf`` of
    them instead (the compare and select erased when nothing else reads them). Other
    bodies, and bodies already normalized, are left as they are (idempotent).
    """

    name = "normalize-select-combiners"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for reduction in [o for o in op.walk() if _is_reduction(o)]:
            block = reduction.regions[0].block
            replacement = extremum_of(block)
            if replacement is None:
                continue
            select = block.last_op.operands[0].owner
            compare = select.operands[0].owner
            Rewriter.replace_op(select, replacement)
            if not compare.results[0].uses:
                Rewriter.erase_op(compare)


def _is_reduction(op: Operation) -> bool:
    if isinstance(op, ReduceOp):
        return len(op.results) == 1
    return (
        isinstance(op, GenericOp)
        and len(op.outputs) == 1
        and any(t.data == IteratorType.REDUCTION for t in op.iterator_types.data)
    )
