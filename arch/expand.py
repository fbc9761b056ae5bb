"""Laying a device out instance by instance.

The walk gives every group ``ktdf_arch.count`` instances (1 when absent), lays out
each instance's memories, units and switch ports as nodes, and turns each datapath
into links between the instances it joins: inside a group instance, between that
instance's resources; from outside to a unit a replicated group yields, one link per
instance. An interconnect joins the instances of its group through their stops.

A memory's parent in the memory tree is the first memory its group shares (or, for
a group that shares none, the parent its enclosing group gives), as in IBM's
MemoryTree, but per instance. Afterwards the cores are the instances of the groups
that define the scratchpad, and the sub-cores the group instances directly inside
a core.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
)
from xdsl.ir import Attribute, Operation

from ktc.arch.loader import Source
from ktc.arch.model import (
    ENGINE,
    MEMORY,
    PORT,
    Access,
    Device,
    EngineKind,
    Figure,
    Interconnect,
    Link,
    LoadStore,
    MatrixUnit,
    MemoryKind,
    Node,
    Queue,
    kind_name,
    space_name,
)
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import (
    ISSUE_CLASSES,
    DatapathOp,
    DeviceOp,
    ExecUnitOp,
    GroupOp,
    MapAttr,
    MemoryOp,
    PatternsOp,
    SwitchOp,
    attr_text,
)

# ---------------------------------------------------------------------------------
# Reading attributes
# ---------------------------------------------------------------------------------


def kind_of(op: Operation) -> str:
    """A resource's kind as a string (empty when it has none)."""
    kind = op.attributes.get("kind")
    return "" if kind is None else kind_name(kind)


def integer(attr: Attribute | None) -> int | None:
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def intrinsic(op: Operation, name: str) -> Attribute | None:
    return op.attributes.get(f"ktdf_arch.{name}")


def features(op: Operation) -> Mapping[str, Attribute]:
    """The features of a resource by short name (``compute``, ``simd``, ...)."""
    provided = intrinsic(op, "features")
    if not isinstance(provided, DictionaryAttr):
        return {}
    return {name.removeprefix("ktdf_arch.feature."): value for name, value in provided.data.items()}


def field_of(value: Attribute, name: str) -> Attribute | None:
    return value.data.get(name) if isinstance(value, DictionaryAttr) else None


def example_value(attributes: Mapping[str, Attribute], name: str) -> Attribute | None:
    """The figure an entry of ``ktdf_arch.example_values`` names: an intrinsic
    without its prefix (``clock_mhz``), another attribute (``size``), a feature by
    its short name (``matrix``), or a field inside any of them
    (``interconnect.latency``, ``matrix.fill``); None if the op has no such figure."""
    head, *path = name.split(".")
    value = attributes.get(f"ktdf_arch.{head}", attributes.get(head))
    if value is None:
        value = field_of(attributes.get("ktdf_arch.features"), f"ktdf_arch.feature.{head}")
    for part in path:
        value = None if value is None else field_of(value, part)
    return value


def mapping(attributes: Mapping[str, Attribute]) -> dict[str, str]:
    """``mem_space_mapping`` as memory space name to memory kind."""
    spaces = attributes.get("mem_space_mapping")
    if not isinstance(spaces, MapAttr):
        return {}
    return {space_name(key): space_name(value) for key, value in spaces.items()}


# ---------------------------------------------------------------------------------
# The walk
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Resource:
    """A node before cores are known: its op, role, group instances and parent."""

    op: Operation
    role: str
    groups: tuple[int, ...]
    """The group instances enclosing it, outermost first."""

    parent: int | None


@dataclass(frozen=True)
class _Edge:
    """A link before cores are known: the resources it joins and the op making it."""

    source: int
    target: int
    op: DatapathOp | SwitchOp


