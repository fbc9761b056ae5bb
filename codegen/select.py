"""Instruction selection: one ``dfir.program`` becomes one instruction list.

Every op of the program, in order, becomes a few instructions (``ktc.codegen.isa``);
values defined outside the program in the dataflow region (constants, units, symbols,
arithmetic on them) are computed once at the program start, or, where the register
files cannot hold them all from there, each just before the first op of the program's
body that needs it. Each SSA value lives in
a register of its file, ``s`` for scalars and units (a unit is its index in the unit
table), ``v`` for vectors and ``d`` for views, from its definition to its last use; a
use inside a loop that does not define the value keeps it live to the loop's end.
Registers are assigned in one pass over the program (linear scan), lowest free first.

``scf.for`` becomes ``loop`` ... ``endloop`` with its loop-carried values moved into
their registers around it, ``scf.if`` becomes ``brz`` / ``jmp``. A ``dfir.symbol``
becomes ``li sD, 0`` and a relocation of that immediate; a ``dfir.query`` reads the
program's uniform table for its map. An op without an instruction, or whose
instruction the engine cannot run, is a KtcError at the op. Every instruction records
the ``file:line:col`` of the op it came from ("" when the op has no source location).
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    VectorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from ktc.codegen import isa
from ktc.dialects import dfir
from ktc.dialects.diagnostics import KtcError, source_location, where
from ktc.dialects.spyreop import DF16Type

ALU = {
    "arith.addi": "add", "arith.subi": "sub", "arith.muli": "mul", "arith.divsi": "divsi",
    "arith.divui": "divui", "arith.remsi": "remsi", "arith.remui": "remui",
    "arith.ceildivsi": "ceildivsi", "arith.ceildivui": "ceildivui",
    "arith.floordivsi": "floordivsi", "arith.minsi": "minsi", "arith.maxsi": "maxsi",
    "arith.minui": "minui", "arith.maxui": "maxui", "arith.andi": "and", "arith.ori": "or",
    "arith.xori": "xor", "arith.shli": "shl", "arith.shrsi": "shrsi", "arith.shrui": "shrui",
}
"""``arith`` ops on index / i64 scalars and their ALU operation."""

PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
"""``arith.cmpi`` predicates in the order of their numbers."""

SCALAR_TYPES = (IndexType, IntegerType)

_FLOAT_FORMATS = {Float16Type: "<e", Float32Type: "<f", Float64Type: "<d"}


def type_name(element: Attribute) -> str | None:
    """The ``isa.TYPES`` name of an element type, or None when it has none."""
    if isinstance(element, IndexType):
        return "index"
    if isinstance(element, DF16Type):
        return "df16"
    if isinstance(element, IntegerType):
        name = f"i{element.width.data}"
        return name if name in isa.TYPES else None
    names = {Float16Type: "f16", Float32Type: "f32", Float64Type: "f64"}
    return names.get(type(element))


@dataclass
class Selected:
    """One program's instructions and what the binary records beside them."""

    code: list[isa.Instruction]
    relocations: list[tuple[int, int]]
    """(pc of an ``li``, symbol id)."""
    uniform_maps: list[dfir.UniformMapOp]
    """Map ``k`` of the binary's uniform table is ``uniform_maps[k]``."""
    locations: list[str]
    """``locations[pc]``: where the op of instruction ``pc`` was written, or ""."""


# ---------------------------------------------------------------------------------
# Live ranges
# ---------------------------------------------------------------------------------


def _walk(ops: Iterable[Operation]) -> Iterable[Operation]:
    for op in ops:
        yield from op.walk()


def _positions(ops: Sequence[Operation]) -> tuple[dict[Operation, int], dict[Operation, int]]:
    """Start and end position of every op (nested ops lie between their parent's)."""
    start: dict[Operation, int] = {}
    end: dict[Operation, int] = {}
    counter = itertools.count()

    def visit(op: Operation) -> None:
        start[op] = next(counter)
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    visit(inner)
        end[op] = next(counter)

    for op in ops:
        visit(op)
    return start, end


def _defines(loop: Operation, value: SSAValue) -> bool:
    """Whether ``value`` is defined inside ``loop`` (its body or nested deeper)."""
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        return owner is not None and loop.is_ancestor(owner)
    return loop.is_ancestor(value.owner) and value.owner is not loop


