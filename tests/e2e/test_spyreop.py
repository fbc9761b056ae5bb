"""Every spyreop intrinsic of KTIR with a formula compiles on spyre and computes what the
reference interpreter computes.

Spyre's arch file lowers the intrinsics at ``pre_mapping`` (``arch/spyre.mlir``): the
float ones run as the SFU instruction a pattern maps them onto, the integer and address
ones become the programs' scalar arithmetic. Each case is a small kernel: a float
intrinsic inside a ``linalg.generic`` body over f16, df16 and f32 rows where the op
takes them, an integer one computing the row a tile reads, as KTIR does with them.

Checks, per output: bit for bit against the reference interpreter (both sides evaluate
the intrinsic with ``ktc.sim.numerics`` and round once), and against a numpy formula
written here within ``ULPS`` units in the last place of the element type, relative to
each expected value plus the same relative to 2^-10 of the output's largest magnitude
(for expected values near zero). A perturbed output fails both checks. The test chip
line4, which has no sigmoid or silu instruction, decomposes them into arith/math, and
its results agree with both within a few units more.
"""

from collections.abc import Callable
from dataclasses import dataclass
from math import erf

import numpy as np
import pytest
from conftest import LINE4

from ktc.driver import compile as compile_kernel
from ktc.runtime.executable import prepare
from ktc.sim import numerics
from ktc.sim.reference import Kernel
from ktc.sim.simulator import Simulator

ROWS, COLUMNS = 4, 128
"""Each case's rows, one tile each, of 128 elements (two 64-lane f16 vectors)."""

TYPES = {"f16": "f16", "df16": "!spyreop.df16", "f32": "f32"}
FUSED = {"f16": "!spyreop.fp16_fused", "df16": "!spyreop.df16_fused", "f32": "!spyreop.fp32_fused"}
FRACTION_BITS = {"f16": 10, "df16": 9, "f32": 23}
ULPS = 2
DECOMPOSED_ULPS = 8
EPS = 1e-5
"""layernormscale's epsilon (the op has no operand for it; torch's LayerNorm default)."""

Inputs = Callable[[np.random.Generator], list[np.ndarray]]


@dataclass(frozen=True)
class Case:
    body: str
    """The generic body: inputs ``%x0``, ``%x1``, ..., the yielded value ``%y``;
    ``{T}`` is the element type, ``{F}`` its fused pair type."""
    inputs: Inputs
    formula: Callable[..., np.ndarray]
    """The expected values from the inputs' values, in float64."""
    types: tuple[str, ...] = ("f16", "df16", "f32")


def uniform(low: float, high: float, count: int = 1) -> Inputs:
    return lambda rng: [rng.uniform(low, high, (ROWS, COLUMNS)) for _ in range(count)]


def away_from_zero(rng: np.random.Generator) -> list[np.ndarray]:
    magnitude = rng.uniform(0.25, 4.0, (ROWS, COLUMNS))
    return [magnitude * rng.choice([-1.0, 1.0], (ROWS, COLUMNS))]


def quotient(rng: np.random.Generator) -> list[np.ndarray]:
    return [rng.uniform(-8.0, 8.0, (ROWS, COLUMNS)), *away_from_zero(rng)]


def moments(rng: np.random.Generator) -> list[np.ndarray]:
    """A mean and a mean of squares at least that mean squared plus 0.1."""
    mean = rng.standard_normal((ROWS, COLUMNS))
    return [mean, mean * mean + rng.uniform(0.1, 2.0, (ROWS, COLUMNS))]


def half_equal(rng: np.random.Generator) -> list[np.ndarray]:
    """Two operands equal in about half the places."""
    a, b = rng.integers(-3, 4, (2, ROWS, COLUMNS)).astype(np.float64) / 2
    return [a, np.where(rng.random((ROWS, COLUMNS)) < 0.5, a, b)]


def conditions(rng: np.random.Generator) -> list[np.ndarray]:
    condition = rng.choice([0.0, 1.0, -2.5, 0.0], (ROWS, COLUMNS))
    return [condition, rng.standard_normal((ROWS, COLUMNS)), rng.standard_normal((ROWS, COLUMNS))]


def normalize_inputs(rng: np.random.Generator) -> list[np.ndarray]:
    x, mean, weight, bias = rng.standard_normal((4, ROWS, COLUMNS))
    return [x, mean, rng.uniform(0.5, 2.0, (ROWS, COLUMNS)), weight, bias]


def gelu(x: np.ndarray) -> np.ndarray:
    return x * 0.5 * (1 + np.vectorize(erf)(x / np.sqrt(2)))


