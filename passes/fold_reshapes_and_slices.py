"""``fold-reshapes-and-slices``: reshapes and slices of tensors are different access
tiles of the same memory.

A row-major reshape of a tile whose elements lie in memory at strides that the new
shape can also describe is the same elements read through a view of that shape
(the strides follow from the tile's: ``_restride``); a slice of a tile is a smaller
tile at a shifted start. Between a load and a reshape or slice, elementwise compute
commutes with it (a slice of a sum is the sum of the slices), so the reshape or
slice moves up, past that compute, to the loads; a reshape of a stored tensor is a
store of the tensor through the tile reshaped the other way; a stored
``tensor.insert_slice`` is a store of the piece into its part of the tile and of
the destination's slices into the rest.
"""

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import affine, arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import BroadcastOp, GenericOp, IndexOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.dialects import ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import attr_text
from ktc.passes.analysis.ranges import Ranges
from ktc.passes.utils.affine import box, box_bounds
from ktc.passes.utils.fusion import broadcast_generic
from ktc.passes.utils.ir import erase_unused
from ktc.passes.utils.tiles import box_tile, origin

RESHAPES = ("tensor.expand_shape", "tensor.collapse_shape", "tensor.reshape", "tensor.cast")
"""Ops that give a tensor's elements, in row-major order, another static shape."""

FOLDED = frozenset({*RESHAPES, "tensor.extract_slice", "tensor.insert_slice"})
"""What this pass leaves none of."""

ELEMENTWISE_LINALG = frozenset({
    "linalg.add", "linalg.sub", "linalg.mul", "linalg.div", "linalg.max", "linalg.min",
    "linalg.exp", "linalg.sqrt", "linalg.copy", "linalg.fill",
})
"""Named linalg ops that compute each element of their result from the same element
of their operands."""


@dataclass(frozen=True)
class FoldReshapesAndSlices(ModulePass):
    """Folds every tensor reshape and slice into the access tiles of loads and stores.

    Expects KTIR after ``permute-access-tiles`` (tiles in the identity order; run
    again after ``contraction-pipeline``, whose staging of a computed A slices it):
    ``tensor.expand_shape``/``collapse_shape``/``reshape``/``cast`` to static shapes,
    ``tensor.extract_slice`` (unit strides, static sizes, offsets static or index
    values) and ``tensor.insert_slice`` (static offsets, sizes, unit strides).
    Produces the same kernels without any of them:

    - a reshape or slice of a ``ktdp.load`` is a load of another tile: a slice the
      tile at its start plus the offsets, of the slice's sizes (a rank-reducing slice
      then reshaped); a reshape a tile at the origin of a view of the new shape
      starting at the tile's first element, its strides those of the tile's elements
      (``_restride``), when the tile lies in its view's coordinate set for every value
      of its indices (``passes/analysis/ranges.py``) and is not of a distributed view;
      a reshape of an indirect tile by unit dimensions only the indirect tile with
      those intermediate variables dropped (0 in the subscripts) or added;
    - a reshape or slice of elementwise compute (``arith``/``math``/``spyreop`` on
      tensors, named elementwise ``linalg`` ops and ``linalg.fill``, ``linalg.generic``
      with identity maps and parallel iterators, ``tensor.splat``/``empty``, splat
      constants) is that compute on the reshaped or sliced operands;
    - a reshape that only drops or adds unit dimensions, read by ``linalg.generic``,
      ``linalg.broadcast`` (made a generic) or ``tensor.extract``: its source read
      through the map with those dimensions at 0, or at index 0 along them (a rank-0
      tensor of a tile otherwise computed on is refused: the compute works on rank 1
      or more);
    - a slice of a ``linalg.generic`` of one output indexed by a projected
      permutation (or of a ``linalg.broadcast``) that generic on the slices its maps
      read: the loops its output names sliced alike, the others (reduced, broadcast
      away) whole;
    - a reshape of a reshape one reshape; a reshape to the same shape, or a slice of
      the whole (of anything: a reduction's result a broadcast reads whole), its source;
      a slice of an ``insert_slice`` outside the piece a slice of the destination,
      inside it a slice of the piece;
    - a ``ktdp.store`` of a reshape a store of its source through the tile reshaped
      back; a store of an ``insert_slice`` a store of the piece through its part of
      the tile and of slices of the destination through the rest (none when the
      destination is a ``tensor.empty``, whose elements are undefined).

    A reshape of a load, or one only stored, through a tile of a memory view whose
    elements no strides of the other shape reach (not layout-preserving) is left for
    ``stage-reshaped-tiles``, which copies the tile through the scratchpad.
    Reshapes and slices of anything else (a reduction, a contraction, a loop's
    value), any other reshape that is not a different view of the tile's memory, an
    ``insert_slice`` used but by stores, are refused at the op, with the reason.
    Ops left unused are erased. A module without reshapes or slices is unchanged
    (idempotent).
    """

    name = "fold-reshapes-and-slices"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ranges = Ranges(op)
        while (target := _next(op)) is not None:
            if target.name == "tensor.insert_slice":
                _fold_insert(target, ranges)
            else:
                _fold(target, ranges)


