"""``ktc tune``: search the schedule space the passes expose, the simulator as the judge.

    ktc tune KERNEL.mlir [--arch NAME|FILE] [--function NAME] [--arg NAME=VALUE ...]
             [--jobs N | --ray ADDRESS|auto] [--budget N | --budget Ns] -o RECORD.json
    ktc compile KERNEL.mlir --tuned RECORD.json -o KERNEL.ktpkg

The space (``ktc.driver.Schedule``): the tile sizes of ``tile-size-selection{sizes=...}``
(the cost model's choice, and each of its sizes doubled and halved, one at a time),
with and without ``double-buffering`` (buffer depth 2 or 1), and, on a device whose
cores have several sub-cores, with and without ``parallelize-loops-across-instances``
(the split over sub-cores). The cost model's schedule is the first candidate and so
always among those judged. A candidate the passes refuse (a size its
``reserve_size`` does not allow, buffers that do not fit) is recorded with the reason.

Each candidate is compiled and simulated on inputs of zeros (timing never depends on
values; scalar arguments come from ``--arg``), over a local process pool of ``--jobs``
processes by default, or with ``--ray`` as Ray tasks on a cluster (``auto``, an
address, or ``local`` for a Ray instance of this machine started for the tune; Ray is
the optional extra ``ktc[tune]``). ``--budget`` stops submitting after that many
candidates, or (``30s``) once that many seconds have passed. On a terminal, stderr
shows the candidates done and the best so far.

The record (JSON) holds the sha256 of the kernel's text and of the arch file's
content, the best schedule and every candidate's cycles (or error); ``ktc compile
--tuned`` compiles with the best schedule and refuses a record whose hashes are not
the kernel's and the device's.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from ktc.errors import KtcError
from ktc.files import write_atomically

if TYPE_CHECKING:
    from ktc.driver import Schedule

RECORD_VERSION = 1


# ---------------------------------------------------------------------------------
# The space
# ---------------------------------------------------------------------------------


def cost_model_sizes(text: str, arch: str, filename: str, function: str | None) -> tuple[int, ...]:
    """The tile sizes the cost model chooses for the kernel, in program order."""
    from ktc.arch import attach_device
    from ktc.dialects import context
    from ktc.dialects.ktdf import tile_choice
    from ktc.dialects.source import parse_module, verify_module
    from ktc.driver import lower
    from xdsl.dialects.func import FuncOp

    ctx = context()
    module = parse_module(text, filename, ctx)
    verify_module(module)
    attach_device(module, arch)
    lower(module, ctx)
    choices = [tile_choice(op) for op in module.walk() if isinstance(op, FuncOp)]
    return tuple(size for choice in choices if choice is not None for size in choice.sizes)


def candidates(sizes: tuple[int, ...], subcores: int) -> list[Schedule]:
    """The schedules to judge, the cost model's (``sizes``, no pass left out) first."""
    from ktc.driver import OPTIONAL_PASSES, Schedule

    variants = [sizes]
    for index, size in enumerate(sizes):
        for other in (size * 2, size // 2):
            if other >= 1:
                variants.append(sizes[:index] + (other,) + sizes[index + 1:])
    skips: list[tuple[str, ...]] = [(), (OPTIONAL_PASSES[0],)]
    if subcores > 1:
        skips += [(OPTIONAL_PASSES[1],), OPTIONAL_PASSES]
    found: list[Schedule] = []
    for skip in skips:
        for variant in variants:
            schedule = Schedule(variant, skip)
            if schedule not in found:
                found.append(schedule)
    return found


# ---------------------------------------------------------------------------------
# Judging one candidate (in a worker process or a Ray task)
# ---------------------------------------------------------------------------------


def judge(text: str, arch: str, filename: str, function: str | None, scalars: dict,
          schedule: Schedule) -> dict:
    """Compile ``text`` with ``schedule`` and simulate it: its cycles and ideal, or the
    diagnostic that refused it."""
    import numpy as np

    from ktc.codegen.package import DTYPES
    from ktc.codegen.plan import evaluate
    from ktc.driver import compile
    from ktc.sim.simulator import Simulator

    entry = {"schedule": asdict(schedule)}
    try:
        package = compile(text, arch, filename, function, schedule=schedule)
        arguments = package.signature.arguments
        values = [scalars.get(a.name, 0) for a in arguments]
        for index, argument in enumerate(arguments):
            if argument.pointer:
                shape = tuple(evaluate(dim, {"arg": values}) for dim in argument.shape)
                values[index] = np.zeros(shape, DTYPES[argument.dtype])
        simulator = Simulator(arch, progress=io.StringIO())  # no progress line per candidate
        simulator.prepare(package).launch(*values)
    except KtcError as err:
        return entry | {"error": str(err).strip().splitlines()[0]}
    report = simulator.report()
    return entry | {"cycles": report.cycles, "ideal_cycles": report.ideal_cycles,
                    "efficiency": report.efficiency}


# ---------------------------------------------------------------------------------
# Running the candidates
# ---------------------------------------------------------------------------------


class Budget:
    """How many candidates may still be submitted: a count, or seconds from the first."""

    def __init__(self, text: str | None):
        self.count, self.seconds = None, None
        if text is None:
            return
        spelled = text[:-1] if text.endswith("s") else text
        try:
            value = float(spelled) if text.endswith("s") else int(spelled)
        except ValueError:
            raise KtcError(f"--budget '{text}' is neither a number of candidates (20) nor "
                           "of seconds (30s)") from None
        if value <= 0:
            raise KtcError(f"--budget '{text}' must be positive")
        self.count, self.seconds = (None, value) if text.endswith("s") else (value, None)

    def allows(self, submitted: int) -> bool:
        """The first candidate (the cost model's) always; the seconds count from it."""
        if submitted == 0:
            self.started = time.perf_counter()
            return True
        if self.count is not None:
            return submitted < self.count
        if self.seconds is not None:
            return time.perf_counter() - self.started < self.seconds
        return True


def run_local(jobs: int, work: list[tuple], budget: Budget, done) -> None:
    """Judge every candidate of ``work`` over ``jobs`` processes; ``done(entry)`` for each."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending, queue = set(), list(work)
        while queue or pending:
            while queue and len(pending) < jobs and budget.allows(done.submitted):
                pending.add(pool.submit(judge, *queue.pop(0)))
                done.submitted += 1
            if not budget.allows(done.submitted):
                queue.clear()
            if not pending:
                break
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                done(future.result())


def run_ray(address: str, work: list[tuple], budget: Budget, done) -> None:
    """Judge the candidates as Ray tasks on the cluster at ``address`` (``auto``, an
    address, or ``local`` for a Ray instance of this machine)."""
    try:
        import ray
    except ImportError:
        raise KtcError("--ray needs Ray: pip install 'ktc[tune]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        try:
            ray.init(address=None if address == "local" else address,
                     include_dashboard=False, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as err:
            raise KtcError(f"--ray {address}: cannot reach the cluster: {err}") from None
    remote = ray.remote(judge)
    try:
        pending = []
        for item in work:
            if not budget.allows(done.submitted):
                break
            pending.append(remote.remote(*item))
            done.submitted += 1
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for ref in finished:
                done(ray.get(ref))
    finally:
        if started_here:
            ray.shutdown()


class Progress:
    """Collects the judged candidates; on a terminal, shows the count and the best."""

    def __init__(self, total: int, stream):
        self.total, self.stream = total, stream
        self.submitted = 0
        self.entries: list[dict] = []

    def __call__(self, entry: dict) -> None:
        self.entries.append(entry)
        if self.stream is None:
            return
        best = best_entry(self.entries)
        shown = f"best {best['cycles']} cycles" if best else "none compiled yet"
        self.stream.write(f"\rcandidates {len(self.entries)} of {self.total}, {shown} ")
        self.stream.flush()


def best_entry(entries: list[dict]) -> dict | None:
    """The candidate of fewest cycles (the first among equals)."""
    judged = [e for e in entries if "cycles" in e]
    return min(judged, key=lambda e: e["cycles"], default=None)


# ---------------------------------------------------------------------------------
# The record
# ---------------------------------------------------------------------------------


def kernel_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def tuned_schedule(record_path: str, text: str, device) -> Schedule:
    """The best schedule of the record at ``record_path``, refused unless it was tuned
    for exactly this kernel text and device."""
    from ktc.driver import OPTIONAL_PASSES, Schedule

    try:
        record = json.loads(Path(record_path).read_text())
        kernel, arch, best = record["kernel_sha256"], record["arch_sha256"], record["best"]
        schedule = Schedule(tuple(best["sizes"]), tuple(best["skip"]))
    except OSError as err:
        raise KtcError(f"cannot read '{record_path}': {err.strerror}") from None
    except (ValueError, KeyError, TypeError) as err:
        raise KtcError(f"{record_path}: not a tuning record ({type(err).__name__}: {err})") from None
    if kernel != kernel_hash(text):
        raise KtcError(f"{record_path}: tuned for another kernel text (sha256 {kernel[:12]}..., "
                       f"this kernel's is {kernel_hash(text)[:12]}...): tune it again")
    if arch != device.content_hash:
        raise KtcError(f"{record_path}: tuned for another device description (sha256 "
                       f"{arch[:12]}..., @{device.name}'s is {device.content_hash[:12]}...): "
                       "tune it again")
    if any(not isinstance(s, int) or s < 1 for s in schedule.sizes) or \
            any(p not in OPTIONAL_PASSES for p in schedule.skip):
        raise KtcError(f"{record_path}: its best schedule {asdict(schedule)} is not one ktc "
                       "can compile")
    return schedule


# ---------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------


def add_parser(subparsers) -> argparse.ArgumentParser:
    description = "search tile sizes, buffer depth and sub-core split with the simulator as the judge"
    parser = subparsers.add_parser("tune", help=description, description=description)
    parser.add_argument("kernel", metavar="KERNEL.mlir", help="the KTIR kernel")
    parser.add_argument("--arch", default="spyre", metavar="NAME|FILE",
                        help="the device (default: spyre)")
    parser.add_argument("--function", metavar="NAME", help="the kernel, when there are several")
    parser.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE",
                        help="a scalar argument (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, metavar="N",
                        help="local worker processes (default: 2)")
    parser.add_argument("--ray", metavar="ADDRESS|auto|local",
                        help="run the candidates on a Ray cluster instead")
    parser.add_argument("--budget", metavar="N|Ns",
                        help="stop after N candidates, or after N seconds (30s)")
    parser.add_argument("-o", "--output", required=True, metavar="RECORD.json",
                        help="the tuning record to write")
    return parser


def tune(args: argparse.Namespace) -> int:
    from ktc.arch.model import Device

    if args.jobs < 1:
        raise KtcError(f"--jobs {args.jobs}: at least one process")
    budget = Budget(args.budget)
    try:
        text = Path(args.kernel).read_text()
    except OSError as err:
        raise KtcError(f"cannot read '{args.kernel}': {err.strerror}") from None
    device = Device.load(args.arch)
    scalars = _scalars(args.arg, text, args.kernel, args.function)
    sizes = cost_model_sizes(text, args.arch, args.kernel, args.function)
    schedules = candidates(sizes, device.subcores_per_core)
    work = [(text, args.arch, args.kernel, args.function, scalars, s) for s in schedules]
    progress = Progress(len(work), sys.stderr if sys.stderr.isatty() else None)
    started = time.perf_counter()
    if args.ray:
        run_ray(args.ray, work, budget, progress)
    else:
        run_local(args.jobs, work, budget, progress)
    if progress.stream is not None:
        progress.stream.write("\n")
    order = [asdict(s) for s in schedules]
    progress.entries.sort(key=lambda e: order.index(e["schedule"]))
    best = best_entry(progress.entries)
    if best is None:
        raise KtcError(f"no candidate compiled and ran: {progress.entries[0]['error']}", args.kernel)
    cost_model = next((e for e in progress.entries if e["schedule"] == asdict(schedules[0])), None)
    record = {
        "version": RECORD_VERSION,
        "kernel": args.kernel, "function": args.function, "arch": device.name,
        "kernel_sha256": kernel_hash(text), "arch_sha256": device.content_hash,
        "best": best["schedule"], "best_cycles": best["cycles"],
        "cost_model_cycles": cost_model.get("cycles") if cost_model else None,
        "wall_s": time.perf_counter() - started,
        "candidates": progress.entries,
    }
    document = json.dumps(record, indent=1) + "\n"
    write_atomically(args.output, lambda file: file.write(document.encode()))
    print(f"@{device.name}: {len(progress.entries)} candidates, best {best['cycles']} cycles "
          f"(cost model {record['cost_model_cycles']}): sizes {list(best['schedule']['sizes'])}, "
          f"without {', '.join(best['schedule']['skip']) or 'no pass'}")
    return 0


def _scalars(texts: list[str], text: str, filename: str, function: str | None) -> dict:
    """``--arg NAME=VALUE`` read as ``ktc run`` reads it: by the kernel's argument types."""
    from ktc.sim.reference import Kernel
    from ktc.tools.run import kernel_arguments, scalar_args

    if not texts:
        return {}
    return scalar_args(texts, kernel_arguments(Kernel.from_text(text, filename, function)))
