"""The package format: encode -> decode -> encode is identical, files are written
atomically, and truncated, bit-flipped, wrong-version and inconsistent packages are
rejected with a KtcError that says what is wrong."""

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import ROOT
from ktc.codegen import isa
from ktc.codegen.binary import Relocation
from ktc.codegen.package import (
    FORMAT_VERSION,
    HEADER,
    MAGIC,
    decode,
    encode,
    pack,
    read,
    unpack,
    write,
)
from ktc.codegen.plan import ComputeOnDevice, DataTransfer, Loop
from ktc.dialects.diagnostics import KtcError
from ktc.driver import compile

HALVE = ROOT / "tests" / "lit" / "ktc" / "Inputs" / "halve.mlir"


@pytest.fixture(scope="module", params=["toy", "spyre"])
def package(request):
    return compile(HALVE.read_text(), request.param, str(HALVE))


def rejected(data: bytes, message: str) -> None:
    with pytest.raises(KtcError, match=message) as caught:
        decode(data, "k.ktpkg")
    assert caught.value.where == "k.ktpkg"


def repacked(package, edit) -> bytes:
    """The package's bytes after ``edit`` changed its decoded JSON sections (checksums
    recomputed, so only the meaning is wrong)."""
    sections = unpack(encode(package))
    documents = {name: json.loads(body) for name, body in sections[:4]}
    edit(documents)
    return pack([(name, json.dumps(doc).encode()) for name, doc in documents.items()]
                + sections[4:])


def test_round_trip_is_identical(package):
    data = encode(package)
    decoded = decode(data)
    assert decoded == package
    assert encode(decoded) == data


def test_sections(package):
    names = [name for name, _ in unpack(encode(package))]
    engines = len(package.dataflows[0].binary.engines)
    assert names == ["manifest", "dataflows", "symbols", "plans",
                     *(f"code.0.{e}" for e in range(engines))]
    assert engines == 5


def test_write_then_read(package, tmp_path: Path):
    path = tmp_path / "halve.ktpkg"
    write(package, path)
    assert read(path) == package
    assert [p.name for p in tmp_path.iterdir()] == ["halve.ktpkg"]


def test_failed_write_leaves_nothing(package, tmp_path: Path):
    with pytest.raises(KtcError, match="cannot write"):
        write(package, tmp_path / "missing" / "halve.ktpkg")
    bad = replace(package, arch_hash="not a hash")
    with pytest.raises(KtcError, match="not a hex sha256"):
        write(bad, tmp_path / "bad.ktpkg")
    assert list(tmp_path.iterdir()) == []


def test_unreadable_file(tmp_path: Path):
    with pytest.raises(KtcError, match="cannot read"):
        read(tmp_path / "absent.ktpkg")


def test_truncated(package):
    data = encode(package)
    rejected(data[:5], "truncated: 5 bytes, shorter than the header")
    rejected(data[:HEADER.size + 10], "truncated: the section table")
    rejected(data[:-1], r"section 'code.0.4' at \[\d+, \d+\) is out of bounds")
    rejected(data + b"\0", "1 bytes after the last section")


def test_bit_flips_are_caught_everywhere(package):
    data = encode(package)
    for position in range(len(MAGIC), len(data), 7):
        flipped = bytearray(data)
        flipped[position] ^= 0x10
        with pytest.raises(KtcError, match="invalid package"):
            decode(bytes(flipped))


def test_wrong_magic_and_version(package):
    data = bytearray(encode(package))
    rejected(b"PK\3\4" + bytes(data[4:]), "not a ktc package")
    data[8:12] = (FORMAT_VERSION + 1).to_bytes(4, "little")
    rejected(bytes(data), f"format version {FORMAT_VERSION + 1}; this ktc reads version "
                          f"{FORMAT_VERSION}")


def test_a_package_of_the_previous_version_is_refused_by_name(package):
    data = bytearray(encode(package))
    data[8:12] = (1).to_bytes(4, "little")
    rejected(bytes(data), f"format version 1; this ktc reads version {FORMAT_VERSION}")


def test_manifest_version_must_agree(package):
    def edit(docs):
        docs["manifest"]["format"] = 7
    rejected(repacked(package, edit), "manifest says format 7")


def test_malformed_json_sections(package):
    sections = unpack(encode(package))
    rejected(pack([("manifest", b"{not json")] + sections[1:]), "'manifest' is not valid JSON")
    rejected(pack(sections[1:]), "expected .*'manifest'")

    def drop_kernel(docs):
        del docs["manifest"]["kernel"]
    rejected(repacked(package, drop_kernel), r"manifest: expected the fields")

    def string_grid(docs):
        docs["manifest"]["grid"] = ["2"]
    rejected(repacked(package, string_grid), "manifest.grid: expected an integer, got str")


