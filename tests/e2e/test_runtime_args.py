"""Kernels taking ``!ktdp.runtime_arg`` arguments, compiled and simulated: a runtime
argument is a scalar of its underlying type the host gives at launch, checked there
against its granularity and upper bound (``docs/kernels.md``). The outputs are compared
by ``ktc.sim.check`` with numpy formulas written here and with the reference
interpreter, on every test device; the launch refuses values the type excludes."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES, corpus_kernel  # noqa: E402
from simulated import agree, run  # noqa: E402

from ktc.codegen.package import decode, encode  # noqa: E402
from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.errors import KtcError  # noqa: E402
from ktc.runtime.executable import prepare  # noqa: E402
from ktc.sim.reference import Kernel  # noqa: E402
from ktc.sim.simulator import Simulator  # noqa: E402

ROWS_ADD = """!m = !ktdp.runtime_arg<index, granularity=32, upperbound=300>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @rows_add(%M_symb: !m, %A: index, %B: index, %C: index) attributes {grid = [4]} {
  %M = ktdp.runtime_arg_extract value from %M_symb : !m -> index
  %g = ktdp.runtime_arg_extract granularity from %M_symb : !m -> index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %A_view = ktdp.construct_memory_view %A, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %B_view = ktdp.construct_memory_view %B, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %C_view = ktdp.construct_memory_view %C, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %blocks = arith.divsi %M, %g : index
  %per_tile = arith.muli %blocks, %c8 : index
  %id = ktdp.get_compute_tile_id : index
  %start = arith.muli %id, %per_tile : index
  scf.for %i = %c0 to %per_tile step %c1 {
    %at = ktdp.construct_access_tile %A_view[%start + %i, %c0] {access_tile_set = #row, access_tile_order = #identity} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %bt = ktdp.construct_access_tile %B_view[%start + %i, %c0] {access_tile_set = #row, access_tile_order = #identity} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %a = ktdp.load %at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %b = ktdp.load %bt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %e = tensor.empty() : tensor<1x64xf16>
    %s = linalg.add ins(%a, %b : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    %ct = ktdp.construct_access_tile %C_view[%start + %i, %c0] {access_tile_set = #row, access_tile_order = #identity} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %s, %ct : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
"""
"""C = A + B over the M x 64 f16 rows, M a runtime argument (a multiple of 32, at most
300); each of the 4 tiles adds M / 4 rows (M / granularity * 8)."""

SCALE = """!s = !ktdp.runtime_arg<f32>
!n = !ktdp.runtime_arg<index, upperbound=16>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale(%x: index, %y: index, %s_arg: !s, %n_arg: !n) {
  %s = ktdp.runtime_arg_extract value from %s_arg : !s -> f32
  %n = ktdp.runtime_arg_extract value from %n_arg : !n -> index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %xv = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x64xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [16, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x64xf32>
  %splat = tensor.splat %s : tensor<1x64xf32>
  scf.for %i = %c0 to %n step %c1 {
    %xt = ktdp.construct_access_tile %xv[%i, %c0] {access_tile_set = #row, access_tile_order = #identity} : memref<16x64xf32> -> !ktdp.access_tile<1x64xindex>
    %yt = ktdp.construct_access_tile %yv[%i, %c0] {access_tile_set = #row, access_tile_order = #identity} : memref<16x64xf32> -> !ktdp.access_tile<1x64xindex>
    %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf32>
    %r = arith.mulf %a, %splat : tensor<1x64xf32>
    ktdp.store %r, %yt : tensor<1x64xf32>, !ktdp.access_tile<1x64xindex>
  }
  return
}
"""
"""y[i] = s * x[i] for the first n of 16 rows of 64 f32 (s and n runtime arguments, n at
most 16); the other rows of y keep their values."""


def check(simulated: dict, reference: dict, expected: dict, element: str) -> None:
    agree(simulated, reference, expected, dict.fromkeys(expected, element))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("m", [32, 96, 288])
def test_rows_add_over_a_runtime_row_count(device: str, m: int):
    rng = np.random.default_rng(m)
    a, b = (rng.standard_normal((m, 64)).astype(np.float16) for _ in range(2))
    c = np.zeros((m, 64), np.float16)
    simulated, reference = run(ROWS_ADD, device, {"M_symb": m, "A": a, "B": b, "C": c}, "rows_add")
    check(simulated, reference, {"A": a, "B": b, "C": a + b}, "f16")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("n", [0, 5, 16])
def test_float_and_loop_bound_runtime_arguments(device: str, n: int):
    rng = np.random.default_rng(n)
    x = rng.standard_normal((16, 64)).astype(np.float32)
    y = rng.standard_normal((16, 64)).astype(np.float32)
    expected = y.copy()
    expected[:n] = x[:n] * np.float32(-1.75)
    simulated, reference = run(SCALE, device, {"x": x, "y": y, "s_arg": -1.75, "n_arg": n}, "scale")
    check(simulated, reference, {"x": x, "y": expected}, "f32")


def test_the_launch_checks_granularity_and_upper_bound():
    """The package keeps each runtime argument's granularity and bound (through its
    encoding) and the launch refuses values outside them, as the reference does."""
    package = decode(encode(compile_kernel(ROWS_ADD, "toy", "rows_add")))
    argument = package.signature.arguments[0]
    assert (argument.pointer, argument.dtype, argument.granularity, argument.upperbound) == (
        False, "index", 32, 300)
    assert all(a.granularity is a.upperbound is None for a in package.signature.arguments[1:])
    executable = prepare(package, Simulator("toy"))
    for m, problem in [(97, "must be a multiple of its granularity 32, got 97"),
                       (320, "must be at most its upper bound 300, got 320")]:
        rows = np.zeros((m, 64), np.float16)
        with pytest.raises(KtcError, match=problem):
            executable.launch(m, rows, rows, rows)
        with pytest.raises(KtcError, match=problem):
            Kernel.from_text(ROWS_ADD, "rows_add").execute([m, rows, rows, rows])


@pytest.mark.parametrize("function", ["extract_value", "extract_granularity",
                                      "extract_upperbound", "extract_all",
                                      "extract_value_only_granularity", "extract_i32_value"])
def test_corpus_runtime_arg_extract_kernels_compile_and_check_their_arguments(function: str):
    """The corpus's runtime_arg_extract functions are kernels with no memory effect:
    each compiles, runs on a value its type allows and refuses one it excludes."""
    text = corpus_kernel("ktir-mlir-frontend/runtime-arg-extract.mlir").read_text()
    package = compile_kernel(text, "spyre", function=function)
    (argument,) = package.signature.arguments
    executable = prepare(package, Simulator("spyre"))
    good = 24 if argument.granularity in (3, 4, 8) else 7
    assert executable.launch(good) == {}
    if argument.upperbound is not None:
        with pytest.raises(KtcError, match="upper bound 300, got 312"):
            executable.launch(312)
    if argument.granularity is not None:
        with pytest.raises(KtcError, match=f"granularity {argument.granularity}"):
            executable.launch(argument.granularity + 1)
