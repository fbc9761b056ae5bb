"""Kernels that compare and select element by element (``where``): ReLU as a select, a
clamp between two scalar bounds, a causal mask (row i keeps the columns j <= i, a
column-index input compared with the row's position, loaded per row and broadcast
over it) applied before a softmax, a sum of the terms above a threshold (a select in
a reduction's body), and every ``arith.cmpf`` predicate on inputs holding NaNs,
infinities, signed zeros and ties. On spyre, whose SFU has the compare and select
instructions, each matches a numpy formula written here and the reference interpreter
(``ktc.sim.check``'s rule), on the Python engines and on the compiled core alike; so
does each on the third test chip given the compare instructions but no select, whose
selects are blends by min and max (``passes/utils/compares.py``): exact, to the bit,
for every predicate on infinities, signed zeros and ties, and NaN wherever either
value is NaN. Toy and line4, which lack the compare instructions, refuse each compare
naming the device and the instruction. A per-row scalar loaded once and read by a
reduction and the elementwise step after it (as the causal mask's position is) is
checked on every device."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import DEVICES, LINE4  # noqa: E402
from simulated import agree, run  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.errors import KtcError  # noqa: E402
from ktc.runtime.executable import prepare  # noqa: E402
from ktc.sim import compiled  # noqa: E402
from ktc.sim.check import compare  # noqa: E402
from ktc.sim.simulator import Simulator  # noqa: E402

ROWS, COLS = 4, 128

PREAMBLE = f"""#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + {ROWS - 1} >= 0, d1 >= 0, -d1 + {COLS - 1} >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + {COLS - 1} >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + {ROWS - 1} >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
"""


def _kernel(name: str, matrices: list[str], body: str, scalars: str = "", vectors: tuple[str, ...] = (),
            shared: tuple[str, ...] = ()) -> str:
    """A kernel over a grid of one tile per row: each of ``matrices`` a ROWS x COLS f16
    array whose row ``%<name>_t`` the tile reads or writes, each of ``vectors`` a ROWS
    f16 array of one element per row (``%<name>_t``), each of ``shared`` a 1 x COLS f16
    row every tile reads (``%<name>_t``); ``body`` the tile's loads, compute and stores."""
    args = [f"%{m}: index" for m in (*matrices, *vectors, *shared)] + ([scalars] if scalars else [])
    lines = [f"func.func @{name}({', '.join(args)}) attributes {{grid = [{ROWS}]}} {{",
             "  %c0 = arith.constant 0 : index",
             "  %r = ktdp.get_compute_tile_id : index"]
    for m in matrices:
        lines += [
            f"  %{m}_v = ktdp.construct_memory_view %{m}, sizes: [{ROWS}, {COLS}], strides: [{COLS}, 1] "
            f"{{coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>}} : memref<{ROWS}x{COLS}xf16>",
            f"  %{m}_t = ktdp.construct_access_tile %{m}_v[%r, %c0] {{access_tile_set = #row, "
            f"access_tile_order = #id}} : memref<{ROWS}x{COLS}xf16> -> !ktdp.access_tile<1x{COLS}xindex>"]
    for v in vectors:
        lines += [
            f"  %{v}_v = ktdp.construct_memory_view %{v}, sizes: [{ROWS}], strides: [1] "
            f"{{coordinate_set = #rows, memory_space = #ktdp.memory_space<global>}} : memref<{ROWS}xf16>",
            f"  %{v}_t = ktdp.construct_access_tile %{v}_v[%r] {{access_tile_set = #one, "
            f"access_tile_order = #id1}} : memref<{ROWS}xf16> -> !ktdp.access_tile<1xindex>"]
    for s in shared:
        lines += [
            f"  %{s}_v = ktdp.construct_memory_view %{s}, sizes: [1, {COLS}], strides: [{COLS}, 1] "
            f"{{coordinate_set = #row, memory_space = #ktdp.memory_space<global>}} : memref<1x{COLS}xf16>",
            f"  %{s}_t = ktdp.construct_access_tile %{s}_v[%c0, %c0] {{access_tile_set = #row, "
            f"access_tile_order = #id}} : memref<1x{COLS}xf16> -> !ktdp.access_tile<1x{COLS}xindex>"]
    return PREAMBLE + "\n".join(lines) + "\n" + body + "  return\n}\n"


