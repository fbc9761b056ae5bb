"""``fold-view-strides``: a memory view's strides computed from constants are constants.

KTIR lets a kernel build a view's strides with ``arith`` (``%s = arith.muli %a, %b``
of constants); the compiled transfers need the strides of a view as numbers. A stride
operand whose value folds (``passes/utils/values.py: evaluate``, constants only, no
tile id) becomes that entry of ``static_strides`` and leaves the operand list; one that
depends on an argument stays an operand.
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, ModuleOp, i64
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ktc.dialects.ktdp import ConstructMemoryViewOp
from ktc.passes.utils.values import evaluate


@dataclass(frozen=True)
class FoldViewStrides(ModulePass):
    """Folds the constant dynamic strides of memory views into their static strides.

    Expects KTIR kernels as written, before ``ktir-legality-check`` (``ktdp.construct_memory_view``s
    whose strides are constants, constant expressions or expressions of arguments).
    Produces the same views with every dynamic stride whose value is a constant
    expression written as that constant in ``static_strides``; other strides and the
    ops computing them are left as they are (idempotent).
    """

    name = "fold-view-strides"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for view in [o for o in op.walk() if isinstance(o, ConstructMemoryViewOp)]:
            _fold(view)


def _fold(view: ConstructMemoryViewOp) -> None:
    folded = [evaluate(stride, []) for stride in view.strides]
    if all(value is None for value in folded):
        return
    values = iter(zip(view.strides, folded))
    static, kept = [], []
    for entry in view.static_strides.get_values():
        if entry != DYNAMIC_INDEX:
            static.append(entry)
            continue
        operand, value = next(values)
        static.append(DYNAMIC_INDEX if value is None else value)
        if value is None:
            kept.append(operand)
    properties = dict(view.properties)
    properties["static_strides"] = DenseArrayBase.from_list(i64, static)
    properties.pop("operandSegmentSizes", None)
    folded_view = ConstructMemoryViewOp.build(
        operands=[view.offset, list(view.sizes), kept], result_types=[view.result.type],
        properties=properties, attributes=dict(view.attributes))
    folded_view.location = view.location
    Rewriter.replace_op(view, folded_view)
