"""Transfers and FIFO ops for ``convert-ktdf-to-dfir``: a ``ktdf.data_transfer``
becomes a ``dfir.dma`` (between memories, or into another core's scratchpad), a
``dfir.load`` + ``dfir.send`` (memory into a FIFO) or a ``dfir.receive`` +
``dfir.store`` (a FIFO into memory); a transfer whose FIFO's other end runs on the same
engine is emitted there, at that end's k-th run."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from math import prod

from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, UnitAttr, VectorType, i64
from xdsl.ir import Block, Operation, Region, SSAValue

from ktc.dialects.dfir import DmaOp, LoadOp, ReceiveOp, SendOp, SplatOp, StoreOp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import DataTransferOp, FifoSlotType, to_tiles
from ktc.passes.convert_ktdf_to_dfir.plan import stage_loops
from ktc.passes.convert_ktdf_to_dfir.program import Program
from ktc.passes.convert_ktdf_to_dfir.values import Index
from ktc.passes.convert_ktdf_to_dfir.views import Views, reshaped, row_major


class Transfers:
    """The transfers and FIFO ops of one program."""

    def __init__(self, program: Program, views: Views):
        self.p = program
        self.plan = program.plan
        self.views = views

    def transfer(self, op: DataTransferOp) -> None:
        source, dest = op.source_side, op.dest_side
        if isinstance(source.value.type, FifoSlotType):
            self.store_from_fifo(op, self.receive(source.value))
        elif isinstance(dest.value.type, FifoSlotType):
            self.send(dest.value, self.load_into_fifo(op), op)
        elif to_tiles(op) is not None:
            self.copy_between_cores(op)
        elif op.is_splat:
            self.splat_dma(op)
        else:
            self.dma(op)

    def splat_dma(self, op: DataTransferOp) -> None:
        """A copy of one element over a block: a DMA from the element seen in the
        block's shape with every stride 0."""
        for side in (op.source_side, op.dest_side):
            self._unmasked(side, op)
        written = self.views.view(op.dest_side, contiguous=False, user=op)
        if DYNAMIC_INDEX in written.type.get_shape():
            raise KtcError("a splat copy into a block of a size known only at run time is "
                           "not lowered", where(op))
        read = self.views.view(op.source_side, contiguous=True, user=op,
                               broadcast=written.type.get_shape())
        self.p.emit(DmaOp.build(operands=[read, written]))

    def dma(self, op: DataTransferOp) -> None:
        """A copy between memories; a side in a masked view moves only the part inside
        its view's set (``Views.valid``), a copy out of one fills the rest of its
        destination with zeros."""
        sides = (op.source_side, op.dest_side)
        shape = self._common_shape(op) if _kept(sides[0].sizes) != _kept(sides[1].sizes) else None
        contiguous = shape is None and _kept(sides[0].sizes) != _kept(sides[1].sizes)
        read, written = (self.views.valid(side, op, contiguous) for side in sides)
        if shape is not None and not _masked_in_shape(sides, (read, written), shape):
            raise KtcError("a masked copy between blocks of two shapes is lowered only when "
                           "the masked block is the one of the shape both are seen in", where(op))
        if read is not None and written is not None:
            read = [self.p.arith.min(a, b) for a, b in zip(read, written)]
        flags = {"zero_fill": UnitAttr()} if read is not None else {}
        if _reads_indices(op):
            flags["indirect"] = UnitAttr()
        with self._pieces(op, shape is not None or contiguous) as piece:
            part_read, part_written = (self._part(valid, piece) for valid in (read or written, written))
            views = [self.views.view(sides[0], contiguous, user=op, valid=part_read, shape_as=shape, piece=piece),
                     self.views.view(sides[1], contiguous, user=op, valid=part_written, shape_as=shape,
                                     piece=piece)]
            self.p.emit(DmaOp.build(operands=views, properties=flags))

    @contextmanager
    def _pieces(self, op: DataTransferOp, reshaping: bool) -> Iterator[list[Index]]:
        """The copy one piece at a time along the block's leading dimensions up to the
        last whose stride on either side comes at launch (a descriptor holds constant
        strides): an ``scf.for`` over the pieces, the body emitted inside it given the
        piece's positions; the whole block (no positions) when there are none."""
        sides = (op.source_side, op.dest_side)
        depth = max(self.views.launch_strided(side) for side in sides)
        if not depth:
            yield []
            return
        kept = [_kept(side.sizes)[:depth] for side in sides]
        if reshaping or kept[0] != kept[1] or DYNAMIC_INDEX in kept[0]:
            raise KtcError("a copy whose block spans a dimension with a stride known only at "
                           "launch is lowered only between blocks of one static shape", where(op))
        a = self.p.arith
        body = Block(arg_types=[IndexType()])
        self.p.emit(scf.ForOp(a.ssa(0), a.ssa(prod(kept[0])), a.ssa(1), [], Region(body)))
        with self.p.inside(body):
            rest: Index = body.args[0]
            positions: list[Index] = []
            for size in reversed(kept[0]):
                positions.insert(0, a.rem(rest, size))
                rest = a.div(rest, size)
            yield positions
            self.p.emit(scf.YieldOp())

    def _part(self, valid: list[Index] | None, piece: list[Index]) -> list[Index] | None:
        """The valid sizes of one piece of a masked block: the block's past the piece's
        dimensions, the first times 0 when the piece lies outside along one of them."""
        if valid is None or not piece:
            return valid
        a = self.p.arith
        part = list(valid[len(piece):]) or [1]
        for position, size in zip(piece, valid):
            part[0] = a.mul(part[0], a.min(a.max(a.sub(size, position), 0), 1))
        return part

    def _common_shape(self, op: DataTransferOp) -> list[int] | None:
        """A shape both blocks of a copy between blocks of two shapes can be seen in
        (``reshaped``), one of the two, when one of them is not contiguous; None when
        both are (the copy moves one row of elements) or none fits."""
        blocks = [self.views.block(side) for side in (op.source_side, op.dest_side)]
        if None in blocks or all(layout == row_major(shape) for shape, layout in blocks):
            return None
        for target, _ in blocks:
            if all(isinstance(size, int) for size in target) and all(
                    reshaped(shape, layout, target) is not None for shape, layout in blocks):
                return target
        return None

    def copy_between_cores(self, op: DataTransferOp) -> None:
        """A DMA from this core's scratchpad into the one of the core its table names;
        the cores marked -1 copy nothing."""
        table = to_tiles(op)
        cores = [core for core, _ in self.p.instances]
        if len(table) != self.p.df.cores * self.p.df.waves or self.p.df.waves != 1:
            raise KtcError("a copy between cores needs a grid that runs in one wave, with one "
                           "table entry per tile", where(op))
        with self.p.queried_at_use(), self.p.flagged([table[core] >= 0 for core in cores]):
            memory = self.views.root(op.dest_side.value, op)[0]
            remote = self.p.remote(memory, None, [max(table[core], 0) for core in cores])
            source = self.views.view(op.source_side, False, user=op)
            dest = self.views.view(op.dest_side, False, user=op, unit=remote)
            self.p.emit(DmaOp.build(operands=[source, dest]))

    @contextmanager
    def aligned(self, transfer: DataTransferOp) -> Iterator[None]:
        """Emitting an inlined transfer at the other end of its FIFO: the loops of its
        stage take the values of their k-th iteration at the other end's k-th run
        (the linear iteration over the other end's stage loops, delinearized)."""
        a = self.p.arith
        index, total = self.p.linear(stage_loops(self.plan.inlined_at[transfer]))
        loops = stage_loops(transfer)
        trips = [a.ceildiv(a.sub(self.p.value(loop.ub), self.p.value(loop.lb)), self.p.value(loop.step))
                 for loop in loops]
        count: Index = 1
        for trip in trips:
            count = a.mul(count, trip)
        if count != total:
            raise KtcError(f"a FIFO between two stages of one engine is written {count} and "
                           f"read {total} times per run of its pipeline", where(transfer))
        saved = self.p.cache
        self.p.cache = dict(saved)
        for depth in reversed(range(len(loops))):
            position = a.rem(index, trips[depth]) if depth else index
            index = a.div(index, trips[depth]) if depth else index
            loop = loops[depth]
            self.p.env[loop.body.block.args[0]] = a.add(self.p.value(loop.lb),
                                                        a.mul(position, self.p.value(loop.step)))
        try:
            yield
        finally:
            self.p.cache = saved
            for loop in loops:
                self.p.env.pop(loop.body.block.args[0])

    def load_into_fifo(self, op: DataTransferOp) -> SSAValue:
        """The vector a transfer from memory puts into its FIFO slot."""
        slot = op.destination
        self._unmasked(op.source_side, op)
        view = self.views.view(op.source_side, contiguous=True, user=op)
        vector_type = VectorType(slot.type.element_type, [view.type.get_shape()[0]])
        loaded = self.p.emit(LoadOp.build(operands=[view, [self.p.df.constant(0)]],
                                          result_types=[vector_type])).results[0]
        if not op.is_splat:
            return loaded
        return self.p.emit(SplatOp.build(operands=[loaded],
                                         result_types=[_slot_vector(slot, op)])).results[0]

    def store_from_fifo(self, op: DataTransferOp, vector: SSAValue) -> None:
        """A transfer from a FIFO slot into memory stores ``vector``."""
        self._unmasked(op.dest_side, op)
        view = self.views.view(op.dest_side, contiguous=True, user=op)
        self.p.emit(StoreOp.build(operands=[vector, view, [self.p.df.constant(0)]]))

    def _unmasked(self, side, op: DataTransferOp) -> None:
        if self.views.valid(side, op) is not None:
            raise KtcError("a masked view read or written through a FIFO is not lowered: its "
                           "transfers go through a scratchpad", where(op))

    # FIFOs ------------------------------------------------------------------------

    def send(self, slot: SSAValue, vector: SSAValue, writer: Operation) -> None:
        """``writer`` puts ``vector`` into ``slot``."""
        reader = self.plan.fifo_ends[slot][1]
        expected = _slot_vector(slot, writer)
        if vector.type != expected:
            raise KtcError(f"{vector.type} does not fill the FIFO slot of {expected}", where(writer))
        if slot in self.plan.inlined and self.plan.inlined[slot].source == slot:
            with self.aligned(self.plan.inlined[slot]):
                self.store_from_fifo(self.plan.inlined[slot], vector)
            return
        if reader == self.p.kind:
            self.p.forwarded[slot] = vector
            return
        ident = self.p.df.fifo_id(slot)
        self.p.emit(SendOp.build(operands=[vector, self.p.peer(reader)],
                                 properties={"id": IntegerAttr(ident, i64)}))

    def receive(self, slot: SSAValue) -> SSAValue:
        writer, _ = self.plan.fifo_ends[slot]
        if slot in self.plan.inlined and self.plan.inlined[slot].destination == slot:
            with self.aligned(self.plan.inlined[slot]):
                return self.load_into_fifo(self.plan.inlined[slot])
        if writer == self.p.kind:
            return self.p.forwarded[slot]
        ident = self.p.df.fifo_id(slot)
        return self.p.emit(ReceiveOp.build(operands=[self.p.peer(writer)],
                                           properties={"id": IntegerAttr(ident, i64)},
                                           result_types=[_slot_vector(slot, slot.owner)])).results[0]

    # Memory views -------------------------------------------------------------------


