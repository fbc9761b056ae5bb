"""``path-expansion``: route the data of every pipeline over the device's real links.

The three-stage pipeline moves data straight between a memory and the compute
engine (``"DDR" -> "SFU"``), which no device can do in one step. This pass asks the
device for the cheapest real path of every transfer, cuts the path at each memory
it passes through, and gives every piece its own transfer, run by the engine on
that piece: on Spyre-like devices DDR -> SFU becomes MNILU (DDR to a scratchpad
buffer), then L1LU (buffer to the FIFO into the SFU). A copy between two cores'
scratchpads (``ktdf.to_tiles``) already runs on the interconnect stop and is left
as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    FixedBitwidthType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
)
from xdsl.dialects.memref import AllocOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ktc.arch.model import kind_name
from ktc.arch.model import ENGINE, MEMORY, Device, Node, device_of
from ktc.dialects.diagnostics import KtcError, located, where
from ktc.dialects.ktdf import (
    CreateTokenOp,
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    PipelineOp,
    PrivateOp,
    PrivateYieldOp,
    ReadFromFifoOp,
    StageOp,
    TokenType,
    WriteToFifoOp,
    to_tiles,
)
from ktc.dialects.ktdf_arch import attr_text


@dataclass(frozen=True)
class PathExpansion(ModulePass):
    """Expand every pipeline's transfers into hops between real neighbours.

    Expects pipelines as ``construct-three-stage-pipeline`` builds them (or already
    partly or fully expanded): the stages of each pipeline form a linear chain by
    their tokens; at least one stage (the anchor) names its engine in
    ``applicable_units``; every stage that does more than ``ktdf.data_transfer``
    names its engine; memrefs carry the memory kind (or KTIR memory space) they
    live in; a FIFO slot names, at its far end, the engine that reads or fills it
    (``"DDR" -> "SFU"``: the SFU reads it).

    Produces, for each transfer, the device's cheapest path between its memory and
    its engine (``Device.path``), cut at every memory on the way: a transfer per
    piece, through a staging ``memref.alloc`` in ``ktdf.private`` for each
    intermediate memory; the pieces before the original transfer's stage get new
    stages before it (after it for pieces after a compute stage); FIFOs retyped to
    join the neighbours on the path (``"L1LU" -> "SFU"``); every stage labelled with
    the engine kind that runs it (the engine on its piece of path, or the engine at
    the end of the piece when the memory feeds it directly). A pipeline already
    legal keeps its form and only gains missing labels.
    """

    name = "path-expansion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pipelines = [child for child in op.walk() if isinstance(child, PipelineOp)]
        if not pipelines:
            return
        device = device_of(op)
        for pipeline in reversed(pipelines):  # inner pipelines first
            _expand(pipeline, device)


# ---------------------------------------------------------------------------------
# The plan: hops of every transfer
# ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Staging:
    """A buffer the expansion adds in a memory the data passes through."""

    memory: str
    element_type: Attribute
    sizes: tuple[int | SSAValue, ...]

    @property
    def type(self) -> MemRefType:
        shape = [DYNAMIC_INDEX if isinstance(size, SSAValue) else size for size in self.sizes]
        return MemRefType(self.element_type, shape, NoneAttr(), StringAttr(self.memory))

    @property
    def dynamic_sizes(self) -> list[SSAValue]:
        return [size for size in self.sizes if isinstance(size, SSAValue)]


@dataclass(frozen=True)
class _End:
    """One side of a hop: a memref, a FIFO slot or a staging buffer, where in it
    (a map over indices; none for a slot) and how much."""

    value: SSAValue | _Staging
    access: tuple[AffineMap, Sequence[SSAValue]] | None
    sizes: tuple[int | SSAValue, ...]


@dataclass(frozen=True)
class _Hop:
    """One transfer of the expanded pipeline."""

    unit: str
    """The engine kind that runs it."""
    source: _End
    dest: _End
    offset: int
    """Where its stage goes: 0 the original transfer's stage, -1 the one before it, ..."""
    attributes: dict[str, Attribute]
    origin: DataTransferOp
    """The transfer it is a hop of (its source location is the hop's)."""


