"""``affine`` as real KTIR writes it: ``affine.load`` / ``affine.store`` (and the
vector forms) subscripts, where a bare ``%i`` is a dimension and ``symbol(%n)`` a
symbol, as in MLIR; ``affine.apply`` and ``affine.min`` print ``#map(%i)`` as MLIR does.
"""

from collections.abc import Sequence

from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineMapAttr, IndexType, MemRefType
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.parser import Parser
from xdsl.printer import Printer

from ktc.dialects.syntax import parse_affine_access, print_affine_subscripts
from ktc.dialects.upstream import replacing

def _parse_access(parser: Parser) -> tuple[SSAValue, AffineMapAttr, list[SSAValue], MemRefType]:
    """``%memref[subscripts] : memref-type``."""
    memref = parser.parse_unresolved_operand()
    amap, indices = parse_affine_access(parser)
    parser.parse_punctuation(":")
    pos = parser.pos
    memref_type = parser.parse_type()
    if not isinstance(memref_type, MemRefType):
        parser.raise_error("Expected memref type", pos)
    resolved = [parser.resolve_operand(index, IndexType()) for index in indices]
    return parser.resolve_operand(memref, memref_type), AffineMapAttr(amap), resolved, memref_type


def _print_access(
    printer: Printer, memref: SSAValue, amap: AffineMap, indices: Sequence[SSAValue]
) -> None:
    """``%memref[%i + 1, symbol(%n)] : memref-type``, the expressions as MLIR prints them."""
    printer.print_ssa_value(memref)
    with printer.in_square_brackets():
        print_affine_subscripts(printer, amap, indices)
    printer.print_string(" : ")
    printer.print_attribute(memref.type)


class LoadOp(affine.LoadOp):
    @classmethod
    def parse(cls, parser: Parser) -> "LoadOp":
        memref, amap, indices, memref_type = _parse_access(parser)
        return cls(memref, indices, amap, memref_type.get_element_type())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_access(printer, self.memref, self.map.data, self.indices)


class StoreOp(affine.StoreOp):
    @classmethod
    def parse(cls, parser: Parser) -> "StoreOp":
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        memref, amap, indices, memref_type = _parse_access(parser)
        return cls(
            parser.resolve_operand(value, memref_type.get_element_type()), memref, indices, amap
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        _print_access(printer, self.memref, self.map.data, self.indices)


class VectorLoadOp(affine.VectorLoadOp):
    @classmethod
    def parse(cls, parser: Parser) -> "VectorLoadOp":
        memref, amap, indices, _ = _parse_access(parser)
        parser.parse_punctuation(",")
        return cls(memref, indices, amap, parser.parse_type())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_access(printer, self.memref, self.map.data, self.indices)
        printer.print_string(", ")
        printer.print_attribute(self.result.type)


class VectorStoreOp(affine.VectorStoreOp):
    @classmethod
    def parse(cls, parser: Parser) -> "VectorStoreOp":
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        memref, amap, indices, _ = _parse_access(parser)
        parser.parse_punctuation(",")
        return cls(parser.resolve_operand(value, parser.parse_type()), memref, indices, amap)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        _print_access(printer, self.memref, self.map.data, self.indices)
        printer.print_string(", ")
        printer.print_attribute(self.value.type)


def _print_map_operands(
    printer: Printer, amap: AffineMapAttr, operands: Sequence[SSAValue]
) -> None:
    """`` #map(%dims)[%symbols]``, with no space before the parenthesis."""
    printer.print_string(" ")
    printer.print_attribute(amap)
    num_dims = amap.data.num_dims
    with printer.in_parens():
        printer.print_list(operands[:num_dims], printer.print_operand)
    if amap.data.num_symbols:
        with printer.in_square_brackets():
            printer.print_list(operands[num_dims:], printer.print_operand)


def _parse_map_operands(parser: Parser) -> tuple[AffineMapAttr, list[SSAValue]]:
    """``#map(%dims)[%symbols]``."""
    pos = parser.pos
    amap = parser.parse_attribute()
    if not isinstance(amap, AffineMapAttr):
        parser.raise_error("Expected affine map attr", pos)
    dims = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType())
    )
    symbols = parser.parse_optional_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
    )
    return amap, [*dims, *(symbols or ())]


class _MapOperandsSyntax:
    """``#map(%dims)[%symbols]``, for an op whose operands are all the map's."""

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        amap, operands = _parse_map_operands(parser)
        return cls(operands, amap)

    def print(self, printer: Printer) -> None:
        _print_map_operands(printer, self.map, self.operands)


class ApplyOp(_MapOperandsSyntax, affine.ApplyOp):
    pass


class MinOp(_MapOperandsSyntax, affine.MinOp):
    pass


def dialect() -> Dialect:
    """xDSL's affine with the ops above in place of its own."""
    return replacing(affine.Affine, [ApplyOp, MinOp, LoadOp, StoreOp, VectorLoadOp, VectorStoreOp])
