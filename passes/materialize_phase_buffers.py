"""``materialize-phase-buffers``: a program that holds loops becomes phases that hand
tensors over through scratchpad buffers, so that later passes build each phase's
pipelines on their own.

IBM's ``ConstructThreeStagePipeline.cpp`` asserts a straight-line program; a program
holding ``scf.for`` loops (an accumulation over column blocks with ``iter_args``)
needs its tensors in memory between the loops, as the pipelines will leave them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, tensor
from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr, TensorType
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import attr_text
from ktc.dialects.upstream import ForOp
from ktc.passes.utils.phases import PhaseEnds, bodies, compute_loops, programs
from ktc.passes.utils.tiles import box_tile, origin


@dataclass(frozen=True)
class MaterializePhaseBuffers(ModulePass):
    """Hand tensors over between the phases of every program through buffers.

    Expects the form ``compute-group-extraction`` produces: programs are
    ``func.func``s (in ``module @local_schedule_N``) that load access tiles with
    ``ktdp.load``, compute on tensors and store with ``ktdp.store``, in straight-line
    code or in ``scf.for`` loops (with or without ``iter_args``) and ``scf.if``
    without results; a device declaration. A function that stores nothing is left
    alone.

    Produces, in each program, phases: the straight-line runs of ops between the
    ops that hold compute (loops and ``scf.if`` holding loads, stores or tensor
    compute, and pipelines already built, such as ``inter-tile-reduce-lowering``'s
    copy between cores). A tensor one phase makes and another uses is stored to a
    buffer of its shape in the device's scratchpad (``memref.alloc`` at the
    program's start with a ``ktdp.construct_access_tile`` of all of it) right after
    it is made, and loaded where it is used (a use in a linalg body where its op
    runs); a splat, a constant, an empty tensor, an extracted element or a scalar
    ``arith``/``math`` op on one is made again there instead. An ``iter_args`` loop keeps its
    accumulators in such buffers (stored before the loop and at the end of each
    iteration, loaded at the start of each and after the loop), loses its
    ``iter_args`` and is marked ``{loop_type = #ktdf.loop_type<reduction_loop>}``.
    Afterwards every tensor is used in the phase that makes it, and running the pass
    again changes nothing. A loop carrying anything but tensors, and compute in any
    other region, is an error.
    """

    name = "materialize-phase-buffers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        stored = programs(op)
        if not stored:
            return
        scratchpad = device_of(op).scratchpad
        for program in stored:
            entry = program.body.block
            _materialize(entry, _Buffers(entry, scratchpad))


@dataclass
class _Buffers:
    """Scratchpad buffers of a program, allocated at its start."""

    entry: Block
    memory: str
    """The scratchpad memory kind."""
    anchor: Operation = field(init=False)
    """The program's first op: buffers go before it, in the order they are made."""

    def __post_init__(self) -> None:
        self.anchor = self.entry.first_op

    def tile(self, value: SSAValue) -> SSAValue:
        """A new buffer holding a tensor like ``value``: the access tile of all of it."""
        shape = value.type.get_shape()
        alloc = memref.AllocOp(
            [],
            [],
            MemRefType(value.type.get_element_type(), shape, memory_space=StringAttr(self.memory)),
        )
        if value.name_hint:
            alloc.memref.name_hint = f"{value.name_hint}_buffer"
        tile = box_tile(alloc.memref, origin(len(shape)), [], shape)
        Rewriter.insert_op([alloc, tile], InsertPoint.before(self.anchor))
        return tile.result


def _materialize(block: Block, buffers: _Buffers) -> None:
    """Give each loop of ``block`` its accumulators in buffers, hand tensors over
    between phases, then do the same in the loops' bodies."""
    for loop in compute_loops(block):
        if isinstance(loop, scf.ForOp) and loop.iter_args:
            _accumulate_in_buffers(loop, buffers)
    ends = PhaseEnds(block)
    for op in reversed(list(block.ops)):
        for value in op.results:
            if isinstance(value.type, TensorType) or _element_scalar(op):
                _hand_over(block, value, buffers, ends)
    for loop in compute_loops(block):
        for body in bodies(loop):
            _materialize(body, buffers)


def _accumulate_in_buffers(loop: scf.ForOp, buffers: _Buffers) -> None:
    """Replace ``loop`` by one without ``iter_args``: each accumulator lives in a buffer,
    stored before the loop and at the end of each iteration, loaded at the start of
    each iteration and after the loop."""
    body = loop.body.block
    terminator = body.last_op
    for arg, init, result, update in zip(
        body.args[1:], loop.iter_args, loop.results, terminator.operands
    ):
        if not isinstance(arg.type, TensorType):
            raise KtcError(
                f"'scf.for' carries a {attr_text(arg.type)}; the pipeline hands over tensors only",
                where(loop),
            )
        tile = buffers.tile(arg)
        Rewriter.insert_op(_store(init, tile, loop), InsertPoint.before(loop))
        Rewriter.insert_op(_store(update, tile, terminator), InsertPoint.before(terminator))
        current = _load(tile, arg, loop)
        Rewriter.insert_op(current, InsertPoint.at_start(body))
        arg.replace_all_uses_with(current.result)
        after = _load(tile, result, loop)
        Rewriter.insert_op(after, InsertPoint.after(loop))
        result.replace_all_uses_with(after.result)
    for arg in body.args[1:]:
        body.erase_arg(arg)
    Rewriter.replace_op(terminator, scf.YieldOp())
    accumulating = ForOp(
        loop.lb, loop.ub, loop.step, [], Rewriter.move_region_contents_to_new_regions(loop.body)
    )
    accumulating.attributes |= loop.attributes
    ktdf.set_loop_type(accumulating, ktdf.LoopType.REDUCTION_LOOP)
    Rewriter.insert_op(accumulating, InsertPoint.before(loop))
    Rewriter.erase_op(loop)


def _hand_over(block: Block, value: SSAValue, buffers: _Buffers, ends: PhaseEnds) -> None:
    """Make ``value`` (a result of an op of ``block``) available where other phases use
    it: made again there if it is a splat, a constant, an extracted element or a
    scalar computed from one, or else stored to a buffer and loaded there."""
    producer = value.owner
    home = ends.of(producer)
    sites: dict[object, list[Operation]] = {}
    for use in value.uses:
        user = _placed(use.operation)
        site = ends.of(user) if user.parent_block() is block else user.parent_block()
        if site is not home:
            sites.setdefault(site, []).append(user)
    if not sites:
        return
    if isinstance(producer, tensor.EmptyOp | tensor.SplatOp | arith.ConstantOp) or _element_scalar(
        producer
    ):
        for users in sites.values():
            _replace_in(value, users, lambda first: producer.clone())
        return
    tile = buffers.tile(value)
    Rewriter.insert_op(_store(value, tile, producer), InsertPoint.after(producer))
    for users in sites.values():
        _replace_in(value, users, lambda first: _load(tile, value, first))


def _element_scalar(op: Operation) -> bool:
    """Whether ``op`` makes a scalar from elements of tensors: a ``tensor.extract``, or
    a scalar ``arith``/``math`` op on such a scalar (made again where it is used)."""
    if isinstance(op, tensor.ExtractOp):
        return True
    return (
        op.dialect_name() in ("arith", "math")
        and len(op.results) == 1
        and not op.regions
        and not isinstance(op.results[0].type, TensorType)
        and any(isinstance(v, OpResult) and _element_scalar(v.owner) for v in op.operands)
    )


def _replace_in(
    value: SSAValue, users: list[Operation], make: Callable[[Operation], Operation]
) -> None:
    """Insert ``make(first)`` before the first of ``users`` (all in one block) and make
    them use its result instead of ``value``."""
    first = next(op for op in users[0].parent_block().ops if op in users)
    replacement = make(first)
    Rewriter.insert_op(replacement, InsertPoint.before(first))
    value.replace_uses_with_if(replacement.results[value.index],
                               lambda use: _placed(use.operation) in users)


def _placed(op: Operation) -> Operation:
    """The op a use by ``op`` belongs to in its phase: ``op``, or the linalg op whose
    body holds it (a body runs where its op does)."""
    parent = op.parent_op()
    while parent is not None and parent.name.startswith("linalg."):
        op, parent = parent, parent.parent_op()
    return op


def _store(value: SSAValue, tile: SSAValue, at: Operation) -> ktdp.StoreOp:
    """A store of ``value`` to ``tile``, located where ``at`` was written."""
    store = ktdp.StoreOp.build(operands=[value, tile])
    store.location = at.location
    return store


def _load(tile: SSAValue, value: SSAValue, at: Operation) -> ktdp.LoadOp:
    """A load of ``tile`` into a tensor like ``value``, located where ``at`` was written."""
    load = ktdp.LoadOp.build(operands=[tile], result_types=[value.type])
    load.location = at.location
    load.result.name_hint = value.name_hint
    return load
