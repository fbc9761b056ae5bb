"""The benchmark kernels: KTIR text for each kernel at a given shape and grid.

Each generator writes its kernel in the style of ``examples/*.mlir`` (one memory view
per pointer argument over the whole tensor, access tiles of one row or one block of
rows per loop step, compute in arith/math/linalg) and returns a ``Case``: the text
and the kernel's arguments in signature order. ``SIZES`` names a small and a large
shape per kernel; ``case(kernel, size)`` builds one of them.

The row loop takes the examples' form, each tile owning a contiguous block of rows,
when the rows divide among the tiles; otherwise (LayerNorm's 1151 rows) the corpus's
form, ``scf.for %r = %tile to %rows step %grid``.

What each kernel computes, in numpy, is written again independently in
``tests/unit/benchmarks/test_kernels.py``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ktc.errors import KtcError

NUMPY = {"f16": "float16", "f32": "float32", "i32": "int32"}
"""The numpy dtype of each element type the kernels use."""


@dataclass(frozen=True)
class Argument:
    """One kernel argument: a pointer to an array (``shape`` given) or a scalar."""

    name: str
    element: str
    """The KTIR element type of the array, or the scalar's type (``f16``, ``f32``)."""
    shape: tuple[int, ...] | None = None
    """The array's shape; None for a scalar."""
    value: float = 0.0
    """A scalar's value."""
    bound: int | None = None
    """For an array of indices: they are drawn from ``[0, bound)``, each once while
    there are enough (a permutation's first ones)."""

    @property
    def dtype(self) -> str:
        return NUMPY[self.element]


@dataclass(frozen=True)
class Case:
    """A benchmark kernel at one size."""

    kernel: str
    params: dict[str, int] = field(compare=False)
    """The generator's arguments (the text and arguments already say all of it)."""
    text: str
    arguments: tuple[Argument, ...]
    output: str
    """The pointer argument the kernel writes."""

    @property
    def elements(self) -> int:
        """Elements of the output array."""
        return math.prod(next(a.shape for a in self.arguments if a.name == self.output))

    def inputs(self, seed: int = 0) -> dict[str, object]:
        """Arguments by name in signature order: N(0, 1) arrays, a zeroed output, scalars."""
        import numpy as np

        rng = np.random.default_rng(seed)
        values: dict[str, object] = {}
        for arg in self.arguments:
            if arg.shape is None:
                values[arg.name] = arg.value
            elif arg.name == self.output:
                values[arg.name] = np.zeros(arg.shape, arg.dtype)
            elif arg.bound is not None:
                count = math.prod(arg.shape)
                drawn = rng.permutation(arg.bound)[:count] if count <= arg.bound else rng.integers(0, arg.bound, count)
                values[arg.name] = drawn.reshape(arg.shape).astype(arg.dtype)
            else:
                values[arg.name] = rng.standard_normal(arg.shape).astype(arg.dtype)
        return values


# ---------------------------------------------------------------------------------
# KTIR text pieces
# ---------------------------------------------------------------------------------

def _dims(shape: tuple[int, ...]) -> str:
    return "x".join(str(n) for n in shape)


def _box(shape: tuple[int, ...]) -> str:
    """The affine set of every point of a box of ``shape`` from the origin."""
    dims = ", ".join(f"d{i}" for i in range(len(shape)))
    bounds = ", ".join(f"d{i} >= 0, -d{i} + {n - 1} >= 0" for i, n in enumerate(shape))
    return f"affine_set<({dims}) : ({bounds})>"


def _identity(rank: int) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def _view(name: str, shape: tuple[int, ...], element: str, first: int = 0) -> str:
    """A row-major memory view ``%{name}_view`` over argument ``%{name}``, covering rows
    ``first ..`` (of a distributed view)."""
    strides = [math.prod(shape[i + 1:]) for i in range(len(shape))]
    coordinates = _box(shape)
    if first:
        coordinates = coordinates.replace(
            f"d0 >= 0, -d0 + {shape[0] - 1} >= 0", f"d0 - {first} >= 0, -d0 + {first + shape[0] - 1} >= 0")
    return (
        f"    %{name}_view = ktdp.construct_memory_view %{name}, sizes: {list(shape)}, "
        f"strides: {strides} {{\n"
        f"      coordinate_set = {coordinates}, memory_space = #ktdp.memory_space<global>\n"
        f"    }} : memref<{_dims(shape)}x{element}>\n"
    )


def _load(value: str, view: str, view_shape: tuple[int, ...], at: list[str],
          shape: tuple[int, ...], element: str) -> str:
    """An access tile of ``shape`` at ``at`` on ``%{view}_view`` and its load as ``%{value}``."""
    return (_tile(value, view, view_shape, at, shape, element)
            + f"      %{value} = ktdp.load %{value}_tile : !ktdp.access_tile<{_dims(shape)}xindex>"
            f" -> tensor<{_dims(shape)}x{element}>\n")


def _store(value: str, view: str, view_shape: tuple[int, ...], at: list[str],
           shape: tuple[int, ...], element: str) -> str:
    """An access tile of ``shape`` at ``at`` on ``%{view}_view`` and the store of ``%{value}``."""
    return (_tile(value, view, view_shape, at, shape, element)
            + f"      ktdp.store %{value}, %{value}_tile : tensor<{_dims(shape)}x{element}>, "
            f"!ktdp.access_tile<{_dims(shape)}xindex>\n")


def _tile(value: str, view: str, view_shape: tuple[int, ...], at: list[str],
          shape: tuple[int, ...], element: str) -> str:
    return (
        f"      %{value}_tile = ktdp.construct_access_tile %{view}_view[{', '.join(at)}] {{\n"
        f"        access_tile_set = {_box(shape)}, access_tile_order = {_identity(len(shape))}\n"
        f"      }} : memref<{_dims(view_shape)}x{element}> -> "
        f"!ktdp.access_tile<{_dims(shape)}xindex>\n"
    )


