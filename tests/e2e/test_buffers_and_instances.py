"""``double-buffering`` and ``parallelize-loops-across-instances`` on every example
and in-scope corpus kernel, on spyre, toy and the third test chip, after the passes
``ktir-to-dfir`` runs before them: the result verifies and ``verify-schedule``
accepts it; every kernel rotates buffers (a double-buffered pipeline, or the
``ktdf.buffer_phase`` of at least two phases a contraction's k tiles rotate through),
since each stages its tiles through the scratchpad in a loop; instances are used only where
the device has sub-cores (spyre: 2), never on toy (1 per core) or line4 (none)."""

from pathlib import Path

import pytest

from conftest import CORPUS_IN_SCOPE, DEVICES, EXAMPLES, corpus_kernel, pipeline_through, run_pipeline, refused
from ktc.arch.model import device_of
from ktc.dialects.ktdf import BufferPhaseOp, ParallelOp, PipelineOp

LAST = "parallelize-loops-across-instances"

def _check(path: Path, device: str) -> None:
    module = run_pipeline(path, device, pipeline_through(LAST) + ",verify-schedule")
    rotating = [op for op in module.walk()
                if isinstance(op, PipelineOp) and op.modulo is not None
                or isinstance(op, BufferPhaseOp) and op.num_phases.value.data >= 2]
    assert rotating, "no pipeline is double buffered"
    instances = {op.num_instances.value.data for op in module.walk() if isinstance(op, ParallelOp)}
    subcores = device_of(module).subcores_per_core
    assert instances <= ({subcores} if subcores > 1 else set())


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("example", EXAMPLES)
def test_example(example, device: str):
    refused(example.stem, device)
    _check(example, device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", CORPUS_IN_SCOPE)
def test_corpus_kernel(name: str, device: str):
    refused(Path(name).stem, device)
    _check(corpus_kernel(name), device)
