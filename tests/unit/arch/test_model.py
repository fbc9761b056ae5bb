"""The device model answers the same questions on every device, unchanged: the two
shipped ones, a third chip that exists only as a test file (4 cores on a line, no
sub-cores, other kinds and bandwidths) and IBM's sample device read from the
scheduler reference (untimed: structure only).

Each test states an invariant; the per-device facts it needs are in ``FACTS``.
"""

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REFERENCE, ROOT
from xdsl.dialects.builtin import BFloat16Type, f16

from ktc.arch.model import ENGINE, PATTERN_POINTS, Device, Link
from ktc.codegen import isa
from ktc.dialects.diagnostics import KtcError
from ktc.dialects.ktdp import MemorySpaceAttr, MemorySpaceKind, SpyreMemorySpaceAttr, SpyreMemorySpaceKind

LINE4 = ROOT / "tests" / "lit" / "arch" / "Inputs" / "line4.mlir"
SCHEDULER = REFERENCE / "anchor-dataflow-scheduler.md"


@dataclass(frozen=True)
class Facts:
    cores: int
    subcores: int
    topology: str | None
    f16_lanes: int
    scratchpad_bytes: int
    device_memory_alignment: int
    """Word size times alignment of the DMA engines that reach device memory."""
    timed: bool = True


FACTS = {
    "spyre": Facts(32, 2, "ring", 64, 2 << 20, 128),
    "toy": Facts(2, 1, "ring", 8, 64 << 10, 16),
    "line4": Facts(4, 1, "line", 32, 256 << 10, 64),
    "sample": Facts(1, 2, None, 64, 1 << 20, 64, timed=False),
}


@pytest.fixture(scope="module")
def sample_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """IBM's sample device, quoted whole in section 3 of the scheduler reference."""
    if not SCHEDULER.is_file():
        pytest.skip(f"scheduler reference not found at {SCHEDULER} (it lives beside the project, in shared/)")
    match = re.search(r"^## 3\. The sample device.*?^```mlir\n(.*?)^```", SCHEDULER.read_text(), re.M | re.S)
    assert match is not None, "the reference no longer quotes the sample device in section 3"
    path = tmp_path_factory.mktemp("sample") / "sample_device.mlir"
    path.write_text(match.group(1))
    return path


@pytest.fixture(params=sorted(FACTS))
def named(request: pytest.FixtureRequest) -> tuple[Device, Facts]:
    name = request.param
    if name == "sample":
        return Device.load(request.getfixturevalue("sample_file")), FACTS[name]
    return Device.load(LINE4 if name == "line4" else name), FACTS[name]


def interconnect_links(route: tuple[Link, ...]) -> int:
    return sum(link.kind in ("ring", "line") for link in route)


def test_counts(named):
    device, facts = named
    assert device.cores == facts.cores
    assert device.subcores_per_core == facts.subcores
    assert device.compute.count == facts.cores * facts.subcores
    assert device.lanes(f16) == device.lanes(isa.ELEMENT_TYPES["f16"]) == facts.f16_lanes
    assert "f16" not in device.compute.lanes, "lanes are keyed by the type, not by its text"
    assert device.memory_space("ct_local").size == facts.scratchpad_bytes
    assert device.memory(device.scratchpad).count == facts.cores
    assert device.timed == facts.timed


def test_every_core_and_subcore_has_its_own_compute_engine(named):
    device, facts = named
    engines = {
        (core, sub): device.node(device.compute_kind, core, sub)
        for core in range(facts.cores)
        for sub in range(facts.subcores)
    }
    assert len({node.index for node in engines.values()}) == len(engines)
    for (core, sub), node in engines.items():
        assert node.core in (core, None if facts.cores == 1 else core)
        assert node.subcore in (None, sub)


def test_paths_reach_every_engine_from_device_memory_and_back(named):
    device, _ = named
    root = device.node(device.device_memory)
    for engine in device.instances(device.compute_kind):
        for source, target in ((root, engine), (engine, root)):
            route = device.path(source, target)
            assert route[0].source is source and route[-1].target is target
            assert all(a.target is b.source for a, b in zip(route, route[1:]))
            middle = [link.target for link in route[:-1]]
            assert not any(n.role == ENGINE and device.engine(n.kind).compute for n in middle)
            assert {n.core for n in middle} <= {None, engine.core}


