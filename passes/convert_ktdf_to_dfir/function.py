"""One program function of ``convert-ktdf-to-dfir``: its body replaced by the host code
and one ``dfir.dataflow`` with a program per engine kind its stages name."""

from __future__ import annotations

from math import prod

from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Region

from ktc.arch.model import Device
from ktc.dialects.dfir import DataflowOp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdp import grid_of
from ktc.passes.convert_ktdf_to_dfir.dataflow import Dataflow
from ktc.passes.convert_ktdf_to_dfir.plan import Plan
from ktc.passes.convert_ktdf_to_dfir.program import Program
from ktc.passes.convert_ktdf_to_dfir.signals import fan_in
from ktc.passes.convert_ktdf_to_dfir.walker import Walker


def lower_function(func: FuncOp, device: Device, serial: bool = False) -> None:
    """``func`` lowered; ``serial``: each pipeline's tiles one at a time (``Plan``)."""
    grid = list(grid_of(func))
    tiles = prod(grid)
    cores = min(tiles, device.cores)
    waves = -(-tiles // cores)
    if tiles % cores:
        raise KtcError(f"grid {grid} has {tiles} tiles, not a multiple of the {cores} cores of "
                       f"device @{device.name}", where(func))
    plan = Plan(func, waves, device, serial)
    dataflow = Dataflow(device, grid, cores, waves)
    _number_pairs(plan, dataflow)
    programs = []
    for kind in plan.kinds:
        program = Program(dataflow, plan, kind)
        Walker(program).run(func.body.block)
        programs.append(program.finish())
    body = func.body.block
    for op in reversed(list(body.ops)):
        body.erase_op(op, safe_erase=False)
    for op in list(dataflow.host.ops):
        body.add_op(dataflow.host.detach_op(op))
    body.add_ops(dataflow.definitions)
    decls = dataflow.decls
    for program in programs:
        decls.add_op(program)
    body.add_op(DataflowOp.build(regions=[Region(decls)]))
    body.add_op(ReturnOp())


def _number_pairs(plan: Plan, dataflow: Dataflow) -> None:
    """Ids for the FIFOs (in schedule order) and the signals of every hand-off."""
    dataflow.fifo_ids = {slot: dataflow.new_id() for slot in plan.fifo_ends
                         if plan.fifo_ends[slot][0] != plan.fifo_ends[slot][1]}
    for handoff in plan.handoffs:
        handoff.pairs = [(w, r, dataflow.new_id(), dataflow.new_id()) for w, r, _, _ in handoff.pairs]
        if handoff.ring is not None and handoff.ring[0]:
            handoff.slot_ids = [[(dataflow.new_id(), dataflow.new_id())
                                 for _ in range(fan_in(handoff.ring[1]))]
                                for _ in handoff.pairs]

