"""The ``ktdf`` dialect: ScheduleIR.

A schedule is built from three constructs: nested ``scf.for`` loops,
``ktdf.pipeline`` (stages that overlap across iterations, ordered by tokens and
linked by FIFO slots) and ``ktdf.parallel`` (identical instances sharing an
iteration space). Data moves with ``ktdf.data_transfer`` between memrefs and FIFO
slots; compute stays in ``linalg.generic`` and talks to FIFOs with
``ktdf.read_from_fifo`` / ``ktdf.write_to_fifo``. Double buffering uses
``ktdf.buffer_phase`` / ``ktdf.select_memref``, loop tiling the ``ktdf.tiling.*``
placeholders, and the backend ``ktdf.execute_on`` / ``ktdf.signal``.

``ktdf.create_token``, ``ktdf.tiling.reserve_size`` and ``ktdf.fifo.allocate``
produce a fresh identity every time they run, so CSE never merges two of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import auto
from dataclasses import dataclass
from math import prod

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.dialects.utils import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
    verify_dynamic_index_list,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    OpResult,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    HasCanonicalizationPatternsTrait,
    HasParent,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoTerminator,
    Pure,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ktc.dialects.diagnostics import located
from ktc.dialects.syntax import (
    AngleBracketEnum,
    parse_attr_dict,
    parse_body,
    parse_optional_affine_access,
    parse_stripped_type,
    print_affine_subscripts,
    print_attr_dict,
    print_body,
    print_stripped_type,
)

# ---------------------------------------------------------------------------------
# Types and attributes
# ---------------------------------------------------------------------------------


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """A scheduling dependency between stages; it carries no runtime value."""

    name = "ktdf.token"


@irdl_attr_definition
class FifoSlotType(ParametrizedAttribute, TypeAttribute):
    """One slot of a FIFO from ``source`` to ``destination``, holding
    ``num_elements`` elements (``?`` when dynamic).

    Slots of a FIFO are filled in allocation order, each exactly, and then the FIFO
    rolls over. Written ``!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>``; inside ops
    whose operand can only be a slot, the short form ``<"L1LU" -> "SFU", 64xf16>``.
    """

    name = "ktdf.fifo.slot"

    source: Attribute
    """The unit kind or memory space that fills the slot."""
    destination: Attribute
    """The unit kind or memory space that drains the slot."""
    num_elements: IntAttr
    """Elements in the slot, ``DYNAMIC_INDEX`` when only known at run time."""
    element_type: Attribute

    def __init__(
        self, source: Attribute, destination: Attribute, num_elements: int, element_type: Attribute
    ):
        super().__init__(source, destination, IntAttr(num_elements), element_type)

    @property
    def is_dynamic(self) -> bool:
        return self.num_elements.data == DYNAMIC_INDEX

    def verify(self) -> None:
        if not self.is_dynamic and self.num_elements.data < 1:
            raise VerifyException(
                f"fifo slot must hold at least one element, got {self.num_elements.data}"
            )

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.source)
            printer.print_string(" -> ")
            printer.print_attribute(self.destination)
            printer.print_string(", ")
            printer.print_string("?" if self.is_dynamic else str(self.num_elements.data))
            printer.print_string("x")
            printer.print_attribute(self.element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            return cls.parse_body(parser)

    @classmethod
    def parse_body(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        """The parameters between the angle brackets: ``"A" -> "B", 64xf16``."""
        source = parser.parse_attribute()
        parser.parse_punctuation("->")
        destination = parser.parse_attribute()
        parser.parse_punctuation(",")
        shape, element_type = parser.parse_ranked_shape()
        if len(shape) != 1:
            parser.raise_error("fifo slot expects one element count, as in '64xf16'")
        return source, destination, IntAttr(shape[0]), element_type


class LoopType(StrEnum):
    PARALLEL_LOOP = auto()
    REDUCTION_LOOP = auto()


@irdl_attr_definition
class LoopTypeAttr(AngleBracketEnum, EnumAttribute[LoopType]):
    """What a loop iterates over: ``#ktdf.loop_type<parallel_loop>`` or
    ``#ktdf.loop_type<reduction_loop>``, set on ``scf.for`` as ``loop_type``."""

    name = "ktdf.loop_type"


# ---------------------------------------------------------------------------------
# Traits
# ---------------------------------------------------------------------------------


