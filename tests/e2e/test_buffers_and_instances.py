"""``double-buffering`` and ``parallelize-loops-across-instances`` on every example
and in-scope corpus kernel, on spyre, toy and the third test chip, after the passes
``ktir-to-dfir`` runs before them: the result verifies and ``verify-schedule``
accepts it; every kernel has a rotating (double-buffered) pipeline, since each
stages its tiles through the scratchpad in a loop; instances are used only where
the device has sub-cores (spyre: 2), never on toy (1 per core) or line4 (none)."""

from pathlib import Path

import pytest
from xdsl.passes import PassPipeline
from xdsl.transforms import get_all_passes

from conftest import CORPUS
from ktc.arch import attach_device
from ktc.arch.model import device_of
from ktc.dialects import context
from ktc.dialects.ktdf import ParallelOp, PipelineOp
from ktc.dialects.source import parse_module, verify_module
from ktc.passes import PASSES, pass_factories
from ktc.passes.pipeline import expand
from test_schedule_pipeline import CORPUS_IN_SCOPE, DEVICES, EXAMPLES

LAST = "parallelize-loops-across-instances"


def _spec() -> str:
    names = expand("ktir-to-dfir").split(",")
    names = names[: names.index(LAST) + 1] + ["verify-schedule"]
    known = PASSES.keys() | get_all_passes().keys()
    missing = [name for name in names if name.split("{")[0] not in known]
    if missing:
        pytest.skip(f"ktir-to-dfir names passes not written yet: {missing}")
    return ",".join(names)


def _check(path: Path, device: str) -> None:
    ctx = context()
    module = parse_module(path.read_text(), str(path), ctx)
    attach_device(module, device)
    PassPipeline.parse_spec(get_all_passes() | pass_factories(), _spec()).apply(ctx, module)
    verify_module(module)
    rotating = [op for op in module.walk() if isinstance(op, PipelineOp) and op.modulo is not None]
    assert rotating, "no pipeline is double buffered"
    instances = {op.num_instances.value.data for op in module.walk() if isinstance(op, ParallelOp)}
    subcores = device_of(module).subcores_per_core
    assert instances <= ({subcores} if subcores > 1 else set())


@pytest.mark.parametrize("device", DEVICES, ids=["spyre", "toy", "line4"])
@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example(example: Path, device: str):
    _check(example, device)


@pytest.mark.parametrize("device", DEVICES, ids=["spyre", "toy", "line4"])
@pytest.mark.parametrize("name", CORPUS_IN_SCOPE)
def test_corpus_kernel(name: str, device: str):
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    _check(path, device)
