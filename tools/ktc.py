"""``ktc``: the kernel author's command line.

Subcommands are added as the toolchain grows (compile, run, inspect, arch, bench);
each is a thin wrapper over the ``ktc`` Python API and reports user errors as
diagnostics with exit code 1.

``ktc run KERNEL.mlir|KERNEL.ktpkg --arch NAME|FILE [--check] [--report] ...`` runs a
kernel or package on the cycle-level simulator (``ktc.tools.run``); with
``--reference``, a kernel on the KTIR reference interpreter.
``ktc compile KERNEL.mlir [--arch NAME|FILE] -o KERNEL.ktpkg`` compiles a kernel into a
package (written atomically; the device is spyre unless ``--arch`` says otherwise, as
for ``ktc run``); ``ktc inspect KERNEL.ktpkg`` prints one.
``ktc bench [--kernels ...] [--sizes ...]`` runs the benchmark suite
(``ktc.benchmarks.suite``) and writes ``results.md`` and ``results.json`` into the
current directory or ``-o DIR``.
``ktc tune KERNEL.mlir -o RECORD.json`` searches the schedule space with the simulator
(``ktc.tools.tune``); ``ktc compile --tuned RECORD.json`` uses the record.
``ktc arch check|show|dot FILE|NAME`` validates a device description, summarizes
it in tables, or draws its routing graph (DOT; SVG with ``-o FILE.svg`` when
Graphviz is installed).

Each subcommand imports what it needs when it runs, so that ``ktc --help`` and a
mistyped option answer at once.
"""

import argparse
import os
import sys
from pathlib import Path

from ktc import __version__
from ktc.errors import KtcError, render
from ktc.tools.usage import Parser

ARCH_ACTIONS = {
    "check": "validate a device description",
    "show": "summarize a device: memories, engines, datapaths, routes, roofline constants",
    "dot": "draw the routing graph (Graphviz DOT, or SVG with -o FILE.svg)",
}


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="ktc", description="KTIR compiler for dataflow accelerators")
    parser.add_argument("--version", action="version", version=f"ktc {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    arch = commands.add_parser("arch", help="validate, summarize or draw a device description")
    actions = arch.add_subparsers(dest="action", metavar="ACTION", required=True)
    for action, help_text in ARCH_ACTIONS.items():
        sub = actions.add_parser(action, help=help_text, description=help_text)
        sub.add_argument("device", metavar="FILE|NAME", help="a description file or a packaged device name")
        if action == "dot":
            sub.add_argument("-o", "--output", metavar="FILE", help="write here (SVG if it ends in .svg)")
            sub.add_argument("--expand", action="store_true",
                             help="draw every core (by default core 0, marked ×N: the cores are alike)")
    add_run_parser(commands)
    compile_ = commands.add_parser("compile", help="compile a KTIR kernel into a package",
                                   description="compile a KTIR kernel into a package (.ktpkg)")
    compile_.add_argument("kernel", metavar="KERNEL.mlir", help="the KTIR (or DataflowIR) kernel")
    compile_.add_argument("--arch", default="spyre", metavar="NAME|FILE",
                          help="the device (default: spyre, as for ktc run)")
    compile_.add_argument("--function", metavar="NAME", help="the kernel, when there are several")
    compile_.add_argument("-o", "--output", required=True, metavar="KERNEL.ktpkg",
                          help="the package to write")
    compile_.add_argument("--tuned", metavar="RECORD.json",
                          help="compile with the best schedule of a `ktc tune` record")
    inspect_ = commands.add_parser("inspect", help="show a package",
                                   description="show a package: manifest, signature, symbol "
                                   "tables, plans, disassembly per engine")
    inspect_.add_argument("package", metavar="KERNEL.ktpkg", help="the package")
    from ktc.tools.tune import add_parser

    add_parser(commands)
    from ktc.benchmarks.suite import add_arguments

    add_arguments(commands.add_parser("bench", help="run the benchmark suite",
                                      description="run the benchmark suite: roofline efficiency, "
                                      "speedup over the unoptimized schedule, compile and "
                                      "simulator speed"))
    return parser


def add_run_parser(subparsers) -> argparse.ArgumentParser:
    """The ``run`` subcommand, added to ``ktc``'s subparsers."""
    description = "run a kernel or package on the simulator (or the reference interpreter)"
    parser = subparsers.add_parser("run", help=description, description=description)
    parser.add_argument("kernel", metavar="KERNEL.mlir|KERNEL.ktpkg",
                        help="a KTIR (or DataflowIR) kernel, or a package")
    parser.add_argument("--reference", action="store_true",
                        help="run the KTIR kernel on the reference interpreter instead")
    parser.add_argument("--arch", metavar="NAME|FILE", help="the device (default: spyre)")
    parser.add_argument("--function", metavar="NAME",
                        help="the function to run, when there are several")
    parser.add_argument("--inputs", metavar="IN.npz", help="arrays (and scalars) by argument name")
    parser.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE",
                        help="a scalar argument, read by its type (repeatable)")
    parser.add_argument("--save-outputs", metavar="OUT.npz",
                        help="write every pointer argument's array after the run")
    parser.add_argument("--seed", type=_at_least(0, "a seed"), default=0,
                        help="seed of the random inputs, an integer >= 0 (default: 0)")
    parser.add_argument("--check", action="store_true",
                        help="compare the outputs with the reference interpreter's (exit 1 if they differ)")
    parser.add_argument("--trace", metavar="T.json", help="write a Chrome trace (Perfetto)")
    parser.add_argument("--report", action="store_true",
                        help="print cycles, the roofline bound, per-engine and memory figures")
    parser.add_argument("--report-json", metavar="R.json", help="write the report as JSON")
    parser.add_argument("--max-cycles", type=_at_least(1, "a cycle budget"), metavar="N",
                        help="stop the simulation past cycle N (default: the simulator's budget, "
                             "a multiple of the cycles to move the kernel's arrays once)")
    return parser


