"""The plan of ``convert-ktdf-to-dfir``: what a scheduled program asks of each engine
kind, before any DataflowIR is built.

- which engine kind runs each leaf stage (its one ``applicable_units`` entry);
- the two ends of every FIFO slot (its writer and reader kinds);
- every scratchpad hand-off between two engine kinds (``Handoff``): where its signals
  go, across which loops the buffer is reused, and which sub-core instances talk;
- every reuse of memory between steps (``address-assignment`` gives a buffer of a
  later step bytes of one of an earlier step): a hand-off from each engine kind that
  touches the earlier buffer, after its last step doing so, to each other kind that
  touches the later one, before its first; with waves, one back to the next wave too;
- the sub-core instances each kind runs on (more than one inside ``ktdf.parallel``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from ktc.arch.model import Device
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import (
    BufferPhaseOp,
    DataTransferOp,
    FifoSlotType,
    ParallelOp,
    PrivateOp,
    ReadFromFifoOp,
    SelectMemrefOp,
    StageOp,
    WriteToFifoOp,
    address,
    to_tiles,
)
from ktc.passes.analysis.memory_layout import Buffer, buffers, step_of, users

WAVE = "wave"
"""The implicit outermost loop of a grid with more tiles than the device has cores."""


@dataclass
class Handoff:
    """A scratchpad buffer written by one engine kind and read by another.

    ``writer_child`` and ``reader_child`` are the ops of ``block`` that contain the
    writing and the reading stage; the signals go after and before them. ``loops``
    enclose ``block`` (outermost first): across their iterations the writer must
    wait until the reader is done with a copy before it writes that copy again.
    """

    writer: str
    reader: str
    block: Block
    writer_child: Operation
    reader_child: Operation
    copies: int
    loops: list[Operation | str]
    carried: bool
    """The reader comes first in ``block``: it reads what the writer wrote in the
    previous iteration (the FIFOs between them order the rest)."""
    ring: tuple[bool, tuple[int, ...]] | None = None
    """When one end is a copy between cores (``inter-tile-reduce-lowering``): whether
    that copy is the writer, and its per-core destination table (-1: no copy). The
    copy's writes land in another core's scratchpad; its reads are local, but only the
    cores that copy take part."""
    pairs: list[tuple[int | None, int | None, int, int]] = field(default_factory=list)
    """(writer sub-core, reader sub-core, forward id, backward id); None is "the
    same instance as mine" (or a per-core engine)."""
    slot_ids: list[list[tuple[int, int]]] = field(default_factory=list)
    """Per pair of a copy between cores that writes: one (forward id, backward id) per
    core copying to the same core (the k-th in ascending id uses the k-th)."""


def leaf_stages(func: FuncOp) -> list[StageOp]:
    return [op for op in func.walk() if isinstance(op, StageOp)
            and not any(isinstance(inner, StageOp) for inner in op.body.walk())]


def stage_kind(stage: StageOp) -> str:
    """The one engine kind a leaf stage runs on."""
    units = stage.applicable_units
    if units is None or len(units.data) != 1:
        raise KtcError("a leaf stage must name exactly one engine kind in applicable_units",
                       where(stage))
    return units.data[0].data


def stage_of(op: Operation) -> StageOp:
    """The leaf stage ``op`` runs in."""
    while not isinstance(op, StageOp):
        op = op.parent_op()
    return op


def _inlined_end(writer: Operation, reader: Operation,
                 kind_of: dict[StageOp, str]) -> DataTransferOp | None:
    """For a FIFO whose two ends run on one engine (which runs its stages one after
    the other, so a loop of writes would all come before the loop of reads): the
    transfer end, which the lowering moves to the other end's op (the k-th run of one
    is the k-th run of the other); the writing end when both are transfers. None for
    a FIFO between two engines, or between two ops that are no transfers (the value
    is handed over in a register)."""
    if kind_of[stage_of(writer)] != kind_of[stage_of(reader)]:
        return None
    for end in (writer, reader):
        if isinstance(end, DataTransferOp):
            return end
    return None


def stage_loops(op: Operation) -> list[scf.ForOp]:
    """The loops around ``op`` inside its leaf stage, outermost first."""
    loops = []
    parent = op.parent_op()
    while not isinstance(parent, StageOp):
        if isinstance(parent, scf.ForOp):
            loops.insert(0, parent)
        parent = parent.parent_op()
    return loops


