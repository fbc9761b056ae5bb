"""Assembling DataflowIR: the unit table, relocations, uniform tables, what selected code
does, the disassembly, and the errors a kernel can cause.

What selected control flow computes is checked by executing it: a small interpreter of
the scalar and control instructions (written here from the semantics in docs/isa.md)
records the index registers that reach each ``vld``.
"""

import operator
import re
from pathlib import Path

import pytest

from ktc.arch.model import Device
from ktc.codegen import isa
from ktc.codegen.assemble import assemble, engine_classes
from ktc.codegen.binary import Unit
from ktc.codegen.disasm import disassemble, disassemble_dataflow
from ktc.dialects import dfir
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.source import parse_module

ROOT = Path(__file__).resolve().parents[3]
OPS = ROOT / "tests/lit/dialects/dfir/ops.mlir"
CONTROL = Path(__file__).parent / "inputs/control.mlir"

CLASSES = {"dma": frozenset({"dma"}), "lsu": frozenset({"load", "store"}),
           "sfu": frozenset({"compute"})}
"""The engine classes of the made-up kinds of ops.mlir."""


def dataflow_of(text: str, filename: str = "test.mlir") -> dfir.DataflowOp:
    module = parse_module(text, filename)
    return next(op for op in module.walk() if isinstance(op, dfir.DataflowOp))


def assemble_text(text: str, classes=CLASSES, filename: str = "test.mlir"):
    return assemble(dataflow_of(text, filename), "kernel", classes)


def engine(binary, kind):
    return next(engine for engine in binary.engines if engine.kind == kind)


def bare(text: str) -> str:
    """A disassembly without its ``// file:line:col`` comments."""
    return re.sub(r" *// \S+:\d+:\d+$", "", text, flags=re.MULTILINE)


@pytest.fixture(scope="module")
def scale():
    return assemble_text(OPS.read_text())


def test_unit_table_lists_the_units_in_order(scale):
    assert scale.units[:4] == (Unit("ddr"), Unit("l1", 0), Unit("l1", 1), Unit("dma", 0))
    assert scale.units[-1] == Unit("sfu", 1, 0)
    assert [e.instances for e in scale.engines] == [(3, 4), (5, 6), (7, 8)]


def test_every_engine_round_trips(scale):
    for binary in scale.engines:
        assert isa.encode(isa.decode(binary.code)) == binary.code


def test_symbols_are_relocated_li_immediates_holding_zero(scale):
    dma = engine(scale, "dma")
    program = isa.decode(dma.code)
    starts = isa.offsets(program)
    patched = {}
    for relocation in dma.relocations:
        pc = starts.index(relocation.offset - isa.WORD)
        assert isinstance(program[pc], isa.Li) and program[pc].value == 0
        patched[relocation.symbol] = pc
    assert sorted(patched) == [1, 2]
    assert engine(scale, "lsu").relocations == engine(scale, "sfu").relocations == ()


def test_uniform_tables_hold_per_instance_units_and_constants(scale):
    # dma queries its L1 (units 1, 2), its load/store unit (5, 6), its offset (0, 1024).
    assert engine(scale, "dma").uniforms == ((1, 2), (5, 6), (0, 1024))
    assert engine(scale, "sfu").uniforms == ((5, 6),)


def test_engines_run_only_their_instruction_classes(scale):
    mnemonics = {e.kind: {type(i) for i in isa.decode(e.code)} for e in scale.engines}
    assert isa.Dma in mnemonics["dma"] and isa.Vld not in mnemonics["dma"]
    assert {isa.Vld, isa.Vst, isa.Send, isa.Recv} <= mnemonics["lsu"]
    assert {isa.Vop, isa.Vconst} <= mnemonics["sfu"] and isa.Dma not in mnemonics["sfu"]


