"""Per-core program arguments for ``convert-ktdf-to-dfir``: an argument the
orchestrator computes from the tile id moves into the program, where the tile id is a
per-core value, and the host stops computing and passing it."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.traits import is_side_effect_free

from ktc.dialects.diagnostics import KtcError, where
from ktc.passes.convert_ktdf_to_dfir.values import TILE, roots


def localize_tile_ids(call: CallOp, callee: FuncOp, module: ModuleOp) -> None:
    """An argument the orchestrator computes from the tile id differs per core: its
    expression moves into the program (the tile id a per-core value there), and the
    host values it reads become extra arguments."""
    cache: dict[SSAValue, frozenset[str]] = {}
    for position, operand in enumerate(list(call.arguments)):
        if TILE not in roots(operand, cache):
            continue
        if not list(callee.args[position].uses):
            continue
        mapping: dict[SSAValue, SSAValue] = {}
        body = callee.body.block
        first = body.first_op
        for op in _expression_ops(operand):
            for value in op.operands:
                if value not in mapping and not isinstance(value.owner, Operation):
                    mapping[value] = _pass_along(call, callee, module, value)
            clone = op.clone(value_mapper=mapping)
            body.insert_op_before(clone, first)
            mapping.update(zip(op.results, clone.results))
        callee.args[position].replace_all_uses_with(mapping[operand])
    _drop_tile_arguments(call, callee, module, cache)


def _drop_tile_arguments(call: CallOp, callee: FuncOp, module: ModuleOp,
                         cache: dict[SSAValue, frozenset[str]]) -> None:
    """The orchestrator stops computing and passing the per-core arguments (the host
    has no tile id); what computed them and is now unused goes too."""
    dropped = [position for position, operand in enumerate(call.arguments)
               if TILE in roots(operand, cache) and not list(callee.args[position].uses)]
    if not dropped:
        return
    expressions = [op for position in dropped for op in _expression_ops(call.arguments[position])]
    for position in reversed(dropped):
        callee.body.block.erase_arg(callee.args[position])
    call.operands = [operand for position, operand in enumerate(call.operands) if position not in dropped]
    callee.update_function_type()
    for declaration in module.walk():
        if isinstance(declaration, FuncOp) and declaration.sym_name == callee.sym_name and declaration is not callee:
            declaration.function_type = callee.function_type
    for op in reversed(expressions):
        if op.parent is not None and not any(list(result.uses) for result in op.results):
            op.parent.erase_op(op)


def _expression_ops(value: SSAValue) -> list[Operation]:
    """The ops computing ``value`` from block arguments, definitions first."""
    ordered: list[Operation] = []

    def visit(current: SSAValue) -> None:
        op = current.owner
        if not isinstance(op, Operation) or op in ordered:
            return
        if op.regions or not is_side_effect_free(op):
            raise KtcError(f"'{op.name}' computes a per-core program argument the lowering "
                           "cannot move into the program", where(op))
        for operand in op.operands:
            visit(operand)
        ordered.append(op)

    visit(value)
    return ordered


def _pass_along(call: CallOp, callee: FuncOp, module: ModuleOp, value: SSAValue) -> SSAValue:
    """A new argument of ``callee`` that ``call`` (and its declaration) passes ``value`` as."""
    argument = callee.body.block.insert_arg(value.type, len(callee.args))
    call.operands = [*call.operands, value]
    callee.update_function_type()
    name = callee.sym_name.data
    for declaration in module.walk():
        if isinstance(declaration, FuncOp) and declaration.sym_name.data == name and declaration is not callee:
            declaration.function_type = callee.function_type
    return argument
