"""Whether a device description describes a usable device.

The ``ktdf_arch`` verifiers already reject what is wrong with one op (duplicate ids,
sizes, bandwidths, lanes and depths below 1, a datapath from a resource to itself,
undefined values); the loader rejects import cycles. Here come the rules that need
the whole device, each failure a ``KtcError`` at the op concerned:

``check_source`` (the ops, before layout): every memory has a size and every
execution unit a kind; resources of one kind are alike and a kind names memories or
units, not both; ids that ``overlaps`` and interconnect stops name exist;
``mem_space_mapping`` maps to existing memories; ``example_values`` name figures
the op gives; ``patterns`` blocks name known application points; every figure is
within its bounds (``FIGURE_BOUNDS``, one table by figure name: at least 1, or 0 for
a latency, and at most a bound, so that no pass divides by zero or allocates or
iterates without end).

``check_device`` (the layout): one compute kind; every compute engine reachable from
device memory and able to reach it back; at most one matrix kind, not a compute
engine, fed through FIFOs by a load unit that reads the scratchpad and draining
through FIFOs into an engine that reaches it back, with accumulators at least as
wide as its operands, held in one memory beside it with room for one tile of them;
a device with a clock gives
every timing figure.
"""

from collections.abc import Iterable, Iterator, Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Block, Operation

from ktc.arch.expand import describe, example_value, intrinsic, kind_of, mapping
from ktc.arch.loader import Source
from ktc.arch.model import ENGINE, PATTERN_POINTS, Device, EngineKind
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import (
    DeviceOp,
    ExecUnitOp,
    GroupOp,
    MapAttr,
    MemoryOp,
    PatternsOp,
    ResourceOp,
    attr_text,
    float_bits,
)

IGNORED_WHEN_ALIKE = frozenset({"ktdf_arch.overlaps", "ktdf_arch.example_values"})
"""Attributes that may differ between resources of one kind."""


def check_source(source: Source) -> None:
    definition = source.definition
    ops = [op for op in definition.walk() if op is not definition]
    _check_resources(ops)
    _check_figures(source, ops)
    _check_alike(ops)
    _check_ids(ops)
    _check_example_values(source, ops)
    _check_mapping(source, ops)
    _check_patterns(ops)


def _check_resources(ops: Sequence[Operation]) -> None:
    for op in ops:
        if isinstance(op, MemoryOp) and op.size is None:
            raise KtcError(f"{describe(op)} has no size; the device model needs every capacity", where(op))
        if isinstance(op, ExecUnitOp) and not kind_of(op):
            raise KtcError("exec_unit has no kind; the device model names units by kind", where(op))


def _check_alike(ops: Sequence[Operation]) -> None:
    first: dict[tuple[type, str], Operation] = {}
    for op in ops:
        if not isinstance(op, MemoryOp | ExecUnitOp):
            continue
        exemplar = first.setdefault((type(op), kind_of(op)), op)
        if _compared(op) != _compared(exemplar):
            raise KtcError(
                f"{describe(op)} differs from the first of its kind at {where(exemplar)}; "
                "resources of one kind must be alike",
                where(op),
            )
    memories = {kind for (type_, kind) in first if type_ is MemoryOp}
    for (type_, kind), op in first.items():
        if type_ is ExecUnitOp and kind in memories:
            raise KtcError(f'kind "{kind}" names both a memory and an execution unit', where(op))


def _compared(op: Operation) -> dict:
    return {name: value for name, value in op.attributes.items() if name not in IGNORED_WHEN_ALIKE}


def _ids(block: Block | None) -> dict[str, Operation]:
    ops = block.ops if block else ()
    return {op.resource_id.data: op for op in ops if isinstance(op, ResourceOp) and op.resource_id}


def _visible_ids(op: Operation) -> dict[str, Operation]:
    """The resource ids of the blocks around ``op``, innermost winning."""
    visible: dict[str, Operation] = {}
    block = op.parent_block()
    while block is not None:
        visible = _ids(block) | visible
        parent = block.parent_op()
        block = None if parent is None or isinstance(parent, DeviceOp) else parent.parent_block()
    return visible


def _check_ids(ops: Sequence[Operation]) -> None:
    for op in ops:
        overlaps = intrinsic(op, "overlaps")
        if isinstance(overlaps, ArrayAttr):
            visible = _visible_ids(op)
            for ref in overlaps.data:
                if isinstance(ref, SymbolRefAttr) and ref.root_reference.data not in visible:
                    raise KtcError(f"undefined resource id @{ref.root_reference.data}", where(op))
        interconnect = intrinsic(op, "interconnect")
        if isinstance(op, GroupOp) and interconnect is not None:
            stop = interconnect.data["stop"].root_reference.data
            unit = _ids(op.body.block).get(stop)
            if unit is None:
                raise KtcError(f"undefined resource id @{stop} (the interconnect stop)", where(op))
            if not isinstance(unit, ExecUnitOp):
                raise KtcError(f"interconnect stop @{stop} is not an execution unit", where(op))


