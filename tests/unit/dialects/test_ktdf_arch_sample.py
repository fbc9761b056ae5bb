"""IBM's sample device, read from the scheduler reference (section 3) at test time.

It parses and verifies unchanged, says what the reference says it says, prints text
that reads back to the same text (custom and generic form), and its generic form
goes through real MLIR and comes back unchanged.
"""

import re
import subprocess

import pytest
from conftest import REFERENCE
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, UnitAttr, f16

from ktc.dialects.ktdf_arch import DatapathOp, DeviceOp, ExecUnitOp, GroupOp, MapAttr, MemoryOp
from ktc.dialects.printer import print_ir
from ktc.dialects.source import parse_module, verify_module

SCHEDULER = REFERENCE / "anchor-dataflow-scheduler.md"


@pytest.fixture(scope="module")
def sample() -> str:
    """The code block of the section that quotes the sample device whole."""
    if not SCHEDULER.is_file():
        pytest.skip(
            f"scheduler reference not found at {SCHEDULER} "
            "(it lives beside the project, in shared/)"
        )
    text = SCHEDULER.read_text()
    section = re.search(r"^## 3\. The sample device.*?^```mlir\n(.*?)^```", text, re.M | re.S)
    assert section is not None, "the reference no longer quotes the sample device in section 3"
    return section.group(1)


def read(text: str) -> ModuleOp:
    module = parse_module(text, "sample_device.mlir")
    verify_module(module)
    return module


def test_sample_describes_one_core_with_two_subcores(sample: str):
    module = read(sample)
    (device,) = [op for op in module.walk() if isinstance(op, DeviceOp)]
    assert device.sym_name.data == "sample_device"
    assert device.import_path is None

    kinds = [op.kind.data for op in module.walk() if isinstance(op, MemoryOp)]
    assert kinds == ["DDR", "L1", "SFU_REG", "SFU_REG"]
    ddr = next(op for op in module.walk() if isinstance(op, MemoryOp))
    assert ddr.size == IntegerAttr(1073741824, 64)

    groups = [op for op in module.walk() if isinstance(op, GroupOp)]
    assert [group.kind.data if group.kind else None for group in groups] == [
        "core", None, "SFU_Block", None, "SFU_Block"]
    assert [len(group.shared) for group in groups] == [1, 1, 0, 1, 0]
    assert sum(isinstance(op, DatapathOp) for op in module.walk()) == 12

    units = {op.kind.data: op for op in module.walk() if isinstance(op, ExecUnitOp)}
    assert sorted(units) == ["L1LU", "L1SU", "MNILU", "MNISU", "SFU"]
    sfu_features = units["SFU"].attributes["ktdf_arch.features"].data
    assert sfu_features["ktdf_arch.feature.compute"] == UnitAttr()
    lanes = sfu_features["ktdf_arch.feature.simd"].data["lanes"]
    assert isinstance(lanes, MapAttr) and lanes.get(f16) == IntegerAttr(64, 64)
    load = units["MNILU"].attributes["ktdf_arch.features"].data["ktdf_arch.feature.load"]
    assert load.data["word_size"].get(StringAttr("DDR")) == IntegerAttr(64, 64)
    assert units["MNISU"].attributes["dataflow_scheduler.double_buffer_last"] == UnitAttr()


def test_sample_prints_text_that_reads_back_the_same(sample: str):
    printed = print_ir(read(sample))
    assert print_ir(read(printed)) == printed


def test_sample_generic_form_reads_back_the_same(sample: str):
    printed = print_ir(read(sample))
    generic = print_ir(read(sample), generic=True)
    assert print_ir(read(generic)) == printed


def test_sample_generic_form_goes_through_mlir_unchanged(sample: str, mlir_opt: str):
    def through_mlir(text: str) -> str:
        run = subprocess.run(
            [mlir_opt, "--allow-unregistered-dialect", "--mlir-print-op-generic"],
            input=text, capture_output=True, text=True, check=True,
        )
        return run.stdout

    once = through_mlir(print_ir(read(sample), generic=True))
    twice = through_mlir(print_ir(read(once), generic=True))
    assert twice == once