def _last_uses(ops: Sequence[Operation], start: dict[Operation, int],
               end: dict[Operation, int]) -> dict[SSAValue, int]:
    """The position after which each value's register is free again."""
    last: dict[SSAValue, int] = {}
    for op in _walk(ops):
        for value in op.results:
            last[value] = start[op]
        if isinstance(op, scf.ForOp):
            for value in op.body.block.args:
                last[value] = end[op]
    for op in _walk(ops):
        for index, value in enumerate(op.operands):
            last[value] = max(last.get(value, 0), _use_position(op, index, value, start, end))
    return last


def _use_position(op: Operation, index: int, value: SSAValue, start: dict[Operation, int],
                  end: dict[Operation, int]) -> int:
    """A loop's bound and step are read by its ``endloop``; a loop that a use lies in
    but the value is defined outside of reads it on every iteration."""
    at = end[op] if isinstance(op, scf.ForOp) and index in (1, 2) else start[op]
    parent = op.parent_op()
    while parent is not None and parent in end:
        if isinstance(parent, scf.ForOp) and not _defines(parent, value):
            at = max(at, end[parent])
        parent = parent.parent_op()
    return at


class RegistersExhausted(KtcError):
    """More values of a register file live at once than it has registers."""


class Registers:
    """Linear-scan register assignment over positions."""

    def __init__(self, last_use: dict[SSAValue, int]):
        self.last_use = last_use
        self.free = {file: list(range(count)) for file, count in isa.REGISTERS.items()}
        self.assigned: dict[SSAValue, int] = {}
        self.live: list[SSAValue] = []

    def release_before(self, position: int) -> None:
        """Frees the registers of values not used at or after ``position``."""
        for value in [value for value in self.live if self.last_use[value] < position]:
            self.live.remove(value)
            self.free[dfir.register_file(value.type)].append(self.assigned[value])

    def define(self, value: SSAValue, op: Operation) -> int:
        """A free register for ``value``, held until its last use."""
        number = self.take(dfir.register_file(value.type), op)
        self.assigned[value] = number
        self.live.append(value)
        return number

    def take(self, file: str, op: Operation) -> int:
        """A free register of ``file`` (a temporary: ``give`` it back)."""
        if not self.free[file]:
            raise RegistersExhausted(f"more than {isa.REGISTERS[file]} values of register "
                                     f"file '{file}' are live here", where(op))
        self.free[file].sort()
        return self.free[file].pop(0)

    def give(self, file: str, number: int) -> None:
        self.free[file].append(number)

    def __getitem__(self, value: SSAValue) -> int:
        return self.assigned[value]


# ---------------------------------------------------------------------------------
# Selection
# ---------------------------------------------------------------------------------


@dataclass
class Selector:
    """The state of selecting one program."""

    kind: str
    classes: frozenset[str]
    """The engine classes of ``kind`` (``isa.ENGINE_CLASSES``)."""
    units: dict[SSAValue, int]
    """Unit table index of every ``dfir.unit`` value."""
    registers: Registers
    start: dict[Operation, int]
    end: dict[Operation, int]
    code: list[isa.Instruction] = field(default_factory=list)
    relocations: list[tuple[int, int]] = field(default_factory=list)
    uniform_maps: list[dfir.UniformMapOp] = field(default_factory=list)
    locations: list[str] = field(default_factory=list)

    def emit(self, instruction: isa.Instruction, op: Operation) -> None:
        needs = isa.RUNS_ON.get(type(instruction))
        if needs is not None and not needs & self.classes:
            raise KtcError(f"'{op.name}' needs a {' or '.join(sorted(needs))} engine; "
                           f"a '{self.kind}' engine cannot run {instruction.MNEMONIC}",
                           where(op))
        try:
            isa.encode_one(instruction)
        except isa.IsaError as error:
            raise KtcError(error.message, where(op)) from None
        self.code.append(instruction)
        self.locations.append(source_location(op))

    def reg(self, value: SSAValue) -> int:
        return self.registers[value]

    def define(self, value: SSAValue, op: Operation) -> int:
        return self.registers.define(value, op)

    def ops(self, ops: Iterable[Operation]) -> None:
        for op in ops:
            self.registers.release_before(self.start[op])
            select_op(self, op)

    def block(self, block: Block, targets: Sequence[int]) -> None:
        """The ops of a block; its ``scf.yield`` moves its values into ``targets``."""
        for op in block.ops:
            if isinstance(op, scf.YieldOp):
                self.registers.release_before(self.start[op])
                self.moves(list(zip(targets, (self.reg(value) for value in op.operands),
                                    strict=True)),
                           [dfir.register_file(value.type) for value in op.operands], op)
            else:
                self.ops([op])

    def moves(self, moves: list[tuple[int, int]], files: list[str], op: Operation) -> None:
        """Copies each (destination, source) pair as if all at once: a move waits until
        no other pending move reads its destination; a cycle of moves is broken by
        saving one destination in a temporary."""
        pending = [(file, dst, src) for (dst, src), file in zip(moves, files) if dst != src]
        temps = []
        while pending:
            read = {(file, src) for file, _, src in pending}
            ready = [move for move in pending if move[:2] not in read]
            if ready:
                pending.remove(ready[0])
                self.move(ready[0][1], ready[0][2], ready[0][0], op)
                continue
            file, dst, _ = pending[0]
            temp = self.registers.take(file, op)
            temps.append((file, temp))
            self.move(temp, dst, file, op)
            pending = [(f, d, temp if (f, s) == (file, dst) else s) for f, d, s in pending]
        for file, temp in temps:
            self.registers.give(file, temp)

    def move(self, dst: int, src: int, file: str, op: Operation) -> None:
        if file == "v":
            self.emit(isa.Vmov(dst, src), op)
        elif file == "s":
            self.emit(isa.Mov(dst, src), op)
        else:
            raise KtcError("a view cannot be loop-carried or yielded", where(op))


