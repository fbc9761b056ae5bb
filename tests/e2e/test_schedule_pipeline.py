"""Every example and every in-scope corpus kernel goes through ``ktir-to-schedule``
on spyre, toy and the third test chip, ending in a schedule ``verify-schedule``
accepts (the last pass of the pipeline), with the program split, the three-stage
pipeline and the expanded path each visible in the result. (A copy between cores,
``inter-tile-reduce-lowering``'s ring pipeline, is one stage on the interconnect stop;
so is the zeroing of a matrix unit's accumulators, in the unit's own memory, one stage
on the unit.)"""

from pathlib import Path

import pytest
from xdsl.dialects import affine, arith, memref

from conftest import CORPUS_IN_SCOPE, DEVICES, EXAMPLES, corpus_kernel, run_pipeline, refused
from ktc.arch.model import device_of
from ktc.dialects.ktdf import DataTransferOp, PipelineOp, StageOp
from ktc.passes.convert_ktdf_to_dfir.plan import ring_table

ADDRESSING = (affine.ApplyOp, arith.ConstantOp, memref.ReinterpretCastOp)
"""Ops that compute where a copy reads or writes."""


def _copies_only(stage: StageOp) -> bool:
    """A stage that only copies (the index views of a copy moved a run at a time, read
    by the pipelines after it; a contraction's output tile, rounded into the
    scratchpad, copied to its place): copies, and the offsets and views they address."""
    ops = list(stage.body.block.ops)
    return (any(isinstance(op, DataTransferOp) for op in ops)
            and all(isinstance(op, (DataTransferOp, *ADDRESSING)) for op in ops))


def check_schedule(module) -> None:
    programs = [op for op in module.body.block.ops if getattr(op, "sym_name", None)]
    assert any(p.sym_name.data.startswith("local_schedule_") for p in programs)
    pipelines = [op for op in module.walk() if isinstance(op, PipelineOp)]
    assert pipelines, "no ktdf.pipeline was built"
    matrix = device_of(module).matrix_kind
    for pipeline in pipelines:
        stages = [op for op in pipeline.walk() if isinstance(op, StageOp)]
        assert all(stage.applicable_units is not None for stage in stages)
        alone = len(stages) == 1 and (ring_table(stages[0]) is not None
                                      or [u.data for u in stages[0].applicable_units] == [matrix]
                                      or _copies_only(stages[0]))
        assert len(stages) >= 2 or alone


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("example", EXAMPLES)
def test_example_schedules(example, device: str):
    refused(example.stem, device)
    check_schedule(run_pipeline(example, device, "ktir-to-schedule"))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", CORPUS_IN_SCOPE)
def test_corpus_kernel_schedules(name: str, device: str):
    refused(Path(name).stem, device)
    check_schedule(run_pipeline(corpus_kernel(name), device, "ktir-to-schedule"))
