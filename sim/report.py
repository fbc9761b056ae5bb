"""The report of a run: cycles, per-engine breakdown, traffic and two bounds.

**The ideal** (``ideal``; ``docs/simulator.md`` derives it) is what no schedule of
the kernel can beat: every array of the launch read or written once through device
memory at its bandwidth, plus the least latency of a transfer through the device-memory
port (the last byte served still has to land); the bytes a run must read (or write)
and the latencies into a core and back out (``round_trip``); or the compute the run
issued spread over every compute engine (and every matrix unit) of the device,
whichever is larger.
``efficiency = ideal / cycles``; ``traffic overhead`` = bytes issued through the
device-memory port / the ideal's bytes.

**The issued-traffic bound** (``bound``) is the roofline of ``anchors-broader.md`` §4.2 with the arch file's figures,
applied to the traffic and compute the kernel actually issued (bytes through device
memory, vector issue cycles, scratchpad load/store bytes, interconnect byte-hops):

- device memory: ``ceil(D_eff / B_ddr)`` plus the least latency of a transfer through
  it (the last transfer still has to arrive), ``D_eff`` rounded per run to the
  transfer granularity;
- the ideal's round trip (``round_trip``), the same figure;
- SIMD: the vector issue cycles (``ceil(len / lanes) * issue cost``) over the engines
  that issued them;
- matrix: the matrix unit's step cycles (``ktc.sim.matrix``) over the units that
  issued them;
- scratchpad load/store: per core, bytes loaded over ``B_ls`` (feed) and stored over
  the drain bandwidth;
- interconnect: byte-hops over the links of the interconnect times their bandwidth.

``bound = max`` of these; ``bound_efficiency = bound / cycles``. The ideal is never
above it (its bytes are at most the issued bytes, its compute spread over at least the
engines that issued it), and a run faster than the issued bound is a simulator bug.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from ktc.arch.model import MEMORY, Device
from ktc.sim.machine import INTERCONNECT_KINDS
from ktc.sim.matrix import issued_cycles, performed_macs


@dataclass(frozen=True)
class EngineFigures:
    """Cycles of the instances of one engine kind, summed."""

    instances: int
    busy: int
    starved: int
    backpressured: int
    descriptors: int = 0
    """Descriptors of indirect copies written (``dmai``: one per contiguous run)."""


@dataclass(frozen=True)
class Report:
    arch: str
    clock_mhz: int
    cycles: int
    bound_cycles: int
    binding_resource: str
    bound_terms: dict[str, int]
    """Each term of the bound, in cycles."""
    bytes: dict[str, int]
    """Bytes read plus written, per memory kind."""
    engines: dict[str, EngineFigures]
    instances: dict[str, EngineFigures] = field(default_factory=dict)
    """Per engine instance (``SFU[0.1]``)."""
    wall_s: float = 0.0
    ideal_cycles: int = 0
    ideal_terms: dict[str, int] = field(default_factory=dict)
    """Each term of the ideal, in cycles."""
    ideal_bytes: int = 0
    """Bytes of the launch's arrays through device memory, each once."""
    issued_bytes: int = 0
    """Bytes the run moved through the device-memory port (rounded to granularity)."""
    read_bytes: int = 0
    """The part of ``issued_bytes`` read out of device memory (the rest was written)."""

    @property
    def efficiency(self) -> float:
        """The ideal over the simulated cycles."""
        return self.ideal_cycles / self.cycles if self.cycles else 1.0

    @property
    def bound_efficiency(self) -> float:
        """The issued-traffic bound over the simulated cycles."""
        return self.bound_cycles / self.cycles if self.cycles else 1.0

    @property
    def traffic_overhead(self) -> float:
        """Bytes issued through device memory over the ideal's bytes."""
        return self.issued_bytes / self.ideal_bytes if self.ideal_bytes else 1.0

    @property
    def cycles_per_wall_second(self) -> float:
        return self.cycles / self.wall_s if self.wall_s else 0.0

    def bandwidth(self, memory: str) -> float:
        """Achieved bytes per cycle of a memory kind over the whole run."""
        return self.bytes.get(memory, 0) / self.cycles if self.cycles else 0.0

    def to_json(self) -> dict:
        """The figures as JSON data (``ktc run --report-json``)."""
        return {
            "arch": self.arch,
            "clock_mhz": self.clock_mhz,
            "cycles": self.cycles,
            "bound_cycles": self.bound_cycles,
            "binding_resource": self.binding_resource,
            "bound_efficiency": self.bound_efficiency,
            "bound_terms": dict(self.bound_terms),
            "ideal_cycles": self.ideal_cycles,
            "ideal_terms": dict(self.ideal_terms),
            "efficiency": self.efficiency,
            "ideal_bytes": self.ideal_bytes,
            "issued_bytes": self.issued_bytes,
            "read_bytes": self.read_bytes,
            "traffic_overhead": self.traffic_overhead,
            "bytes": dict(self.bytes),
            "bandwidth_bytes_per_cycle": {m: self.bandwidth(m) for m in self.bytes},
            "engines": {kind: _figures(f) for kind, f in self.engines.items()},
            "instances": {name: _figures(f) for name, f in self.instances.items()},
            "wall_s": self.wall_s,
            "cycles_per_wall_s": self.cycles_per_wall_second,
        }

    def __str__(self) -> str:
        return self.text()

    def text(self) -> str:
        """The report as a person reads it."""
        seconds = self.cycles / (self.clock_mhz * 1e6)
        lines = [
            f"cycles: {self.cycles} ({seconds * 1e6:.3f} us at {self.clock_mhz} MHz, @{self.arch})",
            (f"ideal: {self.ideal_cycles} cycles; efficiency {self.efficiency:.1%}; traffic "
             f"{self.issued_bytes} B issued ({self.read_bytes} B read) for {self.ideal_bytes} B of arrays "
             f"(overhead {self.traffic_overhead:.2f}x)"),
            "  terms: " + ", ".join(f"{name} {cycles}" for name, cycles in self.ideal_terms.items()),
            (f"issued-traffic bound: {self.bound_cycles} cycles, bound by {self.binding_resource}; "
             f"{self.bound_efficiency:.1%} of the cycles"),
            "  terms: " + ", ".join(f"{name} {cycles}" for name, cycles in self.bound_terms.items()),
            "engines (cycles summed over instances):",
        ]
        for kind, f in self.engines.items():
            lines.append(f"  {kind:<8} x{f.instances:<3} busy {f.busy:>10}  starved {f.starved:>10}"
                         f"  back-pressured {f.backpressured:>10}"
                         + (f"  descriptors {f.descriptors}" if f.descriptors else ""))
        lines.append("memory traffic:")
        for memory, nbytes in self.bytes.items():
            per_cycle = self.bandwidth(memory)
            lines.append(f"  {memory:<8} {nbytes:>12} B  {per_cycle:8.2f} B/cycle "
                         f"({per_cycle * self.clock_mhz / 1000:.2f} GB/s)")
        lines.append(f"simulated in {self.wall_s:.3f} s ({self.cycles_per_wall_second:,.0f} cycles/s)")
        return "\n".join(lines)