def _next(module: ModuleOp) -> Operation | None:
    """The first reshape or slice left, else the first ``insert_slice`` (the slices
    of one are folded before it, as its destination's or piece's); reshapes left for
    ``stage-reshaped-tiles`` (``_staged``) are not folded."""
    left = [o for o in module.walk() if o.name in FOLDED and not _staged(o)]
    return next((o for o in left if o.name != "tensor.insert_slice"), left[0] if left else None)


def _fold(op: Operation, ranges: Ranges) -> None:
    """Replace the reshape or slice ``op`` by something nearer the loads or stores."""
    for use in list(op.results[0].uses):
        if isinstance(use.operation, ktdp.StoreOp) and op.name in RESHAPES:
            _store_source(use.operation, op.operands[0], ranges)
    if op.name in RESHAPES and _unit_reshape(op) and _read_through_maps(op):
        _absorb_into_maps(op)
    if not op.results[0].uses:
        erase_unused([op])
        return
    source = op.operands[0].owner
    ops, value = _replacement(op, source, ranges)
    Rewriter.insert_op(ops, InsertPoint.before(op))
    Rewriter.replace_op(op, [], [value])
    erase_unused([source])  # a load nothing reads any more, and then its tile


Built = tuple[list[Operation], SSAValue]
"""Ops to insert and the value among their results (or before them) that replaces."""


def _replacement(op: Operation, source: Operation, ranges: Ranges) -> Built:
    """The ops that compute what ``op`` does from nearer the loads, and the value in
    place of its result."""
    shape = op.results[0].type.get_shape()
    if shape == op.operands[0].type.get_shape():
        return [], op.operands[0]
    if isinstance(source, ktdp.LoadOp):
        return _load_fold(op, source, ranges)
    if op.name in RESHAPES and source.name in RESHAPES:
        return _reshaped(source.operands[0], shape)
    if op.name == "tensor.extract_slice" and source.name == "tensor.insert_slice":
        return _slice_of_insert(op, source)
    if _elementwise(source):
        return _commuted(op, source)
    if op.name == "tensor.extract_slice" and isinstance(source, BroadcastOp | GenericOp):
        return _sliced_generic(op, source)
    raise KtcError(
        f"'{op.name}' {_what(op)} the result of {_producer(op.operands[0])}; the compiler "
        "folds reshapes and slices into the access tiles of loads and stores, through "
        "elementwise compute only: move it to the load or the store",
        where(op),
    )


def _non_unit(shape) -> list[int]:
    return [n for n in shape if n != 1]


def _unit_reshape(op: Operation) -> bool:
    """Whether ``op`` only drops or adds dimensions of extent 1."""
    return _non_unit(op.operands[0].type.get_shape()) == _non_unit(op.results[0].type.get_shape())


def _read_through_maps(op: Operation) -> bool:
    """Whether every use of ``op`` is an input of a ``linalg.generic`` or
    ``linalg.broadcast`` (read through an indexing map) or a ``tensor.extract``."""
    return all(
        use.operation.name in ("linalg.broadcast", "tensor.extract") and use.index == 0
        or use.operation.name == "linalg.generic" and use.index < len(use.operation.inputs)
        for use in op.results[0].uses)


def _absorb_into_maps(op: Operation) -> None:
    """Each generic (a broadcast made one) reads ``op``'s source through its map with
    the unit dimensions ``op`` drops or adds taken at 0; each extract reads the source
    at its indices, 0 along those dimensions."""
    for use in list(op.results[0].uses):
        user = use.operation
        if isinstance(user, tensor.ExtractOp):
            _extract_source(user, op.operands[0])
            continue
        if isinstance(user, BroadcastOp):
            generic = broadcast_generic(user)
            Rewriter.replace_op(user, generic)
            user = generic
        for index, operand in enumerate(user.inputs):
            if operand is op.results[0]:
                _read_source(user, index, op.operands[0])


