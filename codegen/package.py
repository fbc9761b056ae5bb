"""The package (``.ktpkg``): one file holding everything needed to run a kernel.

``encode(package) -> bytes`` and ``decode(bytes) -> Package`` are exact inverses on
valid packages (encode, decode, encode gives the same bytes); ``write`` commits a file
atomically (temporary file, then rename) and ``read`` loads one. Both directions run the
same ``validate``. Every defect of a file (truncation, a flipped bit, another format
version, a section out of bounds, a checksum mismatch, a malformed or inconsistent
manifest, symbol table or plan) is a ``KtcError``; nothing in a package is unpickled
or evaluated as code. The layout is documented in ``docs/package-format.md``.
"""

from __future__ import annotations

import hashlib
import json
import struct
from dataclasses import dataclass
from pathlib import Path

from ktc.codegen import isa
from ktc.codegen.binary import DataflowBinary, EngineBinary, Relocation, Unit
from ktc.codegen.plan import (
    Allocate,
    ComputeOnDevice,
    ComputeOnHost,
    DataTransfer,
    Expr,
    MAX_LAUNCH_TRIPS,
    InitTransfer,
    Loop,
    Step,
    Symbol,
    check,
    trips,
)
from ktc.codegen.signature import Argument, Signature, Written
from ktc.errors import KtcError
from ktc.files import write_atomically

MAGIC = b"KTPKG\x00\r\n"
"""8 bytes; the NUL and CR LF catch text-mode copies."""
FORMAT_VERSION = 4
"""2: engine records carry the source location of each instruction."""
HEADER = struct.Struct("<8sII")
"""magic, format version, section count."""
ENTRY = struct.Struct("<16sQQ32s")
"""name (ASCII, NUL-padded), offset, length, sha256 of the section."""
DIGEST = 32
MAX_SECTIONS = 1 << 16
MAX_LOOP_DEPTH = 64

DTYPES = {
    "f16": "float16", "f32": "float32", "f64": "float64", "df16": "uint16",
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "index": "int64",
}
"""Element and scalar types a signature may name, with the numpy dtype that holds them."""
INTEGERS = ("i1", "i8", "i16", "i32", "i64", "index")
INT64 = range(-(1 << 63), 1 << 63)


@dataclass(frozen=True)
class Dataflow:
    """One ``dfir.dataflow``: its binary and its symbol table."""

    binary: DataflowBinary
    params: tuple[str, ...]
    """The names of the parameters its symbols read, bound by each ComputeOnHost."""
    symbols: tuple[Symbol, ...]


@dataclass(frozen=True)
class Package:
    compiler: str
    """``ktc <version>``."""
    arch_name: str
    arch_hash: str
    """The sha256 (hex) of the architecture description it was compiled for."""
    device_memory: str
    """The memory kind the runtime places pointer arguments in."""
    signature: Signature
    dataflows: tuple[Dataflow, ...]
    prepare: tuple[Step, ...]
    launch: tuple[Step, ...]


class _Bad(Exception):
    """A defect found while decoding; becomes a KtcError naming the file."""


# ---------------------------------------------------------------------------------------
# Files


def write(package: Package, path: str | Path) -> None:
    """Write ``package`` to ``path`` atomically: the file is complete or absent."""
    data = encode(package)
    write_atomically(path, lambda file: file.write(data))


def read(path: str | Path) -> Package:
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise KtcError(f"cannot read '{path}': {err.strerror}") from None
    return decode(data, str(path))


# ---------------------------------------------------------------------------------------
# The container: header, section table, sections


def pack(sections: list[tuple[str, bytes]]) -> bytes:
    """The container holding ``sections`` in order, with its header and checksums."""
    table_end = HEADER.size + ENTRY.size * len(sections) + DIGEST
    offset, entries = table_end, []
    for name, body in sections:
        entries.append(ENTRY.pack(name.encode("ascii"), offset, len(body),
                                  hashlib.sha256(body).digest()))
        offset += len(body)
    head = HEADER.pack(MAGIC, FORMAT_VERSION, len(sections)) + b"".join(entries)
    return head + hashlib.sha256(head).digest() + b"".join(body for _, body in sections)


