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
