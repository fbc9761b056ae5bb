"""Memory on the reference interpreter: strided views, access tiles whose order sorts
their points, coordinates outside a view's set masked (read as zero, not written),
distributed views routed to device memory and scratchpads, indirect gathers and
scatters, and the scratchpad's capacity."""

import numpy as np
import pytest

from ktc.dialects.diagnostics import KtcError
from ktc.sim.reference import Placement, execute, run

GLOBAL = "#ktdp.memory_space<global>"


def box(*extents: int, low: tuple[int, ...] = ()) -> str:
    """The set of the box ``low + [0, extents)``."""
    low = low or (0,) * len(extents)
    dims = ", ".join(f"d{i}" for i in range(len(extents)))
    bounds = ", ".join(
        f"d{i} - {lo} >= 0, -d{i} + {lo + n - 1} >= 0"
        for i, (lo, n) in enumerate(zip(low, extents))
    )
    return f"affine_set<({dims}) : ({bounds})>"


def identity(rank: int) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def view(
    name: str, pointer: str, sizes, strides, cover: str, memref: str, space: str = GLOBAL
) -> str:
    return (
        f"  %{name} = ktdp.construct_memory_view {pointer}, sizes: {list(sizes)}, "
        f"strides: {list(strides)} {{coordinate_set = {cover}, memory_space = {space}}}"
        f" : {memref}\n"
    )


def tile(
    name: str, base: str, at: str, memref: str, tile_type: str, tile_set: str, order: str
) -> str:
    return (
        f"  %{name} = ktdp.construct_access_tile %{base}[{at}] {{access_tile_set = {tile_set}, "
        f"access_tile_order = {order}}} : {memref} -> {tile_type}\n"
    )


def kernel(params: str, body: str, grid: str = "") -> str:
    attributes = f" attributes {{grid = {grid}}}" if grid else ""
    return (
        f"func.func @k({params}){attributes} {{\n  %c0 = arith.constant 0 : index\n"
        f"  %c2 = arith.constant 2 : index\n{body}  return\n}}\n"
    )


COPY_4X3 = (
    tile(
        "tb",
        "vb",
        "%c0, %c0",
        "memref<4x3xf32>",
        "!ktdp.access_tile<4x3xindex>",
        box(4, 3),
        identity(2),
    )
    + "  ktdp.store %x, %tb : tensor<4x3xf32>, !ktdp.access_tile<4x3xindex>\n"
)
ROW_MAJOR_B = view("vb", "%b", [4, 3], [3, 1], box(4, 3), "memref<4x3xf32>")


def test_strided_view_reads_column_major():
    body = (
        view("va", "%a", [4, 3], [1, 4], box(4, 3), "memref<4x3xf32>")
        + tile(
            "ta",
            "va",
            "%c0, %c0",
            "memref<4x3xf32>",
            "!ktdp.access_tile<4x3xindex>",
            box(4, 3),
            identity(2),
        )
        + "  %x = ktdp.load %ta : !ktdp.access_tile<4x3xindex> -> tensor<4x3xf32>\n"
        + ROW_MAJOR_B
        + COPY_4X3
    )
    a = np.arange(12, dtype=np.float32)
    out = run(kernel("%a: index, %b: index", body), {"a": a, "b": np.zeros((4, 3), np.float32)})
    np.testing.assert_array_equal(out["b"], a.reshape(3, 4).T)


def test_permutation_order_transposes_the_tile_on_load_and_store():
    """A 3x4 set under (d0, d1) -> (d1, d0): points sorted by column first, so the tile
    is 4x3, the transpose; storing through the same tile transposes back."""
    swap = "affine_map<(d0, d1) -> (d1, d0)>"
    body = (
        view("va", "%a", [3, 4], [4, 1], box(3, 4), "memref<3x4xf32>")
        + tile(
            "ta",
            "va",
            "%c0, %c0",
            "memref<3x4xf32>",
            "!ktdp.access_tile<4x3xindex>",
            box(3, 4),
            swap,
        )
        + "  %x = ktdp.load %ta : !ktdp.access_tile<4x3xindex> -> tensor<4x3xf32>\n"
        + ROW_MAJOR_B
        + COPY_4X3
        + view("vc", "%c", [3, 4], [4, 1], box(3, 4), "memref<3x4xf32>")
        + tile(
            "tc",
            "vc",
            "%c0, %c0",
            "memref<3x4xf32>",
            "!ktdp.access_tile<4x3xindex>",
            box(3, 4),
            swap,
        )
        + "  ktdp.store %x, %tc : tensor<4x3xf32>, !ktdp.access_tile<4x3xindex>\n"
    )
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = run(
        kernel("%a: index, %b: index, %c: index", body),
        {"a": a, "b": np.zeros((4, 3), np.float32), "c": np.zeros((3, 4), np.float32)},
    )
    np.testing.assert_array_equal(out["b"], a.T)
    np.testing.assert_array_equal(out["c"], a)