def _kernel(name: str, arguments: tuple[Argument, ...], grid: int, rows: int, block: int,
            views: str, body: str) -> str:
    """A kernel whose ``body`` runs once per block of ``block`` rows, ``%r`` its first row."""
    params = ", ".join(
        f"%{a.name}: {'index' if a.shape is not None else a.element}" for a in arguments
    )
    return (
        "module {\n"
        f"  func.func @{name}({params}) attributes {{grid = [{grid}]}} {{\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %tile = ktdp.get_compute_tile_id : index\n"
        + views + _row_loop(rows, grid, block) + body
        + "    }\n    return\n  }\n}\n"
    )


def _row_loop(rows: int, grid: int, block: int) -> str:
    """The loop header binding ``%r``: a contiguous block of rows per tile, stepping by
    ``block``, when the rows divide among the tiles; else every ``grid``-th row."""
    if rows % (grid * block) == 0:
        return (
            f"    %rows_per_tile = arith.constant {rows // grid} : index\n"
            f"    %block = arith.constant {block} : index\n"
            "    %first_row = arith.muli %tile, %rows_per_tile : index\n"
            "    scf.for %i = %c0 to %rows_per_tile step %block {\n"
            "      %r = arith.addi %first_row, %i : index\n"
        )
    if block != 1:
        raise ValueError(f"{rows} rows do not split into blocks of {block} over {grid} tiles")
    return (
        f"    %rows = arith.constant {rows} : index\n"
        f"    %grid = arith.constant {grid} : index\n"
        "    scf.for %r = %tile to %rows step %grid {\n"
    )


def _arrays(element: str, **shapes: tuple[int, ...]) -> tuple[Argument, ...]:
    return tuple(Argument(name, element, shape) for name, shape in shapes.items())


# ---------------------------------------------------------------------------------
# The kernels
# ---------------------------------------------------------------------------------


def add(rows: int, cols: int, grid: int, ops: int = 1) -> Case:
    """``c = a + b`` one row per step; with ``ops`` > 1 a chain of ``ops`` fused
    elementwise ops, alternately adding and subtracting ``b``: ``v = a; v = v + b;
    v = v - b; ...`` (``a + b`` for an odd count, ``a`` for an even one)."""
    shape, row = (rows, cols), (1, cols)
    arguments = _arrays("f16", a=shape, b=shape, c=shape)
    chain, value = "", "x"
    for step in range(ops):
        op = "arith.addf" if step % 2 == 0 else "arith.subf"
        chain += f"      %v{step} = {op} %{value}, %y : tensor<1x{cols}xf16>\n"
        value = f"v{step}"
    body = (
        _load("x", "a", shape, ["%r", "%c0"], row, "f16")
        + _load("y", "b", shape, ["%r", "%c0"], row, "f16")
        + chain
        + _store(value, "c", shape, ["%r", "%c0"], row, "f16")
    )
    views = "".join(_view(n, shape, "f16") for n in "abc")
    return _case("add", arguments, "c", {"rows": rows, "cols": cols, "grid": grid, "ops": ops},
                 _kernel("add", arguments, grid, rows, 1, views, body))


def broadcast_add(rows: int, cols: int, grid: int, block: int) -> Case:
    """``c = a + b[None, :]``: each step adds the row vector ``b``, loaded in the step
    (loop-invariant, so a candidate for hoisting), to a block of ``block`` rows."""
    shape, tile = (rows, cols), (block, cols)
    arguments = (*_arrays("f16", a=shape), *_arrays("f16", b=(cols,)), *_arrays("f16", c=shape))
    body = (
        _load("x", "a", shape, ["%r", "%c0"], tile, "f16")
        + _load("row", "b", (cols,), ["%c0"], (cols,), "f16")
        + f"      %empty = tensor.empty() : tensor<{block}x{cols}xf16>\n"
        f"      %rows_of_b = linalg.broadcast ins(%row : tensor<{cols}xf16>) "
        f"outs(%empty : tensor<{block}x{cols}xf16>) dimensions = [0]\n"
        f"      %sum = arith.addf %x, %rows_of_b : tensor<{block}x{cols}xf16>\n"
        + _store("sum", "c", shape, ["%r", "%c0"], tile, "f16")
    )
    views = _view("a", shape, "f16") + _view("b", (cols,), "f16") + _view("c", shape, "f16")
    return _case("broadcast_add", arguments, "c", {"rows": rows, "cols": cols, "grid": grid, "block": block},
                 _kernel("broadcast_add", arguments, grid, rows, block, views, body))


def _silu_gate(indent: str, result: str) -> str:
    """The body of a generic taking ``(g, u)`` to ``g / (1 + exp(-g)) * u``, its block
    at ``indent``."""
    lines = ["^bb0(%g: f16, %u: f16, %unused: f16):", "  %one = arith.constant 1.0 : f16",
             "  %minus_g = arith.negf %g : f16", "  %exp = math.exp %minus_g : f16",
             "  %denominator = arith.addf %exp, %one : f16",
             "  %silu = arith.divf %g, %denominator : f16",
             f"  {result} = arith.mulf %silu, %u : f16", f"  linalg.yield {result} : f16"]
    return "".join(f"{indent}{line}\n" for line in lines)


def silu_mul(rows: int, cols: int, grid: int) -> Case:
    """``g, u = x[:, :cols/2], x[:, cols/2:]; out = g / (1 + exp(-g)) * u`` one row per
    step, the two halves two access tiles on the same view, one linalg.generic."""
    half = cols // 2
    x_shape, out_shape, row = (rows, cols), (rows, half), (1, half)
    arguments = _arrays("f16", x=x_shape, out=out_shape)
    identity = _identity(2)
    body = (
        f"      %half = arith.constant {half} : index\n"
        + _load("gate", "x", x_shape, ["%r", "%c0"], row, "f16")
        + _load("up", "x", x_shape, ["%r", "%half"], row, "f16")
        + f"      %empty = tensor.empty() : tensor<1x{half}xf16>\n"
        "      %product = linalg.generic {\n"
        f"        indexing_maps = [{identity}, {identity}, {identity}],\n"
        '        iterator_types = ["parallel", "parallel"]\n'
        f"      }} ins(%gate, %up : tensor<1x{half}xf16>, tensor<1x{half}xf16>) "
        f"outs(%empty : tensor<1x{half}xf16>) {{\n"
        + _silu_gate("      ", "%p")
        + f"      }} -> tensor<1x{half}xf16>\n"
        + _store("product", "out", out_shape, ["%r", "%c0"], row, "f16")
    )
    views = _view("x", x_shape, "f16") + _view("out", out_shape, "f16")
    return _case("silu_mul", arguments, "out", {"rows": rows, "cols": cols, "grid": grid},
                 _kernel("silu_mul", arguments, grid, rows, 1, views, body))


