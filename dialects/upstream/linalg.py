"""``linalg`` as real KTIR writes it: ``linalg.reduce`` also in its short form
``linalg.reduce { arith.addf } ins(...) outs(...) dimensions = [1]``, and printed in
it whenever MLIR would; ``linalg.reduce``, ``linalg.broadcast`` and
``linalg.transpose`` print as MLIR does and accept a trailing attribute dictionary;
``linalg.batch_matmul``; ``linalg.matmul``'s body as MLIR builds it.
"""

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects.arith import AddfOp, AddiOp, ExtFOp, ExtSIOp, FastMathFlagsAttr, MulfOp, MuliOp
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IntegerType,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import Linalg, abstract_ops
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ktc.dialects.upstream import replacing

def _parse_ins_outs(
    parser: Parser, keyword: str
) -> tuple[SSAValue, SSAValue, list[int], dict[str, Attribute]]:
    """``ins(%x : T) outs(%y : U) <keyword> = [ints] attr-dict?``."""
    operands = []
    for group in ("ins", "outs"):
        parser.parse_characters(group)
        parser.parse_punctuation("(")
        unresolved = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        operands.append(parser.resolve_operand(unresolved, parser.parse_type()))
        parser.parse_punctuation(")")
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
    return operands[0], operands[1], values, parser.parse_optional_attr_dict()


def _print_ins_outs(printer: Printer, op: Operation, keyword: str, values: Sequence[int]) -> None:
    """MLIR's spelling, with the space it leaves after the integer list."""
    source, init = op.operands[:2]
    printer.print_string(" ins(")
    printer.print_ssa_value(source)
    printer.print_string(" : ")
    printer.print_attribute(source.type)
    printer.print_string(") outs(")
    printer.print_ssa_value(init)
    printer.print_string(" : ")
    printer.print_attribute(init.type)
    printer.print_string(f") {keyword} = [{', '.join(map(str, values))}] ")
    printer.print_op_attributes(op.attributes)


def _element_type(value: SSAValue) -> Attribute:
    assert isinstance(value.type, ShapedType)
    return value.type.get_element_type()


class ReduceOp(linalg.ReduceOp):
    """``linalg.reduce``, with MLIR's short form for a body of one combining op.

    In the short form ``{ arith.addf }`` the op takes the accumulator first:
    ``%r = arith.addf %init, %in`` (MLIR's ``initFirst``).
    """

    @classmethod
    def parse(cls, parser: Parser) -> "ReduceOp":
        payload = cls._parse_payload(parser)
        source, init, dimensions, attributes = _parse_ins_outs(parser, "dimensions")
        if payload is None:
            arguments = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_argument
            )
            region = parser.parse_region(arguments)
        else:
            region = _payload_region(*payload, source, init)
        op = cls(source, init, DenseArrayBase.from_list(i64, dimensions), region)
        op.attributes |= attributes
        return op

    @staticmethod
    def _parse_payload(parser: Parser) -> tuple[type[Operation], dict[str, Attribute]] | None:
        """``{ op-name attr-dict? }``, if present."""
        if parser.parse_optional_punctuation("{") is None:
            return None
        pos = parser.pos
        name = parser.parse_identifier()
        op_type = parser.ctx.get_optional_op(name)
        if op_type is None:
            parser.raise_error(f"unknown combining op '{name}'", pos, parser.pos)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation("}")
        return op_type, attributes

    def print(self, printer: Printer) -> None:
        payload = self.payload_op()
        if payload is not None:
            printer.print_string(f" {{ {payload.name}")
            printer.print_op_attributes(_payload_attributes(payload))
            printer.print_string(" }")
        _print_ins_outs(printer, self, "dimensions", self.dimensions.get_values())
        if payload is not None:
            return
        with printer.indented():
            printer.print_string("\n(")
            printer.print_list(self.region.block.args, printer.print_block_argument)
            printer.print_string(") ")
            printer.print_region(self.region, print_entry_block_args=False)

    def payload_op(self) -> Operation | None:
        """The body's one op, when the short form can say it (MLIR's ``findPayloadOp``)."""
        block = self.region.block
        if len(block.ops) != 2:
            return None
        payload, terminator = block.ops
        if list(payload.operands) != [block.args[-1], *block.args[:-1]]:
            return None
        return payload if list(terminator.operands) == list(payload.results) else None

    def verify_(self) -> None:
        rank = len(_shape(self.input))
        dimensions = self.dimensions.get_values()
        outside = [d for d in dimensions if not 0 <= d < rank]
        if outside:
            raise VerifyException(f"reduction dimension {outside[0]} is out of range for "
                                  f"an input of rank {rank}")
        super().verify_()


