"""The worked example of docs/arch-format.md loads and answers what the document
says it answers."""

import re
from pathlib import Path

import pytest
from conftest import ROOT
from xdsl.dialects.builtin import f16

from ktc.arch.model import Device

DOC = ROOT / "docs" / "arch-format.md"


@pytest.fixture(scope="module")
def device(tmp_path_factory: pytest.TempPathFactory) -> Device:
    match = re.search(r"^## 7\. A complete worked example.*?^```mlir\n(.*?)^```", DOC.read_text(), re.M | re.S)
    assert match is not None, "docs/arch-format.md no longer has its worked example"
    path: Path = tmp_path_factory.mktemp("doc") / "pair.mlir"
    path.write_text(match.group(1))
    return Device.load(path)


def test_the_worked_example_answers_as_documented(device: Device):
    assert (device.cores, device.subcores_per_core) == (2, 1)
    assert device.memory_space("ct_local").size == 65536
    assert device.lanes(f16) == 8
    route = device.path(device.node("DDR"), device.node("VEC", core=1))
    assert [link.target.name for link in route] == ["DMAIN[1]", "L1[1]", "VEC[1]"]
    assert (device.core_hops(0, 1), device.neighbours(0)) == (1, (1,))
    assert device.roofline.device_memory_bytes_per_cycle == 16
    assert device.place_grid([4]).waves == 2
    assert device.roofline.elements_per_cycle("transcendental", f16) == 4
