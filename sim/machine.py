"""The event-driven core of the simulator: time, the event queue and the datapaths.

Time is an integer count of cycles. An event is a callback at a cycle; events run in
time order, ties in the order they were scheduled, so a run is deterministic.

Data moves over *routes*: the links of the device model from one node to another (the
same routing graph the compiler uses, read from the arch file). Every link, and every
memory that states a port bandwidth (device memory: shared by all cores), is a
resource with a time it is free from. A transfer of a block starts when every resource
of its route is free, holds each for ``ceil(bytes / bytes_per_cycle)`` cycles (bytes
rounded up per contiguous run to the link's transfer granularity), and arrives after
the longest hold plus the sum of the link latencies: a stream through store-and-forward
free pipes. Requests are served first come, first served; that is where contention
between cores (the shared device-memory port, a ring link) shows. One transfer is one
reservation, whatever its size.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ktc.arch.model import ENGINE, MEMORY, Device, Link, Node
from ktc.runtime.device import DeviceError


class SimError(DeviceError):
    """A run stopped: a fault of the program (out of bounds, a deadlock, a malformed
    operand) or a bug of the simulator (time below the roofline bound)."""


INTERCONNECT_KINDS = ("ring", "line")
"""Link kinds of the core interconnect."""


@dataclass(frozen=True)
class Hop:
    """One resource a route holds: a link, or a memory's port."""

    key: tuple[str, int, int]
    bytes_per_cycle: int
    granularity: int
    """Bytes a run is rounded up to on it (1: any size)."""

    interconnect: bool
    memory: str | None
    """The memory kind, for a memory's port."""


@dataclass(frozen=True)
class Route:
    """The resources between two nodes, and their summed latency."""

    hops: tuple[Hop, ...]
    latency: int
    name: str


@dataclass(frozen=True)
class Leg:
    """A route carrying a block laid out as ``count`` runs of ``run_bytes``."""

    route: Route
    count: int
    run_bytes: int

    def charged(self, hop: Hop) -> int:
        """Bytes ``hop`` carries for this block, runs rounded up to its granularity."""
        g = hop.granularity
        return self.count * (-(-self.run_bytes // g) * g)


@dataclass(frozen=True)
class Transfer:
    start: int
    """Cycle the first byte leaves."""
    sent: int
    """Cycle the last byte has left the source (the sender is free again)."""
    arrival: int
    """Cycle the last byte has arrived."""


class Machine:
    """Clock, event queue, datapath resources and the traffic counters."""

    def __init__(self, device: Device):
        self.device = device
        self.now = 0
        self._events: list[tuple[int, int, Callable[[], None]]] = []
        self._seq = 0
        self._free: dict[tuple[str, int, int], int] = {}
        self._routes: dict[tuple[int, int], Route] = {}
        self.port_bytes: Counter[str] = Counter()
        """Bytes charged at each memory kind's port (rounded to granularity)."""
        self.interconnect_bytes = 0
        """Bytes times interconnect hops."""
        self.port_latency: dict[str, int] = {}
        """Per memory kind, the least latency of a transfer through its port."""
        self.last_event = 0

    # Events ------------------------------------------------------------------------

    def at(self, time: int, callback: Callable[[], None]) -> None:
        """Run ``callback`` at cycle ``time`` (not before now)."""
        heapq.heappush(self._events, (max(time, self.now), self._seq, callback))
        self._seq += 1

    def run(self) -> None:
        """Run events until none is left."""
        events = self._events
        while events:
            time, _, callback = heapq.heappop(events)
            self.now = time
            callback()
        self.last_event = self.now

    # Datapaths ---------------------------------------------------------------------

    def route(self, source: Node, target: Node) -> Route:
        """The resources on the fastest path from ``source`` to ``target`` (cached)."""
        key = (source.index, target.index)
        if key not in self._routes:
            self._routes[key] = self._build_route(source, target)
        return self._routes[key]

    def _build_route(self, source: Node, target: Node) -> Route:
        links = () if source is target or _only_beside(self.device, source, target) else self.device.path(source, target)
        hops = [
            Hop(
                ("link", link.source.index, link.target.index),
                link.bytes_per_cycle or 0,
                min(link.granularity, default=1),
                link.kind in INTERCONNECT_KINDS,
                None,
            )
            for link in links
        ]
        ends = ((source, links[:1]), (target, links[-1:])) if links else ((source, ()),)
        for node, adjacent in ends:
            port = self._port(node, adjacent)
            if port is not None:
                hops.append(port)
        latency = sum(link.latency or 0 for link in links)
        return Route(tuple(hops), latency, f"{source.name} -> {target.name}")

    def _port(self, node: Node, adjacent: tuple[Link, ...]) -> Hop | None:
        """A memory's port, serving in the transfer size of the link at it."""
        if node.role != MEMORY:
            return None
        bandwidth = self.device.memory(node.kind).port_bandwidth
        if not bandwidth:
            return None
        granularity = min((g for link in adjacent for g in link.granularity), default=1)
        return Hop(("port", node.index, 0), bandwidth, granularity, False, node.kind)

    def transfer(self, legs: list[Leg]) -> Transfer:
        """Reserve every resource of ``legs`` for one block starting now or later."""
        hops = [(leg, hop) for leg in legs for hop in leg.route.hops]
        start = max([self.now] + [self._free.get(hop.key, 0) for _, hop in hops])
        hold = 0
        for leg, hop in hops:
            nbytes = leg.charged(hop)
            cycles = -(-nbytes // hop.bytes_per_cycle) if hop.bytes_per_cycle else 0
            self._free[hop.key] = start + cycles
            hold = max(hold, cycles)
            if hop.memory is not None:
                self.port_bytes[hop.memory] += nbytes
            if hop.interconnect:
                self.interconnect_bytes += nbytes
        latency = sum(leg.route.latency for leg in legs)
        for _, hop in hops:
            if hop.memory is not None:
                self.port_latency[hop.memory] = min(self.port_latency.get(hop.memory, latency), latency)
        return Transfer(start, start + hold, start + hold + latency)


def _only_beside(device: Device, a: Node, b: Node) -> bool:
    """One is an engine and the other a memory defined beside it (its group-local
    memory, e.g. the SFU's accumulator registers) with no datapath between them: the
    engine reaches it directly."""
    engine, memory = (a, b) if a.role == ENGINE else (b, a)
    return (
        engine.role == ENGINE
        and memory.role == MEMORY
        and memory.kind in device.engine(engine.kind).local_memories
        and (engine.core, engine.subcore) == (memory.core, memory.subcore)
        and b.index not in device.reachable(a)
    )
