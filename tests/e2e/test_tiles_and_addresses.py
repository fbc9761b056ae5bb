"""tile-size-selection, address-assignment and normalize-grid-to-1d on every example
and in-scope corpus kernel, on spyre, toy and the third test chip, after the
scheduling passes before them: no tile size is left open, every buffer in a
device memory has an aligned address and fits beside the buffers it lives with,
and every grid is one-dimensional."""

from pathlib import Path

import pytest
from xdsl.dialects import memref
from xdsl.dialects.builtin import ArrayAttr
from xdsl.dialects.func import FuncOp

from conftest import CORPUS_IN_SCOPE, DEVICES, EXAMPLES, corpus_kernel, pipeline_through, run_pipeline, refused
from ktc.arch.model import device_of
from ktc.dialects.ktdf import ReserveSizeOp, address
from ktc.dialects.ktdp import GetComputeTileIdOp
from ktc.passes.analysis.memory_layout import buffers

SPEC = pipeline_through("normalize-grid-to-1d")
"""ktir-to-dfir up to the lowering."""


def check(module) -> None:
    device = device_of(module)
    assert not [op for op in module.walk() if isinstance(op, ReserveSizeOp)]
    for func in [f for f in module.walk() if isinstance(f, FuncOp) and f.body.blocks]:
        grid = func.attributes.get("grid")
        assert grid is None or (isinstance(grid, ArrayAttr) and len(grid.data) == 1)
        for tile_id in [op for op in func.walk() if isinstance(op, GetComputeTileIdOp)]:
            assert len(tile_id.ids) == 1
        placed = buffers(func, device, {})
        for buffer in placed:
            start = address(buffer.alloc)
            assert start % buffer.alignment == 0
            assert buffer.alignment % device.alignment(buffer.memory.kind) == 0
            assert start + buffer.nbytes <= buffer.memory.size
            for other in placed:
                if other is buffer or other.memory != buffer.memory:
                    continue
                if other.last < buffer.first or buffer.last < other.first:
                    continue
                other_start = address(other.alloc)
                assert other_start + other.footprint <= start or start + buffer.footprint <= other_start
    allocs = [op for op in module.walk() if isinstance(op, memref.AllocOp)]
    assert allocs, "the schedule has no buffers"


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("example", EXAMPLES)
def test_example(example, device: str):
    refused(example.stem, device)
    check(run_pipeline(example, device, SPEC))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", CORPUS_IN_SCOPE)
def test_corpus_kernel(name: str, device: str):
    refused(Path(name).stem, device)
    check(run_pipeline(corpus_kernel(name), device, SPEC))
