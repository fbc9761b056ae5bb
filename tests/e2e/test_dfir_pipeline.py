"""Every example and every in-scope corpus kernel goes through ``ktir-to-dfir`` on
spyre, toy and the third test chip and ends in DataflowIR that verifies: each program
module holds host code and one ``dfir.dataflow`` with a program per engine kind, no
ScheduleIR is left, and every FIFO and sync id pairs a send with a receive."""

from collections import Counter
from pathlib import Path

import pytest
from xdsl.passes import PassPipeline
from xdsl.transforms import get_all_passes

from conftest import CORPUS, ROOT
from test_schedule_pipeline import CORPUS_IN_SCOPE, DEVICES, EXAMPLES
from ktc.arch import attach_device
from ktc.dialects import context
from ktc.dialects.dfir import DataflowOp, ProgramOp
from ktc.dialects.source import parse_module, verify_module
from ktc.passes import pass_factories
from ktc.passes.pipeline import expand


def lower(path: Path, device: str):
    ctx = context()
    module = parse_module(path.read_text(), str(path), ctx)
    verify_module(module)
    attach_device(module, device)
    passes = get_all_passes() | pass_factories()
    missing = [name for name in expand("ktir-to-dfir").split(",") if name.split("{")[0] not in passes]
    assert not missing, f"passes of ktir-to-dfir not registered: {missing}"
    PassPipeline.parse_spec(passes, expand("ktir-to-dfir")).apply(ctx, module)
    verify_module(module)
    return module


def check_dataflow(module) -> None:
    dataflows = [op for op in module.walk() if isinstance(op, DataflowOp)]
    assert dataflows, "no dfir.dataflow was built"
    assert not [op for op in module.walk() if op.name.startswith("ktdf.")], "ScheduleIR left"
    for dataflow in dataflows:
        programs = [op for op in dataflow.body.block.ops if isinstance(op, ProgramOp)]
        assert len(programs) >= 2
        ends = Counter((op.name, op.id.value.data) for op in dataflow.walk()
                       if op.name in ("dfir.send", "dfir.receive", "dfir.sync_send", "dfir.sync_recv"))
        for (name, ident), count in ends.items():
            partner = {"dfir.send": "dfir.receive", "dfir.receive": "dfir.send",
                       "dfir.sync_send": "dfir.sync_recv", "dfir.sync_recv": "dfir.sync_send"}[name]
            assert count == 1 and ends[(partner, ident)] == 1, (name, ident)


@pytest.mark.parametrize("device", DEVICES, ids=["spyre", "toy", "line4"])
@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_lowers(example: Path, device: str):
    check_dataflow(lower(example, device))


@pytest.mark.parametrize("device", DEVICES, ids=["spyre", "toy", "line4"])
@pytest.mark.parametrize("name", CORPUS_IN_SCOPE)
def test_corpus_kernel_lowers(name: str, device: str):
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    check_dataflow(lower(path, device))
