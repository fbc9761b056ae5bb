"""Printing IR the way MLIR prints it."""

from io import StringIO

from xdsl.ir import Operation
from xdsl.printer import Printer


def print_ir(op: Operation, generic: bool = False) -> str:
    """The text of ``op`` (usually a module), ending in a newline."""
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(op)
    return out.getvalue().rstrip("\n") + "\n"
