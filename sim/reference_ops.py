"""Execution of KTIR ops by the reference interpreter: a function is compiled once into
closures over a per-core list of slots (one per SSA value), which every core runs.

Covered: func, arith, math, scf (``for`` with iter_args, ``if``, ``yield``,
``execute_region``, ``parallel`` with ``reduce``, ``forall`` without shared outputs), every spyreop intrinsic and all of ktdp here and in
``reference_grid`` (the inter-tile ops); linalg and tensor in ``reference_linalg``. Any
other op is refused when the kernel is loaded, at its location.

A tensor that an op defines is charged to the core's scratchpad ledger
(``reference_grid``) when the op has run, and released after the op that uses it
last (an op holding a nested region uses a value for as long as the region runs).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import IntAttr, TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import IsTerminator

from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdp import (
    ConstructIndirectAccessTileOp,
    ConstructMemoryViewOp,
    MemorySpaceAttr,
    MemorySpaceKind,
    RuntimeArgType,
    SpyreMemorySpaceAttr,
)
from ktc.sim import numerics, reference_grid, reference_linalg
from ktc.sim.reference_affine import IntegerSet, map_function, permutation_of
from ktc.sim.reference_compute import (
    ELEMENT_OPS,
    MULTI_RESULT_OPS,
    ExecutionError,
    as_value,
    constant,
    mixed,
    type_name,
)
from ktc.sim.reference_grid import Stop, Undefined
from ktc.sim.reference_memory import (
    AccessTile,
    DistributedView,
    IndirectAccessTile,
    View,
    load,
    origin_of,
    read_coordinates,
    store,
    tile_shape_for,
)

# ---------------------------------------------------------------------------------------
# Compilation of a function into closures over a slot environment

Step = Callable[[list], None]


class CompiledBlock:
    """A compiled block: its argument slots, its ops as steps, the slots its terminator
    yields, and the tensors to count in and out around it."""

    def __init__(self, op: Operation, args, steps, results, charged, unused, at_exit):
        self.op, self.args, self.steps, self.results = op, args, steps, results
        self.charged, self.unused, self.at_exit = charged, unused, at_exit

    def run(self, env: list, values: Sequence) -> list:
        for slot, value in zip(self.args, values):
            env[slot] = value
        if self.charged or self.unused:
            ledger = env[0].ledger
            for slot in self.charged:
                ledger.charge(env[slot], self.op)
            for slot in self.unused:
                ledger.release(env, slot)
        step = None
        try:
            for step in self.steps:
                step(env)
        except (KtcError, Stop):
            raise
        except ExecutionError as err:
            raise KtcError(f"{step.op.name}: {err}", where(step.op)) from None
        except Exception as err:
            raise _failure(step, env, err) from err
        results = [env[slot] for slot in self.results]
        if self.at_exit:
            ledger = env[0].ledger
            for slot in self.at_exit:
                ledger.release(env, slot)
        return results


def _failure(step: Step, env: list, err: Exception) -> KtcError:
    """The error for an op that raised: the use of an undefined value, or a bug."""
    op = step.op
    for slot in step.operand_slots:
        if isinstance(env[slot], Undefined):
            return KtcError(f"{op.name}: {env[slot].message()}", where(op))
    return KtcError(
        f"{op.name}: the reference interpreter failed ({type(err).__name__}: {err})", where(op)
    )


def _is_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType)


def _defined_in(value: SSAValue, block: Block) -> bool:
    if isinstance(value, BlockArgument):
        return value.block is block
    return isinstance(value, OpResult) and value.op.parent is block


class Compiler:
    """Gives every SSA value a slot and every op a step."""

    def __init__(self) -> None:
        self.slots: dict[SSAValue, int] = {}
        self.size = 1  # slot 0: the core
        self.index_slots: dict[Operation, int] = {}
        self.collective = False
        """Whether the function exchanges data between cores."""

    def slot(self, value: SSAValue) -> int:
        slot = self.slots.get(value)
        if slot is None:
            slot = self.slots[value] = self.size
            self.size += 1
        return slot

    def hidden_slot(self) -> int:
        self.size += 1
        return self.size - 1

    def region(self, region: Region, op: Operation) -> CompiledBlock:
        return self.block(region.block, op)

    def block(self, block: Block, op: Operation) -> CompiledBlock:
        ops = list(block.ops)
        last_use: dict[SSAValue, int] = {}
        for position, user in enumerate(ops):
            for nested in user.walk():
                for used in nested.operands:
                    if _defined_in(used, block):
                        last_use[used] = position
        dying: list[list[int]] = [[] for _ in ops]
        for position, user in enumerate(ops):
            for result in user.results:
                if _is_tensor(result):
                    dying[last_use.get(result, position)].append(self.slot(result))
        args = tuple(self.slot(arg) for arg in block.args)
        tensor_args = [arg for arg in block.args if _is_tensor(arg)]
        for arg in tensor_args:
            if arg in last_use:
                dying[last_use[arg]].append(self.slot(arg))
        terminator = ops[-1] if ops and ops[-1].has_trait(IsTerminator) else None
        body = ops[:-1] if terminator is not None else ops
        steps = [self.step(user, dying[position]) for position, user in enumerate(body)]
        return CompiledBlock(
            op,
            args,
            steps,
            tuple(self.slot(v) for v in terminator.operands) if terminator else (),
            tuple(self.slot(arg) for arg in tensor_args),
            tuple(self.slot(arg) for arg in tensor_args if arg not in last_use),
            tuple(dying[-1]) if terminator is not None else (),
        )

    def step(self, op: Operation, released: Sequence[int]) -> Step:
        executor = _EXECUTORS.get(op.name)
        if executor is None:
            executor = _element if op.name in ELEMENT_OPS or op.name in MULTI_RESULT_OPS else None
        if executor is None and op.name.startswith("linalg.") and op.regions:
            executor = reference_linalg.structured
        if executor is None:
            raise KtcError(f"the reference interpreter does not execute '{op.name}'", where(op))
        try:
            run = executor(self, op)
        except ExecutionError as err:
            raise KtcError(f"{op.name}: {err}", where(op)) from None
        charged = tuple(self.slot(r) for r in op.results if _is_tensor(r))
        if charged or released:
            run = _accounted(run, op, charged, tuple(released))
        run.op = op
        run.operand_slots = tuple(self.slot(v) for v in op.operands)
        return run


def _accounted(
    run: Step, op: Operation, charged: tuple[int, ...], released: tuple[int, ...]
) -> Step:
    def step(env: list) -> None:
        run(env)
        ledger = env[0].ledger
        for slot in charged:
            ledger.charge(env[slot], op)
        for slot in released:
            ledger.release(env, slot)

    return step


# ---------------------------------------------------------------------------------------
# Executors: (compiler, op) -> step

Executor = Callable[[Compiler, Operation], Step]


def _element(c: Compiler, op: Operation) -> Step:
    ins = [c.slot(v) for v in op.operands]
    if op.name in MULTI_RESULT_OPS:
        fn = MULTI_RESULT_OPS[op.name](op)
        outs = [c.slot(r) for r in op.results]

        def run_multi(env: list) -> None:
            for slot, value in zip(outs, fn(*(env[s] for s in ins))):
                env[slot] = value

        return run_multi
    fn = ELEMENT_OPS[op.name](op)
    out = c.slot(op.results[0])
    if len(ins) == 1:
        (a,) = ins

        def run_unary(env: list) -> None:
            env[out] = fn(env[a])

        return run_unary
    if len(ins) == 2:
        a, b = ins

        def run_binary(env: list) -> None:
            env[out] = fn(env[a], env[b])

        return run_binary

    def run(env: list) -> None:
        env[out] = fn(*(env[s] for s in ins))

    return run


def _constant(c: Compiler, op: Operation) -> Step:
    out, value = c.slot(op.results[0]), constant(op.value, op.results[0].type)

    def run(env: list) -> None:
        env[out] = value

    return run


# --- scf --------------------------------------------------------------------------------


def _for(c: Compiler, op: Operation) -> Step:
    lb, ub, step = (c.slot(v) for v in (op.lb, op.ub, op.step))
    inits = [c.slot(v) for v in op.iter_args]
    results = [c.slot(r) for r in op.results]
    body = c.region(op.body, op)
    name = type_name(op.lb.type)

    def run(env: list) -> None:
        low, high, stride = int(env[lb]), int(env[ub]), int(env[step])
        if stride <= 0:
            raise ExecutionError(f"the step is {stride}; it must be positive")
        carried = [env[s] for s in inits]
        for iv in range(low, high, stride):
            carried = body.run(env, [iv if name == "index" else as_value(name, iv), *carried])
        for slot, value in zip(results, carried):
            env[slot] = value

    return run


def _parallel(c: Compiler, op: Operation) -> Step:
    """``scf.parallel``: every point of the box of its bounds, in row-major order of the
    induction variables, each ``scf.reduce`` operand folded into its accumulator (from
    the initial values) by its region, in that order."""
    bounds = [tuple(_bound(c, v) for v in trio) for trio in zip(op.lowerBound, op.upperBound, op.step)]
    inits = [c.slot(v) for v in op.initVals]
    results = [c.slot(r) for r in op.results]
    body = c.region(op.body, op)
    reductions = [c.region(region, op) for region in op.body.block.last_op.reductions]

    def run(env: list) -> None:
        carried = [env[s] for s in inits]
        for point in _points(env, bounds):
            values = body.run(env, point)
            carried = [reduction.run(env, [acc, value])[0]
                       for reduction, acc, value in zip(reductions, carried, values)]
        for slot, value in zip(results, carried):
            env[slot] = value

    return run


def _forall(c: Compiler, op: Operation) -> Step:
    """``scf.forall`` without shared outputs: its body at every point of the box of its
    bounds (constants or values), in row-major order."""
    if op.outputs:
        raise KtcError("the reference interpreter does not execute 'scf.forall' with "
                       "shared_outs", where(op))
    bounds = [tuple(_bound(c, b) for b in trio) for trio in op.bounds()]
    body = c.region(op.body, op)

    def run(env: list) -> None:
        for point in _points(env, bounds):
            body.run(env, point)

    return run


def _bound(c: Compiler, bound: int | SSAValue) -> Callable[[list], int]:
    """The value of a loop bound, a constant or a value's slot, in an environment."""
    if isinstance(bound, int):
        return lambda env: bound
    slot = c.slot(bound)
    return lambda env: int(env[slot])