def softplus(x: np.ndarray, beta: float = 0.5, threshold: float = 2.0) -> np.ndarray:
    return np.where(beta * x > threshold, x, np.log(1 + np.exp(beta * x)) / beta)


def scale(mean: np.ndarray, squares: np.ndarray) -> np.ndarray:
    return 1 / np.sqrt(np.maximum(squares - mean**2, 0) + EPS)


def compare(predicate: str, short: str, test: Callable) -> tuple[str, Case]:
    body = f"%y = spyreop.compare <{predicate}> %x0, %x1 : {{T}}"
    return f"compare_{short}", Case(body, half_equal, lambda a, b: test(a, b).astype(np.float64))


CASES: dict[str, Case] = {
    "exp": Case("%y = spyreop.exp %x0 : {T}", uniform(-4, 4), np.exp),
    "gelu": Case("%y = spyreop.gelu %x0 : {T}", uniform(-4, 4), gelu, ("f16", "df16")),
    "sigmoid": Case("%y = spyreop.sigmoid %x0 : {T}", uniform(-6, 6), lambda x: 1 / (1 + np.exp(-x))),
    "silu": Case("%y = spyreop.silu %x0 : {T}", uniform(-6, 6), lambda x: x / (1 + np.exp(-x))),
    "softplus": Case("%y = spyreop.softplus %x0 beta 5.000000e-01 threshold 2.000000e+00 : {T}",
                     uniform(-8, 8), softplus, ("f16", "df16")),
    "sqrt": Case("%y = spyreop.sqrt %x0 : {T}", uniform(0.01, 9), np.sqrt),
    "rsqrt": Case("%y = spyreop.rsqrt %x0 : {T}", uniform(0.01, 9), lambda x: 1 / np.sqrt(x)),
    "reciprocal": Case("%y = spyreop.reciprocal %x0 : {T}", away_from_zero, lambda x: 1 / x),
    "realdiv": Case("%y = spyreop.realdiv %x0, %x1 : {T}", quotient, lambda a, b: a / b),
    "exx2_mean": Case("%y, %squares = spyreop.exx2 %x0 : {T}", uniform(-4, 4), lambda x: x),
    "exx2_squares": Case("%mean, %y = spyreop.exx2 %x0 : {T}", uniform(-4, 4), lambda x: x * x),
    "layernormscale": Case("%y = spyreop.layernormscale %x0 squares %x1 : {T}", moments, scale),
    "layernormnorm": Case(
        "%y = spyreop.layernormnorm %x0 squares %x1 scale %x2 weight %x3 bias %x4 : {T}",
        normalize_inputs, lambda x, m, s, w, b: (x - m) * s * w + b,
    ),
    "select": Case("%y = spyreop.select %x0, %x1, %x2 : {T}", conditions,
                   lambda c, t, f: np.where(c != 0, t, f)),
    **dict([
        compare("equal", "eq", np.equal),
        compare("notequal", "ne", np.not_equal),
        compare("greaterthan", "gt", np.greater),
        compare("greaterequal", "ge", np.greater_equal),
        compare("lesserthan", "lt", np.less),
        compare("lesserequal", "le", np.less_equal),
    ]),
}
"""The float intrinsics, each in one generic body."""

FUSED_CASE = Case(
    "%pair = spyreop.exx2_fused %x0 : {T} -> {F}\n      %y = spyreop.layernormscale_fused %pair : {F} -> {T}",
    uniform(-4, 4),
    lambda x: x,  # replaced per type in the test: the squares are rounded to the type first
)

KERNEL = """
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + {last_row} >= 0, d1 >= 0, -d1 + {last_column} >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + {last_column} >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {{
  func.func @intrinsic({arguments}, %out: index) attributes {{grid = [{rows}]}} {{
    %c0 = arith.constant 0 : index
    %row = ktdp.get_compute_tile_id : index
{loads}
    %out_view = ktdp.construct_memory_view %out, sizes: [{rows}, {columns}], strides: [{columns}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{rows}x{columns}x{T}>
    %out_tile = ktdp.construct_access_tile %out_view[%row, %c0] {{access_tile_set = #row, access_tile_order = #identity}} : memref<{rows}x{columns}x{T}> -> !ktdp.access_tile<1x{columns}xindex>
    %empty = tensor.empty() : tensor<1x{columns}x{T}>
    %result = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "parallel"]}} ins({ins} : {in_types}) outs(%empty : tensor<1x{columns}x{T}>) {{
    ^bb0({block_args}, %unused: {T}):
      {body}
      linalg.yield %y : {T}
    }} -> tensor<1x{columns}x{T}>
    ktdp.store %result, %out_tile : tensor<1x{columns}x{T}>, !ktdp.access_tile<1x{columns}xindex>
    return
  }}
}}
"""

