"""The ``dfir.dataflow`` of one program function under construction: its declarations
(units, constants, symbols, uniform maps, programs) and the host code that computes
the symbols at launch."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ktc.arch.model import Device
from ktc.dialects.dfir import DefineSymbolOp, SymbolOp, UnitOp, UnitType


class Dataflow:
    """The ``dfir.dataflow`` being built: its declarations and the host code."""

    def __init__(self, device: Device, grid: Sequence[int], cores: int, waves: int):
        self.device = device
        self.grid = list(grid)
        self.cores = cores
        self.waves = waves
        self.decls = Block()
        self.host = Block()
        self.host_values: dict[SSAValue, SSAValue] = {}
        self.units: dict[tuple, SSAValue] = {}
        self.constants: dict[tuple, SSAValue] = {}
        self.symbols: dict[tuple, SSAValue] = {}
        self.definitions: list[DefineSymbolOp] = []
        self.roots: dict[SSAValue, frozenset[str]] = {}
        self.ids = 0
        self.fifo_ids: dict[SSAValue, int] = {}

    def new_id(self) -> int:
        self.ids += 1
        return self.ids

    def fifo_id(self, slot: SSAValue) -> int:
        return self.fifo_ids[slot]

    def tile_ids(self, core: int) -> list[int]:
        """The grid coordinates of the tile core ``core`` runs (first wave), x fastest."""
        ids, rest = [], core
        for size in self.grid:
            ids.append(rest % size)
            rest //= size
        return ids

    def unit(self, kind: str, core: int | None, subcore: int | None) -> SSAValue:
        key = (kind, core, subcore)
        if key not in self.units:
            properties = {name: IntegerAttr(value, i64)
                          for name, value in (("core", core), ("subcore", subcore)) if value is not None}
            op = UnitOp.build(properties=properties, result_types=[UnitType(kind)])
            self.decls.add_op(op)
            self.units[key] = op.unit
        return self.units[key]

    def constant(self, value: int, value_type: Attribute | None = None) -> SSAValue:
        value_type = value_type or IndexType()
        key = (value, value_type)
        if key not in self.constants:
            op = arith.ConstantOp(IntegerAttr(value, value_type), value_type)
            self.decls.add_op(op)
            self.constants[key] = op.result
        return self.constants[key]

    def host_value(self, value: SSAValue) -> SSAValue:
        """``value`` computed by host code (cloned from the schedule, over the arguments)."""
        if value in self.host_values or value.owner is None:
            return self.host_values.get(value, value)
        op = value.owner
        if not isinstance(op, Operation):
            return value
        operands = [self.host_value(operand) for operand in op.operands]
        clone = op.clone(value_mapper=dict(zip(op.operands, operands)))
        self.host.add_op(clone)
        for old, new in zip(op.results, clone.results):
            self.host_values[old] = new
        return self.host_values[value]

    def host_constant(self, value: int, value_type: Attribute) -> SSAValue:
        key = ("host", value, value_type)
        if key not in self.constants:
            op = arith.ConstantOp(IntegerAttr(value, value_type), value_type)
            self.host.insert_op_before(op, self.host.first_op) if self.host.first_op else self.host.add_op(op)
            self.constants[key] = op.result
        return self.constants[key]

    def symbol(self, value: SSAValue, scale: int = 1) -> SSAValue:
        """A device value the host computes as ``value * scale`` at launch."""
        key = (value, scale)
        if key not in self.symbols:
            host = self.host_value(value)
            if scale != 1:
                product = arith.MuliOp(host, self.host_constant(scale, host.type))
                self.host.add_op(product)
                host = product.result
            ident = len(self.definitions) + 1
            self.definitions.append(DefineSymbolOp.build(
                operands=[host], properties={"id": IntegerAttr(ident, i64)}))
            op = SymbolOp.build(properties={"id": IntegerAttr(ident, i64)}, result_types=[host.type])
            self.decls.add_op(op)
            self.symbols[key] = op.result
        return self.symbols[key]
