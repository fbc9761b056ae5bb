"""The KTIR the PyTorch front end writes for a kernel, without PyTorch.

Kernels are built by hand here (``ktc.frontend.kernel``); the text must read back in
``ktc-opt``, say where each op comes from, spread the rows over the device as the
device model allows, and compute on the simulator what a numpy formula written here
computes.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import DEVICES

import ktc
from ktc.arch.model import Device
from ktc.errors import KtcError
from ktc.frontend.kernel import COL, FULL, ROW, Array, Kernel, Step
from ktc.frontend.ktir import BYTES, emit, plan
from ktc.tools.ktc_opt import main as ktc_opt

NUMPY = {"f16": np.float16, "f32": np.float32}
TOLERANCE = {"f16": 2.0 ** -6, "f32": 1e-5}
"""Relative to the element and to the largest reference magnitude (the rule of
``ktc run --check`` for kernels that reduce)."""


def rmsnorm_kernel(rows: int, cols: int, dtype: str) -> Kernel:
    """``y = x * rsqrt(mean(x * x) + 1e-6) * w * r``, ``s = x.sum(-1) + r``,
    ``z = tanh(x) + 0.5`` (``w`` per column, ``r`` per row)."""
    steps = (
        Step("mul", ("x", "x"), "square", FULL, dtype, "pow_1"),
        Step("sum", ("square",), "total", ROW, dtype, "mean"),
        Step("mul", ("total", 1.0 / cols), "mean", ROW, dtype, "mean"),
        Step("add", ("mean", 1e-6), "shifted", ROW, dtype, "add"),
        Step("rsqrt", ("shifted",), "scale", ROW, dtype, "rsqrt"),
        Step("mul", ("x", "scale"), "normed", FULL, dtype, "mul"),
        Step("mul", ("normed", "w"), "weighted", FULL, dtype, "mul_1"),
        Step("mul", ("weighted", "r"), "y", FULL, dtype, "mul_2"),
        Step("sum", ("x",), "total_1", ROW, dtype, "sum_1"),
        Step("add", ("total_1", "r"), "s", ROW, dtype, "add_2"),
        Step("tanh", ("x",), "t", FULL, dtype, "tanh"),
        Step("add", ("t", 0.5), "z", FULL, dtype, "add_1"),
    )
    inputs = (Array("x", FULL, dtype), Array("w", COL, dtype), Array("r", ROW, dtype))
    return Kernel("rmsnorm_like", rows, cols, inputs,
                  steps, ((Array("y.out", FULL, dtype), "y"), (Array("s.out", ROW, dtype), "s"),
                          (Array("z.out", FULL, dtype), "z")))


def inputs(rows: int, cols: int, dtype: str, seed: int) -> tuple[np.ndarray, ...]:
    """``x``, ``w`` and ``r`` (as the ``R x 1`` array a per-row input is)."""
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal(shape).astype(NUMPY[dtype])
                 for shape in ((rows, cols), (cols,), (rows, 1)))


def expected(x: np.ndarray, w: np.ndarray, r: np.ndarray) -> dict[str, np.ndarray]:
    x, w, r = x.astype(np.float64), w.astype(np.float64), r.astype(np.float64)
    y = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6) * w[None, :] * r
    return {"y.out": y, "s.out": x.sum(axis=1) + r[:, 0], "z.out": np.tanh(x) + 0.5}


def assert_close(got: np.ndarray, want: np.ndarray, dtype: str) -> None:
    tolerance = TOLERANCE[dtype]
    bound = tolerance * (np.abs(want) + np.abs(want).max())
    error = np.abs(got.astype(np.float64) - want)
    assert (error <= bound).all(), f"largest error {error.max()} (bound {bound.max()})"


@pytest.mark.parametrize("arch", DEVICES)
@pytest.mark.parametrize("dtype", ["f16", "f32"])
def test_kernel_computes_its_formula(arch: str, dtype: str):
    kernel = rmsnorm_kernel(64, 96, dtype)
    device = Device.load(arch)
    text = emit(kernel, device, "rmsnorm_like.mlir")
    arrays = inputs(64, 96, dtype, 7)
    outputs = [np.zeros((64, 96), NUMPY[dtype]), np.zeros(64, NUMPY[dtype]),
               np.zeros((64, 96), NUMPY[dtype])]
    package = ktc.compile(text, arch=arch, filename="rmsnorm_like.mlir")
    executable = ktc.Simulator(arch).prepare(package)
    got = executable.launch(*arrays, *outputs)
    assert executable.report().cycles > 0
    for name, want in expected(*arrays).items():
        assert_close(got[name], want, dtype)


@pytest.mark.parametrize("arch", DEVICES)
def test_plan_follows_the_device(arch: str):
    """The grid is the largest divisor of the rows within the cores; a block is the
    largest divisor of a tile's rows whose arrays fit half a scratchpad."""
    device = Device.load(arch)
    for rows, cols in ((64, 96), (7, 32), (96, 4096), (1, 64)):
        kernel = rmsnorm_kernel(rows, cols, "f16")
        shape = plan(kernel, device)
        assert rows % shape.grid == 0 and shape.grid <= device.cores
        assert not any(rows % g == 0 for g in range(shape.grid + 1, device.cores + 1))
        assert shape.grid * shape.rows_per_tile == rows
        assert shape.rows_per_tile % shape.block == 0
        full = sum(BYTES[v.dtype] for v in (*kernel.arrays, *kernel.steps) if v.layout == FULL)
        budget = device.memory(device.scratchpad).size // 2
        assert shape.block == 1 or shape.block * cols * full <= budget
        larger = [b for b in range(shape.block + 1, shape.rows_per_tile + 1)
                  if shape.rows_per_tile % b == 0]
        assert not larger or larger[0] * cols * full > budget