class FreshResults(MemoryEffect):
    """Every execution creates new values: CSE never merges two such ops, and an op
    whose results are all unused may still be erased."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance]:
        return {EffectInstance(MemoryEffectKind.ALLOC, result) for result in op.results}


# ---------------------------------------------------------------------------------
# Syntax helpers
# ---------------------------------------------------------------------------------


def _parse_index(parser: Parser) -> SSAValue:
    return parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())


def _parse_optional_index(parser: Parser) -> SSAValue | None:
    operand = parser.parse_optional_unresolved_operand()
    return None if operand is None else parser.resolve_operand(operand, IndexType())


def _print_index_list(printer: Printer, values: Sequence[SSAValue]) -> None:
    with printer.in_parens():
        printer.print_list(values, printer.print_ssa_value)


def _parse_index_list(parser: Parser) -> list[SSAValue]:
    """``(%a, %b)`` of index values."""
    return parser.parse_comma_separated_list(Parser.Delimiter.PAREN, lambda: _parse_index(parser))


def _region(body: Region | Sequence[Operation]) -> Region:
    """A region as given, or one block holding the given ops."""
    return body if isinstance(body, Region) else Region(Block(body))


def _print_token_list(printer: Printer, keyword: str, tokens: Sequence[SSAValue]) -> None:
    printer.print_string(f" {keyword}(")
    if tokens:
        printer.print_list(tokens, printer.print_ssa_value)
    else:
        printer.print_string("none")
    printer.print_string(")")


def _parse_token_list(parser: Parser, keyword: str) -> list[SSAValue]:
    parser.parse_keyword(keyword)
    with parser.in_parens():
        if parser.parse_optional_keyword("none") is not None:
            return []
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
    return [parser.resolve_operand(name, TokenType()) for name in names]


def _print_pairs(printer: Printer, firsts: Sequence[SSAValue], seconds: Sequence[SSAValue]) -> None:
    """Print ``[%a : %b], [%c : %d]``."""

    def print_pair(pair: tuple[SSAValue, SSAValue]) -> None:
        with printer.in_square_brackets():
            printer.print_ssa_value(pair[0])
            printer.print_string(" : ")
            printer.print_ssa_value(pair[1])

    printer.print_list(zip(firsts, seconds), print_pair)


def _parse_optional_pair(parser: Parser) -> tuple[SSAValue, SSAValue] | None:
    """Parse ``[%a : %b]`` if present."""
    if parser.parse_optional_punctuation("[") is None:
        return None
    first = _parse_index(parser)
    parser.parse_punctuation(":")
    second = _parse_index(parser)
    parser.parse_punctuation("]")
    return first, second


def _parse_pair(parser: Parser) -> tuple[SSAValue, SSAValue]:
    return parser.expect(lambda: _parse_optional_pair(parser), "expected '[' to start a pair")


# ---------------------------------------------------------------------------------
# Pipelines and stages
# ---------------------------------------------------------------------------------


@irdl_op_definition
class PipelineOp(IRDLOperation):
    """A DAG of concurrently running stages, ordered by tokens.

    ``modulo(size : N)`` gives the pipeline N rotating sets of physical resources
    (N = 2 after double buffering). Immediate children are ``ktdf.stage`` ops and
    at most one ``ktdf.private``.
    """

    name = "ktdf.pipeline"

    modulo = opt_prop_def(IntegerAttr[I64])
    """How many rotating resource sets the pipeline has; at least 1."""
    body = region_def("single_block")

    traits = traits_def(NoTerminator(), RecursiveMemoryEffect())

    def __init__(self, body: Region | Sequence[Operation], modulo: int | None = None):
        properties = {} if modulo is None else {"modulo": IntegerAttr(modulo, i64)}
        super().__init__(regions=[_region(body)], properties=properties)

    @property
    def stages(self) -> list[StageOp]:
        return [op for op in self.body.block.ops if isinstance(op, StageOp)]

    @property
    def private(self) -> PrivateOp | None:
        return next((op for op in self.body.block.ops if isinstance(op, PrivateOp)), None)

    def verify_(self) -> None:
        if self.modulo is not None and self.modulo.value.data < 1:
            raise VerifyException(
                "attribute 'modulo' failed to satisfy constraint: 64-bit signless "
                "integer attribute whose minimum value is 1"
            )
        children = list(self.body.block.ops)
        if not all(isinstance(op, StageOp | PrivateOp) for op in children):
            raise VerifyException(
                "immediate children must be 'ktdf.stage' or 'ktdf.private' ops"
            )
        if sum(isinstance(op, PrivateOp) for op in children) > 1:
            raise VerifyException("at most one immediate 'ktdf.private' child is allowed")

    def print(self, printer: Printer) -> None:
        if self.modulo is not None:
            printer.print_string(f" modulo(size : {self.modulo.value.data})")
        print_body(printer, self.body)
        print_attr_dict(printer, self, ("modulo",))

    @classmethod
    def parse(cls, parser: Parser) -> PipelineOp:
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("modulo") is not None:
            with parser.in_parens():
                parser.parse_keyword("size")
                parser.parse_punctuation(":")
                properties["modulo"] = IntegerAttr(parser.parse_integer(), i64)
        body = parse_body(parser)
        more_properties, attributes = parse_attr_dict(parser, cls)
        return cls.build(
            regions=[body], properties=properties | more_properties, attributes=attributes
        )


def _produced_by_create_token(token: SSAValue) -> bool:
    """Whether ``token`` is a ``ktdf.create_token`` result, directly or passed out
    through a ``ktdf.private`` result."""
    owner = token.owner
    if isinstance(owner, CreateTokenOp):
        return True
    if not isinstance(owner, PrivateOp) or not isinstance(token, OpResult):
        return False
    terminator = owner.body.block.last_op if owner.body.blocks else None
    if not isinstance(terminator, PrivateYieldOp) or len(terminator.values) <= token.index:
        return False
    return _produced_by_create_token(terminator.values[token.index])


@irdl_op_definition
class StageOp(IRDLOperation):
    """One stage of a pipeline: it starts once every ``depends_in`` token is
    released and releases its ``depends_out`` tokens when done.

    ``applicable_units`` names the unit kinds that may run the stage.
    """

    name = "ktdf.stage"

    depends_in = var_operand_def(TokenType)
    """Tokens the stage waits for."""
    depends_out = var_operand_def(TokenType)
    """Tokens the stage releases."""
    applicable_units = opt_prop_def(ArrayAttr)
    """Unit kinds (e.g. ``"SFU"``) that may execute this stage."""
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(NoTerminator(), HasParent(PipelineOp))

    def __init__(
        self,
        depends_in: Sequence[SSAValue | Operation],
        depends_out: Sequence[SSAValue | Operation],
        body: Region | Sequence[Operation],
        applicable_units: Sequence[Attribute] | None = None,
    ):
        properties = {}
        if applicable_units is not None:
            properties["applicable_units"] = ArrayAttr(applicable_units)
        super().__init__(
            operands=[depends_in, depends_out], regions=[_region(body)], properties=properties
        )

    def verify_(self) -> None:
        if self.applicable_units is not None and not self.applicable_units.data:
            raise VerifyException("'applicable_units' must name at least one unit kind")
        for group in ("depends_in", "depends_out"):
            for index, token in enumerate(getattr(self, group)):
                if not _produced_by_create_token(token):
                    raise VerifyException(
                        f"{group} token #{index} must come from 'ktdf.create_token' "
                        "directly or through a 'ktdf.private' result"
                    )
        if set(self.depends_in) & set(self.depends_out):
            raise VerifyException("a stage cannot wait for a token it releases itself")

    def print(self, printer: Printer) -> None:
        _print_token_list(printer, "depends_in", self.depends_in)
        _print_token_list(printer, "depends_out", self.depends_out)
        print_body(printer, self.body)
        print_attr_dict(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> StageOp:
        depends_in = _parse_token_list(parser, "depends_in")
        depends_out = _parse_token_list(parser, "depends_out")
        body = parse_body(parser)
        properties, attributes = parse_attr_dict(parser, cls)
        return cls.build(
            operands=[depends_in, depends_out], regions=[body],
            properties=properties, attributes=attributes,
        )


@irdl_op_definition
class PrivateOp(IRDLOperation):
    """Resources private to one pipeline (buffers, FIFO slots, tokens), created
    in its region and handed out by ``ktdf.private_yield``."""

    name = "ktdf.private"

    resources = var_result_def()
    """What the region creates: memrefs, FIFO slots and tokens."""
    body = region_def("single_block")

    traits = lazy_traits_def(
        lambda: (
            SingleBlockImplicitTerminator(PrivateYieldOp),
            HasParent(PipelineOp),
            RecursiveMemoryEffect(),
        )
    )

    def __init__(self, result_types: Sequence[Attribute], body: Region | Sequence[Operation]):
        super().__init__(result_types=[result_types], regions=[_region(body)])

    def verify_(self) -> None:
        terminator = self.body.block.last_op
        if not isinstance(terminator, PrivateYieldOp):
            return  # reported by SingleBlockImplicitTerminator
        yielded = [value.type for value in terminator.values]
        if len(yielded) != len(self.resources):
            raise VerifyException(
                f"'ktdf.private_yield' yields {len(yielded)} values but 'ktdf.private' "
                f"has {len(self.resources)} results"
            )
        for index, (value_type, result) in enumerate(zip(yielded, self.resources)):
            if value_type != result.type:
                raise VerifyException(
                    f"'ktdf.private_yield' operand #{index} has type {value_type} but "
                    f"result #{index} has type {result.type}"
                )

    def print(self, printer: Printer) -> None:
        printer.print_string(" -> (")
        printer.print_list(self.result_types, printer.print_attribute)
        printer.print_string(")")
        print_body(printer, self.body, terminators=bool(self.resources))
        print_attr_dict(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> PrivateOp:
        parser.parse_punctuation("->")
        result_types = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_type
        )
        body = parse_body(parser)
        _, attributes = parse_attr_dict(parser, cls)
        op = cls.build(result_types=[result_types], regions=[body], attributes=attributes)
        ensure_terminator(op, SingleBlockImplicitTerminator(PrivateYieldOp))
        return op


@irdl_op_definition
class PrivateYieldOp(IRDLOperation):
    """Hands the resources created in a ``ktdf.private`` region out as its results."""

    name = "ktdf.private_yield"

    values = var_operand_def()
    """One value per result of the enclosing ``ktdf.private``."""

    assembly_format = "attr-dict ($values^ `:` type($values))?"
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(PrivateOp), Pure()))

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


@irdl_op_definition
class CreateTokenOp(IRDLOperation):
    """A new token; two ``create_token`` ops are always distinct tokens."""

    name = "ktdf.create_token"

    result = result_def(TokenType)

    assembly_format = "attr-dict"
    traits = traits_def(FreshResults())

    def __init__(self):
        super().__init__(result_types=[TokenType()])


# ---------------------------------------------------------------------------------
# FIFOs and transfers
# ---------------------------------------------------------------------------------


@irdl_op_definition
class FifoAllocateOp(IRDLOperation):
    """The slots of one FIFO, in the order they are filled; one index operand per
    dynamic (``?``) slot, in slot order."""

    name = "ktdf.fifo.allocate"

    dynamic_sizes = var_operand_def(IndexType)
    """Element counts of the dynamic slots."""
    slots = var_result_def(FifoSlotType)

    traits = traits_def(FreshResults())

    def __init__(
        self,
        slot_types: Sequence[FifoSlotType],
        dynamic_sizes: Sequence[SSAValue | Operation] = (),
    ):
        super().__init__(operands=[dynamic_sizes], result_types=[slot_types])

    def verify_(self) -> None:
        slot_types = [slot.type for slot in self.slots]
        dynamic = sum(slot.is_dynamic for slot in slot_types)
        if dynamic != len(self.dynamic_sizes):
            raise VerifyException(
                f"expects {dynamic} dynamic size operands, one per dynamic slot, "
                f"but got {len(self.dynamic_sizes)}"
            )
        if len({(slot.source, slot.destination) for slot in slot_types}) > 1:
            raise VerifyException(
                "all slots of one FIFO must have the same source and destination"
            )

    def print(self, printer: Printer) -> None:
        _print_index_list(printer, self.dynamic_sizes)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list(self.result_types, printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> FifoAllocateOp:
        sizes = _parse_index_list(parser)
        _, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        slot_types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        return cls.build(operands=[sizes], result_types=[slot_types], attributes=attributes)


def _verify_fits_slot(data_type: Attribute, slot: FifoSlotType, role: str) -> None:
    """``data_type`` (tensor or memref) must have the slot's element type and hold
    exactly as many elements as the slot."""
    assert isinstance(data_type, TensorType | MemRefType)
    if data_type.get_element_type() != slot.element_type:
        raise VerifyException(
            f"{role} element type {data_type.get_element_type()} does not match the fifo "
            f"slot element type {slot.element_type}"
        )
    shape = data_type.get_shape()
    has_dynamic = DYNAMIC_INDEX in shape
    if slot.is_dynamic != has_dynamic:
        raise VerifyException(
            f"{role} shape must be dynamic exactly when the fifo slot size is dynamic"
        )
    if not has_dynamic and prod(shape) != slot.num_elements.data:
        raise VerifyException(
            f"{role} has {prod(shape)} elements but the fifo slot holds {slot.num_elements.data}"
        )


_DATA = base(TensorType) | base(MemRefType)


@irdl_op_definition
class ReadFromFifoOp(IRDLOperation):
    """Pops one filled slot as a tensor, or as a memref that lives only inside the
    enclosing region."""

    name = "ktdf.read_from_fifo"

    fifo_slot = operand_def(FifoSlotType)
    """The slot to drain."""
    result = result_def(_DATA)
    """The slot's elements, in any shape holding exactly that many."""

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(self, fifo_slot: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[fifo_slot], result_types=[result_type])

    def verify_(self) -> None:
        _verify_fits_slot(self.result.type, self.fifo_slot.type, "result")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.fifo_slot)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        print_stripped_type(printer, self.fifo_slot.type, FifoSlotType)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> ReadFromFifoOp:
        slot = parser.parse_unresolved_operand()
        _, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        slot_type = parse_stripped_type(parser, FifoSlotType)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(slot, slot_type)],
            result_types=[result_type], attributes=attributes,
        )


