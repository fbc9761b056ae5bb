"""``ktc run --check`` (its rule is ``ktc.sim.check``'s) and the Python API of
design.md §5.

A mismatch names the first differing element and exits 1. The API:
``ktc.compile`` / ``ktc.load``, ``ktc.Simulator(arch).prepare(pkg)``, ``.launch``,
``.report()``."""

from pathlib import Path

import ktc
import numpy as np
import pytest
from ktc.dialects.diagnostics import KtcError
from ktc.sim.check import Mismatch, tolerance
from ktc.tools import run
from ktc.tools.ktc import main

ROOT = Path(__file__).resolve().parents[3]
ADD16 = ROOT / "tests" / "lit" / "ktc" / "Inputs" / "add16.mlir"


# ---------------------------------------------------------------------------------
# The check (its rule: tests/unit/sim/test_check.py)


def test_a_mismatch_exits_1_with_the_rule_and_the_first_difference(monkeypatch, capsys):
    def differ(actual, expected, elements, length):
        return Mismatch("c", (3, 4), 1.5, 1.25, 1, 256, 0.0)

    monkeypatch.setattr(run, "compare", differ)
    assert main(["run", str(ADD16), "--arch", "toy", "--check"]) == 1
    out, err = capsys.readouterr()
    assert "check against the reference interpreter: bit-exact" in out
    assert err == ("error: check failed: %c differs at [3, 4]: 1.5 (simulator) vs 1.25 "
                   "(reference); 1 of 256 elements differ\n")


def test_max_cycles_stops_the_run_with_the_engines_state(capsys):
    assert main(["run", str(ADD16), "--arch", "toy", "--max-cycles", "10"]) == 1
    _, err = capsys.readouterr()
    assert err.startswith("error: device: the run passed its cycle budget of 10 cycles (as asked)")
    assert " pc " in err and "waits for" in err
    assert main(["run", str(ADD16), "--arch", "toy", "--max-cycles", "1000000"]) == 0


def test_the_check_applies_the_rule_of_the_kernels_reduction(tmp_path, capsys):
    """row_sum reduces 256 terms: the check says which tolerance it applies."""
    assert main(["run", str(ROOT / "examples" / "row_sum.mlir"), "--arch", "toy", "--check"]) == 0
    out = capsys.readouterr().out
    assert f"for reductions of 256 terms, rtol f16 {tolerance('f16', 256):.3g}" in out
    assert "check passed" in out


# ---------------------------------------------------------------------------------
# The Python API


def test_compile_prepare_launch_report(tmp_path):
    package = ktc.compile(ADD16.read_text(), arch="toy")
    executable = ktc.Simulator("toy").prepare(package)
    rng = np.random.default_rng(0)
    for _ in range(2):
        a, b = (rng.standard_normal((16, 16)).astype(np.float16) for _ in range(2))
        out = executable.launch(a, b, np.zeros_like(a))
        np.testing.assert_array_equal(out["c"], a + b)
    report = executable.report()
    assert report.arch == "toy" and report.cycles >= report.bound_cycles > 0
    assert str(report).startswith(f"cycles: {report.cycles} (")
    path = tmp_path / "add.ktpkg"
    from ktc.codegen.package import write

    write(package, path)
    assert ktc.load(path) == package


def test_report_before_a_launch_and_on_a_device_without_reports():
    package = ktc.compile(ADD16.read_text(), arch="toy")
    simulator = ktc.Simulator("toy")
    with pytest.raises(KtcError, match="the last launch ran no program on the device"):
        simulator.prepare(package).report()

    class Silent:
        """A device that keeps no figures (it is never asked to run anything here)."""

        arch_name, arch_hash = simulator.arch_name, simulator.arch_hash

        def load(self, dataflow):
            return 0

    with pytest.raises(KtcError, match="the device for arch 'toy' keeps no report"):
        ktc.prepare(package, Silent()).report()


def test_a_package_for_another_device_is_refused():
    package = ktc.compile(ADD16.read_text(), arch="toy")
    with pytest.raises(KtcError, match="the package was compiled for arch 'toy'"):
        ktc.Simulator("spyre").prepare(package)


@pytest.mark.parametrize("name, value, kind", [("k", np.complex64(1), "f16"),
                                               ("n", np.str_("4"), "index"),
                                               ("n", np.float64(4.0), "index")])
def test_an_inputs_scalar_of_the_wrong_kind_is_refused(tmp_path, capsys, name, value, kind):
    """A scalar in ``--inputs`` that is not a value of its argument's type (a complex,
    a string, a float for an integer) is refused by name before the run."""
    values = {"n": np.int64(4), "k": np.float16(2.0)} | {name: value}
    np.savez(tmp_path / "in.npz", **values)
    kernel = ROOT / "tests" / "lit" / "ktc" / "Inputs" / "scale_n.mlir"
    assert main(["run", str(kernel), "--arch", "toy", "--inputs", str(tmp_path / "in.npz")]) == 1
    _, err = capsys.readouterr()
    assert f"%{name} = " in err and f"not a value of type {kind}" in err
    assert "internal error" not in err