ROW = f"tensor<1x{COLS}xf16>"
MASK = f"tensor<1x{COLS}xi1>"
TILE = f"!ktdp.access_tile<1x{COLS}xindex>"


def _load(name: str) -> str:
    return f"  %{name}_l = ktdp.load %{name}_t : {TILE} -> {ROW}\n"


def _store(value: str, name: str) -> str:
    return f"  ktdp.store %{value}, %{name}_t : {ROW}, {TILE}\n"


RELU = _kernel("relu", ["x", "y"], _load("x") + f"""  %zero = arith.constant dense<0.0> : {ROW}
  %positive = arith.cmpf ogt, %x_l, %zero : {ROW}
  %relu = arith.select %positive, %x_l, %zero : {MASK}, {ROW}
""" + _store("relu", "y"))
"""y = where(x > 0, x, 0)."""

CLAMP = _kernel("clamp", ["x", "y"], _load("x") + f"""  %low = tensor.splat %lo : {ROW}
  %high = tensor.splat %hi : {ROW}
  %below = arith.cmpf olt, %x_l, %low : {ROW}
  %raised = arith.select %below, %low, %x_l : {MASK}, {ROW}
  %above = arith.cmpf ogt, %raised, %high : {ROW}
  %clamped = arith.select %above, %high, %raised : {MASK}, {ROW}
""" + _store("clamped", "y"), scalars="%lo: f16, %hi: f16")
"""y = where(x < lo, lo, x), then where(. > hi, hi, .): the bounds are scalar arguments."""

CAUSAL_SOFTMAX = _kernel("causal_softmax", ["x", "y"], _load("x") + _load("c") + f"""  %p_l = ktdp.load %p_t : !ktdp.access_tile<1xindex> -> tensor<1xf16>
  %full = tensor.empty() : {ROW}
  %one = tensor.empty() : tensor<1xf16>
  %position = linalg.broadcast ins(%p_l : tensor<1xf16>) outs(%full : {ROW}) dimensions = [1]
  %keep = arith.cmpf ole, %c_l, %position : {ROW}
  %minus_inf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %low = tensor.splat %minus_inf : {ROW}
  %masked = arith.select %keep, %x_l, %low : {MASK}, {ROW}
  %max_init = linalg.fill ins(%minus_inf : f16) outs(%one : tensor<1xf16>) -> tensor<1xf16>
  %max = linalg.reduce {{ arith.maxnumf }} ins(%masked : {ROW}) outs(%max_init : tensor<1xf16>) dimensions = [1]
  %max_row = linalg.broadcast ins(%max : tensor<1xf16>) outs(%full : {ROW}) dimensions = [1]
  %shifted = arith.subf %masked, %max_row : {ROW}
  %exp = math.exp %shifted : {ROW}
  %sum_init = linalg.fill ins(%zero : f16) outs(%one : tensor<1xf16>) -> tensor<1xf16>
  %sum = linalg.reduce {{ arith.addf }} ins(%exp : {ROW}) outs(%sum_init : tensor<1xf16>) dimensions = [1]
  %sum_row = linalg.broadcast ins(%sum : tensor<1xf16>) outs(%full : {ROW}) dimensions = [1]
  %softmax = arith.divf %exp, %sum_row : {ROW}
""" + _store("softmax", "y"), vectors=("p",), shared=("c",))
"""y[i] = softmax(where(c <= p[i], x[i], -inf)): c holds the column indices, p the
position of each row, so row i keeps the columns j <= p[i]."""

