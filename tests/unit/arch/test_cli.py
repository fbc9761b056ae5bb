"""``ktc arch``: every invalid device file ends in one diagnostic naming the place,
exit code 1 and no traceback; ``dot -o FILE.svg`` renders through Graphviz when it
is installed and says so, writing nothing, when it is not."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from ktc.arch.model import Device
from ktc.tools.ktc import main

INVALID = sorted((ROOT / "tests" / "lit" / "arch" / "invalid").glob("*.mlir"))


@pytest.mark.parametrize("path", INVALID, ids=[path.stem for path in INVALID])
def test_invalid_device_gives_one_located_error_with_its_line(path: Path, capsys: pytest.CaptureFixture):
    assert main(["arch", "check", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    line, source, caret = err.splitlines()
    assert re.match(r"\S+\.mlir:\d+:\d+: error: ", line), line
    file, number, column = line.split(": error: ")[0].rsplit(":", 2)
    number, column = int(number), int(column)
    assert source == Path(file).read_text().splitlines()[number - 1]
    assert caret == " " * (column - 1) + "^"


def test_the_command_exits_1_without_a_traceback():
    run = subprocess.run(
        [sys.executable, "-m", "ktc.tools.ktc", "arch", "check", str(INVALID[0])],
        capture_output=True, text=True,
    )
    assert run.returncode == 1
    assert "Traceback" not in run.stderr and ": error: " in run.stderr


def test_every_invalid_case_has_its_own_file():
    assert len(INVALID) >= 20


@pytest.mark.parametrize("action", ["check", "show", "dot"])
def test_shipped_devices_succeed(action: str, capsys: pytest.CaptureFixture):
    for name in ("spyre", "toy"):
        assert main(["arch", action, name]) == 0
    assert capsys.readouterr().err == ""


def fake_dot(folder: Path, script: str) -> None:
    dot = folder / "dot"
    dot.write_text(f"#!{sys.executable}\nimport sys\n{script}\n")
    dot.chmod(0o755)


def test_svg_through_graphviz(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    fake_dot(tmp_path, "text = sys.stdin.read()\nprint('<svg>' + str(text.count('->')) + ' edges</svg>')")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    out = tmp_path / "toy.svg"
    assert main(["arch", "dot", "toy", "--expand", "-o", str(out)]) == 0
    assert out.read_text() == f"<svg>{len(Device.load('toy').links)} edges</svg>\n"


def test_svg_without_graphviz_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    out = tmp_path / "toy.svg"
    assert main(["arch", "dot", "toy", "-o", str(out)]) == 1
    assert "Graphviz 'dot' is not installed" in capsys.readouterr().err
    assert not out.exists()


def test_graphviz_failure_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    fake_dot(tmp_path, "sys.stderr.write('syntax error in line 1')\nsys.exit(1)")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["arch", "dot", "toy", "-o", str(tmp_path / "toy.svg")]) == 1
    assert "Graphviz 'dot' failed: syntax error in line 1" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("dot") is None,
                    reason="Graphviz 'dot' is not installed (apt-get install graphviz)")
@pytest.mark.parametrize("expand", [[], ["--expand"]], ids=["one-core", "expanded"])
def test_the_documented_svg_command_renders_with_the_installed_graphviz(tmp_path, expand):
    """``ktc arch dot spyre -o spyre.svg`` (docs/arch-format.md), with the distribution's
    Graphviz (2.43 on Debian 12, which fails on the clusters without newrank)."""
    output = tmp_path / "spyre.svg"
    assert main(["arch", "dot", "spyre", "-o", str(output), *expand]) == 0
    text = output.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    cores = text.count("core 0 (×32, alike)"), text.count(">core 31<")
    assert cores == ((0, 1) if expand else (1, 0))
