"""Random KTIR kernels for end-to-end tests: elementwise expression DAGs over one to
three inputs, with row-vector broadcasts and an optional row reduction, which may be
split over tiles.

A :class:`Spec` is plain data (hypothesis draws it with :func:`specs`, or
:func:`split_specs` for a reduction split over tiles); ``ktir(spec)`` writes the kernel
the way a kernel author would (one block of rows per compute tile, ``linalg.broadcast``
for row vectors, a ``linalg.generic`` reduction; split, the columns of a row block are
divided among the tiles of a group, whose partials ``ktdp.inter_tile_reduce``
combines), and
``expected(spec, inputs)`` evaluates the same expression with numpy, rounding after
every operation as the element type does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

BINARY = {"add": "arith.addf", "sub": "arith.subf", "mul": "arith.mulf", "max": "arith.maximumf"}
UNARY = {"neg": "arith.negf", "exp": "math.exp"}
NUMPY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "max": np.maximum,
    "neg": np.negative,
    "exp": np.exp,
}
REDUCTIONS = {"sum": "arith.addf", "max": "arith.maximumf"}
IDENTITY = {
    ("sum", "f16"): "0.0",
    ("sum", "f32"): "0.0",
    ("max", "f16"): "0xFC00",
    ("max", "f32"): "0xFF800000",
}
"""The reduction's start value: 0, or -inf written as its bits."""


@dataclass(frozen=True)
class Node:
    """One operation: ``op`` over earlier values (inputs first, then nodes, by index)."""

    op: str
    operands: tuple[int, ...]


@dataclass(frozen=True)
class Split:
    """A row reduction split over ``tiles`` tiles per row block (a group: linear tiles
    ``tiles * g`` to ``tiles * g + tiles - 1``), each reducing ``cols / tiles`` columns
    to a partial. Reduce-to-one: the group's first tile combines the partials and alone
    stores them. All-reduce: every tile of the group combines them and stores the total
    to its own copy of the output (copy ``j`` at rows ``j * rows`` onwards)."""

    tiles: int
    all_reduce: bool


@dataclass(frozen=True)
class Spec:
    """A kernel: ``grid`` tiles of ``rows_per_tile`` rows each, ``cols`` columns;
    ``inputs[k]`` is True for a full matrix, False for a row vector broadcast over
    the rows; the last node is the result, reduced along rows when ``reduction``; with
    ``split`` (a reduction only) the grid is ``[split.tiles, grid]``."""

    grid: int
    rows_per_tile: int
    cols: int
    element: str
    inputs: tuple[bool, ...]
    nodes: tuple[Node, ...]
    reduction: str | None
    split: Split | None = None

    @property
    def rows(self) -> int:
        return self.grid * self.rows_per_tile

    @property
    def block_cols(self) -> int:
        """The columns of a tile's block."""
        return self.cols // self.split.tiles if self.split else self.cols

    @property
    def copies(self) -> int:
        """How many copies of the reduced rows the output holds."""
        return self.split.tiles if self.split and self.split.all_reduce else 1


@st.composite
def specs(draw, max_nodes: int = 4) -> Spec:
    """A random kernel; at least one input is a full matrix, and the result uses
    every input."""
    inputs, nodes = _expression(draw, max_nodes)
    return Spec(
        grid=draw(st.sampled_from([1, 2, 4])),
        rows_per_tile=draw(st.sampled_from([1, 2, 4])),
        cols=draw(st.sampled_from([16, 32, 64, 128, 256])),
        element=draw(st.sampled_from(["f16", "f32"])),
        inputs=inputs,
        nodes=nodes,
        reduction=draw(st.sampled_from([None, "sum", "max"])),
    )


@st.composite
def wide_specs(draw, chunk_bytes: int, max_nodes: int = 2) -> Spec:
    """A random row reduction of an expression of one full matrix whose rows are 2 or
    4 times ``chunk_bytes`` wide (the share of a scratchpad one reduction's row may
    take), on one row per tile."""
    inputs, nodes = _expression(draw, max_nodes, inputs=1)
    element = draw(st.sampled_from(["f16", "f32"]))
    return Spec(
        grid=draw(st.sampled_from([1, 2])),
        rows_per_tile=1,
        cols=draw(st.sampled_from([2, 4])) * chunk_bytes // np.dtype(_DTYPES[element]).itemsize,
        element=element,
        inputs=inputs,
        nodes=nodes,
        reduction=draw(st.sampled_from(["sum", "max"])),
    )