def softmax(rows: int, cols: int, grid: int) -> Case:
    """``e = exp(x - x.max(axis=1)); y = e / e.sum(axis=1)`` one row per step."""
    shape, row = (rows, cols), (1, cols)
    arguments = _arrays("f16", x=shape, y=shape)
    full = f"tensor<1x{cols}xf16>"
    body = (
        _load("values", "x", shape, ["%r", "%c0"], row, "f16")
        + "      %minus_inf = arith.constant 0xFC00 : f16\n"
        "      %zero = arith.constant 0.0 : f16\n"
        "      %scalar = tensor.empty() : tensor<1xf16>\n"
        f"      %full_row = tensor.empty() : {full}\n"
        "      %max_init = linalg.fill ins(%minus_inf : f16) outs(%scalar : tensor<1xf16>) -> tensor<1xf16>\n"
        f"      %max = linalg.reduce {{ arith.maxnumf }} ins(%values : {full}) "
        "outs(%max_init : tensor<1xf16>) dimensions = [1]\n"
        f"      %max_row = linalg.broadcast ins(%max : tensor<1xf16>) outs(%full_row : {full}) dimensions = [1]\n"
        f"      %shifted = arith.subf %values, %max_row : {full}\n"
        f"      %exp = math.exp %shifted : {full}\n"
        "      %sum_init = linalg.fill ins(%zero : f16) outs(%scalar : tensor<1xf16>) -> tensor<1xf16>\n"
        f"      %sum = linalg.reduce {{ arith.addf }} ins(%exp : {full}) "
        "outs(%sum_init : tensor<1xf16>) dimensions = [1]\n"
        f"      %sum_row = linalg.broadcast ins(%sum : tensor<1xf16>) outs(%full_row : {full}) dimensions = [1]\n"
        f"      %softmax = arith.divf %exp, %sum_row : {full}\n"
        + _store("softmax", "y", shape, ["%r", "%c0"], row, "f16")
    )
    views = _view("x", shape, "f16") + _view("y", shape, "f16")
    return _case("softmax", arguments, "y", {"rows": rows, "cols": cols, "grid": grid},
                 _kernel("softmax", arguments, grid, rows, 1, views, body))


def layernorm(rows: int, cols: int, grid: int) -> Case:
    """``c = x - x.mean(axis=1); y = c / sqrt((c * c).mean(axis=1) + eps) * w + b`` one
    row per step (eps an f16 argument, 1e-5), the means as sums times 1/cols."""
    shape, row, vector = (rows, cols), (1, cols), (cols,)
    arguments = (*_arrays("f16", x=shape, w=vector, b=vector, y=shape),
                 Argument("eps", "f16", value=1e-5))
    full = f"tensor<1x{cols}xf16>"
    per_row, per_column = "affine_map<(d0, d1) -> (d0)>", "affine_map<(d0, d1) -> (d1)>"
    body = (
        _load("values", "x", shape, ["%r", "%c0"], row, "f16")
        + _load("weight", "w", vector, ["%c0"], vector, "f16")
        + _load("bias", "b", vector, ["%c0"], vector, "f16")
        + "      %zero = arith.constant 0.0 : f16\n"
        "      %scalar = tensor.empty() : tensor<1xf16>\n"
        f"      %full_row = tensor.empty() : {full}\n"
        f"      %inv_n = arith.constant dense<{1 / cols:e}> : tensor<1xf16>\n"
        "      %sum_init = linalg.fill ins(%zero : f16) outs(%scalar : tensor<1xf16>) -> tensor<1xf16>\n"
        f"      %sum = linalg.reduce {{ arith.addf }} ins(%values : {full}) "
        "outs(%sum_init : tensor<1xf16>) dimensions = [1]\n"
        "      %mean = arith.mulf %sum, %inv_n : tensor<1xf16>\n"
        f"      %mean_row = linalg.broadcast ins(%mean : tensor<1xf16>) outs(%full_row : {full}) dimensions = [1]\n"
        f"      %centered = arith.subf %values, %mean_row : {full}\n"
        f"      %squares = arith.mulf %centered, %centered : {full}\n"
        f"      %square_sum = linalg.reduce {{ arith.addf }} ins(%squares : {full}) "
        "outs(%sum_init : tensor<1xf16>) dimensions = [1]\n"
        "      %variance = arith.mulf %square_sum, %inv_n : tensor<1xf16>\n"
        "      %eps_tensor = tensor.splat %eps : tensor<1xf16>\n"
        "      %variance_eps = arith.addf %variance, %eps_tensor : tensor<1xf16>\n"
        "      %rstd = math.rsqrt %variance_eps : tensor<1xf16>\n"
        "      %result = linalg.generic {\n"
        f"        indexing_maps = [{_identity(2)}, {per_row}, {per_column}, {per_column}, {_identity(2)}],\n"
        '        iterator_types = ["parallel", "parallel"]\n'
        f"      }} ins(%centered, %rstd, %weight, %bias : {full}, tensor<1xf16>, tensor<{cols}xf16>, "
        f"tensor<{cols}xf16>)\n"
        f"        outs(%full_row : {full}) {{\n"
        "      ^bb0(%c: f16, %s: f16, %wc: f16, %bc: f16, %unused: f16):\n"
        "        %scaled = arith.mulf %c, %s : f16\n"
        "        %weighted = arith.mulf %scaled, %wc : f16\n"
        "        %shifted = arith.addf %weighted, %bc : f16\n"
        "        linalg.yield %shifted : f16\n"
        f"      }} -> {full}\n"
        + _store("result", "y", shape, ["%r", "%c0"], row, "f16")
    )
    views = (_view("x", shape, "f16") + _view("w", vector, "f16") + _view("b", vector, "f16")
             + _view("y", shape, "f16"))
    return _case("layernorm", arguments, "y", {"rows": rows, "cols": cols, "grid": grid},
                 _kernel("layernorm", arguments, grid, rows, 1, views, body))


