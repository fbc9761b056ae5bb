"""The corpus's paged attention (``triton-ktir/paged_attention.mlir``): GQA attention of
8 query rows (2 tokens x 4 heads of one KV head) over a paged KV cache read through a
block table, an online softmax over 16-key tiles, and a causal mask.

The causal mask is a ``linalg.generic`` computing on ``linalg.index`` values. Positions
compile when they are joined by constants only (``tests/e2e/test_positions.py``); this
mask adds the context length, the tile's query block and the loop's key tile to them
(values known only at run time), so the kernel as written is refused at the first such
``arith.addi``, with its location, on every test device. Everything else compiles: the query tile of two tokens
4096 elements apart collapsed to 8 rows (copied through the scratchpad,
``stage-reshaped-tiles``), the keys gathered and read transposed through an
``arith.extf`` (``normalize-contractions``), the values gathered and written transposed
for the SIMD product (``contraction-pipeline``), and the output expanded back. The
kernel with its mask taken out (the masked scores replaced by the scores) runs on the
third test chip and is compared with paged GQA attention in numpy, written here, on a
random block table of permuted pages, and with the reference interpreter. Spyre and
toy refuse it at its f32 row maximum broadcast over the scores: their load unit
splats only 2-byte elements and their links carry no 4-byte scalar (a located
diagnostic)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import DEVICES, LINE4, corpus_kernel  # noqa: E402
from simulated import agree, run  # noqa: E402

from ktc.driver import compile as compile_kernel  # noqa: E402
from ktc.errors import KtcError  # noqa: E402
from ktc.sim.check import compare  # noqa: E402

KERNEL = "ktir-cpu/triton-ktir/paged_attention.mlir"
GRID = (4, 8)
"""Query blocks of 2 tokens x KV heads."""
SCALE = 1 / np.sqrt(128)


def _unmasked(text: str) -> str:
    """The kernel with the causal mask's generic taken out: its readers read the scores."""
    start = text.index("      %S_masked_empty")
    end = text.index("} -> tensor<8x16xf32>", start) + len("} -> tensor<8x16xf32>")
    return (text[:start] + text[end:]).replace("%S_masked", "%S")


def _inputs(num_tiles: int, offset: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    return {
        "output_ptr": np.zeros((8, 32, 128), np.float16),
        "query_ptr": rng.standard_normal((8, 32, 128)).astype(np.float16),
        "key_cache_ptr": rng.standard_normal((64, 16, 8, 128)).astype(np.float16),
        "value_cache_ptr": rng.standard_normal((64, 16, 8, 128)).astype(np.float16),
        "block_tables_ptr": rng.permutation(64)[:16].astype(np.int32).reshape(1, 16),
        "cur_batch_start_index": 0, "block_table_offset": offset, "num_tiles": num_tiles,
        "context_len": 120, "scale": float(SCALE),
    }


def paged_gqa_attention(inputs: dict) -> np.ndarray:
    """softmax(scale Q K^T) V per query token and head, in float64: query head h reads
    KV head h // 4, whose keys and values are the pages the block table names from
    ``block_table_offset`` on, ``num_tiles`` pages of 16 positions each."""
    q = inputs["query_ptr"].astype(np.float64)
    pages = inputs["block_tables_ptr"][0, inputs["block_table_offset"]:][:inputs["num_tiles"]]
    keys = inputs["key_cache_ptr"].astype(np.float64)[pages].reshape(-1, 8, 128)
    values = inputs["value_cache_ptr"].astype(np.float64)[pages].reshape(-1, 8, 128)
    out = np.zeros_like(q)
    for head in range(32):
        scores = inputs["scale"] * q[:, head] @ keys[:, head // 4].T
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        out[:, head] = (weights / weights.sum(axis=1, keepdims=True)) @ values[:, head // 4]
    return out.astype(np.float16)


@pytest.mark.parametrize("device", DEVICES)
def test_the_causal_mask_is_refused_where_it_adds_a_run_time_value_to_a_position(device: str):
    path = corpus_kernel(KERNEL)
    with pytest.raises(KtcError, match="'arith.addi' computes on the element's position "
                                       r"\(linalg.index\) with a value from outside the body"
                       ) as caught:
        compile_kernel(path.read_text(), device, str(path))
    assert caught.value.where.startswith(f"{path}:284:")


@pytest.mark.parametrize("device", ["spyre", "toy"])
def test_without_the_mask_spyre_and_toy_refuse_the_f32_row_broadcast(device: str):
    path = corpus_kernel(KERNEL)
    with pytest.raises(KtcError, match="does not carry a 4-byte scalar") as caught:
        compile_kernel(_unmasked(path.read_text()), device, str(path))
    assert caught.value.where.startswith(f"{path}:")


def test_without_the_mask_matches_paged_gqa_attention_on_line4():
    text = _unmasked(corpus_kernel(KERNEL).read_text())
    inputs = _inputs(num_tiles=3, offset=2, seed=0)
    simulated, reference = run(text, str(LINE4), inputs)
    expected = {**{k: v for k, v in inputs.items() if isinstance(v, np.ndarray)},
                "output_ptr": paged_gqa_attention(inputs)}
    elements = {"output_ptr": "f16", "query_ptr": "f16", "key_cache_ptr": "f16",
                "value_cache_ptr": "f16", "block_tables_ptr": "i32"}
    agree(simulated, reference, expected, elements, 128)


def test_the_comparison_tells_another_page_order_apart():
    """The comparison can fail: attention over the table's pages moved by one place
    (other keys and values for the same positions) is refused by the same rule."""
    inputs = _inputs(num_tiles=3, offset=2, seed=0)
    moved = dict(inputs, block_tables_ptr=np.roll(inputs["block_tables_ptr"], 1, axis=1))
    got, want = paged_gqa_attention(moved), paged_gqa_attention(inputs)
    assert compare({"o": got}, {"o": want}, {"o": "f16"}, 128) is not None
