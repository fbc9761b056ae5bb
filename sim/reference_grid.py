"""Cores of the KTIR reference interpreter: their state, the scratchpad ledger, the
order in which they run, and the inter-tile ops that pass data between them.

**Order.** Cores run one at a time in id order, each to its end or until it waits at
an inter-tile op; the waiting core hands over to the lowest-numbered core that can go
on. Nothing else orders cores: a kernel in which one core reads through device memory
what another writes, with no inter-tile op between, has no defined result (the
reference shows one allowed outcome, lower ids first). A wait that can never end is a
deadlock, reported with every waiting core and what it waits for.

**Scratchpad ledger.** Every tensor a core materializes (a load, a computed tensor, a
constant) is held in its scratchpad from its defining op to its last use; a value that
aliases another (a reshape, a loop-carried value) counts once. Views, access tiles and
scalars cost nothing. A tensor that makes the held bytes exceed the capacity (the
device's scratchpad; none without a device) stops the run with an error naming the
core, the bytes asked for, those held and the capacity.
(ktir-cpu charges loaded and computed tiles the same way, but not constants.)

**Inter-tile ops.** ``inter_tile_produce`` runs its body on each core that a group's
``producer_tiles_per_group`` names (``%gid`` = the group) and keeps its partials.
``inter_tile_reduce`` and ``inter_tile_consume`` match their executions across cores by
count (the k-th on each core is one exchange). A producer leaves its partials and goes
on; a consumer waits for the producers it needs (its group's, narrowed by
``producer_dependency_per_consumer``). ``reduce`` folds their partials *in ascending
tile id*, starting from ``identity`` when there is one, so every consumer of an
all-reduce receives the same bits; ``consume`` delivers its single producer's partials.
An identity or result typed as its partial reshaped by unit dimensions (the ktdp
dialect allows it) is reshaped on the way in and out.
On a core that consumes nothing the results are undefined, and using them is an error.
ktir-cpu folds in ring order starting at each core instead, which rounds the sums of
different consumers differently; a ring implementation is compared with the reference
within a tolerance.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from ktc.dialects.diagnostics import KtcError, where
from ktc.sim.reference_compute import ExecutionError
from ktc.sim.reference_affine import IntegerSet
from ktc.sim.reference_memory import Machine

if TYPE_CHECKING:
    from ktc.sim.reference_ops import CompiledBlock, Compiler


class Undefined:
    """The result of an inter-tile op on a core that does not consume it."""

    def __init__(self, op: Operation, core: int):
        self.op, self.core = op, core

    def __array__(self, *args, **kwargs):
        raise ExecutionError(self.message())

    def message(self) -> str:
        return (
            f"a result of {self.op.name} at {where(self.op)} is used on core {self.core}, "
            "which does not consume it (it is undefined there)"
        )


class ScratchpadOverflow(KtcError):
    """The tensors a core holds at once exceed its scratchpad: the reference refuses to
    materialize the tensor, as IBM's does. ``ktc run --check`` reruns the reference with
    a larger scratchpad on it (a compiled kernel that streams a copy holds no such
    tensor, so its result does not depend on the reference's scratchpad)."""


class Ledger:
    """The tensors a core holds, counted once per buffer, against its scratchpad."""

    def __init__(self, core: int, capacity: int | None):
        self.core, self.capacity, self.used = core, capacity, 0
        self.held: dict[int, list] = {}

    def charge(self, value, op: Operation) -> None:
        if not isinstance(value, np.ndarray):
            return
        buffer = value.base if isinstance(value.base, np.ndarray) else value
        entry = self.held.get(id(buffer))
        if entry is not None:
            entry[0] += 1
            return
        self.held[id(buffer)] = [1, buffer.nbytes, buffer]
        self.used += buffer.nbytes
        if self.capacity is not None and self.used > self.capacity:
            raise ScratchpadOverflow(
                f"scratchpad overflow on core {self.core}: {op.name} materializes a tensor of "
                f"{buffer.nbytes} bytes while the core holds {self.used - buffer.nbytes} bytes; "
                f"the scratchpad holds {self.capacity} bytes",
                where(op),
            )

    def release(self, env: list, slot: int) -> None:
        value, env[slot] = env[slot], None
        if not isinstance(value, np.ndarray):
            return
        buffer = value.base if isinstance(value.base, np.ndarray) else value
        entry = self.held.get(id(buffer))
        if entry is None:
            return
        entry[0] -= 1
        if not entry[0]:
            del self.held[id(buffer)]
            self.used -= entry[1]


@dataclass
class Core:
    """One core's execution state (slot 0 of its environment)."""

    id: int
    coords: tuple[int, ...]
    machine: Machine
    ledger: Ledger
    grid: Grid
    counts: dict[Operation, int] = field(default_factory=dict)
    """How often each inter-tile op has run on this core."""

    def count(self, op: Operation) -> int:
        self.counts[op] = self.counts.get(op, -1) + 1
        return self.counts[op]


class Stop(Exception):
    """Ends a core's thread when another core failed."""


class Grid:
    """Runs the cores one at a time in id order; a core that waits at an inter-tile op
    hands over to the lowest-numbered core that can go on."""

    def __init__(self, tiles: int):
        self.tiles = tiles
        self.mailbox: dict[tuple[Operation, int], dict[int, tuple]] = {}
        self._cond = threading.Condition()
        self._turn = 0
        self._done = [False] * tiles
        self._waiting: dict[int, tuple[Callable[[], bool], Callable[[], str], Operation]] = {}
        self._failure: BaseException | None = None

    def run(self, body: Callable[[int], None], threaded: bool) -> None:
        if not threaded:
            for core in range(self.tiles):
                body(core)
            return
        threads = [
            threading.Thread(target=self._thread, args=(body, core), daemon=True)
            for core in range(self.tiles)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if self._failure is not None:
            raise self._failure

    def _thread(self, body: Callable[[int], None], core: int) -> None:
        error = None
        try:
            with self._cond:
                self._cond.wait_for(lambda: self._turn == core or self._failure is not None)
                if self._failure is not None:
                    raise Stop
            body(core)
        except Stop:
            pass
        except BaseException as err:  # handed to the main thread
            error = err
        with self._cond:
            self._done[core] = True
            if error is not None and self._failure is None:
                self._failure = error
            if self._failure is None:
                self._hand_over()
            self._cond.notify_all()

    def wait(
        self, core: int, ready: Callable[[], bool], what: Callable[[], str], op: Operation
    ) -> None:
        """Block ``core`` at ``op`` until ``ready()``, letting other cores run meanwhile;
        ``what()`` says what it waits for."""
        if ready():
            return
        with self._cond:
            self._waiting[core] = (ready, what, op)
            self._hand_over()
            self._cond.wait_for(lambda: self._turn == core or self._failure is not None)
            del self._waiting[core]
            if self._failure is not None:
                raise Stop

    def _hand_over(self) -> None:
        for core in range(self.tiles):
            if self._done[core]:
                continue
            waiting = self._waiting.get(core)
            if waiting is None or waiting[0]():
                self._turn = core
                self._cond.notify_all()
                return
        if not all(self._done):
            waits = sorted(self._waiting.items())
            text = "; ".join(f"core {core} {what()}" for core, (_, what, _) in waits)
            self._failure = KtcError(f"deadlock: {text}", where(waits[0][1][2]))
            self._cond.notify_all()


# ---------------------------------------------------------------------------------------
# Inter-tile ops: (compiler, op) -> step, as in ``reference_ops``

Step = Callable[[list], None]


@dataclass(frozen=True)
class Future:
    """A core's view of a ``!ktdp.tile_future``."""

    producers: IntegerSet
    """``producer_tiles_per_group``: tile ids ``(i)`` per group ``[g]``."""
    groups: tuple[int, ...]
    partials: tuple | None
    """This core's partials, when it produces."""


def _members(aset: IntegerSet, symbols: Sequence[int], tiles: int) -> list[int]:
    """The tile ids in ``[0, tiles)`` that a set over ``(i)`` holds."""
    ids = np.arange(tiles)
    inside = np.broadcast_to(aset.bind(symbols).contains([ids]), ids.shape)
    return [int(i) for i in ids[inside]]


def _groups(op: Operation, future_type) -> tuple[int, ...]:
    groups = IntegerSet(future_type.groups.data).bind(())
    try:
        points, _ = groups.points(None)
    except ValueError as err:
        raise KtcError(f"{op.name}: groups: {err}", where(op)) from None
    return tuple(int(g) for g in np.ravel(points[0]))


def _produce(c: Compiler, op: Operation) -> Step:
    producers = IntegerSet(op.producer_tiles_per_group.data)
    groups = _groups(op, op.future.type)
    body = c.region(op.body, op)
    out = c.slot(op.future)

    def run(env: list) -> None:
        core = env[0]
        mine = [g for g in groups if core.id in _members(producers, (g,), core.grid.tiles)]
        if len(mine) > 1:
            raise ExecutionError(
                f"core {core.id} is a producer of groups {mine}; the sets must be disjoint"
            )
        partials = tuple(body.run(env, [mine[0]])) if mine else None
        env[out] = Future(producers, groups, partials)

    return run


def _delivery(c: Compiler, op: Operation, combiner: CompiledBlock | None) -> Step:
    """``inter_tile_reduce`` (with a combiner) and ``inter_tile_consume``."""
    future = c.slot(op.future)
    identity = [c.slot(v) for v in getattr(op, "identity", ())]
    partial_shapes = [t.get_shape() for t in op.future.type.partial_types.data]
    results = [c.slot(r) for r in op.results]
    result_shapes = [r.type.get_shape() for r in op.results]
    consumers = IntegerSet(op.consumer_tiles_per_group.data)
    dependency = op.producer_dependency_per_consumer
    dependency = IntegerSet(dependency.data) if dependency is not None else None
    c.collective = True

    def run(env: list) -> None:
        core = env[0]
        tiles, value = core.grid.tiles, env[future]
        exchange = core.grid.mailbox.setdefault((op, core.count(op)), {})
        if value.partials is not None:
            exchange[core.id] = value.partials
        groups = [g for g in value.groups if core.id in _members(consumers, (g,), tiles)]
        if not groups:
            for slot in results:
                env[slot] = Undefined(op, core.id)
            return
        if len(groups) > 1:
            raise ExecutionError(f"core {core.id} consumes for groups {groups}; one at most")
        group = groups[0]
        needed = _members(value.producers, (group,), tiles)
        if dependency is not None:
            symbols = (core.id, group)[: dependency.num_symbols]
            needed = [p for p in needed if p in _members(dependency, symbols, tiles)]
        if combiner is None and len(needed) != 1:
            raise ExecutionError(
                f"core {core.id} depends on producers {needed} of group {group}; "
                "inter_tile_consume delivers exactly one contribution"
            )
        if combiner is not None and not needed and not identity:
            raise ExecutionError(f"core {core.id} has no producer to reduce and no identity")

        def missing() -> list[int]:
            return [p for p in needed if p not in exchange]

        core.grid.wait(
            core.id,
            lambda: not missing(),
            lambda: (
                f"waits at {op.name} ({where(op)}) for the partials of cores "
                f"{', '.join(map(str, missing()))}"
            ),
            op,
        )
        if combiner is None:
            totals = list(exchange[needed[0]])
        else:
            start = [np.reshape(env[s], shape) for s, shape in zip(identity, partial_shapes)]
            totals = start or list(exchange[needed[0]])
            for producer in needed[0 if identity else 1 :]:
                totals = combiner.run(env, [*totals, *exchange[producer]])
        for slot, total, shape in zip(results, totals, result_shapes):
            env[slot] = np.reshape(total, shape)

    return run


def _reduce(c: Compiler, op: Operation) -> Step:
    return _delivery(c, op, c.region(op.combiner, op))


def _consume(c: Compiler, op: Operation) -> Step:
    return _delivery(c, op, None)


EXECUTORS = {
    "ktdp.inter_tile_produce": _produce,
    "ktdp.inter_tile_reduce": _reduce,
    "ktdp.inter_tile_consume": _consume,
}