def rmsnorm(rows: int, cols: int, grid: int) -> Case:
    """``y = x / sqrt((x * x).mean(axis=1) + 1e-5) * w`` one row per step."""
    shape, row, vector = (rows, cols), (1, cols), (cols,)
    arguments = _arrays("f16", x=shape, w=vector, y=shape)
    full = f"tensor<1x{cols}xf16>"
    body = (
        _load("values", "x", shape, ["%r", "%c0"], row, "f16")
        + _load("weight", "w", vector, ["%c0"], vector, "f16")
        + "      %zero = arith.constant 0.0 : f16\n"
        "      %scalar = tensor.empty() : tensor<1xf16>\n"
        f"      %full_row = tensor.empty() : {full}\n"
        f"      %squares = arith.mulf %values, %values : {full}\n"
        "      %sum_init = linalg.fill ins(%zero : f16) outs(%scalar : tensor<1xf16>) -> tensor<1xf16>\n"
        f"      %sum = linalg.reduce {{ arith.addf }} ins(%squares : {full}) "
        "outs(%sum_init : tensor<1xf16>) dimensions = [1]\n"
        f"      %inv_n = arith.constant dense<{1 / cols:e}> : tensor<1xf16>\n"
        "      %eps = arith.constant dense<1.000000e-05> : tensor<1xf16>\n"
        "      %mean = arith.mulf %sum, %inv_n : tensor<1xf16>\n"
        "      %mean_eps = arith.addf %mean, %eps : tensor<1xf16>\n"
        "      %scale = math.rsqrt %mean_eps : tensor<1xf16>\n"
        f"      %scale_row = linalg.broadcast ins(%scale : tensor<1xf16>) outs(%full_row : {full}) dimensions = [1]\n"
        f"      %weight_row = linalg.broadcast ins(%weight : tensor<{cols}xf16>) outs(%full_row : {full}) dimensions = [0]\n"
        f"      %normed = arith.mulf %values, %scale_row : {full}\n"
        f"      %result = arith.mulf %normed, %weight_row : {full}\n"
        + _store("result", "y", shape, ["%r", "%c0"], row, "f16")
    )
    views = _view("x", shape, "f16") + _view("w", vector, "f16") + _view("y", shape, "f16")
    return _case("rmsnorm", arguments, "y", {"rows": rows, "cols": cols, "grid": grid},
                 _kernel("rmsnorm", arguments, grid, rows, 1, views, body))


def row_sum(rows: int, cols: int, grid: int, block: int) -> Case:
    """``y = x.sum(axis=1)`` in f32, a block of ``block`` rows per step reduced along
    its columns by a linalg.generic with a reduction iterator."""
    shape, tile = (rows, cols), (block, cols)
    arguments = _arrays("f32", x=shape, y=(rows,))
    body = (
        _load("values", "x", shape, ["%r", "%c0"], tile, "f32")
        + "      %zero = arith.constant 0.0 : f32\n"
        f"      %empty = tensor.empty() : tensor<{block}xf32>\n"
        f"      %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<{block}xf32>) -> tensor<{block}xf32>\n"
        "      %sums = linalg.generic {\n"
        f"        indexing_maps = [{_identity(2)}, affine_map<(d0, d1) -> (d0)>],\n"
        '        iterator_types = ["parallel", "reduction"]\n'
        f"      }} ins(%values : tensor<{block}x{cols}xf32>) outs(%init : tensor<{block}xf32>) {{\n"
        "      ^bb0(%value: f32, %acc: f32):\n"
        "        %next = arith.addf %value, %acc : f32\n"
        "        linalg.yield %next : f32\n"
        f"      }} -> tensor<{block}xf32>\n"
        + _store("sums", "y", (rows,), ["%r"], (block,), "f32")
    )
    views = _view("x", shape, "f32") + _view("y", (rows,), "f32")
    return _case("row_sum", arguments, "y", {"rows": rows, "cols": cols, "grid": grid, "block": block},
                 _kernel("row_sum", arguments, grid, rows, block, views, body))


def rotary(rows: int, cols: int, grid: int) -> Case:
    """Rotary position embedding, rotating halves: with ``x1, x2 = x[:, :cols/2],
    x[:, cols/2:]`` and per row the angles' ``cos`` and ``sin`` (``rows x cols/2``),
    ``out[:, :cols/2] = x1 * cos - x2 * sin`` and ``out[:, cols/2:] = x2 * cos + x1 * sin``,
    one row per step (each product and sum rounded to f16)."""
    half = cols // 2
    shape, angles, row = (rows, cols), (rows, half), (1, half)
    arguments = _arrays("f16", x=shape, cos=angles, sin=angles, out=shape)
    full = f"tensor<1x{half}xf16>"
    body = (
        f"      %half = arith.constant {half} : index\n"
        + _load("x1", "x", shape, ["%r", "%c0"], row, "f16")
        + _load("x2", "x", shape, ["%r", "%half"], row, "f16")
        + _load("c", "cos", angles, ["%r", "%c0"], row, "f16")
        + _load("s", "sin", angles, ["%r", "%c0"], row, "f16")
        + f"      %x1c = arith.mulf %x1, %c : {full}\n"
        f"      %x2s = arith.mulf %x2, %s : {full}\n"
        f"      %low = arith.subf %x1c, %x2s : {full}\n"
        f"      %x2c = arith.mulf %x2, %c : {full}\n"
        f"      %x1s = arith.mulf %x1, %s : {full}\n"
        f"      %high = arith.addf %x2c, %x1s : {full}\n"
        + _store("low", "out", shape, ["%r", "%c0"], row, "f16")
        + _store("high", "out", shape, ["%r", "%half"], row, "f16")
    )
    views = (_view("x", shape, "f16") + _view("cos", angles, "f16") + _view("sin", angles, "f16")
             + _view("out", shape, "f16"))
    return _case("rotary", arguments, "out", {"rows": rows, "cols": cols, "grid": grid},
                 _kernel("rotary", arguments, grid, rows, 1, views, body))


CORPUS = Path(os.environ.get("KTC_SHARED", Path(__file__).resolve().parent.parent.parent / "shared")
              ) / "ktir-corpus" / "ktir-cpu"
"""The KTIR corpus beside the project (read in place; $KTC_SHARED names the folder
holding it when the checkout lives elsewhere, as for the tests)."""
LAYERNORM_FWD = "triton-ktir/layernorm_fwd_ktir.mlir"


