"""Named pipelines: a name that ``ktc-opt -p`` expands into a list of passes.

Each pipeline is a pass-spec string; the comments between stages state what is
true of the IR at that checkpoint.
"""

PIPELINES: dict[str, str] = {}


def expand(spec: str) -> str:
    """Replace every named pipeline in a comma-separated pass spec by its passes."""
    parts = [part.strip() for part in _split_top_level(spec) if part.strip()]
    return ",".join(PIPELINES.get(part, part) for part in parts)


def _split_top_level(spec: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in spec:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]