@irdl_op_definition
class WriteToFifoOp(IRDLOperation):
    """Fills one slot with a tensor or memref."""

    name = "ktdf.write_to_fifo"

    data = operand_def(_DATA)
    """Exactly as many elements as the slot holds, of its element type."""
    fifo_slot = operand_def(FifoSlotType)
    """The slot to fill."""

    traits = traits_def(MemoryWriteEffect())

    def __init__(self, data: SSAValue | Operation, fifo_slot: SSAValue | Operation):
        super().__init__(operands=[data, fifo_slot])

    def verify_(self) -> None:
        _verify_fits_slot(self.data.type, self.fifo_slot.type, "data")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.data, self.fifo_slot), printer.print_ssa_value)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.data.type)
        printer.print_string(", ")
        print_stripped_type(printer, self.fifo_slot.type, FifoSlotType)

    @classmethod
    def parse(cls, parser: Parser) -> WriteToFifoOp:
        data = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        slot = parser.parse_unresolved_operand()
        _, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        data_type = parser.parse_type()
        parser.parse_punctuation(",")
        slot_type = parse_stripped_type(parser, FifoSlotType)
        return cls.build(
            operands=[
                parser.resolve_operand(data, data_type), parser.resolve_operand(slot, slot_type)
            ],
            attributes=attributes,
        )


TRANSFER_MODE = "transfer_mode"
"""On a ``ktdf.data_transfer``: ``"splat"`` to broadcast one source element over the
destination (``scalar-broadcast-legalization``), checked by the op's verifier."""

_SPLAT = StringAttr("splat")

_TRANSFER_SYNTAX = ("static_source_sizes", "static_dest_sizes", "source_map", "dest_map")
"""Properties that the custom syntax of ``ktdf.data_transfer`` spells out itself."""


@dataclass(frozen=True)
class _Side:
    """One end of a ``ktdf.data_transfer``."""

    name: str
    """``source`` or ``dest``, as the op's field names spell it."""
    value: SSAValue
    """The memref or FIFO slot."""
    indices: Sequence[SSAValue]
    access: AffineMapAttr | None
    """Start position in a memref, a map over ``indices``; none for a FIFO slot."""
    sizes: Sequence[int]
    """Extent per dimension, ``DYNAMIC_INDEX`` where given by ``dynamic_sizes``."""
    dynamic_sizes: Sequence[SSAValue]

    @property
    def map_name(self) -> str:
        return f"{self.name}_map"

    @property
    def mixed_sizes(self) -> list[int | SSAValue]:
        """Extent per dimension: an int where static, the size operand where not."""
        dynamic = iter(self.dynamic_sizes)
        return [next(dynamic) if size == DYNAMIC_INDEX else size for size in self.sizes]

    @property
    def static_count(self) -> int | None:
        """Elements moved, when every size is static."""
        return None if DYNAMIC_INDEX in self.sizes else prod(self.sizes)

    def element_type(self) -> Attribute:
        value_type = self.value.type
        if isinstance(value_type, FifoSlotType):
            return value_type.element_type
        assert isinstance(value_type, MemRefType)
        return value_type.get_element_type()

    def verify(self) -> None:
        verify_dynamic_index_list(
            self.sizes, self.dynamic_sizes, DYNAMIC_INDEX, f" in the {self.name} sizes"
        )
        if any(size < 0 and size != DYNAMIC_INDEX for size in self.sizes):
            raise VerifyException(f"{self.name} sizes must not be negative")
        if isinstance(self.value.type, FifoSlotType):
            self._verify_fifo(self.value.type)
        else:
            self._verify_memref(self.value.type)

    def _verify_fifo(self, slot: FifoSlotType) -> None:
        if self.access is not None:
            raise VerifyException(f"{self.map_name} must be absent for fifo {self.name}")
        if self.indices:
            raise VerifyException(f"fifo {self.name} takes no indices")
        count = self.static_count
        if count is not None and not slot.is_dynamic and count != slot.num_elements.data:
            raise VerifyException(
                f"fifo {self.name} size covers {count} elements but the slot "
                f"holds {slot.num_elements.data}"
            )

    def _verify_memref(self, memref: Attribute) -> None:
        assert isinstance(memref, MemRefType)
        rank = memref.get_num_dims()
        if self.access is None:
            raise VerifyException(f"{self.map_name} is required for a memref {self.name}")
        access = self.access.data
        if len(access.results) != rank:
            raise VerifyException(
                f"{self.name} memref has rank {rank} but {self.map_name} has "
                f"{len(access.results)} results"
            )
        if access.num_symbols:
            raise VerifyException(
                f"{self.map_name} must have 0 symbols (dims-only); got {access.num_symbols}"
            )
        if access.num_dims != len(self.indices):
            raise VerifyException(
                f"{self.map_name} has {access.num_dims} dims but {len(self.indices)} "
                f"{self.name} indices are given"
            )
        if len(self.sizes) != rank:
            raise VerifyException(
                f"{self.name} size count ({len(self.sizes)}) must match memref rank ({rank})"
            )

    def print(self, printer: Printer) -> None:
        printer.print_ssa_value(self.value)
        if self.access is not None:
            with printer.in_square_brackets():
                print_affine_subscripts(printer, self.access.data, self.indices)
        printer.print_string(" size ")
        print_dynamic_index_list(printer, DYNAMIC_INDEX, self.dynamic_sizes, self.sizes)


