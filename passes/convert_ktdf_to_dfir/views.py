"""Memory views for ``convert-ktdf-to-dfir``: the memory, byte address, strides and
element type behind a transfer or compute operand, and the ``dfir.view`` of the block
an op moves."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FixedBitwidthType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue

from ktc.dialects import ktdf
from ktc.dialects.dfir import LoadIndexOp, ViewOp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import BufferPhaseOp, SelectMemrefOp
from ktc.dialects.ktdp import ConstructMemoryViewOp
from ktc.passes.convert_ktdf_to_dfir.plan import WAVE, per_core, phase_loops, through_private
from ktc.passes.convert_ktdf_to_dfir.program import Program
from ktc.passes.convert_ktdf_to_dfir.values import ARG, Index, is_scalar, roots
from ktc.passes.utils.affine import box_bounds
from ktc.passes.utils.values import evaluate

DYNAMIC = DYNAMIC_INDEX
"""xDSL's dynamic size and offset marker (INT64_MIN)."""


class Views:
    """The views one program makes of memory."""

    def __init__(self, program: Program):
        self.p = program

    def whole(self, value: SSAValue, user: Operation) -> SSAValue:
        """A one-dimensional view of every element of a contiguous buffer."""
        memory, base, strides, element = self.root(value, user)
        shape = list(value.type.get_shape())
        if DYNAMIC in shape or _block_layout(shape, strides)[1] != row_major(_block_layout(shape, strides)[0]):
            raise KtcError("a compute operand in a buffer that is not static and contiguous", where(user))
        view_type = MemRefType(element, [prod(shape)])
        return self.p.emit(ViewOp.build(operands=[self.memory_unit(memory), self.p.arith.ssa(base), []],
                                        result_types=[view_type])).results[0]

    def index(self, op: memref.LoadOp) -> SSAValue:
        """An index of an indirect access read from its scratchpad buffer."""
        memory, base, _, element = self.root(op.memref, op)
        view_type = MemRefType(element, list(op.memref.type.get_shape()))
        view = self.p.emit(ViewOp.build(operands=[self.memory_unit(memory), self.p.arith.ssa(base), []],
                                        result_types=[view_type])).results[0]
        indices = [self.p.ssa(index) for index in op.indices]
        return self.p.emit(LoadIndexOp.build(operands=[view, indices],
                                             result_types=[element])).results[0]

    def block(self, side) -> tuple[list[Index], list[int]] | None:
        """The shape and strides of the block ``side`` moves, unit dimensions dropped,
        from its memref's type; None when its sizes or the type's strides are not
        constants."""
        strides = side.value.type.get_strides()
        if strides is None or None in strides or DYNAMIC in side.sizes:
            return None
        return _block_layout(list(side.sizes), list(strides))

    def launch_strided(self, side) -> int:
        """How many leading dimensions of the block ``side`` moves (unit dimensions
        dropped) reach out to the last one whose stride is known only at launch."""
        layout = side.value.type.layout if isinstance(side.value.type, MemRefType) else None
        if not isinstance(layout, StridedLayoutAttr):
            return 0
        strides = layout.get_strides()
        kept = [stride for size, stride in zip(side.sizes, strides) if size != 1]
        return max((k + 1 for k, stride in enumerate(kept) if stride is None), default=0)

    def view(self, side, contiguous: bool, user: Operation, unit: SSAValue | None = None,
             valid: list[Index] | None = None, shape_as: list[int] | None = None,
             piece: Sequence[Index] = (), broadcast: Sequence[Index] | None = None) -> SSAValue:
        """A view of the block a transfer side moves: the block's shape (unit
        dimensions dropped) with the memory's strides, or one row of its elements when
        ``contiguous`` (an error if they are not); ``valid`` replaces that shape (the
        part of a masked block inside its view's set, from ``valid``). A size the
        program computes (the rows of a partial last tile) is a dynamic dimension of
        the view. With ``shape_as``, the block in that shape (``reshaped``). With
        ``piece``, only the part of the block at those positions of its leading
        dimensions (one DMA per such part, for dimensions whose strides come at launch).
        With ``broadcast``, the block's one element seen in that shape, every stride 0
        (the source of a splat copy)."""
        memory, base, strides, element = self.root(side.value, user)
        a = self.p.arith
        address = a.add(base, a.mul(self._offset(side, strides), _element_bytes(element)))
        shape, layout = _block_layout(self._sizes(side), strides)
        if shape_as is not None:
            shape, layout = shape_as, reshaped(shape, layout, shape_as)
        if piece:
            start: Index = 0
            for position, stride in zip(piece, layout):
                start = a.add(start, a.mul(position, stride))
            address = a.add(address, a.mul(start, _element_bytes(element)))
            shape, layout = shape[len(piece):] or [1], layout[len(piece):] or [1]
        if contiguous and layout != row_major(shape):
            raise KtcError("a FIFO transfer moves a block that is not contiguous in memory", where(user))
        if contiguous:
            total: Index = 1
            for size in shape:
                total = a.mul(total, size)
            shape, layout = [total], [1]
        shape = valid if valid is not None else shape
        if broadcast is not None:
            shape, layout = list(broadcast), [0] * len(broadcast)
        if not all(isinstance(stride, int) for stride in layout):
            raise KtcError("a DMA of a block spanning a dimension whose stride is known only "
                           "at launch is not lowered (a descriptor's strides are constants)", where(user))
        layout_attr = NoneAttr() if layout == row_major(shape) else StridedLayoutAttr(layout, 0)
        view_type = MemRefType(element, [size if isinstance(size, int) else DYNAMIC for size in shape],
                               layout_attr)
        dynamic_sizes = [size for size in shape if not isinstance(size, int)]
        unit = unit if unit is not None else self.memory_unit(memory)
        return self.p.emit(ViewOp.build(operands=[unit, a.ssa(address), dynamic_sizes],
                                        result_types=[view_type])).results[0]

    def valid(self, side, user: Operation, contiguous: bool = False) -> list[Index] | None:
        """The part of the block ``side`` moves that lies in its memory view's
        coordinate set, as the sizes of the block's shape in ``view`` (unit dimensions
        dropped; one outside the set makes the first size 0; with ``contiguous``,
        one row), when the view is
        ``ktdf.masked``; None otherwise. The start of the tile the block lies in (the
        offset of the casts of the view) is split into the view's coordinates by the
        view's strides, largest first, and the block's position in the tile added to
        the dimension of its stride (a block may start past the end of the view's row:
        it then lies outside the box, not in the next row); each dimension of the block
        is the view's dimension of the same stride, clamped to ``n_j - start_j``."""
        value, cast_offset = self._in_view(side.value)
        view = value.owner
        if not isinstance(view, ConstructMemoryViewOp) or not ktdf.masked(view):
            return None
        a = self.p.arith
        strides = _stride_keys(through_private(side.value).owner)
        view_strides = _stride_keys(view)
        within = self._positions(side)
        if not set(strides) <= set(view_strides) or len(set(view_strides)) < len(view_strides):
            cast_offset, within = a.add(cast_offset, self._offset(side, self._values(strides))), []
        rest = cast_offset
        sizes = [self.p.value(size) for size in view.sizes]
        left: dict[int, Index] = {}
        for dim in _largest_first(view_strides):
            start = a.div(rest, self._values([view_strides[dim]])[0])
            rest = a.rem(rest, self._values([view_strides[dim]])[0])
            for position, stride in zip(within, strides):
                if stride == view_strides[dim]:
                    start = a.add(start, position)
            bound = a.affine(box_bounds(view.coordinate_set.data)[dim], [], sizes)
            left[dim] = a.max(a.sub(bound, start), 0)
        shape, layout = _block_layout(self._sizes(side), strides)
        spanned = [view_strides.index(stride) if stride in view_strides else None for stride in layout]
        if None in spanned or len(set(spanned)) < len(spanned):
            if shape != [1]:
                raise KtcError("a masked transfer whose block does not follow the dimensions of "
                               "its memory view", where(user))
            spanned = []
        valid = [a.min(left[dim], size) for dim, size in zip(spanned, shape)] or [1]
        for dim in left.keys() - set(spanned):
            valid[0] = a.mul(valid[0], a.min(left[dim], 1))
        if contiguous and len(valid) > 1:
            raise KtcError("a masked transfer of several rows into a block of another shape "
                           "is not lowered", where(user))
        return valid

    def _values(self, strides: Sequence[int | SSAValue]) -> list[Index]:
        """Strides as program values (a stride known at launch read from its value)."""
        return [stride if isinstance(stride, int) else self.p.value(stride) for stride in strides]

    def _in_view(self, value: SSAValue) -> tuple[SSAValue, Index]:
        """The value behind ``value``'s casts and the element offset they add."""
        offset: Index = 0
        value = through_private(value)
        while isinstance(value.owner, memref.ReinterpretCastOp):
            cast = value.owner
            static = cast.static_offsets.get_values()[0]
            offset = self.p.arith.add(offset, self.p.value(cast.offsets[0]) if static == DYNAMIC else static)
            value = through_private(cast.source)
        return value, offset

    def _positions(self, side) -> list[Index]:
        """The block's first position along each dimension of ``side.value``."""
        return [self.p.arith.affine(expr, [self.p.value(i) for i in side.indices], [])
                for expr in side.access.data.results]

    def _offset(self, side, strides: Sequence[int]) -> Index:
        """The block's first element, in elements from the start of ``side.value``."""
        a = self.p.arith
        offset: Index = 0
        for start, stride in zip(self._positions(side), strides):
            offset = a.add(offset, a.mul(start, stride))
        return offset

    def _sizes(self, side) -> list[Index]:
        dynamic = iter(side.dynamic_sizes)
        return [self.p.value(next(dynamic)) if size == DYNAMIC else size for size in side.sizes]

    def memory_unit(self, kind: str) -> SSAValue:
        device = self.p.df.device
        if not per_core(device, kind):
            return self.p.df.unit(kind, None, None)
        return self.p.peer(kind)

    def root(self, value: SSAValue, user: Operation) -> tuple[str, Index, list[int], Attribute]:
        """(memory kind, byte address of element 0, element strides, element type)."""
        value = through_private(value)
        op = value.owner
        if isinstance(op, memref.MemorySpaceCastOp):
            return self.root(op.source, user)
        if isinstance(op, memref.ReinterpretCastOp):
            memory, base, _, element = self.root(op.source, user)
            strides = self._values(_stride_keys(op))
            offsets = list(op.static_offsets.get_values())
            offset = self.p.value(op.offsets[0]) if offsets[0] == DYNAMIC else offsets[0]
            return memory, self.p.arith.add(base, self.p.arith.mul(offset, _element_bytes(element))), strides, element
        if isinstance(op, ConstructMemoryViewOp):
            element = value.type.element_type
            strides = self._values(_stride_keys(op))
            memory = self._memory_kind(value.type, op)
            return memory, self._scaled(op.offset, _element_bytes(element)), strides, element
        if isinstance(op, memref.AllocOp):
            return (self._memory_kind(value.type, op), _address(op), row_major(_static_shape(op)),
                    value.type.element_type)
        if isinstance(op, SelectMemrefOp):
            return self._selected(op, user)
        raise KtcError(f"cannot find the memory behind a transfer operand ('{getattr(op, 'name', 'argument')}')",
                       where(user))

    def _scaled(self, value: SSAValue, scale: int) -> Index:
        """``value * scale``; the host computes it when it depends on arguments only."""
        if roots(value, self.p.df.roots) <= {ARG} and is_scalar(value) and evaluate(value, []) is None:
            return self.p.df.symbol(value, scale)
        return self.p.arith.mul(self.p.value(value), scale)

    def _selected(self, op: SelectMemrefOp, user: Operation) -> tuple[str, Index, list[int], Attribute]:
        """Double buffering: the address of the copy the current phase uses."""
        candidates = [self.root(candidate, user) for candidate in op.candidates]
        addresses = [candidate[1] for candidate in candidates]
        phase = self._phase(op.phase)
        memory, _, strides, element = candidates[0]
        if isinstance(phase, int):
            return memory, addresses[phase], strides, element
        a = self.p.arith
        address: Index = addresses[-1]
        for index in reversed(range(len(addresses) - 1)):
            chosen = a.compare("eq", phase, index)
            address = self.p.emit(arith.SelectOp(chosen, a.ssa(addresses[index]), a.ssa(address))).results[0]
        return memory, address, strides, element

    def _phase(self, phase: SSAValue) -> Index:
        op = phase.owner
        if not isinstance(op, BufferPhaseOp):
            return self.p.value(phase)
        waves = [WAVE] if self.p.df.waves > 1 else []
        return self.p.arith.rem(self.p.linear(waves + phase_loops(op))[0], op.num_phases.value.data)

    def _memory_kind(self, memref_type: MemRefType, op: Operation) -> str:
        memory = self.p.df.device.memory_of(memref_type, where(op))
        if memory is None:
            raise KtcError("a memref without a memory space", where(op))
        return memory.kind