def bellman_ford(device: Device, source: int, cost) -> dict[int, int]:
    """Cheapest costs from ``source``, never passing through a compute engine or a
    matrix unit."""
    best = {source: 0}
    changed = True
    while changed:
        changed = False
        for link in device.links:
            start = link.source
            if start.index not in best:
                continue
            if start.index != source and start.role == ENGINE and (
                    device.engine(start.kind).compute or device.engine(start.kind).matrix):
                continue
            candidate = best[start.index] + cost(link)
            if candidate < best.get(link.target.index, candidate + 1):
                best[link.target.index] = candidate
                changed = True
    return best


@pytest.mark.parametrize("nbytes", [1, 4096])
def test_paths_are_cheapest(named, nbytes):
    device, _ = named
    cost = (lambda link: link.cycles(nbytes)) if device.timed else (lambda link: 1)
    sources = [device.node(device.device_memory), device.node(device.scratchpad, 0)]
    for source in sources:
        oracle = bellman_ford(device, source.index, cost)
        for target in device.nodes:
            if target.index not in oracle:
                with pytest.raises(KtcError, match="has no path"):
                    device.path(source, target, nbytes)
                continue
            route = device.path(source, target, nbytes)
            assert sum(cost(link) for link in route) == oracle[target.index]


def test_hops_between_cores(named):
    device, facts = named
    cores = range(device.cores)
    for a in cores:
        assert device.core_hops(a, a) == 0
        assert all(device.core_hops(a, n) == 1 for n in device.neighbours(a))
        for b in cores:
            assert device.core_hops(a, b) == device.core_hops(b, a)
    farthest = max((device.core_hops(0, b) for b in cores), default=0)
    expected = {"ring": device.cores // 2, "line": device.cores - 1, None: 0}[facts.topology]
    assert farthest == expected


def test_scratchpad_to_scratchpad_crosses_the_interconnect_hop_by_hop(named):
    device, facts = named
    if facts.topology is None:
        pytest.skip("a single core has no interconnect")
    assert device.interconnect.topology == facts.topology
    for b in range(device.cores):
        route = device.path(device.node(device.scratchpad, 0), device.node(device.scratchpad, b))
        assert interconnect_links(route) == device.core_hops(0, b)
    ring = facts.topology == "ring" and device.cores > 2
    pairs = device.cores if ring else device.cores - 1
    assert sum(link.kind == facts.topology for link in device.links) == 2 * pairs


def test_interconnect_links_carry_its_bandwidth_and_latency(named):
    device, facts = named
    if facts.topology is None:
        pytest.skip("a single core has no interconnect")
    ring = [link for link in device.links if link.kind == facts.topology]
    assert {link.bytes_per_cycle for link in ring} == {device.interconnect.bytes_per_cycle}
    assert {link.latency for link in ring} == {device.interconnect.latency}
    assert {link.source.kind for link in ring} == {device.interconnect.stop}


def test_memory_tree(named):
    device, _ = named
    kinds = list(device.memory_kinds.values())
    assert kinds[0].kind == device.device_memory and kinds[0].depth == 0 and kinds[0].parent is None
    assert device.memory(device.scratchpad).parent == device.device_memory
    assert [kind.depth for kind in kinds] == sorted(kind.depth for kind in kinds)
    for core in range(device.cores):
        pad = device.node(device.scratchpad, core)
        assert device.parent(pad).kind == device.device_memory
        assert pad.core in (core, None)
    assert all(kind.size > 0 for kind in kinds)


def test_alignment_is_what_the_units_reaching_a_memory_need(named):
    device, facts = named
    assert device.alignment(device.device_memory) == facts.device_memory_alignment
    assert device.alignment(device.scratchpad) % facts.device_memory_alignment == 0


def test_memory_spaces(named):
    device, _ = named
    assert device.memory_space("global").kind == device.device_memory
    assert device.memory_space(MemorySpaceAttr(MemorySpaceKind.GLOBAL)).kind == device.device_memory
    assert device.memory_space(MemorySpaceAttr(MemorySpaceKind.CT_LOCAL, 3)).kind == device.scratchpad
    assert device.memory_space(SpyreMemorySpaceAttr(SpyreMemorySpaceKind.HBM)).kind == device.device_memory
    assert device.memory_space(device.scratchpad).kind == device.scratchpad
    with pytest.raises(KtcError, match="has no memory"):
        device.memory_space("nowhere")


def test_engines_and_features(named):
    device, _ = named
    compute = device.compute
    assert compute.compute and "compute" in compute.features and compute.lanes
    assert compute.local_memories
    movers = [e for e in device.engine_kinds.values() if e.load or e.store]
    assert movers
    for engine in movers:
        for access in (engine.load, engine.store):
            if access is None:
                continue
            assert all(size >= 1 for size in access.word_sizes.values())
            assert access.word_size("no such memory") == 1
            for shapes in access.accesses.values():
                assert all(shape.size_in_words >= 0 and shape.align_in_words >= 1 for shape in shapes)
    with pytest.raises(KtcError, match=r"has no lanes for bf16 \(it has .*f16"):
        device.lanes(BFloat16Type())
    with pytest.raises(KtcError, match="has no execution unit"):
        device.engine("NOPE")


def test_roofline_constants_follow_the_file(named):
    device, facts = named
    if not facts.timed:
        with pytest.raises(KtcError, match="is untimed"):
            device.require_timing()
        with pytest.raises(KtcError, match="is untimed"):
            assert device.roofline
        assert device.missing_timing
        return
    roof = device.roofline
    assert roof.clock_hz == device.clock_mhz * 1_000_000
    assert roof.device_memory_bytes_per_cycle == device.memory(device.device_memory).port_bandwidth
    engines = roof.cores * roof.subcores_per_core
    for element_type, lanes in roof.lanes.items():
        for op_class, cycles in roof.issue_cycles.items():
            assert roof.elements_per_cycle(op_class, element_type) == engines * lanes / cycles
    assert roof.elements_per_cycle("transcendental", f16) < roof.elements_per_cycle("plain", f16)
    read = device.path(device.node(device.device_memory), device.node(device.scratchpad))
    assert roof.dma_read_bytes_per_cycle == min(link.bytes_per_cycle for link in read)
    assert roof.dma_granularity in {size for link in read for size in link.granularity}
    assert roof.feed_bytes_per_cycle > 0 and roof.drain_bytes_per_cycle > 0
    assert roof.interconnect_bytes_per_cycle == device.interconnect.bytes_per_cycle
    assert [level.kind for level in roof.memories] == list(device.memory_kinds)
    assert device.missing_timing == ()


def test_a_path_takes_the_stream_time_of_its_slowest_link(named):
    device, facts = named
    if not facts.timed:
        pytest.skip("untimed")
    route = device.path(device.node(device.device_memory), device.node(device.compute_kind))
    slowest = min(link.bytes_per_cycle for link in route)
    latency = sum(link.latency for link in route)
    assert device.path_cycles(route, 1 << 20) == latency + -(-(1 << 20) // slowest)


def test_grid_placement(named):
    device, _ = named
    cores = device.cores
    assert device.place_grid([cores]).waves == 1
    placement = device.place_grid([2, cores])
    assert placement.waves == 2 and placement.cores_used == cores
    assert [placement.core_of(t) for t in range(2 * cores)] == list(range(cores)) * 2
    assert [placement.wave_of(t) for t in (0, cores)] == [0, 1]
    assert device.place_grid([cores], single_wave=True).tiles == cores
    with pytest.raises(KtcError, match=f"has {cores + 1} tiles that communicate"):
        device.place_grid([cores + 1], single_wave=True, where="k.mlir:3:1")
    with pytest.raises(KtcError, match="must have positive sizes"):
        device.place_grid([0, 4])


def test_patterns_by_application_point(named):
    device, facts = named
    if facts.timed:
        points = {group.data for block in device.pattern_blocks for group in block.groups.data}
        assert points == set(PATTERN_POINTS) or not device.pattern_blocks
    for point in PATTERN_POINTS:
        assert isinstance(device.patterns(point), tuple)


def test_example_values_are_marked(named):
    device, _ = named
    for figure in device.example_values:
        assert re.match(r".+\.mlir:\d+:\d+$", figure.where)
        assert " = " in figure.what


def test_unknown_cores_and_kinds_are_errors(named):
    device, _ = named
    with pytest.raises(KtcError, match=f"has no core {device.cores}"):
        device.core_hops(0, device.cores)
    with pytest.raises(KtcError, match='has no "NOPE"'):
        device.node("NOPE")