def _parse_side(
    parser: Parser, name: str
) -> tuple[UnresolvedOperand, list[SSAValue], list[SSAValue], dict[str, Attribute]]:
    """``%value[subscripts]? size [sizes]``: the value (resolved once its type is
    known), the index and dynamic size operands, and the side's properties."""
    value = parser.parse_unresolved_operand()
    properties: dict[str, Attribute] = {}
    indices: list[SSAValue] = []
    if (access := parse_optional_affine_access(parser)) is not None:
        properties[f"{name}_map"] = AffineMapAttr(access[0])
        indices = [parser.resolve_operand(index, IndexType()) for index in access[1]]
    parser.parse_keyword("size")
    dynamic, sizes = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
    properties[f"static_{name}_sizes"] = DenseArrayBase.from_list(i64, sizes)
    return value, indices, [parser.resolve_operand(v, IndexType()) for v in dynamic], properties


class _TransferCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (StaticTransferSizes(),)


@irdl_op_definition
class DataTransferOp(IRDLOperation):
    """Moves a block of data: memref to memref, memref to FIFO slot, or FIFO slot
    to memref.

    A memref side is addressed by a dims-only affine map over its index operands
    (one result per memref dimension) and has one size per dimension. A FIFO side
    has neither map nor indices, and its sizes cover exactly one slot.
    ``transfer_mode = "splat"`` broadcasts one source element over the destination.
    """

    name = "ktdf.data_transfer"

    source = operand_def(base(MemRefType) | base(FifoSlotType))
    source_indices = var_operand_def(IndexType)
    """Operands of ``source_map``."""
    source_sizes = var_operand_def(IndexType)
    """Dynamic entries of ``static_source_sizes``."""
    destination = operand_def(base(MemRefType) | base(FifoSlotType))
    dest_indices = var_operand_def(IndexType)
    """Operands of ``dest_map``."""
    dest_sizes = var_operand_def(IndexType)
    """Dynamic entries of ``static_dest_sizes``."""

    static_source_sizes = prop_def(DenseArrayBase.constr(i64))
    """Transfer extent per source dimension, ``DYNAMIC_INDEX`` where dynamic."""
    static_dest_sizes = prop_def(DenseArrayBase.constr(i64))
    """Transfer extent per destination dimension, ``DYNAMIC_INDEX`` where dynamic."""
    source_map = opt_prop_def(AffineMapAttr)
    """Start position in a memref source, from ``source_indices``."""
    dest_map = opt_prop_def(AffineMapAttr)
    """Start position in a memref destination, from ``dest_indices``."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect(), _TransferCanonicalization())

    def __init__(
        self,
        source: SSAValue | Operation,
        source_sizes: Sequence[int | SSAValue],
        destination: SSAValue | Operation,
        dest_sizes: Sequence[int | SSAValue],
        source_access: tuple[AffineMap, Sequence[SSAValue]] | None = None,
        dest_access: tuple[AffineMap, Sequence[SSAValue]] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        """A memref side takes ``(map, indices)`` as its access; a FIFO side none."""
        properties: dict[str, Attribute] = {
            "static_source_sizes": _static_sizes(source_sizes),
            "static_dest_sizes": _static_sizes(dest_sizes),
        }
        if source_access is not None:
            properties["source_map"] = AffineMapAttr(source_access[0])
        if dest_access is not None:
            properties["dest_map"] = AffineMapAttr(dest_access[0])
        super().__init__(
            operands=[
                source, source_access[1] if source_access else [], _dynamic_sizes(source_sizes),
                destination, dest_access[1] if dest_access else [], _dynamic_sizes(dest_sizes),
            ],
            properties=properties,
            attributes=attributes,
        )

    @property
    def source_side(self) -> _Side:
        return _Side("source", self.source, self.source_indices, self.source_map,
                     self.static_source_sizes.get_values(), self.source_sizes)

    @property
    def dest_side(self) -> _Side:
        return _Side("dest", self.destination, self.dest_indices, self.dest_map,
                     self.static_dest_sizes.get_values(), self.dest_sizes)

    @property
    def is_splat(self) -> bool:
        return self.attributes.get(TRANSFER_MODE) == _SPLAT

    def make_splat(self) -> None:
        """Broadcast one source element over the destination."""
        self.attributes[TRANSFER_MODE] = _SPLAT

    def verify_(self) -> None:
        source, dest = self.source_side, self.dest_side
        if all(isinstance(side.value.type, FifoSlotType) for side in (source, dest)):
            raise VerifyException(
                "expects a memref on at least one side; fifo to fifo is not a transfer"
            )
        source.verify()
        dest.verify()
        mode = self.attributes.get(TRANSFER_MODE)
        if mode is not None and mode != _SPLAT:
            raise VerifyException(f"'transfer_mode' must be \"splat\", got {mode}")
        if source.element_type() != dest.element_type():
            raise VerifyException(
                f"source element type {source.element_type()} does not match dest element "
                f"type {dest.element_type()}"
            )
        _verify_counts(source.static_count, dest.static_count, self.is_splat)

    def print(self, printer: Printer) -> None:
        printer.print_string(" from ")
        self.source_side.print(printer)
        printer.print_string(" to ")
        self.dest_side.print(printer)
        print_attr_dict(printer, self, _TRANSFER_SYNTAX)
        printer.print_string(" : ")
        printer.print_list((self.source.type, self.destination.type), printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> DataTransferOp:
        parser.parse_keyword("from")
        source, source_indices, source_sizes, source_properties = _parse_side(parser, "source")
        parser.parse_keyword("to")
        dest, dest_indices, dest_sizes, dest_properties = _parse_side(parser, "dest")
        properties, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation(",")
        dest_type = parser.parse_type()
        return cls.build(
            operands=[
                parser.resolve_operand(source, source_type), source_indices, source_sizes,
                parser.resolve_operand(dest, dest_type), dest_indices, dest_sizes,
            ],
            properties=properties | source_properties | dest_properties,
            attributes=attributes,
        )


class StaticTransferSizes(RewritePattern):
    """A ``ktdf.data_transfer`` size given by an ``arith.constant`` becomes static
    (tile sizes chosen late leave such sizes behind)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DataTransferOp, rewriter: PatternRewriter) -> None:
        sides = (op.source_side, op.dest_side)
        sizes = [_folded_sizes(side) for side in sides]
        if all(list(side.dynamic_sizes) == _dynamic_sizes(new) for side, new in zip(sides, sizes)):
            return
        access = [None if side.access is None else (side.access.data, list(side.indices))
                  for side in sides]
        rewriter.replace(op, located(DataTransferOp(
            op.source, sizes[0], op.destination, sizes[1], access[0], access[1],
            dict(op.attributes),
        ), op))


def _folded_sizes(side: _Side) -> list[int | SSAValue]:
    """The side's sizes, each ``arith.constant`` one as its integer."""
    dynamic = iter(side.dynamic_sizes)
    sizes: list[int | SSAValue] = []
    for size in side.sizes:
        value = next(dynamic) if size == DYNAMIC_INDEX else size
        owner = value.owner if isinstance(value, SSAValue) else None
        if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
            value = owner.value.value.data
        sizes.append(value)
    return sizes


def _verify_counts(source: int | None, dest: int | None, splat: bool) -> None:
    """A plain transfer moves as many elements as it receives; a splat reads one."""
    if splat:
        if source is not None and source != 1:
            raise VerifyException(f"a splat transfer reads one source element, not {source}")
        return
    if source is not None and dest is not None and source != dest:
        raise VerifyException(f"source size covers {source} elements but dest size covers {dest}")


def _static_sizes(sizes: Sequence[int | SSAValue]) -> DenseArrayBase:
    return DenseArrayBase.from_list(
        i64, [size if isinstance(size, int) else DYNAMIC_INDEX for size in sizes]
    )


def _dynamic_sizes(sizes: Sequence[int | SSAValue]) -> list[SSAValue]:
    return [size for size in sizes if not isinstance(size, int)]


# ---------------------------------------------------------------------------------
# Parallel instances
# ---------------------------------------------------------------------------------