@dataclass
class _Walk:
    resources: list[_Resource] = field(default_factory=list)
    edges: list[_Edge] = field(default_factory=list)
    group_ops: list[GroupOp] = field(default_factory=list)
    """The op of each group instance."""

    group_parents: list[int | None] = field(default_factory=list)
    """The group instance enclosing each group instance."""

    interconnects: list[tuple[GroupOp, list[int]]] = field(default_factory=list)
    """Each group with an interconnect and the stop of each of its instances."""

    def block(self, ops: Iterable[Operation], env: dict, groups: tuple[int, ...], memory: int | None) -> dict[str, int]:
        """Lay out the ops of one block instance; the resource ids it defines."""
        ids: dict[str, int] = {}
        for op in ops:
            if isinstance(op, MemoryOp | ExecUnitOp):
                role = MEMORY if isinstance(op, MemoryOp) else ENGINE
                node = self.add(op, role, groups, memory if role == MEMORY else None)
                env[op.results[0]] = [node]
                if op.resource_id is not None:
                    ids[op.resource_id.data] = node
            elif isinstance(op, SwitchOp):
                ports = [self.add(op, PORT, groups, None) for _ in op.ports]
                env.update((value, [port]) for value, port in zip(op.ports, ports))
                self.switch(op, ports)
            elif isinstance(op, DatapathOp):
                self.datapath(op, env[op.source], env[op.target])
            elif isinstance(op, GroupOp):
                self.group(op, env, groups, memory)
        return ids

    def add(self, op: Operation, role: str, groups: tuple[int, ...], parent: int | None) -> int:
        self.resources.append(_Resource(op, role, groups, parent))
        return len(self.resources) - 1

    def group(self, op: GroupOp, env: dict, groups: tuple[int, ...], memory: int | None) -> None:
        count = integer(intrinsic(op, "count")) or 1
        interconnect = intrinsic(op, "interconnect")
        yielded: list[list[int]] = [[] for _ in op.units]
        stops: list[int] = []
        for _ in range(count):
            self.group_ops.append(op)
            self.group_parents.append(groups[-1] if groups else None)
            inner = {arg: env[value] for arg, value in zip(op.body.block.args, op.shared)}
            first_shared = env[op.shared[0]][0] if op.shared else memory
            ids = self.block(op.body.block.ops, inner, (*groups, len(self.group_ops) - 1), first_shared)
            for index, unit in enumerate(op.body.block.last_op.operands):
                yielded[index] += inner[unit]
            if interconnect is not None:
                stops.append(ids[field_of(interconnect, "stop").root_reference.data])
        env.update(zip(op.units, yielded))
        if interconnect is not None:
            self.interconnects.append((op, stops))

    def datapath(self, op: DatapathOp, sources: list[int], targets: list[int]) -> None:
        if len(sources) > 1 and len(targets) > 1:
            raise KtcError(
                "datapath joins two replicated groups; write it inside a group", where(op)
            )
        self.edges += [_Edge(source, target, op) for source in sources for target in targets]

    def switch(self, op: SwitchOp, ports: list[int]) -> None:
        matrix = op.connectivity
        connected = [bool(value) for value in matrix.get_values()] if matrix else [True] * len(ports) ** 2
        pairs = [(source, target) for source in ports for target in ports]
        self.edges += [
            _Edge(source, target, op)
            for (source, target), linked in zip(pairs, connected)
            if linked and source != target
        ]


def _link(source: Node, target: Node, op: DatapathOp | SwitchOp) -> Link:
    """A datapath's link; inside a switch, connected ports pass bytes at no cost."""
    if isinstance(op, SwitchOp):
        return Link(source, target, "switch", None, 0, (), None, where(op))
    granularity = intrinsic(op, "transfer_granularity")
    queue = features(op).get("queue")
    return Link(
        source,
        target,
        kind_of(op),
        integer(intrinsic(op, "bandwidth")),
        integer(intrinsic(op, "transfer_latency")),
        tuple(granularity.get_values()) if isinstance(granularity, DenseArrayBase) else (),
        None if queue is None else _queue(queue),
        where(op),
    )


def _queue(value: Attribute) -> Queue:
    return Queue(
        integer(field_of(value, "depth")),
        integer(field_of(value, "size")),
        field_of(value, "ordered") is not None,
    )


def _join(topology: str, stops: list[int]) -> list[tuple[int, int]]:
    """Neighbouring stops, both directions; a ring of two is a line."""
    count = len(stops)
    pairs = [(i, i + 1) for i in range(count - 1)]
    if topology == "ring" and count > 2:
        pairs.append((count - 1, 0))
    return [(stops[a], stops[b]) for a, b in pairs] + [(stops[b], stops[a]) for a, b in pairs]


# ---------------------------------------------------------------------------------
# Building the device
# ---------------------------------------------------------------------------------


