"""Compiled runs of instructions (``ktc.sim.steps``) do what the instructions do one by
one: every ALU operation on edge operands gives the value of ``ktc.codegen.integer``'s
table, wrapped to 64 bits (computed here independently of the simulator), loops and
branches take the same paths, and a division by zero inside a run names its own pc."""

import numpy as np
import pytest
from ktc.codegen import isa
from ktc.codegen.binary import DataflowBinary, EngineBinary, Unit
from ktc.codegen.integer import BINARY, DIVIDING, wrap
from ktc.runtime.device import DeviceError
from ktc.sim import simulator as simulator_module
from ktc.sim.engines import _end, _handler
from ktc.sim.simulator import Simulator

PAIRS = [(0, 1), (-7, 2), (7, -2), ((1 << 63) - 1, 1), (-(1 << 63), -1), (-1, 70), (5, 64),
         (-8, 3), (1 << 40, 1 << 30), (-3, -5)]
RESULT = 40
"""Results go to s40.., stored at L1 address 8 * k for the k-th."""


def plain_steps(program, uniforms, costs=None):
    """One step per instruction, as if nothing were compiled (and scalar instructions
    cost nothing: only the values they leave are compared)."""
    steps = [(_handler(i), i, pc + 1) for pc, i in enumerate(program)]
    return steps + [(_end, None, len(program))]


def store_results(count: int) -> list[isa.Instruction]:
    """Store s40 .. s40+count-1 as i64 at L1 addresses 0, 8, ..."""
    code = [isa.Li(62, 0), isa.Li(63, 0)]
    for k in range(count):
        code += [isa.Li(61, 8 * k), isa.View(0, 62, 61, "i64", (1,), (1,)),
                 isa.Vsplat(0, RESULT + k, "i64", 1), isa.Vst(0, 0, (63,))]
    return code


def run(program: list[isa.Instruction], count: int, uniforms=()) -> list[int]:
    sim = Simulator("toy")
    units = (Unit("L1", 0), Unit("L1SU", 0, 0))
    code = isa.encode(program + store_results(count))
    engine = EngineBinary("L1SU", (1,), code, (), tuple(tuple(u) for u in uniforms))
    sim.execute(sim.load(DataflowBinary("steps", units, (engine,))))
    raw = sim.memory_of("L1", 0).read(0, 8 * count)
    return [int(v) for v in raw.view(np.int64)]


def both(monkeypatch, program, count, uniforms=()) -> list[int]:
    """The results compiled, checked equal to the results run one instruction a step."""
    compiled = run(program, count, uniforms)
    with monkeypatch.context() as m:
        m.setattr(simulator_module, "steps_of", plain_steps)
        assert run(program, count, uniforms) == compiled
    return compiled


@pytest.mark.parametrize("op", isa.ALU_OPS)
def test_every_alu_operation_gives_the_tables_value(monkeypatch, op: str):
    pairs = [(a, b) for a, b in PAIRS if b or op not in DIVIDING]
    program = []
    for k, (a, b) in enumerate(pairs):
        program += [isa.Li(0, a), isa.Li(1, b), isa.Alu(op, RESULT + k, 0, 1)]
    assert both(monkeypatch, program, len(pairs)) == [wrap(BINARY[op](a, b)) for a, b in pairs]


def test_loops_branches_selects_and_uniforms_take_the_same_paths(monkeypatch):
    """sum of i * 3 for i < 10, skipping i == 4 by a branch; a select; a uniform."""
    body = [
        isa.Li(5, 4), isa.Alu("cmp.ne", 6, 1, 5), isa.Brz(6, 12),
        isa.Li(7, 3), isa.Alu("mul", 8, 1, 7), isa.Alu("add", RESULT, RESULT, 8),
    ]
    program = [isa.Li(RESULT, 0), isa.Li(2, 0), isa.Li(3, 10), isa.Li(4, 1),
               isa.Loop(1, 2, 3, 4, 13), *body, isa.Jmp(12), isa.EndLoop(1, 3, 4, 5),
               isa.Mov(9, RESULT), isa.Select(RESULT + 1, 4, 9, 2), isa.Uni(RESULT + 2, 0)]
    assert [type(i) for i in program[11:13]] == [isa.Jmp, isa.EndLoop]
    assert both(monkeypatch, program, 3, [[-5]]) == [3 * (45 - 4)] * 2 + [-5]


def test_a_division_by_zero_inside_a_run_names_its_own_pc():
    program = [isa.Li(0, 1), isa.Li(1, 0), isa.Alu("add", 2, 0, 0), isa.Alu("remsi", 3, 0, 1)]
    with pytest.raises(DeviceError, match=r"L1SU\[0.0\] pc 3 `alu.remsi s3, s0, s1`: division by zero"):
        run(program, 0)