@irdl_op_definition
class ParallelOp(IRDLOperation):
    """An N-dimensional iteration space split over ``num_instances`` identical
    instances: block distribution, chunks of ceil(T / num_instances) iterations in
    lexicographic order, and an implicit barrier at the end.

    With T iterations in all (the product over the dimensions of
    ceil((ub - lb) / step), 0 for an empty one) and C = ceil(T / num_instances),
    instance k runs the iterations numbered [k*C, min((k+1)*C, T)) in lexicographic
    order, none when k*C >= T; any T works, balanced or not, known only at run time.

    The body's arguments are the N induction variables and then the instance id.
    """

    name = "ktdf.parallel"

    lower_bounds = var_operand_def(IndexType)
    """One per dimension, as are ``upper_bounds`` (exclusive) and ``steps``."""
    upper_bounds = var_operand_def(IndexType)
    steps = var_operand_def(IndexType)
    num_instances = prop_def(IntegerAttr[I64])
    """How many instances share the iteration space; at least 1."""
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = lazy_traits_def(
        lambda: (SingleBlockImplicitTerminator(ParallelYieldOp), RecursiveMemoryEffect())
    )

    def __init__(
        self,
        lower_bounds: Sequence[SSAValue | Operation],
        upper_bounds: Sequence[SSAValue | Operation],
        steps: Sequence[SSAValue | Operation],
        num_instances: int,
        body: Region,
    ):
        super().__init__(
            operands=[lower_bounds, upper_bounds, steps],
            properties={"num_instances": IntegerAttr(num_instances, i64)},
            regions=[body],
        )

    @property
    def induction_variables(self) -> Sequence[SSAValue]:
        return self.body.block.args[:-1]

    @property
    def instance_id(self) -> SSAValue:
        return self.body.block.args[-1]

    def verify_(self) -> None:
        rank = len(self.lower_bounds)
        if rank == 0 or len(self.upper_bounds) != rank or len(self.steps) != rank:
            raise VerifyException(
                "expects the same number (at least one) of lower bounds, upper bounds and steps"
            )
        if self.num_instances.value.data < 1:
            raise VerifyException(
                "attribute 'num_instances' failed to satisfy constraint: 64-bit signless "
                "integer attribute whose minimum value is 1"
            )
        args = self.body.block.args
        if len(args) != rank + 1 or not all(isinstance(arg.type, IndexType) for arg in args):
            raise VerifyException(
                f"expects {rank + 1} index block arguments: {rank} induction variables "
                "and the instance id"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        with printer.in_parens():
            printer.print_list(self.body.block.args, printer.print_ssa_value)
        printer.print_string(" = ")
        _print_index_list(printer, self.lower_bounds)
        printer.print_string(" to ")
        _print_index_list(printer, self.upper_bounds)
        printer.print_string(" step ")
        _print_index_list(printer, self.steps)
        printer.print_string(f" distribute(num_instances = {self.num_instances.value.data})")
        print_body(printer, self.body)
        print_attr_dict(printer, self, ("num_instances",))

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        args = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")
        lower_bounds = _parse_index_list(parser)
        parser.parse_keyword("to")
        upper_bounds = _parse_index_list(parser)
        parser.parse_keyword("step")
        steps = _parse_index_list(parser)
        parser.parse_keyword("distribute")
        with parser.in_parens():
            parser.parse_keyword("num_instances")
            parser.parse_punctuation("=")
            num_instances = IntegerAttr(parser.parse_integer(), i64)
        body = parse_body(parser, [arg.resolve(IndexType()) for arg in args])
        properties, attributes = parse_attr_dict(parser, cls)
        op = cls.build(
            operands=[lower_bounds, upper_bounds, steps], regions=[body],
            properties=properties | {"num_instances": num_instances}, attributes=attributes,
        )
        ensure_terminator(op, SingleBlockImplicitTerminator(ParallelYieldOp))
        return op


@irdl_op_definition
class ParallelYieldOp(IRDLOperation):
    """Ends the body of a ``ktdf.parallel``."""

    name = "ktdf.parallel_yield"

    assembly_format = "attr-dict"
    traits = traits_def(IsTerminator(), HasParent(ParallelOp), Pure())


# ---------------------------------------------------------------------------------
# Double buffering
# ---------------------------------------------------------------------------------


@irdl_op_definition
class BufferPhaseOp(IRDLOperation):
    """The current buffer phase: the linearised iteration count of the loops whose
    induction variables are given (outermost first), modulo ``num_phases``."""

    name = "ktdf.buffer_phase"

    ivs = var_operand_def(IndexType)
    """Induction variables, outermost first."""
    num_phases = prop_def(IntegerAttr[I64])
    """How many buffers rotate; at least 2."""
    result = result_def(IndexType)

    assembly_format = "`(` $ivs `)` attr-dict `:` type($result)"
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())

    def __init__(self, ivs: Sequence[SSAValue | Operation], num_phases: int = 2):
        super().__init__(
            operands=[ivs], result_types=[IndexType()],
            properties={"num_phases": IntegerAttr(num_phases, i64)},
        )

    def verify_(self) -> None:
        if self.num_phases.value.data < 2:
            raise VerifyException(
                "attribute 'num_phases' failed to satisfy constraint: 64-bit signless "
                "integer attribute whose minimum value is 2"
            )
        if not self.ivs:
            raise VerifyException("requires at least one induction variable operand")


@irdl_op_definition
class SelectMemrefOp(IRDLOperation):
    """``candidates[phase]``: the buffer that the current phase uses."""

    name = "ktdf.select_memref"

    phase = operand_def(IndexType)
    """Which candidate to use, usually a ``ktdf.buffer_phase``."""
    candidates = var_operand_def(MemRefType)
    """The rotating buffers, all of the result type."""
    result = result_def(MemRefType)

    traits = traits_def(Pure())

    def __init__(self, phase: SSAValue | Operation, candidates: Sequence[SSAValue | Operation]):
        super().__init__(
            operands=[phase, candidates], result_types=[SSAValue.get(candidates[0]).type]
        )

    def verify_(self) -> None:
        if len(self.candidates) < 2:
            raise VerifyException("requires at least 2 candidate memrefs")
        for index, candidate in enumerate(self.candidates):
            if candidate.type != self.result.type:
                raise VerifyException(
                    f"candidate #{index} expects different type: {candidate.type} vs "
                    f"result type {self.result.type}"
                )
        phase_op = self.phase.owner
        if not isinstance(phase_op, BufferPhaseOp):
            return
        if phase_op.num_phases.value.data != len(self.candidates):
            raise VerifyException(
                f"phase op num_phases ({phase_op.num_phases.value.data}) must equal "
                f"candidate count ({len(self.candidates)})"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.phase)
        with printer.in_square_brackets():
            printer.print_list(self.candidates, printer.print_ssa_value)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> SelectMemrefOp:
        phase = _parse_index(parser)
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        _, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        memref_type = parser.parse_type()
        candidates = [parser.resolve_operand(name, memref_type) for name in names]
        return cls.build(
            operands=[phase, candidates], result_types=[memref_type], attributes=attributes
        )


# ---------------------------------------------------------------------------------
# Tiling placeholders
# ---------------------------------------------------------------------------------


@irdl_op_definition
class ReserveSizeOp(IRDLOperation):
    """A tile size still to be chosen: a multiple of ``divisibility``, at least
    ``min_value``. Each op is its own unknown, never merged with another."""

    name = "ktdf.tiling.reserve_size"

    divisibility = prop_def(IntegerAttr[IndexType])
    """The chosen size must be a multiple of this; at least 1."""
    min_value = prop_def(IntegerAttr[IndexType])
    """The smallest size allowed; at least 1."""
    result = result_def(IndexType)

    assembly_format = "attr-dict `:` type($result)"
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(FreshResults())

    def __init__(self, min_value: int = 1, divisibility: int = 1):
        super().__init__(
            result_types=[IndexType()],
            properties={
                "divisibility": IntegerAttr(divisibility, IndexType()),
                "min_value": IntegerAttr(min_value, IndexType()),
            },
        )

    def verify_(self) -> None:
        for name in ("divisibility", "min_value"):
            if self.properties[name].value.data < 1:
                raise VerifyException(f"'{name}' must be at least 1")


