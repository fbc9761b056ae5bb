"""``compute-group-extraction``: program slicing of KTIR kernels into compute groups.

A compute group is what one program computes: the stores of a block together with
everything they read and compute from loaded data. Each group moves into its own
``module @local_schedule_N``; the kernel keeps its control flow and address
arithmetic and calls the programs in order.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, auto

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import IsTerminator, SymbolOpInterface

from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import DeviceOp
from ktc.dialects.ktdp import LoadOp, StoreOp, grid_of, set_grid

PROGRAM_PREFIX = "local_schedule_"


@dataclass(frozen=True)
class ComputeGroupExtraction(ModulePass):
    """Split each KTIR kernel into an orchestrator and one program per compute group.

    Expects KTIR: kernels are ``func.func`` (usually with ``grid = [...]``) whose
    only memory effects are ``ktdp.load`` and ``ktdp.store``.

    In every block, each store is joined with the ops it depends on through loaded
    data (compute, loads, and region ops such as ``scf.for`` with ``iter_args`` that
    read memory or consume data); connected ops form one group. A group is the op
    range from its first to its last member; groups whose ranges overlap are merged,
    so memory accesses keep their order. A region op that only holds control flow
    around groups (a coarse-tiling ``scf.for``) stays in the kernel and its body is
    sliced in turn, so its groups are launched once per iteration.

    Produces: the top-level module keeps the device declaration and holds one
    anonymous ``module`` with the kernels (each group replaced by
    ``func.call @local_schedule_N(args)``, plus a ``func.func private`` declaration
    per program) and one ``module @local_schedule_N { func.func @local_schedule_N(args)
    attributes {grid = ...} {...} }`` per group, numbered in program order, with the
    kernel's grid (``[1]`` when the kernel declares none). Pure dependencies
    (constants, views, access tiles, tile ids, index arithmetic) are cloned into the
    program; its arguments are the other values it uses (kernel arguments, loop
    induction variables), in order of definition. A module that is already split is
    left unchanged.

    Rejects, naming the op: loaded data that reaches no store, a tensor that would
    enter a program other than through ``ktdp.load``, and a value computed in a
    group that is used outside it.
    """

    name = "compute-group-extraction"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if any(isinstance(child, ModuleOp) for child in op.ops):
            return
        orchestrator = ModuleOp([])
        for child in list(op.ops):
            if not isinstance(child, DeviceOp):
                child.detach()
                orchestrator.body.block.add_op(child)
        names = _Names(op)
        programs: list[ModuleOp] = []
        for kernel in list(orchestrator.ops):
            if isinstance(kernel, func.FuncOp) and not kernel.is_declaration:
                programs += _Slicer(kernel, names).run()
        for program in programs:
            orchestrator.body.block.add_op(_declaration(program))
        op.body.block.add_ops([orchestrator, *programs])


class _Kind(Enum):
    """What a top-level op of a block is to the slicer."""

    PURE = auto()
    """No memory access and no loaded data: cloned into every program that uses it."""
    DATA = auto()
    """A load, a store, or an op that computes from loaded data: a group member."""
    CONTROL = auto()
    """A result-less region op around loads and stores: stays; its body is sliced."""
    TERMINATOR = auto()
    """The block's terminator: stays."""


class _Names:
    """Fresh ``local_schedule_N`` names, skipping symbols the module already has."""

    def __init__(self, module: ModuleOp):
        self.taken: set[str] = set()
        for op in module.walk():
            trait = op.get_trait(SymbolOpInterface)
            name = trait.get_sym_attr_name(op) if trait else None
            if name is not None:
                self.taken.add(name.data)
        self.next = 0

    def fresh(self) -> str:
        while f"{PROGRAM_PREFIX}{self.next}" in self.taken:
            self.next += 1
        name = f"{PROGRAM_PREFIX}{self.next}"
        self.taken.add(name)
        return name


