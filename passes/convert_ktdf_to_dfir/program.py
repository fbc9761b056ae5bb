"""The program of one engine kind under construction, for ``convert-ktdf-to-dfir``:
where ops are emitted (with the source location of what they lower), the per-instance
values (uniform map queries), and the index values of the schedule materialized in
the program: constants, per-core values, host symbols, or program arithmetic."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, StringAttr, UnknownLoc
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.traits import is_side_effect_free

from ktc.dialects.dfir import ProgramOp, QueryOp, UniformMapOp, UniformType, UnitType
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdp import GetComputeTileIdOp
from ktc.passes.convert_ktdf_to_dfir.dataflow import Dataflow
from ktc.passes.convert_ktdf_to_dfir.plan import WAVE, Plan, per_core, per_subcore
from ktc.passes.convert_ktdf_to_dfir.values import (
    ARG,
    CLONED,
    TILE,
    Arith,
    Index,
    is_scalar,
    roots,
)
from ktc.passes.utils.values import evaluate


class Program:
    """The program of one engine kind under construction."""

    def __init__(self, dataflow: Dataflow, plan: Plan, kind: str):
        self.df = dataflow
        self.plan = plan
        self.kind = kind
        device = dataflow.device
        self.subcores = plan.subcores.get(kind, 1) if per_subcore(device, kind) else 1
        if not per_core(device, kind):
            raise KtcError(f"engine kind '{kind}' is not part of a core of device @{device.name}",
                           device.where)
        self.instances = [(core, sub if per_subcore(device, kind) else None)
                          for core in range(dataflow.cores) for sub in range(self.subcores)]
        self.units = [dataflow.unit(kind, core, sub) for core, sub in self.instances]
        self.prologue: list[Operation] = []
        self.maps: dict[tuple, UniformMapOp] = {}
        self.queries: dict[tuple, SSAValue] = {}
        self.at_use = False
        """Per-instance values are queried where they are used (see ``queried_at_use``)."""
        self.block = Block()
        self.cursor = self.block
        self.env: dict[SSAValue, Index] = {}
        self.cache: dict[tuple, Index] = {}
        self.loop_state: dict[Operation | str, Callable[[], tuple[Index, Index]]] = {}
        """Per loop around the cursor: a function emitting (iteration index, trip count)."""
        self.forwarded: dict[SSAValue, SSAValue] = {}
        self.active = False
        self.in_parallel = False
        self.arith = Arith(self.emit, dataflow.constant)
        self.origin: Attribute = UnknownLoc()
        """The source location emitted ops take (see ``lowering``)."""

    # Emission ----------------------------------------------------------------

    def emit(self, op: Operation) -> Operation:
        if isinstance(op.location, UnknownLoc):
            op.location = self.origin
        self.cursor.add_op(op)
        return op

    @contextmanager
    def lowering(self, op: Operation) -> Iterator[None]:
        """Ops emitted meanwhile take the source location of ``op`` or, when it has
        none (a stage, a loop made by tiling), of the first op inside it that has one
        (one with effects, such as a transfer, first), else the enclosing op's; so each
        instruction can name what it came from."""
        saved = self.origin
        located = [inner for inner in op.walk() if not isinstance(inner.location, UnknownLoc)]
        effects = [inner for inner in located if not is_side_effect_free(inner)]
        if located:
            self.origin = op.location if located[0] is op else (effects or located)[0].location
        try:
            yield
        finally:
            self.origin = saved

    @contextmanager
    def inside(self, block: Block) -> Iterator[None]:
        saved = self.cursor
        self.cursor = block
        try:
            yield
        finally:
            self.cursor = saved

    @contextmanager
    def guarded(self, condition: SSAValue) -> Iterator[None]:
        """Emit under ``scf.if`` on ``condition``."""
        then = Block()
        self.emit(scf.IfOp(condition, [], Region(then)))
        with self.inside(then):
            yield
            self.emit(scf.YieldOp())

    @contextmanager
    def flagged(self, flags: Sequence[bool]) -> Iterator[None]:
        """Emit under ``scf.if`` unless every instance's flag is set."""
        if all(flags):
            yield
            return
        flag = self.per_instance([int(f) for f in flags], IndexType())
        with self.guarded(self.arith.compare("eq", flag, 1)):
            yield

    def finish(self) -> ProgramOp:
        first = self.block.first_op
        for op in self.prologue:
            if first is None:
                self.block.add_op(op)
            else:
                self.block.insert_op_before(op, first)
        return ProgramOp.build(operands=[self.units], properties={"kind": StringAttr(self.kind)},
                               regions=[Region(self.block)])

    # Per-instance values -----------------------------------------------------

    @contextmanager
    def queried_at_use(self, when: bool = True) -> Iterator[None]:
        """Per-instance values asked for meanwhile (``when``) outside loops are queried
        in the block being emitted, not at the program's start: the copies between
        cores and their signals take one set of such values (peer units, flags) per
        reader, and queried at the start these would all be live at once, so that the
        registers they need would grow with the number of readers. (Inside a loop a
        query at its use would run every iteration; those stay at the start.)"""
        saved = self.at_use
        self.at_use = saved or when
        try:
            yield
        finally:
            self.at_use = saved

    def per_instance(self, values: Sequence[Attribute | int], value_type: Attribute) -> SSAValue | int:
        """This instance's entry of ``values`` (one per instance): a uniform map query
        (at the program's start, or in the current block ``queried_at_use``), or the
        value itself when every instance has the same."""
        if all(isinstance(v, int) for v in values) and len(set(values)) == 1:
            return values[0]
        entry = (tuple(values), value_type)
        here = self.at_use and not self._in_loop()
        key = (entry, id(self.cursor) if here else None)
        if key not in self.queries:
            if entry not in self.maps:
                entries = [self.df.constant(v, value_type) if isinstance(v, int) else v
                           for v in values]
                map_type = UniformType(self.kind, value_type)
                self.maps[entry] = UniformMapOp.build(operands=[self.units, entries],
                                                      result_types=[map_type])
                self.df.decls.add_op(self.maps[entry])
            query = QueryOp.build(operands=[self.maps[entry].map], result_types=[value_type])
            if here:
                self.emit(query)
            else:
                self.prologue.append(query)
            self.queries[key] = query.value
        return self.queries[key]

    def _in_loop(self) -> bool:
        """Whether the block being emitted is inside a loop of the program."""
        op = self.cursor.parent_op() if isinstance(self.cursor, Block) else None
        while op is not None and not isinstance(op, ProgramOp):
            if isinstance(op, scf.ForOp):
                return True
            op = op.parent_op()
        return False

    def peer(self, kind: str, sub: int | None = None) -> SSAValue:
        """The unit of ``kind`` this instance talks to: on its core, in sub-core ``sub``
        (None: its own sub-core, or 0 for a per-core engine)."""
        device = self.df.device
        units = []
        for core, mine in self.instances:
            target = sub if sub is not None else (mine or 0)
            units.append(self.df.unit(kind, core if per_core(device, kind) else None,
                                      target if per_subcore(device, kind) else None))
        return self.per_instance(units, UnitType(kind))

    def remote(self, kind: str, sub: int | None, cores: Sequence[int]) -> SSAValue:
        """Per instance, the unit of ``kind`` on core ``cores[i]`` (sub-core ``sub``, or
        0 for a per-sub-core kind)."""
        device = self.df.device
        units = [self.df.unit(kind, core, (sub or 0) if per_subcore(device, kind) else None)
                 for core in cores]
        return self.per_instance(units, UnitType(kind))

    def my_subcore(self) -> Index:
        return self.per_instance([sub or 0 for _, sub in self.instances], IndexType())

    # Index values --------------------------------------------------------------

    def value(self, value: SSAValue) -> Index:
        """``value`` of the schedule, in this program. One of the tile id and the
        arguments together (a per-tile choice among arrays) is computed once, at the
        program's start, whatever the block that uses it: each of its per-core
        entries is then live only until it is computed, not through the loops that
        use it."""
        if value in self.env:
            return self.env[value]
        hoisted = self.df.waves == 1 and roots(value, self.df.roots) == {TILE, ARG}
        key = (value, "start" if hoisted else id(self.cursor))
        if key not in self.cache:
            if hoisted:
                with self.inside(_Start(self.prologue)):
                    self.cache[key] = self._materialize(value)
            else:
                self.cache[key] = self._materialize(value)
        return self.cache[key]

    def ssa(self, value: SSAValue) -> SSAValue:
        return self.arith.ssa(self.value(value))

    def _materialize(self, value: SSAValue) -> Index:
        found = roots(value, self.df.roots)
        if not found and (constant := evaluate(value, [])) is not None:
            return constant
        if found == {TILE} and self.df.waves == 1:
            per_core_values = [evaluate(value, self.df.tile_ids(core)) for core, _ in self.instances]
            if None not in per_core_values:
                return self.per_instance(per_core_values, value.type)
        if found <= {ARG} and is_scalar(value):
            return self.df.symbol(value)
        op = value.owner
        if isinstance(op, GetComputeTileIdOp):
            return self._tile_id(op)
        if not isinstance(op, Operation) or op.name not in CLONED:
            raise KtcError("a value the DataflowIR programs cannot compute (an induction "
                           "variable outside its loop, or an unsupported op)",
                           where(op) if isinstance(op, Operation) else "")
        return self.arith.clone(op, [self.value(operand) for operand in op.operands])

    def _tile_id(self, op: GetComputeTileIdOp) -> Index:
        """The tile id of a grid larger than the device: wave * cores + core."""
        if len(self.df.grid) != 1:
            raise KtcError("a grid with more tiles than cores must be 1-D (run normalize-grid-to-1d)",
                           where(op))
        wave = self.loop_state[WAVE]()[0]
        core = self.per_instance([core for core, _ in self.instances], IndexType())
        return self.arith.add(self.arith.mul(wave, self.df.cores), core)

    def linear(self, loops: Sequence[Operation | str]) -> tuple[Index, Index]:
        """The iteration count over ``loops`` (outermost first) and their total."""
        a = self.arith
        index: Index = 0
        total: Index = 1
        for loop in loops:
            if loop not in self.loop_state:
                raise KtcError("a loop-carried hand-off across loops this engine does not run",
                               where(loop) if isinstance(loop, Operation) else "")
            position, trip = self.loop_state[loop]()
            index = a.add(a.mul(index, trip), position)
            total = a.mul(total, trip)
        return index, total


class _Start:
    """Where ops computed once at a program's start go: after its queries, in order."""

    def __init__(self, ops: list[Operation]):
        self.ops = ops

    def add_op(self, op: Operation) -> None:
        self.ops.append(op)
