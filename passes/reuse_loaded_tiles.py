"""``reuse-loaded-tiles``: sibling loops that load the same tiles of device memory read
them once; the first loop keeps each tile in a scratchpad buffer the later loops load.

A kernel walking a row in several loops over its column blocks (a layer norm's sum,
sum of squares and normalization) otherwise reads the row from device memory once per
loop, where the row fits the scratchpad many times over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, StringAttr
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdp
from ktc.passes.analysis.arrays import apart
from ktc.passes.analysis.ranges import Ranges
from ktc.passes.utils.affine import box_bounds
from ktc.passes.utils.ir import calls_by_callee, defined_inside, erase_unused
from ktc.passes.utils.phases import programs
from ktc.passes.utils.tiles import box_tile


@dataclass(frozen=True)
class ReuseLoadedTiles(ModulePass):
    """Load a tile of device memory that sibling loops all load once, in the first.

    Expects programs as ``compute-group-extraction`` leaves them (before
    ``materialize-phase-buffers``), in a module that declares its device: ``scf.for``
    loops whose bodies ``ktdp.load`` identity-order tiles of static shape of
    ``ktdp.construct_memory_view``s in device memory, whose coordinate set is a box
    ``0 <= d_j < n_j`` of constants.

    Produces, for each *reused* load: a load directly in the body of the first of
    several ``scf.for`` loops of one block with the same bounds and step, whose tile
    (same view, start map, set and shape) each later loop loads directly in its body
    at the same indices (each the loop's own variable or a value defined before the
    first loop), with no ``ktdp.store`` from the first loop to the last into the view's
    array (a store through a view sharing no byte with it, ``passes/analysis/arrays.py``:
    of another pointer argument of the program, bound to another argument of the kernel
    at every call, since the launch allocates each its own array, or at constant
    addresses apart), stores its tensor also into a scratchpad buffer
    (``memref.alloc`` at the program's start) and each later loop loads the buffer
    instead. The buffer is the tile's extent along the dimensions its start does not
    take from the loop variable (there index 0) and the view's along those it does
    (index the variable); where the tile may reach past the view's box (the largest
    value of the variable, ``passes/analysis/ranges.py``, plus the tile's extent
    beyond ``n_j``, or the variable unbounded) the dimension is one tile longer and
    indexed by ``min(variable, n_j)``: a tile starting past the box, all zeros,
    lands in that last tile's room, and every element past the box is a zero. The
    buffers of a program are counted twice (as ``double-buffering`` would count a
    staging buffer) and are made while they fit the scratchpad together: a load whose
    buffer would not fit is left as it is, as is one a store forbids, and every other
    load. Running the pass again changes nothing (a buffer is no device memory).
    """

    name = "reuse-loaded-tiles"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        stored = programs(op)
        if not stored:
            return
        device, ranges, calls = device_of(op), Ranges(op), calls_by_callee(op)
        for program in stored:
            context = _Context(device, ranges, calls, program,
                               _Room(device.memory(device.scratchpad).size))
            for block in _blocks(program.body.block):
                for group in _sibling_groups(block):
                    _reuse(group, context)


@dataclass
class _Room:
    """Scratchpad bytes the program's buffers may still take (each counted twice)."""

    left: int

    def take(self, size: int) -> bool:
        if 2 * size > self.left:
            return False
        self.left -= 2 * size
        return True


@dataclass(frozen=True)
class _Context:
    """What deciding a load's reuse needs: the device, the index ranges, the calls of
    each program, the program and its room left."""

    device: Device
    ranges: Ranges
    calls: dict[str, list[CallOp]]
    program: FuncOp
    room: _Room


def _blocks(block: Block) -> list[Block]:
    """``block`` and every block nested in its ops, outer first."""
    return [block, *(inner for op in block.ops for region in op.regions
                     for body in region.blocks for inner in _blocks(body))]


def _sibling_groups(block: Block) -> list[list[scf.ForOp]]:
    """The ``scf.for`` loops of ``block`` grouped by equal bounds and step, in order;
    only groups of two loops or more."""
    groups: list[list[scf.ForOp]] = []
    for loop in (op for op in block.ops if isinstance(op, scf.ForOp)):
        group = next((g for g in groups if _same_space(g[0], loop)), None)
        if group is None:
            groups.append([loop])
        else:
            group.append(loop)
    return [group for group in groups if len(group) > 1]


