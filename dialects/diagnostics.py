"""Where in the IR a diagnostic points: ops' source locations in MLIR's ``file:line:col``
form, for the ``KtcError`` (``ktc.errors``, re-exported here) that names them.
"""

from typing import TypeVar

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, NameLoc, StringAttr
from xdsl.ir import Operation

from ktc.errors import KtcError

__all__ = ["KtcError", "file_loc", "line_of", "located", "source_location", "where"]

OpT = TypeVar("OpT", bound=Operation)


def file_loc(filename: str, line: int, col: int) -> FileLineColLoc:
    return FileLineColLoc(StringAttr(filename), IntAttr(line), IntAttr(col))


def where(op: Operation) -> str:
    """``file:line:col`` of an op's source location, or its name when it has none."""
    return source_location(op) or f"'{op.name}'"


def source_location(op: Operation) -> str:
    """``file:line:col`` of an op's source location, or "" when it has none."""
    loc = _file_line_col(op)
    return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}" if loc else ""


def _file_line_col(op: Operation) -> FileLineColLoc | None:
    """The op's file position, also inside a named location ``loc("name"("f":1:2))``."""
    loc = op.location
    if isinstance(loc, NameLoc):
        loc = loc.location
    return loc if isinstance(loc, FileLineColLoc) else None


def located(op: OpT, origin: Operation) -> OpT:
    """``op`` with ``origin``'s source location: a rewrite gives each op it creates the
    location of the op it stands for, so diagnostics and binaries can name the source."""
    op.location = origin.location
    return op


def line_of(op: Operation) -> int | None:
    loc = _file_line_col(op)
    return loc.line.data if loc else None
