"""``contraction-pipeline``: every tiled contraction as a schedule on the engine
``contraction-tiling`` chose for it.

On the matrix unit, a contraction ``C[m, n] += A[m, k] * B[k, n]`` of loaded tiles,
maybe accumulated over the iterations of a loop (the kernel's own loop over k),
becomes one ``ktdf.pipeline`` the later passes take as built (a phase of its own): for
each output tile the unit's accumulators are zeroed; tiles of A and B are copied from
device memory into the scratchpad, each operand by a DMA stage of its own into two
buffers used in turn, so that the copy of the next k tile overlaps the feed of this
one (A as chunks of ``m x chunk``, B as blocks of ``k x block``, so that each operand the unit takes is contiguous; an operand stored
k-major, A as ``k x m`` or B as ``n x k``, is transposed by that copy: it reads the
stored rows whole and writes each element to its place in the chunk or block, except
a B stored ``n x k`` on a matrix unit that takes it so (``transposed_rhs``), copied as
stored into ``block x chunk`` chunks, block by block, and multiplied through the map
(n, k); an A
computed on chip is stored into a scratchpad buffer before the pipeline and not
copied, its chunk the output tile's rows over the chunk's columns of the k tile:
row-major when a chunk is whole rows, else chunk-major, ``K / chunk`` row-major blocks
of ``chunk`` columns each, so that any rows of a chunk are contiguous; each block is
stored from a slice of A, which ``fold-reshapes-and-slices``, run again after this
pass, folds into the compute that makes A), the load unit streams them through
its FIFO and the unit multiplies each pair into a block of
``m x block`` accumulators, for every iteration of the kernel's loop; then the
accumulators leave, a row of a block at a time, through the drain FIFO into a
scratchpad buffer of the whole result in the accumulator type. With an operand
``resident`` (``contraction-tiling``), its panel (every k tile of it over the kernel's
loop) is one scratchpad buffer for the whole product: the output tiles that share it
follow one another (a column of tiles for B, a row for A) and only the first copies
each k tile of it from device memory (under an ``scf.if``); the others read it where
it is. On a core with a matrix unit in each sub-core (``Device.matrix_subcores``: two
on spyre), an output tile's blocks of accumulators (when it has several) are
shared out over them: zeroing, streaming and multiplying, and draining each run as a
``ktdf.parallel`` over the blocks, each sub-core's load unit feeding its own unit from
the k tiles the DMA copied once into the scratchpad they share, and its store unit
draining its blocks; each unit's accumulators hold only its own blocks (the
``ktdf.parallel`` gives each a run of consecutive blocks, each at its place in the
run). A tile of fewer blocks than units, or of a count of blocks they do not divide,
has each block cut into runs of rows (``UnitShares``), the pieces shared out the same
way: each unit's load unit feeds it its rows of A's chunks and the whole chunk of the
piece's block of B, and its store unit drains its rows. When the kernel only stores
the product (one ``ktdp.store`` of it, the accumulator zero, into a box of a memory
view whose tile is known before the product), each output tile is stored as soon as it
is drained: its part of the result buffer is loaded, rounded to the stored type into a
scratchpad buffer of one output tile, and the DMA copies that buffer, rows whole, to
the tile's place in device memory, so the store overlaps the next output tile's
products and each row written is contiguous. Otherwise the contraction's result is
that buffer, loaded and rounded once to the result's type: written once, after the
last product (and, when a reduction reads it, stored rounded into a scratchpad buffer
and loaded back, as on the SIMD engine below).

On the SIMD engine (a device without a matrix unit for the operands), the contraction
stays a generic, rewritten to multiply and reduce along k innermost: an input stored
with k outer is loaded through a view of its memory with the dimensions permuted, or,
when it is the whole of a scratchpad buffer that only copies write (a gathered tile),
from a buffer laid out permuted, which those copies write through a strided cast.
The passes after this one schedule it as any reduction. A product that a reduction
reads (attention's scores) is stored into a scratchpad buffer of its shape and loaded
back, so that its readers are a chain of their own, tiled as they need.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSet
from xdsl.ir.affine.affine_set import AffineConstraintExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.upstream import ApplyOp
from ktc.passes.analysis.contractions import (
    Contraction,
    canonical,
    contraction,
    feeds_rhs_transposed,
    is_zero,
    loaded_from_view,
    matmul_maps,
    unit_shares,
)
from ktc.passes.utils.affine import box
from ktc.passes.utils.ir import enclosing_function, erase_unused, locate
from ktc.passes.utils.loops import static_trip_count
from ktc.passes.utils.phases import programs
from ktc.passes.utils.tiles import at_origin, box_tile, origin
from ktc.passes.utils.transfers import clone_needed
from ktc.passes.utils.views import type_with_memory


STREAMED_COPIES = 2
"""Scratchpad buffers of each streamed operand's k tile, used in turn by consecutive
k tiles (``contraction-tiling`` counts them: double-buffered)."""

Body = Callable[[SSAValue, Sequence[SSAValue]], list[Operation]]
"""A stage's work for one piece of the accumulators, given the piece and the FIFO slots."""


