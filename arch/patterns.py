"""A device's PDL patterns, interpreted: xDSL's PDL interpreter with the native
functions of the description format, the patterns of one application point ready
to apply, and whether a device lowers an intrinsic (``docs/arch-format.md``,
"Patterns").

xDSL's interpreter passes a native function the matched ops and constant attributes;
a constraint answers yes or no (it cannot bind a value), and a rewrite sets
attributes of the op it is given:

- constraint ``ktdf_arch.mapped_to(op, target)``: ``op`` is mapped to ``target``;
- constraint ``ktdf_arch.has_feature(op, name[, value])``: ``op`` provides the
  feature, with exactly that value when one is given;
- rewrite ``ktdf_arch.map_to(op, target)``: maps ``op`` to ``target``
  (``ktdf_arch.maps_to``);
- rewrite ``ktdf_arch.set_feature(op, name, value)``: ``op`` provides the feature
  (``ktdf_arch.features``);
- rewrite ``ktdf_arch.map_to_instruction(op, name[, parameter...])``: ``op`` runs
  as the vector instruction ``name`` of the device's compute engine (an array: one
  instruction per component of its results), with f32 ``parameter`` values after
  its operands (``ktdf_arch.instruction``, ``ktdf_arch.parameters``). The engine
  must list every such instruction in its ``ktdf_arch.instructions``.

The first four are IBM's; the last is ktc's.
"""

from collections.abc import Callable
from typing import Any

from xdsl.context import Context
from xdsl.dialects import pdl
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr
from xdsl.interpreter import Interpreter, impl, register_impls
from xdsl.interpreters.pdl import PDLMatcher, PDLRewriteFunctions, PDLRewritePattern
from xdsl.ir import Attribute, Operation, OpResult
from xdsl.pattern_rewriter import PatternRewriter

from ktc.arch.model import Device
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import FEATURES_ATTR, INSTRUCTION, MAPS_TO, PARAMETERS

LOWERING_POINTS = ("pre_mapping", "pre_scheduling")
"""The application points before scheduling, where a device lowers its intrinsics."""

MAP_TO_INSTRUCTION = "ktdf_arch.map_to_instruction"


def _mapped_to(op: Operation, target: Attribute) -> bool:
    return op.attributes.get(MAPS_TO) == target


def _has_feature(op: Operation, feature: StringAttr, required: Attribute | None = None) -> bool:
    features = op.attributes.get(FEATURES_ATTR)
    if not isinstance(features, DictionaryAttr) or feature.data not in features.data:
        return False
    return required is None or features.data[feature.data] == required


def _map_to(op: Operation, target: Attribute) -> dict[str, Attribute]:
    return {MAPS_TO: target}


def _set_feature(op: Operation, feature: StringAttr, value: Attribute) -> dict[str, Attribute]:
    features = op.attributes.get(FEATURES_ATTR)
    entries = dict(features.data) if isinstance(features, DictionaryAttr) else {}
    return {FEATURES_ATTR: DictionaryAttr({**entries, feature.data: value})}


def _map_to_instruction(op: Operation, name: Attribute, *parameters: Attribute) -> dict[str, Attribute]:
    if not parameters:
        return {INSTRUCTION: name}
    return {INSTRUCTION: name, PARAMETERS: ArrayAttr(parameters)}


NATIVE_CONSTRAINTS: dict[str, Callable[..., bool]] = {
    "ktdf_arch.mapped_to": _mapped_to,
    "ktdf_arch.has_feature": _has_feature,
}

NATIVE_REWRITES: dict[str, Callable[..., dict[str, Attribute]]] = {
    "ktdf_arch.map_to": _map_to,
    "ktdf_arch.set_feature": _set_feature,
    MAP_TO_INSTRUCTION: _map_to_instruction,
}
"""Each native rewrite sets the attributes its function returns on the op it is given."""


