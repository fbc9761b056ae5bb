"""Whether the iterations of an ``scf.for`` are independent of each other: whether
they may run in any order, or at once on several engines, and compute the same.

``carried(loop)`` gives the reason one iteration may depend on another, or None when
none can. An iteration hands nothing to another when

- the loop has no ``iter_args`` (no value yielded from one iteration to the next);
- nothing in it calls a function, or uses a FIFO slot or a token made outside it
  (their order is the iterations' order);
- every memory made outside it that it writes (a buffer, a view of the scratchpad or
  of device memory) is written and read only at places no other iteration touches:
  every access goes through one memref made outside the loop, whose layout maps
  distinct indices to distinct elements, and along some dimension each access starts
  at ``a * iv + b`` (``a`` nonzero and ``b`` fixed, the same for every access) and spans
  at most ``|a| * step`` elements (e.g. the rows ``[iv, 0]`` of one row each).

Memory is told apart by allocation: each ``memref.alloc`` (seen through casts and
``ktdf.private`` resources) is its own; every other memref (a view at an address,
an argument) may alias any other of its memory space, so they count as one. Memory
allocated inside the loop is each iteration's own. What the analysis cannot follow
(an access through a memref made in the loop, a size known only at run time, an op
other than ``ktdf.data_transfer`` with effects on such memory) counts as carried.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import MemRefType, NoneAttr
from xdsl.ir import Attribute, OpResult, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.traits import MemoryReadEffect, is_side_effect_free, only_has_effect
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from ktc.dialects.ktdf import DYNAMIC_INDEX, DataTransferOp, FifoSlotType, PrivateOp, TokenType
from ktc.passes.utils.affine import linear
from ktc.passes.utils.ir import defined_inside
from ktc.passes.utils.transfers import memory_root
from ktc.passes.utils.values import affine_value

Position = tuple[int, int, frozenset[tuple[SSAValue, int]]]
"""Where an access starts along one dimension: ``a * iv + constant + sum(c * v)``
as ``(a, constant, {(v, c)})`` over values ``v`` fixed in the loop."""


@dataclass(frozen=True)
class _Access:
    """One read or write of memory made outside the loop."""

    value: SSAValue
    """The memref the access goes through."""
    writes: bool
    starts: tuple[Position | None, ...] | None
    """Per dimension, where the access starts (None where it varies otherwise than
    with the loop's index); None when not known at all."""
    sizes: tuple[int, ...] = ()
    """Per dimension, the extent (``DYNAMIC_INDEX`` where known only at run time)."""


def carried(loop: scf.ForOp) -> str | None:
    """Why an iteration of ``loop`` may depend on another; None when none can."""
    if loop.iter_args:
        return "the loop carries iter_args"
    accesses: dict[object, list[_Access]] = {}
    for op in loop.body.walk():
        if reason := _opaque(op, loop):
            return reason
        for access in _accesses(op, loop):
            accesses.setdefault(_memory(access.value), []).append(access)
    step = const_evaluate_operand(loop.step)
    for group in accesses.values():
        if any(access.writes for access in group) and not _disjoint(group, step):
            name = group[0].value.name_hint or "memory"
            return f"%{name} is written in one iteration and read or written in another"
    return None


def _opaque(op: Operation, loop: scf.ForOp) -> str | None:
    """Why ``op`` may order the iterations otherwise than through memory."""
    if isinstance(op, func.CallOp):
        return f"the loop calls @{op.callee.string_value()}"
    if any(isinstance(value.type, FifoSlotType | TokenType) and not defined_inside(value, loop)
           for value in op.operands):
        return "the loop uses a FIFO slot or a token made outside it"
    return None


def _accesses(op: Operation, loop: scf.ForOp) -> Iterator[_Access]:
    """The accesses ``op`` makes to memory made outside ``loop``."""
    if isinstance(op, DataTransferOp):
        for side, writes in ((op.source_side, False), (op.dest_side, True)):
            if isinstance(side.value.type, MemRefType) and _outside(side.value, loop):
                known = side.access is not None and _known_through(side.value, loop)
                starts = _starts(side.access.data, side.indices, loop) if known else None
                yield _Access(side.value, writes, starts, tuple(side.sizes))
        return
    if is_side_effect_free(op):
        return  # a view: what goes through it is an access of its own
    for value in op.operands:
        if isinstance(value.type, MemRefType) and _outside(value, loop):
            yield _Access(value, not only_has_effect(op, MemoryReadEffect), None)


def _outside(value: SSAValue, loop: scf.ForOp) -> bool:
    """Whether the memory ``value`` is a view of was made outside ``loop``."""
    return not defined_inside(_storage(value), loop)


def _storage(value: SSAValue) -> SSAValue:
    """The memref ``value`` views, through casts and ``ktdf.private`` resources."""
    value = memory_root(value)
    while isinstance(value, OpResult) and isinstance(private := value.owner, PrivateOp):
        terminator = private.body.block.last_op
        assert terminator is not None
        value = memory_root(terminator.operands[value.index])
    return value


def _memory(value: SSAValue) -> object:
    """What ``value``'s accesses may alias: its allocation, or its memory space."""
    storage = _storage(value)
    if isinstance(storage.owner, memref.AllocOp):
        return storage
    value_type = storage.type
    assert isinstance(value_type, MemRefType)
    return ("memory space", value_type.memory_space)


def _known_through(value: SSAValue, loop: scf.ForOp) -> bool:
    """Whether accesses through ``value`` can be compared by their indices: it is made
    outside ``loop`` and no two of its indices name the same element."""
    return not defined_inside(value, loop) and _non_overlapping(value.type)


def _non_overlapping(value_type: Attribute) -> bool:
    """Whether the layout of ``value_type`` maps distinct indices to distinct elements:
    the identity, or strides each at least the span of the dimensions inside it."""
    assert isinstance(value_type, MemRefType)
    if isinstance(value_type.layout, NoneAttr):
        return True
    strides = value_type.get_strides()
    shape = value_type.get_shape()
    if strides is None or any(s is None for s in strides) or any(n < 0 for n in shape):
        return False
    dims = sorted((stride, size) for stride, size in zip(strides, shape) if size > 1)
    return all(outer[0] >= inner[0] * inner[1] for inner, outer in zip(dims, dims[1:]))


def _starts(access: AffineMap, indices: Sequence[SSAValue], loop: scf.ForOp) -> tuple[Position | None, ...]:
    """Per result of the map ``access`` over ``indices``, where it starts."""
    return tuple(_position(result, indices, loop) for result in access.results)


def _position(expr: AffineExpr, indices: Sequence[SSAValue], loop: scf.ForOp) -> Position | None:
    """``expr`` over ``indices`` as a ``Position``; None where a value that changes in
    the loop other than its index takes part."""
    terms = linear(expr)
    if terms is None:
        return None
    coefficients, rest = terms
    iv = loop.body.block.args[0]
    scale, constant, fixed = 0, affine_value(rest, [], []), {}
    for dim, coefficient in coefficients.items():
        index = indices[dim]
        if index is iv:
            scale += coefficient
        elif (value := const_evaluate_operand(index)) is not None:
            constant += coefficient * value
        elif not defined_inside(index, loop):
            fixed[index] = fixed.get(index, 0) + coefficient
        else:
            return None
    return scale, constant, frozenset((v, c) for v, c in fixed.items() if c)


def _disjoint(group: Sequence[_Access], step: int | None) -> bool:
    """Whether no two iterations touch a common element of the accesses ``group``."""
    if step is None or step < 1 or any(access.starts is None for access in group):
        return False
    if len({access.value for access in group}) != 1:
        return False
    rank = len(group[0].sizes)
    return any(_disjoint_along(group, dim, step) for dim in range(rank))


def _disjoint_along(group: Sequence[_Access], dim: int, step: int) -> bool:
    """Whether every access of ``group`` starts at one ``a * iv + b`` along ``dim``
    (``a`` nonzero) and spans at most ``|a| * step`` elements there."""
    starts = {access.starts[dim] for access in group}
    if len(starts) != 1 or (start := starts.pop()) is None or start[0] == 0:
        return False
    span = abs(start[0]) * step
    return all(access.sizes[dim] != DYNAMIC_INDEX and access.sizes[dim] <= span
               for access in group)
