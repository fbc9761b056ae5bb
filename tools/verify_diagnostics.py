"""MLIR's ``--verify-diagnostics``: every emitted diagnostic must be expected, and
every ``// expected-<severity>@<where> {{<text>}}`` comment must be matched.

``<where>`` is empty (same line), ``+N`` / ``-N`` (relative), ``above`` / ``below``
or an absolute line number; ``<text>`` must occur in the emitted message. An
expectation that is not met is reported, as MLIR does, where its comment is written.
"""

import re
from dataclasses import dataclass

_EXPECTED = re.compile(
    r"expected-(error|warning|note|remark)\s*(?:@\s*([+-]?\d+|above|below))?\s*\{\{(.*?)\}\}"
)


@dataclass
class Expected:
    severity: str
    line: int
    """The line the diagnostic is expected on."""
    text: str
    written_at: str
    """``line:col`` of the comment itself."""
    seen: bool = False


def expectations(text: str, first_line: int) -> list[Expected]:
    """The expected diagnostics written in ``text``, whose first line is ``first_line``."""
    found = []
    for index, source_line in enumerate(text.splitlines()):
        line = first_line + index
        for match in _EXPECTED.finditer(source_line):
            severity, at, message = match.groups()
            written_at = f"{line}:{match.start() + 1}"
            found.append(Expected(severity, _target_line(line, at), message, written_at))
    return found


def _target_line(line: int, at: str | None) -> int:
    if at is None:
        return line
    if at == "above":
        return line - 1
    if at == "below":
        return line + 1
    if at[0] in "+-":
        return line + int(at)
    return int(at)


def unmatched(
    expected: list[Expected], emitted: list[tuple[str, int | None, str, str]], filename: str
) -> list[str]:
    """Problems, as diagnostic lines: emitted (severity, line, where, message) that no
    expectation covers, and expectations no diagnostic met."""
    problems = []
    for severity, line, where, message in emitted:
        match = next(
            (e for e in expected
             if not e.seen and e.severity == severity and e.line == line and e.text in message),
            None,
        )
        if match is None:
            problems.append(f"{where}: error: unexpected {severity}: {message}")
        else:
            match.seen = True
    problems += [
        f"{filename}:{e.written_at}: error: expected {e.severity} \"{e.text}\" was not produced"
        for e in expected
        if not e.seen
    ]
    return problems