@dataclass(frozen=True)
class _Plan:
    hops: dict[StageOp, list[_Hop]]
    """The hops of every transfer stage, in transfer order."""
    slot_types: dict[SSAValue, FifoSlotType]
    """The type every FIFO slot that a transfer touches should have."""

    @property
    def changes_form(self) -> bool:
        """Whether the pipeline needs new stages, buffers or FIFO types, rather than
        labels only."""
        return (
            any(len({hop.unit for hop in hops}) > 1 or any(hop.offset for hop in hops)
                for hops in self.hops.values())
            or any(slot.type != slot_type for slot, slot_type in self.slot_types.items())
        )


def _expand(pipeline: PipelineOp, device: Device) -> None:
    chain = _linear_chain(pipeline)
    if not chain or _copies_between_cores(pipeline):
        return
    if all(stage.applicable_units is None for stage in chain):
        raise KtcError(
            "'ktdf.pipeline' has no anchor: no stage names the engine that runs it in "
            "applicable_units",
            where(pipeline),
        )
    work = [index for index, stage in enumerate(chain) if not _moves_only(stage)]
    for index in work:
        if chain[index].applicable_units is None:
            raise KtcError(
                "'ktdf.stage' does more than move data but names no engine in "
                "applicable_units",
                where(chain[index]),
            )
    first_work = work[0] if work else len(chain)
    plan = _plan(chain, first_work, device)
    if plan.changes_form:
        _rebuild(pipeline, chain, plan)
        return
    for stage, hops in plan.hops.items():
        stage.properties["applicable_units"] = _units(hops[0].unit)


def _copies_between_cores(pipeline: PipelineOp) -> bool:
    """A copy from one core's scratchpad into another's (``inter-tile-reduce-lowering``):
    already on the interconnect stop, which reads and writes the scratchpad itself."""
    return any(to_tiles(op) is not None for op in pipeline.walk()
               if isinstance(op, DataTransferOp))


def _moves_only(stage: StageOp) -> bool:
    ops = list(stage.body.block.ops)
    return bool(ops) and all(isinstance(op, DataTransferOp) for op in ops)


def _units(unit: str) -> ArrayAttr:
    return ArrayAttr([StringAttr(unit)])


def _labels(stage: StageOp) -> list[str]:
    units = stage.applicable_units
    return [] if units is None else [kind_name(unit) for unit in units.data]


def _spelled(labels: list[str]) -> str:
    """Labels as ``applicable_units`` writes them: ``["SFU"]``."""
    return "[" + ", ".join(f'"{label}"' for label in labels) + "]"


def _linear_chain(pipeline: PipelineOp) -> list[StageOp]:
    """The stages in dependency order; fails unless each waits for at most one and
    is waited for by at most one, all in one chain."""
    stages = pipeline.stages
    releaser: dict[SSAValue, StageOp] = {}
    for stage in stages:
        for token in stage.depends_out:
            if token in releaser:
                raise KtcError(
                    "'ktdf.stage' releases a token another stage of its pipeline releases "
                    "too; path-expansion needs the stages in a linear chain",
                    where(stage),
                )
            releaser[token] = stage
    after: dict[StageOp, StageOp] = {}
    heads = []
    for stage in stages:
        missing = [token for token in stage.depends_in if token not in releaser]
        if missing:
            raise KtcError(
                "'ktdf.stage' waits for a token no stage of its pipeline releases",
                where(stage),
            )
        before = {releaser[token] for token in stage.depends_in}
        if len(before) > 1:
            raise KtcError(
                f"'ktdf.stage' waits for {len(before)} stages; path-expansion needs the "
                "stages in a linear chain",
                where(stage),
            )
        if not before:
            heads.append(stage)
            continue
        previous = before.pop()
        if previous in after:
            raise KtcError(
                "'ktdf.stage' is waited for by 2 stages; path-expansion needs the stages "
                "in a linear chain",
                where(previous),
            )
        after[previous] = stage
    if len(heads) != 1:
        raise KtcError(
            f"'ktdf.pipeline' has {len(heads)} stages that wait for no other stage; "
            "path-expansion needs the stages in a linear chain",
            where(pipeline),
        )
    chain = heads
    while chain[-1] in after:
        chain.append(after[chain[-1]])
    if len(chain) != len(stages):
        raise KtcError(
            "'ktdf.pipeline' has stages that wait for each other in a cycle; "
            "path-expansion needs the stages in a linear chain",
            where(pipeline),
        )
    return chain


