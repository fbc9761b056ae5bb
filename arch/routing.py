"""Cheapest paths over the routing graph.

Dijkstra over the device's links with a caller's cost per link; between paths of
equal cost the one with fewer hops wins, then the one found first. ``passable``
says which nodes a path may go *through* (its ends may be anything).
"""

import heapq
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar


class Edge(Protocol):
    """What ``walk`` needs of a link: the indices of its ends."""

    @property
    def source_index(self) -> int: ...

    @property
    def target_index(self) -> int: ...


E = TypeVar("E", bound=Edge)

Arc = tuple[int, int, E]
"""A link as the search walks it: the node it leads to, its cost, the link."""


def arcs(links_at: Sequence[Sequence[E]], cost: Callable[[E], int], reverse: bool = False) -> tuple[tuple[Arc, ...], ...]:
    """Per node, its links with the node each leads to and its cost, for ``search``
    (``links_at[n]`` the links leaving node ``n``, or entering it when ``reverse``:
    they are then walked backwards)."""
    return tuple(tuple(((link.source_index if reverse else link.target_index), cost(link), link)
                       for link in links) for links in links_at)


def search(arcs_at: Sequence[Sequence[Arc]], source: int, passable: Sequence[bool],
           target: int | None = None) -> dict[int, E]:
    """For every node a cheapest path from ``source`` over ``arcs_at`` (see ``arcs``)
    reaches, the last link of that path; given a ``target``, the search stops once
    that node's path is known (the other entries may then be partial)."""
    best = {source: (0, 0)}
    last: dict[int, E] = {}
    queue = [(0, 0, source)]
    while queue:
        distance, hops, node = heapq.heappop(queue)
        if node == target:
            break
        if (distance, hops) != best[node] or (node != source and not passable[node]):
            continue
        hops += 1
        for next_node, cost, link in arcs_at[node]:
            candidate = (distance + cost, hops)
            known = best.get(next_node)
            if known is None or candidate < known:
                best[next_node] = candidate
                last[next_node] = link
                heapq.heappush(queue, (*candidate, next_node))
    return last


def connected(arcs_at: Sequence[Sequence[Arc]], source: int, target: int, passable: Sequence[bool]) -> bool:
    """Whether some path leads from ``source`` to ``target`` (``search`` without costs)."""
    seen, todo = {source}, [source]
    while todo:
        node = todo.pop()
        if node == target:
            return True
        if node != source and not passable[node]:
            continue
        for next_node, _, _ in arcs_at[node]:
            if next_node not in seen:
                seen.add(next_node)
                todo.append(next_node)
    return False


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
