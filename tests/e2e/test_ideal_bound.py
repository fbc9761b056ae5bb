"""No simulated run of any example on any test device beats its ideal: the cycles of
reading every array of the launch once and writing it once through device memory at
its bandwidth, plus the least latency of a link at the device-memory port (or the
compute the run issued, spread over every compute engine of the device), as
``docs/simulator.md`` derives it. The ideal's bytes are the arrays' bytes, counted here
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


def port_latency(device) -> int:
    """The least latency of a link that starts or ends at a device-memory node."""
    at_memory = [link.latency or 0 for link in device.links
                 if device.device_memory in (link.source.kind, link.target.kind)]
    return min(at_memory)


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
    transfer = -(-needed // per_cycle) + port_latency(simulator.device)
    assert report.ideal_terms[f"{memory} bandwidth"] == transfer
    assert report.ideal_cycles >= transfer
    assert 0 < report.ideal_cycles <= report.bound_cycles <= report.cycles
    assert report.efficiency == report.ideal_cycles / report.cycles
    assert report.traffic_overhead == report.issued_bytes / needed
