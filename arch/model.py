"""The device model: every fact about the hardware that a pass or the simulator uses.

``Device.load("spyre")`` (a packaged name or a file path) reads a description file,
follows its imports, validates it and lays out every instance: a group written with
``ktdf_arch.count = 32`` becomes 32 cores, each with its own scratchpad, units and
links, joined by the interconnect. Nothing is collapsed by kind: a path from core 3's
scratchpad to core 5's crosses two ring links.

Two levels of answer:

* instances (``Node``, ``Link``): the routing graph, ``path``, ``node``, ``instances``;
  a node belongs to a core and, inside a core, to a sub-core (a group nested
  directly in a core is a sub-core);
* kinds (``MemoryKind``, ``EngineKind``): capacities, features, lanes, word sizes,
  issue costs. Resources of one kind are alike (validation checks it), so one
  answer holds for every instance.

Timing (bandwidths, latencies, clock, issue costs, FIFO beats) is optional in the
format so that IBM's sample device, which has none, still loads: an *untimed* device
answers every structure question, routes by hop count, lists what it lacks in
``missing_timing`` and refuses ``roofline``. A device that states a clock must state
every figure.

Grids larger than the device: ``place_grid`` maps tile ``t`` (row-major) to core
``t mod cores``, in waves of ``cores`` tiles that run one after another; a kernel
whose tiles talk to each other needs one wave and is rejected otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from weakref import WeakKeyDictionary

from xdsl.dialects.builtin import FileLineColLoc, MemRefType, ModuleOp, NoneAttr, StringAttr
from xdsl.dialects.pdl import PatternOp
from xdsl.ir import Attribute

from ktc.arch import is_packaged_name, resolve
from ktc.arch.routing import arcs, connected, search, walk
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import DeviceOp, PatternsOp, attr_text
from ktc.dialects.ktdp import MemorySpaceAttr, SpyreMemorySpaceAttr

MEMORY, ENGINE, PORT = "memory", "engine", "port"
"""The roles of a node."""

PATTERN_POINTS = ("pre_mapping", "pre_scheduling", "post_scheduling", "post_lowering")
"""Where the compiler applies a device's patterns, in pipeline order."""


def kind_name(attr: Attribute) -> str:
    """A kind written as an attribute (``"SFU"``, or any other attribute) as a string:
    how a stage's ``applicable_units``, a FIFO end or a resource names a kind."""
    return attr.data if isinstance(attr, StringAttr) else attr_text(attr)


def space_name(attr: Attribute) -> str:
    """A memory space as ``mem_space_mapping`` keys it: ``global``, ``ct_local``
    (also for the older ``#ktdp.spyre_memory_space``), or the string itself."""
    if isinstance(attr, SpyreMemorySpaceAttr):
        attr = attr.to_memory_space() or StringAttr("unspecified")
    if isinstance(attr, MemorySpaceAttr):
        return attr.kind.data.value
    return kind_name(attr)


# ---------------------------------------------------------------------------------
# Instances: the routing graph
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    """One instance of a memory, an execution unit or a switch port."""

    index: int
    """Position in ``Device.nodes``."""

    role: str
    """``MEMORY``, ``ENGINE`` or ``PORT``."""

    kind: str
    """The ``kind`` of its resource (empty for a kind-less switch)."""

    core: int | None
    """The core it belongs to; None outside the cores (device memory)."""

    subcore: int | None
    """The sub-core inside its core; None for what the whole core shares."""

    where: str
    """``file:line:col`` of the op describing it."""

    @property
    def name(self) -> str:
        """``DDR``, ``L1[3]`` (core 3), ``SFU[3.1]`` (core 3, sub-core 1)."""
        if self.core is None:
            return self.kind or self.role
        place = str(self.core) if self.subcore is None else f"{self.core}.{self.subcore}"
        return f"{self.kind or self.role}[{place}]"


@dataclass(frozen=True)
class Queue:
    """A FIFO on a link (``ktdf_arch.feature.queue``)."""

    depth: int | None
    """Beats it holds."""

    beat_bytes: int | None
    """Bytes per beat (the feature's ``size``)."""

    ordered: bool