class _Slicer:
    """Slices one kernel: classifies the ops of each block, cuts the groups, outlines them."""

    def __init__(self, kernel: func.FuncOp, names: _Names):
        self.kernel = kernel
        self.names = names
        self.order = _definition_order(kernel)
        self.kinds: dict[Operation, _Kind] = {}
        self.data: set[SSAValue] = set()
        self.programs: list[ModuleOp] = []

    def run(self) -> list[ModuleOp]:
        for block in self.kernel.body.blocks:
            self._slice(block)
        _erase_dead(
            op for op, kind in reversed(self.kinds.items()) if kind is _Kind.PURE and op.parent
        )
        return self.programs

    def _slice(self, block: Block) -> None:
        ops = list(block.ops)
        for op in ops:
            self._classify(op)
        starts = {group[0]: group for group in _groups(block, ops, self.kinds)}
        in_group: set[Operation] = set()
        for op in ops:
            if op in starts:
                in_group.update(starts[op])
                self._outline(block, starts[op])
            elif op not in in_group and self.kinds[op] is _Kind.CONTROL:
                for region in op.regions:
                    for inner in region.blocks:
                        self._slice(inner)

    def _classify(self, op: Operation) -> None:
        data_in = any(value in self.data or _is_data_argument(value) for value in _inputs(op))
        touches = _touches_memory(op)
        if op.has_trait(IsTerminator):
            kind = _Kind.TERMINATOR
        elif data_in or isinstance(op, LoadOp | StoreOp) or (touches and op.results):
            kind = _Kind.DATA
            self.data.update(op.results)
        elif touches:
            kind = _Kind.CONTROL
        else:
            kind = _Kind.PURE
        self.kinds[op] = kind

    def _outline(self, block: Block, group: list[Operation]) -> None:
        members = set(group)
        _check_results_stay_inside(block, group, members, self.kinds)
        clones, arguments = self._dependencies(group, members)
        name = self.names.fresh()
        program = self._program(name, group, clones, arguments)
        self.programs.append(ModuleOp([program], sym_name=StringAttr(name)))
        call = func.CallOp(name, arguments, [])
        call.location = group[0].location
        block.insert_op_after(call, group[-1])
        for op in reversed(group):
            if self.kinds[op] is not _Kind.PURE or not any(r.uses for r in op.results):
                Rewriter.erase_op(op)

    def _dependencies(
        self, group: list[Operation], members: set[Operation]
    ) -> tuple[list[Operation], list[SSAValue]]:
        """The pure ops defined outside the group that it needs (to clone), and the
        values it takes as arguments, both in order of definition."""
        clones: set[Operation] = set()
        arguments: set[SSAValue] = set()
        pending = [(value, op) for op in group for value in _inputs(op)]
        while pending:
            value, user = pending.pop()
            owner = value.owner
            if isinstance(owner, Operation) and (owner in members or owner in clones):
                continue
            if isinstance(owner, Operation) and self.kinds.get(owner) is _Kind.PURE:
                clones.add(owner)
                pending += [(inner, owner) for inner in _inputs(owner)]
                continue
            if _is_tensor(value):
                raise KtcError(
                    f"'{user.name}' uses a {value.type} defined outside its compute group; "
                    "data enters a compute group only through ktdp.load",
                    where(user),
                )
            arguments.add(value)
        return (
            sorted(clones, key=lambda op: self.order[op]),
            sorted(arguments, key=lambda value: _definition_key(value, self.order)),
        )

    def _program(
        self, name: str, group: list[Operation], clones: list[Operation], arguments: list[SSAValue]
    ) -> func.FuncOp:
        types = [value.type for value in arguments]
        body = Block(arg_types=types)
        mapper: dict[SSAValue, SSAValue] = {}
        for value, argument in zip(arguments, body.args):
            argument.name_hint = value.name_hint
            mapper[value] = argument
        copies = [op.clone(mapper) for op in [*clones, *group]]
        body.add_ops(copies)
        body.add_op(func.ReturnOp())
        pure = [copy for copy, op in zip(copies, [*clones, *group]) if self.kinds[op] is _Kind.PURE]
        _erase_dead(reversed(pure))
        program = func.FuncOp(name, (types, []), Region(body))
        set_grid(program, grid_of(self.kernel))
        program.location = group[0].location
        return program