@irdl_op_definition
class DeriveSizeOp(IRDLOperation):
    """Trip count of the current inner tiled loop: the whole tile in the steady
    state, the remainder in the last tile, 0 once ``total_size`` is exhausted.
    Each ``[iv : tile_size]`` pair is one tiling level, outermost first."""

    name = "ktdf.tiling.derive_size"

    ivs = var_operand_def(IndexType)
    """Tile-loop induction variables, one per tiling level."""
    tile_sizes = var_operand_def(IndexType)
    """Tile size at each level."""
    total_size = operand_def(IndexType)
    """Extent of the untiled loop."""
    result = result_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        ivs: Sequence[SSAValue | Operation],
        tile_sizes: Sequence[SSAValue | Operation],
        total_size: SSAValue | Operation,
    ):
        super().__init__(operands=[ivs, tile_sizes, total_size], result_types=[IndexType()])

    def verify_(self) -> None:
        _verify_pairs(self.ivs, self.tile_sizes, "[iv : tile_size]")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_pairs(printer, self.ivs, self.tile_sizes)
        printer.print_string(", " if self.ivs else "")
        printer.print_string("total_size = ")
        printer.print_ssa_value(self.total_size)
        print_attr_dict(printer, self)
        printer.print_string(" : index")

    @classmethod
    def parse(cls, parser: Parser) -> DeriveSizeOp:
        ivs: list[SSAValue] = []
        tile_sizes: list[SSAValue] = []
        while parser.parse_optional_keyword("total_size") is None:
            iv, tile_size = _parse_pair(parser)
            ivs.append(iv)
            tile_sizes.append(tile_size)
            parser.parse_punctuation(",")
        parser.parse_punctuation("=")
        total_size = _parse_index(parser)
        _, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        parser.parse_keyword("index")
        return cls.build(
            operands=[ivs, tile_sizes, total_size], result_types=[IndexType()],
            attributes=attributes,
        )


@irdl_op_definition
class LinearizeIndexOp(IRDLOperation):
    """The sum of ``iv * stride`` over its ``[iv : stride]`` pairs: the untiled
    index recovered from tile and point induction variables."""

    name = "ktdf.tiling.linearize_index"

    ivs = var_operand_def(IndexType)
    """Tile and point induction variables, outermost first."""
    strides = var_operand_def(IndexType)
    """How many untiled iterations one step of each induction variable covers."""
    result = result_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self, ivs: Sequence[SSAValue | Operation], strides: Sequence[SSAValue | Operation]
    ):
        super().__init__(operands=[ivs, strides], result_types=[IndexType()])

    def verify_(self) -> None:
        _verify_pairs(self.ivs, self.strides, "[iv : stride]")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_pairs(printer, self.ivs, self.strides)
        print_attr_dict(printer, self)
        printer.print_string(" : index")

    @classmethod
    def parse(cls, parser: Parser) -> LinearizeIndexOp:
        pairs = parser.parse_optional_undelimited_comma_separated_list(
            lambda: _parse_optional_pair(parser), lambda: _parse_pair(parser)
        ) or []
        _, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        parser.parse_keyword("index")
        operands = [[iv for iv, _ in pairs], [stride for _, stride in pairs]]
        return cls.build(operands=operands, result_types=[IndexType()], attributes=attributes)


def _verify_pairs(firsts: Sequence[SSAValue], seconds: Sequence[SSAValue], pair: str) -> None:
    if len(firsts) != len(seconds):
        raise VerifyException(f"every {pair} pair needs both values")
    if not firsts:
        raise VerifyException(f"must have at least one {pair} pair")


# ---------------------------------------------------------------------------------
# Backend: units and signals
# ---------------------------------------------------------------------------------


@irdl_op_definition
class ExecuteOnOp(IRDLOperation):
    """The body runs on these hardware units."""

    name = "ktdf.execute_on"

    units = var_operand_def(IndexType)
    """Handles of the units that run the body."""
    body = region_def("single_block")

    traits = traits_def(NoTerminator(), RecursiveMemoryEffect())

    def __init__(self, units: Sequence[SSAValue | Operation], body: Region | Sequence[Operation]):
        super().__init__(operands=[units], regions=[_region(body)])

    def verify_(self) -> None:
        if not self.units:
            raise VerifyException("requires at least one unit")

    def print(self, printer: Printer) -> None:
        if self.units:
            printer.print_string(" ")
            printer.print_list(self.units, printer.print_ssa_value)
        print_body(printer, self.body)
        print_attr_dict(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> ExecuteOnOp:
        units = parser.parse_optional_undelimited_comma_separated_list(
            lambda: _parse_optional_index(parser), lambda: _parse_index(parser)
        ) or []
        body = parse_body(parser)
        _, attributes = parse_attr_dict(parser, cls)
        return cls.build(operands=[units], regions=[body], attributes=attributes)


@irdl_op_definition
class SignalOp(IRDLOperation):
    """A synchronisation point between the given units: each waits until all have
    reached it."""

    name = "ktdf.signal"

    units = var_operand_def(IndexType)
    """Handles of the units that synchronise."""

    assembly_format = "$units attr-dict"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(self, units: Sequence[SSAValue | Operation]):
        super().__init__(operands=[units])

    def verify_(self) -> None:
        if not self.units:
            raise VerifyException("requires at least one unit")


@irdl_op_definition
class TileTableOp(IRDLOperation):
    """One index per compute tile: entry ``t`` of ``values`` on the tile whose linear
    id (x fastest) is ``tile``. Per-tile facts of a static grid that no affine
    expression of the tile id gives (the slot of a producer in its group's receive
    buffer, the tile it sends its partial to); the lowering makes them per-core
    constants, so the grid must run in one wave."""

    name = "ktdf.tile_table"

    tile = operand_def(IndexType)
    """The linear tile id."""
    values = prop_def(DenseArrayBase.constr(i64))
    """One entry per tile of the grid."""
    result = result_def(IndexType)

    assembly_format = "$tile attr-dict `:` type($result)"
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())

    def __init__(self, tile: SSAValue | Operation, values: Sequence[int]):
        super().__init__(
            operands=[tile], result_types=[IndexType()],
            properties={"values": DenseArrayBase.from_list(i64, list(values))},
        )

    def verify_(self) -> None:
        if not self.values.get_values():
            raise VerifyException("requires at least one value")


# ---------------------------------------------------------------------------------
# Attributes one pass leaves for another
# ---------------------------------------------------------------------------------
#
# Discardable attributes that passes set on ops of this dialect and of others, for
# later passes to read. Each has its name, the ops it may sit on, a check of its
# value (``verify_attributes``, which the module verifier runs on every op) and
# typed accessors; no other module spells their names.

ADDRESS = "ktdf.address"
"""On a ``memref.alloc``: its byte offset in one instance of its memory (an
``i64``, >= 0; ``address-assignment``)."""

COPY_STRIDE = "ktdf.copy_stride"
"""On a ``memref.alloc`` with an address that stands for several live copies: copy
``k`` starts at ``address + k * stride`` bytes (an ``i64``, > 0)."""

TILE_SIZE = "ktdf.tile_size"
"""On the ``arith.constant`` that replaced a ``ktdf.tiling.reserve_size``: who chose
the size, one of ``CHOSEN_BY``."""

TILE_SIZES = "ktdf.tile_sizes"
"""On a ``func.func``: the tile sizes chosen for it (``TileChoice``)."""

TO_TILES = "ktdf.to_tiles"
"""On a ``ktdf.data_transfer`` between two scratchpads: per linear tile id, the tile
whose scratchpad the destination is in (-1: that tile does not transfer)."""

SHARED_OVER_RING = "ktdf.shared_over_ring"
"""On a ``ktdf.data_transfer`` from device memory that several tiles make identically
(``share-over-ring``): per linear tile id, its position in the group of tiles reading
the same block. Only the group's owner of an iteration copies it; copies between cores
forward it to the others, so the copy is not shared again."""

