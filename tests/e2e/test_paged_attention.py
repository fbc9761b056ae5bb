"""The corpus's paged attention (``triton-ktir/paged_attention.mlir``): GQA attention of
8 query rows (2 tokens x 4 heads of one KV head) over a paged KV cache read through a
block table, an online softmax over 16-key tiles, and a causal mask.

The causal mask is a ``linalg.generic`` computing on ``linalg.index`` values joined with
the context length, the tile's query block and the loop's key tile (values known only
at run time): they compile as f32 vectors compared by arithmetic
(``tests/e2e/test_positions.py``), read by a select. Everything else compiles too: the
query tile of two tokens 4096 elements apart collapsed to 8 rows (copied through the
scratchpad, ``stage-reshaped-tiles``), the keys gathered and read transposed through an
``arith.extf`` (``normalize-contractions``), the values gathered and written transposed
for the SIMD product (``contraction-pipeline``), and the output expanded back. On Spyre
the select is its SFU's select instruction, and its f32 row maximum broadcast over the
scores, which Spyre's load unit cannot splat (it splats only 2-byte elements and its
links carry no 4-byte scalar), is copied with stride 0 into a staging row of the
scratchpad by the engine that copies within it (the ring stop) and loaded as a vector
(``scalar-broadcast-legalization``). Toy and the third test chip have no select
instruction: the mask's select of the scores or ``-inf`` is ``min(s, M)``, ``M`` the
mask's ``+inf`` where a key is seen and ``-inf`` where not
(``passes/utils/compares.py``). The kernel as written runs on Spyre and the third chip
and is compared with causal paged GQA attention in numpy, written here, on a random
block table of permuted pages with a context short enough for the mask to hide keys,
and with the reference interpreter. Toy's device memory of 1 MiB cannot hold its 2 MiB
key cache: the launch says so, naming the argument. The same attention written here
for other sizes (``paged_attention``; at the corpus's sizes it computes what the corpus
kernel does) with 2 tokens, 2 KV heads and a cache of 8 pages matches numpy on toy and
the third chip, also with 4 tokens, whose 4 tiles toy runs in two waves."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import LINE4, corpus_kernel  # noqa: E402
from simulated import agree, run  # noqa: E402

from ktc.errors import KtcError  # noqa: E402
from ktc.sim.check import compare  # noqa: E402
from ktc.sim.reference import Kernel  # noqa: E402

KERNEL = "ktir-cpu/triton-ktir/paged_attention.mlir"


@dataclass(frozen=True)
class Sizes:
    """A paged GQA attention's sizes: ``tokens`` query tokens, ``block`` of them per
    tile; ``kv_heads`` KV heads, each read by ``group`` query heads; ``head`` elements
    per head; a cache of ``pages`` pages of ``page`` positions (one key tile each),
    read through a block table of ``table`` entries."""

    tokens: int = 8
    block: int = 2
    kv_heads: int = 8
    group: int = 4
    head: int = 128
    page: int = 16
    pages: int = 64
    table: int = 16

    @property
    def rows(self) -> int:
        """Query rows of a tile: its tokens times the group's heads."""
        return self.block * self.group


def _box(*sizes: int) -> str:
    """The affine set ``0 <= d_j < sizes[j]``."""
    dims = ", ".join(f"d{j}" for j in range(len(sizes)))
    bounds = ", ".join(f"d{j} >= 0, -d{j} + {n - 1} >= 0" for j, n in enumerate(sizes))
    return f"affine_set<({dims}) : ({bounds})>"


def _strides(sizes) -> str:
    """The row-major strides of an array of ``sizes``, as KTIR lists them."""
    strides, step = [], 1
    for n in reversed(sizes):
        strides.insert(0, step)
        step *= n
    return ", ".join(map(str, strides))


