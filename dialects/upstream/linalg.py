"""``linalg`` as real KTIR writes it: ``linalg.reduce`` of several inputs into as many
outputs (an argmax's values and indices), also in its short form
``linalg.reduce { arith.addf } ins(...) outs(...) dimensions = [1]``, and printed in
it whenever MLIR would; ``linalg.reduce``, ``linalg.broadcast`` and
``linalg.transpose`` print as MLIR does and accept a trailing attribute dictionary;
``linalg.batch_matmul``; ``linalg.matmul``'s body as MLIR builds it; ``linalg.generic``'s
several results in parentheses.
"""

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects.arith import AddfOp, AddiOp, ExtFOp, ExtSIOp, FastMathFlagsAttr, MulfOp, MuliOp
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    AnyTensorType,
    IntegerType,
    MemRefType,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import Linalg, abstract_ops
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    base,
    irdl_op_definition,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ktc.dialects.upstream import replacing


def _parse_group(parser: Parser, group: str) -> list[SSAValue]:
    """``(%a, %b : A, B)`` after the keyword ``group``: operands and their types, in
    order."""
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(f"{group} lists {len(names)} operands and {len(types)} types")
    return [parser.resolve_operand(name, t) for name, t in zip(names, types)]


def _parse_ins_outs(
    parser: Parser, keyword: str
) -> tuple[list[SSAValue], list[SSAValue], list[int], dict[str, Attribute]]:
    """``ins(%x, ... : T, ...) outs(%y, ... : U, ...) <keyword> = [ints] attr-dict?``."""
    parser.parse_characters("ins")
    sources = _parse_group(parser, "ins")
    parser.parse_characters("outs")
    inits = _parse_group(parser, "outs")
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
    return sources, inits, values, parser.parse_optional_attr_dict()


def _print_group(printer: Printer, group: str, values: Sequence[SSAValue]) -> None:
    printer.print_string(f" {group}(")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def _print_ins_outs(printer: Printer, sources: Sequence[SSAValue], inits: Sequence[SSAValue],
                    op: Operation, keyword: str, values: Sequence[int]) -> None:
    """MLIR's spelling, with the space it leaves after the integer list."""
    _print_group(printer, "ins", sources)
    _print_group(printer, "outs", inits)
    printer.print_string(f" {keyword} = [{', '.join(map(str, values))}] ")
    printer.print_op_attributes(op.attributes)


