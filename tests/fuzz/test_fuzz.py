"""The quick tier of the fuzz harness: a few hundred damaged inputs (seeded, the same
every run) through ktc's command lines, none of which may end in an internal error.
The long tier is ``python tests/fuzz/harness.py``."""

import pytest

from harness import QUICK, fuzz

SEED = 20


@pytest.mark.parametrize("category", list(QUICK))
def test_no_damaged_input_reaches_an_internal_error(category: str):
    tally = fuzz(category, QUICK[category], SEED)
    assert sum(tally.counts.values()) >= QUICK[category]
    assert not tally.internal, "\n".join(tally.internal)
    assert tally.counts["diagnostic"] > 0, "the mutators damaged nothing"
