"""``ktc run --check`` (its rule is ``ktc.sim.check``'s) and the Python API of
design.md §5.

A mismatch names the first differing element and exits 1. The API:
``ktc.compile`` / ``ktc.load``, ``ktc.Simulator(arch).prepare(pkg)``, ``.launch``,
``.report()``."""

from pathlib import Path

import ktc
import numpy as np
import pytest
from conftest import corpus_kernel
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
# Kernels at fixed addresses: the device memory image is checked

FIXED_ADDS = ["ktir-cpu/rfc/add-with-control-flow.mlir", "ktir-mlir-frontend/add.mlir"]
"""Corpus adds without arguments: A, B, C (96 x 64 f16) at elements 1024, 12288, 18432;
one tile stores rows 0 to 2 of A + B into C."""


@pytest.mark.parametrize("name", FIXED_ADDS)
def test_a_kernel_without_pointers_is_checked_over_its_views(tmp_path, capsys, name):
    """The given arrays are laid at the views' addresses; the images after the run match
    the reference's and the numpy formula (C's first rows A + B, the rest unchanged)."""
    rng = np.random.default_rng(3)
    a, b, c = (rng.standard_normal(96 * 64).astype(np.float16) for _ in range(3))
    np.savez(tmp_path / "in.npz", A_view=a, B_view=b, C_view=c)
    argv = ["run", str(corpus_kernel(name)), "--arch", "toy", "--check", "--inputs",
            str(tmp_path / "in.npz"), "--save-outputs", str(tmp_path / "out.npz")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "%C_view (device memory from element 18432): f16[6144]" in out
    assert ("check passed: 3 regions of device memory at fixed addresses, 18432 elements "
            "compared, worst error 0") in out
    expected = c.copy()
    expected[: 3 * 64] = a[: 3 * 64] + b[: 3 * 64]
    with np.load(tmp_path / "out.npz") as saved:
        np.testing.assert_array_equal(saved["C_view"], expected)
        np.testing.assert_array_equal(saved["A_view"], a)


def test_a_perturbed_device_memory_image_fails_the_check(monkeypatch, capsys):
    """One element of the simulator's image of C changed: exit 1, naming the view, the
    element in its region and in device memory."""
    simulate = run._simulate

    def perturbed(*args, **kwargs):
        outputs, images, report = simulate(*args, **kwargs)
        image = images["C_view"]

        def read(start, shape, dtype):
            data = np.array(image.read(start, shape, dtype))
            at = image.region.start + 70 - start
            if 0 <= at < data.size:
                data[at] = data[at] + np.float16(0.5)
            return data

        images["C_view"] = run._Image(image.region, read)
        return outputs, images, report

    monkeypatch.setattr(run, "_simulate", perturbed)
    assert main(["run", str(corpus_kernel(FIXED_ADDS[0])), "--arch", "toy", "--check"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: check failed: the device memory image differs from the "
                          "reference's: %C_view differs at [70]: ")
    assert err.endswith("1 of 6144 elements differ (element 18502 of device memory)\n")


def test_an_input_of_the_wrong_size_for_a_view_is_refused(tmp_path, capsys):
    np.savez(tmp_path / "in.npz", B_view=np.zeros(10, np.float16))
    kernel = str(corpus_kernel(FIXED_ADDS[0]))
    assert main(["run", kernel, "--arch", "toy", "--inputs", str(tmp_path / "in.npz")]) == 1
    assert capsys.readouterr().err == (
        "error: %B_view reaches 6144 f16 elements of device memory from element 12288: "
        "expected an array of dtype float16 and 6144 elements, got float16[10]\n")


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