def _check_example_values(source: Source, ops: Sequence[Operation]) -> None:
    placed = source.attributes.get("ktdf_arch.example_values")
    device = {name: value.value for name, value in source.attributes.items()}
    owners = [(device, placed.where)] if placed else []
    owners += [(op.attributes, where(op)) for op in ops]
    for attributes, at in owners:
        names = attributes.get("ktdf_arch.example_values")
        for name in names.data if isinstance(names, ArrayAttr) else ():
            if example_value(attributes, name.data) is None:
                raise KtcError(f"example value '{name.data}' names no figure given here", at)


def _check_mapping(source: Source, ops: Iterable[Operation]) -> None:
    placed = source.attributes.get("mem_space_mapping")
    if placed is None:
        return
    memories = {kind_of(op) for op in ops if isinstance(op, MemoryOp)}
    for space, kind in mapping({"mem_space_mapping": placed.value}).items():
        if kind not in memories:
            raise KtcError(
                f'mem_space_mapping maps {space} to "{kind}", which is no memory of this device',
                placed.where,
            )


def _check_patterns(ops: Iterable[Operation]) -> None:
    for op in ops:
        if not isinstance(op, PatternsOp):
            continue
        for group in op.groups.data:
            if group.data not in PATTERN_POINTS:
                raise KtcError(
                    f'patterns group "{group.data}" is no application point '
                    f"({', '.join(PATTERN_POINTS)})",
                    where(op),
                )


def check_device(device: Device) -> None:
    _check_compute(device)
    _check_reachable(device)
    _check_matrix(device)
    _check_timed(device)


def _check_matrix(device: Device) -> None:
    units = [engine for engine in device.engine_kinds.values() if engine.matrix]
    if not units:
        return
    if len(units) > 1:
        raise KtcError(
            f'found second matrix unit "{units[1].kind}" (the first is "{units[0].kind}"); '
            "a device has one matrix kind",
            units[1].where,
        )
    engine = units[0]
    unit = engine.matrix
    if engine.compute:
        raise KtcError(
            f'exec_unit "{engine.kind}" is both the compute engine and a matrix unit; give '
            "the matrix unit an exec_unit of its own",
            engine.where,
        )
    input_bits, accumulator_bits = float_bits(unit.input), float_bits(unit.accumulator)
    if accumulator_bits < input_bits:
        raise KtcError(
            f"matrix unit \"{engine.kind}\" accumulates in {attr_text(unit.accumulator)}, "
            f"narrower than its input {attr_text(unit.input)}",
            engine.where,
        )
    if unit.accumulators is None:
        raise KtcError(
            f"matrix unit \"{engine.kind}\" needs one memory beside it for its accumulators "
            f"(a memory in its own group; it has {len(engine.local_memories)})",
            engine.where,
        )
    tile = unit.rows * unit.lanes * accumulator_bits // 8
    if unit.accumulator_bytes < tile:
        raise KtcError(
            f"matrix unit \"{engine.kind}\": its accumulator memory \"{unit.accumulators}\" of "
            f"{unit.accumulator_bytes} bytes holds no {unit.rows} x {unit.lanes} tile of "
            f"{attr_text(unit.accumulator)} ({tile} bytes)",
            engine.where,
        )
    _check_matrix_links(device, engine)


def _check_matrix_links(device: Device, engine: EngineKind) -> None:
    """Every matrix unit instance gets operands through a FIFO from a load unit that
    reads the scratchpad, and gives results through a FIFO to an engine that can put
    them back there."""
    pad = device.scratchpad
    for node in device.instances(engine.kind):
        into = [link for link in device.links if link.target is node and link.queue is not None
                and link.source.role == ENGINE]
        out = [link for link in device.links if link.source is node and link.queue is not None
               and link.target.role == ENGINE]
        if not any(_reads(device, link.source, pad) for link in into):
            raise KtcError(f"matrix unit {node.name} has no FIFO from a load unit that reads "
                           f'the scratchpad "{pad}"', engine.where)
        if not any(_writes(device, link.target, pad) for link in out):
            raise KtcError(f"matrix unit {node.name} has no FIFO to an engine that writes "
                           f'the scratchpad "{pad}"', engine.where)


