"""``parallelize-loops-across-instances``: a parallel loop around pipelines that run
on the units every sub-core has is shared out over the sub-cores of a core."""

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp, StringAttr
from xdsl.dialects.memref import AllocOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects.diagnostics import where
from ktc.dialects.ktdf import (
    BufferPhaseOp,
    FifoSlotType,
    LoopType,
    ParallelOp,
    ParallelYieldOp,
    PipelineOp,
    StageOp,
    loop_type,
)
from ktc.passes.utils.ir import ancestor, defined_inside
from ktc.passes.utils.loops import static_trip_count


@dataclass(frozen=True)
class ParallelizeLoopsAcrossInstances(ModulePass):
    """Distribute the outermost suitable parallel loop around sub-core pipelines over
    the sub-cores of a core.

    Expects ScheduleIR after path expansion (later scheduling passes may have run) in
    a module that declares its device. N, the number of instances, is the device's
    sub-cores per core (``Device.subcores_per_core``: 2 on spyre); with fewer than 2
    the module is left unchanged.

    A unit kind is *per sub-core* when every instance of it belongs to a sub-core
    (on spyre L1LU, SFU, L1SU; not the DMA units MNILU/MNISU, which the core shares);
    a memory kind likewise (SFU_REG, not L1). An ``scf.for`` is distributed when

    - it is marked ``loop_type = #ktdf.loop_type<parallel_loop>``, has no
      ``iter_args``, counts in ``index``, and may run more than once;
    - it holds at least one ``ktdf.pipeline`` and every ``ktdf.stage`` in it runs on
      per-sub-core units only: a pipeline with a core-level stage (a DMA stage of a
      flat pipeline, or the outer pipeline that stage-coarsening builds) stays on
      the core; the sub-core-level pipeline nested in one of its stages (the LCA of
      its units is the sub-core) is what gets distributed;
    - every instance can have its own copy of what the loop uses: no FIFO slot and
      no buffer in a per-sub-core memory crosses into the loop from outside, every
      buffer allocated in it lives in a per-sub-core memory (a shared scratchpad
      buffer would be one buffer for all instances), and no ``ktdf.buffer_phase``
      rotates buffers in it (double-buffering shares its two copies);
    - it is not inside a ``ktdf.parallel`` already.

    Of nested candidates the outermost is taken: the largest share per instance and
    the fewest barriers.

    Produces ``ktdf.parallel (%iv, %instance) = (lb) to (ub) step (step)
    distribute(num_instances = N)`` in place of the loop, its body the loop's body.
    Which iterations instance k runs is the op's block distribution: with
    T = ceil((ub - lb) / step) and C = ceil(T / N), iterations [k*C, min((k+1)*C, T))
    (index lb + j*step for iteration j), none when k*C >= T. This holds for balanced
    (T a multiple of N), imbalanced and run-time trip counts alike, so the lowering
    can compute each instance's bounds from lb, ub, step, N and k. Idempotent.
    """

    name = "parallelize-loops-across-instances"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loops = [child for child in op.walk() if isinstance(child, scf.ForOp)]
        if not loops:
            return
        device = device_of(op)
        if device.subcores_per_core < 2:
            return
        instances = _Instances.of(device)
        for loop in loops:  # outermost first; loops moved into a ktdf.parallel are skipped
            if instances.distributable(loop):
                _distribute(loop, device.subcores_per_core)


@dataclass(frozen=True)
class _Instances:
    """What every sub-core of the device has its own instance of."""

    device: Device
    units: frozenset[str]
    memories: frozenset[str]

    @staticmethod
    def of(device: Device) -> "_Instances":
        def per_subcore(kinds: Iterable[str]) -> frozenset[str]:
            return frozenset(
                kind for kind in kinds
                if all(node.subcore is not None for node in device.instances(kind))
            )

        units, memories = per_subcore(device.engine_kinds), per_subcore(device.memory_kinds)
        return _Instances(device, units, memories)

    def distributable(self, loop: scf.ForOp) -> bool:
        if not _parallel_loop(loop) or ancestor(loop, ParallelOp) is not None:
            return False
        inside = [op for op in loop.walk() if op is not loop]
        stages = [op for op in inside if isinstance(op, StageOp)]
        return (
            any(isinstance(op, PipelineOp) for op in inside)
            and all(self._on_subcore(stage) for stage in stages)
            and not any(isinstance(op, BufferPhaseOp) for op in inside)
            and all(self._private_to_instance(op, loop) for op in inside)
        )

    def _on_subcore(self, stage: StageOp) -> bool:
        units = stage.applicable_units
        return units is not None and all(
            isinstance(unit, StringAttr) and unit.data in self.units for unit in units.data
        )

    def _private_to_instance(self, op: Operation, loop: scf.ForOp) -> bool:
        """Whether each instance can have its own copy of what ``op`` allocates and
        of the per-instance resources it uses from outside the loop."""
        if isinstance(op, AllocOp) and not self._per_subcore(op.memref, op):
            return False
        return not any(
            not defined_inside(value, loop)
            and (isinstance(value.type, FifoSlotType) or self._per_subcore(value, op))
            for value in op.operands
        )

    def _per_subcore(self, value: SSAValue, user: Operation) -> bool:
        if not isinstance(value.type, MemRefType):
            return False
        memory = self.device.memory_of(value.type, where(user))
        return memory is not None and memory.kind in self.memories


def _parallel_loop(loop: scf.ForOp) -> bool:
    """A parallel ``index`` loop without ``iter_args`` that may run more than once."""
    trips = static_trip_count(loop)
    return (
        loop_type(loop) == LoopType.PARALLEL_LOOP
        and not loop.iter_args
        and isinstance(loop.lb.type, IndexType)
        and (trips is None or trips > 1)
    )


def _distribute(loop: scf.ForOp, instances: int) -> None:
    """Replace ``loop`` by a ``ktdf.parallel`` over ``instances`` with its body."""
    body = Block(arg_types=[IndexType(), IndexType()])
    iv = loop.body.block.args[0]
    body.args[0].name_hint = iv.name_hint
    body.args[1].name_hint = "instance"
    iv.replace_all_uses_with(body.args[0])
    for op in list(loop.body.block.ops)[:-1]:  # all but scf.yield
        op.detach()
        body.add_op(op)
    body.add_op(ParallelYieldOp())
    parallel = ParallelOp([loop.lb], [loop.ub], [loop.step], instances, Region(body))
    Rewriter.replace_op(loop, parallel)
