"""Whether a loop's iterations are independent (``passes/analysis/iterations.py``):
rows of buffers indexed by the loop variable are; a loop with iter_args, a tensor kept
in the scratchpad from one iteration to the next, a sum into one accumulator, and
whatever the analysis cannot follow (a view made in the loop, a size known at run
time, a call, a FIFO from outside, overlapping strides, views that may alias) are
carried, each with its reason."""

import pytest
from xdsl.dialects import scf

from ktc.dialects import context
from ktc.dialects.source import parse_module
from ktc.passes.analysis.iterations import carried

ROWS = 'memref<8x64xf16, "L1">'


def _loop(body: str, arguments: str = "", before: str = "", step: str = "%c1") -> scf.ForOp:
    """The outermost loop of a function with buffers %a, %b (8 x 64, in L1) made
    before it and ``body`` in it (loop variable %i)."""
    text = (
        f"func.func @f({arguments}) {{\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c2 = arith.constant 2 : index\n"
        "  %c8 = arith.constant 8 : index\n"
        f"  %a = memref.alloc() : {ROWS}\n"
        f"  %b = memref.alloc() : {ROWS}\n"
        f"{before}"
        f"  scf.for %i = %c0 to %c8 step {step} {{\n{body}  }}\n"
        "  return\n}\n"
    )
    module = parse_module(text, "f.mlir", context())
    return next(op for op in module.walk() if isinstance(op, scf.ForOp))


def _copy(source: str, dest: str, sizes: str = "[1, 64]", types: str = f"{ROWS}, {ROWS}") -> str:
    return f"    ktdf.data_transfer from {source} size {sizes} to {dest} size {sizes} : {types}\n"


def test_rows_indexed_by_the_loop_variable_are_independent():
    assert carried(_loop(_copy("%a[%i, 0]", "%b[%i, 0]"))) is None


def test_a_row_read_and_written_in_place_is_independent():
    """Each iteration updates its own row of %b (read, then written back)."""
    body = _copy("%b[%i, 0]", "%a[%i, 0]") + _copy("%a[%i, 0]", "%b[%i, 0]")
    assert carried(_loop(body)) is None


def test_an_inner_loop_over_the_columns_of_the_row_is_independent():
    body = ("    scf.for %j = %c0 to %c2 step %c1 {\n"
            "      %k = arith.muli %j, %c2 : index\n"
            "    " + _copy("%a[%i, %k]", "%b[%i, %k]", "[1, 32]")
            + "    }\n")
    assert carried(_loop(body)) is None


def test_iter_args_are_carried():
    body = ("    %next = arith.addi %acc, %c1 : index\n"
            "    scf.yield %next : index\n")
    text = (
        "func.func @f() {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c8 = arith.constant 8 : index\n"
        f"  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %c0) -> (index) {{\n{body}  }}\n"
        "  return\n}\n"
    )
    loop = next(op for op in parse_module(text, "f.mlir", context()).walk()
                if isinstance(op, scf.ForOp))
    assert carried(loop) == "the loop carries iter_args"


def test_a_tensor_kept_in_the_scratchpad_across_iterations_is_carried():
    """The resident sum: every iteration reads and writes the whole of %s (a view of
    the scratchpad, not indexed by %i), adding its own row of %a."""
    view = 'memref<64x64xf16, "L1">'
    body = (_copy("%s[0, 0]", "%b[%i, 0]", types=f"{view}, {ROWS}")
            + _copy("%a[%i, 0]", "%s[0, 0]", types=f"{ROWS}, {view}"))
    reason = carried(_loop(body, f"%s: {view}"))
    assert reason == "%s is written in one iteration and read or written in another"


def test_the_rows_of_the_resident_view_are_independent():
    """The same view indexed by the loop variable: each iteration its own row."""
    view = 'memref<64x64xf16, "L1">'
    body = (_copy("%s[%i, 0]", "%b[%i, 0]", types=f"{view}, {ROWS}")
            + _copy("%a[%i, 0]", "%s[%i, 0]", types=f"{ROWS}, {view}"))
    assert carried(_loop(body, f"%s: {view}")) is None


