"""``tile-to-simd-width``: the chains of every phase as loop nests over tiles of the
compute engine's SIMD width, the compute in the innermost loop working on one tile.

IBM's version is the tiling half of ``ConstructThreeStagePipeline.cpp``
(``computeTileSizesFromShape``, its §1.1 item 3 and §4.2), which tiles one generic;
here the generics of a chain share their loops through the tensor dimensions they
index.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import AffineMapAttr, IndexType, MemRefType, ModuleOp, StringAttr, TensorType
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import attr_text
from ktc.dialects.upstream import ForOp
from ktc.passes.analysis.chains import Chain, read_operands
from ktc.passes.analysis.positions import position_error
from ktc.passes.utils.fusion import reads_output
from ktc.passes.utils.phases import PhaseEnds, compute_blocks, programs
from ktc.passes.utils.tiles import at_origin, box_tile


@dataclass(frozen=True)
class TileToSimdWidth(ModulePass):
    """Tile every chain of every phase to the SIMD width.

    Expects programs whose phases hold loads, ``linalg.generic``s and stores (as
    ``generalize-and-fuse`` leaves them) and whose loads and stores use access tiles
    at the origin of views typed with their memory (as ``lower-ktdp-views`` leaves
    them); a device whose compute engine has SIMD lanes for every element type a load
    or store moves.

    Produces, for each chain (stores that share loads or compute, with the loads and
    generics they need), at the end of its phase: the dimensions the chain's generics
    loop over, joined through the tensor dimensions they index, tiled from the
    innermost outwards, each taking ``gcd(extent, lanes still to cover)`` of the
    lanes for the narrowest element type a load or store moves (a reduction dimension
    is never tiled, but counts towards the lanes); a parallel dimension whose tile
    would give some operand a tile of neither one element nor its generic's whole
    tile (a row vector broadcast over several rows narrower than the lanes, the sums
    of several rows) takes 1, and so do the parallel dimensions outside it; so does
    one that would make the tile of a load or store of a scratchpad buffer (which a
    load or store unit moves without a DMA to gather it) other than contiguous. One
    ``scf.for {loop_type = #ktdf.loop_type<parallel_loop>}`` per parallel dimension,
    stepping by its tile, bounds defined ahead of the outermost; in the innermost (or
    at the end of the phase when no dimension is parallel), per load a tile of its view
    (``ktdp.construct_access_tile`` at the loop variables of its dimensions, 0 along a
    reduction dimension, the fixed position of a dimension read at one position) and
    a ``ktdp.load`` of it, the generics on tiles (a fixed position read as the tile's
    only element, outputs only written fresh ``tensor.empty``s), per store a tile and a
    ``ktdp.store``; a tiled generic's position along a split loop (``linalg.index``)
    counted from the tile's start (the loop's variable, plus the position within the
    tile when the tile is larger than one). The untiled loads, stores, generics and
    unused tiles are erased.
    A chain whose tiles start away from the origin of their views is tiled already and
    is left alone, so running the pass again changes nothing.
    """

    name = "tile-to-simd-width"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        stored = programs(op)
        if not stored:
            return
        device = device_of(op)
        for program in stored:
            for block in reversed(compute_blocks(program.body.block)):
                _tile_block(block, device)


def _tile_block(block: Block, device: Device) -> None:
    """Tile each chain of ``block`` at the end of its phase; erase what the tiles replace."""
    stores = [op for op in block.ops if isinstance(op, ktdp.StoreOp)]
    ends = PhaseEnds(block)
    placed = [(chain, ends.of(chain.stores[-1])) for chain in Chain.components(stores)]
    tiled = []
    for chain, anchor in placed:
        if not all(_at_view_origin(op) for op in (*chain.loads, *chain.stores)):
            continue
        crossing = [
            *((op, op.result) for op in chain.loads),
            *((op, op.data_tile) for op in chain.stores),
        ]
        lanes = min(_lanes(device, value.type.get_element_type(), op) for op, value in crossing)
        in_place = [(value, op.access_tile.owner.base.type) for op, value in crossing
                    if op.access_tile.owner.base.type.memory_space.data != device.device_memory]
        _Tiling(chain, _space(chain, lanes, in_place)).build(anchor)
        tiled += chain.stores
    for store in tiled:
        block.erase_op(store)
    replaced = (ktdp.LoadOp, GenericOp, tensor.EmptyOp, ktdp.ConstructAccessTileOp)
    for op in reversed(list(block.ops)):
        if isinstance(op, replaced) and not any(result.uses for result in op.results):
            block.erase_op(op)


def _lanes(device: Device, element_type: Attribute, op: Operation) -> int:
    """The compute engine's SIMD lanes for ``element_type``, which ``op`` moves."""
    lanes = device.compute.lanes
    if element_type not in lanes:
        raise KtcError(
            f"the compute engine {device.compute_kind} of device @{device.name} has no "
            f"SIMD lanes for {attr_text(element_type)}, the element type of this '{op.name}'",
            where(op),
        )
    return lanes[element_type]


