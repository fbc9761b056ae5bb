"""``ktc``: the kernel author's command line.

Subcommands are added as the toolchain grows (compile, run, inspect, arch, bench);
each is a thin wrapper over the ``ktc`` Python API and reports user errors as
diagnostics with exit code 1.
"""

import argparse
import sys

from ktc import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ktc", description="KTIR compiler for dataflow accelerators")
    parser.add_argument("--version", action="version", version=f"ktc {__version__}")
    parser.add_subparsers(dest="command", metavar="COMMAND")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None:
        build_parser().print_help()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
