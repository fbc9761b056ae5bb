"""A Chrome trace of a run (the JSON that chrome://tracing and Perfetto open).

One process per core that ran something (``core N``, in core order; units outside the
cores share one process named after the device), one thread per engine instance,
named by its unit as every report and deadlock message names it (``SFU[0.1]``,
``MNILU[0]``); a complete event (``"ph": "X"``) per busy interval, named after the
instruction; a counter track (``"ph": "C"``) per FIFO (``FIFO L1LU[0.0] -> SFU[0.0]``),
its occupancy in beats after every change. Timestamps are microseconds, as the format
defines them: cycles divided by the clock in MHz (``otherData`` states the clock, so a
cycle count is ``ts * clock_mhz``).
"""

from __future__ import annotations

import json
from pathlib import Path

SHARED_PID = 0
"""The process of units outside the cores; core ``c`` is process ``c + 1``."""


def pid_of(core: int | None) -> int:
    return SHARED_PID if core is None else core + 1


class Trace:
    """Collects the events of one run."""

    def __init__(self, device_name: str, clock_mhz: int):
        self.device_name = device_name
        self.clock_mhz = clock_mhz
        self.events: list[dict] = []
        self._processes: set[int] = set()
        self._threads: set[tuple[int, int]] = set()

    def busy(self, engine, name: str, start: int, end: int) -> None:
        pid, tid = self._process(engine.node.core), engine.node.index
        if (pid, tid) not in self._threads:
            self._threads.add((pid, tid))
            self.events.append(_meta("thread_name", pid, tid, engine.name))
            self.events.append(_meta("thread_sort_index", pid, tid, tid, "sort_index"))
        self.events.append({"ph": "X", "pid": pid, "tid": tid, "ts": self._us(start),
                            "dur": self._us(end - start), "name": name})

    def counter(self, fifo, time: int) -> None:
        self.events.append({"ph": "C", "pid": self._process(fifo.core), "ts": self._us(time),
                            "name": f"FIFO {fifo.name}", "args": {"beats": fifo.occupancy}})

    def write(self, path: str | Path) -> None:
        document = {"traceEvents": self.events, "displayTimeUnit": "ns",
                    "otherData": {"device": self.device_name, "clock_mhz": self.clock_mhz,
                                  "ts": "microseconds: cycles / clock_mhz"}}
        Path(path).write_text(json.dumps(document))

    def _process(self, core: int | None) -> int:
        """The pid of ``core``'s process, named on its first event."""
        pid = pid_of(core)
        if pid not in self._processes:
            self._processes.add(pid)
            name = f"@{self.device_name}" if core is None else f"core {core}"
            self.events.append(_meta("process_name", pid, None, name))
            self.events.append(_meta("process_sort_index", pid, None, pid, "sort_index"))
        return pid

    def _us(self, cycles: int) -> float:
        return cycles / self.clock_mhz


def _meta(kind: str, pid: int, tid: int | None, value, key: str = "name") -> dict:
    event = {"ph": "M", "name": kind, "pid": pid, "args": {key: value}}
    if tid is not None:
        event["tid"] = tid
    return event