@st.composite
def split_specs(draw, max_tiles: int, max_nodes: int = 4) -> Spec:
    """A random kernel whose row reduction is split over 2 or 4 tiles, on a grid of
    at most ``max_tiles`` tiles (one wave on a device of that many cores); every
    tile's block is as wide as a block of :func:`specs`."""
    inputs, nodes = _expression(draw, max_nodes)
    tiles = draw(st.sampled_from([s for s in (2, 4) if s <= max_tiles]))
    return Spec(
        grid=draw(st.sampled_from([g for g in (1, 2, 4) if g * tiles <= max_tiles])),
        rows_per_tile=draw(st.sampled_from([1, 2, 4])),
        cols=tiles * draw(st.sampled_from([16, 32, 64, 128, 256])),
        element=draw(st.sampled_from(["f16", "f32"])),
        inputs=inputs,
        nodes=nodes,
        reduction=draw(st.sampled_from(["sum", "max"])),
        split=Split(tiles, draw(st.booleans())),
    )


def _expression(
    draw, max_nodes: int, inputs: int = 3
) -> tuple[tuple[bool, ...], tuple[Node, ...]]:
    """The inputs (1 to ``inputs``, full or row vectors) and nodes of a random kernel."""
    n_inputs = draw(st.integers(1, inputs))
    inputs = (True, *draw(st.lists(st.booleans(), min_size=n_inputs - 1, max_size=n_inputs - 1)))
    nodes: list[Node] = []
    for _ in range(draw(st.integers(1, max_nodes))):
        available = n_inputs + len(nodes)
        op = draw(st.sampled_from(sorted(BINARY) + sorted(UNARY)))
        arity = 1 if op in UNARY else 2
        operands = tuple(draw(st.integers(0, available - 1)) for _ in range(arity))
        nodes.append(Node(op, operands))
    for unused in sorted(set(range(n_inputs)) - _used(n_inputs, nodes)):
        nodes.append(Node("add", (n_inputs + len(nodes) - 1, unused)))
    return inputs, tuple(nodes)


def _used(n_inputs: int, nodes: list[Node]) -> set[int]:
    """The values the last node depends on (an unused input would be a load that
    reaches no store: an illegal kernel)."""
    used, todo = set(), [n_inputs + len(nodes) - 1]
    while todo:
        value = todo.pop()
        used.add(value)
        if value >= n_inputs:
            todo += nodes[value - n_inputs].operands
    return used


def ktir(spec: Spec) -> str:
    """The KTIR text of ``spec``: ``func.func @generated(%in0, ..., %out)``."""
    r, c, t, w, e = spec.rows, spec.cols, spec.rows_per_tile, spec.block_cols, spec.element
    block = f"tensor<{t}x{w}x{e}>"
    args = ", ".join(f"%in{k}: index" for k in range(len(spec.inputs)))
    lines = [
        f"#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + {r - 1} >= 0, d1 >= 0, -d1 + {c - 1} >= 0)>",
        f"#vector = affine_set<(d0) : (d0 >= 0, -d0 + {c - 1} >= 0)>",
        f"#block_vector = affine_set<(d0) : (d0 >= 0, -d0 + {w - 1} >= 0)>",
        f"#rows = affine_set<(d0) : (d0 >= 0, -d0 + {spec.copies * r - 1} >= 0)>",
        f"#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + {t - 1} >= 0, d1 >= 0, -d1 + {w - 1} >= 0)>",
        f"#block_rows = affine_set<(d0) : (d0 >= 0, -d0 + {t - 1} >= 0)>",
        "#id2 = affine_map<(d0, d1) -> (d0, d1)>",
        "#id1 = affine_map<(d0) -> (d0)>",
        "#per_row = affine_map<(d0, d1) -> (d0)>",
        "module {",
        f"  func.func @generated({args}, %out: index) attributes {{grid = [{_grid(spec)}]}} {{",
        "    %c0 = arith.constant 0 : index",
        f"    %rows_per_tile = arith.constant {t} : index",
        *_tile_ids(spec),
        "    %first_row = arith.muli %tile, %rows_per_tile : index",
    ]
    values: list[str] = []
    for k, full in enumerate(spec.inputs):
        lines += _load_input(k, full, spec)
        values.append(f"%x{k}")
    for n, node in enumerate(spec.nodes):
        name = f"%v{n}"
        operands = [values[i] for i in node.operands]
        opname = BINARY.get(node.op) or UNARY[node.op]
        lines.append(f"    {name} = {opname} {', '.join(operands)} : {block}")
        values.append(name)
    result = values[-1]
    if spec.reduction is None:
        lines += _store(result, f"memref<{r}x{c}x{e}>", f"{t}x{c}", "#matrix", "#block", "#id2",
                        f"[{r}, {c}]", f"[{c}, 1]", "[%first_row, %c0]", block)
    else:
        lines += _reduce(result, spec)
    lines += ["    return", "  }", "}"]
    return "\n".join(lines) + "\n"