def test_rows_walked_in_blocks_are_a_loop():
    """On toy a tile's rows do not fit at once: the kernel loops over blocks, and still
    computes its formula."""
    device = Device.load("toy")
    kernel = rmsnorm_kernel(64, 256, "f16")
    assert plan(kernel, device).steps > 1
    text = emit(kernel, device, "blocks.mlir")
    assert "scf.for %step = %c0 to %rows_per_tile step %block" in text
    arrays = inputs(64, 256, "f16", 3)
    outputs = [np.zeros((64, 256), np.float16), np.zeros(64, np.float16),
               np.zeros((64, 256), np.float16)]
    got = ktc.Simulator("toy").prepare(ktc.compile(text, arch="toy")).launch(*arrays, *outputs)
    for name, want in expected(*arrays).items():
        assert_close(got[name], want, "f16")


def test_every_op_is_located_at_its_node_and_its_own_line(tmp_path):
    text = emit(rmsnorm_kernel(64, 96, "f16"), Device.load("spyre"), "located.mlir")
    nodes = set()
    for number, line in enumerate(text.splitlines(), start=1):
        found = re.search(r'loc\("([^"]+)"\("located\.mlir":(\d+):(\d+)\)\)$', line)
        if found is None:
            continue
        nodes.add(found.group(1))
        assert int(found.group(2)) == number
        assert int(found.group(3)) == len(line) - len(line.lstrip()) + 1
    assert {"pow_1", "mean", "rsqrt", "mul_1", "sum_1", "tanh", "x", "w", "r", "y.out"} <= nodes
    path = tmp_path / "located.mlir"
    path.write_text(text)
    assert ktc_opt([str(path)]) in (0, None)


def test_a_compile_error_points_at_the_line_of_the_node():
    """An op the device has no lowering for (gelu's intrinsic on spyre today, or an op
    without an instruction) is reported at its line, which names its FX node."""
    steps = (Step("exp", ("x",), "e", FULL, "f16", "exp"),
             Step("erf", ("e",), "y", FULL, "f16", "erf_node"))
    kernel = Kernel("erf_kernel", 8, 64, (Array("x", FULL, "f16"),), steps,
                    ((Array("y.out", FULL, "f16"), "y"),))
    text = emit(kernel, Device.load("spyre"), "erf_kernel.mlir")
    with pytest.raises(KtcError) as error:
        ktc.compile(text, arch="spyre", filename="erf_kernel.mlir")
    line = int(re.search(r"erf_kernel\.mlir:(\d+):\d+", str(error.value)).group(1))
    assert 'loc("erf_node"' in text.splitlines()[line - 1]