def test_disassembly_names_symbols_units_and_indents_loops(scale):
    text = bare(disassemble_dataflow(scale, {1: "x", 2: "y_tail"}))
    assert "    0  ddr\n" in text
    assert 'engine "dma" on dma[0.0], dma[1.0]\n  uniform 0 = [1, 2]\n' in text
    assert "li s2, @x\n" in text and "li s3, @y_tail\n" in text
    assert "    vld v0, d0, 64, [s5, s0]\n" in text
    assert "vop.fma f16, f16, v4, [v1, v3, v2]" in text
    assert "vconst v0, f16, 64, [0x3800]" in text
    unnamed = disassemble(engine(scale, "dma"), scale.units, {})
    assert "li s2, @symbol1" in unnamed


def test_each_instruction_records_where_its_op_was_written():
    """One location per instruction: the ``dfir.dma`` op's for ``dma`` (and ``dmaz``, ``dmai``), the program's
    for the closing ``halt``; the disassembly shows it beside the instruction."""
    module = parse_module(OPS.read_text(), "ops.mlir")
    dataflow = next(op for op in module.walk() if isinstance(op, dfir.DataflowOp))
    dma = engine(assemble(dataflow, "kernel", CLASSES), "dma")
    program = isa.decode(dma.code)
    assert len(dma.locations) == len(program)
    programs = [op for op in dataflow.body.block.ops if isinstance(op, dfir.ProgramOp)]
    copies = [op for op in programs[0].walk() if isinstance(op, dfir.DmaOp)]
    written = [dma.locations[pc] for pc, i in enumerate(program)
               if isinstance(i, isa.Dma | isa.Dmaz | isa.Dmai)]
    assert written == [where(op) for op in copies]
    assert dma.locations[-1] == where(programs[0])
    pc = next(pc for pc, i in enumerate(program) if isinstance(i, isa.Dma))
    line = re.search(rf"^ +{pc}  dma .*$", disassemble(dma, (), {}), re.MULTILINE).group()
    assert line.endswith(f"  // {where(copies[0])}")


# ---------------------------------------------------------------------------------
# What selected code computes


def run(program: list[isa.Instruction]) -> list[tuple[int, ...]]:
    """Executes the scalar and control instructions; the index values of each vld."""
    alu = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
           "cmp.slt": lambda a, b: int(a < b)}
    s: list[int | None] = [None] * 64
    loads, pc, steps = [], 0, 0
    while pc < len(program) and steps < 10_000:
        instruction, pc, steps = program[pc], pc + 1, steps + 1
        match instruction:
            case isa.Li(dst, value):
                s[dst] = value
            case isa.Mov(dst, src):
                s[dst] = s[src]
            case isa.Alu(op, dst, a, b):
                s[dst] = alu[op](s[a], s[b])
            case isa.Loop(var, lower, upper, _, end):
                s[var] = s[lower]
                pc = pc if s[var] < s[upper] else end
            case isa.EndLoop(var, upper, step, body):
                s[var] += s[step]
                pc = body if s[var] < s[upper] else pc
            case isa.Brz(cond, target):
                pc = target if s[cond] == 0 else pc
            case isa.Jmp(target):
                pc = target
            case isa.Halt():
                break
            case isa.Vld(_, _, _, indices):
                loads.append(tuple(s[index] for index in indices))
    return loads


def test_loops_ifs_and_carried_values_compute_what_the_ir_says():
    binary = assemble_text(CONTROL.read_text(), {"lsu": frozenset({"load"})})
    loads = run(isa.decode(binary.engines[0].code))
    assert loads == [
        (0, 1), (1, 1), (1, 2),      # (a, b) -> (b, a + b)
        (1, 3), (3, 1), (1, 3),      # (x, y) -> (y, x): a swap through a temporary
        (2, 3), (3, 1),              # the loops' results
        (5, -6), (8, -3), (8, 0),    # scf.if result, values from outside both loops
        (0, 1, 3, 5, 7), (1, 3, 0, 7, 5), (3, 0, 1, 5, 7),  # (a, b, c) rotate, (d, e) swap
    ]