SUM_ABOVE = _kernel("sum_above", ["x"], _load("x") + f"""  %s_init = arith.constant dense<0.0> : tensor<1xf16>
  %s_r = linalg.generic {{indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}}
      ins(%x_l : {ROW}) outs(%s_init : tensor<1xf16>) {{
  ^bb0(%u: f16, %acc: f16):
    %h = arith.constant 0.5 : f16
    %z = arith.constant 0.0 : f16
    %gt = arith.cmpf ogt, %u, %h : f16
    %k = arith.select %gt, %u, %z : f16
    %t = arith.addf %k, %acc : f16
    linalg.yield %t : f16
  }} -> tensor<1xf16>
  ktdp.store %s_r, %s_t : tensor<1xf16>, !ktdp.access_tile<1xindex>
""", vectors=("s",))
"""s[i] = sum of x[i, j] over the j with x[i, j] > 0.5."""

SCALED_CENTERED = _kernel("scaled_centered", ["x", "y"], _load("x") + f"""  %s_l = ktdp.load %s_t : !ktdp.access_tile<1xindex> -> tensor<1xf16>
  %full = tensor.empty() : {ROW}
  %one = tensor.empty() : tensor<1xf16>
  %zero = arith.constant 0.0 : f16
  %scale = linalg.broadcast ins(%s_l : tensor<1xf16>) outs(%full : {ROW}) dimensions = [1]
  %t = arith.mulf %x_l, %scale : {ROW}
  %init = linalg.fill ins(%zero : f16) outs(%one : tensor<1xf16>) -> tensor<1xf16>
  %m = linalg.reduce {{ arith.addf }} ins(%t : {ROW}) outs(%init : tensor<1xf16>) dimensions = [1]
  %m_row = linalg.broadcast ins(%m : tensor<1xf16>) outs(%full : {ROW}) dimensions = [1]
  %c = arith.subf %t, %m_row : {ROW}
""" + _store("c", "y"), vectors=("s",))
"""y[i] = x[i] * s[i] - sum(x[i] * s[i])."""


def _compare_kernel(predicate: str) -> str:
    return _kernel(f"compare_{predicate}", ["a", "b", "y"], _load("a") + _load("b") + f"""  %m = arith.cmpf {predicate}, %a_l, %b_l : {ROW}
  %s = arith.select %m, %a_l, %b_l : {MASK}, {ROW}
""" + _store("s", "y"))


def _ordered(a, b):
    return ~np.isnan(a) & ~np.isnan(b)


TESTS = {
    "false": lambda a, b: np.zeros(a.shape, bool),
    "oeq": lambda a, b: _ordered(a, b) & (a == b),
    "ogt": lambda a, b: _ordered(a, b) & (a > b),
    "oge": lambda a, b: _ordered(a, b) & (a >= b),
    "olt": lambda a, b: _ordered(a, b) & (a < b),
    "ole": lambda a, b: _ordered(a, b) & (a <= b),
    "one": lambda a, b: _ordered(a, b) & (a != b),
    "ord": _ordered,
    "ueq": lambda a, b: ~_ordered(a, b) | (a == b),
    "ugt": lambda a, b: ~_ordered(a, b) | (a > b),
    "uge": lambda a, b: ~_ordered(a, b) | (a >= b),
    "ult": lambda a, b: ~_ordered(a, b) | (a < b),
    "ule": lambda a, b: ~_ordered(a, b) | (a <= b),
    "une": lambda a, b: ~_ordered(a, b) | (a != b),
    "uno": lambda a, b: ~_ordered(a, b),
    "true": lambda a, b: np.ones(a.shape, bool),
}
"""MLIR's arith.cmpf predicates, from IEEE comparisons: o* hold only when neither
operand is NaN, u* also when either is."""

TIMINGS = [pytest.param("python", id="python"), pytest.param("compiled", id="compiled")]

COMPARE_INSTRUCTIONS = ("cmp_eq", "cmp_ne", "cmp_gt", "cmp_ge", "cmp_lt", "cmp_le")


@pytest.fixture(scope="module")
def no_select(tmp_path_factory) -> str:
    """The third test chip's file with the compare instructions added to its vector
    unit, which still has no select."""
    names = ", ".join(f'"{name}"' for name in COMPARE_INSTRUCTIONS)
    text = LINE4.read_text().replace('"add", "sub",', f'{names}, "add", "sub",', 1)
    assert names in text and '"select"' not in text
    path = tmp_path_factory.mktemp("arch") / "line4_compares.mlir"
    path.write_text(text)
    return str(path)


