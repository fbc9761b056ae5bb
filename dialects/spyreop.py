"""The ``spyreop`` dialect: IBM Spyre's intrinsics, and the ``df16`` number format.

The intrinsics work on scalars of one float type (``f16``, ``!spyreop.df16`` or
``f32``, fewer for some ops) or on 32/64-bit integers; only ``slice_reduction``
takes a tensor. KTIR kernels call them inside ``linalg.generic`` bodies. The
assembly is the one IBM's frontend prints for its current generation of the
dialect; two ops also accept the older spelling when parsing:

- ``idx32toaddr``: the current form takes the base and the stride as ``i32``
  operands (``%i base %b stride %s``). The older form wrote them as constants
  (``%i base 0xDEADBEEF stride 4``). Such an op keeps its constants as the
  properties ``base_address`` and ``stride`` and prints back the way it was
  written, since the IR holds no SSA values to print in the current form.
- ``layernormscale``: the current form takes the means and the mean squares
  (``%m squares %sq``); the older form took only one operand, and still parses.

The ``*_fused`` types hold a (mean, mean of squares) pair in one value:
``exx2_fused`` produces one from a scalar and ``layernormscale_fused`` consumes it.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    FixedBitwidthType,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ktc.dialects.syntax import SEGMENTS, AngleBracketEnum

# Types


@irdl_attr_definition
class DF16Type(ParametrizedAttribute, FixedBitwidthType):
    """``!spyreop.df16``: a 16-bit float with 1 sign, 6 exponent and 9 mantissa bits.

    Usable as the element type of tensors, memrefs and vectors.
    """

    name = "spyreop.df16"

    @property
    def bitwidth(self) -> int:
        return 16

    @property
    def compile_time_size(self) -> int:
        return 2


class FusedType(ParametrizedAttribute, TypeAttribute):
    """A (mean, mean of squares) pair of ``scalar`` values held as one value."""

    SCALAR: ClassVar[Attribute]
    """The scalar type the pair is made of."""


@irdl_attr_definition
class DF16FusedType(FusedType):
    """``!spyreop.df16_fused``: a pair of ``df16`` values."""

    name = "spyreop.df16_fused"
    SCALAR = DF16Type()


@irdl_attr_definition
class FP16FusedType(FusedType):
    """``!spyreop.fp16_fused``: a pair of ``f16`` values."""

    name = "spyreop.fp16_fused"
    SCALAR = Float16Type()


@irdl_attr_definition
class FP32FusedType(FusedType):
    """``!spyreop.fp32_fused``: a pair of ``f32`` values."""

    name = "spyreop.fp32_fused"
    SCALAR = Float32Type()


FUSED_TYPES: tuple[FusedType, ...] = (FP16FusedType(), DF16FusedType(), FP32FusedType())


def fused_type_of(scalar: Attribute) -> FusedType | None:
    """The fused pair type of a scalar type, or None when there is none."""
    return next((fused for fused in FUSED_TYPES if fused.SCALAR == scalar), None)


# Attributes


class ReductionKind(StrEnum):
    ADD = "add"
    SUB = "sub"
    MAX = "max"
    MIN = "min"
    MUL = "mul"
    ABS_MAX = "abs_max"


class ReductionScope(StrEnum):
    IN_SLICE = "in_slice"
    ACROSS_SLICE = "across_slice"


class ComparePredicate(StrEnum):
    EQUAL = "equal"
    NOTEQUAL = "notequal"
    GREATERTHAN = "greaterthan"
    GREATEREQUAL = "greaterequal"
    LESSERTHAN = "lesserthan"
    LESSEREQUAL = "lesserequal"


@irdl_attr_definition
class ReductionKindAttr(AngleBracketEnum, EnumAttribute[ReductionKind]):
    """``#spyreop.reduction_kind<add|sub|max|min|mul|abs_max>``"""

    name = "spyreop.reduction_kind"


@irdl_attr_definition
class ReductionScopeAttr(AngleBracketEnum, EnumAttribute[ReductionScope]):
    """``#spyreop.reduction_scope<in_slice|across_slice>``"""

    name = "spyreop.reduction_scope"


@irdl_attr_definition
class ComparePredicateAttr(AngleBracketEnum, EnumAttribute[ComparePredicate]):
    """``#spyreop.compare_predicate<equal|notequal|greaterthan|...>``"""

    name = "spyreop.compare_predicate"


# Integer and address arithmetic


class I32BinaryIntrinsic(IRDLOperation):
    """Two ``i32`` operands, one ``i32`` result: ``%r = spyreop.<op> %a, %b``."""

    lhs = operand_def(i32)
    rhs = operand_def(i32)
    result = result_def(i32)

    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict"