def _at_view_origin(op: ktdp.LoadOp | ktdp.StoreOp) -> bool:
    """Whether the tile of ``op`` starts at the origin of its view, typed with its
    memory (otherwise the chain is tiled already)."""
    tile = op.access_tile.owner
    if (
        not isinstance(tile, ktdp.ConstructAccessTileOp)
        or not isinstance(tile.base.type, MemRefType)
        or not isinstance(tile.base.type.memory_space, StringAttr)
    ):
        raise KtcError(
            "the access tile is not one of a view typed with its memory kind; "
            "'lower-ktdp-views' makes it one",
            where(op),
        )
    return at_origin(tile)


# ---------------------------------------------------------------------------------
# The iteration space of a chain
# ---------------------------------------------------------------------------------


@dataclass(eq=False)
class _Dim:
    """One dimension of the iteration space that the generics of a chain share: the
    loops of the generics and the tensor dimensions they index through it."""

    extent: int
    reduction: bool
    looped: bool
    """Whether a loop of some generic runs over it (otherwise only constant
    positions of a loaded tensor are read along it)."""

    tile: int = 1
    induction_variable: SSAValue | None = None
    """The variable of the ``scf.for`` over its tiles (parallel dimensions)."""


@dataclass
class _Space:
    """The iteration space of a chain, tiled."""

    dims: list[_Dim]
    """The dimensions some generic loops over, outermost first."""
    of_value: dict[tuple[SSAValue, int], _Dim]
    fixed: dict[tuple[SSAValue, int], int] = field(default_factory=dict)
    """The constant position read along a loaded tensor's dimension without loops."""

    def tile_shape(self, value: SSAValue) -> list[int]:
        return [self.of_value[(value, j)].tile for j in range(value.type.get_num_dims())]

    def tile_type(self, value: SSAValue) -> TensorType:
        return TensorType(value.type.get_element_type(), self.tile_shape(value))

    def start(self, value: SSAValue, j: int, loops: Sequence[_Dim]) -> AffineExpr:
        """Where the tile of ``value`` starts along its dimension ``j``, over the
        variables of ``loops``."""
        dim = self.of_value[(value, j)]
        if not dim.looped:
            return AffineExpr.constant(self.fixed[(value, j)])
        if dim.induction_variable is None:
            return AffineExpr.constant(0)
        return AffineExpr.dimension(loops.index(dim))

    def tile_map(self, value: SSAValue, access: AffineMap) -> AffineMapAttr:
        """``access`` as a generic on tiles reads ``value``: a fixed position of a
        dimension without loops is the tile's only element."""
        results = tuple(
            AffineExpr.constant(0) if not self.of_value[(value, j)].looped else expr
            for j, expr in enumerate(access.results)
        )
        return AffineMapAttr(AffineMap(access.num_dims, 0, results))


