"""The error every room raises for a failure the user caused, and the tools report.

Every failure a user can cause (malformed IR, an illegal kernel, a broken arch file,
a corrupt package, wrong launch arguments) is raised as ``KtcError``; the command-line
tools print it (MLIR's ``file:line:col: error: ...`` form) and exit 1 without a
traceback. This module imports nothing, so any room may use it; the helpers that
locate an IR op (``where``, ...) are in ``ktc.dialects.diagnostics``.
"""

from dataclasses import dataclass


@dataclass
class KtcError(Exception):
    """A diagnostic for the user. ``where`` is ``file:line:col`` or a file name, or empty."""

    message: str
    where: str = ""
    severity: str = "error"

    def __str__(self) -> str:
        prefix = f"{self.where}: " if self.where else ""
        return f"{prefix}{self.severity}: {self.message}"


class KtcTypeError(KtcError, TypeError):
    """A value of the wrong kind given to the Python API (a string for an array): a
    ``KtcError`` for the tools, a ``TypeError`` for Python callers."""


class KtcValueError(KtcError, ValueError):
    """A value out of range given to the Python API (10**400 for an f16 scalar): a
    ``KtcError`` for the tools, a ``ValueError`` for Python callers."""


def excerpt(where: str, text: str | None = None) -> str:
    """The source line ``where`` (``file:line:col``) points at and a caret under its
    column, as MLIR prints them below a diagnostic; "" when ``where`` names no line.
    The line comes from ``text`` if given (the input that was parsed), else from the
    file."""
    file, line, col = _position(where)
    if line is None:
        return ""
    if text is None:
        try:
            with open(file, encoding="utf-8", errors="replace") as source:
                text = source.read()
        except OSError:
            return ""
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return ""
    source_line = lines[line - 1].expandtabs(1)
    return f"{source_line}\n{' ' * max(col - 1, 0)}^"


def render(error: KtcError, text: str | None = None) -> str:
    """``error`` as the tools print it: the diagnostic, then its source line and caret."""
    shown = excerpt(error.where, text)
    return f"{error}\n{shown}" if shown else str(error)


def _position(where: str) -> tuple[str, int | None, int]:
    parts = where.rsplit(":", 2)
    if len(parts) != 3 or not (parts[1].isdigit() and parts[2].isdigit()):
        return where, None, 0
    return parts[0], int(parts[1]), int(parts[2])