def select_program(program: dfir.ProgramOp, units: dict[SSAValue, int],
                   classes: frozenset[str]) -> Selected:
    """The instructions of ``program``, preceded by the outside values it uses; where
    the register files cannot hold them all from the start, each computed just before
    the first of its ops that needs it."""
    try:
        return _selected([*outside_ops(program), *program.body.block.ops], program,
                         units, classes)
    except RegistersExhausted:
        return _selected(with_outside_ops(program), program, units, classes)


def _selected(ops: list[Operation], program: dfir.ProgramOp, units: dict[SSAValue, int],
              classes: frozenset[str]) -> Selected:
    """The instructions of ``ops``, the body of ``program`` with its outside values."""
    start, end = _positions(ops)
    selector = Selector(program.kind.data, classes, units,
                        Registers(_last_uses(ops, start, end)), start, end)
    selector.ops(ops)
    selector.emit(isa.Halt(), program)
    return Selected(selector.code, selector.relocations, selector.uniform_maps,
                    selector.locations)


def outside_ops(program: dfir.ProgramOp) -> list[Operation]:
    """The ops of the dataflow region whose values ``program`` uses, directly or through
    other such ops, in region order. Uniform maps are read through ``dfir.query``."""
    dataflow = program.parent_op()
    needed: set[Operation] = set()
    stack = [value for op in _walk(program.body.block.ops) for value in op.operands]
    while stack:
        value = stack.pop()
        owner = value.owner
        if (not isinstance(owner, Operation) or owner in needed
                or owner.parent_op() is not dataflow or isinstance(owner, dfir.UniformMapOp)):
            continue
        needed.add(owner)
        stack.extend(owner.operands)
    return [op for op in dataflow.body.block.ops if op in needed]


def with_outside_ops(program: dfir.ProgramOp) -> list[Operation]:
    """The ops of ``program``'s body, each preceded by the ``outside_ops`` it needs
    (directly, nested or through other outside ops) not needed by an op before it, in
    region order: an outside value is live from the op that first needs it, not from
    the program's start (a hundred addresses, each read by one loop of its own, need
    no hundred registers at once)."""
    outside = outside_ops(program)
    reads: dict[Operation, set[Operation]] = {}
    for op in outside:
        reads[op] = {op}.union(*(reads[value.owner] for value in op.operands
                                 if value.owner in reads))
    placed: set[Operation] = set()
    ops: list[Operation] = []
    for op in program.body.block.ops:
        needed = set().union(*(reads[value.owner] for inner in op.walk()
                               for value in inner.operands if value.owner in reads))
        ops += [each for each in outside if each in needed - placed]
        placed |= needed
        ops.append(op)
    return ops


# ---------------------------------------------------------------------------------
# One function per op
# ---------------------------------------------------------------------------------


