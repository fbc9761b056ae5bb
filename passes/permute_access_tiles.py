"""``permute-access-tiles``: an access tile read in a permuted order is an access tile
in the identity order of the permuted view.

KTIR enumerates a tile's points in the lexicographic order of ``access_tile_order(p)``
(``docs/ktir.md``): under a permutation ``σ``, ``(p_σ0, p_σ1, ...)``, element ``q`` of
the tile is the view's element at ``start + p`` with ``q_k = p_σk``. That is element
``q`` of the tile in the identity order of the view whose dimension ``k`` is the
view's dimension ``σk``: the same memory with sizes, strides and coordinates
permuted. A tile that reads a matrix's columns as rows becomes a tile of a view with
the strides swapped, which the DMA moves as it moves any strided block.
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AffineSetAttr,
    DenseArrayBase,
    MemRefType,
    ModuleOp,
    i64,
)
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineConstraintExpr, AffineExpr, AffineMap, AffineSet
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.dialects.ktdp import ConstructAccessTileOp, ConstructMemoryViewOp


@dataclass(frozen=True)
class PermuteAccessTiles(ModulePass):
    """Rewrites every access tile in a permuted order into one in the identity order.

    Expects KTIR (after ``ktir-legality-check``): ``ktdp.construct_access_tile``s of
    ``ktdp.construct_memory_view``s whose ``access_tile_order`` is a permutation.
    Produces, for each tile in a non-identity order ``σ``, a view beside it with
    dimension ``k`` the original's dimension ``σk`` (sizes, strides, coordinate set
    and the memref shape permuted; the set's symbols renumbered to follow the dynamic
    sizes they bind, left to right) and the tile on it with its start and set
    permuted alike, in the identity order; its loads and stores are unchanged; a view
    no tile uses any more erased. Tiles in the identity order are left as they are
    (idempotent).
    """

    name = "permute-access-tiles"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for tile in [o for o in op.walk() if isinstance(o, ConstructAccessTileOp)]:
            order = tile.access_tile_order.data
            if order != AffineMap.identity(order.num_dims):
                _permute(tile, [r.position for r in order.results])


def _permute(tile: ConstructAccessTileOp, sigma: list[int]) -> None:
    view = tile.base.owner
    sizes, size_symbols = _dims(view.static_sizes.get_values(), view.sizes, sigma)
    strides, _ = _dims(view.static_strides.get_values(), view.strides, sigma)
    permuted = ConstructMemoryViewOp.build(
        operands=[view.offset, [v for _, v in sizes if v is not None],
                  [v for _, v in strides if v is not None]],
        result_types=[MemRefType(view.result.type.element_type,
                                 [view.result.type.get_shape()[j] for j in sigma])],
        properties={
            "static_sizes": DenseArrayBase.from_list(i64, [n for n, _ in sizes]),
            "static_strides": DenseArrayBase.from_list(i64, [n for n, _ in strides]),
            "memory_space": view.memory_space,
            "coordinate_set": AffineSetAttr(_set(view.coordinate_set.data, sigma, size_symbols)),
        },
    )
    permuted.location = view.location
    if view.result.name_hint:
        permuted.result.name_hint = f"{view.result.name_hint}_permuted"
    start = tile.base_map.data
    tile_set = tile.access_tile_set.data
    new = ConstructAccessTileOp.build(
        operands=[permuted.result, list(tile.indices), list(tile.symbol_operands)],
        result_types=[tile.result.type],
        properties={
            "base_map": AffineMapAttr(AffineMap(start.num_dims, start.num_symbols,
                                                tuple(start.results[j] for j in sigma))),
            "access_tile_set": AffineSetAttr(_set(tile_set, sigma, range(tile_set.num_symbols))),
            "access_tile_order": AffineMapAttr(AffineMap.identity(len(sigma))),
        },
        attributes=dict(tile.attributes),
    )
    new.location = tile.location
    Rewriter.insert_op([permuted, new], InsertPoint.before(tile))
    Rewriter.replace_op(tile, [], [new.result])
    if not view.result.uses:
        Rewriter.erase_op(view)


def _dims(static, dynamic, sigma: list[int]) -> tuple[list[tuple[int, SSAValue | None]], list[int]]:
    """Each dimension's static value and dynamic operand, permuted by ``sigma``; and,
    per dynamic operand in the old order, its position among the new ones."""
    operands = iter(dynamic)
    pairs = [(n, next(operands) if n == DYNAMIC_INDEX else None) for n in static]
    old = [j for j, (n, _) in enumerate(pairs) if n == DYNAMIC_INDEX]
    new = [j for j in sigma if pairs[j][0] == DYNAMIC_INDEX]
    return [pairs[j] for j in sigma], [new.index(j) for j in old]


def _set(old: AffineSet, sigma: list[int], symbols) -> AffineSet:
    """``old`` over the permuted dimensions (new dimension k is old dimension σk),
    old symbol i renamed ``symbols[i]``."""
    inverse = {j: k for k, j in enumerate(sigma)}
    dims = [AffineExpr.dimension(inverse[j]) for j in range(old.num_dims)]
    syms = [AffineExpr.symbol(s) for s in symbols]
    return AffineSet(old.num_dims, old.num_symbols, tuple(
        AffineConstraintExpr(c.kind, c.lhs.replace_dims_and_symbols(dims, syms),
                             c.rhs.replace_dims_and_symbols(dims, syms))
        for c in old.constraints))