def build(source: Source) -> Device:
    """The device model of a validated source (``validate.check_source``)."""
    definition = source.definition
    attributes = {name: placed.value for name, placed in source.attributes.items()}
    walk = _Walk()
    for block in definition.body.blocks:
        walk.block(block.ops, {}, (), None)
    spaces = mapping(attributes)
    depth = _depths(walk.resources)
    device_memory = _memory_kind(walk, depth, spaces, "global", 0, definition)
    scratchpad = _memory_kind(walk, depth, spaces, "ct_local", 1, definition)
    cores, subcores = _cores(walk, scratchpad)
    nodes = tuple(
        Node(index, resource.role, kind_of(resource.op), cores.get(index), subcores.get(index), where(resource.op))
        for index, resource in enumerate(walk.resources)
    )
    links = [_link(nodes[edge.source], nodes[edge.target], edge.op) for edge in walk.edges]
    memory_kinds = _memory_kinds(walk, depth)
    interconnect = _interconnect(walk, nodes, cores)
    if interconnect is not None:
        links += _interconnect_links(interconnect, walk, nodes)
    return Device(
        name=source.name,
        where=where(definition),
        files=tuple(str(file.path) for file in source.files),
        content_hash=source.content_hash,
        nodes=nodes,
        links=tuple(links),
        memory_parents=tuple(resource.parent for resource in walk.resources),
        memory_kinds=memory_kinds,
        engine_kinds=_with_matrix_links(_engine_kinds(walk), links, memory_kinds),
        cores=max(1, len(set(cores.values()))),
        device_memory=device_memory,
        scratchpad=scratchpad,
        spaces=spaces,
        interconnect=interconnect,
        clock_mhz=integer(attributes.get("ktdf_arch.clock_mhz")),
        missing_timing=tuple(_missing_timing(definition, attributes, device_memory)),
        example_values=tuple(_example_values(definition, attributes)),
        pattern_blocks=tuple(op for op in definition.walk() if isinstance(op, PatternsOp)),
    )


def _depths(resources: list[_Resource]) -> list[int]:
    depth: list[int] = []
    for resource in resources:
        depth.append(0 if resource.parent is None else depth[resource.parent] + 1)
    return depth


def _memory_kind(walk: _Walk, depth: list[int], spaces: dict[str, str], space: str, level: int,
                 definition: DeviceOp) -> str:
    """The memory ``space`` maps to, or else the one memory kind at ``level`` of the tree."""
    if space in spaces:
        return spaces[space]
    kinds = sorted({kind_of(r.op) for i, r in enumerate(walk.resources) if r.role == MEMORY and depth[i] == level})
    if len(kinds) != 1:
        found = ", ".join(f'"{kind}"' for kind in kinds) or "none"
        raise KtcError(
            f"cannot tell which memory is {space} (memories at depth {level} of the memory "
            f"tree: {found}); map it in mem_space_mapping",
            where(definition),
        )
    return kinds[0]


def _cores(walk: _Walk, scratchpad: str) -> tuple[dict[int, int], dict[int, int]]:
    """Per node index, its core and its sub-core (when it has them)."""
    owners = {r.groups[-1] for r in walk.resources if r.role == MEMORY and kind_of(r.op) == scratchpad and r.groups}
    core_ops = {walk.group_ops[group] for group in owners}
    core_of = {g: n for n, g in enumerate(g for g, op in enumerate(walk.group_ops) if op in core_ops)}
    subcore_of: dict[int, int] = {}
    for group, parent in enumerate(walk.group_parents):
        if parent in core_of:
            subcore_of[group] = sum(1 for g in subcore_of if walk.group_parents[g] == parent)
    cores: dict[int, int] = {}
    subcores: dict[int, int] = {}
    for index, resource in enumerate(walk.resources):
        for group in resource.groups:
            if group in core_of:
                cores[index] = core_of[group]
            elif group in subcore_of:
                subcores[index] = subcore_of[group]
    return cores, subcores


def _interconnect(walk: _Walk, nodes: tuple[Node, ...], cores: dict[int, int]) -> Interconnect | None:
    if not walk.interconnects:
        return None
    op, stops = walk.interconnects[0]
    core_count = len(set(cores.values()))
    stop_cores = [cores.get(stop) for stop in stops]
    if len(walk.interconnects) > 1 or stop_cores != list(range(core_count)):
        raise KtcError(
            "an interconnect joins the cores: give it to the one group that owns the "
            "scratchpad, counted as many times as there are cores",
            where(op),
        )
    value = intrinsic(op, "interconnect")
    return Interconnect(
        field_of(value, "topology").data,
        nodes[stops[0]].kind,
        integer(field_of(value, "bandwidth")),
        integer(field_of(value, "latency")),
        where(op),
    )