@dataclass(frozen=True)
class ContractionPipeline(ModulePass):
    """Schedule every tiled contraction on its engine.

    Expects programs (from ``compute-group-extraction``) whose contractions are
    canonical generics with ``ktdf.contraction_tiles`` (``contraction-tiling``). On
    the matrix unit: over ``ktdp.load``s of access tiles (identity order) of memory
    views with constant strides, the innermost 1, A stored m x k or k x m and B k x n or
    n x k (A may instead be computed on chip, without such a loop); the
    accumulator a zero (constant, fill or empty tensor), another tensor (added after),
    or the ``iter_args`` of an ``scf.for`` that holds nothing but the loads, their
    tiles, index arithmetic and the contraction, and yields it.

    Produces, for the matrix unit, where the contraction (or its loop) was: a
    ``ktdf.pipeline`` with one stage on the DMA, load, matrix and store kinds holding,
    per output tile, a pipeline zeroing the accumulators (in the matrix unit's own
    memory), the kernel's loop (from 0 in steps of 1) around a loop over k tiles of a
    pipeline (a DMA stage copying the A tile, then one copying the B tile, each into
    the one of the operand's two scratchpad buffers, allocated at the function's start,
    that a ``ktdf.buffer_phase`` over the loops around the pipeline selects
    (``ktdf.select_memref``: consecutive k tiles use them in turn), in the order of the
    stored rows, so that a k-major operand is written
    transposed; a resident operand's k tile a view of its panel, a scratchpad buffer
    allocated at the function's start, copied only by the first output tile sharing it,
    the output tiles in column order when it is B's; the load unit streaming chunks of A
    and blocks of B through its FIFO, an A computed on chip stored before the
    pipeline into a scratchpad buffer, row-major when its chunks are whole rows, else
    chunk-major, a ``ktdp.store`` of a ``tensor.extract_slice`` per block; the matrix
    unit multiplying each pair into a block of accumulators), and a pipeline draining
    the accumulators row by row into a scratchpad buffer of the whole result in the
    accumulator type; with several matrix units a core, one per sub-core, sharing
    the output tile (``UnitShares``: its blocks as wide as the lanes, or its one
    block, each cut into ``parts`` runs of ``rows`` rows), the zeroing, the streaming
    and multiplying, and the draining each a stage (on their kinds) holding a
    ``ktdf.parallel`` over the pieces (``num_instances`` the units, lower bound 0,
    step 1) whose body is one pipeline for its piece (rows ``(j mod parts) * rows``
    of block ``j floordiv parts``), its FIFOs private to it, the DMA stage staying
    outside; the accumulators (``per_unit x rows x block``) each unit's pieces,
    piece j at ``j`` modulo that count. When the
    product's one use is a ``ktdp.store`` of it (zero accumulator) into an identity-order
    box of a memory view whose tile's operands are defined before the product: an
    ``scf.for`` over the output tiles, each iteration that pipeline for one tile, then
    the tile's part of the result buffer loaded, rounded (``arith.truncf``) and stored
    into a scratchpad buffer of one output tile (allocated at the function's start), and
    a pipeline of one stage on the engine copying scratchpad to device memory moving that
    buffer to the tile's place in the view; the kernel's store erased. Otherwise, after
    the pipeline, an access tile of that buffer loaded, converted to the result type (a non-zero accumulator added) in place of the contraction's result
    (stored and loaded back, as below, when a reduction reads it); the loads, tiles and
    loop erased. For the SIMD engine: the generic with k innermost in
    both inputs, an input stored otherwise loaded through a permuted view, without
    ``ktdf.contraction_tiles``; when a reduction reads its result (directly or through
    other ops), the result stored into a scratchpad ``memref.alloc`` of its shape (at
    the function's start) right after it and loaded back for its readers. With no tiled contraction left, running the pass again
    changes nothing. Other forms are errors at the op.
    """

    name = "contraction-pipeline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        found = [c for program in programs(op) for inner in program.walk()
                 if (c := contraction(inner)) is not None and ktdf.contraction_tiles(inner)]
        if not found:
            return
        device = device_of(op)
        for c in found:
            tiles = ktdf.contraction_tiles(c.op)
            if tiles.engine == device.compute_kind:
                _simd_form(c, device)
            else:
                _Schedule(c, tiles, device).build()


# ---------------------------------------------------------------------------------
# What the contraction reads
# ---------------------------------------------------------------------------------


@dataclass
class _Operand:
    """A loaded tile: its load, tile, view, the view's strides and whether it is stored
    k-major (A as k x m, B as n x k)."""

    load: ktdp.LoadOp
    tile: ktdp.ConstructAccessTileOp
    view: SSAValue
    strides: list[int]
    transposed: bool


def _operand(value: SSAValue, user: Operation, device: Device, transposed: bool) -> _Operand:
    load = value.owner
    if not isinstance(load, ktdp.LoadOp):
        raise KtcError("a contraction on the matrix unit takes tiles loaded with ktdp.load",
                       where(user))
    tile = load.access_tile.owner
    view = tile.base.owner if isinstance(tile, ktdp.ConstructAccessTileOp) else None
    if not isinstance(view, ktdp.ConstructMemoryViewOp):
        raise KtcError("the contraction's operand is not a tile of a ktdp.construct_memory_view",
                       where(load))
    order = tile.access_tile_order.data
    strides = list(view.static_strides.get_values())
    if order != AffineMap.identity(order.num_dims) or view.strides or strides[-1] != 1:
        raise KtcError("the contraction's operand tile must be read in memory order from a "
                       "view of constant strides, the innermost 1", where(tile))
    type_with_memory(view, device)
    return _Operand(load, tile, view.result, strides, transposed)


def _accumulating_loop(c: Contraction, operands: Sequence[_Operand]) -> scf.ForOp | None:
    """The loop whose one iteration argument the contraction accumulates into and
    yields, holding nothing else but its operands' loads and index arithmetic."""
    init = c.init
    if not isinstance(init, BlockArgument) or not isinstance(init.block.parent_op(), scf.ForOp):
        return None
    loop = init.block.parent_op()
    if len(loop.iter_args) != 1 or loop.body.block.last_op.operands[0] != c.result:
        raise KtcError("a loop accumulating a contraction carries that one value and yields "
                       "the contraction", where(loop))
    allowed = {c.op, loop.body.block.last_op, *(op for o in operands for op in (o.load, o.tile))}
    for op in loop.body.block.ops:
        if op not in allowed and (op.regions or not is_side_effect_free(op)):
            raise KtcError(f"'{op.name}' in a loop accumulating a contraction; the loop may "
                           "hold only the contraction, its loads and index arithmetic", where(op))
    return loop


# ---------------------------------------------------------------------------------
# The schedule on the matrix unit
# ---------------------------------------------------------------------------------