def _read_source(generic: GenericOp, index: int, source: SSAValue) -> None:
    """Make input ``index`` of ``generic`` ``source``, of the same elements but for
    unit dimensions: its non-unit dimensions read as the input's did, the others at 0."""
    maps = list(generic.indexing_maps.data)
    old = maps[index].data
    shape = generic.inputs[index].type.get_shape()
    kept = iter(expr for expr, n in zip(old.results, shape) if n != 1)
    results = tuple(next(kept) if n != 1 else AffineExpr.constant(0)
                    for n in source.type.get_shape())
    maps[index] = AffineMapAttr(AffineMap(old.num_dims, old.num_symbols, results))
    generic.operands[index] = source
    generic.properties["indexing_maps"] = ArrayAttr(maps)


def _extract_source(extract: tensor.ExtractOp, source: SSAValue) -> None:
    """``extract`` reading ``source`` (its operand but for unit dimensions): the
    operand's indices along its non-unit dimensions, a constant 0 along the others."""
    kept = iter(i for i, n in zip(extract.indices, extract.tensor.type.get_shape()) if n != 1)
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    indices = [next(kept) if n != 1 else zero.result for n in source.type.get_shape()]
    Rewriter.insert_op(zero, InsertPoint.before(extract))
    Rewriter.replace_op(extract, tensor.ExtractOp(source, indices, extract.result.type))
    erase_unused([zero])


def _what(op: Operation) -> str:
    return "reshapes" if op.name in RESHAPES else "slices"


def _producer(value: SSAValue) -> str:
    owner = value.owner
    return f"'{owner.name}'" if isinstance(owner, Operation) else "a block argument (a loop's value)"


def _load_fold(op: Operation, load: ktdp.LoadOp, ranges: Ranges) -> Built:
    """A load of the tile ``op`` makes of ``load``'s (a slice then reshaped to the
    slice's rank when it reduces it)."""
    tile = load.access_tile.owner
    if isinstance(tile, ktdp.ConstructIndirectAccessTileOp) and op.name in RESHAPES:
        new_tile = _reshaped_indirect(tile, op.results[0].type.get_shape(), op)
        loaded = _load(new_tile, op.results[0].type)
        return [new_tile, loaded], loaded.result
    _check_extent(tile, load.result.type, op)
    if op.name in RESHAPES:
        if not op.results[0].type.get_shape():
            raise KtcError(
                f"'{op.name}' makes a rank-0 tensor of a loaded tile that is computed on; "
                "the compiler computes on tensors of rank 1 or more: keep the unit "
                "dimensions, or read the element with tensor.extract or a broadcast",
                where(op),
            )
        ops = _reshaped_tile(tile, op.results[0].type.get_shape(), ranges, op)
        loaded = _load(ops[-1], op.results[0].type)
        return [*ops, loaded], loaded.result
    offsets, sizes = _slice_box(op)
    new_tile = _sliced_tile(tile, offsets, sizes)
    loaded = _load(new_tile, TensorType(load.result.type.get_element_type(), sizes))
    ops, value = _reshaped(loaded.result, op.results[0].type.get_shape())
    return [new_tile, loaded, *ops], value


def _load(tile: Operation, result: TensorType) -> ktdp.LoadOp:
    return ktdp.LoadOp.build(operands=[tile.results[0]], result_types=[result])


def _check_extent(tile: Operation, data: TensorType, op: Operation) -> None:
    """The tile's set must be the box of the tensor it moves."""
    bounds = box_bounds(tile.access_tile_set.data) if isinstance(tile, ktdp.ConstructAccessTileOp) else None
    extent = [b.value if isinstance(b, AffineConstantExpr) else None for b in bounds or []]
    if bounds is None or extent != list(data.get_shape()):
        raise KtcError(
            f"'{op.name}' {_what(op)} a tensor moved through a tile that is not a "
            f"ktdp.construct_access_tile whose set is the box of its {attr_text(data)}; "
            "the compiler folds reshapes and slices into such tiles",
            where(op),
        )


def _slice_box(op: Operation) -> tuple[list[AffineExpr | SSAValue], list[int]]:
    """The offsets (constants as affine constants, the rest as values) and sizes of a
    slice with unit strides and static sizes."""
    sizes, strides = op.static_sizes.get_values(), op.static_strides.get_values()
    if DYNAMIC_INDEX in sizes or any(s != 1 for s in strides):
        raise KtcError(
            f"'{op.name}' has sizes {list(sizes)} and strides {list(strides)}; the compiler "
            "folds slices of static sizes and unit strides into access tiles",
            where(op),
        )
    dynamic = iter(op.offsets)
    offsets = [next(dynamic) if n == DYNAMIC_INDEX else AffineExpr.constant(n)
               for n in op.static_offsets.get_values()]
    return offsets, list(sizes)


