"""Every example and every in-scope corpus kernel compiles to a package on spyre and toy,
and the package survives encode -> decode -> encode byte for byte."""

from pathlib import Path

import pytest

from conftest import CORPUS_IN_SCOPE, EXAMPLES, corpus_kernel, refused
from ktc.codegen.package import decode, encode
from ktc.driver import compile

DEVICES = ["spyre", "toy"]


def compiled(path: Path, device: str):
    return compile(path.read_text(), device, str(path))


def check_package(path: Path, device: str) -> None:
    package = compiled(path, device)
    assert package.dataflows and package.launch
    data = encode(package)
    assert encode(decode(data)) == data


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("example", EXAMPLES)
def test_example_packages(example, device: str):
    refused(example.stem, device)
    check_package(example, device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", CORPUS_IN_SCOPE)
def test_corpus_kernel_packages(name: str, device: str):
    refused(Path(name).stem, device)
    check_package(corpus_kernel(name), device)
