"""A module's device is read once per compile: every pass, codegen and the package
ask ``device_of`` and get the same ``Device`` without loading the description again;
a module whose declaration changes gets the device it names now."""

from pathlib import Path

import pytest
from xdsl.dialects.builtin import StringAttr

from ktc import driver
from ktc.arch import attach_device, resolve
from ktc.arch.model import Device, device_of
from ktc.dialects import context
from ktc.dialects.ktdf_arch import DeviceOp
from ktc.dialects.source import parse_module

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def loads(monkeypatch) -> list[str]:
    """The paths ``Device.load`` is called with, from now on."""
    calls: list[str] = []
    original = Device.load.__func__

    def counting(cls, name_or_path):
        calls.append(str(name_or_path))
        return original(cls, name_or_path)

    monkeypatch.setattr(Device, "load", classmethod(counting))
    return calls


def test_a_compile_loads_its_device_once(loads):
    text = (ROOT / "examples" / "softmax.mlir").read_text()
    package = driver.compile(text, "spyre", "softmax.mlir")
    assert package.arch_name == "spyre"
    assert len(loads) == 1, loads


def test_every_ask_gets_the_same_device(loads):
    module = parse_module((ROOT / "examples" / "add.mlir").read_text(), "add.mlir", context())
    attach_device(module, "toy")
    first = device_of(module)
    assert all(device_of(module) is first for _ in range(5))
    assert first.name == "toy" and len(loads) == 1


def test_a_changed_declaration_is_read_again(loads):
    module = parse_module((ROOT / "examples" / "add.mlir").read_text(), "add.mlir", context())
    attach_device(module, "toy")
    assert device_of(module).name == "toy"
    declaration = next(op for op in module.walk() if isinstance(op, DeviceOp))
    declaration.import_path = StringAttr(str(resolve("spyre")))
    assert device_of(module).name == "spyre"
    assert len(loads) == 2