def unpack(data: bytes) -> list[tuple[str, bytes]]:
    """The sections of a container, in order, after every check of its structure."""
    if len(data) < HEADER.size:
        raise _Bad(f"truncated: {len(data)} bytes, shorter than the header")
    magic, version, count = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise _Bad("not a ktc package (bad magic number)")
    if version != FORMAT_VERSION:
        raise _Bad(f"format version {version}; this ktc reads version {FORMAT_VERSION}")
    table_end = HEADER.size + ENTRY.size * count + DIGEST
    if count > MAX_SECTIONS or table_end > len(data):
        raise _Bad(f"truncated: the section table of {count} sections does not fit")
    head = data[:table_end - DIGEST]
    if hashlib.sha256(head).digest() != data[table_end - DIGEST:table_end]:
        raise _Bad("header checksum mismatch (the header or section table is corrupt)")
    sections, expected = [], table_end
    for index in range(count):
        raw, offset, length, digest = ENTRY.unpack_from(data, HEADER.size + ENTRY.size * index)
        name = raw.rstrip(b"\x00").decode("ascii", "replace")
        if offset != expected or offset + length > len(data):
            raise _Bad(f"section '{name}' at [{offset}, {offset + length}) is out of bounds "
                       f"(file of {len(data)} bytes)")
        body = data[offset:offset + length]
        if hashlib.sha256(body).digest() != digest:
            raise _Bad(f"section '{name}' checksum mismatch")
        sections.append((name, body))
        expected = offset + length
    if expected != len(data):
        raise _Bad(f"{len(data) - expected} bytes after the last section")
    return sections


# ---------------------------------------------------------------------------------------
# Package <-> sections


def encode(package: Package) -> bytes:
    try:
        validate(package)
    except _Bad as err:
        raise KtcError(f"invalid package: {err}") from None
    documents = {
        "manifest": _manifest(package),
        "dataflows": [_binary(d.binary) for d in package.dataflows],
        "symbols": [{"params": list(d.params), "symbols": [_symbol(s) for s in d.symbols]}
                    for d in package.dataflows],
        "plans": {"prepare": [_step(s) for s in package.prepare],
                  "launch": [_step(s) for s in package.launch]},
    }
    sections = [(name, _json(doc)) for name, doc in documents.items()]
    sections += [(_code_name(d, e), engine.code) for d, dataflow in enumerate(package.dataflows)
                 for e, engine in enumerate(dataflow.binary.engines)]
    return pack(sections)


def decode(data: bytes, filename: str = "<package>") -> Package:
    """The package in ``data``; a ``KtcError`` naming ``filename`` for any defect."""
    try:
        package = _decode(unpack(bytes(data)))
        validate(package)
    except _Bad as err:
        raise KtcError(f"invalid package: {err}", filename) from None
    return package