def _check_handed_over(writer: Operation, reader: Operation, kind_of: dict[StageOp, str]) -> None:
    """A FIFO between two compute ops of one engine hands the vector over in a
    register: each write must be followed by its read, so neither may sit in a loop
    of its stage."""
    if kind_of[stage_of(writer)] != kind_of[stage_of(reader)]:
        return
    for end in (writer, reader):
        if stage_loops(end):
            raise KtcError("a FIFO between two stages of one engine is written or read in a "
                           "loop of its stage, and neither end is a transfer", where(end))


def through_private(value: SSAValue) -> SSAValue:
    """What a ``ktdf.private`` result stands for: the value its body yields."""
    while isinstance(value.owner, PrivateOp):
        private = value.owner
        value = private.body.block.last_op.operands[private.results.index(value)]
    return value


def buffer_of(value: SSAValue) -> Operation | None:
    """The scratchpad buffer a memref is (an alloc, or a select over copies); None for
    device memory."""
    op = through_private(value).owner
    while isinstance(op, memref.ReinterpretCastOp | memref.MemorySpaceCastOp):
        op = through_private(op.operands[0]).owner
    return op if isinstance(op, SelectMemrefOp | memref.AllocOp) else None


def phase_loops(phase: BufferPhaseOp) -> list[Operation]:
    """The loops a buffer phase counts, outermost first (a constant stands for a loop
    of one iteration that canonicalization removed: it counts nothing)."""
    return [iv.block.parent_op() for iv in phase.ivs if isinstance(iv, BlockArgument)]


def rotating_copies(buffer: Operation, loops: list[Operation]) -> int:
    """How many copies of ``buffer`` the iterations of ``loops`` (around a hand-off,
    outermost first) use in turn: the candidates of a select whose phase counts
    exactly these loops (the lowering adds the wave loop to both), else 1 (every
    iteration may use the same copy, so the writer waits for the reader each time)."""
    if not isinstance(buffer, SelectMemrefOp):
        return 1
    phase = buffer.phase.owner
    if not isinstance(phase, BufferPhaseOp) or phase.num_phases.value.data != len(buffer.candidates):
        return 1
    return len(buffer.candidates) if phase_loops(phase) == loops else 1


def path_to(op: Operation, func: FuncOp) -> list[tuple[Block, Operation]]:
    """(block, the op of that block that holds ``op``), innermost first."""
    path = []
    while op is not func:
        path.append((op.parent_block(), op))
        op = op.parent_op()
    return path


def enclosing_parallel(op: Operation, stop: Operation) -> ParallelOp | None:
    parent = op.parent_op()
    while parent is not None and parent is not stop:
        if isinstance(parent, ParallelOp):
            return parent
        parent = parent.parent_op()
    return None