# ---------------------------------------------------------------------------------
# Errors


def test_an_instruction_the_engine_cannot_run_is_an_error_at_the_op():
    classes = {**CLASSES, "sfu": frozenset({"load", "store"})}
    text = OPS.read_text()
    lines = text.splitlines()
    line = next(k for k, line in enumerate(lines, 1) if "%e = dfir.compute <exp>" in line)
    with pytest.raises(KtcError) as error:
        assemble_text(text, classes, filename="ops.mlir")
    assert error.value.where == f"ops.mlir:{line}:{lines[line - 1].index('%e') + 1}"
    assert "'dfir.compute' needs a compute engine; a 'sfu' engine cannot run vop" \
        in error.value.message


def test_a_kind_the_device_lacks_is_an_error():
    classes = {kind: value for kind, value in CLASSES.items() if kind != "lsu"}
    with pytest.raises(KtcError, match="the device has no engine kind 'lsu'"):
        assemble_text(OPS.read_text(), classes)


LSU_PROGRAM = """
func.func @k(%x: index) {
  dfir.define_symbol 1 = %x : index
  dfir.dataflow {
    %c0 = arith.constant 0 : index
    %l1 = dfir.unit core 0 : !dfir.unit<"l1">
    %lsu = dfir.unit core 0 subcore 0 : !dfir.unit<"lsu">
    %sym = dfir.symbol 1 : index
    %m = dfir.uniform_map [%lsu -> %sym] : !dfir.uniform<"lsu", index>
    dfir.program "lsu" on (%lsu) {
BODY
    }
  }
  func.return
}
"""


def test_a_computed_uniform_value_is_an_error():
    text = LSU_PROGRAM.replace("BODY", '%q = dfir.query %m : !dfir.uniform<"lsu", index>')
    with pytest.raises(KtcError, match="a uniform map holds constants and units"):
        assemble_text(text)


def test_too_many_live_vectors_is_an_error_at_the_op():
    loads = [f"%v{k} = dfir.load %buf[%c0] : memref<64xf16>, vector<8xf16>" for k in range(65)]
    stores = [f"dfir.store %v{k}, %buf[%c0] : memref<64xf16>, vector<8xf16>" for k in range(65)]
    body = "\n".join(['%buf = dfir.view %l1[%c0] : !dfir.unit<"l1"> -> memref<64xf16>',
                      *loads, *stores])
    with pytest.raises(KtcError, match="more than 64 values of register file 'v'"):
        assemble_text(LSU_PROGRAM.replace("BODY", body))


def test_outside_values_are_live_from_the_op_that_first_needs_them():
    """A hundred addresses of the dataflow region, each read by one load and store of
    its own, cannot all be live from the program's start in the 64 scalar registers:
    each is computed once, just before the ops that read it."""
    count = 100
    addresses = "".join(f"    %a{k} = arith.constant {128 * k} : index\n" for k in range(count))
    body = "\n".join(
        f"%b{k} = dfir.view %l1[%a{k}] : !dfir.unit<\"l1\"> -> memref<64xf16>\n"
        f"%v{k} = dfir.load %b{k}[%c0] : memref<64xf16>, vector<8xf16>\n"
        f"dfir.store %v{k}, %b{k}[%c0] : memref<64xf16>, vector<8xf16>" for k in range(count))
    text = LSU_PROGRAM.replace("    dfir.program", addresses + "    dfir.program").replace("BODY", body)
    program = isa.decode(engine(assemble_text(text), "lsu").code)
    immediates = [i.value for i in program if isinstance(i, isa.Li)]
    assert sorted(set(immediates) - {0}) == [128 * k for k in range(1, count)]
    loads = [pc for pc, i in enumerate(program) if isinstance(i, isa.Vld)]
    assert all(isinstance(program[pc - 2], isa.Li) for pc in loads[1:])


