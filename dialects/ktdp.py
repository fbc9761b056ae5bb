"""The ``ktdp`` dialect: KTIR's view of memory, and the tiles kernels read and write.

A kernel builds *memory views* (where a tensor lives: start, sizes, strides, the global
coordinates it covers, its memory space), composes views spread over several memories
into one *distributed* view, names the coordinates it wants as an *access tile* (direct:
an affine offset plus a coordinate set; indirect: some coordinates loaded from index
tensors), and moves data with ``load`` (tile -> tensor) and ``store`` (tensor -> tile).
Kernel arguments whose value is known only at launch are ``!ktdp.runtime_arg``s.
Compute tiles exchange partial results through the inter-tile ops (``produce`` makes a
``!ktdp.tile_future``; ``consume`` delivers it, ``reduce`` combines it).

Memory spaces. ``#ktdp.memory_space<global>`` is reachable by every compute tile;
``#ktdp.memory_space<ct_local[, ct_id = N]>`` is private to one (tile ``N`` when given).
The older ``#ktdp.spyre_memory_space<HBM|LX|L0|unspecified[, core = N]>`` is accepted and
printed as written; it means: ``HBM`` -> ``global``; ``LX`` and ``L0`` -> ``ct_local``;
``core = N`` -> ``ct_id = N``; ``unspecified`` names no memory space
(``SpyreMemorySpaceAttr.to_memory_space``).

Custom syntax is MLIR's: where MLIR's declarative format prints a ktdp type it strips
the ``!ktdp.`` prefix (``ktdp.load %t : <32x64xindex> -> tensor<32x64xf16>``); the
parser takes both spellings. Inherent attributes are properties and are printed, with
any other attribute, in one alphabetical attr-dict. Verifier messages are the KTIR
reference implementation's; ``verify_module`` reports them after ``'<op>' op``, as
MLIR prints them.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto
from typing import ClassVar
from itertools import combinations

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    AffineSetAttr,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    ShapedType,
    TensorType,
    i1,
    i64,
)
from xdsl.dialects.utils import (
    AbstractYieldOperation,
    EnumAttribute,
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
)
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineExpr,
    AffineMap,
    AffineSet,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
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
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.str_enum import StrEnum

from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.printer import affine_set_text
from ktc.dialects.syntax import (
    AngleBracketEnum,
    SsaIds,
    parse_affine_access,
    parse_attr_dict,
    parse_ssa_affine_expr,
    parse_stripped_type,
    print_affine_subscripts,
    print_attr_dict,
    print_stripped_type,
    ssa_key,
)

# ---------------------------------------------------------------------------------------
# Enumerations and attributes
# ---------------------------------------------------------------------------------------


class MemorySpaceKind(StrEnum):
    GLOBAL = "global"
    """Reachable by every compute tile."""
    CT_LOCAL = "ct_local"
    """Private to one compute tile."""


class SpyreMemorySpaceKind(StrEnum):
    UNSPECIFIED = "unspecified"
    LX = "LX"
    """On-chip scratchpad, shared (cross-core accessible)."""
    HBM = "HBM"
    """Device memory."""
    L0 = "L0"
    """Per-core on-chip scratchpad."""


class RuntimeArgExtractKind(StrEnum):
    VALUE = auto()
    GRANULARITY = auto()
    UPPERBOUND = auto()


@irdl_attr_definition
class MemorySpaceKindAttr(EnumAttribute[MemorySpaceKind]):
    """The kind parameter of ``#ktdp.memory_space``."""

    name = "ktdp.memory_space_kind"


@irdl_attr_definition
class SpyreMemorySpaceKindAttr(EnumAttribute[SpyreMemorySpaceKind]):
    """The kind parameter of ``#ktdp.spyre_memory_space``."""

    name = "ktdp.spyre_memory_space_kind"


@irdl_attr_definition
class RuntimeArgExtractKindAttr(AngleBracketEnum, EnumAttribute[RuntimeArgExtractKind]):
    """``#ktdp.runtime_arg_extract_kind<value|granularity|upperbound>``: what
    ``ktdp.runtime_arg_extract`` reads from a runtime argument."""

    name = "ktdp.runtime_arg_extract_kind"


class OwnedMemorySpace(ParametrizedAttribute):
    """A memory space written ``<kind[, OWNER = N]>``: a kind, and the owner of a
    private memory when named. The owner is checked to be non-negative and to appear
    only with one of ``OWNED_KINDS``."""

    KIND: ClassVar[type[EnumAttribute]]
    """The attribute holding the kind."""
    OWNER: ClassVar[str]
    """The owner's keyword, which is also its field's name."""
    OWNER_NOUN: ClassVar[str]
    """What messages call the owner."""
    OWNED_KINDS: ClassVar[tuple[StrEnum, ...]]
    """The kinds that may name an owner."""
    OWNED_SPELLED: ClassVar[str]
    """How messages name those kinds."""

    def __init__(self, kind: StrEnum, owner: int | None = None):
        super().__init__(self.KIND(kind), NoneAttr() if owner is None else IntAttr(owner))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            kind = cls.KIND(parser.parse_str_enum(cls.KIND.enum_type))
            if parser.parse_optional_punctuation(",") is None:
                return kind, NoneAttr()
            parser.parse_keyword(cls.OWNER)
            parser.parse_punctuation("=")
            return kind, IntAttr(parser.parse_integer(allow_boolean=False))

    def print_parameters(self, printer: Printer) -> None:
        kind, owner = self.parameters
        with printer.in_angle_brackets():
            printer.print_string(kind.data.value)
            if isinstance(owner, IntAttr):
                printer.print_string(f", {self.OWNER} = {owner.data}")

    def verify(self) -> None:
        kind, owner = self.parameters
        if not isinstance(owner, IntAttr):
            return
        if owner.data < 0:
            raise VerifyException(f"{self.OWNER_NOUN} must be non-negative, but got: {owner.data}")
        if kind.data not in self.OWNED_KINDS:
            raise VerifyException(
                f"{self.OWNER_NOUN} is only valid for {self.OWNED_SPELLED}, but got memory "
                f"space '{kind.data.value}' with {self.OWNER} = {owner.data}"
            )


@irdl_attr_definition
class MemorySpaceAttr(OwnedMemorySpace):
    """``#ktdp.memory_space<global|ct_local[, ct_id = N]>``: where a memory view lives.

    ``ct_id`` is checked to be non-negative and to appear only with ``ct_local`` (the
    same rules the legacy attribute applies to ``core``)."""

    name = "ktdp.memory_space"
    KIND = MemorySpaceKindAttr
    OWNER = "ct_id"
    OWNER_NOUN = "ct_id"
    OWNED_KINDS = (MemorySpaceKind.CT_LOCAL,)
    OWNED_SPELLED = "the ct_local memory space"

    kind: MemorySpaceKindAttr
    ct_id: IntAttr | NoneAttr
    """The compute tile owning a ``ct_local`` memory, when named."""

    def __init__(self, kind: MemorySpaceKind, ct_id: int | None = None):
        super().__init__(kind, ct_id)


