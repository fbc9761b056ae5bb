"""Every example on every test device simulates to the committed figures: the same
cycles, roofline bound, bytes per memory, busy / starved / back-pressured cycles per
engine kind (and per instance, as a digest), and bit for bit the same outputs (as a
sha256 per output array), on the compiled timing core and on the Python engines alike.

The simulator is deterministic, so a change of any of these is a change of the
simulator's (or the compiler's) behaviour: a refactor that means to keep behaviour must
keep them all; a change that means to alter timing rewrites the file and says so,
with the figures before and after. Inputs come from the package's own signature and
a fixed seed, independent of the reference interpreter.

Rewrite the figures with ``python tests/e2e/test_simulator_figures.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from conftest import DEVICES, EXAMPLES, LINE4, TOO_FEW_CORES, refused  # noqa: E402

FIGURES = HERE / "simulator_figures.json"
SCALARS = {"layernorm": {"eps": 1e-5}}
"""Scalar arguments per example (the others take none)."""
SEED = 7
NUMPY = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}
DEVICE_FILES = {"spyre": "spyre", "toy": "toy", "line4": str(LINE4)}
HANDED_BACK = {(example, device) for example in ("embedding", "paged_kv_gather") for device in DEVICE_FILES}
"""Examples the compiled core hands to the Python engines on a device: an indirect
access's ``ldx`` and ``dmai`` have no opcode of the core, their addresses depending on
the values (``ktc.sim.compiled``)."""


def inputs(signature, scalars: dict) -> list:
    """N(0, 1) arrays of each pointer argument's type and (static) shape, in order;
    integer arrays (indices) as the magnitude of such draws, truncated: 0 to 3."""
    from ktc.codegen.plan import evaluate

    rng = np.random.default_rng(SEED)
    values = []
    for argument in signature.arguments:
        if not argument.pointer:
            values.append(scalars[argument.name])
            continue
        shape = tuple(evaluate(dim, {}) for dim in argument.shape)
        array = rng.standard_normal(shape).astype(NUMPY[argument.dtype])
        values.append(np.abs(array) if argument.dtype in ("i32", "i64") else array)
    return values


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def measure(example: str, device: str, timing: str = "python") -> dict:
    """The figures of one example on one device, the engines run by ``timing`` (the
    Python engines, the reference, by default; the compiled core must then run it
    itself, not hand it back to them)."""
    from ktc.driver import compile
    from ktc.sim.simulator import Simulator

    path = HERE.parent.parent / "examples" / f"{example}.mlir"
    package = compile(path.read_text(), DEVICE_FILES[device], str(path))
    simulator = Simulator(DEVICE_FILES[device], timing=timing)
    outputs = simulator.prepare(package).launch(*inputs(package.signature, SCALARS.get(example, {})))
    assert simulator.ran_on == ("python" if (example, device) in HANDED_BACK else timing)
    report = simulator.report().to_json()
    instances = json.dumps(report["instances"], sort_keys=True).encode()
    return {
        "cycles": report["cycles"],
        "bound_cycles": report["bound_cycles"],
        "bytes": report["bytes"],
        "engines": report["engines"],
        "instances": digest(instances),
        "outputs": {name: digest(np.ascontiguousarray(array).tobytes())
                    for name, array in sorted(outputs.items())},
    }


def committed() -> dict:
    return json.loads(FIGURES.read_text())


@pytest.mark.parametrize("timing", ["compiled", "python"])
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("path", EXAMPLES)
def test_example_simulates_to_the_committed_figures(path: Path, device: str, timing: str):
    name = Path(device).stem
    refused(path.stem, name)
    want = committed()[f"{path.stem} on {name}"]
    assert measure(path.stem, name, timing) == want


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("path", EXAMPLES)
def test_without_compiled_code_the_figures_are_the_same(path: Path, device: str, monkeypatch):
    """An install without a C compiler has neither the compiled core nor its f16
    arithmetic (``ktc.sim.half``): the Python engines computing every value by the
    float64 rule give the committed figures and outputs too."""
    from ktc.sim import half

    monkeypatch.setattr(half, "OPERATIONS", {})
    monkeypatch.setattr(half, "_core", None)
    name = Path(device).stem
    refused(path.stem, name)
    assert measure(path.stem, name, "python") == committed()[f"{path.stem} on {name}"]


def main() -> None:
    """Measure every example on every device and write the figures file."""
    figures = {}
    for example in sorted(p.stem for p in (HERE.parent.parent / "examples").glob("*.mlir")):
        for device in DEVICE_FILES:
            if (example, device) in TOO_FEW_CORES:
                continue
            figures[f"{example} on {device}"] = measure(example, device)
            print(f"{example} on {device}: {figures[f'{example} on {device}']['cycles']} cycles")
    FIGURES.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    main()