class _Classes:
    """Union-find over loop dimensions ``(generic, k)`` and tensor dimensions
    ``(value, j)``."""

    def __init__(self) -> None:
        self.parent: dict[tuple[object, int], tuple[object, int]] = {}

    def find(self, node: tuple[object, int]) -> tuple[object, int]:
        self.parent.setdefault(node, node)
        while self.parent[node] != node:
            self.parent[node] = self.parent[self.parent[node]]
            node = self.parent[node]
        return node

    def union(self, a: tuple[object, int], b: tuple[object, int]) -> None:
        self.parent[self.find(a)] = self.find(b)

    def members(self) -> dict[tuple[object, int], list[tuple[object, int]]]:
        groups: dict[tuple[object, int], list[tuple[object, int]]] = {}
        for node in list(self.parent):
            groups.setdefault(self.find(node), []).append(node)
        return groups


def _indexed(generic: GenericOp) -> list[tuple[SSAValue, AffineMap]]:
    """The tensors ``generic`` reads and writes, each with the map it indexes them by."""
    maps = [attr.data for attr in generic.indexing_maps.data]
    inputs = len(generic.inputs)
    read = [m for m, used in zip(maps[inputs:], reads_output(generic)) if used]
    return list(
        zip([*read_operands(generic), *generic.res], [*maps[:inputs], *read, *maps[inputs:]])
    )


def _space(chain: Chain, lanes: int, in_place: Sequence[tuple[SSAValue, MemRefType]]) -> _Space:
    """Join the loops of the chain's generics through the tensor dimensions they index,
    and tile the result (the tiles of the tensors ``in_place`` contiguous in them)."""
    classes = _Classes()
    constants: list[tuple[SSAValue, int, int, GenericOp]] = []
    for generic in chain.generics:
        for value, access in _indexed(generic):
            for j, expr in enumerate(access.results):
                classes.find((value, j))
                if isinstance(expr, AffineDimExpr):
                    classes.union((generic, expr.position), (value, j))
                elif isinstance(expr, AffineConstantExpr):
                    constants.append((value, j, expr.value, generic))
                else:
                    raise KtcError(
                        f"'linalg.generic' indexes an operand with '{expr}'; the pipeline "
                        "tiles maps whose results are loop dimensions or constants",
                        where(generic),
                    )
    dims = {root: _dim(nodes) for root, nodes in classes.members().items()}
    of_value = {
        node: dims[classes.find(node)] for node in classes.parent if isinstance(node[0], SSAValue)
    }
    ordered = _ordered_dims(chain, classes, dims)
    operands = _operand_dims(chain, classes, dims, ordered)
    rows = [[(ordered.index(dim) if (dim := of_value[(value, j)]).looped else None, dim.extent)
             for j in _memory_order(memory)] for value, memory in in_place]
    tiles = tile_sizes(
        [dim.extent for dim in ordered], [dim.reduction for dim in ordered], lanes, operands, rows
    )
    for dim, tile in zip(ordered, tiles):
        dim.tile = tile
    space = _Space(ordered, of_value)
    for value, j, position, generic in constants:
        _fix(space, value, j, position, generic)
    return space


def _dim(nodes: list[tuple[object, int]]) -> _Dim:
    loops = [(op, k) for op, k in nodes if isinstance(op, GenericOp)]
    extents = {value.type.get_shape()[j] for value, j in nodes if isinstance(value, SSAValue)}
    if len(extents) != 1:
        raise KtcError(
            f"'linalg.generic' joins tensor dimensions of sizes {sorted(extents)} in one "
            "loop; the pipeline needs one size per loop",
            where(loops[0][0]),
        )
    generics = [op for op, _ in loops]
    for generic in generics:
        if generics.count(generic) > 1:
            raise KtcError(
                "'linalg.generic' reaches one tensor dimension through two of its loops; "
                "the pipeline cannot tile such a chain",
                where(generic),
            )
    reduction = any(op.iterator_types.data[k].data == IteratorType.REDUCTION for op, k in loops)
    return _Dim(extents.pop(), reduction, bool(loops))


