"""The Python API refuses the wrong kinds of things with a sentence (TypeError for a
wrong kind of object, KtcError for a value out of range), takes a kernel's path as
well as its text, lists itself in dir(ktc), and runs as python -m ktc."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ktc
from ktc.codegen.package import encode
from ktc.errors import KtcError

ROOT = Path(__file__).resolve().parents[2]
SCALE = ROOT / "tests" / "lit" / "ktc" / "Inputs" / "scale_n.mlir"


@pytest.fixture(scope="module")
def executable():
    return ktc.Simulator("toy").prepare(ktc.compile(SCALE, "toy"))


def test_dir_shows_the_api():
    assert {"compile", "load", "prepare", "Simulator", "Package"} <= set(dir(ktc))
    assert not [name for name in dir(ktc) if name.startswith("_") and not name.startswith("__")]


@pytest.mark.parametrize("source", [SCALE, str(SCALE)], ids=["Path", "str"])
def test_compile_takes_a_path(source):
    text = SCALE.read_text()
    assert encode(ktc.compile(source, "toy")) == encode(ktc.compile(text, "toy", str(SCALE)))


def test_compile_names_a_missing_file():
    with pytest.raises(KtcError, match="cannot read the kernel: No such file"):
        ktc.compile("no/such/kernel.mlir", "toy")


@pytest.mark.parametrize("source, words", [(b"module {}", "decode bytes first"),
                                           (None, "not NoneType"), (3, "not int")])
def test_compile_refuses_what_is_not_text_or_a_path(source, words):
    with pytest.raises(TypeError, match=words):
        ktc.compile(source, "toy")


def test_compile_refuses_a_missing_arch():
    with pytest.raises(TypeError, match="arch names the device"):
        ktc.compile(SCALE, None)


@pytest.mark.parametrize("package, words", [("add.ktpkg", "ktc.load"), (None, "NoneType")])
def test_prepare_refuses_what_is_not_a_package(package, words):
    with pytest.raises(TypeError, match=f"prepare takes a Package.*{words}"):
        ktc.Simulator("toy").prepare(package)


def test_prepare_refuses_what_is_not_a_device():
    with pytest.raises(TypeError, match="takes a Device"):
        ktc.prepare(ktc.compile(SCALE, "toy"), "toy")


@pytest.mark.parametrize("value", [10**400, 1e300, 65520.0, -70000])
def test_a_float_scalar_out_of_its_range_is_refused(executable, value):
    with pytest.raises(ValueError, match="expects an f16, but .* is out of its range") as caught:
        executable.launch(np.zeros(16, np.float16), 16, value)
    assert isinstance(caught.value, KtcError)  # and the tools report it as one


@pytest.mark.parametrize("args, error", [
    (("x", 16, 1.0), TypeError), ((np.zeros(16, np.float32), 16, 1.0), TypeError),
    ((np.zeros(8, np.float16), 16, 1.0), ValueError), ((np.zeros(16, np.float16), 2**70, 1.0),
                                                      ValueError),
    ((np.zeros(16, np.float16), 16, "one"), TypeError)])
def test_launch_arguments_of_the_wrong_kind_or_range(executable, args, error):
    with pytest.raises(error, match="argument %"):
        executable.launch(*args)


def test_the_largest_f16_and_infinity_are_taken(executable):
    x = np.ones(16, np.float16)
    assert (executable.launch(x, 16, 65504.0)["a"] == np.float16(65504)).all()
    assert np.isinf(executable.launch(x, 16, float("inf"))["a"]).all()


def test_python_m_ktc_is_the_command_line():
    run = subprocess.run([sys.executable, "-m", "ktc", "--version"], capture_output=True,
                         text=True)
    assert run.returncode == 0 and run.stdout.startswith("ktc ")
