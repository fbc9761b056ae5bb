"""KTIR text for the front end's matrix products and attention (``Product`` and
``Attention`` of ``ktc.frontend.kernel``).

Every operand lives in device memory as a row-major matrix, the batch folded into its
rows: ``lhs`` is ``(batch m) x k``, ``rhs`` ``(batch k) x n`` (``(batch n) x k`` when
transposed), the result ``(batch m) x n``.

A product is a ``func.func`` over a grid ``[gn, gm, gb]``: tile ``(j, i, b)`` multiplies
rows ``i`` of ``lhs[b]`` (``m / gm`` of them) by columns ``j`` of ``rhs[b]`` (``n / gn``)
over the whole ``k`` with one ``linalg.matmul`` into zeros of the inputs' type (the
compiler accumulates in the device's accumulator type and rounds once); with more
products than tiles, each tile walks ``batch / gb`` of them in an ``scf.for``. A transposed
``rhs`` is loaded as it is stored (``n / gn`` rows of ``k``) and read through a
``linalg.transpose``. The epilogue follows the product in the same kernel: times
``alpha`` (a constant tensor), plus ``beta`` times the bias (``linalg.broadcast`` over
the rows of a per-column bias).

Attention is a ``func.func`` over a grid ``[gq, gh, gb]``: tile ``(q, h, b)`` takes its
block of ``queries / gq`` queries of its heads (walking ``heads / gh`` of them, and
``batch / gb`` batches, in ``scf.for`` loops) and all of each head's keys and values:
the scores ``Q K^T`` (``K`` through a ``linalg.transpose``), scaled, plus the mask, their
softmax along each row (max, exp, sum, divide), and its product with ``V``. A head's
block of an operand stored heads first is rows of the ``(batch heads tokens) x dim``
matrix; of one stored tokens first, the columns ``h dim`` on of the rows ``b tokens``
on of the ``(batch tokens) x (heads dim)`` matrix.

``product_plan`` and ``attention_plan`` choose the grid from the device model: as many
tiles as the device has cores (the batch or heads first, then blocks of rows and
columns no narrower than the matrix unit's rows and lanes), among those the split that
reads the least from device memory.

Every op carries ``loc("<FX node>"("<file>":line:col))``, the product's or attention's
node.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ktc.arch.model import Device
from ktc.frontend.kernel import COL, Array, Attention, Product
from ktc.frontend.ktir import (
    NUMPY,
    Writer,
    access_tile_type,
    box,
    float_literal,
    largest_divisor,
    memref_type,
    tensor_type,
)


@dataclass(frozen=True)
class ProductPlan:
    """Tiles of a product: ``batches`` x ``row_blocks`` x ``col_blocks``."""

    batches: int
    row_blocks: int
    col_blocks: int


@dataclass(frozen=True)
class AttentionPlan:
    """Tiles of an attention: ``batches`` x ``heads`` x ``query_blocks``."""

    batches: int
    heads: int
    query_blocks: int


def _unit(device: Device) -> tuple[int, int]:
    """The rows and lanes below which a block wastes the matrix unit (1, 1 without one)."""
    unit = device.matrix
    return (unit.rows, unit.lanes) if unit is not None else (1, 1)


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def _blocks(extent: int, least: int) -> list[int]:
    """How many blocks ``extent`` may be cut into: no block below ``least``."""
    return [d for d in _divisors(extent) if d == 1 or extent // d >= least]


def product_plan(product: Product, device: Device) -> ProductPlan:
    """The grid of ``product`` on ``device`` (see the module docstring)."""
    batches = largest_divisor(product.batch, device.cores)
    free = device.cores // batches
    rows, lanes = _unit(device)
    m, n, k = product.m, product.n, product.k
    splits = [(gm, gn) for gm in _blocks(m, rows) for gn in _blocks(n, lanes) if gm * gn <= free]
    gm, gn = max(splits, key=lambda s: (s[0] * s[1], -(s[1] * m * k + s[0] * n * k)))
    return ProductPlan(batches, gm, gn)


def attention_plan(attention: Attention, device: Device) -> AttentionPlan:
    """The grid of ``attention`` on ``device`` (see the module docstring)."""
    heads = largest_divisor(attention.heads, device.cores)
    batches = largest_divisor(attention.batch, device.cores // heads)
    rows, _ = _unit(device)
    blocks = [g for g in _blocks(attention.queries, rows) if batches * heads * g <= device.cores]
    return AttentionPlan(batches, heads, max(blocks))


def emit_product(product: Product, device: Device, filename: str) -> str:
    """The KTIR text of ``product`` for ``device``, written as file ``filename``."""
    return _ProductWriter(product, product_plan(product, device), filename).text()


def emit_attention(attention: Attention, device: Device, filename: str) -> str:
    """The KTIR text of ``attention`` for ``device``, written as file ``filename``."""
    return _AttentionWriter(attention, attention_plan(attention, device), filename).text()


def product_shape(product: Product, array: Array) -> tuple[int, ...]:
    """The shape of an argument of ``product`` in device memory."""
    b, m, n, k = product.batch, product.m, product.n, product.k
    if array == product.lhs:
        return b * m, k
    if array == product.rhs:
        return (b * n, k) if product.transposed else (b * k, n)
    if array == product.bias:
        return (n,) if array.layout == COL else (m, n)
    return b * m, n


def attention_shape(attention: Attention, array: Array) -> tuple[int, ...]:
    """The shape of an argument of ``attention`` in device memory."""
    a = attention
    if array == a.mask:
        return a.queries, a.keys
    tokens, width = _extents(a, array)
    if array.name in a.tokens_first:
        return a.batch * tokens, a.heads * width
    return a.batch * a.heads * tokens, width


def _extents(attention: Attention, array: Array) -> tuple[int, int]:
    """The tokens and the width of one head of a ``q``, ``k``, ``v`` or output array."""
    a = attention
    return {a.q.name: (a.queries, a.dim), a.k.name: (a.keys, a.dim),
            a.v.name: (a.keys, a.value_dim), a.output.name: (a.queries, a.value_dim)}[array.name]


class _Writer(Writer):
    """What the product and attention writers share: arguments, views, tiles, loads,
    products and constants, every op located at one FX node."""

    def __init__(self, name: str, node: str, arrays: tuple[Array, ...], filename: str):
        super().__init__(filename)
        self.name, self.node, self.arrays = name, node, arrays
        self.loops = 0

    def emit(self, text: str) -> None:
        self.op(text, self.node)

    def function(self, grid: tuple[int, ...], ids: tuple[str, ...]) -> None:
        args = ", ".join(f"%{a.name}: index" for a in self.arrays)
        self.line(f"func.func @{self.name}({args}) attributes {{grid = {list(grid)}}} {{")
        self.indent += 2
        self.emit("%t.c0 = arith.constant 0 : index")
        self.emit("%t.c1 = arith.constant 1 : index")
        self.emit(f"{', '.join(ids)} = ktdp.get_compute_tile_id : "
                  f"{', '.join('index' for _ in ids)}")

    def walk(self, name: str, tile: str, count: int) -> str:
        """The index of the tile's ``count`` consecutive ones (``tile * count`` on) it is
        at: ``tile`` itself for one, else ``%t.<name>`` in an ``scf.for`` over them."""
        if count == 1:
            return tile
        base = self.times(f"{name}.base", tile, count)
        self.emit(f"%t.{name}.count = arith.constant {count} : index")
        self.line(f"scf.for %t.{name}.step = %t.c0 to %t.{name}.count step %t.c1 {{")
        self.indent += 2
        self.loops += 1
        return self.plus(name, base, f"%t.{name}.step")

    def end(self) -> str:
        for _ in range(self.loops):
            self.indent -= 2
            self.line("}")
        self.emit("return")
        self.indent -= 2
        self.line("}")
        self.indent -= 2
        self.line("}")
        return "\n".join(self.lines) + "\n"

    def times(self, result: str, value: str, factor: int) -> str:
        """``%t.<result> = value * factor`` in index arithmetic."""
        self.emit(f"%t.{result}.n = arith.constant {factor} : index")
        self.emit(f"%t.{result} = arith.muli {value}, %t.{result}.n : index")
        return f"%t.{result}"

    def plus(self, result: str, a: str, b: str) -> str:
        self.emit(f"%t.{result} = arith.addi {a}, {b} : index")
        return f"%t.{result}"

    def view(self, array: Array, sizes: tuple[int, ...]) -> None:
        strides = [math.prod(sizes[i + 1:]) for i in range(len(sizes))]
        self.emit(f"%{array.name}.view = ktdp.construct_memory_view %{array.name}, sizes: "
                  f"{list(sizes)}, strides: {strides} {{coordinate_set = {box(sizes)}, "
                  f"memory_space = #ktdp.memory_space<global>}} : "
                  f"{memref_type(sizes, array.dtype)}")

    def load(self, array: Array, sizes: tuple[int, ...], at: tuple[str, ...],
             shape: tuple[int, ...]) -> str:
        """``array``'s tile of ``shape`` at ``at`` loaded as a tensor."""
        self.tile(array, sizes, at, shape)
        self.emit(f"%{array.name}.in = ktdp.load %{array.name}.tile : {access_tile_type(shape)} "
                  f"-> {tensor_type(shape, array.dtype)}")
        return f"%{array.name}.in"

    def store(self, value: str, array: Array, sizes: tuple[int, ...], at: tuple[str, ...],
              shape: tuple[int, ...]) -> None:
        self.tile(array, sizes, at, shape)
        self.emit(f"ktdp.store {value}, %{array.name}.tile : {tensor_type(shape, array.dtype)}, "
                  f"{access_tile_type(shape)}")

    def tile(self, array: Array, sizes: tuple[int, ...], at: tuple[str, ...],
             shape: tuple[int, ...]) -> None:
        dims = ", ".join(f"d{i}" for i in range(len(shape)))
        self.emit(f"%{array.name}.tile = ktdp.construct_access_tile %{array.name}.view"
                  f"[{', '.join(at)}] {{access_tile_set = {box(shape)}, access_tile_order = "
                  f"affine_map<({dims}) -> ({dims})>}} : {memref_type(sizes, array.dtype)} -> "
                  f"{access_tile_type(shape)}")

    def transpose(self, result: str, value: str, shape: tuple[int, int], dtype: str) -> str:
        """``value`` (``shape``) transposed."""
        flipped = tensor_type(shape[::-1], dtype)
        self.emit(f"%t.{result}.empty = tensor.empty() : {flipped}")
        self.emit(f"%t.{result} = linalg.transpose ins({value} : {tensor_type(shape, dtype)}) "
                  f"outs(%t.{result}.empty : {flipped}) permutation = [1, 0]")
        return f"%t.{result}"

    def filled(self, result: str, shape: tuple[int, ...], value: float, dtype: str) -> str:
        ty = tensor_type(shape, dtype)
        self.emit(f"%t.{result}.value = arith.constant {float_literal(value, dtype)} : {dtype}")
        self.emit(f"%t.{result}.empty = tensor.empty() : {ty}")
        self.emit(f"%t.{result} = linalg.fill ins(%t.{result}.value : {dtype}) "
                  f"outs(%t.{result}.empty : {ty}) -> {ty}")
        return f"%t.{result}"

    def matmul(self, result: str, a: str, b: str, m: int, n: int, k: int, dtype: str) -> str:
        """``a @ b`` (``m x k`` by ``k x n``) into zeros."""
        zeros = self.filled(f"{result}.zeros", (m, n), 0.0, dtype)
        ty = tensor_type((m, n), dtype)
        self.emit(f"%t.{result} = linalg.matmul ins({a}, {b} : {tensor_type((m, k), dtype)}, "
                  f"{tensor_type((k, n), dtype)}) outs({zeros} : {ty}) -> {ty}")
        return f"%t.{result}"

    def binary(self, result: str, op: str, a: str, b: str, ty: str) -> str:
        self.emit(f"%t.{result} = {op} {a}, {b} : {ty}")
        return f"%t.{result}"

    def constant(self, result: str, value: float, shape: tuple[int, ...], dtype: str) -> str:
        self.emit(f"%t.{result} = arith.constant dense<{float_literal(value, dtype)}> : "
                  f"{tensor_type(shape, dtype)}")
        return f"%t.{result}"

    def broadcast(self, result: str, value: str, source: tuple[int, ...],
                  shape: tuple[int, ...], dimension: int, dtype: str) -> str:
        """``value`` (``source``) repeated along ``dimension`` of ``shape``."""
        ty = tensor_type(shape, dtype)
        self.emit(f"%t.{result}.empty = tensor.empty() : {ty}")
        self.emit(f"%t.{result} = linalg.broadcast ins({value} : {tensor_type(source, dtype)}) "
                  f"outs(%t.{result}.empty : {ty}) dimensions = [{dimension}]")
        return f"%t.{result}"

    def reduce(self, result: str, combine: str, identity: float, value: str,
               shape: tuple[int, int], dtype: str) -> str:
        """``value`` (``shape``) reduced along its rows by ``combine``."""
        init = self.filled(f"{result}.init", shape[:1], identity, dtype)
        self.emit(f"%t.{result} = linalg.reduce {{ {combine} }} ins({value} : "
                  f"{tensor_type(shape, dtype)}) outs({init} : {tensor_type(shape[:1], dtype)}) "
                  f"dimensions = [1]")
        return f"%t.{result}"


