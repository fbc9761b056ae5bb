"""Every example and in-scope corpus kernel, lowered by ``ktir-to-dfir`` on spyre, toy
and line4, assembles: each engine's code round-trips through the decoder, every symbol a
program uses is a relocation, the disassembly names every symbol, and every
instruction that moves, computes or signals names the line of the KTIR kernel it came
from (the passes keep source locations through to the binary)."""

import re
from pathlib import Path

import pytest
from xdsl.passes import PassPipeline

from conftest import CORPUS, ROOT, refused
from ktc.arch import attach_device
from ktc.codegen import isa
from ktc.codegen.assemble import assemble
from ktc.codegen.disasm import disassemble_dataflow
from ktc.codegen.select import outside_ops
from ktc.dialects import context, dfir
from ktc.dialects.source import parse_module, verify_module
from ktc.passes import all_passes
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
LOCATED = (isa.Dma, isa.Vld, isa.Vst, isa.Send, isa.Recv, isa.Vop, isa.Vreduce, isa.Vsplat,
           isa.Vbcast, isa.Vcvt, isa.Ssend, isa.Srecv)
"""Instructions that always stand for an op of the kernel."""


def lower(path: Path, device: str):
    passes = all_passes()
    try:
        spec = PassPipeline.parse_spec(passes, expand("ktir-to-dfir"))
    except ValueError as error:  # a pass of the pipeline is not registered yet
        pytest.skip(f"ktir-to-dfir is not available yet: {error}")
    ctx = context()
    module = parse_module(path.read_text(), str(path), ctx)
    attach_device(module, device)
    spec.apply(ctx, module)
    verify_module(module)
    return module


def check_assembles(module, path: Path) -> None:
    dataflows = [op for op in module.walk() if isinstance(op, dfir.DataflowOp)]
    assert dataflows, "the lowering produced no dfir.dataflow"
    for index, dataflow in enumerate(dataflows):
        binary = assemble(dataflow, f"dataflow{index}")
        names = {}
        for program, engine in zip(
                [op for op in dataflow.body.block.ops if isinstance(op, dfir.ProgramOp)],
                binary.engines, strict=True):
            assert isa.encode(isa.decode(engine.code)) == engine.code
            used = {op.id.value.data for op in outside_ops(program)
                    if isinstance(op, dfir.SymbolOp)}
            assert {relocation.symbol for relocation in engine.relocations} == used
            source = re.compile(rf"{re.escape(str(path))}:\d+:\d+")
            assert all(source.fullmatch(location) for location, instruction
                       in zip(engine.locations, isa.decode(engine.code), strict=True)
                       if isinstance(instruction, LOCATED))
            names |= {symbol: f"sym{symbol}" for symbol in used}
        text = disassemble_dataflow(binary, names)
        assert all(f"@sym{symbol}" in text for symbol in names)


@pytest.mark.parametrize("device", DEVICES, ids=["spyre", "toy", "line4"])
@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_assembles(example: Path, device: str):
    refused(example.stem, device)
    check_assembles(lower(example, device), example)


@pytest.mark.parametrize("device", DEVICES, ids=["spyre", "toy", "line4"])
@pytest.mark.parametrize("name", CORPUS_IN_SCOPE)
def test_corpus_kernel_assembles(name: str, device: str):
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    check_assembles(lower(path, device), path)
