"""The ``dfir`` dialect: DataflowIR, one program per engine kind.

DataflowIR is what the backend hands to code generation. A kernel stays a
``func.func``; its body computes, on the host, the values the device needs from
the kernel arguments (``dfir.define_symbol``), and holds one ``dfir.dataflow``:
the device side, which takes no arguments and uses nothing from outside.
Inside it, first the declarations:

- ``dfir.unit``: the hardware units the kernel uses, engines (DMA, load/store,
  SIMD) and memories, each an instance of a kind (``!dfir.unit<"sfu">``) at a
  core and sub-core. A unit is named by the SSA value of its ``dfir.unit``;
  the same instance is declared only once.
- ``dfir.uniform_map``: a value per instance of one kind (an address, a core
  number, the peer unit to talk to), so that one program text serves every
  instance.
- ``dfir.symbol``: a value the host computes at launch (``dfir.define_symbol``
  with the same id, one level up) and patches in; arithmetic on kernel
  arguments reaches the device only this way.

then one ``dfir.program`` per engine kind, SPMD over the instances it lists. A
program reads its per-instance values with ``dfir.query``, makes memory views
(``dfir.view``) over a memory unit at a byte address, moves data with
``dfir.dma`` (memory to memory), ``dfir.load`` / ``dfir.store`` (memory to and
from vector registers) and ``dfir.send`` / ``dfir.receive`` (vectors through the
FIFO to a peer engine, which synchronises by itself), computes with
``dfir.compute``, and hands over scratchpad buffers with ``dfir.sync_send`` /
``dfir.sync_recv``. Loops are ``scf.for``; address arithmetic is ``arith``.

Every FIFO transfer and every sync signal is a static pair of ops with the same
``id`` in two programs; the verifiers check that each end has exactly one
partner, that the partner runs on the kind this end names as its peer, and that
both ends of a FIFO carry the same vector type.

Vector compute is one op per instruction, ``dfir.compute <kind>``, not a region
of ``arith``/``math``: the encoder maps the kind to an opcode and the operands
to registers with one table lookup, and the simulator reads the same kind to
pick the numerics. A region would first need instruction selection (matching
op trees, rejecting what has no instruction), which belongs in the lowering,
where a failure can still name the KTIR op that caused it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ClassVar, TypeVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    AnyFloat,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    UnitAttr,
    VectorType,
    f32,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasAncestor, HasParent, IsolatedFromAbove, NoTerminator, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ktc.dialects.syntax import (
    AngleBracketEnum,
    parse_attributes_with_keyword,
    parse_body,
    print_body,
)

_OpT = TypeVar("_OpT", bound=Operation)

# Types


@irdl_attr_definition
class UnitType(ParametrizedAttribute, TypeAttribute):
    """``!dfir.unit<"kind">``: one instance of a hardware unit of a kind."""

    name = "dfir.unit"

    kind: StringAttr
    """The unit kind as the architecture description names it (``"sfu"``, ``"ddr"``)."""

    def __init__(self, kind: str | StringAttr):
        super().__init__(StringAttr(kind) if isinstance(kind, str) else kind)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            return [StringAttr(parser.parse_str_literal())]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.kind.data)


@irdl_attr_definition
class UniformType(ParametrizedAttribute, TypeAttribute):
    """``!dfir.uniform<"kind", T>``: a value of type T for each instance of a kind."""

    name = "dfir.uniform"

    kind: StringAttr
    """The kind whose instances the map is keyed by."""
    value_type: Attribute
    """The type of the values."""

    def __init__(self, kind: str | StringAttr, value_type: Attribute):
        super().__init__(StringAttr(kind) if isinstance(kind, str) else kind, value_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            kind = StringAttr(parser.parse_str_literal())
            parser.parse_punctuation(",")
            return [kind, parser.parse_type()]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.kind.data)
            printer.print_string(", ")
            printer.print_attribute(self.value_type)


def register_file(value_type: Attribute) -> str | None:
    """Which of an engine's register files holds a value of this type: ``v`` a
    vector, ``d`` a view, ``s`` anything else (scalars, units); None for a uniform
    map, which lives in the program's table, not in a register."""
    if isinstance(value_type, VectorType):
        return "v"
    if isinstance(value_type, MemRefType):
        return "d"
    if isinstance(value_type, UniformType):
        return None
    return "s"


# Attributes


class ComputeKind(StrEnum):
    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    DIV = "div"
    MAX = "max"
    MIN = "min"
    NEG = "neg"
    ABS = "abs"
    EXP = "exp"
    SQRT = "sqrt"
    RSQRT = "rsqrt"
    RECIPROCAL = "reciprocal"
    SIGMOID = "sigmoid"
    TANH = "tanh"
    GELU = "gelu"
    SILU = "silu"
    FMA = "fma"
    SOFTPLUS = "softplus"
    LAYERNORMSCALE = "layernormscale"
    LAYERNORMNORM = "layernormnorm"
    SELECT = "select"
    EXX2_MEAN = "exx2_mean"
    EXX2_SQUARES = "exx2_squares"
    CMP_EQ = "cmp_eq"
    CMP_NE = "cmp_ne"
    CMP_GT = "cmp_gt"
    CMP_GE = "cmp_ge"
    CMP_LT = "cmp_lt"
    CMP_LE = "cmp_le"