@irdl_attr_definition
class SpyreMemorySpaceAttr(OwnedMemorySpace):
    """``#ktdp.spyre_memory_space<HBM|LX|L0|unspecified[, core = N]>``, the older
    spelling of a memory space (see the module docstring for how it maps)."""

    name = "ktdp.spyre_memory_space"
    KIND = SpyreMemorySpaceKindAttr
    OWNER = "core"
    OWNER_NOUN = "core affinity"
    OWNED_KINDS = (SpyreMemorySpaceKind.LX, SpyreMemorySpaceKind.L0)
    OWNED_SPELLED = "LX or L0 memory spaces"

    kind: SpyreMemorySpaceKindAttr
    core: IntAttr | NoneAttr
    """Core affinity of an ``LX`` or ``L0`` memory, when named."""

    def __init__(self, kind: SpyreMemorySpaceKind, core: int | None = None):
        super().__init__(kind, core)

    def to_memory_space(self) -> MemorySpaceAttr | None:
        """The current spelling of this memory space; None for ``unspecified``."""
        kind = self.kind.data
        if kind == SpyreMemorySpaceKind.UNSPECIFIED:
            return None
        if kind == SpyreMemorySpaceKind.HBM:
            return MemorySpaceAttr(MemorySpaceKind.GLOBAL)
        core = self.core.data if isinstance(self.core, IntAttr) else None
        return MemorySpaceAttr(MemorySpaceKind.CT_LOCAL, core)


# ---------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------


@irdl_attr_definition
class AccessTileType(ParametrizedAttribute, TypeAttribute, ShapedType):
    """``!ktdp.access_tile<AxBxindex>``: a set of coordinates into a memory view, shaped
    like the tensor a load of it gives. Dimensions may be ``?``; rank 0 is
    ``<index>``."""

    name = "ktdp.access_tile"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def __init__(self, shape: Sequence[int], element_type: Attribute = IndexType()):
        super().__init__(ArrayAttr(IntAttr(dim) for dim in shape), element_type)

    def get_num_dims(self) -> int:
        return len(self.shape.data)

    def get_shape(self) -> tuple[int, ...]:
        return tuple(dim.data for dim in self.shape.data)

    def get_element_type(self) -> Attribute:
        return self.element_type

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            shape, element_type = parser.parse_ranked_shape()
        return ArrayAttr(IntAttr(dim) for dim in shape), element_type

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_dimension_list(self.get_shape())
            if self.shape.data:
                printer.print_string("x")
            printer.print_attribute(self.element_type)

    def verify(self) -> None:
        if not isinstance(self.element_type, IndexType):
            raise VerifyException(
                f"tile element type must be 'index', but got: {self.element_type}"
            )
        if any(dim < 0 and dim != DYNAMIC_INDEX for dim in self.get_shape()):
            raise VerifyException("tile dimension size must be dynamic or >= 0")


@irdl_attr_definition
class RuntimeArgType(ParametrizedAttribute, TypeAttribute):
    """``!ktdp.runtime_arg<T[, granularity=N][, upperbound=M]>``: a kernel argument
    known only at launch, optionally a multiple of ``granularity`` and at most
    ``upperbound``. The keywords may come in either order; granularity prints first."""

    name = "ktdp.runtime_arg"

    value_type: Attribute
    granularity: IntAttr | NoneAttr
    upperbound: IntAttr | NoneAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        bounds: dict[str, IntAttr] = {}
        with parser.in_angle_brackets():
            value_type = parser.parse_type()
            while parser.parse_optional_punctuation(",") is not None:
                start = parser.pos
                keyword = parser.parse_optional_keyword_in(("granularity", "upperbound"))
                if keyword is None:
                    parser.raise_error("expected 'granularity' or 'upperbound' keyword")
                if keyword in bounds:
                    parser.raise_error(f"duplicate '{keyword}' keyword", start, parser.pos)
                parser.parse_punctuation("=")
                bounds[keyword] = IntAttr(parser.parse_integer(allow_boolean=False))
        none = NoneAttr()
        return value_type, bounds.get("granularity", none), bounds.get("upperbound", none)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.value_type)
            for keyword, value in (("granularity", self.granularity),
                                   ("upperbound", self.upperbound)):
                if isinstance(value, IntAttr):
                    printer.print_string(f", {keyword}={value.data}")

    def verify(self) -> None:
        if not isinstance(self.value_type, IndexType | IntegerType | AnyFloat):
            raise VerifyException(
                "runtime_arg underlying type must be a builtin type (index, integer, or "
                f"float), but got: {self.value_type}"
            )
        for keyword, value in (("granularity", self.granularity),
                               ("upperbound", self.upperbound)):
            if isinstance(value, IntAttr) and value.data <= 0:
                raise VerifyException(
                    f"runtime_arg {keyword} must be positive, but got: {value.data}"
                )


@irdl_attr_definition
class TileFutureType(ParametrizedAttribute, TypeAttribute):
    """``!ktdp.tile_future<(T1, ...), groups = <integer set>>``: the partial results
    (ranked tensors) that the tiles of each group will contribute, where ``groups`` is a
    one-dimensional, symbol-free set over the group index ``g``. The older spelling
    without parentheses is accepted and printed in the current one.

    The generic form spells ``groups`` out rather than naming an alias, because tools
    without ktdp keep the type as opaque text. Real MLIR still cannot read such text
    when the set has inequalities: it takes the ``>`` of ``>=`` for a closing
    bracket."""

    name = "ktdp.tile_future"

    partial_types: ArrayAttr[Attribute]
    groups: AffineSetAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            if parser.parse_optional_punctuation("(") is not None:
                partials = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, lambda: _parse_partial_type(parser)
                )
                parser.parse_punctuation(")")
                parser.parse_punctuation(",")
                parser.parse_keyword("groups")
            else:
                partials = [_parse_partial_type(parser)]
                parser.parse_punctuation(",")
                while parser.parse_optional_keyword("groups") is None:
                    partials.append(_parse_partial_type(parser))
                    parser.parse_punctuation(",")
            parser.parse_punctuation("=")
            groups = parser.parse_attribute()
            if not isinstance(groups, AffineSetAttr):
                parser.raise_error(f"expected an integer set for `groups`, got {groups}")
        return ArrayAttr(partials), groups

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            with printer.in_parens():
                printer.print_list(self.partial_types.data, printer.print_attribute)
            printer.print_string(", groups = ")
            if printer.print_generic_format:
                printer.print_string(f"affine_set<{affine_set_text(self.groups.data)}>")
                return
            printer.print_attribute(self.groups)

    def verify(self) -> None:
        for partial in self.partial_types.data:
            if not isinstance(partial, TensorType):
                raise VerifyException(_not_a_tensor(partial))
        groups = self.groups.data
        if groups.num_dims != 1:
            raise VerifyException("tile_future `groups` must have exactly one dimension (g)")
        if groups.num_symbols != 0:
            raise VerifyException("tile_future `groups` must have no symbols")


def _not_a_tensor(attr: Attribute) -> str:
    return f"invalid kind of type specified: expected builtin.tensor, but found '{attr}'"


def _parse_partial_type(parser: AttrParser) -> Attribute:
    start = parser.pos
    partial = parser.parse_type()
    if not isinstance(partial, TensorType):
        parser.raise_error(_not_a_tensor(partial), start, parser.pos)
    return partial


# ---------------------------------------------------------------------------------------
# Shared syntax
# ---------------------------------------------------------------------------------------


def _parse_type_list(parser: Parser) -> list[Attribute]:
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)


def _parse_optional_parenthesized_types(parser: Parser) -> list[Attribute]:
    """``T, ...`` or ``(T, ...)``."""
    if parser.parse_optional_punctuation("(") is None:
        return _parse_type_list(parser)
    types = _parse_type_list(parser)
    parser.parse_punctuation(")")
    return types