class _ProductWriter(_Writer):
    def __init__(self, product: Product, shape: ProductPlan, filename: str):
        super().__init__(product.name, product.node, product.arrays, filename)
        self.product, self.plan = product, shape

    def text(self) -> str:
        p, g = self.product, self.plan
        bm, bn, dtype = p.m // g.row_blocks, p.n // g.col_blocks, p.output.dtype
        self.lines += [
            f"// {p.name}: PyTorch FX node {p.node}, {p.batch} product(s) of {p.m} x {p.k} by "
            f"{p.k} x {p.n}" + (" (the second read through its transpose)" if p.transposed
                                else ""),
            f"//   grid [{g.col_blocks}, {g.row_blocks}, {g.batches}]: each tile {bm} x {bn} "
            f"of the result of {p.batch // g.batches} product(s)",
            "module {"]
        self.function((g.col_blocks, g.row_blocks, g.batches), ("%t.j", "%t.i", "%t.tile_b"))
        shapes = {a.name: product_shape(p, a) for a in p.arrays}
        for array in p.arrays:
            self.view(array, shapes[array.name])
        b = self.walk("b", "%t.tile_b", p.batch // g.batches)
        col = self.times("col", "%t.j", bn)
        row = self.plus("row", self.times("batch_row", b, p.m), self.times("block_row", "%t.i", bm))
        lhs = self.load(p.lhs, shapes[p.lhs.name], (row, "%t.c0"), (bm, p.k))
        if p.transposed:
            rhs_row = self.plus("rhs_row", self.times("rhs_batch", b, p.n), col)
            stored = self.load(p.rhs, shapes[p.rhs.name], (rhs_row, "%t.c0"), (bn, p.k))
            rhs = self.transpose("rhs_t", stored, (bn, p.k), dtype)
        else:
            rhs_row = self.times("rhs_row", b, p.k)
            rhs = self.load(p.rhs, shapes[p.rhs.name], (rhs_row, col), (p.k, bn))
        result = self.matmul("product", lhs, rhs, bm, bn, p.k, dtype)
        ty = tensor_type((bm, bn), dtype)
        if p.alpha != 1.0:
            alpha = self.constant("alpha", p.alpha, (bm, bn), dtype)
            result = self.binary("scaled", "arith.mulf", result, alpha, ty)
        if p.bias is not None:
            result = self.binary("biased", "arith.addf", result, self.bias(bm, bn, col), ty)
        self.store(result, p.output, shapes[p.output.name], (row, col), (bm, bn))
        return self.end()

    def bias(self, bm: int, bn: int, col: str) -> str:
        """The bias of the tile's block (times ``beta``) as a ``bm x bn`` tensor."""
        p = self.product
        dtype, sizes = p.bias.dtype, product_shape(p, p.bias)
        if p.bias.layout == COL:
            columns = self.load(p.bias, sizes, (col,), (bn,))
            value = self.broadcast("bias", columns, (bn,), (bm, bn), 0, dtype)
        else:
            value = self.load(p.bias, sizes, (self.times("bias_row", "%t.i", bm), col), (bm, bn))
        if p.beta == 1.0:
            return value
        beta = self.constant("beta", p.beta, (bm, bn), dtype)
        return self.binary("bias_scaled", "arith.mulf", value, beta, tensor_type((bm, bn), dtype))


class _AttentionWriter(_Writer):
    def __init__(self, attention: Attention, shape: AttentionPlan, filename: str):
        super().__init__(attention.name, attention.node, attention.arrays, filename)
        self.attention, self.plan = attention, shape

    def text(self) -> str:
        a, g = self.attention, self.plan
        bq, dtype = a.queries // g.query_blocks, a.output.dtype
        self.lines += [
            f"// {a.name}: PyTorch FX node {a.node}, attention of {a.batch} x {a.heads} "
            f"head(s): {a.queries} queries, {a.keys} keys, {a.dim} -> {a.value_dim}"
            + (", masked" if a.mask else ""),
            f"//   grid [{g.query_blocks}, {g.heads}, {g.batches}]: each tile {bq} queries of "
            f"{a.heads // g.heads * (a.batch // g.batches)} head(s)",
            "module {"]
        self.function((g.query_blocks, g.heads, g.batches), ("%t.q", "%t.tile_h", "%t.tile_b"))
        shapes = {x.name: attention_shape(a, x) for x in a.arrays}
        for array in a.arrays:
            self.view(array, shapes[array.name])
        b = self.walk("b", "%t.tile_b", a.batch // g.batches)
        h = self.walk("h", "%t.tile_h", a.heads // g.heads)
        block_row = self.times("block_row", "%t.q", bq)

        def head(array: Array, first: str) -> tuple[str, str]:
            """Where the head's block of ``array`` starts (its first token ``first``)."""
            tokens, width = _extents(a, array)
            name = array.name
            if array.name in a.tokens_first:
                return (self.plus(f"{name}_row", self.times(f"{name}_batch", b, tokens), first),
                        self.times(f"{name}_col", h, width))
            rows = self.plus(f"{name}_head", self.times(f"{name}_batch", b, a.heads), h)
            return self.plus(f"{name}_row", self.times(f"{name}_rows", rows, tokens), first), \
                "%t.c0"

        q = self.load(a.q, shapes[a.q.name], head(a.q, block_row), (bq, a.dim))
        k = self.load(a.k, shapes[a.k.name], head(a.k, "%t.c0"), (a.keys, a.dim))
        v = self.load(a.v, shapes[a.v.name], head(a.v, "%t.c0"), (a.keys, a.value_dim))
        scores_shape = (bq, a.keys)
        ty = tensor_type(scores_shape, dtype)
        scores = self.matmul("scores", q, self.transpose("k_t", k, (a.keys, a.dim), dtype),
                             bq, a.keys, a.dim, dtype)
        scale = self.constant("scale", a.scale, scores_shape, dtype)
        scores = self.binary("scaled", "arith.mulf", scores, scale, ty)
        if a.mask is not None:
            mask = self.load(a.mask, shapes[a.mask.name], (block_row, "%t.c0"), scores_shape)
            scores = self.binary("masked", "arith.addf", scores, mask, ty)
        largest = self.reduce("max", "arith.maximumf", -math.inf, scores, scores_shape, dtype)
        rows_max = self.broadcast("max_rows", largest, (bq,), scores_shape, 1, dtype)
        shifted = self.binary("shifted", "arith.subf", scores, rows_max, ty)
        self.emit(f"%t.exp = math.exp {shifted} : {ty}")
        total = self.reduce("sum", "arith.addf", 0.0, "%t.exp", scores_shape, dtype)
        probabilities = self.binary(
            "probabilities", "arith.divf", "%t.exp",
            self.broadcast("sum_rows", total, (bq,), scores_shape, 1, dtype), ty)
        result = self.matmul("attended", probabilities, v, bq, a.value_dim, a.keys, dtype)
        self.store(result, a.output, shapes[a.output.name], head(a.output, block_row),
                   (bq, a.value_dim))
        return self.end()


def causal_mask(attention: Attention) -> np.ndarray:
    """The mask of causal attention: 0 where key ``j`` comes at or before query ``i``
    (``j <= i``), -inf after it."""
    later = np.triu(np.ones((attention.queries, attention.keys), bool), 1)
    return np.where(later, -np.inf, 0.0).astype(NUMPY[attention.mask.dtype])
