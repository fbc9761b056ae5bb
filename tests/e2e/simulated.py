"""What the end-to-end tests share: a kernel run on the simulator and on the reference
interpreter, and the three-way check of the two against a numpy formula's arrays
(``ktc.sim.check``'s rule: the simulated outputs against the formula, the reference's
against it, and the two against each other)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim.check import compare
from ktc.sim.reference import Kernel
from ktc.sim.simulator import Simulator


def run(text: str, device: str, inputs: dict, name: str = "kernel.mlir",
        simulator: Simulator | None = None) -> tuple[dict, dict]:
    """The outputs of the simulated kernel (on ``simulator``, a fresh one of ``device``
    by default) and the reference interpreter's, for the same arrays."""
    simulator = simulator or Simulator(device)
    simulated = prepare(compile_kernel(text, device, name), simulator).launch(*inputs.values())
    reference = Kernel.from_text(text, name).execute(dict(inputs)).outputs
    return simulated, {key: reference[key] for key in simulated}


def agree(simulated: dict, reference: dict, expected: Mapping[str, np.ndarray],
          elements: Mapping[str, str], length: int = 1) -> None:
    """Both runs match ``expected`` and each other, for reductions of ``length`` terms."""
    assert compare(simulated, expected, elements, length) is None
    assert compare(reference, expected, elements, length) is None
    assert compare(simulated, reference, elements, length) is None
