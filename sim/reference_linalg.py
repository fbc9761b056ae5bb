"""linalg and tensor ops on the reference interpreter: whole tensors in, whole tensors
out, as numpy arrays.

A ``linalg.generic`` (and every named linalg op with a body) runs its body once over
whole arrays when every loop is parallel: each operand is laid over the loop nest by
its indexing map, so that numpy broadcasting does the loops, and ``linalg.index`` gives
open-grid arrays. With reduction loops the body runs once per point of them, in
order, over arrays of the parallel loops, unless the body is a *fold*
``out' = comb(out, t)`` (``comb`` an add, multiply, max or min, ``t`` not reading
``out``): then ``t`` is computed at every point at once, in the element type, and
folded exactly (sums and products in float64, extrema as they are), and the result is
``comb(init, fold)`` rounded once to the element type, the sum a wide accumulator
gives. ``linalg.reduce`` with a fold body does the same; with any other body it folds
pairwise (``reference_compute.tree_fold``). ``linalg.matmul`` and
``linalg.batch_matmul`` accumulate wide (``reference_compute.contract``). ``tensor.empty`` is zeros, and every
op returns a new array (a reshape returns a view of its operand: the same tensor).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from math import prod
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, ShapedType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap

from ktc.dialects.diagnostics import KtcError, where
from ktc.sim import numerics
from ktc.sim.reference_affine import map_function
from ktc.sim.reference_compute import (
    as_array,
    as_value,
    contract,
    mixed,
    slices,
    tree_fold,
    type_name,
)

if TYPE_CHECKING:
    from ktc.sim.reference_ops import Compiler

Step = Callable[[list], None]
Executor = Callable[["Compiler", Operation], Step]

# ---------------------------------------------------------------------------------------
# linalg


def _maps(op: Operation) -> list[AffineMap]:
    maps = op.get_indexing_maps() if hasattr(op, "get_indexing_maps") else op.indexing_maps
    return [m.data for m in maps]


def _iterators(op: Operation) -> list[str]:
    kinds = op.get_iterator_types() if hasattr(op, "get_iterator_types") else op.iterator_types
    return [kind.data.value for kind in kinds]


def _over_domain(value, amap: AffineMap, extents: Sequence[int]):
    """An operand as an array of the loop nest's rank that broadcasts over it."""
    if not isinstance(value, np.ndarray):
        return value
    if _projected(amap):
        positions = [e.position for e in amap.results]
        moved = np.transpose(value, np.argsort(positions)) if positions else value
        missing = tuple(d for d in range(len(extents)) if d not in positions)
        return np.expand_dims(moved, missing) if missing else moved
    grid = _open_grid(extents)
    return value[tuple(np.asarray(i, np.int64) for i in map_function(amap)(grid, ()))]


def _open_grid(extents: Sequence[int]) -> list[np.ndarray]:
    rank = len(extents)
    return [
        np.arange(n).reshape([n if d == k else 1 for k in range(rank)])
        for d, n in enumerate(extents)
    ]


