"""Host code as data: the symbol tables and the launch sequence of a DataflowIR module.

After lowering, a kernel is host code around device code. The kernel function (the
orchestrator) loops (``scf.for``), computes with ``arith`` / ``affine.apply`` on its
arguments and calls program functions (``func.call``); a program function defines
symbols (``dfir.define_symbol``) beside one ``dfir.dataflow``. ``launch_sequence``
turns that into data (``ktc.codegen.plan``): each dataflow's symbols as expressions
over its parameters (the block arguments its symbol definitions read), and the launch
plan, which binds those parameters at each launch to expressions over kernel
arguments and loop variables.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.scf import ForOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

from ktc.codegen.plan import (
    PREDICATES,
    ComputeOnDevice,
    ComputeOnHost,
    DataTransfer,
    Expr,
    Loop,
    Step,
    Symbol,
)
from ktc.dialects.dfir import DataflowOp, DefineSymbolOp, SymbolOp
from ktc.dialects.diagnostics import KtcError, where

ARITH_BINARY = {
    "arith.addi": "add", "arith.subi": "sub", "arith.muli": "mul",
    "arith.divsi": "divsi", "arith.divui": "divui", "arith.remsi": "remsi",
    "arith.remui": "remui", "arith.ceildivsi": "ceildivsi", "arith.ceildivui": "ceildivui",
    "arith.floordivsi": "floordivsi", "arith.minsi": "minsi", "arith.maxsi": "maxsi",
    "arith.minui": "minui", "arith.maxui": "maxui", "arith.andi": "and", "arith.ori": "or",
    "arith.xori": "xor", "arith.shli": "shl", "arith.shrsi": "shrsi", "arith.shrui": "shrui",
}
AFFINE_BINARY = {
    AffineBinaryOpKind.Add: "add", AffineBinaryOpKind.Mul: "mul",
    AffineBinaryOpKind.Mod: "floormod", AffineBinaryOpKind.FloorDiv: "floordivsi",
    AffineBinaryOpKind.CeilDiv: "ceildivsi",
}
CASTS = ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci")


# ---------------------------------------------------------------------------------------
# From host IR


class HostValues:
    """Expressions for SSA values of host code; block arguments come from ``bound``.

    An unbound block argument becomes a new leaf of kind ``free`` when ``free`` is
    given (the parameters of a dataflow), and is an error otherwise.
    """

    def __init__(self, bound: dict[SSAValue, Expr], free: str | None = None):
        self.bound = bound
        self.free = free
        self.params: list[BlockArgument] = []

    def expr(self, value: SSAValue) -> Expr:
        if value in self.bound:
            return self.bound[value]
        if isinstance(value, BlockArgument):
            return self._argument(value)
        op = value.owner
        result = self._op(op)
        self.bound[value] = result
        return result

    def _argument(self, value: BlockArgument) -> Expr:
        if self.free is None:
            raise KtcError(f"host code reads {_describe(value)}, which no launch binds",
                           where(value.owner.parent_op()))
        self.params.append(value)
        self.bound[value] = ((self.free, len(self.params) - 1),)
        return self.bound[value]

    def _op(self, op: Operation) -> Expr:
        name = op.name
        if name == "arith.constant" and isinstance(op.value, IntegerAttr):
            return (op.value.value.data,)
        if name == "ktdp.runtime_arg_extract":
            return _runtime_arg(op, self.expr)
        operands = [self.expr(v) for v in op.operands]
        if name in ARITH_BINARY:
            return (*operands[0], *operands[1], ARITH_BINARY[name])
        if name == "arith.cmpi":
            return (*operands[0], *operands[1], f"cmp.{PREDICATES[op.predicate.value.data]}")
        if name == "arith.select":
            return (*operands[0], *operands[1], *operands[2], "select")
        if name in CASTS:
            return (*operands[0], *_cast(name, op.operands[0].type, op.results[0].type))
        if name in ("arith.sitofp", "arith.uitofp"):
            return (*operands[0], (name.removeprefix("arith."), _float_bits(op)))
        if name == "arith.bitcast":
            return (*operands[0], *_bitcast(op))
        if name == "affine.apply":
            return _affine(op.map.data.results[0], operands, op.map.data.num_dims)
        raise KtcError(f"host code cannot compute '{name}' (only integer arith, int-to-float "
                       "conversions, bitcasts and affine.apply reach the symbols)", where(op))


def _runtime_arg(op: Operation, expr) -> Expr:
    """A runtime argument's value (the argument itself), or its granularity or bound."""
    kind = op.kind.data.value
    if kind == "value":
        return expr(op.input)
    return (getattr(op.input.type, kind).data,)


