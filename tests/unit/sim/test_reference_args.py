"""Arguments of the reference interpreter: which arguments are pointers, the shapes and
dtypes their arrays must have, scalar values read by type, runtime arguments, random
inputs, and the ``ktc run`` command that drives it all."""

import argparse

import numpy as np
import pytest

from ktc.dialects.diagnostics import KtcError
from ktc.sim import numerics
from ktc.sim.reference import Kernel, random_inputs, run
from ktc.tools.ktc import add_run_parser
from ktc.tools.run import run_command

SCALE = """#first_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#eight = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#two_by_four = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#global = #ktdp.memory_space<global>
func.func @scale(%x: index, %y: index, %n: index, %k: f16, %m: i32) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [%n], strides: [1]
      {coordinate_set = #first_n, memory_space = #global} : memref<?xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [2, 4], strides: [4, 1]
      {coordinate_set = #two_by_four, memory_space = #global} : memref<2x4xf16>
  %xt = ktdp.construct_access_tile %xv[%c0] {access_tile_set = #eight, access_tile_order = #id1}
      : memref<?xf16> -> !ktdp.access_tile<8xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0]
      {access_tile_set = #two_by_four, access_tile_order = #id2}
      : memref<2x4xf16> -> !ktdp.access_tile<2x4xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<8xindex> -> tensor<8xf16>
  %mf = arith.sitofp %m : i32 to f16
  %km = arith.mulf %k, %mf : f16
  %s = tensor.splat %km : tensor<8xf16>
  %b = arith.mulf %a, %s : tensor<8xf16>
  %c = tensor.expand_shape %b [[0, 1]] output_shape [2, 4] : tensor<8xf16> into tensor<2x4xf16>
  ktdp.store %c, %yt : tensor<2x4xf16>, !ktdp.access_tile<2x4xindex>
  return
}
"""


def _args(**changes):
    args = dict(x=np.arange(8, dtype=np.float16), y=np.zeros((2, 4), np.float16), n=8, k=0.5, m=3)
    return {**args, **changes}


def test_pointers_scalars_and_layouts():
    kernel = Kernel.from_text(SCALE)
    assert [(p.name, p.pointer) for p in kernel.parameters] == [
        ("x", True),
        ("y", True),
        ("n", False),
        ("k", False),
        ("m", False),
    ]
    layouts = kernel.layouts({"n": 8})
    assert (layouts["x"].element, layouts["x"].shape, layouts["y"].shape) == ("f16", (8,), (2, 4))
    out = run(kernel, _args())
    np.testing.assert_array_equal(out["y"], (np.arange(8) * 1.5).reshape(2, 4))
    positional = run(kernel, list(_args().values()))
    np.testing.assert_array_equal(positional["y"], out["y"])
    np.testing.assert_array_equal(out["x"], np.arange(8))


@pytest.mark.parametrize(
    "args, message",
    [
        ([1, 2], r"@scale takes 5 arguments \(%x, %y, %n, %k, %m\), got 2"),
        (_args(z=1), r"@scale has no argument %z"),
        ({"x": np.zeros(8, np.float16)}, r"@scale: no value for argument %y"),
        (
            _args(x=np.zeros(8, np.float32)),
            r"argument %x points to f16 elements: expected an array of dtype float16, got float32",
        ),
        (
            _args(x=np.zeros(9, np.float16)),
            r"argument %x: expected an array of shape \(8,\) \(from its memory views\), got \(9,\)",
        ),
        (
            _args(x=[0.0] * 8),
            r"argument %x is a pointer to f16 elements; pass a numpy array, not list",
        ),
        (_args(n=2.0), r"argument %n expects an integer \(index\), got 2.0"),
        (_args(m=2**32), r"argument %m expects an i32, but 4294967296 does not fit"),
        (_args(k="1"), r"argument %k expects a number \(f16\), got '1'"),
    ],
)
def test_argument_mistakes_are_errors_at_the_function(args, message):
    with pytest.raises(KtcError, match=r"<kernel>:7:1: error: " + message):
        run(SCALE, args)


def test_scalar_floats_are_rounded_to_their_type():
    out = run(SCALE, _args(k=1 / 3, m=1))["y"]
    np.testing.assert_array_equal(out.ravel(), np.arange(8, dtype=np.float16) * np.float16(1 / 3))


