"""The roofline constants of a timed device, derived from its routing graph.

Per core figures are read on core 0 (all cores are alike): the DMA rates are the
slowest link on the cheapest path between device memory and the scratchpad, the
feed and drain rates the sum, over the core's compute engines, of the slowest link
between the scratchpad and the engine.
"""

from collections.abc import Sequence

from ktc.arch.model import Device, Link, MemoryLevel, Roofline


def derive(device: Device) -> Roofline:
    root = device.node(device.device_memory)
    pad = device.node(device.scratchpad)
    engines = [e for e in device.instances(device.compute_kind) if e.core in (None, pad.core)]
    read, write = device.path(root, pad), device.path(pad, root)
    interconnect = device.interconnect
    return Roofline(
        clock_mhz=device.clock_mhz,
        cores=device.cores,
        subcores_per_core=device.subcores_per_core,
        lanes=device.compute.lanes,
        issue_cycles=device.compute.issue_cycles,
        device_memory_bytes_per_cycle=device.memory(device.device_memory).port_bandwidth,
        dma_read_bytes_per_cycle=bottleneck(read),
        dma_write_bytes_per_cycle=bottleneck(write),
        dma_granularity=max((size for link in read for size in link.granularity), default=1),
        feed_bytes_per_cycle=sum(bottleneck(device.path(pad, engine)) for engine in engines),
        drain_bytes_per_cycle=sum(bottleneck(device.path(engine, pad)) for engine in engines),
        interconnect_bytes_per_cycle=interconnect.bytes_per_cycle if interconnect else None,
        hop_latency=interconnect.latency if interconnect else None,
        memories=tuple(_level(device, kind) for kind in device.memory_kinds),
        matrix=device.matrix,
        matrix_units=device.engine(device.matrix_kind).count if device.matrix else 0,
    )


def bottleneck(route: Sequence[Link]) -> int:
    """The bytes per cycle of the slowest link of a route (0 for an empty route)."""
    return min((link.bytes_per_cycle for link in route if link.bytes_per_cycle), default=0)


def _level(device: Device, kind: str) -> MemoryLevel:
    node = device.instances(kind)[0]
    port = device.memory(kind).port_bandwidth
    out = sum(link.bytes_per_cycle or 0 for link in device.links if link.source is node)
    into = sum(link.bytes_per_cycle or 0 for link in device.links if link.target is node)
    return MemoryLevel(
        kind,
        device.memory(kind).count,
        min(out, port) if port else out,
        min(into, port) if port else into,
    )
