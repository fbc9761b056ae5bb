"""The runtime against a fake device that records every call: one prepare loads the
program once; each launch places the arrays, evaluates the symbols from their real
addresses and the loop variable (checked against hand computation for two argument
sets), patches them in before every run and reads the arrays back; wrong argument
counts, dtypes, shapes, symbolic dimensions and scalars are clear errors."""

from dataclasses import replace

import numpy as np
import pytest

from conftest import ROOT
from ktc.codegen.binary import DataflowBinary
from ktc.codegen.signature import Argument
from ktc.dialects.diagnostics import KtcError
from ktc.driver import compile
from ktc.runtime.device import DeviceError
from ktc.runtime.executable import prepare

HALVE = ROOT / "tests" / "lit" / "ktc" / "Inputs" / "halve.mlir"


class FakeDevice:
    """Memory as a dict of byte arrays; records loads, patches and runs."""

    def __init__(self, arch_hash: str, capacity: int = 1 << 20, alignment: int = 128):
        self.arch_name, self.arch_hash = "fake", arch_hash
        self.capacity, self.top = capacity, 4096
        self.memory = bytearray(capacity)
        self.calls: list[tuple] = []
        self.aligned = alignment

    def alignment(self, memory: str) -> int:
        return self.aligned

    def allocate(self, memory: str, nbytes: int, alignment: int) -> int:
        address = -(-self.top // alignment) * alignment
        if address + nbytes > self.capacity:
            raise DeviceError(f"{memory} is full")
        self.top = address + nbytes
        self.calls.append(("allocate", memory, nbytes, address))
        return address

    def write(self, memory: str, address: int, data: bytes) -> None:
        self.memory[address:address + len(data)] = data

    def read(self, memory: str, address: int, nbytes: int) -> bytes:
        return bytes(self.memory[address:address + nbytes])

    def load(self, dataflow: DataflowBinary) -> int:
        self.calls.append(("load", dataflow.name))
        return 7

    def patch(self, handle: int, engine: int, code: bytes) -> None:
        self.calls.append(("patch", handle, engine, code))

    def execute(self, handle: int) -> None:
        self.calls.append(("execute", handle))


@pytest.fixture(scope="module")
def package():
    """halve with %x and %y as pointers to (rows, 64) f16 arrays, as KTIR would declare them."""
    compiled = compile(HALVE.read_text(), "toy", str(HALVE))
    x, y, rows = compiled.signature.arguments
    shape = ((("arg", 2),), (64,))
    arguments = (Argument("x", True, "f16", shape), Argument("y", True, "f16", shape), rows)
    return replace(compiled, signature=replace(compiled.signature, arguments=arguments))


def symbol_at(code: bytes, offset: int) -> int:
    return int.from_bytes(code[offset:offset + 8], "little", signed=True)


def test_two_launches_one_prepare(package):
    device = FakeDevice(package.arch_hash)
    exe = prepare(package, device)
    assert device.calls == [("load", "halve_rows")]
    for rows in (4, 6):
        device.calls.clear()
        x = np.arange(rows * 64, dtype=np.float16).reshape(rows, 64)
        y = np.zeros((rows, 64), dtype=np.float16)
        out = exe.launch(x, y, rows)
        allocations = [c for c in device.calls if c[0] == "allocate"]
        assert [a[2] for a in allocations] == [rows * 128, rows * 128]
        x_at, y_at = (a[3] for a in allocations)
        patches = [c for c in device.calls if c[0] == "patch"]
        runs = [c for c in device.calls if c[0] == "execute"]
        assert len(runs) == rows // 2 and len(patches) == rows  # two patched engines per run
        for i, (mnilu, mnisu) in zip(range(0, rows, 2), zip(patches[::2], patches[1::2])):
            assert mnilu[2] == 0 and mnisu[2] == 4
            # symbol 1 = (x + i * 64) * 2, x the element index of the array (f16: bytes / 2)
            assert symbol_at(mnilu[3], 40) == (x_at // 2 + i * 64) * 2
            assert symbol_at(mnisu[3], 40) == (y_at // 2 + i * 64) * 2
        np.testing.assert_array_equal(out["x"], x)
        assert set(out) == {"x", "y"} and out["y"].shape == (rows, 64)


def test_arrays_start_where_the_device_aligns_them(package):
    device = FakeDevice(package.arch_hash, alignment=96)
    exe = prepare(package, device)
    x = np.arange(2 * 64, dtype=np.float16).reshape(2, 64)
    out = exe.launch(x, np.zeros_like(x), 2)
    x_at, y_at = (c[3] for c in device.calls if c[0] == "allocate")
    assert (x_at, y_at) == (4128, 4416), "the first multiples of 96 from 4096 and 4128 + 256"
    np.testing.assert_array_equal(out["x"], x)


def test_symbols_are_kept_for_inspection(package):
    exe = prepare(package, FakeDevice(package.arch_hash))
    x = np.zeros((2, 64), np.float16)
    exe.launch(x, x.copy(), 2)
    assert set(exe.symbols[0]) == {1, 2}


def test_wrong_arch(package):
    with pytest.raises(KtcError, match="compiled for arch 'toy'.*not for this device's 'fake'"):
        prepare(package, FakeDevice("0" * 64))


def test_device_errors_become_diagnostics(package):
    exe = prepare(package, FakeDevice(package.arch_hash, capacity=4096 + 128))
    x = np.zeros((2, 64), np.float16)
    with pytest.raises(KtcError, match="device: DDR is full"):
        exe.launch(x, x.copy(), 2)


@pytest.mark.parametrize("args, message", [
    ((), r"@halve takes 3 arguments \(%x, %y, %rows\), got 0"),
    ((np.zeros((2, 64), np.float32), np.zeros((2, 64), np.float16), 2),
     "argument %x points to f16 elements: expected an array of dtype float16, got float32"),
    ([[0.0] * 64] * 2, "argument %x is a pointer to f16 elements; pass a numpy array, not list"),
    ((np.zeros((2, 64), np.float16), np.zeros((4, 64), np.float16), 2),
     r"argument %y: expected an array of shape \(%rows = 2, 64\), got \(4, 64\)"),
    ((np.zeros((2, 64), np.float16), np.zeros((2, 64), np.float16), 2.0),
     r"argument %rows expects an integer \(index\), got 2.0"),
    ((np.zeros((2, 64), np.float16), np.zeros((2, 64), np.float16), True),
     r"argument %rows expects an integer \(index\), got True"),
])
def test_bad_arguments(package, args, message):
    exe = prepare(package, FakeDevice(package.arch_hash))
    if isinstance(args, list):
        args = (args, np.zeros((2, 64), np.float16), 2)
    with pytest.raises(KtcError, match=message):
        exe.launch(*args)


def test_non_positive_loop_step(package):
    exe = prepare(package, FakeDevice(package.arch_hash))
    (loop,) = package.launch
    exe.package = replace(package, launch=(replace(loop, step=(0,)),))
    x = np.zeros((2, 64), np.float16)
    with pytest.raises(KtcError, match="loop 0 has step 0; it must be positive"):
        exe.launch(x, x.copy(), 2)


def test_a_launch_loop_past_the_trip_limit_stops_before_running(package):
    """halve's loop runs over %rows (an argument): a huge row count is refused at
    launch, before the device runs anything; constant bounds are refused on load."""
    from ktc.codegen.package import decode, encode
    from ktc.codegen.plan import MAX_LAUNCH_TRIPS

    device = FakeDevice(package.arch_hash)
    exe = prepare(package, device)
    (loop,) = package.launch
    exe.package = replace(package, launch=(replace(loop, upper=(1 << 40,)),))
    x = np.zeros((2, 64), np.float16)
    with pytest.raises(KtcError, match=rf"more than the limit of {MAX_LAUNCH_TRIPS}"):
        exe.launch(x, x.copy(), 2)
    assert not [c for c in device.calls if c[0] == "execute"]
    damaged = replace(package, launch=(replace(loop, lower=(0,), upper=(1 << 40,), step=(1,)),))
    with pytest.raises(KtcError, match=rf"runs {1 << 40} times, more than the limit"):
        decode(encode(damaged), "damaged.ktpkg")


def test_float_scalar_reaches_symbols_as_bits(package):
    """A float argument passed on to the device is a symbol holding its storage bits."""
    x, _, rows = package.signature.arguments
    signature = replace(package.signature, arguments=(x, Argument("y", False, "f16"), rows))
    device = FakeDevice(package.arch_hash)
    exe = prepare(replace(package, signature=signature), device)
    exe.launch(np.zeros((2, 64), np.float16), 1.5, 2)
    (mnisu,) = [c for c in device.calls if c[0] == "patch" and c[2] == 4]
    assert symbol_at(mnisu[3], 40) == 0x3E00 * 2  # (bits of 1.5 in f16 + 0 * 64) * 2
    with pytest.raises(KtcError, match=r"argument %y expects a number \(f16\), got 'a'"):
        exe.launch(np.zeros((2, 64), np.float16), "a", 2)