def select_op(s: Selector, op: Operation) -> None:
    if op.name in ALU:
        _scalar_operands(op)
        s.emit(isa.Alu(ALU[op.name], s.define(op.results[0], op),
                       s.reg(op.operands[0]), s.reg(op.operands[1])), op)
        return
    rule = RULES.get(op.name)
    if rule is None:
        raise KtcError(f"'{op.name}' has no instruction (in the '{s.kind}' program)", where(op))
    rule(s, op)


def _scalar_operands(op: Operation) -> None:
    """Scalar ALU ops work on 64-bit registers: index, i64 and (for compares) i1."""
    for value in (*op.operands, *op.results):
        if isinstance(value.type, IndexType):
            continue
        if isinstance(value.type, IntegerType) and value.type.width.data in (1, 64):
            continue
        raise KtcError(f"'{op.name}' on {value.type} has no instruction: scalar "
                       "arithmetic is on index and i64", where(op))


def _constant(s: Selector, op: arith.ConstantOp) -> None:
    value = op.value
    result = op.result
    if isinstance(result.type, VectorType):
        _vector_constant(s, op)
        return
    if isinstance(value, IntegerAttr):
        bits = value.value.data
        bits = bits & 1 if result.type == IntegerType(1) else bits
        s.emit(isa.Li(s.define(result, op), bits), op)
        return
    if isinstance(value, FloatAttr) and type(result.type) in _FLOAT_FORMATS:
        s.emit(isa.Li(s.define(result, op), _float_bits(result.type, value.value.data)), op)
        return
    raise KtcError(f"a constant of type {result.type} has no instruction", where(op))


def _float_bits(element: Attribute, number: float) -> int:
    """The storage bits of ``number`` in a float type, as a signed int64."""
    packed = struct.pack(_FLOAT_FORMATS[type(element)], number)
    return int.from_bytes(packed, "little", signed=len(packed) == 8)


def _element_bits(element: Attribute, number: float) -> int:
    if type(element) in _FLOAT_FORMATS:
        return _float_bits(element, number)
    if isinstance(element, IntegerType) and element.width.data == 1:
        return int(number) & 1
    return int(number)


def _vector_constant(s: Selector, op: arith.ConstantOp) -> None:
    vector = op.result.type
    element = vector.element_type
    name = type_name(element)
    if vector.get_num_dims() != 1 or name is None or name == "df16" \
            or not isinstance(op.value, DenseIntOrFPElementsAttr):
        raise KtcError(f"a constant of type {vector} has no instruction", where(op))
    values = [_element_bits(element, number) for number in op.value.get_values()]
    length = vector.get_shape()[0]
    if len(set(values)) == 1:
        values = values[:1]
    s.emit(isa.Vconst(s.define(op.result, op), name, length, tuple(values)), op)


def _element(op: Operation, element: Attribute) -> str:
    name = type_name(element)
    if name is None:
        raise KtcError(f"element type {element} has no encoding", where(op))
    return name


def _cmpi(s: Selector, op: arith.CmpiOp) -> None:
    _scalar_operands(op)
    predicate = PREDICATES[op.predicate.value.data]
    s.emit(isa.Alu(f"cmp.{predicate}", s.define(op.result, op),
                   s.reg(op.lhs), s.reg(op.rhs)), op)


def _select(s: Selector, op: arith.SelectOp) -> None:
    if dfir.register_file(op.result.type) != "s":
        raise KtcError(f"'{op.name}' on {op.result.type} has no instruction", where(op))
    s.emit(isa.Select(s.define(op.result, op), s.reg(op.cond),
                      s.reg(op.lhs), s.reg(op.rhs)), op)


def _index_cast(s: Selector, op: Operation) -> None:
    if not isinstance(op.operands[0].owner, dfir.LoadIndexOp) and not _bits_of_float(op):
        _scalar_operands(op)
    s.emit(isa.Mov(s.define(op.results[0], op), s.reg(op.operands[0])), op)


def _bits_of_float(op: Operation) -> bool:
    """An index cast whose every user is an ``arith.bitcast`` to a float: the register
    keeps its bits, of which the float reads the low ones."""
    return all(isinstance(use.operation, arith.BitcastOp) for use in op.results[0].uses)


