"""``lower-ktdp-views``: memory views typed with their device memory, and every
access tile a load or store uses rebased onto a strided view of its memory, so that
a transfer can name the memory it moves."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    StringAttr,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdp
from ktc.dialects.ktdf import masked, set_masked
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.upstream import ApplyOp
from ktc.passes.analysis.ranges import Ranges, tile_inside
from ktc.passes.utils.phases import programs
from ktc.passes.utils.tiles import at_origin, origin
from ktc.passes.utils.views import type_with_memory


@dataclass(frozen=True)
class LowerKtdpViews(ModulePass):
    """Give the tiles of every program's loads and stores a strided view of their memory.

    Expects programs (``func.func``s that store) whose loads and stores use
    ``ktdp.construct_access_tile``s of a ``ktdp.construct_memory_view`` (strides
    constants or values known at launch) or of a ``memref.alloc`` typed with a device memory kind (a scratchpad
    buffer), in the identity order; a device declaration.

    Produces: each memory view such a tile indexes typed with the device memory kind
    its KTIR memory space maps to (``memref<96x64xf16, "DDR">``); each tile of part of
    a view or buffer rebased onto a ``memref.reinterpret_cast`` of it at the tile's
    offset (an ``affine.apply`` of the tile's start over the view's strides, row-major
    for a buffer; with strides known at launch, the start's coordinates times the
    stride values in ``arith``, and the cast's strides those values; the cast named like
    the tile, its offset ``<tile>_offset``): the tile
    now starts at the origin of the cast, with the same coordinate set. A tile of a
    whole buffer from its origin is its own view. Tiles already at the origin of a cast
    are left alone, so running the pass again changes nothing; so are tiles of a
    dynamic shape (the compute stage works on static shapes, and ``tile-to-simd-width``
    says so at the generic). Other tiles (a tile of a value that is no memory view,
    another order) are errors at the op at fault; indirect tiles are
    gone (``indirect-access-lowering``).
    """

    name = "lower-ktdp-views"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        accesses = [
            inner for program in programs(op) for inner in program.walk()
            if isinstance(inner, ktdp.LoadOp | ktdp.StoreOp)
        ]
        if accesses:
            device, ranges = device_of(op), Ranges(op)
            for access in accesses:
                _lower(_tile_of(access), device, ranges)


def _tile_of(op: ktdp.LoadOp | ktdp.StoreOp) -> ktdp.ConstructAccessTileOp:
    tile = op.access_tile.owner
    if not isinstance(tile, ktdp.ConstructAccessTileOp):
        raise KtcError(
            f"the tile comes from {_producer(op.access_tile)}; the pipeline takes "
            "tiles of 'ktdp.construct_access_tile'",
            where(op),
        )
    return tile


def _producer(value: SSAValue) -> str:
    owner = value.owner
    return f"'{owner.name}'" if isinstance(owner, Operation) else "a block argument"


def _lower(tile: ktdp.ConstructAccessTileOp, device: Device, ranges: Ranges) -> None:
    """Rebase ``tile`` onto a strided view of what it indexes, unless it is one."""
    base = tile.base
    view = base.owner
    if not tile.result.type.has_static_shape():
        return
    if isinstance(view, memref.ReinterpretCastOp) and at_origin(tile):
        return
    if isinstance(view, memref.AllocOp) and isinstance(base.type.memory_space, StringAttr):
        if tuple(tile.result.type.get_shape()) == tuple(base.type.get_shape()) and at_origin(tile):
            return
        _rebase(tile, _reinterpret(tile, base, _row_major_strides(base.type.get_shape())))
        return
    if not isinstance(view, ktdp.ConstructMemoryViewOp):
        raise KtcError(
            f"the access tile indexes a value of {_producer(base)}; the pipeline needs "
            "a 'ktdp.construct_memory_view' to know its memory",
            where(tile),
        )
    type_with_memory(view, device)
    order = tile.access_tile_order.data
    if order != AffineMap.identity(order.num_dims):
        raise KtcError(
            f"access tile order {order} is not the identity; the pipeline reads tiles "
            "in the order they lie in memory",
            where(tile),
        )
    if not masked(view) and not tile_inside(tile, view, ranges):
        set_masked(view)
    _rebase(tile, _reinterpret(tile, view.result, _strides(view)))


def _row_major_strides(shape: Sequence[int]) -> list[int]:
    return [math.prod(shape[j + 1 :]) for j in range(len(shape))]


def _strides(view: ktdp.ConstructMemoryViewOp) -> list[int | SSAValue]:
    """The view's strides: constants, or the values given for the dynamic ones."""
    dynamic = iter(view.strides)
    return [next(dynamic) if stride == DYNAMIC_INDEX else stride
            for stride in view.static_strides.get_values()]


