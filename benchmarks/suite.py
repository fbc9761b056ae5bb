"""The benchmark suite: how close the schedules come to the chip's limit, and how fast
the compiler and the simulator are.

    python -m ktc.benchmarks.suite [--kernels add,softmax] [--sizes small,large]
    ktc bench [same options]

For each kernel of ``ktc.benchmarks.kernels`` and size: the kernel compiled with the
full pipeline and simulated (cycles; the ideal, efficiency = ideal / cycles; the
issued-traffic bound and its binding resource, bound / cycles; the traffic overhead,
bytes issued through device memory / the ideal's bytes: ``ktc.sim.report``; each
engine kind's busy / starved / back-pressured share), the same kernel compiled with
``optimize=False`` and simulated (speedup = its cycles / the full pipeline's; when it runs
past the simulator's default cycle budget, the budget as a lower bound, "> "): the naive
schedule of ``ktir-to-dfir-unoptimized`` with the smallest tiles, one tile at a time with
no overlap between loading, computing and storing (no hoisting of loop-invariant copies,
one buffer per hand-off, one sub-core per core, each tile's copies in waiting until the
tile before has been copied out; ``docs/passes.md``), compile
times, the simulator's wall and CPU time and simulated cycles per wall second, and the
reference interpreter's wall time; the simulated outputs are compared with the
reference's (the largest difference, and ``ktc run --check``'s verdict by
``ktc.sim.check``, for the naive schedule's outputs too: ``unoptimized_check``). Then compile time against a chain of 1, 4, 16, 64, 256 fused
elementwise ops (the fastest of 7 compiles each, and the CPU time each op beyond the
first adds), simulator speed against tensor size (elementwise add of 2^14 ... 2^22
elements), the compile time of every example and the start-up time of the command lines
(the least CPU seconds of a few runs of ``ktc --help``, ``ktc-opt --help`` and
``ktc-opt`` on ``examples/add.mlir``, beside a bare interpreter importing the xDSL
dialects that file uses); and the issue's targets, each with what was measured.

Writes ``results.md`` (tables with date, commit, machine, load average and the arch
file's roofline and example figures) and ``results.json`` (a list of one record per
kernel and size) into ``--output`` (default: the current directory). A kernel that fails to
compile or simulate, by a diagnostic or a bug in ktc, gets a record with the error;
the suite goes on. The compiler, the simulator and numpy are imported when first
used, so that ``ktc --help`` stays quick.

The simulator reports on the last dataflow it executed: for a package of several
dataflows the figures are that one's, and the record's ``dataflows`` says so.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ktc.benchmarks.kernels import SIZES, Case, add, case
from ktc.errors import KtcError
from ktc.files import write_atomically

if TYPE_CHECKING:
    import numpy as np

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent / "examples"
TARGET_EFFICIENCY = {"large": 0.85, "small": 0.75}
"""Efficiency (ideal / cycles) the schedules aim at, per size; a medium size (the large
one's kernel, smaller to simulate) aims at the large one's."""
TARGET_SPEEDUP = 1.5
"""Cycles of the naive (unoptimized) schedule over the full pipeline's the schedules aim at."""
CHAIN_OPS = (1, 4, 16, 64, 256)
CHAIN_RUNS = 7
"""Compiles per chain length, the fastest counted: a compile of a few tenths of a second
varies with the machine's load by more than a few ops add."""
OP_COST_RATIO = 1.5
"""The target: the CPU time an op adds at the longest chain at most this many times
what it adds at 16 ops (fusion linear in the ops fused)."""
SWEEP_LOG2 = (14, 16, 18, 20, 22)
SWEEP_COLS = 1024
STARTUP_RUNS = 5
STARTUP_LIMIT_S = 0.4
"""``ktc --help`` and ``ktc-opt --help`` take less CPU time than this."""
STARTUP_RATIO = 1.3
"""``ktc-opt examples/add.mlir`` takes at most this many times the bare import's CPU time."""
BARE = "python importing the xDSL dialects of add.mlir"
COLUMNS = (
    "Ideal = the cycles no schedule beats: every array read or written once through device "
    "memory at its bandwidth plus the least latency of a transfer through its port; the bytes "
    "that must be read (or written) plus the latency into a core and back out; or the issued "
    "compute over every compute engine, whichever is larger (`docs/simulator.md`); "
    "efficiency = ideal / simulated cycles. Issued bound = the roofline of the traffic and "
    "compute the schedule itself issued (binding: its largest term), shown as a share of the "
    "cycles; traffic = bytes issued through device memory / the ideal's bytes. Speedup = "
    "cycles of the naive schedule / cycles of `ktir-to-dfir`; the naive schedule "
    "(`ktir-to-dfir-unoptimized`, the smallest tiles) runs one tile at a time with no overlap "
    "between loading, computing and storing: no hoisting of loop-invariant copies, one buffer "
    "per hand-off, one sub-core per core, and a tile's copies in wait until the tile before "
    "has been copied out. "
    "Stalls are named for efficiencies below the target (large "
    f"{TARGET_EFFICIENCY['large']}, small {TARGET_EFFICIENCY['small']}): the engine kind "
    "waiting the largest share of its cycles. Max error: simulated outputs against the "
    "reference interpreter's."
)
STALL_WORDS = {"starved": "waits for its input", "backpressured": "waits for room in its output FIFO"}


@dataclass(frozen=True)
class Timed:
    """What a call returned, with its wall and CPU seconds."""

    value: object
    wall_s: float
    cpu_s: float


def timed(action: Callable[[], object]) -> Timed:
    wall, cpu = time.perf_counter(), time.process_time()
    value = action()
    return Timed(value, time.perf_counter() - wall, time.process_time() - cpu)


# ---------------------------------------------------------------------------------
# Measuring one kernel
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Simulated:
    """A compiled and simulated kernel."""

    compile: Timed
    launch: Timed
    report: object
    """The simulator's ``Report``."""
    outputs: dict[str, np.ndarray]
    dataflows: int


@cache
def simulate(kernel_case: Case, arch: str, optimize: bool) -> Simulated:
    """Compile ``kernel_case`` and run it once on a fresh simulator (once per suite run:
    the simulator-speed series meets the large add again)."""
    from ktc.driver import compile
    from ktc.runtime.executable import prepare
    from ktc.sim.simulator import Simulator

    name = f"{kernel_case.kernel}{'' if optimize else ' (unoptimized)'}"
    compiled = timed(lambda: compile(kernel_case.text, arch, name, optimize=optimize))
    simulator = Simulator(arch)
    executable = prepare(compiled.value, simulator)
    arguments = list(kernel_case.inputs().values())
    launched = timed(lambda: executable.launch(*arguments))
    return Simulated(compiled, launched, simulator.report(), launched.value,
                     len(compiled.value.dataflows))


def reference_run(kernel_case: Case, arch: str) -> Timed:
    """The reference interpreter's outputs on the same inputs, timed."""
    from ktc.sim.reference import Kernel

    kernel = Kernel.from_text(kernel_case.text, kernel_case.kernel)
    arguments = kernel_case.inputs()
    return timed(lambda: kernel.execute(arguments, arch=arch).outputs)


def check(kernel_case: Case, actual: dict, expected: dict) -> str:
    """``ktc run --check``'s verdict on the simulated outputs (``ktc.sim.check``):
    "passed", or the first mismatch."""
    from ktc.sim.check import compare, reduction_length
    from ktc.sim.reference import Kernel

    kernel = Kernel.from_text(kernel_case.text, kernel_case.kernel)
    scalars = {a.name: a.value for a in kernel_case.arguments if a.shape is None}
    elements = {p.name: p.element for p in kernel.parameters if p.pointer}
    mismatch = compare(actual, expected, elements, reduction_length(kernel, scalars))
    return "passed" if mismatch is None else f"failed: {mismatch}"


def measure(kernel: str, size: str, arch: str) -> dict:
    """The record of one kernel at one size (see the module docstring)."""
    from ktc.sim.machine import PastBudget

    kernel_case = case(kernel, size)
    record = {"kernel": kernel, "size": size, "arch": arch, "shape": kernel_case.params,
              "elements": kernel_case.elements}
    try:
        full = simulate(kernel_case, arch, optimize=True)
    except Exception as err:  # a bug in ktc too: recorded, and the suite goes on
        return record | {"error": _failure(err)}
    record |= _figures(full)
    import numpy as np

    try:
        reference = reference_run(kernel_case, arch)
    except Exception as err:  # the reference refuses the kernel (its scratchpad): recorded
        reference = None
        record["reference_error"] = _failure(err)
    if reference is not None:
        got = full.outputs[kernel_case.output].astype(np.float64)
        want = reference.value[kernel_case.output].astype(np.float64)
        record |= {"reference_s": reference.wall_s, "reference_cpu_s": reference.cpu_s,
                   "max_abs_error": float(np.max(np.abs(got - want))),
                   "check": check(kernel_case, full.outputs, reference.value)}
    try:
        baseline = simulate(kernel_case, arch, optimize=False)
    except Exception as err:  # a bug in ktc too: recorded, and the suite goes on
        if isinstance(err.__cause__, PastBudget):  # ran past its budget: a lower bound
            limit = err.__cause__.limit
            return record | {"unoptimized_at_least": limit, "speedup_at_least": limit / record["cycles"]}
        return record | {"unoptimized_error": _failure(err)}
    cycles = baseline.report.cycles
    return record | {"unoptimized_cycles": cycles,
                     "unoptimized_compile_s": baseline.compile.wall_s,
                     "unoptimized_check": (check(kernel_case, baseline.outputs, reference.value)
                                           if reference is not None else "not checked"),
                     "speedup": cycles / record["cycles"]}


def _figures(run: Simulated) -> dict:
    report = run.report
    engines = {kind: asdict(figures) for kind, figures in report.engines.items()}
    return {
        "cycles": report.cycles,
        "ideal_cycles": report.ideal_cycles,
        "efficiency": report.efficiency,
        "ideal_terms": dict(report.ideal_terms),
        "bound_cycles": report.bound_cycles,
        "binding_resource": report.binding_resource,
        "bound_efficiency": report.bound_efficiency,
        "bound_terms": dict(report.bound_terms),
        "ideal_bytes": report.ideal_bytes,
        "issued_bytes": report.issued_bytes,
        "traffic_overhead": report.traffic_overhead,
        "engines": engines,
        "stall": stall(engines, report.cycles),
        "dataflows": run.dataflows,
        "compile_s": run.compile.wall_s,
        "compile_cpu_s": run.compile.cpu_s,
        "sim_wall_s": run.launch.wall_s,
        "sim_cpu_s": run.launch.cpu_s,
        "sim_cycles_per_s": report.cycles / run.launch.wall_s,
    }


def stall(engines: dict[str, dict], cycles: int) -> str:
    """The engine kind that waits the largest share of the run, and on what."""
    shares = [
        (figures[why] / (figures["instances"] * cycles), kind, why)
        for kind, figures in engines.items()
        for why in STALL_WORDS
        if cycles and figures["instances"]
    ]
    if not shares:
        return ""
    share, kind, why = max(shares)
    busy = engines[kind]["busy"] / (engines[kind]["instances"] * cycles)
    return f"{kind} {why.replace('backpressured', 'back-pressured')} {share:.0%} ({STALL_WORDS[why]}), busy {busy:.0%}"


def _failure(err: Exception) -> str:
    """A failure in one line: a diagnostic's first line (``file:line:col: error: ...``),
    or for a bug in ktc its type and message (the run goes on either way)."""
    if isinstance(err, KtcError):
        return str(err).strip().splitlines()[0]
    return f"internal error ({type(err).__name__}: {err})"


# ---------------------------------------------------------------------------------
# Compile time and simulator speed
# ---------------------------------------------------------------------------------


def compile_time(text: str, arch: str, name: str) -> dict:
    """Wall and CPU seconds to compile ``text`` with the full pipeline, or its error."""
    from ktc.driver import compile

    try:
        compiled = timed(lambda: compile(text, arch, name))
    except Exception as err:  # a bug in ktc too: recorded, and the suite goes on
        return {"error": _failure(err)}
    return {"compile_s": compiled.wall_s, "compile_cpu_s": compiled.cpu_s}


def compile_scaling(arch: str) -> list[dict]:
    """Compile time of a 256x128 add followed by a chain of fused elementwise ops: the
    fastest of ``CHAIN_RUNS`` compiles per length, in rounds over all lengths (so that
    a change of load meets each alike), garbage collected before each."""
    texts = {ops: add(rows=256, cols=128, grid=32, ops=ops).text for ops in CHAIN_OPS}
    runs: dict[int, list[dict]] = {ops: [] for ops in CHAIN_OPS}
    for _ in range(CHAIN_RUNS):
        for ops, text in texts.items():
            gc.collect()
            runs[ops].append(compile_time(text, arch, f"chain of {ops}"))
    return [{"ops": ops} | min(timings, key=lambda r: r.get("compile_cpu_s", math.inf))
            for ops, timings in runs.items()]


def op_costs(chain: list[dict]) -> dict[int, float]:
    """Per chain length n > 1 that compiled: the CPU seconds each op beyond the first
    adds, (CPU s of n ops - CPU s of 1 op) / (n - 1)."""
    first = next((r["compile_cpu_s"] for r in chain if r["ops"] == 1 and "error" not in r), None)
    if first is None:
        return {}
    return {r["ops"]: (r["compile_cpu_s"] - first) / (r["ops"] - 1)
            for r in chain if r["ops"] > 1 and "error" not in r}


def example_compile_times(arch: str) -> list[dict]:
    """Compile time of every ``examples/*.mlir`` (none when the examples are not here)."""
    return [{"example": path.name} | compile_time(path.read_text(), arch, str(path))
            for path in sorted(EXAMPLES.glob("*.mlir"))]


def simulator_scaling(arch: str) -> list[dict]:
    """Simulated cycles per second on elementwise add as the tensor grows."""
    rows = []
    for log2 in SWEEP_LOG2:
        lines = (1 << log2) // SWEEP_COLS
        try:
            run = simulate(add(rows=lines, cols=SWEEP_COLS, grid=min(32, lines)), arch, optimize=True)
        except Exception as err:  # a bug in ktc too: recorded, and the suite goes on
            rows.append({"elements": 1 << log2, "error": _failure(err)})
            continue
        cycles, launch = run.report.cycles, run.launch
        rows.append({"elements": 1 << log2, "cycles": cycles, "sim_wall_s": launch.wall_s,
                     "sim_cpu_s": launch.cpu_s, "sim_cycles_per_s": cycles / launch.wall_s,
                     "sim_cycles_per_cpu_s": cycles / launch.cpu_s})
    return rows


def startup_commands() -> dict[str, list[str]]:
    """Each start-up measurement's command, as its console script would run it."""
    python = sys.executable
    ktc = "import sys; from ktc.tools.ktc import main; sys.exit(main())"
    ktc_opt = "import sys; from ktc.tools.ktc_opt import main; sys.exit(main())"
    return {
        "ktc --help": [python, "-c", ktc, "--help"],
        "ktc-opt --help": [python, "-c", ktc_opt, "--help"],
        "ktc-opt examples/add.mlir": [python, "-c", ktc_opt, str(EXAMPLES / "add.mlir")],
        BARE: [python, "-c", "import xdsl.dialects.builtin, xdsl.dialects.func, "
               "xdsl.dialects.arith, xdsl.dialects.scf"],
    }


def child_cpu_s(command: list[str]) -> float:
    """CPU seconds (user + system) of one run of ``command``, which must succeed. The
    child may write bytecode (``PYTHONDONTWRITEBYTECODE`` dropped), as an installed
    package has its own: a run that compiled ktc's modules from source each time
    would be measuring the compiler of Python."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def startup_times() -> list[dict]:
    """The least CPU seconds of ``STARTUP_RUNS`` runs of each start-up command (the
    commands taken in turn, so that a change of load reaches all of them), after one
    run of each that is not counted (it writes the bytecode a first run compiles)."""
    commands = startup_commands()
    for command in commands.values():
        child_cpu_s(command)
    seconds: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(STARTUP_RUNS):
        for name, command in commands.items():
            seconds[name].append(child_cpu_s(command))
    return [{"command": name, "cpu_s": min(runs)} for name, runs in seconds.items()]


# ---------------------------------------------------------------------------------
# Writing the results
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Results:
    """Everything one run of the suite measured."""

    meta: dict
    records: list[dict]
    chain: list[dict]
    sweep: list[dict]
    examples: list[dict]
    elapsed_s: float
    startup: list[dict] = field(default_factory=list)


def context(arch: str) -> dict:
    """Date, commit, machine and load: what the figures were measured on."""
    commit = subprocess.run(["git", "-C", str(HERE), "describe", "--always", "--dirty"],
                            capture_output=True, text=True, check=False).stdout.strip()
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit or "unknown",
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}, "
                   f"Python {platform.python_version()}",
        "load": " ".join(f"{load:.1f}" for load in os.getloadavg()),
        "arch": arch,
    }


def arch_figures(arch: str) -> str:
    """The roofline constants and example values of the arch file, as ``ktc arch show`` prints them."""
    from ktc.arch.model import Device
    from ktc.arch.report import summary

    sections = summary(Device.load(arch)).split("\n\n")
    return "\n\n".join(s for s in sections if s.startswith(("roofline", "example values")))


def markdown(results: Results) -> str:
    meta = results.meta
    lines = [
        "# Benchmark results",
        "",
        (f"Measured {meta['date']} on commit `{meta['commit']}` with `ktc bench` "
         f"({results.elapsed_s:.0f} s for the whole run)."),
        (f"Machine: {meta['machine']}; load average at the start {meta['load']} "
         "(wall times stretch with load; CPU seconds are the steadier figure)."),
        "",
        f"Device: `{meta['arch']}`. {COLUMNS}",
        "",
        *_table(("kernel", "size", "shape", "cycles", "ideal", "efficiency", "issued bound",
                 "binding", "bound / cycles", "traffic", "unoptimized", "speedup", "compile s", "sim s (CPU s)", "sim cycles/s",
                 "reference s", "max error", "stalls"),
                [_cells(r) for r in results.records]),
        "",
        "## Targets",
        "",
        *targets(results),
        "",
        "## Compile time against fused elementwise ops (add, 256x128, grid 32)",
        "",
        *_table(("ops", "compile s", "CPU s", "CPU s / CPU s of 1 op", "CPU ms per op beyond the first"),
                _chain_cells(results.chain)),
        "",
        "## Compile time of the examples",
        "",
        *_table(("example", "compile s", "CPU s"),
                [[r["example"], *_seconds(r, "compile_s", "compile_cpu_s")] for r in results.examples]),
        "",
        f"## Start-up (CPU s, the least of {STARTUP_RUNS} runs)",
        "",
        *_table(("command", "CPU s"), [[r["command"], f"{r['cpu_s']:.3f}"] for r in results.startup]),
        "",
        "## Simulator speed against tensor size (elementwise add, rows of 1024)",
        "",
        *_table(("elements", "cycles", "sim s", "CPU s", "cycles per wall s", "cycles per CPU s"),
                [_sweep_cells(r) for r in results.sweep]),
        "",
        f"## The device's figures (`ktc arch show {meta['arch']}`)",
        "",
        "```",
        arch_figures(meta["arch"]),
        "```",
        "",
    ]
    return "\n".join(lines)


def _table(header: tuple[str, ...], rows: list[list[object]]) -> list[str]:
    """A markdown table; a row with fewer cells is padded (an error message)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = [str(cell) for cell in row] + [""] * (len(header) - len(row))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _cells(r: dict) -> list[object]:
    shape = "x".join(str(v) for k, v in r["shape"].items() if k in ("rows", "cols", "m", "n", "k", "tokens", "hidden", "intermediate", "sequence", "head"))
    head = [r["kernel"], r["size"], shape]
    if "error" in r:
        return [*head, r["error"]]
    unoptimized = ([r["unoptimized_cycles"], f"{r['speedup']:.2f}x"] if "speedup" in r
                   else [f"> {r['unoptimized_at_least']}", f"> {r['speedup_at_least']:.2f}x"]
                   if "speedup_at_least" in r else [r.get("unoptimized_error", ""), ""])
    return [*head, r["cycles"], r["ideal_cycles"], f"{r['efficiency']:.2f}", r["bound_cycles"],
            r["binding_resource"], f"{r['bound_efficiency']:.2f}",
            f"{r['traffic_overhead']:.2f}x", *unoptimized, f"{r['compile_s']:.2f}",
            f"{r['sim_wall_s']:.2f} ({r['sim_cpu_s']:.2f})", f"{r['sim_cycles_per_s']:,.0f}",
            *([f"{r['reference_s']:.2f}", f"{r['max_abs_error']:.3g}"] if "reference_s" in r
              else ["refused", "not checked"]),
            _notes(r)]


def _notes(r: dict) -> str:
    """The stall below the target efficiency; a warning when the figures are partial."""
    target = TARGET_EFFICIENCY.get(r["size"], TARGET_EFFICIENCY["large"])
    notes = [r["stall"]] if r["efficiency"] < target else []
    if "reference_error" in r:
        notes.append(f"the reference interpreter refuses it: {r['reference_error']}")
    if r["dataflows"] > 1:
        notes.append(f"figures of the last of {r['dataflows']} dataflows")
    return "; ".join(notes)


def _seconds(r: dict, *keys: str) -> list[object]:
    return [r["error"]] if "error" in r else [f"{r[key]:.2f}" for key in keys]


def _chain_cells(chain: list[dict]) -> list[list[object]]:
    first = next((r["compile_cpu_s"] for r in chain if "compile_cpu_s" in r), None)
    costs = op_costs(chain)
    rows = []
    for r in chain:
        if "error" in r:
            rows.append([r["ops"], r["error"]])
            continue
        cost = f"{costs[r['ops']] * 1000:.2f}" if r["ops"] in costs else ""
        rows.append([r["ops"], *_seconds(r, "compile_s", "compile_cpu_s"),
                     f"{r['compile_cpu_s'] / first:.2f}", cost])
    return rows


def _sweep_cells(r: dict) -> list[object]:
    if "error" in r:
        return [r["elements"], r["error"]]
    return [r["elements"], r["cycles"], f"{r['sim_wall_s']:.2f}", f"{r['sim_cpu_s']:.2f}",
            f"{r['sim_cycles_per_s']:,.0f}", f"{r['sim_cycles_per_cpu_s']:,.0f}"]


def targets(results: Results) -> list[str]:
    """The issue's targets, each with what this run measured."""
    large = [r for r in results.records if r["size"] == "large"]
    measured = [r for r in large if "error" not in r]
    add_large = next((r for r in measured if r["kernel"] == "add"), None)
    speed = (f"{add_large['sim_cycles_per_s']:,.0f} (per CPU second "
             f"{add_large['cycles'] / add_large['sim_cpu_s']:,.0f})" if add_large else "not measured")
    compiled = [r for r in results.examples if "error" not in r]
    slowest = max(compiled, key=lambda r: r["compile_s"], default=None)
    quick = sum(r["compile_s"] < 2 for r in compiled)
    quick_cpu = sum(r["compile_cpu_s"] < 2 for r in compiled)
    worst = f" (slowest {slowest['example']}, {slowest['compile_s']:.2f} s)" if slowest else ""
    return [
        *(_efficiency_target(results.records, size) for size in TARGET_EFFICIENCY),
        _speedup_target(results.records),
        f"- At least 1,000,000 simulated cycles per wall second on the large add: {speed}.",
        (f"- Every example compiles in under 2 s: {quick} of {len(results.examples)}{worst}; "
         f"in under 2 CPU seconds: {quick_cpu}."),
        _op_cost_target(op_costs(results.chain)),
        *_startup_targets(results.startup),
    ]


def _efficiency_target(records: list[dict], size: str) -> str:
    """How many kernels of ``size`` reach the target efficiency against the ideal."""
    rows = [r for r in records if r["size"] == size]
    measured = [r for r in rows if "error" not in r]
    failed = ", ".join(r["kernel"] for r in rows if "error" in r) or "none"
    figures = ", ".join(f"{r['kernel']} {r['efficiency']:.2f}" for r in measured)
    reached = sum(r["efficiency"] >= TARGET_EFFICIENCY[size] for r in measured)
    return (f"- Efficiency (ideal / cycles) >= {TARGET_EFFICIENCY[size]} on every {size} kernel: "
            f"{reached} of {len(rows)} ({figures or 'none measured'}); not measured (error): {failed}.")


def _speedup_target(records: list[dict]) -> str:
    """How many rows the full pipeline speeds up ``TARGET_SPEEDUP`` times over the
    unoptimized schedule."""
    measured = [(r, *_speedup(r)) for r in records if "speedup" in r or "speedup_at_least" in r]
    figures = ", ".join(f"{r['kernel']} {r['size']} {sign}{speedup:.2f}x"
                        for r, sign, speedup in measured)
    reached = sum(speedup >= TARGET_SPEEDUP for _, _, speedup in measured)
    unreachable = ", ".join(f"{r['kernel']} {r['size']} {ceiling:.2f}x" for r, _, speedup in measured
                            if speedup < TARGET_SPEEDUP
                            and (ceiling := _speedup_ceiling(r)) < TARGET_SPEEDUP)
    why = (f" Out of reach for any schedule, since none beats the ideal (the most one can "
           f"gain, unoptimized cycles / ideal): {unreachable}." if unreachable else "")
    return (f"- Speedup over the unoptimized schedule >= {TARGET_SPEEDUP}x on every row: "
            f"{reached} of {len(records)} ({figures or 'none measured'}).{why}")


def _speedup_ceiling(r: dict) -> float:
    """The largest speedup any schedule could have over the unoptimized one: its cycles
    over the ideal (infinite when the row has no exact figures for either)."""
    if "unoptimized_cycles" not in r or not r.get("ideal_cycles"):
        return float("inf")
    return r["unoptimized_cycles"] / r["ideal_cycles"]


def _speedup(r: dict) -> tuple[str, float]:
    """A row's speedup, or, when the naive schedule ran past its cycle budget, the
    lower bound its budget gives ("> ")."""
    return ("", r["speedup"]) if "speedup" in r else ("> ", r["speedup_at_least"])


def _startup_targets(startup: list[dict]) -> list[str]:
    if not startup:
        return []
    cpu = {r["command"]: r["cpu_s"] for r in startup}
    ratio = cpu["ktc-opt examples/add.mlir"] / cpu[BARE]
    return [
        (f"- `ktc --help` and `ktc-opt --help` under {STARTUP_LIMIT_S} CPU s: "
         f"{cpu['ktc --help']:.3f} s and {cpu['ktc-opt --help']:.3f} s."),
        (f"- `ktc-opt examples/add.mlir` within {STARTUP_RATIO}x the CPU time of a bare "
         f"python importing the xDSL dialects it uses: {cpu['ktc-opt examples/add.mlir']:.3f} s "
         f"against {cpu[BARE]:.3f} s ({ratio:.2f}x)."),
    ]


def _op_cost_target(costs: dict[int, float]) -> str:
    claim = (f"- CPU time per op beyond the first at {CHAIN_OPS[-1]} fused ops at most "
             f"{OP_COST_RATIO}x that at 16: ")
    if 16 not in costs or CHAIN_OPS[-1] not in costs:
        return claim + "not measured."
    short, long = costs[16], costs[CHAIN_OPS[-1]]
    ratio = f"{long / short:.2f}x" if short > 0 else "no ratio: 16 ops compiled as fast as 1"
    return claim + f"{long * 1000:.2f} ms against {short * 1000:.2f} ms ({ratio})."


# ---------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The suite's options (shared by ``ktc bench``)."""
    parser.add_argument("--kernels", default=",".join(SIZES),
                        help=f"comma-separated subset of {','.join(SIZES)} (default: all)")
    parser.add_argument("--sizes", default="small,large",
                        help="comma-separated: small, medium (the kernels that have one), large")
    parser.add_argument("--arch", default="spyre", help="the device (default: spyre)")
    parser.add_argument("--no-scaling", action="store_true",
                        help="skip the compile-time, simulator-speed and start-up series")
    parser.add_argument("-o", "--output", default=".", metavar="DIR",
                        help="where results.md and results.json go (default: the current "
                             "directory; -o benchmarks updates the tracked table)")


def run(args: argparse.Namespace) -> int:
    """Run the suite as ``args`` ask; write the results; print the table."""
    kernels = _choices(args.kernels, SIZES)
    sizes = _choices(args.sizes, ("small", "medium", "large"))
    started = time.perf_counter()
    meta = context(args.arch)
    records = []
    rows = [(kernel, size) for kernel in kernels for size in sizes if size in SIZES[kernel]]
    for number, (kernel, size) in enumerate(rows, 1):
        if sys.stderr.isatty():
            sys.stderr.write(f"row {number} of {len(rows)}: {kernel} {size}\n")
        records.append(meta | measure(kernel, size, args.arch))
        print("| " + " | ".join(str(c) for c in _cells(records[-1])) + " |", flush=True)
    series = ([], [], []) if args.no_scaling else (
        compile_scaling(args.arch), simulator_scaling(args.arch), example_compile_times(args.arch))
    startup = [] if args.no_scaling else startup_times()
    text = markdown(Results(meta, records, *series, time.perf_counter() - started, startup))
    output = Path(args.output)
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise KtcError(f"cannot write into '{output}': {err.strerror}") from None
    document = json.dumps(records, indent=1) + "\n"
    write_atomically(output / "results.json", lambda file: file.write(document.encode()))
    write_atomically(output / "results.md", lambda file: file.write(text.encode()))
    print(text)
    return 0


def _choices(text: str, known) -> list[str]:
    chosen = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in known]
    if unknown:
        raise KtcError(f"unknown choice(s) {', '.join(unknown)}; choose from {', '.join(known)}")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except KtcError as err:
        sys.stderr.write(f"{err}\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