RELAYED = "ktdf.relayed"
"""On a ``ktdf.data_transfer`` between two scratchpads (``ktdf.to_tiles``) that
``share-over-ring`` made: the copy forwards what the copy between cores before it in
its pipeline brought into the same buffer (a block relayed from member to member of a
group), so it waits for that copy on the tile that made it."""

FROM_TILES = "ktdf.from_tiles"
"""On a ``ktdp.load`` of a ``ct_local`` view: per linear tile id, the tile whose
scratchpad the tile reads, at the view's address (``split-distributed-views``, for a
distributed view whose partitions lie in other tiles' scratchpads)."""

MASKED = "ktdf.masked"
"""On a ``ktdp.construct_memory_view`` (a unit attribute): some access tile of the view
may reach outside its coordinate set (a box ``0 <= d_j < n_j``), so every transfer of
it moves only the part inside the set, and a transfer out of it fills the rest of its
destination with zeros (``lower-ktdp-views``)."""

LOOP_TYPE = "loop_type"
"""On an ``scf.for``: a ``LoopTypeAttr`` (IBM's spelling, without the prefix)."""

CONTRACTION_TILES = "ktdf.contraction_tiles"
"""On a contraction ``linalg.generic``: how it is tiled (``ContractionTiles``)."""

BY_COST_MODEL, BY_OPTION = "cost model", "option"
CHOSEN_BY = (BY_COST_MODEL, BY_OPTION)
"""Who may choose a tile size: the cost model, or a pass option."""


@dataclass(frozen=True)
class TileChoice:
    """The tile sizes of one function and what the cost model estimated for them."""

    chosen_by: str
    """One of ``CHOSEN_BY``."""
    sizes: tuple[int, ...]
    """The sizes in program order of their ``reserve_size`` ops."""
    estimated_cycles: int
    peak_bytes: dict[str, int]
    """Per memory kind below device memory, the bytes its buffers span."""
    capacity: dict[str, int]
    """Per memory kind of ``peak_bytes``, its capacity in bytes."""

    def attribute(self) -> DictionaryAttr:
        entries: dict[str, Attribute] = {
            "chosen_by": StringAttr(self.chosen_by),
            "sizes": DenseArrayBase.from_list(i64, list(self.sizes)),
            "estimated_cycles": IntegerAttr(self.estimated_cycles, i64),
        }
        for kind, used in self.peak_bytes.items():
            entries[f"{kind}{_PEAK}"] = IntegerAttr(used, i64)
            entries[f"{kind}{_CAPACITY}"] = IntegerAttr(self.capacity[kind], i64)
        return DictionaryAttr(entries)

    @staticmethod
    def of(attr: DictionaryAttr) -> TileChoice:
        entries = attr.data
        per_kind = {name: value.value.data for name, value in entries.items()
                    if name.endswith((_PEAK, _CAPACITY))}
        return TileChoice(
            entries["chosen_by"].data,
            tuple(entries["sizes"].get_values()),
            entries["estimated_cycles"].value.data,
            {n.removesuffix(_PEAK): v for n, v in per_kind.items() if n.endswith(_PEAK)},
            {n.removesuffix(_CAPACITY): v for n, v in per_kind.items() if n.endswith(_CAPACITY)},
        )


_PEAK, _CAPACITY = "_peak_bytes", "_capacity"


@dataclass(frozen=True)
class ContractionTiles:
    """How one contraction ``C[m, n] += A[m, k] * B[k, n]`` runs (``contraction-tiling``):
    output tiles of ``m`` x ``n`` with ``k``-deep tiles of A and B in the scratchpad, each
    tile product as ``chunk``-deep products of ``m`` x ``chunk`` by ``chunk`` x ``block``
    on ``engine`` (the matrix unit, or the compute engine on a device without one).

    ``resident`` names the operand whose panel stays in the scratchpad across the output
    tiles that share it, copied from device memory once (``"lhs"``: the ``m`` rows of A
    over all of k, kept while the tiles of that row stream B; ``"rhs"``: the ``n``
    columns of B, kept while the tiles of that column stream A); ``"none"`` copies both
    for every output tile (the attribute then leaves the entry out)."""

    m: int
    n: int
    k: int
    chunk: int
    block: int
    engine: str
    estimated_cycles: int
    resident: str = "none"

    _SIZES = ("m", "n", "k", "chunk", "block")

    def attribute(self) -> DictionaryAttr:
        entries: dict[str, Attribute] = {name: IntegerAttr(getattr(self, name), i64)
                                         for name in self._SIZES}
        entries["engine"] = StringAttr(self.engine)
        entries["estimated_cycles"] = IntegerAttr(self.estimated_cycles, i64)
        if self.resident != "none":
            entries["resident"] = StringAttr(self.resident)
        return DictionaryAttr(entries)

    @staticmethod
    def of(attr: DictionaryAttr) -> ContractionTiles:
        entries = attr.data
        sizes = {name: entries[name].value.data for name in ContractionTiles._SIZES}
        resident = entries["resident"].data if "resident" in entries else "none"
        return ContractionTiles(**sizes, engine=entries["engine"].data,
                                estimated_cycles=entries["estimated_cycles"].value.data,
                                resident=resident)


def address(alloc: Operation) -> int | None:
    attr = alloc.attributes.get(ADDRESS)
    return None if attr is None else attr.value.data


def set_address(alloc: Operation, offset: int) -> None:
    alloc.attributes[ADDRESS] = IntegerAttr(offset, i64)


def copy_stride(alloc: Operation) -> int | None:
    attr = alloc.attributes.get(COPY_STRIDE)
    return None if attr is None else attr.value.data


def set_copy_stride(alloc: Operation, stride: int) -> None:
    alloc.attributes[COPY_STRIDE] = IntegerAttr(stride, i64)


def tile_size_chosen_by(constant: Operation) -> str | None:
    attr = constant.attributes.get(TILE_SIZE)
    return None if attr is None else attr.data


def set_tile_size_chosen_by(constant: Operation, chosen_by: str) -> None:
    constant.attributes[TILE_SIZE] = StringAttr(chosen_by)


def tile_choice(func: Operation) -> TileChoice | None:
    attr = func.attributes.get(TILE_SIZES)
    return None if attr is None else TileChoice.of(attr)


def set_tile_choice(func: Operation, choice: TileChoice) -> None:
    func.attributes[TILE_SIZES] = choice.attribute()


def to_tiles(transfer: Operation) -> tuple[int, ...] | None:
    attr = transfer.attributes.get(TO_TILES)
    return None if attr is None else tuple(attr.get_values())


def to_tiles_attribute(table: Sequence[int]) -> dict[str, Attribute]:
    """The attributes of a transfer that copies to the tiles of ``table``."""
    return {TO_TILES: DenseArrayBase.from_list(i64, list(table))}


def shared_over_ring(transfer: Operation) -> tuple[int, ...] | None:
    attr = transfer.attributes.get(SHARED_OVER_RING)
    return None if attr is None else tuple(attr.get_values())


def shared_over_ring_attribute(positions: Sequence[int]) -> dict[str, Attribute]:
    """The attributes of a shared copy whose tiles have ``positions`` in their groups."""
    return {SHARED_OVER_RING: DenseArrayBase.from_list(i64, list(positions))}


def relayed(transfer: Operation) -> bool:
    return RELAYED in transfer.attributes


def relayed_attribute() -> dict[str, Attribute]:
    return {RELAYED: UnitAttr()}


def from_tiles(load: Operation) -> tuple[int, ...] | None:
    attr = load.attributes.get(FROM_TILES)
    return None if attr is None else tuple(attr.get_values())


def set_from_tiles(load: Operation, table: Sequence[int]) -> None:
    """Mark ``load`` as reading, on tile ``t``, the scratchpad of tile ``table[t]``."""
    load.attributes[FROM_TILES] = DenseArrayBase.from_list(i64, list(table))


def contraction_tiles(generic: Operation) -> ContractionTiles | None:
    attr = generic.attributes.get(CONTRACTION_TILES)
    return None if attr is None else ContractionTiles.of(attr)


