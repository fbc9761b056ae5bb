"""``lower-parallel-loops``: an ``scf.parallel`` or ``scf.forall`` is a nest of
``scf.for`` loops.

The iterations of a parallel loop carry no dependences, so running them one after
another, in row-major order of the induction variables, is one of the orders the loop
allows; an ``scf.reduce`` combines each iteration's value into an accumulator, which a
loop nest carries as ``iter_args`` from the initial values, combining in that order.
The rest of the pipeline then sees the loops it schedules (``parallelize-loops-across-
instances`` spreads loops without carried values over instances again).
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.upstream import ForallOp

Bounds = list[tuple[SSAValue, SSAValue, SSAValue]]
Finish = Callable[[Block, list[SSAValue], dict[SSAValue, SSAValue]], list[SSAValue]]
"""Fills the innermost loop's block (given its accumulators and the map from the
parallel loop's values to the new ones) and gives the values it yields."""


@dataclass(frozen=True)
class LowerParallelLoops(ModulePass):
    """Rewrites every ``scf.parallel`` and ``scf.forall`` as a nest of ``scf.for`` loops.

    Expects KTIR before ``ktir-legality-check``, which refuses ``scf.parallel``.
    Produces, for each parallel loop, one ``scf.for`` per induction variable, the first
    outermost, over its lower bound, upper bound and step (a ``scf.forall`` constant an
    ``arith.constant`` before the nest). For ``scf.parallel`` each loop carries one
    ``iter_arg`` per ``scf.reduce`` operand (from the initial values); the innermost
    holds the body and, per operand, its reduction region inlined on the accumulator
    and the operand (``scf.reduce.return`` becomes the yielded value); the nest's
    results replace the loop's. An ``scf.forall`` with ``shared_outs`` is refused at
    the op (its iterations would assemble a tensor; store each piece with
    ``ktdp.store`` instead). Nested parallel loops are lowered innermost first; a module
    without one is unchanged (idempotent).
    """

    name = "lower-parallel-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loops = [o for o in op.walk() if isinstance(o, scf.ParallelOp | ForallOp)]
        for loop in reversed(loops):
            if isinstance(loop, ForallOp):
                _lower_forall(loop)
            else:
                bounds = list(zip(loop.lowerBound, loop.upperBound, loop.step))
                nest = _nest(loop, bounds, 0, list(loop.initVals), {}, partial(_reduced, loop))
                Rewriter.replace_op(loop, nest)


def _lower_forall(loop: ForallOp) -> None:
    if loop.outputs:
        raise KtcError(
            "'scf.forall' has shared_outs: its iterations assemble a tensor, which the "
            "compiler does not do; store each iteration's piece with ktdp.store instead",
            where(loop),
        )
    constants: list[Operation] = []

    def value(bound: int | SSAValue) -> SSAValue:
        if isinstance(bound, SSAValue):
            return bound
        constants.append(arith.ConstantOp(IntegerAttr(bound, IndexType())))
        return constants[-1].result

    bounds = [tuple(value(b) for b in trio) for trio in loop.bounds()]
    Rewriter.insert_op(constants, InsertPoint.before(loop))
    Rewriter.replace_op(loop, _nest(loop, bounds, 0, [], {}, partial(_body_only, loop)))


def _body_only(loop: ForallOp, body: Block, accumulators: list[SSAValue],
               mapping: dict[SSAValue, SSAValue]) -> list[SSAValue]:
    """A ``scf.forall``'s body cloned into ``body``; it yields nothing."""
    _cloned(loop.body.block, body, mapping)
    return []


def _nest(loop: Operation, bounds: Bounds, dim: int, carried: list[SSAValue],
          mapping: dict[SSAValue, SSAValue], finish: Finish) -> scf.ForOp:
    """The ``scf.for`` over induction variable ``dim`` of ``loop`` and, inside it, the
    loops over the next ones; ``mapping`` takes the outer variables to the new ones."""
    iv = loop.regions[0].block.args[dim]
    body = Block(arg_types=[iv.type, *(v.type for v in carried)])
    body.args[0].name_hint = iv.name_hint
    mapping = {**mapping, iv: body.args[0]}
    accumulators = list(body.args[1:])
    if dim + 1 < len(bounds):
        inner = _nest(loop, bounds, dim + 1, accumulators, mapping, finish)
        body.add_op(inner)
        combined = list(inner.results)
    else:
        combined = finish(body, accumulators, dict(mapping))
    body.add_op(scf.YieldOp(*combined))
    new = scf.ForOp(*bounds[dim], carried, Region(body))
    new.location = loop.location
    return new


def _cloned(block: Block, body: Block, mapping: dict[SSAValue, SSAValue]) -> None:
    """The ops of ``block`` but its terminator cloned into ``body`` (``mapping``
    extended with their results)."""
    for op in block.ops:
        if op is not block.last_op:
            body.add_op(op.clone(mapping))


def _reduced(loop: scf.ParallelOp, body: Block, accumulators: list[SSAValue],
             mapping: dict[SSAValue, SSAValue]) -> list[SSAValue]:
    """The parallel body cloned into ``body`` and each value it reduces combined into
    its accumulator by the reduction's region; the combined values."""
    _cloned(loop.body.block, body, mapping)
    reduce = loop.body.block.last_op
    return [
        _combine(region, accumulator, mapping.get(value, value), body)
        for region, accumulator, value in zip(reduce.reductions, accumulators, reduce.args)
    ]


def _combine(region: Region, accumulator: SSAValue, value: SSAValue, body: Block) -> SSAValue:
    """``region`` (two arguments, the accumulator then the value) inlined into ``body``;
    the value its ``scf.reduce.return`` returns."""
    mapping = {region.block.args[0]: accumulator, region.block.args[1]: value}
    _cloned(region.block, body, mapping)
    result = region.block.last_op.operands[0]
    return mapping.get(result, result)