def _bitcast(s: Selector, op: arith.BitcastOp) -> None:
    """A scalar's bits read as another type of its width: the same register bits."""
    if dfir.register_file(op.result.type) != "s":
        raise KtcError(f"'{op.name}' on {op.result.type} has no instruction", where(op))
    s.emit(isa.Mov(s.define(op.result, op), s.reg(op.input)), op)


def _for(s: Selector, op: scf.ForOp) -> None:
    induction, *carried = op.body.block.args
    var = s.define(induction, op)
    targets = [s.define(value, op) for value in carried]
    s.moves(list(zip(targets, (s.reg(value) for value in op.iter_args))),
            [dfir.register_file(value.type) for value in carried], op)
    loop_at = len(s.code)
    s.emit(isa.Loop(var, s.reg(op.lb), s.reg(op.ub), s.reg(op.step), 0), op)
    s.block(op.body.block, targets)
    s.emit(isa.EndLoop(var, s.reg(op.ub), s.reg(op.step), loop_at + 1), op)
    s.code[loop_at] = replace(s.code[loop_at], end=len(s.code))
    s.registers.release_before(s.end[op])
    for result, target in zip(op.results, targets):
        s.move(s.define(result, op), target, dfir.register_file(result.type), op)


def _if(s: Selector, op: scf.IfOp) -> None:
    targets = [s.define(result, op) for result in op.results]
    branch_at = len(s.code)
    s.emit(isa.Brz(s.reg(op.cond), 0), op)
    s.block(op.true_region.block, targets)
    if not op.false_region.blocks:
        s.code[branch_at] = isa.Brz(s.reg(op.cond), len(s.code))
        return
    jump_at = len(s.code)
    s.emit(isa.Jmp(0), op)
    s.code[branch_at] = isa.Brz(s.reg(op.cond), len(s.code))
    s.block(op.false_region.block, targets)
    s.code[jump_at] = isa.Jmp(len(s.code))


def _unit(s: Selector, op: dfir.UnitOp) -> None:
    s.emit(isa.Li(s.define(op.unit, op), s.units[op.unit]), op)


def _symbol(s: Selector, op: dfir.SymbolOp) -> None:
    s.relocations.append((len(s.code), op.id.value.data))
    s.emit(isa.Li(s.define(op.result, op), 0), op)


def _query(s: Selector, op: dfir.QueryOp) -> None:
    uniform = op.map.owner
    if uniform not in s.uniform_maps:
        s.uniform_maps.append(uniform)
    s.emit(isa.Uni(s.define(op.value, op), s.uniform_maps.index(uniform)), op)


def view_strides(view: MemRefType) -> tuple[int, ...]:
    """Strides in elements: the layout's, or row-major."""
    if isinstance(view.layout, StridedLayoutAttr):
        return tuple(view.layout.get_strides())
    assert isinstance(view.layout, NoneAttr)
    shape = view.get_shape()
    return tuple(int(_product(shape[k + 1:])) for k in range(len(shape)))


def _product(sizes: Sequence[int]) -> int:
    result = 1
    for size in sizes:
        result *= size
    return result


def _view(s: Selector, op: dfir.ViewOp) -> None:
    """``view``, with 0 for each dynamic dimension and then one ``dim`` setting it."""
    view = op.view.type
    shape = tuple(view.get_shape())
    register = s.define(op.view, op)
    s.emit(isa.View(register, s.reg(op.memory), s.reg(op.address),
                    _element(op, view.element_type), tuple(max(size, 0) for size in shape),
                    view_strides(view)), op)
    dynamic = [k for k, size in enumerate(shape) if size == DYNAMIC_INDEX]
    for k, size in zip(dynamic, op.sizes):
        s.emit(isa.Dim(register, s.reg(size), k), op)


def _load(s: Selector, op: dfir.LoadOp) -> None:
    s.emit(isa.Vld(s.define(op.result, op), s.reg(op.view), op.result.type.get_shape()[0],
                   tuple(s.reg(index) for index in op.indices)), op)


def _store(s: Selector, op: dfir.StoreOp) -> None:
    s.emit(isa.Vst(s.reg(op.value), s.reg(op.view),
                   tuple(s.reg(index) for index in op.indices)), op)