def test_a_set_that_is_not_a_box_and_an_order_that_is_not_a_permutation():
    """The lower triangle of a 4x4 matrix (10 points) sorted by anti-diagonal, then row:
    they fill a 2x5 tile row by row."""
    triangle = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 >= 0)>"
    diagonal = "affine_map<(d0, d1) -> (d0 + d1, d0)>"
    body = (
        view("va", "%a", [4, 4], [4, 1], box(4, 4), "memref<4x4xf32>")
        + tile(
            "ta",
            "va",
            "%c0, %c0",
            "memref<4x4xf32>",
            "!ktdp.access_tile<2x5xindex>",
            triangle,
            diagonal,
        )
        + "  %x = ktdp.load %ta : !ktdp.access_tile<2x5xindex> -> tensor<2x5xf32>\n"
        + view("vb", "%b", [2, 5], [5, 1], box(2, 5), "memref<2x5xf32>")
        + tile(
            "tb",
            "vb",
            "%c0, %c0",
            "memref<2x5xf32>",
            "!ktdp.access_tile<2x5xindex>",
            box(2, 5),
            identity(2),
        )
        + "  ktdp.store %x, %tb : tensor<2x5xf32>, !ktdp.access_tile<2x5xindex>\n"
    )
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    points = sorted(
        ((i, j) for i in range(4) for j in range(i + 1)), key=lambda p: (p[0] + p[1], p[0])
    )
    out = run(kernel("%a: index, %b: index", body), {"a": a, "b": np.zeros((2, 5), np.float32)})
    np.testing.assert_array_equal(out["b"].ravel(), [a[p] for p in points])


def test_symbolic_tile_set_and_dynamic_tile_shape():
    """Copy the first n elements: the tile's set has a symbol bound by symbols(%n)."""
    first = "affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>"
    body = (
        view("va", "%a", [8], [1], box(8), "memref<8xf32>")
        + f"  %ta = ktdp.construct_access_tile %va[%c0] symbols(%n) {{access_tile_set = {first}, "
        f"access_tile_order = {identity(1)}}} : memref<8xf32> -> !ktdp.access_tile<?xindex>\n"
        + "  %x = ktdp.load %ta : !ktdp.access_tile<?xindex> -> tensor<?xf32>\n"
        + view("vb", "%b", [8], [1], box(8), "memref<8xf32>")
        + f"  %tb = ktdp.construct_access_tile %vb[%c2] symbols(%n) {{access_tile_set = {first}, "
        f"access_tile_order = {identity(1)}}} : memref<8xf32> -> !ktdp.access_tile<?xindex>\n"
        + "  ktdp.store %x, %tb : tensor<?xf32>, !ktdp.access_tile<?xindex>\n"
    )
    a = np.arange(1, 9, dtype=np.float32)
    out = run(
        kernel("%a: index, %b: index, %n: index", body),
        {"a": a, "b": np.zeros(8, np.float32), "n": 5},
    )
    np.testing.assert_array_equal(out["b"], [0, 0, 1, 2, 3, 4, 5, 0])


def _copy_rows(cover: str, sizes=(4, 3), at: str = "%c0, %c0") -> str:
    return (
        view("va", "%a", sizes, [sizes[1], 1], cover, "memref<4x3xf32>")
        + tile(
            "ta",
            "va",
            at,
            "memref<4x3xf32>",
            "!ktdp.access_tile<4x3xindex>",
            box(4, 3),
            identity(2),
        )
        + "  %x = ktdp.load %ta : !ktdp.access_tile<4x3xindex> -> tensor<4x3xf32>\n"
        + ROW_MAJOR_B
        + COPY_4X3
    )


