"""Register files are the device's: ``ktdf_arch.registers`` on each execution unit says
how many scalars, vectors and views its programs may name. Code selection keeps
within them (computing a program's outside values just before their first use when
they do not all fit), the simulator refuses a program naming a register its engine
lacks, and a kernel that needs more at once than a unit has is refused by name."""

from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT
from ktc.codegen import isa
from ktc.dialects.diagnostics import KtcError
from ktc.driver import compile as compile_kernel
from ktc.runtime.device import DeviceError
from ktc.runtime.executable import prepare
from ktc.sim.simulator import Simulator

SOFTMAX = ROOT / "examples" / "softmax.mlir"
TOY_REGISTERS = "#REGISTERS = {scalars = 64, vectors = 64, views = 32}"


def toy_with_registers(directory: Path, scalars: int, vectors: int, views: int) -> str:
    """The toy arch file with every unit's register files of the given sizes."""
    text = (ROOT / "arch" / "toy.mlir").read_text()
    assert TOY_REGISTERS in text
    path = directory / f"toy-{scalars}-{vectors}-{views}.mlir"
    path.write_text(text.replace(TOY_REGISTERS, f"#REGISTERS = {{scalars = {scalars}, "
                                                f"vectors = {vectors}, views = {views}}}"))
    return str(path)


def numbered(code: bytes) -> dict[str, int]:
    """The most registers of each file a program names (the highest number plus one)."""
    most = {"s": 0, "v": 0, "d": 0}
    for instruction in isa.decode(code):
        for _, meta, value in isa.operands(instruction):
            if meta["slot"] in ("reg", "list") and meta["file"] is not None:
                for number in (value,) if meta["slot"] == "reg" else value:
                    most[meta["file"]] = max(most[meta["file"]], number + 1)
    return most


def test_a_small_register_file_is_kept_to_and_the_kernel_still_matches(tmp_path):
    """With 20 scalars, 6 vectors and 2 views a unit (as many as softmax's programs
    need at once on toy) the programs name no more and the rows match numpy's softmax;
    one scalar fewer and it no longer compiles."""
    text = SOFTMAX.read_text()
    small = toy_with_registers(tmp_path, 20, 6, 2)
    package = compile_kernel(text, small, "softmax")
    used = [numbered(e.code) for d in package.dataflows for e in d.binary.engines]
    assert max(u["s"] for u in used) == 20
    assert all(u["v"] <= 6 and u["d"] <= 2 for u in used)
    with pytest.raises(KtcError, match="more than 19 values of register file 's'"):
        compile_kernel(text, toy_with_registers(tmp_path, 19, 6, 2), "softmax")
    x = np.random.default_rng(3).standard_normal((64, 256)).astype(np.float16)
    y = np.zeros_like(x)
    outputs = prepare(package, Simulator(small)).launch(x, y)
    wide = x.astype(np.float64)
    e = np.exp(wide - wide.max(axis=1, keepdims=True))
    expected = e / e.sum(axis=1, keepdims=True)
    error = np.abs(outputs["y"].astype(np.float64) - expected).max()
    assert error <= 4 * np.finfo(np.float16).eps * np.abs(expected).max()


def test_a_program_naming_registers_its_engine_lacks_is_refused_at_load(tmp_path):
    """A binary selected for 64 scalars a unit, loaded on a device whose units have 16,
    is refused, naming the program, the register and the files the engine has."""
    package = compile_kernel(SOFTMAX.read_text(), str(ROOT / "arch" / "toy.mlir"), "softmax")
    simulator = Simulator(toy_with_registers(tmp_path, 16, 64, 32))
    with pytest.raises(DeviceError, match=r'program "\w+": pc \d+: \w+ names s(1[6-9]|[2-6]\d), '
                                          r"and the engine has s0..s15"):
        for dataflow in package.dataflows:
            simulator.load(dataflow.binary)


def test_a_kernel_needing_more_registers_at_once_is_refused_by_engine(tmp_path):
    """8 scalars a unit cannot hold what softmax's DMA program keeps live: the compile
    says which file, which engine and where the count comes from."""
    with pytest.raises(KtcError, match=r"more than 8 values of register file 's' are live "
                                       r"here on engine '\w+', as many as its description "
                                       r"gives \(ktdf_arch.registers\)"):
        compile_kernel(SOFTMAX.read_text(), toy_with_registers(tmp_path, 8, 8, 8), "softmax")


def test_a_unit_without_register_files_runs_no_program(tmp_path):
    """A description whose units give no register files still describes a chip, but
    nothing compiles for it: the compile names the unit and the missing figure."""
    text = (ROOT / "arch" / "toy.mlir").read_text().replace(", ktdf_arch.registers = #REGISTERS", "")
    path = tmp_path / "toy-bare.mlir"
    path.write_text(text)
    with pytest.raises(KtcError, match=r"execution unit '\w+' runs this program but its "
                                       r"description gives no ktdf_arch.registers"):
        compile_kernel(SOFTMAX.read_text(), str(path), "softmax")
