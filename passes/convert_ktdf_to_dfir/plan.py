"""The plan of ``convert-ktdf-to-dfir``: what a scheduled program asks of each engine
kind, before any DataflowIR is built.

- which engine kind runs each leaf stage (its one ``applicable_units`` entry);
- the two ends of every FIFO slot (its writer and reader kinds);
- every scratchpad hand-off between two engine kinds (``Handoff``): where its signals
  go, across which loops the buffer is reused, and which sub-core instances talk;
  for a serial schedule also, per pipeline, a hand-off from its last leaf stage of one
  iteration to its first of the next (``serial_handoffs``); and one from every stage
  using a buffer to every stage of another kind writing a later buffer that
  ``address-assignment`` placed on the same bytes (``reuse_handoffs``); and one from
  every copy between cores out of the kernel's scratchpad data to every later store
  into it (``scratchpad_order_handoffs``);
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
    PipelineOp,
    PrivateOp,
    ReadFromFifoOp,
    SelectMemrefOp,
    StageOp,
    WriteToFifoOp,
    address,
    relayed,
    to_tiles,
)
from ktc.passes.analysis.memory_layout import Buffer, buffers

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

    def __init__(self, func: FuncOp, waves: int, device: Device, serial: bool = False):
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
        ordering = (self.reuse_handoffs(waves) + self.scratchpad_order_handoffs(waves)
                    + (self.serial_handoffs(waves) if serial else []))
        known = {_key(handoff) for handoff in self.handoffs}
        for handoff in ordering:
            if _key(handoff) not in known:
                known.add(_key(handoff))
                self.handoffs.append(handoff)
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
                    if self.kind_of[writer] == self.kind_of[reader] and not _relays(writer, reader):
                        continue
                    handoff = self._handoff(writer, reader, buffer, waves)
                    key = _key(handoff)
                    if key in handoffs:
                        handoffs[key].copies = min(handoffs[key].copies, handoff.copies)
                    else:
                        handoffs[key] = handoff
        return list(handoffs.values())

    def reuse_handoffs(self, waves: int) -> list[Handoff]:
        """Buffers of one memory whose lifetimes are steps one after the other may
        share bytes (``address-assignment``), but the engines of consecutive steps run
        at once: per two such buffers on overlapping bytes, a hand-off from every stage
        using the earlier one to every stage of another kind writing the later one, so
        that the later write waits until the earlier buffer's last use is done; and,
        inside loops (the grid's waves included), one from every stage using the later
        one to every stage of another kind writing the earlier one, carried, so that
        the next iteration's write of the earlier buffer waits until this iteration's
        last use of the later one is done. (A stage copying between cores is left out:
        its signals follow its table.)"""
        writes, reads = self._accesses()
        users: dict[Operation, list[StageOp]] = {}
        writers: dict[Operation, list[StageOp]] = {}
        for table, into in ((writes, writers), (writes, users), (reads, users)):
            for buffer, stages in table.items():
                for alloc in _allocs(buffer):
                    into.setdefault(alloc, []).extend(stages)
        placed = [b for b in buffers(self.func, self.device, {}) if address(b.alloc) is not None]
        handoffs = []
        for early in placed:
            for late in placed:
                if not _shares_bytes(early, late):
                    continue
                for first, then, carried in ((early, late, False), (late, early, True)):
                    for user in dict.fromkeys(users.get(first.alloc, [])):
                        for writer in dict.fromkeys(writers.get(then.alloc, [])):
                            if (self.kind_of[user] == self.kind_of[writer]
                                    or ring_table(user) is not None or ring_table(writer) is not None):
                                continue
                            handoff = self._handoff(user, writer, None, waves)
                            if not carried or (handoff.carried and handoff.loops):
                                handoffs.append(handoff)
        return handoffs

    def scratchpad_order_handoffs(self, waves: int) -> list[Handoff]:
        """Per copy between cores out of the kernel's own scratchpad data (a read of
        another tile's scratchpad, which its owner copies) and per later stage of
        another kind storing into the kernel's scratchpad data: a hand-off from the
        copy to the store on the cores that copy, so that the store waits until the
        copy has read what it reads (a stop's copies are in flight at once and read
        their bytes as they go). A store before the copy in its loop is not ordered
        so."""
        copies = [stage for stage in self.kind_of if ring_table(stage) is not None
                  and any(self._kernel_scratchpad(op.source) for op in _transfers(stage))]
        stores = [stage for stage in self.kind_of if ring_table(stage) is None
                  and any(self._kernel_scratchpad(op.destination) for op in _transfers(stage))]
        handoffs = []
        for copy in copies:
            for store in stores:
                if self.kind_of[copy] != self.kind_of[store]:
                    handoff = self._handoff(copy, store, None, waves, order_only=True)
                    if not handoff.carried:
                        handoffs.append(handoff)
        return handoffs

    def _kernel_scratchpad(self, value: SSAValue) -> bool:
        """Whether ``value`` is a view of the kernel's own data in the scratchpad (a
        ``ct_local`` view, not a buffer of the compiler's)."""
        if not isinstance(value.type, MemRefType) or buffer_of(value) is not None:
            return False
        memory = self.device.memory_of(value.type)
        return memory is not None and memory.kind == self.device.scratchpad

    def serial_handoffs(self, waves: int) -> list[Handoff]:
        """Per pipeline outside a stage whose first and last leaf stages run on two
        engine kinds and copy within their core: a carried hand-off from the last to
        the first, so that iteration i + 1 of the loops around it starts once
        iteration i is done (no buffer: the signal orders whole tiles)."""
        handoffs = []
        for pipeline in self.func.walk():
            if not isinstance(pipeline, PipelineOp) or _inside_stage(pipeline):
                continue
            stages = [stage for stage in self.kind_of if pipeline.is_ancestor(stage)]
            first, last = (stages[0], stages[-1]) if stages else (None, None)
            if (first is None or self.kind_of[first] == self.kind_of[last]
                    or ring_table(first) is not None or ring_table(last) is not None):
                continue
            handoffs.append(self._handoff(last, first, None, waves))
        return handoffs

    def _handoff(self, writer: StageOp, reader: StageOp, buffer: Operation | None,
                 waves: int, order_only: bool = False) -> Handoff:
        """The hand-off from ``writer`` to ``reader``; ``order_only`` when the writer is
        a copy between cores whose part in it is local (what it reads)."""
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
        for is_writer, stage in ((False, reader), (True, writer)):
            if (table := ring_table(stage)) is not None:
                handoff.ring = (is_writer and not order_only, table)
        if handoff.ring is not None and carried and not order_only:
            raise KtcError("a copy between cores that reads what a later op of its loop writes "
                           "is not lowered", where(writer))
        return handoff

    def _pairs(self, handoff: Handoff, writer: StageOp, reader: StageOp) -> list[tuple]:
        """Which instances of the two kinds exchange the signal (see ``Handoff.pairs``)."""
        if enclosing_parallel(handoff.writer_child, self.func) is not None:
            return [(None, None)]
        writers = self._instances(handoff.writer, handoff.writer_child, writer)
        readers = self._instances(handoff.reader, handoff.reader_child, reader)
        return [(w, r) for w in writers for r in readers]

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


def _allocs(buffer: Operation) -> list[Operation]:
    """The allocs a buffer is: itself, or the candidates of a select."""
    if isinstance(buffer, SelectMemrefOp):
        return [found for candidate in buffer.candidates if (found := buffer_of(candidate))]
    return [buffer]


def _shares_bytes(early: Buffer, late: Buffer) -> bool:
    """Whether ``late`` lives after ``early`` on some of the same bytes."""
    if early.memory.kind != late.memory.kind or early.last >= late.first:
        return False
    start, end = address(early.alloc), address(late.alloc)
    return start < end + late.footprint and end < start + early.footprint


def _key(handoff: Handoff) -> tuple:
    """What one hand-off's signals are keyed by: the two kinds and child ops."""
    return (handoff.writer, handoff.reader, handoff.writer_child, handoff.reader_child)


def _inside_stage(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, StageOp):
        parent = parent.parent_op()
    return parent is not None


def _transfers(stage: StageOp) -> list[DataTransferOp]:
    return [op for op in stage.walk() if isinstance(op, DataTransferOp)]


def _relays(writer: StageOp, reader: StageOp) -> bool:
    """Whether ``reader`` relays what ``writer``, a copy between cores before it in
    their pipeline, brought: the writer's copies land where the reader copies from
    (``ktdf.relayed``), so the reader on the tile written to waits for it."""
    return (writer.parent_block() is reader.parent_block() and ring_table(writer) is not None
            and any(relayed(op) for op in _transfers(reader))
            and writer.parent_block().get_operation_index(writer)
            < reader.parent_block().get_operation_index(reader))


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