def _groups(
    block: Block, ops: list[Operation], kinds: dict[Operation, _Kind]
) -> list[list[Operation]]:
    """The compute groups of a block as op ranges, in block order: each connected set
    of data ops spans from its first to its last member; overlapping spans merge."""
    position = {op: index for index, op in enumerate(ops)}
    leader: dict[Operation, Operation] = {}

    def find(op: Operation) -> Operation:
        while leader[op] is not op:
            op = leader[op]
        return op

    members = [op for op in ops if kinds[op] is _Kind.DATA]
    for op in members:
        leader[op] = op
        for value in _inputs(op):
            producer = _top_level_owner(block, value)
            if producer is not None and kinds.get(producer) is _Kind.DATA:
                leader[find(producer)] = find(op)
    components: dict[Operation, list[Operation]] = {}
    for op in members:
        components.setdefault(find(op), []).append(op)
    spans = []
    for component in components.values():
        _check_reaches_store(component)
        spans.append([position[component[0]], position[component[-1]]])
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [ops[start : end + 1] for start, end in merged]


def _check_reaches_store(component: list[Operation]) -> None:
    if any(isinstance(inner, StoreOp) for op in component for inner in op.walk()):
        return
    first = next((op for op in component if _touches_memory(op)), component[0])
    raise KtcError(
        f"the result of '{first.name}' reaches no ktdp.store in its block; "
        "a compute group must end in a store",
        where(first),
    )


def _check_results_stay_inside(
    block: Block, group: list[Operation], members: set[Operation], kinds: dict[Operation, _Kind]
) -> None:
    for op in group:
        if kinds[op] is _Kind.PURE:
            continue
        for result in op.results:
            for use in result.uses:
                if block.find_ancestor_op_in_block(use.operation) not in members:
                    raise KtcError(
                        f"'{use.operation.name}' uses the result of '{op.name}' from a compute "
                        "group; a compute group's results leave it only through ktdp.store",
                        where(use.operation),
                    )


def _declaration(program: ModuleOp) -> func.FuncOp:
    function = program.body.block.first_op
    assert isinstance(function, func.FuncOp)
    declaration = func.FuncOp.external(
        function.sym_name.data, function.function_type.inputs.data, []
    )
    declaration.location = function.location
    return declaration


def _inputs(op: Operation) -> list[SSAValue]:
    """The values ``op`` uses that are defined outside it: its operands and the
    free values of its regions, in order of first use."""
    seen: dict[SSAValue, None] = {}
    for inner in op.walk():
        for operand in inner.operands:
            if not _defined_inside(operand, op):
                seen.setdefault(operand, None)
    return list(seen)


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    if isinstance(value, BlockArgument):
        parent = value.block.parent_op()
        return parent is not None and op.is_ancestor(parent)
    assert isinstance(value.owner, Operation)
    return value.owner is not op and op.is_ancestor(value.owner)


def _top_level_owner(block: Block, value: SSAValue) -> Operation | None:
    if isinstance(value, BlockArgument):
        return None
    assert isinstance(value.owner, Operation)
    return block.find_ancestor_op_in_block(value.owner)


def _touches_memory(op: Operation) -> bool:
    return any(isinstance(inner, LoadOp | StoreOp) for inner in op.walk())


def _is_data_argument(value: SSAValue) -> bool:
    """A tensor block argument (a kernel argument or a loop-carried value) is data."""
    return isinstance(value, BlockArgument) and _is_tensor(value)


def _is_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType | UnrankedTensorType)


def _definition_order(root: Operation) -> dict[Operation | Block, int]:
    """Every op and block under ``root``, numbered in the order they appear."""
    order: dict[Operation | Block, int] = {}

    def visit(op: Operation) -> None:
        order[op] = len(order)
        for region in op.regions:
            for block in region.blocks:
                order[block] = len(order)
                for inner in block.ops:
                    visit(inner)

    visit(root)
    return order


def _definition_key(value: SSAValue, order: dict[Operation | Block, int]) -> tuple[int, int]:
    if isinstance(value, BlockArgument):
        return order[value.block], value.index
    assert isinstance(value.owner, Operation)
    return order[value.owner], value.index


def _erase_dead(ops: Iterable[Operation]) -> None:
    """Erase, in the order given (users first), each op whose results are all unused."""
    for op in ops:
        if op.results and not any(result.uses for result in op.results):
            Rewriter.erase_op(op)