def _element_bytes(element: Attribute) -> int:
    """The bytes of one element: its type's bit width (``!spyreop.df16`` is a 16-bit
    type), whole bytes only."""
    if not isinstance(element, FixedBitwidthType) or element.bitwidth % 8:
        raise KtcError(f"elements of {element} are not whole bytes")
    return element.bitwidth // 8


def row_major(shape: Sequence[Index]) -> list[int] | None:
    """The strides of a contiguous block of ``shape``; None when a dimension inside
    the outermost is dynamic (its strides are not constants)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        if not isinstance(size, int):
            return strides if len(strides) == len(shape) else None
        step *= size
    return strides


def _static_shape(op: memref.AllocOp) -> list[int]:
    """The buffer's shape, its dynamic sizes evaluated (they must be constants)."""
    dynamic = iter(evaluate(size, []) for size in op.dynamic_sizes)
    shape = [next(dynamic) if size == DYNAMIC else size for size in op.memref.type.get_shape()]
    if None in shape:
        raise KtcError("a scratchpad buffer whose size is not a constant", where(op))
    return shape


def _address(op: memref.AllocOp) -> int:
    offset = ktdf.address(op)
    if offset is None:
        raise KtcError(f"buffer has no '{ktdf.ADDRESS}' (run address-assignment first)", where(op))
    return offset


