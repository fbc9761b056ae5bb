"""The walk of ``convert-ktdf-to-dfir``: one program's code from the schedule, the
control flow (the wave loop, ``scf.for``, ``scf.if``, ``ktdf.parallel``, pipelines)
around the stages of its engine kind, and the work of those stages (transfers, FIFO
ops, generics), with the signals of the scratchpad hand-offs around them."""

from __future__ import annotations

from xdsl.dialects import memref, scf, tensor
from xdsl.dialects.builtin import IndexType, MemRefType, VectorType
from xdsl.dialects.func import ReturnOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import is_side_effect_free

from ktc.dialects.dfir import LoadOp, StoreOp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import (
    CreateTokenOp,
    DataTransferOp,
    FifoAllocateOp,
    ParallelOp,
    ParallelYieldOp,
    PipelineOp,
    PrivateOp,
    ReadFromFifoOp,
    StageOp,
    WriteToFifoOp,
)
from ktc.passes.convert_ktdf_to_dfir.compute import lower_contraction, lower_fill, lower_generic
from ktc.passes.convert_ktdf_to_dfir.plan import WAVE, Plan
from ktc.passes.convert_ktdf_to_dfir.program import Program
from ktc.passes.convert_ktdf_to_dfir.signals import Signals
from ktc.passes.convert_ktdf_to_dfir.transfers import Transfers
from ktc.passes.convert_ktdf_to_dfir.values import ARG, CLONED, Index, roots
from ktc.passes.convert_ktdf_to_dfir.views import Views

_SKIPPED = (PrivateOp, FifoAllocateOp, CreateTokenOp, memref.AllocOp, memref.DeallocOp,
            tensor.EmptyOp, ReturnOp, scf.YieldOp, ParallelYieldOp)
"""Ops with nothing to run: their values are read where they are used."""