def test_an_access_outside_the_coordinate_set_is_masked():
    """The view of %a covers columns 0..1 only; a tile over 3 columns reads zero in
    column 2. Then a store through a view of %b covering rows 0..2 leaves row 3 as it
    was."""
    cover = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 1 >= 0)>"
    a = np.arange(1, 13, dtype=np.float32).reshape(4, 3)
    out = run(kernel("%a: index, %b: index", _copy_rows(cover)), {"a": a, "b": np.full((4, 3), -1, np.float32)})
    expected = a.copy()
    expected[:, 2] = 0
    np.testing.assert_array_equal(out["b"], expected)
    rows = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 2 >= 0)>"
    masked_store = _copy_rows(box(4, 3)).replace(
        ROW_MAJOR_B, view("vb", "%b", [4, 3], [3, 1], rows, "memref<4x3xf32>")
    )
    out = run(kernel("%a: index, %b: index", masked_store), {"a": a, "b": np.full((4, 3), -1, np.float32)})
    expected = a.copy()
    expected[3] = -1
    np.testing.assert_array_equal(out["b"], expected)


def test_a_masked_set_that_is_not_a_box_moves_only_its_points():
    """The lower triangle ``d1 <= d0`` of a 4x3 view: loads read zero above it, stores
    write only it."""
    triangle = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 >= 0)>"
    a = np.arange(1, 13, dtype=np.float32).reshape(4, 3)
    out = run(kernel("%a: index, %b: index", _copy_rows(triangle)), {"a": a, "b": np.full((4, 3), -1, np.float32)})
    np.testing.assert_array_equal(out["b"], np.tril(a))
    store = _copy_rows(box(4, 3)).replace(
        ROW_MAJOR_B, view("vb", "%b", [4, 3], [3, 1], triangle, "memref<4x3xf32>")
    )
    out = run(kernel("%a: index, %b: index", store), {"a": a, "b": np.full((4, 3), -1, np.float32)})
    np.testing.assert_array_equal(out["b"], np.where(np.tri(4, 3, dtype=bool), a, -1))


def test_an_access_in_the_set_but_beyond_the_sizes_is_an_error():
    cover = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 2 >= 0)>"
    with pytest.raises(
        KtcError, match=r"ktdp.load: coordinate \(4, 0\) lies beyond the sizes \[4, 3\]"
    ):
        run(
            kernel("%a: index, %b: index", _copy_rows(cover, at="%c2, %c0")),
            {"a": np.zeros((4, 3), np.float32), "b": np.zeros((4, 3), np.float32)},
        )


def test_a_view_whose_set_starts_past_zero_is_addressed_from_its_first_coordinate():
    """Rows 4..7 of a global matrix live at %a: coordinate (5, 1) is element 1*3 + 1."""
    body = "  %c4 = arith.constant 4 : index\n" + _copy_rows(box(4, 3, low=(4, 0)), at="%c4, %c0")
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = run(kernel("%a: index, %b: index", body), {"a": a, "b": np.zeros((4, 3), np.float32)})
    np.testing.assert_array_equal(out["b"], a)


# ---------------------------------------------------------------------------------------
# Distributed views


def _distributed(parts: str, memrefs: str, global_rows: int = 4) -> str:
    """Store %a (4x3) through the distributed view %d, then load it back into %b."""
    memref = "memref<4x3xf32>"
    return (
        view("va", "%a", [4, 3], [3, 1], box(4, 3), memref)
        + tile(
            "ta", "va", "%c0, %c0", memref, "!ktdp.access_tile<4x3xindex>", box(4, 3), identity(2)
        )
        + "  %x = ktdp.load %ta : !ktdp.access_tile<4x3xindex> -> tensor<4x3xf32>\n"
        + parts
        + f"  %d = ktdp.construct_distributed_memory_view({memrefs})"
        + f" : memref<{global_rows}x3xf32>\n"
        + tile(
            "td",
            "d",
            "%c0, %c0",
            f"memref<{global_rows}x3xf32>",
            "!ktdp.access_tile<4x3xindex>",
            box(4, 3),
            identity(2),
        )
        + "  ktdp.store %x, %td : tensor<4x3xf32>, !ktdp.access_tile<4x3xindex>\n"
        + "  %y = ktdp.load %td : !ktdp.access_tile<4x3xindex> -> tensor<4x3xf32>\n"
        + ROW_MAJOR_B
        + COPY_4X3.replace("%x, %tb", "%y, %tb")
    )


