"""A command line argparse refuses exits with 1 and a usage line, as every other bad
input does, for ktc, its subcommands and ktc-opt."""

import contextlib
import io

import pytest

from ktc.tools import ktc, ktc_opt

REFUSED = [
    (ktc.main, ["--bogus"]),
    (ktc.main, ["arch", "nope", "spyre"]),
    (ktc.main, ["run", "k.mlir", "--seed", "-1"]),
    (ktc.main, ["compile", "k.mlir"]),  # -o is required
    (ktc_opt.main, ["--bogus"]),
]


@pytest.mark.parametrize("main, argv", REFUSED, ids=lambda x: " ".join(x) if isinstance(x, list) else x.__module__)
def test_usage_error_exits_1(main, argv):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert exit_code(main, argv) == 1
    assert err.getvalue().startswith("usage: ") and "error: " in err.getvalue()


def test_help_still_exits_0():
    with contextlib.redirect_stdout(io.StringIO()):
        assert exit_code(ktc.main, ["--help"]) == 0
        assert exit_code(ktc_opt.main, ["--help"]) == 0


def exit_code(main, argv) -> int:
    """What a console script running ``main(argv)`` exits with."""
    try:
        return main(argv)
    except SystemExit as stop:
        return stop.code