def _plan(chain: list[StageOp], first_work: int, device: Device) -> _Plan:
    hops: dict[StageOp, list[_Hop]] = {}
    slot_types: dict[SSAValue, FifoSlotType] = {}
    for index, stage in enumerate(chain):
        if not _moves_only(stage):
            continue
        hops[stage] = []
        for transfer in stage.body.block.ops:
            assert isinstance(transfer, DataTransferOp)
            transfer_hops, slot_type = _transfer_hops(transfer, index < first_work, device)
            hops[stage] += transfer_hops
            slot = _slot(transfer)
            if slot is not None:
                _check_slot_users(slot, slot_type, transfer)
                slot_types[slot] = slot_type
        _check_label(stage, hops[stage])
    return _Plan(hops, slot_types)


def _slot(transfer: DataTransferOp) -> SSAValue | None:
    """The transfer's FIFO slot, if it has one."""
    return next(
        (value for value in (transfer.destination, transfer.source)
         if isinstance(value.type, FifoSlotType)),
        None,
    )


def _check_label(stage: StageOp, hops: list[_Hop]) -> None:
    """A transfer stage's own label must name the engine that runs its transfers."""
    labels = _labels(stage)
    for hop in hops:
        if labels and hop.offset == 0 and hop.unit not in labels:
            raise KtcError(
                f"'ktdf.stage' names {_spelled(labels)} in applicable_units, but "
                f"\"{hop.unit}\" runs its transfer",
                where(stage),
            )


def _check_slot_users(slot: SSAValue, slot_type: FifoSlotType, transfer: DataTransferOp) -> None:
    """The stage that reads or fills a FIFO must run on the engine at its far end."""
    engine = _engine_end(slot_type, transfer)
    for use in slot.uses:
        if not isinstance(use.operation, ReadFromFifoOp | WriteToFifoOp):
            continue
        stage = _stage_of(use.operation)
        if stage is not None and engine not in _labels(stage):
            raise KtcError(
                f"'{use.operation.name}' uses a FIFO whose far end is \"{engine}\", but its "
                f"stage runs on {_spelled(_labels(stage))}",
                where(use.operation),
            )


def _stage_of(op: Operation) -> StageOp | None:
    while op is not None and not isinstance(op, StageOp):
        op = op.parent_op()
    return op


def _engine_end(slot: FifoSlotType, transfer: DataTransferOp) -> str:
    """The kind at the end of a FIFO away from the transfer: the engine it feeds or
    drains."""
    return kind_name(slot.destination if _slot(transfer) is transfer.destination else slot.source)



# ---------------------------------------------------------------------------------
# Routing one transfer
# ---------------------------------------------------------------------------------


