"""The printer's pure parts: MLIR's float notation and the affine normal form.

Float texts are the ones real mlir-opt (LLVM 22) prints for the same constants. Affine
expressions are generated at random: the canonical form must compute the same value
as the expression it came from, its text must read back to the same text, and real
mlir-opt must print that text unchanged.
"""

import re
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ktc.dialects import context
from ktc.dialects.printer import affine_map_text, canonical_expr, float_text
from xdsl.dialects.builtin import AffineMapAttr, BFloat16Type, Float16Type, Float32Type, Float64Type
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.parser import Parser

F16, BF16, F32, F64 = Float16Type(), BFloat16Type(), Float32Type(), Float64Type()


@pytest.mark.parametrize(
    "value, type, text",
    [
        (0.1, F16, "9.997550e-02"),
        (3.140625, F16, "3.140630e+00"),
        (100.3, F16, "1.003130e+02"),
        (65504.0, F16, "6.550400e+04"),
        (0.7, BF16, "6.992180e-01"),
        (0.1, F32, "1.000000e-01"),
        (0.7, F32, "0.699999988"),
        (1.0e-4, F32, "9.99999974E-5"),
        (1.0e-5, F32, "9.99999974E-6"),
        (0.7, F64, "0.69999999999999996"),
        (0.0, F32, "0.000000e+00"),
        (-0.0, F32, "-0.000000e+00"),
        (-2.0, BF16, "-2.000000e+00"),
        (float("inf"), F32, "0x7F800000"),
        (float("-inf"), F16, "0xFC00"),
    ],
)
def test_float_text_is_what_mlir_prints(value, type, text):
    assert float_text(type.round(value), type) == text


@pytest.mark.parametrize("type", [F16, BF16, F32, F64])
@given(value=st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_float_text_reads_back_to_the_same_value(type, value):
    value = type.round(value)
    text = float_text(value, type)
    assert text.startswith("0x") or type.round(float(text)) == value


DIMS, SYMBOLS = 3, 2


def _leaves() -> st.SearchStrategy[AffineExpr]:
    return st.one_of(
        st.integers(0, DIMS - 1).map(AffineExpr.dimension),
        st.integers(0, SYMBOLS - 1).map(AffineExpr.symbol),
        st.integers(-9, 9).map(AffineExpr.constant),
    )


def _extend(children: st.SearchStrategy[AffineExpr]) -> st.SearchStrategy[AffineExpr]:
    constant = st.integers(-4, 4)
    divisor = st.integers(1, 5)
    return st.one_of(
        st.tuples(children, children).map(lambda pair: pair[0] + pair[1]),
        st.tuples(children, children).map(lambda pair: pair[0] - pair[1]),
        st.tuples(children, constant).map(lambda pair: pair[0] * pair[1]),
        st.tuples(children, divisor).map(lambda pair: pair[0] // pair[1]),
        st.tuples(children, divisor).map(lambda pair: pair[0].ceil_div(pair[1])),
        st.tuples(children, divisor).map(lambda pair: pair[0] % pair[1]),
    )


EXPRESSIONS = st.recursive(_leaves(), _extend, max_leaves=8)


def _sum(parts: list[tuple[AffineExpr, int]], constant: int) -> AffineExpr:
    return sum(
        (term * coefficient for term, coefficient in parts), start=AffineExpr.constant(constant)
    )


def _linear_sums() -> st.SearchStrategy[AffineExpr]:
    variables = st.one_of(
        st.integers(0, DIMS - 1).map(AffineExpr.dimension),
        st.integers(0, SYMBOLS - 1).map(AffineExpr.symbol),
    )
    return st.builds(
        _sum,
        st.lists(st.tuples(variables, st.integers(-4, 4)), min_size=1, max_size=3),
        st.integers(-9, 9),
    )


def _subscripts() -> st.SearchStrategy[AffineExpr]:
    """What subscripts and bounds in KTIR are made of: sums of variables and of
    floordiv / ceildiv / mod of such sums by constants."""
    linear, divisor = _linear_sums(), st.integers(1, 8)
    divided = st.one_of(
        linear,
        st.builds(lambda e, c: e // c, linear, divisor),
        st.builds(lambda e, c: e.ceil_div(c), linear, divisor),
        st.builds(lambda e, c: e % c, linear, divisor),
    )
    return st.builds(
        _sum,
        st.lists(st.tuples(divided, st.integers(-4, 4)), min_size=1, max_size=3),
        st.integers(-9, 9),
    )


SUBSCRIPTS = _subscripts()
POINTS = st.tuples(
    st.lists(st.integers(-20, 20), min_size=DIMS, max_size=DIMS),
    st.lists(st.integers(-20, 20), min_size=SYMBOLS, max_size=SYMBOLS),
)


@settings(max_examples=300, deadline=None)
@given(expr=EXPRESSIONS, point=POINTS)
def test_canonical_form_computes_the_same_value(expr, point):
    dims, symbols = point
    assert canonical_expr(expr).eval(dims, symbols) == expr.eval(dims, symbols)


@settings(max_examples=200, deadline=None)
@given(expr=EXPRESSIONS)
def test_canonical_text_reads_back_to_itself(expr):
    text = affine_map_text(AffineMap(DIMS, SYMBOLS, (expr,)))
    parsed = Parser(context(), f"affine_map<{text}>").parse_attribute()
    assert isinstance(parsed, AffineMapAttr)
    assert affine_map_text(parsed.data) == text


def test_canonical_text_is_mlirs_for_the_usual_forms():
    d0, d1, s0 = AffineExpr.dimension(0), AffineExpr.dimension(1), AffineExpr.symbol(0)
    amap = AffineMap(2, 1, (s0 - d0 - 1, d0 * 4 + s0 // 2, 3 + d1, (d0 // 4) * 4, d0 - d1 * 3))
    assert affine_map_text(amap) == (
        "(d0, d1)[s0] -> (-d0 + s0 - 1, d0 * 4 + s0 floordiv 2, d1 + 3,"
        " (d0 floordiv 4) * 4, d0 - d1 * 3)"
    )


@settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(exprs=st.lists(SUBSCRIPTS, min_size=40, max_size=40))
def test_mlir_opt_prints_canonical_maps_unchanged(mlir_opt, exprs):
    texts = [f"affine_map<{affine_map_text(AffineMap(DIMS, SYMBOLS, (expr,)))}>" for expr in exprs]
    attributes = ", ".join(f"m{index:02d} = {text}" for index, text in enumerate(texts))
    source = f'"test.op"() {{{attributes}}} : () -> ()\n'
    result = subprocess.run(
        [mlir_opt, "--allow-unregistered-dialect", "--mlir-print-local-scope"],
        input=source,
        capture_output=True,
        text=True,
        check=True,
    )
    assert re.findall(r"affine_map<.*?>(?=[,}])", result.stdout) == texts