ARITY: dict[ComputeKind, int] = {
    ComputeKind.ADD: 2,
    ComputeKind.SUB: 2,
    ComputeKind.MUL: 2,
    ComputeKind.DIV: 2,
    ComputeKind.MAX: 2,
    ComputeKind.MIN: 2,
    ComputeKind.NEG: 1,
    ComputeKind.ABS: 1,
    ComputeKind.EXP: 1,
    ComputeKind.SQRT: 1,
    ComputeKind.RSQRT: 1,
    ComputeKind.RECIPROCAL: 1,
    ComputeKind.SIGMOID: 1,
    ComputeKind.TANH: 1,
    ComputeKind.GELU: 1,
    ComputeKind.SILU: 1,
    ComputeKind.FMA: 3,
    ComputeKind.SOFTPLUS: 3,
    ComputeKind.LAYERNORMSCALE: 2,
    ComputeKind.LAYERNORMNORM: 5,
    ComputeKind.SELECT: 3,
    ComputeKind.EXX2_MEAN: 1,
    ComputeKind.EXX2_SQUARES: 1,
    **dict.fromkeys((ComputeKind.CMP_EQ, ComputeKind.CMP_NE, ComputeKind.CMP_GT,
                     ComputeKind.CMP_GE, ComputeKind.CMP_LT, ComputeKind.CMP_LE), 2),
}
"""How many operands each compute kind takes (``fma`` is a * b + c). The kinds after
``fma`` are Spyre's intrinsics with the numerics of ``ktc.sim.numerics``: ``softplus``
(x, beta, threshold), ``layernormscale`` (mean, mean of squares), ``layernormnorm``
(x, mean, scale, weight, bias), ``select`` (condition, on true, on false), the two
results of ``exx2`` and ``compare`` per predicate (1 or 0)."""

PARAMETERS: dict[ComputeKind, int] = {ComputeKind.SOFTPLUS: 2}
"""How many of a kind's operands are parameters (after the data). Such an instruction
computes on f32 operands, the data widened exactly, and gives its result in the
data's own float type: a parameter keeps its f32 value."""


@irdl_attr_definition
class ComputeKindAttr(AngleBracketEnum, EnumAttribute[ComputeKind]):
    """``#dfir.compute_kind<add|sub|mul|div|max|min|neg|abs|exp|...|fma>``"""

    name = "dfir.compute_kind"


# Structure


@irdl_op_definition
class DataflowOp(IRDLOperation):
    """The device side of a kernel: units, uniform maps, symbols and programs.

    ``dfir.dataflow { ... }``. The body takes no arguments and uses no value
    defined outside it. There is at most one program per engine kind, and each
    unit instance is declared once.
    """

    name = "dfir.dataflow"

    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), NoTerminator())

    @classmethod
    def parse(cls, parser: Parser) -> DataflowOp:
        attributes = parse_attributes_with_keyword(parser)
        return cls.build(attributes=attributes, regions=[parse_body(parser)])

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes, print_keyword=True)
        print_body(printer, self.body)

    def verify_(self) -> None:
        programs: set[str] = set()
        units: set[tuple[str, int | None, int | None]] = set()
        for op in self.body.block.ops:
            if isinstance(op, ProgramOp):
                if op.kind.data in programs:
                    raise VerifyException(f"more than one program for engine kind '{op.kind.data}'")
                programs.add(op.kind.data)
            if isinstance(op, UnitOp):
                if op.identity in units:
                    raise VerifyException(f"{describe_unit(op)} is declared twice")
                units.add(op.identity)


@irdl_op_definition
class UnitOp(IRDLOperation):
    """One instance of a hardware unit (an engine or a memory).

    ``%u = dfir.unit core 0 subcore 1 : !dfir.unit<"sfu">``; a unit shared by
    every core (device memory) has no ``core``.
    """

    name = "dfir.unit"

    core = opt_prop_def(IntegerAttr[I64])
    """The core the unit belongs to; absent for a unit shared by all cores."""
    subcore = opt_prop_def(IntegerAttr[I64])
    """The sub-core within the core, for units that exist once per sub-core."""
    unit = result_def(UnitType)

    traits = traits_def(Pure(), HasParent(DataflowOp))
    assembly_format = "(`core` $core^)? (`subcore` $subcore^)? attr-dict `:` type($unit)"

    @property
    def identity(self) -> tuple[str, int | None, int | None]:
        return (self.unit.type.kind.data, _int_or_none(self.core), _int_or_none(self.subcore))

    def verify_(self) -> None:
        if self.subcore is not None and self.core is None:
            raise VerifyException("a unit with a subcore needs a core")
        for field, value in (("core", self.core), ("subcore", self.subcore)):
            if value is not None and value.value.data < 0:
                raise VerifyException(f"{field} must be non-negative, got {value.value.data}")


