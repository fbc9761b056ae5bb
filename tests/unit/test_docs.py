"""The worked example of docs/arch-format.md is a device every example kernel compiles
for (the block is read from the document, so the test follows the text)."""

import re

import pytest

from conftest import EXAMPLES, ROOT, refused
from ktc.driver import compile

DOC = ROOT / "docs" / "arch-format.md"


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    section = DOC.read_text().split("## 7. A complete worked example", 1)[1]
    block = re.search(r"```mlir\n(.*?)```", section, re.DOTALL).group(1)
    path = tmp_path_factory.mktemp("arch") / "pair.mlir"
    path.write_text(block)
    return str(path)


@pytest.mark.parametrize("kernel", EXAMPLES)
def test_every_example_compiles_for_the_worked_example(pair, kernel):
    refused(kernel.stem, pair)
    package = compile(kernel.read_text(), pair, str(kernel))
    assert package.arch_name == "pair" and package.dataflows


KERNELS_DOC = ROOT / "docs" / "kernels.md"


def _walkthrough() -> tuple[str, str]:
    """The walkthrough's first kernel and the fixed one, assembled as the text says."""
    first, fix = re.findall(r"```mlir\n(.*?)```", KERNELS_DOC.read_text(), re.DOTALL)[:2]
    lines = first.splitlines()
    load = next(i for i, line in enumerate(lines) if "%row = ktdp.load" in line)
    store = next(i for i, line in enumerate(lines) if "ktdp.store" in line)
    maps = [line for line in fix.splitlines() if line.startswith("#")]
    body = [line for line in fix.splitlines() if not line.startswith("#")]
    return first, "\n".join(maps + lines[:load] + body + lines[store + 1:]) + "\n"


def test_the_walkthroughs_first_kernel_is_refused_as_the_guide_says():
    from ktc.errors import KtcError

    first, _ = _walkthrough()
    with pytest.raises(KtcError) as caught:
        compile(first, "toy", "scale_bias.mlir")
    shown = re.search(r"scale_bias\.mlir:(\d+:\d+): error: (.*)", KERNELS_DOC.read_text())
    assert caught.value.where == f"scale_bias.mlir:{shown.group(1)}"
    assert caught.value.message == shown.group(2)


def test_the_walkthroughs_kernel_computes_what_it_says():
    import numpy as np

    import ktc

    _, fixed = _walkthrough()
    executable = ktc.Simulator("toy").prepare(compile(fixed, "toy", "scale_bias.mlir"))
    rng = np.random.default_rng(3)
    x = rng.standard_normal((64, 64)).astype(np.float16)
    b = rng.standard_normal(64).astype(np.float16)
    y = executable.launch(x, b, np.zeros((64, 64), np.float16))["y"]
    expected = (x.astype(np.float32) * 2 + b.astype(np.float32)).astype(np.float16)
    np.testing.assert_allclose(y.astype(np.float32), expected.astype(np.float32),
                               rtol=2**-9, atol=2**-9 * np.abs(expected).max())