def _transfer_hops(
    transfer: DataTransferOp, before_work: bool, device: Device
) -> tuple[list[_Hop], FifoSlotType | None]:
    """The hops of one transfer, and the type its FIFO slot gets (if it has one)."""
    source, dest = transfer.source_side, transfer.dest_side
    start = _node(transfer, transfer.source, lambda slot: slot.source, device)
    end = _node(transfer, transfer.destination, lambda slot: slot.destination, device)
    nodes = _route(transfer, start, end, device)
    pieces = _pieces(nodes)
    units = [_runner(transfer, piece, nodes) for piece in pieces]

    memref_side = source if isinstance(source.value.type, MemRefType) else dest
    memref_type = memref_side.value.type
    assert isinstance(memref_type, MemRefType)
    staging_sizes = tuple(memref_side.mixed_sizes)
    ends = [_End(source.value, _access(source), tuple(source.mixed_sizes))]
    for piece in pieces[:-1]:
        staging = _Staging(piece[-1].kind, memref_type.get_element_type(), staging_sizes)
        ends.append(_End(staging, (_zeros(len(staging_sizes)), ()), staging_sizes))
    ends.append(_End(dest.value, _access(dest), tuple(dest.mixed_sizes)))

    anchored_at_end = isinstance(dest.value.type, FifoSlotType) or (
        before_work and not isinstance(source.value.type, FifoSlotType)
    )
    last = len(pieces) - 1
    hops = [
        _Hop(
            unit, ends[index], ends[index + 1],
            index - last if anchored_at_end else index,
            dict(transfer.attributes) if index == (last if anchored_at_end else 0) else {},
            transfer,
        )
        for index, unit in enumerate(units)
    ]
    return hops, _slot_type(transfer, pieces)


def _node(
    transfer: DataTransferOp,
    value: SSAValue,
    far_end: Callable[[FifoSlotType], Attribute],
    device: Device,
) -> Node:
    """Where one side of a transfer sits on the device: the memory of a memref, the
    engine at the far end of a FIFO slot."""
    value_type = value.type
    try:
        if isinstance(value_type, FifoSlotType):
            kind = kind_name(far_end(value_type))
            if kind not in device.engine_kinds:
                raise KtcError(
                    f"FIFO end \"{kind}\" is not an execution unit of device @{device.name}"
                )
            return device.node(kind)
        assert isinstance(value_type, MemRefType)
        memory = device.memory_of(value_type)
        if memory is None:
            raise KtcError(f"memref {attr_text(value_type)} names no memory space")
        return device.node(memory.kind)
    except KtcError as err:
        raise KtcError(f"'ktdf.data_transfer': {err.message}", where(transfer)) from None


def _route(transfer: DataTransferOp, start: Node, end: Node, device: Device) -> list[Node]:
    """The nodes of the cheapest path for the transfer's bytes from start to end."""
    try:
        links = device.path(start, end, _bytes(transfer))
    except KtcError:
        raise KtcError(
            f"'ktdf.data_transfer': no path on device @{device.name} from \"{start.kind}\" "
            f"to \"{end.kind}\"",
            where(transfer),
        ) from None
    return [start, *(link.target for link in links)]


def _bytes(transfer: DataTransferOp) -> int:
    side = transfer.source_side
    element = side.element_type()
    size = element.size if isinstance(element, FixedBitwidthType) else 1
    return max(1, (side.static_count or 1) * size)


def _pieces(nodes: list[Node]) -> list[list[Node]]:
    """The path cut at every memory it passes through: each piece runs from one
    place the data can rest to the next."""
    cuts = [i for i, node in enumerate(nodes) if node.role == MEMORY or i in (0, len(nodes) - 1)]
    return [nodes[a : b + 1] for a, b in pairwise(cuts)]


def _runner(transfer: DataTransferOp, piece: list[Node], nodes: list[Node]) -> str:
    """The engine kind that moves data along one piece of path: the one engine
    inside it, or the engine at its end when a memory feeds that engine directly."""
    inside = [node for node in piece[1:-1] if node.role == ENGINE]
    if not inside:
        inside = [node for node in (piece[0], piece[-1]) if node.role == ENGINE]
    if len(inside) == 1:
        return inside[0].kind
    path = " -> ".join(f'"{node.kind}"' for node in nodes)
    problem = "no engine" if not inside else "more than one engine"
    raise KtcError(
        f"'ktdf.data_transfer': the path {path} has {problem} between \"{piece[0].kind}\" "
        f"and \"{piece[-1].kind}\" to move the data",
        where(transfer),
    )


