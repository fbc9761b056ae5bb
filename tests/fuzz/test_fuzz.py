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


def test_the_harness_counts_a_crash_as_an_internal_error(monkeypatch):
    """A bug in ktc (here a ZeroDivisionError planted in ``ktc arch``) is what the
    harness reports; an ordinary diagnostic is not."""
    import ktc.tools.ktc as tool
    from harness import run_tool

    assert run_tool("ktc", ["arch", "check", "no-such-device"]).kind == "diagnostic"

    def crash(args):
        return 1 // 0

    monkeypatch.setitem(tool.COMMANDS, "arch", crash)
    outcome = run_tool("ktc", ["arch", "check", "toy"])
    assert outcome.kind == "internal" and "ZeroDivisionError" in outcome.detail