LAYERNORM_FWD_SHAPE = (1151, 8192)
"""The sizes of its memory views (constants of the kernel)."""


def layernorm_fwd(cols: int, block: int) -> Case:
    """The corpus's Triton layer norm (``triton-ktir/layernorm_fwd_ktir.mlir``, read in
    place), as its caller runs it: the first ``cols`` columns (``N``) of its 1151 x 8192
    arrays walked in blocks of ``block``, ``Y = (X - mean) / sqrt(var + eps) * W + B`` per
    row, the row's mean and 1/std stored too (``W`` and ``B`` are full arrays)."""
    path = CORPUS / LAYERNORM_FWD
    if not path.is_file():
        raise KtcError(f"the KTIR corpus kernel {LAYERNORM_FWD} is not at {path}")
    shape, rows = LAYERNORM_FWD_SHAPE, LAYERNORM_FWD_SHAPE[0]
    arguments = (*_arrays("f16", X=shape, Y=shape, W=shape, B=shape, Mean=(rows,), Rstd=(rows,)),
                 Argument("N", "index", value=cols), Argument("eps", "f16", value=1e-5),
                 Argument("BLOCK_SIZE", "index", value=block))
    return _case("layernorm_fwd", arguments, "Y", {"rows": rows, "cols": cols, "block": block},
                 path.read_text())


def paged_gather(pages: int, blocks: int, sequences: int, heads: int, page: int,
                 features: int) -> Case:
    """A paged KV cache read into contiguous tiles: ``k[s, h, t, d] = cache[table[s, t //
    page], h, t % page, d]`` for ``sequences`` sequences of ``blocks / sequences``
    pages each (``blocks`` in all), one tile per sequence and head; the block table's
    page ids are distinct and out of order."""
    per_sequence = blocks // sequences
    tokens = per_sequence * page
    cache, table, keys = (pages, heads, page, features), (sequences, per_sequence), (sequences, heads, tokens, features)
    arguments = (Argument("cache", "f16", cache), Argument("table", "i32", table, bound=pages),
                 Argument("k", "f16", keys))
    tile = (1, 1, tokens, features)
    text = f"""module {{
  func.func @paged_gather(%cache: index, %table: index, %k: index) attributes {{grid = [{sequences * heads}]}} {{
    %c0 = arith.constant 0 : index
    %heads = arith.constant {heads} : index
    %tile = ktdp.get_compute_tile_id : index
    %s = arith.divui %tile, %heads : index
    %h = arith.remui %tile, %heads : index
{_view("cache", cache, "f16")}{_view("table", table, "i32")}{_view("k", keys, "f16")}    %gathered = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j, %t, %d)
        %cache_view[ind(%table_view[%s + %i, %t floordiv {page}]), (%h + %j), (%t mod {page}), (%d)] {{
      variables_space_set = {_box(tile)}, variables_space_order = {_identity(4)}
    }} : memref<{_dims(cache)}xf16>, memref<{_dims(table)}xi32> -> !ktdp.access_tile<{_dims(tile)}xindex>
{_tile("out", "k", keys, ["%s", "%h", "%c0", "%c0"], tile, "f16")}    %v = ktdp.load %gathered : !ktdp.access_tile<{_dims(tile)}xindex> -> tensor<{_dims(tile)}xf16>
    ktdp.store %v, %out_tile : tensor<{_dims(tile)}xf16>, !ktdp.access_tile<{_dims(tile)}xindex>
    return
  }}
}}
"""
    params = {"pages": pages, "blocks": blocks, "sequences": sequences, "heads": heads,
              "page": page, "features": features}
    return _case("paged_gather", arguments, "k", params, text)
def matmul(m: int, n: int, k: int, grid_m: int, grid_n: int, block_k: int) -> Case:
    """``c = a @ b`` in f16 (accumulated on chip, rounded once), as the corpus's
    matmul_fwd writes it: a grid ``[grid_n, grid_m]`` of output blocks of
    ``m / grid_m x n / grid_n``, each tile's loop over k in steps of ``block_k``
    accumulating its block's products in an ``iter_args``."""
    bm, bn = m // grid_m, n // grid_n
    arguments = _arrays("f16", a=(m, k), b=(k, n), c=(m, n))
    views = _view("a", (m, k), "f16") + _view("b", (k, n), "f16") + _view("c", (m, n), "f16")
    body = (
        f"    %block_m = arith.constant {bm} : index\n"
        f"    %block_n = arith.constant {bn} : index\n"
        f"    %block_k = arith.constant {block_k} : index\n"
        f"    %depth = arith.constant {k} : index\n"
        "    %row = arith.muli %tile_m, %block_m : index\n"
        "    %col = arith.muli %tile_n, %block_n : index\n"
        f"    %zeros = arith.constant dense<0.0> : tensor<{bm}x{bn}xf16>\n"
        "    %product = scf.for %kk = %c0 to %depth step %block_k "
        f"iter_args(%acc = %zeros) -> (tensor<{bm}x{bn}xf16>) {{\n"
        + _load("x", "a", (m, k), ["%row", "%kk"], (bm, block_k), "f16")
        + _load("y", "b", (k, n), ["%kk", "%col"], (block_k, bn), "f16")
        + f"      %empty = tensor.empty() : tensor<{bm}x{bn}xf16>\n"
        f"      %dot = linalg.matmul ins(%x, %y : tensor<{bm}x{block_k}xf16>, "
        f"tensor<{block_k}x{bn}xf16>) outs(%empty : tensor<{bm}x{bn}xf16>) -> tensor<{bm}x{bn}xf16>\n"
        f"      %next = arith.addf %acc, %dot : tensor<{bm}x{bn}xf16>\n"
        f"      scf.yield %next : tensor<{bm}x{bn}xf16>\n"
        "    }\n"
        + _store("product", "c", (m, n), ["%row", "%col"], (bm, bn), "f16")
    )
    text = (
        "module {\n"
        "  func.func @matmul(%a: index, %b: index, %c: index) attributes "
        f"{{grid = [{grid_n}, {grid_m}]}} {{\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %tile_n, %tile_m = ktdp.get_compute_tile_id : index, index\n"
        + views + body + "    return\n  }\n}\n"
    )
    params = {"m": m, "n": n, "k": k, "grid_m": grid_m, "grid_n": grid_n, "block_k": block_k}
    return _case("matmul", arguments, "c", params, text)