def test_distributed_view_routes_rows_to_device_memory_and_a_scratchpad():
    """Rows 0..1 in device memory at element 1000, rows 2..3 in core 0's scratchpad at
    element 8 (column-major there)."""
    parts = view("p0", "%c1000", [2, 3], [3, 1], box(2, 3), "memref<2x3xf32>") + view(
        "p1",
        "%c8",
        [2, 3],
        [1, 2],
        box(2, 3, low=(2, 0)),
        "memref<2x3xf32>",
        "#ktdp.memory_space<ct_local, ct_id = 0>",
    )
    body = (
        "  %c1000 = arith.constant 1000 : index\n  %c8 = arith.constant 8 : index\n"
        + _distributed(parts, "%p0, %p1 : memref<2x3xf32>, memref<2x3xf32>")
    )
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    done = execute(
        kernel("%a: index, %b: index", body), {"a": a, "b": np.zeros((4, 3), np.float32)}
    )
    np.testing.assert_array_equal(done.outputs["b"], a)
    np.testing.assert_array_equal(done.read(1000, (2, 3), np.float32), a[:2])
    np.testing.assert_array_equal(done.read(8, (3, 2), np.float32, ct_id=0), a[2:].T)


def test_overlapping_partitions_a_store_writes_both_and_a_load_reads_the_first():
    parts = view("p0", "%c1000", [3, 3], [3, 1], box(3, 3), "memref<3x3xf32>") + view(
        "p1", "%c2000", [3, 3], [3, 1], box(3, 3, low=(1, 0)), "memref<3x3xf32>"
    )
    body = (
        "  %c1000 = arith.constant 1000 : index\n  %c2000 = arith.constant 2000 : index\n"
        + _distributed(parts, "%p0, %p1 : memref<3x3xf32>, memref<3x3xf32>")
    )
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    before = np.full((3, 3), 7, np.float32)
    done = execute(
        kernel("%a: index, %b: index", body),
        {"a": a, "b": np.zeros((4, 3), np.float32)},
        preload=[Placement(2000, before)],
    )
    np.testing.assert_array_equal(done.outputs["b"], a)
    np.testing.assert_array_equal(done.read(1000, (3, 3), np.float32), a[:3])
    np.testing.assert_array_equal(done.read(2000, (3, 3), np.float32), a[1:])


def test_a_coordinate_in_no_partition_is_masked():
    """One partition holds rows 0..1 of the 4x3 distributed view: the store writes
    those, the load back reads zero in rows 2..3."""
    parts = view("p0", "%c1000", [2, 3], [3, 1], box(2, 3), "memref<2x3xf32>")
    body = "  %c1000 = arith.constant 1000 : index\n" + _distributed(parts, "%p0 : memref<2x3xf32>")
    a = np.arange(1, 13, dtype=np.float32).reshape(4, 3)
    done = execute(
        kernel("%a: index, %b: index", body), {"a": a, "b": np.full((4, 3), -1, np.float32)}
    )
    np.testing.assert_array_equal(done.outputs["b"], np.concatenate([a[:2], np.zeros((2, 3))]))
    np.testing.assert_array_equal(done.read(1000, (2, 3), np.float32), a[:2])
    np.testing.assert_array_equal(done.read(1006, (2, 3), np.float32), np.zeros((2, 3)))