@irdl_op_definition
class AddI32ToI32Op(I32BinaryIntrinsic):
    """Adds two 32-bit integers."""

    name = "spyreop.addi32toi32"


@irdl_op_definition
class MulI32ToI32Op(I32BinaryIntrinsic):
    """Multiplies two 32-bit integers; the result keeps the low 32 bits."""

    name = "spyreop.muli32toi32"


@irdl_op_definition
class AddI64ToI64Op(IRDLOperation):
    """Adds two 64-bit integers: ``%r = spyreop.addi64toi64 %a, %b``."""

    name = "spyreop.addi64toi64"

    lhs = operand_def(i64)
    rhs = operand_def(i64)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict"


@irdl_op_definition
class Idx32ToAddrOp(IRDLOperation):
    """The address ``base + stride * index``.

    ``%a = spyreop.idx32toaddr %i base %b stride %s`` (base and stride are ``i32``
    operands), or in the older form ``spyreop.idx32toaddr %i base 0xDEADBEEF
    stride 4`` (base and stride are constants kept as properties).
    """

    name = "spyreop.idx32toaddr"

    index = operand_def(i32)
    base = opt_operand_def(i32)
    """The base address (current form)."""
    stride = opt_operand_def(i32)
    """The distance between consecutive indices (current form)."""
    base_address = opt_prop_def(IntegerAttr[I32])
    """The base address (older form)."""
    stride_value = opt_prop_def(IntegerAttr[I32], prop_name="stride")
    """The distance between consecutive indices (older form)."""
    result = result_def(i32)

    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(),)

    def verify_(self) -> None:
        operands = (self.base is not None, self.stride is not None)
        constants = (self.base_address is not None, self.stride_value is not None)
        if operands == (True, True) and constants == (False, False):
            return
        if operands == (False, False) and constants == (True, True):
            return
        raise VerifyException(
            "expects either base and stride operands, or base_address and stride "
            "attributes (older form)"
        )

    @classmethod
    def parse(cls, parser: Parser) -> Idx32ToAddrOp:
        index = parser.resolve_operand(parser.parse_unresolved_operand(), i32)
        parser.parse_keyword("base")
        if (base := parser.parse_optional_unresolved_operand()) is None:
            return cls._parse_older_form(parser, index)
        parser.parse_keyword("stride")
        stride = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        operands = [index, parser.resolve_operand(base, i32), parser.resolve_operand(stride, i32)]
        return cls.build(operands=operands, result_types=[i32], attributes=attributes)

    @classmethod
    def _parse_older_form(cls, parser: Parser, index: SSAValue) -> Idx32ToAddrOp:
        base = parser.parse_integer(allow_boolean=False)
        parser.parse_keyword("stride")
        stride = parser.parse_integer(allow_boolean=False)
        attributes = parser.parse_optional_attr_dict()
        properties = {
            "base_address": IntegerAttr(_as_signed_i32(base), i32),
            "stride": IntegerAttr(stride, i32),
        }
        return cls.build(
            operands=[index, None, None], result_types=[i32],
            properties=properties, attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.index)
        printer.print_string(" base ")
        if self.base is not None and self.stride is not None:
            printer.print_operand(self.base)
            printer.print_string(" stride ")
            printer.print_operand(self.stride)
        elif self.base_address is not None and self.stride_value is not None:
            printer.print_string(f"0x{self.base_address.value.data & 0xFFFFFFFF:X}")
            printer.print_string(f" stride {self.stride_value.value.data}")
        printer.print_op_attributes(self.attributes, reserved_attr_names=(SEGMENTS,))


def _as_signed_i32(value: int) -> int:
    """A 32-bit pattern written in hex (0xDEADBEEF) as the signed value MLIR keeps."""
    return value - (1 << 32) if value >= 1 << 31 else value


# Float intrinsics

FLOAT_TYPES: tuple[Attribute, ...] = (Float16Type(), DF16Type(), Float32Type())


def _spelled(types: tuple[Attribute, ...]) -> str:
    names = [str(t) for t in types]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def require_type(value_type: Attribute, allowed: tuple[Attribute, ...], what: str) -> None:
    """Raise MLIR's "must be ..., but got '...'" unless ``value_type`` is allowed."""
    if value_type not in allowed:
        raise VerifyException(f"{what} must be {_spelled(allowed)}, but got '{value_type}'")


class FloatIntrinsic(IRDLOperation):
    """Base of the ops whose operands and results all have one float type ``T``.

    ``ELEMENT_TYPES`` lists the types the op accepts (``f16``, ``df16`` and ``f32``
    unless the op says otherwise).
    """

    T: ClassVar = VarConstraint("T", AnyAttr())
    ELEMENT_TYPES: ClassVar[tuple[Attribute, ...]] = FLOAT_TYPES

    traits = traits_def(Pure())

    def verify_(self) -> None:
        require_type(self.operands[0].type, self.ELEMENT_TYPES, "operand #0")