def _slot_vector(slot: SSAValue, user: Operation) -> VectorType:
    slot_type = slot.type
    if slot_type.is_dynamic:
        raise KtcError("a FIFO slot of dynamic size is not lowered", where(user))
    return VectorType(slot_type.element_type, [slot_type.num_elements.data])


def _reads_indices(op: DataTransferOp) -> bool:
    """Whether the transfer's position depends on an index read from memory (an
    indirect access: ``indirect-access-lowering``)."""
    seen: set[SSAValue] = set()
    pending = list(op.operands)
    while pending:
        value = pending.pop()
        owner = value.owner
        if value in seen or not isinstance(owner, Operation) or owner.regions:
            continue
        seen.add(value)
        if isinstance(owner, memref.LoadOp):
            return True
        pending.extend(owner.operands)
    return False


def _masked_in_shape(sides, valid, shape: Sequence[int]) -> bool:
    """Whether a copy between blocks of two shapes, seen in ``shape``, masks at most
    the side whose block has that shape (its valid sizes are then sizes of ``shape``;
    a gathered tile copied out of a masked view into a scratchpad buffer of another
    shape)."""
    return all(part is None or _kept(side.sizes) == _kept(shape) for side, part in zip(sides, valid))


def _kept(sizes: Sequence[int]) -> list[int]:
    """The static sizes of a block without its unit dimensions (``DYNAMIC`` stays)."""
    return [size for size in sizes if size != 1] or [1]

