"""Custom-syntax pieces that ktc's dialects share.

- ``AngleBracketEnum``: an enum attribute written ``#dialect.name<value>``.
- ``parse_attr_dict`` / ``print_attr_dict``: one alphabetical attr-dict holding an
  op's properties and attributes, split back MLIR's way when read;
  ``parse_attributes_with_keyword``: ``attributes {...}`` before a region.
- ``parse_stripped_type`` / ``print_stripped_type``: a type that a declarative MLIR
  format prints without its ``!dialect.name`` prefix (``<2x64xindex>``); both
  spellings read.
- ``parse_body`` / ``print_body``: a one-block region printed without its entry
  arguments; ``parse_optional_isolated_region``: a region with its own SSA names.
- Affine subscripts over SSA ids (``%v[%i * 2 + %j, symbol(%n)]``), as MLIR's
  ``parseAffineMapOfSSAIds`` reads them: a bare ``%x`` is a dimension,
  ``symbol(%x)`` a symbol, each distinct id numbered in order of first use.
  ``parse_ssa_affine_expr`` reads one expression, ``parse_affine_access`` (or
  ``parse_optional_affine_access``) a bracketed list into an affine map and its
  operands, and ``print_affine_subscripts`` prints a map's results with each variable
  spelled as its SSA value.
"""

import operator
from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.ir import Attribute, Block, Operation, ParametrizedAttribute, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ktc.dialects.printer import affine_subscript_tokens

SEGMENTS = AttrSizedOperandSegments.attribute_name
"""The entry ``AttrSizedOperandSegments`` adds to an op (a property or an attribute),
which custom syntax never shows."""

# ---------------------------------------------------------------------------------
# Enumerations
# ---------------------------------------------------------------------------------


class AngleBracketEnum:
    """Prints and parses an enum attribute as ``#dialect.name<value>``; mixed in
    before ``EnumAttribute[...]``."""

    enum_type: ClassVar[type[StrEnum]]
    data: StrEnum

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> StrEnum:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(cls.enum_type)


# ---------------------------------------------------------------------------------
# Attribute dictionaries
# ---------------------------------------------------------------------------------