def _decode(sections: list[tuple[str, bytes]]) -> Package:
    names = [name for name, _ in sections]
    fixed = ["manifest", "dataflows", "symbols", "plans"]
    if names[:4] != fixed:
        raise _Bad(f"sections {names[:4]}, expected {fixed} first")
    manifest, binaries, tables, plans = (_load(body, name) for name, body in sections[:4])
    code = dict(sections[4:])
    binaries, tables = _list(binaries, "dataflows"), _list(tables, "symbols")
    if len(binaries) != len(tables):
        raise _Bad(f"{len(binaries)} dataflows but {len(tables)} symbol tables")
    dataflows = tuple(_dataflow(d, binary, table, code)
                      for d, (binary, table) in enumerate(zip(binaries, tables)))
    expected = [_code_name(d, e) for d, df in enumerate(dataflows)
                for e in range(len(df.binary.engines))]
    if names[4:] != expected:
        raise _Bad(f"code sections {names[4:]}, expected {expected}")
    _keys(plans, {"prepare", "launch"}, "plans")
    arch = _get(manifest, "arch", dict, "manifest")
    _keys(arch, {"name", "hash", "device_memory"}, "manifest.arch")
    _keys(manifest, {"format", "compiler", "arch", "kernel", "grid", "arguments"}, "manifest")
    if _get(manifest, "format", int, "manifest") != FORMAT_VERSION:
        raise _Bad(f"manifest says format {manifest['format']}, the header {FORMAT_VERSION}")
    signature = Signature(
        _get(manifest, "kernel", str, "manifest"),
        tuple(_argument(a, f"manifest.arguments[{i}]")
              for i, a in enumerate(_get(manifest, "arguments", list, "manifest"))),
        _grid(_get(manifest, "grid", list, "manifest")),
    )
    return Package(
        _get(manifest, "compiler", str, "manifest"),
        _get(arch, "name", str, "manifest.arch"),
        _get(arch, "hash", str, "manifest.arch"),
        _get(arch, "device_memory", str, "manifest.arch"),
        signature,
        dataflows,
        _steps(_get(plans, "prepare", list, "plans"), "plans.prepare"),
        _steps(_get(plans, "launch", list, "plans"), "plans.launch"),
    )


def _code_name(dataflow: int, engine: int) -> str:
    return f"code.{dataflow}.{engine}"


def _json(document) -> bytes:
    return json.dumps(document, sort_keys=True, separators=(",", ":")).encode()


def _load(body: bytes, name: str):
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise _Bad(f"section '{name}' is not valid JSON ({err})") from None


# Encoding


def _manifest(package: Package) -> dict:
    sig = package.signature
    return {
        "format": FORMAT_VERSION,
        "compiler": package.compiler,
        "arch": {"name": package.arch_name, "hash": package.arch_hash,
                 "device_memory": package.device_memory},
        "kernel": sig.kernel,
        "grid": list(sig.grid),
        "arguments": [{"name": a.name, "kind": "pointer" if a.pointer else "scalar",
                       "dtype": a.dtype,
                       "shape": None if a.shape is None else [_expr(d) for d in a.shape],
                       "granularity": a.granularity, "upperbound": a.upperbound,
                       "writes": [{"offset": _expr(w.offset),
                                   "sizes": [_expr(d) for d in w.sizes],
                                   "strides": [_expr(d) for d in w.strides]} for w in a.writes]}
                      for a in sig.arguments],
    }


def _binary(binary: DataflowBinary) -> dict:
    return {
        "name": binary.name,
        "units": [[u.kind, u.core, u.subcore] for u in binary.units],
        "engines": [{"kind": e.kind, "instances": list(e.instances),
                     "relocations": [[r.offset, r.symbol] for r in e.relocations],
                     "uniforms": [list(u) for u in e.uniforms],
                     "locations": _locations(e.locations)} for e in binary.engines],
    }


def _locations(locations: tuple[str, ...]) -> dict:
    """Each distinct location once (in order of first use), and per instruction the
    position of its own."""
    table = list(dict.fromkeys(locations))
    position = {location: index for index, location in enumerate(table)}
    return {"table": table, "index": [position[location] for location in locations]}


def _symbol(symbol: Symbol) -> dict:
    return {"id": symbol.id, "name": symbol.name, "expr": _expr(symbol.expr)}


def _expr(expr: Expr) -> list:
    return [list(t) if isinstance(t, tuple) else t for t in expr]


def _step(step: Step) -> dict:
    fields = {"command": type(step).__name__}
    if isinstance(step, Allocate):
        fields.update(memory=step.memory, size=step.size, alignment=step.alignment)
    elif isinstance(step, ComputeOnHost):
        fields.update(dataflow=step.dataflow, args=[_expr(a) for a in step.args])
    elif isinstance(step, Loop):
        fields.update(var=step.var, lower=_expr(step.lower), upper=_expr(step.upper),
                      step=_expr(step.step), body=[_step(s) for s in step.body])
    else:
        fields.update(dataflow=step.dataflow)
    return fields