Chip = tuple[str, Simulator]
"""A device and a simulator of it."""


def _spyre(timing: str) -> Chip:
    if timing == "compiled" and not compiled.available():
        pytest.skip("the compiled timing core is not built (pip install the package)")
    return "spyre", Simulator("spyre", timing=timing)


@pytest.fixture(params=["python", "compiled", "no-select"])
def chip(request) -> Chip:
    """Spyre on each timing core, and the chip without a select instruction."""
    if request.param == "no-select":
        device = request.getfixturevalue("no_select")
        return device, Simulator(device)
    return _spyre(request.param)


def _rows(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((ROWS, COLS)).astype(np.float16)


def _special(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Two rows of operands holding NaNs, infinities, signed zeros and ties."""
    rng = np.random.default_rng(seed)
    values = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5], np.float16)
    a = rng.choice(values, (ROWS, COLS)).astype(np.float16)
    b = rng.choice(values, (ROWS, COLS)).astype(np.float16)
    b[:, ::5] = a[:, ::5]
    return a, b


def _special_finite_or_infinite(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``_special``'s operands with every NaN replaced by -0.0."""
    a, b = _special(seed)
    return np.where(np.isnan(a), np.float16(-0.0), a), np.where(np.isnan(b), np.float16(-0.0), b)


def _check(text: str, inputs: dict, expected: dict, chip: Chip, length: int = 1) -> dict:
    """The simulated outputs, checked against ``expected`` and the reference."""
    device, simulator = chip
    simulated, reference = run(text, device, inputs, simulator=simulator)
    assert simulator.ran_on == simulator.timing
    agree(simulated, reference, expected, dict.fromkeys(simulated, "f16"), length)
    return simulated


@pytest.mark.parametrize("seed", [0, 1])
def test_relu_by_select(chip: Chip, seed: int):
    x = _rows(seed)
    x[0, :3] = [-0.0, 0.0, np.inf]
    _check(RELU, {"x": x, "y": np.zeros_like(x)}, {"y": np.where(x > 0, x, np.float16(0))}, chip)


def test_clamp_between_scalar_bounds(chip: Chip):
    x = _rows(2)
    lo, hi = np.float16(-0.5), np.float16(0.75)
    expected = np.where(x < lo, lo, x)
    expected = np.where(expected > hi, hi, expected)
    _check(CLAMP, {"x": x, "y": np.zeros_like(x), "lo": lo, "hi": hi}, {"y": expected}, chip)


def test_causal_mask_before_a_softmax(chip: Chip):
    x = _rows(3)
    columns = np.arange(COLS, dtype=np.float16)[None]
    positions = np.array([0, 5, 63, 127], np.float16)
    keep = np.arange(COLS)[None] <= positions[:, None]
    masked = np.where(keep, x.astype(np.float64), -np.inf)
    e = np.exp(masked - masked.max(axis=1, keepdims=True))
    expected = (e / e.sum(axis=1, keepdims=True)).astype(np.float16)
    inputs = {"x": x, "y": np.zeros_like(x), "p": positions, "c": columns}
    _check(CAUSAL_SOFTMAX, inputs, {"y": expected}, chip, length=COLS)
    assert (expected[~keep] == 0).all() and (expected[keep] > 0).any()


def test_a_select_in_a_reduction_body(chip: Chip):
    x = _rows(4)
    expected = np.where(x > 0.5, x.astype(np.float64), 0).sum(axis=1).astype(np.float16)
    _check(SUM_ABOVE, {"x": x, "s": np.zeros(ROWS, np.float16)}, {"s": expected}, chip, length=COLS)


@pytest.mark.parametrize("timing", TIMINGS)
@pytest.mark.parametrize("predicate", sorted(TESTS))
def test_every_predicate_with_nans_infinities_and_ties(predicate: str, timing: str):
    a, b = _special(5)
    expected = np.where(TESTS[predicate](a, b), a, b)
    _check(_compare_kernel(predicate), {"a": a, "b": b, "y": np.zeros_like(a)}, {"y": expected},
           _spyre(timing))


@pytest.mark.parametrize("predicate", sorted(TESTS))
def test_every_predicate_blended_without_a_select_is_exact(predicate: str, no_select: str):
    """Without NaNs the blend gives the selected value's bits: infinities, ties and
    the sign of zero included."""
    a, b = _special_finite_or_infinite(5)
    expected = np.where(TESTS[predicate](a, b), a, b)
    inputs = {"a": a, "b": b, "y": np.zeros_like(a)}
    simulated = _check(_compare_kernel(predicate), inputs, {"y": expected}, (no_select, Simulator(no_select)))
    assert np.array_equal(simulated["y"].view(np.uint16), expected.view(np.uint16))


def test_the_bitwise_check_tells_the_sign_of_zero_apart():
    """The bit comparison above can fail where the three-way check does not: a select
    that gave +0.0 for a selected -0.0."""
    a, b = _special_finite_or_infinite(5)
    right = np.where(TESTS["ogt"](a, b), a, b)
    wrong = np.where(right == 0, np.float16(0.0), right)
    assert (right.view(np.uint16) == 0x8000).any()
    assert not np.array_equal(wrong.view(np.uint16), right.view(np.uint16))


@pytest.mark.parametrize("predicate", ["ogt", "ule", "ord"])
def test_a_nan_reaches_the_blend_whichever_value_is_selected(predicate: str, no_select: str):
    """The blend's min and max propagate a NaN of either value (the simulator's min
    and max do): NaN wherever ``a`` or ``b`` is, the selected value elsewhere, where a
    select instruction would give ``b`` when the compare fails on a NaN ``a``."""
    a, b = _special(5)
    nan = np.isnan(a) | np.isnan(b)
    expected = np.where(nan, np.float16(np.nan), np.where(TESTS[predicate](a, b), a, b))
    simulator = Simulator(no_select)
    inputs = {"a": a, "b": b, "y": np.zeros_like(a)}
    got = prepare(compile_kernel(_compare_kernel(predicate), no_select), simulator).launch(*inputs.values())["y"]
    assert np.array_equal(np.isnan(got), nan) and nan.any()
    assert np.array_equal(got[~nan].view(np.uint16), expected[~nan].view(np.uint16))


def test_the_check_fails_on_a_selection_with_the_values_swapped():
    """The three-way check sees a select that picks the wrong value (a mask negated
    without swapping the values), even where the two values differ by a NaN only."""
    a, b = _special(5)
    right = np.where(TESTS["ugt"](a, b), a, b)
    wrong = np.where(TESTS["ugt"](a, b), b, a)
    assert compare({"y": wrong}, {"y": right}, {"y": "f16"}, 1) is not None


@pytest.mark.parametrize("device", [d for d in DEVICES if d.id != "spyre"])
@pytest.mark.parametrize("kernel, op, instruction", [
    (RELU, "arith.cmpf", "cmp_gt"), (CLAMP, "arith.cmpf", "cmp_lt"),
    (CAUSAL_SOFTMAX, "arith.cmpf", "cmp_le"),
])
def test_a_device_without_the_instructions_refuses_naming_them(device: str, kernel: str, op: str,
                                                              instruction: str):
    name = Path(device).stem
    with pytest.raises(KtcError, match=rf"'{op}' needs the instruction {instruction}, which the "
                                       rf"\w+ of device @{name} \(.*{name}\.mlir\) does not have"):
        compile_kernel(kernel, device)


@pytest.mark.parametrize("device", DEVICES)
def test_a_per_row_scalar_read_by_a_reduction_and_the_step_after_it(device: str):
    rng = np.random.default_rng(6)
    x = (rng.integers(-8, 8, (ROWS, COLS)) / 4).astype(np.float16)
    s = (rng.integers(-4, 4, ROWS) / 2).astype(np.float16)
    scaled = x.astype(np.float64) * s[:, None]
    expected = (scaled - scaled.sum(axis=1, keepdims=True)).astype(np.float16)
    simulated, reference = run(SCALED_CENTERED, device, {"x": x, "y": np.zeros_like(x), "s": s})
    agree(simulated, reference, {"y": expected}, dict.fromkeys(simulated, "f16"), COLS)