def _sliced_tile(tile: ktdp.ConstructAccessTileOp, offsets, sizes: list[int]) -> Operation:
    """The part of ``tile`` at ``offsets`` from its start, of ``sizes``: the start's
    expressions plus the offsets (a value offset a new dimension of the map)."""
    start = tile.base_map.data
    indices = list(tile.indices[:start.num_dims])
    symbols = list(tile.indices[start.num_dims:])
    extra = [o for o in offsets if isinstance(o, SSAValue)]
    dims = start.num_dims + len(extra)
    fresh = iter(range(start.num_dims, dims))
    results = tuple(
        expr + (AffineExpr.dimension(next(fresh)) if isinstance(o, SSAValue) else o)
        for expr, o in zip(start.results, offsets)
    )
    moved = AffineMap(dims, start.num_symbols, results)
    sliced = box_tile(tile.base, moved, [*indices, *extra, *symbols], sizes)
    sliced.location = tile.location
    return sliced


def _reshaped_tile(tile: ktdp.ConstructAccessTileOp, shape, ranges: Ranges,
                   op: Operation) -> list[Operation]:
    """A view of ``shape`` from ``tile``'s first element, strided as ``tile``'s
    elements lie, and the tile at its origin that covers it."""
    view = tile.base.owner
    if not isinstance(view, ktdp.ConstructMemoryViewOp):
        raise KtcError(
            f"'{op.name}' reshapes a tile of '{tile.base.owner.name}'; the compiler reshapes "
            "tiles of a ktdp.construct_memory_view (reshape after splitting a distributed "
            "view, or address each partition's part with its own view)",
            where(op),
        )
    old_shape = tile.result.type.get_shape()
    strides = _restride(old_shape, view.static_strides.get_values(), shape)
    if strides is None:
        raise KtcError(
            f"'{op.name}' reshapes a {'x'.join(map(str, old_shape)) or 'rank-0'} tile whose "
            f"elements lie at strides {list(view.static_strides.get_values())} into "
            f"{'x'.join(map(str, shape)) or 'rank 0'}, which no strides describe (it is not "
            "layout-preserving): reshape only dimensions that are contiguous in memory, "
            "or load the pieces with their own tiles",
            where(op),
        )
    _check_inside(tile, view, ranges, op)
    start = tile.base_map.data
    first = sum((s * e for s, e in zip(view.static_strides.get_values(), start.results)),
                AffineExpr.symbol(start.num_symbols))
    offset = affine.ApplyOp(
        [*tile.indices, view.offset],
        AffineMapAttr(AffineMap(start.num_dims, start.num_symbols + 1, (first,))),
    )
    reshaped = ktdp.ConstructMemoryViewOp.build(
        operands=[offset.result, [], []],
        result_types=[MemRefType(view.result.type.get_element_type(), shape)],
        properties={
            "static_sizes": DenseArrayBase.from_list(i64, list(shape)),
            "static_strides": DenseArrayBase.from_list(i64, strides),
            "memory_space": view.memory_space,
            "coordinate_set": AffineSetAttr(box(shape)),
        },
    )
    new_tile = box_tile(reshaped.result, origin(len(shape)), [], shape)
    for new in (offset, reshaped, new_tile):
        new.location = op.location
    return [offset, reshaped, new_tile]