def _ordered_dims(
    chain: Chain, classes: _Classes, dims: dict[tuple[object, int], _Dim]
) -> list[_Dim]:
    """The dimensions some generic loops over, in the loop order of the generics
    writing the stored values, then of the other generics."""
    stored = [store.data_tile.owner for store in chain.stores]
    ordered: list[_Dim] = []
    for generic in (*stored, *chain.generics):
        for k in range(len(generic.iterator_types.data)):
            dim = dims[classes.find((generic, k))]
            if dim not in ordered:
                ordered.append(dim)
    return ordered


_Operand = tuple[frozenset[int], frozenset[int]]
"""The dimensions a tensor is indexed along, and those its generic loops over."""


def _operand_dims(
    chain: Chain, classes: _Classes, dims: dict[tuple[object, int], _Dim], ordered: list[_Dim]
) -> list[_Operand]:
    """For every tensor a generic of the chain reads or writes: the positions in
    ``ordered`` of the dimensions it is indexed along, and of those its generic loops
    over."""
    operands = []
    for generic in chain.generics:
        loops = [ordered.index(dims[classes.find((generic, k))])
                 for k in range(len(generic.iterator_types.data))]
        for _, access in _indexed(generic):
            indexed = [loops[e.position] for e in access.results if isinstance(e, AffineDimExpr)]
            operands.append((frozenset(indexed), frozenset(loops)))
    return operands


def tile_sizes(
    extents: Sequence[int],
    reduction: Sequence[bool],
    lanes: int,
    operands: Sequence[_Operand],
    rows: Sequence[Sequence[tuple[int | None, int]]] = (),
) -> list[int]:
    """Tile sizes for a loop nest (IBM's ``computeTileSizesFromShape``): from the
    innermost dimension outwards, each takes ``gcd(extent, lanes still to cover)``
    until the lanes are covered, the rest 1; a reduction dimension keeps its whole
    extent but counts what it covers.

    ``operands`` gives, for every tensor a generic indexes, the dimensions it is
    indexed along and those its generic loops over. The compute stage widens an
    operand's tile only from one element to its generic's whole tile, and folds a
    reduction into one element: a parallel dimension whose tile would give some
    operand a tile of neither size (a row vector broadcast over several rows, the
    sums of several rows) takes 1, and so do the parallel dimensions outside it. So
    does one that would leave the tile of a tensor of ``rows`` (per dimension, outermost
    first, its position in ``extents`` or None when it is read at one position, and
    its extent) not contiguous in it.

    A parallel dimension some generic does not loop over (the columns of one of several
    slices of a row, each computed from the row's reductions) keeps its whole extent as
    a reduction does, where every operand's tile stays one element or its generic's
    whole tile and contiguous: a loop over it would run the generics that do not use it
    once per trip, and loops over two such dimensions their product."""
    nests = {loops for _, loops in operands}
    tiles = [1] * len(extents)
    remaining = lanes

    def fits() -> bool:
        return _widenable(tiles, operands) and _contiguous(tiles, rows)

    for i in reversed(range(len(extents))):
        covered = math.gcd(extents[i], remaining)
        tiles[i] = extents[i]
        if reduction[i] or (any(i not in nest for nest in nests) and fits()):
            remaining //= covered
            continue
        tiles[i] = covered
        if not fits():
            tiles[i] = covered = remaining = 1
        remaining //= covered
    return tiles


def _widenable(tiles: Sequence[int], operands: Sequence[_Operand]) -> bool:
    """Whether every operand's tile is one element or its generic's whole tile."""
    return all(
        math.prod(tiles[d] for d in indexed) in (1, math.prod(tiles[d] for d in loops))
        for indexed, loops in operands
    )


