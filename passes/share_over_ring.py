"""``share-over-ring``: a block of device memory that several tiles of the grid copy
identically into their scratchpads is copied from device memory once per group of
those tiles and forwarded to the others over the interconnect, where the bound says
that is cheaper.

The tiles of an SPMD program run the same loops; a copy whose start in device memory
is the same expression of the loop indices on several tiles (``analysis/sharing.py``:
the same k tile of B for the tiles of a grid column, the same rows of A for a grid
row) reads the same bytes on each of them at every iteration. Of such a group of ``G``
tiles, one copies the block from device memory at each iteration (the owner, in turn:
the member at position ``i + g`` modulo ``G`` at iteration ``i`` of the ``g``-th group,
so that each tile reads ``1 / G`` of the blocks and sends as many, and the owners of
one iteration are spread over the groups' members rather than side by side: the
groups of B's column panels on spyre, tiles ``n, n + 8, n + 16, n + 24``, then forward
from eight cores around the ring, not from eight neighbours whose copies all cross the
same links), and ``G - 1`` copies between cores on the interconnect
stop (``ktdf.to_tiles``) forward it from the owner's buffer into the same buffer of
each other tile of the group. ``convert-ktdf-to-dfir`` orders them: a copy between
cores waits for the owner's copy from device memory, the tile that reads the buffer
waits for every copy into it, and the next copy into a buffer waits until its reader
is done with it.

A copy between cores holds its route (every link direction of it, and the copying
core's stop) for its whole transfer, so copies from one owner to members far apart
cross the links one after another. The block may instead be relayed: the owner copies
it to the next member, which copies it on to the next once it arrived (its stage
``ktdf.relayed``, which ``convert-ktdf-to-dfir`` has wait for the copy before it), each
copy a short route and each link carrying the block once; every group relays the same
way along its members, or neighbouring groups the two ways (so that their copies use
the two directions of the links).

The bound, per copy, over its iterations (the trips of the loops of constant bounds
around it; every figure from the device model): device memory serves ``groups`` blocks
an iteration instead of one per tile (the port's bandwidth shared by all cores, each
core no faster than its DMA link); the interconnect carries each block from the owner
to the other members, directly the shorter way or relayed: each copy waits for every
copy whose route meets its own (at the interconnect's bandwidth per direction or the
stop's, the lower), plus the farthest hop's latency. An iteration's forwarding follows
its copy, and with the buffers used in turn the next copy overlaps it: the first
iteration costs the copy plus the forwarding of its worst-placed owners (a relay's
steps one after another), each later one the larger of the copy and the forwarding of
as many iterations at once as the buffer has copies, averaged over the owners in turn
(and no less than one iteration's forwarding, first step to last, over those buffers).
A copy is shared when that total is less than every tile reading the block from device
memory at every iteration (so not a product of one iteration, whose forwarding only
adds to its latency), in the runs and the way of forwarding of the least total.

The groups need not be all the tiles that read a block: a group may be cut into runs
of consecutive members (neighbours on the ring when the members are), each of a size
dividing the group's, each with an owner reading the block. Larger runs read less from
device memory (all tiles' copies share its port) and forward more (an owner sends one
block per other member, from its stop and over the links between them); the bound
picks the size (the 32 tiles of the SwiGLU block reading the same weights share them
in runs of 8: 4 blocks through the port, 7 forwarded by each owner).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (AffineMapAttr, DenseArrayBase, MemRefType, ModuleOp,
                                   StringAttr, i64)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.ktdp import grid_of
from ktc.dialects.upstream import ApplyOp
from ktc.passes.analysis.sharing import reader_groups
from ktc.passes.utils.ir import enclosing_function, erase_unused, linear_tile_id
from ktc.passes.utils.tiles import origin
from ktc.passes.utils.values import evaluate


@dataclass(frozen=True)
class ShareOverRing(ModulePass):
    """Share the copies from device memory that several tiles make identically.

    Expects programs (``func.func`` with a static ``grid``) whose ``ktdf.pipeline``s
    copy blocks from device memory into scratchpad buffers (as ``contraction-pipeline``
    builds them): a ``ktdf.data_transfer`` in a leaf ``ktdf.stage`` (maybe under an
    ``scf.if``, not inside a loop of the stage) from a ``memref.reinterpret_cast`` of a
    ``ktdp.construct_memory_view`` in device memory at a start affine in the tile id,
    loop indices and launch arguments, into the whole of a buffer defined outside the
    stage; in a module declaring a timed device with an interconnect.

    Produces, per such copy whose tiles form groups of one size reading the same
    block, in a grid that runs in one wave, where the bound says it is cheaper, with
    the groups cut into runs of consecutive members of the size ``G > 1`` of the least
    bound (see the module docstring): the copy under an ``scf.if`` taken by the group's owner
    of the iteration (``ktdf.tile_table`` of the tile's position in its group less the
    group's index, modulo ``G``, equal to the linear index of the normalized loops of
    static trips around the stage, modulo ``G``), marked ``ktdf.shared_over_ring`` (the
    positions); after its stage, ``G - 1`` stages on the interconnect stop, each the copy's stage with every transfer but a
    copy of the whole buffer into the same buffer of the tile ``r`` positions on in the
    group (``ktdf.to_tiles``) removed, that copy under the same ``scf.if``; relayed, the
    ``r``-th a copy into the next member's buffer (the group's way) taken by the member
    ``r - 1`` steps on from the owner (its table entry shifted so), marked
    ``ktdf.relayed`` after the first; the stop added to the ``applicable_units`` of the
    stages around. A module without such
    copies, or whose copies are marked, is unchanged: the pass is idempotent.
    """

    name = "share-over-ring"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        candidates = [found for inner in op.walk() if (found := _candidate(inner)) is not None]
        if not candidates:
            return
        device = device_of(op)
        if device.interconnect is None or device.missing_timing:
            return
        linears: dict[FuncOp, SSAValue] = {}
        for transfer, stage in candidates:
            func = enclosing_function(transfer)
            grid = grid_of(func)
            readers = _groups(transfer, grid, device)
            iterations = prod(trips for *_, trips in _loops(stage))
            chosen = None if readers is None else _cheapest(
                readers, _bytes(transfer), iterations, _in_flight(transfer, stage), device)
            if chosen is None:
                continue
            if func not in linears:
                linears[func] = linear_tile_id(_top_level(stage, func), grid)
            _share(transfer, stage, *chosen, linears[func], device)


# ---------------------------------------------------------------------------------
# What may be shared
# ---------------------------------------------------------------------------------


def _candidate(op: Operation) -> tuple[ktdf.DataTransferOp, ktdf.StageOp] | None:
    """A copy from a cast of a memory view into the whole of a buffer defined outside
    its leaf stage, not in a loop of the stage and not shared yet, and its stage."""
    if (not isinstance(op, ktdf.DataTransferOp) or ktdf.to_tiles(op) is not None
            or ktdf.shared_over_ring(op) is not None or _start(op) is None):
        return None
    stage, parent = None, op.parent_op()
    while parent is not None and stage is None:
        if isinstance(parent, scf.ForOp):
            return None
        stage = parent if isinstance(parent, ktdf.StageOp) else None
        parent = parent.parent_op()
    if (stage is None or not stage.depends_out
            or any(isinstance(inner, ktdf.StageOp) for inner in stage.body.walk())):
        return None
    outer = _outside(op.destination, stage)
    if not isinstance(outer.type, MemRefType) or prod(outer.type.get_shape()) != prod(
            op.destination.type.get_shape()):
        return None
    return op, stage


def _start(transfer: ktdf.DataTransferOp) -> SSAValue | None:
    """The element at which a copy reads a memory view (a cast of it at one offset)."""
    cast = transfer.source.owner
    if not isinstance(cast, memref.ReinterpretCastOp) or not isinstance(
            cast.source.owner, ktdp.ConstructMemoryViewOp) or len(cast.offsets) != 1:
        return None
    return cast.offsets[0]


def _outside(value: SSAValue, stage: ktdf.StageOp) -> SSAValue:
    """``value`` through the casts at offset 0 made inside ``stage``: the buffer they view."""
    cast = value.owner
    while (isinstance(cast, memref.ReinterpretCastOp) and stage.is_ancestor(cast)
           and not cast.offsets and cast.static_offsets.get_values() == (0,)):
        value = cast.source
        cast = value.owner
    return value


def _groups(transfer: ktdf.DataTransferOp, grid: Sequence[int], device: Device) -> list[list[int]] | None:
    """The groups of tiles reading the same block, when there are groups of one size
    larger than one in a grid that runs in one wave, reading device memory."""
    view = transfer.source.owner.source
    memory = device.memory_of(view.type)
    if memory is None or memory.kind != device.device_memory or prod(grid) > device.cores:
        return None
    groups = reader_groups(_start(transfer), grid)
    if groups is None or len({len(group) for group in groups}) != 1 or len(groups[0]) < 2:
        return None
    return groups


def _bytes(transfer: ktdf.DataTransferOp) -> int:
    shape = transfer.destination.type
    return prod(shape.get_shape()) * shape.get_element_type().bitwidth // 8


# ---------------------------------------------------------------------------------
# The bound
# ---------------------------------------------------------------------------------


def _cheapest(readers: list[list[int]], nbytes: int, iterations: int, in_flight: int | None,
              device: Device) -> tuple[list[list[int]], tuple[int, ...] | None] | None:
    """The groups of the least bound, over the ``iterations`` of the copy, among the
    reader groups cut into runs of consecutive members of each size dividing theirs
    (larger than one), each forwarded in each of ``_forwardings``, and that way; None
    when none is bound lower than every tile reading the block from device memory.
    Device memory serves one block per group, all tiles' copies sharing its port; each
    group's other members receive one block each over the interconnect: larger groups
    read less from device memory and forward more. Ties go to the smaller groups
    (fewer forwarding stages), then to direct forwarding."""
    size = len(readers[0])
    tiles = sum(len(group) for group in readers)
    best, least = None, iterations * _memory_cycles(tiles, nbytes, device)
    for part in (part for part in range(2, size + 1) if size % part == 0):
        groups = [group[at:at + part] for group in readers for at in range(0, size, part)]
        for ways in _forwardings(len(groups)):
            cycles = _shared_cycles(groups, nbytes, iterations, in_flight, ways, device)
            if cycles < least:
                best, least = (groups, ways), cycles
    return best


def _forwardings(groups: int) -> list[tuple[int, ...] | None]:
    """The ways of forwarding ``groups`` groups' blocks: directly from the owner
    (None), or relayed, per group the way along its members (1: on to the next, -1:
    back to the one before), every group the same way or each the other way from the
    group before it (so that neighbouring groups' relays use the two directions of the
    links)."""
    alternating = tuple(-1 if index % 2 else 1 for index in range(groups))
    return [None, (1,) * groups, *([alternating] if groups > 1 else [])]


def _in_flight(transfer: ktdf.DataTransferOp, stage: ktdf.StageOp) -> int | None:
    """How many iterations' copies may be in flight at once: the copies of the buffer
    used in turn (``ktdf.select_memref``); None when each iteration writes a buffer of
    its own (a part of a larger one)."""
    outer = _outside(transfer.destination, stage).owner
    if isinstance(outer, ktdf.SelectMemrefOp):
        return len(outer.candidates)
    return None if isinstance(outer, memref.ReinterpretCastOp) else 1


def _memory_cycles(readers: int, nbytes: int, device: Device) -> float:
    """Device memory's cycles for ``readers`` copies of a block at once: the port's
    bandwidth shared by all cores, each core no faster than its DMA link."""
    roof = device.roofline
    return max(readers * nbytes / roof.device_memory_bytes_per_cycle,
               nbytes / roof.dma_read_bytes_per_cycle)


def _shared_cycles(groups: list[list[int]], nbytes: int, iterations: int, in_flight: int | None,
                   ways: tuple[int, ...] | None, device: Device) -> float:
    """The bound over the ``iterations`` of the copy read once per group and forwarded.
    An iteration's forwarding follows its copy; with the buffers used in turn the next
    iteration's copy overlaps this one's forwarding, so the first iteration costs both
    (its owners the worst placed; relayed, each step of the relay after the one before),
    each later one the larger of the copy and, on average over the owners in turn, the
    forwarding of ``in_flight`` iterations at once (every step of a relay among them;
    every iteration when None: each writes a buffer of its own), and no less than an
    iteration's forwarding from first step to last over the ``in_flight`` buffers that
    hold it meanwhile."""
    size = len(groups[0])
    memory = _memory_cycles(len(groups), nbytes, device)
    steps = [_forwards(groups, turn, ways, device) for turn in range(size)]
    latency = [sum(_ring_cycles(step, nbytes, device) for step in turn) for turn in steps]
    window = min(in_flight or size, size)
    later = sum(max(_ring_cycles([copy for at in range(turn, turn + window)
                                  for step in steps[at % size] for copy in step], nbytes, device),
                    latency[turn]) for turn in range(size)) / (size * window)
    return memory + max(latency) + (iterations - 1) * max(memory, later)


def _forwards(groups: list[list[int]], turn: int, ways: tuple[int, ...] | None,
              device: Device) -> list[list[tuple[int, list[tuple[int, int]]]]]:
    """The copies between cores of one iteration, (the copying core, its route), in the
    steps that follow one another, whose owners are those of ``turn`` (group ``g``'s
    member at position ``turn + g`` modulo its size): one step of each owner's copies
    to every other member (``ways`` None) or, relayed, a step per member but the last
    (counted on from the owner the group's way), each copying to the next that way."""
    steps: list[list[tuple[int, list[tuple[int, int]]]]] = []
    for index, group in enumerate(groups):
        size = len(group)
        owner = (turn + index) % size
        if ways is not None:
            way = ways[index]
            pairs = [[(group[(owner + way * step) % size], group[(owner + way * (step + 1)) % size])]
                     for step in range(size - 1)]
        else:
            pairs = [[(group[owner], member) for member in group if member != group[owner]]]
        steps.extend([] for _ in range(len(pairs) - len(steps)))
        for step, copies in zip(steps, pairs):
            step.extend((source, _route(source, target, device)) for source, target in copies)
    return steps


def _ring_cycles(copies: list[tuple[int, list[tuple[int, int]]]], nbytes: int,
                 device: Device) -> float:
    """The interconnect's cycles for ``copies`` of one block each: a copy holds its
    route (every link direction of it and the copying core's stop) for its whole
    transfer, so it waits for every copy whose route meets its own; the slowest of
    them, plus the farthest hop."""
    ring = device.interconnect
    transfer = nbytes / min(ring.bytes_per_cycle, _stop_bandwidth(device))
    held = [{("stop", source), *route} for source, route in copies]
    met = max(sum(1 for other in held if other & mine) for mine in held)
    farthest = max(len(route) for _, route in copies)
    return met * transfer + farthest * ring.latency


def _route(source: int, target: int, device: Device) -> list[tuple[int, int]]:
    """The link directions from core ``source`` to core ``target`` the shorter way."""
    cores = device.cores
    hops = device.core_hops(source, target)
    forward = (target - source) % cores == hops if device.interconnect.topology == "ring" \
        else target > source
    step = 1 if forward else -1
    return [((source + i * step) % cores, (source + (i + 1) * step) % cores) for i in range(hops)]


def _stop_bandwidth(device: Device) -> int:
    """Bytes per cycle from a core's scratchpad to its interconnect stop."""
    route = device.path(device.node(device.scratchpad), device.node(device.interconnect.stop))
    return min(link.bytes_per_cycle for link in route if link.bytes_per_cycle)


# ---------------------------------------------------------------------------------
# The rewrite
# ---------------------------------------------------------------------------------


def _share(transfer: ktdf.DataTransferOp, stage: ktdf.StageOp, groups: list[list[int]],
           ways: tuple[int, ...] | None, linear: SSAValue, device: Device) -> None:
    """The copy made by the iteration's owner only, and a stage per other member of
    the group forwarding it over the interconnect: from the owner, or relayed (per
    group the way of ``ways``), from the member before it."""
    tiles = sum(len(group) for group in groups)
    positions, members = [0] * tiles, [groups[0]] * tiles
    size = len(groups[0])
    turns, way = [0] * tiles, [1] * tiles
    for index, group in enumerate(groups):
        for position, tile in enumerate(group):
            positions[tile], members[tile] = position, group
            turns[tile] = (position - index) % size
            way[tile] = 1 if ways is None else ways[index]
    owner = _owner(stage, linear, turns, size, transfer)
    _owned(transfer, owner)
    transfer.attributes.update(ktdf.shared_over_ring_attribute(positions))
    stop = StringAttr(device.interconnect.stop)
    outer = _outside(transfer.destination, stage)
    forwards = []
    for rank in range(1, size):
        step = way if ways is not None else [rank] * tiles
        table = [members[tile][(positions[tile] + step[tile]) % size] for tile in range(tiles)]
        copying = turns if ways is None else [(turns[tile] - way[tile] * (rank - 1)) % size
                                              for tile in range(tiles)]
        forwards.append(_forwarding_body(stage, transfer, outer, table, owner[1], copying,
                                         ways is not None and rank > 1))
    _chain_after(stage, forwards, stop)
    _add_unit(stage, stop)


def _chain_after(stage: ktdf.StageOp, bodies: list[list[Operation]], unit: StringAttr) -> None:
    """A stage on ``unit`` per body inserted after ``stage`` in its pipeline's chain of
    tokens: the first waits for ``stage``'s token, each next for the one before, and
    the stages that waited for ``stage`` wait for the last."""
    pipeline = stage.parent_op()
    tokens = _new_tokens(pipeline, len(bodies))
    released = stage.depends_out[0]
    waiting = [other for other in pipeline.stages if released in other.depends_in]
    previous, after = released, stage
    for body, token in zip(bodies, tokens):
        forward = ktdf.StageOp([previous], [token], body, [unit])
        Rewriter.insert_op(forward, InsertPoint.after(after))
        previous, after = token, forward
    for other in waiting:
        for use in [use for use in released.uses if use.operation is other]:
            other.operands[use.index] = previous


def _new_tokens(pipeline: ktdf.PipelineOp, count: int) -> list[SSAValue]:
    """``count`` new tokens of ``pipeline``'s ``ktdf.private`` (rebuilt with them)."""
    old = pipeline.private
    block = old.body.block
    created = [ktdf.CreateTokenOp() for _ in range(count)]
    terminator = block.last_op
    values = [*terminator.operands, *(token.result for token in created)]
    Rewriter.insert_op(created, InsertPoint.before(terminator))
    Rewriter.replace_op(terminator, ktdf.PrivateYieldOp(*values))
    new = ktdf.PrivateOp([value.type for value in values], old.body.clone())
    new.location = old.location
    Rewriter.insert_op(new, InsertPoint.before(old))
    for before, after in zip(old.resources, new.resources):
        before.replace_all_uses_with(after)
    Rewriter.erase_op(old)
    return list(new.resources[len(values) - count:])


def _loops(stage: ktdf.StageOp) -> list[tuple[SSAValue, int, int, int]]:
    """The loops of constant bounds around ``stage``, innermost first, up to the first
    that has others: each one's index, lower bound, step and trips."""
    loops = []
    parent = stage.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        if isinstance(parent, scf.ForOp):
            bounds = [evaluate(value, ()) for value in (parent.lb, parent.ub, parent.step)]
            if None in bounds or bounds[2] < 1:
                break
            lb, ub, step = bounds
            loops.append((parent.body.block.args[0], lb, step, max(-(-(ub - lb) // step), 1)))
        parent = parent.parent_op()
    return loops


def _owner(stage: ktdf.StageOp, linear: SSAValue, positions: list[int], size: int,
           at: Operation) -> list[Operation]:
    """Ops computing whether this tile is the owner of the iteration: its position in
    its group equal to the linear index of ``_loops`` around ``stage``, modulo
    ``size``."""
    loops = _loops(stage)
    index, stride = AffineExpr.constant(0), 1
    for position, (_, lb, step, trips) in enumerate(loops):
        iteration = AffineExpr.dimension(position) - lb if lb else AffineExpr.dimension(position)
        index = index + (iteration // step if step > 1 else iteration) * stride
        stride *= trips
    turn = ApplyOp([iv for iv, *_ in loops], AffineMapAttr(AffineMap(len(loops), 0, (index % size,))))
    mine = ktdf.TileTableOp(linear, positions)
    owner = arith.CmpiOp(turn.results[0], mine.result, "eq")
    for op in (turn, mine, owner):
        op.location = at.location
    return [turn, mine, owner]


def _owned(op: Operation, owner: list[Operation]) -> None:
    """``op`` moved under an ``scf.if`` on the last of ``owner``, which go before it."""
    block = Block()
    guard = scf.IfOp(owner[-1].results[0], [], Region(block))
    guard.location = op.location
    Rewriter.insert_op([*owner, guard], InsertPoint.before(op))
    op.detach()
    block.add_ops([op, scf.YieldOp()])


def _forwarding_body(stage: ktdf.StageOp, transfer: ktdf.DataTransferOp, outer: SSAValue,
                     table: list[int], mine: ktdf.TileTableOp, copying: list[int],
                     relayed: bool) -> list[Operation]:
    """The body of a stage on the stop: ``stage``'s ops with ``transfer`` a copy of the whole of
    ``outer`` into the same buffer of the tile ``table`` names, every other transfer
    removed (so only the conditions around ``transfer`` stay, the owner's taken by the
    tiles ``copying`` names: the iteration's turn at which each copies), marked
    ``ktdf.relayed`` when it forwards what the stage before it brought."""
    body = Block()
    mapping: dict[SSAValue, SSAValue] = {}
    for op in stage.body.block.ops:
        body.add_op(op.clone(value_mapper=mapping))
    mapping[mine.result].owner.properties["values"] = DenseArrayBase.from_list(i64, copying)
    copies = [op for op in body.walk() if isinstance(op, ktdf.DataTransferOp)]
    index = [op for op in stage.body.walk() if isinstance(op, ktdf.DataTransferOp)].index(transfer)
    shape = list(outer.type.get_shape())
    attributes = ktdf.to_tiles_attribute(table)
    if relayed:
        attributes.update(ktdf.relayed_attribute())
    forward = ktdf.DataTransferOp(outer, shape, outer, shape,
                                  source_access=(origin(len(shape)), []),
                                  dest_access=(origin(len(shape)), []),
                                  attributes=attributes)
    forward.location = transfer.location
    Rewriter.insert_op(forward, InsertPoint.before(copies[index]))
    for op in copies:
        operands = [value.owner for value in op.operands]
        Rewriter.erase_op(op)
        erase_unused(operands)
    return _detached(body)


def _detached(block: Block) -> list[Operation]:
    ops = list(block.ops)
    for op in ops:
        op.detach()
    return ops


def _add_unit(stage: ktdf.StageOp, unit: StringAttr) -> None:
    """``unit`` among the ``applicable_units`` of the stages around ``stage``."""
    parent = stage.parent_op()
    while parent is not None:
        if isinstance(parent, ktdf.StageOp) and unit not in parent.applicable_units.data:
            parent.properties["applicable_units"] = type(parent.applicable_units)(
                [*parent.applicable_units.data, unit])
        parent = parent.parent_op()


def _top_level(op: Operation, func: FuncOp) -> Operation:
    """The op of ``func``'s body that holds ``op``."""
    while op.parent_op() is not func:
        op = op.parent_op()
    return op
