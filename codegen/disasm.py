"""Engine binaries printed back as text: one instruction per line, symbols by name.

::

    engine "lsu" on lsu[0.0], lsu[1.0]
      uniform 0 = [3, 4]
      uniform 1 = [7, 8]
         0  li s0, 0                                      // k.mlir:4:5
         1  li s1, 1                                      // k.mlir:5:5
         2  li s2, 4                                      // k.mlir:6:5
         3  li s3, @x                                     // k.mlir:12:5
         4  uni s4, 0                                     // k.mlir:21:7
         5  uni s5, 1                                     // k.mlir:22:7
         6  view d0, s4, s3, f16, [4, 64], [64, 1]        // k.mlir:23:7
         7  loop s6, s0, s2, s1, #13                      // k.mlir:24:7
         8    vld v0, d0, 64, [s6, s0]                    // k.mlir:25:9
         9    send v0, s5, 3                              // k.mlir:26:9
        10    recv v0, s5, 4, f16, 64                     // k.mlir:27:9
        11    vst v0, d0, [s6, s0]                        // k.mlir:28:9
        12  endloop s6, s2, s1, #8                        // k.mlir:24:7
        13  halt                                          // k.mlir:20:5

A line is ``pc  mnemonic operands``: registers with their file (``s3``, ``v0``, ``d1``),
element types by name, immediates in decimal (vector constants' element bits in hex),
``#n`` for pc ``n``, lists in brackets. An ``li`` whose immediate is relocated shows
the symbol as ``@name``; loop bodies are indented. When the binary records where each
instruction's op was written, a ``// file:line:col`` comment follows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ktc.codegen import isa
from ktc.codegen.binary import DataflowBinary, EngineBinary, Unit

LOCATION_COLUMN = 44
"""Width of the instruction column before a ``// file:line:col`` comment."""


def unit_name(unit: Unit) -> str:
    """``DDR`` (no core), ``L1[3.0]`` (core 3, sub-core 0)."""
    return unit.kind if unit.core < 0 else f"{unit.kind}[{unit.core}.{unit.subcore}]"


def symbol_name(symbol: int, symbol_names: Mapping[int, str]) -> str:
    return "@" + symbol_names.get(symbol, f"symbol{symbol}")


def disassemble(binary: EngineBinary, units: Sequence[Unit],
                symbol_names: Mapping[int, str]) -> str:
    """``binary`` as text (raises IsaError if its code is malformed)."""
    program = isa.decode(binary.code)
    starts = isa.offsets(program)
    relocated = {relocation.offset: relocation.symbol for relocation in binary.relocations}
    instances = ", ".join(_unit(units, index) for index in binary.instances)
    lines = [f'engine "{binary.kind}" on {instances}']
    lines += [f"  uniform {k} = [{', '.join(map(str, values))}]"
              for k, values in enumerate(binary.uniforms)]
    depth = 0
    for pc, instruction in enumerate(program):
        depth -= isinstance(instruction, isa.EndLoop)
        symbol = relocated.get(starts[pc] + isa.WORD)
        text = '  ' * depth + instruction_text(instruction, None if symbol is None
                                               else symbol_name(symbol, symbol_names))
        location = binary.locations[pc] if pc < len(binary.locations) else ""
        if location:
            text = f"{text:<{LOCATION_COLUMN}}  // {location}"
        lines.append(f"  {pc:4}  {text}")
        depth += isinstance(instruction, isa.Loop)
    return "\n".join(lines) + "\n"


def disassemble_dataflow(binary: DataflowBinary, symbol_names: Mapping[int, str]) -> str:
    """The unit table, then every engine of ``binary``."""
    lines = [f"dataflow {binary.name}", "  units:"]
    lines += [f"    {index:3}  {unit_name(unit)}" for index, unit in enumerate(binary.units)]
    text = "\n".join(lines) + "\n"
    return text + "".join(disassemble(engine, binary.units, symbol_names)
                          for engine in binary.engines)


def _unit(units: Sequence[Unit], index: int) -> str:
    return unit_name(units[index]) if 0 <= index < len(units) else f"unit{index}"


def instruction_text(instruction: isa.Instruction, symbol: str | None) -> str:
    """One instruction; ``symbol`` replaces an ``li`` immediate."""
    mnemonic = instruction.MNEMONIC
    operands = []
    for name, meta, value in isa.operands(instruction):
        slot = meta["slot"]
        if slot == "variant":
            mnemonic += f".{value}"
        elif symbol is not None and isinstance(instruction, isa.Li) and name == "value":
            operands.append(symbol)
        else:
            operands.append(_operand(meta, value, hexadecimal=isinstance(instruction, isa.Vconst)))
    return f"{mnemonic} {', '.join(operands)}".rstrip()


def _operand(meta: dict, value: object, hexadecimal: bool) -> str:
    slot = meta["slot"]
    if slot == "reg":
        return f"{meta['file']}{value}"
    if slot == "pc":
        return f"#{value}"
    if slot == "list":
        items = [f"{meta['file']}{item}" if meta["file"] else
                 (hex(item) if hexadecimal else str(item)) for item in value]
        return f"[{', '.join(items)}]"
    return str(value)
