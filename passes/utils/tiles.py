"""Access tiles that cover a box: the coordinate sets and tiles the passes build."""

from collections.abc import Sequence

from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ktc.dialects import ktdp
from ktc.passes.utils.affine import box


def box_tile(
    base: SSAValue, start: AffineMap, indices: Sequence[SSAValue], shape: Sequence[int]
) -> ktdp.ConstructAccessTileOp:
    """The access tile of ``base`` holding the box of ``shape`` that starts at
    ``start(indices)``, in row-major order."""
    return ktdp.ConstructAccessTileOp.build(
        operands=[base, list(indices), []],
        result_types=[ktdp.AccessTileType(shape)],
        properties={
            "base_map": AffineMapAttr(start),
            "access_tile_set": AffineSetAttr(box(shape)),
            "access_tile_order": AffineMapAttr(AffineMap.identity(len(shape))),
        },
    )


def origin(rank: int) -> AffineMap:
    """The map to the origin of a rank-``rank`` view, without operands."""
    return AffineMap(0, 0, (AffineExpr.constant(0),) * rank)


def at_origin(tile: ktdp.ConstructAccessTileOp) -> bool:
    """Whether ``tile`` starts at the origin of what it indexes."""
    return tile.base_map.data == origin(tile.result.type.get_num_dims()) and not tile.indices
