"""Where buffers go in memory, as ``address-assignment`` places them and
``tile-size-selection`` lays them out for each candidate tile size.

Lifetimes are counted in *steps*: the ops directly in a function's body, which run
one after another. Everything inside one step (a loop, a pipeline, a parallel
region) may run at once, so a buffer lives from the step of its first use to the
step of its last, following it through ``ktdf.private`` results and ops that
return another view of it (``ktdf.select_memref``, casts). Buffers whose steps do
not overlap share space (``layout``); a scratchpad starts empty in every program,
device memory is laid out once for the whole module.

Index expressions are valued for given tile sizes: ``exact`` where they are known,
``bound`` where only a largest value is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FixedBitwidthType,
    IndexType,
    IntegerAttr,
    MemRefType,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from ktc.arch.model import Device, MemoryKind
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import (
    DeriveSizeOp,
    ParallelOp,
    PipelineOp,
    PrivateOp,
    PrivateYieldOp,
    ReserveSizeOp,
)
from ktc.dialects.ktdp import ConstructMemoryViewOp, GetComputeTileIdOp, grid_of
from ktc.passes.analysis.ranges import Ranges
from ktc.passes.utils.ir import calls_by_callee, enclosing_function


Sizes = Mapping[ReserveSizeOp, int]
"""A value for some ``ktdf.tiling.reserve_size`` ops."""


# ---------------------------------------------------------------------------------
# Values of index expressions
# ---------------------------------------------------------------------------------


def exact(value: SSAValue, sizes: Sizes) -> int | None:
    """The integer an index expression always equals (constants, chosen tile sizes
    and arithmetic over them), or None."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    if isinstance(op, ReserveSizeOp):
        return sizes.get(op)
    if isinstance(op, arith.AddiOp | arith.MuliOp | arith.CeilDivUIOp | arith.DivUIOp):
        lhs, rhs = exact(op.lhs, sizes), exact(op.rhs, sizes)
        return None if lhs is None or rhs is None else _apply(op, lhs, rhs)
    return None


def bound(value: SSAValue, sizes: Sizes) -> int | None:
    """The largest value an index expression can take, or None if unbounded (as
    far as this analysis sees): constants, tile sizes, loop indices (below their
    upper bound), an argument of a program called once (the bound of what its
    caller passes: a trip count the orchestrator computes from the tile id),
    ``derive_size`` (at most its tile), and sums, products, quotients and minima of
    bounded values, and differences of a bounded value and one with a least value
    (a constant, the tile id)."""
    known = exact(value, sizes)
    if known is not None:
        return known
    op = value.owner
    if isinstance(value, BlockArgument) and isinstance(value.block.parent_op(), FuncOp):
        passed = _passed(value)
        return None if passed is None else bound(passed, sizes)
    if isinstance(value, BlockArgument):
        return _index_bound(value, sizes)
    if isinstance(op, arith.SubiOp):
        lhs, rhs = bound(op.lhs, sizes), _least(op.rhs, sizes)
        return None if lhs is None or rhs is None else lhs - rhs
    if isinstance(op, DeriveSizeOp):
        return _smallest([bound(op.tile_sizes[-1], sizes), bound(op.total_size, sizes)])
    if isinstance(op, arith.MinUIOp | arith.MinSIOp):
        return _smallest([bound(op.lhs, sizes), bound(op.rhs, sizes)])
    if isinstance(op, arith.AddiOp | arith.MuliOp):
        lhs, rhs = bound(op.lhs, sizes), bound(op.rhs, sizes)
        return None if lhs is None or rhs is None else _apply(op, lhs, rhs)
    if isinstance(op, arith.CeilDivUIOp | arith.CeilDivSIOp | arith.DivUIOp):
        lhs, rhs = bound(op.lhs, sizes), exact(op.rhs, sizes)
        return None if lhs is None or not rhs else _apply(op, lhs, rhs)
    return None


def _least(value: SSAValue, sizes: Sizes) -> int | None:
    """The smallest value an index expression can take: a known value, or 0 for
    the tile id."""
    if isinstance(value.owner, GetComputeTileIdOp):
        return 0
    return exact(value, sizes)


_Calls = dict[str, list[tuple[Operation, CallOp]]]
"""A module's calls by callee name, each with the op of the module's body holding it."""