class UnaryFloatIntrinsic(FloatIntrinsic):
    """``%r = spyreop.<op> %x : T``, elementwise on one scalar."""

    operand = operand_def(FloatIntrinsic.T)
    result = result_def(FloatIntrinsic.T)

    assembly_format = "$operand attr-dict `:` type($result)"


@irdl_op_definition
class ExpOp(UnaryFloatIntrinsic):
    """exp(x)."""

    name = "spyreop.exp"


@irdl_op_definition
class GeluOp(UnaryFloatIntrinsic):
    """x * CDF(x), the Gaussian error linear unit (no ``f32`` form)."""

    name = "spyreop.gelu"
    ELEMENT_TYPES: ClassVar = (Float16Type(), DF16Type())


@irdl_op_definition
class SigmoidOp(UnaryFloatIntrinsic):
    """1 / (1 + exp(-x))."""

    name = "spyreop.sigmoid"


@irdl_op_definition
class SiluOp(UnaryFloatIntrinsic):
    """x * sigmoid(x)."""

    name = "spyreop.silu"


@irdl_op_definition
class SqrtOp(UnaryFloatIntrinsic):
    """The square root of x."""

    name = "spyreop.sqrt"


@irdl_op_definition
class RsqrtOp(UnaryFloatIntrinsic):
    """1 / sqrt(x)."""

    name = "spyreop.rsqrt"


@irdl_op_definition
class ReciprocalOp(UnaryFloatIntrinsic):
    """1 / x."""

    name = "spyreop.reciprocal"


@irdl_op_definition
class SoftplusOp(UnaryFloatIntrinsic):
    """1/beta * log(1 + beta * exp(x)) (no ``f32`` form).

    ``%r = spyreop.softplus %x beta 2.000000e-01 threshold 1.000000e-01 : T``
    """

    name = "spyreop.softplus"
    ELEMENT_TYPES: ClassVar = (Float16Type(), DF16Type())

    beta = prop_def(FloatAttr[Float32Type])
    """The sharpness; non-zero."""
    threshold = prop_def(FloatAttr[Float32Type])
    """Where softplus is taken as linear (as ``threshold`` in torch.nn.Softplus)."""

    assembly_format = (
        "$operand `beta` $beta `threshold` $threshold attr-dict `:` type($result)"
    )

    def verify_(self) -> None:
        super().verify_()
        if self.beta.value.data == 0.0:
            raise VerifyException(
                "attribute 'beta' failed to satisfy constraint: "
                "32-bit float attribute which is non-zero"
            )


@irdl_op_definition
class RealDivOp(FloatIntrinsic):
    """lhs / rhs: ``%r = spyreop.realdiv %a, %b : T``."""

    name = "spyreop.realdiv"

    lhs = operand_def(FloatIntrinsic.T)
    rhs = operand_def(FloatIntrinsic.T)
    result = result_def(FloatIntrinsic.T)

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"


@irdl_op_definition
class Exx2Op(FloatIntrinsic):
    """The mean and the mean of squares of x: ``%m, %sq = spyreop.exx2 %x : T``."""

    name = "spyreop.exx2"

    operand = operand_def(FloatIntrinsic.T)
    mean = result_def(FloatIntrinsic.T)
    squares = result_def(FloatIntrinsic.T)

    assembly_format = "$operand attr-dict `:` type($operand)"


@irdl_op_definition
class LayerNormScaleOp(FloatIntrinsic):
    """The scaling part of LayerNorm.

    ``%r = spyreop.layernormscale %m squares %sq : T``; the older one-operand form
    ``spyreop.layernormscale %x : T`` is accepted too.
    """

    name = "spyreop.layernormscale"

    operand = operand_def(FloatIntrinsic.T)
    squares = opt_operand_def(FloatIntrinsic.T)
    """The mean of squares (absent in the older form)."""
    result = result_def(FloatIntrinsic.T)

    assembly_format = "$operand (`squares` $squares^)? attr-dict `:` type($result)"


@irdl_op_definition
class LayerNormNormOp(FloatIntrinsic):
    """The normalising part of LayerNorm.

    ``%r = spyreop.layernormnorm %x squares %sq scale %sc weight %w bias %b : T``
    """

    name = "spyreop.layernormnorm"

    operand = operand_def(FloatIntrinsic.T)
    squares = operand_def(FloatIntrinsic.T)
    scale = operand_def(FloatIntrinsic.T)
    weight = operand_def(FloatIntrinsic.T)
    bias = operand_def(FloatIntrinsic.T)
    result = result_def(FloatIntrinsic.T)

    assembly_format = (
        "$operand `squares` $squares `scale` $scale `weight` $weight `bias` $bias "
        "attr-dict `:` type($result)"
    )


