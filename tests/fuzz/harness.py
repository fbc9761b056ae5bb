"""The fuzz harness: damaged inputs through ktc's command lines, counted by outcome.

Every case runs ``ktc`` or ``ktc-opt`` in this process on one damaged input (mutators
in ``mutators.py``) and ends in one of: ``ok`` (exit 0), ``diagnostic`` (exit 1 with an
``error:`` and no internal error), ``usage`` (argparse refused the command line),
``timeout`` (past ``TIMEOUT_S``) or ``internal`` (an ``internal error``, a traceback,
or an exception out of ``main``): the last is the bug this harness looks for.

Categories (each seeded, case ``i`` of seed ``s`` always the same input):

- ``ktir-text``: blind edits of the examples and test kernels, through ``ktc-opt``
  with the legality check;
- ``kernels``: kernels parsed, printed and changed consistently (shapes, element
  types, grids, memory spaces, affine maps, sizes), compiled with ``ktc compile``;
- ``arch``: damaged arch files through ``ktc arch check`` (and, in the long tier, a
  compile for the device when the check passes);
- ``packages``: damaged packages (checksums recomputed) through ``ktc inspect`` and
  ``ktc run``;
- ``launch``: ``ktc run`` with damaged arguments and ``--inputs`` archives.

The quick tier runs in the suite (``test_fuzz.py``); the long tier is
``python tests/fuzz/harness.py [--cases N] [--seed S]`` and prints the counts by
category and outcome, and every internal error with the file that shows it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import signal
import sys
import tempfile
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

import mutators  # noqa: E402

TIMEOUT_S = 30
"""A case running longer than this is counted as a timeout."""
KERNELS = [ROOT / "tests" / "lit" / "ktc" / "Inputs" / name
           for name in ("add16.mlir", "scale_n.mlir", "no_rows.mlir")]
TEXT_SEEDS = KERNELS + sorted((ROOT / "examples").glob("*.mlir"))
ARCH_SEEDS = [ROOT / "arch" / "toy.mlir", ROOT / "arch" / "spyre.mlir",
              ROOT / "tests" / "lit" / "arch" / "Inputs" / "line4.mlir"]
RUN_CYCLES = "200000"
"""The cycle budget of a damaged run (a damaged plan may loop for a long time)."""
QUICK = {"ktir-text": 120, "kernels": 40, "arch": 60, "packages": 60, "launch": 40}
"""Cases per category in the quick tier (the suite's)."""
LONG = {"ktir-text": 700, "kernels": 300, "arch": 400, "packages": 400, "launch": 300}
"""Cases per category in the long tier (``--cases`` scales them)."""


class CaseTimeout(BaseException):
    """Raised by the alarm; a BaseException, so that ``main``'s handlers let it by."""


@dataclass
class Outcome:
    kind: str
    detail: str = ""


@dataclass
class Tally:
    counts: Counter = field(default_factory=Counter)
    internal: list[str] = field(default_factory=list)
    """One line per internal error: the case, its input file and the message."""
    slow: list[str] = field(default_factory=list)
    """One line per timeout: the case and its input file (a busy machine can make a
    case slow; rerun it alone to tell)."""


def run_tool(tool: str, argv: list[str]) -> Outcome:
    """Run ``ktc`` or ``ktc-opt`` on ``argv`` in this process."""
    if tool == "ktc":
        from ktc.tools.ktc import main
    else:
        from ktc.tools.ktc_opt import main
    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT_S)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except CaseTimeout:
        return Outcome("timeout")
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # noqa: BLE001 - anything out of main is the bug looked for
        return Outcome("internal", traceback.format_exc(limit=-3))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    text = err.getvalue()
    if "internal error" in text or "Traceback" in text:
        return Outcome("internal", text.strip().splitlines()[0])
    if code == 0:
        return Outcome("ok")
    if text.startswith("usage:"):
        return Outcome("usage")
    return Outcome("diagnostic") if "error:" in text else Outcome("internal", f"exit {code}: "
                                                                  f"{text.strip()[:200]}")


def _alarm(signum, frame):
    raise CaseTimeout


# ---------------------------------------------------------------------------------------
# Cases: (tool, argv) steps on files written into a folder


Step = tuple[str, list[str]]


def ktir_text(rng: random.Random, folder: Path) -> list[Step]:
    seed = rng.choice(TEXT_SEEDS)
    path = _write(folder / "kernel.mlir", mutators.mutate_text(seed.read_text(), rng))
    return [("ktc-opt", [str(path), "--arch", "toy", "-p", "ktir-legality-check"])]


@cache
def _printed(path: Path) -> str:
    from ktc.dialects.printer import print_ir
    from ktc.dialects.source import parse_module

    return print_ir(parse_module(path.read_text(), str(path)))


def kernels(rng: random.Random, folder: Path) -> list[Step]:
    seed = rng.choice(KERNELS[:2])
    path = _write(folder / "kernel.mlir", mutators.mutate_kernel(_printed(seed), rng))
    args = ["--arg", "n=16", "--arg", "k=2"] if seed.name == "scale_n.mlir" else []
    return [("ktc", ["run", str(path), "--arch", "toy", "--max-cycles", RUN_CYCLES, *args])]


