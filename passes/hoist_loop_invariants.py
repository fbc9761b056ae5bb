"""``hoist-loop-invariants``: an engine's work that no iteration of a loop changes
runs once, before the loop.

Expects DataflowIR (``convert-ktdf-to-dfir``'s output); produces the same, with ops
moved. In every ``dfir.program``, loops innermost first: the ops of an ``scf.for``'s
body that have no effects, are speculatable and have no regions, and whose operands
are defined before the loop (or by ops moved with them), move in their order to just
before the loop: a row's scale splatted and put through rsqrt for each of the row's
vectors, an address part of the core's rank. FIFO reads and writes, DMAs, signals,
divisions and whatever depends on the loop's index or carried values stay.

A moved op's results are live for the whole loop, and the engine has no spills, so
the ops move chain by chain (an op whose result an op that stays reads, with the ops
before it it needs), each only when the loop then reads no more values from outside
it in any register file (``dfir.register_file``) than it did before: a chain from a
row's value to its scale moves (one value read from outside for another), a hundred
constants each read by an op that stays do not. So the pass needs no register count:
what a loop holds from outside never grows, and a program the register files held
before still fits (the chain's own values, made before the loop, were made inside it
before, beside the same values from outside)."""

from __future__ import annotations

from collections import Counter

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free, is_speculatable

from ktc.dialects import dfir


class HoistLoopInvariants(ModulePass):
    name = "hoist-loop-invariants"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for program in [p for p in op.walk() if isinstance(p, dfir.ProgramOp)]:
            for loop in reversed([o for o in program.walk() if isinstance(o, scf.ForOp)]):
                for each in hoisted(loop):
                    each.detach()
                    Rewriter.insert_op(each, InsertPoint.before(loop))


def hoisted(loop: scf.ForOp) -> list[Operation]:
    """The invariant ops of ``loop`` to move, chain by chain while the loop's demand
    for values from outside does not grow in any register file, in order."""
    candidates = invariants(loop)
    within = set(candidates)
    chosen: set[Operation] = set()
    demand = pressure(loop, chosen)
    for root in candidates:
        if all(use.operation in within for result in root.results for use in result.uses):
            continue
        trial = chosen | chain(root, within)
        after = pressure(loop, trial)
        if not after - demand:
            chosen, demand = trial, after
    return [op for op in candidates if op in chosen]


def chain(root: Operation, within: set[Operation]) -> set[Operation]:
    """``root`` and the ops of ``within`` it reads from, directly or not."""
    found, stack = set(), [root]
    while stack:
        op = stack.pop()
        if op in found:
            continue
        found.add(op)
        stack.extend(o.owner for o in op.operands if o.owner in within)
    return found


def invariants(loop: scf.ForOp) -> list[Operation]:
    """The ops of ``loop``'s body that can run once before it, in order."""
    inside = defined_in(loop)
    moved: list[Operation] = []
    for op in loop.body.block.ops:
        if op.regions or not is_side_effect_free(op) or not is_speculatable(op):
            continue
        if all(operand not in inside for operand in op.operands):
            moved.append(op)
            inside.difference_update(op.results)
    return moved


def defined_in(loop: scf.ForOp) -> set[SSAValue]:
    """Every value ``loop`` defines: its ops' results and its blocks' arguments."""
    values: set[SSAValue] = set()
    for region in loop.regions:
        for op in region.walk():
            values.update(op.results)
            for inner in op.regions:
                for block in inner.blocks:
                    values.update(block.args)
        for block in region.blocks:
            values.update(block.args)
    return values


def pressure(loop: scf.ForOp, moved: set[Operation]) -> Counter[str]:
    """Per register file, the values from outside ``loop`` its ops read when the ops
    ``moved`` run before it instead."""
    inside = defined_in(loop).difference(r for op in moved for r in op.results)
    outside = {operand for region in loop.regions for op in region.walk() if op not in moved
               for operand in op.operands if operand not in inside}
    return Counter(dfir.register_file(value.type) for value in outside)