def _reshaped_indirect(tile: ktdp.ConstructIndirectAccessTileOp, shape,
                       op: Operation) -> ktdp.ConstructIndirectAccessTileOp:
    """The indirect tile of ``shape``, which differs from ``tile``'s only by unit
    dimensions: one intermediate variable per dimension of ``shape``, the non-unit ones
    taking the places of the old non-unit ones in the subscripts, the old unit ones 0."""
    old = list(tile.result.type.get_shape())
    bounds = box_bounds(tile.variables_space_set.data)
    order = tile.variables_space_order.data
    if (_non_unit(old) != _non_unit(shape) or bounds is None
            or [b.value if isinstance(b, AffineConstantExpr) else None for b in bounds] != old
            or order != AffineMap.identity(len(old)) or tile.symbol_operands):
        raise KtcError(
            f"'{op.name}' reshapes an indirect tile other than by unit dimensions, or one "
            "whose variables space is not the box of its shape in the identity order; the "
            "compiler reshapes indirect tiles only by adding or dropping unit dimensions",
            where(op),
        )
    captured = len(tile.captured_variables)
    places = iter(j for j, n in enumerate(shape) if n != 1)
    variables = [AffineExpr.dimension(captured + next(places)) if n != 1 else AffineExpr.constant(0)
                 for n in old]
    dims = [AffineExpr.dimension(c) for c in range(captured)] + variables
    maps = ArrayAttr(
        AffineMapAttr(AffineMap(captured + len(shape), m.data.num_symbols, tuple(
            r.replace_dims_and_symbols(dims, []) for r in m.data.results)))
        for m in tile.per_dim_subscript_maps.data)
    body = Block(arg_types=[IndexType()] * len(shape))
    kept = iter(a for a, n in zip(tile.body.block.args, old) if n != 1)
    for argument, n in zip(body.args, shape):
        argument.name_hint = next(kept).name_hint if n != 1 else None
    body.add_op(ktdp.RegionTerminatorOp())
    properties = {k: v for k, v in tile.properties.items() if k != "operandSegmentSizes"}
    properties.update(per_dim_subscript_maps=maps, variables_space_set=AffineSetAttr(box(shape)),
                      variables_space_order=AffineMapAttr(AffineMap.identity(len(shape))))
    new = ktdp.ConstructIndirectAccessTileOp.build(
        operands=[tile.base, list(tile.indirect_memrefs), list(tile.captured_variables), []],
        result_types=[ktdp.AccessTileType(list(shape))], properties=properties,
        attributes=dict(tile.attributes), regions=[Region(body)])
    new.location = tile.location
    return new


def _check_inside(tile: ktdp.ConstructAccessTileOp, view: ktdp.ConstructMemoryViewOp,
                  ranges: Ranges, op: Operation) -> None:
    """A reshaped tile is read without masks: ``tile`` must lie in the view's box."""
    bounds = box_bounds(view.coordinate_set.data)
    start = tile.base_map.data
    indices = [ranges.of(index) for index in tile.indices]
    sizes = [ranges.of(size) for size in view.sizes]
    for expr, bound, extent in zip(start.results, bounds or [], tile.result.type.get_shape()):
        first = ranges.expr(expr, indices[:start.num_dims], indices[start.num_dims:])
        least = ranges.expr(bound, [], sizes)
        if first is None or least is None or first[0] < 0 or first[1] + extent > least[0]:
            break
    else:
        if bounds is not None:
            return
    raise KtcError(
        f"'{op.name}' reshapes a tile that may reach outside its view's coordinate set "
        "(a masked access), which a reshaped view cannot mask; keep the tile inside the "
        "view for every value of its indices",
        where(op),
    )


def _restride(shape, strides, new_shape) -> list[int] | None:
    """Strides for ``new_shape`` under which its row-major elements lie where those of
    ``shape`` at ``strides`` do; None when there are none. Runs of dimensions of
    ``shape`` contiguous in memory (``strides[k] == strides[k+1] * shape[k+1]``, unit
    dimensions anywhere) are chunks; each chunk must be a run of dimensions of
    ``new_shape`` of the same product."""
    if prod(shape) != prod(new_shape):
        return None
    if not shape:
        return [1] * len(new_shape)
    new_strides = [0] * len(new_shape)
    view_dim, base, numel, view_numel = len(new_shape) - 1, strides[-1], 1, 1
    for dim in reversed(range(len(shape))):
        numel *= shape[dim]
        if dim > 0 and (shape[dim - 1] == 1 or strides[dim - 1] == numel * base):
            continue
        while view_dim >= 0 and (view_numel < numel or new_shape[view_dim] == 1):
            new_strides[view_dim] = view_numel * base
            view_numel *= new_shape[view_dim]
            view_dim -= 1
        if view_numel != numel:
            return None
        if dim > 0:
            base, numel, view_numel = strides[dim - 1], 1, 1
    return new_strides if view_dim == -1 else None


def _reshaped(value: SSAValue, shape) -> Built:
    """Ops giving ``value`` the row-major ``shape``: one collapse or expand when a
    reassociation relates the shapes, else a collapse to one dimension and an expand
    (none when the shape is already ``shape``)."""
    old = tuple(value.type.get_shape())
    shape = tuple(shape)
    result = TensorType(value.type.get_element_type(), shape)
    if old == shape:
        return [], value
    if (groups := _groups(old, shape)) is not None:
        op = tensor.CollapseShapeOp.build(operands=[value], result_types=[result],
                                          properties={"reassociation": _reassociation(groups)})
        return [op], op.result
    if (groups := _groups(shape, old)) is not None:
        op = tensor.ExpandShapeOp(value, [], _reassociation(groups), shape, result)
        return [op], op.result
    flat, flat_value = _reshaped(value, (prod(old),))
    ops, final = _reshaped(flat_value, shape)
    return [*flat, *ops], final


