"""One list of element types: the numerics, the package format and the front door
(legality check, reference interpreter) agree on it."""

import numpy as np
import pytest

from ktc.codegen.package import DTYPES, INTEGERS
from ktc.dialects.element_types import ELEMENT_TYPES, FLOATS
from ktc.dialects.element_types import INTEGERS as ELEMENT_INTEGERS
from ktc.errors import KtcError
from ktc.sim import numerics
from ktc.sim.reference import Kernel


def test_every_room_knows_the_same_element_types():
    assert set(DTYPES) == set(ELEMENT_TYPES)
    assert set(INTEGERS) == set(ELEMENT_INTEGERS)
    assert set(numerics.FLOAT_TYPES) == set(FLOATS)
    for name in ELEMENT_TYPES:
        numerics.to_storage(name, numerics.round_to(name, np.zeros(2)))  # each has numerics


@pytest.mark.parametrize("element", ["bf16", "f8E4M3FN", "i4"])
def test_the_reference_refuses_an_unsupported_element_type_at_its_entry(element: str):
    text = (f"func.func @k(%s: f16) {{\n  %t = tensor.empty() : tensor<4x{element}>\n"
            "  return\n}\n")
    with pytest.raises(KtcError) as caught:
        Kernel.from_text(text, "k.mlir")
    assert caught.value.where == "k.mlir:2:3"
    assert f"uses element type {element}, which ktc does not support" in caught.value.message
