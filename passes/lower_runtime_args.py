"""``lower-runtime-args``: a runtime argument is a scalar argument of its type.

A ``!ktdp.runtime_arg<T, granularity=G, upperbound=U>`` kernel argument is a value of
type ``T`` the host gives at launch (``docs/kernels.md``); the launch plan checks it
against ``G`` and ``U`` (the package's signature keeps them, read from the KTIR before
this pass). The compiled kernel takes it as a plain ``T`` argument: its value is that
argument, its granularity and upper bound are constants.
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import FunctionType, IndexType, IntegerAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ktc.dialects.ktdp import RuntimeArgExtractKind, RuntimeArgExtractOp, RuntimeArgType


@dataclass(frozen=True)
class LowerRuntimeArgs(ModulePass):
    """Rewrites runtime arguments into arguments of their underlying type.

    Expects KTIR kernels (``func.func`` with a body) whose arguments may be
    ``!ktdp.runtime_arg``s read by ``ktdp.runtime_arg_extract`` (after
    ``ktir-legality-check``). Produces the same kernels with each runtime argument
    retyped to its underlying type, every ``runtime_arg_extract value`` replaced by
    the argument and every ``granularity``/``upperbound`` extract by an
    ``arith.constant`` of that index; the function type follows. A kernel without
    runtime arguments is left as it is (idempotent).
    """

    name = "lower-runtime-args"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for extract in [o for o in op.walk() if isinstance(o, RuntimeArgExtractOp)]:
            _lower_extract(extract)
        for func in [f for f in op.walk() if isinstance(f, FuncOp) and f.body.blocks]:
            _retype_arguments(func)


def _lower_extract(extract: RuntimeArgExtractOp) -> None:
    kind = extract.kind.data
    if kind == RuntimeArgExtractKind.VALUE:
        Rewriter.replace_op(extract, [], [extract.input])
        return
    arg_type: RuntimeArgType = extract.input.type
    bound = arg_type.granularity if kind == RuntimeArgExtractKind.GRANULARITY else arg_type.upperbound
    constant = arith.ConstantOp(IntegerAttr(bound.data, IndexType()))
    Rewriter.replace_op(extract, constant)


def _retype_arguments(func: FuncOp) -> None:
    block = func.body.block
    changed = False
    for arg in block.args:
        if isinstance(arg.type, RuntimeArgType):
            Rewriter.replace_value_with_new_type(arg, arg.type.value_type)
            changed = True
    if changed:
        inputs = [arg.type for arg in block.args]
        func.function_type = FunctionType.from_lists(inputs, func.function_type.outputs.data)
