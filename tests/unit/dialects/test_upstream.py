"""The upstream replacements (``ktc.dialects.upstream``): each dialect's module
replaces exactly the ops the package names for it, keeps xDSL's other ops and
attributes, and every named op is reachable from the package."""

from importlib import import_module

import pytest
from xdsl.dialects import get_all_dialects

from ktc.dialects import upstream


@pytest.mark.parametrize("name", sorted(upstream.OPS))
def test_each_replacement_swaps_the_ops_it_names(name: str):
    module = import_module(f"ktc.dialects.upstream.{name}")
    replaced = upstream.OVERRIDES[name]()
    original = get_all_dialects()[name]()
    ours = {op.__name__ for op in replaced.operations if op.__module__ == module.__name__}
    assert ours == set(upstream.OPS[name])
    assert {op.name for op in replaced.operations} >= {op.name for op in original.operations}
    assert list(replaced.attributes) == list(original.attributes)


@pytest.mark.parametrize("op", [op for ops in upstream.OPS.values() for op in ops])
def test_every_named_op_is_reachable_from_the_package(op: str):
    assert getattr(upstream, op).__name__ == op


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'NoSuchOp'"):
        upstream.NoSuchOp  # noqa: B018