def _describe(value: BlockArgument) -> str:
    return f"%{value.name_hint}" if value.name_hint else f"block argument {value.index}"


def _bits(type_) -> int:
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width.data
    raise KtcError(f"host code computes on {type_}, not an integer")


def _bitcast(op: Operation) -> Expr:
    """An ``arith.bitcast`` keeps the bits: a float is held as its unsigned storage
    bits (f64 as signed ones, ``runtime.executable.FLOAT_BITS``), an integer as the
    signed value of its width, so only the reading of the bits changes."""
    target = op.results[0].type
    if isinstance(target, Float16Type | Float32Type):
        return (("zext", target.bitwidth),)
    if isinstance(target, Float64Type):
        return ()
    if not isinstance(target, IntegerType):
        raise KtcError(f"host code bitcasts to {target}; symbols hold integers, f16, f32 or f64",
                       where(op))
    return (("wrap", target.width.data),)


def _float_bits(op: Operation) -> int:
    """The width of the IEEE float an int-to-float conversion makes."""
    target = op.results[0].type
    if not isinstance(target, Float16Type | Float32Type | Float64Type):
        raise KtcError(f"host code converts to {target}; symbols hold f16, f32 or f64", where(op))
    return target.bitwidth


def _cast(name: str, source, target) -> Expr:
    """Values are kept as the signed value of their width: a narrowing cast wraps, an
    unsigned widening keeps the low bits of the source."""
    source_bits, target_bits = _bits(source), _bits(target)
    if target_bits < source_bits:
        return (("wrap", target_bits),)
    if name in ("arith.index_castui", "arith.extui") and source_bits < target_bits:
        return (("zext", source_bits),)
    return ()


def _affine(result: AffineExpr, operands: list[Expr], num_dims: int) -> Expr:
    if isinstance(result, AffineConstantExpr):
        return (result.value,)
    if isinstance(result, AffineDimExpr):
        return operands[result.position]
    if isinstance(result, AffineSymExpr):
        return operands[num_dims + result.position]
    assert isinstance(result, AffineBinaryOpExpr)
    lhs = _affine(result.lhs, operands, num_dims)
    rhs = _affine(result.rhs, operands, num_dims)
    return (*lhs, *rhs, AFFINE_BINARY[result.kind])


# ---------------------------------------------------------------------------------------
# The launch sequence


@dataclass
class Dataflow:
    """A ``dfir.dataflow`` found in the host code, with its symbol table."""

    op: DataflowOp
    name: str
    params: tuple[str, ...]
    symbols: tuple[Symbol, ...]
    arguments: tuple[BlockArgument, ...] = field(repr=False)
    """The block arguments the parameters stand for."""


@dataclass
class LaunchSequence:
    """What ``launch_sequence`` finds: the dataflows and the steps that run them."""

    dataflows: list[Dataflow]
    steps: tuple[Step, ...]


def launch_sequence(module: ModuleOp, kernel: FuncOp) -> LaunchSequence:
    """The dataflows ``kernel`` runs and, as data, the host code that runs them.

    Raises ``KtcError`` for host code it cannot express: an op with effects other than
    ``scf.for`` without results, ``func.call`` of a function with a body,
    ``dfir.define_symbol`` and ``dfir.dataflow``, or a value that a symbol or a loop
    bound reads computed by anything but integer ``arith`` and ``affine.apply``.
    """
    walker = _Walker(module)
    bound = {arg: (("arg", i),) for i, arg in enumerate(kernel.args)}
    steps = walker.block(kernel.body.block, HostValues(bound), depth=0)
    return LaunchSequence(walker.dataflows, steps)