def _print_type_list(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


def _parse_optional_set_param(parser: Parser, keyword: str) -> AffineSetAttr | None:
    """``<keyword> = <integer set>`` if the keyword is next."""
    if parser.parse_optional_keyword(keyword) is None:
        return None
    parser.parse_punctuation("=")
    start = parser.pos
    value = parser.parse_attribute()
    if not isinstance(value, AffineSetAttr):
        parser.raise_error(f"expected an integer set for '{keyword}'", start, parser.pos)
    return value


def _parse_set_param(parser: Parser, keyword: str) -> AffineSetAttr:
    value = _parse_optional_set_param(parser, keyword)
    if value is None:
        parser.raise_error(f"expected '{keyword}'")
    return value


def _parse_symbols(parser: Parser) -> list[SSAValue]:
    """``symbols(%a, ...)`` if present."""
    if parser.parse_optional_keyword("symbols") is None:
        return []
    operands = parser.parse_op_args_list()
    return [parser.resolve_operand(operand, IndexType()) for operand in operands]


def _print_symbols(printer: Printer, symbols: Sequence[SSAValue]) -> None:
    if symbols:
        printer.print_string(" symbols")
        printer.print_operands(symbols)


# --- integer points of small sets ------------------------------------------------------

_MAX_POINTS = 1 << 16


def _points(aset: AffineSet, symbols: Sequence[int]) -> list[int] | None:
    """The integer points of a one-dimensional set for the given symbol values, or None
    when its linear constraints do not bound it (or it is too large to list)."""
    if aset.num_dims != 1:
        return None
    lows, highs = [], []
    for constraint in aset.constraints:
        if not (_is_linear(constraint.lhs) and _is_linear(constraint.rhs)):
            continue
        at0 = _constraint_value(constraint, 0, symbols)
        slope = _constraint_value(constraint, 1, symbols) - at0
        sides = [(slope, at0)]
        if constraint.kind == AffineConstraintKind.eq:
            sides.append((-slope, -at0))
        for step, start in sides:  # step * x + start >= 0
            if step > 0:
                lows.append(-(start // step))
            elif step < 0:
                highs.append(start // -step)
    if not lows or not highs or min(highs) - max(lows) > _MAX_POINTS:
        return None
    return [x for x in range(max(lows), min(highs) + 1) if _contains(aset, x, symbols)]


def _is_linear(expr: AffineExpr) -> bool:
    return expr.is_pure_affine() and all(
        node.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul)
        for node in expr.dfs()
        if isinstance(node, AffineBinaryOpExpr)
    )


def _constraint_value(
    constraint: AffineConstraintExpr, point: int, symbols: Sequence[int]
) -> int:
    """lhs - rhs at ``point``, oriented so that the constraint reads ``value >= 0``
    (or ``== 0``)."""
    value = constraint.lhs.eval([point], symbols) - constraint.rhs.eval([point], symbols)
    return -value if constraint.kind == AffineConstraintKind.le else value


def _contains(aset: AffineSet, point: int, symbols: Sequence[int]) -> bool:
    for constraint in aset.constraints:
        value = _constraint_value(constraint, point, symbols)
        if value < 0 or (constraint.kind == AffineConstraintKind.eq and value != 0):
            return False
    return True


# ---------------------------------------------------------------------------------------
# Operations
# ---------------------------------------------------------------------------------------


class KtdpOperation(IRDLOperation):
    """An op of this dialect; ``error`` is the exception for a verifier message (the
    ``'<op>' op`` in front is added where the error is reported, as for every op)."""

    def error(self, message: str) -> VerifyException:
        return VerifyException(message)


@irdl_op_definition
class GetComputeTileIdOp(KtdpOperation):
    """The coordinates of the executing compute tile in the kernel's grid, one index
    per grid dimension."""

    name = "ktdp.get_compute_tile_id"

    ids = var_result_def()

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> GetComputeTileIdOp:
        properties, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        return cls.build(result_types=[_parse_type_list(parser)],
                         properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        _print_type_list(printer, self.result_types)

    def verify_(self) -> None:
        if not self.ids:
            raise self.error("must return at least one index (num tile-grid dims >= 1)")
        if not all(isinstance(result.type, IndexType) for result in self.ids):
            raise self.error("all results must be IndexType")


@irdl_op_definition
class ConstructMemoryViewOp(KtdpOperation):
    """A view of memory as a tensor: start, sizes, strides, the global coordinates it
    covers and its memory space. Allocates and moves nothing. The symbols of
    ``coordinate_set`` bind to the dynamic sizes, left to right."""

    name = "ktdp.construct_memory_view"

    offset = operand_def(IndexType)
    """Start of the view, in elements."""
    sizes = var_operand_def(IndexType)
    """The dynamic entries of ``static_sizes``."""
    strides = var_operand_def(IndexType)
    """The dynamic entries of ``static_strides``."""
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    memory_space = prop_def(MemorySpaceAttr | SpyreMemorySpaceAttr)
    coordinate_set = prop_def(AffineSetAttr)
    """The global coordinates this view covers (what a distributed view composes)."""
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ConstructMemoryViewOp:
        offset = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        sizes, static_sizes = _parse_index_list(parser, "sizes")
        strides, static_strides = _parse_index_list(parser, "strides")
        properties, attributes = parse_attr_dict(parser, cls)
        properties.update(static_sizes=static_sizes, static_strides=static_strides)
        properties.setdefault("memory_space", MemorySpaceAttr(MemorySpaceKind.GLOBAL))
        properties.setdefault(
            "coordinate_set", AffineSetAttr(sizes_box(static_sizes.get_values()))
        )
        parser.parse_punctuation(":")
        return cls.build(operands=[offset, sizes, strides], result_types=[parser.parse_type()],
                         properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.offset)
        for keyword, dynamic, static in (("sizes", self.sizes, self.static_sizes),
                                         ("strides", self.strides, self.static_strides)):
            printer.print_string(f", {keyword}: ")
            print_dynamic_index_list(printer, DYNAMIC_INDEX, dynamic, static.get_values())
        print_attr_dict(printer, self, ("static_sizes", "static_strides"))
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        static_sizes = self.static_sizes.get_values()
        static_strides = self.static_strides.get_values()
        if len(static_sizes) != len(static_strides):
            raise self.error("static_sizes and static_strides must have equal length")
        if static_sizes.count(DYNAMIC_INDEX) != len(self.sizes):
            raise self.error(
                "number of dynamic size operands does not match kDynamic entries in "
                "static_sizes"
            )
        if static_strides.count(DYNAMIC_INDEX) != len(self.strides):
            raise self.error(
                "number of dynamic stride operands does not match kDynamic entries in "
                "static_strides"
            )
        if not isinstance(self.result.type, MemRefType):
            raise self.error("result must be a memref type")
        if self.result.type.get_num_dims() != len(static_sizes):
            raise self.error("result memref rank does not match sizes/strides length")


def sizes_box(static_sizes: Sequence[int]) -> AffineSet:
    """The coordinates ``0 <= d_i < size_i`` of a view's sizes: ``(d0, ...)[s0, ...]``,
    one symbol per dynamic size, left to right (how ``coordinate_set`` symbols bind)."""
    constraints, symbols = [], 0
    for dim, size in enumerate(static_sizes):
        coordinate = AffineExpr.dimension(dim)
        if size == DYNAMIC_INDEX:
            last = AffineExpr.symbol(symbols) - 1
            symbols += 1
        else:
            last = AffineExpr.constant(size - 1)
        constraints += [
            AffineConstraintExpr(AffineConstraintKind.ge, coordinate, AffineExpr.constant(0)),
            AffineConstraintExpr(AffineConstraintKind.ge, last, coordinate),
        ]
    return AffineSet(len(static_sizes), symbols, tuple(constraints))


def _parse_index_list(parser: Parser, keyword: str) -> tuple[list[SSAValue], DenseArrayBase]:
    """``, <keyword>: [4, %n, ...]``: the dynamic entries and the static list (with
    ``kDynamic`` where an entry is dynamic)."""
    parser.parse_punctuation(",")
    parser.parse_keyword(keyword)
    parser.parse_punctuation(":")
    values, static = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
    dynamic = [parser.resolve_operand(value, IndexType()) for value in values]
    return dynamic, DenseArrayBase.from_list(i64, static)


@irdl_op_definition
class ConstructDistributedMemoryViewOp(KtdpOperation):
    """One logical view composed of views that may live in different memories. Its
    coordinate domain is the union of the inputs' ``coordinate_set``s (overlap is
    unspecified); nothing is allocated or moved."""

    name = "ktdp.construct_distributed_memory_view"

    memrefs = var_operand_def()
    result = result_def()

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ConstructDistributedMemoryViewOp:
        parser.parse_punctuation("(")
        operands = []
        if parser.parse_optional_punctuation(")") is None:
            names = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = _parse_type_list(parser)
            parser.parse_punctuation(")")
            operands = parser.resolve_operands(names, types, parser.pos)
        properties, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        return cls.build(operands=[operands], result_types=[parser.parse_type()],
                         properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        with printer.in_parens():
            if self.memrefs:
                printer.print_list(self.memrefs, printer.print_ssa_value)
                printer.print_string(" : ")
                _print_type_list(printer, self.memrefs.types)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        result = self.result.type
        if not isinstance(result, MemRefType):
            raise self.error("result must be a memref type")
        inputs = self.memrefs.types
        if not all(isinstance(memref, MemRefType) for memref in inputs):
            raise self.error("all inputs must be memref types")
        if any(memref.get_element_type() != result.get_element_type() for memref in inputs):
            raise self.error(
                "all input memrefs must have the same element type as the result"
            )
        if any(memref.get_num_dims() != result.get_num_dims() for memref in inputs):
            raise self.error("all input memrefs must have the same rank as the result")


@irdl_op_definition
class ConstructAccessTileOp(KtdpOperation):
    """The coordinates ``base_map(indices) + p`` for every ``p`` in ``access_tile_set``,
    enumerated in the lexicographic order of ``access_tile_order(p)`` (its last result
    innermost), which thereby fixes the tile's shape.

    Written ``%view[<affine expressions of SSA ids>]``: the subscripts become
    ``base_map`` (elided when printed) and the ids ``indices``. The tile's extent is
    not checked against ``access_tile_set`` (only ranks are): the KTIR corpus types a
    16x32 set as ``<32x16xindex>`` under the identity order and stores a 2x64 set
    through a ``<1x64xindex>`` tile, and both must verify."""

    name = "ktdp.construct_access_tile"

    base = operand_def(MemRefType | TensorType)
    """The memory view (or tensor) the coordinates index."""
    indices = var_operand_def(IndexType)
    """The operands of ``base_map``: its dimensions, then its symbols."""
    symbol_operands = var_operand_def(IndexType)
    """Values of the symbols of ``access_tile_set``."""
    base_map = prop_def(AffineMapAttr)
    access_tile_set = prop_def(AffineSetAttr)
    access_tile_order = prop_def(AffineMapAttr)
    result = result_def(AccessTileType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ConstructAccessTileOp:
        start = parser.pos
        base = parser.parse_unresolved_operand()
        base_map, index_ids = parse_affine_access(parser)
        indices = [parser.resolve_operand(index, IndexType()) for index in index_ids]
        symbols = _parse_symbols(parser)
        properties, attributes = parse_attr_dict(parser, cls)
        properties["base_map"] = AffineMapAttr(base_map)
        problem = _access_tile_syntax_problem(base_map, properties, len(symbols))
        if problem is not None:
            parser.raise_error(problem, start, parser.pos)
        parser.parse_punctuation(":")
        base_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parse_stripped_type(parser, AccessTileType)
        return cls.build(
            operands=[parser.resolve_operand(base, base_type), indices, symbols],
            result_types=[result_type], properties=properties, attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.base)
        with printer.in_square_brackets():
            print_affine_subscripts(printer, self.base_map.data, self.indices)
        _print_symbols(printer, self.symbol_operands)
        print_attr_dict(printer, self, ("base_map",))
        printer.print_string(" : ")
        printer.print_attribute(self.base.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        base_map = self.base_map.data
        tile_set = self.access_tile_set.data
        order = self.access_tile_order.data
        if tile_set.num_dims != len(base_map.results):
            raise self.error(
                f"access_tile_set dimensions ({tile_set.num_dims}) must match base_map "
                f"dims ({len(base_map.results)})"
            )
        if base_map.num_dims + base_map.num_symbols != len(self.indices):
            raise self.error(
                f"base_map expects {base_map.num_dims + base_map.num_symbols} operands "
                f"but got {len(self.indices)}"
            )
        if tile_set.num_symbols != len(self.symbol_operands):
            raise self.error(_symbol_count_problem(
                "access_tile_set", tile_set, len(self.symbol_operands)))
        if order.num_dims != len(order.results):
            raise self.error(
                f"access_tile_order must have equal number of inputs ({order.num_dims}) "
                f"and outputs ({len(order.results)})"
            )
        if order.num_dims != tile_set.num_dims:
            raise self.error(
                f"access_tile_order dimensions ({order.num_dims}) must match "
                f"access_tile_set dimensions ({tile_set.num_dims})"
            )
        if self.result.type.get_num_dims() != tile_set.num_dims:
            raise self.error(
                f"result type rank ({self.result.type.get_num_dims()}) must match "
                f"access_tile_set dimensions ({tile_set.num_dims})"
            )


def _symbol_count_problem(set_name: str, aset: AffineSet, operands: int) -> str:
    return f"{set_name} has {aset.num_symbols} symbols but got {operands} symbol operands"


def _access_tile_syntax_problem(
    base_map: AffineMap, properties: dict[str, Attribute], symbols: int
) -> str | None:
    """What the custom syntax of construct_access_tile rejects while it is read."""
    tile_set = properties.get("access_tile_set")
    order = properties.get("access_tile_order")
    if not isinstance(tile_set, AffineSetAttr):
        return "Access tile set is missing in the operation"
    if tile_set.data.num_dims != len(base_map.results):
        return "Access tile set and Base input dimensions should match"
    if tile_set.data.num_symbols != symbols:
        return _symbol_count_problem("access_tile_set", tile_set.data, symbols)
    if not isinstance(order, AffineMapAttr):
        return "Access tile order is missing in the operation"
    if order.data.num_dims != len(order.data.results):
        return (
            "Number of input dimensions and output dimensions in the access tile order "
            "should match"
        )
    if order.data.num_dims != tile_set.data.num_dims:
        return (
            "Number of dimensions in the access tile order and access tile set must match!"
        )
    return None


@irdl_op_definition
class RegionTerminatorOp(KtdpOperation):
    """Ends the region of ``ktdp.construct_indirect_access_tile`` (implicit in the custom
    syntax)."""

    name = "ktdp.region_terminator"

    assembly_format = "attr-dict"
    traits = lazy_traits_def(
        lambda: (IsTerminator(), HasParent(ConstructIndirectAccessTileOp), Pure())
    )


@irdl_op_definition
class ConstructIndirectAccessTileOp(KtdpOperation):
    """An access tile some of whose coordinates are loaded from index tensors.

    For each point of ``variables_space_set`` (the intermediate variables, enumerated in
    ``variables_space_order``), a direct dimension takes its subscript's value as the
    coordinate; an indirect one loads ``view[subscripts]`` from its index view and uses
    that. Written ``intermediate_variables(%m, %k) %base[ind(%idx[%m, %k]), (%k)]``: the
    intermediate variables are the region's block arguments; every other SSA id used in
    a subscript is a captured variable (``symbol(%x)`` is not accepted here). Each
    subscript map is over ``(captured_variables..., intermediate_variables...)``."""

    name = "ktdp.construct_indirect_access_tile"

    base = operand_def()
    """The memory view (or tensor) the coordinates index."""
    indirect_memrefs = var_operand_def()
    """One index view per indirect dimension, in dimension order."""
    captured_variables = var_operand_def(IndexType)
    """Outer values used in subscripts, in order of first use."""
    symbol_operands = var_operand_def(IndexType)
    """Values of the symbols of ``variables_space_set``."""
    per_dim_subscript_kinds = prop_def(ArrayAttr)
    """Per base dimension: true if indirect."""
    per_dim_subscript_maps = prop_def(ArrayAttr[AffineMapAttr])
    """Per base dimension: the coordinate (direct) or the index-view subscripts
    (indirect)."""
    variables_space_set = prop_def(AffineSetAttr)
    variables_space_order = prop_def(AffineMapAttr)
    result = result_def(AccessTileType)
    body = region_def("single_block")
    """One block whose arguments are the intermediate variables."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        SingleBlockImplicitTerminator(RegionTerminatorOp), MemoryReadEffect()
    )

    @classmethod
    def parse(cls, parser: Parser) -> ConstructIndirectAccessTileOp:
        start = parser.pos
        parser.parse_keyword("intermediate_variables")
        variables = _parse_intermediate_variables(parser)
        base = parser.parse_unresolved_operand()
        ids = SsaIds()
        subscripts = _parse_indirect_subscripts(parser, ids)
        symbols = _parse_symbols(parser)
        properties, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        types = _parse_type_list(parser)
        parser.parse_punctuation("->")
        result_type = parse_stripped_type(parser, AccessTileType)

        views = [view for _, view in subscripts if view is not None]
        if len(types) != 1 + len(views):
            parser.raise_error(
                f"expected {1 + len(views)} types (base + {len(views)} indirect memrefs), "
                f"but got {len(types)}", start, parser.pos,
            )
        space = properties.get("variables_space_set")
        if isinstance(space, AffineSetAttr) and space.data.num_symbols != len(symbols):
            parser.raise_error(_symbol_count_problem(
                "variables_space_set", space.data, len(symbols)), start, parser.pos)

        names = [variable.text for variable in variables]
        captured, maps = _canonical_subscripts(subscripts, list(ids.dims.values()), names)
        properties["per_dim_subscript_kinds"] = ArrayAttr(
            BoolAttr.from_bool(view is not None) for _, view in subscripts
        )
        properties["per_dim_subscript_maps"] = ArrayAttr(AffineMapAttr(m) for m in maps)
        body = Block(arg_types=[IndexType()] * len(names))
        for argument, name in zip(body.args, names):
            argument.name_hint = name[1:]
        body.add_op(RegionTerminatorOp())
        operands = [
            parser.resolve_operand(base, types[0]),
            [parser.resolve_operand(view, kind) for view, kind in zip(views, types[1:])],
            [parser.resolve_operand(operand, IndexType()) for operand in captured],
            symbols,
        ]
        return cls.build(operands=operands, result_types=[result_type],
                         properties=properties, attributes=attributes,
                         regions=[Region(body)])

    def print(self, printer: Printer) -> None:
        variables = self.body.block.args
        printer.print_string(" intermediate_variables")
        printer.print_operands(variables)
        printer.print_string(" ")
        printer.print_ssa_value(self.base)
        dims = (*self.captured_variables, *variables)
        views = iter(self.indirect_memrefs)
        printer.print_string("[")
        for index, (kind, subscript) in enumerate(
            zip(self.per_dim_subscript_kinds, self.per_dim_subscript_maps)
        ):
            if index:
                printer.print_string(", ")
            if kind == BoolAttr.from_bool(True):
                printer.print_string("ind(")
                printer.print_ssa_value(next(views))
                printer.print_string("[")
                print_affine_subscripts(printer, subscript.data, dims)
                printer.print_string("])")
            else:
                printer.print_string("(")
                print_affine_subscripts(printer, subscript.data, dims)
                printer.print_string(")")
        printer.print_string("]")
        _print_symbols(printer, self.symbol_operands)
        print_attr_dict(printer, self, ("per_dim_subscript_kinds", "per_dim_subscript_maps"))
        printer.print_string(" : ")
        _print_type_list(printer, (self.base.type, *self.indirect_memrefs.types))
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        space = self.variables_space_set.data
        order = self.variables_space_order.data
        variables = len(self.body.block.args)
        kinds = self.per_dim_subscript_kinds.data
        maps = [subscript.data for subscript in self.per_dim_subscript_maps]
        base = self.base.type
        if space.num_dims != order.num_dims:
            raise self.error(
                f"variables_space_set dimensions ({space.num_dims}) must match "
                f"variables_space_order inputs ({order.num_dims})"
            )
        if order.num_dims != len(order.results):
            raise self.error(
                f"variables_space_order must have equal number of inputs ({order.num_dims}) "
                f"and outputs ({len(order.results)})"
            )
        if variables != space.num_dims:
            raise self.error(
                f"number of intermediate variables ({variables}) must match "
                f"variables_space_set dimensions ({space.num_dims})"
            )
        if space.num_symbols != len(self.symbol_operands):
            raise self.error(_symbol_count_problem(
                "variables_space_set", space, len(self.symbol_operands)))
        if len(kinds) != len(maps):
            raise self.error(
                f"per_dim_subscript_kinds size ({len(kinds)}) must match "
                f"per_dim_subscript_maps size ({len(maps)})"
            )
        if not isinstance(base, MemRefType | TensorType):
            raise self.error("base must be a ranked memref or tensor type")
        if len(maps) != base.get_num_dims():
            raise self.error(
                f"number of subscripts ({len(maps)}) must match base rank "
                f"({base.get_num_dims()})"
            )
        if not all(isinstance(kind, IntegerAttr) and kind.type == i1 for kind in kinds):
            raise self.error("per_dim_subscript_kinds must contain BoolAttr elements")
        indirect = [kind.value.data != 0 for kind in kinds]
        if sum(indirect) != len(self.indirect_memrefs):
            raise self.error(
                f"number of indirect dimensions ({sum(indirect)}) must match number of "
                f"indirect memrefs ({len(self.indirect_memrefs)})"
            )
        self._verify_subscripts(indirect, maps, len(self.captured_variables) + variables)
        if self.result.type.get_num_dims() != space.num_dims:
            raise self.error(
                f"result type rank ({self.result.type.get_num_dims()}) must match "
                f"variables_space_set dimensions ({space.num_dims})"
            )

    def _verify_subscripts(
        self, indirect: Sequence[bool], maps: Sequence[AffineMap], dims: int
    ) -> None:
        views = iter(self.indirect_memrefs.types)
        for index, (is_indirect, subscript) in enumerate(zip(indirect, maps)):
            if subscript.num_dims != dims:
                raise self.error(
                    f"subscript map for dimension {index} has {subscript.num_dims} "
                    f"dimensions, but expected {dims} (captured_variables + "
                    "intermediate_variables)"
                )
            results = len(subscript.results)
            if not is_indirect:
                if results != 1:
                    raise self.error(
                        f"direct subscript map for dimension {index} must produce "
                        f"exactly 1 result, but produces {results}"
                    )
                continue
            view = next(views)
            rank = view.get_num_dims() if isinstance(view, ShapedType) else 0
            if results != rank:
                raise self.error(
                    f"indirect subscript map for dimension {index} produces {results} "
                    f"results, but indirect memref has rank {rank}"
                )


def _parse_intermediate_variables(parser: Parser) -> list[Span]:
    """``(%a, %b, ...)``: where the intermediate variables are named."""
    if parser.parse_optional_punctuation("(") is None:
        parser.raise_error("error parsing intermediate_variables")
    names = []
    while (argument := parser.parse_optional_argument(expect_type=False)) is not None:
        names.append(argument.name)
        if parser.parse_optional_punctuation(",") is None:
            break
    if parser.parse_optional_punctuation(")") is None:
        parser.raise_error("error parsing intermediate_variables")
    return names


_Subscript = tuple[list[AffineExpr], UnresolvedOperand | None]
"""One base dimension's subscript: its expressions and, if it is indirect, the index
view they read."""


def _parse_indirect_subscripts(parser: Parser, ids: SsaIds) -> list[_Subscript]:
    """``[ind(%view[exprs]) | (expr), ...]``, with the SSA ids numbered by ``ids``."""

    def dimension(operand: UnresolvedOperand, is_symbol: bool) -> AffineExpr:
        if is_symbol:
            parser.raise_error("symbols are not allowed in indirect access tile subscripts")
        return ids.variable(operand, False)

    def expression() -> AffineExpr:
        return parse_ssa_affine_expr(parser, dimension)

    def subscript() -> _Subscript:
        if parser.parse_optional_keyword("ind") is not None:
            parser.parse_punctuation("(")
            view = parser.parse_unresolved_operand()
            exprs = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, expression)
            parser.parse_punctuation(")")
            return exprs, view
        if parser.parse_optional_punctuation("(") is not None:
            expr = expression()
            parser.parse_punctuation(")")
            return [expr], None
        parser.raise_error("unexpected token in subscript list, expected 'ind', '(', or ']'")

    parser.parse_punctuation("[")
    subscripts = []
    if parser.parse_optional_punctuation("]") is not None:
        return subscripts
    while True:
        subscripts.append(subscript())
        if parser.parse_optional_punctuation("]") is not None:
            return subscripts
        if parser.parse_optional_punctuation(",") is None:
            parser.raise_error("expecting a comma between subscripts")


def _canonical_subscripts(
    subscripts: Sequence[_Subscript], uses: Sequence[UnresolvedOperand], variables: list[str]
) -> tuple[list[UnresolvedOperand], list[AffineMap]]:
    """The captured variables (the ids in ``uses`` that are not intermediate
    ``variables``) and each subscript as a map over ``(captured..., variables...)``.
    ``uses`` are the ids in order of first use, as the subscripts number them."""
    intermediate = [(name, 0) for name in variables]
    captured = [operand for operand in uses if ssa_key(operand) not in intermediate]
    order = [ssa_key(operand) for operand in captured] + intermediate
    renumbered = [AffineExpr.dimension(order.index(ssa_key(operand))) for operand in uses]
    maps = [
        AffineMap(len(order), 0, tuple(
            expr.replace_dims_and_symbols(renumbered, ()) for expr in exprs
        ))
        for exprs, _ in subscripts
    ]
    return captured, maps


@irdl_op_definition
class LoadOp(KtdpOperation):
    """Read the coordinates of an access tile into a tensor of the tile's shape."""

    name = "ktdp.load"

    access_tile = operand_def(AccessTileType)
    result = result_def()

    traits = traits_def(MemoryReadEffect())

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        tile = parser.parse_unresolved_operand()
        properties, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        tile_type = parse_stripped_type(parser, AccessTileType)
        parser.parse_punctuation("->")
        return cls.build(operands=[parser.resolve_operand(tile, tile_type)],
                         result_types=[parser.parse_type()],
                         properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.access_tile)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        print_stripped_type(printer, self.access_tile.type, AccessTileType)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if not isinstance(self.result.type, TensorType):
            raise self.error("result must be a ranked tensor")
        if self.result.type.get_shape() != self.access_tile.type.get_shape():
            raise self.error("access tile shape must match result tensor shape")


@irdl_op_definition
class StoreOp(KtdpOperation):
    """Write a tensor to the coordinates of an access tile of the same shape."""

    name = "ktdp.store"

    data_tile = operand_def()
    access_tile = operand_def(AccessTileType)

    traits = traits_def(MemoryWriteEffect())

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        data = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        tile = parser.parse_unresolved_operand()
        properties, attributes = parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        data_type = parser.parse_type()
        parser.parse_punctuation(",")
        tile_type = parse_stripped_type(parser, AccessTileType)
        operands = [parser.resolve_operand(data, data_type),
                    parser.resolve_operand(tile, tile_type)]
        return cls.build(operands=operands, properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.data_tile, self.access_tile), printer.print_ssa_value)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.data_tile.type)
        printer.print_string(", ")
        print_stripped_type(printer, self.access_tile.type, AccessTileType)

    def verify_(self) -> None:
        if not isinstance(self.data_tile.type, TensorType):
            raise self.error("data_tile must be a ranked tensor")
        if self.data_tile.type.get_shape() != self.access_tile.type.get_shape():
            raise self.error("data tile shape must match access tile shape")


@irdl_op_definition
class RuntimeArgExtractOp(KtdpOperation):
    """The value of a runtime argument, or its granularity or upper bound."""

    name = "ktdp.runtime_arg_extract"

    kind = prop_def(RuntimeArgExtractKindAttr)
    input = operand_def(RuntimeArgType)
    result = result_def()

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> RuntimeArgExtractOp:
        kind = RuntimeArgExtractKindAttr(parser.parse_str_enum(RuntimeArgExtractKind))
        parser.parse_keyword("from")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        operand_type = parse_stripped_type(parser, RuntimeArgType)
        properties, attributes = parse_attr_dict(parser, cls)
        properties["kind"] = kind
        parser.parse_punctuation("->")
        return cls.build(operands=[parser.resolve_operand(operand, operand_type)],
                         result_types=[parser.parse_type()],
                         properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data.value} from ")
        printer.print_ssa_value(self.input)
        printer.print_string(" : ")
        print_stripped_type(printer, self.input.type, RuntimeArgType)
        print_attr_dict(printer, self, ("kind",))
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        kind = self.kind.data
        runtime_arg = self.input.type
        result = self.result.type
        if kind == RuntimeArgExtractKind.VALUE:
            if result != runtime_arg.value_type:
                raise self.error(
                    f"result type ({result}) must match runtime_arg underlying type "
                    f"({runtime_arg.value_type}) when extracting value"
                )
            return
        granularity = kind == RuntimeArgExtractKind.GRANULARITY
        bound = runtime_arg.granularity if granularity else runtime_arg.upperbound
        if not isinstance(bound, IntAttr):
            raise self.error(
                f"cannot extract {kind.value} from runtime_arg that doesn't have one"
            )
        if not isinstance(result, IndexType):
            raise self.error(
                f"result type must be index when extracting {kind.value}, but got {result}"
            )


# --- inter-tile communication ----------------------------------------------------------


@irdl_op_definition
class YieldPartialOp(AbstractYieldOperation[Attribute]):
    """Ends the producer region: this tile's partial results."""

    name = "ktdp.yield_partial"

    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(InterTileProduceOp), Pure()))


@irdl_op_definition
class YieldReducedOp(AbstractYieldOperation[Attribute]):
    """Ends the combiner region: the combination of two partials."""

    name = "ktdp.yield_reduced"

    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(InterTileReduceOp), Pure()))


@irdl_op_definition
class InterTileProduceOp(KtdpOperation):
    """Each producing tile computes its partial results for its group: the body runs
    with the group index ``%gid`` and yields the partials the future carries.

    ``producer_tiles_per_group`` is a set over the tile id with one symbol, the group
    index ``g``; the producer sets of the future's groups must be disjoint (checked when
    the sets are bounded by linear constraints). The future type itself guarantees
    that ``groups`` has one dimension and no symbols.

    Written ``producer_tiles_per_group = S -> <(T...), groups = G> {...}``. The older
    spelling IBM's interpreter and examples use is read too: the partial types before
    the future's, ``: T -> !ktdp.tile_future<T, groups = G>``, and the set inside the
    attr-dict; it prints in the current one."""

    name = "ktdp.inter_tile_produce"

    producer_tiles_per_group = prop_def(AffineSetAttr)
    future = result_def(TileFutureType)
    body = region_def("single_block")

    traits = traits_def(
        SingleBlockImplicitTerminator(YieldPartialOp), RecursiveMemoryEffect()
    )

    @classmethod
    def parse(cls, parser: Parser) -> InterTileProduceOp:
        start = parser.pos
        producers = _parse_optional_set_param(parser, "producer_tiles_per_group")
        properties, attributes = parse_attr_dict(parser, cls)
        if producers is not None:
            properties["producer_tiles_per_group"] = producers
        if "producer_tiles_per_group" not in properties:
            parser.raise_error("expected 'producer_tiles_per_group'", start, parser.pos)
        partials = None
        if parser.parse_optional_punctuation(":") is not None:  # the older spelling
            partials_start = parser.pos
            partials = _parse_optional_parenthesized_types(parser)
            partials_end = parser.pos
        parser.parse_punctuation("->")
        future = parse_stripped_type(parser, TileFutureType)
        if partials is not None and tuple(partials) != tuple(future.partial_types.data):
            parser.raise_error(
                "the types before '->' must be the partial types of the tile_future",
                partials_start, partials_end,
            )
        op = cls.build(result_types=[future], properties=properties,
                       attributes=attributes, regions=[parser.parse_region()])
        ensure_terminator(op, SingleBlockImplicitTerminator(YieldPartialOp))
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" producer_tiles_per_group = ")
        printer.print_attribute(self.producer_tiles_per_group)
        print_attr_dict(printer, self, ("producer_tiles_per_group",))
        printer.print_string(" -> ")
        print_stripped_type(printer, self.future.type, TileFutureType)
        printer.print_string(" ")
        printer.print_region(self.body)

    def verify_(self) -> None:
        arguments = self.body.block.args
        if len(arguments) != 1 or not isinstance(arguments[0].type, IndexType):
            raise self.error("producer region must take a single `index` group-id argument")
        producers = self.producer_tiles_per_group.data
        if producers.num_symbols != 1:
            raise self.error(
                "`producer_tiles_per_group` must have exactly one symbol (the group index g)"
            )
        partials = self.future.type.partial_types.data
        yielded = self.body.block.last_op
        if isinstance(yielded, YieldPartialOp):
            if len(yielded.arguments) != len(partials):
                raise self.error(
                    f"yield_partial yields {len(yielded.arguments)} values but the future "
                    f"carries {len(partials)} partial type(s)"
                )
            for index, (value, partial) in enumerate(zip(yielded.arguments, partials)):
                if value.type != partial:
                    raise self.error(
                        f"yield_partial operand #{index} type {value.type} does not match "
                        f"future partial type {partial}"
                    )
        self._verify_disjoint(producers)

    def _verify_disjoint(self, producers: AffineSet) -> None:
        groups = _points(self.future.type.groups.data, ())
        if groups is None:
            return
        tiles = {group: _points(producers, (group,)) for group in groups}
        for first, second in combinations(groups, 2):
            if tiles[first] is None or tiles[second] is None:
                continue
            if set(tiles[first]) & set(tiles[second]):
                raise self.error(
                    f"producer_tiles_per_group for groups {first} and {second} are not "
                    "disjoint"
                )