def _grid(spec: Spec) -> str:
    return f"{spec.split.tiles}, {spec.grid}" if spec.split else f"{spec.grid}"


def _tile_ids(spec: Spec) -> list[str]:
    """``%tile``, the row block; split, also ``%j``, the tile in its group, and
    ``%first_col``, the first column of its block."""
    if spec.split is None:
        return ["    %tile = ktdp.get_compute_tile_id : index"]
    return [
        "    %j, %tile = ktdp.get_compute_tile_id : index, index",
        f"    %cols_per_tile = arith.constant {spec.block_cols} : index",
        "    %first_col = arith.muli %j, %cols_per_tile : index",
    ]


def _load_input(k: int, full: bool, spec: Spec) -> list[str]:
    r, c, t, w, e = spec.rows, spec.cols, spec.rows_per_tile, spec.block_cols, spec.element
    col = "%first_col" if spec.split else "%c0"
    if full:
        return [
            f"    %view{k} = ktdp.construct_memory_view %in{k}, sizes: [{r}, {c}], strides: [{c}, 1] "
            f"{{coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>}} : memref<{r}x{c}x{e}>",
            f"    %tile{k} = ktdp.construct_access_tile %view{k}[%first_row, {col}] "
            f"{{access_tile_set = #block, access_tile_order = #id2}} : memref<{r}x{c}x{e}> -> !ktdp.access_tile<{t}x{w}xindex>",
            f"    %x{k} = ktdp.load %tile{k} : !ktdp.access_tile<{t}x{w}xindex> -> tensor<{t}x{w}x{e}>",
        ]
    return [
        f"    %view{k} = ktdp.construct_memory_view %in{k}, sizes: [{c}], strides: [1] "
        f"{{coordinate_set = #vector, memory_space = #ktdp.memory_space<global>}} : memref<{c}x{e}>",
        f"    %tile{k} = ktdp.construct_access_tile %view{k}[{col}] "
        f"{{access_tile_set = #block_vector, access_tile_order = #id1}} : memref<{c}x{e}> -> !ktdp.access_tile<{w}xindex>",
        f"    %row{k} = ktdp.load %tile{k} : !ktdp.access_tile<{w}xindex> -> tensor<{w}x{e}>",
        f"    %empty{k} = tensor.empty() : tensor<{t}x{w}x{e}>",
        f"    %x{k} = linalg.broadcast ins(%row{k} : tensor<{w}x{e}>) outs(%empty{k} : tensor<{t}x{w}x{e}>) dimensions = [0]",
    ]


def _store(value, memref, tile_shape, view_set, tile_set, order, sizes, strides, at, tensor) -> list[str]:
    return [
        f"    %out_view = ktdp.construct_memory_view %out, sizes: {sizes}, strides: {strides} "
        f"{{coordinate_set = {view_set}, memory_space = #ktdp.memory_space<global>}} : {memref}",
        f"    %out_tile = ktdp.construct_access_tile %out_view{at} "
        f"{{access_tile_set = {tile_set}, access_tile_order = {order}}} : {memref} -> !ktdp.access_tile<{tile_shape}xindex>",
        f"    ktdp.store {value}, %out_tile : {tensor}, !ktdp.access_tile<{tile_shape}xindex>",
    ]