def set_contraction_tiles(generic: Operation, tiles: ContractionTiles) -> None:
    generic.attributes[CONTRACTION_TILES] = tiles.attribute()


def masked(view: Operation) -> bool:
    return MASKED in view.attributes


def set_masked(view: Operation) -> None:
    view.attributes[MASKED] = UnitAttr()


def loop_type(loop: Operation) -> LoopType | None:
    attr = loop.attributes.get(LOOP_TYPE)
    return attr.data if isinstance(attr, LoopTypeAttr) else None


def set_loop_type(loop: Operation, kind: LoopType) -> None:
    loop.attributes[LOOP_TYPE] = LoopTypeAttr(kind)


def _i64(attr: Attribute) -> int | None:
    if isinstance(attr, IntegerAttr) and attr.type == i64:
        return attr.value.data
    return None


def _check_address(op: Operation, attr: Attribute) -> str | None:
    value = _i64(attr)
    return None if value is not None and value >= 0 else "must be a byte offset: an i64 >= 0"


def _check_copy_stride(op: Operation, attr: Attribute) -> str | None:
    value = _i64(attr)
    if value is None or value <= 0:
        return "must be a byte distance: an i64 > 0"
    return None if ADDRESS in op.attributes else f"needs a '{ADDRESS}' to count from"


def _check_tile_size(op: Operation, attr: Attribute) -> str | None:
    if not isinstance(attr, StringAttr) or attr.data not in CHOSEN_BY:
        return f"must name who chose the size: one of {', '.join(map(repr, CHOSEN_BY))}"
    return None if isinstance(op.results[0].type, IndexType) else "must sit on an index constant"


def _count(attr: Attribute) -> bool:
    value = _i64(attr)
    return value is not None and value >= 0


def _check_tile_sizes(op: Operation, attr: Attribute) -> str | None:
    if isinstance(attr, DictionaryAttr):
        entries = dict(attr.data)
        chosen_by, sizes = entries.pop("chosen_by", None), entries.pop("sizes", None)
        cycles = entries.pop("estimated_cycles", None)
        peaks = {name.removesuffix(_PEAK) for name in entries if name.endswith(_PEAK)}
        capacities = {name.removesuffix(_CAPACITY) for name in entries if name.endswith(_CAPACITY)}
        if (
            isinstance(chosen_by, StringAttr) and chosen_by.data in CHOSEN_BY
            and isinstance(sizes, DenseArrayBase) and sizes.elt_type == i64
            and cycles is not None and _count(cycles)
            and peaks == capacities and len(entries) == 2 * len(peaks)
            and all(_count(value) for value in entries.values())
        ):
            return None
    return ("must be a dictionary of chosen_by (who chose), sizes (an i64 array), "
            "estimated_cycles and, per memory kind, <kind>_peak_bytes and <kind>_capacity "
            "(each an i64 >= 0)")


def _check_to_tiles(op: Operation, attr: Attribute) -> str | None:
    if not isinstance(attr, DenseArrayBase) or attr.elt_type != i64 or not attr.get_values():
        return "must be a non-empty i64 array: one entry per tile"
    if any(to < -1 for to in attr.get_values()):
        return "entries must be -1 (no copy) or a tile id"
    return None


def _check_shared_over_ring(op: Operation, attr: Attribute) -> str | None:
    if not isinstance(attr, DenseArrayBase) or attr.elt_type != i64 or not attr.get_values():
        return "must be a non-empty i64 array: one entry per tile"
    if any(position < 0 for position in attr.get_values()):
        return "entries must be positions in a group (>= 0)"
    return None


def _check_relayed(op: Operation, attr: Attribute) -> str | None:
    if not isinstance(attr, UnitAttr):
        return "must be a unit attribute"
    return None if TO_TILES in op.attributes else "needs ktdf.to_tiles: it is a copy between cores"


def _check_from_tiles(op: Operation, attr: Attribute) -> str | None:
    if not isinstance(attr, DenseArrayBase) or attr.elt_type != i64 or not attr.get_values():
        return "must be a non-empty i64 array: one entry per tile"
    if any(tile < 0 for tile in attr.get_values()):
        return "entries must be tile ids"
    return None


def _check_contraction_tiles(op: Operation, attr: Attribute) -> str | None:
    expected = {*ContractionTiles._SIZES, "engine", "estimated_cycles"}
    if isinstance(attr, DictionaryAttr) and set(attr.data) - {"resident"} == expected:
        sizes = {name: _i64(attr.data[name]) for name in ContractionTiles._SIZES}
        resident = attr.data.get("resident")
        if (all(size is not None and size > 0 for size in sizes.values())
                and isinstance(attr.data["engine"], StringAttr)
                and _count(attr.data["estimated_cycles"])
                and (resident is None or (isinstance(resident, StringAttr)
                                          and resident.data in ("lhs", "rhs")))):
            if sizes["k"] % sizes["chunk"] or sizes["n"] % sizes["block"]:
                return "must have a chunk dividing k and a block dividing n"
            return None
    return ("must be a dictionary of m, n, k, chunk and block (each an i64 > 0), engine "
            "(a unit kind), estimated_cycles (an i64 >= 0) and maybe resident (\"lhs\" or "
            "\"rhs\")")


def _check_masked(op: Operation, attr: Attribute) -> str | None:
    return None if isinstance(attr, UnitAttr) else "must be a unit attribute"


def _check_loop_type(op: Operation, attr: Attribute) -> str | None:
    return None if isinstance(attr, LoopTypeAttr) else "must be a #ktdf.loop_type"


DECLARED: dict[str, tuple[tuple[str, ...], Callable[[Operation, Attribute], str | None]]] = {
    ADDRESS: (("memref.alloc",), _check_address),
    COPY_STRIDE: (("memref.alloc",), _check_copy_stride),
    TILE_SIZE: (("arith.constant",), _check_tile_size),
    TILE_SIZES: (("func.func",), _check_tile_sizes),
    TO_TILES: (("ktdf.data_transfer",), _check_to_tiles),
    FROM_TILES: (("ktdp.load",), _check_from_tiles),
    SHARED_OVER_RING: (("ktdf.data_transfer",), _check_shared_over_ring),
    RELAYED: (("ktdf.data_transfer",), _check_relayed),
    MASKED: (("ktdp.construct_memory_view",), _check_masked),
    LOOP_TYPE: (("scf.for",), _check_loop_type),
    CONTRACTION_TILES: (("linalg.generic",), _check_contraction_tiles),
}
"""Per attribute, the ops it may sit on and what is wrong with a value (None: nothing)."""


def verify_attributes(op: Operation) -> None:
    """Check the attributes of this dialect on ``op``: a ``ktdf.``-prefixed name must
    be declared and sit on an op it may sit on; every declared one on such an op
    must hold a well-formed value (``loop_type``, which has no prefix, is checked on
    ``scf.for`` only)."""
    for name, value in op.attributes.items():
        declared = DECLARED.get(name)
        if declared is None:
            if name.startswith("ktdf."):
                raise VerifyException(f"'{name}' is not an attribute of the ktdf dialect")
            continue
        ops, check = declared
        if op.name not in ops:
            if not name.startswith("ktdf."):
                continue
            raise VerifyException(f"'{name}' may only sit on '{ops[0]}'")
        if (problem := check(op, value)) is not None:
            raise VerifyException(f"'{name}' {problem}")


KTDF = Dialect(
    "ktdf",
    [
        PipelineOp,
        StageOp,
        PrivateOp,
        PrivateYieldOp,
        CreateTokenOp,
        FifoAllocateOp,
        ReadFromFifoOp,
        WriteToFifoOp,
        DataTransferOp,
        ParallelOp,
        ParallelYieldOp,
        BufferPhaseOp,
        SelectMemrefOp,
        ReserveSizeOp,
        DeriveSizeOp,
        LinearizeIndexOp,
        ExecuteOnOp,
        SignalOp,
        TileTableOp,
    ],
    [TokenType, FifoSlotType, LoopTypeAttr],
)