def test_views_that_disagree_give_a_flat_layout_and_unknown_sizes_no_shape():
    kernel = Kernel.from_text(
        SCALE.replace("%yv = ktdp.construct_memory_view %y", "%yv = ktdp.construct_memory_view %x")
    )
    assert kernel.layouts({"n": 5})["x"].shape == (8,)
    dynamic = Kernel.from_text(
        SCALE.replace("sizes: [%n]", "sizes: [%t]").replace(
            "%c0 = arith.constant 0 : index",
            "%c0 = arith.constant 0 : index\n"
            "  %t = scf.execute_region -> index {\n    scf.yield %n : index\n  }",
        )
    )
    assert dynamic.layouts({"n": 8})["x"].shape is None


SHIFTED = """#row = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id = affine_map<(d0) -> (d0)>
#global = #ktdp.memory_space<global>
func.func @shifted(%x: index, %out: index, %k: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %id = ktdp.get_compute_tile_id : index
  %rows = arith.muli %id, %k : index
  %start = arith.addi %x, %rows : index
  %at = arith.addi %start, %k : index
  %v = ktdp.construct_memory_view %at, sizes: [4], strides: [1]
      {coordinate_set = #row, memory_space = #global} : memref<4xf16>
  %t = ktdp.construct_access_tile %v[%c0] {access_tile_set = #row, access_tile_order = #id}
      : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %d = ktdp.load %t : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [8], strides: [1]
      {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, memory_space = #global}
      : memref<8xf16>
  %four = arith.constant 4 : index
  %o = arith.muli %id, %four : index
  %ot = ktdp.construct_access_tile %ov[%o] {access_tile_set = #row, access_tile_order = #id}
      : memref<8xf16> -> !ktdp.access_tile<4xindex>
  ktdp.store %d, %ot : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}
"""


def test_a_pointer_array_covers_every_view_at_an_offset_on_every_core():
    """Core c reads x[(c + 1) k, (c + 1) k + 4): with k = 8 over two cores, x must hold
    through element 16 + 4 = 20, from the view at an offset on the last core."""
    kernel = Kernel.from_text(SHIFTED)
    assert [p.name for p in kernel.parameters if p.pointer] == ["x", "out"]
    assert kernel.layouts({"k": 8})["x"].shape == (20,)
    x = np.arange(20, dtype=np.float16)
    out = run(kernel, dict(x=x, out=np.zeros(8, np.float16), k=8))["out"]
    np.testing.assert_array_equal(out, np.concatenate([x[8:12], x[16:20]]))
    with pytest.raises(KtcError, match=r"expected an array of shape \(20,\)"):
        run(kernel, dict(x=np.zeros(16, np.float16), out=np.zeros(8, np.float16), k=8))


def test_a_view_reaching_before_its_pointer_is_an_error():
    before = SHIFTED.replace("%at = arith.addi %start, %k : index", "%at = arith.subi %start, %k : index")
    with pytest.raises(
        KtcError,
        match=r"<kernel>:10:3: error: the memory view of argument %x reaches element -8 on "
        r"core 0, before the argument's first",
    ):
        Kernel.from_text(before).layouts({"k": 8})


def test_no_access_leaves_its_arguments_array():
    """A view whose size the reference cannot tell takes any array; reading past it is
    an error naming the op and the coordinate, where the bytes after it belong to
    another argument."""
    free = SHIFTED.replace(
        "%v = ktdp.construct_memory_view %at, sizes: [4], strides: [1]",
        "%size = scf.execute_region -> index {\n    %s = arith.constant 4 : index\n"
        "    scf.yield %s : index\n  }\n"
        "  %v = ktdp.construct_memory_view %at, sizes: [%size], strides: [1]",
    ).replace(": memref<4xf16>\n  %t", ": memref<?xf16>\n  %t").replace(
        ": memref<4xf16> -> !ktdp.access_tile<4xindex>\n  %d",
        ": memref<?xf16> -> !ktdp.access_tile<4xindex>\n  %d",
    )
    kernel = Kernel.from_text(free)
    assert kernel.layouts({"k": 8})["x"].shape is None
    with pytest.raises(
        KtcError,
        match=r"<kernel>:\d+:\d+: error: ktdp.load: coordinate \(2\) lies outside the array of "
        r"argument %x \(elements \[0, 18\) from the first of device memory\) of the memory "
        r"view built at <kernel>:\d+:3",
    ):
        run(kernel, dict(x=np.zeros(18, np.float16), out=np.zeros(8, np.float16), k=8))


