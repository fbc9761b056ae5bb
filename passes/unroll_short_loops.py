"""``unroll-short-loops``: an engine's short loops unrolled, and each load issued
before the FIFO write of the vector loaded before it.

Expects DataflowIR (``convert-ktdf-to-dfir``'s output, after ``hoist-loop-invariants``);
produces the same with fewer loops and ops moved. In every ``dfir.program``:

- **Unrolling.** An ``scf.for`` holding no loop, with constant bounds, at most
  ``max-trips`` iterations and at most ``max-ops`` ops in all of them (its body's ops
  times its trip count) is replaced by its body once per iteration, the index a
  constant and the carried values threaded from one copy to the next. A loop whose
  body holds FIFO or signal pairs unrolls only together with the loops holding their
  partners, each of the same trip count and every paired op directly in its loop's
  body: the k-th copy of a pair then takes an id of its own at both ends (the first
  keeps the pair's), as the k-th trip of one loop met the k-th of the other; else the
  loops stay. Repeated until no loop qualifies, so a nest unrolls from the inside
  while it stays within the bounds. A loop trip costs its ``endloop`` and the
  arithmetic of its index; a short loop over a row's vectors (4 vectors of a
  256-element row) spent most of its load unit's cycles there.
- **Address arithmetic of the copies.** In each copy, the integer arithmetic the
  index and constants alone determine (a vector's offset in a row, ``i * 64 * 2``) is
  folded, and ``x + 0`` is ``x``; in the block the copies land in, integer arithmetic
  is reassociated so that constants gather at the end (``(x + c) * k`` is
  ``x * k + c * k``, ``y + (x + c)`` is ``(y + x) + c``, ``(x + c) + k`` is
  ``x + (c + k)``: the same values in modular arithmetic), and of equal scalar ops
  (the same op on the same operands) the first is kept: copies whose addresses differ
  by a constant share the rest (a row's base once, then one addition per vector). A
  constant this makes is one of the dataflow region's that the program reads already
  (computed once at its start), or else defined where it is needed.
- **Loads ahead of FIFO writes.** A ``dfir.send`` of a vector that a ``dfir.load`` of
  its block loaded, with no other load between them, moves past the next load of the
  block when only ops without effects (address arithmetic, views) lie between: the
  write waits for its vector's data, which that load's issue then overlaps, instead of
  the load waiting behind the write. FIFO writes keep their order (a write moves past
  no other write, receive, signal, store, copy or region op); one vector more is live.

The pass is idempotent: no loop left qualifies (the arithmetic is rewritten only in
blocks that loops were unrolled into), and a moved write has a load between its
vector's load and itself. The bounds are code size, not a register count: a new
constant holds a register only up to its use (the dataflow region's, computed at the
program's start, each hold one for the whole program, so none is added there), and the
scalars kept once for several copies are a copy's address parts.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from ktc.dialects import dfir
from ktc.passes.utils.ir import erase_unused
from ktc.passes.utils.loops import static_trip_count
from ktc.passes.utils.values import INTEGER_CASTS, INTEGER_OPS, evaluate


@dataclass(frozen=True)
class UnrollShortLoops(ModulePass):
    name = "unroll-short-loops"

    max_trips: int = 8
    """The most iterations a loop may have to be unrolled."""
    max_ops: int = 128
    """The most ops its unrolled copies may hold together."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for dataflow in [d for d in op.walk() if isinstance(d, dfir.DataflowOp)]:
            while (group := self.next_group(dataflow)) is not None:
                unroll_group(group, dataflow)
            for program in dataflow.body.block.ops:
                if isinstance(program, dfir.ProgramOp):
                    for block in blocks_of(program):
                        interleave_loads(block)

    def next_group(self, dataflow: dfir.DataflowOp) -> list[scf.ForOp] | None:
        """The first loop to unroll with the loops its paired ops pair into, or None."""
        for loop in dataflow.walk():
            if isinstance(loop, scf.ForOp) and self.short(loop):
                group = self.group(loop)
                if group is not None:
                    return group
        return None

    def short(self, loop: scf.ForOp) -> bool:
        if dfir_program(loop) is None or any(isinstance(o, scf.ForOp) for o in loop.body.walk()):
            return False
        trips = static_trip_count(loop)
        if trips is None or trips > self.max_trips:
            return False
        return trips * (len(list(loop.body.walk())) - 1) <= self.max_ops

    def group(self, loop: scf.ForOp) -> list[scf.ForOp] | None:
        """``loop`` and the loops holding the partners of its paired ops, and theirs,
        each short, of the same trip count, every paired op directly in its loop's body;
        None when there is no such group."""
        trips = static_trip_count(loop)
        group, stack = [loop], [loop]
        while stack:
            member = stack.pop()
            for op in paired_ops(member):
                if op.parent_op() is not member:
                    return None
                other = op.partner().parent_op()
                if not isinstance(other, scf.ForOp) or not self.short(other) \
                        or static_trip_count(other) != trips:
                    return None
                if other not in group:
                    group.append(other)
                    stack.append(other)
        return group


