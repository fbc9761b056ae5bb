"""compile -> package -> prepare -> launch on the cycle-level simulator gives the
reference interpreter's outputs, for every example on spyre, toy and the third test
chip, for generated kernels (some with a row reduction split over tiles, some with rows
far wider than a scratchpad chunk), and for two launches of one prepared package.

The comparison is ``ktc.sim.check``'s, the one ``ktc run --check`` applies: outputs of
kernels without a reduction must be bit-exact (the simulator and the interpreter round
every elementwise operation with the same numerics); a reduction may add its terms in
another order (lanes first, then across lanes), so each reduced value may differ by the
roundings a sum of its length gathers, relative to the value and to the output's
largest finite value. Generated kernels are also compared with numpy directly by the
same rule. Every run's simulated time must also be at least the roofline bound (the
simulator fails the run otherwise)."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CORPUS, ROOT
from kernelgen import Spec, ktir, random_inputs, specs, split_specs, wide_specs
from kernelgen import expected as numpy_expected
from ktc.dialects.diagnostics import KtcError
from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim.check import compare, reduction_length
from ktc.sim.reference import Kernel
from ktc.sim.reference import random_inputs as reference_inputs
from ktc.sim.simulator import Simulator

LINE4 = str(ROOT / "tests" / "lit" / "arch" / "Inputs" / "line4.mlir")
DEVICES = {"spyre": "spyre", "toy": "toy", "line4": LINE4}
EXAMPLES = {
    "add": {},
    "broadcast_add": {},
    "silu_mul": {},
    "row_sum": {},
    "argmax": {},
    "softmax": {},
    "rmsnorm": {},
    "split_rmsnorm": {},
    "layernorm": {"eps": 1e-5},
    "matmul": {},
    "swiglu_mlp": {},
    "embedding": {},
    "paged_kv_gather": {},
}
"""Each example with its scalar arguments."""
CORPUS_KERNELS = {
    "ktir-cpu/triton-ktir/vector_add_ktir.mlir": {"BLOCK_SIZE": 128},
    "ktir-cpu/triton-ktir/vector_add_dynamic_ktir.mlir": {"n_elements": 1024},
}
"""The in-scope corpus kernels (tests/e2e/test_schedule_pipeline.py) that simulate in
seconds, with their scalar arguments as in tests/e2e/test_reference_corpus.py.
softmax_fwd and layernorm_fwd are in SIZED_CORPUS_KERNELS; add-with-control-flow has
its own test (constant addresses)."""
SOFTMAX = "ktir-cpu/triton-ktir/softmax_fwd_ktir.mlir"
LAYERNORM = "ktir-cpu/triton-ktir/layernorm_fwd_ktir.mlir"
SIZED_CORPUS_KERNELS = {
    SOFTMAX: {"n_rows": 100},
    LAYERNORM: {"N": 2048, "eps": 1e-5, "BLOCK_SIZE": 1024},
}
"""The two big corpus kernels at sizes their callers choose. softmax_fwd's views are
4096x1024, but it normalizes rows core_id, core_id + 32, ... below n_rows: 100 rows give
3 or 4 rows to each of Spyre's 32 cores and 16 waves of the 32-tile grid on toy's 2
cores (8 on line4's 4). layernorm_fwd's 1151 rows are a constant of the kernel (35 or
36 per tile); N = 2048 columns walked in BLOCK_SIZE = 1024 blocks give each of its three
column loops two iterations per row. At 4096 rows (softmax) or 8192 columns
(layernorm) they take minutes to simulate."""
ON_TOY = {LAYERNORM: {"N": 1024, "eps": 1e-5, "BLOCK_SIZE": 1024}}
"""Sizes for toy where they differ: on its 2 cores of 8 lanes layernorm_fwd simulates
about 4 million cycles at N = 1024 (one block per row, the smallest N), about a CPU
minute; N = 2048 takes twice that."""
TOY_DEVICE_MEMORY = 1 << 20
BIG_TOY_DEVICE_MEMORY = 128 << 20


def simulate(text: str, name: str, device: str, arrays: dict, scalars: dict):
    """The kernel's outputs on the simulator and on the reference interpreter, and the
    simulator's report."""
    kernel = Kernel.from_text(text, name)
    expected = kernel.execute({**{k: v.copy() for k, v in arrays.items()}, **scalars}).outputs
    simulator = Simulator(device)
    executable = prepare(compile_kernel(text, device, name), simulator)
    args = [arrays[p.name].copy() if p.pointer else scalars[p.name] for p in kernel.parameters]
    return executable.launch(*args), expected, simulator.report()


def assert_matches(actual: dict, expected: dict, text: str, scalars: dict) -> None:
    """``actual`` passes ``ktc.sim.check`` against ``expected`` for the kernel ``text``
    (its element types and reduction length)."""
    _assert_within(actual, expected, text, scalars, terms=1)


def assert_matches_numpy(actual: dict, expected: dict, text: str, scalars: dict) -> None:
    """``actual`` passes ``ktc.sim.check`` against a numpy formula's ``expected``.
    numpy's float32 and float16 ``exp``, ``tanh`` and the like are not correctly
    rounded (an ulp off at times), so against numpy a kernel that does not reduce is
    held to the rule for two terms (3 units of roundoff, relative to the output's
    scale) instead of bit-exactness."""
    _assert_within(actual, expected, text, scalars, terms=2)


def _assert_within(actual: dict, expected: dict, text: str, scalars: dict, terms: int) -> None:
    kernel = Kernel.from_text(text)
    assert actual.keys() == expected.keys()
    elements = {p.name: p.element for p in kernel.parameters if p.pointer}
    length = max(terms, reduction_length(kernel, scalars))
    mismatch = compare(actual, expected, elements, length)
    assert mismatch is None, str(mismatch)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("example", EXAMPLES)
def test_example_matches_reference(example: str, device: str):
    text = (ROOT / "examples" / f"{example}.mlir").read_text()
    scalars = EXAMPLES[example]
    arrays = reference_inputs(Kernel.from_text(text, example), scalars, {}, seed=7)
    actual, expected, report = simulate(text, example, DEVICES[device], arrays, scalars)
    assert_matches(actual, expected, text, scalars)
    assert report.bound_cycles <= report.cycles


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", CORPUS_KERNELS)
def test_corpus_kernel_matches_reference(name: str, device: str):
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    text, scalars = path.read_text(), CORPUS_KERNELS[name]
    arrays = reference_inputs(Kernel.from_text(text, name), scalars, {}, seed=7)
    actual, expected, report = simulate(text, name, DEVICES[device], arrays, scalars)
    assert_matches(actual, expected, text, scalars)
    assert report.bound_cycles <= report.cycles


def toy_with_device_memory(directory: Path, size: int) -> str:
    """The toy arch file with ``size`` bytes of device memory, written into ``directory``."""
    text = (ROOT / "arch" / "toy.mlir").read_text()
    toy_memory = f'kind = "DDR", size = {TOY_DEVICE_MEMORY}'
    assert toy_memory in text
    path = directory / "toy.mlir"
    path.write_text(text.replace(toy_memory, f'kind = "DDR", size = {size}'))
    return str(path)


@pytest.mark.parametrize(
    ("name", "device"), [(name, device) for name in SIZED_CORPUS_KERNELS for device in DEVICES]
)
def test_sized_corpus_kernel_matches_reference(name: str, device: str, tmp_path: Path):
    """The views fix the arrays at 8 MiB (softmax_fwd) and 18 MiB (layernorm_fwd),
    which toy's 1 MiB of device memory cannot hold: the launch says so, and the kernel
    then runs on a toy that differs only in having 128 MiB of it."""
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    text, scalars = path.read_text(), SIZED_CORPUS_KERNELS[name]
    if device == "toy":
        scalars = ON_TOY.get(name, scalars)
    arrays = reference_inputs(Kernel.from_text(text, name), scalars, {}, seed=7)
    arch = DEVICES[device]
    if device == "toy":
        with pytest.raises(KtcError, match=rf"device: DDR cannot hold \d+ more bytes: "
                                           rf"0 of {TOY_DEVICE_MEMORY} in use"):
            simulate(text, name, arch, arrays, scalars)
        arch = toy_with_device_memory(tmp_path, BIG_TOY_DEVICE_MEMORY)
    actual, expected, report = simulate(text, name, arch, arrays, scalars)
    assert_matches(actual, expected, text, scalars)
    assert report.bound_cycles <= report.cycles


@pytest.mark.parametrize("device", DEVICES)
def test_constant_addresses(device: str):
    """add-with-control-flow takes no arguments: A, B and C lie at element addresses
    1024, 12288 and 18432 of device memory, written and read around the launch; its
    one tile adds rows 0..2 and leaves the rest of C as it was."""
    path = CORPUS / "ktir-cpu" / "rfc" / "add-with-control-flow.mlir"
    if not path.exists():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    rng = np.random.default_rng(5)
    a, b = (rng.standard_normal((96, 64)).astype(np.float16) for _ in range(2))
    c = np.zeros((96, 64), np.float16)
    simulator = Simulator(DEVICES[device])
    memory = simulator.device.device_memory
    assert simulator.allocate(memory, 2 * (18432 + c.size), 128) == 0
    for element, array in ((1024, a), (12288, b), (18432, c)):
        simulator.write(memory, 2 * element, array.tobytes())
    executable = prepare(compile_kernel(path.read_text(), DEVICES[device], str(path)), simulator)
    executable.launch()
    out = np.frombuffer(simulator.read(memory, 2 * 18432, c.nbytes), np.float16).reshape(c.shape)
    expected = c.copy()
    expected[:3] = a[:3] + b[:3]
    np.testing.assert_array_equal(out, expected)
    assert simulator.report().bound_cycles <= simulator.report().cycles


def test_one_prepare_two_launches():
    """The symbols are evaluated per launch: the second call's arrays sit at other
    addresses and both results are right."""
    text = (ROOT / "examples" / "add.mlir").read_text()
    simulator = Simulator("spyre")
    executable = prepare(compile_kernel(text, "spyre", "add"), simulator)
    rng = np.random.default_rng(3)
    for _ in range(2):
        a, b = (rng.standard_normal((256, 128)).astype(np.float16) for _ in range(2))
        out = executable.launch(a, b, np.zeros((256, 128), np.float16))
        np.testing.assert_array_equal(out["c"], a + b)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=specs(max_nodes=3))
