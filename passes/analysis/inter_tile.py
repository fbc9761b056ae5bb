"""What a ``ktdp.inter_tile_produce`` + ``ktdp.inter_tile_reduce`` (or
``ktdp.inter_tile_consume``) pair means on a static grid: the affine sets of the pair
resolved into per-tile facts (``Exchange``, ``Delivery``), with a diagnostic for every
form that ``inter-tile-reduce-lowering`` does not lower. ``ktir-legality-check`` asks the same question before anything
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


@dataclass(frozen=True)
class Delivery:
    """What a consume means on a static grid of ``tiles`` tiles."""

    tiles: int
    sources: tuple[int, ...]
    """Per tile, the one producer whose partial it receives (-1: it consumes nothing)."""
    groups: tuple[int, ...]
    """Per tile, the group it produces for (0 for a non-producer)."""

    def send_tables(self) -> list[list[int]]:
        """Per rank k, per tile, the k-th other tile that receives its partial (-1:
        none), for every rank on which some tile sends."""
        receivers = [[c for c, p in enumerate(self.sources) if p == tile and c != tile]
                     for tile in range(self.tiles)]
        ranks = max(map(len, receivers), default=0)
        return [[r[k] if k < len(r) else -1 for r in receivers] for k in range(ranks)]

    def received_table(self) -> list[int]:
        """Per tile, 1 if it receives another tile's partial, else 0 (its own, or none)."""
        return [int(p >= 0 and p != tile) for tile, p in enumerate(self.sources)]


def consumer_of(produce: ktdp.InterTileProduceOp) -> Operation:
    """The one reduce or consume of ``produce``'s future, in its block."""
    uses = list(produce.future.uses)
    user = uses[0].operation if len(uses) == 1 else None
    if not isinstance(user, ktdp.InterTileReduceOp | ktdp.InterTileConsumeOp):
        raise KtcError(
            f"'{produce.name}' must have exactly one use, by a ktdp.inter_tile_reduce or "
            "ktdp.inter_tile_consume in the same block", where(produce))
    if user.parent_block() is not produce.parent_block():
        raise KtcError(f"'{user.name}' must be in the block of its ktdp.inter_tile_produce",
                       where(user))
    return user


def resolve_consume(produce: ktdp.InterTileProduceOp,
                    tiles: int) -> tuple[ktdp.InterTileConsumeOp, Delivery]:
    """The consume of ``produce``'s future and what the pair means on ``tiles`` tiles:
    each consumer tile of a group receives the partial of its group's one producer or,
    with ``producer_dependency_per_consumer``, of the one producer it names (symbols
    ``c`` and, when there are two, ``g``), as the reference interpreter delivers it."""
    consume = consumer_of(produce)
    if len(consume.outputs) != 1:
        raise KtcError(f"'{consume.name}' delivers {len(consume.outputs)} partials per tile; one "
                       "is supported yet: produce and consume each partial on its own", where(consume))
    _partials(consume)
    producer_set = produce.producer_tiles_per_group.data
    consumer_set = consume.consumer_tiles_per_group.data
    dependency = consume.producer_dependency_per_consumer
    sources, produces_for = [-1] * tiles, [0] * tiles
    for group in _groups(produce, tiles):
        members = _members(producer_set, group, tiles)
        for tile in members:
            produces_for[tile] = group
        for tile in _members(consumer_set, group, tiles):
            if sources[tile] >= 0:
                raise KtcError(f"'{consume.name}' tile {tile} consumes for several groups",
                               where(consume))
            needed = members
            if dependency is not None:
                symbols = [tile, group][: dependency.data.num_symbols]
                needed = tuple(p for p in members if _contains(dependency.data, [p], symbols))
            if len(needed) != 1:
                raise KtcError(
                    f"'{consume.name}' tile {tile} of group {group} depends on "
                    f"{len(needed)} producers; inter_tile_consume delivers one contribution "
                    "per consumer tile, so exactly one is required", where(consume))
            sources[tile] = needed[0]
    return consume, Delivery(tiles, tuple(sources), tuple(produces_for))


def _partials(user: Operation) -> None:
    """Each partial ``user`` delivers is of rank >= 1 and of the partial's own type."""
    identities = list(getattr(user, "identity", ()))
    for k, result in enumerate(user.outputs):
        partial = result.type
        reshaped = identities and identities[k].type != partial
        if user.future.type.partial_types.data[k] != partial or reshaped:
            raise KtcError(f"'{user.name}' reshapes its partial (by dimensions of extent 1); that "
                           "is not supported yet: give its identity and results the partial's "
                           "type and reshape the result after it", where(user))
        if not isinstance(partial, TensorType) or partial.get_num_dims() < 1:
            raise KtcError(f"'{user.name}' delivers {attr_text(partial)}; a partial is a tensor "
                           "of rank 1 or more", where(user))


def _groups(produce: ktdp.InterTileProduceOp, tiles: int) -> list[int]:
    groups = groups_of(produce, tiles)
    if not groups:
        raise KtcError(f"'{produce.name}' has no group among ids 0 .. {tiles - 1}", where(produce))
    return groups


def resolve(produce: ktdp.InterTileProduceOp, tiles: int) -> tuple[ktdp.InterTileReduceOp, Exchange]:
    """The one reduce of ``produce``'s future and what the pair means on ``tiles``
    tiles; a diagnostic for every form that is not a reduce of partials (one or
    several, each a tensor of its own type) whose consumers are producers of their
    group."""
    reduce = consumer_of(produce)
    if not isinstance(reduce, ktdp.InterTileReduceOp):
        raise KtcError(f"'{produce.name}' is consumed, not reduced", where(produce))
    if reduce.producer_dependency_per_consumer is not None:
        raise KtcError(f"'{reduce.name}' with producer_dependency_per_consumer is not supported "
                       "yet: every producer of a group is combined; drop it and make each group "
                       "the producers to combine (producer_tiles_per_group)", where(reduce))
    _partials(reduce)
    producer_set = produce.producer_tiles_per_group.data
    consumer_set = reduce.consumer_tiles_per_group.data
    groups = _groups(produce, tiles)
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