# Decoding (shape only; ``validate`` checks meaning)


def _get(obj, key: str, kind: type, path: str):
    if not isinstance(obj, dict) or key not in obj:
        raise _Bad(f"{path}: missing '{key}'")
    value = obj[key]
    if kind is int:
        return _int(value, f"{path}.{key}")
    if kind is str:
        return _str(value, f"{path}.{key}")
    if not isinstance(value, kind):
        raise _Bad(f"{path}.{key}: expected {kind.__name__}, got {type(value).__name__}")
    return value


def _int(value, path: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Bad(f"{path}: expected an integer, got {type(value).__name__}")
    return value


def _grid(value: list) -> tuple[int, ...]:
    """A grid: one or more extents, each at least 1."""
    grid = tuple(_int(v, "manifest.grid") for v in value)
    if not grid or min(grid) < 1:
        raise _Bad(f"manifest.grid: expected one or more extents >= 1, got {list(grid)}")
    return grid


def _str(value, path: str) -> str:
    if not isinstance(value, str):
        raise _Bad(f"{path}: expected a string, got {type(value).__name__}")
    return value


def _list(value, path: str) -> list:
    if not isinstance(value, list):
        raise _Bad(f"{path}: expected a list, got {type(value).__name__}")
    return value


def _keys(obj, keys: set[str], path: str) -> None:
    if not isinstance(obj, dict) or set(obj) != keys:
        found = sorted(obj) if isinstance(obj, dict) else type(obj).__name__
        raise _Bad(f"{path}: expected the fields {sorted(keys)}, got {found}")


def _ints(value, path: str) -> tuple[int, ...]:
    return tuple(_int(v, path) for v in _list(value, path))


def _tuple_expr(value, path: str) -> Expr:
    """The tokens of an expression, leaves as pairs; ``validate`` checks them."""
    return tuple(tuple(t) if isinstance(t, list) and len(t) == 2 else t
                 for t in _list(value, path))


def _argument(obj, path: str) -> Argument:
    _keys(obj, {"name", "kind", "dtype", "shape", "granularity", "upperbound", "writes"}, path)
    kind = _get(obj, "kind", str, path)
    if kind not in ("pointer", "scalar"):
        raise _Bad(f"{path}.kind: expected 'pointer' or 'scalar', got '{kind}'")
    shape = obj["shape"]
    dims = None if shape is None else tuple(_tuple_expr(d, f"{path}.shape")
                                            for d in _list(shape, f"{path}.shape"))
    bounds = [_optional_int(obj, key, path) for key in ("granularity", "upperbound")]
    writes = tuple(_written(w, f"{path}.writes[{i}]")
                   for i, w in enumerate(_get(obj, "writes", list, path)))
    return Argument(_get(obj, "name", str, path), kind == "pointer",
                    _get(obj, "dtype", str, path), dims, *bounds, writes)


def _written(obj, path: str) -> Written:
    _keys(obj, {"offset", "sizes", "strides"}, path)
    sizes, strides = (tuple(_tuple_expr(d, f"{path}.{key}") for d in _list(obj[key], f"{path}.{key}"))
                      for key in ("sizes", "strides"))
    if len(sizes) != len(strides):
        raise _Bad(f"{path}: {len(sizes)} sizes but {len(strides)} strides")
    return Written(_tuple_expr(obj["offset"], f"{path}.offset"), sizes, strides)


def _optional_int(obj: dict, key: str, path: str) -> int | None:
    return None if obj[key] is None else _get(obj, key, int, path)


def _dataflow(index: int, binary, table, code: dict[str, bytes]) -> Dataflow:
    path = f"dataflows[{index}]"
    _keys(binary, {"name", "units", "engines"}, path)
    units = []
    for unit in _get(binary, "units", list, path):
        kind, core, subcore = _triple(unit, f"{path}.units")
        units.append(Unit(kind, core, subcore))
    engines = tuple(_engine(e, f"{path}.engines[{i}]", code.get(_code_name(index, i), b""))
                    for i, e in enumerate(_get(binary, "engines", list, path)))
    dataflow = DataflowBinary(_get(binary, "name", str, path), tuple(units), engines)
    tpath = f"symbols[{index}]"
    _keys(table, {"params", "symbols"}, tpath)
    params = tuple(_str(p, f"{tpath}.params") for p in _get(table, "params", list, tpath))
    symbols = []
    for i, symbol in enumerate(_get(table, "symbols", list, tpath)):
        spath = f"{tpath}.symbols[{i}]"
        _keys(symbol, {"id", "name", "expr"}, spath)
        symbols.append(Symbol(_get(symbol, "id", int, spath), _get(symbol, "name", str, spath),
                              _tuple_expr(symbol["expr"], f"{spath}.expr")))
    return Dataflow(dataflow, params, tuple(symbols))


def _triple(unit, path: str) -> tuple[str, int, int]:
    if not (isinstance(unit, list) and len(unit) == 3 and isinstance(unit[0], str)):
        raise _Bad(f"{path}: a unit is [kind, core, subcore]")
    return unit[0], _int(unit[1], path), _int(unit[2], path)


def _engine(obj, path: str, code: bytes) -> EngineBinary:
    _keys(obj, {"kind", "instances", "relocations", "uniforms", "locations"}, path)
    relocations = []
    for pair in _get(obj, "relocations", list, path):
        numbers = _ints(pair, f"{path}.relocations")
        if len(numbers) != 2:
            raise _Bad(f"{path}.relocations: a relocation is [offset, symbol]")
        relocations.append(Relocation(*numbers))
    uniforms = tuple(_ints(u, f"{path}.uniforms") for u in _get(obj, "uniforms", list, path))
    locations = _located(_get(obj, "locations", dict, path), f"{path}.locations")
    return EngineBinary(_get(obj, "kind", str, path), _ints(obj["instances"], path), code,
                        tuple(relocations), uniforms, locations)


def _located(obj: dict, path: str) -> tuple[str, ...]:
    _keys(obj, {"table", "index"}, path)
    table = [_str(loc, f"{path}.table") for loc in _get(obj, "table", list, path)]
    index = _ints(obj["index"], f"{path}.index")
    if not all(0 <= i < len(table) for i in index):
        raise _Bad(f"{path}.index: a position outside the table of {len(table)}")
    return tuple(table[i] for i in index)


STEPS: dict[str, tuple[type, set[str]]] = {
    "Allocate": (Allocate, {"memory", "size", "alignment"}),
    "InitTransfer": (InitTransfer, {"dataflow"}),
    "ComputeOnHost": (ComputeOnHost, {"dataflow", "args"}),
    "DataTransfer": (DataTransfer, {"dataflow"}),
    "ComputeOnDevice": (ComputeOnDevice, {"dataflow"}),
    "Loop": (Loop, {"var", "lower", "upper", "step", "body"}),
}


def _steps(items: list, path: str, depth: int = 0) -> tuple[Step, ...]:
    return tuple(_plan_step(item, f"{path}[{i}]", depth) for i, item in enumerate(items))


def _plan_step(obj, path: str, depth: int) -> Step:
    if depth > MAX_LOOP_DEPTH:
        raise _Bad(f"{path}: loops nest deeper than {MAX_LOOP_DEPTH}")
    command = _get(obj, "command", str, path)
    if command not in STEPS:
        raise _Bad(f"{path}: unknown command '{command}'")
    cls, keys = STEPS[command]
    _keys(obj, keys | {"command"}, path)
    if cls is Allocate:
        return Allocate(_get(obj, "memory", str, path), _get(obj, "size", int, path),
                        _get(obj, "alignment", int, path))
    if cls is ComputeOnHost:
        return ComputeOnHost(_get(obj, "dataflow", int, path),
                             tuple(_tuple_expr(a, f"{path}.args")
                                   for a in _get(obj, "args", list, path)))
    if cls is Loop:
        bounds = (_tuple_expr(obj[k], f"{path}.{k}") for k in ("lower", "upper", "step"))
        return Loop(_get(obj, "var", int, path), *bounds,
                    _steps(_get(obj, "body", list, path), f"{path}.body", depth + 1))
    return cls(_get(obj, "dataflow", int, path))


# ---------------------------------------------------------------------------------------
# Meaning


def validate(package: Package) -> None:
    """Check that a package is consistent; ``_Bad`` (a KtcError from ``decode``) if not."""
    _validate_header(package)
    arguments = package.signature.arguments
    integers = {i for i, a in enumerate(arguments) if not a.pointer and a.dtype in INTEGERS}
    for a in arguments:
        for dim in a.shape or ():
            _scoped(dim, {"arg": integers}, f"the shape of argument '{a.name}'")
        for w in a.writes:
            for expr in (w.offset, *w.sizes, *w.strides):
                _scoped(expr, {"arg": range(len(arguments))}, f"a view argument '{a.name}' writes")
    for index, dataflow in enumerate(package.dataflows):
        _validate_dataflow(index, dataflow)
    allocations = _validate_prepare(package)
    scope = {"arg": range(len(arguments)), "alloc": range(allocations), "loop": set()}
    _validate_launch(package, package.launch, scope, set(), set())


def _validate_header(package: Package) -> None:
    digest = package.arch_hash
    if not (len(digest) == 64 and all(c in "0123456789abcdef" for c in digest)):
        raise _Bad(f"arch hash '{digest[:80]}' is not a hex sha256")
    names = [a.name for a in package.signature.arguments]
    if len(set(names)) != len(names):
        raise _Bad("two kernel arguments have the same name")
    for a in package.signature.arguments:
        if a.dtype not in DTYPES:
            raise _Bad(f"argument '{a.name}' has unknown type '{a.dtype[:40]}'")
        if a.shape is not None and not a.pointer:
            raise _Bad(f"scalar argument '{a.name}' has a shape")
        bounds = (a.granularity, a.upperbound)
        if a.pointer and bounds != (None, None):
            raise _Bad(f"pointer argument '{a.name}' has a granularity or upper bound")
        if a.granularity is not None and a.granularity <= 0:
            raise _Bad(f"argument '{a.name}' has granularity {a.granularity}; it must be positive")


def _scoped(expr: Expr, scope, what: str) -> None:
    problem = check(expr, scope)
    if problem:
        raise _Bad(f"{what}: {problem}")


def _validate_dataflow(index: int, dataflow: Dataflow) -> None:
    binary, path = dataflow.binary, f"dataflow {index}"
    ids = [s.id for s in dataflow.symbols]
    if len(set(ids)) != len(ids):
        raise _Bad(f"{path}: two symbols have the same id")
    for symbol in dataflow.symbols:
        _scoped(symbol.expr, {"param": range(len(dataflow.params))}, f"{path} symbol {symbol.id}")
    for unit in binary.units:
        if unit.core < -1 or unit.subcore < 0:
            raise _Bad(f"{path}: unit {unit} has a negative core or subcore")
    for e, engine in enumerate(binary.engines):
        _validate_engine(engine, binary.units, set(ids), f"{path} engine {e}")


def _validate_engine(engine: EngineBinary, units: tuple[Unit, ...], ids: set[int], path: str):
    if not engine.instances:
        raise _Bad(f"{path}: runs on no unit")
    for instance in engine.instances:
        if instance not in range(len(units)) or units[instance].kind != engine.kind:
            raise _Bad(f"{path}: instance {instance} is not a '{engine.kind}' unit")
    for r in engine.relocations:
        if r.offset not in range(len(engine.code) - 7) or r.symbol not in ids:
            raise _Bad(f"{path}: relocation of symbol {r.symbol} at {r.offset} is out of "
                       f"the code ({len(engine.code)} bytes) or names no symbol")
    for values in engine.uniforms:
        if len(values) != len(engine.instances) or not all(v in INT64 for v in values):
            raise _Bad(f"{path}: a uniform needs one 64-bit value per instance")
    if engine.locations:
        _validate_locations(engine, path)


def _validate_locations(engine: EngineBinary, path: str) -> None:
    """One location per instruction (which needs code that decodes)."""
    try:
        count = len(isa.decode(engine.code))
    except isa.IsaError as error:
        raise _Bad(f"{path}: {error.message}") from None
    if len(engine.locations) != count:
        raise _Bad(f"{path}: {len(engine.locations)} source locations for "
                   f"{count} instructions")


def _validate_prepare(package: Package) -> int:
    allocations, loaded = 0, []
    for step in package.prepare:
        if isinstance(step, Allocate):
            if step.size < 0 or step.alignment <= 0:
                raise _Bad(f"Allocate of {step.size} bytes aligned to {step.alignment}")
            allocations += 1
        elif isinstance(step, InitTransfer):
            loaded.append(step.dataflow)
        else:
            raise _Bad(f"{type(step).__name__} in the prepare plan")
    if sorted(loaded) != list(range(len(package.dataflows))):
        raise _Bad(f"the prepare plan loads dataflows {loaded}; each of "
                   f"{len(package.dataflows)} must be loaded once")
    return allocations


def _validate_launch(package: Package, steps, scope: dict, computed: set, sent: set) -> None:
    """Dataflows exist, parameters are bound, loop variables are in scope, symbols are
    computed before they are sent and sent before code that needs them runs."""
    for step in steps:
        if isinstance(step, Loop):
            if step.var in scope["loop"] or step.var < 0:
                raise _Bad(f"loop variable {step.var} is reused")
            for bound in (step.lower, step.upper, step.step):
                _scoped(bound, scope, f"the bounds of loop {step.var}")
            _check_trips(step)
            inner = {**scope, "loop": scope["loop"] | {step.var}}
            _validate_launch(package, step.body, inner, computed, sent)
            continue
        if isinstance(step, Allocate | InitTransfer):
            raise _Bad(f"{type(step).__name__} in the launch plan")
        if step.dataflow not in range(len(package.dataflows)):
            raise _Bad(f"{type(step).__name__} of dataflow {step.dataflow}, which does not exist")
        dataflow = package.dataflows[step.dataflow]
        if isinstance(step, ComputeOnHost):
            if len(step.args) != len(dataflow.params):
                raise _Bad(f"ComputeOnHost binds {len(step.args)} of the "
                           f"{len(dataflow.params)} parameters of dataflow {step.dataflow}")
            for arg in step.args:
                _scoped(arg, scope, f"ComputeOnHost of dataflow {step.dataflow}")
            computed.add(step.dataflow)
        elif isinstance(step, DataTransfer):
            if step.dataflow not in computed:
                raise _Bad(f"DataTransfer of dataflow {step.dataflow} before its ComputeOnHost")
            sent.add(step.dataflow)
        elif _relocated(dataflow) and step.dataflow not in sent:
            raise _Bad(f"ComputeOnDevice of dataflow {step.dataflow} before its symbols are sent")


def _check_trips(loop: Loop) -> None:
    """A loop with constant bounds has a positive step and at most ``MAX_LAUNCH_TRIPS``
    iterations."""
    bounds = [b[0] for b in (loop.lower, loop.upper, loop.step) if len(b) == 1 and isinstance(b[0], int)]
    if len(bounds) != 3:
        return
    lower, upper, step = bounds
    if step <= 0:
        raise _Bad(f"loop {loop.var} of the launch plan has step {step}; it must be positive")
    if trips(lower, upper, step) > MAX_LAUNCH_TRIPS:
        raise _Bad(f"loop {loop.var} of the launch plan runs {trips(lower, upper, step)} times, "
                   f"more than the limit of {MAX_LAUNCH_TRIPS}")


def _relocated(dataflow: Dataflow) -> bool:
    return any(engine.relocations for engine in dataflow.binary.engines)