def dfir_program(op: Operation) -> dfir.ProgramOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, dfir.ProgramOp):
        parent = parent.parent_op()
    return parent


def paired_ops(loop: scf.ForOp) -> list[dfir.PairedOp]:
    return [op for op in loop.body.walk() if isinstance(op, dfir.PairedOp)]


def blocks_of(program: dfir.ProgramOp) -> list[Block]:
    return [block for op in program.walk() for region in op.regions for block in region.blocks]


# ---------------------------------------------------------------------------------
# Unrolling
# ---------------------------------------------------------------------------------


def unroll_group(group: list[scf.ForOp], dataflow: dfir.DataflowOp) -> None:
    """Every loop of ``group`` unrolled; the k-th copy of a pair of ops takes an id of
    its own (the first copy keeps the pair's), the same at both ends."""
    used = [op.id.value.data for op in dataflow.walk() if isinstance(op, dfir.PairedOp)]
    ids = sorted({op.id.value.data for loop in group for op in paired_ops(loop)})
    trips = static_trip_count(group[0])
    fresh = iter(range(max(used, default=0) + 1, 1 << 62))
    renamed = {(pair, trip): pair if trip == 0 else next(fresh)
               for pair in ids for trip in range(trips)}
    for loop in group:
        block, program = loop.parent_block(), dfir_program(loop)
        unroll(loop, program, renamed)
        gather_constants(block, program)
        share_scalars(block)
        erase_unused([op for op in reversed(list(block.ops)) if isinstance(op, SHARED)])


def unroll(loop: scf.ForOp, program: dfir.ProgramOp, renamed: dict[tuple[int, int], int]) -> None:
    """``loop`` replaced by a copy of its body per iteration, before it; the paired ops
    of the k-th copy take the ids ``renamed`` gives (pair id, k)."""
    lb = evaluate(loop.lb, ())
    step = evaluate(loop.step, ())
    body = loop.body.block
    carried = list(loop.iter_args)
    made: list[Operation] = []
    for trip in range(static_trip_count(loop)):
        index = arith.ConstantOp(IntegerAttr(lb + trip * step, body.args[0].type))
        Rewriter.insert_op(index, InsertPoint.before(loop))
        made.append(index)
        mapping: dict[SSAValue, SSAValue] = {body.args[0]: index.result}
        mapping.update(zip(body.args[1:], carried))
        for op in body.ops:
            if isinstance(op, scf.YieldOp):
                carried = [mapping.get(value, value) for value in op.operands]
                continue
            copy = op.clone(mapping)
            if isinstance(copy, dfir.PairedOp):
                copy.id = IntegerAttr(renamed[(copy.id.value.data, trip)], 64)
            Rewriter.insert_op(copy, InsertPoint.before(loop))
            made.append(copy)
    for result, value in zip(loop.results, carried):
        result.replace_all_uses_with(value)
    Rewriter.erase_op(loop)
    fold(made, program)


def fold(ops: list[Operation], program: dfir.ProgramOp) -> None:
    """The integer ops among ``ops`` that constants alone determine replaced by
    constants of the dataflow region (one per value and type), those only folded ops
    read erased; an ``arith.addi`` of 0 replaced by its other operand."""
    folded = [op for op in ops if foldable(op)]
    within = set(folded)
    for op in folded:
        result = op.results[0]
        if any(use.operation not in within for use in result.uses):
            result.replace_all_uses_with(constant(evaluate(result, ()), result, program, op))
    for op in reversed(folded):
        Rewriter.erase_op(op)
    for op in ops:
        if op not in within and isinstance(op, arith.AddiOp):
            drop_zero(op)


def drop_zero(op: arith.AddiOp) -> None:
    """``x + 0`` (either way round) replaced by ``x``."""
    for zero, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        if evaluate(zero, ()) == 0:
            op.result.replace_all_uses_with(other)
            Rewriter.erase_op(op)
            return


def foldable(op: Operation) -> bool:
    """An integer op (a scalar of a wider type than i1) whose value constants fix."""
    if len(op.results) != 1 or not _scalar(op.results[0].type):
        return False
    if isinstance(op, arith.ConstantOp):
        return isinstance(op.value, IntegerAttr)
    return (type(op) in INTEGER_OPS or isinstance(op, INTEGER_CASTS)) \
        and evaluate(op.results[0], ()) is not None


def _scalar(type_: Attribute) -> bool:
    return isinstance(type_, IndexType) or (isinstance(type_, IntegerType) and type_.width.data > 1)


