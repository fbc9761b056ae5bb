"""Cores on the reference interpreter: the grid and its core ids, the order in which
cores run, and the inter-tile ops (produce, reduce, consume) with their groups,
dependencies, fold order, undefined results and deadlocks."""

import numpy as np
import pytest

from ktc.dialects.diagnostics import KtcError
from ktc.sim.reference import run

ROWS = "affine_set<(d0, d1) : (d0 >= 0, -d0 + {last} >= 0, d1 >= 0, -d1 + {width} >= 0)>"
ROW = "affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + {width} >= 0)>"


def _store_row(value: str, row: str, cores: int, width: int, element: str) -> str:
    """Store ``value`` (tensor<1 x width>) as row ``row`` of %out (cores x width)."""
    memref = f"memref<{cores}x{width}x{element}>"
    tile = f"!ktdp.access_tile<1x{width}xindex>"
    rows, row_set = ROWS.format(last=cores - 1, width=width - 1), ROW.format(width=width - 1)
    return (
        f"  %ov = ktdp.construct_memory_view %out, sizes: [{cores}, {width}], "
        f"strides: [{width}, 1] {{coordinate_set = {rows}, "
        f"memory_space = #ktdp.memory_space<global>}} : {memref}\n"
        f"  %ot = ktdp.construct_access_tile %ov[{row}, %c0] {{access_tile_set = {row_set}, "
        f"access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}} : {memref} -> {tile}\n"
        f"  ktdp.store {value}, %ot : tensor<1x{width}x{element}>, {tile}\n"
    )


def _grid_kernel(grid: str, body: str) -> str:
    return (
        f"func.func @k(%out: index) attributes {{grid = {grid}}} {{\n"
        f"  %c0 = arith.constant 0 : index\n{body}  return\n}}\n"
    )