def bound(device: Device, run, array_bytes: int) -> tuple[int, str, dict[str, int]]:
    """The roofline bound of a run whose launch placed ``array_bytes`` of arrays in
    device memory: cycles, the binding resource and every term."""
    roof, machine = device.roofline, run.machine
    memory = device.device_memory
    terms: dict[str, int] = {}
    moved = machine.port_bytes.get(memory, 0)
    if moved and roof.device_memory_bytes_per_cycle:
        terms[f"{memory} bandwidth"] = (-(-moved // roof.device_memory_bytes_per_cycle)
                                        + machine.port_latency[memory])
        terms |= round_trip(device, run, min(array_bytes, moved))
    vector = [e.stats.vector_cycles for e in run.engines if e.stats.vector_cycles]
    if vector:
        terms["SIMD issue"] = -(-sum(vector) // len(vector))
    steps = [cycles for e in run.engines if (cycles := issued_cycles(e))]
    if steps:
        terms["matrix issue"] = -(-sum(steps) // len(steps))
    terms["scratchpad load/store"] = max(
        [_ceil(n, roof.feed_bytes_per_cycle) for n in run.feed_bytes.values()]
        + [_ceil(n, roof.drain_bytes_per_cycle) for n in run.drain_bytes.values()],
        default=0,
    )
    links = [link for link in device.links if link.kind in INTERCONNECT_KINDS]
    if machine.interconnect_bytes and links:
        capacity = sum(link.bytes_per_cycle for link in links)
        terms["interconnect"] = -(-machine.interconnect_bytes // capacity)
    binding = max(terms, key=terms.get, default="nothing")
    return terms.get(binding, 0), binding, terms


def ideal(device: Device, run, array_bytes: int) -> tuple[int, dict[str, int], int]:
    """The ideal of a run whose launch placed ``array_bytes`` of arrays in device memory:
    cycles, every term, and its bytes (the arrays' bytes, at most those the run issued
    through the port: a kernel that needs only part of an array reads only that part)."""
    roof, memory = device.roofline, device.device_memory
    moved = min(array_bytes, run.machine.port_bytes.get(memory, 0))
    terms: dict[str, int] = {}
    if moved and roof.device_memory_bytes_per_cycle:
        into, out_of = device.port_latencies
        terms[f"{memory} bandwidth"] = (_ceil(moved, roof.device_memory_bytes_per_cycle)
                                        + min(into, out_of))
        terms |= round_trip(device, run, moved)
    vector = [e.stats.vector_cycles for e in run.engines if e.stats.vector_cycles]
    if vector:
        engines = max(len(device.instances(device.compute_kind)), len(vector))
        terms["SIMD issue"] = _ceil(sum(vector), engines)
    macs = sum(performed_macs(e) for e in run.engines)
    if macs and roof.matrix_units:
        unit = roof.matrix
        peak = roof.matrix_units * unit.rows * unit.lanes
        terms["matrix compute"] = _ceil(macs * unit.issue_cycles, peak)
    return max(terms.values(), default=0), terms, moved


def round_trip(device: Device, run, moved: int) -> dict[str, int]:
    """The term of a run that both reads and writes device memory for ``moved`` bytes of
    arrays, on a device whose engines that copy out of device memory are not those that
    copy into it: the bytes it must read are at least ``moved`` less what it wrote
    (``R``), those it must write at least ``moved`` less what it read (``W``). The last
    read byte is served no earlier than cycle ``ceil(R / B)`` and lands a transfer
    latency into a memory later; a copy back out of what depends on it starts on
    another engine, after a signal that follows the landing, and lands a latency
    later. The first write waits alike for the first read, then ``W`` bytes at the
    port. So no schedule ends before ``ceil(max(R, W) / B) + in + out``. Empty when the
    run only reads or only writes, or when one engine copies both ways (its copies
    complete in order, so its copy out may start before its copy in has landed)."""
    memory, per_cycle = device.device_memory, device.roofline.device_memory_bytes_per_cycle
    read = run.machine.port_read_bytes.get(memory, 0)
    written = run.machine.port_bytes.get(memory, 0) - read
    if not read or not written or not _separate_movers(device):
        return {}
    into, out_of = device.port_latencies
    needed = max(moved - written, moved - read, 0)
    return {f"{memory} round trip": _ceil(needed, per_cycle) + into + out_of}


def _separate_movers(device: Device) -> bool:
    """Whether the engine kinds at the ends of the links out of device memory and those
    at the starts of the links into it are two sets with nothing in common."""
    memory = device.device_memory
    out_of = {link.target.kind for link in device.links
              if link.source.kind == memory and link.target.role != MEMORY}
    into = {link.source.kind for link in device.links
            if link.target.kind == memory and link.source.role != MEMORY}
    return bool(out_of) and bool(into) and not out_of & into


def _figures(figures: EngineFigures) -> dict:
    """An engine's figures as JSON data; ``descriptors`` only where it wrote some."""
    data = asdict(figures)
    if not figures.descriptors:
        del data["descriptors"]
    return data


def _ceil(nbytes: int, per_cycle: int) -> int:
    return -(-nbytes // per_cycle) if per_cycle else 0


def engine_figures(engines) -> tuple[dict[str, EngineFigures], dict[str, EngineFigures]]:
    """Per engine kind (summed) and per instance."""
    instances = {
        e.name: EngineFigures(1, e.stats.busy, e.stats.starved, e.stats.backpressured,
                              e.stats.descriptors)
        for e in engines
    }
    kinds: dict[str, Counter] = {}
    for e in engines:
        total = kinds.setdefault(e.node.kind, Counter())
        total.update(instances=1, busy=e.stats.busy, starved=e.stats.starved,
                     backpressured=e.stats.backpressured, descriptors=e.stats.descriptors)
    per_kind = {
        kind: EngineFigures(t["instances"], t["busy"], t["starved"], t["backpressured"],
                            t["descriptors"])
        for kind, t in kinds.items()
    }
    return per_kind, instances