def _element_type(value: SSAValue) -> Attribute:
    assert isinstance(value.type, ShapedType)
    return value.type.get_element_type()


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """``linalg.reduce`` of any number of inputs into as many outputs, as MLIR has it
    (xDSL's takes one of each), with MLIR's short form for a body of one combining op.

    The body reads one element of each input, then the accumulator of each output,
    and yields the new accumulators. In the short form ``{ arith.addf }`` (one input)
    the op takes the accumulator first: ``%r = arith.addf %init, %in`` (MLIR's
    ``initFirst``).
    """

    name = "linalg.reduce"

    inputs = var_operand_def(base(MemRefType) | base(AnyTensorType))
    inits = var_operand_def(base(MemRefType) | base(AnyTensorType))
    result = var_result_def(AnyTensorType)
    region = region_def("single_block")
    dimensions = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (SameVariadicOperandSize(),)

    def __init__(self, inputs: Sequence[SSAValue], inits: Sequence[SSAValue],
                 dimensions: Attribute, region: Region):
        super().__init__(
            properties={"dimensions": dimensions},
            operands=(inputs, inits),
            regions=[region],
            result_types=[[i.type for i in inits if isinstance(i.type, TensorType)]],
        )

    @classmethod
    def parse(cls, parser: Parser) -> "ReduceOp":
        payload = cls._parse_payload(parser)
        sources, inits, dimensions, attributes = _parse_ins_outs(parser, "dimensions")
        if payload is None:
            arguments = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_argument
            )
            region = parser.parse_region(arguments)
        elif len(sources) != 1 or len(inits) != 1:
            parser.raise_error("the short form of linalg.reduce takes one input and one output")
        else:
            region = _payload_region(*payload, sources[0], inits[0])
        op = cls(sources, inits, DenseArrayBase.from_list(i64, dimensions), region)
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
        _print_ins_outs(printer, self.inputs, self.inits, self, "dimensions",
                        self.dimensions.get_values())
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
        if len(self.inputs) != 1 or len(block.ops) != 2:
            return None
        payload, terminator = block.ops
        if list(payload.operands) != [block.args[-1], *block.args[:-1]]:
            return None
        return payload if list(terminator.operands) == list(payload.results) else None

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("reduces no inputs; it takes at least one, and as many outputs")
        shapes = {_shape(v) for v in self.inputs}
        if len(shapes) != 1:
            raise VerifyException("inputs of different shapes")
        (shape,) = shapes
        dimensions = self.dimensions.get_values()
        outside = [d for d in dimensions if not 0 <= d < len(shape)]
        if outside:
            raise VerifyException(f"reduction dimension {outside[0]} is out of range for "
                                  f"an input of rank {len(shape)}")
        kept = tuple(n for d, n in enumerate(shape) if d not in dimensions)
        for source, init in zip(self.inputs, self.inits):
            if _element_type(source) != _element_type(init):
                raise VerifyException(
                    f"Reduction element types must be equal, but input is "
                    f"{_element_type(source)} and init is {_element_type(init)}")
            if _shape(init) != kept:
                raise VerifyException(f"an output of shape {list(_shape(init))}; the inputs "
                                      f"reduced over {list(dimensions)} have shape {list(kept)}")
        expected = [*map(_element_type, self.inputs), *map(_element_type, self.inits)]
        if [a.type for a in self.region.block.args] != expected:
            raise VerifyException("the body's arguments must be one element of each input, "
                                  "then of each output")


class GenericOp(linalg.GenericOp):
    """``linalg.generic``, also with several results in parentheses as MLIR prints
    them (``-> (tensor<4xf16>, tensor<4xf32>)``; xDSL reads them bare only)."""

    @classmethod
    def parse(cls, parser: Parser) -> "GenericOp":
        at = parser.pos
        attributes = parser.parse_optional_attr_dict()
        for required in ("indexing_maps", "iterator_types"):
            if required not in attributes:
                parser.raise_error(f"Expected {required} for linalg.generic", at, parser.pos)
        maps = attributes.pop("indexing_maps")
        iterators = [t if isinstance(t, IteratorTypeAttr) else IteratorTypeAttr(IteratorType(t.data))
                     for t in attributes.pop("iterator_types")]
        doc, library_call = attributes.pop("doc", None), attributes.pop("library_call", None)
        ins = _parse_group(parser, "ins") if parser.parse_optional_characters("ins") is not None else []
        outs = _parse_group(parser, "outs") if parser.parse_optional_characters("outs") is not None else []
        extra = {}
        if parser.parse_optional_keyword("attrs"):
            parser.parse_punctuation("=")
            extra = parser.expect(parser.parse_optional_attr_dict, "expect extra attributes")
        body = parser.parse_region()
        results = []
        if parser.parse_optional_punctuation("->"):
            enclosed = parser.parse_optional_punctuation("(") is not None
            results = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            if enclosed:
                parser.parse_punctuation(")")
        op = cls(ins, outs, body, maps, iterators, results, doc, library_call)
        op.attributes |= extra
        return op


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
        sources, inits, values, attributes = _parse_ins_outs(parser, cls.KEYWORD)
        if len(sources) != 1 or len(inits) != 1:
            parser.raise_error(f"{cls.name} takes one input and one output")
        op = cls(sources[0], inits[0], DenseArrayBase.from_list(i64, values))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_ins_outs(printer, self.operands[:1], self.operands[1:2], self, self.KEYWORD,
                        self.properties[self.KEYWORD].get_values())


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
    return replacing(Linalg, [ReduceOp, GenericOp, BroadcastOp, TransposeOp, MatmulOp, BatchMatmulOp])
