"""The value plan's copies made by the compiled core (``_core.copies``): each is what
the Python engines' copy makes (the source at the target's leading corner, zeros in
the rest; ``i1`` elements 0 or 1), written here with numpy; copies the core leaves to
Python (overlapping views) and plans that reach outside the arena are told apart."""

from __future__ import annotations

import numpy as np
import pytest
from ktc.codegen import isa
from ktc.sim import compiled, numerics

core = compiled._core
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")

F16, I1 = isa.TYPES.index("f16"), isa.TYPES.index("i1")


def view(address: int, dtype: int, shape: tuple, strides: tuple) -> list[int]:
    """A plan view: arena address, the memory's address (unused here), type, rank,
    shape, strides in elements."""
    return [address, 0, dtype, len(shape), *shape, *strides]


def dma(source: list[int], target: list[int]) -> list[int]:
    return [core.LOG_DMA, 1, *source, *target]


def copies(space: np.ndarray, *batches: list[int], at: int = 0) -> int:
    plan = np.array([w for batch in batches for w in batch], np.int64)
    return core.copies(space, plan, at, compiled.BYTES_PER_TYPE, compiled._BIT_TYPE)


def elements(space: np.ndarray, address: int, dtype, shape: tuple, strides: tuple) -> np.ndarray:
    size = np.dtype(dtype).itemsize
    return np.ndarray(shape, dtype, space, address, tuple(s * size for s in strides))


def test_a_copy_lands_at_the_targets_corner_with_zeros_around_it():
    rng = np.random.default_rng(0)
    space = rng.integers(0, 256, 4096, dtype=np.uint8)
    source = elements(space, 0, np.float16, (3, 5), (8, 1)).copy()
    words = dma(view(0, F16, (3, 5), (8, 1)), view(1024, F16, (4, 6), (16, 1)))
    assert copies(space, words) == len(words)
    expected = np.zeros((4, 6), np.float16)
    expected[:3, :5] = source
    got = elements(space, 1024, np.float16, (4, 6), (16, 1))
    assert got.view(np.uint16).tolist() == expected.view(np.uint16).tolist()


def test_a_strided_copy_moves_every_element_and_consecutive_copies_run_until_another_batch():
    rng = np.random.default_rng(1)
    space = rng.integers(0, 256, 8192, dtype=np.uint8)
    source = elements(space, 0, np.float16, (4, 7), (3, 2)).copy()
    first = dma(view(0, F16, (4, 7), (3, 2)), view(2048, F16, (4, 7), (1, 4)))
    second = dma(view(0, F16, (4, 7), (3, 2)), view(4096, F16, (4, 7), (7, 1)))
    other = [core.LOG_STORE, 0, 0, 0, 0, 0]
    assert copies(space, first, second, other) == len(first) + len(second)
    for address, strides in ((2048, (1, 4)), (4096, (7, 1))):
        got = elements(space, address, np.float16, (4, 7), strides)
        assert got.view(np.uint16).tolist() == source.view(np.uint16).tolist()


def test_i1_elements_become_zero_or_one():
    space = np.zeros(256, np.uint8)
    space[:6] = [0, 1, 2, 3, 128, 0]
    words = dma(view(0, I1, (6,), (1,)), view(64, I1, (8,), (1,)))
    copies(space, words)
    assert space[64:72].tolist() == [0, 1, 1, 1, 1, 0, 0, 0]


def test_overlapping_views_are_left_to_the_python_copy():
    space = np.arange(256, dtype=np.uint8)
    words = dma(view(0, F16, (16,), (1,)), view(8, F16, (16,), (1,)))
    assert copies(space, words) == 0
    assert space.tolist() == list(range(256))


def test_a_view_outside_the_arena_is_an_error():
    space = np.zeros(256, np.uint8)
    with pytest.raises(ValueError, match="outside the arena"):
        copies(space, dma(view(0, F16, (8,), (1,)), view(250, F16, (8,), (1,))))


@pytest.mark.parametrize("name", ["f16", "df16", "i16"])
def test_every_2_byte_code_decodes_and_encodes_to_itself(name: str):
    """Why moving bytes is the Python copy: its decode and encode leave every code."""
    codes = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(numerics.storage_dtype(name))
    again = np.asarray(numerics.to_storage(name, numerics.from_storage(name, codes)))
    assert again.view(np.uint16).tolist() == codes.view(np.uint16).tolist()