def paged_attention(s: Sizes) -> str:
    """Causal paged GQA attention, one tile per ``block`` tokens and KV head: the
    scores of the tile's rows with each page's keys, those of positions past
    ``context_len`` plus the row's token masked with ``-inf``, an online softmax, the
    values summed by its weights."""
    heads = s.kv_heads * s.group
    q_shape = [s.tokens, heads, s.head]
    cache = [s.pages, s.page, s.kv_heads, s.head]
    q_type = "memref<" + "x".join(map(str, q_shape)) + "xf16>"
    c_type = "memref<" + "x".join(map(str, cache)) + "xf16>"
    r, d, p = s.rows, s.head, s.page
    rd, rp, pd, dp = f"{r}x{d}", f"{r}x{p}", f"{p}x{d}", f"{d}x{p}"
    tile_q = f"!ktdp.access_tile<{s.block}x{s.group}x{d}xindex>"
    tile_c = f"!ktdp.access_tile<1x{p}x1x{d}xindex>"
    id2 = "affine_map<(d0, d1) -> (d0, d1)>"
    row = "affine_map<(d0, d1) -> (d0)>"
    id1 = "affine_map<(d0) -> (d0)>"

    def gather(name: str, view: str) -> str:
        return f"""      %{name}_tile = ktdp.construct_indirect_access_tile intermediate_variables(%v0, %v1, %v2, %v3)
          %{view}[ind(%table_view[%c0, %entry + %v0]), (%v1), (%kv + %v2), (%v3)] {{
        variables_space_set = {_box(1, p, 1, d)},
        variables_space_order = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
      }} : {c_type}, memref<1x{s.table}xi32> -> {tile_c}
      %{name}_4d = ktdp.load %{name}_tile : {tile_c} -> tensor<1x{p}x1x{d}xf16>
      %{name}_2d = tensor.collapse_shape %{name}_4d [[0, 1], [2, 3]] : tensor<1x{p}x1x{d}xf16> into tensor<{pd}xf16>
"""

    def elementwise(name: str, maps: list[str], ins: list[tuple[str, str]], shape: str, body: str) -> str:
        args = ", ".join(f"%{n}_e : f32" for n, _ in ins)
        return f"""      %{name}_out = tensor.empty() : tensor<{shape}xf32>
      %{name} = linalg.generic {{indexing_maps = [{", ".join(maps)}],
          iterator_types = [{", ".join(['"parallel"'] * len(shape.split("x")))}]}}
          ins({", ".join(f"%{n}" for n, _ in ins)} : {", ".join(f"tensor<{t}xf32>" for _, t in ins)})
          outs(%{name}_out : tensor<{shape}xf32>) {{
      ^bb0({args}, %{name}_o : f32):
{body}
      }} -> tensor<{shape}xf32>
"""

    def row_reduce(name: str, source: str, combine: str, init: str) -> str:
        return f"""      %{name}_init = tensor.splat %{init} : tensor<{r}xf32>
      %{name} = linalg.reduce ins(%{source} : tensor<{rp}xf32>) outs(%{name}_init : tensor<{r}xf32>) dimensions = [1]
          (%{name}_a : f32, %{name}_b : f32) {{
        %{name}_c = {combine} %{name}_a, %{name}_b : f32
        linalg.yield %{name}_c : f32
      }}
"""

    loop = (
        "      %entry = arith.addi %block_table_offset, %j : index\n"
        + gather("k", "key_view") + gather("v", "value_view")
        + f"""      %kt_out = tensor.empty() : tensor<{dp}xf16>
      %kt = linalg.transpose ins(%k_2d : tensor<{pd}xf16>) outs(%kt_out : tensor<{dp}xf16>) permutation = [1, 0]
      %k32 = arith.extf %kt : tensor<{dp}xf16> to tensor<{dp}xf32>
      %v32 = arith.extf %v_2d : tensor<{pd}xf16> to tensor<{pd}xf32>
      %qk_zero = tensor.splat %zero : tensor<{rp}xf32>
      %qk = linalg.matmul ins(%q32, %k32 : tensor<{rd}xf32>, tensor<{dp}xf32>) outs(%qk_zero : tensor<{rp}xf32>) -> tensor<{rp}xf32>
      %scales = tensor.splat %scale : tensor<{rp}xf32>
      %scores = arith.mulf %scales, %qk : tensor<{rp}xf32>
"""
        + elementwise("masked", [id2, id2], [("scores", rp)], rp, f"""        %i = linalg.index 0 : index
        %k = linalg.index 1 : index
        %token = arith.divui %i, %c_group : index
        %q_pos = arith.addi %first_token, %token : index
        %last = arith.addi %context_len, %q_pos : index
        %tile_start = arith.muli %j, %c_page : index
        %key_pos = arith.addi %tile_start, %k : index
        %seen = arith.cmpi ule, %key_pos, %last : index
        %kept = arith.select %seen, %scores_e, %minus_inf : f32
        linalg.yield %kept : f32""")
        + row_reduce("tile_max", "masked", "arith.maximumf", "minus_inf")
        + elementwise("m_new", [id1, id1, id1], [("m", str(r)), ("tile_max", str(r))], str(r),
                      "        %mx = arith.maximumf %m_e, %tile_max_e : f32\n        linalg.yield %mx : f32")
        + elementwise("weights", [id2, row, id2], [("masked", rp), ("m_new", str(r))], rp,
                      "        %shifted = arith.subf %masked_e, %m_new_e : f32\n"
                      "        %w = math.exp %shifted : f32\n        linalg.yield %w : f32")
        + row_reduce("tile_sum", "weights", "arith.addf", "zero")
        + elementwise("alpha", [id1, id1, id1], [("m", str(r)), ("m_new", str(r))], str(r),
                      "        %drop = arith.subf %m_e, %m_new_e : f32\n"
                      "        %al = math.exp %drop : f32\n        linalg.yield %al : f32")
        + elementwise("rescaled", [id2, row, id2], [("acc", rd), ("alpha", str(r))], rd,
                      "        %ra = arith.mulf %acc_e, %alpha_e : f32\n        linalg.yield %ra : f32")
        + f"""      %acc_new = linalg.matmul ins(%weights, %v32 : tensor<{rp}xf32>, tensor<{pd}xf32>) outs(%rescaled : tensor<{rd}xf32>) -> tensor<{rd}xf32>
"""
        + elementwise("l_new", [id1, id1, id1, id1], [("l", str(r)), ("alpha", str(r)), ("tile_sum", str(r))], str(r),
                      "        %la = arith.mulf %l_e, %alpha_e : f32\n"
                      "        %ln = arith.addf %la, %tile_sum_e : f32\n        linalg.yield %ln : f32")
        + f"      scf.yield %m_new, %l_new, %acc_new : tensor<{r}xf32>, tensor<{r}xf32>, tensor<{rd}xf32>\n"
    )
    epilogue = elementwise("normalized", [id2, row, id2], [("acc_end", rd), ("l_end", str(r))], rd,
                           "        %dv = arith.divf %acc_end_e, %l_end_e : f32\n        linalg.yield %dv : f32")
    return f"""func.func @paged_attention(%output_ptr: index, %query_ptr: index, %key_cache_ptr: index,
    %value_cache_ptr: index, %block_tables_ptr: index, %cur_batch_start_index: index,
    %block_table_offset: index, %num_tiles: index, %context_len: index, %scale: f32)
    attributes {{grid = [{s.tokens // s.block}, {s.kv_heads}]}} {{
  %qb, %kv = ktdp.get_compute_tile_id : index, index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c_block = arith.constant {s.block} : index
  %c_group = arith.constant {s.group} : index
  %c_page = arith.constant {p} : index
  %first_token = arith.muli %qb, %c_block : index
  %q_row = arith.addi %cur_batch_start_index, %first_token : index
  %q_head = arith.muli %kv, %c_group : index
  %query_view = ktdp.construct_memory_view %query_ptr, sizes: {q_shape}, strides: [{_strides(q_shape)}]
      {{coordinate_set = {_box(*q_shape)}, memory_space = #ktdp.memory_space<global>}} : {q_type}
  %output_view = ktdp.construct_memory_view %output_ptr, sizes: {q_shape}, strides: [{_strides(q_shape)}]
      {{coordinate_set = {_box(*q_shape)}, memory_space = #ktdp.memory_space<global>}} : {q_type}
  %key_view = ktdp.construct_memory_view %key_cache_ptr, sizes: {cache}, strides: [{_strides(cache)}]
      {{coordinate_set = {_box(*cache)}, memory_space = #ktdp.memory_space<global>}} : {c_type}
  %value_view = ktdp.construct_memory_view %value_cache_ptr, sizes: {cache}, strides: [{_strides(cache)}]
      {{coordinate_set = {_box(*cache)}, memory_space = #ktdp.memory_space<global>}} : {c_type}
  %table_view = ktdp.construct_memory_view %block_tables_ptr, sizes: [1, {s.table}], strides: [{s.table}, 1]
      {{coordinate_set = {_box(1, s.table)}, memory_space = #ktdp.memory_space<global>}} : memref<1x{s.table}xi32>
  %q_tile = ktdp.construct_access_tile %query_view[%q_row, %q_head, %c0]
      {{access_tile_set = {_box(s.block, s.group, d)}, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>}}
      : {q_type} -> {tile_q}
  %q_3d = ktdp.load %q_tile : {tile_q} -> tensor<{s.block}x{s.group}x{d}xf16>
  %q16 = tensor.collapse_shape %q_3d [[0, 1], [2]] : tensor<{s.block}x{s.group}x{d}xf16> into tensor<{rd}xf16>
  %q32 = arith.extf %q16 : tensor<{rd}xf16> to tensor<{rd}xf32>
  %minus_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %m0 = tensor.splat %minus_inf : tensor<{r}xf32>
  %l0 = tensor.splat %one : tensor<{r}xf32>
  %acc0 = tensor.splat %zero : tensor<{rd}xf32>
  %m_end, %l_end, %acc_end = scf.for %j = %c0 to %num_tiles step %c1
      iter_args(%m = %m0, %l = %l0, %acc = %acc0) -> (tensor<{r}xf32>, tensor<{r}xf32>, tensor<{rd}xf32>) {{
{loop}  }}
{epilogue}  %out16 = arith.truncf %normalized : tensor<{rd}xf32> to tensor<{rd}xf16>
  %out_3d = tensor.expand_shape %out16 [[0, 1], [2]] output_shape [{s.block}, {s.group}, {d}]
      : tensor<{rd}xf16> into tensor<{s.block}x{s.group}x{d}xf16>
  %out_tile = ktdp.construct_access_tile %output_view[%q_row, %q_head, %c0]
      {{access_tile_set = {_box(s.block, s.group, d)}, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>}}
      : {q_type} -> {tile_q}
  ktdp.store %out_3d, %out_tile : tensor<{s.block}x{s.group}x{d}xf16>, {tile_q}
  return
}}
"""