@register_impls
class ArchRewriteFunctions(PDLRewriteFunctions):
    """xDSL's PDL rewrite interpreter, plus the native rewrites (which xDSL's has
    none of) and ops created at the location of the op they rewrite."""

    root: Operation | None = None
    """The op the pattern matched."""

    @impl(pdl.OperationOp)
    def run_operation(
        self, interpreter: Interpreter, op: pdl.OperationOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        (created,) = super().run_operation(interpreter, op, args).values
        if self.root is not None:
            created.location = self.root.location
        return (created,)

    @impl(pdl.ApplyNativeRewriteOp)
    def run_native_rewrite(
        self, interpreter: Interpreter, op: pdl.ApplyNativeRewriteOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        target, *rest = args
        for attribute, value in NATIVE_REWRITES[op.constraint_name.data](target, *rest).items():
            if target.attributes.get(attribute) != value:
                target.attributes[attribute] = value
                self.rewriter.notify_op_modified(target)
        return ()


class ArchPattern(PDLRewritePattern):
    """One ``pdl.pattern`` of the device, interpreted."""

    def __init__(self, rewrite: pdl.RewriteOp, ctx: Context):
        super().__init__(rewrite, ctx, native_constraints=NATIVE_CONSTRAINTS)
        self.functions = ArchRewriteFunctions(ctx)
        self.interpreter.register_implementations(self.functions, override=True)

    @property
    def benefit(self) -> int:
        pattern = self.pdl_rewrite_op.parent_op()
        assert isinstance(pattern, pdl.PatternOp)
        return pattern.benefit.value.data

    def match_and_rewrite(self, xdsl_op: Operation, rewriter: PatternRewriter) -> None:
        self.functions.root = xdsl_op
        super().match_and_rewrite(xdsl_op, rewriter)

    def matches(self, op: Operation) -> bool:
        """Whether the pattern matches ``op`` (nothing is rewritten)."""
        root = self.pdl_rewrite_op.root
        assert isinstance(root, OpResult) and isinstance(root.op, pdl.OperationOp)
        matcher = PDLMatcher(native_constraints=self.native_constraints)
        if not matcher.match_operation(root, root.op, op):
            return False
        return all(matcher.check_native_constraints(constraint)
                   for constraint in self.pdl_rewrite_op.parent_op().walk()
                   if isinstance(constraint, pdl.ApplyNativeConstraintOp))

    def lowers_root(self) -> bool:
        """Whether the rewrite replaces or erases the op it matched, or maps it onto an
        instruction."""
        root = self.pdl_rewrite_op.root
        for op in self.pdl_rewrite_op.walk():
            if isinstance(op, pdl.ReplaceOp | pdl.EraseOp) and op.op_value == root:
                return True
            if (isinstance(op, pdl.ApplyNativeRewriteOp) and op.constraint_name.data == MAP_TO_INSTRUCTION
                    and op.args and op.args[0] == root):
                return True
        return False


def device_patterns(device: Device, point: str, ctx: Context) -> list[ArchPattern]:
    """The device's patterns enabled at ``point``, the highest benefit first. A
    pattern xDSL's interpreter cannot run as written, or that maps an op onto an
    instruction the compute engine lacks, is an error at its line in the device file."""
    module = ModuleOp([pattern.clone() for pattern in device.patterns(point)])
    for op in module.walk():
        if reason := _unsupported(op) or _missing_instruction(op, device):
            raise KtcError(f"cannot apply device pattern: {reason}", where(op))
    patterns = [ArchPattern(rewrite, ctx) for rewrite in module.walk() if isinstance(rewrite, pdl.RewriteOp)]
    return sorted(patterns, key=lambda pattern: -pattern.benefit)


def lowering_patterns(device: Device, ctx: Context) -> list[ArchPattern]:
    """The device's patterns at the points before scheduling that lower the op they
    match."""
    return [pattern for point in LOWERING_POINTS for pattern in device_patterns(device, point, ctx)
            if pattern.lowers_root()]


def _unsupported(op: Operation) -> str | None:
    """Why xDSL's PDL interpreter cannot run a PDL op as written, if it cannot."""
    if isinstance(op, pdl.ApplyNativeConstraintOp):
        if op.constraint_name.data not in NATIVE_CONSTRAINTS:
            return f"unknown native constraint '{op.constraint_name.data}'"
        if op.is_negated.value.data or op.res:
            return (
                "xDSL's PDL interpreter can neither negate a native constraint nor "
                "bind its results"
            )
    if isinstance(op, pdl.ApplyNativeRewriteOp):
        if op.constraint_name.data not in NATIVE_REWRITES:
            return f"unknown native rewrite '{op.constraint_name.data}'"
        if op.res:
            return "xDSL's PDL interpreter cannot bind the results of a native rewrite"
    if isinstance(op, pdl.RewriteOp) and (op.name_ is not None or op.root is None):
        return (
            "a rewrite needs a root op and a body (xDSL's PDL interpreter calls no "
            "rewrite function)"
        )
    if isinstance(op, pdl.OperandsOp | pdl.TypesOp | pdl.ResultsOp | pdl.RangeOp):
        return f"'{op.name}' (value ranges) is not supported by xDSL's PDL interpreter"
    return None


def _missing_instruction(op: Operation, device: Device) -> str | None:
    """Why a ``ktdf_arch.map_to_instruction`` cannot map onto the compute engine, if
    it cannot: its instruction is no constant string (or array of them), or one the
    engine does not list."""
    if not isinstance(op, pdl.ApplyNativeRewriteOp) or op.constraint_name.data != MAP_TO_INSTRUCTION:
        return None
    named = op.args[1].owner if len(op.args) > 1 else None
    value = named.value if isinstance(named, pdl.AttributeOp) else None
    names = value.data if isinstance(value, ArrayAttr) else (value,)
    if not all(isinstance(name, StringAttr) for name in names):
        return f"'{MAP_TO_INSTRUCTION}' takes the op and a constant instruction name (or array of them)"
    engine = device.compute
    missing = [name.data for name in names if name.data not in engine.instructions]
    if missing:
        return (f"'{MAP_TO_INSTRUCTION}' maps onto '{missing[0]}', which {engine.kind} of device "
                f"@{device.name} does not list in its ktdf_arch.instructions")
    return None
