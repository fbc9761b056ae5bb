"""Which memory views may share bytes, for the passes that reorder one view's reads
against another's writes (a copy streamed a piece at a time writes a piece before it
reads the next, where KTIR's load reads the whole tile before the store writes any;
a tile kept on chip across a store).

Two views share no byte when their starts are two arguments of the program, each
plus or minus other values (``arith.addi``, ``arith.subi``), bound at every call of
the program to two distinct arguments of the kernel (``other_arrays``: the launch
gives every pointer its own array; an argument that was a runtime argument giving an
address is taken for one too), or when both are at constant addresses of static
shape whose bytes are apart (``constant_bytes``). Any other two may share bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import BlockArgument, SSAValue

from ktc.dialects import ktdp
from ktc.passes.utils.ir import enclosing_function


def constant_bytes(view: ktdp.ConstructMemoryViewOp) -> tuple[int, int] | None:
    """The bytes ``[first, end)`` a view at a constant address spans, its sizes and
    strides constants (static, or ``arith.constant`` operands), or None when they are
    not known here."""
    start = _constant(view.offset)
    sizes = _values(view.static_sizes.get_values(), view.sizes)
    strides = _values(view.static_strides.get_values(), view.strides)
    if start is None or sizes is None or strides is None:
        return None
    element = view.result.type.get_element_type().bitwidth // 8
    reach = [(n - 1) * s for n, s in zip(sizes, strides)]
    first = start + sum(min(r, 0) for r in reach)
    end = start + sum(max(r, 0) for r in reach) + 1
    return first * element, end * element


def _values(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int] | None:
    """Static sizes or strides with each dynamic one its constant; None if one is not."""
    operands = iter(dynamic)
    values = [_constant(next(operands)) if n == DYNAMIC_INDEX else n for n in static]
    return None if None in values else values


def _constant(value: SSAValue) -> int | None:
    op = value.owner
    return op.value.value.data if isinstance(op, arith.ConstantOp) else None


def apart(a: ktdp.ConstructMemoryViewOp, b: ktdp.ConstructMemoryViewOp,
          calls: dict[str, list[CallOp]]) -> bool:
    """Whether views ``a`` and ``b`` of one program provably share no byte (``calls``:
    the calls of each function, by callee)."""
    program = enclosing_function(a)
    if other_arrays(_pointer(a.offset, program), _pointer(b.offset, program), program, calls):
        return True
    spans = constant_bytes(a), constant_bytes(b)
    return None not in spans and (spans[0][1] <= spans[1][0] or spans[1][1] <= spans[0][0])


def other_arrays(a: SSAValue | None, b: SSAValue | None, program: FuncOp,
                 calls: dict[str, list[CallOp]]) -> bool:
    """Whether ``a`` and ``b`` are two arguments of ``program`` bound at every call of
    it to two distinct arguments of the calling kernel (each plus or minus other
    values), a kernel nothing calls; a program nothing calls is the kernel itself."""
    entry = program.body.block
    if a is None or b is None or a is b or not all(
            isinstance(v, BlockArgument) and v.owner is entry for v in (a, b)):
        return False
    return all(_distinct_arguments(call, a.index, b.index, calls)
               for call in calls.get(program.sym_name.data, []))


def _distinct_arguments(call: CallOp, a: int, b: int, calls: dict[str, list[CallOp]]) -> bool:
    """Whether operands ``a`` and ``b`` of ``call`` come from two distinct arguments of
    a kernel nothing calls."""
    kernel = enclosing_function(call)
    if kernel is None or calls.get(kernel.sym_name.data):
        return False
    first, second = (_pointer(call.arguments[n], kernel) for n in (a, b))
    return first is not None and second is not None and first is not second


def _pointer(value: SSAValue, func: FuncOp | None) -> BlockArgument | None:
    """The ``index`` argument of ``func`` an address is computed from: the argument itself, or it
    plus or minus other values (``arith.addi``: the left operand's when both have
    one; ``arith.subi``: the left operand's); None otherwise."""
    if func is None:
        return None
    if isinstance(value, BlockArgument):
        is_argument = value.owner is func.body.block and isinstance(value.type, IndexType)
        return value if is_argument else None
    op = value.owner
    if op.name == "arith.addi":
        return _pointer(op.operands[0], func) or _pointer(op.operands[1], func)
    if op.name == "arith.subi":
        return _pointer(op.operands[0], func)
    return None