def _reads(device: Device, node, memory: str) -> bool:
    return any(link.target is node and link.source.kind == memory for link in device.links)


def _writes(device: Device, node, memory: str) -> bool:
    if device.engine(node.kind).compute:
        return True
    return any(link.source is node and link.target.kind == memory for link in device.links)


def _check_compute(device: Device) -> None:
    computes = [engine for engine in device.engine_kinds.values() if engine.compute]
    if not computes:
        raise KtcError(
            f"device @{device.name} has no compute engine (an exec_unit with "
            "ktdf_arch.feature.compute)",
            device.where,
        )
    if len(computes) > 1:
        raise KtcError(
            f'found second compute resource "{computes[1].kind}" (the first is '
            f'"{computes[0].kind}"); a device has one compute kind',
            computes[1].where,
        )


def _check_reachable(device: Device) -> None:
    memory = device.memory(device.device_memory)
    if memory.count != 1:
        raise KtcError(
            f'device memory "{memory.kind}" must be one memory outside every group '
            f"(found {memory.count})",
            memory.where,
        )
    root = device.node(memory.kind)
    there, back = device.reachable(root), device.reachable(root, reverse=True)
    for engine in device.instances(device.compute_kind):
        if engine.index not in there:
            raise KtcError(f'{engine.name} cannot be reached from device memory "{memory.kind}"', engine.where)
        if engine.index not in back:
            raise KtcError(f'{engine.name} cannot reach device memory "{memory.kind}" back', engine.where)


def _check_timed(device: Device) -> None:
    if device.clock_mhz is None or not device.missing_timing:
        return
    first = device.missing_timing[0]
    raise KtcError(f"{first.what}; a device with a clock gives every timing figure", first.where)


FIGURE_BOUNDS: dict[str, tuple[int, int]] = {
    "size": (1, 1 << 48),
    "ktdf_arch.clock_mhz": (1, 1 << 20),
    "ktdf_arch.transfer_latency": (0, 1 << 32),
    "latency": (0, 1 << 32),
    "word_size": (1, 1 << 20),
    "size_in_words": (1, 1 << 20),
    "align_in_words": (1, 1 << 20),
    "ktdf_arch.transfer_granularity": (1, 1 << 20),
    "depth": (1, 1 << 16),
    "lanes": (1, 1 << 16),
    "ktdf_arch.count": (1, 1 << 16),
    "ktdf_arch.outstanding": (1, 1 << 16),
    "ktdf_arch.descriptor_cycles": (1, 1 << 16),
    "scalar": (1, 1 << 16),
    "control": (1, 1 << 16),
}
"""The least and the largest value of each figure of a description, by the name it is
written under (the entries of a map or an array take the map's or the array's name):
every figure a pass divides by, allocates or iterates over is at least 1 (latencies
may be 0) and bounded, so that a description ktc accepts compiles. A figure not
listed (bandwidths, issue cycles, the figures of units added later) takes
``DEFAULT_BOUNDS``."""
DEFAULT_BOUNDS = (1, 1 << 32)
NOT_FIGURES = frozenset({"connectivity"})
"""Integer attributes of a description that are not figures (a switch's 0/1 matrix)."""


def _check_figures(source: Source, ops: Sequence[Operation]) -> None:
    """Every figure within ``FIGURE_BOUNDS`` (pattern bodies are PDL, not figures)."""
    placed = [(name, value.value, value.where) for name, value in source.attributes.items()]
    for op in ops:
        if not op.name.startswith("pdl."):
            placed += [(name, value, where(op)) for name, value in op.attributes.items()]
    for name, value, at in placed:
        for figure, number in _figures(name, value):
            low, high = FIGURE_BOUNDS.get(figure, DEFAULT_BOUNDS)
            if not low <= number <= high:
                raise KtcError(f"'{figure}' is {number}; it must be from {low} to {high}", at)


def _figures(name: str, attr: Attribute) -> Iterator[tuple[str, int]]:
    """The integers inside ``attr`` (written under ``name``), each with its name."""
    if name in NOT_FIGURES:
        return
    if isinstance(attr, IntegerAttr) and not isinstance(attr.type, IndexType) and (
            attr.type.width.data > 1):
        yield name, attr.value.data
    elif isinstance(attr, DictionaryAttr):
        for key, value in attr.data.items():
            yield from _figures(key, value)
    elif isinstance(attr, MapAttr):
        for _, value in attr.items():
            yield from _figures(name, value)
    elif isinstance(attr, ArrayAttr):
        for value in attr.data:
            yield from _figures(name, value)
    elif isinstance(attr, DenseArrayBase):
        yield from ((name, value) for value in attr.get_values())
