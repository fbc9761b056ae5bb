"""The naive baseline (``compile(optimize=False)``: ``ktir-to-dfir-unoptimized`` with
the smallest tiles) runs one tile at a time: on every core, no copy into the
scratchpad is in flight while a copy out of it is, so loading, computing and storing
never overlap; its outputs are still the kernel's. The benchmark add and
broadcast_add at their small size give each core several tiles of the smallest size.
The same lowering without ``serial`` (the pipeline's tiles free to overlap) shows
that the check can fail."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ktc.benchmarks.kernels import case
from ktc.driver import compile as compile_kernel
from ktc.passes import pipeline
from ktc.sim.check import compare
from ktc.sim.simulator import Simulator

KERNELS = ("add", "broadcast_add")


def formula(kernel: str, inputs: dict) -> np.ndarray:
    """The output in numpy: a + b, the row vector b broadcast over a's rows for
    broadcast_add, rounded once to f16."""
    a, b = (inputs[name].astype(np.float32) for name in list(inputs)[:2])
    return (a + b).astype(np.float16)


def traced(kernel: str, tmp_path) -> tuple[dict, dict, list[tuple[str, int, int]]]:
    """The naive schedule's inputs, outputs and every DMA busy interval (engine, start,
    end) of its run on spyre."""
    kernel_case = case(kernel, "small")
    package = compile_kernel(kernel_case.text, "spyre", kernel, optimize=False)
    path = tmp_path / f"{kernel}.json"
    simulator = Simulator("spyre", trace=path)
    inputs = kernel_case.inputs()
    outputs = simulator.prepare(package).launch(*inputs.values())
    document = json.loads(path.read_text())
    clock = document["otherData"]["clock_mhz"]
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in document["traceEvents"]
               if e["name"] == "thread_name"}
    copies = [(threads[e["pid"], e["tid"]], round(e["ts"] * clock), round((e["ts"] + e["dur"]) * clock))
              for e in document["traceEvents"]
              if e.get("ph") == "X" and e["name"].startswith("dma")]
    return inputs, outputs, copies


def overlaps(copies: list[tuple[str, int, int]]) -> int:
    """Pairs of a copy in and a copy out of one core's scratchpad in flight at once."""
    found = 0
    for engine, start, end in copies:
        if not engine.startswith("MNILU["):
            continue
        core = engine[len("MNILU"):]
        found += sum(1 for other, s, e in copies
                     if other == f"MNISU{core}" and start < e and s < end)
    return found


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_naive_schedule_loads_no_tile_while_it_stores_one(kernel, tmp_path):
    inputs, outputs, copies = traced(kernel, tmp_path)
    output = case(kernel, "small").output
    expected = {output: formula(kernel, inputs)}
    assert compare({output: outputs[output]}, expected, {output: "f16"}, 1) is None
    assert sum(1 for engine, _, _ in copies if engine.startswith("MNISU[0]")) >= 2
    assert overlaps(copies) == 0


@pytest.mark.parametrize("kernel", KERNELS)
def test_without_serial_lowering_the_same_tiles_overlap(kernel, tmp_path, monkeypatch):
    overlapping = pipeline.KTIR_TO_DFIR_UNOPTIMIZED.replace(pipeline.SERIAL_LOWERING,
                                                           "convert-ktdf-to-dfir")
    monkeypatch.setitem(pipeline.PIPELINES, "ktir-to-dfir-unoptimized", overlapping)
    _, _, copies = traced(kernel, tmp_path)
    assert overlaps(copies) > 0
