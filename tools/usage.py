"""The command lines' argument parser: a usage error exits with 1, as every other bad
input does (argparse's own exit code is 2; ``mlir-opt`` also exits 1)."""

import argparse
import sys

USAGE_EXIT = 1
"""The exit code of a command line argparse refuses."""


class Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose refusals exit with ``USAGE_EXIT``; its
    subcommands' parsers are of the same class."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(USAGE_EXIT, f"{self.prog}: error: {message}\n")