def _matmul_op(result: str, lhs: str, rhs: str, init: str, m: int, k: int, n: int) -> str:
    return (f"    %{result} = linalg.matmul ins(%{lhs}, %{rhs} : tensor<{m}x{k}xf16>, "
            f"tensor<{k}x{n}xf16>) outs(%{init} : tensor<{m}x{n}xf16>) -> tensor<{m}x{n}xf16>\n")


def _zeros(name: str, shape: tuple[int, int]) -> str:
    return (f"    %{name}_empty = tensor.empty() : tensor<{_dims(shape)}xf16>\n"
            f"    %{name} = linalg.fill ins(%zero : f16) outs(%{name}_empty : "
            f"tensor<{_dims(shape)}xf16>) -> tensor<{_dims(shape)}xf16>\n")


def _whole_tile_kernel(name: str, arguments: tuple[Argument, ...], grid: int, rows: int,
                       views: str, body: str) -> str:
    """A kernel whose tile ``t`` takes rows ``t * rows ..`` (``%first_row``) once."""
    params = ", ".join(f"%{a.name}: index" for a in arguments)
    return (
        "module {\n"
        f"  func.func @{name}({params}) attributes {{grid = [{grid}]}} {{\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %tile = ktdp.get_compute_tile_id : index\n"
        f"    %rows_per_tile = arith.constant {rows} : index\n"
        "    %first_row = arith.muli %tile, %rows_per_tile : index\n"
        "    %zero = arith.constant 0.0 : f16\n"
        + views + body + "    return\n  }\n}\n"
    )


def swiglu_mlp(tokens: int, hidden: int, intermediate: int, grid: int, split: int = 1) -> Case:
    """A SwiGLU MLP block, ``out = (silu(x @ wg) * (x @ wu)) @ wd``, as
    ``examples/swiglu_mlp.mlir`` writes it: each tile takes ``tokens / grid`` rows of x
    (loaded once per product, as the example says why), multiplies them by the three
    weights whole, silu and the gating product one ``linalg.generic`` between the
    products. With ``split`` > 1 the grid is ``[split, grid]`` and tile (s, t) takes
    slice s of the intermediate dimension (``intermediate / split`` columns of wg and wu,
    rows of wd): its down product is an f32 partial over that slice, which a
    ``ktdp.inter_tile_reduce`` adds over the ``split`` tiles of the token block into its
    tile s = 0, which rounds it to f16 and stores it."""
    rows, width = tokens // grid, intermediate // split
    arguments = _arrays("f16", x=(tokens, hidden), wg=(hidden, intermediate),
                        wu=(hidden, intermediate), wd=(intermediate, hidden), out=(tokens, hidden))
    views = "".join(_view(a.name, a.shape, "f16") for a in arguments)
    wide = (rows, width)
    column = "%c0" if split == 1 else "%first_column"
    body = (
        _load("gate_tokens", "x", (tokens, hidden), ["%first_row", "%c0"], (rows, hidden), "f16")
        + _load("up_tokens", "x", (tokens, hidden), ["%first_row", "%c0"], (rows, hidden), "f16")
        + _load("gate_weights", "wg", (hidden, intermediate), ["%c0", column], (hidden, width), "f16")
        + _load("up_weights", "wu", (hidden, intermediate), ["%c0", column], (hidden, width), "f16")
        + _load("down_weights", "wd", (intermediate, hidden), [column, "%c0"], (width, hidden), "f16")
        + _zeros("wide_zeros", wide)
        + _matmul_op("gate", "gate_tokens", "gate_weights", "wide_zeros", rows, hidden, width)
        + _matmul_op("up", "up_tokens", "up_weights", "wide_zeros", rows, hidden, width)
        + f"    %hidden = linalg.generic {{indexing_maps = [{_identity(2)}, {_identity(2)}, "
        f"{_identity(2)}], iterator_types = [\"parallel\", \"parallel\"]}} ins(%gate, %up : "
        f"tensor<{_dims(wide)}xf16>, tensor<{_dims(wide)}xf16>) outs(%wide_zeros_empty : "
        f"tensor<{_dims(wide)}xf16>) {{\n"
        + _silu_gate("    ", "%gated")
        + f"    }} -> tensor<{_dims(wide)}xf16>\n"
    )
    params = {"tokens": tokens, "hidden": hidden, "intermediate": intermediate, "grid": grid}
    if split == 1:
        body += (_zeros("out_zeros", (rows, hidden))
                 + _matmul_op("result", "hidden", "down_weights", "out_zeros", rows, width, hidden)
                 + _store("result", "out", (tokens, hidden), ["%first_row", "%c0"], (rows, hidden), "f16"))
        return _case("swiglu_mlp", arguments, "out", params,
                     _whole_tile_kernel("swiglu_mlp", arguments, grid, rows, views, body))
    body += _summed_down_product(tokens, hidden, rows, width, grid, split)
    return _case("swiglu_mlp", arguments, "out", params | {"split": split},
                 _split_tile_kernel("swiglu_mlp", arguments, (split, grid), rows, width, views, body))