def test_ct_id_names_another_cores_scratchpad():
    """On a grid of 2, core 1 writes core 0's scratchpad; both then read it."""
    body = (
        "  %id = ktdp.get_compute_tile_id : index\n  %c1 = arith.constant 1 : index\n"
        + view(
            "vs",
            "%c0",
            [4],
            [1],
            box(4),
            "memref<4xf32>",
            "#ktdp.memory_space<ct_local, ct_id = 0>",
        )
        + tile(
            "ts", "vs", "%c0", "memref<4xf32>", "!ktdp.access_tile<4xindex>", box(4), identity(1)
        )
        + "  %one = arith.cmpi eq, %id, %c1 : index\n"
        + "  scf.if %one {\n    %v = arith.constant dense<3.0> : tensor<4xf32>\n"
        + "    ktdp.store %v, %ts : tensor<4xf32>, !ktdp.access_tile<4xindex>\n  }\n"
    )
    done = execute(kernel("", body, grid="[2]"))
    np.testing.assert_array_equal(done.read(0, (4,), np.float32, ct_id=0), [3, 3, 3, 3])
    np.testing.assert_array_equal(done.read(0, (4,), np.float32, ct_id=1), [0, 0, 0, 0])


# ---------------------------------------------------------------------------------------
# Indirect access tiles


def _indirect(body: str) -> str:
    memref = "memref<8x2xf32>"
    return (
        view("vx", "%x", [8, 2], [2, 1], box(8, 2), memref)
        + view("vi", "%i", [4], [1], box(4), "memref<4xi32>")
        + body
    )


def test_indirect_gather_with_a_captured_variable():
    """y[m, k] = x[idx[m] + 0, (k + %off) mod 2] for m < 4, k < 2."""
    body = _indirect(
        "  %t = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) "
        "%vx[ind(%vi[%m]), ((%k + %off) mod 2)] {variables_space_set = "
        + box(4, 2)
        + ", variables_space_order = "
        + identity(2)
        + "} : memref<8x2xf32>, memref<4xi32> -> !ktdp.access_tile<4x2xindex>\n"
        "  %g = ktdp.load %t : !ktdp.access_tile<4x2xindex> -> tensor<4x2xf32>\n"
        + view("vy", "%y", [4, 2], [2, 1], box(4, 2), "memref<4x2xf32>")
        + tile(
            "ty",
            "vy",
            "%c0, %c0",
            "memref<4x2xf32>",
            "!ktdp.access_tile<4x2xindex>",
            box(4, 2),
            identity(2),
        )
        + "  ktdp.store %g, %ty : tensor<4x2xf32>, !ktdp.access_tile<4x2xindex>\n"
    )
    x = np.arange(16, dtype=np.float32).reshape(8, 2)
    idx = np.array([7, 0, 3, 3], np.int32)
    out = run(
        kernel("%x: index, %i: index, %y: index, %off: index", body),
        {"x": x, "i": idx, "y": np.zeros((4, 2), np.float32), "off": 1},
    )
    np.testing.assert_array_equal(out["y"], x[idx][:, [1, 0]])


def test_indirect_scatter_keeps_the_later_point_of_a_repeated_destination():
    body = _indirect(
        "  %t = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) "
        "%vx[ind(%vi[%m]), (%k)] {variables_space_set = "
        + box(4, 2)
        + ", variables_space_order = "
        + identity(2)
        + "} : memref<8x2xf32>, memref<4xi32> -> !ktdp.access_tile<4x2xindex>\n"
        "  %v = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]>"
        " : tensor<4x2xf32>\n"
        "  ktdp.store %v, %t : tensor<4x2xf32>, !ktdp.access_tile<4x2xindex>\n"
    )
    idx = np.array([5, 1, 5, 2], np.int32)
    out = run(kernel("%x: index, %i: index", body), {"x": np.zeros((8, 2), np.float32), "i": idx})
    expected = np.zeros((8, 2), np.float32)
    expected[1], expected[2], expected[5] = [3, 4], [7, 8], [5, 6]
    np.testing.assert_array_equal(out["x"], expected)


