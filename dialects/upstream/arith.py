"""``arith`` as real KTIR writes it: ``arith.cmpf`` on tensors gives a tensor of
``i1`` of the operands' shape (xDSL's gives one ``i1``), and ``arith.select`` takes such
a tensor as its condition, spelled as MLIR does: ``arith.select %m, %a, %b :
tensor<4xi1>, tensor<4xf16>`` (a scalar condition keeps the one type ``: tensor<4xf16>``).
"""

from xdsl.dialects import arith
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ShapedType, TensorType, i1
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ktc.dialects.upstream import replacing


PREDICATES = {name: code for code, name in enumerate(arith.CMPF_COMPARISON_OPERATIONS)}
"""``arith.cmpf``'s predicates by name."""


def mask_type(shaped: Attribute) -> Attribute:
    """The ``i1`` a compare of values of type ``shaped`` gives: one per element."""
    if isinstance(shaped, TensorType):
        return TensorType(i1, shaped.get_shape())
    return i1


class CmpfOp(arith.CmpfOp):
    """``arith.cmpf``, whose result is an ``i1`` per element of tensor operands (its
    verifier in place of xDSL's, which wants one ``i1``)."""

    def __init__(self, operand1: SSAValue | Operation, operand2: SSAValue | Operation,
                 arg: int | str, fastmath: FastMathFlagsAttr = FastMathFlagsAttr("none")):
        lhs = SSAValue.get(operand1)
        if isinstance(arg, str):
            arg = self._get_comparison_predicate(arg, PREDICATES)
        IRDLOperation.__init__(
            self, operands=[lhs, operand2], result_types=[mask_type(lhs.type)],
            properties={"predicate": IntegerAttr(arg, 64), "fastmath": fastmath})

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerifyException(f"operands of types {self.lhs.type} and {self.rhs.type} "
                                  "must have one type")
        if self.result.type != mask_type(self.lhs.type):
            raise VerifyException(
                f"result type {self.result.type} must be {mask_type(self.lhs.type)}, one i1 "
                "per compared element")


class SelectOp(arith.SelectOp):
    """``arith.select``, whose condition is one ``i1`` or a tensor of them shaped like
    the result (its verifier in place of xDSL's, which wants one ``i1``)."""

    def verify_(self) -> None:
        if not self.lhs.type == self.rhs.type == self.result.type:
            raise VerifyException("both values and the result must have one type")
        condition = self.cond.type
        if condition == i1:
            return
        if (not isinstance(condition, ShapedType) or not isinstance(self.result.type, ShapedType)
                or condition != mask_type(self.result.type)):
            raise VerifyException(
                f"condition type {condition} must be i1 or {mask_type(self.result.type)}")

    @classmethod
    def parse(cls, parser: Parser) -> "SelectOp":
        operands = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            operands.append(parser.parse_unresolved_operand())
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        if parser.parse_optional_punctuation(","):
            types.append(parser.parse_type())
        condition, result = types if len(types) == 2 else (IntegerType(1), types[0])
        cond, lhs, rhs = parser.resolve_operands(operands, [condition, result, result], parser.pos)
        op = cls(cond, lhs, rhs)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.cond, self.lhs, self.rhs), printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.cond.type != i1:
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)


def dialect() -> Dialect:
    """xDSL's arith with the ops above in place of its own."""
    return replacing(arith.Arith, [CmpfOp, SelectOp])