def arch(rng: random.Random, folder: Path, long: bool = False) -> list[Step]:
    seed = rng.choice(ARCH_SEEDS)
    path = _write(folder / seed.name, mutators.mutate_arch(seed.read_text(), rng))
    steps = [("ktc", ["arch", "check", str(path)])]
    if long:
        steps.append(("ktc", ["run", str(KERNELS[0]), "--arch", str(path), "--max-cycles",
                              RUN_CYCLES]))
    return steps


@cache
def _package(kernel: Path) -> bytes:
    from ktc.codegen.package import encode
    from ktc.driver import compile

    return encode(compile(kernel.read_text(), "toy", str(kernel)))


def packages(rng: random.Random, folder: Path) -> list[Step]:
    kernel = rng.choice(KERNELS[:2])
    path = folder / "kernel.ktpkg"
    path.write_bytes(mutators.mutate_package(_package(kernel), rng))
    args = ["--arg", "n=16", "--arg", "k=2"] if kernel.name == "scale_n.mlir" else []
    return [("ktc", ["inspect", str(path)]),
            ("ktc", ["run", str(path), "--arch", "toy", "--max-cycles", RUN_CYCLES, *args])]


def launch(rng: random.Random, folder: Path) -> list[Step]:
    import numpy as np

    kernel, scalars, pointers = rng.choice([(KERNELS[0], [], ["a", "b", "c"]),
                                            (KERNELS[1], ["n", "k"], ["a"])])
    target = str(kernel)
    if rng.random() < 0.4:
        target = str(folder / "kernel.ktpkg")
        Path(target).write_bytes(_package(kernel))
    argv = ["run", target, "--arch", "toy", *mutators.launch_arguments(scalars, rng)]
    if rng.random() < 0.4:
        inputs = folder / "in.npz"
        np.savez(inputs, **mutators.npz_arrays(pointers + scalars, rng))
        argv += ["--inputs", str(inputs)]
    if rng.random() < 0.15 and not target.endswith(".ktpkg"):
        argv.append("--reference")
    elif rng.random() < 0.2:
        argv.append("--check")
    return [("ktc", argv)]


CATEGORIES: dict[str, Callable[..., list[Step]]] = {
    "ktir-text": ktir_text, "kernels": kernels, "arch": arch, "packages": packages,
    "launch": launch,
}


def _write(path: Path, text: str) -> Path:
    path.write_text(text, errors="surrogatepass")
    return path


def cases(category: str, count: int, seed: int) -> Iterator[tuple[int, random.Random]]:
    for index in range(count):
        yield index, random.Random(f"{category}:{seed}:{index}")


def fuzz(category: str, count: int, seed: int, long: bool = False,
         keep: Path | None = None) -> Tally:
    """Run ``count`` cases of ``category``; failing inputs are copied into ``keep``."""
    os.environ.pop("KTC_TRACEBACK", None)
    tally = Tally()
    make = CATEGORIES[category]
    for index, rng in cases(category, count, seed):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            steps = make(rng, folder, long) if category == "arch" else make(rng, folder)
            for tool, argv in steps:
                outcome = run_tool(tool, argv)
                tally.counts[outcome.kind] += 1
                if outcome.kind in ("internal", "timeout"):
                    saved = _keep(folder, keep, f"{category}-{seed}-{index}")
                    line = f"{category} seed {seed} case {index}: {tool} {' '.join(argv)} [{saved}]"
                    if outcome.kind == "internal":
                        tally.internal.append(f"{line}: {outcome.detail}")
                    else:
                        tally.slow.append(f"{line}: past {TIMEOUT_S} s")
    return tally


def _keep(folder: Path, keep: Path | None, name: str) -> str:
    if keep is None:
        return "inputs not kept"
    target = keep / name
    target.mkdir(parents=True, exist_ok=True)
    for path in folder.iterdir():
        (target / path.name).write_bytes(path.read_bytes())
    return str(target)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the long tier of ktc's fuzz harness")
    parser.add_argument("--cases", type=int, default=sum(LONG.values()),
                        help=f"cases in all, shared as LONG shares them (default: {sum(LONG.values())})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--categories", default=",".join(CATEGORIES))
    parser.add_argument("--keep", metavar="DIR", help="copy the inputs of internal errors and timeouts here")
    args = parser.parse_args(argv)
    total = sum(LONG.values())
    keep = Path(args.keep) if args.keep else None
    failures = 0
    for category in args.categories.split(","):
        count = max(1, LONG[category] * args.cases // total)
        tally = fuzz(category, count, args.seed, long=True, keep=keep)
        counts = ", ".join(f"{kind} {n}" for kind, n in sorted(tally.counts.items()))
        print(f"{category}: {count} cases; {counts}", flush=True)
        for line in tally.internal + tally.slow:
            print(f"  {line}", flush=True)
        failures += len(tally.internal)
    print(f"internal errors: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
