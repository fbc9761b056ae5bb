"""The rooms of docs/layout.md import only the rooms they may: every ``import ktc...``
in the package's source (lazy ones inside functions too) is checked against the
table, so the compiler never reaches the runtime or the simulator, the runtime never
reaches the dialects, and ``ktc.errors`` stays importable by every room."""

import ast
from pathlib import Path

import pytest
from conftest import ROOT

MAY_IMPORT = {
    "errors": set(),
    "files": {"errors"},
    "dialects": {"errors"},
    "arch": {"errors", "dialects"},
    "passes": {"errors", "dialects", "arch"},
    "codegen": {"errors", "files", "dialects", "arch"},
    "driver": {"errors", "dialects", "arch", "passes", "codegen"},
    "runtime": {"errors", "codegen", "arch"},
    "sim": {"errors", "files", "arch", "codegen", "runtime", "dialects"},
    "frontend": {"errors", "dialects", "arch", "passes", "codegen", "runtime", "sim", "driver"},
    "benchmarks": {"errors", "files", "dialects", "arch", "passes", "codegen", "driver",
                   "runtime", "sim"},
    "tools": {"errors", "files", "dialects", "arch", "passes", "codegen", "driver", "runtime",
              "sim", "benchmarks"},
    "__main__": {"tools"},
}
"""Room -> the other rooms it may import (``ktc`` itself, for ``__version__``, is open
to all)."""


def _room(path: Path) -> str:
    relative = path.relative_to(ROOT)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def _sources() -> list[Path]:
    modules = {"errors", "files", "driver", "__main__"}
    rooms = set(MAY_IMPORT) - modules
    return sorted(p for p in ROOT.glob("*/**/*.py") if p.relative_to(ROOT).parts[0] in rooms) + [
        ROOT / f"{module}.py" for module in sorted(modules)]


def imported_rooms(path: Path) -> dict[str, int]:
    """The rooms ``path`` imports, each with the line of its first import."""
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "ktc" and len(parts) > 1:
                found.setdefault(parts[1], node.lineno)
    return found


def test_every_room_of_the_package_is_in_the_table():
    top = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    top |= {p.stem for p in ROOT.glob("*.py") if p.stem != "__init__"}
    assert top - {"tests", "examples", "docs"} <= set(MAY_IMPORT)


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_follow_the_table(path: Path):
    room = _room(path)
    bad = {other: line for other, line in imported_rooms(path).items()
           if other != room and other not in MAY_IMPORT[room]}
    assert not bad, f"{path.relative_to(ROOT)} ({room}) imports " + ", ".join(
        f"ktc.{other} (line {line})" for other, line in bad.items())


def test_the_checker_sees_lazy_imports(tmp_path: Path):
    source = tmp_path / "lazy.py"
    source.write_text("def f():\n    from ktc.runtime.executable import prepare\n")
    assert imported_rooms(source) == {"runtime": 2}