CORPUS_SIZES = Sizes()
"""The corpus kernel's sizes."""

SMALL = Sizes(tokens=2, kv_heads=2, pages=8, table=8)
"""Sizes whose arrays toy's device memory holds and whose grid its two cores run at once."""

TWO_WAVES = Sizes(tokens=4, kv_heads=2, head=32, pages=8, table=8)
"""Sizes whose grid of 4 tiles toy's two cores run in two waves."""


def _inputs(num_tiles: int, offset: int, seed: int, context: int = 120,
            sizes: Sizes = CORPUS_SIZES) -> dict:
    rng = np.random.default_rng(seed)
    queries = (sizes.tokens, sizes.kv_heads * sizes.group, sizes.head)
    cache = (sizes.pages, sizes.page, sizes.kv_heads, sizes.head)
    return {
        "output_ptr": np.zeros(queries, np.float16),
        "query_ptr": rng.standard_normal(queries).astype(np.float16),
        "key_cache_ptr": rng.standard_normal(cache).astype(np.float16),
        "value_cache_ptr": rng.standard_normal(cache).astype(np.float16),
        "block_tables_ptr": rng.permutation(sizes.pages)[:sizes.table].astype(np.int32).reshape(1, -1),
        "cur_batch_start_index": 0, "block_table_offset": offset, "num_tiles": num_tiles,
        "context_len": context, "scale": float(1 / np.sqrt(sizes.head)),
    }


