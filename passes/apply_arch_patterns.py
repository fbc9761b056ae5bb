"""``apply-arch-patterns``: the device's PDL rewrites at one point of the pipeline."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

from ktc.arch.model import PATTERN_POINTS, device_of
from ktc.arch.patterns import device_patterns
from ktc.dialects.diagnostics import KtcError, where

MAX_ROUNDS = 10
"""Walks over a function before giving up on patterns that keep rewriting (MLIR's
greedy driver stops at the same count)."""


@dataclass(frozen=True)
class ApplyArchPatterns(ModulePass):
    """Apply the device's PDL patterns enabled at ``point`` (a ``patterns`` block
    naming the point, or naming none) greedily to every ``func.func``, the highest
    benefit first.

    Expects any IR and a declared device; the four points are ``pre_mapping``,
    ``pre_scheduling``, ``post_scheduling`` and ``post_lowering``. Produces the same
    IR, rewritten by the patterns: at ``pre_mapping`` a device lowers the spyreop
    intrinsics it supports, each either decomposed into ops the pipeline compiles or
    mapped onto an instruction of its compute engine (``ktdf_arch.instruction``, which
    ``convert-ktdf-to-dfir`` reads). Nothing else is erased (no dead-code
    elimination). Patterns that still rewrite after ``MAX_ROUNDS`` walks over a
    function are an error.

    The patterns run on xDSL's PDL interpreter, which has no value ranges and no
    native functions of its own, and whose ``pdl.operation`` matches only ops with
    exactly the operands and results it lists. The format's native functions are
    provided (``ktc.arch.patterns``): IBM's constraints ``ktdf_arch.mapped_to`` and
    ``ktdf_arch.has_feature`` (yes-or-no: the interpreter cannot bind a constraint's
    results) and rewrites ``ktdf_arch.map_to`` and ``ktdf_arch.set_feature``, and
    ktc's rewrite ``ktdf_arch.map_to_instruction``. A pattern using anything else, or
    mapping onto an instruction the compute engine does not list, is rejected at its
    line in the device file.
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
        device = device_of(op)
        if not device.patterns(self.point):
            return
        applier = GreedyRewritePatternApplier(device_patterns(device, self.point, ctx), dce_enabled=False)
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