def _parse_delivery_head(parser: Parser) -> tuple[UnresolvedOperand, AffineSetAttr]:
    """``(%future) consumer_tiles_per_group = S``."""
    parser.parse_punctuation("(")
    future = parser.parse_unresolved_operand()
    parser.parse_punctuation(")")
    return future, _parse_set_param(parser, "consumer_tiles_per_group")


def _print_delivery_head(printer: Printer, op: InterTileConsumeOp | InterTileReduceOp):
    printer.print_string("(")
    printer.print_ssa_value(op.future)
    printer.print_string(") consumer_tiles_per_group = ")
    printer.print_attribute(op.consumer_tiles_per_group)
    if op.producer_dependency_per_consumer is not None:
        printer.print_string(", producer_dependency_per_consumer = ")
        printer.print_attribute(op.producer_dependency_per_consumer)


_DELIVERY_PROPERTIES = ("consumer_tiles_per_group", "producer_dependency_per_consumer")


def same_elements(first: Attribute, second: Attribute) -> bool:
    """Whether two tensor types hold the same elements in the same order: one element
    type and, once the dimensions of extent 1 are dropped, one shape
    (``tensor<1x128xf16>`` and ``tensor<128xf16>``); a dynamic shape only itself."""
    if first == second:
        return True
    if not isinstance(first, TensorType) or not isinstance(second, TensorType):
        return False
    if first.get_element_type() != second.get_element_type():
        return False
    shapes = [first.get_shape(), second.get_shape()]
    if any(DYNAMIC_INDEX in shape for shape in shapes):
        return False
    return [d for d in shapes[0] if d != 1] == [d for d in shapes[1] if d != 1]