@pytest.mark.parametrize("device", ["spyre", "toy"])
def test_generated_kernel_matches_reference(device: str, spec: Spec):
    arrays = random_inputs(spec, seed=11)
    actual, expected, _ = simulate(ktir(spec), "generated", device, arrays, {})
    assert_matches(actual, expected, ktir(spec), {})
    assert_matches_numpy({"out": actual["out"]}, {"out": numpy_expected(spec, arrays)}, ktir(spec), {})


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize("device", ["spyre", "toy"])
def test_generated_wide_reduction_matches_reference_and_numpy(device: str, data):
    """Rows 2 or 4 times as wide as the share of the scratchpad one reduction's row may
    take (``reduction-dim-chunking``'s default, the scratchpad / 8): they are cut into
    chunks whose partials are combined. (``reduction-dim-chunking`` cuts the row of a
    reduction of one input only; a second input or a row vector that wide is staged
    whole, which does not fit: the wide kernels read one matrix.)"""
    model = Simulator(device).device
    spec = data.draw(wide_specs(model.memory(model.scratchpad).size // 8))
    arrays = random_inputs(spec, seed=11)
    actual, expected, _ = simulate(ktir(spec), "generated", device, arrays, {})
    assert_matches(actual, expected, ktir(spec), {})
    assert_matches_numpy({"out": actual["out"]}, {"out": numpy_expected(spec, arrays)}, ktir(spec), {})


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize("device", DEVICES)
def test_generated_split_reduction_matches_reference(device: str, data):
    """A row reduction split over the tiles of a group (reduce-to-one or all-reduce
    over the interconnect, a grid of one wave) gives the reference's results, which are
    numpy's row reductions; the copies of an all-reduce are the same bits."""
    spec = data.draw(split_specs(max_tiles=Simulator(DEVICES[device]).device.cores, max_nodes=3))
    arrays = random_inputs(spec, seed=11)
    actual, reference, report = simulate(ktir(spec), "generated", DEVICES[device], arrays, {})
    assert_matches(actual, reference, ktir(spec), {})
    assert_matches_numpy({"out": actual["out"]}, {"out": numpy_expected(spec, arrays)}, ktir(spec), {})
    copies = actual["out"].reshape(spec.copies, spec.rows)
    assert all(copy.tobytes() == copies[0].tobytes() for copy in copies)
    assert report.bound_terms["interconnect"] > 0