def _int_or_none(attr: IntegerAttr | None) -> int | None:
    return None if attr is None else attr.value.data


def describe_unit(unit: SSAValue | UnitOp) -> str:
    """A unit as a diagnostic names it: ``'sfu' unit core 0 subcore 1``."""
    op = unit.owner if isinstance(unit, SSAValue) else unit
    if not isinstance(op, UnitOp):
        return f"'{unit.type.kind.data}' unit"
    kind, core, subcore = op.identity
    where = "".join(f" {name} {value}" for name, value in (("core", core), ("subcore", subcore))
                    if value is not None)
    return f"'{kind}' unit{where}"


@irdl_op_definition
class ProgramOp(IRDLOperation):
    """The program every instance of one engine kind runs (SPMD).

    ``dfir.program "sfu" on (%sfu0, %sfu1) { ... }``. The body takes no
    arguments; an instance tells itself apart from the others only through
    ``dfir.query``. All listed units are distinct and of the program's kind.
    """

    name = "dfir.program"

    kind = prop_def(StringAttr)
    """The engine kind."""
    units = var_operand_def(UnitType)
    """The instances that run the program."""
    body = region_def("single_block")

    traits = traits_def(HasParent(DataflowOp), NoTerminator())

    def verify_(self) -> None:
        if not self.units:
            raise VerifyException("a program runs on at least one unit")
        for unit in self.units:
            if unit.type.kind != self.kind:
                raise VerifyException(
                    f"program for '{self.kind.data}' cannot run on {describe_unit(unit)}"
                )
        if len(set(self.units)) != len(self.units):
            raise VerifyException("a unit is listed twice")
        if self.body.block.args:
            raise VerifyException("the program body takes no arguments")

    @classmethod
    def parse(cls, parser: Parser) -> ProgramOp:
        kind = parser.parse_str_literal()
        parser.parse_keyword("on")
        units = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        unit_type = UnitType(kind)
        attributes = parse_attributes_with_keyword(parser)
        return cls.build(
            operands=[[parser.resolve_operand(unit, unit_type) for unit in units]],
            properties={"kind": StringAttr(kind)},
            attributes=attributes,
            regions=[parse_body(parser)],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.kind.data)
        printer.print_string(" on (")
        printer.print_list(self.units, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        print_body(printer, self.body)


def enclosing(op: Operation, kind: type[_OpT]) -> _OpT | None:
    """The nearest op of type ``kind`` that contains ``op``, if any."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, kind):
        parent = parent.parent_op()
    return parent


# Per-instance values


@irdl_op_definition
class UniformMapOp(IRDLOperation):
    """A value for each instance of one kind.

    ``%m = dfir.uniform_map [%sfu0 -> %c0, %sfu1 -> %c64] : !dfir.uniform<"sfu", index>``.
    Keys are distinct units of the map's kind; values have the map's value type.
    """

    name = "dfir.uniform_map"

    keys = var_operand_def(UnitType)
    values = var_operand_def()
    """``values[i]`` belongs to ``keys[i]``."""
    map = result_def(UniformType)

    traits = traits_def(Pure(), HasParent(DataflowOp))
    irdl_options = (SameVariadicOperandSize(),)

    def verify_(self) -> None:
        map_type = self.map.type
        if not self.keys:
            raise VerifyException("a uniform map has at least one entry")
        for key in self.keys:
            if key.type.kind != map_type.kind:
                raise VerifyException(
                    f"key {describe_unit(key)} is not of the map's kind '{map_type.kind.data}'"
                )
        for value in self.values:
            if value.type != map_type.value_type:
                raise VerifyException(
                    f"value of type {value.type} in a map of {map_type.value_type}"
                )
        if len(set(self.keys)) != len(self.keys):
            raise VerifyException("a unit has two entries")

    @classmethod
    def parse(cls, parser: Parser) -> UniformMapOp:
        entries = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: _parse_entry(parser)
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        map_type = _parse_uniform_type(parser)
        unit_type = UnitType(map_type.kind)
        keys = [parser.resolve_operand(key, unit_type) for key, _ in entries]
        values = [parser.resolve_operand(value, map_type.value_type) for _, value in entries]
        return cls.build(operands=[keys, values], result_types=[map_type], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" [")
        printer.print_list(zip(self.keys, self.values), lambda entry: _print_entry(printer, *entry))
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.map.type)


def _parse_uniform_type(parser: Parser) -> UniformType:
    start = parser.pos
    map_type = parser.parse_type()
    if not isinstance(map_type, UniformType):
        parser.raise_error(f"expected a !dfir.uniform type, got {map_type}", start, parser.pos)
    return map_type


def _parse_entry(parser: Parser) -> tuple[UnresolvedOperand, UnresolvedOperand]:
    key = parser.parse_unresolved_operand()
    parser.parse_punctuation("->")
    return key, parser.parse_unresolved_operand()


def _print_entry(printer: Printer, key: SSAValue, value: SSAValue) -> None:
    printer.print_operand(key)
    printer.print_string(" -> ")
    printer.print_operand(value)


@irdl_op_definition
class QueryOp(IRDLOperation):
    """This instance's value in a uniform map.

    ``%v = dfir.query %m : !dfir.uniform<"sfu", index>``. The map is keyed by the
    enclosing program's kind and has an entry for every unit the program runs on.
    """

    name = "dfir.query"

    map = operand_def(UniformType)
    value = result_def()

    traits = traits_def(Pure(), HasAncestor(ProgramOp))

    def verify_(self) -> None:
        map_type = self.map.type
        if self.value.type != map_type.value_type:
            raise VerifyException(
                f"result type {self.value.type} is not the map's value type {map_type.value_type}"
            )
        program = enclosing(self, ProgramOp)
        if program is None:
            return
        if map_type.kind != program.kind:
            raise VerifyException(
                f"map keyed by '{map_type.kind.data}' units queried in the "
                f"'{program.kind.data}' program"
            )
        if not isinstance(definition := self.map.owner, UniformMapOp):
            raise VerifyException("expects the map of a dfir.uniform_map")
        missing = [unit for unit in program.units if unit not in definition.keys]
        if missing:
            raise VerifyException(f"the map has no entry for {describe_unit(missing[0])}")

    @classmethod
    def parse(cls, parser: Parser) -> QueryOp:
        map_value = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        map_type = _parse_uniform_type(parser)
        return cls.build(
            operands=[parser.resolve_operand(map_value, map_type)],
            result_types=[map_type.value_type],
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.map)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.map.type)


# Symbols


def _verify_symbol_type(value_type: Attribute) -> None:
    if not isinstance(value_type, IndexType | IntegerType | AnyFloat):
        raise VerifyException(f"a symbol is an index, an integer or a float, got {value_type}")


@irdl_op_definition
class DefineSymbolOp(IRDLOperation):
    """Host code: the value of symbol ``id``, computed at launch from the kernel
    arguments (and constants), e.g. the address of an argument plus an offset, or a
    float argument the compute engine splats.

    ``dfir.define_symbol 1 = %addr : index``. It sits outside ``dfir.dataflow``,
    in the block that holds it; ids are unique in that block.
    """

    name = "dfir.define_symbol"

    id = prop_def(IntegerAttr[I64])
    value = operand_def()
    """An index, an integer or a float."""

    assembly_format = "$id `=` $value attr-dict `:` type($value)"

    def verify_(self) -> None:
        _verify_symbol_type(self.value.type)
        if enclosing(self, DataflowOp) is not None:
            raise VerifyException("a symbol is defined by host code, outside 'dfir.dataflow'")
        earlier = self.prev_op
        while earlier is not None:
            if isinstance(earlier, DefineSymbolOp) and earlier.id == self.id:
                raise VerifyException(f"symbol {self.id.value.data} is defined twice")
            earlier = earlier.prev_op


@irdl_op_definition
class SymbolOp(IRDLOperation):
    """A value the host patches in at launch: symbol ``id`` of the kernel.

    ``%a = dfir.symbol 1 : index``. The ``dfir.define_symbol`` with the same id,
    beside the enclosing ``dfir.dataflow``, says how it is computed; both have
    the same type.
    """

    name = "dfir.symbol"

    id = prop_def(IntegerAttr[I64])
    result = result_def()
    """An index, an integer or a float."""

    traits = traits_def(Pure(), HasAncestor(DataflowOp))
    assembly_format = "$id attr-dict `:` type($result)"

    def verify_(self) -> None:
        _verify_symbol_type(self.result.type)
        dataflow = enclosing(self, DataflowOp)
        block = None if dataflow is None else dataflow.parent_block()
        if block is None:
            return
        definition = next((op for op in block.ops
                           if isinstance(op, DefineSymbolOp) and op.id == self.id), None)
        if definition is None:
            raise VerifyException(f"symbol {self.id.value.data} is not defined")
        if definition.value.type != self.result.type:
            raise VerifyException(
                f"symbol {self.id.value.data} is defined as {definition.value.type}, "
                f"used as {self.result.type}"
            )


# Memory


@irdl_op_definition
class ViewOp(IRDLOperation):
    """A memref over a memory unit, starting at a byte address.

    ``%v = dfir.view %l1[%addr] : !dfir.unit<"l1"> -> memref<4x64xf16>``. A
    dimension known only at run time is ``?`` in the type and an operand of
    ``sizes``, in order: ``dfir.view %l1[%addr] sizes(%n) : ... -> memref<?x64xf16>``
    (only a ``dfir.dma`` copies such a view). The layout is row-major or
    ``strided<[...]>`` with static strides and no offset (the address is the start).
    """

    name = "dfir.view"

    memory = operand_def(UnitType)
    address = operand_def(IndexType)
    """The start, in bytes from the start of the memory; may be symbolic."""
    sizes = var_operand_def(IndexType)
    """The dynamic dimensions, outermost first."""
    view = result_def(MemRefType)

    traits = traits_def(Pure(), HasAncestor(DataflowOp))
    assembly_format = (
        "$memory `[` $address `]` (`sizes` `(` $sizes^ `)`)? attr-dict `:` type($memory) "
        "`->` type($view)"
    )

    def verify_(self) -> None:
        view_type = self.view.type
        dynamic = sum(1 for size in view_type.get_shape() if size == DYNAMIC_INDEX)
        if dynamic != len(self.sizes):
            raise VerifyException(f"{view_type} has {dynamic} dynamic dimensions, but "
                                  f"{len(self.sizes)} sizes are given")
        layout = view_type.layout
        if isinstance(layout, NoneAttr):
            if DYNAMIC_INDEX in view_type.get_shape()[1:]:
                raise VerifyException(f"a row-major view is dynamic only in its outermost "
                                      f"dimension, got {view_type}")
            return
        if not isinstance(layout, StridedLayoutAttr):
            raise VerifyException(f"a view is row-major or strided, got layout {layout}")
        if None in layout.get_strides() or layout.get_offset() != 0:
            raise VerifyException(
                f"a view's strides are static and its offset is 0, got {layout}"
            )


def _verify_vector_access(view: MemRefType, vector: Attribute, indices: int) -> None:
    """A vector of contiguous elements along the innermost dimension of ``view``."""
    if indices != view.get_num_dims():
        raise VerifyException(
            f"expects {view.get_num_dims()} indices for {view}, got {indices}"
        )
    if not isinstance(vector, VectorType) or vector.get_num_dims() != 1:
        raise VerifyException(f"expects a one-dimensional vector, got {vector}")
    if vector.element_type != view.element_type:
        raise VerifyException(f"{vector} does not hold the elements of {view}")
    if vector.get_shape()[0] > view.get_shape()[-1]:
        raise VerifyException(f"{vector} is longer than the innermost dimension of {view}")


@irdl_op_definition
class LoadOp(IRDLOperation):
    """Loads a vector of consecutive elements along the innermost dimension.

    ``%v = dfir.load %view[%i, %j] : memref<4x64xf16>, vector<64xf16>``
    """

    name = "dfir.load"

    view = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    """The position of the first element."""
    result = result_def(VectorType)

    traits = traits_def(HasAncestor(ProgramOp))
    assembly_format = "$view `[` $indices `]` attr-dict `:` type($view) `,` type($result)"

    def verify_(self) -> None:
        _verify_vector_access(self.view.type, self.result.type, len(self.indices))


@irdl_op_definition
class StoreOp(IRDLOperation):
    """Stores a vector to consecutive elements along the innermost dimension.

    ``dfir.store %v, %view[%i, %j] : memref<4x64xf16>, vector<64xf16>``
    """

    name = "dfir.store"

    value = operand_def(VectorType)
    view = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    """The position of the first element."""

    traits = traits_def(HasAncestor(ProgramOp))
    assembly_format = (
        "$value `,` $view `[` $indices `]` attr-dict `:` type($view) `,` type($value)"
    )

    def verify_(self) -> None:
        _verify_vector_access(self.view.type, self.value.type, len(self.indices))


@irdl_op_definition
class LoadIndexOp(IRDLOperation):
    """Reads one integer element of a view into a scalar (sign-extended in its
    register): an index of an indirect access, read by the DMA engine that moves the
    data. It reads once the engine's copies in flight that write the element have
    completed (the index tile it copied in first).

    ``%i = dfir.load_index %view[%m] : memref<8xi32>, i32``
    """

    name = "dfir.load_index"

    view = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def(IntegerType)

    traits = traits_def(HasAncestor(ProgramOp))
    assembly_format = "$view `[` $indices `]` attr-dict `:` type($view) `,` type($result)"

    def verify_(self) -> None:
        view = self.view.type
        if view.element_type != self.result.type:
            raise VerifyException(f"reads {self.result.type} from {view}")
        if len(self.indices) != view.get_num_dims():
            raise VerifyException(f"{len(self.indices)} indices into {view}")


@irdl_op_definition
class DmaOp(IRDLOperation):
    """Copies one view into another of the same shape and element type.

    ``dfir.dma %src to %dst : memref<4x64xf16>, memref<4x64xf16, strided<[128, 1]>>``.
    With ``zero_fill`` the source may be smaller in any dimension (a masked tail):
    it lands at the destination's leading corner and every other element of the
    destination becomes the element type's zero
    (``dfir.dma %src to %dst zero_fill : memref<?xf32>, memref<1024xf32>``).
    Copies issued by one engine complete in order, and all of them before its
    next ``dfir.sync_send``. With ``indirect`` the copy's address was computed from
    indices the engine read (``dfir.load_index``): the engine writes its descriptor
    at run time (``dfir.dma %src to %dst indirect : ...``).
    """

    name = "dfir.dma"

    source = operand_def(MemRefType)
    destination = operand_def(MemRefType)
    zero_fill = opt_prop_def(UnitAttr)
    indirect = opt_prop_def(UnitAttr)

    traits = traits_def(HasAncestor(ProgramOp))
    assembly_format = (
        "$source `to` $destination (`zero_fill` $zero_fill^)? (`indirect` $indirect^)? attr-dict "
        "`:` type($source) `,` type($destination)"
    )

    def verify_(self) -> None:
        source, destination = self.source.type, self.destination.type
        if source.element_type != destination.element_type:
            raise VerifyException(f"copies {source} into {destination} of another element type")
        if self.zero_fill is None:
            if source.get_shape() != destination.get_shape():
                raise VerifyException(f"copies {source} into {destination} of another shape")
            return
        shapes = (source.get_shape(), destination.get_shape())
        if len(shapes[0]) != len(shapes[1]) or any(
            DYNAMIC_INDEX not in (a, b) and a > b for a, b in zip(*shapes)
        ):
            raise VerifyException(f"fills {destination} from {source}, which does not fit in it")


# Engine to engine


class PairedOp(IRDLOperation):
    """Base of the ops that pair up by ``id`` with one op in the peer's program.

    ``PARTNER`` names the op kind at the other end.
    """

    PARTNER: ClassVar[str]

    peer = operand_def(UnitType)
    """The unit at the other end."""
    id = prop_def(IntegerAttr[I64])
    """Names the pair: exactly one ``PARTNER`` op has the same id."""

    traits = traits_def(HasAncestor(ProgramOp))

    def verify_(self) -> None:
        self.partner()

    def partner(self) -> PairedOp | None:
        """The op at the other end; raises unless there is exactly one, in the peer's program."""
        program = enclosing(self, ProgramOp)
        if program is None:
            return None
        partners = _pairs(program, self.PARTNER, self.id.value.data)
        if len(partners) != 1:
            raise VerifyException(
                f"id {self.id.value.data} pairs with {len(partners)} '{self.PARTNER}' ops, "
                "expected exactly one"
            )
        partner = partners[0]
        partner_program = enclosing(partner, ProgramOp)
        if partner_program is None:
            return None
        if partner_program.kind != self.peer.type.kind:
            raise VerifyException(
                f"peer is a '{self.peer.type.kind.data}' unit, but the '{self.PARTNER}' "
                f"with id {self.id.value.data} is in the '{partner_program.kind.data}' program"
            )
        if partner.peer.type.kind != program.kind:
            raise VerifyException(
                f"the '{self.PARTNER}' with id {self.id.value.data} expects a "
                f"'{partner.peer.type.kind.data}' peer, not '{program.kind.data}'"
            )
        return partner


_PAIR_INDEX: ContextVar[dict[int, dict[tuple[str, int], list[PairedOp]]] | None] = ContextVar(
    "dfir_pair_index", default=None)
"""Inside ``pair_index``: per dataflow (by identity), its paired ops by name and id."""


@contextmanager
def pair_index() -> Iterator[None]:
    """Within it, ``PairedOp.partner`` finds pairs in one index per dataflow, built at
    its first lookup, instead of walking the dataflow for every op: for verifying a
    module whose IR does not change meanwhile (a dataflow of ``n`` paired ops costs
    one walk, not ``n``)."""
    token = _PAIR_INDEX.set({})
    try:
        yield
    finally:
        _PAIR_INDEX.reset(token)


def _pairs(program: ProgramOp, name: str, pair_id: int) -> list[PairedOp]:
    """The paired ops named ``name`` with id ``pair_id`` in ``program``'s dataflow."""
    dataflow = program.parent_op()
    if dataflow is None:
        return []
    index = _PAIR_INDEX.get()
    if index is None:
        return [op for op in dataflow.walk()
                if isinstance(op, PairedOp) and op.name == name and op.id.value.data == pair_id]
    table = index.get(id(dataflow))
    if table is None:
        table = index[id(dataflow)] = defaultdict(list)
        for op in dataflow.walk():
            if isinstance(op, PairedOp):
                table[(op.name, op.id.value.data)].append(op)
    return table.get((name, pair_id), [])


@irdl_op_definition
class SyncSendOp(PairedOp):
    """Signals the peer that this engine is done with a scratchpad buffer.

    ``dfir.sync_send %peer id 3 : !dfir.unit<"lsu">``. The engine goes on
    at once; the signal leaves once every earlier memory operation of this engine has
    completed.
    """

    name = "dfir.sync_send"
    PARTNER: ClassVar = "dfir.sync_recv"

    assembly_format = "$peer `id` $id attr-dict `:` type($peer)"


@irdl_op_definition
class SyncRecvOp(PairedOp):
    """Waits for the peer's signal with the same id.

    ``dfir.sync_recv %peer id 3 : !dfir.unit<"dma">``
    """

    name = "dfir.sync_recv"
    PARTNER: ClassVar = "dfir.sync_send"

    assembly_format = "$peer `id` $id attr-dict `:` type($peer)"


class FifoOp(PairedOp):
    """Base of ``send`` / ``receive``: both ends carry the same vector, ``value``."""

    def verify_(self) -> None:
        partner = self.partner()
        if partner is not None and partner.value.type != self.value.type:
            raise VerifyException(
                f"carries {self.value.type}, but the '{self.PARTNER}' with id "
                f"{self.id.value.data} carries {partner.value.type}"
            )


@irdl_op_definition
class SendOp(FifoOp):
    """Pushes a vector into the FIFO to the peer engine; blocks while it is full.

    ``dfir.send %v to %peer id 1 : vector<64xf16>, !dfir.unit<"sfu">``
    """

    name = "dfir.send"
    PARTNER: ClassVar = "dfir.receive"

    value = operand_def(VectorType)

    assembly_format = "$value `to` $peer `id` $id attr-dict `:` type($value) `,` type($peer)"


@irdl_op_definition
class ReceiveOp(FifoOp):
    """Pops a vector from the FIFO from the peer engine; blocks while it is empty.

    ``%v = dfir.receive from %peer id 1 : !dfir.unit<"lsu"> -> vector<64xf16>``
    """

    name = "dfir.receive"
    PARTNER: ClassVar = "dfir.send"

    value = result_def(VectorType)

    assembly_format = "`from` $peer `id` $id attr-dict `:` type($peer) `->` type($value)"


# Compute


@irdl_op_definition
class ComputeOp(IRDLOperation):
    """One SIMD instruction, elementwise over one-dimensional vectors of one type.

    ``%r = dfir.compute <add> %a, %b : vector<64xf16>``; ``ARITY`` gives the
    operand count of each kind. A kind with parameters (``PARAMETERS``) computes on
    f32 vectors and may give another element type:
    ``%r = dfir.compute <softplus> %x, %beta, %threshold : vector<64xf32> -> vector<64xf16>``.
    """

    name = "dfir.compute"

    kind = prop_def(ComputeKindAttr)
    inputs = var_operand_def(VectorType)
    result = result_def(VectorType)

    traits = traits_def(Pure(), HasAncestor(ProgramOp))

    @classmethod
    def parse(cls, parser: Parser) -> ComputeOp:
        kind = ComputeKindAttr(ComputeKindAttr.parse_parameter(parser))
        inputs = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source = parser.parse_type()
        result = parser.parse_type() if parser.parse_optional_punctuation("->") else source
        operands = [parser.resolve_operand(unresolved, source) for unresolved in inputs]
        return cls.build(operands=[operands], result_types=[result], properties={"kind": kind},
                         attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.kind.print_parameter(printer)
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.inputs and self.inputs[0].type != self.result.type:
            printer.print_attribute(self.inputs[0].type)
            printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        kind = self.kind.data
        if len(self.inputs) != ARITY[kind]:
            raise VerifyException(f"'{kind}' takes {ARITY[kind]} operands, got {len(self.inputs)}")
        if self.result.type.get_num_dims() != 1:
            raise VerifyException(f"expects a one-dimensional vector, got {self.result.type}")
        source = self.inputs[0].type
        if any(value.type != source for value in self.inputs):
            raise VerifyException("expects operands of one type")
        if kind in PARAMETERS:
            if source.element_type != f32 or source.get_shape() != self.result.type.get_shape():
                raise VerifyException(f"'{kind}' computes on f32 vectors of the result's length, "
                                      f"got {source}")
        elif source != self.result.type:
            raise VerifyException(f"'{kind}' gives the type of its operands, not {self.result.type}")


class ReduceKind(StrEnum):
    ADD = "add"
    MUL = "mul"
    MAX = "max"
    MIN = "min"


@irdl_attr_definition
class ReduceKindAttr(AngleBracketEnum, EnumAttribute[ReduceKind]):
    """``#dfir.reduce_kind<add|mul|max|min>``"""

    name = "dfir.reduce_kind"


def _verify_same_elements(source: VectorType, result: VectorType) -> None:
    for vector in (source, result):
        if vector.get_num_dims() != 1:
            raise VerifyException(f"expects a one-dimensional vector, got {vector}")
    if source.element_type != result.element_type:
        raise VerifyException(f"{source} and {result} hold different element types")


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """One horizontal reduction: folds every lane of a vector into one lane.

    ``%s = dfir.reduce <add> %v : vector<256xf32> -> vector<1xf32>``. The vector
    may be longer than the SIMD lanes (several beats); the result has one element.
    """

    name = "dfir.reduce"

    kind = prop_def(ReduceKindAttr)
    input = operand_def(VectorType)
    result = result_def(VectorType)

    traits = traits_def(Pure(), HasAncestor(ProgramOp))
    assembly_format = "$kind $input attr-dict `:` type($input) `->` type($result)"

    def verify_(self) -> None:
        _verify_same_elements(self.input.type, self.result.type)
        if self.result.type.get_shape()[0] != 1:
            raise VerifyException(f"a reduction yields one element, got {self.result.type}")


@irdl_op_definition
class SplatOp(IRDLOperation):
    """Copies a scalar, or the one element of a vector, into every lane of a vector.

    ``%w = dfir.splat %s : vector<1xf16> -> vector<64xf16>``,
    ``%e = dfir.splat %eps : f16 -> vector<64xf16>``; the engines whose
    description has the ``splat`` feature run it.
    """

    name = "dfir.splat"

    input = operand_def()
    result = result_def(VectorType)

    traits = traits_def(Pure(), HasAncestor(ProgramOp))
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"

    def verify_(self) -> None:
        source = self.input.type
        if not isinstance(source, VectorType):
            if source != self.result.type.element_type:
                raise VerifyException(f"splats {source} into {self.result.type}")
            return
        _verify_same_elements(source, self.result.type)
        if source.get_shape()[0] != 1:
            raise VerifyException(f"splats a one-element vector, got {source}")


@irdl_op_definition
class ConvertOp(IRDLOperation):
    """Converts every lane to another element type (rounding to nearest even).

    ``%w = dfir.convert %v : vector<64xf16> -> vector<64xf32>``
    """

    name = "dfir.convert"

    input = operand_def(VectorType)
    result = result_def(VectorType)

    traits = traits_def(Pure(), HasAncestor(ProgramOp))
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"

    def verify_(self) -> None:
        source, result = self.input.type, self.result.type
        if source.get_num_dims() != 1 or source.get_shape() != result.get_shape():
            raise VerifyException(f"converts {source} into {result} of another shape")
        if source.element_type == result.element_type:
            raise VerifyException(f"converts {source} into the same element type")


@irdl_op_definition
class MatmulOp(IRDLOperation):
    """One product on the matrix unit: ``acc + lhs · rhs`` for an ``m x k`` lhs and a
    ``k x n`` rhs (``n x k`` with ``transposed_rhs``, for a unit that takes it so), each
    a row-major one-dimensional vector, the accumulator and the result ``m x n`` of the
    accumulator type.

    ``%d = dfir.matmul %a, %b, %c [64, 32, 64] : vector<2048xf16>, vector<2048xf16> -> vector<4096xf32>``
    ``%d = dfir.matmul %a, %b, %c [64, 32, 64] transposed_rhs : ...``
    """

    name = "dfir.matmul"

    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def(VectorType)
    shape = prop_def(DenseArrayBase)
    """``[m, k, n]``."""
    transposed_rhs = opt_prop_def(UnitAttr)
    """The rhs is ``n x k``."""
    result = result_def(VectorType)

    traits = traits_def(Pure(), HasAncestor(ProgramOp))

    @classmethod
    def parse(cls, parser: Parser) -> MatmulOp:
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        shape = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        properties = {"shape": DenseArrayBase.from_list(i64, shape)}
        if parser.parse_optional_keyword("transposed_rhs") is not None:
            properties["transposed_rhs"] = UnitAttr()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs = parser.parse_type()
        parser.parse_punctuation(",")
        rhs = parser.parse_type()
        parser.parse_punctuation("->")
        result = parser.parse_type()
        if len(operands) != 3:
            parser.raise_error(f"expected three operands (lhs, rhs, accumulator), got {len(operands)}")
        resolved = [parser.resolve_operand(operand, type_)
                    for operand, type_ in zip(operands, (lhs, rhs, result))]
        return cls.build(operands=resolved, result_types=[result], attributes=attributes,
                         properties=properties)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.lhs, self.rhs, self.acc), printer.print_operand)
        printer.print_string(" [" + ", ".join(str(n) for n in self.shape.get_values()) + "]")
        if self.transposed_rhs is not None:
            printer.print_string(" transposed_rhs")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list((self.lhs.type, self.rhs.type), printer.print_attribute)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        shape = self.shape.get_values()
        if len(shape) != 3 or min(shape) <= 0:
            raise VerifyException(f"expects a shape [m, k, n] of positive sizes, got {list(shape)}")
        m, k, n = shape
        expected = ((self.lhs, m * k), (self.rhs, k * n), (self.acc, m * n), (self.result, m * n))
        for value, length in expected:
            if value.type.get_shape() != (length,):
                raise VerifyException(f"a {m} x {k} by {k} x {n} product takes vectors of "
                                      f"{m * k}, {k * n} and {m * n} elements, got {value.type}")
        if self.lhs.type.element_type != self.rhs.type.element_type:
            raise VerifyException("expects both operands of one element type")
        if self.acc.type != self.result.type:
            raise VerifyException("expects the accumulator of the result's type")


DFIR = Dialect(
    "dfir",
    [
        DataflowOp,
        UnitOp,
        ProgramOp,
        UniformMapOp,
        QueryOp,
        DefineSymbolOp,
        SymbolOp,
        ViewOp,
        LoadOp,
        LoadIndexOp,
        StoreOp,
        DmaOp,
        SyncSendOp,
        SyncRecvOp,
        SendOp,
        ReceiveOp,
        ComputeOp,
        ReduceOp,
        SplatOp,
        ConvertOp,
        MatmulOp,
    ],
    [UnitType, UniformType, ComputeKindAttr, ReduceKindAttr],
)