def paged_gqa_attention(inputs: dict, causal: bool = False) -> np.ndarray:
    """softmax(scale Q K^T) V per query token and head, in float64: of ``G`` query heads
    per KV head, query head h reads KV head h // G, whose keys and values are the pages
    the block table names from ``block_table_offset`` on, ``num_tiles`` pages of their
    positions each; ``causal``: query token t sees the key positions p <=
    context_len + t only."""
    q = inputs["query_ptr"].astype(np.float64)
    _, page, kv_heads, head = inputs["key_cache_ptr"].shape
    group = q.shape[1] // kv_heads
    pages = inputs["block_tables_ptr"][0, inputs["block_table_offset"]:][:inputs["num_tiles"]]
    keys = inputs["key_cache_ptr"].astype(np.float64)[pages].reshape(-1, kv_heads, head)
    values = inputs["value_cache_ptr"].astype(np.float64)[pages].reshape(-1, kv_heads, head)
    out = np.zeros_like(q)
    for h in range(q.shape[1]):
        scores = inputs["scale"] * q[:, h] @ keys[:, h // group].T
        if causal:
            tokens, positions = np.indices(scores.shape)
            scores[positions > inputs["context_len"] + tokens] = -np.inf
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        out[:, h] = (weights / weights.sum(axis=1, keepdims=True)) @ values[:, h // group]
    return out.astype(np.float16)


ELEMENTS = {"output_ptr": "f16", "query_ptr": "f16", "key_cache_ptr": "f16",
            "value_cache_ptr": "f16", "block_tables_ptr": "i32"}


def _expected(inputs: dict, causal: bool) -> dict:
    return {**{k: v for k, v in inputs.items() if isinstance(v, np.ndarray)},
            "output_ptr": paged_gqa_attention(inputs, causal)}


def test_the_kernel_matches_causal_paged_gqa_attention_on_line4():
    """The kernel as written on the third chip, whose vector unit has no select
    instruction: a context of 40 keeps 41 to 48 of the 48 keys of its rows."""
    inputs = _inputs(num_tiles=3, offset=2, seed=0, context=40)
    simulated, reference = run(corpus_kernel(KERNEL).read_text(), str(LINE4), inputs)
    agree(simulated, reference, _expected(inputs, causal=True), ELEMENTS, 128)


def test_a_paged_attention_in_two_waves_on_toy():
    """Toy's two cores run the 4 tiles in two waves, in which buffers of later steps
    share the bytes of earlier ones: the next wave writes an earlier one only once the
    wave before has read the later ones (``shared-bytes-waves.mlir``)."""
    inputs = _inputs(num_tiles=3, offset=2, seed=2, context=40, sizes=TWO_WAVES)
    simulated, reference = run(paged_attention(TWO_WAVES), "toy", inputs, "two_waves.mlir")
    agree(simulated, reference, _expected(inputs, causal=True), ELEMENTS, 128)


def test_the_comparison_tells_the_mask_apart():
    """The comparison can fail: attention without the causal mask, where the mask hides
    keys, is refused by the same rule."""
    inputs = _inputs(num_tiles=3, offset=2, seed=0, context=40)
    got, want = paged_gqa_attention(inputs), paged_gqa_attention(inputs, causal=True)
    assert compare({"o": got}, {"o": want}, {"o": "f16"}, 128) is not None


def test_the_kernel_matches_causal_paged_gqa_attention_on_spyre():
    """The kernel as written on Spyre, its f32 row broadcasts through staging rows."""
    inputs = _inputs(num_tiles=3, offset=2, seed=0, context=40)
    simulated, reference = run(corpus_kernel(KERNEL).read_text(), "spyre", inputs)
    agree(simulated, reference, _expected(inputs, causal=True), ELEMENTS, 128)


def test_toy_cannot_hold_the_key_cache_and_the_launch_says_so():
    """The kernel as written compiles for toy; its launch places the 64 KiB query and
    output, and then cannot place the 2 MiB key cache in the 1 MiB device memory."""
    inputs = _inputs(num_tiles=3, offset=2, seed=0, context=40)
    with pytest.raises(KtcError, match=r"device: DDR cannot hold 2097152 more bytes: 131072 of "
                                       r"1048576 in use, placing %key_cache_ptr "
                                       r"\(float16\[64, 16, 8, 128\]\) for arch 'toy'$"):
        run(corpus_kernel(KERNEL).read_text(), "toy", inputs)


def test_the_attention_written_here_computes_what_the_corpus_kernel_does():
    """At the corpus's sizes, ``paged_attention`` gives the corpus kernel's bits on the
    reference interpreter, and other bits for a shorter context (the check can fail)."""
    inputs = _inputs(num_tiles=3, offset=2, seed=1, context=40)
    written = Kernel.from_text(paged_attention(CORPUS_SIZES), "written.mlir").execute(dict(inputs))
    corpus = Kernel.from_text(corpus_kernel(KERNEL).read_text(), KERNEL).execute(dict(inputs))
    assert np.array_equal(written.outputs["output_ptr"], corpus.outputs["output_ptr"])
    shorter = dict(inputs, context_len=20)
    other = Kernel.from_text(paged_attention(CORPUS_SIZES), "written.mlir").execute(shorter)
    assert not np.array_equal(other.outputs["output_ptr"], corpus.outputs["output_ptr"])


@pytest.mark.parametrize("device", ["toy", str(LINE4)], ids=["toy", "line4"])
def test_a_smaller_paged_attention_matches_on_devices_without_select(device: str):
    """2 tokens, 2 KV heads (a grid of 2 tiles) and a cache of 8 pages (128 KiB of keys
    and values): a context of 40 keeps 41 and 42 of the 48 keys of its rows."""
    inputs = _inputs(num_tiles=3, offset=2, seed=2, context=40, sizes=SMALL)
    simulated, reference = run(paged_attention(SMALL), device, inputs, "small.mlir")
    agree(simulated, reference, _expected(inputs, causal=True), ELEMENTS, 128)


def test_the_comparison_tells_another_page_order_apart():
    """The comparison can fail: attention over the table's pages moved by one place
    (other keys and values for the same positions) is refused by the same rule."""
    inputs = _inputs(num_tiles=3, offset=2, seed=0)
    moved = dict(inputs, block_tables_ptr=np.roll(inputs["block_tables_ptr"], 1, axis=1))
    got, want = paged_gqa_attention(moved), paged_gqa_attention(inputs)
    assert compare({"o": got}, {"o": want}, {"o": "f16"}, 128) is not None