def _points(env: list, bounds) -> itertools.product:
    """The points of the box of ``bounds`` (per dimension the lower bound, upper bound
    and step, each read from ``env`` by ``_bound``), in row-major order."""
    ranges = []
    for trio in bounds:
        low, high, stride = (bound(env) for bound in trio)
        if stride <= 0:
            raise ExecutionError(f"the step is {stride}; it must be positive")
        ranges.append(range(low, high, stride))
    return itertools.product(*ranges)


def _if(c: Compiler, op: Operation) -> Step:
    condition = c.slot(op.cond)
    then = c.region(op.true_region, op)
    otherwise = c.region(op.false_region, op) if op.false_region.blocks else None
    results = [c.slot(r) for r in op.results]

    def run(env: list) -> None:
        branch = then if env[condition] else otherwise
        values = branch.run(env, ()) if branch is not None else ()
        for slot, value in zip(results, values):
            env[slot] = value

    return run


def _execute_region(c: Compiler, op: Operation) -> Step:
    body = c.region(op.regions[0], op)
    results = [c.slot(r) for r in op.results]

    def run(env: list) -> None:
        for slot, value in zip(results, body.run(env, ())):
            env[slot] = value

    return run


# --- ktdp -------------------------------------------------------------------------------


def _tile_id(c: Compiler, op: Operation) -> Step:
    outs = [c.slot(r) for r in op.results]

    def run(env: list) -> None:
        coords = env[0].coords
        for position, slot in enumerate(outs):
            env[slot] = coords[position] if position < len(coords) else 0

    return run