def structured(c: Compiler, op: Operation) -> Step:
    """``linalg.generic`` and the named ops that carry a body."""
    maps, iterators = _maps(op), _iterators(op)
    operands = list(op.operands)
    n_out = len(op.results)
    slots = [c.slot(v) for v in operands]
    results = [c.slot(r) for r in op.results]
    names = [type_name(r.type) for r in op.results]
    out_maps = maps[len(operands) - n_out :]
    index_slot = c.index_slots[op] = c.hidden_slot()
    body = c.region(op.regions[0], op)
    rank = maps[0].num_dims if maps else 0
    sources = {}
    for k, amap in enumerate(maps):
        for axis, expr in enumerate(amap.results):
            if isinstance(expr, AffineDimExpr):
                sources.setdefault(expr.position, (k, axis))
    reduction = [d for d, kind in enumerate(iterators) if kind == "reduction"]
    parallel = {d for d in range(rank) if d not in reduction}
    if not op.results:
        raise KtcError(f"{op.name} on memrefs is not executed; write it on tensors", where(op))
    if any(d not in sources for d in range(rank)):
        raise KtcError(f"{op.name}: a loop of its indexing maps has no extent", where(op))
    if not all(_projected(m) and parallel <= {e.position for e in m.results} for m in out_maps):
        raise KtcError(
            f"{op.name}: an output's indexing map must name every parallel loop once", where(op)
        )
    out_positions = [[e.position for e in m.results] for m in out_maps]
    fold = fold_of(op.regions[0].block, n_out) if reduction else None

    def run(env: list) -> None:
        values = [env[s] for s in slots]
        extents = [np.shape(values[k])[axis] for k, axis in (sources[d] for d in range(rank))]
        views = [_over_domain(v, m, extents) for v, m in zip(values, maps)]
        if not reduction:
            env[index_slot] = _open_grid(extents)
            yields = body.run(env, views)
            for slot, name, value, positions in zip(results, names, yields, out_positions):
                env[slot] = np.array(
                    as_array(name, np.broadcast_to(value, extents).transpose(positions))
                )
            return
        kept = [1 if d in reduction else n for d, n in enumerate(extents)]
        accumulators = [np.broadcast_to(v, kept) for v in views[len(views) - n_out :]]
        if fold is not None:
            env[index_slot] = _open_grid(extents)
            (terms,) = body.run(env, [*views[:-1], fold.identity(names[0])])
            whole = np.broadcast_to(terms, extents)
            accumulators = [fold.total(names[0], accumulators[0], whole, tuple(reduction))]
        grid = _open_grid(kept)
        for point in product(*(range(extents[d]) for d in reduction)) if fold is None else ():
            at = dict(zip(reduction, point))
            env[index_slot] = [at.get(d, axis) for d, axis in enumerate(grid)]
            ins = [_at(v, at) for v in views[: len(views) - n_out]]
            accumulators = [np.broadcast_to(v, kept) for v in body.run(env, [*ins, *accumulators])]
        for slot, name, value, positions in zip(results, names, accumulators, out_positions):
            order = positions + [d for d in range(rank) if d not in positions]
            shape = [extents[d] for d in positions]
            env[slot] = np.array(as_array(name, value.transpose(order).reshape(shape)))

    return run


@dataclass(frozen=True)
class Fold:
    """A body ``out' = comb(out, t)`` whose ``comb`` folds exactly."""

    kind: str

    def identity(self, name: str):
        """The value ``comb(identity, t)`` is ``t`` for."""
        return as_value(name, FOLD_IDENTITIES[self.kind])

    def total(self, name: str, init: np.ndarray, terms: np.ndarray, axes: tuple[int, ...]):
        """``comb(init, fold of terms over axes)``, rounded once to type ``name``."""
        if self.kind in ("add", "mul"):
            reduce = np.sum if self.kind == "add" else np.prod
            exact = reduce(terms.astype(np.float64), axis=axes, keepdims=True)
            combined = init + exact if self.kind == "add" else init * exact
            return as_array(name, combined)
        reduce = FOLD_EXTREMA[self.kind]
        return as_array(name, reduce(init, reduce.reduce(terms, axis=axes, keepdims=True)))


FOLDS = {
    "arith.addf": "add", "arith.mulf": "mul", "arith.maximumf": "maximum",
    "arith.maxnumf": "maxnum", "arith.minimumf": "minimum", "arith.minnumf": "minnum",
}
"""The combining ops of a fold body, by the fold they make."""
FOLD_IDENTITIES = {
    "add": -0.0, "mul": 1.0, "maximum": -np.inf, "maxnum": -np.inf, "minimum": np.inf,
    "minnum": np.inf,
}
"""Neutral elements: ``-0.0 + t`` is ``t`` for every ``t``, a zero of either sign too."""
FOLD_EXTREMA = {"maximum": np.maximum, "maxnum": np.fmax, "minimum": np.minimum, "minnum": np.fmin}
"""NaN-propagating (``maximumf``) and NaN-ignoring (``maxnumf``) extrema."""