def _summed_down_product(tokens: int, hidden: int, rows: int, width: int, grid: int,
                         split: int) -> str:
    """``%hidden @ %down_weights`` as an f32 partial, added over the ``split`` tiles of
    each group (a block of tokens) into its first tile, which rounds and stores it."""
    partial = f"tensor<{rows}x{hidden}xf32>"
    groups = f"affine_set<(g) : (g >= 0, -g + {grid - 1} >= 0)>"
    return (
        f"    %partial_zero = arith.constant 0.0 : f32\n"
        f"    %partial_empty = tensor.empty() : {partial}\n"
        f"    %partial_zeros = linalg.fill ins(%partial_zero : f32) outs(%partial_empty : {partial}) -> {partial}\n"
        f"    %partial = linalg.matmul ins(%hidden, %down_weights : tensor<{rows}x{width}xf16>, "
        f"tensor<{width}x{hidden}xf16>) outs(%partial_zeros : {partial}) -> {partial}\n"
        f"    %future = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(t)[g] : "
        f"(t - {split} * g >= 0, {split} * g + {split - 1} - t >= 0)> -> <({partial}), groups = {groups}> {{\n"
        f"    ^bb0(%group: index):\n      ktdp.yield_partial %partial : {partial}\n    }}\n"
        f"    %sum = ktdp.inter_tile_reduce(%future) consumer_tiles_per_group = affine_set<(t)[g] : "
        f"(t - {split} * g == 0)>, identity() : <({partial}), groups = {groups}> -> {partial} {{\n"
        f"    ^bb0(%lhs: {partial}, %rhs: {partial}):\n"
        f"      %both = arith.addf %lhs, %rhs : {partial}\n      ktdp.yield_reduced %both : {partial}\n    }}\n"
        f"    %first = arith.cmpi eq, %part, %c0 : index\n    scf.if %first {{\n"
        f"      %result = arith.truncf %sum : {partial} to tensor<{rows}x{hidden}xf16>\n"
        + _store("result", "out", (tokens, hidden), ["%first_row", "%c0"], (rows, hidden), "f16")
        + "    }\n"
    )


def _split_tile_kernel(name: str, arguments: tuple[Argument, ...], grid: tuple[int, int],
                       rows: int, width: int, views: str, body: str) -> str:
    """A kernel over the grid ``[parts, tiles]`` whose tile (p, t) takes rows
    ``t * rows ..`` (``%first_row``) and columns ``p * width ..`` (``%first_column``)."""
    params = ", ".join(f"%{a.name}: index" for a in arguments)
    return (
        "module {\n"
        f"  func.func @{name}({params}) attributes {{grid = [{grid[0]}, {grid[1]}]}} {{\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %part, %tile = ktdp.get_compute_tile_id : index, index\n"
        f"    %rows_per_tile = arith.constant {rows} : index\n"
        f"    %columns_per_part = arith.constant {width} : index\n"
        "    %first_row = arith.muli %tile, %rows_per_tile : index\n"
        "    %first_column = arith.muli %part, %columns_per_part : index\n"
        "    %zero = arith.constant 0.0 : f16\n"
        + views + body + "    return\n  }\n}\n"
    )


def attention(sequence: int, head: int, grid: int) -> Case:
    """Single-head attention, ``out = softmax(q @ k.T / sqrt(head)) @ v``, as
    ``examples/attention.mlir`` writes it: each tile takes ``sequence / grid`` queries
    and all of K (through a ``linalg.transpose``) and V, the softmax on chip between the
    products."""
    rows = sequence // grid
    arguments = _arrays("f16", q=(sequence, head), k=(sequence, head), v=(sequence, head),
                        out=(sequence, head))
    views = "".join(_view(a.name, a.shape, "f16") for a in arguments)
    whole, scores, row = (sequence, head), (rows, sequence), f"tensor<{rows}xf16>"
    scores_type = f"tensor<{_dims(scores)}xf16>"

    def row_reduce(name: str, combiner: str, source: str, init: str) -> str:
        return (f"    %{name} = linalg.reduce {{ {combiner} }} ins(%{source} : {scores_type}) "
                f"outs(%{init} : {row}) dimensions = [1]\n"
                f"    %{name}_rows = linalg.broadcast ins(%{name} : {row}) outs(%scores_zeros_empty : "
                f"{scores_type}) dimensions = [1]\n")

    body = (
        _load("queries", "q", whole, ["%first_row", "%c0"], (rows, head), "f16")
        + _load("keys", "k", whole, ["%c0", "%c0"], whole, "f16")
        + _load("values", "v", whole, ["%c0", "%c0"], whole, "f16")
        + f"    %lowest = arith.constant 0xFC00 : f16\n"
        f"    %scale = arith.constant {1 / math.sqrt(head)!r} : f16\n"
        f"    %keys_t_empty = tensor.empty() : tensor<{head}x{sequence}xf16>\n"
        f"    %keys_t = linalg.transpose ins(%keys : tensor<{_dims(whole)}xf16>) outs(%keys_t_empty : "
        f"tensor<{head}x{sequence}xf16>) permutation = [1, 0]\n"
        + _zeros("scores_zeros", scores)
        + _matmul_op("scores", "queries", "keys_t", "scores_zeros", rows, head, sequence)
        + f"    %scales = tensor.splat %scale : {scores_type}\n"
        f"    %scaled = arith.mulf %scores, %scales : {scores_type}\n"
        f"    %row_empty = tensor.empty() : {row}\n"
        f"    %row_lowest = linalg.fill ins(%lowest : f16) outs(%row_empty : {row}) -> {row}\n"
        + row_reduce("row_max", "arith.maximumf", "scaled", "row_lowest")
        + f"    %shifted = arith.subf %scaled, %row_max_rows : {scores_type}\n"
        f"    %exp = math.exp %shifted : {scores_type}\n"
        f"    %row_zeros = linalg.fill ins(%zero : f16) outs(%row_empty : {row}) -> {row}\n"
        + row_reduce("row_sum", "arith.addf", "exp", "row_zeros")
        + f"    %probabilities = arith.divf %exp, %row_sum_rows : {scores_type}\n"
        + _zeros("out_zeros", (rows, head))
        + _matmul_op("result", "probabilities", "values", "out_zeros", rows, sequence, head)
        + _store("result", "out", whole, ["%first_row", "%c0"], (rows, head), "f16")
    )
    params = {"sequence": sequence, "head": head, "grid": grid}
    return _case("attention", arguments, "out", params,
                 _whole_tile_kernel("attention", arguments, grid, rows, views, body))


def _case(kernel: str, arguments: tuple[Argument, ...], output: str, params: dict[str, int],
          text: str) -> Case:
    return Case(kernel, params, text, arguments, output)


