"""Signals for ``convert-ktdf-to-dfir``: each scratchpad hand-off between two engine
kinds becomes ``dfir.sync_send`` / ``dfir.sync_recv`` pairs, forward (the buffer is
filled) and, inside loops, backward (a copy may be written again), guarded so that
every send has its receive; a copy between cores signals the reader on the core it
writes to, which waits for each core copying to it."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Operation

from ktc.dialects.dfir import SyncRecvOp, SyncSendOp
from ktc.passes.convert_ktdf_to_dfir.plan import Handoff
from ktc.passes.convert_ktdf_to_dfir.program import Program


class Signals:
    """The signals of one program, emitted around the ops that write and read a
    hand-off's buffer."""

    def __init__(self, program: Program):
        self.p = program
        self.at_child: dict[Operation, list[Handoff]] = {}
        for handoff in program.plan.handoffs:
            for child in (handoff.writer_child, handoff.reader_child):
                self.at_child.setdefault(child, []).append(handoff)

    def at(self, op: Operation, before: bool) -> None:
        """Signals of the hand-offs whose writing or reading child ``op`` is: forward
        after the writer and before the reader; backward (inside loops) after the
        reader and before the writer. A carried hand-off (reader first) has only the
        signal from the writer's iteration i to the reader's iteration i + 1."""
        for handoff in self.at_child.get(op, []):
            writing = op is handoff.writer_child and handoff.writer == self.p.kind
            reading = op is handoff.reader_child and handoff.reader == self.p.kind
            if handoff.carried:
                if handoff.loops and ((before and reading) or (not before and writing)):
                    self.later(handoff, send=writing, sender_writes=True)
                continue
            if before and writing and handoff.loops:
                self.later(handoff, send=False, sender_writes=False)
            if before and reading:
                self.forward(handoff, send=False)
            if not before and writing:
                self.forward(handoff, send=True)
            if not before and reading and handoff.loops:
                self.later(handoff, send=True, sender_writes=False)

    def forward(self, handoff: Handoff, send: bool) -> None:
        """Writer to reader: the buffer is filled."""
        self.exchange(handoff, send, writer_side=send, backward=False)

    def exchange(self, handoff: Handoff, send: bool, writer_side: bool, backward: bool) -> None:
        """The forward or backward signals of ``handoff`` on its writer's or reader's
        side. A copy between cores takes part on the cores that copy only; when it is
        the writer, each copying core exchanges with the core it writes to, which
        exchanges with every core writing to it (the k-th in ascending id on the k-th
        of ``slot_ids``). The values these take per core are queried where they are
        used for a copy between cores, one set per reader rank (``queried_at_use``)."""
        with self.p.queried_at_use(handoff.ring is not None):
            self._exchange(handoff, send, writer_side, backward)

    def _exchange(self, handoff: Handoff, send: bool, writer_side: bool, backward: bool) -> None:
        position = 3 if backward else 2
        pairs = list(enumerate(self._pairs(handoff, writer_side)))
        ring_writes, table = handoff.ring or (False, None)
        cores = [core for core, _ in self.p.instances]
        if not ring_writes:
            with self.p.flagged([table is None or table[core] >= 0 for core in cores]):
                for index, (mine, theirs) in pairs:
                    self.sync(handoff, send, mine, theirs, handoff.pairs[index][position])
            return
        for index, (mine, theirs) in pairs:
            for k, ids in enumerate(handoff.slot_ids[index]):
                flags, peers = (_copying(table, k, cores) if writer_side
                                else _copied_from(table, k, cores))
                with self.p.flagged(flags):
                    self.sync(handoff, send, mine, theirs, ids[1 if backward else 0], peers)

    def later(self, handoff: Handoff, send: bool, sender_writes: bool) -> None:
        """A signal to a later iteration: the sender signals after iteration
        i < total - copies, the receiver waits before iteration i >= copies. Backward
        (the reader frees a copy for the writer) or carried (``sender_writes``)."""
        index, total = self.p.linear(handoff.loops)
        a = self.p.arith
        copies = 1 if handoff.carried else handoff.copies
        if send:
            condition = a.compare("slt", a.add(index, copies), total)
        else:
            condition = a.compare("sge", index, copies)
        with self.p.guarded(condition):
            self.exchange(handoff, send, writer_side=send == sender_writes, backward=True)

    def _pairs(self, handoff: Handoff, writer_side: bool) -> list[tuple[int | None, int | None]]:
        """(my sub-core, the peer's sub-core) per signal, seen from this program."""
        return [(w, r) if writer_side else (r, w) for w, r, _, _ in handoff.pairs]

    def sync(self, handoff: Handoff, send: bool, mine: int | None, theirs: int | None, ident: int,
             cores: Sequence[int] | None = None) -> None:
        """One signal with the peer's sub-core ``theirs``, on this instance's core or,
        per instance, on ``cores``."""
        peer_kind = handoff.reader if self.p.kind == handoff.writer else handoff.writer
        op_type = SyncSendOp if send else SyncRecvOp
        peer = (self.p.peer(peer_kind, theirs) if cores is None
                else self.p.remote(peer_kind, theirs, cores))
        build = lambda: self.p.emit(op_type.build(operands=[peer],
                                                  properties={"id": IntegerAttr(ident, i64)}))
        if mine is None or self.p.subcores == 1:
            build()
            return
        with self.p.guarded(self.p.arith.compare("eq", self.p.my_subcore(), mine)):
            build()


def fan_in(table: Sequence[int]) -> int:
    """The most copies between cores that land on one core."""
    return max((list(table).count(core) for core in set(table) if core >= 0), default=0)


def _senders(table: Sequence[int], core: int) -> list[int]:
    """The cores copying to ``core``, ascending."""
    return [sender for sender, to in enumerate(table) if to == core]


def _copying(table: Sequence[int], k: int, cores: Sequence[int]) -> tuple[list[bool], list[int]]:
    """Per instance: whether its core is the k-th of the cores copying to the same core,
    and that core."""
    flags = [table[core] >= 0 and _senders(table, table[core]).index(core) == k for core in cores]
    return flags, [max(table[core], 0) for core in cores]


def _copied_from(table: Sequence[int], k: int, cores: Sequence[int]) -> tuple[list[bool], list[int]]:
    """Per instance: whether more than k cores copy to its core, and the k-th of them
    (its own core when there is none, unused)."""
    found = [_senders(table, core) for core in cores]
    return [len(f) > k for f in found], [f[k] if len(f) > k else core for f, core in zip(found, cores)]

