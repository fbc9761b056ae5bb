"""``tile-scf-for-loops``: tile perfect nests of parallel loops, with tile sizes
given or left for tile-size selection to choose."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.dialects.ktdf import DeriveSizeOp, LoopType, ReserveSizeOp, loop_type
from ktc.passes.utils.ir import defined_inside
from ktc.passes.utils.loops import normalize, tile

MAX_DEPTH = 4
"""The most loops tiled together (IBM's LoopTilingAnalysis cap)."""


def _is_parallel(loop: scf.ForOp) -> bool:
    return loop_type(loop) == LoopType.PARALLEL_LOOP


def _from_tiling(loop: scf.ForOp) -> bool:
    """A loop a tiling made: a point loop (bounded by ``derive_size``) or a tile loop
    (its index feeds ``derive_size``). Tiling them again would only nest tiles."""
    if isinstance(loop.ub.owner, DeriveSizeOp):
        return True
    return any(isinstance(use.operation, DeriveSizeOp) for use in loop.body.block.args[0].uses)


def _tileable(loop: scf.ForOp) -> bool:
    """A parallel ``index`` loop without ``iter_args`` that no tiling made."""
    return (
        _is_parallel(loop)
        and not loop.iter_args
        and isinstance(loop.ub.type, IndexType)
        and not _from_tiling(loop)
    )


def _only_loop_inside(loop: scf.ForOp) -> scf.ForOp | None:
    """The loop that is all of ``loop``'s body (beside the terminator)."""
    ops = list(loop.body.block.ops)
    if len(ops) == 2 and isinstance(ops[0], scf.ForOp):
        return ops[0]
    return None


def _nest(outer: scf.ForOp, depth: int) -> list[scf.ForOp]:
    """The perfect nest of up to ``depth`` tileable loops starting at ``outer``,
    each inner loop with bounds from outside the nest (a rectangular nest)."""
    nest = [outer]
    while len(nest) < depth:
        inner = _only_loop_inside(nest[-1])
        if inner is None or not _tileable(inner):
            break
        if any(defined_inside(bound, outer) for bound in (inner.lb, inner.ub, inner.step)):
            break
        nest.append(inner)
    return nest


def candidate_nests(module: ModuleOp, depth: int) -> list[list[scf.ForOp]]:
    """Every perfect nest of 2 to ``depth`` tileable loops, outermost first; a loop
    belongs to one nest at most. A lone loop would be strip-mined, which this pass
    does not do."""
    nests: list[list[scf.ForOp]] = []
    taken: set[scf.ForOp] = set()
    for loop in module.walk():
        if not isinstance(loop, scf.ForOp) or loop in taken or not _tileable(loop):
            continue
        nest = _nest(loop, depth)
        if len(nest) > 1:
            nests.append(nest)
            taken.update(nest)
    return nests


@dataclass(frozen=True)
class TileScfForLoops(ModulePass):
    """Tile perfect nests of parallel loops (IBM's tile-scf-for-loops, with its
    custom normalized tiling).

    Expects ``scf.for`` loops marked ``loop_type = #ktdf.loop_type<parallel_loop>``.
    A candidate nest is 2 to 4 perfectly nested, rectangular, ``index``-typed
    parallel loops without ``iter_args`` (a reduction loop or any other op between
    loops ends a nest). Loops of a candidate nest that do not count from 0 in steps
    of 1 are normalized first, as ``normalize-scf-for-loops`` does. A lone parallel
    loop is left alone (it would need strip-mining).

    Produces, for a nest ``i < N, j < M`` tiled by ``ts_i, ts_j``: tile loops to
    ``arith.ceildivui(N, ts_i)`` and ``(M, ts_j)``; inside them
    ``ktdf.tiling.derive_size`` of each and the original loops as point loops up
    to those sizes; each original index that is used becomes
    ``ktdf.tiling.linearize_index [t : ts], [p : 1]``. Tile loops keep the
    original loops' attributes.

    ``tile-sizes`` (for testing) gives the sizes, the k-th for the k-th loop of
    every nest, nests being at most as deep as the list. Without it each loop gets
    a ``ktdf.tiling.reserve_size {min_value = 1, divisibility = 1}`` placeholder
    before its nest, for tile-size selection to decide. Loops a tiling made are
    never tiled again, so the pass is idempotent.
    """

    name = "tile-scf-for-loops"

    tile_sizes: tuple[int, ...] = ()
    """Tile sizes, outermost loop first: 2 to 4 positive numbers; none for the
    ``reserve_size`` placeholders."""

    def __post_init__(self):
        if not self.tile_sizes:
            return
        if len(self.tile_sizes) == 1:
            raise ValueError(
                f"tile-sizes needs a size for each of 2 to {MAX_DEPTH} nested loops; "
                "one loop alone would be strip-mined, which this pass does not do"
            )
        if len(self.tile_sizes) > MAX_DEPTH:
            raise ValueError(
                f"tile-sizes gives {len(self.tile_sizes)} sizes, but at most "
                f"{MAX_DEPTH} loops are tiled together"
            )
        if any(size < 1 for size in self.tile_sizes):
            raise ValueError(f"tile-sizes must be positive, got {list(self.tile_sizes)}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        depth = len(self.tile_sizes) or MAX_DEPTH
        for nest in candidate_nests(op, depth):
            for loop in nest:
                normalize(loop)
        # Normalizing makes no new nest, but may break one (an index recomputed
        # between two loops of a nest inside): look again.
        for nest in candidate_nests(op, depth):
            sizes = self._sizes(len(nest))
            Rewriter.insert_op(sizes, InsertPoint.before(nest[0]))
            tile(nest, [size.results[0] for size in sizes])

    def _sizes(self, depth: int) -> list[Operation]:
        if not self.tile_sizes:
            return [ReserveSizeOp() for _ in range(depth)]
        sizes = self.tile_sizes[:depth]
        return [arith.ConstantOp(IntegerAttr(size, IndexType())) for size in sizes]