def fold_of(block, n_out: int) -> Fold | None:
    """The fold a reduction body is, or None: one output, yielded as ``comb(out, t)``
    (either operand order) where ``out`` has no other use."""
    if n_out != 1 or not block.args:
        return None
    out, yielded = block.args[-1], block.last_op
    if len(yielded.operands) != 1 or not isinstance(yielded.operands[0].owner, Operation):
        return None
    comb = yielded.operands[0].owner
    kind = FOLDS.get(comb.name)
    if kind is None or len(list(out.uses)) != 1 or out not in comb.operands:
        return None
    return Fold(kind)


def _at(view, at: Mapping[int, int]):
    """A domain view at one point of the reduction loops (their axes kept, size 1)."""
    if not isinstance(view, np.ndarray):
        return view
    index = tuple(
        slice(at[d], at[d] + 1) if d in at and view.shape[d] > 1 else slice(None)
        for d in range(view.ndim)
    )
    return view[index]


def _index(c: Compiler, op: Operation) -> Step:
    owner = op.parent_op()
    while owner is not None and owner not in c.index_slots:
        owner = owner.parent_op()
    if owner is None:
        raise KtcError("linalg.index outside a linalg op", where(op))
    source, out, dim = c.index_slots[owner], c.slot(op.results[0]), op.dim.value.data

    def run(env: list) -> None:
        env[out] = env[source][dim]

    return run


def _reduce(c: Compiler, op: Operation) -> Step:
    n = len(op.results)
    slots = [c.slot(v) for v in op.operands]
    inputs, inits = slots[:n], slots[n:]
    results = [c.slot(r) for r in op.results]
    names = [type_name(r.type) for r in op.results]
    dims = list(op.dimensions.get_values())
    body = c.region(op.region, op)
    fold = _reduce_fold(op.region.block, n)

    def run(env: list) -> None:
        def combine(new: list, accumulated: list) -> list:
            return body.run(env, [*new, *accumulated])

        initial = [env[s] for s in inits]
        values = []
        for s in inputs:
            x = env[s]
            moved = np.moveaxis(x, dims, list(range(x.ndim - len(dims), x.ndim)))
            values.append(moved.reshape(moved.shape[: x.ndim - len(dims)] + (-1,)))
        if fold is not None:
            init = np.asarray(initial[0])[..., None]
            total = fold.total(names[0], init, values[0], (values[0].ndim - 1,))[..., 0]
            env[results[0]] = np.array(as_array(names[0], np.broadcast_to(total, np.shape(initial[0]))))
            return
        if values[0].shape[-1]:
            totals = combine(tree_fold(values, combine), initial)
        else:
            totals = initial
        for slot, name, total, init in zip(results, names, totals, initial):
            env[slot] = np.array(as_array(name, np.broadcast_to(total, np.shape(init))))

    return run


def _reduce_fold(block, n: int) -> Fold | None:
    """A ``linalg.reduce`` body ``(in, out) -> comb(in, out)``: a fold of the inputs."""
    fold = fold_of(block, n)
    if fold is None or block.last_op.operands[0].owner.operands[0] not in block.args:
        return None
    comb = block.last_op.operands[0].owner
    return fold if set(comb.operands) == set(block.args) else None


def _fill(c: Compiler, op: Operation) -> Step:
    value, init, out = c.slot(op.inputs[0]), c.slot(op.outputs[0]), c.slot(op.results[0])
    name = type_name(op.results[0].type)

    def run(env: list) -> None:
        env[out] = np.full(np.shape(env[init]), as_array(name, env[value]))

    return run