def _block_layout(sizes: list[Index], strides: list[int]) -> tuple[list[Index], list[int]]:
    """The block's shape and strides without its unit dimensions (at least one left)."""
    kept = [(size, stride) for size, stride in zip(sizes, strides) if size != 1]
    if not kept:
        return [1], [1]
    return [size for size, _ in kept], [stride for _, stride in kept]


def reshaped(shape: Sequence[Index], strides: Sequence[int], target: Sequence[int]) -> list[int] | None:
    """The strides of the block of ``shape`` and ``strides`` seen in the shape
    ``target`` (the same elements in the same order), when each run of dimensions
    merged into one is contiguous; None otherwise (or for a dynamic size)."""
    if not all(isinstance(size, int) for size in shape) or prod(shape) != prod(target):
        return None
    result = [0] * len(target)
    old, new = 0, 0
    while old < len(shape) and new < len(target):
        old_end, new_end = old + 1, new + 1
        old_size, new_size = shape[old], target[new]
        while old_size != new_size:
            if new_size < old_size:
                new_size *= target[new_end]
                new_end += 1
            else:
                old_size *= shape[old_end]
                old_end += 1
        if any(strides[k] != shape[k + 1] * strides[k + 1] for k in range(old, old_end - 1)):
            return None
        result[new_end - 1] = strides[old_end - 1]
        for k in range(new_end - 1, new, -1):
            result[k - 1] = result[k] * target[k]
        old, new = old_end, new_end
    return result


def _stride_keys(op: Operation) -> list[int | SSAValue]:
    """The strides of a view or cast: constants, or the IR values of those known only
    at launch (the same value in a view and the casts of it)."""
    dynamic = iter(op.strides)
    return [next(dynamic) if stride == DYNAMIC else stride for stride in op.static_strides.get_values()]


def _largest_first(strides: Sequence[int | SSAValue]) -> list[int]:
    """The dimensions from the largest stride to the smallest: by value when all are
    constants; else in their order, outermost first (the launch checks that strides
    known only then make the view's dimensions nest so)."""
    if all(isinstance(stride, int) for stride in strides):
        return sorted(range(len(strides)), key=lambda d: -strides[d])
    return list(range(len(strides)))