def _verify_delivery(op: InterTileConsumeOp | InterTileReduceOp, reshaped: bool) -> None:
    """What consume and reduce share: results are the partials (``reshaped``: up to
    dimensions of extent 1, ``same_elements``), and the shapes of the consumer and
    dependency sets."""
    partials = tuple(op.future.type.partial_types.data)
    results = tuple(op.outputs.types)
    matches = results == partials or reshaped and len(results) == len(partials) and all(
        same_elements(result, partial) for result, partial in zip(results, partials)
    )
    if not matches:
        raise op.error("failed to verify that result types must match future partial types")
    consumers = op.consumer_tiles_per_group.data
    if consumers.num_symbols != 1:
        raise op.error(
            "`consumer_tiles_per_group` must have exactly one symbol (the group index g)"
        )
    if consumers.num_dims != 1:
        raise op.error(
            "`consumer_tiles_per_group` must have exactly one dimension (the tile id i)"
        )
    if op.producer_dependency_per_consumer is None:
        return
    dependency = op.producer_dependency_per_consumer.data
    if dependency.num_symbols not in (1, 2):
        raise op.error(
            "`producer_dependency_per_consumer` must have one symbol (c) or two symbols (c, g)"
        )
    if dependency.num_dims != 1:
        raise op.error(
            "`producer_dependency_per_consumer` must have exactly one dimension (the "
            "producer tile id p)"
        )


