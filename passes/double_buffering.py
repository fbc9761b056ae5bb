"""``double-buffering``: buffers handed between stages inside a loop get two copies,
and the pipeline rotates between them from one iteration to the next."""

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import (
    FixedBitwidthType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    i64,
)
from xdsl.dialects.memref import AllocOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects.diagnostics import where
from ktc.dialects.ktdf import (
    BufferPhaseOp,
    DataTransferOp,
    ParallelOp,
    PipelineOp,
    SelectMemrefOp,
    StageOp,
    WriteToFifoOp,
)
from ktc.passes.utils.ir import defined_inside
from ktc.passes.utils.loops import static_trip_count
from ktc.passes.utils.resources import handed_out, remove_resources, stage_in

PHASES = 2
"""Copies of each double-buffered buffer."""


@dataclass(frozen=True)
class DoubleBuffering(ModulePass):
    """Give every buffer that one stage of a pipeline hands to later stages two copies,
    so that the stages of consecutive iterations overlap without overwriting data a
    later stage still reads.

    Expects ScheduleIR after path expansion (any of the later scheduling passes may
    have run): ``ktdf.pipeline``s whose ``ktdf.private`` creates staging buffers with
    ``memref.alloc``, in a memory kind of the declared device (``"L1"``) or a KTIR
    memory space that maps onto one (``#ktdp.memory_space<ct_local>``).

    A pipeline is double buffered when it has no ``modulo`` yet and sits in loops:
    its *scope* is the ``scf.for`` nest around it up to the first parent that is not a
    loop (a stage of an enclosing pipeline, a function, an ``scf.if``) or that
    defines a dynamic size of a buffer to copy (a tile size chosen per iteration of
    an outer loop: the copies are made inside that loop). A scope whose loops all
    run at most once reuses nothing and is left alone. Nested pipelines are decided
    each at its own level: one set of copies per pipeline and scope.

    A private buffer is double buffered when

    - it lives in a memory below the device memory (a scratchpad or a local memory:
      one instance per core or sub-core, where the hand-off happens), and its two
      copies fit that memory (when its size is static);
    - its ``memref.alloc`` is used only by the ``ktdf.private_yield`` and its dynamic
      sizes are defined outside the loop right around the pipeline;
    - inside the pipeline it is only moved by ``ktdf.data_transfer`` (as source or
      destination) or read by ``ktdf.write_to_fifo``, exactly one stage writes it,
      in every run (not under an ``scf.if``: a buffer written now and then
      carries data from run to run), at least one other stage reads it, no stage
      does both, and the writer comes
      before every reader through the stages' tokens (a buffer read before it is
      written carries data across iterations and keeps one copy).

    Produces, per pipeline with such buffers: both copies as ``memref.alloc``s just
    before the outermost loop of the scope (no dealloc: a buffer lives as long as
    the region holding it, as the private ones do); just before the pipeline
    ``%phase = ktdf.buffer_phase(ivs, outermost first) {num_phases = 2}`` and one
    ``ktdf.select_memref %phase [%copy0, %copy1]`` per buffer, which replaces the
    private buffer inside the pipeline; the private buffer removed; the pipeline
    marked ``modulo(size : 2)``. The phase is the number of earlier iterations of
    the scope's loop nest, modulo 2: consecutive runs of the pipeline alternate.
    Idempotent: a pipeline with ``modulo`` is left alone.
    """

    name = "double-buffering"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pipelines = [child for child in op.walk() if isinstance(child, PipelineOp)]
        if not pipelines:
            return
        device = device_of(op)
        for pipeline in pipelines:
            _double_buffer(pipeline, device)


def _double_buffer(pipeline: PipelineOp, device: Device) -> None:
    private = pipeline.private
    innermost = pipeline.parent_op()
    if pipeline.modulo is not None or private is None or not isinstance(innermost, scf.ForOp):
        return
    chosen = [
        index
        for index, resource in enumerate(private.resources)
        if _eligible(pipeline, resource, innermost, device)
    ]
    if not chosen:
        return
    allocs = [_alloc_of(private.resources[index]) for index in chosen]
    scope = _scope(pipeline, [size for alloc in allocs for size in alloc.dynamic_sizes])
    if not _reused(scope):
        return
    phase = BufferPhaseOp([loop.body.block.args[0] for loop in scope], PHASES)
    Rewriter.insert_op(phase, InsertPoint.before(pipeline))
    for index, alloc in zip(chosen, allocs, strict=True):
        copies = [alloc.clone() for _ in range(PHASES)]
        Rewriter.insert_op(copies, InsertPoint.before(scope[0]))
        select = SelectMemrefOp(phase, copies)
        select.result.name_hint = alloc.memref.name_hint
        Rewriter.insert_op(select, InsertPoint.before(pipeline))
        private.resources[index].replace_all_uses_with(select.result)
    remove_resources(pipeline, [private.resources[index] for index in chosen])
    pipeline.modulo = IntegerAttr(PHASES, i64)