def _groups(fine, coarse) -> list[list[int]] | None:
    """The runs of dimensions of ``fine`` whose products are the dimensions of
    ``coarse`` (unit dimensions of ``fine`` joined to a neighbouring run); None when
    there are none."""
    if not coarse:
        return [] if all(n == 1 for n in fine) else None
    groups, dim = [], 0
    for extent in coarse:
        group, size = [], 1
        while dim < len(fine) and (size < extent or not group):
            group.append(dim)
            size *= fine[dim]
            dim += 1
        if size != extent:
            return None
        groups.append(group)
    rest = list(range(dim, len(fine)))
    if any(fine[d] != 1 for d in rest):
        return None
    groups[-1] += rest
    return groups


def _reassociation(groups: list[list[int]]) -> ArrayAttr:
    return ArrayAttr(ArrayAttr(IntegerAttr(d, i64) for d in group) for group in groups)


def _elementwise(op: Operation | None) -> bool:
    """Whether each element of ``op``'s one tensor result comes from the same element
    of its tensor operands, all of its shape, and its scalars."""
    if op is None or len(op.results) != 1 or not isinstance(op.results[0].type, TensorType):
        return False
    shape = op.results[0].type.get_shape()
    if any(isinstance(t, TensorType) and t.get_shape() != shape for t in op.operand_types):
        return False
    if op.name in ("tensor.splat", "tensor.empty"):
        return True
    if op.name == "arith.constant":
        return isinstance(op.value, DenseIntOrFPElementsAttr) and op.value.is_splat()
    if op.name == "linalg.generic":
        return all(m.data == AffineMap.identity(len(shape)) for m in op.indexing_maps.data) \
            and all(t.data.value == "parallel" for t in op.iterator_types.data) \
            and not any(isinstance(inner, IndexOp) for inner in op.body.walk())
    return op.name in ELEMENTWISE_LINALG or (
        op.dialect_name() in ("arith", "math", "spyreop") and not op.regions)


def _commuted(op: Operation, source: Operation) -> Built:
    """``source`` computed on ``op`` applied to each of its tensor operands."""
    shape = op.results[0].type.get_shape()
    ops, operands = [], []
    for value in source.operands:
        if isinstance(value.type, TensorType):
            ops.append(_applied(op, value))
            value = ops[-1].results[0]
        operands.append(value)
    result = TensorType(source.results[0].type.get_element_type(), shape)
    properties = dict(source.properties)
    if source.name == "arith.constant":
        properties["value"] = DenseIntOrFPElementsAttr.from_list(
            result, [source.value.get_values()[0]])
    moved = type(source).create(
        operands=operands, result_types=[result], properties=properties,
        attributes=dict(source.attributes), regions=[r.clone() for r in source.regions])
    return [*ops, moved], moved.results[0]


def _applied(op: Operation, value: SSAValue) -> Operation:
    """``op`` (a reshape or slice) applied to ``value`` instead of its source."""
    result = TensorType(value.type.get_element_type(), op.results[0].type.get_shape())
    return type(op).create(operands=[value, *op.operands[1:]], result_types=[result],
                           properties=dict(op.properties), attributes=dict(op.attributes))


def _sliced_generic(op: Operation, source: BroadcastOp | GenericOp) -> Built:
    """A slice of a generic's one result (a broadcast made one): the generic on the
    slices its maps read. Each loop the output map names takes the slice's offset and
    size along that result; the others (reduced, or broadcast away) stay whole."""
    generic = broadcast_generic(source) if isinstance(source, BroadcastOp) else source
    output_map = generic.indexing_maps.data[-1].data
    if len(generic.outputs) != 1 or not output_map.is_projected_permutation():
        raise KtcError(
            f"'{op.name}' slices a '{source.name}' with {len(generic.outputs)} outputs or an "
            "output map that is not a projected permutation; the compiler slices generics "
            "of one output indexed by their loops",
            where(op),
        )
    if any(isinstance(inner, IndexOp) for inner in generic.body.walk()):
        raise KtcError(
            f"'{op.name}' slices a 'linalg.generic' that reads its element's position "
            "(linalg.index); the compiler slices generics that compute on their operands only",
            where(op),
        )
    offsets, sizes = _slice_box(op)
    loops = _loop_extents(generic)
    boxes = [(AffineExpr.constant(0), n) for n in loops]
    for result, offset, size in zip(output_map.results, offsets, sizes):
        boxes[result.position] = (offset, size)
    ops, operands = [], []
    for value, indexing in zip(generic.operands, generic.indexing_maps.data):
        sliced = _slice_through(value, indexing.data, boxes)
        ops.append(sliced)
        operands.append(sliced.result)
    full = TensorType(op.results[0].type.get_element_type(), sizes)
    moved = GenericOp.create(
        operands=operands, result_types=[full], properties=dict(generic.properties),
        attributes=dict(generic.attributes), regions=[generic.body.clone()])
    reshape, value = _reshaped(moved.results[0], op.results[0].type.get_shape())
    if generic is not source:
        generic.erase()
    return [*ops, moved, *reshape], value