class Plan:
    """What the schedule asks of each engine kind."""

    def __init__(self, func: FuncOp, waves: int, device: Device):
        self.func = func
        self.device = device
        self.kind_of = {stage: stage_kind(stage) for stage in leaf_stages(func)}
        self.kinds = list(dict.fromkeys(self.kind_of.values()))
        self.subcores = {kind: 1 for kind in self.kinds}
        for stage, kind in self.kind_of.items():
            parallel = enclosing_parallel(stage, func)
            if parallel is not None:
                self.subcores[kind] = max(self.subcores[kind], parallel.num_instances.value.data)
        writers, readers = self._fifo_ops()
        self.fifo_ends = {slot: (self.kind_of[stage_of(writers[slot])],
                                 self.kind_of[stage_of(readers[slot])]) for slot in writers}
        self.inlined = {slot: transfer for slot in writers
                        if (transfer := _inlined_end(writers[slot], readers[slot], self.kind_of))}
        self.inlined_at = {transfer: readers[slot] if transfer is writers[slot] else writers[slot]
                           for slot, transfer in self.inlined.items()}
        """Each inlined transfer and the op at the other end of its FIFO, where it runs."""
        for slot in writers.keys() - self.inlined.keys():
            _check_handed_over(writers[slot], readers[slot], self.kind_of)
        self.handoffs = self._handoffs(waves)
        self.handoffs += self._reuses(waves, {_key(h) for h in self.handoffs})
        self.kinds_in = self._kinds_in()

    def _fifo_ops(self) -> tuple[dict[SSAValue, Operation], dict[SSAValue, Operation]]:
        """The op writing and the op reading every FIFO slot."""
        writers: dict[SSAValue, Operation] = {}
        readers: dict[SSAValue, Operation] = {}
        for stage in self.kind_of:
            for op in stage.walk():
                if isinstance(op, DataTransferOp):
                    if isinstance(op.destination.type, FifoSlotType):
                        writers[op.destination] = op
                    if isinstance(op.source.type, FifoSlotType):
                        readers[op.source] = op
                elif isinstance(op, WriteToFifoOp):
                    writers[op.fifo_slot] = op
                elif isinstance(op, ReadFromFifoOp):
                    readers[op.fifo_slot] = op
        for slot in writers.keys() ^ readers.keys():
            raise KtcError("a FIFO slot is written but never read, or read but never written",
                           where(slot.owner))
        return writers, readers

    def _accesses(self) -> tuple[dict, dict]:
        writes: dict[Operation, list[StageOp]] = {}
        reads: dict[Operation, list[StageOp]] = {}
        for stage in self.kind_of:
            for op in stage.walk():
                if isinstance(op, memref.LoadOp) and (found := buffer_of(op.memref)):
                    reads.setdefault(found, []).append(stage)
                if not isinstance(op, DataTransferOp):
                    continue
                for value, table in ((op.destination, writes), (op.source, reads)):
                    if isinstance(value.type, MemRefType) and (found := buffer_of(value)):
                        table.setdefault(found, []).append(stage_of(self.inlined_at.get(op, op)))
        return writes, reads

    def _handoffs(self, waves: int) -> list[Handoff]:
        writes, reads = self._accesses()
        handoffs: dict[tuple, Handoff] = {}
        for buffer, writers in writes.items():
            for writer in writers:
                for reader in reads.get(buffer, []):
                    if self.kind_of[writer] == self.kind_of[reader]:
                        continue
                    handoff = self._handoff(writer, reader, buffer, waves)
                    key = _key(handoff)
                    if key in handoffs:
                        handoffs[key].copies = min(handoffs[key].copies, handoff.copies)
                    else:
                        handoffs[key] = handoff
        return list(handoffs.values())

    def _handoff(self, writer: StageOp, reader: StageOp, buffer: Operation, waves: int) -> Handoff:
        reader_path = path_to(reader, self.func)
        reader_blocks = {id(block): child for block, child in reader_path}
        for block, writer_child in path_to(writer, self.func):
            if id(block) in reader_blocks:
                reader_child = reader_blocks[id(block)]
                break
        ops = list(block.ops)
        carried = ops.index(reader_child) < ops.index(writer_child)
        loops: list[Operation | str] = [WAVE] if waves > 1 else []
        parent = block.parent_op()
        chain = []
        while parent is not None and parent is not self.func:
            if isinstance(parent, scf.ForOp | ParallelOp):
                chain.append(parent)
            parent = parent.parent_op()
        handoff = Handoff(self.kind_of[writer], self.kind_of[reader], block, writer_child,
                          reader_child, rotating_copies(buffer, chain[::-1]),
                          loops + chain[::-1], carried)
        handoff.pairs = [(w, r, 0, 0) for w, r in self._pairs(handoff, writer, reader)]
        for is_writer, stage in ((True, writer), (False, reader)):
            if (table := ring_table(stage)) is not None:
                handoff.ring = (is_writer, table)
        if handoff.ring is not None and carried:
            raise KtcError("a copy between cores that reads what a later op of its loop writes "
                           "is not lowered", where(writer))
        return handoff

    def _pairs(self, handoff: Handoff, writer: StageOp | list[StageOp],
               reader: StageOp | list[StageOp]) -> list[tuple]:
        """Which instances of the two kinds exchange the signal (see ``Handoff.pairs``),
        for the writing and the reading stage (or all of them)."""
        if enclosing_parallel(handoff.writer_child, self.func) is not None:
            return [(None, None)]
        writers = self._all_instances(handoff.writer, handoff.writer_child, writer)
        readers = self._all_instances(handoff.reader, handoff.reader_child, reader)
        return [(w, r) for w in writers for r in readers]

    def _all_instances(self, kind: str, child: Operation,
                       stages: StageOp | list[StageOp]) -> list[int | None]:
        found = [self._instances(kind, child, stage)
                 for stage in (stages if isinstance(stages, list) else [stages])]
        return list(dict.fromkeys(instance for each in found for instance in each))

    def _reuses(self, waves: int, known: set[tuple]) -> list[Handoff]:
        """The hand-offs that order the reuse of memory between steps: for buffers
        ``early`` and ``late`` of overlapping bytes, ``early`` dead before ``late``'s
        first step, every kind touching ``early`` signals, after the last step where
        it does, every other kind touching ``late``, before the first step where it
        does (no engine writes ``late``'s bytes while another still reads or writes
        ``early``'s); with waves, ``late``'s kinds signal ``early``'s back, to the
        next wave (carried)."""
        body = self.func.body.block
        placed = [buffer for buffer in buffers(self.func, self.device, {})
                  if buffer.memory.kind != self.device.device_memory
                  and address(buffer.alloc) is not None]
        touches = {buffer.alloc: self._touches(buffer, body) for buffer in placed}
        found: dict[tuple, Handoff] = {}
        for early, late in _reused(placed):
            orders = [(touches[early.alloc], touches[late.alloc], False)]
            if waves > 1:
                orders.append((touches[late.alloc], touches[early.alloc], True))
            for before, after, carried in orders:
                for kind, (_, last, released) in before.items():
                    for other, (first, _, taken) in after.items():
                        if other == kind:
                            continue
                        handoff = Handoff(kind, other, body, last, first, 1,
                                          [WAVE] if waves > 1 else [], carried)
                        key = _key(handoff)
                        if key in known or key in found:
                            continue
                        handoff.pairs = [(w, r, 0, 0) for w, r in self._pairs(handoff, released, taken)]
                        found[key] = handoff
        return list(found.values())

    def _touches(self, buffer: Buffer, body: Block) -> dict[str, tuple[Operation, Operation, list[StageOp]]]:
        """Per engine kind whose stages use ``buffer``: the first and the last step
        where they do, and those stages."""
        steps = {op: index for index, op in enumerate(body.ops)}
        touched: dict[str, tuple[Operation, Operation, list[StageOp]]] = {}
        for user in users(buffer.alloc):
            stage = _leaf_stage(self.inlined_at.get(user, user))
            if stage not in self.kind_of:
                continue
            kind, step = self.kind_of[stage], step_of(stage, body)
            first, last, stages = touched.get(kind, (step, step, []))
            touched[kind] = (min(first, step, key=steps.get), max(last, step, key=steps.get),
                             stages + [stage])
        return touched

    def _instances(self, kind: str, child: Operation, stage: StageOp) -> list[int | None]:
        if not per_subcore(self.device, kind):
            return [None]
        parallel = enclosing_parallel(stage, self.func)
        if parallel is not None and (parallel is child or child.is_ancestor(parallel)):
            return list(range(parallel.num_instances.value.data))
        return [0]

    def _kinds_in(self) -> dict[Operation, set[str]]:
        """Per op with regions, the kinds that run something or signal inside it."""
        kinds: dict[Operation, set[str]] = {}

        def mark(op: Operation | None, found: set[str]) -> None:
            while op is not None and op is not self.func:
                kinds.setdefault(op, set()).update(found)
                op = op.parent_op()

        for stage, kind in self.kind_of.items():
            mark(stage, {kind})
        for handoff in self.handoffs:
            mark(handoff.block.parent_op(), {handoff.writer, handoff.reader})
        return kinds


