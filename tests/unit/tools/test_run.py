"""``ktc run --check``'s comparison rule and the Python API of design.md §5.

The comparison is bit-exact for kernels that do not reduce and within a tolerance per
float type for kernels that do; a mismatch names the first differing element. The API:
``ktc.compile`` / ``ktc.load``, ``ktc.Simulator(arch).prepare(pkg)``, ``.launch``,
``.report()``."""

from pathlib import Path

import ktc
import numpy as np
import pytest
from ktc.dialects.diagnostics import KtcError
from ktc.sim import numerics
from ktc.sim.reference import Kernel
from ktc.tools import run
from ktc.tools.ktc import main
from ktc.tools.run import Mismatch, compare, reduces, rule

ROOT = Path(__file__).resolve().parents[3]
ADD16 = ROOT / "tests" / "lit" / "ktc" / "Inputs" / "add16.mlir"


def _f16(*values) -> np.ndarray:
    return np.array(values, np.float16)


def _next_up(x: np.ndarray) -> np.ndarray:
    """``x`` with its last element one f16 ulp larger."""
    y = x.copy()
    y[-1] = np.nextafter(y[-1], np.float16(np.inf))
    return y


# ---------------------------------------------------------------------------------
# The comparison


def test_equal_arrays_match_under_both_rules():
    x = {"y": _f16(1, 2, 3)}
    assert compare(x, {"y": x["y"].copy()}, {"y": "f16"}, reducing=False) is None
    assert compare(x, {"y": x["y"].copy()}, {"y": "f16"}, reducing=True) is None


def test_bit_exact_rule_finds_one_ulp_and_names_the_first_element():
    want = np.arange(12, dtype=np.float16).reshape(3, 4)
    got = want.copy()
    got[1, 2] = np.nextafter(got[1, 2], np.float16(np.inf))
    got[2, 0] = -1
    mismatch = compare({"y": got}, {"y": want}, {"y": "f16"}, reducing=False)
    assert mismatch == Mismatch("y", (1, 2), got[1, 2], want[1, 2], 2, 12)
    assert str(mismatch) == ("%y differs at [1, 2]: 6.00390625 (simulator) vs 6.0 (reference); "
                             "2 of 12 elements differ")


def test_bit_exact_rule_tells_signed_zeros_apart_and_nans_alike():
    assert compare({"y": _f16(-0.0)}, {"y": _f16(0.0)}, {"y": "f16"}, reducing=False)
    assert compare({"y": _f16(np.nan)}, {"y": _f16(np.nan)}, {"y": "f16"}, reducing=False) is None


def test_reduction_rule_allows_a_few_ulps_but_not_more():
    want = _f16(1, 100, 1000)
    assert compare({"y": _next_up(want)}, {"y": want}, {"y": "f16"}, reducing=True) is None
    near, far = want.copy(), want.copy()
    near[1] = 100 + 15  # within 2^-6 of 100 plus 2^-6 of the largest magnitude, 1000
    assert compare({"y": near}, {"y": want}, {"y": "f16"}, reducing=True) is None
    far[1] = 100 + 20
    mismatch = compare({"y": far}, {"y": want}, {"y": "f16"}, reducing=True)
    assert (mismatch.index, mismatch.count) == ((1,), 1)


def test_reduction_rule_is_tighter_for_f32_and_exact_for_integers():
    want = np.array([1.0, 2.0], np.float32)
    assert compare({"y": want * (1 + 1e-6)}, {"y": want}, {"y": "f32"}, reducing=True) is None
    assert compare({"y": want * (1 + 1e-3)}, {"y": want}, {"y": "f32"}, reducing=True)
    ints = np.array([5, 6], np.int32)
    got = ints.copy()
    got[1] += 1
    assert compare({"i": got}, {"i": ints}, {"i": "i32"}, reducing=True).index == (1,)


def test_df16_is_compared_by_value_with_its_codes_shown_decoded():
    want = numerics.to_storage("df16", numerics.round_to("df16", np.array([1.0, 2.0])))
    got = numerics.to_storage("df16", numerics.round_to("df16", np.array([1.0, 3.0])))
    mismatch = compare({"d": got}, {"d": want}, {"d": "df16"}, reducing=True)
    assert (mismatch.index, float(mismatch.actual), float(mismatch.expected)) == ((1,), 3.0, 2.0)


def test_shapes_or_dtypes_that_disagree_are_an_error():
    with pytest.raises(KtcError, match=r"%y: the simulator returned float16\[2\], the reference float16\[3\]"):
        compare({"y": _f16(1, 2)}, {"y": _f16(1, 2, 3)}, {"y": "f16"}, reducing=False)
    with pytest.raises(KtcError, match=r"%y: the simulator returned float32\[2\], the reference float16\[2\]"):
        compare({"y": _f16(1, 2).astype(np.float32)}, {"y": _f16(1, 2)}, {"y": "f16"}, reducing=False)


@pytest.mark.parametrize("example, reducing", [
    ("add", False), ("silu_mul", False), ("row_sum", True), ("softmax", True), ("rmsnorm", True),
])
def test_which_examples_reduce(example: str, reducing: bool):
    kernel = Kernel.from_text((ROOT / "examples" / f"{example}.mlir").read_text(), example)
    assert reduces(kernel.func) is reducing
    assert rule(reducing).endswith("(the kernel reduces)" if reducing else "(the kernel does not reduce)")


def test_a_mismatch_exits_1_with_the_rule_and_the_first_difference(monkeypatch, capsys):
    def differ(actual, expected, elements, reducing):
        return Mismatch("c", (3, 4), 1.5, 1.25, 1, 256)

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
    with pytest.raises(KtcError, match="device: nothing has been executed yet"):
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
