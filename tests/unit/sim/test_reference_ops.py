"""The reference interpreter's op families (arith, math, scf, tensor, linalg, spyreop) on
small kernels written for these tests: inputs are loaded from device memory, the ops
under test compute, the result is stored; each result is checked against numpy."""

import numpy as np
import pytest
from xdsl.dialects.builtin import Float16Type

from ktc.arch.model import Device
from ktc.dialects.diagnostics import KtcError
from ktc.sim import numerics
from ktc.sim.reference import run

TYPES = {
    np.float16: "f16",
    np.float32: "f32",
    np.int32: "i32",
    np.int64: "i64",
    np.uint16: "!spyreop.df16",
}


def _tensor(shape, element: str) -> str:
    return "tensor<" + "".join(f"{n}x" for n in shape) + f"{element}>"


def _io(name: str, shape, element: str) -> tuple[str, str]:
    """A view of ``shape`` at pointer ``%name`` and a whole-view access tile on it."""
    dims = ", ".join(f"d{i}" for i in range(len(shape)))
    bounds = ", ".join(f"d{i} >= 0, -d{i} + {n - 1} >= 0" for i, n in enumerate(shape))
    strides = [int(np.prod(shape[i + 1 :])) for i in range(len(shape))]
    memref = "memref<" + "".join(f"{n}x" for n in shape) + f"{element}>"
    tile = "!ktdp.access_tile<" + "".join(f"{n}x" for n in shape) + "index>"
    zeros = ", ".join("%c0" for _ in shape)
    cover = f"affine_set<({dims}) : ({bounds})>"
    order = f"affine_map<({dims}) -> ({dims})>"
    text = (
        f"  %{name}_v = ktdp.construct_memory_view %{name}, sizes: {list(shape)}, "
        f"strides: {strides} {{coordinate_set = {cover}, "
        f"memory_space = #ktdp.memory_space<global>}} : {memref}\n"
        f"  %{name}_t = ktdp.construct_access_tile %{name}_v[{zeros}] {{access_tile_set = {cover}, "
        f"access_tile_order = {order}}} : {memref} -> {tile}\n"
    )
    return text, tile


def compute(
    body: str, inputs: list[np.ndarray], shape, element: str, scalars: str = "", arch=None,
    **values
) -> np.ndarray:
    """Run ``body`` with ``%a0, %a1, ...`` loaded from ``inputs`` (f16/f32/i32/i64
    arrays, uint16 for df16) and store its ``%r`` (of ``shape`` and ``element``), for
    the device ``arch`` (None: none). ``#id`` is the 1-D identity map."""
    params, lines = [], ["  %c0 = arith.constant 0 : index"]
    for i, array in enumerate(inputs):
        kind = TYPES[array.dtype.type]
        text, tile = _io(f"in{i}", array.shape, kind)
        params.append(f"%in{i}: index")
        lines.append(
            text + f"  %a{i} = ktdp.load %in{i}_t : {tile} -> {_tensor(array.shape, kind)}"
        )
    text, tile = _io("result", shape, element)
    params.append("%result: index")
    result = _tensor(shape, element)
    kernel = (
        "#id = affine_map<(d0) -> (d0)>\n"
        f"func.func @k({', '.join(params)}{scalars}) {{\n"
        + "\n".join(lines)
        + "\n"
        + body
        + f"\n{text}  ktdp.store %r, %result_t : {result}, {tile}\n  return\n}}\n"
    )
    storage = numerics.storage_dtype("df16" if "df16" in element else element)
    arguments = {f"in{i}": a for i, a in enumerate(inputs)}
    arguments["result"] = np.zeros(shape, storage)
    return run(kernel, {**arguments, **values}, arch=arch)["result"]


def elementwise(lines: str, inputs: list[str], result: str, n: int) -> str:
    """A body applying scalar ``lines`` (over ``%x0, %x1, ...``, yielding ``%y``)
    elementwise to ``%a0, %a1, ...`` (1-D, of ``n`` elements of the ``inputs`` types)
    with a ``linalg.generic``."""
    maps = ", ".join(["affine_map<(d0) -> (d0)>"] * (len(inputs) + 1))
    ins = ", ".join(f"%a{i}" for i in range(len(inputs)))
    types = ", ".join(f"tensor<{n}x{t}>" for t in inputs)
    args = ", ".join(f"%x{i}: {t}" for i, t in enumerate(inputs))
    return f"""  %e = tensor.empty() : tensor<{n}x{result}>
  %r = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel"]}}
      ins({ins} : {types}) outs(%e : tensor<{n}x{result}>) {{
  ^bb0({args}, %o: {result}):
{lines}
    linalg.yield %y : {result}
  }} -> tensor<{n}x{result}>"""