@dataclass(frozen=True)
class Link:
    """A directed link between two nodes: one hop of a path."""

    source: Node
    target: Node
    kind: str
    """The datapath's ``kind``; ``ring`` or ``line`` for interconnect links,
    ``switch`` inside a switch."""

    bytes_per_cycle: int | None
    """None when not given (untimed device, or inside a switch: no limit)."""

    latency: int | None
    """Cycles from a byte entering the link to it leaving; None when not given."""

    granularity: tuple[int, ...]
    """Transfer sizes in bytes the link allows; empty means any."""

    queue: Queue | None
    where: str

    @property
    def source_index(self) -> int:
        return self.source.index

    @property
    def target_index(self) -> int:
        return self.target.index

    def cycles(self, nbytes: int) -> int:
        """Cycles to move ``nbytes`` over this link alone; missing figures count 0."""
        transfer = 0 if self.bytes_per_cycle is None else -(-nbytes // self.bytes_per_cycle)
        return (self.latency or 0) + transfer


# ---------------------------------------------------------------------------------
# Kinds
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Access:
    """One access shape a load/store unit supports, in words."""

    size_in_words: int
    align_in_words: int


@dataclass(frozen=True)
class LoadStore:
    """A ``load`` or ``store`` feature: per memory kind, the word size and accesses."""

    word_sizes: Mapping[str, int]
    accesses: Mapping[str, tuple[Access, ...]]

    def word_size(self, memory: str) -> int:
        """Bytes per word of ``memory`` (1 when the file gives none, as in IBM's format)."""
        return self.word_sizes.get(memory, 1)

    def access_granularity(self, memory: str) -> tuple[Access, ...]:
        return self.accesses.get(memory, ())


@dataclass(frozen=True)
class MemoryKind:
    """What every memory of one kind is."""

    kind: str
    size: int
    """Capacity of one instance, in bytes."""

    count: int
    """Instances on the device."""

    parent: str | None
    """The kind above it in the memory tree (None for the root)."""

    depth: int
    """0 for the root, 1 for a per-core scratchpad, ..."""

    port_bandwidth: int | None
    """Bytes per cycle one instance serves through all its ports together."""

    where: str


@dataclass(frozen=True)
class MatrixUnit:
    """A matrix unit (``ktdf_arch.feature.matrix``): ``rows`` x ``lanes``
    multiply-accumulates per step, fed with operands through FIFOs by load units and
    drained through FIFOs.

    One step takes one column of ``rows`` elements of the left operand and one row of
    ``lanes`` elements of the right one and adds their outer product to the
    accumulators; an ``m x k`` by ``k x n`` product is ``k`` steps per block of
    ``rows`` x ``lanes`` outputs (``steps``). Its accumulators are a memory of its
    own, beside it in its group."""

    kind: str
    rows: int
    lanes: int
    input: Attribute
    """The operands' element type (an xDSL type)."""

    accumulator: Attribute
    """The element type it accumulates in."""

    issue_cycles: int
    """Cycles to issue one step."""

    fill: int
    """Cycles from a step's operands entering the unit to its products reaching the
    accumulators."""

    drain: int
    """Cycles for accumulators to leave the unit after their last step."""

    where: str
    accumulators: str | None = None
    """The memory kind beside it that holds its accumulators (its group's own memory,
    as the SFU's SFU_REG)."""

    accumulator_bytes: int = 0
    """The size of one instance of that memory."""

    feeds: tuple[str, ...] = ()
    """The engine kinds whose FIFOs bring it operands (load units)."""

    drains: tuple[str, ...] = ()
    """The engine kinds its FIFOs take results to."""

    transposed_rhs: bool = False
    """Whether it also takes its right operand as an ``n x k`` block (a step's row of
    ``lanes`` elements is then a column of the block)."""

    def steps(self, m: int, k: int, n: int) -> int:
        """Steps of an ``m x k`` by ``k x n`` product."""
        return k * -(-m // self.rows) * -(-n // self.lanes)

    def cycles(self, m: int, k: int, n: int) -> int:
        """Issue cycles of an ``m x k`` by ``k x n`` product."""
        return self.steps(m, k, n) * self.issue_cycles

    @property
    def flops_per_cycle(self) -> float:
        """Floating-point operations per cycle (a multiply-accumulate is two)."""
        return 2 * self.rows * self.lanes / self.issue_cycles


@dataclass(frozen=True)
class EngineKind:
    """What every execution unit of one kind is and can do."""

    kind: str
    count: int
    compute: bool
    lanes: Mapping[Attribute, int]
    """SIMD lanes per element type, keyed by the type (``Float16Type()``,
    ``DF16Type()``); ``Device.lanes`` is the lookup."""

    splat: bool
    zero_pad: bool
    load: LoadStore | None
    store: LoadStore | None
    issue_cycles: Mapping[str, int]
    """Cycles to issue one vector instruction, per op class
    (``ktc.dialects.ktdf_arch.ISSUE_CLASSES``)."""

    instructions: tuple[str, ...]
    """The vector instructions it has (``ktdf_arch.instructions``), the ones device
    patterns may map an intrinsic onto."""

    local_memories: tuple[str, ...]
    """Memory kinds defined beside every instance of it (IBM's GroupLocalMemory)."""

    where: str
    matrix: MatrixUnit | None = None
    """Its matrix unit figures, when it is one."""

    outstanding: int | None = None
    """Copies an instance has in flight at most (``ktdf_arch.outstanding``; None: no
    limit given)."""

    descriptor_cycles: int = 0
    """Cycles an instance spends writing the descriptor of a copy whose address it
    computed from indices it read (``ktdf_arch.descriptor_cycles``; 0: not given)."""

    scalar_cycles: Mapping[str, int] = field(default_factory=dict)
    """Cycles per scalar and control instruction, by class
    (``ktc.dialects.ktdf_arch.SCALAR_CLASSES``; a class not given costs nothing)."""

    @property
    def features(self) -> tuple[str, ...]:
        """The feature names it has, for display."""
        flags = {
            "compute": self.compute,
            "matrix": self.matrix is not None,
            "load": self.load is not None,
            "store": self.store is not None,
            "simd": bool(self.lanes) or self.splat or self.zero_pad,
        }
        return tuple(name for name, present in flags.items() if present)


@dataclass(frozen=True)
class Interconnect:
    """The links joining the cores through one ring stop (or line stop) each."""

    topology: str
    stop: str
    """The engine kind each core reaches the interconnect through."""

    bytes_per_cycle: int
    """Per direction."""

    latency: int
    """Cycles per hop."""

    where: str


@dataclass(frozen=True)
class Figure:
    """A figure of the description, named for messages: what and where it is."""

    what: str
    where: str


# ---------------------------------------------------------------------------------
# Derived answers
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MemoryLevel:
    """Peak traffic of one instance of a memory kind, bytes per cycle: its port
    bandwidth, or the sum of the links at it if that is less."""

    kind: str
    instances: int
    read_bytes_per_cycle: int
    write_bytes_per_cycle: int


@dataclass(frozen=True)
class Roofline:
    """The constants of the roofline bound (``docs/arch-format.md`` lists the formulas).

    Bandwidths are bytes per cycle; ``per core`` figures hold for every core alike.
    """

    clock_mhz: int
    cores: int
    subcores_per_core: int
    lanes: Mapping[Attribute, int]
    """The compute engine's lanes, keyed by element type as ``EngineKind.lanes``."""

    issue_cycles: Mapping[str, int]
    device_memory_bytes_per_cycle: int
    """B_ddr: shared by all cores."""

    dma_read_bytes_per_cycle: int
    """Per core, device memory to scratchpad: the slowest link on the way."""

    dma_write_bytes_per_cycle: int
    dma_granularity: int
    """g: transfers between device memory and scratchpad round up to it."""

    feed_bytes_per_cycle: int
    """B_ls per core: scratchpad to all compute engines of the core."""

    drain_bytes_per_cycle: int
    """Compute engines back to the scratchpad, per core."""

    interconnect_bytes_per_cycle: int | None
    """B_ring, per direction; None without an interconnect."""

    hop_latency: int | None
    memories: tuple[MemoryLevel, ...]
    matrix: MatrixUnit | None = None
    """The matrix unit, if the device has one."""

    matrix_units: int = 0
    """Matrix units on the device (all cores)."""

    @property
    def clock_hz(self) -> int:
        return self.clock_mhz * 1_000_000

    def elements_per_cycle(self, op_class: str, element_type: Attribute) -> float:
        """Elements all compute engines together finish per cycle (C·U·L / issue)."""
        if element_type not in self.lanes:
            raise KtcError(f"the compute engines have no lanes for {attr_text(element_type)}")
        engines = self.cores * self.subcores_per_core
        return engines * self.lanes[element_type] / self.issue_cycles[op_class]

    def flops_per_cycle(self, element_type: Attribute) -> float:
        """Multiply-accumulate flops (two each) the whole device finishes per cycle on
        operands of ``element_type``: its matrix units when they take that type, else
        its SIMD engines issuing ``fma`` (a plain instruction)."""
        if self.matrix is not None and self.matrix.input == element_type:
            return self.matrix_units * self.matrix.flops_per_cycle
        return 2 * self.elements_per_cycle("plain", element_type)

    def seconds(self, cycles: float) -> float:
        return cycles / self.clock_hz


@dataclass(frozen=True)
class GridPlacement:
    """Where the tiles of a kernel grid run: tile ``t`` on core ``t mod cores``, in
    wave ``t div cores``; the waves run one after another."""

    tiles: int
    cores: int

    @property
    def waves(self) -> int:
        return -(-self.tiles // self.cores)

    @property
    def cores_used(self) -> int:
        return min(self.tiles, self.cores)

    def core_of(self, tile: int) -> int:
        return tile % self.cores

    def wave_of(self, tile: int) -> int:
        return tile // self.cores


# ---------------------------------------------------------------------------------
# The device
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Device:
    """A device laid out instance by instance, and the questions it answers.

    Built by ``ktc.arch.expand.build``; loaded with ``Device.load``. Shared by every
    caller of ``load`` with the same files: never change it (the pattern ops it holds
    must be cloned before use).
    """

    name: str
    where: str
    """``file:line:col`` of the device op that defines it."""

    files: tuple[str, ...]
    """The description files, from the one asked for to the definition."""

    content_hash: str
    nodes: tuple[Node, ...]
    links: tuple[Link, ...]
    memory_parents: tuple[int | None, ...]
    """Per node, the memory instance above it in the memory tree (memories only)."""

    memory_kinds: Mapping[str, MemoryKind]
    """By kind, root first."""

    engine_kinds: Mapping[str, EngineKind]
    cores: int
    device_memory: str
    """The memory kind of the global address space (the root of the memory tree)."""

    scratchpad: str
    """The memory kind each core owns (``ct_local``)."""

    spaces: Mapping[str, str]
    """``mem_space_mapping``: memory space name to memory kind."""

    interconnect: Interconnect | None
    clock_mhz: int | None
    missing_timing: tuple[Figure, ...]
    """Every timing figure the description lacks (empty for a timed device)."""

    example_values: tuple[Figure, ...]
    """The figures the description marks as example values."""

    pattern_blocks: tuple[PatternsOp, ...]
    _paths: dict[tuple[int, bool, int], dict[int, Link]] = field(
        default_factory=dict, compare=False, repr=False
    )
    _arcs_for: dict[tuple[bool, int], tuple] = field(default_factory=dict, compare=False, repr=False)
    _paths_to: dict[tuple[int, int, int], tuple[Link, ...] | None] = field(
        default_factory=dict, compare=False, repr=False
    )

    @classmethod
    def load(cls, name_or_path: str | Path) -> Device:
        """The device named (``spyre``) or described at a path, validated; one
        ``Device`` per content of its files."""
        from ktc.arch.expand import build
        from ktc.arch.loader import load_source
        from ktc.arch.validate import check_device, check_source

        source = load_source(resolve(str(name_or_path)))
        key = tuple((str(file.path), file.sha256) for file in source.files)
        if key not in _LOADED:
            check_source(source)
            device = build(source)
            check_device(device)
            _LOADED[key] = device
        return _LOADED[key]

    # Structure ---------------------------------------------------------------

    @property
    def timed(self) -> bool:
        return not self.missing_timing

    @property
    def subcores_per_core(self) -> int:
        """Compute engines per core: its sub-cores, or 1 for a core without any."""
        return self.compute.count // self.cores

    def memory(self, kind: str) -> MemoryKind:
        if kind not in self.memory_kinds:
            raise KtcError(f"device @{self.name} has no memory \"{kind}\"", self.where)
        return self.memory_kinds[kind]

    def engine(self, kind: str) -> EngineKind:
        if kind not in self.engine_kinds:
            raise KtcError(f"device @{self.name} has no execution unit \"{kind}\"", self.where)
        return self.engine_kinds[kind]

    @property
    def compute_kind(self) -> str:
        """The one kind of execution unit that computes."""
        return next(kind for kind, engine in self.engine_kinds.items() if engine.compute)

    @property
    def compute(self) -> EngineKind:
        return self.engine_kinds[self.compute_kind]

    @property
    def matrix_kind(self) -> str | None:
        """The kind of execution unit that is a matrix unit; None on a device without."""
        return next((kind for kind, engine in self.engine_kinds.items() if engine.matrix), None)

    @property
    def matrix(self) -> MatrixUnit | None:
        """The matrix unit's figures (``MatrixUnit``); None on a device without one,
        where contractions run on the SIMD engine."""
        kind = self.matrix_kind
        return None if kind is None else self.engine_kinds[kind].matrix

    @property
    def matrix_subcores(self) -> int:
        """Matrix units per core, one in each of its sub-cores (2 on spyre), that a
        core's products may be shared out over; 1 when the core has one or none, or
        when its units are not one per sub-core."""
        kind = self.matrix_kind
        if kind is None or self.subcores_per_core < 2:
            return 1
        units = self.instances(kind)
        per_subcore = all(node.subcore is not None for node in units)
        return self.subcores_per_core if per_subcore and len(units) == self.compute.count else 1

    def fifo_bytes(self, source: str, target: str) -> int:
        """Bytes the FIFO from the first ``source`` engine to the ``target`` engine of
        its sub-core holds (queue depths on the route times the narrowest beat); 0
        when the route has no queue."""
        start = self.node(source)
        end = self.node(target, start.core or 0, start.subcore or 0)
        queues = [link.queue for link in self.path(start, end) if link.queue and link.queue.depth]
        if not queues:
            return 0
        return sum(q.depth for q in queues) * min(q.beat_bytes or 1 for q in queues)

    def lanes(self, element_type: Attribute) -> int:
        """SIMD lanes of the compute engine for ``element_type``, an xDSL type
        (``Float16Type()``, ``DF16Type()``); a KtcError naming the types it has lanes
        for when it has none for this one."""
        lanes = self.compute.lanes
        if element_type not in lanes:
            raise KtcError(
                f"{self.compute_kind} of device @{self.name} has no lanes for "
                f"{attr_text(element_type)} (it has {', '.join(map(attr_text, lanes))})",
                self.compute.where,
            )
        return lanes[element_type]

    def memory_space(self, space: str | Attribute) -> MemoryKind:
        """The memory a KTIR memory space (``global``, ``ct_local`` or the attribute),
        an alias in ``mem_space_mapping`` or a memory kind names."""
        name = space if isinstance(space, str) else space_name(space)
        spaces = {"global": self.device_memory, "ct_local": self.scratchpad, **self.spaces}
        return self.memory(spaces.get(name, name))

    def memory_of(self, memref: MemRefType, where: str = "") -> MemoryKind | None:
        """The memory that holds a memref: the one its memory space names (a memory
        kind such as ``"L1"``, a KTIR space, an alias in ``mem_space_mapping``);
        None when it has no memory space. A space that names no memory of the device
        is an error at ``where`` (the device's definition when not given)."""
        space = memref.memory_space
        if isinstance(space, NoneAttr):
            return None
        try:
            return self.memory_space(space)
        except KtcError as error:
            raise KtcError(error.message, where or error.where) from None

    def alignment(self, kind: str) -> int:
        """Bytes every buffer in memory ``kind`` is aligned to: the least common
        multiple, over the load and store units reaching it, of word size times the
        coarsest alignment they access it with (1 when no unit says)."""
        result = 1
        for engine in self.engine_kinds.values():
            for feature in (engine.load, engine.store):
                if feature is None or kind not in {*feature.word_sizes, *feature.accesses}:
                    continue
                accesses = feature.access_granularity(kind)
                words = max((access.align_in_words for access in accesses), default=1)
                result = math.lcm(result, feature.word_size(kind) * words)
        return result

    def instances(self, kind: str) -> tuple[Node, ...]:
        """Every node of ``kind``, in core and sub-core order."""
        return tuple(node for node in self.nodes if node.kind == kind)

    def node(self, kind: str, core: int = 0, subcore: int = 0) -> Node:
        """The instance of ``kind`` in ``core`` and ``subcore`` (each ignored where the
        kind is not per core or per sub-core)."""
        for node in self.instances(kind):
            if node.core not in (None, core) or node.subcore not in (None, subcore):
                continue
            return node
        raise KtcError(
            f"device @{self.name} has no \"{kind}\" in core {core}, sub-core {subcore}",
            self.where,
        )

    def parent(self, node: Node) -> Node | None:
        """The memory instance above a memory instance."""
        index = self.memory_parents[node.index]
        return None if index is None else self.nodes[index]

    def patterns(self, point: str) -> tuple[PatternOp, ...]:
        """The PDL patterns enabled at an application point (``PATTERN_POINTS``)."""
        return tuple(
            pattern
            for block in self.pattern_blocks
            if not block.groups.data or point in [group.data for group in block.groups.data]
            for pattern in block.body.block.ops
            if isinstance(pattern, PatternOp)
        )

    # Routing -----------------------------------------------------------------

    @cached_property
    def _links_out(self) -> tuple[list[Link], ...]:
        """Per node, the links leaving it."""
        out: tuple[list[Link], ...] = tuple([] for _ in self.nodes)
        for link in self.links:
            out[link.source.index].append(link)
        return out

    @cached_property
    def _links_in(self) -> tuple[list[Link], ...]:
        """Per node, the links entering it."""
        into: tuple[list[Link], ...] = tuple([] for _ in self.nodes)
        for link in self.links:
            into[link.target.index].append(link)
        return into

    @cached_property
    def _passable(self) -> tuple[bool, ...]:
        """Per node, whether paths may go through it: through memories, ports and
        movers, never through a compute engine or a matrix unit."""
        return tuple(node.role != ENGINE or (not self.engine_kinds[node.kind].compute
                                             and self.engine_kinds[node.kind].matrix is None)
                     for node in self.nodes)

    def _arcs(self, reverse: bool, nbytes: int):
        """The links as ``search`` walks them, for ``nbytes`` (cached)."""
        key = (reverse, nbytes)
        if key not in self._arcs_for:
            cost = (lambda link: link.cycles(nbytes)) if self.timed else (lambda link: 1)
            self._arcs_for[key] = arcs(self._links_in if reverse else self._links_out, cost, reverse)
        return self._arcs_for[key]

    def reachable(self, source: Node, reverse: bool = False, nbytes: int = 1) -> dict[int, Link]:
        """Every node a path from ``source`` reaches (that reaches ``source`` when
        ``reverse``), with the last link of the cheapest such path."""
        key = (source.index, reverse, nbytes)
        if key not in self._paths:
            self._paths[key] = search(self._arcs(reverse, nbytes), source.index, self._passable)
        return self._paths[key]

    def path(self, source: Node, target: Node, nbytes: int = 1) -> tuple[Link, ...]:
        """The links of the fastest route for ``nbytes`` from ``source`` to ``target``:
        per hop ``latency + ceil(nbytes / bytes_per_cycle)`` cycles (store and
        forward); by hop count on an untimed device."""
        key = (source.index, target.index, nbytes)
        if key not in self._paths_to:
            found = search(self._arcs(False, nbytes), source.index, self._passable, target.index)
            self._paths_to[key] = walk(found, source.index, target.index)
        route = self._paths_to[key]
        if route is None:
            raise KtcError(
                f"device @{self.name} has no path from {source.name} to {target.name}",
                self.where,
            )
        return route

    def mover(self, source: str, target: str) -> str:
        """The engine kind that moves data from memory kind ``source`` towards memory
        kind ``target``: the first hop of the path between them (the DMA engine from
        device memory into the scratchpad, or back)."""
        return self.path(self.node(source), self.node(target))[0].target.kind

    def has_path(self, source: Node, target: Node) -> bool:
        """Whether any datapath leads from ``source`` to ``target``."""
        return connected(self._arcs(False, 1), source.index, target.index, self._passable)

    def path_cycles(self, route: Sequence[Link], nbytes: int) -> int:
        """Cycles for ``nbytes`` to cross ``route`` as a stream: every latency plus
        the transfer time at the slowest link."""
        limits = [link.bytes_per_cycle for link in route if link.bytes_per_cycle]
        transfer = -(-nbytes // min(limits)) if limits else 0
        return sum(link.latency or 0 for link in route) + transfer

    def neighbours(self, core: int) -> tuple[int, ...]:
        """The cores one interconnect hop from ``core``."""
        self._check_core(core)
        if self.interconnect is None:
            return ()
        wraps = self.interconnect.topology == "ring"
        candidates = ((core - 1) % self.cores, (core + 1) % self.cores) if wraps else (core - 1, core + 1)
        return tuple(sorted({c for c in candidates if 0 <= c < self.cores and c != core}))

    def core_hops(self, a: int, b: int) -> int:
        """Interconnect hops between two cores along the shorter way."""
        self._check_core(a)
        self._check_core(b)
        distance = abs(a - b)
        if distance and self.interconnect is None:
            raise KtcError(f"device @{self.name} has no interconnect between its cores", self.where)
        if self.interconnect is not None and self.interconnect.topology == "ring":
            return min(distance, self.cores - distance)
        return distance

    def _check_core(self, core: int) -> None:
        if not 0 <= core < self.cores:
            raise KtcError(f"device @{self.name} has no core {core} (it has {self.cores})", self.where)

    # Kernels -----------------------------------------------------------------

    def place_grid(self, grid: Sequence[int], single_wave: bool = False, where: str = "") -> GridPlacement:
        """Where the tiles of ``grid`` run (see the module docstring). A kernel whose
        tiles communicate passes ``single_wave`` and is rejected if it needs more
        cores than the device has."""
        if not grid or any(size <= 0 for size in grid):
            raise KtcError(f"grid {list(grid)} must have positive sizes", where)
        tiles = math.prod(grid)
        if single_wave and tiles > self.cores:
            raise KtcError(
                f"grid {list(grid)} has {tiles} tiles that communicate, but device "
                f"@{self.name} has {self.cores} cores to run them at once",
                where,
            )
        return GridPlacement(tiles, self.cores)

    # Timing ------------------------------------------------------------------

    def require_timing(self) -> None:
        """Fail, naming the first missing figure, unless the device is timed."""
        if self.missing_timing:
            first = self.missing_timing[0]
            more = len(self.missing_timing) - 1
            extra = f" (and {more} more timing figures)" if more else ""
            raise KtcError(f"device @{self.name} is untimed: {first.what}{extra}", first.where)

    @cached_property
    def port_latencies(self) -> tuple[int, int]:
        """The least latency of a transfer from device memory into another memory, and
        of one from another memory into device memory: the links of the route between
        them (every transfer through the device-memory port is one of these, its last
        byte arriving that late after the port served it); 0 where there is none."""
        home = self.instances(self.device_memory)[0]
        others = [node for node in self.nodes
                  if node.role == MEMORY and node.kind != self.device_memory]

        def least(pairs) -> int:
            return min((sum(link.latency or 0 for link in self.path(a, b))
                        for a, b in pairs if self.has_path(a, b)), default=0)

        return least((home, node) for node in others), least((node, home) for node in others)

    @cached_property
    def roofline(self) -> Roofline:
        """The roofline constants (an untimed device has none)."""
        self.require_timing()
        from ktc.arch.roofline import derive

        return derive(self)


_LOADED: dict[tuple[tuple[str, str], ...], Device] = {}
"""Every device loaded so far, by the paths and content hashes of its files."""


def clear_caches() -> None:
    """Forget every device and file read so far (for measuring cold loads)."""
    from ktc.arch import _READ

    _LOADED.clear()
    _READ.clear()
    _DECLARED.clear()


_DECLARED: WeakKeyDictionary[DeviceOp, tuple[Path, Device]] = WeakKeyDictionary()
"""Per device declaration, the file it imports and the device loaded from it: a
module's device is read once, however many passes ask for it."""


def device_of(module: ModuleOp) -> Device:
    """The device a module declares with ``ktdf_arch.device @name import("file")``
    (as ``ktc-opt --arch`` adds), loaded once per declaration. A relative import
    path is read from the folder of the file that declares it; a name without ``/``
    or ``.mlir`` is a packaged device."""
    declared = [op for op in module.walk() if isinstance(op, DeviceOp)]
    if not declared:
        raise KtcError("no device declared: pass --arch NAME|FILE or import a device file")
    if len(declared) > 1:
        raise KtcError("more than one device declared", where(declared[1]))
    device = declared[0]
    if device.import_path is None:
        raise KtcError(
            "a device defined inline cannot be compiled for; put it in a file and import it",
            where(device),
        )
    path = Path(device.import_path.data)
    loc = device.location
    packaged = is_packaged_name(device.import_path.data)
    if not packaged and not path.is_absolute() and isinstance(loc, FileLineColLoc):
        path = Path(loc.filename.data).parent / path
    known = _DECLARED.get(device)
    if known is None or known[0] != path:
        known = _DECLARED[device] = (path, Device.load(path))
    return known[1]
