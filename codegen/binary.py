"""What code generation hands to the package and to a device: engine binaries.

A ``dfir.dataflow`` becomes one :class:`DataflowBinary`: the table of hardware units
it names and one :class:`EngineBinary` per ``dfir.program``. Code is bytes in the
encoding of ``docs/isa.md``; a field whose value depends on kernel arguments holds
zero and is listed as a :class:`Relocation` naming the symbol whose value goes there.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Unit:
    """One hardware unit instance: an engine or a memory of a kind, at a core and sub-core.

    Device memory (DDR) has ``core = -1``.
    """

    kind: str
    core: int = -1
    subcore: int = 0


@dataclass(frozen=True)
class Relocation:
    """Write symbol ``symbol``'s value as a little-endian int64 at ``offset`` in the code."""

    offset: int
    symbol: int


@dataclass(frozen=True)
class EngineBinary:
    """One engine kind's program, SPMD over ``instances``.

    ``instances`` are indices into the dataflow's unit table. ``uniforms[k][i]`` is
    per-instance value ``k`` for instance ``i`` (an address, a core number, the
    index of a peer unit); the code reads it by ``k``. ``locations[pc]`` is the
    ``file:line:col`` of the IR op instruction ``pc`` came from ("" when unknown);
    empty when the binary records none.
    """

    kind: str
    instances: tuple[int, ...]
    code: bytes
    relocations: tuple[Relocation, ...] = ()
    uniforms: tuple[tuple[int, ...], ...] = ()
    locations: tuple[str, ...] = ()


@dataclass(frozen=True)
class DataflowBinary:
    """A ``dfir.dataflow``: its unit table and one binary per engine program."""

    name: str
    units: tuple[Unit, ...]
    engines: tuple[EngineBinary, ...]


def relocated(engine: EngineBinary, values: dict[int, int]) -> bytes:
    """``engine``'s code with each relocation's symbol value written in (``values`` by
    symbol id; each a signed 64-bit integer)."""
    code = bytearray(engine.code)
    for relocation in engine.relocations:
        at = relocation.offset
        code[at:at + 8] = values[relocation.symbol].to_bytes(8, "little", signed=True)
    return bytes(code)