def _loop_extents(generic: GenericOp) -> list[int]:
    """The extent of each loop of ``generic``, from the operands its maps name it in."""
    extents: dict[int, int] = {}
    for value, indexing in zip(generic.operands, generic.indexing_maps.data):
        for expr, n in zip(indexing.data.results, value.type.get_shape()):
            if isinstance(expr, AffineDimExpr):
                extents.setdefault(expr.position, n)
    return [extents[d] for d in range(len(generic.iterator_types.data))]


def _slice_through(value: SSAValue, indexing: AffineMap, boxes) -> Operation:
    """The slice of ``value`` that ``indexing`` reads over the loops' ``boxes`` (a
    constant 0 of the map the one element there)."""
    offsets, sizes = [], []
    for expr in indexing.results:
        offset, size = boxes[expr.position] if isinstance(expr, AffineDimExpr) else (AffineExpr.constant(0), 1)
        offsets.append(offset)
        sizes.append(size)
    dynamic = [o for o in offsets if isinstance(o, SSAValue)]
    static = [DYNAMIC_INDEX if isinstance(o, SSAValue) else o.value for o in offsets]
    result = TensorType(value.type.get_element_type(), sizes)
    return tensor.ExtractSliceOp.build(
        operands=[value, dynamic, [], []], result_types=[result],
        properties={"static_offsets": DenseArrayBase.from_list(i64, static),
                    "static_sizes": DenseArrayBase.from_list(i64, sizes),
                    "static_strides": DenseArrayBase.from_list(i64, [1] * len(sizes))})


def _slice_of_insert(op: Operation, insert: Operation) -> Built:
    """A static slice of an ``insert_slice``: of its destination when it misses the
    piece, of the piece when inside it."""
    offsets, sizes = _slice_box(op)
    piece_offsets, piece_sizes = _insert_box(insert)
    if any(isinstance(o, SSAValue) for o in offsets):
        raise KtcError(
            f"'{op.name}' slices an insert_slice at offsets that are not constants; the "
            "compiler cannot tell which of the two tensors it reads",
            where(op),
        )
    lows = [o.value for o in offsets]
    if _disjoint(lows, sizes, piece_offsets, piece_sizes):
        sliced = _applied(op, insert.operands[1])
        return [sliced], sliced.results[0]
    if all(p <= lo and lo + n <= p + m
           for lo, n, p, m in zip(lows, sizes, piece_offsets, piece_sizes)):
        shifted = dict(op.properties)
        shifted["static_offsets"] = DenseArrayBase.from_list(
            i64, [lo - p for lo, p in zip(lows, piece_offsets)])
        full = TensorType(op.results[0].type.get_element_type(), sizes)
        reshape, piece = _reshaped(insert.operands[0], piece_sizes)
        sliced = tensor.ExtractSliceOp.create(operands=[piece], result_types=[full],
                                              properties=shifted)
        ops, value = _reshaped(sliced.result, op.results[0].type.get_shape())
        return [*reshape, sliced, *ops], value
    raise KtcError(
        f"'{op.name}' reads part of the piece of the '{insert.name}' at "
        f"{where(insert)} and part of its destination; the compiler folds slices that lie "
        "inside one of them",
        where(op),
    )


def _disjoint(lows, sizes, others, other_sizes) -> bool:
    return any(lo + n <= p or p + m <= lo for lo, n, p, m in zip(lows, sizes, others, other_sizes))


def _insert_box(insert: Operation) -> tuple[list[int], list[int]]:
    """The static offsets and sizes of an ``insert_slice`` of unit strides."""
    offsets, sizes = insert.static_offsets.get_values(), insert.static_sizes.get_values()
    strides = insert.static_strides.get_values()
    if DYNAMIC_INDEX in (*offsets, *sizes) or any(s != 1 for s in strides):
        raise KtcError(
            f"'{insert.name}' has offsets {list(offsets)}, sizes {list(sizes)} and strides "
            f"{list(strides)}; the compiler folds inserts at constant offsets, of constant "
            "sizes and unit strides",
            where(insert),
        )
    return list(offsets), list(sizes)