def _scope(pipeline: PipelineOp, sizes: Sequence[SSAValue]) -> list[scf.ForOp]:
    """The loops around ``pipeline``, outermost first, up to its first parent that
    is no ``scf.for`` or that defines one of ``sizes``."""
    loops: list[scf.ForOp] = []
    parent = pipeline.parent_op()
    while isinstance(parent, scf.ForOp) and not any(defined_inside(size, parent) for size in sizes):
        loops.insert(0, parent)
        parent = parent.parent_op()
    return loops


def _reused(scope: Sequence[scf.ForOp]) -> bool:
    """Whether the scope may run the pipeline more than once."""
    counts = [static_trip_count(loop) for loop in scope]
    return any(count is None or count > 1 for count in counts)


def _alloc_of(resource: SSAValue) -> AllocOp | None:
    """The ``memref.alloc`` in the private region that a private resource hands out,
    when nothing but the yield uses it."""
    value = handed_out(resource)
    alloc = value.owner
    if not isinstance(alloc, AllocOp) or not value.has_one_use():
        return None
    return alloc


def _eligible(
    pipeline: PipelineOp, resource: SSAValue, innermost: scf.ForOp, device: Device
) -> bool:
    """Whether the private ``resource`` is a buffer to double buffer, its copies
    allocated outside ``innermost`` (the loop right around the pipeline) at least."""
    if not isinstance(resource.type, MemRefType):
        return False
    alloc = _alloc_of(resource)
    if alloc is None or any(defined_inside(size, innermost) for size in alloc.dynamic_sizes):
        return False
    return _local_and_fits(alloc, device) and _handed_over(pipeline, resource)


def _local_and_fits(alloc: AllocOp, device: Device) -> bool:
    """Whether the buffer of ``alloc`` lives below the device memory and two copies
    of it fit one instance of its memory (a dynamic size is left to tile-size
    selection, which counts the copies)."""
    memref = alloc.memref.type
    memory = device.memory_of(memref, where(alloc))
    if memory is None or memory.depth == 0:
        return False
    element = memref.element_type
    if not memref.has_static_shape() or not isinstance(element, FixedBitwidthType):
        return True
    return PHASES * prod(memref.get_shape()) * element.size <= memory.size


def _handed_over(pipeline: PipelineOp, buffer: SSAValue) -> bool:
    """Whether one stage of ``pipeline`` writes ``buffer`` in every run, and other,
    later stages only read it."""
    writers: set[StageOp] = set()
    readers: set[StageOp] = set()
    for use in buffer.uses:
        stage = stage_in(pipeline, use.operation)
        access = _access(use.operation, buffer)
        if stage is None or access is None:
            return False
        if "write" in access:
            if not _unconditional(use.operation, stage):
                return False
            writers.add(stage)
        if "read" in access:
            readers.add(stage)
    if len(writers) != 1 or not readers or writers & readers:
        return False
    return readers <= _after(next(iter(writers)), pipeline)


def _unconditional(op: Operation, stage: StageOp) -> bool:
    """Whether ``op`` runs every time ``stage`` does: only loops, nested pipelines
    and their stages lie between them (no ``scf.if``)."""
    parent = op.parent_op()
    while parent is not stage:
        if not isinstance(parent, scf.ForOp | PipelineOp | StageOp | ParallelOp):
            return False
        parent = parent.parent_op()
    return True


def _access(op: Operation, buffer: SSAValue) -> set[str] | None:
    """How ``op`` uses ``buffer`` (``read``, ``write`` or both) when that is known."""
    if isinstance(op, DataTransferOp):
        sides = {"write": op.destination, "read": op.source}
        return {access for access, value in sides.items() if value is buffer}
    if isinstance(op, WriteToFifoOp) and op.data is buffer:
        return {"read"}
    return None


def _after(stage: StageOp, pipeline: PipelineOp) -> set[StageOp]:
    """The stages that wait, directly or through others, for ``stage``."""
    waiting: dict[SSAValue, list[StageOp]] = {}
    for other in pipeline.stages:
        for token in other.depends_in:
            waiting.setdefault(token, []).append(other)
    later: set[StageOp] = set()
    pending = [stage]
    while pending:
        for token in pending.pop().depends_out:
            for other in waiting.get(token, ()):
                if other not in later:
                    later.add(other)
                    pending.append(other)
    return later