@irdl_op_definition
class SelectOp(FloatIntrinsic):
    """Picks ``on_true`` or ``on_false`` by ``condition``, a value of the same float
    type as ``spyreop.compare`` produces.

    ``%r = spyreop.select %c, %t, %f : T``
    """

    name = "spyreop.select"

    condition = operand_def(FloatIntrinsic.T)
    on_true = operand_def(FloatIntrinsic.T)
    on_false = operand_def(FloatIntrinsic.T)
    result = result_def(FloatIntrinsic.T)

    assembly_format = "$condition `,` $on_true `,` $on_false attr-dict `:` type($result)"


@irdl_op_definition
class CompareOp(FloatIntrinsic):
    """Compares two values; the result has their float type.

    ``%r = spyreop.compare <equal> %a, %b : T``
    """

    name = "spyreop.compare"

    predicate = prop_def(ComparePredicateAttr)
    lhs = operand_def(FloatIntrinsic.T)
    rhs = operand_def(FloatIntrinsic.T)
    result = result_def(FloatIntrinsic.T)

    assembly_format = "$predicate $lhs `,` $rhs attr-dict `:` type($result)"


# Fused (mean, mean of squares) pairs


@irdl_op_definition
class Exx2FusedOp(IRDLOperation):
    """The mean and the mean of squares of x, fused into one value.

    ``%f = spyreop.exx2_fused %x : f16 -> !spyreop.fp16_fused`` (``df16`` gives
    ``df16_fused``, ``f32`` gives ``fp32_fused``).
    """

    name = "spyreop.exx2_fused"

    operand = operand_def()
    result = result_def()

    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def __init__(self, operand: SSAValue):
        """The result type is inferred: the fused pair of the operand's type."""
        require_type(operand.type, FLOAT_TYPES, "operand #0")
        super().__init__(operands=[operand], result_types=[fused_type_of(operand.type)])

    def verify_(self) -> None:
        require_type(self.operand.type, FLOAT_TYPES, "operand #0")
        expected = fused_type_of(self.operand.type)
        require_type(self.result.type, (expected,), "result #0")


@irdl_op_definition
class LayerNormScaleFusedOp(IRDLOperation):
    """``layernormscale`` on a fused pair; the result is the pair's scalar type.

    ``%r = spyreop.layernormscale_fused %f : !spyreop.fp16_fused -> f16``
    """

    name = "spyreop.layernormscale_fused"

    operand = operand_def()
    result = result_def()

    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def __init__(self, operand: SSAValue):
        """The result type is inferred: the scalar type of the operand's pair."""
        require_type(operand.type, FUSED_TYPES, "operand #0")
        super().__init__(operands=[operand], result_types=[operand.type.SCALAR])

    def verify_(self) -> None:
        fused = self.operand.type
        require_type(fused, FUSED_TYPES, "operand #0")
        require_type(self.result.type, (fused.SCALAR,), "result #0")


# Tensor intrinsics


@irdl_op_definition
class SliceReductionOp(IRDLOperation):
    """Reduces a tensor a full stick at a time.

    With ``in_slice`` the first element of each slice holds that slice's
    reduction; with ``across_slice`` the first slice holds the element-wise
    reduction over all slices. The result has the input's type.

    ``%r = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>,
    reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>``
    """

    name = "spyreop.slice_reduction"

    T: ClassVar = VarConstraint("T", TensorType.constr())
    input = operand_def(T)
    reduction_kind = prop_def(ReductionKindAttr)
    reduction_scope = prop_def(ReductionScopeAttr)
    result = result_def(T)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"


SPYREOP = Dialect(
    "spyreop",
    [
        AddI32ToI32Op,
        AddI64ToI64Op,
        MulI32ToI32Op,
        Idx32ToAddrOp,
        ExpOp,
        GeluOp,
        SigmoidOp,
        SiluOp,
        SoftplusOp,
        SqrtOp,
        RsqrtOp,
        ReciprocalOp,
        RealDivOp,
        Exx2Op,
        Exx2FusedOp,
        LayerNormScaleOp,
        LayerNormScaleFusedOp,
        LayerNormNormOp,
        SliceReductionOp,
        SelectOp,
        CompareOp,
    ],
    [
        DF16Type,
        DF16FusedType,
        FP16FusedType,
        FP32FusedType,
        ReductionKindAttr,
        ReductionScopeAttr,
        ComparePredicateAttr,
    ],
)
