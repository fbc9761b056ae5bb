"""Seeded mutators of what users give ktc: KTIR text, parsed kernels, arch files,
packages and launch arguments. Each takes a ``random.Random`` and returns the damaged
input; the same seed gives the same input.

- ``mutate_text``: 1-3 blind edits of any text (a number made extreme, a type
  swapped, a line dropped, doubled or swapped, a token dropped, a cut, a stray
  character).
- ``mutate_kernel``: a kernel parsed and printed by ktc, then changed consistently
  (every use of a shape, element type, grid, memory space or affine map at once), so
  that the damage gets past the parser and reaches the verifiers, the legality check
  and the passes.
- ``mutate_arch``: one figure of an arch file made extreme (0, -1, huge), or a
  resource, datapath or attribute dropped, doubled or renamed.
- ``mutate_package``: a package's JSON sections edited at a random node (checksums
  recomputed, so the damage reaches deep validation), or its bytes flipped.
- ``launch_arguments``: ``ktc run`` arguments: scalars of every kind of wrong value,
  repeated or unknown names, seeds, cycle budgets, ``--inputs`` archives of wrong
  names, dtypes and shapes.
"""

import json
import random
import re

NUMBERS = ["0", "-1", "1", "2", "3", "7", "64", "65536", "2147483648", "4294967296",
           "9223372036854775807", "9223372036854775808", "18446744073709551616",
           "1000000000000000000000000000000", "-9223372036854775809"]
ELEMENT_TYPES = ["f16", "f32", "f64", "bf16", "i1", "i8", "i16", "i32", "i64", "index",
                 "!spyreop.df16", "f8E4M3FN", "i4", "complex<f32>", "none"]
STRAY = list("{}()[]<>,:=%#@^\"\\;") + ["->", "...", "loc(", "//", "\x00", "é"]
TOKEN = re.compile(r"-?\d+|%[\w.$-]+|[A-Za-z_][\w.$-]*|\S")


def mutate_text(text: str, rng: random.Random) -> str:
    """``text`` after 1-3 blind edits."""
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(_TEXT_EDITS)(text, rng)
    return text