def _slot_type(transfer: DataTransferOp, pieces: list[list[Node]]) -> FifoSlotType | None:
    """The transfer's FIFO slot joined to its real neighbour: the node next to the
    slot's far end on the path (the engine feeding it, or the memory itself)."""
    slot = _slot(transfer)
    if slot is None:
        return None
    slot_type = slot.type
    count, element = slot_type.num_elements.data, slot_type.element_type
    if slot is transfer.destination:
        near = _beside(pieces[-1], last=False)
        return FifoSlotType(StringAttr(near), slot_type.destination, count, element)
    near = _beside(pieces[0], last=True)
    return FifoSlotType(slot_type.source, StringAttr(near), count, element)


def _beside(piece: list[Node], last: bool) -> str:
    """The kind next to the engine at one end of a piece: the engine inside the
    piece, or the memory at its other end."""
    inside = [node for node in piece[1:-1] if node.role == ENGINE]
    if inside:
        return inside[0].kind
    return (piece[-1] if last else piece[0]).kind


def _access(side) -> tuple[AffineMap, Sequence[SSAValue]] | None:
    return None if side.access is None else (side.access.data, tuple(side.indices))


def _zeros(rank: int) -> AffineMap:
    return AffineMap(0, 0, (AffineExpr.constant(0),) * rank)


# ---------------------------------------------------------------------------------
# Rebuilding a pipeline from its plan
# ---------------------------------------------------------------------------------


def _rebuild(pipeline: PipelineOp, chain: list[StageOp], plan: _Plan) -> None:
    """Replace the pipeline's private resources and stages by the planned ones; the
    stages that compute keep their bodies."""
    entries = _entries(chain, plan)
    private = pipeline.private
    old_results = list(private.resources) if private is not None else []
    order = _first_uses(entries, set(old_results))
    trailing = bool(chain[-1].depends_out)  # the last stage releases a token too
    new_private, result_of = _new_private(private, order, plan, len(entries) - 1 + trailing)
    tokens = [result for result in new_private.resources if isinstance(result.type, TokenType)]

    def value(key: SSAValue | _Staging) -> SSAValue:
        return result_of.get(key, key)

    stages = []
    for index, (unit, content) in enumerate(entries):
        depends_in = tokens[index - 1 : index] if index else []
        depends_out = tokens[index : index + 1]
        if isinstance(content, StageOp):
            body = content.detach_region(content.body)
            stages.append(StageOp(depends_in, depends_out, body, content.applicable_units.data))
            continue
        transfers = [_transfer(hop, value) for hop in content]
        stages.append(StageOp(depends_in, depends_out, transfers, [StringAttr(unit)]))

    for stage in chain:
        Rewriter.erase_op(stage)
    for result in old_results:
        if result in result_of:
            result.replace_all_uses_with(result_of[result])
    for result in new_private.resources:
        result.name_hint = old_results[0].name_hint if old_results else None
    if private is not None:
        Rewriter.erase_op(private)
    pipeline.body.block.add_ops([new_private, *stages])


_Entry = tuple[str | None, StageOp | list[_Hop]]
"""A stage of the expanded pipeline: a computing stage as it is, or the engine kind
and hops of a new transfer stage."""


def _entries(chain: list[StageOp], plan: _Plan) -> list[_Entry]:
    """The stages of the expanded pipeline in order; the hops of one original stage
    go into one new stage per position and engine."""
    entries: list[_Entry] = []
    for stage in chain:
        if stage not in plan.hops:
            entries.append((None, stage))
            continue
        hops = plan.hops[stage]
        for offset in sorted({hop.offset for hop in hops}):
            units = list(dict.fromkeys(hop.unit for hop in hops if hop.offset == offset))
            for unit in units:
                chosen = [hop for hop in hops if (hop.offset, hop.unit) == (offset, unit)]
                entries.append((unit, chosen))
    return entries