@pytest.mark.parametrize("grid", [[], [0], [-1], [2, 0]])
def test_a_grid_without_tiles_is_refused(package, grid):
    def edit(docs):
        docs["manifest"]["grid"] = grid
    rejected(repacked(package, edit), r"manifest.grid: expected one or more extents >= 1")


def test_inconsistent_dataflows(package):
    def far_relocation(docs):
        docs["dataflows"][0]["engines"][0]["relocations"][0][0] = 10_000
    rejected(repacked(package, far_relocation),
             "relocation of symbol 1 at 10000 is out of the code")

    def foreign_instance(docs):
        docs["dataflows"][0]["engines"][0]["instances"][0] = 0
    rejected(repacked(package, foreign_instance), "instance 0 is not a 'MNILU' unit")

    def missing_locations(docs):
        del docs["dataflows"][0]["engines"][0]["locations"]
    rejected(repacked(package, missing_locations), r"engines\[0\]: expected the fields")

    def short_locations(docs):
        docs["dataflows"][0]["engines"][0]["locations"]["index"].pop()
    rejected(repacked(package, short_locations), r"engine 0: \d+ source locations for \d+ "
                                                 "instructions")

    def numeric_location(docs):
        docs["dataflows"][0]["engines"][0]["locations"]["table"][0] = 7
    rejected(repacked(package, numeric_location), r"locations.table: expected a string, got int")

    def unknown_location(docs):
        docs["dataflows"][0]["engines"][0]["locations"]["index"][0] = 999
    rejected(repacked(package, unknown_location), r"locations.index: a position outside the "
                                                  r"table of \d+")

    def short_uniform(docs):
        docs["dataflows"][0]["engines"][0]["uniforms"][0] = [1]
    rejected(repacked(package, short_uniform), "one 64-bit value per instance")

    def unknown_param(docs):
        docs["symbols"][0]["symbols"][0]["expr"] = [["param", 3]]
    rejected(repacked(package, unknown_param), "symbol 1: no param 3")

    def bad_operator(docs):
        docs["symbols"][0]["symbols"][0]["expr"] = [["param", 0], ["param", 1], "pow"]
    rejected(repacked(package, bad_operator), "unknown operator 'pow'")


def test_inconsistent_plans(package):
    def no_load(docs):
        docs["plans"]["prepare"] = []
    rejected(repacked(package, no_load), "each of 1 must be loaded once")

    def unsent(docs):
        docs["plans"]["launch"] = [{"command": "ComputeOnDevice", "dataflow": 0}]
    rejected(repacked(package, unsent), "ComputeOnDevice of dataflow 0 before its symbols are sent")

    def loop_out_of_scope(docs):
        loop = docs["plans"]["launch"][0]
        loop["body"][0]["args"][1] = [["loop", 5]]
    rejected(repacked(package, loop_out_of_scope), "no loop 5")

    def unknown_command(docs):
        docs["plans"]["launch"][0]["command"] = "Jump"
    rejected(repacked(package, unknown_command), "unknown command 'Jump'")

    def missing_binding(docs):
        docs["plans"]["launch"][0]["body"][0]["args"].pop()
    rejected(repacked(package, missing_binding), "binds 2 of the 3 parameters")


def test_plan_shape(package):
    """The launch plan is the host loop around compute, send, run."""
    (loop,) = package.launch
    assert isinstance(loop, Loop) and loop.upper == (("arg", 2),)
    assert [type(s) for s in loop.body][1:] == [DataTransfer, ComputeOnDevice]
    engine = package.dataflows[0].binary.engines[0]
    assert engine.relocations == (Relocation(40, 1),)


def test_instructions_carry_their_source_locations(package):
    """Every instruction of halve.mlir's DMA program names the line it came from; the
    ``dma`` those of the ``dfir.dma`` ops."""
    engine = package.dataflows[0].binary.engines[0]
    program = isa.decode(engine.code)
    assert len(engine.locations) == len(program)
    assert all(re.fullmatch(rf"{re.escape(str(HALVE))}:\d+:\d+", loc) for loc in engine.locations)
    lines = HALVE.read_text().splitlines()
    copies = [loc for loc, i in zip(engine.locations, program) if isinstance(i, isa.Dma)]
    assert copies and all("dfir.dma" in lines[int(loc.split(":")[-2]) - 1] for loc in copies)


def test_a_package_without_locations_round_trips(package):
    """Locations are optional: a binary that records none stays so."""
    bare = replace(package, dataflows=tuple(
        replace(d, binary=replace(d.binary, engines=tuple(
            replace(e, locations=()) for e in d.binary.engines))) for d in package.dataflows))
    data = encode(bare)
    assert decode(data) == bare and encode(decode(data)) == data
