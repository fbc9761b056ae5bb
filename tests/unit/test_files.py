"""Files are written whole or not at all (``ktc.files``): a failed write leaves the old
file and no temporary; a staged file nothing was written into is dropped; a special
file (here a FIFO, as ``/dev/null`` would be) is written in place, never replaced by
a regular file."""

import os
import stat
import threading
from pathlib import Path

import pytest

from ktc.errors import KtcError
from ktc.files import staged, write_atomically


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_write_replaces_the_file_whole(tmp_path: Path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    write_atomically(target, lambda file: file.write(b"new contents"))
    assert target.read_bytes() == b"new contents"
    assert _leftovers(tmp_path) == []


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")

    def fail(file):
        file.write(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(KtcError, match="cannot write .*out.bin.*No space left"):
        write_atomically(target, fail)
    assert target.read_bytes() == b"old"
    assert _leftovers(tmp_path) == []


def test_a_folder_that_does_not_exist_is_a_diagnostic(tmp_path: Path):
    with pytest.raises(KtcError, match="cannot write"):
        write_atomically(tmp_path / "missing" / "out.bin", lambda file: file.write(b"x"))


def test_a_staged_file_is_moved_into_place_when_written(tmp_path: Path):
    target = tmp_path / "trace.json"
    with staged(target) as path:
        assert path != target and not target.exists()
        path.write_text("{}")
    assert target.read_text() == "{}"
    assert _leftovers(tmp_path) == []


def test_a_staged_file_written_before_a_failure_is_kept(tmp_path: Path):
    target = tmp_path / "trace.json"
    with pytest.raises(RuntimeError), staged(target) as path:
        path.write_text("[1]")
        raise RuntimeError("deadlock")
    assert target.read_text() == "[1]"


def test_a_staged_file_nothing_was_written_into_is_dropped(tmp_path: Path):
    target = tmp_path / "trace.json"
    target.write_text("old")
    with staged(target):
        pass
    assert target.read_text() == "old"
    assert _leftovers(tmp_path) == []


def _read_fifo(path: Path, into: list[bytes]) -> threading.Thread:
    def read():
        with open(path, "rb") as fifo:
            into.append(fifo.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader


def test_a_special_file_is_written_in_place(tmp_path: Path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = _read_fifo(fifo, got)
    write_atomically(fifo, lambda file: file.write(b"through the pipe"))
    reader.join(timeout=10)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert _leftovers(tmp_path) == []


def test_a_special_file_is_staged_as_itself(tmp_path: Path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = _read_fifo(fifo, got)
    with staged(fifo) as path:
        assert path == fifo
        path.write_bytes(b"trace")
    reader.join(timeout=10)
    assert got == [b"trace"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.parametrize("command", [
    ["ktc-opt", "examples/add.mlir", "-o", "{fifo}"],
    ["ktc", "arch", "dot", "toy", "-o", "{fifo}"],
    ["ktc", "compile", "examples/add.mlir", "--arch", "toy", "-o", "{fifo}"],
], ids=["ktc-opt", "arch-dot", "compile"])
def test_every_tool_writes_a_special_file_in_place(tmp_path: Path, command: list[str]):
    """``-o /dev/null`` as root must not turn the device into a regular file: each tool's
    output goes through ktc.files (a FIFO stands for the device here)."""
    from ktc.tools.ktc import main as ktc
    from ktc.tools.ktc_opt import main as ktc_opt

    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    chunks: list[bytes] = []
    reader = threading.Thread(target=lambda: chunks.append(fifo.read_bytes()), daemon=True)
    reader.start()
    tool, *argv = [part.format(fifo=fifo) for part in command]
    root = Path(__file__).resolve().parents[2]
    argv = [str(root / a) if a.startswith("examples/") else a for a in argv]
    assert (ktc_opt if tool == "ktc-opt" else ktc)(argv) == 0
    reader.join(timeout=60)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert chunks and chunks[0]
