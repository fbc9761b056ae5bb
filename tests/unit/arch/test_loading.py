"""Loading a device: by name or path, once per file content, through imports whose
declarations lay their attributes over the definition."""

import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from ktc.arch.model import Device
from ktc.dialects.diagnostics import KtcError

INPUTS = ROOT / "tests" / "lit" / "arch" / "Inputs"


def test_a_name_and_its_path_give_the_same_device():
    assert Device.load("toy") is Device.load(ROOT / "arch" / "toy.mlir")
    assert Device.load("toy") is Device.load("toy")


def test_changed_content_gives_a_new_device(tmp_path: Path):
    path = tmp_path / "mine.mlir"
    shutil.copy(ROOT / "arch" / "toy.mlir", path)
    first = Device.load(path)
    assert first.memory("L1").size == 65536
    path.write_text(path.read_text().replace('size = 65536', 'size = 32768'))
    second = Device.load(path)
    assert second is not first and second.memory("L1").size == 32768
    assert second.content_hash != first.content_hash


def test_a_declaration_lays_its_attributes_over_the_imported_definition():
    device = Device.load(INPUTS / "imports_toy.mlir")
    assert device.name == "my_toy"
    assert device.clock_mhz == 250
    assert device.files == (str(INPUTS / "imports_toy.mlir"), str(ROOT / "arch" / "toy.mlir"))
    assert device.cores == Device.load("toy").cores
    assert device.content_hash != Device.load("toy").content_hash


def test_a_missing_import_names_the_declaration(tmp_path: Path):
    path = tmp_path / "broken.mlir"
    path.write_text('ktdf_arch.device @broken import("nowhere.mlir")\n')
    with pytest.raises(KtcError) as error:
        Device.load(path)
    assert str(error.value) == f"{path}:1:1: error: imported device file not found: nowhere.mlir"


def test_unknown_names_list_the_packaged_devices():
    with pytest.raises(KtcError, match=r"unknown device 'nosuch' \(available: spyre, toy\)"):
        Device.load("nosuch")


SWITCHED = """
ktdf_arch.device @switched {
  %ddr = memory {kind = "DDR", size = 4096}
  group {kind = "core"} share(%ddr) {
    %l1 = memory {kind = "L1", size = 1024}
    %dma = exec_unit {kind = "DMA"}
    %pe = exec_unit {kind = "PE", ktdf_arch.features = {ktdf_arch.feature.compute}}
    %p:3 = switch [3] {connectivity = dense<[[false, true, false], [false, false, true], [true, false, false]]> : tensor<3x3xi1>}
    datapath %ddr to %dma : memory, exec_unit
    datapath %dma to %p#0 : exec_unit, port
    datapath %p#1 to %l1 : port, memory
    datapath %l1 to %pe : memory, exec_unit
    datapath %pe to %p#2 : exec_unit, port
    datapath %p#0 to %ddr : port, memory
  }
}
"""


def test_a_switch_passes_between_connected_ports_only(tmp_path: Path):
    path = tmp_path / "switched.mlir"
    path.write_text(SWITCHED)
    device = Device.load(path)
    there = device.path(device.node("DDR"), device.node("PE"))
    assert [(link.kind, link.target.name) for link in there] == [
        ("", "DMA[0]"), ("", "port[0]"), ("switch", "port[0]"), ("", "L1[0]"), ("", "PE[0]")
    ]
    back = device.path(device.node("PE"), device.node("DDR"))
    assert [link.kind for link in back] == ["", "switch", ""]
    assert sum(link.kind == "switch" for link in device.links) == 3