def _first_uses(entries: list[_Entry], private_results: set[SSAValue]) -> list[SSAValue | _Staging]:
    """The private resources of the expanded pipeline, in the order its stages
    first touch them (the order a FIFO's slots are filled)."""
    order: dict[SSAValue | _Staging, None] = {}
    for _, content in entries:
        if isinstance(content, StageOp):
            values = [operand for op in content.body.walk() for operand in op.operands]
        else:
            values = [end.value for hop in content for end in (hop.source, hop.dest)]
        for value in values:
            if isinstance(value, _Staging) or value in private_results:
                order.setdefault(value)
    return list(order)


def _new_private(
    private: PrivateOp | None, order: list[SSAValue | _Staging], plan: _Plan, token_count: int
) -> tuple[PrivateOp, dict[SSAValue | _Staging, SSAValue]]:
    """A ``ktdf.private`` holding ``order`` (the FIFO slots regrouped by their
    endpoints, one ``fifo.allocate`` each, filled in the order of ``order``), then
    the chain's tokens; and the map from each old result or staging buffer to its
    new result. The old region's other ops (buffers, constants) stay in it."""
    yielded: list[SSAValue] = []
    kept: list[Operation] = []
    dynamic_size: dict[SSAValue, SSAValue] = {}
    if private is not None:
        yielded = list(private.body.block.last_op.operands)
        for op in list(private.body.block.ops):
            if isinstance(op, FifoAllocateOp):
                sizes = iter(op.dynamic_sizes)
                dynamic_size |= {slot: next(sizes) for slot in op.slots if slot.type.is_dynamic}
            if not isinstance(op, FifoAllocateOp | CreateTokenOp | PrivateYieldOp):
                op.detach()
                kept.append(op)

    def slot_type(key: SSAValue | _Staging) -> FifoSlotType | None:
        if isinstance(key, _Staging) or not isinstance(key.type, FifoSlotType):
            return None
        return plan.slot_types.get(key, key.type)

    fifos: dict[tuple[Attribute, Attribute], list[SSAValue]] = {}
    for key in order:
        if (new_type := slot_type(key)) is not None:
            fifos.setdefault((new_type.source, new_type.destination), []).append(key)

    ops = list(kept)
    inside: dict[SSAValue | _Staging, SSAValue] = {}
    for key in order:
        if key in inside:
            continue
        if isinstance(key, _Staging):
            alloc = AllocOp(key.dynamic_sizes, [], key.type)
            ops.append(alloc)
            inside[key] = alloc.memref
        elif (new_type := slot_type(key)) is not None:
            slots = fifos[(new_type.source, new_type.destination)]
            fifo = FifoAllocateOp(
                [slot_type(slot) for slot in slots],
                [dynamic_size[yielded[slot.index]] for slot in slots if slot.type.is_dynamic],
            )
            ops.append(fifo)
            inside |= dict(zip(slots, fifo.slots))
        else:
            inside[key] = yielded[key.index]
    tokens = [CreateTokenOp() for _ in range(token_count)]
    values = [inside[key] for key in order] + [token.result for token in tokens]
    new_private = PrivateOp(
        [value.type for value in values],
        Region(Block([*ops, *tokens, PrivateYieldOp(*values)])),
    )
    result_of = {key: new_private.resources[index] for index, key in enumerate(order)}
    return new_private, result_of


def _transfer(hop: _Hop, value: Callable[[SSAValue | _Staging], SSAValue]) -> DataTransferOp:
    return located(DataTransferOp(
        value(hop.source.value), hop.source.sizes, value(hop.dest.value), hop.dest.sizes,
        hop.source.access, hop.dest.access, attributes=dict(hop.attributes),
    ), hop.origin)