def _broadcast(c: Compiler, op: Operation) -> Step:
    source, init, out = c.slot(op.input), c.slot(op.init), c.slot(op.results[0])
    dims = tuple(op.dimensions.get_values())

    def run(env: list) -> None:
        env[out] = np.broadcast_to(np.expand_dims(env[source], dims), np.shape(env[init])).copy()

    return run


def _transpose(c: Compiler, op: Operation) -> Step:
    source, out = c.slot(op.inputs[0]), c.slot(op.results[0])
    permutation = tuple(op.permutation.get_values())

    def run(env: list) -> None:
        env[out] = np.ascontiguousarray(np.transpose(env[source], permutation))

    return run


def _projected(amap: AffineMap) -> bool:
    """Whether a map only picks distinct dimensions (a projected permutation)."""
    dims = [e.position for e in amap.results if isinstance(e, AffineDimExpr)]
    return len(dims) == len(amap.results) == len(set(dims))


def _matmul(c: Compiler, op: Operation) -> Step:
    """A contraction, accumulated wide (``reference_compute.contract``)."""
    maps = _maps(op)
    if not all(_projected(m) for m in maps):
        return structured(c, op)
    a, b = (c.slot(v) for v in op.inputs)
    init, out = c.slot(op.outputs[0]), c.slot(op.results[0])
    name = type_name(op.results[0].type)

    def run(env: list) -> None:
        env[out] = contract(maps, env[a], env[b], env[init], name)

    return run


# ---------------------------------------------------------------------------------------
# tensor


def _shape_of(result_type: ShapedType, dynamic: Sequence[int]) -> tuple[int, ...]:
    return tuple(mixed(result_type.get_shape(), dynamic))


def _empty(c: Compiler, op: Operation) -> Step:
    sizes, out = [c.slot(v) for v in op.operands], c.slot(op.results[0])
    result = op.results[0].type
    dtype = numerics.value_dtype(type_name(result))

    def run(env: list) -> None:
        env[out] = np.zeros(_shape_of(result, [env[s] for s in sizes]), dtype)

    return run


def _splat(c: Compiler, op: Operation) -> Step:
    value, sizes = c.slot(op.operands[0]), [c.slot(v) for v in op.operands[1:]]
    out, result = c.slot(op.results[0]), op.results[0].type
    name = type_name(result)

    def run(env: list) -> None:
        env[out] = np.full(_shape_of(result, [env[s] for s in sizes]), as_array(name, env[value]))

    return run


def _extract(c: Compiler, op: Operation) -> Step:
    source, indices = c.slot(op.tensor), [c.slot(v) for v in op.indices]
    out, name = c.slot(op.results[0]), type_name(op.results[0].type)

    def run(env: list) -> None:
        env[out] = as_value(name, np.asarray(env[source])[tuple(env[s] for s in indices)])

    return run


def _insert(c: Compiler, op: Operation) -> Step:
    scalar, dest = c.slot(op.scalar), c.slot(op.dest)
    indices, out = [c.slot(v) for v in op.indices], c.slot(op.results[0])

    def run(env: list) -> None:
        updated = np.array(env[dest])
        updated[tuple(env[s] for s in indices)] = env[scalar]
        env[out] = updated

    return run


def _slice_operands(c: Compiler, op: Operation) -> Callable[[list], tuple]:
    offsets, sizes, strides = (
        [c.slot(v) for v in group] for group in (op.offsets, op.sizes, op.strides)
    )
    static = (
        op.static_offsets.get_values(),
        op.static_sizes.get_values(),
        op.static_strides.get_values(),
    )

    def read(env: list) -> tuple[list[int], list[int], list[int]]:
        return tuple(
            mixed(s, [env[slot] for slot in group])
            for s, group in zip(static, (offsets, sizes, strides))
        )

    return read


