"""The event-driven core of the simulator: time, the event queue and the datapaths.

Time is an integer count of cycles. An event is a callback at a cycle; events run in
time order, ties in the order they were scheduled, so a run is deterministic.

Every step of every engine that takes time is an event (``ktc.sim.engines``), and that
is on purpose: ties decide who is served first at a shared resource, and the order of
two events of one cycle is that of the events that scheduled them, and so on back. Two
DMAs reaching the device-memory port in the same cycle are ordered by the private
steps (a vector op, a FIFO wake) of the engines that led to them, several events back.
An engine running ahead on its own clock would skip those steps' places in the order:
it would need another rule for ties (other figures wherever ties occur), or to rebuild
the order it skipped, at about the cost of the queue itself.

Data moves over *routes*: the links of the device model from one node to another (the
same routing graph the compiler uses, read from the arch file). Every link, and every
memory that states a port bandwidth (device memory: shared by all cores; a
scratchpad: shared by the DMA engines and the load and store units of its core), is a
resource. A link is free from some cycle on; a transfer of a block starts when every
resource of its route is free, holds each link for ``ceil(bytes / bytes_per_cycle)``
cycles (bytes rounded up per contiguous run to the link's transfer granularity), and
arrives after the longest hold plus the sum of the link latencies: a stream through
store-and-forward free pipes. A port serves bytes, one transfer after another at its
bandwidth: it is free from a byte position (cycles times bandwidth), a transfer may
start in the cycle in which the port serves its next byte, and the port holds the
transfer until the cycle in which its last byte is served (so a port of 512 bytes a
cycle serves four 128-byte rows in one cycle). Requests are served first come, first served; that is where contention
between cores (the shared device-memory port, a ring link) shows. One transfer is one
reservation, whatever its size.

A block travels as *legs*: ``(route, count, run_bytes)``, the route carrying ``count``
contiguous runs of ``run_bytes`` (a DMA has two legs, into and out of its engine).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import count

from ktc.arch.model import ENGINE, MEMORY, Device, Link, Node
from ktc.runtime.device import DeviceError


class SimError(DeviceError):
    """A run stopped: a fault of the program (out of bounds, a deadlock, a malformed
    operand) or a bug of the simulator (time below the roofline bound)."""


class PastBudget(SimError):
    """A run passed its cycle budget (``limit``) and was stopped there."""

    def __init__(self, message: str, limit: int):
        super().__init__(message)
        self.limit = limit


class OverBudget(Exception):
    """The next event lies past the cycle budget (its argument); the run stopped there."""


WATCH_EVERY = 1 << 14
"""Events between two calls of a run's watcher."""

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
    reads: bool = False
    """For a memory's port: whether the route starts at the memory (bytes read out of
    it), not ends there (bytes written into it)."""


@dataclass(frozen=True)
class Route:
    """The resources between two nodes, and their summed latency."""

    hops: tuple[Hop, ...]
    latency: int
    name: str

    plan: tuple[tuple, ...] = field(init=False, repr=False, compare=False)
    """Per hop ``(key, granularity, bytes_per_cycle, memory, interconnect, reads)``: what
    a transfer reads of it, as plain tuples."""

    def __post_init__(self):
        object.__setattr__(self, "plan", tuple(
            (h.key, h.granularity, h.bytes_per_cycle, h.memory, h.interconnect, h.reads)
            for h in self.hops))


