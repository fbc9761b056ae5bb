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
for the SIMD product (``contraction-pipeline``), and the output expanded back. Toy and
the third test chip have no select instruction and refuse the mask naming it; on the
third chip with a select instruction added to its file the kernel as written runs and
is compared with causal paged GQA attention in numpy, written here, on a random block
table of permuted pages with a context short enough for the mask to hide keys, and with
the reference interpreter; so is the kernel with its mask taken out (the masked scores
replaced by the scores) on the third chip as it is. On Spyre the kernel as written runs and is
compared the same way: its f32 row maximum broadcast over the scores, which Spyre's
load unit cannot splat (it splats only 2-byte elements and its links carry no 4-byte
scalar), is copied with stride 0 into a staging row of the scratchpad by the engine
that copies within it (the ring stop) and loaded as a vector
(``scalar-broadcast-legalization``). Toy, without its mask, compiles, and its device
memory of 1 MiB cannot hold the 2 MiB key cache: the launch says so."""

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


def _with_select(tmp_path: Path) -> str:
    """The third test chip's file with the select instruction added to its SIMD engine."""
    text = LINE4.read_text().replace('"add", "sub",', '"select", "add", "sub",', 1)
    path = tmp_path / "line4_select.mlir"
    path.write_text(text)
    return str(path)


def _inputs(num_tiles: int, offset: int, seed: int, context: int = 120) -> dict:
    rng = np.random.default_rng(seed)
    return {
        "output_ptr": np.zeros((8, 32, 128), np.float16),
        "query_ptr": rng.standard_normal((8, 32, 128)).astype(np.float16),
        "key_cache_ptr": rng.standard_normal((64, 16, 8, 128)).astype(np.float16),
        "value_cache_ptr": rng.standard_normal((64, 16, 8, 128)).astype(np.float16),
        "block_tables_ptr": rng.permutation(64)[:16].astype(np.int32).reshape(1, 16),
        "cur_batch_start_index": 0, "block_table_offset": offset, "num_tiles": num_tiles,
        "context_len": context, "scale": float(SCALE),
    }


def paged_gqa_attention(inputs: dict, causal: bool = False) -> np.ndarray:
    """softmax(scale Q K^T) V per query token and head, in float64: query head h reads
    KV head h // 4, whose keys and values are the pages the block table names from
    ``block_table_offset`` on, ``num_tiles`` pages of 16 positions each; ``causal``:
    query token t sees the key positions p <= context_len + t only."""
    q = inputs["query_ptr"].astype(np.float64)
    pages = inputs["block_tables_ptr"][0, inputs["block_table_offset"]:][:inputs["num_tiles"]]
    keys = inputs["key_cache_ptr"].astype(np.float64)[pages].reshape(-1, 8, 128)
    values = inputs["value_cache_ptr"].astype(np.float64)[pages].reshape(-1, 8, 128)
    out = np.zeros_like(q)
    for head in range(32):
        scores = inputs["scale"] * q[:, head] @ keys[:, head // 4].T
        if causal:
            tokens, positions = np.indices(scores.shape)
            scores[positions > inputs["context_len"] + tokens] = -np.inf
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        out[:, head] = (weights / weights.sum(axis=1, keepdims=True)) @ values[:, head // 4]
    return out.astype(np.float16)


ELEMENTS = {"output_ptr": "f16", "query_ptr": "f16", "key_cache_ptr": "f16",
            "value_cache_ptr": "f16", "block_tables_ptr": "i32"}


def _expected(inputs: dict, causal: bool) -> dict:
    return {**{k: v for k, v in inputs.items() if isinstance(v, np.ndarray)},
            "output_ptr": paged_gqa_attention(inputs, causal)}


@pytest.mark.parametrize("device", ["toy", str(LINE4)], ids=["toy", "line4"])
def test_devices_without_select_refuse_the_causal_mask_naming_it(device: str):
    path = corpus_kernel(KERNEL)
    with pytest.raises(KtcError, match="'arith.select' needs the instruction select") as caught:
        compile_kernel(path.read_text(), device, str(path))
    assert caught.value.where.startswith(f"{path}:289:")


def test_the_kernel_matches_causal_paged_gqa_attention_with_a_select(tmp_path: Path):
    """The kernel as written, on the third chip given a select instruction: a context
    of 40 keeps 41 to 48 of the 48 keys of its rows."""
    inputs = _inputs(num_tiles=3, offset=2, seed=0, context=40)
    simulated, reference = run(corpus_kernel(KERNEL).read_text(), _with_select(tmp_path), inputs)
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


def test_without_the_mask_toy_compiles_and_cannot_hold_the_key_cache():
    path = corpus_kernel(KERNEL)
    inputs = _inputs(num_tiles=3, offset=2, seed=0)
    with pytest.raises(KtcError, match="DDR cannot hold 2097152 more bytes"):
        run(_unmasked(path.read_text()), "toy", inputs)


def test_without_the_mask_matches_paged_gqa_attention_on_line4():
    text = _unmasked(corpus_kernel(KERNEL).read_text())
    inputs = _inputs(num_tiles=3, offset=2, seed=0)
    simulated, reference = run(text, str(LINE4), inputs)
    agree(simulated, reference, _expected(inputs, causal=False), ELEMENTS, 128)


def test_the_comparison_tells_another_page_order_apart():
    """The comparison can fail: attention over the table's pages moved by one place
    (other keys and values for the same positions) is refused by the same rule."""
    inputs = _inputs(num_tiles=3, offset=2, seed=0)
    moved = dict(inputs, block_tables_ptr=np.roll(inputs["block_tables_ptr"], 1, axis=1))
    got, want = paged_gqa_attention(moved), paged_gqa_attention(inputs)
    assert compare({"o": got}, {"o": want}, {"o": "f16"}, 128) is not None
