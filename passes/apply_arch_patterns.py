"""``apply-arch-patterns``: the device's PDL rewrites at one point of the pipeline."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects import func, pdl
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr
from xdsl.interpreter import Interpreter, impl, register_impls
from xdsl.interpreters.pdl import PDLRewriteFunctions, PDLRewritePattern
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
)

from ktc.arch.model import PATTERN_POINTS, device_of
from ktc.dialects.diagnostics import KtcError, where

MAX_ROUNDS = 10
"""Walks over a function before giving up on patterns that keep rewriting (MLIR's
greedy driver stops at the same count)."""

MAPS_TO = "ktdf_arch.maps_to"
FEATURES = "ktdf_arch.features"


# IBM's native functions. xDSL's PDL interpreter passes matched ops and constant
# attributes, and its constraints answer yes or no (they cannot return a value).


def _mapped_to(op: Operation, target: Attribute) -> bool:
    """Constraint ``ktdf_arch.mapped_to(op, target)``: ``op`` is mapped to ``target``."""
    return op.attributes.get(MAPS_TO) == target


def _has_feature(op: Operation, feature: StringAttr, required: Attribute | None = None) -> bool:
    """Constraint ``ktdf_arch.has_feature(op, name[, value])``: ``op`` provides the
    feature, with exactly that value when one is given."""
    features = op.attributes.get(FEATURES)
    if not isinstance(features, DictionaryAttr) or feature.data not in features.data:
        return False
    return required is None or features.data[feature.data] == required


def _map_to(op: Operation, target: Attribute) -> Attribute:
    """Rewrite ``ktdf_arch.map_to(op, target)``: the new ``ktdf_arch.maps_to`` of ``op``."""
    return target


def _set_feature(op: Operation, feature: StringAttr, value: Attribute) -> Attribute:
    """Rewrite ``ktdf_arch.set_feature(op, name, value)``: the new
    ``ktdf_arch.features`` of ``op``."""
    features = op.attributes.get(FEATURES)
    entries = dict(features.data) if isinstance(features, DictionaryAttr) else {}
    return DictionaryAttr({**entries, feature.data: value})


NATIVE_CONSTRAINTS: dict[str, Callable[..., bool]] = {
    "ktdf_arch.mapped_to": _mapped_to,
    "ktdf_arch.has_feature": _has_feature,
}

NATIVE_REWRITES: dict[str, tuple[str, Callable[..., Attribute]]] = {
    "ktdf_arch.map_to": (MAPS_TO, _map_to),
    "ktdf_arch.set_feature": (FEATURES, _set_feature),
}
"""Each native rewrite sets one attribute (named first) of the op it is given, to
the value its function returns."""


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
        attribute, rewrite = NATIVE_REWRITES[op.constraint_name.data]
        value = rewrite(target, *rest)
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

    def match_and_rewrite(self, xdsl_op: Operation, rewriter: PatternRewriter) -> None:
        self.functions.root = xdsl_op
        super().match_and_rewrite(xdsl_op, rewriter)


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


def _patterns(module: ModuleOp, ctx: Context) -> list[ArchPattern]:
    """The rewrites of ``module``'s patterns, the highest benefit first."""
    for op in module.walk():
        if reason := _unsupported(op):
            raise KtcError(f"cannot apply device pattern: {reason}", where(op))
    rewrites = [op for op in module.walk() if isinstance(op, pdl.RewriteOp)]
    rewrites.sort(key=lambda rewrite: -_benefit(rewrite))
    return [ArchPattern(rewrite, ctx) for rewrite in rewrites]


def _benefit(rewrite: pdl.RewriteOp) -> int:
    pattern = rewrite.parent_op()
    assert isinstance(pattern, pdl.PatternOp)
    return pattern.benefit.value.data


@dataclass(frozen=True)
class ApplyArchPatterns(ModulePass):
    """Apply the device's PDL patterns enabled at ``point`` (a ``patterns`` block
    naming the point, or naming none) greedily to every ``func.func``, the highest
    benefit first.

    Expects any IR and a declared device; the four points are ``pre_mapping``,
    ``pre_scheduling``, ``post_scheduling`` and ``post_lowering``. Produces the same
    IR, rewritten by the patterns. Nothing else is erased (no dead-code
    elimination). Patterns that still rewrite after ``MAX_ROUNDS`` walks over a
    function are an error.

    The patterns run on xDSL's PDL interpreter, which has no value ranges and no
    native rewrites of its own, and whose ``pdl.operation`` matches only ops with
    exactly the operands and results it lists. IBM's native functions are provided:
    constraints ``ktdf_arch.mapped_to(op, target)`` and
    ``ktdf_arch.has_feature(op, name[, value])`` (yes-or-no: the interpreter cannot
    bind a constraint's results), and rewrites ``ktdf_arch.map_to(op, target)`` and
    ``ktdf_arch.set_feature(op, name, value)``. A pattern using anything else is
    rejected, at its line in the device file.
    """

    name = "apply-arch-patterns"

    point: str
    """The application point."""

    def __post_init__(self):
        if self.point not in PATTERN_POINTS:
            raise ValueError(
                f"unknown pattern point '{self.point}' (expected one of "
                f"{', '.join(PATTERN_POINTS)})"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        enabled = device_of(op).patterns(self.point)
        if not enabled:
            return
        patterns = _patterns(ModuleOp([pattern.clone() for pattern in enabled]), ctx)
        applier = GreedyRewritePatternApplier(patterns, dce_enabled=False)
        walker = PatternRewriteWalker(applier, apply_recursively=False)
        for function in [o for o in op.walk() if isinstance(o, func.FuncOp)]:
            self._rewrite(walker, function)

    def _rewrite(self, walker: PatternRewriteWalker, function: func.FuncOp) -> None:
        for _ in range(MAX_ROUNDS):
            if not walker.rewrite_region(function.body):
                return
        raise KtcError(
            f"the device's patterns at {self.point} still rewrite @{function.sym_name.data} "
            f"after {MAX_ROUNDS} rounds",
            where(function),
        )