def _same_space(first: scf.ForOp, other: scf.ForOp) -> bool:
    return all(_same_value(a, b) for a, b in ((first.lb, other.lb), (first.ub, other.ub),
                                               (first.step, other.step)))


def _same_value(a: SSAValue, b: SSAValue) -> bool:
    """The same SSA value, or two integer constants of one value."""
    return a is b or _constant(a) is not None and _constant(a) == _constant(b)


def _constant(value: SSAValue) -> int | None:
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def _reuse(group: list[scf.ForOp], context: _Context) -> None:
    first, later = group[0], group[1:]
    for load in _body_loads(first):
        tile = load.access_tile.owner
        if not _candidate(tile, first, context.device):
            continue
        readers = [other for loop in later for other in _body_loads(loop)
                   if _same_tile(tile, first, other.access_tile.owner, loop)]
        if not readers or _written_between(tile.base.owner, first, readers[-1], context):
            continue
        buffer = _Buffer.of(tile, first, context.ranges)
        if buffer is None or not context.room.take(buffer.size):
            continue
        _keep(load, readers, buffer, context.program, context.device.scratchpad)


def _body_loads(loop: scf.ForOp) -> list[ktdp.LoadOp]:
    return [op for op in loop.body.block.ops if isinstance(op, ktdp.LoadOp)]


def _candidate(tile: Operation, loop: scf.ForOp, device: Device) -> bool:
    """Whether ``tile`` is an identity-order tile of static shape, of a memory view in
    device memory, its indices the loop's variable or values from before the loop."""
    if not isinstance(tile, ktdp.ConstructAccessTileOp) or tile.symbol_operands:
        return False
    view = tile.base.owner
    if not isinstance(view, ktdp.ConstructMemoryViewOp) or defined_inside(view.result, loop):
        return False
    order = tile.access_tile_order.data
    if order != AffineMap.identity(order.num_dims) or not tile.result.type.has_static_shape():
        return False
    iv = loop.body.block.args[0]
    if any(index is not iv and defined_inside(index, loop) for index in tile.indices):
        return False
    return device.memory_space(view.memory_space).kind == device.device_memory


def _same_tile(tile: ktdp.ConstructAccessTileOp, loop: scf.ForOp, other: Operation,
               other_loop: scf.ForOp) -> bool:
    """Whether ``other`` (in ``other_loop``) names the tile ``tile`` names in ``loop``
    at every iteration: same view, map, set, order and shape, each index the loop's
    own variable where ``tile``'s is, the same value elsewhere."""
    if not isinstance(other, ktdp.ConstructAccessTileOp) or other.symbol_operands:
        return False
    if other.base is not tile.base or other.result.type != tile.result.type:
        return False
    if (other.base_map, other.access_tile_set, other.access_tile_order) != (
            tile.base_map, tile.access_tile_set, tile.access_tile_order):
        return False
    iv, other_iv = loop.body.block.args[0], other_loop.body.block.args[0]
    return len(other.indices) == len(tile.indices) and all(
        b is other_iv if a is iv else a is b for a, b in zip(tile.indices, other.indices))


def _written_between(view: ktdp.ConstructMemoryViewOp, first: scf.ForOp, last: ktdp.LoadOp,
                     context: _Context) -> bool:
    """Whether a store from ``first`` to the loop holding ``last`` may write the
    array of ``view``."""
    end = last.parent_op()
    op: Operation | None = first
    while op is not None:
        for inner in op.walk():
            if isinstance(inner, ktdp.StoreOp) and _may_write(inner, view, context):
                return True
        op = None if op is end else op.next_op
    return False


def _may_write(store: ktdp.StoreOp, view: ktdp.ConstructMemoryViewOp, context: _Context) -> bool:
    """Whether ``store`` may write the array ``view`` reads: unless it stores through a
    view of a scratchpad or of a view sharing no byte with it (``passes/analysis/arrays.py``)."""
    target = store.access_tile.owner
    base = getattr(target, "base", None)
    written = base.owner if base is not None else None
    if not isinstance(written, ktdp.ConstructMemoryViewOp):
        return True
    device = context.device
    if device.memory_space(written.memory_space).kind != device.device_memory:
        return False
    return not apart(written, view, context.calls)