def test_an_op_without_an_instruction_is_an_error():
    body = "%f = arith.constant 1.0 : f32\n%g = arith.addf %f, %f : f32"
    with pytest.raises(KtcError, match="'arith.addf' has no instruction"):
        assemble_text(LSU_PROGRAM.replace("BODY", body))


def test_narrow_scalar_arithmetic_is_an_error():
    body = "%a = arith.constant 1 : i32\n%b = arith.addi %a, %a : i32"
    with pytest.raises(KtcError, match="on i32 has no instruction"):
        assemble_text(LSU_PROGRAM.replace("BODY", body))


# ---------------------------------------------------------------------------------
# Engine classes from the device


def test_engine_classes_come_from_the_routing_graph():
    spyre = engine_classes(Device.load("spyre"))
    assert spyre == {"MNILU": {"dma"}, "MNISU": {"dma"}, "RING": {"dma"},
                     "SFU": {"compute", "load", "store"},  # its own SFU_REG memory
                     "L1LU": {"load", "splat"}, "L1SU": {"store"},
                     "PT": {"matrix", "load", "store"}}  # its own PT_ACC accumulators
    line4 = engine_classes(Device.load(ROOT / "tests/lit/arch/Inputs/line4.mlir"))
    assert line4["VPU"] == {"compute", "load", "store", "splat"}
    assert line4["NOC"] == {"dma"}


# ---------------------------------------------------------------------------------
# Coverage of the dialect


def test_every_dfir_op_inside_a_program_has_a_rule():
    from ktc.codegen.select import RULES
    structural = {dfir.DataflowOp, dfir.ProgramOp, dfir.UniformMapOp, dfir.DefineSymbolOp}
    missing = [op.name for op in dfir.DFIR.operations if op not in structural
               and op.name not in RULES]
    assert missing == []


VECTOR_PROGRAMS = """
func.func @k() {
  dfir.dataflow {
    %c0 = arith.constant 0 : index
    %l1 = dfir.unit core 0 : !dfir.unit<"l1">
    %lu = dfir.unit core 0 subcore 0 : !dfir.unit<"lu">
    %sfu = dfir.unit core 0 subcore 0 : !dfir.unit<"sfu">
    dfir.program "lu" on (%lu) {
      %buf = dfir.view %l1[%c0] : !dfir.unit<"l1"> -> memref<4xf16>
      %one = dfir.load %buf[%c0] : memref<4xf16>, vector<1xf16>
      %all = dfir.splat %one : vector<1xf16> -> vector<64xf16>
    }
    dfir.program "sfu" on (%sfu) {
      %x = arith.constant dense<[1.0, 2.0]> : vector<2xf16>
      %w = dfir.convert %x : vector<2xf16> -> vector<2xf32>
      %m = dfir.reduce <max> %w : vector<2xf32> -> vector<1xf32>
      %n = dfir.compute <neg> %m : vector<1xf32>
    }
  }
  func.return
}
"""


def test_reductions_splats_conversions_and_element_constants():
    binary = assemble_text(VECTOR_PROGRAMS, {"lu": frozenset({"load", "splat"}),
                                             "sfu": frozenset({"compute"})})
    text = bare(disassemble_dataflow(binary, {}))
    assert "vld v0, d0, 1, [s0]\n" in text and "vbcast v1, v0, 64\n" in text
    assert "vconst v0, f16, 2, [0x3c00, 0x4000]\n" in text
    assert "vcvt f32, f16, v1, v0\n" in text
    assert "vreduce.max f32, v0, v1\n" in text
    assert "vop.neg f32, f32, v1, [v0]\n" in text


def test_a_splat_needs_a_compute_engine_or_the_splat_feature():
    with pytest.raises(KtcError, match="'dfir.splat' needs a compute or splat engine"):
        assemble_text(VECTOR_PROGRAMS, {"lu": frozenset({"load"}), "sfu": frozenset({"compute"})})