def _memory_order(memory: MemRefType) -> list[int]:
    """The dimensions of a memref from the largest stride to the smallest (row-major:
    in order; a column-major view: reversed)."""
    strides = memory.get_strides()
    rank = memory.get_num_dims()
    if strides is None or None in strides:
        return list(range(rank))
    return sorted(range(rank), key=lambda d: -strides[d])


def _contiguous(tiles: Sequence[int], rows: Sequence[Sequence[tuple[int | None, int]]]) -> bool:
    """Whether the tile of every tensor of ``rows`` is contiguous in it: whole
    dimensions inside a tiled one, single positions outside it."""
    for dims in rows:
        sizes = [(1 if position is None else tiles[position], extent) for position, extent in dims]
        partial = [j for j, (tile, extent) in enumerate(sizes) if tile != extent]
        if partial and any(tile != 1 for tile, _ in sizes[:partial[-1]]):
            return False
    return True


def _fix(space: _Space, value: SSAValue, j: int, position: int, generic: GenericOp) -> None:
    """Record that ``generic`` reads ``value`` at ``position`` along dimension ``j``."""
    dim = space.of_value[(value, j)]
    if dim.looped and dim.tile != dim.extent:
        raise KtcError(
            f"'linalg.generic' reads position {position} along a dimension tiled by "
            f"{dim.tile}; a tile does not hold that position",
            where(generic),
        )
    if dim.looped:
        return
    if space.fixed.setdefault((value, j), position) != position:
        raise KtcError(
            f"'linalg.generic' reads position {position} of a loaded tensor that another "
            f"generic reads at position {space.fixed[(value, j)]}; one transfer cannot "
            "serve both",
            where(generic),
        )


# ---------------------------------------------------------------------------------
# The tiled chain
# ---------------------------------------------------------------------------------


