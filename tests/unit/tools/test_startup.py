"""The command lines load only what the command needs (start-up time is mostly
imports): ``ktc --help`` loads neither xDSL nor numpy; ``ktc-opt`` on a kernel that
uses func, arith, scf and ktdp loads no other dialect (no linalg, affine, memref), no
pass module, and, with no pipeline to run, neither xDSL's pass machinery nor package
metadata. Each case runs in a fresh interpreter and lists the modules it ended
with."""

import json
import subprocess
import sys

from conftest import ROOT

from ktc.passes import PASSES


def _modules_after(code: str) -> set[str]:
    """The modules loaded when ``code`` has run in a fresh interpreter (its output
    dropped)."""
    script = (f"import io, json, sys\nsys.stdout = io.StringIO()\n{code}\n"
              "sys.__stdout__.write(json.dumps(sorted(sys.modules)))\n")
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return set(json.loads(run.stdout))


def _pass_modules(modules: set[str]) -> set[str]:
    return {m for m in modules if m.split(".")[:3] in [["ktc", "passes", p] for p, _ in
                                                       PASSES.values()]}


def test_ktc_help_loads_neither_xdsl_nor_numpy():
    modules = _modules_after("from ktc.tools.ktc import main\n"
                             "try:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert "ktc.tools.ktc" in modules
    assert not {m for m in modules if m.split(".")[0] in ("xdsl", "numpy")}


def test_ktc_opt_loads_the_dialects_of_its_input_only():
    modules = _modules_after("from ktc.tools.ktc_opt import main\n"
                             "assert main(['examples/add.mlir']) == 0")
    assert {"ktc.dialects.ktdp", "xdsl.dialects.scf", "ktc.dialects.upstream.scf"} <= modules
    for unused in ("xdsl.dialects.linalg", "xdsl.dialects.affine", "xdsl.dialects.memref",
                   "ktc.dialects.upstream.linalg", "ktc.dialects.ktdf", "ktc.dialects.dfir",
                   "numpy", "xdsl.passes", "xdsl.transforms", "importlib.metadata"):
        assert unused not in modules, unused
    assert _pass_modules(modules) == set()
