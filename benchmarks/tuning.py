"""The tuner on the benchmark kernels: the cost model's schedule against the best that
``ktc tune`` finds, and the wall time of one tune over 1 process, 2 processes and a
local Ray instance.

    python -m ktc.benchmarks.tuning [--kernels ...] [--sizes small] [--arch spyre]
                                    [--timed KERNEL:SIZE] [-o DIR]

Per kernel and size, the tuner's space (``ktc tune``'s: the cost model's
tile sizes and each of them doubled and halved, with and without double buffering and,
where a core has sub-cores, the split over them) is judged by the simulator, every
candidate, as ``ktc tune`` judges it. The table gives the cycles of the cost model's
schedule, of the best candidate, their ratio, and the best schedule. The timed tune
(``--timed``) runs the same search three times, over a local process pool of 1 and of
2 processes and as Ray tasks on a Ray instance this script starts (``ktc[tune]``).
Writes ``tuning.md`` and ``tuning.json`` into ``-o`` (``-o benchmarks`` updates the
tracked table).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ktc.benchmarks.kernels import SIZES, case
from ktc.benchmarks.suite import context
from ktc.errors import KtcError
from ktc.files import write_atomically


def search(kernel: str, size: str, arch: str, runner: list[str]) -> dict:
    """``ktc tune`` of the kernel at ``size`` with the ``runner`` options (``--jobs N``
    or ``--ray local``), every candidate judged: the cost model's cycles, the best, the
    wall seconds."""
    kernel_case = case(kernel, size)
    scalars = [f"{a.name}={int(a.value) if float(a.value).is_integer() else a.value}"
               for a in kernel_case.arguments if a.shape is None]
    with tempfile.TemporaryDirectory() as scratch:
        source, record = Path(scratch) / f"{kernel}_{size}.mlir", Path(scratch) / "record.json"
        source.write_text(kernel_case.text)
        command = [sys.executable, "-m", "ktc", "tune", str(source), "--arch", arch, *runner,
                   *(option for value in scalars for option in ("--arg", value)), "-o", str(record)]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode:
            raise KtcError(f"ktc tune of {kernel} {size} failed: {done.stderr.strip()}")
        tuned = json.loads(record.read_text())
    first = tuned["candidates"][0]
    return {"kernel": kernel, "size": size, "candidates": len(tuned["candidates"]),
            "wall_s": tuned["wall_s"], "cost_model_cycles": tuned["cost_model_cycles"],
            "cost_model_error": first.get("error"), "best_cycles": tuned["best_cycles"],
            "best": tuned["best"],
            "errors": sum("error" in e for e in tuned["candidates"])}


def timed_tunes(kernel: str, size: str, arch: str) -> list[dict]:
    """One search of ``kernel`` at ``size`` over 1 process, 2 processes and local Ray."""
    runners = {"1 process": ["--jobs", "1"], "2 processes": ["--jobs", "2"],
               "Ray (local instance)": ["--ray", "local"]}
    return [{"runner": label} | search(kernel, size, arch, runner) for label, runner in runners.items()]


def markdown(rows: list[dict], timed: list[dict], meta: dict, seconds: float) -> str:
    lines = [
        "# Tuned against cost-model schedules",
        "",
        f"Measured {meta['date']} on commit `{meta['commit']}` with `python -m ktc.benchmarks.tuning` "
        f"({seconds:.0f} s for the whole run). Machine: {meta['machine']}; load average at the start "
        f"{meta['load']} (wall times stretch with load). Device: `{meta['arch']}`. Every candidate "
        "of the tuner's space judged by the simulator; ratio = cost-model cycles / best cycles "
        "(1.00: the cost model's schedule is the best of the space).",
        "",
        "| kernel | size | candidates | refused | cost model cycles | best cycles | ratio | best schedule |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        best = r["best"]
        shown = (f"sizes {list(best['sizes'])}, " + (f"without {', '.join(best['skip'])}" if best["skip"]
                                                      else "every pass") if best else "")
        ratio = (f"{r['cost_model_cycles'] / r['best_cycles']:.2f}"
                 if r["cost_model_cycles"] and r["best_cycles"] else "")
        cost = r["cost_model_cycles"] or f"error: {r['cost_model_error']}"
        lines.append(f"| {r['kernel']} | {r['size']} | {r['candidates']} | {r['errors']} | {cost} "
                     f"| {r['best_cycles']} | {ratio} | {shown} |")
    if timed:
        first = timed[0]
        lines += ["", f"## Wall time of one tune ({first['kernel']} {first['size']}, "
                  f"{first['candidates']} candidates)", "",
                  "| runner | wall s | speedup over 1 process | best cycles |", "|---|---|---|---|"]
        lines += [f"| {t['runner']} | {t['wall_s']:.2f} | {first['wall_s'] / t['wall_s']:.2f}x "
                  f"| {t['best_cycles']} |" for t in timed]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    meta, clock = context(args.arch), time.perf_counter()
    kernels = [k for k in args.kernels.split(",") if k]
    sizes = [s for s in args.sizes.split(",") if s]
    unknown = [k for k in kernels if k not in SIZES] + [s for s in sizes if s not in ("small", "large")]
    if unknown:
        raise KtcError(f"unknown kernel or size: {', '.join(unknown)}")
    rows = []
    for kernel in kernels:
        for size in sizes:
            rows.append(search(kernel, size, args.arch, ["--jobs", str(args.jobs)]))
            print(json.dumps(rows[-1]), flush=True)
    timed = timed_tunes(*args.timed.split(":"), args.arch) if args.timed else []
    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    text = markdown(rows, timed, meta, time.perf_counter() - clock)
    document = json.dumps({"rows": rows, "timed": timed}, indent=1) + "\n"
    write_atomically(output / "tuning.json", lambda file: file.write(document.encode()))
    write_atomically(output / "tuning.md", lambda file: file.write(text.encode()))
    print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", default=",".join(SIZES))
    parser.add_argument("--sizes", default="small")
    parser.add_argument("--arch", default="spyre")
    parser.add_argument("--jobs", type=int, default=2, help="processes judging the table's candidates")
    parser.add_argument("--timed", default="attention:small", metavar="KERNEL:SIZE",
                        help="the kernel whose tune is timed over 1, 2 processes and Ray ('' for none)")
    parser.add_argument("-o", "--output", default=".", metavar="DIR")
    try:
        return run(parser.parse_args(argv))
    except KtcError as err:
        sys.stderr.write(f"{err}\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
