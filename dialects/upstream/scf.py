"""``scf`` as real KTIR writes it: ``scf.for ... iter_args(...) -> T`` with a bare
result type, printed as MLIR does; ``scf.execute_region -> T`` printed without
parentheses.
"""

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType
from xdsl.dialects.utils import parse_assignment, print_assignment
from xdsl.ir import Attribute, Dialect
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator

from ktc.dialects.upstream import replacing

def _parse_arrow_types(parser: Parser) -> list[Attribute]:
    """MLIR's arrow type list: ``(T, U)`` or one bare ``T``."""
    types = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    return [parser.parse_type()] if types is None else types


class ForOp(scf.ForOp):
    """``scf.for``, whose ``iter_args(...) -> T`` may name one result type bare."""

    @classmethod
    def parse(cls, parser: Parser) -> "ForOp":
        indvar = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        bounds: list[UnresolvedOperand] = [parser.parse_unresolved_operand()]
        for keyword in ("to", "step"):
            parser.parse_keyword(keyword)
            bounds.append(parser.parse_unresolved_operand())
        pos = parser.pos
        assignments = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args"):
            assignments = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            )
            parser.parse_punctuation("->")
            types = _parse_arrow_types(parser)
        inits = parser.resolve_operands([value for _, value in assignments], types, pos)
        indvar_type = parser.parse_type() if parser.parse_optional_punctuation(":") else IndexType()
        lb, ub, step = (parser.resolve_operand(bound, indvar_type) for bound in bounds)
        arguments = [
            indvar.resolve(indvar_type),
            *(arg.resolve(t) for (arg, _), t in zip(assignments, types, strict=True)),
        ]
        body = parser.parse_region(arguments)
        op = cls(lb, ub, step, inits, body)
        op.attributes |= parser.parse_optional_attr_dict()
        if not inits:
            for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
                ensure_terminator(op, trait)
        return op

    def print(self, printer: Printer) -> None:
        """As MLIR prints it, down to the two spaces it puts before ``: i32``."""
        indvar, *iter_args = self.body.block.args
        printer.print_string(" ")
        printer.print_ssa_value(indvar)
        for keyword, value in (("=", self.lb), ("to", self.ub), ("step", self.step)):
            printer.print_string(f" {keyword} ")
            printer.print_ssa_value(value)
        if iter_args:
            printer.print_string(" iter_args(")
            printer.print_list(
                zip(iter_args, self.iter_args, strict=True),
                lambda pair: print_assignment(printer, *pair),
            )
            printer.print_string(") -> (")
            printer.print_list(self.result_types, printer.print_attribute)
            printer.print_string(")")
        if not isinstance(indvar.type, IndexType):
            printer.print_string("  : ")
            printer.print_attribute(indvar.type)
        printer.print_string(" ")
        printer.print_region(
            self.body,
            print_entry_block_args=False,
            print_empty_block=False,
            print_block_terminators=bool(iter_args),
        )
        printer.print_op_attributes(self.attributes)


class ExecuteRegionOp(scf.ExecuteRegionOp):
    def print(self, printer: Printer) -> None:
        if self.outs:
            printer.print_string(" -> ")
            _print_arrow_types(printer, self.outs.types)
        printer.print_string(" ")
        printer.print_region(
            self.region, print_entry_block_args=False, print_block_terminators=bool(self.outs)
        )
        printer.print_op_attributes(self.attributes)


def _print_arrow_types(printer: Printer, types: Sequence[Attribute]) -> None:
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    with printer.in_parens():
        printer.print_list(types, printer.print_attribute)


def dialect() -> Dialect:
    """xDSL's scf with the ops above in place of its own."""
    return replacing(scf.Scf, [ForOp, ExecuteRegionOp])
