"""No module that defines a pass imports another pass module, and the shared helpers
(``passes/utils``, ``passes/analysis``) import no pass module: what passes share lives
in those helpers, what they hand on is declared by a dialect."""

import ast
from pathlib import Path

from ktc.passes import PASSES

PASSES_DIR = Path(__file__).resolve().parents[3] / "passes"
PASS_MODULES = {f"ktc.passes.{module}" for module, _ in PASSES.values()}


def _pass_module(name: str) -> str | None:
    """The pass module ``name`` is or lies in (a pass may be a package), if any."""
    return next((m for m in PASS_MODULES if name == m or name.startswith(m + ".")), None)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PASSES_DIR).with_suffix("").parts
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    return ".".join(("ktc", "passes", *parts))


def _imports(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
    return names


def offending_imports(files: dict[str, str]) -> list[str]:
    """``importer -> imported`` for every import of a pass module from another pass
    module or from a shared helper, given module names and their source."""
    found = []
    for importer, source in files.items():
        own = _pass_module(importer)
        if own is None and importer.split(".")[2:3] not in (["utils"], ["analysis"]):
            continue
        for name in _imports(ast.parse(source)):
            target = _pass_module(name)
            if target is not None and target != own:
                found.append(f"{importer} -> {target}")
    return sorted(set(found))


def test_no_pass_module_imports_another():
    files = {_module_name(p): p.read_text() for p in PASSES_DIR.rglob("*.py")}
    assert offending_imports(files) == []


def test_the_check_finds_a_planted_import():
    planted = {
        "ktc.passes.path_expansion": "from ktc.passes.double_buffering import x\n",
        "ktc.passes.utils.loops": "import ktc.passes.address_assignment\n",
        "ktc.passes.convert_ktdf_to_dfir.walker": "from ktc.passes.convert_ktdf_to_dfir.views import v\n",
    }
    assert offending_imports(planted) == [
        "ktc.passes.path_expansion -> ktc.passes.double_buffering",
        "ktc.passes.utils.loops -> ktc.passes.address_assignment",
    ]