def distributed_copy(rows: int, cols: int, grid: int, parts: int, block: int) -> Case:
    """``b = np.concatenate([a0, a1, ...])``: A's rows split over ``parts`` arrays of
    ``rows / parts`` rows, read through one ``ktdp.construct_distributed_memory_view``;
    each tile copies its rows into B, ``block`` rows a step (each tile's rows in one
    partition)."""
    part_rows = rows // parts
    if part_rows * parts != rows or part_rows % (rows // grid):
        raise ValueError(f"{rows} rows split over {parts} arrays and {grid} tiles do not nest")
    shape, part, tile = (rows, cols), (part_rows, cols), (block, cols)
    names = [f"a{k}" for k in range(parts)]
    arguments = (*_arrays("f16", **{n: part for n in names}), *_arrays("f16", b=shape))
    views = "".join(_view(name, part, "f16", k * part_rows) for k, name in enumerate(names))
    memrefs = ", ".join(f"memref<{_dims(part)}xf16>" for _ in names)
    views += (f"    %a_view = ktdp.construct_distributed_memory_view("
              f"{', '.join(f'%{n}_view' for n in names)} : {memrefs}) : memref<{_dims(shape)}xf16>\n"
              + _view("b", shape, "f16"))
    body = (_load("x", "a", shape, ["%r", "%c0"], tile, "f16")
            + _tile("y", "b", shape, ["%r", "%c0"], tile, "f16")
            + f"      ktdp.store %x, %y_tile : tensor<{_dims(tile)}xf16>, "
            f"!ktdp.access_tile<{_dims(tile)}xindex>\n")
    params = {"rows": rows, "cols": cols, "grid": grid, "parts": parts, "block": block}
    return _case("distributed_copy", arguments, "b", params,
                 _kernel("distributed_copy", arguments, grid, rows, block, views, body))


GENERATORS: dict[str, Callable[..., Case]] = {
    "add": add,
    "broadcast_add": broadcast_add,
    "silu_mul": silu_mul,
    "softmax": softmax,
    "layernorm": layernorm,
    "rmsnorm": rmsnorm,
    "row_sum": row_sum,
    "rotary": rotary,
    "layernorm_fwd": layernorm_fwd,
    "paged_gather": paged_gather,
    "matmul": matmul,
    "swiglu_mlp": swiglu_mlp,
    "attention": attention,
    "distributed_copy": distributed_copy,
}

SIZES: dict[str, dict[str, dict[str, int]]] = {
    "add": {"small": {"rows": 256, "cols": 128, "grid": 32, "ops": 1},
            "large": {"rows": 4096, "cols": 1024, "grid": 32, "ops": 1}},  # 2^22 elements
    "broadcast_add": {"small": {"rows": 64, "cols": 128, "grid": 8, "block": 8},
                      "large": {"rows": 4096, "cols": 1024, "grid": 32, "block": 8}},
    "silu_mul": {"small": {"rows": 32, "cols": 256, "grid": 32},
                 "large": {"rows": 32, "cols": 4096, "grid": 32}},
    "softmax": {"small": {"rows": 64, "cols": 256, "grid": 8},
                "large": {"rows": 4096, "cols": 1024, "grid": 32}},
    "layernorm": {"small": {"rows": 64, "cols": 256, "grid": 16},
                  "large": {"rows": 1151, "cols": 8192, "grid": 32}},
    "rmsnorm": {"small": {"rows": 64, "cols": 256, "grid": 16},
                "large": {"rows": 256, "cols": 4096, "grid": 32}},
    "row_sum": {"small": {"rows": 64, "cols": 256, "grid": 8, "block": 8},
                "large": {"rows": 1024, "cols": 2048, "grid": 32, "block": 8}},
    "rotary": {"small": {"rows": 256, "cols": 128, "grid": 32},
               "large": {"rows": 163840, "cols": 128, "grid": 32}},
    "layernorm_fwd": {"small": {"cols": 1024, "block": 1024},
                      "large": {"cols": 8192, "block": 1024}},
    "paged_gather": {"small": {"pages": 64, "blocks": 8, "sequences": 2, "heads": 4,
                               "page": 16, "features": 32},
                     "large": {"pages": 256, "blocks": 64, "sequences": 4, "heads": 8,
                               "page": 16, "features": 128}},
    "matmul": {"small": {"m": 64, "n": 64, "k": 128, "grid_m": 2, "grid_n": 1, "block_k": 128},
               "medium": {"m": 1024, "n": 1024, "k": 1024, "grid_m": 4, "grid_n": 8,
                          "block_k": 128},
               "large": {"m": 2048, "n": 2048, "k": 2048, "grid_m": 4, "grid_n": 8,
                         "block_k": 128}},
    "swiglu_mlp": {"small": {"tokens": 64, "hidden": 32, "intermediate": 64, "grid": 2},
                   "large": {"tokens": 256, "hidden": 1024, "intermediate": 2752, "grid": 32}},
    "attention": {"small": {"sequence": 64, "head": 64, "grid": 2},
                  "large": {"sequence": 1024, "head": 128, "grid": 32}},
    "distributed_copy": {"small": {"rows": 256, "cols": 128, "grid": 32, "parts": 4, "block": 8},
                         "large": {"rows": 2048, "cols": 1024, "grid": 32, "parts": 32,
                                   "block": 8}},
}
"""Shapes and grids per kernel: the small one is the example's, the large one the
issue's (row_sum, which it leaves open: 1024x2048, anchors-broader §4.3's example;
rotary at a real model's size, 163,840 positions of 128 channels; the corpus's
layernorm_fwd at the 8192 columns it was written for; paged_gather, issue 17's
64-block KV cache: 4 sequences of 16 pages of 16 tokens, 8 heads of 128 features; matmul
the example's 64 x 128 by 128 x 64 and issue 16's 2048 x 2048 x 2048 over 4 x 8 output
blocks, and a medium 1024 x 1024 x 1024 over the same grid (seconds to simulate, where
the large one takes a minute: the size schedules are tuned on; only matmul has one); swiglu_mlp and attention the examples' and, large, issue 16's attention over
1024 positions of head dimension 128 and its MLP block's 256 tokens, at hidden 1024 and
intermediate 2752, a quarter of 4096 and 11008 each (every tile reads the three
weights whole: 17 MB a tile, 4.3 M cycles of device memory for the 32 tiles, simulated
in about a minute; the issue's size, 270 MB a tile, did not finish in 5 minutes), each
over 32 tiles of rows)."""


def case(kernel: str, size: str) -> Case:
    """The benchmark ``kernel`` at ``size`` ("small" or "large"; "medium" for those that
    have one)."""
    return GENERATORS[kernel](**SIZES[kernel][size])
