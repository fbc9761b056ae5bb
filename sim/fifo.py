"""FIFOs between engines and the sync signals of scratchpad hand-offs.

A :class:`Fifo` joins one sending unit to one receiving unit (the hardware has one
queue per directed pair, so messages of every ``id`` share it, in order). It holds
``depth`` beats of ``beat_bytes``; a vector of ``n`` bytes takes ``ceil(n /
beat_bytes)`` beats. A send needs that many free beats, or, for a vector longer than
the whole FIFO, an empty FIFO (it then streams through, and is counted as filling it);
otherwise the sender is back-pressured. A receive takes the head message once it has
arrived; the head must carry the id the receiver names, or the programs disagree on
the order of their transfers, which is an error.

:class:`Signals` counts the sync signals sent and not yet received, per (sender,
receiver, id).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np
from ktc.sim.machine import Route


class Message:
    """A vector in a FIFO: its id, element type and values, the beats it holds (at
    most the depth) and the cycle its last beat reaches the receiver's end."""

    __slots__ = ("arrival", "beats", "dtype", "id", "values")

    def __init__(self, id: int, dtype: str, values: np.ndarray, beats: int, arrival: int):
        self.id, self.dtype, self.values, self.beats, self.arrival = id, dtype, values, beats, arrival


@dataclass
class Fifo:
    name: str
    """``L1LU[0.0] -> SFU[0.0]``."""

    depth: int
    beat_bytes: int
    route: Route
    """The datapath a send holds (``ktc.sim.machine``)."""
    core: int | None = None
    """The receiver's core (where the trace shows it)."""

    messages: deque[Message] = field(default_factory=deque)
    occupancy: int = 0
    """Beats held now."""

    waiting: list = field(default_factory=list)
    """Engines blocked on this FIFO (either end); all are woken on every change."""

    def beats(self, nbytes: int) -> int:
        """Beats a vector of ``nbytes`` holds while in the FIFO."""
        return min(-(-nbytes // self.beat_bytes), self.depth)

    def push(self, message: Message) -> None:
        self.messages.append(message)
        self.occupancy += message.beats

    def pop(self) -> Message:
        message = self.messages.popleft()
        self.occupancy -= message.beats
        return message

    def take_waiting(self) -> list:
        waiting, self.waiting = self.waiting, []
        return waiting


@dataclass
class Signals:
    """Sync signals sent and not yet received."""

    pending: dict[tuple[int, int, int], int] = field(default_factory=dict)
    """By (sender unit, receiver unit, id)."""

    waiting: dict[tuple[int, int, int], list] = field(default_factory=dict)

    def send(self, key: tuple[int, int, int]) -> list:
        """Record a signal; the engines waiting for it."""
        self.pending[key] = self.pending.get(key, 0) + 1
        return self.waiting.pop(key, [])

    def take(self, key: tuple[int, int, int]) -> bool:
        """Consume a signal if one is pending."""
        if not self.pending.get(key):
            return False
        self.pending[key] -= 1
        return True

    def wait(self, key: tuple[int, int, int], engine) -> None:
        self.waiting.setdefault(key, []).append(engine)
