"""What a ``ktdp.inter_tile_produce`` + ``ktdp.inter_tile_reduce`` pair means on a
static grid: the affine sets of the pair resolved into per-tile facts
(``Exchange``), with a diagnostic for every form that ``inter-tile-reduce-lowering``
does not lower. ``ktir-legality-check`` asks the same question before anything
changes, so that an unsupported form is refused at the start of the pipeline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineConstraintKind, AffineSet

from ktc.dialects import ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import attr_text


@dataclass(frozen=True)
class Exchange:
    """What a reduce means on a static grid of ``tiles`` tiles."""

    tiles: int
    producers: tuple[tuple[int, ...], ...]
    """Per group, its producer tiles in ascending id: the fold order."""
    consumers: tuple[tuple[int, ...], ...]
    """Per group, the tiles that combine the partials, in ascending id."""

    @property
    def slots(self) -> int:
        return len(self.producers[0])

    def slot_table(self) -> list[int]:
        """Per tile, its slot in its group's receive buffer (0 for a non-producer)."""
        table = [0] * self.tiles
        for members in self.producers:
            for slot, tile in enumerate(members):
                table[tile] = slot
        return table

    def send_table(self, rank: int) -> list[int]:
        """Per tile, the ``rank``-th consumer of its group, which it sends its partial
        to (-1: a non-producer, a group with fewer consumers, or the tile itself)."""
        table = [-1] * self.tiles
        for members, consumers in zip(self.producers, self.consumers):
            if rank < len(consumers):
                for tile in members:
                    table[tile] = consumers[rank] if consumers[rank] != tile else -1
        return table

    def send_tables(self) -> list[list[int]]:
        """The send table of every consumer rank on which some tile sends."""
        tables = [self.send_table(rank) for rank in range(max(map(len, self.consumers)))]
        return [table for table in tables if any(to >= 0 for to in table)]

    def group_table(self, groups: Sequence[int]) -> list[int]:
        """Per tile, the group it produces for (0 for a non-producer)."""
        table = [0] * self.tiles
        for group, members in zip(groups, self.producers):
            for tile in members:
                table[tile] = group
        return table


def _contains(aset: AffineSet, dims: Sequence[int], symbols: Sequence[int]) -> bool:
    """Whether the point ``dims`` is in ``aset`` with ``symbols`` bound."""
    for constraint in aset.constraints:
        value = (constraint.lhs - constraint.rhs).eval(list(dims), list(symbols))
        if constraint.kind == AffineConstraintKind.eq:
            holds = value == 0
        else:
            holds = value >= 0 if constraint.kind == AffineConstraintKind.ge else value <= 0
        if not holds:
            return False
    return True


def _members(aset: AffineSet, group: int, tiles: int) -> tuple[int, ...]:
    """The tiles of ``aset`` with the group symbol bound to ``group``, ascending."""
    return tuple(tile for tile in range(tiles) if _contains(aset, [tile], [group]))


def groups_of(produce: ktdp.InterTileProduceOp, tiles: int) -> list[int]:
    """The group ids of the future ``produce`` makes. A group has a producer tile, so
    there are at most as many as tiles; they are looked for among 0 .. tiles - 1."""
    groups = produce.future.type.groups.data
    return [group for group in range(tiles) if _contains(groups, [group], [])]


def resolve(produce: ktdp.InterTileProduceOp, tiles: int) -> tuple[ktdp.InterTileReduceOp, Exchange]:
    """The one reduce of ``produce``'s future and what the pair means on ``tiles``
    tiles; a diagnostic for every form that is not a reduce of one partial whose
    consumers are producers of their group."""
    uses = list(produce.future.uses)
    reduce = uses[0].operation if len(uses) == 1 else None
    if not isinstance(reduce, ktdp.InterTileReduceOp):
        raise KtcError(
            f"'{produce.name}' must have exactly one use, by a ktdp.inter_tile_reduce in the "
            "same block (inter_tile_consume is not supported yet)", where(produce))
    if reduce.parent_block() is not produce.parent_block():
        raise KtcError(f"'{reduce.name}' must be in the block of its ktdp.inter_tile_produce",
                       where(reduce))
    if reduce.producer_dependency_per_consumer is not None:
        raise KtcError(f"'{reduce.name}' with producer_dependency_per_consumer is not supported "
                       "yet: every producer of a group is combined", where(reduce))
    if len(reduce.outputs) != 1:
        raise KtcError(f"'{reduce.name}' combines {len(reduce.outputs)} partials per tile; one is "
                       "supported yet", where(reduce))
    partial = reduce.outputs[0].type
    reshaped = [v.type for v in reduce.identity if v.type != partial]
    if reduce.future.type.partial_types.data[0] != partial or reshaped:
        raise KtcError(f"'{reduce.name}' reshapes its partial (by dimensions of extent 1); that is "
                       "not supported yet", where(reduce))
    if not isinstance(partial, TensorType) or partial.get_num_dims() < 1:
        raise KtcError(f"'{reduce.name}' combines {attr_text(partial)}; a partial is a tensor of "
                       "rank 1 or more", where(reduce))
    producer_set = produce.producer_tiles_per_group.data
    consumer_set = reduce.consumer_tiles_per_group.data
    groups = groups_of(produce, tiles)
    if not groups:
        raise KtcError(f"'{produce.name}' has no group among ids 0 .. {tiles - 1}", where(produce))
    producers, consumers = [], []
    for group in groups:
        members = _members(producer_set, group, tiles)
        chosen = _members(consumer_set, group, tiles)
        if not chosen:
            raise KtcError(f"'{reduce.name}' has no consumer tile in group {group}", where(reduce))
        for tile in chosen:
            if tile not in members:
                raise KtcError(f"'{reduce.name}' consumer tile {tile} of group {group} is not "
                               "one of its producers", where(reduce))
        producers.append(members)
        consumers.append(chosen)
    counts = sorted({len(members) for members in producers})
    if len(counts) != 1:
        raise KtcError(f"'{produce.name}' groups have {', '.join(map(str, counts))} producers; "
                       "every group must have as many", where(produce))
    seen = [tile for members in producers for tile in members]
    if len(seen) != len(set(seen)):
        raise KtcError(f"'{produce.name}' names a tile as a producer of several groups",
                       where(produce))
    return reduce, Exchange(tiles, tuple(producers), tuple(consumers))


def function_of(op: Operation) -> FuncOp:
    """The kernel ``op`` is in, at its top level or in ``scf.for`` loops only."""
    parent = op.parent_op()
    while isinstance(parent, scf.ForOp):
        parent = parent.parent_op()
    if not isinstance(parent, FuncOp):
        raise KtcError(f"'{op.name}' inside '{parent.name}' is not supported yet: inter-tile "
                       "ops must be at the kernel's top level or in scf.for loops", where(op))
    return parent
