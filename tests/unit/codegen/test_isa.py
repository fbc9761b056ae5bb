"""The instruction encoding: round trips, the documented layout, and malformed code rejected.

Instruction lists are generated from each class's field declarations, so every
instruction and every operand kind is covered, and the decoder is fed arbitrary bytes:
it returns a program or raises IsaError, nothing else.
"""

import struct

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ktc.codegen import isa
from ktc.codegen.isa import (
    Alu,
    EndLoop,
    Halt,
    IsaError,
    Jmp,
    Li,
    Loop,
    Vconst,
    View,
    Vld,
    Vop,
    decode,
    encode,
    offsets,
)
from ktc.dialects.dfir import ARITY, ComputeKind

INT64 = st.integers(-(2**63), 2**63 - 1)


def _operand(meta: dict) -> st.SearchStrategy:
    slot = meta["slot"]
    if slot == "reg":
        return st.integers(0, isa.REGISTERS[meta["file"]] - 1)
    if slot == "variant":
        return st.sampled_from(meta["table"])
    if slot in ("type", "type2"):
        return st.sampled_from(isa.TYPES)
    if slot == "pc":
        return st.just(0)
    if slot == "imm":
        return st.integers(0, 2**63 - 1) if meta.get("nonnegative") else INT64
    item = INT64 if meta["file"] is None else st.integers(0, isa.REGISTERS[meta["file"]] - 1)
    return st.lists(item, max_size=6).map(tuple)


def _fix(instruction: isa.Instruction) -> isa.Instruction:
    """Makes generated operands meet the rules beyond field widths."""
    if isinstance(instruction, Vop):
        arity = ARITY[ComputeKind(instruction.kind)]
        return Vop(instruction.kind, instruction.dtype, instruction.source_type,
                   instruction.dst, (instruction.dst,) * arity)
    if isinstance(instruction, View):
        rank = min(len(instruction.shape), len(instruction.strides))
        return View(instruction.dst, instruction.unit, instruction.address, instruction.dtype,
                    tuple(abs(size) % 1024 for size in instruction.shape[:rank]),
                    instruction.strides[:rank])
    if isinstance(instruction, isa.Vmma):
        return replace(instruction, m=instruction.m or 1, k=instruction.k or 1, n=instruction.n or 1)
    if isinstance(instruction, Vconst):
        return Vconst(instruction.dst, instruction.dtype, len(instruction.values) or 1,
                      instruction.values or (0,))
    return instruction


PLAIN = [cls for cls in isa.INSTRUCTIONS if cls not in (Loop, EndLoop)]
"""Instructions that are valid anywhere (loops must pair up; jumps to 0 always do)."""

instructions = st.one_of([
    st.builds(cls, **{name: _operand(meta) for name, meta in isa.slots(cls)}).map(_fix)
    for cls in PLAIN
])


@given(st.lists(instructions, max_size=30))
def test_encode_decode_encode_is_identical(program):
    code = encode(program)
    decoded = decode(code)
    assert decoded == program
    assert encode(decoded) == code


@settings(max_examples=500)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_decode_or_raise_isa_error(code):
    try:
        program = decode(code)
    except IsaError:
        return
    assert encode(program) == code


