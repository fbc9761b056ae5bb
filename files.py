"""Files written whole or not at all.

``write_atomically(path, fill)`` has ``fill(file)`` write a new temporary file beside
``path``, which then replaces it: a reader sees the old file or the complete new one,
and a failure leaves no temporary behind. ``staged(path)`` gives a writer that opens
the file itself (the simulator's trace) a temporary path to write; when the block
ends, what was written is moved onto ``path`` (also when the block raised: a trace of
a run the simulator stopped is kept), and a file nothing was written into is removed.

A path that names something other than a regular file (``/dev/null``, a FIFO, a
terminal) is written in place: renaming onto it would replace it. Failures are
``KtcError``s naming the path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from ktc.errors import KtcError


def write_atomically(path: str | Path, fill: Callable[[BinaryIO], object]) -> None:
    """Write ``path`` whole or not at all with ``fill(file)``."""
    if _special(path):
        _write_in_place(path, fill)
        return
    temporary = _temporary(path)
    try:
        with open(temporary, "wb") as file:
            fill(file)
        os.replace(temporary, path)
    except OSError as err:
        temporary.unlink(missing_ok=True)
        raise KtcError(f"cannot write '{path}': {err.strerror}") from None


@contextmanager
def staged(path: str | Path) -> Iterator[Path]:
    """A path to write ``path`` through (``path`` itself if it is a special file)."""
    if _special(path):
        yield Path(path)
        return
    temporary = _temporary(path)
    try:
        yield temporary
    finally:
        _commit(temporary, path)


def _special(path: str | Path) -> bool:
    """Whether ``path`` exists and is not a regular file (nor a link to one)."""
    target = Path(path)
    return target.exists() and not target.is_file()


def _write_in_place(path: str | Path, fill: Callable[[BinaryIO], object]) -> None:
    try:
        with open(path, "wb") as file:
            fill(file)
    except OSError as err:
        raise KtcError(f"cannot write '{path}': {err.strerror}") from None


def _temporary(path: str | Path) -> Path:
    """A new empty file beside ``path`` to write it in."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        temporary.open("xb").close()
    except OSError as err:
        raise KtcError(f"cannot write '{path}': {err.strerror}") from None
    return temporary


def _commit(temporary: Path, path: str | Path) -> None:
    """Move a written temporary onto ``path``; drop one nothing was written into."""
    if not temporary.exists():
        return
    if not temporary.stat().st_size:
        temporary.unlink()
        return
    try:
        os.replace(temporary, path)
    except OSError as err:
        temporary.unlink(missing_ok=True)
        raise KtcError(f"cannot write '{path}': {err.strerror}") from None
