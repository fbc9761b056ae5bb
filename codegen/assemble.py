"""A ``dfir.dataflow`` becomes a :class:`DataflowBinary`.

The unit table lists the ``dfir.unit`` ops in order (a unit value is its index). Each
``dfir.program`` becomes one :class:`EngineBinary`: its instructions
(``ktc.codegen.select``) encoded, the ``li`` immediates of its ``dfir.symbol`` values
as relocations naming the symbol, one uniform table per ``dfir.uniform_map`` it
queries, holding each instance's value (a constant, or a unit's index), and the source
location of each instruction's op.

What each engine kind may run (``isa.RUNS_ON``) follows from what it is on the device
(:func:`engine_classes`), read from the routing graph: an engine with links from and to
memories is a DMA engine, one from a memory to a compute engine a load unit, one from
a compute engine to a memory a store unit; a compute engine with links from (to) a
memory, or with a memory of its own (Spyre's SFU_REG accumulators), loads (stores)
itself. An engine with the ``splat`` feature broadcasts.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue

from ktc.arch.model import ENGINE, MEMORY, Device, device_of
from ktc.codegen import isa
from ktc.codegen.binary import DataflowBinary, EngineBinary, Relocation, Unit
from ktc.codegen.select import select_program
from ktc.dialects import dfir
from ktc.dialects.diagnostics import KtcError, where


def assemble(dataflow: dfir.DataflowOp, name: str,
             classes: Mapping[str, frozenset[str]] | None = None) -> DataflowBinary:
    """The binary of ``dataflow``. ``classes`` gives the engine classes of each engine
    kind; by default they are read from the device the enclosing module declares."""
    if classes is None:
        classes = engine_classes(device_of(_outermost_module(dataflow)))
    unit_ops = [op for op in dataflow.body.block.ops if isinstance(op, dfir.UnitOp)]
    units = {op.unit: index for index, op in enumerate(unit_ops)}
    table = tuple(_unit(op) for op in unit_ops)
    engines = tuple(_engine(op, units, classes) for op in dataflow.body.block.ops
                    if isinstance(op, dfir.ProgramOp))
    return DataflowBinary(name, table, engines)


def _outermost_module(op: Operation) -> ModuleOp:
    module = None
    while op is not None:
        if isinstance(op, ModuleOp):
            module = op
        op = op.parent_op()
    if module is None:
        raise KtcError("a dataflow outside any module has no device", where(op))
    return module


def _unit(op: dfir.UnitOp) -> Unit:
    kind, core, subcore = op.identity
    return Unit(kind, -1 if core is None else core, subcore or 0)


def _engine(program: dfir.ProgramOp, units: dict[SSAValue, int],
            classes: Mapping[str, frozenset[str]]) -> EngineBinary:
    kind = program.kind.data
    if kind not in classes:
        raise KtcError(f"the device has no engine kind '{kind}'", where(program))
    selected = select_program(program, units, classes[kind])
    starts = isa.offsets(selected.code)
    return EngineBinary(
        kind=kind,
        instances=tuple(units[unit] for unit in program.units),
        code=isa.encode(selected.code),
        relocations=tuple(Relocation(starts[pc] + isa.WORD, symbol)
                          for pc, symbol in selected.relocations),
        uniforms=tuple(tuple(_uniform(uniform, unit, units) for unit in program.units)
                       for uniform in selected.uniform_maps),
        locations=tuple(selected.locations),
    )


def _uniform(uniform: dfir.UniformMapOp, unit: SSAValue, units: dict[SSAValue, int]) -> int:
    """The value ``uniform`` holds for ``unit``: a unit's index or an integer constant."""
    value = uniform.values[list(uniform.keys).index(unit)]
    if value in units:
        return units[value]
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    raise KtcError("a uniform map holds constants and units; this value is computed",
                   where(uniform))


def engine_classes(device: Device) -> dict[str, frozenset[str]]:
    """The ``isa.ENGINE_CLASSES`` of every engine kind of ``device``."""
    compute = {kind for kind, engine in device.engine_kinds.items() if engine.compute}
    matrix = {kind for kind, engine in device.engine_kinds.items() if engine.matrix}
    reads, writes, feeds, drains = set(), set(), set(), set()
    for link in device.links:
        source, target = link.source, link.target
        if source.role == MEMORY and target.role == ENGINE:
            reads.add(target.kind)
        if source.role == ENGINE and target.role == MEMORY:
            writes.add(source.kind)
        if source.role == ENGINE and target.kind in compute | matrix:
            feeds.add(source.kind)
        if target.role == ENGINE and source.kind in compute | matrix:
            drains.add(target.kind)
    own = {kind for kind in compute | matrix if device.engine_kinds[kind].local_memories}
    members = {"dma": (reads & writes) - compute, "load": reads & (feeds | compute) | own,
               "store": writes & (drains | compute) | own, "compute": compute,
               "splat": {kind for kind, engine in device.engine_kinds.items() if engine.splat},
               "matrix": matrix}
    return {kind: frozenset(name for name in isa.ENGINE_CLASSES if kind in members[name])
            for kind in device.engine_kinds}
