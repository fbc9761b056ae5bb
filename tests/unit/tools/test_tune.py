"""``ktc tune``: the cost model's schedule is always judged, the record holds every
candidate's simulated cycles under the kernel's and the device's content hashes, the
best is the fewest cycles among them, ``ktc compile --tuned`` gives a package that
simulates to exactly those cycles, and a record for another kernel or device is
refused with the reason (exit 1). The Ray path runs on a local Ray instance the test
starts itself."""

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from ktc.arch.model import Device
from ktc.codegen.package import read
from ktc.sim.simulator import Simulator
from ktc.tools.ktc import main
from ktc.tools.tune import candidates

ROOT = Path(__file__).resolve().parents[3]
SOFTMAX = ROOT / "examples" / "softmax.mlir"


def simulated_cycles(package_path: Path) -> int:
    package = read(str(package_path))
    simulator = Simulator("spyre")
    arrays = [np.zeros((64, 256), np.float16) for _ in package.signature.arguments]  # x, y
    simulator.prepare(package).launch(*arrays)
    return simulator.report().cycles


def tune(tmp_path, *options) -> dict:
    record = tmp_path / "record.json"
    assert main(["tune", str(SOFTMAX), "-o", str(record), *options]) == 0
    return json.loads(record.read_text())


def test_the_cost_models_schedule_comes_first_and_every_candidate_once():
    found = candidates((4, 32), subcores=2)
    assert found[0].sizes == (4, 32) and found[0].skip == ()
    assert len(set(found)) == len(found)
    assert {s.sizes for s in found} == {(4, 32), (8, 32), (2, 32), (4, 64), (4, 16)}
    assert {s.skip for s in found} == {(), ("double-buffering",),
                                       ("parallelize-loops-across-instances",),
                                       ("double-buffering", "parallelize-loops-across-instances")}
    assert {s.skip for s in candidates((4,), subcores=1)} == {(), ("double-buffering",)}


def test_a_tune_records_the_best_and_compile_tuned_simulates_to_it(tmp_path):
    record = tune(tmp_path, "--jobs", "2", "--budget", "4")
    assert record["kernel_sha256"] == hashlib.sha256(SOFTMAX.read_bytes()).hexdigest()
    assert record["arch_sha256"] == Device.load("spyre").content_hash
    judged = [c for c in record["candidates"] if "cycles" in c]
    assert len(record["candidates"]) == 4 and judged
    assert record["best_cycles"] == min(c["cycles"] for c in judged)
    assert record["cost_model_cycles"] == record["candidates"][0]["cycles"]
    assert record["best_cycles"] <= record["cost_model_cycles"]
    package = tmp_path / "tuned.ktpkg"
    assert main(["compile", str(SOFTMAX), "--tuned", str(tmp_path / "record.json"),
                 "-o", str(package)]) == 0
    assert simulated_cycles(package) == record["best_cycles"]
    default = tmp_path / "default.ktpkg"
    assert main(["compile", str(SOFTMAX), "-o", str(default)]) == 0
    assert simulated_cycles(default) == record["cost_model_cycles"]


def test_a_record_of_another_kernel_or_device_is_refused(tmp_path, capsys):
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"kernel_sha256": "0" * 64,
                                "arch_sha256": Device.load("spyre").content_hash,
                                "best": {"sizes": [2], "skip": []}}))
    out = str(tmp_path / "k.ktpkg")
    assert main(["compile", str(SOFTMAX), "--tuned", str(path), "-o", out]) == 1
    assert "tuned for another kernel text" in capsys.readouterr().err
    path.write_text(json.dumps({"kernel_sha256": hashlib.sha256(SOFTMAX.read_bytes()).hexdigest(),
                                "arch_sha256": Device.load("spyre").content_hash,
                                "best": {"sizes": [2], "skip": []}}))
    assert main(["compile", str(SOFTMAX), "--arch", "toy", "--tuned", str(path), "-o", out]) == 1
    err = capsys.readouterr().err
    assert "tuned for another device description" in err and "Traceback" not in err
    path.write_text("{")
    assert main(["compile", str(SOFTMAX), "--tuned", str(path), "-o", out]) == 1
    assert "not a tuning record" in capsys.readouterr().err


@pytest.mark.parametrize("budget", ["0", "x", "-3s"])
def test_a_bad_budget_is_a_usage_error(tmp_path, capsys, budget):
    assert main(["tune", str(SOFTMAX), f"--budget={budget}", "-o", str(tmp_path / "r.json")]) == 1
    assert "--budget" in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()


def test_a_budget_in_seconds_stops_submitting(tmp_path):
    record = tune(tmp_path, "--jobs", "1", "--budget", "0.01s")
    assert 1 <= len(record["candidates"]) < len(candidates((1,), subcores=1)) + 10


def test_the_ray_path_judges_the_same_candidates(tmp_path):
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'ktc[tune]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        over_ray = tune(tmp_path, "--ray", "auto", "--budget", "3")
    finally:
        ray.shutdown()
    local = tune(tmp_path, "--jobs", "2", "--budget", "3")
    assert over_ray["candidates"] == local["candidates"]
    assert over_ray["best"] == local["best"]