@dataclass
class _Schedule:
    c: Contraction
    tiles: ktdf.ContractionTiles
    device: Device
    hoisted: list[Operation] = field(default_factory=list)
    """Constants and trip counts, placed before the pipeline."""
    constants: dict[int, SSAValue] = field(default_factory=dict)

    def build(self) -> None:
        c, device = self.c, self.device
        if not c.is_matrix_product:
            raise KtcError("the matrix unit's schedule takes C[m, n] += A[m, k] * B[k, n]",
                           where(c.op))
        self.lhs = (_operand(c.lhs, c.op, device, c.transposed(0)) if loaded_from_view(c.lhs)
                    else None)
        self.rhs = _operand(c.rhs, c.op, device, c.transposed(1))
        self.rhs_fed_transposed = feeds_rhs_transposed(c, device)
        self.loop = _accumulating_loop(c, [o for o in (self.lhs, self.rhs) if o is not None])
        if self.lhs is None and self.loop is not None:
            raise KtcError("a loop accumulating a contraction on the matrix unit loads both "
                           "operands from memory views", where(self.loop))
        sizes = c.sizes()
        self.M, self.N, self.K = sizes[c.m[0]], sizes[c.n[0]], sizes[c.k[0]]
        self.unit = device.matrix
        self.input = c.lhs.type.get_element_type()
        self.acc = self.unit.accumulator
        anchor = self.loop if self.loop is not None else c.op
        t = self.tiles
        self.shares = unit_shares(device, t.m, t.n, t.block)
        self.result_buffer = memref.AllocOp([], [], MemRefType(
            self.acc, [self.M, self.N], memory_space=StringAttr(device.scratchpad)))
        self.accumulators = memref.AllocOp([], [], MemRefType(
            self.acc, [self.shares.per_unit, self.shares.rows, t.block], memory_space=StringAttr(self.unit.accumulators)))
        entry = enclosing_function(anchor).body.block
        self.stored = self._stored_whole(anchor)
        self.rounded = (memref.AllocOp([], [], MemRefType(
            self.stored.data_tile.type.get_element_type(), [t.m, t.n],
            memory_space=StringAttr(device.scratchpad))) if self.stored is not None else None)
        self.panel = self._panel()
        self.streamed = self._streamed()
        allocated = [self.result_buffer, self.accumulators, *([self.panel] if self.panel else []),
                     *([self.rounded] if self.rounded else []),
                     *(copy for copies in self.streamed.values() for copy in copies)]
        Rewriter.insert_op(allocated, InsertPoint.at_start(entry))
        self.staged = self._stage_lhs(entry, anchor) if self.lhs is None else None
        outer = self._outer()
        for built in (*allocated, *self.hoisted, outer):
            locate(built, c.op.location)
        Rewriter.insert_op([*self.hoisted, outer], InsertPoint.before(anchor))
        self._replace_result(anchor)

    def _stored_whole(self, anchor: Operation) -> ktdp.StoreOp | None:
        """The kernel's one use of the product (accumulated from zero), when it is a
        store of the whole of it into a box of a memory view of constant strides, the
        innermost 1, whose tile is known before the product (so each output tile can
        be stored as soon as it is drained); else None."""
        c = self.c
        result = self.loop.results[0] if self.loop is not None else c.result
        init = self.loop.iter_args[0] if self.loop is not None else c.init
        uses = list(result.uses)
        if not is_zero(init) or len(uses) != 1:
            return None
        store = uses[0].operation
        if not isinstance(store, ktdp.StoreOp) or store.data_tile is not result:
            return None
        target = store.access_tile.owner
        view = target.base.owner if isinstance(target, ktdp.ConstructAccessTileOp) else None
        if (not isinstance(view, ktdp.ConstructMemoryViewOp) or view.strides
                or list(view.static_strides.get_values())[-1] != 1
                or target.access_tile_order.data != AffineMap.identity(2)
                or target.access_tile_set.data != box([self.M, self.N])
                or not all(_before(value, anchor) for value in target.operands)):
            return None
        type_with_memory(view, self.device)
        return store

    def _stage_lhs(self, entry: Block, anchor: Operation) -> memref.AllocOp:
        """A computed on chip, stored into a scratchpad buffer before the product so
        that each ``m x chunk`` chunk the load unit feeds the matrix unit is contiguous
        in it: row-major (``M x K``) when the chunks are whole rows, else chunk-major
        (``K / chunk x M x chunk``: each ``chunk`` columns of A a row-major block of
        their own), written as one store per block of a slice of A
        (``fold-reshapes-and-slices``, run again after this pass, folds the slices
        into the compute that makes A)."""
        c, t = self.c, self.tiles
        pieces = 1 if self._row_major_staging() else self.K // t.chunk
        shape = [self.M, self.K] if pieces == 1 else [pieces, self.M, t.chunk]
        buffer = memref.AllocOp([], [], MemRefType(self.input, shape,
                                                   memory_space=StringAttr(self.device.scratchpad)))
        stores: list[Operation] = []
        for piece in range(pieces):
            value, into = c.lhs, buffer.memref
            if pieces > 1:
                sliced = tensor.ExtractSliceOp.from_static_parameters(
                    c.lhs, [0, piece * t.chunk], [self.M, t.chunk])
                stores.append(sliced)
                value = sliced.result
                into = _cast(buffer.memref, piece * self.M * t.chunk, [self.M, t.chunk],
                             [t.chunk, 1], stores)
            tile = box_tile(into, origin(2), [], list(value.type.get_shape()))
            stores += [tile, ktdp.StoreOp.build(operands=[value, tile.result])]
        for op in (buffer, *stores):
            op.location = c.op.location
        Rewriter.insert_op(buffer, InsertPoint.at_start(entry))
        Rewriter.insert_op(stores, InsertPoint.before(anchor))
        return buffer

    def _row_major_staging(self) -> bool:
        """Whether a staged A is fed whole rows (one chunk spans k): its row-major
        layout then makes each chunk contiguous; any other chunk is a block of the
        chunk-major layout (one row an output tile included: row-major, its chunks
        would start on the scratchpad's alignment only for rows that do)."""
        return self.tiles.chunk == self.K

    def _panel(self) -> memref.AllocOp | None:
        """The scratchpad buffer of the resident operand's panel (``tiles.resident``):
        one k tile of it per k tile of the whole product (the kernel's loop times the
        k tiles of one iteration), each laid out as that operand's streamed tile."""
        t = self.tiles
        if t.resident == "none":
            return None
        depth = (static_trip_count(self.loop) if self.loop is not None else 1) * (self.K // t.k)
        return memref.AllocOp([], [], MemRefType(self.input, [depth, *self._tile_shape(t.resident)],
                                                 memory_space=StringAttr(self.device.scratchpad)))

    def _tile_shape(self, operand: str) -> list[int]:
        """The scratchpad layout of one k tile of A (chunks of ``m x chunk``) or B
        (blocks of ``k x block``; of a B the unit takes ``n x k``, its blocks' chunks
        of ``block x chunk``, block by block)."""
        t = self.tiles
        if operand == "lhs":
            return [t.k // t.chunk, t.m, t.chunk]
        if self.rhs_fed_transposed:
            return [(t.n // t.block) * (t.k // t.chunk), t.block, t.chunk]
        return [t.n // t.block, t.k, t.block]

    def _origin(self, tile: AffineExpr) -> tuple[AffineExpr, AffineExpr]:
        """The first row and column of output tile ``tile``: in column order when B's
        panel stays (the tiles of a column share it, one after another), else in row
        order (those of a row share A's)."""
        t = self.tiles
        rows, columns = self.M // t.m, self.N // t.n
        if t.resident == "rhs":
            return (tile % rows) * t.m, (tile // rows) * t.n
        return (tile // columns) * t.m, (tile % columns) * t.n

    def _sharers(self) -> int:
        """The output tiles that share one panel of the resident operand."""
        t = self.tiles
        return self.M // t.m if t.resident == "rhs" else self.N // t.n

    # Loops and constants ----------------------------------------------------------

    def _constant(self, value: int) -> SSAValue:
        if value not in self.constants:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            self.hoisted.append(op)
            self.constants[value] = op.result
        return self.constants[value]

    def _loops(self, trips: Sequence[int], body: Callable[..., list[Operation]]) -> list[Operation]:
        """A nest of loops from 0 to each trip count in steps of 1, ``body`` given the
        induction variables."""
        def nest(depth: int, ivs: list[SSAValue]) -> list[Operation]:
            if depth == len(trips):
                return body(*ivs)
            return [_for(self._constant(0), self._constant(trips[depth]), self._constant(1),
                         lambda iv: nest(depth + 1, [*ivs, iv]))]
        return nest(0, [])

    # The pipeline -----------------------------------------------------------------

    def _outer(self) -> Operation:
        t = self.tiles
        tiles = (self.M // t.m) * (self.N // t.n)
        units = [StringAttr(kind) for kind in
                 (self.device.mover(self.device.device_memory, self.device.scratchpad), self.unit.feeds[0], self.unit.kind, self.unit.drains[0])]
        if self.stored is None:
            body = self._loops([tiles], lambda tile: [
                self._zero(), *self._over_k(tile), self._drain_pipeline(tile)])
            return _pipeline([(body, units)])
        return self._loops([tiles], lambda tile: [
            _pipeline([([self._zero(), *self._over_k(tile), self._drain_pipeline(tile)], units)]),
            *self._epilogue(tile)])[0]

    def _epilogue(self, tile: SSAValue) -> list[Operation]:
        """Output tile ``tile`` of the result buffer loaded, rounded to the result's
        type into a scratchpad buffer of one output tile, and that buffer copied to
        its place in the kernel's output (its rows whole, each contiguous in device
        memory)."""
        t = self.tiles
        store = self.stored
        row, column = self._origin(AffineExpr.dimension(0))
        part = box_tile(self.result_buffer.memref, AffineMap(1, 0, (row, column)), [tile], [t.m, t.n])
        load = ktdp.LoadOp.build(operands=[part.result], result_types=[TensorType(self.acc, [t.m, t.n])])
        ops: list[Operation] = [part, load]
        value = load.result
        element = store.data_tile.type.get_element_type()
        if element != self.acc:
            ops.append(arith.TruncFOp(value, TensorType(element, [t.m, t.n])))
            value = ops[-1].result
        into = box_tile(self.rounded.memref, origin(2), [], [t.m, t.n])
        ops += [into, ktdp.StoreOp.build(operands=[value, into.result])]
        target = store.access_tile.owner
        view = target.base.owner
        output = _Operand(None, target, view.result, list(view.static_strides.get_values()), False)
        moved: list[Operation] = []
        at = self._offset(output, {}, (row, column), [tile], moved)
        source = _cast(self.rounded.memref, 0, [t.m, t.n], [t.n, 1], moved)
        dest = _cast(view.result, at, [t.m, t.n], output.strides, moved)
        moved.append(ktdf.DataTransferOp(source, [t.m, t.n], dest, [t.m, t.n],
                                         source_access=(origin(2), []), dest_access=(origin(2), [])))
        dma = [StringAttr(self.device.mover(self.device.scratchpad, self.device.device_memory))]
        ops.append(_pipeline([(moved, dma)]))
        for op in ops:
            locate(op, store.location)
        return ops

    def _over_k(self, tile: SSAValue) -> list[Operation]:
        """The kernel's loop (from 0 in steps of 1) around the loop over k tiles."""
        steps = self.K // self.tiles.k
        if self.loop is None:
            return self._loops([steps], lambda kt: self._tile_pipeline(tile, kt, None, kt, [tile, kt]))
        loop = self.loop
        span = arith.SubiOp(loop.ub, loop.lb)
        trips = arith.CeilDivSIOp(span.result, loop.step)
        self.hoisted += [span, trips]

        def body(iv: SSAValue) -> list[Operation]:
            scaled = arith.MuliOp(iv, loop.step)
            original = arith.AddiOp(loop.lb, scaled.result)

            def k_tile(kt: SSAValue) -> list[Operation]:
                depth = ApplyOp([iv, kt], AffineMapAttr(AffineMap(2, 0, (
                    AffineExpr.dimension(0) * steps + AffineExpr.dimension(1),))))
                return [depth, *self._tile_pipeline(tile, kt, original.result, depth.result,
                                                    [tile, iv, kt])]

            return [scaled, original, *self._loops([steps], k_tile)]

        return [_for(self._constant(0), trips.result, self._constant(1), body)]

    def _zero(self) -> ktdf.PipelineOp:
        """Every block of accumulators set to zero, on the matrix unit."""
        t = self.tiles

        def fill(j: SSAValue) -> list[Operation]:
            view, ops = self._block(j)
            body = Block(arg_types=[self.acc])
            zero = arith.ConstantOp(FloatAttr(0.0, self.acc))
            body.add_ops([zero, YieldOp(zero.result)])
            ops.append(GenericOp([], [view], Region(body), [AffineMapAttr(AffineMap.identity(2))],
                                 [IteratorTypeAttr(IteratorType.PARALLEL)] * 2, []))
            return ops

        stages, resources = self._per_piece([(self.unit.kind, lambda j, _: fill(j))])
        return _pipeline(stages, resources)

    def _tile_pipeline(self, tile: SSAValue, kt: SSAValue, kernel_iv: SSAValue | None,
                       depth: SSAValue, ivs: list[SSAValue]) -> list[Operation]:
        """One k tile (the ``depth``-th of the whole product): copied in, streamed
        through the FIFO, multiplied; the resident operand's tile is its panel's
        ``depth``-th, copied only by the first output tile that shares it."""
        t = self.tiles
        chunks = t.k // t.chunk
        phase = ktdf.BufferPhaseOp(ivs, STREAMED_COPIES)
        before: list[Operation] = [phase] if self.streamed else []
        a_buffer = (self.staged.memref if self.staged is not None
                    else self._k_tile("lhs", depth, phase, before))
        b_buffer = self._k_tile("rhs", depth, phase, before)
        ends = (StringAttr(self.unit.feeds[0]), StringAttr(self.unit.kind))

        def fifos() -> ktdf.FifoAllocateOp:
            return ktdf.FifoAllocateOp([ktdf.FifoSlotType(*ends, rows * t.chunk, self.input),
                                        ktdf.FifoSlotType(*ends, t.chunk * t.block, self.input)])

        rows = self.shares.rows
        d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
        zero = AffineExpr.constant(0)
        block = self._piece_block(d0)
        if self.rhs_fed_transposed:
            b_chunk, b_shape = AffineMap(2, 0, (block * chunks + d1, zero, zero)), [t.block, t.chunk]
        else:
            b_chunk, b_shape = AffineMap(2, 0, (block, d1 * t.chunk, zero)), [t.chunk, t.block]

        def feed(j: SSAValue, slots: Sequence[SSAValue]) -> list[Operation]:
            a_fifo, b_fifo = slots
            return self._loops([chunks], lambda kc: [
                self._a_feed(a_buffer, a_fifo, tile, kt, kc, j),
                ktdf.DataTransferOp(b_buffer, [1, *b_shape], b_fifo, [t.chunk * t.block],
                                    source_access=(b_chunk, [j, kc])),
            ])

        local = StringAttr(self.unit.accumulators)

        def multiply(j: SSAValue, slots: Sequence[SSAValue]) -> list[Operation]:
            a_fifo, b_fifo = slots

            def step(kc: SSAValue) -> list[Operation]:
                a = ktdf.ReadFromFifoOp(a_fifo, MemRefType(self.input, [rows, t.chunk], memory_space=local))
                b = ktdf.ReadFromFifoOp(b_fifo, MemRefType(self.input, b_shape, memory_space=local))
                view, ops = self._block(j)
                maps = matmul_maps(transpose_rhs=self.rhs_fed_transposed)
                return [a, b, *ops, canonical(a.result, b.result, view, maps, 3, (2,))]

            return self._loops([chunks], step)

        dma = [StringAttr(self.device.mover(self.device.device_memory, self.device.scratchpad))]
        copies = [(copy, dma) for copy in self._copies(tile, kt, kernel_iv, a_buffer, b_buffer)]
        stages, fifo = self._per_piece([(self.unit.feeds[0], feed), (self.unit.kind, multiply)], fifos)
        return [*before, _pipeline([*copies, *stages], fifo)]

    def _streamed(self) -> dict[str, list[memref.AllocOp]]:
        """Per operand copied for every output tile (not resident, not staged on chip),
        its ``STREAMED_COPIES`` scratchpad buffers of one k tile, used in turn."""
        streamed = [o for o in ("lhs", "rhs") if o != self.tiles.resident
                    and (o == "rhs" or self.lhs is not None)]
        return {operand: [memref.AllocOp([], [], MemRefType(
            self.input, self._tile_shape(operand), memory_space=StringAttr(self.device.scratchpad)))
            for _ in range(STREAMED_COPIES)] for operand in streamed}

    def _k_tile(self, operand: str, depth: SSAValue, phase: ktdf.BufferPhaseOp,
                before: list[Operation]) -> SSAValue:
        """The scratchpad buffer of one k tile of ``operand`` ("lhs" or "rhs"): for a
        streamed operand, the copy of its buffers the pipeline's ``phase`` selects (the
        DMA fills one while the load unit feeds the other), or, for the resident
        operand, a view of its panel's ``depth``-th tile (made into ``before``)."""
        shape = self._tile_shape(operand)
        if self.tiles.resident != operand:
            select = ktdf.SelectMemrefOp(phase, [copy.memref for copy in self.streamed[operand]])
            before.append(select)
            return select.result
        at = ApplyOp([depth], AffineMapAttr(AffineMap(1, 0, (AffineExpr.dimension(0) * prod(shape),))))
        before.append(at)
        return _cast(self.panel.memref, at.result, shape, [shape[1] * shape[2], shape[2], 1], before)

    def _a_feed(self, a_buffer: SSAValue, a_fifo: SSAValue, tile: SSAValue, kt: SSAValue,
                kc: SSAValue, j: SSAValue) -> ktdf.DataTransferOp:
        """Chunk ``kc`` of k tile ``kt`` of A into its FIFO, the rows of piece ``j`` of
        the accumulators: from the copied chunks, or, from A staged on chip, this output
        tile's rows over the chunk's columns (of the row-major buffer, or the chunk's
        block of the chunk-major one)."""
        t = self.tiles
        rows = self.shares.rows
        d0, d1, d2, d3 = (AffineExpr.dimension(i) for i in range(4))
        zero = AffineExpr.constant(0)
        if self.staged is None:
            chunk = AffineMap(2, 0, (d0, self._piece_row(d1), zero))
            return ktdf.DataTransferOp(a_buffer, [1, rows, t.chunk], a_fifo, [rows * t.chunk],
                                       source_access=(chunk, [kc, j]))
        first_row = self._origin(d0)[0] + self._piece_row(d3)
        if self._row_major_staging():
            columns = AffineMap(4, 0, (first_row, d1 * t.k + d2 * t.chunk))
            return ktdf.DataTransferOp(a_buffer, [rows, t.chunk], a_fifo, [rows * t.chunk],
                                       source_access=(columns, [tile, kt, kc, j]))
        block = AffineMap(4, 0, (d1 * (t.k // t.chunk) + d2, first_row, zero))
        return ktdf.DataTransferOp(a_buffer, [1, rows, t.chunk], a_fifo, [rows * t.chunk],
                                   source_access=(block, [tile, kt, kc, j]))

    def _copies(self, tile: SSAValue, kt: SSAValue, kernel_iv: SSAValue | None,
                a_buffer: SSAValue, b_buffer: SSAValue) -> list[list[Operation]]:
        """This output tile's k tile of A (as chunks) and of B (as blocks) from device
        memory into the scratchpad: the ops of each copy (A's first; none for an A
        staged on chip), each a DMA stage of its own so that the hand-off of each
        buffer to the load unit is signalled on its own (a streamed operand's copies
        in turn, a resident panel's once)."""
        t = self.tiles
        chunks, blocks = t.k // t.chunk, t.n // t.block
        d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
        rows, cols = self._origin(d0)
        # Per operand, each dimension of the buffer (rows of A, chunks, within a chunk;
        # rows of B, blocks, within a block): its size, its stride in the view (from
        # the stored order's strides) and in the buffer. A staged on chip is not copied.
        b_k, b_column = _logical_strides(self.rhs)
        moves = [("rhs", self.rhs, (d1 * t.k, cols), [t.k, blocks, t.block],
                  [b_k, t.block * b_column, b_column], b_buffer, [t.block, t.k * t.block, 1])]
        if self.rhs_fed_transposed:
            # Blocks, their rows, chunks of k, within a chunk: each chunk's rows
            # together, block by block, as the unit takes them.
            moves[0] = ("rhs", self.rhs, (d1 * t.k, cols), [blocks, t.block, chunks, t.chunk],
                        [t.block * b_column, b_column, t.chunk * b_k, b_k], b_buffer,
                        [chunks * t.block * t.chunk, t.chunk, t.block * t.chunk, 1])
        if self.lhs is not None:
            a_row, a_k = _logical_strides(self.lhs)
            moves.insert(0, ("lhs", self.lhs, (rows, d1 * t.k), [t.m, chunks, t.chunk],
                             [a_row, t.chunk * a_k, a_k], a_buffer, [t.chunk, t.m * t.chunk, 1]))
        return [self._copy(tile, kt, kernel_iv, *move) for move in moves]

    def _copy(self, tile: SSAValue, kt: SSAValue, kernel_iv: SSAValue | None, name: str,
              operand: _Operand, within: tuple[AffineExpr, AffineExpr], sizes: list[int],
              strides: list[int], buffer: SSAValue, layout: list[int]) -> list[Operation]:
        """One operand's k tile from device memory into ``buffer``: its start (the
        kernel loop's index arithmetic cloned), then the copy, only by the first output
        tile sharing it when it is the resident panel's."""
        ops: list[Operation] = []
        mapping: dict[SSAValue, SSAValue] = {}
        if self.loop is not None:
            mapping[self.loop.body.block.args[0]] = kernel_iv
            ops += clone_needed(list(operand.tile.indices), self.loop, mapping)
        at = self._offset(operand, mapping, within, [tile, kt], ops)
        shape, strides, layout = _in_stored_order(sizes, strides, layout)
        moved: list[Operation] = []
        if operand.transposed and not (name == "rhs" and self.rhs_fed_transposed):
            moved += self._rows(_Copy(operand.view, at, shape, strides, buffer, layout,
                                      operand.load.location))
        else:
            moved.append(_copy_of(operand.view, at, buffer, 0, shape, strides, layout, moved))
            moved[-1].location = operand.load.location
        return ops + (self._first_only(tile, moved) if self.tiles.resident == name else moved)

    def _first_only(self, tile: SSAValue, ops: list[Operation]) -> list[Operation]:
        """``ops`` run only by the first of the output tiles sharing a panel."""
        index = ApplyOp([tile], AffineMapAttr(AffineMap(1, 0, (
            AffineExpr.dimension(0) % self._sharers(),))))
        first = arith.CmpiOp(index.result, self._constant(0), "eq")
        block = Block()
        block.add_ops([*ops, scf.YieldOp()])
        return [index, first, scf.IfOp(first.result, [], Region(block))]

    def _rows(self, copy: _Copy) -> list[Operation]:
        """A loop nest over the stored rows of a transposed operand's copy, one copy
        per row."""
        return self._loops(copy.shape[:-1], lambda *ivs: copy.row(ivs))

    def _offset(self, operand: _Operand, mapping: dict[SSAValue, SSAValue],
                within: tuple[AffineExpr, AffineExpr], extra: list[SSAValue],
                ops: list[Operation]) -> SSAValue:
        """The element offset of a sub-tile: the operand tile's start (its map over its
        indices) plus ``within`` (over ``extra``), through the view's strides."""
        start, indices = operand.tile.base_map.data, list(operand.tile.indices)
        count = start.num_dims
        within = within[::-1] if operand.transposed else within
        shifted = [AffineExpr.dimension(count + i) for i in range(len(extra))]
        total = AffineExpr.constant(0)
        for stride, expr, inner in zip(operand.strides, start.results, within):
            total = total + (expr + inner.replace_dims_and_symbols(shifted, [])) * stride
        apply = ApplyOp([*(mapping.get(i, i) for i in indices), *extra],
                        AffineMapAttr(AffineMap(count + len(extra), 0, (total,))))
        ops.append(apply)
        return apply.result

    # Accumulators -----------------------------------------------------------------

    def _local(self, j: AffineExpr) -> AffineExpr:
        """Piece ``j``'s place among its unit's pieces (all of them on one unit)."""
        return j % self.shares.per_unit if self.shares.units > 1 else j

    def _piece_block(self, j: AffineExpr) -> AffineExpr:
        """The block of accumulators piece ``j`` is rows of."""
        parts = self.shares.parts
        return j // parts if parts > 1 else j

    def _piece_row(self, j: AffineExpr) -> AffineExpr:
        """The first row of piece ``j`` in its block."""
        parts = self.shares.parts
        return (j % parts) * self.shares.rows if parts > 1 else AffineExpr.constant(0)

    def _block(self, j: SSAValue) -> tuple[SSAValue, list[Operation]]:
        """The accumulators of piece ``j``: ``rows x block`` in its unit's memory, the
        unit's pieces one after another."""
        t, rows = self.tiles, self.shares.rows
        return self._accumulators_at([j], (self._local(AffineExpr.dimension(0)) * (rows * t.block),),
                                     [rows, t.block])

    def _row(self, j: SSAValue, r: SSAValue) -> tuple[SSAValue, list[Operation]]:
        """Row ``r`` of the accumulators of piece ``j``."""
        t = self.tiles
        offset = (self._local(AffineExpr.dimension(0)) * (self.shares.rows * t.block)
                  + AffineExpr.dimension(1) * t.block)
        return self._accumulators_at([j, r], (offset,), [t.block])

    def _accumulators_at(self, ivs: list[SSAValue], offset: tuple[AffineExpr], shape: list[int]):
        apply = ApplyOp(ivs, AffineMapAttr(AffineMap(len(ivs), 0, offset)))
        ops: list[Operation] = [apply]
        view = _cast(self.accumulators.memref, apply.result, shape,
                     [shape[-1], 1][-len(shape):], ops)
        return view, ops

    def _drain_pipeline(self, tile: SSAValue) -> ktdf.PipelineOp:
        """Each row of each block of accumulators through the drain FIFO into its place
        in the result buffer."""
        t = self.tiles
        drain = self.unit.drains[0]

        def fifo() -> ktdf.FifoAllocateOp:
            return ktdf.FifoAllocateOp([ktdf.FifoSlotType(StringAttr(self.unit.kind),
                                                          StringAttr(drain), t.block, self.acc)])

        d = [AffineExpr.dimension(i) for i in range(3)]
        row, column = self._origin(d[0])
        into = AffineMap(3, 0, (row + self._piece_row(d[1]) + d[2],
                                column + self._piece_block(d[1]) * t.block))

        def out(j: SSAValue, slots: Sequence[SSAValue]) -> list[Operation]:
            def one(r: SSAValue) -> list[Operation]:
                row, ops = self._row(j, r)
                return [*ops, ktdf.WriteToFifoOp(row, slots[0])]
            return self._loops([self.shares.rows], one)

        def into_buffer(j: SSAValue, slots: Sequence[SSAValue]) -> list[Operation]:
            return self._loops([self.shares.rows], lambda r: [
                ktdf.DataTransferOp(slots[0], [t.block], self.result_buffer.memref, [1, t.block],
                                    dest_access=(into, [tile, j, r]))])

        return _pipeline(*self._per_piece([(self.unit.kind, out), (drain, into_buffer)], fifo))

    def _per_piece(self, stages: Sequence[tuple[str, Body]],
                   fifos: Callable[[], ktdf.FifoAllocateOp] | None = None):
        """Pipeline stages doing ``body(j, slots)`` on their kind for every piece ``j``
        of the output tile's accumulators (``UnitShares``: a block, or a run of its
        rows), and the resources private to them (the FIFOs ``fifos`` allocates, whose
        slots are ``slots``). With the pieces shared out over several matrix units a
        core (``Device.matrix_subcores``): one stage on all the kinds holding a
        ``ktdf.parallel`` over the pieces, each instance (a sub-core, with its own load
        and store units, FIFOs and accumulators) running a pipeline of the stages for
        each of its pieces; else each stage loops over all the pieces."""
        shares = self.shares

        def stages_of(loop_body: Callable[[Body, Sequence[SSAValue]], list[Operation]]):
            allocate = [fifos()] if fifos is not None else []
            slots = [slot for op in allocate for slot in op.slots]
            return [(loop_body(body, slots), [StringAttr(kind)]) for kind, body in stages], allocate

        if shares.units < 2:
            return stages_of(lambda body, slots: self._loops([shares.pieces], lambda j: body(j, slots)))
        region = Block(arg_types=[IndexType(), IndexType()])
        j = region.args[0]
        region.add_ops([_pipeline(*stages_of(lambda body, slots: body(j, slots))),
                        ktdf.ParallelYieldOp()])
        parallel = ktdf.ParallelOp([self._constant(0)], [self._constant(shares.pieces)],
                                   [self._constant(1)], shares.units, Region(region))
        return [([parallel], [StringAttr(kind) for kind, _ in stages])], []

    # The result ---------------------------------------------------------------------

    def _replace_result(self, anchor: Operation) -> None:
        """The result buffer loaded, converted to the result's type, plus the kernel's
        accumulator when it is not zero, in place of the contraction's result."""
        c = self.c
        result = self.loop.results[0] if self.loop is not None else c.result
        init = self.loop.iter_args[0] if self.loop is not None else c.init
        if self.stored is not None:
            target = self.stored.access_tile.owner
            Rewriter.erase_op(self.stored)
            Rewriter.erase_op(anchor)
            loaded = [o for o in (self.lhs, self.rhs) if o is not None]
            erase_unused([target, *(op for o in loaded for op in (o.load, o.tile)), init.owner])
            return
        tile = box_tile(self.result_buffer.memref, origin(2), [], [self.M, self.N])
        load = ktdp.LoadOp.build(operands=[tile.result], result_types=[TensorType(self.acc, [self.M, self.N])])
        ops: list[Operation] = [tile, load]
        value = load.result
        if result.type.get_element_type() != self.acc:
            ops.append(arith.TruncFOp(value, result.type))
            value = ops[-1].result
        if not is_zero(init):
            ops.append(arith.AddfOp(init, value))
            value = ops[-1].result
        for op in ops:
            op.location = c.op.location
        Rewriter.insert_op(ops, InsertPoint.before(anchor))
        result.replace_all_uses_with(_kept(value, result, self.device))
        Rewriter.erase_op(anchor)
        loaded = [o for o in (self.lhs, self.rhs) if o is not None]
        erase_unused([*(op for o in loaded for op in (o.load, o.tile)), init.owner])


def _before(value: SSAValue, anchor: Operation) -> bool:
    """Whether ``value`` is defined before ``anchor``: an argument of a block around
    it, or an op before it in its block or in a block around it."""
    if isinstance(value, BlockArgument):
        return value.block.parent_op() is None or value.block.parent_op().is_ancestor(anchor)
    owner = value.owner
    at = anchor
    while at is not None and at.parent is not owner.parent:
        at = at.parent_op()
    return at is not None and owner.is_before_in_block(at)


def _copy_of(view: SSAValue, at: SSAValue, buffer: SSAValue, into: SSAValue | int,
             shape: list[int], strides: list[int], layout: list[int],
             ops: list[Operation]) -> ktdf.DataTransferOp:
    """A copy of ``shape`` from ``view`` at element ``at`` (with ``strides``) into
    ``buffer`` at element ``into`` (with ``layout``); the casts go to ``ops``."""
    source = _cast(view, at, shape, strides, ops)
    dest = _cast(buffer, into, shape, layout, ops)
    rank = len(shape)
    return ktdf.DataTransferOp(source, shape, dest, shape, source_access=(origin(rank), []),
                               dest_access=(origin(rank), []))


@dataclass(frozen=True)
class _Copy:
    """A copy of an operand's tile into its buffer, dimensions in stored order: the
    view, the element ``at`` which the tile starts, the sizes, the view's strides, the
    buffer, its strides, and the operand's location."""

    view: SSAValue
    at: SSAValue
    shape: list[int]
    strides: list[int]
    buffer: SSAValue
    layout: list[int]
    location: Attribute

    def row(self, ivs: Sequence[SSAValue]) -> list[Operation]:
        """The copy of the stored row at ``ivs`` (the innermost dimension): a copy of
        its own, so that the rows of the cores take turns at device memory while each
        is written element by element."""
        dims = [AffineExpr.dimension(i) for i in range(len(ivs) + 1)]
        source = ApplyOp([*ivs, self.at], AffineMapAttr(AffineMap(len(dims), 0, (
            _linear(dims[:-1], self.strides, dims[-1]),))))
        dest = ApplyOp(list(ivs), AffineMapAttr(AffineMap(len(ivs), 0, (
            _linear(dims[:-1], self.layout, AffineExpr.constant(0)),))))
        ops: list[Operation] = [source, dest]
        ops.append(_copy_of(self.view, source.result, self.buffer, dest.result, self.shape[-1:],
                            self.strides[-1:], self.layout[-1:], ops))
        ops[-1].location = self.location
        return ops


def _linear(dims: Sequence[AffineExpr], strides: Sequence[int], start: AffineExpr) -> AffineExpr:
    """``start`` plus each of ``dims`` times its stride."""
    for dim, stride in zip(dims, strides):
        start = start + dim * stride
    return start


def _logical_strides(operand: _Operand) -> tuple[int, int]:
    """The view strides of the operand's two dimensions in the product's order (m, k
    of A; k, n of B), whichever order it is stored in."""
    outer, inner = operand.strides
    return (inner, outer) if operand.transposed else (outer, inner)


def _in_stored_order(sizes: list[int], strides: list[int], layout: list[int]):
    """A copy's sizes, source strides and destination strides with its dimensions in
    the order of the source's strides, largest first: each run the DMA reads is a
    stored row (for a k-major operand the destination is then written element by
    element, transposed)."""
    order = sorted(range(len(sizes)), key=lambda d: -strides[d])
    return ([sizes[d] for d in order], [strides[d] for d in order], [layout[d] for d in order])


# ---------------------------------------------------------------------------------
# On the SIMD engine
# ---------------------------------------------------------------------------------


def _simd_form(c: Contraction, device: Device) -> None:
    """The contraction with its k loops innermost in both inputs, as the SIMD engine
    multiplies and reduces: an input stored otherwise is loaded through a view of its
    memory with the dimensions permuted (the transposed strides), and read so."""
    maps = list(c.maps)
    inputs = [c.lhs, c.rhs]
    for position in (0, 1):
        results = maps[position].results
        order = sorted(range(len(results)), key=lambda i: results[i].position in c.k)
        if order == list(range(len(results))):
            continue
        inputs[position] = _permuted_load(inputs[position], order, c.op)
        maps[position] = AffineMap(maps[position].num_dims, 0, tuple(results[i] for i in order))
    generic = canonical(inputs[0], inputs[1], c.init, maps, len(c.sizes()), c.k)
    generic.location = c.op.location
    Rewriter.insert_op(generic, InsertPoint.before(c.op))
    c.result.replace_all_uses_with(_kept(generic.results[0], c.result, device))
    loads = [value.owner for value in (c.lhs, c.rhs)]
    Rewriter.erase_op(c.op)
    erase_unused([op for load in loads if isinstance(load, ktdp.LoadOp)
                   for op in (load, load.access_tile.owner, load.access_tile.owner.base.owner)])


def _kept(result: SSAValue, replaced: SSAValue, device: Device) -> SSAValue:
    """The product ``result``, or, when a reduction reads the value it replaces
    (directly or through other compute), the product stored into a scratchpad buffer
    of its shape and loaded back: that reduction then tiles it as it needs (a softmax
    over its rows), not as the product's loop over k does, and reads it rounded once
    (not converted again from the matrix unit's accumulator type in each of the
    softmax's passes). An elementwise epilogue stays fused."""
    if not _reduced_later(replaced):
        return result
    shape = result.type.get_shape()
    buffer = memref.AllocOp([], [], MemRefType(result.type.get_element_type(), shape,
                                               memory_space=StringAttr(device.scratchpad)))
    into, back = (box_tile(buffer.memref, origin(len(shape)), [], shape) for _ in range(2))
    store = ktdp.StoreOp.build(operands=[result, into.result])
    load = ktdp.LoadOp.build(operands=[back.result], result_types=[result.type])
    made = result.owner
    for op in (buffer, into, store, back, load):
        op.location = made.location
    Rewriter.insert_op(buffer, InsertPoint.at_start(enclosing_function(made).body.block))
    Rewriter.insert_op([into, store, back, load], InsertPoint.after(made))
    return load.result


def _reduced_later(value: SSAValue) -> bool:
    """Whether a reduction computes from ``value``, directly or through other ops."""
    for use in value.uses:
        user = use.operation
        iterators = getattr(user, "iterator_types", None)
        if user.name == "linalg.reduce" or (iterators is not None and any(
                it.data == IteratorType.REDUCTION for it in iterators.data)):
            return True
        if any(_reduced_later(result) for result in user.results):
            return True
    return False


def _permuted_load(value: SSAValue, order: list[int], user: Operation) -> SSAValue:
    """``value``, a tile loaded from a memory view, or the whole of a scratchpad buffer
    that only copies write (a gathered tile), loaded with its dimensions in ``order``
    (dimension i of the new tile is dimension ``order[i]`` of the old)."""
    load = value.owner
    tile = load.access_tile.owner if isinstance(load, ktdp.LoadOp) else None
    view = tile.base.owner if isinstance(tile, ktdp.ConstructAccessTileOp) else None
    if _copied_buffer(tile):
        return _relaid_load(load, tile, order)
    if not isinstance(view, ktdp.ConstructMemoryViewOp) or view.sizes or view.strides:
        raise KtcError("the SIMD engine reduces along the innermost dimension; this operand "
                       "must be a tile loaded from a memory view of static sizes and strides, "
                       "or the whole of a scratchpad buffer that only copies write, to be read "
                       "transposed", where(user))
    sizes, strides = view.static_sizes.get_values(), view.static_strides.get_values()
    permuted = ktdp.ConstructMemoryViewOp.build(
        operands=[view.offset, [], []],
        result_types=[MemRefType(view.result.type.get_element_type(), [sizes[i] for i in order],
                                 memory_space=view.result.type.memory_space)],
        properties={
            "static_sizes": DenseArrayBase.from_list(i64, [sizes[i] for i in order]),
            "static_strides": DenseArrayBase.from_list(i64, [strides[i] for i in order]),
            "memory_space": view.memory_space,
            "coordinate_set": AffineSetAttr(_permuted_set(view.coordinate_set.data, order)),
        },
    )
    start = tile.base_map.data
    shape = value.type.get_shape()
    new_tile = box_tile(permuted.result, AffineMap(start.num_dims, start.num_symbols,
                                                   tuple(start.results[i] for i in order)),
                        list(tile.indices), [shape[i] for i in order])
    new_load = ktdp.LoadOp.build(operands=[new_tile.result], result_types=[
        TensorType(value.type.get_element_type(), [shape[i] for i in order])])
    for op in (permuted, new_tile, new_load):
        op.location = load.location
    Rewriter.insert_op([permuted, new_tile, new_load], InsertPoint.before(load))
    return new_load.result


def _copied_buffer(tile: Operation | None) -> bool:
    """Whether ``tile`` is the whole of a scratchpad buffer from its origin, the
    buffer's other uses all ``ktdf.data_transfer``s writing it (a gather's copies)."""
    if not isinstance(tile, ktdp.ConstructAccessTileOp) or not at_origin(tile):
        return False
    buffer = tile.base
    if not isinstance(buffer.owner, memref.AllocOp) or not isinstance(buffer.type.memory_space, StringAttr):
        return False
    if tuple(tile.result.type.get_shape()) != tuple(buffer.type.get_shape()):
        return False
    return all(use.operation is tile or (isinstance(use.operation, ktdf.DataTransferOp)
                                         and use.operation.destination is buffer)
               for use in buffer.uses)


def _relaid_load(load: ktdp.LoadOp, tile: ktdp.ConstructAccessTileOp, order: list[int]) -> SSAValue:
    """The load of a buffer laid out with its dimensions in ``order`` in place of the
    copied buffer ``tile`` reads: each copy into the old buffer writes the new one
    through a ``memref.reinterpret_cast`` of the old shape strided as its elements lie
    in the new (the DMA transposes, writing element by element where the strides are
    not contiguous), and the whole new buffer is loaded."""
    old = tile.base
    shape = list(old.type.get_shape())
    permuted = [shape[i] for i in order]
    buffer = memref.AllocOp([], [], MemRefType(old.type.get_element_type(), permuted,
                                               memory_space=old.type.memory_space))
    row_major = [prod(permuted[i + 1:]) for i in range(len(permuted))]
    ops: list[Operation] = [buffer]
    written = _cast(buffer.memref, 0, shape, [row_major[order.index(d)] for d in range(len(shape))], ops)
    for op in ops:
        op.location = old.owner.location
    Rewriter.insert_op(ops, InsertPoint.after(old.owner))
    for use in list(old.uses):
        if use.operation is not tile:
            use.operation.operands[use.index] = written
    new_tile = box_tile(buffer.memref, origin(len(shape)), [], permuted)
    new_load = ktdp.LoadOp.build(operands=[new_tile.result], result_types=[
        TensorType(load.result.type.get_element_type(), permuted)])
    for op in (new_tile, new_load):
        op.location = load.location
    Rewriter.insert_op([new_tile, new_load], InsertPoint.before(load))
    return new_load.result


def _permuted_set(coordinates: AffineSet, order: list[int]) -> AffineSet:
    """The set over permuted dimensions: new dimension i is old dimension ``order[i]``."""
    dims = [AffineExpr.dimension(order.index(d)) for d in range(len(order))]
    symbols = [AffineExpr.symbol(i) for i in range(coordinates.num_symbols)]
    constraints = tuple(
        AffineConstraintExpr(constraint.kind, constraint.lhs.replace_dims_and_symbols(dims, symbols),
                             constraint.rhs.replace_dims_and_symbols(dims, symbols))
        for constraint in coordinates.constraints)
    return AffineSet(coordinates.num_dims, coordinates.num_symbols, constraints)


# ---------------------------------------------------------------------------------
# IR pieces
# ---------------------------------------------------------------------------------


def _cast(base: SSAValue, offset: SSAValue | int, sizes: list[int], strides: list[int],
          ops: list[Operation]) -> SSAValue:
    """A ``memref.reinterpret_cast`` of ``base`` at an element offset."""
    layout = StridedLayoutAttr(strides, None if isinstance(offset, SSAValue) else offset)
    cast_type = MemRefType(base.type.get_element_type(), sizes, layout, base.type.memory_space)
    cast = memref.ReinterpretCastOp.from_dynamic(base, [offset], sizes, strides, cast_type)
    ops.append(cast)
    return cast.result


def _pipeline(stages: Sequence[tuple[list[Operation], list[StringAttr]]],
              resources: Sequence[Operation] = ()) -> ktdf.PipelineOp:
    """Stages in a chain of tokens on their units, ``resources`` (allocations) private
    to the pipeline."""
    tokens = [ktdf.CreateTokenOp() for _ in stages]
    yielded = [result for op in resources for result in op.results] + [token.result for token in tokens]
    private = ktdf.PrivateOp([value.type for value in yielded],
                             [*resources, *tokens, ktdf.PrivateYieldOp(*yielded)])
    handed = dict(zip(yielded, private.resources))
    for body, _ in stages:
        for op in body:
            for inner in op.walk():
                for position, operand in enumerate(inner.operands):
                    if operand in handed:
                        inner.operands[position] = handed[operand]
    chained = private.resources[len(yielded) - len(stages):]
    built = [ktdf.StageOp([chained[index - 1]] if index else [], [chained[index]], body, units)
             for index, (body, units) in enumerate(stages)]
    return ktdf.PipelineOp([private, *built])


def _for(lb: SSAValue, ub: SSAValue, step: SSAValue,
         body: Callable[[SSAValue], list[Operation]]) -> scf.ForOp:
    block = Block(arg_types=[IndexType()])
    block.add_ops([*body(block.args[0]), scf.YieldOp()])
    return scf.ForOp(lb, ub, step, [], Region(block))


