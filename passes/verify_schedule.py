"""The ``verify-schedule`` pass: does the schedule use only what the device has?"""

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from ktc.arch.model import PORT, Device, device_of
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import (
    TO_TILES,
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    ReadFromFifoOp,
    StageOp,
    WriteToFifoOp,
    to_tiles,
)
from ktc.dialects.ktdf_arch import attr_text
from ktc.dialects.ktdp import MemorySpaceAttr, SpyreMemorySpaceAttr, grid_of
from ktc.passes.utils.ir import ancestor, enclosing_function

_KTIR_SPACES = MemorySpaceAttr | SpyreMemorySpaceAttr
"""KTIR memory-space attributes, which the device's mem_space_mapping resolves."""


@dataclass(frozen=True)
class VerifySchedule(ModulePass):
    """Checks a schedule against its device and fails at the first op that asks for
    something the device does not have.

    Expects ScheduleIR after ``path-expansion`` in a module that declares its device:
    ``ktdf.stage``s whose ``applicable_units`` name execution units, FIFO slots
    between neighbours, ``ktdf.data_transfer``s over real datapaths. Checks that

    - every stage names at least one engine in ``applicable_units``, and only
      execution units of the device;
    - every FIFO (``ktdf.fifo.allocate``) joins neighbours: a datapath (possibly
      through switch ports) leads from its source to its destination;
    - every transfer, FIFO read and FIFO write sits in a stage and is one the
      stage's engine can do: it reads a memory only over a datapath from that
      memory to the engine, writes one only over a datapath from the engine, and
      reads (writes) a FIFO only at the end the engine drains (fills). A FIFO that
      starts or ends at a memory is filled or drained by that memory's own port,
      from or into a buffer in that memory;
    - every copy between cores (a transfer with ``ktdf.to_tiles``) runs in a stage on
      the interconnect stop's engine kind alone, from a scratchpad buffer to a
      scratchpad buffer, in a function whose grid runs in one wave; its table has one
      entry per tile, each -1 or the id of a tile of the grid (its own: a copy within
      its scratchpad through its stop).

    Produces the module unchanged.
    """

    name = "verify-schedule"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op)
        schedule = _Schedule(device, datapaths(device))
        for inner in op.walk():
            schedule.check(inner)


def datapaths(device: Device) -> frozenset[tuple[str, str]]:
    """The (source, target) kinds of resources a datapath joins, directly or through
    the ports of a switch; an engine and a memory beside it that no datapath reaches
    (its group's own, as the matrix unit's accumulators) are joined both ways."""
    targets: dict[int, list[int]] = {}
    for link in device.links:
        targets.setdefault(link.source.index, []).append(link.target.index)
    pairs = set()
    for node in device.nodes:
        if node.role == PORT:
            continue
        pending, seen = list(targets.get(node.index, ())), set()
        while pending:
            index = pending.pop()
            if index in seen:
                continue
            seen.add(index)
            target = device.nodes[index]
            if target.role == PORT:
                pending += targets.get(index, ())
            else:
                pairs.add((node.kind, target.kind))
    linked = {node.kind for link in device.links for node in (link.source, link.target)}
    for kind, engine in device.engine_kinds.items():
        own = [memory for memory in engine.local_memories if memory not in linked]
        pairs |= {pair for memory in own for pair in ((kind, memory), (memory, kind))}
    return frozenset(pairs)