def test_constants_read_back_exactly():
    """Infinities are written as bits, finite values as decimals that read back as the
    value rounded to the element type (checked through a kernel that adds them)."""
    values = (1e-5, 0.1, -3.0, 65504.0, 1e-8)
    steps = tuple(Step("add", ("x" if i == 0 else f"v{i - 1}", v), f"v{i}", FULL, "f32", f"add_{i}")
                  for i, v in enumerate(values))
    kernel = Kernel("constants", 4, 32, (Array("x", FULL, "f32"),), steps,
                    ((Array("y.out", FULL, "f32"), f"v{len(values) - 1}"),))
    x = np.zeros((4, 32), np.float32)
    text = emit(kernel, Device.load("spyre"), "constants.mlir")
    got = ktc.Simulator("spyre").prepare(ktc.compile(text, arch="spyre")).launch(
        x, np.zeros_like(x))["y.out"]
    want = np.float32(0)
    for v in values:
        want = np.float32(want + np.float32(v))
    assert (got == want).all()
    amax = Kernel("amax", 4, 32, (Array("x", FULL, "f16"),),
                  (Step("amax", ("x",), "m", ROW, "f16", "amax"),), ((Array("m.out", ROW, "f16"), "m"),))
    assert "arith.constant 0xFC00 : f16" in emit(amax, Device.load("spyre"), "amax.mlir")


def test_kernel_descriptions_are_checked():
    with pytest.raises(ValueError, match="undefined"):
        Kernel("k", 4, 4, (Array("x", FULL, "f16"),), (Step("add", ("x", "nothing"), "y", FULL, "f16", "n"),),
               ((Array("y.out", FULL, "f16"), "y"),))
    with pytest.raises(ValueError, match="bad step"):
        Kernel("k", 4, 4, (Array("x", FULL, "f16"),), (Step("powf", ("x",), "y", FULL, "f16", "n"),),
               ((Array("y.out", FULL, "f16"), "y"),))
    with pytest.raises(ValueError, match="another layout"):
        Kernel("k", 4, 4, (Array("x", FULL, "f16"),), (Step("sum", ("x",), "y", ROW, "f16", "n"),),
               ((Array("y.out", FULL, "f16"), "y"),))


def test_a_select_step_is_a_compare_and_a_select_of_its_values():
    """``where_gt(x, r, x, -1.5)`` and ``where_ne(x, w, 0.5, x)`` (``r`` per row, ``w``
    per column) are an ``arith.cmpf`` and an ``arith.select`` each, their operands
    broadcast, and compute on spyre's simulator what numpy selects (NaN included)."""
    steps = (Step("where_gt", ("x", "r", "x", -1.5), "y", FULL, "f16", "where"),
             Step("where_ne", ("x", "w", 0.5, "x"), "z", FULL, "f16", "where_1"))
    inputs_ = (Array("x", FULL, "f16"), Array("w", COL, "f16"), Array("r", ROW, "f16"))
    kernel = Kernel("selects", 8, 64, inputs_, steps,
                    ((Array("y.out", FULL, "f16"), "y"), (Array("z.out", FULL, "f16"), "z")))
    text = emit(kernel, Device.load("spyre"), "selects.mlir")
    assert re.search(r"arith.cmpf ogt, %x.in, %r.in.full : tensor<\d+x64xf16>", text)
    assert re.search(r"arith.cmpf une, %x.in, %w.in.full : tensor<\d+x64xf16>", text)
    assert re.search(r"arith.select %y.mask, %x.in, %y.k0 : tensor<\d+x64xi1>, tensor<\d+x64xf16>", text)
    x, w, r = inputs(8, 64, "f16", 3)
    x[0, :2], w[:2] = np.nan, [np.nan, x[0, 1]]
    w[5] = x[3, 5]
    executable = ktc.Simulator("spyre").prepare(ktc.compile(text, arch="spyre", filename="selects.mlir"))
    got = executable.launch(x, w, r, np.zeros_like(x), np.zeros_like(x))
    np.testing.assert_array_equal(got["y.out"], np.where(x > r, x, np.float16(-1.5)))
    np.testing.assert_array_equal(got["z.out"], np.where(x != w[None, :], np.float16(0.5), x))