@irdl_op_definition
class InterTileConsumeOp(KtdpOperation):
    """Deliver a future's partials, unchanged, to the consumer tiles of each group
    (broadcast, or routing with ``producer_dependency_per_consumer`` naming each
    consumer's source)."""

    name = "ktdp.inter_tile_consume"

    future = operand_def(TileFutureType)
    consumer_tiles_per_group = prop_def(AffineSetAttr)
    """Per group ``g`` (the symbol), the consuming tile ids."""
    producer_dependency_per_consumer = opt_prop_def(AffineSetAttr)
    """Per consumer ``c`` (and group ``g``), the producer tile ids it takes from."""
    outputs = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> InterTileConsumeOp:
        future, consumers = _parse_delivery_head(parser)
        dependency = None
        if parser.parse_optional_punctuation(",") is not None:
            dependency = _parse_set_param(parser, "producer_dependency_per_consumer")
        properties, attributes = parse_attr_dict(parser, cls)
        properties["consumer_tiles_per_group"] = consumers
        if dependency is not None:
            properties["producer_dependency_per_consumer"] = dependency
        parser.parse_punctuation(":")
        future_type = parse_stripped_type(parser, TileFutureType)
        parser.parse_punctuation("->")
        return cls.build(operands=[parser.resolve_operand(future, future_type)],
                         result_types=[_parse_type_list(parser)],
                         properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        _print_delivery_head(printer, self)
        print_attr_dict(printer, self, _DELIVERY_PROPERTIES)
        printer.print_string(" : ")
        print_stripped_type(printer, self.future.type, TileFutureType)
        printer.print_string(" -> ")
        _print_type_list(printer, self.outputs.types)

    def verify_(self) -> None:
        _verify_delivery(self, reshaped=False)


@irdl_op_definition
class InterTileReduceOp(KtdpOperation):
    """Combine a future's partials across the producer tiles of each group and deliver
    the result to its consumer tiles (all-reduce, or reduce to some). The combiner
    takes ``(lhs_1..N, rhs_1..N)`` and yields the N combined values; ``identity``, when
    given, is the neutral element of each, the value the fold starts from.

    Types, as IBM's interpreter runs them: the combiner's arguments and yields are the
    partial types; each identity and each result holds the same elements as its
    partial, in its partial's type or reshaped by dimensions of extent 1
    (``same_elements``: a ``tensor<1x128xf16>`` partial may come back as
    ``tensor<128xf16>`` and start from a ``tensor<1x128xf16>`` identity). The element
    type never changes. (IBM's MLIR front end asks for identity types equal to the
    result types and those equal to the partial types, a subset of this.)"""

    name = "ktdp.inter_tile_reduce"

    future = operand_def(TileFutureType)
    identity = var_operand_def()
    consumer_tiles_per_group = prop_def(AffineSetAttr)
    """Per group ``g`` (the symbol), the consuming tile ids."""
    producer_dependency_per_consumer = opt_prop_def(AffineSetAttr)
    """Per consumer ``c`` (and group ``g``), the producer tile ids it takes from."""
    outputs = var_result_def()
    combiner = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> InterTileReduceOp:
        future, consumers = _parse_delivery_head(parser)
        parser.parse_punctuation(",")
        dependency = _parse_optional_set_param(parser, "producer_dependency_per_consumer")
        if dependency is not None:
            parser.parse_punctuation(",")
        parser.parse_keyword("identity")
        parser.parse_punctuation("(")
        identity = []
        if parser.parse_optional_punctuation(")") is None:
            names = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            identity = parser.resolve_operands(names, _parse_type_list(parser), parser.pos)
            parser.parse_punctuation(")")
        properties, attributes = parse_attr_dict(parser, cls)
        properties["consumer_tiles_per_group"] = consumers
        if dependency is not None:
            properties["producer_dependency_per_consumer"] = dependency
        parser.parse_punctuation(":")
        future_type = parse_stripped_type(parser, TileFutureType)
        parser.parse_punctuation("->")
        result_types = _parse_type_list(parser)
        return cls.build(operands=[parser.resolve_operand(future, future_type), identity],
                         result_types=[result_types], properties=properties,
                         attributes=attributes, regions=[parser.parse_region()])

    def print(self, printer: Printer) -> None:
        _print_delivery_head(printer, self)
        printer.print_string(", identity(")
        if self.identity:
            printer.print_list(self.identity, printer.print_ssa_value)
            printer.print_string(" : ")
            _print_type_list(printer, self.identity.types)
        printer.print_string(")")
        print_attr_dict(printer, self, _DELIVERY_PROPERTIES)
        printer.print_string(" : ")
        print_stripped_type(printer, self.future.type, TileFutureType)
        printer.print_string(" -> ")
        _print_type_list(printer, self.outputs.types)
        printer.print_string(" ")
        printer.print_region(self.combiner)

    def verify_(self) -> None:
        partials = self.future.type.partial_types.data
        if self.identity and not (
            len(self.identity) == len(partials)
            and all(same_elements(value.type, p) for value, p in zip(self.identity, partials))
        ):
            raise self.error(
                "failed to verify that identity types must match result types (the partial "
                "types, up to dimensions of extent 1)"
            )
        _verify_delivery(self, reshaped=True)
        arguments = self.combiner.block.args
        if len(arguments) != 2 * len(partials):
            raise self.error(
                f"reducer region must take 2*{len(partials)} arguments, got {len(arguments)}"
            )
        for index, partial in enumerate(partials):
            pair = (arguments[index].type, arguments[len(partials) + index].type)
            if pair != (partial, partial):
                raise self.error(
                    f"reducer region argument pair #{index} must both have partial type "
                    f"{partial}"
                )
        yielded = self.combiner.block.last_op
        if not isinstance(yielded, YieldReducedOp):
            return
        if len(yielded.arguments) != len(partials):
            raise self.error(
                f"yield_reduced yields {len(yielded.arguments)} values but expected "
                f"{len(partials)}"
            )
        for index, (value, partial) in enumerate(zip(yielded.arguments, partials)):
            if value.type != partial:
                raise self.error(
                    f"yield_reduced operand #{index} type {value.type} must match partial "
                    f"type {partial}"
                )


# --- the kernel grid ---------------------------------------------------------------------

GRID = "grid"
"""The ``func.func`` attribute giving a kernel's grid of compute tiles,
``grid = [X(, Y(, Z))]`` (a KTIR convention that no dialect op declares)."""


def grid_of(func: Operation) -> tuple[int, ...]:
    """A kernel's grid, checked: a non-empty list of positive integers; ``(1,)``, one
    tile, when it gives none."""
    grid = func.attributes.get(GRID)
    if grid is None:
        return (1,)
    name = f"@{func.sym_name.data}"
    if not isinstance(grid, ArrayAttr) or not all(isinstance(n, IntegerAttr) for n in grid.data):
        from ktc.dialects.ktdf_arch import attr_text

        raise KtcError(f"grid {attr_text(grid)} of {name} is not a list of integers", where(func))
    sizes = tuple(n.value.data for n in grid.data)
    if not sizes:
        raise KtcError(f"grid of {name} must have at least one dimension", where(func))
    for size in sizes:
        if size < 1:
            raise KtcError(f"grid size must be positive (got {size}) in {name}", where(func))
    return sizes


def set_grid(func: Operation, sizes: Sequence[int]) -> None:
    """Give ``func`` the grid ``sizes``, its entries typed as the old grid's (i64 for
    a function without one)."""
    old = func.attributes.get(GRID)
    element = old.data[0].type if isinstance(old, ArrayAttr) and old.data else i64
    func.attributes[GRID] = ArrayAttr([IntegerAttr(size, element) for size in sizes])


KTDP = Dialect(
    "ktdp",
    [
        GetComputeTileIdOp,
        ConstructMemoryViewOp,
        ConstructDistributedMemoryViewOp,
        ConstructAccessTileOp,
        ConstructIndirectAccessTileOp,
        RegionTerminatorOp,
        LoadOp,
        StoreOp,
        RuntimeArgExtractOp,
        InterTileProduceOp,
        YieldPartialOp,
        InterTileConsumeOp,
        InterTileReduceOp,
        YieldReducedOp,
    ],
    [
        AccessTileType,
        RuntimeArgType,
        TileFutureType,
        MemorySpaceAttr,
        SpyreMemorySpaceAttr,
        RuntimeArgExtractKindAttr,
    ],
)
