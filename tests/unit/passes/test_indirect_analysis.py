"""What an indirect access tile moves per DMA (``passes/analysis/indirect.py``): the
run of an embedding's row, the tokens of a page once the token variable is split at
its ``floordiv`` / ``mod``, one element where two indirect dimensions name every
point; every indirect tile of the corpus is described or refused with a located
reason, never a crash."""

import pytest
from xdsl.ir.affine import AffineMap

from conftest import corpus_files
from ktc.dialects import context
from ktc.dialects.ktdp import ConstructIndirectAccessTileOp
from ktc.dialects.source import parse_module
from ktc.errors import KtcError
from ktc.passes.analysis.indirect import describe

VIEWS = """
  %t = ktdp.construct_memory_view %x, sizes: [64, 4, 16, 32], strides: [2048, 512, 32, 1] {coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x4x16x32xf16>
  %b = ktdp.construct_memory_view %y, sizes: [2, 4], strides: [4, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
"""


def _tile(subscripts: str, space: str, shape: str) -> ConstructIndirectAccessTileOp:
    text = (f"func.func @f(%x: index, %y: index) {{{VIEWS}"
            f"  %g = ktdp.construct_indirect_access_tile intermediate_variables(%s, %h, %t2, %d) "
            f"%t[{subscripts}] {{variables_space_set = {space}, "
            f"variables_space_order = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>}} "
            f": memref<64x4x16x32xf16>, memref<2x4xi32> -> !ktdp.access_tile<{shape}xindex>\n"
            "  return\n}")
    module = parse_module(text, "f.mlir", context())
    return next(op for op in module.walk() if isinstance(op, ConstructIndirectAccessTileOp))


SPACE = ("affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, "
         "d2 >= 0, -d2 + 63 >= 0, d3 >= 0, -d3 + 31 >= 0)>")


def test_a_paged_token_splits_into_page_and_slot_and_the_slot_joins_the_run():
    facts = describe(_tile("ind(%b[%s, %t2 floordiv 16]), (%h), (%t2 mod 16), (%d)", SPACE, "2x4x64x32"))
    assert facts.loops == (2, 4, 4, 16, 32)
    assert (facts.runs, facts.run_dims) == (2, (2, 3))
    assert facts.placement == AffineMap.from_callable(lambda a, b, c, d, e: (a, b, c * 16 + d, e))


def test_the_part_of_a_variable_an_index_reads_ends_the_run():
    """The features' high part picks the page, so only their low part is a run; the
    token's slot, outside it, is not contiguous with it."""
    facts = describe(_tile("ind(%b[%s, %d floordiv 16]), (%h), (%t2 mod 16), (%d mod 16)", SPACE, "2x4x64x32"))
    assert facts.loops == (2, 4, 4, 16, 2, 16)
    assert (facts.runs, facts.run_dims) == (1, (3,))


def test_a_scaled_variable_is_not_part_of_a_run():
    facts = describe(_tile("ind(%b[%s, %h]), (%h), (%t2 floordiv 4), (%d * 0 + %t2 mod 4)", SPACE,
                           "2x4x64x32"))
    assert facts.runs == 0


def _corpus_tiles():
    for path in corpus_files():
        try:
            module = parse_module(path.read_text(), str(path), context())
        except KtcError:
            continue
        for op in module.walk():
            if isinstance(op, ConstructIndirectAccessTileOp):
                yield pytest.param(op, id=f"{path.name}:{op.location}")


@pytest.mark.parametrize("tile", list(_corpus_tiles()))
def test_every_corpus_tile_is_described_or_refused_with_a_location(tile):
    try:
        facts = describe(tile)
    except KtcError as error:
        assert ".mlir:" in str(error) and "construct_indirect_access_tile" in str(error)
        return
    assert len(facts.placement.results) == len(facts.shape)
