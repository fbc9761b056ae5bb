"""Every example and every in-scope corpus kernel goes through ``ktir-to-dfir`` on
spyre, toy and the third test chip and ends in DataflowIR that verifies: each program
module holds host code and one ``dfir.dataflow`` with a program per engine kind, no
ScheduleIR is left, and every FIFO and sync id pairs a send with a receive."""

from collections import Counter
from pathlib import Path

import pytest

from conftest import CORPUS_IN_SCOPE, DEVICES, EXAMPLES, corpus_kernel, run_pipeline, refused
from ktc.dialects.dfir import DataflowOp, ProgramOp


def _copies_only(programs: list[ProgramOp]) -> bool:
    """One program that only copies (a copy kernel on a device whose one DMA engine
    kind moves data both ways)."""
    return not any(op.name in ("dfir.send", "dfir.receive", "dfir.compute")
                   for program in programs for op in program.walk())


def check_dataflow(module) -> None:
    dataflows = [op for op in module.walk() if isinstance(op, DataflowOp)]
    assert dataflows, "no dfir.dataflow was built"
    assert not [op for op in module.walk() if op.name.startswith("ktdf.")], "ScheduleIR left"
    for dataflow in dataflows:
        programs = [op for op in dataflow.body.block.ops if isinstance(op, ProgramOp)]
        assert programs
        assert len(programs) >= 2 or _copies_only(programs)
        ends = Counter((op.name, op.id.value.data) for op in dataflow.walk()
                       if op.name in ("dfir.send", "dfir.receive", "dfir.sync_send", "dfir.sync_recv"))
        for (name, ident), count in ends.items():
            partner = {"dfir.send": "dfir.receive", "dfir.receive": "dfir.send",
                       "dfir.sync_send": "dfir.sync_recv", "dfir.sync_recv": "dfir.sync_send"}[name]
            assert count == 1 and ends[(partner, ident)] == 1, (name, ident)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("example", EXAMPLES)
def test_example_lowers(example, device: str):
    refused(example.stem, device)
    check_dataflow(run_pipeline(example, device, "ktir-to-dfir"))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", CORPUS_IN_SCOPE)
def test_corpus_kernel_lowers(name: str, device: str):
    refused(Path(name).stem, device)
    check_dataflow(run_pipeline(corpus_kernel(name), device, "ktir-to-dfir"))
