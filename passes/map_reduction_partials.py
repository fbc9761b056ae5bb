"""``map-reduction-partials``: the vector partial of a streamed reduction lives in the
compute engine's own memory instead of travelling as a tensor ``iter_args``.

IBM's version is ``MapReductionPartials.cpp`` (§1.1 item 15 of the anchor study); it
names ``SFU_REG`` through its ``GroupLocalMemory`` view. Here the memory comes from
the device model: the deepest memory kind defined beside the compute engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from ktc.arch.model import Device, device_of
from ktc.dialects.diagnostics import located
from ktc.dialects.ktdf import (
    LoopType,
    PipelineOp,
    ReadFromFifoOp,
    StageOp,
    WriteToFifoOp,
    loop_type,
)
from ktc.dialects.upstream import ForOp
from ktc.passes.utils.resources import add_resources
from xdsl.context import Context
from xdsl.dialects import memref, scf, tensor
from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr, TensorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter


@dataclass(frozen=True)
class MapReductionPartials(ModulePass):
    """Move reduction partials out of ``iter_args`` into group-local memory.

    Expects the form ``reduction-loop-exposure`` produces: in a compute stage, an
    ``scf.for {loop_type = reduction_loop}`` with one tensor ``iter_args`` seeded by
    a fill ``linalg.generic`` (no inputs, yields a constant), whose body reads FIFO
    slots and ends in a ``linalg.generic`` accumulating into that argument.

    Produces: a ``memref.alloc`` of the partial's shape in the memory local to the
    compute engine (the deepest of the engine's ``local_memories`` in the arch file,
    e.g. ``SFU_REG``; the scratchpad when it has none), handed out by the
    pipeline's ``ktdf.private``; the fill and the accumulating generic write that
    buffer in place (buffer semantics, no results); the loop's FIFO reads give
    memrefs; the loop has no ``iter_args``; what used the loop's result reads the
    buffer. Loops of any other form are left unchanged.
    """

    name = "map-reduction-partials"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loops = [loop for loop in op.walk() if _accumulates(loop)]
        if not loops:
            return
        space = StringAttr(local_memory(device_of(op)))
        for loop in loops:
            _map(loop, space)


def local_memory(device: Device) -> str:
    """The memory kind the compute engine keeps partials in."""
    local = device.compute.local_memories
    if not local:
        return device.scratchpad
    return max(local, key=lambda kind: device.memory(kind).depth)


def _accumulates(loop: Operation) -> bool:
    """A streamed reduction loop of the form this pass maps."""
    if not isinstance(loop, ForOp) or loop_type(loop) != LoopType.REDUCTION_LOOP:
        return False
    if len(loop.iter_args) != 1 or not isinstance(loop.iter_args[0].type, TensorType):
        return False
    stage, pipeline = loop.parent_op(), loop.parent_op() and loop.parent_op().parent_op()
    if not isinstance(stage, StageOp) or not isinstance(pipeline, PipelineOp) or pipeline.private is None:
        return False
    seed = loop.iter_args[0].owner
    if not _is_fill(seed):
        return False
    yielded = loop.body.block.last_op.operands[0].owner
    finish = [use.operation for use in loop.results[0].uses]
    return (
        isinstance(yielded, GenericOp)
        and list(yielded.outputs) == [loop.body.block.args[1]]
        and all(isinstance(v.owner, ReadFromFifoOp) for v in yielded.inputs)
        and len(finish) == 1
        and isinstance(finish[0], GenericOp)
        and all(isinstance(use.operation, WriteToFifoOp) for use in finish[0].results[0].uses)
        and _is_fill(finish[0].outputs[0].owner)
    )


def _is_fill(op: Operation) -> bool:
    """A generic with no inputs used once: a fill this pass can write in place."""
    return isinstance(op, GenericOp) and not op.inputs and len(list(op.results[0].uses)) == 1


def _map(loop: ForOp, space: Attribute) -> None:
    """Give ``loop``'s partial a buffer in ``space`` and accumulate into it in place."""
    pipeline = loop.parent_op().parent_op()
    finish = next(iter(loop.results[0].uses)).operation
    allocs = [memref.AllocOp([], [], _buffer_type(v.type, space)) for v in (loop.results[0], finish.results[0])]
    buffer, result = add_resources(pipeline, allocs)
    body = loop.body.block
    step = body.last_op.operands[0].owner
    Rewriter.erase_op(body.last_op)
    body.add_op(scf.YieldOp())
    for value in step.inputs:
        _read_buffer(value.owner, space)
    _in_place(step, buffer)
    seed = loop.iter_args[0].owner
    new = ForOp(loop.lb, loop.ub, loop.step, [], loop.body.detach_block(0))
    new.body.block.erase_arg(new.body.block.args[1], safe_erase=False)
    new.attributes |= loop.attributes
    Rewriter.insert_op(new, InsertPoint.before(loop))
    loop.results[0].replace_all_uses_with(buffer)
    Rewriter.erase_op(loop)
    _in_place(seed, buffer)
    init = finish.outputs[0].owner
    for use in list(finish.results[0].uses):
        use.operation.operands[use.index] = result
    _in_place(finish, result)
    _in_place(init, result)


def _buffer_type(data: TensorType, space: Attribute) -> MemRefType:
    return MemRefType(data.get_element_type(), data.get_shape(), memory_space=space)


def _in_place(generic: GenericOp, buffer: SSAValue) -> None:
    """``generic`` writing ``buffer`` instead of producing a tensor."""
    replacement = located(GenericOp(
        generic.inputs, [buffer], generic.body.clone(), generic.indexing_maps, generic.iterator_types
    ), generic)
    Rewriter.insert_op(replacement, InsertPoint.before(generic))
    seeds = [value.owner for value in generic.outputs]
    Rewriter.erase_op(generic, safe_erase=False)
    for seed in seeds:
        if isinstance(seed, tensor.EmptyOp) and not seed.tensor.uses:
            Rewriter.erase_op(seed)


def _read_buffer(read: ReadFromFifoOp, space: Attribute) -> None:
    """``read`` giving a memref in ``space`` instead of a tensor."""
    Rewriter.replace_op(read, located(ReadFromFifoOp(read.fifo_slot,
                                                     _buffer_type(read.result.type, space)), read))