def test_a_pointer_to_scratchpad_memory_is_refused():
    local = SCALE.replace(
        "{coordinate_set = #two_by_four, memory_space = #global}",
        "{coordinate_set = #two_by_four, memory_space = #ktdp.memory_space<ct_local>}",
    )
    message = r"<kernel>:11:3: error: argument %y starts a ct_local memory view"
    with pytest.raises(KtcError, match=message):
        run(local, _args())


RUNTIME = """#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
!n = !ktdp.runtime_arg<index, granularity=4, upperbound=16>
func.func @r(%x: index, %n: !n) {
  %v = ktdp.runtime_arg_extract value from %n : !n -> index
  %g = ktdp.runtime_arg_extract granularity from %n : !n -> index
  %u = ktdp.runtime_arg_extract upperbound from %n : !n -> index
  %s1 = arith.addi %v, %g : index
  %s = arith.addi %s1, %u : index
  %si = arith.index_cast %s : index to i32
  %t = tensor.splat %si : tensor<1xi32>
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1], strides: [1]
      {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1xi32>
  %xt = ktdp.construct_access_tile %xv[%c0] {access_tile_set = #one, access_tile_order = #id1}
      : memref<1xi32> -> !ktdp.access_tile<1xindex>
  ktdp.store %t, %xt : tensor<1xi32>, !ktdp.access_tile<1xindex>
  return
}
"""


def test_runtime_arguments_and_their_bounds():
    assert run(RUNTIME, {"x": np.zeros(1, np.int32), "n": 8})["x"][0] == 8 + 4 + 16
    with pytest.raises(
        KtcError, match="argument %n must be a multiple of its granularity 4, got 6"
    ):
        run(RUNTIME, {"x": np.zeros(1, np.int32), "n": 6})
    with pytest.raises(KtcError, match="argument %n must be at most its upper bound 16, got 20"):
        run(RUNTIME, {"x": np.zeros(1, np.int32), "n": 20})


DF16 = """#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
!df16 = !spyreop.df16
func.func @d(%x: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4], strides: [1]
      {coordinate_set = #four, memory_space = #ktdp.memory_space<global>} : memref<4x!df16>
  %xt = ktdp.construct_access_tile %xv[%c0] {access_tile_set = #four, access_tile_order = #id1}
      : memref<4x!df16> -> !ktdp.access_tile<4xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<4xindex> -> tensor<4x!df16>
  %e = tensor.empty() : tensor<4x!df16>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<4x!df16>) outs(%e : tensor<4x!df16>) {
  ^bb0(%v: !df16, %o: !df16):
    %s = spyreop.sqrt %v : !df16
    linalg.yield %s : !df16
  } -> tensor<4x!df16>
  ktdp.store %r, %xt : tensor<4x!df16>, !ktdp.access_tile<4xindex>
  return
}
"""


def test_df16_arrays_are_their_codes():
    codes = numerics.df16_encode(np.array([4.0, 2.0, 0.25, 3.0], np.float32))
    out = run(DF16, {"x": codes})["x"]
    assert out.dtype == np.uint16
    np.testing.assert_array_equal(
        out, numerics.df16_encode(numerics.sqrt("df16", numerics.df16_decode(codes)))
    )


GATHER = """#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 1 >= 0)>
#n64 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#n3 = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#global = #ktdp.memory_space<global>
func.func @g(%x: index, %i: index, %f: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [5, 2], strides: [2, 1]
      {coordinate_set = #rows, memory_space = #global} : memref<5x2xf32>
  %iv = ktdp.construct_memory_view %i, sizes: [64], strides: [1]
      {coordinate_set = #n64, memory_space = #global} : memref<64xi32>
  %fv = ktdp.construct_memory_view %f, sizes: [3], strides: [1]
      {coordinate_set = #n3, memory_space = #global} : memref<3xi64>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%m) %xv[ind(%iv[%m]), (0)]
      {variables_space_set = #n64, variables_space_order = #id1}
      : memref<5x2xf32>, memref<64xi32> -> !ktdp.access_tile<64xindex>
  %g = ktdp.load %t : !ktdp.access_tile<64xindex> -> tensor<64xf32>
  return
}
"""