def _key(handoff: Handoff) -> tuple:
    return (handoff.writer, handoff.reader, handoff.writer_child, handoff.reader_child)


def _leaf_stage(op: Operation) -> StageOp | None:
    """The stage ``op`` runs in, or None outside every stage."""
    while op is not None and not isinstance(op, StageOp):
        op = op.parent_op()
    return op


def _reused(placed: list[Buffer]) -> list[tuple[Buffer, Buffer]]:
    """Pairs (earlier, later) of buffers of one memory whose bytes overlap, the earlier
    dead before the later's first step (``address-assignment`` gave it the space)."""
    def span(buffer: Buffer) -> tuple[int, int]:
        start = address(buffer.alloc)
        return start, start + buffer.footprint

    return [(early, late) for early in placed for late in placed
            if early.memory.kind == late.memory.kind and early.last < late.first
            and span(early)[0] < span(late)[1] and span(late)[0] < span(early)[1]]


def ring_table(stage: StageOp) -> tuple[int, ...] | None:
    """The per-core destination table of a stage's copy between cores, if it has one."""
    for op in stage.walk():
        if isinstance(op, DataTransferOp) and (table := to_tiles(op)) is not None:
            return table
    return None


def per_subcore(device: Device, kind: str) -> bool:
    return device.instances(kind)[0].subcore is not None


def per_core(device: Device, kind: str) -> bool:
    return device.instances(kind)[0].core is not None
