"""From IR to the package's data: the kernel signature read from KTIR (pointers with
dtype and shape, symbolic dimensions as expressions over the scalar arguments), the
symbol tables and launch plan read from lowered host code, constants written into the
code at compile time, and host code the launch plan cannot express rejected at its
location."""

import numpy as np
import pytest

from conftest import CORPUS, ROOT
from ktc.codegen.plan import ComputeOnDevice, ComputeOnHost, DataTransfer, Loop, Symbol, evaluate
from ktc.codegen.signature import Argument, Written, signature
from ktc.codegen.symbols import HostValues, launch_sequence
from ktc.dialects.diagnostics import KtcError
from ktc.dialects.source import parse_module, verify_module
from ktc.driver import compile, find_kernel

HALVE = ROOT / "tests" / "lit" / "ktc" / "Inputs" / "halve.mlir"


def kernel_of(text: str, name: str | None = None):
    module = parse_module(text, "k.mlir")
    verify_module(module)
    return module, find_kernel(module, name)


def test_signature_of_an_example():
    _, kernel = kernel_of((ROOT / "examples" / "add.mlir").read_text())
    sig = signature(kernel)
    assert sig.kernel == "add" and sig.grid == (32,)
    a, b, c = (Argument(n, True, "f16", ((256,), (128,))) for n in "abc")
    stored = Written((("arg", 2),), ((256,), (128,)), ((128,), (1,)))
    assert sig.arguments == (a, b, Argument("c", True, "f16", ((256,), (128,)), writes=(stored,)))


def test_symbolic_dimension():
    path = CORPUS / "ktir-cpu" / "triton-ktir" / "vector_add_dynamic_ktir.mlir"
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    _, kernel = kernel_of(path.read_text())
    x, y, out, n = signature(kernel).arguments
    assert x == Argument("x_ptr", True, "f32", ((("arg", 3),),))
    assert n == Argument("n_elements", False, "i32")


def test_launch_sequence_of_halve():
    module, kernel = kernel_of(HALVE.read_text())
    sequence = launch_sequence(module, kernel)
    (dataflow,) = sequence.dataflows
    assert dataflow.name == "halve_rows" and dataflow.params == ("x", "i", "y")
    assert dataflow.symbols[1] == Symbol(2, "y_bytes", (("param", 2), ("param", 1), 64, "mul",
                                                         "add", 2, "mul"))
    (loop,) = sequence.steps
    assert loop == Loop(0, (0,), (("arg", 2),), (2,), (
        ComputeOnHost(0, ((("arg", 0),), (("loop", 0),), (("arg", 1),))),
        DataTransfer(0), ComputeOnDevice(0)))


STATIC = HALVE.read_text().replace(
    "func.call @halve_rows(%x, %y, %i)", "func.call @halve_rows(%c0, %c2, %c0)")


def test_static_addresses_need_no_host_step():
    package = compile(STATIC, "toy", "static.mlir", "halve")
    assert package.dataflows[0].symbols == ()
    loop = package.launch[0]
    assert loop.body == (ComputeOnDevice(0),)
    engine = package.dataflows[0].binary.engines[0]
    assert engine.relocations == ()
    assert int.from_bytes(engine.code[40:48], "little", signed=True) == 0  # (0 + 0 * 64) * 2
    mnisu = package.dataflows[0].binary.engines[4]
    assert int.from_bytes(mnisu.code[40:48], "little", signed=True) == 4  # (2 + 0 * 64) * 2


def test_affine_apply_and_casts_in_host_code():
    text = HALVE.read_text().replace(
        "%row = arith.muli %i, %c64 : index",
        "%i32 = arith.index_cast %i : index to i32\n"
        "  %back = arith.extui %i32 : i32 to i64\n  %idx = arith.index_cast %back : i64 to index\n"
        "  %row = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0 mod 4)>(%idx)[%c2]")
    module, kernel = kernel_of(text)
    symbol = launch_sequence(module, kernel).dataflows[0].symbols[0]
    assert symbol.expr == (("param", 0), ("param", 1), ("wrap", 32), ("zext", 32), 64, "mul",
                           2, 4, "floormod", "add", "add", 2, "mul")


def test_bitcasts_in_host_code_keep_the_bits():
    """An i32 bitcast to f32 holds the float's unsigned storage bits (as a float
    argument travels), and back to i32 the signed value again: -8388608 is -inf."""
    text = HALVE.read_text().replace(
        "%row = arith.muli %i, %c64 : index",
        "%i32 = arith.index_cast %i : index to i32\n"
        "  %f = arith.bitcast %i32 : i32 to f32\n  %back = arith.bitcast %f : f32 to i32\n"
        "  %row = arith.index_cast %back : i32 to index")
    module, kernel = kernel_of(text)
    body = module.walk()
    float_bits = next(op for op in body if op.name == "arith.bitcast").results[0]
    values = HostValues({float_bits.owner.operands[0]: (("param", 0),)})
    as_float = evaluate(values.expr(float_bits), {"param": (-8388608,)})
    assert as_float == int(np.array(-np.inf, np.float32).view(np.uint32)) == 0xFF800000
    symbol = launch_sequence(module, kernel).dataflows[0].symbols[0]
    assert evaluate(symbol.expr, {"param": (0, -8388608)}) == -8388608 * 2


def test_unsupported_host_code():
    text = HALVE.read_text().replace(
        "%row = arith.muli %i, %c64 : index",
        "%row = ktdp.get_compute_tile_id : index")
    module, kernel = kernel_of(text)
    message = "host code cannot compute 'ktdp.get_compute_tile_id'"
    with pytest.raises(KtcError, match=message) as caught:
        launch_sequence(module, kernel)
    assert caught.value.where.startswith("k.mlir:")


def test_kernel_must_be_unambiguous():
    text = HALVE.read_text() + "\nfunc.func @other() {\n  func.return\n}\n"
    with pytest.raises(KtcError, match="found 2: @halve, @other"):
        kernel_of(text)
    assert kernel_of(text, "other")[1].sym_name.data == "other"


def test_a_file_of_several_kernels_compiles_the_one_named_alone():
    """The other kernels of the file are neither checked nor lowered: one the compiler
    refuses does not stop the one chosen, which compiles as it does alone; unnamed,
    the file is refused listing both."""
    add = (ROOT / "examples" / "add.mlir").read_text()
    dynamic = """
func.func @dynamic(%x: index, %n: index) {
  %view = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {
      coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %c0 = arith.constant 0 : index
  %tile = ktdp.construct_access_tile %view[%c0] symbols(%n) {
      access_tile_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>,
      access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<?xindex>
  return
}
"""
    end = add.rindex("}")
    text = add[:end] + dynamic + add[end:]
    with pytest.raises(KtcError, match=r"expected one kernel function with a body, found 2: @add, @dynamic"):
        compile(text, "spyre", "two.mlir")
    with pytest.raises(KtcError, match="tile shapes must be static: give the tile its largest size"):
        compile(text, "spyre", "two.mlir", function="dynamic")
    alone = compile(add, "spyre", "two.mlir")
    chosen = compile(text, "spyre", "two.mlir", function="add")
    assert chosen.signature == alone.signature
    assert [d.binary for d in chosen.dataflows] == [d.binary for d in alone.dataflows]
    assert (chosen.prepare, chosen.launch) == (alone.prepare, alone.launch)