LOAD = """    %view{i} = ktdp.construct_memory_view %a{i}, sizes: [{rows}, {columns}], strides: [{columns}, 1] {{coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<{rows}x{columns}x{T}>
    %tile{i} = ktdp.construct_access_tile %view{i}[%row, %c0] {{access_tile_set = #row, access_tile_order = #identity}} : memref<{rows}x{columns}x{T}> -> !ktdp.access_tile<1x{columns}xindex>
    %in{i} = ktdp.load %tile{i} : !ktdp.access_tile<1x{columns}xindex> -> tensor<1x{columns}x{T}>"""


def kernel(body: str, inputs: int, element: str) -> str:
    """A kernel over ROWS x COLUMNS elements whose one generic runs ``body``."""
    T, tensor = TYPES[element], f"tensor<1x{COLUMNS}x{TYPES[element]}>"
    shape = {"rows": ROWS, "columns": COLUMNS, "T": T}
    return KERNEL.format(
        last_row=ROWS - 1, last_column=COLUMNS - 1, **shape,
        arguments=", ".join(f"%a{i}: index" for i in range(inputs)),
        loads="\n".join(LOAD.format(i=i, **shape) for i in range(inputs)),
        maps=", ".join(["#identity"] * (inputs + 1)),
        ins=", ".join(f"%in{i}" for i in range(inputs)),
        in_types=", ".join([tensor] * inputs),
        block_args=", ".join(f"%x{i}: {T}" for i in range(inputs)),
        body=body.format(T=T, F=FUSED[element]),
    )


def storage(element: str, values: np.ndarray) -> np.ndarray:
    """Values as the kernel's arrays hold them, rounded to the type (df16: codes)."""
    return np.asarray(numerics.to_storage(element, numerics.round_to(element, values)))


def values_of(element: str, array: np.ndarray) -> np.ndarray:
    return np.asarray(numerics.from_storage(element, array), np.float64)


def run(text: str, arrays: dict[str, np.ndarray], device: str = "spyre") -> tuple[np.ndarray, np.ndarray]:
    """The output on the simulated device and on the reference interpreter."""
    kernel_ = Kernel.from_text(text, "intrinsic")
    expected = kernel_.execute({name: array.copy() for name, array in arrays.items()}).outputs["out"]
    executable = prepare(compile_kernel(text, device, "intrinsic"), Simulator(device))
    args = [arrays[p.name].copy() for p in kernel_.parameters]
    return executable.launch(*args)["out"], expected


