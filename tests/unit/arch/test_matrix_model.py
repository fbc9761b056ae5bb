"""The matrix unit in the device model: its figures as the arch files give them, the
operand feed and drain read from the routing graph, the compute roofline, and no route
through it. Spyre's unit is 8 x 64 fp16 lanes with fp32 accumulators on each of its 64
sub-cores (2,048 flop per cycle per core); toy has a small one; the third test chip has
none, so contractions there run on its SIMD engine."""

import pytest
from conftest import LINE4
from xdsl.dialects.builtin import f16, f32

from ktc.arch.model import Device
from ktc.errors import KtcError

SPYRE_FLOPS_PER_CORE = 2048
"""IBM's interpreter preset for the first Spyre generation."""


@pytest.mark.parametrize("name, rows, lanes, fill, drain, accumulators",
                         [("spyre", 8, 64, 8, 8, 65536), ("toy", 2, 8, 2, 2, 512)])
def test_figures_come_from_the_file(name, rows, lanes, fill, drain, accumulators):
    device = Device.load(name)
    unit = device.matrix
    assert device.matrix_kind == unit.kind == "PT"
    assert (unit.rows, unit.lanes, unit.fill, unit.drain) == (rows, lanes, fill, drain)
    assert (unit.input, unit.accumulator) == (f16, f32)
    assert unit.accumulators == "PT_ACC" and unit.accumulator_bytes == accumulators
    assert device.engine("PT").local_memories == ("PT_ACC",)
    assert unit.feeds == ("L1LU",) and unit.drains == ("L1SU",)
    assert device.engine("PT").count == device.compute.count, "one matrix unit per sub-core"
    assert not device.engine("PT").compute and device.compute_kind == "SFU"


def test_spyre_flops_per_core():
    device = Device.load("spyre")
    roof = device.roofline
    assert roof.matrix_units == device.cores * device.subcores_per_core
    assert roof.flops_per_cycle(f16) / device.cores == SPYRE_FLOPS_PER_CORE
    # An operand type the unit does not take is multiplied by the SIMD engine's fma.
    simd = 2 * device.cores * device.subcores_per_core * device.lanes(f32)
    assert roof.flops_per_cycle(f32) == simd


@pytest.mark.parametrize("name, shared", [("spyre", 2), ("toy", 1), (LINE4, 1)])
def test_the_units_a_cores_products_are_shared_out_over(name, shared):
    """Spyre's two sub-cores each have a unit; toy's core has one sub-core; the third
    chip none."""
    assert Device.load(name).matrix_subcores == shared


def test_a_chip_without_a_matrix_unit_multiplies_on_its_simd_engine():
    device = Device.load(LINE4)
    assert device.matrix is None and device.matrix_kind is None
    lanes = device.lanes(f16)
    assert device.roofline.flops_per_cycle(f16) == 2 * device.cores * lanes / device.compute.issue_cycles["plain"]


@pytest.mark.parametrize("m, k, n", [(8, 1, 64), (64, 32, 64), (9, 5, 65), (1, 7, 1)])
def test_steps_cover_every_output_block_once_per_k(m, k, n):
    unit = Device.load("spyre").matrix
    blocks = -(-m // unit.rows) * -(-n // unit.lanes)
    assert unit.steps(m, k, n) == k * blocks
    assert unit.cycles(m, k, n) == unit.steps(m, k, n) * unit.issue_cycles
    # Whole blocks reach the unit's peak: rows x lanes multiply-accumulates per step.
    if m % unit.rows == 0 and n % unit.lanes == 0:
        assert m * k * n == unit.steps(m, k, n) * unit.rows * unit.lanes


def test_fifo_bytes_are_depth_times_beat():
    device = Device.load("spyre")
    assert device.fifo_bytes("L1LU", "PT") == 128 * 128
    assert device.fifo_bytes("PT", "L1SU") == 128 * 128
    assert device.fifo_bytes("L1LU", "SFU") == 16 * 128
    assert Device.load("toy").fifo_bytes("L1LU", "PT") == 16 * 16


@pytest.mark.parametrize("name", ["spyre", "toy"])
def test_no_route_passes_through_the_matrix_unit(name):
    device = Device.load(name)
    # From the load unit to the store unit the only ways lead through the SFU or
    # the PT: neither is a route.
    with pytest.raises(KtcError, match="has no path from L1LU"):
        device.path(device.node("L1LU"), device.node("L1SU"))
    route = device.path(device.node(device.device_memory), device.node("PT"))
    assert [link.target.kind for link in route] == ["MNILU", "L1", "L1LU", "PT"]