@dataclass
class _Tiling:
    """The loop nest of one chain and its ops on tiles."""

    chain: Chain
    space: _Space

    def build(self, anchor: Operation) -> None:
        """Insert the loop nest and the chain on tiles before ``anchor``."""
        inside = self._loop_nest(anchor)
        loops = [dim for dim in self.space.dims if dim.induction_variable is not None]
        tiles: dict[SSAValue, SSAValue] = {}
        ops: list[Operation] = []
        for load in self.chain.loads:
            tile = self._tile(load, load.result, loops)
            tiled = ktdp.LoadOp.build(operands=[tile.result], result_types=[self.space.tile_type(load.result)])
            tiled.result.name_hint = load.result.name_hint
            tiled.location = load.location
            tiles[load.result] = tiled.result
            ops += [tile, tiled]
        for generic in self.chain.generics:
            ops += self._tiled(generic, tiles)
        for store in self.chain.stores:
            tile = self._tile(store, store.data_tile, loops)
            tiled = ktdp.StoreOp.build(operands=[tiles[store.data_tile], tile.result])
            tiled.location = store.location
            ops += [tile, tiled]
        Rewriter.insert_op(ops, InsertPoint.before(inside))

    def _loop_nest(self, anchor: Operation) -> Operation:
        """One ``scf.for`` per parallel dimension before ``anchor``, their bounds defined
        ahead of the outermost; the op the tiles go before (the innermost loop's
        terminator, or ``anchor`` when there is no loop)."""
        parallel = [dim for dim in self.space.dims if not dim.reduction]
        if not parallel:
            return anchor
        values = sorted({0, *(dim.extent for dim in parallel), *(dim.tile for dim in parallel)})
        constants = {
            value: arith.ConstantOp.from_int_and_width(value, IndexType()) for value in values
        }
        for value, constant in constants.items():
            constant.result.name_hint = f"c{value}"
        Rewriter.insert_op(list(constants.values()), InsertPoint.before(anchor))
        for dim in parallel:
            terminator = scf.YieldOp()
            body = Block([terminator], arg_types=[IndexType()])
            loop = ForOp(constants[0], constants[dim.extent], constants[dim.tile], [], body)
            ktdf.set_loop_type(loop, ktdf.LoopType.PARALLEL_LOOP)
            Rewriter.insert_op(loop, InsertPoint.before(anchor))
            dim.induction_variable = body.args[0]
            anchor = terminator
        return anchor

    def _tile(
        self, op: ktdp.LoadOp | ktdp.StoreOp, value: SSAValue, loops: list[_Dim]
    ) -> ktdp.ConstructAccessTileOp:
        """The tile of the view ``op`` accesses that ``value``'s tile moves: at its
        start over the loop variables it uses."""
        rank = value.type.get_num_dims()
        full = AffineMap(len(loops), 0, tuple(self.space.start(value, j, loops) for j in range(rank)))
        unused = [k not in full.used_dims() for k in range(len(loops))]
        variables = [dim.induction_variable for dim, drop in zip(loops, unused) if not drop]
        tile = box_tile(op.access_tile.owner.base, full.drop_dims(unused), variables,
                        self.space.tile_shape(value))
        tile.location = op.location
        return tile

    def _tiled(self, generic: GenericOp, tiles: dict[SSAValue, SSAValue]) -> list[Operation]:
        """``generic`` on tiles: its inputs' tiles, an accumulator it reads taken as
        computed, a fresh ``tensor.empty`` for an output it only writes."""
        ops: list[Operation] = []
        outputs = []
        for output, result, read in zip(generic.outputs, generic.res, reads_output(generic)):
            if read and output in tiles:
                outputs.append(tiles[output])
                continue
            empty = tensor.EmptyOp([], self.space.tile_type(result))
            ops.append(empty)
            outputs.append(empty.tensor)
        operands = [*generic.inputs, *generic.res]
        maps = [
            self.space.tile_map(value, attr.data)
            for value, attr in zip(operands, generic.indexing_maps.data)
        ]
        tiled = GenericOp(
            [tiles[value] for value in generic.inputs],
            outputs,
            generic.body.clone(),
            maps,
            generic.iterator_types,
            [self.space.tile_type(r) for r in generic.res],
        )
        _offset_positions(tiled, generic, self.space)
        for old, new in zip(generic.res, tiled.res):
            new.name_hint = old.name_hint
            tiles[old] = new
        for op in (*ops, tiled):
            op.location = generic.location
        return [*ops, tiled]


def _offset_positions(tiled: GenericOp, generic: GenericOp, space: _Space) -> None:
    """The positions a tiled generic reads along a split loop counted from the loop's
    start: ``linalg.index`` of a loop in tiles of one becomes the tile loop's
    variable, of a loop in larger tiles that variable plus the position within the
    tile (a run-time position, ``passes/analysis/positions.py``). A position
    computation the split leaves uncompilable (a division of a position within a
    larger tile) is an error at the generic."""
    split: dict[int, _Dim] = {}
    for value, access in _indexed(generic):
        for j, expr in enumerate(access.results):
            dim = space.of_value[(value, j)]
            if isinstance(expr, AffineDimExpr) and dim.tile < dim.extent:
                split[expr.position] = dim
    block = tiled.body.block
    for index in [op for op in block.ops if isinstance(op, IndexOp)]:
        dim = split.get(index.dim.value.data)
        if dim is None:
            continue
        if dim.tile == 1:
            index.result.replace_all_uses_with(dim.induction_variable)
            Rewriter.erase_op(index)
            continue
        start = arith.AddiOp(dim.induction_variable, index.result)
        Rewriter.insert_op(start, InsertPoint.after(index))
        index.result.replace_uses_with_if(start.result, lambda use: use.operation is not start)
    refused = position_error(block)
    if refused is not None:
        op, reason = refused
        raise KtcError(
            "'linalg.generic' reads its element's position along a loop split into tiles "
            "(the SIMD lanes), where it is the tile's start (a run-time value) plus the "
            f"position within the tile; its '{op.name}' then {reason}",
            where(generic),
        )
