"""``ktdf_arch``: the architecture description of a device.

A device is a graph: memories and execution units are its nodes, datapaths its
directed edges. Groups nest a private part of the hierarchy (a core owns its
scratchpad and the units that use it); they capture memories from above with
``share(...)`` and release execution units upward with ``yield``. ``patterns``
blocks carry the device's PDL rewrites.

```mlir
#L1 = {kind = "L1", size = 1048576}
ktdf_arch.device @sample_device {
  %ddr = memory {kind = "DDR", size = 1073741824}
  group {kind = "core"} share(%ddr) {
    %l1 = memory #L1
    %dma = exec_unit {kind = "DMA"}
    datapath %ddr to %dma : memory, exec_unit
  }
}
ktdf_arch.device @other import("other_device.mlir")
```

Everything written in a resource's attribute dictionary (or in the ``#ALIAS``
dictionary standing in for it) stays an op attribute, so new fields are additions
to the format, never changes to these definitions. What the syntax spells out
separately (``@id``, ``@name``, ``import(...)``, the pattern groups) is a property.

Attributes named ``ktdf_arch.*`` are the intrinsic properties, and the entries of
``ktdf_arch.features`` the intrinsic features; both are checked against the tables
``INTRINSICS`` and ``FEATURES`` below, which say where each is valid and what
value it takes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from io import StringIO
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    BuiltinAttribute,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i64,
)
from xdsl.dialects.pdl import PatternOp
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_attr_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    SingleBlockImplicitTerminator,
    SymbolOpInterface,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException

from ktc.dialects.dfir import ComputeKind
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.printer import MlirPrinter
from ktc.dialects.spyreop import DF16Type
from ktc.dialects.syntax import (
    parse_attributes_with_keyword,
    parse_body,
    parse_optional_isolated_region,
)

# ---------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------


@irdl_attr_definition
class MemoryType(ParametrizedAttribute, TypeAttribute):
    """A memory of the device (``!ktdf_arch.memory``)."""

    name = "ktdf_arch.memory"


@irdl_attr_definition
class ExecUnitType(ParametrizedAttribute, TypeAttribute):
    """An execution unit of the device (``!ktdf_arch.exec_unit``)."""

    name = "ktdf_arch.exec_unit"


@irdl_attr_definition
class PortType(ParametrizedAttribute, TypeAttribute):
    """A port of a switch (``!ktdf_arch.port``)."""

    name = "ktdf_arch.port"


EndpointType = MemoryType | ExecUnitType | PortType
"""What a datapath may connect."""

_SHORT_TYPES: dict[str, Attribute] = {
    "memory": MemoryType(),
    "exec_unit": ExecUnitType(),
    "port": PortType(),
}
"""Inside a device the endpoint types are written without the dialect prefix."""


def _parse_short_type(parser: Parser) -> Attribute:
    for keyword, type_ in _SHORT_TYPES.items():
        if parser.parse_optional_keyword(keyword) is not None:
            return type_
    parser.raise_error("expected 'memory', 'exec_unit' or 'port'")


def _print_short_type(printer: Printer, type_: Attribute) -> None:
    printer.print_string(type_.name.removeprefix("ktdf_arch."))


# ---------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------


@irdl_attr_definition
class MapAttr(ParametrizedAttribute):
    """An ordered association list ``#ktdf_arch.map<k = v, ...>`` with unique keys.

    Keys are any attribute: memory-space names (``"L1"``), element types (``f16``),
    KTIR memory spaces (``#ktdp.memory_space<global>``).
    """

    name = "ktdf_arch.map"

    keys: ArrayAttr
    values: ArrayAttr

    def __init__(self, entries: Sequence[tuple[Attribute, Attribute]]):
        super().__init__(
            ArrayAttr(key for key, _ in entries), ArrayAttr(value for _, value in entries)
        )

    def items(self) -> Iterator[tuple[Attribute, Attribute]]:
        return zip(self.keys.data, self.values.data)

    def get(self, key: Attribute) -> Attribute | None:
        return next((value for k, value in self.items() if k == key), None)

    def verify(self) -> None:
        if len(self.keys.data) != len(self.values.data):
            raise VerifyException("#ktdf_arch.map needs as many values as keys")
        seen: list[Attribute] = []
        for key in self.keys.data:
            if key in seen:
                raise VerifyException(f"duplicate key {attr_text(key)} in #ktdf_arch.map")
            seen.append(key)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        entries = parser.parse_comma_separated_list(
            parser.Delimiter.ANGLE, lambda: _parse_map_entry(parser)
        )
        return [ArrayAttr(k for k, _ in entries), ArrayAttr(v for _, v in entries)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_list(self.items(), lambda entry: _print_map_entry(printer, entry))


def _parse_map_entry(parser: AttrParser) -> tuple[Attribute, Attribute]:
    key = parser.parse_attribute()
    parser.parse_punctuation("=")
    return key, parser.parse_attribute()


def _print_map_entry(printer: Printer, entry: tuple[Attribute, Attribute]) -> None:
    printer.print_attribute(entry[0])
    printer.print_string(" = ")
    printer.print_attribute(entry[1])


def attr_text(attr: Attribute) -> str:
    """An attribute as it is written, for messages."""
    out = StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


# ---------------------------------------------------------------------------------
# Intrinsic properties and features
# ---------------------------------------------------------------------------------

# Where an intrinsic may appear: the kinds of ops that carry it.
MEMORY, EXEC_UNIT, LINK, GROUP, SWITCH, DEVICE = (
    "memory", "exec_unit", "link", "group", "switch", "device")
RESOURCES = frozenset({MEMORY, EXEC_UNIT, LINK, GROUP, SWITCH})

Check = Callable[[Attribute], str | None]
"""A value check: the error (without the attribute's name) or None."""


@dataclass(frozen=True)
class Intrinsic:
    """Where an intrinsic is valid (``valid_on``, named ``where`` in messages) and
    what its value must be."""

    valid_on: frozenset[str]
    where: str
    check: Check


@dataclass(frozen=True)
class Feature:
    """An intrinsic feature: where it is valid, the check of each of its fields and
    the fields it must give."""

    valid_on: str
    where: str
    fields: dict[str, Check]
    required: tuple[str, ...] = ()


def _is_i64(attr: Attribute) -> bool:
    return isinstance(attr, IntegerAttr) and attr.type == i64


def _positive_i64(attr: Attribute) -> str | None:
    if not _is_i64(attr):
        return "requires 64-bit integer attribute"
    if attr.value.data <= 0:
        return "value must be > 0"
    return None


def _array(attr: Attribute) -> str | None:
    return None if isinstance(attr, ArrayAttr) else "requires array attribute"


def _granularities(attr: Attribute) -> str | None:
    if not isinstance(attr, DenseArrayBase) or attr.elt_type != i64:
        return "requires dense 64-bit integer array attribute"
    values = attr.get_values()
    for index, size in enumerate(values):
        if size in values[:index]:
            return f"repeated granularity ({size})"
        if size <= 0:
            return f"granularity must be > 0 (got {size})"
    return None


def _any_value(attr: Attribute) -> str | None:
    return None


def _features_dict(attr: Attribute) -> str | None:
    return None if isinstance(attr, DictionaryAttr) else "requires dictionary attribute"


def _unit_field(name: str) -> Check:
    return lambda attr: None if isinstance(attr, UnitAttr) else f"'{name}' requires unit"


def _positive_field(name: str) -> Check:
    def check(attr: Attribute) -> str | None:
        if not _is_i64(attr):
            return f"'{name}' requires 64-bit integer"
        return f"'{name}' must be > 0" if attr.value.data <= 0 else None

    return check


def _word_size(attr: Attribute) -> str | None:
    if not isinstance(attr, MapAttr):
        return "'word_size' requires map"
    for space, size in attr.items():
        entry = f"'word_size[{attr_text(space)}]'"
        if not _is_i64(size):
            return f"{entry} requires 64-bit integer"
        if size.value.data < 0:
            return f"{entry} must be >= 0"
    return None


def _words_field(path: str, access: DictionaryAttr, name: str) -> str | None:
    value = access.data.get(name)
    if value is None:
        return None
    if not _is_i64(value):
        return f"'{path}': '{name}' requires 64-bit integer"
    return f"'{path}': '{name}' must be >= 0" if value.value.data < 0 else None


def _access(path: str, access: Attribute) -> str | None:
    """One ``{size_in_words = N, align_in_words = M}`` entry, ``path`` naming it."""
    if not isinstance(access, DictionaryAttr):
        return f"'{path}' requires dictionary attribute"
    if "size_in_words" not in access.data:
        return f"'{path}': 'size_in_words' is required"
    unknown = sorted(set(access.data) - {"size_in_words", "align_in_words"})
    if unknown:
        return f"'{path}' has no field '{unknown[0]}'"
    return _words_field(path, access, "size_in_words") or _words_field(
        path, access, "align_in_words"
    )


def _access_granularity(attr: Attribute) -> str | None:
    if not isinstance(attr, MapAttr):
        return "'access_granularity' requires map"
    for space, accesses in attr.items():
        path = f"access_granularity[{attr_text(space)}]"
        if not isinstance(accesses, ArrayAttr):
            return f"'{path}' requires array attribute"
        for index, access in enumerate(accesses.data):
            if error := _access(f"{path}[{index}]", access):
                return error
    return None


def _lanes(attr: Attribute) -> str | None:
    if not isinstance(attr, MapAttr) or not all(
        isinstance(type_, TypeAttribute) and _is_i64(count) for type_, count in attr.items()
    ):
        return "'lanes' requires map from type to 64-bit integer"
    for type_, count in attr.items():
        if count.value.data <= 0:
            return f"'lanes[{attr_text(type_)}]' must be > 0"
    return None


def _non_negative_i64(attr: Attribute) -> str | None:
    if not _is_i64(attr):
        return "requires 64-bit integer attribute"
    return "value must be >= 0" if attr.value.data < 0 else None


def _non_negative_field(name: str) -> Check:
    def check(attr: Attribute) -> str | None:
        if not _is_i64(attr):
            return f"'{name}' requires 64-bit integer"
        return f"'{name}' must be >= 0" if attr.value.data < 0 else None

    return check


def _bounded_field(name: str, low: int, high: int) -> Check:
    """A 64-bit integer field from ``low`` to ``high``."""

    def check(attr: Attribute) -> str | None:
        if not _is_i64(attr):
            return f"'{name}' requires 64-bit integer"
        value = attr.value.data
        if value < low:
            return f"'{name}' must be {'> 0' if low == 1 else f'>= {low}'}"
        return f"'{name}' must be at most {high}" if value > high else None

    return check


def _float_type_field(name: str) -> Check:
    def check(attr: Attribute) -> str | None:
        if isinstance(attr, TypeAttribute) and float_bits(attr):
            return None
        return f"'{name}' requires a floating-point type (f16, !spyreop.df16, f32, f64)"

    return check


def float_bits(attr: Attribute) -> int | None:
    """The width of a floating-point type the numerics know, else None."""
    if isinstance(attr, DF16Type | Float16Type):
        return 16
    if isinstance(attr, Float32Type):
        return 32
    return 64 if isinstance(attr, Float64Type) else None


def _one_of(name: str, choices: Sequence[str]) -> Check:
    spelled = " or ".join(f'"{choice}"' for choice in choices)

    def check(attr: Attribute) -> str | None:
        if isinstance(attr, StringAttr) and attr.data in choices:
            return None
        return f"'{name}' must be {spelled}"

    return check


def _resource_id_field(name: str) -> Check:
    def check(attr: Attribute) -> str | None:
        if isinstance(attr, SymbolRefAttr) and not attr.nested_references.data:
            return None
        return f"'{name}' requires a resource id (@name)"

    return check


def _record(fields: dict[str, Check], required: Sequence[str] = ()) -> Check:
    """A dictionary whose entries are ``fields``, those in ``required`` mandatory."""

    def check(attr: Attribute) -> str | None:
        if not isinstance(attr, DictionaryAttr):
            return "requires dictionary attribute"
        missing = [name for name in required if name not in attr.data]
        if missing:
            return f"requires field '{missing[0]}'"
        for name, value in attr.data.items():
            field_check = fields.get(name)
            if field_check is None:
                return f"has no field '{name}'"
            if error := field_check(value):
                return f"field {error}"
        return None

    return check


def _strings(attr: Attribute) -> str | None:
    if isinstance(attr, ArrayAttr) and all(isinstance(a, StringAttr) for a in attr.data):
        return None
    return "requires array of strings"


def _instruction_names(attr: Attribute) -> str | None:
    """Vector instructions of the ISA (``dfir.ComputeKind``), each listed once."""
    if error := _strings(attr):
        return error
    names = [name.data for name in attr.data]
    for index, name in enumerate(names):
        if name not in INSTRUCTION_NAMES:
            return f"names no vector instruction: '{name}'"
        if name in names[:index]:
            return f"lists '{name}' twice"
    return None


def _instruction(attr: Attribute) -> str | None:
    """One instruction name, or an array of them (one per result component)."""
    names = attr.data if isinstance(attr, ArrayAttr) else (attr,)
    if not names or not all(isinstance(name, StringAttr) for name in names):
        return "requires a string or an array of strings"
    unknown = [name.data for name in names if name.data not in INSTRUCTION_NAMES]
    return f"names no vector instruction: '{unknown[0]}'" if unknown else None


def _f32_parameters(attr: Attribute) -> str | None:
    if isinstance(attr, ArrayAttr) and all(
        isinstance(a, FloatAttr) and isinstance(a.type, Float32Type) for a in attr.data
    ):
        return None
    return "requires array of f32 float attributes"


MATRIX_SHAPE_LIMIT = 4096
"""The most rows, or lanes, a matrix unit may have."""

MATRIX_CYCLES_LIMIT = 1 << 20
"""The most cycles a matrix unit's issue, fill or drain may take."""

MATRIX_FIELDS = {
    "rows": _bounded_field("rows", 1, MATRIX_SHAPE_LIMIT),
    "lanes": _bounded_field("lanes", 1, MATRIX_SHAPE_LIMIT),
    "input": _float_type_field("input"),
    "accumulator": _float_type_field("accumulator"),
    "issue_cycles": _bounded_field("issue_cycles", 1, MATRIX_CYCLES_LIMIT),
    "fill": _bounded_field("fill", 0, MATRIX_CYCLES_LIMIT),
    "drain": _bounded_field("drain", 0, MATRIX_CYCLES_LIMIT),
}
"""The required fields of ``ktdf_arch.feature.matrix``: a matrix unit of
``rows`` x ``lanes`` multiply-accumulates per step, operands of the ``input`` type,
accumulators of the ``accumulator`` type (held in a memory defined beside the unit);
a step issues in ``issue_cycles``, products reach the accumulators ``fill`` cycles
after their operands enter, and accumulators leave ``drain`` cycles after the last
step."""

MATRIX_OPTIONS = {"transposed_rhs": _unit_field("transposed_rhs")}
"""The optional fields of ``ktdf_arch.feature.matrix``: ``transposed_rhs``, the unit
also takes its right operand as an ``n x k`` block (each step's row of ``lanes``
elements a column of it), so that a right operand stored n x k reaches it without a
transposing copy."""

SCALAR_CLASSES = ("scalar", "control")
"""The classes of the instructions an execution unit may state a cost for
(``ktdf_arch.scalar_cycles``): scalar arithmetic, moves, uniforms and views; loops,
branches and halt."""

ISSUE_CLASSES = ("plain", "transcendental", "reduction_step")
"""The op classes a compute unit gives an issue cost for: ordinary arithmetic,
transcendentals (exp, sqrt, reciprocal, ...), and one step of an in-vector reduction."""

TOPOLOGIES = ("ring", "line")
"""How an interconnect joins the instances of a group: a bidirectional ring (the last
instance neighbours the first) or a bidirectional line."""

_INTERCONNECT_FIELDS = {
    "topology": _one_of("topology", TOPOLOGIES),
    "stop": _resource_id_field("stop"),
    "bandwidth": _positive_field("bandwidth"),
    "latency": _non_negative_field("latency"),
}

INSTRUCTION_NAMES = tuple(kind.value for kind in ComputeKind)
"""The vector instructions a compute engine may have (the ISA's ``vop`` kinds)."""

MAPS_TO = "ktdf_arch.maps_to"
FEATURES_ATTR = "ktdf_arch.features"
INSTRUCTION = "ktdf_arch.instruction"
PARAMETERS = "ktdf_arch.parameters"

INTRINSICS: dict[str, Intrinsic] = {
    "ktdf_arch.bandwidth": Intrinsic(frozenset({LINK}), "links", _positive_i64),
    FEATURES_ATTR: Intrinsic(RESOURCES, "resources", _features_dict),
    MAPS_TO: Intrinsic(frozenset(), "mappable ops", _any_value),
    INSTRUCTION: Intrinsic(frozenset(), "mapped ops", _instruction),
    PARAMETERS: Intrinsic(frozenset(), "mapped ops", _f32_parameters),
    "ktdf_arch.overlaps": Intrinsic(RESOURCES, "resources", _array),
    "ktdf_arch.transfer_granularity": Intrinsic(frozenset({LINK}), "links", _granularities),
    "ktdf_arch.transfer_latency": Intrinsic(frozenset({LINK}), "links", _non_negative_i64),
    "ktdf_arch.port_bandwidth": Intrinsic(frozenset({MEMORY}), "memories", _positive_i64),
    "ktdf_arch.outstanding": Intrinsic(frozenset({EXEC_UNIT}), "execution units", _positive_i64),
    "ktdf_arch.descriptor_cycles": Intrinsic(
        frozenset({EXEC_UNIT}), "execution units", _positive_i64
    ),
    "ktdf_arch.issue_cycles": Intrinsic(
        frozenset({EXEC_UNIT}),
        "execution units",
        _record({name: _positive_field(name) for name in ISSUE_CLASSES}),
    ),
    "ktdf_arch.scalar_cycles": Intrinsic(
        frozenset({EXEC_UNIT}),
        "execution units",
        _record({name: _positive_field(name) for name in SCALAR_CLASSES}),
    ),
    "ktdf_arch.instructions": Intrinsic(
        frozenset({EXEC_UNIT}), "execution units", _instruction_names
    ),
    "ktdf_arch.count": Intrinsic(frozenset({GROUP}), "groups", _positive_i64),
    "ktdf_arch.interconnect": Intrinsic(
        frozenset({GROUP}), "groups", _record(_INTERCONNECT_FIELDS, tuple(_INTERCONNECT_FIELDS))
    ),
    "ktdf_arch.clock_mhz": Intrinsic(frozenset({DEVICE}), "devices", _positive_i64),
    "ktdf_arch.example_values": Intrinsic(
        RESOURCES | {DEVICE}, "resources and devices", _strings
    ),
}
"""The intrinsic properties, by attribute name.

IBM's format stops at ``transfer_granularity``; the rest say how fast a device is and
how large, all in cycles and bytes:

* ``transfer_latency``: cycles from a transfer's first byte entering a link to it
  leaving; ``bandwidth`` (IBM: "max concurrent bytes") is read as bytes per cycle.
* ``port_bandwidth``: bytes per cycle a memory serves through all its ports together,
  shared by every path that reads or writes it (device memory shared by all cores).
* ``outstanding``: copies (``dma``) an execution unit has in flight at most; one more
  waits for the earliest to complete (no limit where it is not given).
* ``descriptor_cycles``: cycles an execution unit spends writing the descriptor of an
  indirect copy (``dmai``: its address computed from indices it read) that does not
  continue the previous one (0 where it is not given).
* ``issue_cycles``: cycles a compute unit takes to issue one vector instruction of
  each op class in ``ISSUE_CLASSES``.
* ``scalar_cycles``: cycles an execution unit spends on each instruction of the
  ``SCALAR_CLASSES`` it runs (a class not given costs nothing).
* ``instructions``: the vector instructions a compute unit has (``INSTRUCTION_NAMES``),
  the ones the device's patterns may map an intrinsic onto.
* ``instruction`` and ``parameters``, on an op of a kernel, not of the device: the
  instruction a device pattern mapped the op onto (``instruction_of``).
* ``count``: a group stands for that many identical instances, written once.
* ``interconnect``: joins a group's instances through the execution unit ``stop``
  of each, with ``bandwidth`` bytes per cycle per direction and ``latency`` cycles
  per hop, in one of the ``TOPOLOGIES``.
* ``clock_mhz``: the clock every cycle above counts.
* ``example_values``: names the figures of this op that are example values, not
  published ones: an intrinsic without its prefix (``clock_mhz``), another
  attribute (``size``), or a field inside a dictionary (``interconnect.latency``).
"""

_LOAD_STORE = {"word_size": _word_size, "access_granularity": _access_granularity}

FEATURES: dict[str, Feature] = {
    "ktdf_arch.feature.compute": Feature(EXEC_UNIT, "execution units", {}),
    "ktdf_arch.feature.load": Feature(EXEC_UNIT, "execution units", _LOAD_STORE),
    "ktdf_arch.feature.store": Feature(EXEC_UNIT, "execution units", _LOAD_STORE),
    "ktdf_arch.feature.simd": Feature(
        EXEC_UNIT,
        "execution units",
        {"splat": _unit_field("splat"), "zero_pad": _unit_field("zero_pad"), "lanes": _lanes},
    ),
    "ktdf_arch.feature.matrix": Feature(
        EXEC_UNIT, "execution units", {**MATRIX_FIELDS, **MATRIX_OPTIONS}, tuple(MATRIX_FIELDS)
    ),
    "ktdf_arch.feature.queue": Feature(
        LINK,
        "links",
        {
            "ordered": _unit_field("ordered"),
            "size": _positive_field("size"),
            "depth": _positive_field("depth"),
        },
    ),
}
"""The intrinsic features (entries of ``ktdf_arch.features``), by name."""


def intrinsic_error(name: str, value: Attribute, placement: str) -> str | None:
    """What is wrong with intrinsic property ``name = value`` on a ``placement`` op."""
    intrinsic = INTRINSICS.get(name)
    if intrinsic is None:
        return f"'{name}' is not a ktdf_arch intrinsic property"
    if placement not in intrinsic.valid_on:
        return f"'{name}' only valid on {intrinsic.where}"
    if error := intrinsic.check(value):
        return f"'{name}' {error}"
    if name != "ktdf_arch.features":
        return None
    features = cast(DictionaryAttr, value).data.items()
    return next((e for f, v in features if (e := feature_error(f, v, placement))), None)


def feature_error(name: str, value: Attribute, placement: str) -> str | None:
    """What is wrong with feature ``name = value`` provided by a ``placement`` op."""
    feature = FEATURES.get(name)
    if feature is None:
        return f"'{name}' is not a ktdf_arch feature"
    if placement != feature.valid_on:
        return f"'{name}' only valid on {feature.where}"
    if isinstance(value, UnitAttr):
        return None
    if not isinstance(value, DictionaryAttr) or not feature.fields:
        return f"'{name}' requires {'dictionary attribute' if feature.fields else 'unit'}"
    missing = [field for field in feature.required if field not in value.data]
    if missing:
        return f"'{name}' requires field '{missing[0]}'"
    for field, field_value in value.data.items():
        check = feature.fields.get(field)
        if check is None:
            return f"'{name}' has no field '{field}'"
        if error := check(field_value):
            return f"'{name}': {error}"
    return None


def verify_intrinsics(op: Operation, placement: str) -> None:
    """Check every ``ktdf_arch.*`` attribute of an op of the given placement."""
    for name, value in op.attributes.items():
        if not name.startswith("ktdf_arch."):
            continue
        if error := intrinsic_error(name, value, placement):
            raise VerifyException(error)


@dataclass(frozen=True)
class Instruction:
    """What a device pattern mapped an op of a kernel onto
    (``ktdf_arch.map_to_instruction``)."""

    kinds: tuple[ComputeKind, ...]
    """One instruction per component of the op's results (a fused pair has two), each
    taking every component of the op's operands."""

    parameters: tuple[FloatAttr, ...]
    """f32 parameters the instructions take after the operands."""


def instruction_of(op: Operation) -> Instruction | None:
    """The instruction ``op`` was mapped onto, or None when no pattern mapped it; a
    malformed ``ktdf_arch.instruction`` or ``ktdf_arch.parameters`` is an error at
    ``op``."""
    name = op.attributes.get(INSTRUCTION)
    if name is None:
        return None
    parameters = op.attributes.get(PARAMETERS, ArrayAttr([]))
    for attribute, error in ((INSTRUCTION, _instruction(name)), (PARAMETERS, _f32_parameters(parameters))):
        if error:
            raise KtcError(f"'{attribute}' {error}", where(op))
    names = name.data if isinstance(name, ArrayAttr) else (name,)
    return Instruction(tuple(ComputeKind(n.data) for n in names), tuple(parameters.data))


# ---------------------------------------------------------------------------------
# Custom syntax shared by the resources
# ---------------------------------------------------------------------------------


def _parse_attr_dict_or_alias(parser: Parser) -> dict[str, Attribute]:
    """``{...}``, ``#ALIAS`` naming a dictionary, or nothing."""
    if attributes := parser.parse_optional_dictionary_attr_dict():
        return attributes
    pos = parser.pos
    alias = parser.parse_optional_attribute()
    if alias is None:
        return {}
    if not isinstance(alias, DictionaryAttr):
        parser.raise_error("expected an attribute dictionary or an alias of one", pos)
    return dict(alias.data)


def _describe(value: SSAValue) -> str:
    """A resource as a message names it (``memory @l1 "L1"``); a memory a group
    shares is named as it is outside the group."""
    while isinstance(value, BlockArgument):
        value = cast(GroupOp, value.owner.parent_op()).shared[value.index]
    op = value.owner
    words = [op.name.removeprefix("ktdf_arch.")]
    if isinstance(op, ResourceOp) and op.resource_id is not None:
        words.append(f"@{op.resource_id.data}")
    if isinstance(kind := op.attributes.get("kind"), StringAttr):
        words.append(f'"{kind.data}"')
    return " ".join(words)


# ---------------------------------------------------------------------------------
# Resources
# ---------------------------------------------------------------------------------


def is_memory_space(attr: Attribute) -> bool:
    """What MLIR accepts as a memref memory space."""
    return isinstance(attr, IntegerAttr | StringAttr | DictionaryAttr) or not isinstance(
        attr, BuiltinAttribute
    )


def _parse_header(parser: Parser) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """``[@id] [attr-dict-or-alias]``, the start of every resource: (properties, attributes)."""
    resource_id = parser.parse_optional_symbol_name()
    properties: dict[str, Attribute] = {"id": resource_id} if resource_id else {}
    return properties, _parse_attr_dict_or_alias(parser)


def _print_header(printer: Printer, op: ResourceOp) -> None:
    if op.resource_id is not None:
        printer.print_string(" ")
        printer.print_symbol_name(op.resource_id.data)
    printer.print_op_attributes(op.attributes)


def _verify_children(block: Block, allowed: tuple[type[Operation], ...]) -> None:
    for child in block.ops:
        if not isinstance(child, allowed):
            raise VerifyException(f"expects child ops to be resources, found '{child.name}'")


def _is_resource(value: SSAValue) -> bool:
    """Defined by a resource op, or a memory a group shares with its body."""
    if isinstance(value, BlockArgument):
        return isinstance(value.owner.parent_op(), GroupOp)
    return isinstance(value.owner, ResourceOp)


class ResourceOp(IRDLOperation):
    """A node or edge of the device graph, inside a device or a group."""

    PLACEMENT: ClassVar[str]
    """Which intrinsic properties and features apply (see ``INTRINSICS``)."""

    resource_id = opt_prop_def(StringAttr, prop_name="id")
    """A name, unique among the resources of the enclosing device or group."""

    kind = opt_attr_def(Attribute)
    """What the resource is (``"L1"``, ``"SFU"``, ``"core"``): IR and programs name
    resources by kind, and resources of one kind are alike."""

    traits = lazy_traits_def(lambda: (HasParent(DeviceOp, GroupOp),))

    def verify_(self) -> None:
        verify_intrinsics(self, self.PLACEMENT)
        if error := self.kind_error():
            raise VerifyException(error)
        if self.resource_id is not None and self._id_defined_before():
            raise VerifyException(f'resource with id "{self.resource_id.data}" redefined')

    def kind_error(self) -> str | None:
        """What is wrong with the kind; resources other than memories name it by a string."""
        if self.kind is None or isinstance(self.kind, StringAttr):
            return None
        return "attribute 'kind' failed to satisfy constraint: string attribute"

    def _id_defined_before(self) -> bool:
        block = self.parent_block()
        for sibling in block.ops if block else ():
            if sibling is self:
                return False
            if isinstance(sibling, ResourceOp) and sibling.resource_id == self.resource_id:
                return True
        return False


class _NodeOp(ResourceOp):
    """A resource written ``%x = <op> [@id] [attr-dict-or-alias]``."""

    NODE_TYPE: ClassVar[Attribute]

    @classmethod
    def parse(cls, parser: Parser) -> _NodeOp:
        properties, attributes = _parse_header(parser)
        return cls.create(
            properties=properties, attributes=attributes, result_types=[cls.NODE_TYPE]
        )

    def print(self, printer: Printer) -> None:
        _print_header(printer, self)


@irdl_op_definition
class MemoryOp(_NodeOp):
    """A memory: ``%l1 = memory {kind = "L1", size = 1048576}``."""

    name = "ktdf_arch.memory"
    PLACEMENT: ClassVar[str] = MEMORY
    NODE_TYPE: ClassVar[Attribute] = MemoryType()

    size = opt_attr_def(IntegerAttr)
    """Capacity in bytes."""

    memory = result_def(MemoryType)

    def kind_error(self) -> str | None:
        """A memory's kind is required, and is the memref memory space naming it."""
        if self.kind is None:
            return "requires attribute 'kind'"
        if not is_memory_space(self.kind):
            return "attribute 'kind' requires valid memory space"
        return None

    def verify_(self) -> None:
        super().verify_()
        if self.size is not None and not (_is_i64(self.size) and self.size.value.data >= 1):
            raise VerifyException(
                "attribute 'size' failed to satisfy constraint: "
                "64-bit signless integer attribute whose minimum value is 1"
            )


@irdl_op_definition
class ExecUnitOp(_NodeOp):
    """An execution unit: ``%sfu = exec_unit {kind = "SFU", ktdf_arch.features = {...}}``."""

    name = "ktdf_arch.exec_unit"
    PLACEMENT: ClassVar[str] = EXEC_UNIT
    NODE_TYPE: ClassVar[Attribute] = ExecUnitType()

    unit = result_def(ExecUnitType)


@irdl_op_definition
class DatapathOp(ResourceOp):
    """A directed link: ``datapath {...} %src to %dst : memory, exec_unit``."""

    name = "ktdf_arch.datapath"
    PLACEMENT: ClassVar[str] = LINK

    source = operand_def(EndpointType)
    target = operand_def(EndpointType)

    def verify_(self) -> None:
        super().verify_()
        for role, end in (("source", self.source), ("target", self.target)):
            if not _is_resource(end):
                raise VerifyException(f"datapath {role} is not a resource of this device")
        if self.source == self.target:
            raise VerifyException(f"datapath links {_describe(self.source)} to itself")

    @classmethod
    def parse(cls, parser: Parser) -> DatapathOp:
        properties, attributes = _parse_header(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        target = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        source_type = _parse_short_type(parser)
        parser.parse_punctuation(",")
        target_type = _parse_short_type(parser)
        return cls.create(
            operands=[
                parser.resolve_operand(source, source_type),
                parser.resolve_operand(target, target_type),
            ],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _print_header(printer, self)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" to ")
        printer.print_operand(self.target)
        printer.print_string(" : ")
        _print_short_type(printer, self.source.type)
        printer.print_string(", ")
        _print_short_type(printer, self.target.type)


@irdl_op_definition
class SwitchOp(ResourceOp):
    """A switch with n ports: ``%p:4 = switch [4] {connectivity = dense<...>}``."""

    name = "ktdf_arch.switch"
    PLACEMENT: ClassVar[str] = SWITCH

    connectivity = opt_attr_def(DenseIntOrFPElementsAttr)
    """Which port reaches which, an n x n i1 adjacency matrix; all of them when absent."""

    ports = var_result_def(PortType)

    def verify_(self) -> None:
        super().verify_()
        count = len(self.ports)
        if count == 0:
            raise VerifyException("a switch needs at least one port")
        matrix = self.connectivity
        if matrix is not None and (
            matrix.get_shape() != (count, count) or matrix.get_element_type() != IntegerType(1)
        ):
            raise VerifyException(
                f"'connectivity' must be a {count}x{count} adjacency matrix of i1"
            )

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        parser.parse_punctuation("[")
        count = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation("]")
        properties, attributes = _parse_header(parser)
        return cls.create(
            properties=properties, attributes=attributes, result_types=[PortType()] * count
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" [{len(self.ports)}]")
        _print_header(printer, self)


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a group, releasing some of its execution units to the enclosing level."""

    name = "ktdf_arch.yield"

    units = var_operand_def(ExecUnitType)

    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(GroupOp)))

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        units = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        )
        operands = [parser.resolve_operand(unit, ExecUnitType()) for unit in units or ()]
        return cls.create(operands=operands, attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        if self.units:
            printer.print_string(" ")
            printer.print_list(self.units, printer.print_operand)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class GroupOp(ResourceOp):
    """A private part of the hierarchy, e.g. a core with its scratchpad and units.

    ``share(%m, ...)`` captures memories from above; inside, the body sees them under
    the same names. ``yield`` releases execution units, which become the results.
    """

    name = "ktdf_arch.group"
    PLACEMENT: ClassVar[str] = GROUP

    shared = var_operand_def(MemoryType)
    """The memories from above the body may use; they are its arguments."""

    units = var_result_def(ExecUnitType)
    """The execution units the body yields."""

    body = region_def("single_block")

    traits = lazy_traits_def(
        lambda: (IsolatedFromAbove(), SingleBlockImplicitTerminator(YieldOp))
    )

    def verify_(self) -> None:
        super().verify_()
        arguments = [argument.type for argument in self.body.block.args]
        if arguments != [value.type for value in self.shared]:
            raise VerifyException(
                f"expects body arguments ({_type_list(arguments)}) to match "
                f"the shared memories ({_type_list(value.type for value in self.shared)})"
            )
        _verify_children(self.body.block, (ResourceOp, YieldOp))
        terminator = self.body.block.last_op
        if isinstance(terminator, YieldOp) and len(terminator.units) != len(self.units):
            raise VerifyException(
                f"region branch point has {len(terminator.units)} operands, "
                f"but region successor needs {len(self.units)} inputs"
            )

    @classmethod
    def parse(cls, parser: Parser) -> GroupOp:
        properties, attributes = _parse_header(parser)
        parser.parse_keyword("share")
        shared = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        memory = MemoryType()
        operands = [parser.resolve_operand(name, memory) for name in shared]
        arguments = [Parser.Argument(name.span, memory) for name in shared]
        body = parse_optional_isolated_region(parser, arguments)
        if body is None:
            parser.raise_error("expected the group's body")
        units: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            units = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, lambda: _parse_exec_unit_type(parser)
            )
        group = cls.create(
            operands=operands,
            result_types=units,
            properties=properties,
            attributes=attributes,
            regions=[body],
        )
        ensure_terminator(group, group.get_trait(SingleBlockImplicitTerminator))
        return group

    def print(self, printer: Printer) -> None:
        _print_header(printer, self)
        names: list[str] = []
        printer.print_string(" share")
        with printer.in_parens():
            printer.print_list(
                self.shared, lambda value: names.append(printer.print_ssa_value(value))
            )
        printer.print_string(" ")
        if isinstance(printer, MlirPrinter):  # xDSL's own printer names them afresh
            printer.shadow_region_args(self.body, names)
        printer.print_region(
            self.body,
            print_entry_block_args=False,
            print_block_terminators=not _is_implicit_yield(self.body.block.last_op),
        )
        if self.units:
            printer.print_string(" -> ")
            printer.print_list(self.units, lambda unit: _print_short_type(printer, unit.type))


def _type_list(types: Iterable[Attribute]) -> str:
    return ", ".join(attr_text(type_) for type_ in types)


def _parse_exec_unit_type(parser: Parser) -> Attribute:
    parser.parse_keyword("exec_unit")
    return ExecUnitType()


def _is_implicit_yield(op: Operation | None) -> bool:
    return isinstance(op, YieldOp) and not op.units and not op.attributes


# ---------------------------------------------------------------------------------
# Patterns and the device
# ---------------------------------------------------------------------------------


@irdl_op_definition
class PatternsOp(IRDLOperation):
    """Device-supplied PDL rewrites: ``patterns ["pre_scheduling"] { pdl.pattern ... }``."""

    name = "ktdf_arch.patterns"

    groups = prop_def(ArrayAttr[StringAttr], ArrayAttr(()))
    """The application points that enable these patterns; empty means every one."""

    body = region_def("single_block")

    traits = lazy_traits_def(lambda: (HasParent(DeviceOp), NoTerminator()))

    def verify_(self) -> None:
        for child in self.body.block.ops:
            if not isinstance(child, PatternOp):
                raise VerifyException(
                    f"expects child ops to be 'pdl.pattern', found '{child.name}'"
                )

    @classmethod
    def parse(cls, parser: Parser) -> PatternsOp:
        groups = parser.parse_optional_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_str_literal
        )
        attributes = parse_attributes_with_keyword(parser)
        return cls.create(
            properties={"groups": ArrayAttr(StringAttr(group) for group in groups or ())},
            attributes=attributes,
            regions=[parse_body(parser)],
        )

    def print(self, printer: Printer) -> None:
        if self.groups.data:
            printer.print_string(" ")
            with printer.in_square_brackets():
                printer.print_list(self.groups.data, printer.print_attribute)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_empty_block=False)


@irdl_op_definition
class DeviceOp(IRDLOperation):
    """A device: its resources and patterns, or ``import("file")`` naming the file
    that defines them. Attributes on an importing declaration (such as
    ``mem_space_mapping``) apply over the imported definition's."""

    name = "ktdf_arch.device"

    sym_name = prop_def(StringAttr)

    import_path = opt_prop_def(StringAttr)
    """The file defining this device, relative to the importing file; only on an
    empty device."""

    body = region_def()

    traits = traits_def(SymbolOpInterface(), IsolatedFromAbove(), NoTerminator())

    @staticmethod
    def importing(sym_name: str, import_path: str) -> DeviceOp:
        """``ktdf_arch.device @sym_name import("import_path")``."""
        return DeviceOp.create(
            properties={"sym_name": StringAttr(sym_name), "import_path": StringAttr(import_path)},
            regions=[Region()],
        )

    def is_empty(self) -> bool:
        return not any(block.ops for block in self.body.blocks)

    def verify_(self) -> None:
        verify_intrinsics(self, DEVICE)
        if self.is_empty() and self.import_path is None:
            raise VerifyException("empty device requires 'import_path' attribute")
        if not self.is_empty() and self.import_path is not None:
            raise VerifyException("non-empty device can't have 'import_path' attribute")
        for block in self.body.blocks:
            _verify_children(block, (ResourceOp, PatternsOp))

    @classmethod
    def parse(cls, parser: Parser) -> DeviceOp:
        properties: dict[str, Attribute] = {"sym_name": parser.parse_symbol_name()}
        attributes: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("attributes") is not None:
            attributes = _parse_attr_dict_or_alias(parser)
        if parser.parse_optional_keyword("import") is not None:
            parser.parse_punctuation("(")
            properties["import_path"] = StringAttr(parser.parse_str_literal())
            parser.parse_punctuation(")")
        body = parse_optional_isolated_region(parser) or Region()
        return cls.create(properties=properties, attributes=attributes, regions=[body])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        if self.import_path is not None:
            printer.print_string(" import(")
            printer.print_string_literal(self.import_path.data)
            printer.print_string(")")
        if self.body.blocks:
            printer.print_string(" ")
            printer.print_region(self.body, print_empty_block=False)


KTDF_ARCH = Dialect(
    "ktdf_arch",
    [DeviceOp, MemoryOp, ExecUnitOp, DatapathOp, SwitchOp, GroupOp, YieldOp, PatternsOp],
    [MemoryType, ExecUnitType, PortType, MapAttr],
)