def parse_attr_dict(
    parser: Parser, op_type: type[IRDLOperation]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """The optional attr-dict, split MLIR's way into (properties, attributes): the
    entries ``op_type`` defines as properties become properties."""
    entries = parser.parse_optional_attr_dict()
    inherent = op_type.get_irdl_definition().properties
    properties = {name: value for name, value in entries.items() if name in inherent}
    attributes = {name: value for name, value in entries.items() if name not in inherent}
    return properties, attributes


def print_attr_dict(printer: Printer, op: Operation, elided: Sequence[str] = ()) -> None:
    """Properties and attributes in one alphabetical attr-dict, leaving out ``elided``
    (what the custom syntax spells itself) and the operand segment sizes."""
    entries = {**op.properties, **op.attributes}
    hidden = {*elided, SEGMENTS}
    printer.print_op_attributes(
        {name: entries[name] for name in sorted(entries) if name not in hidden}
    )


def parse_attributes_with_keyword(parser: Parser) -> dict[str, Attribute]:
    """``attributes {...}`` if present, else no attributes."""
    attributes = parser.parse_optional_attr_dict_with_keyword()
    return dict(attributes.data) if attributes else {}


# ---------------------------------------------------------------------------------
# Types written without their prefix
# ---------------------------------------------------------------------------------


def parse_stripped_type(parser: Parser, cls: type[ParametrizedAttribute]) -> Attribute:
    """A type written in full (``!ktdp.access_tile<...>``, or any other type) or, when
    it is a ``cls``, with its prefix stripped (``<...>``), as MLIR prints it inside
    declarative op formats. A stripped type that fails its verifier is reported
    where it is written."""
    if (written := parser.parse_optional_type()) is not None:
        return written
    start = parser.pos
    parameters = cls.parse_parameters(parser)
    try:
        return cls.new(parameters)
    except VerifyException as err:
        parser.raise_error(str(err), start, parser.pos)


def print_stripped_type(
    printer: Printer, attr: Attribute, cls: type[ParametrizedAttribute]
) -> None:
    """A ``cls`` without its ``!dialect.name`` prefix; any other type in full."""
    if isinstance(attr, cls):
        attr.print_parameters(printer)
        return
    printer.print_attribute(attr)


# ---------------------------------------------------------------------------------
# Regions
# ---------------------------------------------------------------------------------


def parse_body(parser: Parser, arguments: Sequence[Parser.Argument] | None = None) -> Region:
    """A region of one block, which may be written empty (``{ }``): it still gets its
    block."""
    region = parser.parse_region(arguments)
    if not region.blocks:
        region.add_block(Block())
    return region


def print_body(printer: Printer, region: Region, terminators: bool = True) -> None:
    """`` { ... }``: a one-block region without its entry arguments (the op's syntax
    names them) and, with ``terminators`` off, without its terminator."""
    printer.print_string(" ")
    printer.print_region(
        region,
        print_entry_block_args=False,
        print_empty_block=False,
        print_block_terminators=terminators,
    )


def parse_optional_isolated_region(
    parser: Parser, arguments: Sequence[Parser.Argument] | None = None
) -> Region | None:
    """A region that sees no value from above (of an ``IsolatedFromAbove`` op), so
    its values and arguments may reuse outer names, as in MLIR.

    A value used above and not yet defined stays undefined inside (an argument of the
    same name does not define it); one used inside and never defined there is an error.
    """
    outer, parser.ssa_values = parser.ssa_values, {}
    outer_forward, parser.forward_ssa_references = parser.forward_ssa_references, {}
    try:
        region = parser.parse_optional_region(arguments)
    finally:
        parser.ssa_values = outer
        undefined = parser.forward_ssa_references
        parser.forward_ssa_references = {**undefined, **outer_forward}
    if undefined:
        names = ", ".join(f"%{name}" for name in undefined)
        parser.raise_error(f"values used but not defined: [{names}]")
    return region


# ---------------------------------------------------------------------------------
# Affine subscripts over SSA ids
# ---------------------------------------------------------------------------------

Variable = Callable[[UnresolvedOperand, bool], AffineExpr]
"""What an SSA id in an affine expression stands for, given whether it was written
as ``symbol(...)``."""

_PRODUCTS = {
    "*": operator.mul,
    "floordiv": operator.floordiv,
    "ceildiv": AffineExpr.ceil_div,
    "mod": operator.mod,
}


def parse_ssa_affine_expr(parser: Parser, variable: Variable) -> AffineExpr:
    """An affine expression whose variables are SSA ids (``%i * 2 + symbol(%n)``);
    ``variable`` gives the expression standing for each id."""

    def primary() -> AffineExpr:
        if parser.parse_optional_punctuation("(") is not None:
            inner = expression()
            parser.parse_punctuation(")")
            return inner
        if parser.parse_optional_punctuation("-") is not None:
            return -primary()
        value = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
        if value is not None:
            return AffineExpr.constant(value)
        if parser.parse_optional_keyword("symbol") is not None:
            parser.parse_punctuation("(")
            operand = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
            return variable(operand, True)
        operand = parser.parse_unresolved_operand("expected an SSA value, an integer or '('")
        return variable(operand, False)

    def term() -> AffineExpr:
        lhs = primary()
        while (product := _parse_optional_product(parser)) is not None:
            start = parser.pos
            rhs = primary()
            try:
                lhs = _PRODUCTS[product](lhs, rhs)
            except NotImplementedError:
                message = f"non-affine expression: '{product}' needs a constant operand"
                parser.raise_error(message, start, parser.pos)
        return lhs

    def expression() -> AffineExpr:
        lhs = term()
        while True:
            if parser.parse_optional_punctuation("+") is not None:
                lhs = lhs + term()
            elif parser.parse_optional_punctuation("-") is not None:
                lhs = lhs - term()
            else:
                return lhs

    return expression()


def _parse_optional_product(parser: Parser) -> str | None:
    """The operator of an affine product, if one follows."""
    return parser.parse_optional_punctuation("*") or parser.parse_optional_keyword_in(
        ("floordiv", "ceildiv", "mod")
    )


def ssa_key(operand: UnresolvedOperand) -> tuple[str, int]:
    """What tells two SSA uses of the same value: its name and result number."""
    return operand.span.text, operand.index


class SsaIds:
    """The SSA ids met in affine subscripts: the dimensions and the symbols, each
    numbered in order of first use. ``variable`` is the ``Variable`` that numbers them."""

    def __init__(self) -> None:
        self.dims: dict[tuple[str, int], UnresolvedOperand] = {}
        self.symbols: dict[tuple[str, int], UnresolvedOperand] = {}

    def variable(self, operand: UnresolvedOperand, is_symbol: bool) -> AffineExpr:
        ids = self.symbols if is_symbol else self.dims
        ids.setdefault(ssa_key(operand), operand)
        position = list(ids).index(ssa_key(operand))
        return AffineExpr.symbol(position) if is_symbol else AffineExpr.dimension(position)

    def map(self, results: Sequence[AffineExpr]) -> AffineMap:
        return AffineMap(len(self.dims), len(self.symbols), tuple(results))

    def operands(self) -> list[UnresolvedOperand]:
        """The map's operands in MLIR's order: dimensions, then symbols."""
        return [*self.dims.values(), *self.symbols.values()]


def parse_optional_affine_access(
    parser: Parser,
) -> tuple[AffineMap, list[UnresolvedOperand]] | None:
    """``[subscript, ...]`` if present: the subscripts as one affine map over the SSA
    ids they use, and those ids (dimensions, then symbols), still to be resolved."""
    ids = SsaIds()
    results = parser.parse_optional_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parse_ssa_affine_expr(parser, ids.variable)
    )
    return None if results is None else (ids.map(results), ids.operands())


def parse_affine_access(parser: Parser) -> tuple[AffineMap, list[UnresolvedOperand]]:
    """``[subscript, ...]``, as ``parse_optional_affine_access`` reads it."""
    return parser.expect(lambda: parse_optional_affine_access(parser), "Expected '['")


def print_affine_subscripts(
    printer: Printer, amap: AffineMap, operands: Sequence[SSAValue]
) -> None:
    """The results of ``amap``, comma separated, as MLIR prints them, with each
    variable spelled as the SSA value it stands for: a dimension as ``%x``, a symbol
    as ``symbol(%x)``."""

    def subscript(expr: AffineExpr) -> None:
        for token in affine_subscript_tokens(expr, amap.num_dims):
            if isinstance(token, str):
                printer.print_string(token)
            elif token < amap.num_dims:
                printer.print_ssa_value(operands[token])
            else:
                printer.print_string("symbol(")
                printer.print_ssa_value(operands[token])
                printer.print_string(")")

    printer.print_list(amap.results, subscript)