def _at_least(least: int, what: str):
    """An argparse type: an integer from ``least`` to 2^62 (``what`` names it in the
    refusal; the simulator counts cycles in 64 bits)."""
    most = 1 << 62

    def read(text: str) -> int:
        try:
            value = int(text, 0)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"{value} is out of range; {what} is an integer "
                                             f"from {least} to {most}")
        return value

    return read


def arch(args: argparse.Namespace) -> int:
    from ktc.arch import report
    from ktc.arch.model import Device

    device = Device.load(args.device)
    if args.action == "check":
        sys.stdout.write("\n".join(report.verdict(device)) + "\n")
    elif args.action == "show":
        sys.stdout.write(report.summary(device))
    else:
        _write(report.graph(device, args.expand), args.output)
    return 0


def _write(dot_text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(dot_text)
        return
    from ktc.arch.report import svg
    from ktc.files import write_atomically

    text = svg(dot_text) if output.endswith(".svg") else dot_text
    write_atomically(output, lambda file: file.write(text.encode()))


def compile_kernel(args: argparse.Namespace) -> int:
    from ktc.codegen.package import write
    from ktc.driver import compile

    try:
        text = Path(args.kernel).read_text()
    except OSError as err:
        raise KtcError(f"cannot read '{args.kernel}': {err.strerror}") from None
    schedule = None
    if args.tuned:
        from ktc.arch.model import Device
        from ktc.tools.tune import tuned_schedule

        schedule = tuned_schedule(args.tuned, text, Device.load(args.arch))
    write(compile(text, args.arch, args.kernel, args.function, schedule=schedule), args.output)
    return 0


def inspect(args: argparse.Namespace) -> int:
    from ktc.codegen.inspect import describe
    from ktc.codegen.package import read

    sys.stdout.write(describe(read(args.package)))
    return 0


def bench(args: argparse.Namespace) -> int:
    from ktc.benchmarks.suite import run

    return run(args)


def run(args: argparse.Namespace) -> int:
    from ktc.tools.run import run_command

    return run_command(args)


def tune(args: argparse.Namespace) -> int:
    from ktc.tools.tune import tune as run_tune

    return run_tune(args)


COMMANDS = {"arch": arch, "run": run, "compile": compile_kernel, "inspect": inspect,
            "bench": bench, "tune": tune}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return COMMANDS[args.command](args)
    except KtcError as err:
        sys.stderr.write(f"{render(err)}\n")
        return 1
    except BrokenPipeError:  # the reader went away (``ktc ... | head``)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as err:  # a bug in ktc, reported without a traceback
        if os.environ.get("KTC_TRACEBACK"):
            raise
        sys.stderr.write(
            f"error: internal error ({type(err).__name__}: {err}); "
            "rerun with KTC_TRACEBACK=1 for the traceback\n"
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