@given(st.lists(instructions, min_size=1, max_size=10), st.data())
def test_a_flipped_bit_decodes_to_another_program_or_fails(program, data):
    code = bytearray(encode(program))
    bit = data.draw(st.integers(0, len(code) * 8 - 1))
    code[bit // 8] ^= 1 << bit % 8
    try:
        decoded = decode(bytes(code))
    except IsaError:
        return
    assert decoded != program


def test_header_layout_is_the_documented_one():
    """vop.fma f32 <- f16, v1 = v2 * v3 + v4: opcode, variant, types, count, registers."""
    code = encode([Vop("fma", "f32", "f16", 1, (2, 3, 4))])
    header = struct.unpack("<BBBB4B", code[:8])
    fma = isa.VECTOR_KINDS.index("fma")
    f32, f16 = isa.TYPES.index("f32") + 1, isa.TYPES.index("f16") + 1
    assert header == (0x40, fma, f32 | f16 << 4, 3, 1, 0, 0, 0)
    assert struct.unpack("<3q", code[8:]) == (2, 3, 4)


def test_li_immediate_is_the_first_extension_word():
    code = encode([Halt(), Li(5, -2)])
    assert offsets([Halt(), Li(5, -2)]) == [0, 8, 24]
    assert struct.unpack_from("<q", code, 16) == (-2,)


def test_view_lists_split_in_half():
    view = View(3, 1, 2, "df16", (4, 64), (128, 1))
    code = encode([view])
    assert code[3] == 4
    assert decode(code) == [view]


def test_loop_pairs_with_its_endloop():
    program = [Li(0, 0), Li(1, 4), Li(2, 1), Loop(3, 0, 1, 2, 6),
               Vld(0, 0, 8, (3,)), EndLoop(3, 1, 2, 4), Halt()]
    assert decode(encode(program)) == program


@pytest.mark.parametrize("program, message", [
    ([Jmp(3)], "outside the program"),
    ([Loop(3, 0, 1, 2, 2), Halt()], "is not its endloop"),
    ([Halt(), EndLoop(3, 1, 2, 1)], "is not its loop"),
    ([Loop(3, 0, 1, 2, 2), EndLoop(4, 1, 2, 1)], "is not its endloop"),
])
def test_bad_targets_are_rejected(program, message):
    with pytest.raises(IsaError, match=message):
        decode(encode(program))


@pytest.mark.parametrize("code, message", [
    (b"\x01" * 7, "not a whole number"),
    (bytes([0xEE]) + bytes(7), "unknown opcode 0xee"),
    (bytes([0x01, 0, 0, 2, 0, 0, 0, 0]) + bytes(8), "code ends before them"),
    (bytes([0x01, 0, 0, 0, 0, 0, 0, 0]), "too few extension words"),
    (bytes([0x01, 0, 0, 1, 64, 0, 0, 0]) + bytes(8), "register s64 does not exist"),
    (bytes([0x01, 0, 0, 1, 0, 7, 0, 0]) + bytes(8), "unused register field"),
    (bytes([0x01, 3, 0, 1, 0, 0, 0, 0]) + bytes(8), "unused variant field"),
    (bytes([0x04, 200, 0, 0, 0, 0, 0, 0]), "alu has no variant 200"),
    (bytes([0x31, 0, 0, 2, 0, 0, 0, 0]) + bytes(16), "no element type with code 0"),
    (bytes([0x31, 0, 1, 2, 0, 0, 0, 0]) + struct.pack("<2q", 1, -1), "negative"),
    (bytes([0x20, 0, 1, 3, 0, 0, 0, 0]) + bytes(24), "do not split into 2 equal lists"),
    (bytes([0x40, 0, 0x11, 1, 0, 0, 0, 0]) + bytes(8), "takes 2 operands, got 1"),
])
def test_malformed_code_is_rejected(code, message):
    with pytest.raises(IsaError, match=message):
        decode(code)


@pytest.mark.parametrize("instruction, message", [
    (Li(64, 0), "register s64"),
    (Li(0, 2**63), "not a signed 64-bit integer"),
    (Alu("pow", 0, 1, 2), "no alu operation 'pow'"),
    (Vconst(0, "f16", 4, (1, 2)), "4 elements has 2 values"),
    (Vconst(0, "f16", 300, tuple(range(300))), "at most 255 fit"),
    (Vld(0, 32, 8, (1,)), "register d32"),
    (View(0, 1, 2, "bf16", (1,), (1,)), "no element type 'bf16'"),
])
def test_unencodable_instructions_are_rejected(instruction, message):
    with pytest.raises(IsaError, match=message):
        encode([instruction])