def test_a_sum_into_one_accumulator_is_carried():
    assert carried(_loop(_copy("%a[%i, 0]", "%b[0, 0]"))) is not None


@pytest.mark.parametrize("sizes, step, independent", [
    ("[2, 64]", "%c2", True),   # rows 2i, 2i+1 with i stepping by 2: 2i..2i+1 only
    ("[3, 64]", "%c2", False),  # rows 2i..2i+2 overlap the next iteration's first
    ("[2, 64]", "%c1", False),  # i stepping by 1: rows i..i+1 and i+1..i+2 overlap
])
def test_a_block_of_rows_is_independent_only_when_the_blocks_are_disjoint(sizes, step, independent):
    body = _copy("%a[%i, 0]", "%b[%i, 0]", sizes)
    assert (carried(_loop(body, step=step)) is None) == independent


def test_different_starts_along_the_dimension_are_carried():
    """Iteration i writes row i and reads row i + 1, which iteration i + 1 writes."""
    body = ("    %n = arith.addi %i, %c1 : index\n"
            + _copy("%b[%n, 0]", "%a[%i, 0]") + _copy("%a[%i, 0]", "%b[%i, 0]"))
    assert carried(_loop(body)) is not None


def test_a_view_made_in_the_loop_is_unknown_hence_carried():
    cast = 'memref<1x64xf16, strided<[64, 1], offset: ?>, "L1">'
    body = ("    %o = arith.muli %i, %c8 : index\n"
            f"    %v = memref.reinterpret_cast %b to offset: [%o], sizes: [1, 64], strides: [64, 1]"
            f" : {ROWS} to {cast}\n"
            + _copy("%a[%i, 0]", "%v[0, 0]", types=f"{ROWS}, {cast}"))
    assert carried(_loop(body)) is not None


def test_a_size_known_at_run_time_is_unknown_hence_carried():
    body = ("    ktdf.data_transfer from %a[%i, 0] size [%n, 64] to %b[%i, 0] size [%n, 64]"
            f" : {ROWS}, {ROWS}\n")
    assert carried(_loop(body, "%n: index")) is not None


def test_overlapping_strides_are_unknown_hence_carried():
    """Rows 1 element apart: row i + 1 shares 63 elements with row i."""
    view = 'memref<8x64xf16, strided<[1, 1]>, "L1">'
    body = _copy("%a[%i, 0]", "%s[%i, 0]", types=f"{ROWS}, {view}")
    assert carried(_loop(body, f"%s: {view}")) is not None
    assert carried(_loop(body.replace("[1, 1]", "[64, 1]"), f"%s: {view.replace('[1, 1]', '[64, 1]')}")) is None


def test_views_that_may_alias_are_carried():
    """%s and %t are views of the scratchpad that may overlap: the row of %s each
    iteration writes may be the element of %t every iteration reads."""
    view = 'memref<8x64xf16, "L1">'
    body = (_copy("%t[0, 0]", "%a[%i, 0]", "[1, 1]", f"{view}, {ROWS}")
            + _copy("%b[%i, 0]", "%s[%i, 0]", types=f"{ROWS}, {view}"))
    assert carried(_loop(body, f"%s: {view}, %t: {view}")) is not None


def test_a_call_is_unknown_hence_carried():
    text = (
        "func.func private @g()\n"
        "func.func @f() {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c8 = arith.constant 8 : index\n"
        "  scf.for %i = %c0 to %c8 step %c1 {\n    func.call @g() : () -> ()\n  }\n"
        "  return\n}\n"
    )
    loop = next(op for op in parse_module(text, "f.mlir", context()).walk()
                if isinstance(op, scf.ForOp))
    assert carried(loop) == "the loop calls @g"


def test_a_fifo_from_outside_is_carried():
    slot = '!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>'
    before = f"  %q = ktdf.fifo.allocate() : {slot}\n"
    body = f"    ktdf.data_transfer from %a[%i, 0] size [1, 64] to %q size [1, 64] : {ROWS}, {slot}\n"
    assert carried(_loop(body, before=before)) == "the loop uses a FIFO slot or a token made outside it"
