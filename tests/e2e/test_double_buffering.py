"""Double buffering in the end-to-end output of a kernel with two tiles per core.

examples/add.mlir gives each core 8 rows. On toy the cost model itself cuts them into
tiles of one row (8 tiles per core); on spyre it takes all 8 at once, so there the tile
size is forced to 4 rows (``tile-size-selection{sizes=4}``) and the tile loop runs twice.
Through
``ktir-to-dfir`` on spyre, the schedule's tile pipeline rotates (``modulo(size : 2)``)
between two copies of each tile buffer at distinct scratchpad addresses, and in the
DataflowIR the DMA engine writes tile buffers at an address that depends on the tile
loop's iteration: the buffers are not indexed by tile, so only the rotation between
the copies makes it vary.
"""

import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import PassPipeline

from conftest import ROOT
from ktc.arch import attach_device
from ktc.dialects import context
from ktc.dialects.dfir import DmaOp, ProgramOp, ViewOp
from ktc.dialects.ktdf import PipelineOp, SelectMemrefOp
from ktc.dialects.source import parse_module, verify_module
from ktc.passes import all_passes
from ktc.passes.pipeline import expand

CASES = {"spyre": "tile-size-selection{sizes=4}", "toy": "tile-size-selection"}
"""Per device, how the tile size is chosen: forced to half of a core's 8 rows on spyre,
the cost model's own choice on toy."""


def _passes(selection: str) -> list[str]:
    return [
        selection if name == "tile-size-selection" else name
        for name in expand("ktir-to-dfir").split(",")
    ]


def _run(module: ModuleOp, ctx, names: list[str]) -> None:
    spec = ",".join(names)
    PassPipeline.parse_spec(all_passes(), spec).apply(ctx, module)
    verify_module(module)


def _depends_on(value: SSAValue, target: SSAValue) -> bool:
    """Whether ``value`` is computed from ``target`` (through op operands)."""
    pending, seen = [value], set()
    while pending:
        current = pending.pop()
        if current is target:
            return True
        if current in seen or not isinstance(current.owner, Operation):
            continue
        seen.add(current)
        pending += current.owner.operands
    return False


@pytest.fixture(scope="module", params=sorted(CASES))
def compiled(request):
    names = _passes(CASES[request.param])
    cut = names.index("address-assignment") + 1
    ctx = context()
    path = ROOT / "examples" / "add.mlir"
    module = parse_module(path.read_text(), str(path), ctx)
    attach_device(module, request.param)
    _run(module, ctx, names[:cut])
    schedule = module.clone()
    _run(module, ctx, names[cut:])
    return schedule, module


def test_at_least_two_tiles_per_core(compiled):
    schedule, _ = compiled
    chosen = [op.attributes["ktdf.tile_sizes"] for op in schedule.walk()
              if "ktdf.tile_sizes" in op.attributes]
    assert len(chosen) == 1
    (rows_per_tile,) = chosen[0].data["sizes"].get_values()
    assert 8 // rows_per_tile >= 2


def test_schedule_rotates_two_copies_per_tile_buffer(compiled):
    schedule, _ = compiled
    pipelines = [op for op in schedule.walk() if isinstance(op, PipelineOp)]
    rotating = [op for op in pipelines if op.modulo is not None]
    assert rotating and all(op.modulo.value.data == 2 for op in rotating)
    selects = [op for op in schedule.walk() if isinstance(op, SelectMemrefOp)]
    assert len(selects) == 3  # a and b tiles in, the sum tile out
    for select in selects:
        addresses = {copy.owner.attributes["ktdf.address"] for copy in select.candidates}
        assert len(addresses) == 2 and all(isinstance(a, IntegerAttr) for a in addresses)
        loop = select.parent_op()
        assert isinstance(loop, scf.ForOp) and _depends_on(select.phase, loop.body.block.args[0])


def test_dma_destination_alternates_with_the_tile(compiled):
    _, dataflow = compiled
    program = next(
        op for op in dataflow.walk() if isinstance(op, ProgramOp) and op.kind.data == "MNILU"
    )
    tile_loop = next(op for op in program.body.block.ops if isinstance(op, scf.ForOp))
    tile = tile_loop.body.block.args[0]
    destinations = [
        dma.destination.owner for dma in program.walk() if isinstance(dma, DmaOp)
    ]
    assert destinations and all(isinstance(view, ViewOp) for view in destinations)
    assert all(_depends_on(view.address, tile) for view in destinations)
