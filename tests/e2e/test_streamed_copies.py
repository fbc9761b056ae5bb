"""Copies larger than the scratchpad, with pointer arguments: the small paged gather and
scatter of ``tests/e2e/inputs/paged_copy_small.mlir`` and ``paged_write_small.mlir``
(a 96 KiB tile of 3 sequences x 2 heads x 64 tokens x 128 features through a block
table), streamed one page run at a time on toy (a 64 KiB scratchpad) and moved through
one tile buffer on spyre and line4; and direct copies of such a tile, of a plain view
(tokens and heads swapped) and of a distributed view of two partitions, streamed by
``stream-copies`` on toy. Each run is checked with ``ktc.sim.check``'s rule against a
numpy formula written here and against the reference interpreter, the paged ones over
block tables hypothesis draws (out-of-order pages, repeated pages). ``ktc run --check``
passes on them where the reference refuses the tile on toy's scratchpad: it reruns the
reference with a scratchpad as large as device memory and says so, while ``ktc run
--reference`` keeps the refusal. A kernel that computes on such a tile (not a copy)
keeps the capacity diagnostic."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES, ROOT  # noqa: E402
from simulated import agree, run  # noqa: E402
from test_distributed_views import Layout, copy_inputs, copy_kernel  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.errors import KtcError  # noqa: E402
from ktc.sim.check import compare  # noqa: E402
from ktc.tools.ktc import main  # noqa: E402

INPUTS = ROOT / "tests" / "e2e" / "inputs"
COPY, WRITE = INPUTS / "paged_copy_small.mlir", INPUTS / "paged_write_small.mlir"
PAGES, HEADS, PAGE, FEATURES, SEQUENCES, BLOCKS = 16, 2, 16, 128, 3, 4
TOKENS = BLOCKS * PAGE
ELEMENTS = {"x": "f16", "idx": "i32", "y": "f16"}
TABLES = st.permutations(range(PAGES)).map(lambda pages: pages[:SEQUENCES * BLOCKS]) | st.lists(
    st.integers(0, PAGES - 1), min_size=SEQUENCES * BLOCKS, max_size=SEQUENCES * BLOCKS)
"""Block tables: distinct pages in any order, or pages drawn with repeats."""


def _cache(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((PAGES, HEADS, PAGE, FEATURES)).astype(np.float16)


def _tokens(seed: int) -> np.ndarray:
    shape = (SEQUENCES, TOKENS, HEADS, FEATURES)
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float16)


def _gathered(cache: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Y[b, t, h, d] = X[Idx[b, t // 16], h, t % 16, d], token by token."""
    y = np.empty((SEQUENCES, TOKENS, HEADS, FEATURES), np.float16)
    for b in range(SEQUENCES):
        for t in range(TOKENS):
            y[b, t] = cache[table[b, t // PAGE], :, t % PAGE, :]
    return y


def _scattered(cache: np.ndarray, table: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Y[Idx[b, t // 16], h, t % 16, d] = X[b, t, h, d] in the order of (b, h, t): a
    page the table names twice keeps the later block."""
    y = cache.copy()
    for b in range(SEQUENCES):
        for h in range(HEADS):
            for t in range(TOKENS):
                y[table[b, t // PAGE], h, t % PAGE] = x[b, t, h]
    return y


def _copy(device: str, table: np.ndarray) -> None:
    cache = _cache(1)
    inputs = {"x": cache, "idx": table.astype(np.int32),
              "y": np.zeros((SEQUENCES, TOKENS, HEADS, FEATURES), np.float16)}
    simulated, reference = run(COPY.read_text(), device, inputs, str(COPY))
    agree(simulated, reference, {**inputs, "y": _gathered(cache, table)}, ELEMENTS)


def _write(device: str, table: np.ndarray) -> None:
    cache, x = _cache(2), _tokens(3)
    inputs = {"x": x, "idx": table.astype(np.int32), "y": cache}
    simulated, reference = run(WRITE.read_text(), device, inputs, str(WRITE))
    agree(simulated, reference, {**inputs, "y": _scattered(cache, table, x)}, ELEMENTS)


TRANSPOSE = """#tokens = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 127 >= 0)>
#heads = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 63 >= 0, d3 >= 0, -d3 + 127 >= 0)>
#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#swapped = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
func.func @transpose(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %x_view = ktdp.construct_memory_view %x, sizes: [3, 64, 2, 128], strides: [16384, 256, 128, 1] {
    coordinate_set = #tokens, memory_space = #ktdp.memory_space<global>} : memref<3x64x2x128xf16>
  %y_view = ktdp.construct_memory_view %y, sizes: [3, 2, 64, 128], strides: [16384, 8192, 128, 1] {
    coordinate_set = #heads, memory_space = #ktdp.memory_space<global>} : memref<3x2x64x128xf16>
  %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0, %c0, %c0] {
    access_tile_set = #tokens, access_tile_order = #swapped} : memref<3x64x2x128xf16> -> !ktdp.access_tile<3x2x64x128xindex>
  %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0, %c0, %c0] {
    access_tile_set = #heads, access_tile_order = #identity} : memref<3x2x64x128xf16> -> !ktdp.access_tile<3x2x64x128xindex>
  %data = ktdp.load %x_tile : !ktdp.access_tile<3x2x64x128xindex> -> tensor<3x2x64x128xf16>
  ktdp.store %data, %y_tile : tensor<3x2x64x128xf16>, !ktdp.access_tile<3x2x64x128xindex>
  return
}
"""
"""A direct copy of a 96 KiB tile, tokens and heads swapped: Y[b, h, t, d] = X[b, t, h, d]."""


@pytest.mark.parametrize("device", DEVICES)
def test_a_direct_copy_larger_than_the_scratchpad_matches_numpy(device: str):
    """On toy ``stream-copies`` moves it one 64 x 128 piece at a time by the DMA
    engines; on spyre and line4 it fits and the three-stage pipeline moves it."""
    x = _tokens(4)
    inputs = {"x": x, "y": np.zeros((SEQUENCES, HEADS, TOKENS, FEATURES), np.float16)}
    simulated, reference = run(TRANSPOSE, device, inputs, "transpose.mlir")
    expected = np.empty_like(inputs["y"])
    for h in range(HEADS):
        expected[:, h] = x[:, :, h]
    agree(simulated, reference, {"x": x, "y": expected}, {"x": "f16", "y": "f16"})


@pytest.mark.parametrize("layout", [
    pytest.param(Layout(rows=384, cols=128, axis=0, bounds=(0, 100, 384), tile=(384, 128)), id="rows"),
    pytest.param(Layout(rows=384, cols=128, axis=1, bounds=(0, 40, 128), tile=(384, 128)), id="columns"),
])
@pytest.mark.parametrize("device", DEVICES)
def test_a_distributed_copy_larger_than_the_scratchpad_matches_numpy(device: str, layout: Layout):
    """A 96 KiB tile of a view split in two partitions, copied whole: one copy per
    partition, each through masked views (``split-distributed-views``), streamed on
    toy with each piece's DMAs clamped to the partition's box."""
    arrays, scalars, a = copy_inputs(layout, 5)
    simulated, reference = run(copy_kernel(layout), device, {**arrays, **scalars}, "copy.mlir")
    elements = {name: "f16" for name in simulated}
    agree(simulated, reference, {**arrays, "b": a}, elements)


FIXED = np.array([[9, 3, 15, 0], [3, 12, 4, 7], [1, 2, 10, 11]])
"""A table with pages out of order and page 3 twice."""


@pytest.mark.parametrize("device", DEVICES)
def test_a_small_paged_copy_matches_numpy(device: str):
    _copy(device, FIXED)


@pytest.mark.parametrize("device", DEVICES)
def test_a_small_paged_write_matches_numpy(device: str):
    _write(device, FIXED)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES)
def test_generated_tables_stream_a_copy_as_numpy_gathers(pages: list[int]):
    _copy("toy", np.array(pages).reshape(SEQUENCES, BLOCKS))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES)
def test_generated_tables_stream_a_write_as_numpy_scatters(pages: list[int]):
    _write("toy", np.array(pages).reshape(SEQUENCES, BLOCKS))


def test_the_scatter_check_sees_the_earlier_block_of_a_repeated_page():
    """Keeping the earlier of two blocks a table names for page 3 differs from the
    formula, and the check says so."""
    cache, x = _cache(2), _tokens(3)
    expected = _scattered(cache, FIXED, x)
    earlier = expected.copy()
    earlier[3] = x[0, PAGE:2 * PAGE].transpose(1, 0, 2)
    assert compare({"y": earlier}, {"y": expected}, ELEMENTS, 1) is not None


def test_ktc_run_check_reruns_a_reference_that_refuses_the_tile(capsys):
    """On toy the reference refuses the 96 KiB tile on its 64 KiB scratchpad: the check
    says so, runs it with a scratchpad of device memory's size and passes."""
    assert main(["run", str(COPY), "--arch", "toy", "--check"]) == 0
    out = capsys.readouterr().out
    assert ("the reference interpreter refuses the kernel on the device's scratchpad (" in out
            and "ktdp.load materializes a tensor of 98304 bytes" in out)
    assert "the check runs it with a scratchpad of 1048576 bytes (the device memory's size)" in out
    assert "check passed: 3 arrays, 114700 elements compared, worst error 0" in out


def test_ktc_run_reference_keeps_the_refusal(capsys):
    assert main(["run", str(COPY), "--arch", "toy", "--reference"]) == 1
    err = capsys.readouterr().err
    assert "paged_copy_small.mlir:31:5: error: scratchpad overflow on core 0: ktdp.load " in err


def test_a_gathered_tile_computed_on_that_does_not_fit_names_the_scratchpad():
    """Doubling the gathered tile before storing it is no copy: its 96 KiB buffer does
    not fit toy's scratchpad, and the compiler says so at the load."""
    text = COPY.read_text().replace(
        "    ktdp.store %data, %y_tile",
        "    %twice = arith.addf %data, %data : tensor<3x2x64x128xf16>\n"
        "    ktdp.store %twice, %y_tile")
    with pytest.raises(KtcError, match=r"does not fit in L1 of device @toy, which holds 65536 "
                                       r"bytes: the 2 buffers live at its peak take 98352 "
                                       r"bytes") as refused:
        compile_kernel(text, "toy", "doubled.mlir")
    assert refused.value.where == "doubled.mlir:31:5"