def check_reference(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    bits = f"u{got.itemsize}"
    differ = np.argwhere(got.view(bits) != want.view(bits))
    assert not len(differ), f"differs from the reference at {differ[:4].tolist()}"


def check_formula(element: str, got: np.ndarray, want: np.ndarray, ulps: int = ULPS) -> None:
    tolerance = ulps * 2.0 ** -FRACTION_BITS[element]
    floor = tolerance * 2.0**-10 * np.abs(want).max(initial=0.0)
    np.testing.assert_allclose(values_of(element, got), want, rtol=tolerance, atol=floor)


def case_inputs(case: Case, element: str, seed: int) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    """The arrays by argument name and their values (rounded to the type)."""
    arrays = [storage(element, values) for values in case.inputs(np.random.default_rng(seed))]
    out = storage(element, np.zeros((ROWS, COLUMNS)))
    named = {f"a{i}": array for i, array in enumerate(arrays)} | {"out": out}
    return named, [values_of(element, array) for array in arrays]


@pytest.mark.parametrize(("name", "element"),
                         [(name, element) for name, case in CASES.items() for element in case.types])
def test_intrinsic_matches_reference_and_numpy(name: str, element: str):
    case = CASES[name]
    arrays, values = case_inputs(case, element, seed=len(name))
    got, want = run(kernel(case.body, len(values), element), arrays)
    check_reference(got, want)
    check_formula(element, got, case.formula(*values))


@pytest.mark.parametrize("element", ["f16", "df16", "f32"])
def test_fused_pair_matches_reference_and_numpy(element: str):
    """exx2_fused then layernormscale_fused: the pair's squares are rounded to the type,
    so the variance is that rounding's error, not 0."""
    arrays, (x,) = case_inputs(FUSED_CASE, element, seed=3)
    got, want = run(kernel(FUSED_CASE.body, 1, element), arrays)
    check_reference(got, want)
    check_formula(element, got, scale(x, values_of(element, storage(element, x * x))))


ROWS_KERNEL = """
#source = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
module {{
  func.func @rows(%x: index, %out: index, %k: i32) attributes {{grid = [4]}} {{
    %c0 = arith.constant 0 : index
    %tile = ktdp.get_compute_tile_id : index
    %t = arith.index_cast %tile : index to i32
    %t64 = arith.index_cast %tile : index to i64
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c8 = arith.constant 8 : i64
    {expression}
    %x_view = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {{coordinate_set = #source, memory_space = #ktdp.memory_space<global>}} : memref<16x64xf16>
    %out_view = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {{coordinate_set = #out, memory_space = #ktdp.memory_space<global>}} : memref<4x64xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%source, %c0] {{access_tile_set = #row, access_tile_order = #identity}} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
    %out_tile = ktdp.construct_access_tile %out_view[%tile, %c0] {{access_tile_set = #row, access_tile_order = #identity}} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %x_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    ktdp.store %v, %out_tile : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    return
  }}
}}
"""
"""Tile t copies row ``%source`` of x into row t of out: the row comes from the tile
id (a per-core value) or from the argument k (computed on the host)."""

SOURCE_ROWS: dict[str, tuple[str, Callable[[int, int], int]]] = {
    "addi32toi32": ("%r = spyreop.addi32toi32 %t, %c4\n    %source = arith.index_cast %r : i32 to index",
                    lambda t, k: t + 4),
    "muli32toi32": ("%r = spyreop.muli32toi32 %t, %c3\n    %source = arith.index_cast %r : i32 to index",
                    lambda t, k: 3 * t),
    "addi64toi64": ("%r = spyreop.addi64toi64 %t64, %c8\n    %source = arith.index_cast %r : i64 to index",
                    lambda t, k: t + 8),
    "idx32toaddr": ("%r = spyreop.idx32toaddr %t base %c1 stride %c3\n"
                    "    %source = arith.index_cast %r : i32 to index", lambda t, k: 1 + 3 * t),
    "idx32toaddr_constants": ("%r = spyreop.idx32toaddr %t base 0x2 stride 3\n"
                              "    %source = arith.index_cast %r : i32 to index", lambda t, k: 2 + 3 * t),
    "addi32toi32_argument": ("%r = spyreop.addi32toi32 %k, %c3\n"
                             "    %base = arith.index_cast %r : i32 to index\n"
                             "    %source = arith.addi %base, %tile : index", lambda t, k: k + 3 + t),
}


@pytest.mark.parametrize("name", SOURCE_ROWS)
def test_integer_intrinsic_addresses_the_row_it_computes(name: str):
    expression, row = SOURCE_ROWS[name]
    text = ROWS_KERNEL.format(expression=expression)
    k = 5
    x = np.random.default_rng(11).standard_normal((16, 64)).astype(np.float16)
    out = np.zeros((4, 64), np.float16)
    kernel_ = Kernel.from_text(text, "rows")
    want = kernel_.execute({"x": x.copy(), "out": out.copy(), "k": k}).outputs["out"]
    executable = prepare(compile_kernel(text, "spyre", "rows"), Simulator("spyre"))
    got = executable.launch(x.copy(), out.copy(), k)["out"]
    check_reference(got, want)
    np.testing.assert_array_equal(got, x[[row(t, k) for t in range(4)]])


@pytest.mark.parametrize("name", ["sigmoid", "silu"])
@pytest.mark.parametrize("element", ["f16", "f32"])
def test_a_chip_without_the_instruction_decomposes_it(name: str, element: str):
    """line4 has no sigmoid or silu instruction: its patterns write them as
    1 / (1 + exp(-x)) and x / (1 + exp(-x)), four roundings where the reference rounds
    once, so both checks allow ``DECOMPOSED_ULPS``."""
    case = CASES[name]
    arrays, values = case_inputs(case, element, seed=5)
    got, want = run(kernel(case.body, 1, element), arrays, str(LINE4))
    check_formula(element, got, values_of(element, want), DECOMPOSED_ULPS)
    check_formula(element, got, case.formula(*values), DECOMPOSED_ULPS)


def test_a_perturbed_output_fails_both_checks():
    case = CASES["sigmoid"]
    for element in ("f16", "df16"):
        arrays, values = case_inputs(case, element, seed=1)
        got, want = run(kernel(case.body, 1, element), arrays)
        expected = case.formula(*values)
        check_reference(got, want)
        check_formula(element, got, expected)
        one_bit = got.copy()
        one_bit.view(f"u{got.itemsize}")[1, 5] ^= 1
        with pytest.raises(AssertionError):
            check_reference(one_bit, want)
        off = got.copy()
        eight_ulps = 1 + 8 * 2.0 ** -FRACTION_BITS[element]
        off[2, 7] = storage(element, values_of(element, got[2:3, 7:8]) * eight_ulps)[0, 0]
        with pytest.raises(AssertionError):
            check_formula(element, off, expected)
