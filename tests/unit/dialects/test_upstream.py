"""The upstream replacements (``ktc.dialects.upstream``): each dialect's module
replaces exactly the ops the package names for it, keeps xDSL's other ops and
attributes, and every named op is reachable from the package; a compare of tensors
gives a tensor of i1, which a select takes as its condition."""

import re
from importlib import import_module

import pytest
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import TensorType, i1

from ktc.dialects import upstream
from ktc.dialects.diagnostics import KtcError
from ktc.dialects.printer import print_ir
from ktc.dialects.source import parse_module, verify_module


@pytest.mark.parametrize("name", sorted(upstream.OPS))
def test_each_replacement_swaps_the_ops_it_names(name: str):
    module = import_module(f"ktc.dialects.upstream.{name}")
    replaced = upstream.OVERRIDES[name]()
    original = get_all_dialects()[name]()
    ours = {op.__name__ for op in replaced.operations if op.__module__ == module.__name__}
    assert ours == set(upstream.OPS[name])
    assert {op.name for op in replaced.operations} >= {op.name for op in original.operations}
    assert list(replaced.attributes) == list(original.attributes)


@pytest.mark.parametrize("op", [op for ops in upstream.OPS.values() for op in ops])
def test_every_named_op_is_reachable_from_the_package(op: str):
    assert getattr(upstream, op).__name__ == op


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'NoSuchOp'"):
        upstream.NoSuchOp  # noqa: B018


MASKS = """func.func @f(%a: tensor<2x4xf16>, %b: tensor<2x4xf16>, %s: f16) {
  %m = arith.cmpf ult, %a, %b : tensor<2x4xf16>
  %r = arith.select %m, %a, %b : tensor<2x4xi1>, tensor<2x4xf16>
  %c = arith.cmpf oge, %s, %s : f16
  %t = arith.select %c, %a, %b : tensor<2x4xf16>
  func.return
}
"""


def test_a_compare_of_tensors_gives_a_mask_a_select_reads_in_mlir_spelling():
    module = parse_module(MASKS)
    verify_module(module)
    compare, select, scalar_compare, scalar_select = list(module.walk())[2:6]
    assert compare.result.type == TensorType(i1, [2, 4])
    assert scalar_compare.result.type == i1
    assert select.cond.type == TensorType(i1, [2, 4]) and scalar_select.cond.type == i1
    text = print_ir(module)
    for line in MASKS.splitlines()[1:5]:
        assert line.strip() in text
    assert print_ir(parse_module(text)) == text


@pytest.mark.parametrize("text, message", [
    ("%m = arith.constant dense<true> : tensor<4x2xi1>\n"
     "  %r = arith.select %m, %a, %a : tensor<4x2xi1>, tensor<2x4xf16>",
     "condition type tensor<4x2xi1> must be i1 or tensor<2x4xi1>"),
    ('%m = "arith.cmpf"(%a, %a) {predicate = 1 : i64} : (tensor<2x4xf16>, tensor<2x4xf16>) -> i1',
     "result type i1 must be tensor<2x4xi1>, one i1 per compared element"),
])
def test_a_mask_of_another_shape_is_refused(text: str, message: str):
    module = parse_module(f"func.func @f(%a: tensor<2x4xf16>) {{\n  {text}\n  func.return\n}}\n")
    with pytest.raises(KtcError, match=re.escape(message)):
        verify_module(module)