MAX_CALL_DEPTH = 32


class _Walker:
    def __init__(self, module: ModuleOp):
        self.functions = {op.sym_name.data: op for op in module.walk()
                          if isinstance(op, FuncOp) and op.body.blocks}
        self.dataflows: list[Dataflow] = []
        self.index: dict[DataflowOp, int] = {}
        self.loops = 0

    def block(self, block: Block, values: HostValues, depth: int) -> tuple[Step, ...]:
        steps: list[Step] = []
        for op in block.ops:
            steps.extend(self.op(op, values, depth))
        return tuple(steps)

    def op(self, op: Operation, values: HostValues, depth: int) -> tuple[Step, ...]:
        if isinstance(op, DataflowOp):
            return self.launch(op, values)
        if isinstance(op, ForOp):
            return self.loop(op, values, depth)
        if isinstance(op, CallOp):
            return self.call(op, values, depth)
        if isinstance(op, DefineSymbolOp) or op.name in ("func.return", "scf.yield"):
            return ()
        if op.results and not op.regions:
            return ()  # a value, computed (or refused) when a symbol or a bound reads it
        raise KtcError(f"'{op.name}' cannot run in the launch plan (the host runs loops, "
                       "calls, integer arithmetic and dataflows)", where(op))

    def loop(self, op: ForOp, values: HostValues, depth: int) -> tuple[Step, ...]:
        if op.results:
            raise KtcError("a launch-plan loop carries no values (iter_args)", where(op))
        var = self.loops
        self.loops += 1
        bounds = [values.expr(v) for v in (op.lb, op.ub, op.step)]
        values.bound[op.body.block.args[0]] = (("loop", var),)
        body = self.block(op.body.block, values, depth)
        return (Loop(var, *bounds, body),) if body else ()

    def call(self, op: CallOp, values: HostValues, depth: int) -> tuple[Step, ...]:
        callee = self.functions.get(op.callee.root_reference.data)
        if callee is None:
            raise KtcError(f"calls @{op.callee.root_reference.data}, which has no body", where(op))
        if op.results:
            raise KtcError("a program function returns nothing", where(op))
        if depth >= MAX_CALL_DEPTH:
            raise KtcError(f"calls nest deeper than {MAX_CALL_DEPTH}", where(op))
        bound = {arg: values.expr(v) for arg, v in zip(callee.args, op.arguments)}
        return self.block(callee.body.block, HostValues(bound), depth + 1)

    def launch(self, op: DataflowOp, values: HostValues) -> tuple[Step, ...]:
        """Run a dataflow; evaluate and send its symbols first if they read parameters
        (symbols that read none are constants, written into the code at compile time)."""
        if op not in self.index:
            self.index[op] = len(self.dataflows)
            self.dataflows.append(_dataflow(op, len(self.dataflows)))
        index = self.index[op]
        arguments = self.dataflows[index].arguments
        if not arguments:
            return (ComputeOnDevice(index),)
        args = tuple(values.expr(a) for a in arguments)
        return ComputeOnHost(index, args), DataTransfer(index), ComputeOnDevice(index)


def _dataflow(op: DataflowOp, index: int) -> Dataflow:
    """A dataflow's symbol table, over the block arguments its symbols read."""
    used = sorted({s.id.value.data for s in op.walk() if isinstance(s, SymbolOp)})
    block = op.parent_block()
    definitions = {d.id.value.data: d for d in block.ops if isinstance(d, DefineSymbolOp)}
    values = HostValues({}, free="param")
    symbols = tuple(Symbol(i, _symbol_name(definitions[i]), values.expr(definitions[i].value))
                    for i in used)
    function = op.parent_op()
    name = function.sym_name.data if isinstance(function, FuncOp) else f"dataflow{index}"
    params = tuple(_describe(arg).lstrip("%") for arg in values.params)
    return Dataflow(op, name, params, symbols, tuple(values.params))


def _symbol_name(definition: DefineSymbolOp) -> str:
    hint = definition.value.name_hint
    return hint if hint else f"sym{definition.id.value.data}"