_CALL_INDEX: ContextVar[dict[int, _Calls] | None] = ContextVar("ktc_call_index", default=None)
"""Inside ``calls_indexed``: per module (by identity), its calls."""


@contextmanager
def calls_indexed() -> Iterator[None]:
    """Within it, ``bound`` finds the call of a program's function in one index of the
    module's calls, built at its first lookup, instead of walking the module for every
    argument it bounds: for a pass that asks many bounds of IR that does not change
    meanwhile (``tile-size-selection``'s cost model, once per candidate size)."""
    token = _CALL_INDEX.set({})
    try:
        yield
    finally:
        _CALL_INDEX.reset(token)


def _passed(arg: BlockArgument) -> SSAValue | None:
    """What the only call of the function ``arg`` belongs to passes for it, found
    outside the function's own module (in the kernel that calls its programs);
    None when it is called otherwise."""
    func = arg.block.parent_op()
    own = func.parent_op()
    top = own.parent_op() if own is not None else None
    if top is None:
        return None
    calls = [call for holder, call in _calls(top).get(func.sym_name.data, []) if holder is not own]
    return calls[0].arguments[arg.index] if len(calls) == 1 else None


def _calls(top: Operation) -> _Calls:
    """``top``'s calls, from the index of ``calls_indexed`` when inside it."""
    index = _CALL_INDEX.get()
    if index is not None and id(top) in index:
        return index[id(top)]
    calls: _Calls = {}
    for holder in top.regions[0].block.ops:
        for name, found in calls_by_callee(holder).items():
            calls.setdefault(name, []).extend((holder, call) for call in found)
    if index is not None:
        index[id(top)] = calls
    return calls