class Machine:
    """Clock, event queue, datapath resources and the traffic counters."""

    def __init__(self, device: Device):
        self.device = device
        self.now = 0
        self.events: list[tuple[int, int, Callable[[], None]]] = []
        """A heap of ``(cycle, order, callback)``."""
        self.order = count()
        """Ties in time run in the order they were scheduled."""
        self._free: dict[tuple[str, int, int], int] = {}
        self._routes: dict[tuple[int, int], Route] = {}
        self.port_bytes: Counter[str] = Counter()
        """Bytes charged at each memory kind's port (rounded to granularity)."""
        self.port_read_bytes: Counter[str] = Counter()
        """The part of ``port_bytes`` read out of the memory (the rest was written in)."""
        self.interconnect_bytes = 0
        """Bytes times interconnect hops."""
        self.port_latency: dict[str, int] = {}
        """Per memory kind, the least latency of a transfer through its port."""
        self.last_event = 0

    # Events ------------------------------------------------------------------------

    def at(self, time: int, callback: Callable[[], None]) -> None:
        """Run ``callback`` at cycle ``time`` (not before now)."""
        heapq.heappush(self.events, (max(time, self.now), next(self.order), callback))

    def run(self, limit: int | None = None, watch: Callable[[int, int], None] | None = None) -> None:
        """Run events until none is left, or raise :class:`OverBudget` at the first event
        later than cycle ``limit``; ``watch(now, events run)`` is called every
        ``WATCH_EVERY`` events (progress)."""
        events, pop = self.events, heapq.heappop
        limit = float("inf") if limit is None else limit
        ran = 0
        while events:
            time, _, callback = pop(events)
            if time > limit:
                raise OverBudget(limit)
            self.now = time
            callback()
            ran += 1
            if watch is not None and not ran % WATCH_EVERY:
                watch(time, ran)
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
        ends = ((source, links[:1], True), (target, links[-1:], False)) if links else ((source, (), True),)
        for node, adjacent, reads in ends:
            port = self._port(node, adjacent, reads)
            if port is not None:
                hops.append(port)
        latency = sum(link.latency or 0 for link in links)
        return Route(tuple(hops), latency, f"{source.name} -> {target.name}")

    def _port(self, node: Node, adjacent: tuple[Link, ...], reads: bool) -> Hop | None:
        """A memory's port, serving in the transfer size of the link at it."""
        if node.role != MEMORY:
            return None
        bandwidth = self.device.memory(node.kind).port_bandwidth
        if not bandwidth:
            return None
        granularity = min((g for link in adjacent for g in link.granularity), default=1)
        return Hop(("port", node.index, 0), bandwidth, granularity, False, node.kind, reads)

    def transfer(self, legs: Iterable[tuple[Route, int, int]]) -> tuple[int, int, int]:
        """Reserve every resource of ``legs`` (``(route, count, run_bytes)``) for one block
        starting now or later: ``(start, sent, arrival)``, the cycles the first byte
        leaves, the last byte has left the source (the sender is free again) and the
        last byte has arrived."""
        free = self._free
        start, latency = self.now, 0
        for route, _, _ in legs:
            latency += route.latency
            for key, _, per_cycle, memory, _, _ in route.plan:
                busy = free.get(key, 0)
                if memory is not None:
                    busy //= per_cycle  # a port: the cycle its next byte is served in
                if busy > start:
                    start = busy
        hold = 0
        for route, runs, run_bytes in legs:
            for key, granularity, per_cycle, memory, interconnect, reads in route.plan:
                nbytes = runs * (-(-run_bytes // granularity) * granularity)
                if memory is not None:
                    served = max(start * per_cycle, free.get(key, 0)) + nbytes
                    free[key] = served
                    cycles = -(-served // per_cycle) - start
                    self._count_port(memory, nbytes, latency, reads)
                else:
                    cycles = -(-nbytes // per_cycle) if per_cycle else 0
                    free[key] = start + cycles
                if cycles > hold:
                    hold = cycles
                if interconnect:
                    self.interconnect_bytes += nbytes
        return start, start + hold, start + hold + latency

    def _count_port(self, memory: str, nbytes: int, latency: int, reads: bool) -> None:
        """Count a transfer of ``latency`` through a port of ``memory``, out of it when
        ``reads``."""
        self.port_bytes[memory] += nbytes
        if reads:
            self.port_read_bytes[memory] += nbytes
        if latency < self.port_latency.get(memory, latency + 1):
            self.port_latency[memory] = latency


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
        and not device.has_path(a, b)
    )
