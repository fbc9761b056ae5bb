"""The phases of a program (``passes/utils/phases.py``): each op's phase ends at the
next op holding compute or at the terminator, and an op inserted after the ends were
found takes the end of the op after it."""

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType
from xdsl.dialects.func import FuncOp
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.dialects import context
from ktc.dialects.source import parse_module
from ktc.passes.utils.phases import PhaseEnds, compute_blocks, compute_loops

PROGRAM = """
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @program(%X: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %view = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %tile = ktdp.construct_access_tile %view[%c0] {access_tile_set = #vec, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  scf.for %i = %c0 to %n step %c1 {
    %x = ktdp.load %tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    ktdp.store %x, %tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
  }
  %between = arith.addi %c0, %c1 : index
  scf.for %i = %c0 to %n step %c1 {
    %k = arith.addi %i, %c1 : index
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = ktdp.load %tile : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    ktdp.store %y, %tile : tensor<64xf16>, !ktdp.access_tile<64xindex>
  }
  %after = arith.addi %c1, %c1 : index
  func.return
}
"""


def _program():
    module = parse_module(PROGRAM, "phases.mlir", context())
    return next(op for op in module.walk() if isinstance(op, FuncOp)).body.block


def test_each_phase_ends_at_the_next_loop_holding_compute_or_the_terminator():
    block = _program()
    ops = list(block.ops)
    first, quiet, second = [op for op in ops if op.name == "scf.for"]
    assert compute_loops(block) == [first, second]
    assert [body for body in compute_blocks(block)] == [block, first.body.block, second.body.block]
    ends = PhaseEnds(block)
    between = next(op for op in ops if op.results and op.results[0].name_hint == "between")
    after = next(op for op in ops if op.results and op.results[0].name_hint == "after")
    assert ends.of(ops[0]) is first
    assert ends.of(between) is second
    assert ends.of(quiet) is second
    assert ends.of(after) is block.last_op


def test_an_op_inserted_later_takes_the_end_of_the_op_after_it():
    block = _program()
    ends = PhaseEnds(block)
    first, _, second = [op for op in block.ops if op.name == "scf.for"]
    inserted = arith.ConstantOp.from_int_and_width(7, IndexType())
    Rewriter.insert_op(inserted, InsertPoint.after(first))
    assert ends.of(inserted) is second
    before_first = arith.ConstantOp.from_int_and_width(8, IndexType())
    Rewriter.insert_op(before_first, InsertPoint.before(first))
    assert ends.of(before_first) is first
