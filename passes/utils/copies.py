"""A copy streamed through the scratchpad: one loop over the points of the copy's outer
dimensions (``flat_loop``) around a pipeline of two stages that share a private
scratchpad buffer of one piece (``staged_copy``): the first reads the piece into the
buffer, the second writes it out. ``double-buffering`` then gives the buffer two copies,
so that a piece is read while the one before is written, and ``stage-coarsening`` moves
as many pieces per step as ``tile-size-selection`` finds room for.

``indirect-access-lowering`` streams a copy of an indirect tile so, one run of the
tile per point; ``stream-copies`` a copy between direct tiles, one block of trailing
dimensions per point.
"""

from collections.abc import Callable, Sequence
from math import prod

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, MemRefType, StringAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ktc.dialects import ktdf
from ktc.dialects.upstream import ApplyOp


def flat_loop(outer: Sequence[int], inner: int,
              body: Callable[[list[SSAValue]], list[Operation]]) -> list[Operation]:
    """One ``scf.for`` over the points of the extents ``outer`` in row-major order
    around ``body`` of the points: each outer coordinate split out of the loop's
    variable by ``affine.apply``, then 0 for each of ``inner`` trailing dimensions (one
    loop, not a nest, so that a later pass may take any number of points per step)."""
    zero, one = (arith.ConstantOp.from_int_and_width(v, IndexType()) for v in (0, 1))
    count = arith.ConstantOp.from_int_and_width(prod(outer), IndexType())
    block = Block(arg_types=[IndexType()])
    ops: list[Operation] = []
    linear = AffineExpr.dimension(0)
    for depth in range(len(outer)):
        below = prod(outer[depth + 1:])
        expr = linear // below if below > 1 else linear
        expr = expr % outer[depth] if depth else expr
        ops.append(ApplyOp([block.args[0]], AffineMapAttr(AffineMap(1, 0, (expr,)))))
    points = [*(op.results[0] for op in ops), *([zero.result] * inner)]
    block.add_ops([*ops, *body(points), scf.YieldOp()])
    return [zero, one, count, scf.ForOp(zero.result, count.result, one.result, [], Region(block))]


Move = Callable[[SSAValue], list[Operation]]
"""The ops of one stage, given the staging buffer: those computing an address, then
the ``ktdf.data_transfer`` into (or out of) the buffer."""


def staged_copy(element: Attribute, sizes: Sequence[int], scratchpad: str,
                engines: tuple[str, str], read: Move, write: Move) -> ktdf.PipelineOp:
    """A pipeline of two stages sharing a private buffer of ``element``s of ``sizes`` in
    the memory kind ``scratchpad``: ``read`` on the first engine of ``engines`` fills
    it, ``write`` on the second empties it."""
    staging = memref.AllocOp([], [], MemRefType(element, list(sizes),
                                                memory_space=StringAttr(scratchpad)))
    staging.memref.name_hint = "run"
    tokens = [ktdf.CreateTokenOp(), ktdf.CreateTokenOp()]
    private = ktdf.PrivateOp([staging.memref.type, *(t.result.type for t in tokens)],
                             [staging, *tokens,
                              ktdf.PrivateYieldOp(staging.memref, *(t.result for t in tokens))])
    buffer, ready, done = private.resources
    first = ktdf.StageOp([], [ready], read(buffer), [StringAttr(engines[0])])
    second = ktdf.StageOp([ready], [done], write(buffer), [StringAttr(engines[1])])
    return ktdf.PipelineOp([private, first, second])
