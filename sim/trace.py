"""A Chrome trace of a run (the JSON that chrome://tracing and Perfetto open).

One process per core (device-level units share a process named after the device), one
thread per engine instance; a complete event (``"ph": "X"``) per busy interval, named
after the instruction; a counter track (``"ph": "C"``) per FIFO, its occupancy in beats
after every change. Timestamps are cycles, written as microseconds: one microsecond
in the viewer is one cycle.
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

    def __init__(self, device_name: str, cores: int):
        self.events: list[dict] = [_name("process_name", SHARED_PID, None, f"@{device_name}")]
        self.events += [_name("process_name", pid_of(c), None, f"core {c}") for c in range(cores)]
        self._threads: set[tuple[int, int]] = set()

    def busy(self, engine, name: str, start: int, end: int) -> None:
        pid, tid = pid_of(engine.node.core), engine.unit
        if (pid, tid) not in self._threads:
            self._threads.add((pid, tid))
            self.events.append(_name("thread_name", pid, tid, engine.name))
        self.events.append({"ph": "X", "pid": pid, "tid": tid, "ts": start, "dur": end - start,
                            "name": name})

    def counter(self, fifo, time: int) -> None:
        self.events.append({"ph": "C", "pid": pid_of(fifo.core), "ts": time,
                            "name": f"FIFO {fifo.name}", "args": {"beats": fifo.occupancy}})

    def write(self, path: str | Path) -> None:
        document = {"traceEvents": self.events, "displayTimeUnit": "ns",
                    "otherData": {"time_unit": "cycle"}}
        Path(path).write_text(json.dumps(document))


def _name(kind: str, pid: int, tid: int | None, name: str) -> dict:
    event = {"ph": "M", "name": kind, "pid": pid, "args": {"name": name}}
    if tid is not None:
        event["tid"] = tid
    return event