@dataclass(frozen=True)
class _Buffer:
    """The scratchpad buffer a reused tile is kept in."""

    tile: ktdp.ConstructAccessTileOp
    varying: tuple[bool, ...]
    """Per dimension, whether the tile's start there is the loop's variable."""
    shape: tuple[int, ...]
    clamps: tuple[int | None, ...]
    """Per dimension the view's ``n_j`` the variable is clamped to, where the tile
    may reach past the box; None where it stays inside or does not vary."""

    @staticmethod
    def of(tile: ktdp.ConstructAccessTileOp, loop: scf.ForOp, ranges: Ranges) -> _Buffer | None:
        """The buffer of ``tile`` in ``loop``; None when the view's box is not of
        constants or the tile's start is not its indices."""
        bounds = box_bounds(tile.base.owner.coordinate_set.data)
        tile_shape = tile.result.type.get_shape()
        if bounds is None or any(not isinstance(b, AffineConstantExpr) for b in bounds):
            return None
        if tile.base_map.data != AffineMap.identity(len(tile_shape)):
            return None
        iv = loop.body.block.args[0]
        varying = tuple(index is iv for index in tile.indices)
        last = ranges.of(iv)
        clamps = tuple(
            None if not v or last is not None and last[1] + t <= b.value else b.value
            for v, b, t in zip(varying, bounds, tile_shape))
        shape = tuple(
            (b.value if c is None else c + t) if v else t
            for v, b, t, c in zip(varying, bounds, tile_shape, clamps))
        return _Buffer(tile, varying, shape, clamps)

    @property
    def size(self) -> int:
        element = self.tile.base.type.get_element_type()
        return prod(self.shape) * max(element.bitwidth // 8, 1)

    def alloc(self, memory: str) -> memref.AllocOp:
        element = self.tile.base.type.get_element_type()
        alloc = memref.AllocOp([], [], MemRefType(element, self.shape,
                                                  memory_space=StringAttr(memory)))
        view_name = self.tile.base.name_hint
        if view_name:
            alloc.memref.name_hint = f"{view_name}_kept"
        return alloc

    def access(self, alloc: SSAValue, loop: scf.ForOp) -> list[Operation]:
        """The ops naming, in ``loop``'s body, the tile of the buffer that holds the
        iteration's tile: the clamps of the variable, then the access tile."""
        iv = loop.body.block.args[0]
        ops: list[Operation] = []
        indices: list[SSAValue] = []
        results: list[AffineExpr] = []
        for dim, varying in enumerate(self.varying):
            if not varying:
                results.append(AffineExpr.constant(0))
                continue
            index = iv
            if self.clamps[dim] is not None:
                bound = arith.ConstantOp.from_int_and_width(self.clamps[dim], iv.type)
                clamp = arith.MinUIOp(iv, bound.result)
                ops += [bound, clamp]
                index = clamp.result
            results.append(AffineExpr.dimension(len(indices)))
            indices.append(index)
        start = AffineMap(len(indices), 0, tuple(results))
        shape = self.tile.result.type.get_shape()
        return [*ops, box_tile(alloc, start, indices, shape)]


def _keep(load: ktdp.LoadOp, readers: Sequence[ktdp.LoadOp], buffer: _Buffer,
          program: FuncOp, scratchpad: str) -> None:
    """Store ``load``'s tensor into a new buffer (in memory ``scratchpad``) right after
    it, and make each of ``readers`` a load of the buffer."""
    device_memory_tiles = [reader.access_tile.owner for reader in readers]
    alloc = buffer.alloc(scratchpad)
    Rewriter.insert_op(alloc, InsertPoint.at_start(program.body.block))
    first = load.parent_op()
    kept = buffer.access(alloc.memref, first)
    store = ktdp.StoreOp.build(operands=[load.result, kept[-1].results[0]])
    store.location = load.location
    Rewriter.insert_op([*kept, store], InsertPoint.after(load))
    for reader in readers:
        access = buffer.access(alloc.memref, reader.parent_op())
        Rewriter.insert_op(access, InsertPoint.before(reader))
        reader.operands[0] = access[-1].results[0]
    erase_unused(device_memory_tiles)