def _number(text: str, rng: random.Random) -> str:
    spans = [m.span() for m in re.finditer(r"-?\b\d+\b", text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + rng.choice(NUMBERS) + text[end:]


def _element_type(text: str, rng: random.Random) -> str:
    spans = [m.span(1) for m in re.finditer(r"[x<: (](f16|f32|f64|i1|i8|i32|i64|index)\b", text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + rng.choice(ELEMENT_TYPES) + text[end:]


def _lines(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    kind = rng.choice(["drop", "double", "swap"])
    if kind == "drop":
        del lines[i]
    elif kind == "double":
        lines.insert(j, lines[i])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


def _token(text: str, rng: random.Random) -> str:
    tokens = list(TOKEN.finditer(text))
    if not tokens:
        return text
    token = rng.choice(tokens)
    names = [t.group() for t in tokens if t.group().startswith("%")]
    replacement = rng.choice(["", token.group() * 2, rng.choice(names) if names else ""])
    return text[:token.start()] + replacement + text[token.end():]


def _cut(text: str, rng: random.Random) -> str:
    return text[:rng.randrange(len(text) + 1)]


def _stray(text: str, rng: random.Random) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(STRAY) + text[at:]


_TEXT_EDITS = [_number, _number, _element_type, _lines, _token, _cut, _stray]


# ---------------------------------------------------------------------------------------
# Kernels: parsed, printed, then changed consistently


GRIDS = ["[]", "[0]", "[-1]", "[1]", "[3]", "[2, 2]", "[1000]", "[64]", "[1, 1, 1, 1]"]
SPACES = ["#ktdp.memory_space<global>", "#ktdp.memory_space<ct_local>",
          "#ktdp.memory_space<ct_local, ct_id = 1>", "#ktdp.memory_space<ct_local, ct_id = 99>",
          "#ktdp.spyre_memory_space<LX>", "#ktdp.spyre_memory_space<HBM>"]


def mutate_kernel(printed: str, rng: random.Random) -> str:
    """A kernel as ktc printed it, after 1-2 consistent changes of its shapes, element
    types, grid, memory spaces, affine maps or sizes and strides."""
    for _ in range(rng.randint(1, 2)):
        printed = rng.choice(_KERNEL_EDITS)(printed, rng)
    return printed


def _everywhere(text: str, old: str, new: str) -> str:
    return text.replace(old, new)


def _shape(text: str, rng: random.Random) -> str:
    shapes = sorted(set(re.findall(r"(?:tensor|memref|access_tile)<([\dx?]+)x", text)))
    if not shapes:
        return text
    old = rng.choice(shapes)
    dims = old.split("x")
    dims[rng.randrange(len(dims))] = rng.choice(["0", "1", "3", "17", "128", "4096", "?",
                                                 "1048576"])
    return _everywhere(text, f"<{old}x", f"<{'x'.join(dims)}x")


def _dtype(text: str, rng: random.Random) -> str:
    old = rng.choice(["f16", "f32", "i32", "index"])
    new = rng.choice(ELEMENT_TYPES)
    return re.sub(rf"(?<=[x<: (]){re.escape(old)}\b", new, text)


def _grid(text: str, rng: random.Random) -> str:
    if "grid = [" in text:
        return re.sub(r"grid = \[[^\]]*\]", f"grid = {rng.choice(GRIDS)}", text)
    return text.replace("attributes {", f"attributes {{grid = {rng.choice(GRIDS)}, ", 1)


def _space(text: str, rng: random.Random) -> str:
    spaces = sorted(set(re.findall(r"#ktdp\.(?:spyre_)?memory_space<[^>]*>", text)))
    if not spaces:
        return text
    return _everywhere(text, rng.choice(spaces), rng.choice(SPACES))


def _affine(text: str, rng: random.Random) -> str:
    maps = re.findall(r"^(#\w+) = (affine_(?:map|set))<(.*)>$", text, re.MULTILINE)
    if not maps:
        return text
    name, kind, body = rng.choice(maps)
    changed = _number(body, rng) if rng.random() < 0.5 else body.replace("d0", "d1", 1)
    if rng.random() < 0.3:
        changed = changed.replace("(d0, d1)", "(d0)", 1)
    return text.replace(f"{name} = {kind}<{body}>", f"{name} = {kind}<{changed}>")


def _sizes(text: str, rng: random.Random) -> str:
    lists = [m.span(1) for m in re.finditer(r"(?:sizes|strides): \[([^\]]*)\]", text)]
    if not lists:
        return text
    start, end = rng.choice(lists)
    values = text[start:end].split(", ")
    values[rng.randrange(len(values))] = rng.choice(NUMBERS + ["%c0", "%missing"])
    return text[:start] + ", ".join(values) + text[end:]


_KERNEL_EDITS = [_shape, _dtype, _grid, _space, _affine, _sizes]


# ---------------------------------------------------------------------------------------
# Arch files


def mutate_arch(text: str, rng: random.Random) -> str:
    """An arch file after one structural or figure edit."""
    return rng.choice(_ARCH_EDITS)(text, rng)


def _figure(text: str, rng: random.Random) -> str:
    spans = [m.span(1) for m in re.finditer(r"(?:=|: ?|, )\s*(-?\d+)\b", text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + rng.choice(NUMBERS + ["1099511627776"]) + text[end:]


def _resource(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    candidates = [i for i, line in enumerate(lines)
                  if re.search(r"\b(memory|exec_unit|datapath|group)\b", line)]
    if not candidates:
        return text
    i = rng.choice(candidates)
    if rng.random() < 0.5:
        del lines[i]
    else:
        lines.insert(i, lines[i])
    return "".join(lines)


def _kind(text: str, rng: random.Random) -> str:
    kinds = sorted(set(re.findall(r'"([A-Z][A-Za-z0-9_]*)"', text)))
    if not kinds:
        return text
    return text.replace(f'"{rng.choice(kinds)}"', f'"{rng.choice(kinds + ["NEW", ""])}"')


_ARCH_EDITS = [_figure, _figure, _figure, _resource, _kind, _element_type, _lines]


# ---------------------------------------------------------------------------------------
# Packages


ODD_VALUES = [0, -1, 1, 2**31, 2**63, 2**64, 10**30, -(2**63) - 1, 0.5, float("inf"), "",
              "x", "f16", "index", None, True, [], {}, [[[]]], {"kind": "loop"}]


def mutate_json(document, rng: random.Random):
    """``document`` with one node replaced by an odd value, or deleted, or doubled."""
    paths = list(_paths(document, ()))
    path = rng.choice(paths)
    if not path:
        return rng.choice(ODD_VALUES)
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    action = rng.choice(["replace", "replace", "replace", "delete", "double"])
    if action == "delete":
        del parent[key]
    elif action == "double" and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(parent[key])))
    else:
        parent[key] = rng.choice(ODD_VALUES)
    return document


def _paths(node, path):
    yield path
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(
        node, list) else ()
    for key, child in items:
        yield from _paths(child, (*path, key))


def mutate_package(data: bytes, rng: random.Random) -> bytes:
    """A package after an edit of one of its JSON sections (checksums recomputed),
    of a code section's bytes (checksums recomputed), or of its raw bytes."""
    from ktc.codegen.package import pack, unpack

    sections = unpack(data)
    choice = rng.random()
    if choice < 0.1:
        raw = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw)
    if choice < 0.25:
        index = rng.randrange(4, len(sections))
        name, body = sections[index]
        code = bytearray(body)
        for _ in range(rng.randint(1, 8)):
            if code:
                code[rng.randrange(len(code))] = rng.randrange(256)
        sections[index] = (name, bytes(code))
        return pack(sections)
    index = rng.randrange(4)
    name, body = sections[index]
    document = mutate_json(json.loads(body), rng)
    sections[index] = (name, json.dumps(document).encode())
    return pack(sections)


# ---------------------------------------------------------------------------------------
# Launch arguments


SCALARS = ["-1", "0", "1", "16", "1e400", "-1e400", "nan", "inf", "0x10", "abc", "",
           "99999999999999999999", "-9223372036854775809", "1.5", "65504", "70000",
           "4294967296", "1e-50", "0b101", "1_000", " 3"]


def launch_arguments(scalars: list[str], rng: random.Random) -> list[str]:
    """``ktc run`` options for a kernel whose scalar arguments are ``scalars``."""
    argv = []
    for name in scalars:
        if rng.random() < 0.85:
            argv += ["--arg", f"{name}={rng.choice(SCALARS)}"]
    if rng.random() < 0.2:
        argv += ["--arg", rng.choice(["x=1", "=1", "a=1", "%n=2", "n", "n=1=2"])]
    if rng.random() < 0.2 and scalars:
        argv += ["--arg", f"{scalars[0]}=1"]
    if rng.random() < 0.3:
        argv += ["--seed", rng.choice(["-1", "0", "7", str(2**70), "x", "1.5"])]
    if rng.random() < 0.2:
        argv += ["--max-cycles", rng.choice(["-5", "0", "1", "100", str(10**30), "y"])]
    if rng.random() < 0.1:
        argv += ["--function", rng.choice(["add", "scale", "nope", ""])]
    return argv


def npz_arrays(names: list[str], rng: random.Random) -> dict:
    """Arrays for an ``--inputs`` archive: right or wrong names, dtypes and shapes."""
    import numpy as np

    arrays = {}
    for name in [*names, "stray"]:
        if rng.random() < 0.5:
            continue
        dtype = rng.choice(["float16", "float32", "int64", "bool", "uint8", "complex64"])
        shape = rng.choice([(), (16,), (16, 16), (0,), (4, 4), (3, 5, 7), (256,)])
        arrays[name] = np.zeros(shape, dtype)
    return arrays
