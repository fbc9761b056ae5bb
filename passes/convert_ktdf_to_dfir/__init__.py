"""The ``convert-ktdf-to-dfir`` pass: a scheduled ScheduleIR program becomes DataflowIR.

Each program function (``module @local_schedule_N``) keeps its signature; its body
becomes host code that computes the symbols (``dfir.define_symbol``) and one
``dfir.dataflow``: a unit per engine and memory instance it uses, uniform maps for the
per-instance values, and one SPMD ``dfir.program`` per engine kind. Each program runs
the loops around its own stages; stages of one pipeline run concurrently on their
engines, ordered by FIFOs and by sync signals. The kernel's orchestrator (the launch
sequence) is left as it is.

The modules, each a small function of the schedule:

- ``arguments``: the per-core arguments the orchestrator computes from the tile id,
  moved into the program;
- ``plan``: which engine kind runs every leaf stage, the two ends of every FIFO, the
  scratchpad hand-offs that need signals, and the sub-core instances per kind;
- ``function``: one program function lowered, a program per engine kind;
- ``dataflow`` (the declarations and host code) and ``program`` (one per kind, with
  its materializer of index values: constants, per-core uniform maps, host symbols,
  program arithmetic, over the index expressions of ``values``);
- ``walker``: the schedule's control flow (loops, ``ktdf.parallel``, stages) around
  the stages of one kind, with ``transfers`` (DMA, loads and stores, FIFO ops),
  ``views`` (the memory and address behind a transfer operand), ``compute``
  (instruction selection for generics) and ``signals`` (sync pairs of scratchpad
  hand-offs); a copy between cores (``ktdf.to_tiles``) is a DMA into the other core's
  scratchpad unit on the cores that copy, signalled to the reader on that core, which
  waits for each core copying to it (and, inside loops, signals each of them back once
  the slot may be written again).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.passes import ModulePass

from ktc.arch.model import device_of
from ktc.dialects.ktdf import StageOp
from ktc.passes.convert_ktdf_to_dfir.arguments import localize_tile_ids
from ktc.passes.convert_ktdf_to_dfir.function import lower_function


@dataclass(frozen=True)
class ConvertKtdfToDfir(ModulePass):
    """Lowers every scheduled program to DataflowIR.

    Expects ScheduleIR after ``address-assignment``: each ``module @local_schedule_N``
    holds a ``func.func`` with a 1-D (or small) ``grid`` whose pipelines' leaf stages
    each name one engine kind in ``applicable_units``; every scratchpad buffer is a
    ``memref.alloc`` with ``ktdf.address`` (bytes); device memory is reached through
    ``ktdp.construct_memory_view`` of a kernel argument (an element index).

    Produces, per program, host code over the arguments (``dfir.define_symbol``) and
    one ``dfir.dataflow``: engines per core and sub-core, uniform maps for per-core
    values (tile ids folded in), one program per engine kind; transfers become
    ``dfir.dma`` / ``dfir.load`` + ``dfir.send`` / ``dfir.receive`` + ``dfir.store``,
    generics become ``dfir.compute`` / ``dfir.reduce`` / ``dfir.splat`` (a spyreop
    intrinsic the instructions a device pattern mapped it onto,
    ``ktdf_arch.instruction``), and each
    scratchpad hand-off between engines a ``dfir.sync_send`` / ``dfir.sync_recv``
    pair forward and, inside loops, one backward per buffer copy, guarded so that
    every send has its receive; two buffers of consecutive steps on the same bytes
    get a pair from the earlier one's users to the later one's writers and, inside
    loops (waves included), a carried pair from the later one's users to the earlier
    one's writers. The orchestrator is unchanged.

    With ``serial`` (the naive baseline, ``ktir-to-dfir-unoptimized``), every
    pipeline outside a stage runs its tiles one at a time: its first leaf stage of
    iteration i + 1 of the loops around it waits for a signal its last leaf stage
    sends once iteration i is done (when the two run on different engine kinds), so
    the load of a tile never overlaps the compute or store of the one before.
    """

    name = "convert-ktdf-to-dfir"

    serial: bool = False
    """Run the tiles of each pipeline one at a time (no overlap between tiles)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op)
        functions = [func for func in op.walk() if isinstance(func, FuncOp)
                     and any(isinstance(inner, StageOp) for inner in func.walk())]
        by_name = {func.sym_name.data: func for func in functions}
        for call in [inner for inner in op.walk() if isinstance(inner, CallOp)]:
            callee = by_name.get(call.callee.string_value())
            if callee is not None:
                localize_tile_ids(call, callee, op)
        for func in functions:
            lower_function(func, device, self.serial)