def _reduce(value: str, spec: Spec) -> list[str]:
    """``%reduced``, the row reduction of the tile's block, and its store; split, the
    partials are combined into ``%total`` first (:func:`_combine`), which the group's
    first tile stores (reduce-to-one), or every tile to its copy (all-reduce)."""
    r, w, t, e = spec.rows, spec.block_cols, spec.rows_per_tile, spec.element
    combine, identity = REDUCTIONS[spec.reduction], IDENTITY[spec.reduction, e]
    lines = [
        f"    %identity = arith.constant {identity} : {e}",
        f"    %acc_empty = tensor.empty() : tensor<{t}x{e}>",
        f"    %acc = linalg.fill ins(%identity : {e}) outs(%acc_empty : tensor<{t}x{e}>) -> tensor<{t}x{e}>",
        "    %reduced = linalg.generic {indexing_maps = [#id2, #per_row], "
        'iterator_types = ["parallel", "reduction"]}'
        f" ins({value} : tensor<{t}x{w}x{e}>) outs(%acc : tensor<{t}x{e}>) {{",
        f"    ^bb0(%in: {e}, %a: {e}):",
        f"      %next = {combine} %in, %a : {e}",
        f"      linalg.yield %next : {e}",
        f"    }} -> tensor<{t}x{e}>",
    ]
    n = spec.copies * r

    def store(value: str, at: str) -> list[str]:
        return _store(value, f"memref<{n}x{e}>", f"{t}", "#rows", "#block_rows", "#id1",
                      f"[{n}]", "[1]", f"[{at}]", f"tensor<{t}x{e}>")

    if spec.split is None:
        return lines + store("%reduced", "%first_row")
    lines += _combine(spec, combine)
    if spec.split.all_reduce:
        return lines + [
            f"    %rows = arith.constant {r} : index",
            "    %copy = arith.muli %j, %rows : index",
            "    %first_out = arith.addi %copy, %first_row : index",
        ] + store("%total", "%first_out")
    *make_tile, store_total = store("%total", "%first_row")
    return lines + make_tile + [
        "    %stores = arith.cmpi eq, %j, %c0 : index",
        "    scf.if %stores {",
        f"  {store_total}",
        "    }",
    ]


def _combine(spec: Spec, combine: str) -> list[str]:
    """``%total``: the partials ``%reduced`` of the tiles of a group combined by
    ``ktdp.inter_tile_reduce`` on the group's first tile (reduce-to-one) or on all of
    them (all-reduce)."""
    s, partial = spec.split.tiles, f"tensor<{spec.rows_per_tile}x{spec.element}>"
    group = f"affine_set<(t)[g] : (t - {s} * g >= 0, {s} * g + {s - 1} - t >= 0)>"
    consumers = group if spec.split.all_reduce else f"affine_set<(t)[g] : (t - {s} * g == 0)>"
    groups = f"groups = affine_set<(g) : (g >= 0, {spec.grid - 1} - g >= 0)>"
    return [
        (f"    %future = ktdp.inter_tile_produce producer_tiles_per_group = {group} "
         f"-> <({partial}), {groups}> {{"),
        "    ^bb0(%group: index):",
        f"      ktdp.yield_partial %reduced : {partial}",
        "    }",
        (f"    %total = ktdp.inter_tile_reduce(%future) consumer_tiles_per_group = {consumers}, "
         f"identity() : <({partial}), {groups}> -> {partial} {{"),
        f"    ^bb0(%lhs: {partial}, %rhs: {partial}):",
        f"      %both = {combine} %lhs, %rhs : {partial}",
        f"      ktdp.yield_reduced %both : {partial}",
        "    }",
    ]


_DTYPES = {"f16": np.float16, "f32": np.float32}


def dtype(spec: Spec) -> np.dtype:
    return np.dtype(_DTYPES[spec.element])


def random_inputs(spec: Spec, seed: int) -> dict[str, np.ndarray]:
    """Arrays for every pointer argument, ``out`` zeroed; small values so ``exp`` and
    products stay finite."""
    rng = np.random.default_rng(seed)
    arrays = {
        f"in{k}": rng.uniform(-2, 2, (spec.rows, spec.cols) if full else (spec.cols,)).astype(dtype(spec))
        for k, full in enumerate(spec.inputs)
    }
    out_shape = (spec.copies * spec.rows,) if spec.reduction else (spec.rows, spec.cols)
    arrays["out"] = np.zeros(out_shape, dtype(spec))
    return arrays


def expected(spec: Spec, inputs: dict[str, np.ndarray]) -> np.ndarray:
    """``spec``'s result by numpy, every operation computed in float64 and rounded to
    the element type (correctly rounded, as the kernel's operations are: numpy's own
    float32 ``exp`` is an ulp off at times, which a chain of ops amplifies), the
    reduction in float64, rounded once; repeated for every copy of an all-reduce."""
    values = [np.broadcast_to(inputs[f"in{k}"], (spec.rows, spec.cols)) for k in range(len(spec.inputs))]
    for node in spec.nodes:
        args = [values[i] for i in node.operands]
        values.append(NUMPY[node.op](*(a.astype(np.float64) for a in args)).astype(dtype(spec)))
    result = values[-1]
    if spec.reduction == "sum":
        return np.tile(result.astype(np.float64).sum(axis=1).astype(dtype(spec)), spec.copies)
    if spec.reduction == "max":
        return np.tile(result.max(axis=1), spec.copies)
    return result