def test_core_ids_are_linear_with_x_fastest_and_one_result_is_x():
    body = """  %x, %y = ktdp.get_compute_tile_id : index, index
  %only = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %y2 = arith.muli %y, %c2 : index
  %id = arith.addi %x, %y2 : index
  %xi = arith.index_cast %x : index to i32
  %yi = arith.index_cast %y : index to i32
  %oi = arith.index_cast %only : index to i32
  %row = tensor.from_elements %xi, %yi, %oi : tensor<1x3xi32>
""" + _store_row("%row", "%id", 6, 3, "i32")
    out = run(_grid_kernel("[2, 3]", body), {"out": np.zeros((6, 3), np.int32)})["out"]
    ids = np.arange(6)
    np.testing.assert_array_equal(out, np.stack([ids % 2, ids // 2, ids % 2], axis=1))


def test_a_result_past_the_grids_rank_is_zero_and_no_grid_is_one_core():
    body = """  %x, %y, %z = ktdp.get_compute_tile_id : index, index, index
  %s = arith.addi %y, %z : index
  %v = arith.index_cast %s : index to i32
  %row = tensor.splat %v : tensor<1x1xi32>
""" + _store_row("%row", "%x", 4, 1, "i32")
    np.testing.assert_array_equal(
        run(_grid_kernel("[4]", body), {"out": np.full((4, 1), 9, np.int32)})["out"], 0
    )
    single = _grid_kernel("[1]", body).replace(" attributes {grid = [1]}", "")
    np.testing.assert_array_equal(
        run(single, {"out": np.full((4, 1), 9, np.int32)})["out"], [[0], [9], [9], [9]]
    )


def test_cores_run_in_id_order():
    """Every core writes its id to row 0: without an inter-tile op nothing orders the
    cores; the reference runs them in id order, so the last one's write stays."""
    body = """  %id = ktdp.get_compute_tile_id : index
  %v = arith.index_cast %id : index to i32
  %row = tensor.splat %v : tensor<1x1xi32>
""" + _store_row("%row", "%c0", 1, 1, "i32")
    np.testing.assert_array_equal(
        run(_grid_kernel("[5]", body), {"out": np.zeros((1, 1), np.int32)})["out"], [[4]]
    )


# ---------------------------------------------------------------------------------------
# Inter-tile ops on a grid of 4: core i's partial is a 1x4 tensor of i + 1


PARTIAL = """  %id = ktdp.get_compute_tile_id : index
  %ii = arith.index_cast %id : index to i32
  %if = arith.sitofp %ii : i32 to f32
  %one = arith.constant 1.0 : f32
  %v = arith.addf %if, %one : f32
  %p = tensor.splat %v : tensor<1x4xf32>
"""
FUTURE = "<(tensor<1x4xf32>), groups = {groups}>"


def _produce(producers: str, groups: str = "affine_set<(g) : (g == 0)>") -> str:
    return (
        PARTIAL
        + f"  %f = ktdp.inter_tile_produce producer_tiles_per_group = {producers} -> "
        + FUTURE.format(groups=groups)
        + " {\n  ^bb0(%gid: index):\n    ktdp.yield_partial %p : tensor<1x4xf32>\n  }\n"
    )


def _reduce(
    consumers: str,
    combiner: str = "%s = arith.addf %l, %r",
    identity: str = "",
    groups: str = "affine_set<(g) : (g == 0)>",
    dependency: str = "",
) -> str:
    init = "%z : tensor<1x4xf32>" if identity else ""
    constant = f"  %z = arith.constant dense<{identity}> : tensor<1x4xf32>\n" if identity else ""
    depends = f", producer_dependency_per_consumer = {dependency}" if dependency else ""
    return (
        constant
        + f"  %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = {consumers}{depends}, "
        f"identity({init}) : {FUTURE.format(groups=groups)} -> tensor<1x4xf32> {{\n"
        f"  ^bb0(%l: tensor<1x4xf32>, %r: tensor<1x4xf32>):\n    {combiner} : tensor<1x4xf32>\n"
        "    ktdp.yield_reduced %s : tensor<1x4xf32>\n  }\n"
    )


ALL = "affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>"


def _run_exchange(body: str) -> np.ndarray:
    return run(_grid_kernel("[4]", body), {"out": np.zeros((4, 4), np.float32)})["out"]


def test_all_reduce_gives_every_consumer_the_sum():
    out = _run_exchange(_produce(ALL) + _reduce(ALL) + _store_row("%sum", "%id", 4, 4, "f32"))
    np.testing.assert_array_equal(out, np.full((4, 4), 10))


def test_reduce_folds_in_ascending_tile_id_from_the_identity():
    """With the combiner 2 * lhs + rhs and identity 100: ((((2*100+1)*2+2)*2+3)*2+4)."""
    combiner = "%d = arith.addf %l, %l : tensor<1x4xf32>\n    %s = arith.addf %d, %r"
    out = _run_exchange(
        _produce(ALL)
        + _reduce(ALL, combiner, identity="100.0")
        + _store_row("%sum", "%id", 4, 4, "f32")
    )
    np.testing.assert_array_equal(out, np.full((4, 4), 1626))
    out = _run_exchange(
        _produce(ALL) + _reduce(ALL, combiner) + _store_row("%sum", "%id", 4, 4, "f32")
    )
    np.testing.assert_array_equal(out, np.full((4, 4), 26))


def test_groups_reduce_apart_and_a_dependency_narrows_the_producers():
    """Two groups of two; each core sums its pair. Then with a dependency that names
    only the consumer itself, each core gets its own partial."""
    pairs = "affine_set<(i)[g] : (i - g * 2 >= 0, -i + g * 2 + 1 >= 0)>"
    groups = "affine_set<(g) : (g >= 0, -g + 1 >= 0)>"
    body = (
        _produce(pairs, groups).replace("%f =", "%f =")
        + _reduce(pairs, groups=groups)
        + _store_row("%sum", "%id", 4, 4, "f32")
    )
    np.testing.assert_array_equal(_run_exchange(body)[:, 0], [3, 3, 7, 7])
    own = _reduce(pairs, groups=groups, dependency="affine_set<(p)[c] : (p - c == 0)>")
    np.testing.assert_array_equal(
        _run_exchange(_produce(pairs, groups) + own + _store_row("%sum", "%id", 4, 4, "f32"))[:, 0],
        [1, 2, 3, 4],
    )


def test_older_spelling_with_an_identity_and_result_reshaped_by_unit_dimensions():
    """IBM's interpreter's spelling: the partial types before the future's and a
    result without the partial's unit dimension, from a tensor<4xf32> identity of 100
    (the fold starts there: 100 + 1 + 2 + 3 + 4)."""
    body = (
        PARTIAL
        + f"  %f = ktdp.inter_tile_produce producer_tiles_per_group = {ALL} : tensor<1x4xf32> -> "
        "!ktdp.tile_future<tensor<1x4xf32>, groups = affine_set<(g) : (g == 0)>> {\n"
        "  ^bb0(%gid: index):\n    ktdp.yield_partial %p : tensor<1x4xf32>\n  }\n"
        "  %z = arith.constant dense<100.0> : tensor<4xf32>\n"
        f"  %flat = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = {ALL}, "
        "identity(%z : tensor<4xf32>) : !ktdp.tile_future<tensor<1x4xf32>, groups = "
        "affine_set<(g) : (g == 0)>> -> tensor<4xf32> {\n"
        "  ^bb0(%l: tensor<1x4xf32>, %r: tensor<1x4xf32>):\n"
        "    %s = arith.addf %l, %r : tensor<1x4xf32>\n"
        "    ktdp.yield_reduced %s : tensor<1x4xf32>\n  }\n"
        "  %sum = tensor.expand_shape %flat [[0, 1]] output_shape [1, 4] : tensor<4xf32> "
        "into tensor<1x4xf32>\n"
    )
    out = _run_exchange(body + _store_row("%sum", "%id", 4, 4, "f32"))
    np.testing.assert_array_equal(out, np.full((4, 4), 110))


def _consume(consumers: str, dependency: str = "") -> str:
    depends = f", producer_dependency_per_consumer = {dependency}" if dependency else ""
    return (
        f"  %sum = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = {consumers}{depends} : "
        + FUTURE.format(groups="affine_set<(g) : (g == 0)>")
        + " -> tensor<1x4xf32>\n"
    )


def test_consume_broadcasts_the_one_producer_and_routes_by_dependency():
    first = "affine_set<(i)[g] : (i == 0)>"
    out = _run_exchange(_produce(first) + _consume(ALL) + _store_row("%sum", "%id", 4, 4, "f32"))
    np.testing.assert_array_equal(out[:, 0], [1, 1, 1, 1])
    next_core = "affine_set<(p)[c] : (p - (c + 1) mod 4 == 0)>"
    out = _run_exchange(
        _produce(ALL) + _consume(ALL, next_core) + _store_row("%sum", "%id", 4, 4, "f32")
    )
    np.testing.assert_array_equal(out[:, 0], [2, 3, 4, 1])


def test_consume_with_several_producers_and_no_dependency_is_an_error():
    with pytest.raises(
        KtcError,
        match=r"ktdp.inter_tile_consume: core 0 depends on producers \[0, 1, 2, 3\] of group 0; "
        r"inter_tile_consume delivers exactly one contribution",
    ):
        _run_exchange(_produce(ALL) + _consume(ALL) + _store_row("%sum", "%id", 4, 4, "f32"))


def test_a_result_on_a_core_that_does_not_consume_is_undefined():
    only_zero = "affine_set<(i)[g] : (i == 0)>"
    with pytest.raises(
        KtcError,
        match=r"<kernel>:\d+:3: error: ktdp.store: a result of ktdp.inter_tile_reduce at "
        r"<kernel>:\d+:3 is used on core 1, which does not consume it",
    ):
        _run_exchange(_produce(ALL) + _reduce(only_zero) + _store_row("%sum", "%id", 4, 4, "f32"))


def test_reduce_to_one_core():
    only_zero = "affine_set<(i)[g] : (i == 0)>"
    body = (
        _produce(ALL)
        + _reduce(only_zero)
        + "  %first = arith.cmpi eq, %id, %c0 : index\n  scf.if %first {\n"
        + _store_row("%sum", "%id", 4, 4, "f32")
        + "  }\n"
    )
    np.testing.assert_array_equal(_run_exchange(body)[:, 0], [10, 0, 0, 0])


def test_a_wait_that_cannot_end_is_a_deadlock():
    """Core 3 never reaches the reduce, so the others wait for its partial forever."""
    body = (
        _produce(ALL)
        + "  %c3 = arith.constant 3 : index\n  %go = arith.cmpi ne, %id, %c3 : index\n"
        "  scf.if %go {\n" + _reduce(ALL) + _store_row("%sum", "%id", 4, 4, "f32") + "  }\n"
    )
    with pytest.raises(
        KtcError,
        match=r"<kernel>:\d+:3: error: deadlock: core 0 waits at ktdp.inter_tile_reduce "
        r"\(<kernel>:\d+:3\) for the partials of cores 3; core 1 waits .*; core 2 waits",
    ):
        _run_exchange(body)