def memory_space_of(op: ConstructMemoryViewOp) -> tuple[bool, int | None]:
    """Whether a view is ``ct_local``, and the core named by its ``ct_id``."""
    space = op.memory_space
    if isinstance(space, SpyreMemorySpaceAttr):
        space = space.to_memory_space()
    if not isinstance(space, MemorySpaceAttr):
        return False, None
    ct_id = space.ct_id.data if isinstance(space.ct_id, IntAttr) else None
    return space.kind.data == MemorySpaceKind.CT_LOCAL, ct_id


def _memory_view(c: Compiler, op: ConstructMemoryViewOp) -> Step:
    offset, out = c.slot(op.offset), c.slot(op.result)
    sizes, strides = [c.slot(v) for v in op.sizes], [c.slot(v) for v in op.strides]
    static_sizes, static_strides = op.static_sizes.get_values(), op.static_strides.get_values()
    cover = IntegerSet(op.coordinate_set.data)
    local, ct_id = memory_space_of(op)
    element = type_name(op.result.type)

    def run(env: list) -> None:
        dynamic = [env[s] for s in sizes]
        if len(dynamic) < cover.num_symbols:
            raise ExecutionError(
                f"the coordinate_set has {cover.num_symbols} symbols, bound to the dynamic "
                f"sizes, but the view has {len(dynamic)}"
            )
        coordinates = cover.bind(dynamic[: cover.num_symbols])
        env[out] = View(
            op,
            element,
            local,
            ct_id,
            int(env[offset]),
            tuple(int(s) for s in mixed(static_sizes, dynamic)),
            tuple(int(s) for s in mixed(static_strides, [env[s] for s in strides])),
            coordinates,
            origin_of(coordinates, op),
            env[0].machine.arrays.get(op),
        )

    return run


def _distributed_view(c: Compiler, op: Operation) -> Step:
    parts, out = [c.slot(v) for v in op.operands], c.slot(op.results[0])
    element = type_name(op.results[0].type)

    def run(env: list) -> None:
        env[out] = DistributedView(op, element, tuple(env[s] for s in parts))

    return run