def _dma(s: Selector, op: dfir.DmaOp) -> None:
    instructions = {(False, False): isa.Dma, (False, True): isa.Dmaz,
                    (True, False): isa.Dmai, (True, True): isa.Dmaiz}
    instruction = instructions[op.indirect is not None, op.zero_fill is not None]
    s.emit(instruction(s.reg(op.source), s.reg(op.destination)), op)


def _load_index(s: Selector, op: dfir.LoadIndexOp) -> None:
    s.emit(isa.Ldx(s.define(op.result, op), s.reg(op.view),
                   tuple(s.reg(index) for index in op.indices)), op)


def _sync_send(s: Selector, op: dfir.SyncSendOp) -> None:
    s.emit(isa.Ssend(s.reg(op.peer), op.id.value.data), op)


def _sync_recv(s: Selector, op: dfir.SyncRecvOp) -> None:
    s.emit(isa.Srecv(s.reg(op.peer), op.id.value.data), op)


def _send(s: Selector, op: dfir.SendOp) -> None:
    s.emit(isa.Send(s.reg(op.value), s.reg(op.peer), op.id.value.data), op)


def _receive(s: Selector, op: dfir.ReceiveOp) -> None:
    vector = op.value.type
    s.emit(isa.Recv(s.define(op.value, op), s.reg(op.peer), op.id.value.data,
                    _element(op, vector.element_type), vector.get_shape()[0]), op)


def _compute(s: Selector, op: dfir.ComputeOp) -> None:
    s.emit(isa.Vop(op.kind.data.value, _element(op, op.result.type.element_type),
                   _element(op, op.inputs[0].type.element_type), s.define(op.result, op),
                   tuple(s.reg(value) for value in op.inputs)), op)


def _reduce(s: Selector, op: dfir.ReduceOp) -> None:
    s.emit(isa.Vreduce(op.kind.data.value, _element(op, op.result.type.element_type),
                       s.define(op.result, op), s.reg(op.input)), op)


def _splat(s: Selector, op: dfir.SplatOp) -> None:
    """A one-element vector becomes ``vbcast``; a scalar (its bits in an s register),
    ``vsplat``."""
    length = op.result.type.get_shape()[0]
    if isinstance(op.input.type, VectorType):
        s.emit(isa.Vbcast(s.define(op.result, op), s.reg(op.input), length), op)
        return
    s.emit(isa.Vsplat(s.define(op.result, op), s.reg(op.input),
                      _element(op, op.result.type.element_type), length), op)


def _convert(s: Selector, op: dfir.ConvertOp) -> None:
    s.emit(isa.Vcvt(_element(op, op.result.type.element_type),
                    _element(op, op.input.type.element_type),
                    s.define(op.result, op), s.reg(op.input)), op)


def _matmul(s: Selector, op: dfir.MatmulOp) -> None:
    m, k, n = op.shape.get_values()
    s.emit(isa.Vmma(_element(op, op.result.type.element_type),
                    _element(op, op.lhs.type.element_type), s.define(op.result, op),
                    s.reg(op.acc), s.reg(op.lhs), s.reg(op.rhs), m, k, n,
                    "kn" if op.transposed_rhs is None else "nk"), op)


RULES: dict[str, Callable[[Selector, Operation], None]] = {
    op.name: rule for op, rule in (
        (arith.ConstantOp, _constant),
        (arith.CmpiOp, _cmpi),
        (arith.SelectOp, _select),
        (arith.IndexCastOp, _index_cast),
        (arith.BitcastOp, _bitcast),
        (scf.ForOp, _for),
        (scf.IfOp, _if),
        (dfir.UnitOp, _unit),
        (dfir.SymbolOp, _symbol),
        (dfir.QueryOp, _query),
        (dfir.ViewOp, _view),
        (dfir.LoadOp, _load),
        (dfir.LoadIndexOp, _load_index),
        (dfir.StoreOp, _store),
        (dfir.DmaOp, _dma),
        (dfir.SyncSendOp, _sync_send),
        (dfir.SyncRecvOp, _sync_recv),
        (dfir.SendOp, _send),
        (dfir.ReceiveOp, _receive),
        (dfir.ComputeOp, _compute),
        (dfir.ReduceOp, _reduce),
        (dfir.SplatOp, _splat),
        (dfir.ConvertOp, _convert),
        (dfir.MatmulOp, _matmul),
    )
}
"""How each op other than the ALU ones is selected, by op name (ktc's upstream
dialects subclass some of these ops for their syntax)."""
