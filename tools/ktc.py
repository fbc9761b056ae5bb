"""``ktc``: the kernel author's command line.

Subcommands are added as the toolchain grows (compile, run, inspect, arch, bench);
each is a thin wrapper over the ``ktc`` Python API and reports user errors as
diagnostics with exit code 1.

``ktc run KERNEL.mlir|KERNEL.ktpkg --arch NAME|FILE [--check] [--report] ...`` runs a
kernel or package on the cycle-level simulator (``ktc.sim.run_cli``); with
``--reference``, a kernel on the KTIR reference interpreter.
``ktc compile KERNEL.mlir --arch NAME|FILE -o KERNEL.ktpkg`` compiles a kernel into a
package (written atomically); ``ktc inspect KERNEL.ktpkg`` prints one.
``ktc bench [--kernels ...] [--sizes ...]`` runs the benchmark suite
(``ktc.benchmarks.suite``) and writes ``benchmarks/results.md`` and ``results.json``.
``ktc arch check|show|dot FILE|NAME`` validates a device description, summarizes
it in tables, or draws its routing graph (DOT; SVG with ``-o FILE.svg`` when
Graphviz is installed).
"""

import argparse
import os
import sys
from pathlib import Path

from ktc import __version__
from ktc.dialects.diagnostics import KtcError
from ktc.sim.run_cli import add_run_parser, run_command

ARCH_ACTIONS = {
    "check": "validate a device description",
    "show": "summarize a device: memories, engines, datapaths, routes, roofline constants",
    "dot": "draw the routing graph (Graphviz DOT, or SVG with -o FILE.svg)",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ktc", description="KTIR compiler for dataflow accelerators")
    parser.add_argument("--version", action="version", version=f"ktc {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    arch = commands.add_parser("arch", help="validate, summarize or draw a device description")
    actions = arch.add_subparsers(dest="action", metavar="ACTION", required=True)
    for action, help_text in ARCH_ACTIONS.items():
        sub = actions.add_parser(action, help=help_text, description=help_text)
        sub.add_argument("device", metavar="FILE|NAME", help="a description file or a packaged device name")
        if action == "dot":
            sub.add_argument("-o", "--output", metavar="FILE", help="write here (SVG if it ends in .svg)")
    add_run_parser(commands)
    compile_ = commands.add_parser("compile", help="compile a KTIR kernel into a package",
                                   description="compile a KTIR kernel into a package (.ktpkg)")
    compile_.add_argument("kernel", metavar="KERNEL.mlir", help="the KTIR (or DataflowIR) kernel")
    compile_.add_argument("--arch", required=True, metavar="NAME|FILE", help="the device")
    compile_.add_argument("--function", metavar="NAME", help="the kernel, when there are several")
    compile_.add_argument("-o", "--output", required=True, metavar="KERNEL.ktpkg",
                          help="the package to write")
    inspect_ = commands.add_parser("inspect", help="show a package",
                                   description="show a package: manifest, signature, symbol "
                                   "tables, plans, disassembly per engine")
    inspect_.add_argument("package", metavar="KERNEL.ktpkg", help="the package")
    from ktc.benchmarks.suite import add_arguments

    add_arguments(commands.add_parser("bench", help="run the benchmark suite",
                                      description="run the benchmark suite: roofline efficiency, "
                                      "speedup over the unoptimized schedule, compile and "
                                      "simulator speed"))
    return parser


def arch(args: argparse.Namespace) -> int:
    from ktc.arch import report
    from ktc.arch.model import Device

    device = Device.load(args.device)
    if args.action == "check":
        sys.stdout.write("\n".join(report.verdict(device)) + "\n")
    elif args.action == "show":
        sys.stdout.write(report.summary(device))
    else:
        _write(report.graph(device), args.output)
    return 0


def _write(dot_text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(dot_text)
        return
    from ktc.arch.report import svg

    text = svg(dot_text) if output.endswith(".svg") else dot_text
    try:
        Path(output).write_text(text)
    except OSError as err:
        raise KtcError(f"cannot write '{output}': {err.strerror}") from None


def compile_kernel(args: argparse.Namespace) -> int:
    from ktc.codegen.package import write
    from ktc.driver import compile

    try:
        text = Path(args.kernel).read_text()
    except OSError as err:
        raise KtcError(f"cannot read '{args.kernel}': {err.strerror}") from None
    write(compile(text, args.arch, args.kernel, args.function), args.output)
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
    from ktc.driver import compile

    return run_command(args, compile)


COMMANDS = {"arch": arch, "run": run, "compile": compile_kernel, "inspect": inspect,
            "bench": bench}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return COMMANDS[args.command](args)
    except KtcError as err:
        sys.stderr.write(f"{err}\n")
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