def _view_of(value, op: Operation):
    if not isinstance(value, View | DistributedView):
        raise ExecutionError(
            "access tiles over tensors are not executed; build them on a memory view"
        )
    return value


def _access_tile(c: Compiler, op: Operation) -> Step:
    base, out = c.slot(op.base), c.slot(op.result)
    indices, symbols = [c.slot(v) for v in op.indices], [c.slot(v) for v in op.symbol_operands]
    base_map = op.base_map.data
    subscripts = map_function(base_map)
    points = IntegerSet(op.access_tile_set.data)
    order = op.access_tile_order.data
    permutation = permutation_of(order)
    declared = tuple(op.result.type.get_shape())

    def run(env: list) -> None:
        operands = [env[s] for s in indices]
        origin = tuple(
            int(x) for x in subscripts(operands[: base_map.num_dims], operands[base_map.num_dims :])
        )
        env[out] = AccessTile(
            op,
            _view_of(env[base], op),
            origin,
            points.bind([env[s] for s in symbols]),
            order,
            permutation,
            declared,
        )

    return run


def _indirect_tile(c: Compiler, op: ConstructIndirectAccessTileOp) -> Step:
    base, out = c.slot(op.base), c.slot(op.result)
    views = [c.slot(v) for v in op.indirect_memrefs]
    captured = [c.slot(v) for v in op.captured_variables]
    symbols = [c.slot(v) for v in op.symbol_operands]
    space = IntegerSet(op.variables_space_set.data)
    order = op.variables_space_order.data
    subscripts = [
        (kind.value.data != 0, map_function(m.data))
        for kind, m in zip(op.per_dim_subscript_kinds, op.per_dim_subscript_maps)
    ]
    declared = tuple(op.result.type.get_shape())

    def run(env: list) -> None:
        core = env[0]
        variables = space.bind([env[s] for s in symbols])
        try:
            points, layout = variables.points(order)
        except ValueError as err:
            raise ExecutionError(f"variables_space_set: {err}") from None
        dims = [int(env[s]) for s in captured] + points
        index_views = iter(env[s] for s in views)
        coords = []
        for indirect, subscript in subscripts:
            values = subscript(dims, ())
            if indirect:
                read = read_coordinates(next(index_views), values, core.machine, core.id, op)
                coords.append(np.asarray(read, np.int64))
            else:
                coords.append(values[0])
        env[out] = IndirectAccessTile(
            op, _view_of(env[base], op), coords, layout, tile_shape_for(layout, declared, op)
        )

    return run


def _load(c: Compiler, op: Operation) -> Step:
    tile, out = c.slot(op.access_tile), c.slot(op.result)

    def run(env: list) -> None:
        core = env[0]
        env[out] = load(env[tile], core.machine, core.id, op)

    return run


def _store(c: Compiler, op: Operation) -> Step:
    data, tile = c.slot(op.data_tile), c.slot(op.access_tile)

    def run(env: list) -> None:
        core = env[0]
        store(env[tile], env[data], core.machine, core.id, op)

    return run


def _slice_reduction(c: Compiler, op: Operation) -> Step:
    """``spyreop.slice_reduction``: one SIMD vector of the device at a time."""
    source, out = c.slot(op.operands[0]), c.slot(op.results[0])
    name = type_name(op.results[0].type)
    kind, scope = op.reduction_kind.data.value, op.reduction_scope.data.value

    def run(env: list) -> None:
        stick = env[0].machine.target.slice_elements(name)
        env[out] = as_value(name, numerics.slice_reduction(name, kind, scope, env[source], stick))

    return run


def _runtime_arg_extract(c: Compiler, op: Operation) -> Step:
    source, out = c.slot(op.input), c.slot(op.result)
    kind = op.kind.data.value
    arg_type: RuntimeArgType = op.input.type
    bound = {"granularity": arg_type.granularity, "upperbound": arg_type.upperbound}.get(kind)

    def run(env: list) -> None:
        env[out] = env[source] if bound is None else bound.data

    return run


_EXECUTORS: dict[str, Executor] = {
    **reference_linalg.EXECUTORS,
    **reference_grid.EXECUTORS,
    "arith.constant": _constant,
    "scf.for": _for,
    "scf.if": _if,
    "scf.parallel": _parallel,
    "scf.forall": _forall,
    "scf.execute_region": _execute_region,
    "ktdp.get_compute_tile_id": _tile_id,
    "ktdp.construct_memory_view": _memory_view,
    "ktdp.construct_distributed_memory_view": _distributed_view,
    "ktdp.construct_access_tile": _access_tile,
    "ktdp.construct_indirect_access_tile": _indirect_tile,
    "ktdp.load": _load,
    "ktdp.store": _store,
    "ktdp.runtime_arg_extract": _runtime_arg_extract,
    "spyreop.slice_reduction": _slice_reduction,
}
