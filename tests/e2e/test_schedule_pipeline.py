"""Every example and every in-scope corpus kernel goes through ``ktir-to-schedule``
on spyre, toy and the third test chip, ending in a schedule ``verify-schedule``
accepts (the last pass of the pipeline), with the program split, the three-stage
pipeline and the expanded path each visible in the result."""

from pathlib import Path

import pytest
from xdsl.passes import PassPipeline
from xdsl.transforms import get_all_passes

from conftest import CORPUS, ROOT
from ktc.arch import attach_device
from ktc.dialects import context
from ktc.dialects.ktdf import PipelineOp, StageOp
from ktc.dialects.source import parse_module, verify_module
from ktc.passes import pass_factories
from ktc.passes.pipeline import expand

DEVICES = ["spyre", "toy", str(ROOT / "tests" / "lit" / "arch" / "Inputs" / "line4.mlir")]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))
CORPUS_IN_SCOPE = [
    "ktir-cpu/triton-ktir/vector_add_ktir.mlir",
    "ktir-cpu/triton-ktir/vector_add_dynamic_ktir.mlir",
    "ktir-cpu/triton-ktir/softmax_fwd_ktir.mlir",
    "ktir-cpu/triton-ktir/layernorm_fwd_ktir.mlir",
    "ktir-cpu/rfc/add-with-control-flow.mlir",
]


def schedule(path: Path, device: str):
    ctx = context()
    module = parse_module(path.read_text(), str(path), ctx)
    verify_module(module)
    attach_device(module, device)
    passes = get_all_passes() | pass_factories()
    PassPipeline.parse_spec(passes, expand("ktir-to-schedule")).apply(ctx, module)
    verify_module(module)
    return module


def check_schedule(module) -> None:
    programs = [op for op in module.body.block.ops if getattr(op, "sym_name", None)]
    assert any(p.sym_name.data.startswith("local_schedule_") for p in programs)
    pipelines = [op for op in module.walk() if isinstance(op, PipelineOp)]
    assert pipelines, "no ktdf.pipeline was built"
    for pipeline in pipelines:
        stages = [op for op in pipeline.walk() if isinstance(op, StageOp)]
        assert len(stages) >= 2 and all(stage.applicable_units is not None for stage in stages)


@pytest.mark.parametrize("device", DEVICES, ids=["spyre", "toy", "line4"])
@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_schedules(example: Path, device: str):
    check_schedule(schedule(example, device))


@pytest.mark.parametrize("device", DEVICES, ids=["spyre", "toy", "line4"])
@pytest.mark.parametrize("name", CORPUS_IN_SCOPE)
def test_corpus_kernel_schedules(name: str, device: str):
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    check_schedule(schedule(path, device))
