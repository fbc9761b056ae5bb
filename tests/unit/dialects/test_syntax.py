"""The custom-syntax pieces the dialects share, and how verifier errors and devices print.

Affine subscripts over SSA ids are read by one parser wherever they are written
(``affine.load``, ``ktdp.construct_access_tile``, ``ktdf.data_transfer``): random
subscripts printed by ``print_affine_subscripts`` read back to the same function of the
same SSA values, and print as they read. The other pieces (angle-bracket enums, the
attr-dict split, stripped types, bodies, isolated regions) are checked on the ops that
use them. Verifier errors of ktc's IR dialects read ``'<op>' op <message>`` with the
context of a failed constraint kept; a device prints its resources without the
``ktdf_arch.`` prefix, and a group's shared memories under their outer names.
"""

import re
from io import StringIO

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import IndexType, UnitAttr
from xdsl.ir import Block
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from ktc.dialects import context
from ktc.dialects.diagnostics import KtcError
from ktc.dialects.ktdf import BufferPhaseOp, DataTransferOp, FifoSlotType
from ktc.dialects.ktdf_arch import DeviceOp
from ktc.dialects.ktdp import AccessTileType, ConstructAccessTileOp
from ktc.dialects.printer import MlirPrinter, SsaNames, print_ir
from ktc.dialects.source import parse_module, verify_module
from ktc.dialects.syntax import (
    AngleBracketEnum,
    parse_affine_access,
    parse_attr_dict,
    parse_body,
    parse_optional_affine_access,
    parse_stripped_type,
    print_affine_subscripts,
    print_attr_dict,
    print_stripped_type,
)
from ktc.dialects.upstream import LoadOp

DIM_NAMES, SYMBOL_NAMES = ("i", "j", "k"), ("n", "m")


def _parser(text: str) -> Parser:
    return Parser(context(), text)


def _printed(print_with) -> str:
    out = StringIO()
    print_with(Printer(stream=out))
    return out.getvalue()


# ---------------------------------------------------------------- affine subscripts