def _interconnect_links(interconnect: Interconnect, walk: _Walk, nodes: tuple[Node, ...]) -> list[Link]:
    _, stops = walk.interconnects[0]
    return [
        Link(nodes[a], nodes[b], interconnect.topology, interconnect.bytes_per_cycle,
             interconnect.latency, (), None, interconnect.where)
        for a, b in _join(interconnect.topology, stops)
    ]


def _memory_kinds(walk: _Walk, depth: list[int]) -> dict[str, MemoryKind]:
    """Per kind, root first: its first instance stands for all (they are alike)."""
    instances: dict[str, list[int]] = {}
    order = sorted((i for i, r in enumerate(walk.resources) if r.role == MEMORY), key=lambda i: (depth[i], i))
    for index in order:
        instances.setdefault(kind_of(walk.resources[index].op), []).append(index)
    kinds: dict[str, MemoryKind] = {}
    for kind, (first, *_) in instances.items():
        resource = walk.resources[first]
        parent = resource.parent
        kinds[kind] = MemoryKind(
            kind,
            integer(resource.op.attributes.get("size")) or 0,
            len(instances[kind]),
            None if parent is None else kind_of(walk.resources[parent].op),
            depth[first],
            integer(intrinsic(resource.op, "port_bandwidth")),
            where(resource.op),
        )
    return kinds


def _engine_kinds(walk: _Walk) -> dict[str, EngineKind]:
    instances: dict[str, list[int]] = {}
    memories_in: dict[tuple[int, ...], set[str]] = {}
    for index, resource in enumerate(walk.resources):
        if resource.role == ENGINE:
            instances.setdefault(kind_of(resource.op), []).append(index)
        if resource.role == MEMORY:
            memories_in.setdefault(resource.groups, set()).add(kind_of(resource.op))
    return {
        kind: _engine_kind(walk, kind, indices, memories_in)
        for kind, indices in instances.items()
    }


def _engine_kind(walk: _Walk, kind: str, indices: list[int], memories_in: dict[tuple[int, ...], set[str]]) -> EngineKind:
    op = walk.resources[indices[0]].op
    provided = features(op)
    simd = provided.get("simd")
    lanes = field_of(simd, "lanes") if simd is not None else None
    issue = intrinsic(op, "issue_cycles")
    instructions = intrinsic(op, "instructions")
    scalar = intrinsic(op, "scalar_cycles")
    return EngineKind(
        kind=kind,
        count=len(indices),
        compute="compute" in provided,
        lanes={t: integer(n) for t, n in lanes.items()} if isinstance(lanes, MapAttr) else {},
        splat=simd is not None and field_of(simd, "splat") is not None,
        zero_pad=simd is not None and field_of(simd, "zero_pad") is not None,
        load=_load_store(provided.get("load")),
        store=_load_store(provided.get("store")),
        issue_cycles={name: integer(value) for name, value in issue.data.items()} if isinstance(issue, DictionaryAttr) else {},
        instructions=tuple(name.data for name in instructions.data) if isinstance(instructions, ArrayAttr) else (),
        local_memories=tuple(sorted(set.intersection(*(memories_in.get(walk.resources[i].groups, set()) for i in indices)))),
        where=where(op),
        matrix=_matrix(kind, provided.get("matrix"), where(op)),
        outstanding=integer(intrinsic(op, "outstanding")),
        descriptor_cycles=integer(intrinsic(op, "descriptor_cycles")) or 0,
        scalar_cycles={name: integer(value) for name, value in scalar.data.items()} if isinstance(scalar, DictionaryAttr) else {},
    )


def _matrix(kind: str, value: Attribute | None, at: str) -> MatrixUnit | None:
    """A matrix unit's figures (the verifier has checked every field is there)."""
    if not isinstance(value, DictionaryAttr):
        return None
    number = {name: integer(field_of(value, name)) for name in
              ("rows", "lanes", "issue_cycles", "fill", "drain")}
    return MatrixUnit(kind=kind, input=field_of(value, "input"),
                      accumulator=field_of(value, "accumulator"), where=at,
                      transposed_rhs=field_of(value, "transposed_rhs") is not None, **number)


