"""A program as an engine runs it: one step per pc, ``(handler, instruction, next pc)``.

A handler gets the engine, the instruction and the pc after it, and returns the pc to
go on at, or None when the engine stops (``ktc.sim.engines``). Instructions that never
take time or wait (scalar, control, view and register moves: ``QUICK``) are run many in
one step: at every pc where a run of them can be entered (the start, a jump target, the
pc after a control or timed instruction), the step is a Python function compiled from
that run, up to its first control instruction or the first instruction that takes
time. It does what the instructions' handlers do, in order (the plain arithmetic
written out, the rest by calling the handlers), sets the engine's pc before anything
that can fault, and returns the pc it ends at; so a run takes one trip through the
engine's loop instead of one per instruction, with the same effects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ktc.codegen import isa
from ktc.codegen.integer import BINARY, DIVIDING, wrap

SIGNED_LIMIT = 1 << 63

QUICK = (isa.Li, isa.Uni, isa.Mov, isa.Alu, isa.Select, isa.Loop, isa.EndLoop, isa.Brz, isa.Jmp,
         isa.Halt, isa.View, isa.Dim, isa.Vconst, isa.Vsplat, isa.Vmov)
CONTROL = (isa.Loop, isa.EndLoop, isa.Brz, isa.Jmp, isa.Halt)
SCALAR = (isa.Li, isa.Uni, isa.Mov, isa.Alu, isa.Select, isa.View, isa.Dim)
"""The instructions of the ``scalar`` cost class (``CONTROL``: of the ``control`` one)."""

WRAPPING = {"add": "+", "sub": "-", "mul": "*"}
"""ALU operations written out, whose result may leave the signed 64-bit range."""
EXACT = {"and": "&", "or": "|", "xor": "^"}
COMPARE = {"cmp.eq": "==", "cmp.ne": "!=", "cmp.slt": "<", "cmp.sle": "<=", "cmp.sgt": ">",
           "cmp.sge": ">="}


def cost_class(instruction: isa.Instruction) -> str | None:
    """``scalar``, ``control`` or None (vector register moves and every instruction
    that takes time of its own)."""
    if isinstance(instruction, SCALAR):
        return "scalar"
    return "control" if isinstance(instruction, CONTROL) else None


def compile_steps(program: list[isa.Instruction], uniforms: tuple[tuple[int, ...], ...],
                  handler: Callable[[isa.Instruction], Callable], end: Callable,
                  fault: type[Exception], costs: Mapping[str, int] | None = None,
                  charged: Callable[[Callable], Callable] | None = None) -> list[tuple]:
    """The steps of ``program`` (one more at its end, ``end``): ``handler(instruction)``
    gives an instruction's own handler, ``fault`` is what a division by zero raises.
    ``costs``: cycles per cost class; each run adds its instructions' cycles to the
    engine's ``pending``, and every other step (and the end) is ``charged(handler)``,
    which spends them first."""
    costs = costs or {}
    cost = {pc: costs.get(cost_class(i), 0) for pc, i in enumerate(program)}
    timed = charged if any(cost.values()) else (lambda h: h)
    steps = [(handler(i) if _quick(i, uniforms) else timed(handler(i)), i, pc + 1)
             for pc, i in enumerate(program)]
    steps.append((timed(end), None, len(program)))
    names = {"wrap": wrap, "Fault": fault, "L": SIGNED_LIMIT,
             "U": tuple(tuple(wrap(v) for v in row) for row in uniforms),
             **{f"ALU_{op.replace('.', '_')}": fn for op, fn in BINARY.items()}}
    for pc in sorted(_entries(program)):
        if pc < len(program) and _quick(program[pc], uniforms):
            steps[pc] = (_compiled(program, pc, uniforms, handler, dict(names), cost), None, pc + 1)
    return steps


def _quick(instruction: isa.Instruction, uniforms) -> bool:
    """Whether it is run inside a compiled run (a ``uni`` only when its table exists)."""
    if isinstance(instruction, isa.Uni):
        return 0 <= instruction.index < len(uniforms)
    return isinstance(instruction, QUICK)


def _entries(program: list[isa.Instruction]) -> set[int]:
    """The pcs at which the engine can arrive other than by falling through a run."""
    entries = {0}
    for pc, i in enumerate(program):
        if not isinstance(i, QUICK) or isinstance(i, CONTROL):
            entries.add(pc + 1)
        if isinstance(i, isa.Brz | isa.Jmp):
            entries.add(i.target)
        elif isinstance(i, isa.Loop):
            entries.add(i.end)
        elif isinstance(i, isa.EndLoop):
            entries.add(i.body)
    return entries


def _compiled(program: list[isa.Instruction], start: int, uniforms, handler,
              names: dict, cost: dict[int, int]) -> Callable:
    """The run of quick instructions from ``start`` as one function (``names``: what its
    source refers to; ``cost``: the cycles of each pc, which the run adds up)."""
    lines = ["def run(e, _i, _following):", "    s = e.s"]
    pc, cycles = start, 0
    while pc < len(program) and _quick(program[pc], uniforms):
        i = program[pc]
        names[f"I{pc}"], names[f"H{pc}"] = i, handler(i)
        lines += ["    " + line for line in _lines(i, pc, len(program))]
        cycles += cost[pc]
        if isinstance(i, CONTROL):
            break
        pc += 1
    else:
        lines.append(f"    return {pc}")
    if cycles:
        lines.insert(2, f"    e.pending += {cycles}")
    exec("\n".join(lines), names)  # noqa: S102 - source built above from decoded instructions
    return names["run"]


def _lines(i: isa.Instruction, pc: int, end: int) -> list[str]:
    """The source of one instruction at ``pc``."""
    if isinstance(i, isa.Li):
        return [f"s[{i.dst}] = {wrap(i.value)}"]
    if isinstance(i, isa.Uni):
        return [f"s[{i.dst}] = U[{i.index}][e.position]"]
    if isinstance(i, isa.Mov):
        return [f"s[{i.dst}] = s[{i.src}]"]
    if isinstance(i, isa.Select):
        return [f"s[{i.dst}] = s[{i.a}] if s[{i.cond}] else s[{i.b}]"]
    if isinstance(i, isa.Alu):
        return _alu(i, pc)
    if isinstance(i, isa.EndLoop):
        return [f"v = s[{i.var}] + s[{i.step}]",
                f"s[{i.var}] = v = v if -L <= v < L else wrap(v)",
                f"return {i.body} if v < s[{i.upper}] else {pc + 1}"]
    if isinstance(i, isa.Brz):
        return [f"return {i.target} if s[{i.cond}] == 0 else {pc + 1}"]
    if isinstance(i, isa.Jmp):
        return [f"return {i.target}"]
    if isinstance(i, isa.Halt):
        return [f"return {end}"]
    call = f"H{pc}(e, I{pc}, {pc + 1})"
    return [f"e.pc = {pc}", f"return {call}" if isinstance(i, CONTROL) else call]


def _alu(i: isa.Alu, pc: int) -> list[str]:
    a, b, d = f"s[{i.a}]", f"s[{i.b}]", f"s[{i.dst}]"
    if i.op in COMPARE:
        return [f"{d} = 1 if {a} {COMPARE[i.op]} {b} else 0"]
    if i.op in EXACT:
        return [f"{d} = {a} {EXACT[i.op]} {b}"]
    if i.op in WRAPPING:
        value = f"{a} {WRAPPING[i.op]} {b}"
    else:
        value = f"ALU_{i.op.replace('.', '_')}({a}, {b})"
    guard = [f"if not {b}:", f"    e.pc = {pc}", "    raise Fault('division by zero')"]
    return [*(guard if i.op in DIVIDING else []), f"v = {value}",
            f"{d} = v if -L <= v < L else wrap(v)"]
