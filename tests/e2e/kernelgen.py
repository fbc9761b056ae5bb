"""Random KTIR kernels for end-to-end tests: elementwise expression DAGs over one to
three inputs, with row-vector broadcasts and an optional row reduction.

A :class:`Spec` is plain data (hypothesis draws it with :func:`specs`); ``ktir(spec)``
writes the kernel the way a kernel author would (one block of rows per compute tile,
``linalg.broadcast`` for row vectors, a ``linalg.generic`` reduction), and
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
class Spec:
    """A kernel: ``grid`` tiles of ``rows_per_tile`` rows each, ``cols`` columns;
    ``inputs[k]`` is True for a full matrix, False for a row vector broadcast over
    the rows; the last node is the result, reduced along rows when ``reduction``."""

    grid: int
    rows_per_tile: int
    cols: int
    element: str
    inputs: tuple[bool, ...]
    nodes: tuple[Node, ...]
    reduction: str | None

    @property
    def rows(self) -> int:
        return self.grid * self.rows_per_tile


@st.composite
def specs(draw, max_nodes: int = 4) -> Spec:
    """A random kernel; at least one input is a full matrix, and the result uses
    every input."""
    n_inputs = draw(st.integers(1, 3))
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
    return Spec(
        grid=draw(st.sampled_from([1, 2, 4])),
        rows_per_tile=draw(st.sampled_from([1, 2, 4])),
        cols=draw(st.sampled_from([64, 128, 256])),
        element=draw(st.sampled_from(["f16", "f32"])),
        inputs=inputs,
        nodes=tuple(nodes),
        reduction=draw(st.sampled_from([None, "sum", "max"])),
    )


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
    r, c, t, e = spec.rows, spec.cols, spec.rows_per_tile, spec.element
    block = f"tensor<{t}x{c}x{e}>"
    args = ", ".join(f"%in{k}: index" for k in range(len(spec.inputs)))
    lines = [
        f"#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + {r - 1} >= 0, d1 >= 0, -d1 + {c - 1} >= 0)>",
        f"#vector = affine_set<(d0) : (d0 >= 0, -d0 + {c - 1} >= 0)>",
        f"#rows = affine_set<(d0) : (d0 >= 0, -d0 + {r - 1} >= 0)>",
        f"#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + {t - 1} >= 0, d1 >= 0, -d1 + {c - 1} >= 0)>",
        f"#block_rows = affine_set<(d0) : (d0 >= 0, -d0 + {t - 1} >= 0)>",
        "#id2 = affine_map<(d0, d1) -> (d0, d1)>",
        "#id1 = affine_map<(d0) -> (d0)>",
        "#per_row = affine_map<(d0, d1) -> (d0)>",
        "module {",
        f"  func.func @generated({args}, %out: index) attributes {{grid = [{spec.grid}]}} {{",
        "    %c0 = arith.constant 0 : index",
        f"    %rows_per_tile = arith.constant {t} : index",
        "    %tile = ktdp.get_compute_tile_id : index",
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


def _load_input(k: int, full: bool, spec: Spec) -> list[str]:
    r, c, t, e = spec.rows, spec.cols, spec.rows_per_tile, spec.element
    if full:
        return [
            f"    %view{k} = ktdp.construct_memory_view %in{k}, sizes: [{r}, {c}], strides: [{c}, 1] "
            f"{{coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>}} : memref<{r}x{c}x{e}>",
            f"    %tile{k} = ktdp.construct_access_tile %view{k}[%first_row, %c0] "
            f"{{access_tile_set = #block, access_tile_order = #id2}} : memref<{r}x{c}x{e}> -> !ktdp.access_tile<{t}x{c}xindex>",
            f"    %x{k} = ktdp.load %tile{k} : !ktdp.access_tile<{t}x{c}xindex> -> tensor<{t}x{c}x{e}>",
        ]
    return [
        f"    %view{k} = ktdp.construct_memory_view %in{k}, sizes: [{c}], strides: [1] "
        f"{{coordinate_set = #vector, memory_space = #ktdp.memory_space<global>}} : memref<{c}x{e}>",
        f"    %tile{k} = ktdp.construct_access_tile %view{k}[%c0] "
        f"{{access_tile_set = #vector, access_tile_order = #id1}} : memref<{c}x{e}> -> !ktdp.access_tile<{c}xindex>",
        f"    %row{k} = ktdp.load %tile{k} : !ktdp.access_tile<{c}xindex> -> tensor<{c}x{e}>",
        f"    %empty{k} = tensor.empty() : tensor<{t}x{c}x{e}>",
        f"    %x{k} = linalg.broadcast ins(%row{k} : tensor<{c}x{e}>) outs(%empty{k} : tensor<{t}x{c}x{e}>) dimensions = [0]",
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
    r, c, t, e = spec.rows, spec.cols, spec.rows_per_tile, spec.element
    combine, identity = REDUCTIONS[spec.reduction], IDENTITY[spec.reduction, e]
    lines = [
        f"    %identity = arith.constant {identity} : {e}",
        f"    %acc_empty = tensor.empty() : tensor<{t}x{e}>",
        f"    %acc = linalg.fill ins(%identity : {e}) outs(%acc_empty : tensor<{t}x{e}>) -> tensor<{t}x{e}>",
        "    %reduced = linalg.generic {indexing_maps = [#id2, #per_row], "
        'iterator_types = ["parallel", "reduction"]}'
        f" ins({value} : tensor<{t}x{c}x{e}>) outs(%acc : tensor<{t}x{e}>) {{",
        f"    ^bb0(%in: {e}, %a: {e}):",
        f"      %next = {combine} %in, %a : {e}",
        f"      linalg.yield %next : {e}",
        f"    }} -> tensor<{t}x{e}>",
    ]
    return lines + _store("%reduced", f"memref<{r}x{e}>", f"{t}", "#rows", "#block_rows", "#id1",
                          f"[{r}]", "[1]", "[%first_row]", f"tensor<{t}x{e}>")


def dtype(spec: Spec) -> np.dtype:
    return np.dtype(np.float16 if spec.element == "f16" else np.float32)


def random_inputs(spec: Spec, seed: int) -> dict[str, np.ndarray]:
    """Arrays for every pointer argument, ``out`` zeroed; small values so ``exp`` and
    products stay finite."""
    rng = np.random.default_rng(seed)
    arrays = {
        f"in{k}": rng.uniform(-2, 2, (spec.rows, spec.cols) if full else (spec.cols,)).astype(dtype(spec))
        for k, full in enumerate(spec.inputs)
    }
    out_shape = (spec.rows,) if spec.reduction else (spec.rows, spec.cols)
    arrays["out"] = np.zeros(out_shape, dtype(spec))
    return arrays


def expected(spec: Spec, inputs: dict[str, np.ndarray]) -> np.ndarray:
    """``spec``'s result by numpy, rounded to the element type after every operation
    (the reduction in float64, rounded once)."""
    values = [np.broadcast_to(inputs[f"in{k}"], (spec.rows, spec.cols)) for k in range(len(spec.inputs))]
    for node in spec.nodes:
        args = [values[i] for i in node.operands]
        values.append(NUMPY[node.op](*args).astype(dtype(spec)))
    result = values[-1]
    if spec.reduction == "sum":
        return result.astype(np.float64).sum(axis=1).astype(dtype(spec))
    if spec.reduction == "max":
        return result.max(axis=1)
    return result
