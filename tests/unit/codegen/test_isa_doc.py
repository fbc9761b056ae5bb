"""docs/isa.md says what the code does: its instruction table is the one the field
declarations give, and its worked examples' bytes are what the encoder writes."""

from pathlib import Path

import pytest

from ktc.codegen import isa
from ktc.codegen.disasm import instruction_text

DOC = (Path(__file__).resolve().parents[3] / "docs" / "isa.md").read_text()


def table_row(cls: type[isa.Instruction]) -> str:
    def names(*kinds):
        return [name for name, meta in isa.slots(cls) if meta["slot"] in kinds]
    registers = [f"{meta['file']}:{name}" for name, meta in isa.slots(cls) if meta["slot"] == "reg"]
    extension = [name + ("[]" if meta["slot"] == "list" else "") for name, meta in isa.slots(cls)
                 if meta["slot"] in ("imm", "pc", "list")]
    runs = isa.RUNS_ON.get(cls)
    cells = [f"`0x{cls.OPCODE:02x}`", f"`{cls.MNEMONIC}`", ", ".join(names("variant")) or "—",
             ", ".join(names("type", "type2")) or "—", ", ".join(registers) or "—",
             ", ".join(extension) or "—", " or ".join(sorted(runs)) if runs else "every"]
    return "| " + " | ".join(cells) + " |"


@pytest.mark.parametrize("cls", isa.INSTRUCTIONS, ids=lambda cls: cls.MNEMONIC)
def test_instruction_table_row(cls):
    assert table_row(cls) in DOC


EXAMPLES = [
    isa.View(1, 2, 3, "f16", (4, 64), (128, 1)), isa.Dma(0, 1), isa.Vld(0, 0, 64, (5, 6)),
    isa.Send(0, 4, 3), isa.Recv(1, 4, 4, "f16", 64), isa.Vst(1, 1, (5, 6)),
    isa.Vop("fma", "f16", "f16", 3, (0, 1, 2)), isa.Vreduce("add", "f32", 1, 0),
    isa.Vconst(0, "f16", 64, (0x3800,)), isa.Ssend(3, 1), isa.Srecv(3, 2),
    isa.Loop(5, 0, 2, 1, 14), isa.EndLoop(5, 2, 1, 9),
]


@pytest.mark.parametrize("instruction", EXAMPLES, ids=lambda i: i.MNEMONIC)
def test_worked_example_bytes(instruction):
    code = isa.encode_one(instruction)
    lines = DOC[DOC.index(instruction_text(instruction, None)):].splitlines()[1:]
    for k in range(0, len(code), isa.WORD):
        assert lines[k // isa.WORD].split()[:8] == code[k:k + isa.WORD].hex(" ").split()
