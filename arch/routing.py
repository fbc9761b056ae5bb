"""Cheapest paths over the routing graph.

Dijkstra over the device's links with a caller's cost per link; between paths of
equal cost the one with fewer hops wins, then the one found first. ``passable``
says which nodes a path may go *through* (its ends may be anything).
"""

import heapq
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar


class Edge(Protocol):
    """What the search needs of a link: the indices of its ends."""

    @property
    def source_index(self) -> int: ...

    @property
    def target_index(self) -> int: ...


E = TypeVar("E", bound=Edge)


def search(
    links_at: Sequence[Sequence[E]],
    source: int,
    cost: Callable[[E], int],
    passable: Callable[[int], bool],
    reverse: bool = False,
) -> dict[int, E]:
    """For every node a cheapest path from ``source`` reaches, the last link of that
    path. ``links_at[n]`` are the links leaving node ``n`` (entering it, walking
    them backwards, when ``reverse``: then the paths lead *to* ``source``)."""
    best = {source: (0, 0)}
    last: dict[int, E] = {}
    queue = [(0, 0, source)]
    while queue:
        distance, hops, node = heapq.heappop(queue)
        if (distance, hops) != best[node] or (node != source and not passable(node)):
            continue
        for link in links_at[node]:
            next_node = link.source_index if reverse else link.target_index
            candidate = (distance + cost(link), hops + 1)
            if next_node not in best or candidate < best[next_node]:
                best[next_node] = candidate
                last[next_node] = link
                heapq.heappush(queue, (*candidate, next_node))
    return last


def walk(last: dict[int, E], source: int, target: int, reverse: bool = False) -> tuple[E, ...] | None:
    """The path ``search`` found between ``source`` and ``target``, in travel order;
    None when there is none."""
    if target == source:
        return ()
    if target not in last:
        return None
    path: list[E] = []
    node = target
    while node != source:
        link = last[node]
        path.append(link)
        node = link.target_index if reverse else link.source_index
    return tuple(path) if reverse else tuple(reversed(path))