def _f16(*values) -> np.ndarray:
    return np.array(values, np.float16)


def _i32(*values) -> np.ndarray:
    return np.array(values, np.int32)


# ---------------------------------------------------------------------------------------
# arith


@pytest.mark.parametrize(
    "op, fn",
    [
        ("addf", np.add),
        ("subf", np.subtract),
        ("mulf", np.multiply),
        ("divf", np.divide),
        ("maximumf", np.maximum),
        ("minimumf", np.minimum),
        ("maxnumf", np.fmax),
        ("minnumf", np.fmin),
    ],
)
def test_float_binary_ops_round_like_numpy(op, fn):
    """Including an overflow to infinity (1e4 * 1e4) and NaN operands."""
    a, b = _f16(1.5, -2.25, 1e4, np.nan, 3.0, 0.1), _f16(0.3, 7.0, 1e4, 1.0, np.nan, 3.0)
    r = compute(f"  %r = arith.{op} %a0, %a1 : tensor<6xf16>", [a, b], (6,), "f16")
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(r, fn(a, b))


def test_negf():
    a = _f16(1.5, -0.0, np.inf)
    np.testing.assert_array_equal(
        compute("  %r = arith.negf %a0 : tensor<3xf16>", [a], (3,), "f16"), -a
    )


@pytest.mark.parametrize(
    "op, expected",
    [
        ("addi", [2**31 - 1 + 1 - 2**32, -7 + 2, 9]),
        ("muli", [(2**31 - 1) * 1 % 2**32 - 2**32, -14, 0]),
        ("divsi", [2**31 - 1, -3, 0]),
        ("remsi", [0, -1, 0]),
        ("floordivsi", [2**31 - 1, -4, 0]),
        ("ceildivsi", [2**31 - 1, -3, 0]),
        ("divui", [2**31 - 1, (2**32 - 7) // 2, 0]),
        ("remui", [0, (2**32 - 7) % 2, 0]),
        ("maxsi", [2**31 - 1, 2, 9]),
        ("minsi", [1, -7, 0]),
        ("maxui", [2**31 - 1, -7, 9]),
        ("minui", [1, 2, 0]),
        ("andi", [1, -7 & 2, 0]),
        ("ori", [2**31 - 1, -7 | 2, 9]),
        ("xori", [2**31 - 2, -7 ^ 2, 9]),
        ("shli", [-2, -28, 0]),
        ("shrsi", [2**30 - 1, -2, 0]),
        ("shrui", [2**30 - 1, (2**32 - 7) >> 2, 0]),
    ],
)
def test_integer_ops_wrap_and_round_toward_zero(op, expected):
    a, b = _i32(2**31 - 1, -7, 0), _i32(1, 2, 9)
    r = compute(f"  %r = arith.{op} %a0, %a1 : tensor<3xi32>", [a, b], (3,), "i32")
    np.testing.assert_array_equal(r, np.array(expected, np.int64).astype(np.int32))


def test_integer_division_by_zero_is_an_error_at_the_op():
    with pytest.raises(
        KtcError, match=r"<kernel>:\d+:3: error: arith.divsi: integer division by zero"
    ):
        compute(
            "  %r = arith.divsi %a0, %a1 : tensor<2xi32>", [_i32(1, 2), _i32(1, 0)], (2,), "i32"
        )


_AS_I32 = """    %one = arith.constant 1 : i32
    %zero = arith.constant 0 : i32
    %y = arith.select %p, %one, %zero : i32"""


@pytest.mark.parametrize(
    "predicate, expected",
    [
        ("eq", [0, 1, 0]),
        ("ne", [1, 0, 1]),
        ("slt", [1, 0, 0]),
        ("sle", [1, 1, 0]),
        ("sgt", [0, 0, 1]),
        ("sge", [0, 1, 1]),
        ("ult", [0, 0, 1]),
        ("ule", [0, 1, 1]),
        ("ugt", [1, 0, 0]),
        ("uge", [1, 1, 0]),
    ],
)
def test_cmpi_signed_and_unsigned(predicate, expected):
    a, b = _i32(-1, 5, 7), _i32(3, 5, -2)
    body = elementwise(
        f"    %p = arith.cmpi {predicate}, %x0, %x1 : i32\n" + _AS_I32, ["i32", "i32"], "i32", 3
    )
    np.testing.assert_array_equal(compute(body, [a, b], (3,), "i32"), expected)


@pytest.mark.parametrize(
    "predicate, expected",
    [
        ("oeq", [1, 0, 0]),
        ("one", [0, 1, 0]),
        ("ueq", [1, 0, 1]),
        ("une", [0, 1, 1]),
        ("olt", [0, 1, 0]),
        ("uge", [1, 0, 1]),
        ("ord", [1, 1, 0]),
        ("uno", [0, 0, 1]),
        ("true", [1, 1, 1]),
        ("false", [0, 0, 0]),
    ],
)
def test_cmpf_ordered_and_unordered(predicate, expected):
    a, b = _f16(1, 1, np.nan), _f16(1, 2, 1)
    body = elementwise(
        f"    %p = arith.cmpf {predicate}, %x0, %x1 : f16\n" + _AS_I32, ["f16", "f16"], "i32", 3
    )
    np.testing.assert_array_equal(compute(body, [a, b], (3,), "i32"), expected)


def test_select_elementwise_and_on_a_scalar_condition():
    """max(a, b) per element, then a whole tensor picked by a scalar condition."""
    a, b = _f16(1, 7, 3), _f16(4, 5, 6)
    lines = "    %p = arith.cmpf olt, %x0, %x1 : f16\n    %y = arith.select %p, %x1, %x0 : f16"
    body = (
        elementwise(lines, ["f16", "f16"], "f16", 3)
        + """
  %t = arith.constant true
  %s = arith.select %t, %r, %a0 : tensor<3xf16>"""
    )
    body = body.replace("%r = linalg", "%m = linalg").replace(
        "%s = arith.select %t, %r", "%r = arith.select %t, %m"
    )
    np.testing.assert_array_equal(compute(body, [a, b], (3,), "f16"), np.maximum(a, b))


def test_float_and_integer_casts():
    x = np.array([1.5, -2.7, 65504.0, 1.0009765625 + 2**-11], np.float32)
    lines = """    %h = arith.truncf %x0 : f32 to f16
    %g = arith.extf %h : f16 to f32
    %i = arith.fptosi %g : f32 to i32
    %w = arith.extsi %i : i32 to i64
    %n = arith.trunci %w : i64 to i32
    %y = arith.sitofp %n : i32 to f32"""
    expected = np.trunc(x.astype(np.float16).astype(np.float32))
    np.testing.assert_array_equal(
        compute(elementwise(lines, ["f32"], "f32", 4), [x], (4,), "f32"), expected
    )


def test_unsigned_casts_and_bitcast():
    x = _i32(-1, 2)
    lines = """    %u = arith.extui %x0 : i32 to i64
    %f = arith.uitofp %x0 : i32 to f32
    %b = arith.bitcast %f : f32 to i32
    %t = arith.trunci %u : i64 to i32
    %y = arith.addi %b, %t : i32"""
    expected = np.array([2.0**32 - 1, 2], np.float32).view(np.int32) + x
    np.testing.assert_array_equal(
        compute(elementwise(lines, ["i32"], "i32", 2), [x], (2,), "i32"), expected
    )


def test_index_arithmetic_on_scalars_and_index_cast():
    body = """  %c7 = arith.constant 7 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant -7 : index
  %q = arith.divsi %n, %c2 : index
  %f = arith.floordivsi %n, %c2 : index
  %m = arith.remsi %n, %c2 : index
  %s = arith.addi %q, %f : index
  %t = arith.muli %s, %m : index
  %u = arith.ceildivsi %c7, %c2 : index
  %v = arith.addi %t, %u : index
  %i = arith.index_cast %v : index to i32
  %r = tensor.splat %i : tensor<2xi32>"""
    # (-3 + -4) * -1 + 4
    np.testing.assert_array_equal(compute(body, [], (2,), "i32"), [11, 11])


# ---------------------------------------------------------------------------------------
# math


@pytest.mark.parametrize(
    "op, fn",
    [
        ("exp", np.exp),
        ("log", np.log),
        ("sqrt", np.sqrt),
        ("rsqrt", lambda x: 1 / np.sqrt(x)),
        ("tanh", np.tanh),
        ("absf", np.abs),
        ("floor", np.floor),
        ("ceil", np.ceil),
        ("log1p", np.log1p),
        ("sin", np.sin),
        ("erf", np.vectorize(__import__("math").erf)),
    ],
)
def test_math_is_float64_rounded_once(op, fn):
    x = np.array([0.1, 0.7, 1.3, 2.9, 5.5], np.float32)
    r = compute(f"  %r = math.{op} %a0 : tensor<5xf32>", [x], (5,), "f32")
    np.testing.assert_array_equal(r, fn(x.astype(np.float64)).astype(np.float32))


def test_math_powf_and_fma_on_f16():
    a, b, c = _f16(1.5, 2.0), _f16(2.0, 0.5), _f16(0.25, -1.0)
    body = "  %p = math.powf %a0, %a1 : tensor<2xf16>\n  %r = math.fma %p, %a1, %a2 : tensor<2xf16>"
    expected = ((_f16(1.5**2, 2**0.5).astype(np.float64)) * b + c).astype(np.float16)
    np.testing.assert_array_equal(compute(body, [a, b, c], (2,), "f16"), expected)


# ---------------------------------------------------------------------------------------
# scf


def test_for_with_iter_args_if_and_yield():
    """sum over i in [0, 5) of (i even ? a : 2a)."""
    body = """  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %z) -> tensor<4xf32> {
    %m = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %m, %c0 : index
    %term = scf.if %even -> (tensor<4xf32>) {
      scf.yield %a0 : tensor<4xf32>
    } else {
      %d = arith.addf %a0, %a0 : tensor<4xf32>
      scf.yield %d : tensor<4xf32>
    }
    %next = arith.addf %acc, %term : tensor<4xf32>
    scf.yield %next : tensor<4xf32>
  }"""
    a = np.array([1, 2, 3, 4], np.float32)
    np.testing.assert_array_equal(compute(body, [a], (4,), "f32"), 7 * a)


def test_for_with_no_iteration_and_with_a_runtime_bound():
    body = """  %c1 = arith.constant 1 : index
  %r = scf.for %i = %n to %c0 step %c1 iter_args(%acc = %a0) -> tensor<2xf32> {
    %d = arith.addf %acc, %acc : tensor<2xf32>
    scf.yield %d : tensor<2xf32>
  }"""
    a = np.array([1, 2], np.float32)
    np.testing.assert_array_equal(compute(body, [a], (2,), "f32", scalars=", %n: index", n=3), a)


def test_for_with_a_zero_step_is_an_error():
    body = """  %r = scf.for %i = %c0 to %c0 step %c0 iter_args(%acc = %a0) -> tensor<2xf32> {
    scf.yield %acc : tensor<2xf32>
  }"""
    with pytest.raises(KtcError, match="scf.for: the step is 0; it must be positive"):
        compute(body, [np.zeros(2, np.float32)], (2,), "f32")


# ---------------------------------------------------------------------------------------
# tensor


def test_tensor_shape_ops():
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    body = """  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = tensor.extract_slice %a0[1, 0] [2, 6] [2, 1] : tensor<4x6xf32> to tensor<2x6xf32>
  %row = tensor.extract_slice %a0[%c2, 1] [1, 4] [1, %c1] : tensor<4x6xf32> to tensor<4xf32>
  %e = tensor.expand_shape %row [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %f = tensor.collapse_shape %s [[0, 1]] : tensor<2x6xf32> into tensor<12xf32>
  %shape = arith.constant dense<[3, 4]> : tensor<2xi64>
  %g = tensor.reshape %f(%shape) : (tensor<12xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  %z = tensor.empty() : tensor<4x6xf32>
  %p = tensor.insert_slice %g into %z[0, 2] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<4x6xf32>
  %q = tensor.insert_slice %e into %p[2, 0] [2, 2] [1, 2] : tensor<2x2xf32> into tensor<4x6xf32>
  %v = tensor.extract %q[%c1, %c2] : tensor<4x6xf32>
  %w = tensor.insert %v into %q[%c0, %c0] : tensor<4x6xf32>
  %d = tensor.dim %w, %c1 : tensor<4x6xf32>
  %di = arith.index_cast %d : index to i32
  %df = arith.sitofp %di : i32 to f32
  %r = tensor.insert %df into %w[%c0, %c1] : tensor<4x6xf32>"""
    expected = np.zeros((4, 6), np.float32)
    expected[0:3, 2:6] = x[[1, 3]].reshape(3, 4)
    expected[2:4, 0:4:2] = x[2, 1:5].reshape(2, 2)
    expected[0, 0] = expected[1, 2]
    expected[0, 1] = 6
    np.testing.assert_array_equal(compute(body, [x], (4, 6), "f32"), expected)


def test_from_elements_splat_and_rank_zero():
    body = """  %c1 = arith.constant 1 : index
  %x = tensor.extract %a0[%c1] : tensor<2xf32>
  %y = arith.constant 5.0 : f32
  %t = tensor.from_elements %x, %y, %x : tensor<3xf32>
  %s = tensor.splat %y : tensor<3xf32>
  %r0 = arith.addf %t, %s : tensor<3xf32>
  %one = tensor.extract_slice %r0[0] [1] [1] : tensor<3xf32> to tensor<1xf32>
  %scalar = tensor.collapse_shape %one [] : tensor<1xf32> into tensor<f32>
  %v = tensor.extract %scalar[] : tensor<f32>
  %r = tensor.insert %v into %r0[%c1] : tensor<3xf32>"""
    np.testing.assert_array_equal(
        compute(body, [np.array([1, 2], np.float32)], (3,), "f32"), [7, 7, 7]
    )


# ---------------------------------------------------------------------------------------
# linalg


def test_generic_parallel_with_broadcast_maps_and_index():
    """out[i, j] = a[i, j] * b[j] + i * 10 + j."""
    a, b = np.arange(6, dtype=np.float32).reshape(2, 3), np.array([1, 2, 3], np.float32)
    body = """  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c10 = arith.constant 10 : index
    %i10 = arith.muli %i, %c10 : index
    %ij = arith.addi %i10, %j : index
    %k = arith.index_cast %ij : index to i32
    %kf = arith.sitofp %k : i32 to f32
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %kf : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>"""
    expected = a * b + np.arange(2)[:, None] * 10 + np.arange(3)
    np.testing.assert_array_equal(compute(body, [a, b], (2, 3), "f32"), expected)


def test_generic_with_a_reduction_loop_and_a_transposed_output():
    """out[j, i] = init[j, i] + sum_k a[i, k] * a[i, k] * (k + 1), k in order."""
    a = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    body = """  %init = arith.constant dense<1.0> : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d1, d0)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a0 : tensor<2x2x3xf32>) outs(%init : tensor<2x2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %k = linalg.index 2 : index
    %c1 = arith.constant 1 : index
    %k1 = arith.addi %k, %c1 : index
    %ki = arith.index_cast %k1 : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %sq = arith.mulf %x, %x : f32
    %w = arith.mulf %sq, %kf : f32
    %s = arith.addf %acc, %w : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>"""
    expected = (1 + (a * a * np.arange(1, 4)).sum(axis=2)).T
    np.testing.assert_array_equal(compute(body, [a], (2, 2), "f32"), expected)


@pytest.mark.parametrize(
    "spelling",
    [
        """linalg.reduce { arith.addf } ins(%a0 : tensor<3x5xf32>) outs(%i : tensor<3xf32>)
    dimensions = [1]""",
        """linalg.reduce ins(%a0 : tensor<3x5xf32>) outs(%i : tensor<3xf32>) dimensions = [1]
    (%in: f32, %out: f32) {
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
    }""",
    ],
)
def test_reduce_in_both_spellings_folds_exactly_and_rounds_once(spelling):
    """1e8 + 1 + 1 - 1e8 + 3 + 0.5 is 5.5 exactly; in f32 any order of roundings loses
    the ones (pairwise: (1e8 + 1) + (1 - 1e8) is 0)."""
    x = np.array([[1e8, 1, 1, -1e8, 3]] * 3, np.float32)
    body = f"  %i = arith.constant dense<0.5> : tensor<3xf32>\n  %r = {spelling}"
    np.testing.assert_array_equal(compute(body, [x], (3,), "f32"), np.full(3, 5.5, np.float32))


def test_a_long_f16_sum_does_not_stagnate():
    """4096 ones: an f16 accumulator stops at 2048 (2048 + 1 rounds back to 2048); the
    reference folds exactly, as a wide accumulator does."""
    x = np.ones((1, 4096), np.float16)
    for spelling in (
        "linalg.reduce { arith.addf } ins(%a0 : tensor<1x4096xf16>) outs(%i : tensor<1xf16>) "
        "dimensions = [1]",
        """linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a0 : tensor<1x4096xf16>) outs(%i : tensor<1xf16>) {
  ^bb0(%x: f16, %acc: f16):
    %s = arith.addf %acc, %x : f16
    linalg.yield %s : f16
  } -> tensor<1xf16>""",
    ):
        body = f"  %i = arith.constant dense<0.0> : tensor<1xf16>\n  %r = {spelling}"
        np.testing.assert_array_equal(compute(body, [x], (1,), "f16"), [4096])


def test_a_body_that_is_not_a_fold_runs_in_order():
    """out' = 2 out + x reads out twice: Horner's rule, k in order, from init 1."""
    x = np.array([[1, 2, 3, 4]], np.float32)
    body = """  %i = arith.constant dense<1.0> : tensor<1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a0 : tensor<1x4xf32>) outs(%i : tensor<1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %d = arith.addf %acc, %acc : f32
    %s = arith.addf %d, %x : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>"""
    expected = 1.0
    for value in x[0]:
        expected = 2 * expected + value
    np.testing.assert_array_equal(compute(body, [x], (1,), "f32"), [expected])


def test_reduce_over_two_dimensions_with_cmpf_select():
    x = (np.arange(24).reshape(2, 3, 4) * (-1.0) ** np.arange(24).reshape(2, 3, 4)).astype(
        np.float32
    )
    body = """  %i = arith.constant dense<-1000.0> : tensor<3xf32>
  %r = linalg.reduce ins(%a0 : tensor<2x3x4xf32>) outs(%i : tensor<3xf32>) dimensions = [0, 2]
    (%in: f32, %out: f32) {
      %g = arith.cmpf ogt, %in, %out : f32
      %m = arith.select %g, %in, %out : f32
      linalg.yield %m : f32
    }"""
    np.testing.assert_array_equal(compute(body, [x], (3,), "f32"), x.max(axis=(0, 2)))


def test_fill_broadcast_transpose_and_named_elementwise():
    a, b = np.arange(6, dtype=np.float16).reshape(2, 3), np.array([1, -1, 2], np.float16)
    pair = "tensor<2x3xf16>, tensor<2x3xf16>"
    body = f"""  %e = tensor.empty() : tensor<2x3xf16>
  %h = arith.constant 0.5 : f16
  %f = linalg.fill ins(%h : f16) outs(%e : tensor<2x3xf16>) -> tensor<2x3xf16>
  %bb = linalg.broadcast ins(%a1 : tensor<3xf16>) outs(%e : tensor<2x3xf16>) dimensions = [0]
  %s = linalg.add ins(%a0, %bb : {pair}) outs(%e : tensor<2x3xf16>) -> tensor<2x3xf16>
  %d = linalg.sub ins(%s, %f : {pair}) outs(%e : tensor<2x3xf16>) -> tensor<2x3xf16>
  %m = linalg.mul ins(%d, %bb : {pair}) outs(%e : tensor<2x3xf16>) -> tensor<2x3xf16>
  %x = linalg.max ins(%m, %f : {pair}) outs(%e : tensor<2x3xf16>) -> tensor<2x3xf16>
  %t0 = tensor.empty() : tensor<3x2xf16>
  %r = linalg.transpose ins(%x : tensor<2x3xf16>) outs(%t0 : tensor<3x2xf16>)
      permutation = [1, 0]"""
    expected = np.maximum((a + b - np.float16(0.5)) * b, np.float16(0.5)).T
    np.testing.assert_array_equal(compute(body, [a, b], (3, 2), "f16"), expected)


def test_matmul_accumulates_wide_and_rounds_once():
    rng = np.random.default_rng(0)
    a, b = (
        rng.standard_normal((4, 64)).astype(np.float16),
        rng.standard_normal((64, 3)).astype(np.float16),
    )
    body = """  %c = arith.constant dense<1.0> : tensor<4x3xf16>
  %r = linalg.matmul ins(%a0, %a1 : tensor<4x64xf16>, tensor<64x3xf16>)
      outs(%c : tensor<4x3xf16>) -> tensor<4x3xf16>"""
    expected = (1 + a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    np.testing.assert_array_equal(compute(body, [a, b], (4, 3), "f16"), expected)


def test_batch_matmul_and_integer_matmul():
    a, b = (
        np.arange(24, dtype=np.int32).reshape(2, 3, 4) - 10,
        np.arange(16, dtype=np.int32).reshape(2, 4, 2),
    )
    body = """  %z = tensor.empty() : tensor<2x3x2xi32>
  %r = linalg.batch_matmul ins(%a0, %a1 : tensor<2x3x4xi32>, tensor<2x4x2xi32>)
      outs(%z : tensor<2x3x2xi32>) -> tensor<2x3x2xi32>"""
    np.testing.assert_array_equal(compute(body, [a, b], (2, 3, 2), "i32"), a @ b)


# ---------------------------------------------------------------------------------------
# spyreop


UNARY = ["exp", "gelu", "sigmoid", "silu", "sqrt", "rsqrt", "reciprocal"]


def _scalar_intrinsics(lines: str, element: str) -> str:
    """``lines`` in a linalg.generic body over %a0 (elements %x) and %a1 (%y)."""
    return f"""  %e = tensor.empty() : tensor<4x{element}>
  %r = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}}
      ins(%a0, %a1 : tensor<4x{element}>, tensor<4x{element}>)
      outs(%e : tensor<4x{element}>) {{
  ^bb0(%x: {element}, %y: {element}, %o: {element}):
{lines}
  }} -> tensor<4x{element}>"""


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize(
    "element, encode, decode",
    [
        ("f16", lambda v: v.astype(np.float16), lambda v: v),
        ("!spyreop.df16", numerics.df16_encode, numerics.df16_decode),
    ],
)
def test_unary_intrinsics_are_numerics(name, element, encode, decode):
    values = np.array([0.25, 1.5, 2.0, 3.75], np.float32)
    x = encode(values)
    ty = "df16" if "df16" in element else element
    body = _scalar_intrinsics(
        f"    %v = spyreop.{name} %x : {element}\n    linalg.yield %v : {element}", element
    )
    result = compute(body, [x, x], (4,), element)
    np.testing.assert_array_equal(decode(result), getattr(numerics, name)(ty, decode(x)))


def test_binary_and_layernorm_intrinsics_are_numerics():
    x, y = _f16(0.5, 1.0, 2.0, 4.0), _f16(3.0, 0.5, 0.25, 1.0)
    lines = """    %d = spyreop.realdiv %x, %y : f16
    %m, %sq = spyreop.exx2 %x : f16
    %s = spyreop.layernormscale %m squares %d : f16
    %n = spyreop.layernormnorm %x squares %m scale %s weight %y bias %d : f16
    %c = spyreop.compare <greaterthan> %n, %y : f16
    %v = spyreop.select %c, %n, %sq : f16
    %p = spyreop.softplus %v beta 2.000000e+00 threshold 1.000000e+01 : f16
    linalg.yield %p : f16"""
    d = numerics.realdiv("f16", x, y)
    m, sq = numerics.exx2("f16", x)
    s = numerics.layernormscale("f16", m, d)
    n = numerics.layernormnorm("f16", x, m, s, y, d)
    v = numerics.select("f16", numerics.compare("f16", "greaterthan", n, y), n, sq)
    expected = numerics.softplus("f16", v, 2.0, 10.0)
    np.testing.assert_array_equal(
        compute(_scalar_intrinsics(lines, "f16"), [x, y], (4,), "f16"), expected
    )


def test_fused_pair_intrinsics():
    x = _f16(0.5, 1.0, 2.0, 4.0)
    lines = """    %f = spyreop.exx2_fused %x : f16 -> !spyreop.fp16_fused
    %s = spyreop.layernormscale_fused %f : !spyreop.fp16_fused -> f16
    linalg.yield %s : f16"""
    expected = numerics.layernormscale("f16", *numerics.exx2("f16", x))
    np.testing.assert_array_equal(
        compute(_scalar_intrinsics(lines, "f16"), [x, x], (4,), "f16"), expected
    )


def test_integer_and_address_intrinsics():
    a, b = _i32(2**31 - 1, 5, -3, 7), _i32(1, 6, 4, 8)
    body = """  %e = tensor.empty() : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a0, %a1 : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %s = spyreop.addi32toi32 %x, %y
    %m = spyreop.muli32toi32 %s, %y
    %a = spyreop.idx32toaddr %m base %x stride %y
    %b = spyreop.idx32toaddr %a base 0x10 stride 2
    linalg.yield %b : i32
  } -> tensor<4xi32>"""
    s = numerics.addi32toi32(a, b)
    m = numerics.muli32toi32(s, b)
    expected = numerics.idx32toaddr(numerics.idx32toaddr(m, a, b), 16, 2)
    np.testing.assert_array_equal(compute(body, [a, b], (4,), "i32"), expected)


def test_slice_reduction_reduces_one_simd_vector_of_the_device_at_a_time():
    """Spyre's 64 f16 lanes (a 128-byte stick), toy's own; no device: refused."""
    x = np.arange(128, dtype=np.float16)
    body = """  %r = spyreop.slice_reduction %a0 {reduction_kind = #spyreop.reduction_kind<add>,
      reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<128xf16> -> tensor<128xf16>"""
    for arch in ("spyre", "toy"):
        lanes = Device.load(arch).lanes(Float16Type())
        expected = numerics.slice_reduction("f16", "add", "in_slice", x, lanes)
        np.testing.assert_array_equal(compute(body, [x], (128,), "f16", arch=arch), expected)
    assert Device.load("spyre").lanes(Float16Type()) == 64
    with pytest.raises(KtcError, match=r"slice_reduction reduces one SIMD vector of the device "
                       r"at a time: run the reference for a device"):
        compute(body, [x], (128,), "f16")


def test_older_one_operand_layernormscale_is_refused():
    lines = "    %s = spyreop.layernormscale %x : f16\n    linalg.yield %s : f16"
    with pytest.raises(
        KtcError, match="older one-operand spyreop.layernormscale has no defined formula"
    ):
        compute(_scalar_intrinsics(lines, "f16"), [_f16(1, 2, 3, 4)] * 2, (4,), "f16")


def test_an_op_the_interpreter_does_not_execute_is_refused_at_load():
    body = """  %r = tensor.pad %a0 low[1] high[0] {
  ^bb0(%i: index):
    %z = arith.constant 0.0 : f32
    tensor.yield %z : f32
  } : tensor<2xf32> to tensor<3xf32>"""
    with pytest.raises(
        KtcError,
        match=r"<kernel>:\d+:3: error: the reference interpreter does not execute 'tensor.pad'",
    ):
        compute(body, [np.zeros(2, np.float32)], (3,), "f32")


def test_generic_with_a_shifted_input_map_concat_and_execute_region():
    """out = concat(a[1:4] via the map (d0) -> (d0 + 1), a[0:1]) computed in a region."""
    a = np.array([1, 2, 3, 4], np.float32)
    body = """  %e = tensor.empty() : tensor<3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 + 1)>, #id],
                       iterator_types = ["parallel"]}
      ins(%a0 : tensor<4xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<3xf32>
  %r = scf.execute_region -> tensor<4xf32> {
    %h = tensor.extract_slice %a0[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
    %c = tensor.concat dim(0) %s, %h : (tensor<3xf32>, tensor<1xf32>) -> tensor<4xf32>
    scf.yield %c : tensor<4xf32>
  }"""
    np.testing.assert_array_equal(compute(body, [a], (4,), "f32"), [2, 3, 4, 1])


def test_an_access_tile_over_a_tensor_is_refused():
    body = """  %t = ktdp.construct_access_tile %a0[%c0]
      {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>, access_tile_order = #id}
      : tensor<2xf32> -> !ktdp.access_tile<2xindex>
  %r = ktdp.load %t : !ktdp.access_tile<2xindex> -> tensor<2xf32>"""
    with pytest.raises(KtcError, match="access tiles over tensors are not executed"):
        compute(body, [np.zeros(2, np.float32)], (2,), "f32")
