"""No simulated run of any example on any test device beats its ideal: the cycles of
reading every array of the launch once and writing it once through device memory at
its bandwidth, plus the least latency of a transfer through the device-memory port; the
round trip of the last byte read (its latency in and the latency out of what depends
on it) after the bytes that must be read, or of the first byte read before those that
must be written, where no engine copies both into and out of device memory; or the compute the run issued, spread over every
compute engine of the device, as ``docs/simulator.md`` derives it. The ideal's bytes are the arrays' bytes, counted here
from the arrays the test passes, capped, for a kernel that gathers, at the bytes the run
issued (it reads only the rows its indices name); the ideal is never above the issued-traffic bound,
and the traffic overhead is the issued bytes over the ideal's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from conftest import DEVICES, EXAMPLES, refused  # noqa: E402
from test_simulator_figures import DEVICE_FILES, SCALARS, inputs  # noqa: E402


TWO_DATAFLOWS = {
    "distributed_rmsnorm": "a launch of two dataflows (the copy into each tile's scratchpad, "
    "then the normalization): the report is the last execution's, and its ideal counts only "
    "the arrays the host wrote after the first one, not all the launch's (a report limitation)",
}


def latencies(device) -> tuple[int, int]:
    """The least summed link latency of a route from device memory into a memory of a
    core, and of one back."""
    home = device.instances(device.device_memory)[0]
    cores = [n for n in device.nodes if n.core is not None and n.kind in device.memory_kinds]

    def route(a, b) -> int:
        return sum(link.latency or 0 for link in device.path(a, b))

    return (min(route(home, n) for n in cores if device.has_path(home, n)),
            min(route(n, home) for n in cores if device.has_path(n, home)))


def one_way_movers(device) -> bool:
    """Whether no engine kind both copies out of device memory and into it."""
    memory = device.device_memory
    readers = {link.target.kind for link in device.links if link.source.kind == memory}
    writers = {link.source.kind for link in device.links if link.target.kind == memory}
    return not readers & writers


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("path", EXAMPLES)
def test_no_run_beats_the_ideal(path: Path, device: str):
    from ktc.driver import compile
    from ktc.sim.simulator import Simulator

    refused(path.stem, device)
    if path.stem in TWO_DATAFLOWS:
        pytest.xfail(TWO_DATAFLOWS[path.stem])

    arch = DEVICE_FILES[Path(device).stem]
    package = compile(path.read_text(), arch, str(path))
    simulator = Simulator(arch)
    arguments = inputs(package.signature, SCALARS.get(path.stem, {}))
    simulator.prepare(package).launch(*arguments)
    report = simulator.report()
    roof = simulator.device.roofline
    arrays = sum(a.nbytes for a in arguments if hasattr(a, "nbytes"))
    gathers = "construct_indirect_access_tile" in path.read_text()
    needed = min(arrays, report.issued_bytes) if gathers else arrays
    assert report.ideal_bytes == needed
    assert report.issued_bytes >= needed
    per_cycle = roof.device_memory_bytes_per_cycle
    memory = simulator.device.device_memory
    into, out_of = latencies(simulator.device)
    transfer = -(-needed // per_cycle) + min(into, out_of)
    assert report.ideal_terms[f"{memory} bandwidth"] == transfer
    assert report.ideal_cycles >= transfer
    written = report.issued_bytes - report.read_bytes
    if report.read_bytes and written and one_way_movers(simulator.device):
        must = max(needed - written, needed - report.read_bytes, 0)
        trip = -(-must // per_cycle) + into + out_of
        assert report.ideal_terms[f"{memory} round trip"] == trip
        assert report.bound_terms[f"{memory} round trip"] == trip
    else:
        assert f"{memory} round trip" not in report.ideal_terms
    assert 0 < report.ideal_cycles <= report.bound_cycles <= report.cycles
    assert report.efficiency == report.ideal_cycles / report.cycles
    assert report.traffic_overhead == report.issued_bytes / needed