def _subscripts() -> st.SearchStrategy[AffineExpr]:
    """Sums of scaled variables, floordiv / ceildiv / mod of such sums, and constants."""
    variable = st.one_of(
        st.integers(0, len(DIM_NAMES) - 1).map(AffineExpr.dimension),
        st.integers(0, len(SYMBOL_NAMES) - 1).map(AffineExpr.symbol),
    )
    term = st.builds(lambda v, c: v * c, variable, st.integers(-3, 3))
    linear = st.builds(
        lambda terms, c: sum(terms, start=AffineExpr.constant(c)),
        st.lists(term, min_size=1, max_size=3),
        st.integers(-9, 9),
    )
    divisor = st.integers(1, 6)
    return st.one_of(
        linear,
        st.builds(lambda e, c: e // c, linear, divisor),
        st.builds(lambda e, c: e.ceil_div(c), linear, divisor),
        st.builds(lambda e, c: e % c, linear, divisor),
        st.builds(lambda a, b: a + b * 2, linear, st.builds(lambda e, c: e % c, linear, divisor)),
    )


VALUES = st.fixed_dictionaries({name: st.integers(-30, 30) for name in DIM_NAMES + SYMBOL_NAMES})


def _text_of(amap: AffineMap, names: tuple[str, ...]) -> str:
    """``[...]``: ``amap`` printed over SSA values named ``names`` (dims, then symbols)."""
    block = Block(arg_types=[IndexType()] * len(names))
    for argument, name in zip(block.args, names):
        argument.name_hint = name
    out = StringIO()
    printer = Printer(stream=out)
    with printer.in_square_brackets():
        print_affine_subscripts(printer, amap, block.args)
    return out.getvalue()


@settings(max_examples=200, deadline=None)
@given(exprs=st.lists(_subscripts(), min_size=1, max_size=3), values=VALUES)
def test_printed_subscripts_read_back_to_the_same_function_of_the_same_values(exprs, values):
    """Reading numbers the ids anew, in order of first use, so a sum printed in MLIR's
    order may print in another once read (``symbol(%n) + symbol(%m)`` as
    ``symbol(%m) + symbol(%n)``); from then on the text stays as it is."""
    amap = AffineMap(len(DIM_NAMES), len(SYMBOL_NAMES), tuple(exprs))
    text = _text_of(amap, DIM_NAMES + SYMBOL_NAMES)

    parsed, operands = parse_affine_access(_parser(text))

    names = [operand.span.text[1:] for operand in operands]
    dims, symbols = names[: parsed.num_dims], names[parsed.num_dims :]
    assert set(dims) <= set(DIM_NAMES) and set(symbols) <= set(SYMBOL_NAMES)
    expected = amap.eval([values[n] for n in DIM_NAMES], [values[n] for n in SYMBOL_NAMES])
    assert parsed.eval([values[n] for n in dims], [values[n] for n in symbols]) == expected
    reprinted = _text_of(parsed, tuple(names))
    again, operands = parse_affine_access(_parser(reprinted))
    assert _text_of(again, tuple(operand.span.text[1:] for operand in operands)) == reprinted


def test_ids_are_numbered_in_order_of_first_use_and_results_told_apart():
    amap, operands = parse_affine_access(
        _parser("[%r#1 * 2 + symbol(%n), %a - %r#1 floordiv 4, %r#0, symbol(%n)]")
    )
    assert [(operand.span.text, operand.index) for operand in operands] == [
        ("%r", 1), ("%a", 0), ("%r", 0), ("%n", 0)
    ]
    d0, d1, d2, s0 = (*map(AffineExpr.dimension, range(3)), AffineExpr.symbol(0))
    assert amap == AffineMap(3, 1, (d0 * 2 + s0, d1 - d0 // 4, d2, s0))


def test_subscripts_are_optional_only_where_asked():
    assert parse_optional_affine_access(_parser("size [1]")) is None
    with pytest.raises(ParseError, match=r"Expected '\['"):
        parse_affine_access(_parser("size [1]"))


@pytest.mark.parametrize(
    "subscripts, message",
    [
        ("[%i * %j]", "non-affine expression: '*' needs a constant operand"),
        ("[%i mod %j]", "non-affine expression: 'mod' needs a constant operand"),
        ("[%i +]", "expected an SSA value, an integer or '('"),
        ("[symbol(%i + 1)]", "Expected ')'"),
        ("[(%i]", "Expected ')'"),
    ],
)
def test_malformed_subscripts_are_parse_errors(subscripts, message):
    with pytest.raises(ParseError, match=re.escape(message)):
        parse_affine_access(_parser(subscripts))


SUBSCRIPTS = "%r#1 * 2 + %i, %j floordiv 4 - 1"
TILE_SET = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>"
ACCESSES = f"""
func.func @f(%m: memref<64x64xf16>, %b: memref<64x64xf16>, %i: index, %j: index) {{
  %r:2 = ktdp.get_compute_tile_id : index, index
  %v = affine.load %m[{SUBSCRIPTS}] : memref<64x64xf16>
  %t = ktdp.construct_access_tile %m[{SUBSCRIPTS}] {{
    access_tile_set = {TILE_SET}, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  }} : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
  ktdf.data_transfer from %m[{SUBSCRIPTS}] size [1, 64] to %b[0, 0] size [1, 64]
      : memref<64x64xf16>, memref<64x64xf16>
  return
}}
"""


def test_every_op_with_subscripts_reads_and_prints_them_alike():
    module = parse_module(ACCESSES, "accesses.mlir")
    verify_module(module)
    load, tile, transfer = (
        next(op for op in module.walk() if isinstance(op, kind))
        for kind in (LoadOp, ConstructAccessTileOp, DataTransferOp)
    )
    accesses = [
        (load.map, list(load.indices)),
        (tile.base_map, list(tile.indices)),
        (transfer.source_map, list(transfer.source_indices)),
    ]
    assert accesses[0] == accesses[1] == accesses[2]
    printed = print_ir(module)
    assert printed.count(f"%m[{SUBSCRIPTS}]") == 3


# ---------------------------------------------------------------- the other pieces


@pytest.mark.parametrize(
    "text",
    [
        "#spyreop.reduction_kind<abs_max>",
        "#spyreop.reduction_scope<in_slice>",
        "#spyreop.compare_predicate<lesserequal>",
        "#dfir.compute_kind<fma>",
        "#ktdf.loop_type<reduction_loop>",
        "#ktdp.runtime_arg_extract_kind<upperbound>",
    ],
)
def test_enum_attributes_are_written_in_angle_brackets(text):
    attribute = _parser(text).parse_attribute()
    assert isinstance(attribute, AngleBracketEnum)
    assert _printed(lambda printer: printer.print_attribute(attribute)) == text


def test_an_enum_value_outside_the_enum_is_named_with_the_choices():
    with pytest.raises(ParseError, match="Expected `parallel_loop`, or `reduction_loop`."):
        _parser("#ktdf.loop_type<sideways_loop>").parse_attribute()


def test_the_attr_dict_splits_into_properties_and_attributes():
    properties, attributes = parse_attr_dict(_parser("{num_phases = 2, note}"), BufferPhaseOp)
    assert list(properties) == ["num_phases"]
    assert attributes == {"note": UnitAttr()}


def test_the_attr_dict_prints_sorted_without_what_the_syntax_spells_itself():
    op = DataTransferOp.create(
        properties={
            "static_source_sizes": _parser("array<i64: 4>").parse_attribute(),
            "operandSegmentSizes": _parser("array<i32: 1, 0, 0, 1, 0, 0>").parse_attribute(),
        },
        attributes={"zeta": UnitAttr(), "alpha": UnitAttr()},
    )
    assert _printed(lambda printer: print_attr_dict(printer, op)) == (
        " {alpha, static_source_sizes = array<i64: 4>, zeta}"
    )
    assert _printed(lambda printer: print_attr_dict(printer, op, ("static_source_sizes",))) == (
        " {alpha, zeta}"
    )


@pytest.mark.parametrize("text", ["<2x64xindex>", "!ktdp.access_tile<2x64xindex>"])
def test_a_stripped_type_reads_in_both_spellings(text):
    parsed = parse_stripped_type(_parser(text), AccessTileType)
    assert parsed == AccessTileType([2, 64])
    assert _printed(lambda printer: print_stripped_type(printer, parsed, AccessTileType)) == (
        "<2x64xindex>"
    )


def test_a_stripped_type_that_does_not_verify_is_reported_where_it_is_written():
    with pytest.raises(ParseError) as error:
        parse_stripped_type(_parser('<"A" -> "B", 0xf16>'), FifoSlotType)
    assert "fifo slot must hold at least one element, got 0" in str(error.value)
    assert error.value.span.start == 0


def test_a_type_of_another_kind_prints_in_full():
    tensor = _parser("tensor<2xf16>").parse_type()
    assert _printed(lambda printer: print_stripped_type(printer, tensor, AccessTileType)) == (
        "tensor<2xf16>"
    )


def test_an_empty_body_still_has_its_block():
    body = parse_body(_parser("{\n}"))
    assert len(body.blocks) == 1 and not body.block.ops


GROUP = """
ktdf_arch.device @d {
  %ddr = memory {kind = "DDR"}
  %units = group share(%ddr) {
    %ddr2 = memory {kind = "L1"}
    %dma = exec_unit {kind = "DMA"}
    datapath %ddr to %dma : memory, exec_unit
    yield %dma
  } -> exec_unit
  patterns {
    pdl.pattern @p : benefit(1) {
      %root = operation "arith.addi"
      rewrite %root {
        erase %root
      }
    }
  }
}
"""


def test_an_isolated_region_names_its_values_afresh():
    text = '%ddr = "test.op"() : () -> i32\n' + GROUP
    module = parse_module(text, "group.mlir", context(allow_unregistered=True))
    assert isinstance(module.ops.last, DeviceOp)


def test_an_isolated_region_does_not_see_the_values_above():
    text = '%hbm = "test.op"() : () -> !ktdf_arch.memory\n' + GROUP.replace(
        "datapath %ddr", "datapath %hbm"
    )
    with pytest.raises(KtcError, match="use of undeclared SSA value name %hbm"):
        parse_module(text, "group.mlir", context(allow_unregistered=True))


# ---------------------------------------------------------------- diagnostics and printing


def _verify_error(text: str) -> str:
    module = parse_module(text, "bad.mlir", context(allow_unregistered=True))
    with pytest.raises(KtcError) as error:
        verify_module(module)
    return error.value.message


def test_an_op_verifier_error_is_worded_as_mlir_words_it():
    message = _verify_error("func.func @f() {\n  ktdf.signal\n  return\n}")
    assert message == "'ktdf.signal' op requires at least one unit"


def test_a_ktdp_verifier_error_names_its_op_once():
    message = _verify_error(
        "func.func @f(%t: !ktdp.access_tile<2x64xindex>) {\n"
        "  %v = ktdp.load %t : <2x64xindex> -> tensor<2x32xf16>\n  return\n}"
    )
    assert message == "'ktdp.load' op access tile shape must match result tensor shape"


def test_a_message_that_names_its_op_already_is_kept():
    message = _verify_error('"dfir.unit"() : () -> !dfir.unit<"sfu">')
    assert message == "'dfir.unit' expects parent op 'dfir.dataflow'"


def test_a_failed_constraint_keeps_what_it_checked_on_one_line():
    message = _verify_error(
        "func.func @f(%x: f16) {\n"
        '  %r = "spyreop.slice_reduction"(%x) {reduction_kind = #spyreop.reduction_kind<add>,'
        " reduction_scope = #spyreop.reduction_scope<in_slice>} : (f16) -> f16\n  return\n}"
    )
    assert message == (
        "'spyreop.slice_reduction' op operand 'input' at position 0 does not verify: "
        "f16 should be of base attribute tensor"
    )


def test_a_device_prints_its_resources_without_the_dialect_prefix():
    printed = print_ir(parse_module(GROUP, "group.mlir"))
    assert '  ktdf_arch.device @d {\n    %ddr = memory {kind = "DDR"}\n' in printed
    assert '    %units = group share(%ddr) {\n      %ddr2 = memory {kind = "L1"}\n' in printed
    assert "      datapath %ddr to %dma : memory, exec_unit\n" in printed
    assert "    patterns {\n      pdl.pattern @p" in printed


def test_a_group_shares_its_memories_under_their_outer_names():
    module = parse_module(GROUP, "group.mlir")
    group = next(op for op in module.walk() if op.name == "ktdf_arch.group")
    shared = group.body.block.args[0]
    printer = MlirPrinter(StringIO(), False, SsaNames.of(module))
    printer.print_ssa_value(shared)
    printer.shadow_region_args(group.body, ["ddr"])
    printer.print_string(" ")
    printer.print_ssa_value(shared)
    assert printer.stream.getvalue() == "%ddr_0 %ddr"