def _apply(op: Operation, lhs: int, rhs: int) -> int | None:
    if isinstance(op, arith.AddiOp):
        return lhs + rhs
    if isinstance(op, arith.MuliOp):
        return lhs * rhs
    if rhs <= 0:
        return None
    return -(-lhs // rhs) if isinstance(op, arith.CeilDivUIOp | arith.CeilDivSIOp) else lhs // rhs


def _smallest(values: Iterable[int | None]) -> int | None:
    return min((v for v in values if v is not None), default=None)


def _index_bound(arg: BlockArgument, sizes: Sizes) -> int | None:
    """An ``scf.for`` or ``ktdf.parallel`` index is below its upper bound."""
    loop = arg.block.parent_op()
    if isinstance(loop, scf.ForOp) and arg.index == 0:
        upper = bound(loop.ub, sizes)
    elif isinstance(loop, ParallelOp) and arg.index < len(loop.upper_bounds):
        upper = bound(loop.upper_bounds[arg.index], sizes)
    else:
        return None
    return None if upper is None else max(0, upper - 1)


# ---------------------------------------------------------------------------------
# Buffers
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Buffer:
    """A ``memref.alloc`` in a memory of the device, with its lifetime in steps."""

    alloc: memref.AllocOp
    memory: MemoryKind
    alignment: int
    """Bytes its address is a multiple of: what the device needs (``alignment``)
    and what the alloc asks for."""

    nbytes: int
    """One copy, unpadded; 0 until ``sized``."""

    copies: int
    """Copies that live at once: one per phase of the ``modulo`` pipeline whose
    ``ktdf.private`` allocates it, one per ``ktdf.parallel`` instance sharing its
    memory, one per grid tile for device memory; copy ``k`` =
    ``(tile * instances + instance) * phases + phase``."""

    first: int
    last: int

    def sized(self, sizes: Sizes) -> Buffer:
        """The buffer with its size, dynamic sizes at their bound for ``sizes``."""
        return replace(self, nbytes=_bytes(self.alloc, sizes))

    @property
    def stride(self) -> int:
        """Bytes from one copy to the next."""
        return -(-self.nbytes // self.alignment) * self.alignment

    @property
    def footprint(self) -> int:
        return self.copies * self.stride

    def describe(self) -> str:
        hint = self.alloc.memref.name_hint
        name = f"%{hint} " if hint else ""
        return f"{name}{self.alloc.memref.type} at {where(self.alloc)}"


def memory_of(device: Device, alloc: memref.AllocOp) -> MemoryKind | None:
    """The device memory an alloc's memory space names; None without a space."""
    try:
        return device.memory_of(alloc.memref.type)
    except KtcError as error:
        message = f"'memref.alloc' in a memory the device lacks: {error.message}"
        raise KtcError(message, where(alloc)) from None


def find_buffers(scope: Operation, device: Device) -> list[Buffer]:
    """The buffers allocated in ``scope`` (a function or the module), in program
    order, not yet ``sized``. In a function they live over their steps; in the
    module all at once."""
    body = scope.body.block if isinstance(scope, FuncOp) else None
    found = []
    for alloc in scope.walk():
        if not isinstance(alloc, memref.AllocOp):
            continue
        memory = memory_of(device, alloc)
        if memory is None:
            continue
        first, last = _lifetime(alloc, body) if body is not None else (0, 0)
        requested = alloc.alignment
        extra = requested.value.data if isinstance(requested, IntegerAttr) else 1
        align = math.lcm(device.alignment(memory.kind), extra)
        found.append(Buffer(alloc, memory, align, 0, _copies(alloc, device, memory), first, last))
    return found


def buffers(scope: Operation, device: Device, sizes: Sizes) -> list[Buffer]:
    """``find_buffers``, ``sized``."""
    return [buffer.sized(sizes) for buffer in find_buffers(scope, device)]


def _bytes(alloc: memref.AllocOp, sizes: Sizes) -> int:
    memref_type = alloc.memref.type
    assert isinstance(memref_type, MemRefType)
    dynamic = iter(alloc.dynamic_sizes)
    count = 1
    for extent in memref_type.get_shape():
        if extent >= 0:
            count *= extent
            continue
        value = next(dynamic)
        limit = bound(value, sizes)
        if limit is None:
            raise KtcError(
                f"'memref.alloc' has a dynamic size with no upper bound "
                f"({_describe(value)}); give the buffer a bounded or static size",
                where(alloc),
            )
        count *= limit
    element = memref_type.get_element_type()
    if isinstance(element, IndexType):
        return count * 8
    if not isinstance(element, FixedBitwidthType):
        raise KtcError(f"'memref.alloc' of {element} has no size in bytes", where(alloc))
    return count * element.size


def _describe(value: SSAValue) -> str:
    if isinstance(value, BlockArgument):
        name = f"%{value.name_hint}, " if value.name_hint else ""
        return f"{name}block argument #{value.index}"
    if isinstance(value.owner, ReserveSizeOp):
        return f"a tile size not chosen yet at {where(value.owner)}: run tile-size-selection first"
    return f"'{value.owner.name}' at {where(value.owner)}"


def _copies(alloc: memref.AllocOp, device: Device, memory: MemoryKind) -> int:
    copies = 1
    private = alloc.parent_op()
    if isinstance(private, PrivateOp):
        pipeline = private.parent_op()
        if isinstance(pipeline, PipelineOp) and pipeline.modulo is not None:
            copies *= pipeline.modulo.value.data
    if memory.kind == device.device_memory:
        func = enclosing_function(alloc)
        copies *= math.prod(grid_of(func)) if func is not None else 1
    shared = device.instances(memory.kind)[0].subcore is None
    parent = alloc.parent_op()
    while parent is not None and shared:
        if isinstance(parent, ParallelOp):
            copies *= parent.num_instances.value.data
        parent = parent.parent_op()
    return copies


def _lifetime(alloc: memref.AllocOp, body: Block) -> tuple[int, int]:
    """The steps of ``body`` from the first use of the buffer to its last (the alloc's
    own step for a buffer nothing uses): an alloc runs nothing, so one at the start of
    the function takes no space before the step that first uses it."""
    steps = {op: index for index, op in enumerate(body.ops)}
    used = [steps[_step(user, body)] for user in _users(alloc)] or [steps[_step(alloc, body)]]
    return min(used), max(used)


def _users(alloc: memref.AllocOp) -> list[Operation]:
    """The ops that use the buffer, directly or through the values that pass it on
    (``ktdf.private`` results, selects, casts), in no particular order."""
    found: list[Operation] = []
    pending, seen = [alloc.memref], set()
    while pending:
        value = pending.pop()
        for use in value.uses:
            found.append(use.operation)
            for alias in _aliases(use.operation, use.index):
                if alias not in seen:
                    seen.add(alias)
                    pending.append(alias)
    return found


def _step(op: Operation, body: Block) -> Operation:
    """The op of ``body`` (a step) that is or holds ``op``."""
    while op.parent_block() is not body:
        op = op.parent_op()
    return op


def _aliases(user: Operation, index: int) -> Sequence[SSAValue]:
    """Values through which a use passes the buffer on: the ``ktdf.private``
    result it is yielded as, or the memref results of the using op."""
    if isinstance(user, PrivateYieldOp):
        return [user.parent_op().results[index]]
    return [result for result in user.results if isinstance(result.type, MemRefType)]


# ---------------------------------------------------------------------------------
# Layout
# ---------------------------------------------------------------------------------


def layout(placed: Sequence[Buffer], reserved: Sequence[tuple[int, int]] = ()) -> list[tuple[Buffer, int]]:
    """First fit in program order: each buffer at the lowest aligned offset that
    no buffer it lives alongside occupies, nor a ``reserved`` range of bytes
    [start, end). Capacity is not checked."""
    result: list[tuple[Buffer, int]] = []
    for buffer in placed:
        align = buffer.alignment
        taken = sorted(list(reserved) + [
            (offset, offset + other.footprint)
            for other, offset in result
            if other.first <= buffer.last and buffer.first <= other.last
        ])
        offset = 0
        for start, end in taken:
            if offset + buffer.footprint <= start:
                break
            offset = max(offset, -(-end // align) * align)
        result.append((buffer, offset))
    return result


def high_water(placed: Sequence[tuple[Buffer, int]]) -> int:
    """Bytes from offset 0 to the end of the highest buffer."""
    return max((offset + buffer.footprint for buffer, offset in placed), default=0)


def by_memory(found: Iterable[Buffer]) -> dict[str, list[Buffer]]:
    grouped: dict[str, list[Buffer]] = {}
    for buffer in found:
        grouped.setdefault(buffer.memory.kind, []).append(buffer)
    return grouped


def program_layouts(
    found: Sequence[Buffer], device: Device, sizes: Sizes,
    reserved: Mapping[str, Sequence[tuple[int, int]]] | None = None,
) -> dict[str, list[tuple[Buffer, int]]]:
    """Per memory kind below device memory, the layout of the buffers of one
    function (a program, ``find_buffers``) for ``sizes``, clear of the ``reserved``
    bytes of each kind (``kernel_placed``)."""
    sized = (buffer.sized(sizes) for buffer in found)
    reserved = reserved or {}
    return {
        kind: layout(group, reserved.get(kind, ()))
        for kind, group in by_memory(sized).items()
        if kind != device.device_memory
    }


def kernel_placed(module: Operation, device: Device) -> dict[str, list[tuple[int, int]]]:
    """Per memory kind below device memory, the bytes [start, end) of the kernel's own
    memory views there (``#ktdp.memory_space<ct_local>`` data at the addresses the
    kernel gives, typed with their kind by ``lower-ktdp-views``), which no buffer may
    take: every value the start can take (``Ranges``), the view's largest extent."""
    ranges = Ranges(module)
    placed: dict[str, list[tuple[int, int]]] = {}
    for view in module.walk():
        if not isinstance(view, ConstructMemoryViewOp):
            continue
        memory = device.memory_of(view.result.type, where(view))
        if memory is None or memory.kind == device.device_memory:
            continue
        start = ranges.of(view.offset)
        sizes = iter(ranges.of(size) for size in view.sizes)
        extents = [size if size != DYNAMIC_INDEX else (next(sizes) or (None, None))[1]
                   for size in view.static_sizes.get_values()]
        if start is None or None in extents:
            raise KtcError("a scratchpad view whose start or sizes the compiler cannot bound; "
                           "it keeps its buffers clear of the kernel's own only where it can",
                           where(view))
        element = view.result.type.get_element_type().bitwidth // 8
        reach = [(n - 1) * stride for n, stride in zip(extents, view.static_strides.get_values()) if n > 0]
        low = start[0] + sum(min(r, 0) for r in reach)
        high = start[1] + sum(max(r, 0) for r in reach) + 1
        if high * element > memory.size:
            raise KtcError(f"the kernel's data in {memory.kind} ends at byte {high * element}, "
                           f"beyond its {memory.size} bytes on device @{device.name}", where(view))
        placed.setdefault(memory.kind, []).append((low * element, high * element))
    return placed