def _fold_insert(insert: Operation, ranges: Ranges) -> None:
    """Each store of ``insert``'s result: stores of its piece and of the destination's
    slices around it through the matching parts of the tile."""
    for use in list(insert.results[0].uses):
        if not isinstance(use.operation, ktdp.StoreOp):
            raise KtcError(
                f"'{insert.name}' is used by '{use.operation.name}' at "
                f"{where(use.operation)}; the compiler folds an assembled tensor only into "
                "the stores of it (store each piece through its own tile)",
                where(insert),
            )
        _store_pieces(use.operation, insert)
    erase_unused([insert])


def _store_pieces(store: ktdp.StoreOp, insert: Operation) -> None:
    tile = store.access_tile.owner
    _check_extent(tile, store.data_tile.type, insert)
    offsets, sizes = _insert_box(insert)
    shape = list(store.data_tile.type.get_shape())
    ops, piece = _reshaped(insert.operands[0], sizes)
    parts = [(offsets, sizes, piece)]
    dest = insert.operands[1]
    if not isinstance(dest.owner, tensor.EmptyOp):
        for lows, extents in _around(shape, offsets, sizes):
            ops.append(tensor.ExtractSliceOp.from_static_parameters(dest, lows, extents, [1] * len(lows)))
            parts.append((lows, extents, ops[-1].results[0]))
    for lows, extents, value in parts:
        part = _sliced_tile(tile, [AffineExpr.constant(n) for n in lows], extents)
        ops += [part, ktdp.StoreOp.build(operands=[value, part.result])]
    Rewriter.insert_op(ops, InsertPoint.before(store))
    Rewriter.erase_op(store)
    erase_unused([tile])


def _around(shape, offsets, sizes) -> list[tuple[list[int], list[int]]]:
    """Boxes covering ``shape`` but the box at ``offsets`` of ``sizes``, disjoint: per
    dimension k the parts before and after the box along k, within the box along the
    dimensions before k and whole along those after."""
    boxes = []
    for k in range(len(shape)):
        inner_lows, inner_sizes = offsets[:k], sizes[:k]
        whole = list(shape[k + 1:])
        before = (offsets[k], 0)
        after = (shape[k] - offsets[k] - sizes[k], offsets[k] + sizes[k])
        for extent, low in (before, after):
            if extent > 0:
                boxes.append(([*inner_lows, low, *[0] * len(whole)],
                              [*inner_sizes, extent, *whole]))
    return boxes


def _staged(op: Operation) -> bool:
    """Whether ``op`` is a reshape ``stage-reshaped-tiles`` copies through the
    scratchpad: of a load, or only stored, through a tile of a memory view whose
    elements no strides of the other shape reach (once copied into the scratchpad
    the tile is contiguous, and any shape describes it); a reshape of a reshape is
    made one first."""
    source = op.operands[0].owner
    if op.name not in RESHAPES or source.name in RESHAPES:
        return False
    if isinstance(source, ktdp.LoadOp):
        return not _restridable(source.access_tile.owner, op.results[0].type.get_shape())
    uses = list(op.results[0].uses)
    return bool(uses) and all(
        isinstance(use.operation, ktdp.StoreOp) and use.index == 0
        and not _restridable(use.operation.access_tile.owner, op.operands[0].type.get_shape())
        for use in uses)


def _restridable(tile: Operation, shape) -> bool:
    """Whether ``tile``'s elements lie at strides of ``shape`` in its view (``_restride``);
    True for any other tile, which the folds take or refuse by their own rules."""
    view = tile.base.owner if isinstance(tile, ktdp.ConstructAccessTileOp) else None
    if not isinstance(view, ktdp.ConstructMemoryViewOp) or view.strides:
        return True
    strides = view.static_strides.get_values()
    return _restride(tile.result.type.get_shape(), strides, shape) is not None


def _store_source(store: ktdp.StoreOp, source: SSAValue, ranges: Ranges) -> None:
    """``store`` of a reshape of ``source``: a store of ``source`` through its tile
    reshaped to ``source``'s shape."""
    reshape = store.data_tile.owner
    tile = store.access_tile.owner
    if isinstance(tile, ktdp.ConstructIndirectAccessTileOp):
        ops = [_reshaped_indirect(tile, source.type.get_shape(), reshape)]
    else:
        _check_extent(tile, store.data_tile.type, reshape)
        ops = _reshaped_tile(tile, source.type.get_shape(), ranges, reshape)
    Rewriter.insert_op([*ops, ktdp.StoreOp.build(operands=[source, ops[-1].results[0]])],
                       InsertPoint.before(store))
    Rewriter.erase_op(store)
    erase_unused([tile])