def _shape(value: SSAValue) -> tuple[int, ...]:
    return tuple(value.type.get_shape()) if isinstance(value.type, ShapedType) else ()


def _payload_region(
    op_type: type[Operation], attributes: dict[str, Attribute], source: SSAValue, init: SSAValue
) -> Region:
    """The body MLIR builds for ``{ op attributes }``: ``op(init, in)`` then yield."""
    properties = {}
    if issubclass(op_type, IRDLOperation):
        names = op_type.get_irdl_definition().properties
        properties = {k: v for k, v in attributes.items() if k in names}
        attributes = {k: v for k, v in attributes.items() if k not in names}
    block = Block(arg_types=(_element_type(source), _element_type(init)))
    payload = op_type.create(
        operands=(block.args[1], block.args[0]),
        result_types=(_element_type(init),),
        properties=properties,
        attributes=attributes,
    )
    block.add_ops((payload, linalg.YieldOp(*payload.results)))
    return Region(block)


def _payload_attributes(payload: Operation) -> dict[str, Attribute]:
    """What MLIR prints in the short form: all but a ``fastmath`` of ``none``."""
    attributes = payload.properties | payload.attributes
    return {k: v for k, v in attributes.items() if v != FastMathFlagsAttr("none")}


class _InsOutsSyntax:
    """``ins(...) outs(...) <KEYWORD> = [...]`` for an op whose integer list is the
    property named ``KEYWORD``."""

    KEYWORD: ClassVar[str]

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        source, init, values, attributes = _parse_ins_outs(parser, cls.KEYWORD)
        op = cls(source, init, DenseArrayBase.from_list(i64, values))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_ins_outs(printer, self, self.KEYWORD, self.properties[self.KEYWORD].get_values())


class BroadcastOp(_InsOutsSyntax, linalg.BroadcastOp):
    KEYWORD: ClassVar[str] = "dimensions"


class TransposeOp(_InsOutsSyntax, linalg.TransposeOp):
    KEYWORD: ClassVar[str] = "permutation"


class _MultiplyAccumulate:
    """The body MLIR gives a matmul: ``out + a * b``, an input of another element type
    than the output's converted to it first (``arith.extf``, ``arith.extsi``)."""

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = abstract_ops.NamedOperation.body_arg_types((*inputs, *outputs))
        integer = isinstance(arg_types[-1], IntegerType)
        add, mul, widen = (AddiOp, MuliOp, ExtSIOp) if integer else (AddfOp, MulfOp, ExtFOp)

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            factors = [arg if arg.type == arg_types[-1] else widen(arg, arg_types[-1]).result
                       for arg in args[:2]]
            linalg.YieldOp(add(args[2], mul(*factors)))

        return body


class MatmulOp(_MultiplyAccumulate, linalg.MatmulOp):
    pass


def _maps(*results: Callable[..., tuple]) -> ArrayAttr[AffineMapAttr]:
    return ArrayAttr(AffineMapAttr(AffineMap.from_callable(result)) for result in results)


@irdl_op_definition
class BatchMatmulOp(_MultiplyAccumulate, abstract_ops.NamedOperation):
    """``C[b, i, j] += A[b, i, k] * B[b, k, j]``."""

    name = "linalg.batch_matmul"

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    indexing_maps = prop_def(
        ArrayAttr[AffineMapAttr],
        default_value=_maps(
            lambda b, i, j, k: (b, i, k), lambda b, i, j, k: (b, k, j), lambda b, i, j, k: (b, i, j)
        ),
    )

    def __init__(self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]):
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=[output.type for output in outputs if isinstance(output.type, TensorType)],
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
        return ArrayAttr((parallel, parallel, parallel, reduction))


def dialect() -> Dialect:
    """xDSL's linalg with the ops above in place of its own (or added)."""
    return replacing(Linalg, [ReduceOp, BroadcastOp, TransposeOp, MatmulOp, BatchMatmulOp])