def test_an_index_outside_the_base_views_set_is_masked():
    """Index 8 names row 8 of an 8-row view: that point of the gather reads zero."""
    body = _indirect(
        "  %t = ktdp.construct_indirect_access_tile intermediate_variables(%m) "
        "%vx[ind(%vi[%m]), (%m mod 2)] {variables_space_set = "
        + box(4)
        + ", variables_space_order = "
        + identity(1)
        + "} : memref<8x2xf32>, memref<4xi32> -> !ktdp.access_tile<4xindex>\n"
        "  %g = ktdp.load %t : !ktdp.access_tile<4xindex> -> tensor<4xf32>\n"
        "  %tx = ktdp.construct_access_tile %vx[%c0, %c0] {access_tile_set = "
        + box(2, 2)
        + ", access_tile_order = "
        + identity(2)
        + "} : memref<8x2xf32> -> !ktdp.access_tile<2x2xindex>\n"
        "  %g2 = tensor.expand_shape %g [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>\n"
        "  ktdp.store %g2, %tx : tensor<2x2xf32>, !ktdp.access_tile<2x2xindex>\n"
    )
    x = np.arange(1, 17, dtype=np.float32).reshape(8, 2)
    index = np.array([0, 8, 1, 2], np.int32)
    out = run(kernel("%x: index, %i: index", body), {"x": x, "i": index})
    gathered = [x[0, 0], 0.0, x[1, 0], x[2, 1]]
    expected = x.copy()
    expected[:2] = np.reshape(gathered, (2, 2))
    np.testing.assert_array_equal(out["x"], expected)


# ---------------------------------------------------------------------------------------
# Scratchpad capacity and device memory


def test_ct_local_data_beyond_the_scratchpad_is_a_capacity_error():
    body = (
        "  %c250 = arith.constant 250 : index\n"
        + view("vs", "%c250", [16], [1], box(16), "memref<16xf32>", "#ktdp.memory_space<ct_local>")
        + tile(
            "ts", "vs", "%c0", "memref<16xf32>", "!ktdp.access_tile<16xindex>", box(16), identity(1)
        )
        + "  %v = arith.constant dense<1.0> : tensor<16xf32>\n"
        + "  ktdp.store %v, %ts : tensor<16xf32>, !ktdp.access_tile<16xindex>\n"
    )
    with pytest.raises(
        KtcError,
        match=r"<kernel>:\d+:3: error: scratchpad overflow on core 0: ktdp.store writes "
        r"bytes \[1000, 1064\), beyond the scratchpad's capacity of 1024 bytes",
    ):
        run(kernel("", body), scratchpad_bytes=1024)


def _loads(count: int, keep: bool) -> str:
    """``count`` loads of 1 KiB (256 f32) in a loop; ``keep`` sums them (all live at
    once is not needed: the sum is carried), else each is stored and dies."""
    memref = "memref<2048xf32>"
    summed = "    %s = arith.addf %acc, %x : tensor<256xf32>\n    scf.yield %s : tensor<256xf32>\n"
    stored = (
        "    ktdp.store %x, %t : tensor<256xf32>, !ktdp.access_tile<256xindex>\n"
        "    scf.yield %acc : tensor<256xf32>\n"
    )
    step = summed if keep else stored
    return (
        view("va", "%a", [2048], [1], box(2048), memref)
        + f"  %c256 = arith.constant 256 : index\n  %n = arith.constant {256 * count} : index\n"
        + "  %z = arith.constant dense<0.0> : tensor<256xf32>\n"
        + "  %r = scf.for %i = %c0 to %n step %c256 iter_args(%acc = %z) -> tensor<256xf32> {\n"
        + "  "
        + tile("t", "va", "%i", memref, "!ktdp.access_tile<256xindex>", box(256), identity(1))
        + "    %x = ktdp.load %t : !ktdp.access_tile<256xindex> -> tensor<256xf32>\n"
        + step
        + "  }\n"
    )


def test_tiles_are_held_until_their_last_use():
    """Eight 1 KiB tiles pass through a 3 KiB scratchpad one after another (with the
    1 KiB constant and the 1 KiB carried sum)."""
    a = np.arange(2048, dtype=np.float32)
    run(kernel("%a: index", _loads(8, keep=False)), {"a": a}, scratchpad_bytes=3072)
    run(kernel("%a: index", _loads(8, keep=True)), {"a": a}, scratchpad_bytes=4096)


def test_tiles_held_at_once_beyond_the_scratchpad_are_a_capacity_error():
    """The sum needs the constant, the carried sum, the tile and the new sum: 4 KiB."""
    with pytest.raises(
        KtcError,
        match=r"error: scratchpad overflow on core 0: arith.addf materializes a tensor of "
        r"1024 bytes while the core holds 3072 bytes; the scratchpad holds 3072 bytes",
    ):
        run(
            kernel("%a: index", _loads(8, keep=True)),
            {"a": np.zeros(2048, np.float32)},
            scratchpad_bytes=3072,
        )