def _extract_slice(c: Compiler, op: Operation) -> Step:
    source, out = c.slot(op.source), c.slot(op.results[0])
    read = _slice_operands(c, op)
    declared = op.results[0].type.get_shape()

    def run(env: list) -> None:
        offsets, sizes, strides = read(env)
        x = env[source]
        part = x[slices(offsets, sizes, strides, x.shape)]
        if DYNAMIC_INDEX not in declared:
            shape = declared
        elif len(sizes) == len(declared):
            shape = sizes
        else:  # rank-reducing: the dropped dimensions have size 1
            shape = [size for size in sizes if size != 1]
        env[out] = np.array(part.reshape(shape))

    return run


def _insert_slice(c: Compiler, op: Operation) -> Step:
    source, dest, out = c.slot(op.source), c.slot(op.dest), c.slot(op.results[0])
    read = _slice_operands(c, op)

    def run(env: list) -> None:
        offsets, sizes, strides = read(env)
        updated = np.array(env[dest])
        updated[slices(offsets, sizes, strides, updated.shape)] = np.reshape(env[source], sizes)
        env[out] = updated

    return run


def _expand_shape(c: Compiler, op: Operation) -> Step:
    source, sizes, out = (
        c.slot(op.src),
        [c.slot(v) for v in op.dynamic_output_shape],
        c.slot(op.results[0]),
    )
    static = op.static_output_shape.get_values()

    def run(env: list) -> None:
        env[out] = np.reshape(env[source], mixed(static, [env[s] for s in sizes]))

    return run


def _collapse_shape(c: Compiler, op: Operation) -> Step:
    source, out = c.slot(op.src), c.slot(op.results[0])
    groups = [[int(i.value.data) for i in group] for group in op.reassociation]

    def run(env: list) -> None:
        x = env[source]
        env[out] = np.reshape(x, [prod(x.shape[i] for i in group) for group in groups])

    return run


def _reshape(c: Compiler, op: Operation) -> Step:
    source, shape, out = c.slot(op.source), c.slot(op.shape), c.slot(op.results[0])

    def run(env: list) -> None:
        env[out] = np.reshape(env[source], [int(n) for n in np.asarray(env[shape]).ravel()])

    return run


def _from_elements(c: Compiler, op: Operation) -> Step:
    elements, out = [c.slot(v) for v in op.elements], c.slot(op.results[0])
    result = op.results[0].type
    name = type_name(result)

    def run(env: list) -> None:
        values = as_array(name, np.array([env[s] for s in elements]))
        env[out] = values.reshape(result.get_shape())

    return run


def _dim(c: Compiler, op: Operation) -> Step:
    source, index, out = c.slot(op.source), c.slot(op.index), c.slot(op.results[0])

    def run(env: list) -> None:
        env[out] = int(np.shape(env[source])[env[index]])

    return run


def _cast(c: Compiler, op: Operation) -> Step:
    source, out = c.slot(op.operands[0]), c.slot(op.results[0])

    def run(env: list) -> None:
        env[out] = env[source]

    return run


def _concat(c: Compiler, op: Operation) -> Step:
    inputs, out, axis = [c.slot(v) for v in op.inputs], c.slot(op.results[0]), op.dim.value.data

    def run(env: list) -> None:
        env[out] = np.concatenate([env[s] for s in inputs], axis=axis)

    return run


EXECUTORS: dict[str, Executor] = {
    "linalg.index": _index,
    "linalg.reduce": _reduce,
    "linalg.fill": _fill,
    "linalg.broadcast": _broadcast,
    "linalg.transpose": _transpose,
    "linalg.matmul": _matmul,
    "linalg.batch_matmul": _matmul,
    "tensor.empty": _empty,
    "tensor.splat": _splat,
    "tensor.extract": _extract,
    "tensor.insert": _insert,
    "tensor.extract_slice": _extract_slice,
    "tensor.insert_slice": _insert_slice,
    "tensor.expand_shape": _expand_shape,
    "tensor.collapse_shape": _collapse_shape,
    "tensor.reshape": _reshape,
    "tensor.from_elements": _from_elements,
    "tensor.dim": _dim,
    "tensor.cast": _cast,
    "tensor.concat": _concat,
}