def test_random_inputs_fill_missing_pointers_within_the_bounds_they_index():
    kernel = Kernel.from_text(GATHER)
    given = {"f": np.arange(3, dtype=np.int64)}
    drawn = random_inputs(kernel, {}, given, seed=7)
    assert sorted(drawn) == ["i", "x"]
    assert drawn["x"].dtype == np.float32 and drawn["x"].shape == (5, 2)
    assert drawn["i"].dtype == np.int32 and drawn["i"].min() >= 0 and drawn["i"].max() < 5
    assert drawn["i"].max() >= 3, "64 draws from [0, 5) reach the top of the range"
    np.testing.assert_array_equal(random_inputs(kernel, {}, given, seed=7)["x"], drawn["x"])
    run(kernel, {**drawn, **given})


# ---------------------------------------------------------------------------------------
# ktc run


def _ktc_run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="ktc")
    add_run_parser(parser.add_subparsers(dest="command"))
    return run_command(parser.parse_args(["run", *argv]))


def test_ktc_run_reads_inputs_and_args_and_saves_every_pointer(tmp_path, capsys):
    source = tmp_path / "scale.mlir"
    source.write_text(SCALE)
    inputs, outputs = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inputs, x=np.arange(8, dtype=np.float16), m=np.int32(2))
    assert (
        _ktc_run(
            str(source),
            "--reference",
            "--inputs",
            str(inputs),
            "--arg",
            "n=0x8",
            "--arg",
            "k=0.25",
            "--save-outputs",
            str(outputs),
            "--seed",
            "3",
        )
        == 0
    )
    saved = np.load(outputs)
    assert sorted(saved.files) == ["x", "y"]
    np.testing.assert_array_equal(saved["y"], (np.arange(8) * 0.5).reshape(2, 4))
    shown = capsys.readouterr().out
    assert "@scale: 1 core on spyre" in shown
    assert "%y: f16[2x4] min 0 max 3.5 mean 1.75 (after the run; input drawn at random)" in shown


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--arg", "n=8", "--arg", "k=1"], r"no value for scalar argument %m; pass --arg m=VALUE"),
        (
            ["--arg", "n=8", "--arg", "k=1", "--arg", "m=1.5"],
            r"--arg m=1.5: '1.5' is not a value of type i32",
        ),
        (["--arg", "x=1"], r"--arg x=1: %x is a pointer; give its array in --inputs"),
        (
            ["--arg", "q=1"],
            r"--arg q=1: expected NAME=VALUE with NAME a scalar argument \(n, k, m\)",
        ),
    ],
)
def test_ktc_run_argument_mistakes(tmp_path, argv, message):
    source = tmp_path / "scale.mlir"
    source.write_text(SCALE)
    with pytest.raises(KtcError, match=message):
        _ktc_run(str(source), "--reference", *argv)


@pytest.mark.parametrize("target", [["--reference"], []])
def test_ktc_run_needs_a_readable_kernel(tmp_path, target):
    with pytest.raises(
        KtcError, match=r"k.mlir: error: cannot read the kernel: No such file or directory"
    ):
        _ktc_run(str(tmp_path / "k.mlir"), *target)


def test_a_module_of_several_kernels_names_them_and_the_file():
    """Without --function, a file of several kernels is refused naming each; with it,
    the one named runs."""
    kernel = SCALE[SCALE.index("func.func"):]
    text = SCALE + "\n" + kernel.replace("@scale", "@scale_again")
    with pytest.raises(KtcError) as error:
        Kernel.from_text(text, "two.mlir")
    assert str(error.value) == ("two.mlir: error: expected one function with a body, "
                                "found 2: @scale, @scale_again")
    assert Kernel.from_text(text, "two.mlir", "scale_again").name == "scale_again"
