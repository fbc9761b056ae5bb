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
from xdsl.passes import PassPipeline
from xdsl.transforms import get_all_passes

from conftest import CORPUS
from ktc.arch import attach_device
from ktc.arch.model import device_of
from ktc.dialects import context
from ktc.dialects.ktdf import ReserveSizeOp
from ktc.dialects.ktdp import GetComputeTileIdOp
from ktc.dialects.source import parse_module, verify_module
from ktc.passes import PASSES, pass_factories
from ktc.passes.address_assignment import ADDRESS, alignment, buffers
from ktc.passes.pipeline import expand
from test_schedule_pipeline import CORPUS_IN_SCOPE, DEVICES, EXAMPLES

BEFORE = [
    "stage-coarsening",
    "reduction-dim-chunking",
    "reduction-loop-exposure",
    "map-reduction-partials",
    "broadcast-promotion",
    "double-buffering",
    "parallelize-loops-across-instances",
]
"""The passes between ktir-to-schedule and tile-size-selection (those that exist)."""

SPEC = ",".join([
    "ktir-to-schedule",
    *(name for name in BEFORE if name in PASSES),
    "tile-size-selection",
    "canonicalize",
    "address-assignment",
    "normalize-grid-to-1d",
])


def compile_to_addresses(path: Path, device: str):
    ctx = context()
    module = parse_module(path.read_text(), str(path), ctx)
    verify_module(module)
    attach_device(module, device)
    PassPipeline.parse_spec(get_all_passes() | pass_factories(), expand(SPEC)).apply(ctx, module)
    verify_module(module)
    return module


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
            address = buffer.alloc.attributes[ADDRESS].value.data
            assert address % buffer.alignment == 0 and buffer.alignment % alignment(device, buffer.memory) == 0
            assert address + buffer.nbytes <= buffer.memory.size
            for other in placed:
                if other is buffer or other.memory != buffer.memory:
                    continue
                if other.last < buffer.first or buffer.last < other.first:
                    continue
                start = other.alloc.attributes[ADDRESS].value.data
                end = start + other.footprint
                assert end <= address or address + buffer.footprint <= start
    allocs = [op for op in module.walk() if isinstance(op, memref.AllocOp)]
    assert allocs, "the schedule has no buffers"


@pytest.mark.parametrize("device", DEVICES, ids=["spyre", "toy", "line4"])
@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example(example: Path, device: str):
    check(compile_to_addresses(example, device))


@pytest.mark.parametrize("device", DEVICES, ids=["spyre", "toy", "line4"])
@pytest.mark.parametrize("name", CORPUS_IN_SCOPE)
def test_corpus_kernel(name: str, device: str):
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    check(compile_to_addresses(path, device))
