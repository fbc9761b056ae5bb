"""What the ktdp dialect promises beyond its text form: how the legacy memory spaces
map onto the current ones, and the checks no textual input can reach."""

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.utils.exceptions import VerifyException

from ktc.dialects.ktdp import AccessTileType, MemorySpaceAttr, SpyreMemorySpaceAttr
from ktc.dialects.ktdp import MemorySpaceKind as Kind
from ktc.dialects.ktdp import SpyreMemorySpaceKind as Spyre


@pytest.mark.parametrize(
    "legacy, current",
    [
        (SpyreMemorySpaceAttr(Spyre.HBM), MemorySpaceAttr(Kind.GLOBAL)),
        (SpyreMemorySpaceAttr(Spyre.LX), MemorySpaceAttr(Kind.CT_LOCAL)),
        (SpyreMemorySpaceAttr(Spyre.L0, 3), MemorySpaceAttr(Kind.CT_LOCAL, 3)),
        (SpyreMemorySpaceAttr(Spyre.LX, 7), MemorySpaceAttr(Kind.CT_LOCAL, 7)),
        (SpyreMemorySpaceAttr(Spyre.UNSPECIFIED), None),
    ],
)
def test_legacy_memory_space_maps_to_current(legacy, current):
    assert legacy.to_memory_space() == current


def test_access_tile_is_shaped_like_its_tensor():
    tile = AccessTileType([DYNAMIC_INDEX, 64])
    assert tile.get_shape() == (DYNAMIC_INDEX, 64)
    assert not tile.has_static_shape()
    assert AccessTileType([]).get_num_dims() == 0


def test_access_tile_dimensions_are_dynamic_or_non_negative():
    with pytest.raises(VerifyException, match="tile dimension size must be dynamic or >= 0"):
        AccessTileType([-2, 64])
