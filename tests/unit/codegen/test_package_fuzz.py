"""No input makes the package loader crash or hang: arbitrary bytes, a valid package
truncated, bit-flipped or overwritten, and valid containers whose JSON sections were
changed at random (checksums recomputed, so the checks of meaning are reached) each
either decode or raise a KtcError, within hypothesis's deadline."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT
from ktc.codegen.package import decode, encode, pack, unpack
from ktc.dialects.diagnostics import KtcError
from ktc.driver import compile

HALVE = ROOT / "tests" / "lit" / "ktc" / "Inputs" / "halve.mlir"
FUZZ = settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def valid() -> bytes:
    return encode(compile(HALVE.read_text(), "toy", str(HALVE)))


def loads_or_rejects(data: bytes) -> None:
    try:
        decode(data)
    except KtcError as err:
        assert "invalid package" in str(err)


@FUZZ
@given(st.binary(max_size=4096))
def test_arbitrary_bytes(data: bytes):
    loads_or_rejects(data)


@FUZZ
@given(st.data())
def test_mutated_package(valid: bytes, data):
    mutated = bytearray(valid)
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(mutated) - 1))
        mutated[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(mutated)))
    loads_or_rejects(bytes(mutated[:cut]))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8)
    | st.sampled_from(["add", "select", "param", "loop", "arg", "Loop", "ComputeOnHost"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def _paths(node, path=()):
    """Every place in a JSON document, as a key path."""
    yield path
    items = (node.items() if isinstance(node, dict)
             else enumerate(node) if isinstance(node, list) else ())
    for key, child in items:
        yield from _paths(child, (*path, key))


def _replace(document, path, value):
    if not path:
        return value
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return document


@FUZZ
@given(st.data())
def test_mutated_sections(valid: bytes, data):
    sections = unpack(valid)
    index = data.draw(st.integers(0, 3))
    name, body = sections[index]
    document = json.loads(body)
    path = data.draw(st.sampled_from(list(_paths(document))))
    document = _replace(document, path, data.draw(JSON))
    sections[index] = (name, json.dumps(document).encode())
    loads_or_rejects(pack(sections))


def test_deep_nesting_is_rejected(valid: bytes):
    sections = unpack(valid)
    deep = "[" * 100_000 + "]" * 100_000
    sections[3] = ("plans", deep.encode())
    loads_or_rejects(pack(sections))
    loop = {"command": "Loop", "var": 0, "lower": [0], "upper": [1], "step": [1], "body": []}
    for var in range(1, 200):
        loop = {**loop, "var": var, "body": [loop]}
    sections[3] = ("plans", json.dumps({"prepare": [], "launch": [loop]}).encode())
    with pytest.raises(KtcError, match="loops nest deeper than 64"):
        decode(pack(sections))