def _reinterpret(
    tile: ktdp.ConstructAccessTileOp, base: SSAValue, strides: Sequence[int | SSAValue]
) -> SSAValue:
    """``memref.reinterpret_cast`` of ``base`` (with ``strides``, constants or values
    known at launch) to ``tile`` at its offset, inserted before ``tile``."""
    ops, offset = _offset(tile, strides)
    shape = tile.result.type.get_shape()
    layout = [stride if isinstance(stride, int) else None for stride in strides]
    strided_type = MemRefType(
        base.type.get_element_type(), shape, StridedLayoutAttr(layout, None), base.type.memory_space
    )
    cast = memref.ReinterpretCastOp.from_dynamic(base, [offset], shape, list(strides), strided_type)
    if tile.result.name_hint:
        offset.name_hint = f"{tile.result.name_hint}_offset"
        cast.result.name_hint = tile.result.name_hint
    Rewriter.insert_op([*ops, cast], InsertPoint.before(tile))
    return cast.result


def _offset(tile: ktdp.ConstructAccessTileOp,
            strides: Sequence[int | SSAValue]) -> tuple[list[Operation], SSAValue]:
    """The ops computing the tile's start in elements of its view: one ``affine.apply``
    over constant strides; with strides known only at launch, the start's coordinates
    (``affine.apply`` each) times the strides, summed with ``arith``."""
    base_map = tile.base_map.data
    if all(isinstance(stride, int) for stride in strides):
        start = sum((stride * expr for stride, expr in zip(strides, base_map.results)),
                    AffineExpr.constant(0))
        apply = ApplyOp(list(tile.indices),
                        AffineMapAttr(AffineMap(base_map.num_dims, base_map.num_symbols, (start,))))
        return [apply], apply.result
    ops: list[Operation] = []
    total: SSAValue | None = None
    for stride, expr in zip(strides, base_map.results):
        coordinate = ApplyOp(list(tile.indices),
                             AffineMapAttr(AffineMap(base_map.num_dims, base_map.num_symbols, (expr,))))
        ops.append(coordinate)
        term = coordinate.result
        if stride != 1:
            factor = stride if isinstance(stride, SSAValue) else _constant(stride, ops)
            ops.append(arith.MuliOp(term, factor))
            term = ops[-1].results[0]
        if total is not None:
            ops.append(arith.AddiOp(total, term))
            term = ops[-1].results[0]
        total = term
    return ops, total


def _constant(value: int, ops: list[Operation]) -> SSAValue:
    ops.append(arith.ConstantOp(IntegerAttr(value, IndexType())))
    return ops[-1].results[0]


def _rebase(tile: ktdp.ConstructAccessTileOp, view: SSAValue) -> None:
    """Replace ``tile`` by the same coordinate set at the origin of ``view``."""
    rebased = ktdp.ConstructAccessTileOp.build(
        operands=[view, [], list(tile.symbol_operands)],
        result_types=[tile.result.type],
        properties={
            "base_map": AffineMapAttr(origin(tile.result.type.get_num_dims())),
            "access_tile_set": tile.access_tile_set,
            "access_tile_order": tile.access_tile_order,
        },
    )
    rebased.location = tile.location
    Rewriter.replace_op(tile, rebased)