@dataclass(frozen=True)
class _Schedule:
    device: Device
    joined: frozenset[tuple[str, str]]
    """What ``datapaths`` gives for the device."""

    def check(self, op: Operation) -> None:
        if isinstance(op, StageOp):
            self._stage(op)
        elif isinstance(op, FifoAllocateOp):
            for slot in op.slots:
                self._fifo(op, slot.type)
        elif isinstance(op, DataTransferOp):
            if (table := to_tiles(op)) is not None:
                self._between_cores(op, table)
            for engine in self._engines(op):
                self._moves(op, engine, op.source, op.destination, into=False)
                self._moves(op, engine, op.destination, op.source, into=True)
        elif isinstance(op, ReadFromFifoOp):
            for engine in self._engines(op):
                self._moves(op, engine, op.fifo_slot, None, into=False)
        elif isinstance(op, WriteToFifoOp):
            for engine in self._engines(op):
                self._moves(op, engine, op.fifo_slot, None, into=True)

    def _stage(self, stage: StageOp) -> None:
        if stage.applicable_units is None:
            raise _error(stage, "has no applicable_units: no engine is assigned to run it")
        for unit in stage.applicable_units.data:
            name = unit.data if isinstance(unit, StringAttr) else attr_text(unit)
            if name not in self.device.engine_kinds:
                raise _error(
                    stage,
                    f"names \"{name}\" in applicable_units, which is no execution unit of "
                    f"device @{self.device.name} (it has "
                    f"{', '.join(self.device.engine_kinds)})",
                )

    def _fifo(self, op: Operation, slot: FifoSlotType) -> None:
        source = self._end(op, slot.source)
        destination = self._end(op, slot.destination)
        if (source, destination) not in self.joined:
            raise _error(
                op,
                f"makes a FIFO from \"{source}\" to \"{destination}\", which are not "
                f"neighbours on device @{self.device.name} (no datapath {source} -> "
                f"{destination})",
            )

    def _engines(self, op: Operation) -> Sequence[str]:
        """The engines that may run ``op``: those of its stage (checked already)."""
        stage = ancestor(op, StageOp)
        if stage is None:
            raise _error(op, "is outside any ktdf.stage, so no engine runs it")
        assert stage.applicable_units is not None
        return [unit.data for unit in stage.applicable_units.data]

    def _moves(
        self, op: Operation, engine: str, value: SSAValue, other: SSAValue | None, into: bool
    ) -> None:
        """``engine`` takes data out of ``value``, or puts data into it when ``into``;
        ``other`` is the transfer's other side."""
        verb = "writes" if into else "reads"
        if isinstance(value.type, FifoSlotType):
            slot = value.type
            end = self._end(op, slot.source if into else slot.destination)
            if end != engine and not self._own_port(op, end, other):
                raise _error(
                    op,
                    f"run by {engine} {verb} the FIFO {_slot_text(slot)}, which only "
                    f"{end} {verb}",
                )
            return
        memory = self._memory(op, value.type)
        source, target = (engine, memory) if into else (memory, engine)
        if (source, target) not in self.joined:
            raise _error(
                op,
                f"run by {engine} {verb} memory \"{memory}\", but device "
                f"@{self.device.name} has no datapath {source} -> {target}",
            )

    def _between_cores(self, op: DataTransferOp, table: Sequence[int]) -> None:
        """A copy from this core's scratchpad into another core's (``ktdf.to_tiles``)."""
        if self.device.interconnect is None:
            raise _error(op, f"copies between cores, but device @{self.device.name} has no "
                             "interconnect")
        stop = self.device.interconnect.stop
        if list(self._engines(op)) != [stop]:
            raise _error(op, f"copies between cores, which device @{self.device.name} does only "
                             f"on the interconnect stop {stop}; its stage runs on "
                             f"{', '.join(self._engines(op))}")
        for side, value in (("source", op.source), ("destination", op.destination)):
            memory = self._memory(op, value.type) if isinstance(value.type, MemRefType) else None
            if memory != self.device.scratchpad:
                raise _error(op, f"copies between cores with a {side} {attr_text(value.type)} "
                                 f"outside the scratchpad \"{self.device.scratchpad}\"")
        self._table(op, table)

    def _table(self, op: DataTransferOp, table: Sequence[int]) -> None:
        """One entry per tile of a one-wave grid: -1 or a tile's id (its own: a copy
        within its scratchpad through its stop)."""
        tiles = prod(grid_of(enclosing_function(op)))
        if tiles > self.device.cores:
            raise _error(op, f"copies between cores in a grid of {tiles} tiles, which does not "
                             f"run in one wave on the {self.device.cores} cores of device "
                             f"@{self.device.name}")
        if len(table) != tiles:
            raise _error(op, f"has a {TO_TILES} table of {len(table)} entries for a grid of "
                             f"{tiles} tiles")
        for tile, to in enumerate(table):
            if to != -1 and not 0 <= to < tiles:
                raise _error(op, f"has {TO_TILES} entry {to} for tile {tile}: an entry is -1 or "
                                 f"the id of a tile, 0 .. {tiles - 1}")

    def _own_port(self, op: Operation, end: str, other: SSAValue | None) -> bool:
        """Whether the FIFO end ``end`` is the memory that ``other``, the transfer's
        buffer on the other side, lives in."""
        if other is None or end not in self.device.memory_kinds:
            return False
        return isinstance(other.type, MemRefType) and self._memory(op, other.type) == end

    def _memory(self, op: Operation, memref: Attribute) -> str:
        """The memory kind a memref lives in."""
        assert isinstance(memref, MemRefType)
        if not isinstance(memref.memory_space, StringAttr | _KTIR_SPACES):
            raise _error(
                op, f"moves {attr_text(memref)}, which has no memory space: its memory is unknown"
            )
        kind = self._kind(op, memref.memory_space)
        if kind not in self.device.memory_kinds:
            raise _error(
                op,
                f"moves {attr_text(memref)}, but \"{kind}\" is no memory of device "
                f"@{self.device.name}",
            )
        return kind

    def _end(self, op: Operation, attr: Attribute) -> str:
        """The unit or memory kind at one end of a FIFO."""
        kind = self._kind(op, attr)
        if kind not in self.device.engine_kinds and kind not in self.device.memory_kinds:
            raise _error(
                op,
                f"has a FIFO end \"{kind}\", which is no execution unit or memory of device "
                f"@{self.device.name}",
            )
        return kind

    def _kind(self, op: Operation, attr: Attribute) -> str:
        """The kind a FIFO end or memory space names: a string as written, or a KTIR
        memory space mapped onto the device's memories."""
        if isinstance(attr, StringAttr):
            return attr.data
        if not isinstance(attr, _KTIR_SPACES):
            return attr_text(attr)
        try:
            return self.device.memory_space(attr).kind
        except KtcError:
            reason = f"uses {attr_text(attr)}, which names no memory of device @{self.device.name}"
            raise _error(op, reason) from None


def _slot_text(slot: FifoSlotType) -> str:
    return f"{attr_text(slot.source)} -> {attr_text(slot.destination)}"


def _error(op: Operation, reason: str) -> KtcError:
    return KtcError(f"'{op.name}' {reason}", where(op))