class Walker:
    """Emits one program: the schedule's control flow around the stages of its kind,
    with their transfers, FIFO ops, compute and signals."""

    def __init__(self, program: Program):
        self.p = program
        self.plan = program.plan
        self.views = Views(program)
        self.transfers = Transfers(program, self.views)
        self.signals = Signals(program)

    def run(self, body: Block) -> None:
        waves = self.p.df.waves
        if waves == 1:
            self.block(body)
            return
        loop_body = Block(arg_types=[IndexType()])
        self.p.emit(scf.ForOp(self.p.df.constant(0), self.p.df.constant(waves),
                              self.p.df.constant(1), [], Region(loop_body)))
        self.p.loop_state[WAVE] = lambda: (loop_body.args[0], waves)
        with self.p.inside(loop_body):
            self.block(body)
            self.p.emit(scf.YieldOp())

    def block(self, block: Block) -> None:
        for op in block.ops:
            with self.p.lowering(op):
                self.signals.at(op, before=True)
                self.op(op)
                self.signals.at(op, before=False)

    # Control flow ---------------------------------------------------------------

    def op(self, op: Operation) -> None:
        kinds = self.plan.kinds_in.get(op, set())
        if isinstance(op, StageOp):
            if op in self.plan.kind_of:
                if self.plan.kind_of[op] == self.p.kind:
                    self.stage(op)
            elif self.p.kind in kinds:
                self.block(op.body.block)
        elif isinstance(op, PipelineOp):
            if self.p.kind in kinds:
                self.block(op.body.block)
        elif isinstance(op, scf.ForOp):
            if self.p.kind in kinds or self.p.active:
                self.loop(op)
        elif isinstance(op, scf.IfOp):
            if self.p.kind in kinds or self.p.active:
                self.branch(op)
        elif isinstance(op, ParallelOp):
            if self.p.kind in kinds:
                self.parallel(op)
        elif self.p.active:
            self.work(op)
        elif not _is_free(op):
            raise KtcError(f"'{op.name}' outside a stage: no engine runs it", where(op))

    def stage(self, stage: StageOp) -> None:
        """A leaf stage of this kind; outside a ktdf.parallel, only sub-core 0 runs it
        when the kind has several instances per core."""
        if _runs_elsewhere(stage, self.plan):
            return
        self.p.active = True
        if self.p.subcores > 1 and not self.p.in_parallel:
            with self.p.guarded(self.p.arith.compare("eq", self.p.my_subcore(), 0)):
                self.block(stage.body.block)
        else:
            self.block(stage.body.block)
        self.p.active = False

    def loop(self, op: scf.ForOp) -> None:
        """A loop of the schedule; inside a stage its iter_args carry vectors."""
        if op.iter_args and not self.p.active:
            raise KtcError("loops with iter_args are lowered only inside a stage", where(op))
        a = self.p.arith
        lb, ub, step = (self.p.value(v) for v in (op.lb, op.ub, op.step))
        carried = [self.vector(value, op) for value in op.iter_args]
        body = Block(arg_types=[IndexType(), *(value.type for value in carried)])
        loop = self.p.emit(scf.ForOp(a.ssa(lb), a.ssa(ub), a.ssa(step), carried, Region(body)))
        for old_arg, new_arg in zip(op.body.block.args, body.args):
            self.p.env[old_arg] = new_arg
        for old_result, new_result in zip(op.results, loop.results):
            self.p.env[old_result] = new_result
        self.p.loop_state[op] = (lambda: (a.div(a.sub(body.args[0], lb), step),
                                          a.ceildiv(a.sub(ub, lb), step)))
        with self.p.inside(body):
            self.block(op.body.block)
            yielded = op.body.block.last_op
            self.p.emit(scf.YieldOp(*(self.vector(value, yielded) for value in yielded.operands)))

    def branch(self, op: scf.IfOp) -> None:
        if op.results:
            raise KtcError("scf.if with results is not lowered to DataflowIR", where(op))
        then = Block()
        regions = [Region(then)]
        otherwise = None
        if op.false_region.blocks:
            otherwise = Block()
            regions.append(Region(otherwise))
        self.p.emit(scf.IfOp(self.p.ssa(op.cond), [], *regions))
        for source, target in ((op.true_region, then), (op.false_region, otherwise)):
            if target is None:
                continue
            with self.p.inside(target):
                self.block(source.block)
                self.p.emit(scf.YieldOp())

    def parallel(self, op: ParallelOp) -> None:
        """Block distribution: instance k runs iterations [k*C, min((k+1)*C, T)) of the
        linearized space, C = ceil(T / N), delinearized row-major."""
        instances = op.num_instances.value.data
        if self.p.subcores != instances:
            raise KtcError(f"{op.name} over {instances} instances, but '{self.p.kind}' runs "
                           f"on {self.p.subcores} per core", where(op))
        a = self.p.arith
        lbs = [self.p.value(v) for v in op.lower_bounds]
        steps = [self.p.value(v) for v in op.steps]
        trips = [a.ceildiv(a.sub(self.p.value(ub), lb), step)
                 for ub, lb, step in zip(op.upper_bounds, lbs, steps)]
        total: Index = 1
        for trip in trips:
            total = a.mul(total, trip)
        chunk = a.ceildiv(total, instances)
        me = self.p.my_subcore()
        start = a.mul(me, chunk)
        end = a.min(a.add(start, chunk), total)
        body = Block(arg_types=[IndexType()])
        self.p.emit(scf.ForOp(a.ssa(start), a.ssa(end), self.p.df.constant(1), [], Region(body)))
        with self.p.inside(body):
            rest: Index = body.args[0]
            for dim in reversed(range(len(trips))):
                index = a.rem(rest, trips[dim]) if dim else rest
                rest = a.div(rest, trips[dim]) if dim else rest
                self.p.env[op.induction_variables[dim]] = a.add(lbs[dim], a.mul(index, steps[dim]))
            self.p.env[op.instance_id] = me
            self.p.loop_state[op] = lambda: (a.sub(body.args[0], start), a.sub(end, start))
            self.p.in_parallel = True
            self.block(op.body.block)
            self.p.in_parallel = False
            self.p.emit(scf.YieldOp())

    # Work of a stage --------------------------------------------------------------

    def work(self, op: Operation) -> None:
        if op in self.plan.inlined_at:
            return
        if isinstance(op, DataTransferOp):
            self.transfers.transfer(op)
        elif isinstance(op, ReadFromFifoOp):
            self.p.env[op.result] = self.transfers.receive(op.fifo_slot)
        elif isinstance(op, WriteToFifoOp):
            self.transfers.send(op.fifo_slot, self.operand(op.data, op), op)
        elif isinstance(op, GenericOp):
            self.generic(op)
        elif isinstance(op, memref.LoadOp):
            self.p.env[op.res] = self.views.index(op)
        elif not _is_free(op):
            raise KtcError(f"'{op.name}' has no DataflowIR lowering", where(op))

    def vector(self, value: SSAValue, user: Operation) -> SSAValue:
        found = self.p.env.get(value)
        if not isinstance(found, SSAValue) or not isinstance(found.type, VectorType):
            raise KtcError("a compute stage uses a tensor that no FIFO read or generic "
                           "of the stage produced", where(user))
        return found

    def generic(self, op: GenericOp) -> None:
        """Tensor form: the result is a vector. Buffer form (outs a memref in a memory
        of the compute engine, or the matrix unit's accumulators): operands are loaded,
        the result stored. On the matrix unit a contraction is one product."""
        result = lower_fill(op, self.p.emit)
        if result is None:
            inputs = [self.operand(value, op) for value in op.inputs]
            out_args = op.body.block.args[len(op.inputs):]
            outputs = [self.operand(value, op) if arg.uses else None
                       for value, arg in zip(op.outputs, out_args)]
            if self.p.kind == self.p.df.device.matrix_kind:
                result = lower_contraction(op, inputs, outputs, self.p.emit, self.p.df.device.matrix)
            if result is None:
                result = lower_generic(op, inputs, outputs, self.p.emit, self.capture, self.p.value,
                                       self.p.df.device.engine_kinds[self.p.kind].instructions)
        if op.results:
            self.p.env[op.results[0]] = result
            return
        self.p.emit(StoreOp.build(operands=[result, self.views.whole(op.outputs[0], op),
                                            [self.p.df.constant(0)]]))

    def capture(self, value: SSAValue) -> SSAValue | None:
        """A scalar kernel argument a generic body uses: a symbol."""
        if roots(value, self.p.df.roots) <= {ARG}:
            return self.p.df.symbol(value)
        return None

    def operand(self, value: SSAValue, user: Operation) -> SSAValue:
        """A vector for a tensor or memref operand: held in a register, or loaded."""
        found = self.p.env.get(value)
        if isinstance(found, SSAValue) and isinstance(found.type, VectorType):
            return found
        if not isinstance(value.type, MemRefType):
            return self.vector(value, user)
        view = self.views.whole(value, user)
        vector_type = VectorType(value.type.element_type, view.type.get_shape())
        return self.p.emit(LoadOp.build(operands=[view, [self.p.df.constant(0)]],
                                        result_types=[vector_type])).results[0]


def _runs_elsewhere(stage: StageOp, plan: Plan) -> bool:
    """A stage whose only work is transfers inlined at the other end of their FIFO."""
    return all(op in plan.inlined_at or isinstance(op, scf.ForOp) or _is_free(op)
               for op in stage.body.walk())


def _is_free(op: Operation) -> bool:
    """Ops that run nothing by themselves (pure values, read where they are used;
    allocations; terminators)."""
    return (isinstance(op, _SKIPPED) or op.name in CLONED
            or (not op.regions and is_side_effect_free(op)))

