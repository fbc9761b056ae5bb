"""``chain-matrix-products``: consecutive products of the matrix unit into the same
accumulators chained in its registers, not stored and loaded again between them.

``contraction-pipeline`` multiplies each block of accumulators chunk by chunk, each
product a generic accumulating into the block in the unit's memory, which
``convert-ktdf-to-dfir`` lowers to a load of the block, a ``dfir.matmul`` and a store
of its result; ``unroll-short-loops`` lays the chunks of a k tile out one after
another. The store of a product waits for it to leave the unit (its fill and drain
after its steps: 16 cycles after a 256-cycle product on spyre), and the load of the
next reads it back, so the unit idles between the two. Fed the previous product's
result directly, the next product follows it down the unit's pipeline at once (the
simulator's rule for a ``vmma`` accumulating into the unit's previous result,
``docs/simulator.md``), and only the last product of the run is stored. The values are
the same: the store and the load move the accumulator type's bits unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import is_side_effect_free

from ktc.dialects import dfir
from ktc.passes.utils.ir import erase_unused


@dataclass(frozen=True)
class ChainMatrixProducts(ModulePass):
    """Chain the matrix unit's products into the same accumulators.

    Expects DataflowIR (after ``unroll-short-loops``). In every block of a
    ``dfir.program``, a ``dfir.store`` of a ``dfir.matmul``'s result into a view,
    followed, with only FIFO receives, views and ops without effects or regions between,
    by a ``dfir.load`` of an equal view (the same memory, address, type and indices)
    that is the accumulator of a ``dfir.matmul`` whose result is stored into an equal
    view in the same block: the load's result replaced by the stored value, the load
    and the store erased (and the views left unused). Anything else is unchanged; with
    no such pair left, running the pass again changes nothing.
    """

    name = "chain-matrix-products"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blocks = [block for program in op.walk() if isinstance(program, dfir.ProgramOp)
                  for inner in program.walk() for region in inner.regions for block in region.blocks]
        for block in dict.fromkeys(blocks):
            for store in [o for o in block.ops if _stores_product(o)]:
                load = _reloaded(store)
                if load is not None:
                    _chain(store, load)


def _stores_product(op: Operation) -> bool:
    return isinstance(op, dfir.StoreOp) and isinstance(op.value.owner, dfir.MatmulOp)


def _reloaded(store: dfir.StoreOp) -> dfir.LoadOp | None:
    """The load of what ``store`` wrote that the next product of the block accumulates
    from, with only receives, views and effect-free ops between, when that product's
    result is stored back into the same place; else None."""
    after = store.next_op
    while after is not None and not isinstance(after, dfir.LoadOp):
        if not isinstance(after, dfir.ReceiveOp | dfir.ViewOp) and (
                after.regions or not is_side_effect_free(after)):
            return None
        after = after.next_op
    if after is None or not _same_place(store, after):
        return None
    users = [use.operation for use in after.result.uses]
    if len(users) != 1 or not isinstance(users[0], dfir.MatmulOp) or users[0].acc is not after.result:
        return None
    stored_again = [use.operation for use in users[0].result.uses
                    if isinstance(use.operation, dfir.StoreOp) and use.operation.parent is store.parent]
    return after if any(_same_place(store, again) for again in stored_again) else None


def _same_place(a: dfir.StoreOp | dfir.LoadOp, b: dfir.StoreOp | dfir.LoadOp) -> bool:
    """Whether two accesses touch the same elements: equal views (one memory, one
    address value, one type) at the same indices."""
    first, second = a.view.owner, b.view.owner
    if not isinstance(first, dfir.ViewOp) or not isinstance(second, dfir.ViewOp):
        return False
    return (first.memory is second.memory and first.address is second.address
            and not first.sizes and not second.sizes and first.view.type == second.view.type
            and list(a.indices) == list(b.indices))


def _chain(store: dfir.StoreOp, load: dfir.LoadOp) -> None:
    """The next product fed ``store``'s value; ``store`` and ``load`` gone."""
    views = [store.view.owner, load.view.owner]
    load.result.replace_all_uses_with(store.value)
    Rewriter.erase_op(load)
    Rewriter.erase_op(store)
    erase_unused(views)