def constant(value: int, like: SSAValue, program: dfir.ProgramOp, at: Operation) -> SSAValue:
    """A constant ``value`` of ``like``'s type: one of the dataflow region ``program``
    already reads (a register it holds anyway), or a new one just before ``at`` (a
    register only from there to its use, so no program needs more registers)."""
    for op in program.parent_block().ops:
        if op is program:
            break
        if isinstance(op, arith.ConstantOp) and op.result.type == like.type \
                and isinstance(op.value, IntegerAttr) and op.value.value.data == value \
                and any(program.is_ancestor(use.operation) for use in op.result.uses):
            return op.result
    made = arith.ConstantOp(IntegerAttr(value, like.type))
    Rewriter.insert_op(made, InsertPoint.before(at))
    return made.result


def gather_constants(block: Block, program: dfir.ProgramOp) -> None:
    """The integer arithmetic of ``block`` reassociated so that its constants gather
    at the end of each expression, where copies that differ by them share the rest:
    ``(x + c) * k`` is ``x * k + c * k``, ``y + (x + c)`` is ``(y + x) + c`` and
    ``(x + c) + k`` is ``x + (c + k)`` (modular arithmetic: the same values)."""
    while any(_reassociate(op, program) for op in list(block.ops)
              if isinstance(op, (arith.AddiOp, arith.MuliOp)) and _scalar(op.result.type)):
        pass
    erase_unused([op for op in reversed(list(block.ops)) if isinstance(op, SHARED)])


def _reassociate(op: arith.AddiOp | arith.MuliOp, program: dfir.ProgramOp) -> bool:
    """One rewrite of ``op`` (see ``gather_constants``); whether there was one."""
    for inner, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        split = _plus_constant(inner)
        k = evaluate(other, ())
        if split is None or (k is None and isinstance(op, arith.MuliOp)):
            continue
        x, c = split
        if isinstance(op, arith.MuliOp):
            head = [arith.MuliOp(x, other)]
            tail = constant(evaluate(c, ()) * k, op.result, program, op)
        elif k is not None:
            head, tail = [], constant(evaluate(c, ()) + k, op.result, program, op)
        else:
            head, tail = [arith.AddiOp(other, x)], c
        total = arith.AddiOp(head[0].result if head else x, tail)
        Rewriter.insert_op([*head, total], InsertPoint.before(op))
        op.result.replace_all_uses_with(total.result)
        Rewriter.erase_op(op)
        return True
    return False


def _plus_constant(value: SSAValue) -> tuple[SSAValue, SSAValue] | None:
    """``(x, c)`` when ``value`` is ``x + c`` (either way round), ``c`` a constant and
    ``x`` not."""
    op = value.owner
    if not isinstance(op, arith.AddiOp):
        return None
    for x, c in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        if evaluate(c, ()) is not None and evaluate(x, ()) is None:
            return x, c
    return None


SHARED = (*INTEGER_OPS, *INTEGER_CASTS, arith.CmpiOp, arith.SelectOp)
"""The scalar ops of which ``share_scalars`` keeps the first of equal ones."""


def share_scalars(block: Block) -> None:
    """Of the scalar ops of ``block`` computing the same from the same operands (the
    copies' shared address parts, a buffer phase chosen once per copy), the first
    kept and read by the others' readers."""
    seen: dict[tuple, Operation] = {}
    for op in list(block.ops):
        if not isinstance(op, SHARED) or len(op.results) != 1 \
                or not isinstance(op.results[0].type, (IndexType, IntegerType)):
            continue
        key = (op.name, tuple(op.operands), tuple(sorted(op.properties.items())),
               op.results[0].type)
        if key in seen:
            op.results[0].replace_all_uses_with(seen[key].results[0])
            Rewriter.erase_op(op)
        else:
            seen[key] = op


# ---------------------------------------------------------------------------------
# Loads ahead of FIFO writes
# ---------------------------------------------------------------------------------


def interleave_loads(block: Block) -> None:
    """Each send of a loaded vector moved past the next load (see the module doc)."""
    for send in [op for op in block.ops if isinstance(op, dfir.SendOp)]:
        load = next_load(send) if loaded_just_before(send) else None
        if load is not None:
            send.detach()
            Rewriter.insert_op(send, InsertPoint.after(load))


def loaded_just_before(send: dfir.SendOp) -> bool:
    """``send``'s vector comes from a load of its block with no load in between."""
    source = send.value.owner
    if not isinstance(source, dfir.LoadOp) or source.parent_block() is not send.parent_block():
        return False
    op = source.next_op
    while op is not send:
        if isinstance(op, dfir.LoadOp):
            return False
        op = op.next_op
    return True


def next_load(send: dfir.SendOp) -> dfir.LoadOp | None:
    """The first load after ``send`` with only ops without effects in between."""
    op = send.next_op
    while op is not None and not isinstance(op, dfir.LoadOp):
        if op.regions or not is_side_effect_free(op):
            return None
        op = op.next_op
    return op