def _copy(source: str, size: int) -> str:
    """Copy ``size`` f32 from element ``source`` of device memory to ``%b``."""
    memref, tile_type = f"memref<{size}xf32>", f"!ktdp.access_tile<{size}xindex>"
    return (
        f"  %src = arith.constant {source} : index\n"
        + view("va", "%src", [size], [1], box(size), memref)
        + tile("ta", "va", "%c0", memref, tile_type, box(size), identity(1))
        + f"  %x = ktdp.load %ta : {tile_type} -> tensor<{size}xf32>\n"
        + view("vb", "%b", [size], [1], box(size), memref)
        + tile("tb", "vb", "%c0", memref, tile_type, box(size), identity(1))
        + f"  ktdp.store %x, %tb : tensor<{size}xf32>, {tile_type}\n"
    )


def test_unwritten_device_memory_reads_zero():
    out = run(kernel("%b: index", _copy(4096, 4)), {"b": np.ones(4, np.float32)})
    np.testing.assert_array_equal(out["b"], np.zeros(4, np.float32))


def test_the_devices_memory_bounds_the_arguments_and_the_accesses():
    """The toy device has 1 MiB of device memory."""
    with pytest.raises(
        KtcError,
        match=r"<kernel>:1:1: error: the arguments' arrays take 4194304 bytes of device "
        r"memory, beyond its 1048576 bytes",
    ):
        run(kernel("%b: index", _copy(0, 1 << 20)), {"b": np.ones(1 << 20, np.float32)}, arch="toy")
    with pytest.raises(
        KtcError,
        match=r"ktdp.load reads bytes \[2097152, 2097168\) of device memory, beyond its "
        r"1048576 bytes",
    ):
        run(kernel("%b: index", _copy(1 << 19, 4)), {"b": np.ones(4, np.float32)}, arch="toy")


MASKED_ADD = """#first_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @masked_add(%x: index, %y: index, %out: index, %n: index) attributes {grid = [2]} {
  %tile = ktdp.get_compute_tile_id : index
  %c1024 = arith.constant 1024 : index
  %start = arith.muli %tile, %c1024 : index
  %xv = ktdp.construct_memory_view %x, sizes: [%n], strides: [1]
      {coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %yv = ktdp.construct_memory_view %y, sizes: [%n], strides: [1]
      {coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [%n], strides: [1]
      {coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %xt = ktdp.construct_access_tile %xv[%start] {access_tile_set = #block, access_tile_order = #id}
      : memref<?xf32> -> !ktdp.access_tile<1024xindex>
  %yt = ktdp.construct_access_tile %yv[%start] {access_tile_set = #block, access_tile_order = #id}
      : memref<?xf32> -> !ktdp.access_tile<1024xindex>
  %ot = ktdp.construct_access_tile %ov[%start] {access_tile_set = #block, access_tile_order = #id}
      : memref<?xf32> -> !ktdp.access_tile<1024xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1024xindex> -> tensor<1024xf32>
  %b = ktdp.load %yt : !ktdp.access_tile<1024xindex> -> tensor<1024xf32>
  %one = arith.constant dense<1.0> : tensor<1024xf32>
  %sum = arith.addf %a, %b : tensor<1024xf32>
  %r = arith.addf %sum, %one : tensor<1024xf32>
  ktdp.store %r, %ot : tensor<1024xf32>, !ktdp.access_tile<1024xindex>
  return
}
"""


@pytest.mark.parametrize("n", [1, 63, 1000, 1025])
def test_a_tail_tile_reads_zeros_and_writes_only_its_valid_part(n: int):
    """Two tiles of 1024 over n elements: the tail tile's loads read 0 past n (so
    0 + 0 + 1 would be stored there, were it not masked), its store writes [.., n)
    only; with n = 1 the second tile is masked whole. The arrays lie one after
    another, the output last: nothing after it is written."""
    rng = np.random.default_rng(n)
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    done = execute(MASKED_ADD, {"x": x, "y": y, "out": np.zeros(n, np.float32), "n": n})
    np.testing.assert_array_equal(done.outputs["out"], x + y + np.float32(1))
    assert not done.read(3 * n, (2048,), np.float32).any()