def _with_matrix_links(kinds: dict[str, EngineKind], links: Iterable[Link],
                       memories: Mapping[str, MemoryKind]) -> dict[str, EngineKind]:
    """The matrix unit given its accumulator memory (the memory beside it), the engine
    kinds that feed it and those it drains into (through links with a queue)."""
    matrix = next((engine for engine in kinds.values() if engine.matrix), None)
    if matrix is None:
        return kinds
    queued = [link for link in links if link.queue is not None]
    feeds = sorted({link.source.kind for link in queued if link.target.kind == matrix.kind
                    and link.source.role == ENGINE})
    drains = sorted({link.target.kind for link in queued if link.source.kind == matrix.kind
                     and link.target.role == ENGINE})
    beside = matrix.local_memories
    accumulators = beside[0] if len(beside) == 1 else None
    unit = replace(matrix.matrix, feeds=tuple(feeds), drains=tuple(drains), accumulators=accumulators,
                   accumulator_bytes=memories[accumulators].size if accumulators else 0)
    return {**kinds, matrix.kind: replace(matrix, matrix=unit)}


def _load_store(value: Attribute | None) -> LoadStore | None:
    if value is None:
        return None
    words = field_of(value, "word_size")
    accesses = field_of(value, "access_granularity")
    return LoadStore(
        {space_name(m): integer(n) for m, n in words.items()} if isinstance(words, MapAttr) else {},
        {space_name(m): tuple(_access(a) for a in shapes.data) for m, shapes in accesses.items()}
        if isinstance(accesses, MapAttr) else {},
    )


def _access(shape: Attribute) -> Access:
    return Access(integer(field_of(shape, "size_in_words")), integer(field_of(shape, "align_in_words")) or 1)


def _missing_timing(definition: DeviceOp, attributes: Mapping[str, Attribute], device_memory: str) -> Iterable[Figure]:
    if "ktdf_arch.clock_mhz" not in attributes:
        yield Figure(f"device @{definition.sym_name.data} has no ktdf_arch.clock_mhz", where(definition))
    for op in definition.walk():
        yield from _missing_figures(op, device_memory)


def _missing_figures(op: Operation, device_memory: str) -> Iterable[Figure]:
    """The timing figures ``op`` should give and does not."""
    needed: dict[str, bool] = {}
    if isinstance(op, MemoryOp) and kind_of(op) == device_memory:
        needed["port_bandwidth"] = intrinsic(op, "port_bandwidth") is not None
    elif isinstance(op, DatapathOp):
        needed["bandwidth"] = intrinsic(op, "bandwidth") is not None
        needed["transfer_latency"] = intrinsic(op, "transfer_latency") is not None
        queue = features(op).get("queue")
        if queue is not None:
            needed |= {f"feature.queue.{f}": field_of(queue, f) is not None for f in ("depth", "size")}
    elif isinstance(op, ExecUnitOp) and "compute" in features(op):
        issue = intrinsic(op, "issue_cycles")
        needed |= {f"issue_cycles.{c}": field_of(issue, c) is not None for c in ISSUE_CLASSES}
    for figure, present in needed.items():
        if not present:
            yield Figure(f"{describe(op)} has no ktdf_arch.{figure}", where(op))


def describe(op: Operation) -> str:
    """A resource as messages name it: ``datapath "fifo"``, ``memory "L1"``."""
    kind = kind_of(op)
    name = op.name.removeprefix("ktdf_arch.")
    return f'{name} "{kind}"' if kind else name


def _example_values(definition: DeviceOp, attributes: Mapping[str, Attribute]) -> Iterable[Figure]:
    for op in definition.walk():
        own = attributes if op is definition else op.attributes
        names = own.get("ktdf_arch.example_values")
        if not isinstance(names, ArrayAttr):
            continue
        label = f"device @{definition.sym_name.data}" if op is definition else describe(op)
        for name in names.data:
            value = example_value(own, name.data)
            yield Figure(f"{label}: {name.data} = {value_text(value)}", where(op))


def value_text(value: Attribute) -> str:
    """A figure as people write it: ``1000``, ``{plain = 1, transcendental = 4}``."""
    if isinstance(value, IntegerAttr):
        return str(value.value.data)
    if isinstance(value, DictionaryAttr):
        return "{" + ", ".join(f"{k} = {value_text(v)}" for k, v in value.data.items()) + "}"
    return attr_text(value)
