"""KTIR text for a front-end kernel (``ktc.frontend.kernel.Kernel``).

The kernel is a ``func.func`` whose arguments are the arrays (an element index into
device memory each, as KTIR passes pointers), with ``grid = [G]``: compute tile ``t``
owns rows ``t * R/G`` up to the next tile's. Each array has a
``ktdp.construct_memory_view`` over the whole matrix (``FULL``), over the rows
(``ROW``) or over the columns (``COL``); a ``ROW`` input is an ``R x 1`` matrix, its
tile read into one value per row by a maximum over its one column (exact), since the
pipeline today reads a one-dimensional tile of a per-row input past the array's end
(a DMA fault on the simulator). A tile walks its rows a block of ``B`` rows at
a time (an ``scf.for`` when there is more than one block): it loads each input's
access tile, computes on tensors (``arith`` and ``math`` on whole tensors,
``linalg.reduce`` along the rows, ``linalg.broadcast`` where a narrower layout meets a
wider one) and stores each output's access tile. ``COL`` inputs are loaded once, before
the loop.

``plan`` chooses ``G`` and ``B`` from the device model: the grid is the largest
divisor of the rows no larger than the device's core count, and a block is as many of
a tile's rows as fit, every array and intermediate of one block together, in half a
core's scratchpad (the other half left for the scheduler's double buffers).

Every op carries ``loc("<FX node>"("<file>":line:col))``: the PyTorch node it computes
and where it is written in this text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import prod

import numpy as np

from ktc.arch.model import Device
from ktc.frontend.kernel import BINARY, CAST, COL, FULL, REDUCTIONS, ROW, SELECTS, Array, Kernel, Step

BYTES = {"f16": 2, "f32": 4}
NUMPY = {"f16": "float16", "f32": "float32"}

_BINARY_OPS = {
    "add": "arith.addf", "sub": "arith.subf", "mul": "arith.mulf", "div": "arith.divf",
    "max": "arith.maximumf", "min": "arith.minimumf",
}
_UNARY_OPS = {
    "neg": "arith.negf", "abs": "math.absf", "exp": "math.exp", "log": "math.log",
    "tanh": "math.tanh", "erf": "math.erf",
    "sqrt": "math.sqrt", "rsqrt": "math.rsqrt",
}
_INTRINSICS = {"gelu": "spyreop.gelu"}
"""Unary ops written as a device intrinsic, which works on scalars: the tensor op is a
``linalg.generic`` around it."""
_PREDICATES = dict(zip(SELECTS, ("ogt", "olt", "oge", "ole", "oeq", "une")))
"""The ``arith.cmpf`` predicate of each select step: PyTorch's comparisons are false
on a NaN but ``!=``, which is true."""

_REDUCTION_OPS = {"sum": ("arith.addf", 0.0), "amax": ("arith.maximumf", -math.inf)}

_RESERVED = {"c0", "rows_per_tile", "block", "tile", "first_row", "step", "row"}
"""SSA names the emitter uses itself; a value of the same name is renamed."""


@dataclass(frozen=True)
class Plan:
    """How the rows of a kernel are spread: ``grid`` tiles of ``rows_per_tile`` rows,
    walked ``block`` rows at a time."""

    grid: int
    rows_per_tile: int
    block: int

    @property
    def steps(self) -> int:
        return self.rows_per_tile // self.block


def plan(kernel: Kernel, device: Device) -> Plan:
    """The grid and block of ``kernel`` on ``device`` (see the module docstring)."""
    grid = largest_divisor(kernel.rows, device.cores)
    rows_per_tile = kernel.rows // grid
    budget = device.memory(device.scratchpad).size // 2
    row_bytes = kernel.cols * sum(BYTES[v.dtype] for v in _full_values(kernel))
    fitting = max(1, budget // max(row_bytes, 1))
    return Plan(grid, rows_per_tile, largest_divisor(rows_per_tile, fitting))


def largest_divisor(n: int, limit: int) -> int:
    return max(d for d in range(1, min(n, limit) + 1) if n % d == 0)


def _full_values(kernel: Kernel) -> list[Array | Step]:
    """The arrays and steps of one element per matrix element."""
    return [v for v in (*kernel.arrays, *kernel.steps) if v.layout == FULL]


def emit(kernel: Kernel, device: Device, filename: str) -> str:
    """The KTIR text of ``kernel`` for ``device``, written as file ``filename``."""
    return _Emitter(kernel, plan(kernel, device), filename).text()


class Writer:
    """KTIR text written line by line, so that each op knows its line number."""

    def __init__(self, filename: str):
        self.filename = filename
        self.lines: list[str] = []
        self.indent = 2

    def line(self, text: str) -> None:
        self.lines.append(" " * self.indent + text)

    def op(self, text: str, node: str) -> None:
        """An op line, located at its FX node and its own line and column."""
        location = f'loc("{node}"("{self.filename}":{len(self.lines) + 1}:{self.indent + 1}))'
        self.line(f"{text} {location}")


class _Emitter(Writer):
    """Writes one row-wise kernel."""

    def __init__(self, kernel: Kernel, shape: Plan, filename: str):
        super().__init__(filename)
        self.kernel, self.plan = kernel, shape
        self.names: dict[str, str] = {}
        self.values: dict[str, str] = {}
        self.layouts: dict[str, str] = {}
        self.dtypes: dict[str, str] = {}
        self.broadcasts: dict[tuple[str, str], str] = {}
        self.constants: dict[str, int] = {}

    # Text -------------------------------------------------------------------------

    def text(self) -> str:
        kernel, shape = self.kernel, self.plan
        self.lines += _header(kernel, shape)
        args = ", ".join(f"%{self.ssa(a.name)}: index" for a in kernel.arrays)
        self.line(f"func.func @{kernel.name}({args}) attributes {{grid = [{shape.grid}]}} {{")
        self.indent += 2
        self.op("%c0 = arith.constant 0 : index", kernel.name)
        self.op(f"%rows_per_tile = arith.constant {shape.rows_per_tile} : index", kernel.name)
        self.op("%tile = ktdp.get_compute_tile_id : index", kernel.name)
        self.op("%first_row = arith.muli %tile, %rows_per_tile : index", kernel.name)
        for array in kernel.arrays:
            self.view(array)
        for array in kernel.inputs:
            if array.layout == COL:
                self.load(array, "%c0")
        row = "%first_row"
        if shape.steps > 1:
            self.op(f"%block = arith.constant {shape.block} : index", kernel.name)
            self.line("scf.for %step = %c0 to %rows_per_tile step %block {")
            self.indent += 2
            self.op("%row = arith.addi %first_row, %step : index", kernel.name)
            row = "%row"
        for array in kernel.inputs:
            if array.layout != COL:
                self.load(array, row)
        for step in kernel.steps:
            self.step(step)
        for array, value in kernel.outputs:
            self.store(array, value, row)
        if shape.steps > 1:
            self.indent -= 2
            self.line("}")
        self.op("return", kernel.name)
        self.indent -= 2
        self.line("}")
        self.indent -= 2
        self.line("}")
        return "\n".join(self.lines) + "\n"

    def ssa(self, name: str) -> str:
        if name not in self.names:
            clean = "".join(c if c.isalnum() or c in "_." else "_" for c in name)
            self.names[name] = clean + "_" if clean in _RESERVED else clean
        return self.names[name]

    # Types --------------------------------------------------------------------------

    def tensor(self, layout: str, dtype: str) -> str:
        return tensor_type(self.block_shape(layout), dtype)

    def block_shape(self, layout: str) -> tuple[int, ...]:
        """The shape of a value of ``layout`` in one block of rows."""
        return {FULL: (self.plan.block, self.kernel.cols), ROW: (self.plan.block,),
                COL: (self.kernel.cols,)}[layout]

    def tile_shape(self, array: Array) -> tuple[int, ...]:
        return tile_shape(self.kernel, self.plan, array)

    # Memory -------------------------------------------------------------------------

    def view(self, array: Array) -> None:
        name = self.ssa(array.name)
        sizes = array_shape(self.kernel, array)
        strides = [prod(sizes[i + 1:]) for i in range(len(sizes))]
        self.op(f"%{name}.view = ktdp.construct_memory_view %{name}, sizes: {list(sizes)}, "
                f"strides: {strides} {{coordinate_set = {box_name(sizes)}, memory_space = "
                f"#ktdp.memory_space<global>}} : {memref_type(sizes, array.dtype)}", array.name)

    def tile(self, array: Array, row: str) -> str:
        name = self.ssa(array.name)
        sizes, shape = array_shape(self.kernel, array), self.tile_shape(array)
        index = ", ".join(["%c0" if array.layout == COL else row] + ["%c0"] * (len(sizes) - 1))
        self.op(f"%{name}.tile = ktdp.construct_access_tile %{name}.view[{index}] "
                f"{{access_tile_set = {box_name(shape)}, "
                f"access_tile_order = #identity{len(shape)}}} : "
                f"{memref_type(sizes, array.dtype)} -> {access_tile_type(shape)}", array.name)
        return f"%{name}.tile"

    def load(self, array: Array, row: str) -> None:
        """The array's block as a value; a per-row input comes as one column, read into
        one value per row by a maximum over that column (exact)."""
        tile, shape = self.tile(array, row), self.tile_shape(array)
        name = self.define(array.name, f"%{self.ssa(array.name)}.in", array.layout, array.dtype)
        loaded = f"{name}.column" if array.layout == ROW else name
        self.op(f"{loaded} = ktdp.load {tile} : {access_tile_type(shape)} -> "
                f"{tensor_type(shape, array.dtype)}", array.name)
        if array.layout == ROW:
            self.fold(name, "amax", loaded, tensor_type(shape, array.dtype), array.dtype, array.name)

    def store(self, array: Array, value: str, row: str) -> None:
        tile, shape = self.tile(array, row), self.tile_shape(array)
        self.op(f"ktdp.store {self.values[value]}, {tile} : {tensor_type(shape, array.dtype)}, "
                f"{access_tile_type(shape)}", array.name)

    # Compute ------------------------------------------------------------------------

    def define(self, value: str, ssa: str, layout: str, dtype: str) -> str:
        self.values[value], self.layouts[value], self.dtypes[value] = ssa, layout, dtype
        return ssa

    def step(self, step: Step) -> None:
        result = f"%{self.ssa(step.result)}"
        ty = self.tensor(step.layout, step.dtype)
        if step.op in REDUCTIONS:
            self.reduction(step, result)
        elif step.op == CAST:
            (source,) = step.args
            wider = BYTES[step.dtype] > BYTES[self.dtypes[source]]
            widen = "arith.extf" if wider else "arith.truncf"
            self.op(f"{result} = {widen} {self.values[source]} : "
                    f"{self.tensor(step.layout, self.dtypes[source])} to {ty}", step.node)
        elif step.op in _INTRINSICS:
            self.intrinsic(step, result)
        elif step.op in SELECTS:
            self.select(step, result)
        else:
            operands = ", ".join(self.operand(a, step) for a in step.args)
            name = _BINARY_OPS[step.op] if step.op in BINARY else _UNARY_OPS[step.op]
            self.op(f"{result} = {name} {operands} : {ty}", step.node)
        self.define(step.result, result, step.layout, step.dtype)

    def intrinsic(self, step: Step, result: str) -> None:
        (source,) = step.args
        ty = self.tensor(step.layout, step.dtype)
        dims = ", ".join(f"d{i}" for i in range(len(self.block_shape(step.layout))))
        identity = f"affine_map<({dims}) -> ({dims})>"
        parallel = ", ".join('"parallel"' for _ in self.block_shape(step.layout))
        self.op(f"{result}.empty = tensor.empty() : {ty}", step.node)
        self.line(f"{result} = linalg.generic {{indexing_maps = [{identity}, {identity}], "
                  f"iterator_types = [{parallel}]}} ins({self.values[source]} : {ty}) "
                  f"outs({result}.empty : {ty}) {{")
        self.line(f"^bb0(%element: {step.dtype}, %unused: {step.dtype}):")
        self.indent += 2
        self.op(f"%applied = {_INTRINSICS[step.op]} %element : {step.dtype}", step.node)
        self.op(f"linalg.yield %applied : {step.dtype}", step.node)
        self.indent -= 2
        self.op(f"}} -> {ty}", step.node)

    def select(self, step: Step, result: str) -> None:
        """``arith.cmpf`` of the first two operands, ``arith.select`` of the others by
        its mask."""
        lhs, rhs, on_true, on_false = (self.operand(a, step) for a in step.args)
        ty = self.tensor(step.layout, step.dtype)
        self.op(f"{result}.mask = arith.cmpf {_PREDICATES[step.op]}, {lhs}, {rhs} : {ty}",
                step.node)
        self.op(f"{result} = arith.select {result}.mask, {on_true}, {on_false} : "
                f"{self.tensor(step.layout, 'i1')}, {ty}", step.node)

    def reduction(self, step: Step, result: str) -> None:
        (source,) = step.args
        self.fold(result, step.op, self.values[source], self.tensor(FULL, step.dtype), step.dtype,
                  step.node)

    def fold(self, result: str, op: str, source: str, source_type: str, dtype: str,
             node: str) -> None:
        """``result``: ``source`` (a block of rows) reduced along its rows by ``op``."""
        combine, identity = _REDUCTION_OPS[op]
        row_type = self.tensor(ROW, dtype)
        self.op(f"{result}.empty = tensor.empty() : {row_type}", node)
        self.op(f"{result}.identity = arith.constant {float_literal(identity, dtype)} : {dtype}", node)
        self.op(f"{result}.init = linalg.fill ins({result}.identity : {dtype}) "
                f"outs({result}.empty : {row_type}) -> {row_type}", node)
        self.op(f"{result} = linalg.reduce {{ {combine} }} ins({source} : {source_type}) "
                f"outs({result}.init : {row_type}) dimensions = [1]", node)

    def operand(self, arg: str | float, step: Step) -> str:
        """``arg`` as a tensor of the step's layout and type: a constant, the value, or
        the value broadcast (once per value and layout)."""
        if not isinstance(arg, str):
            return self.constant(arg, step)
        layout = self.layouts[arg]
        if layout == step.layout:
            return self.values[arg]
        key = (arg, step.layout)
        if key not in self.broadcasts:
            name = f"{self.values[arg]}.{step.layout}"
            ty = self.tensor(step.layout, step.dtype)
            self.op(f"{name}.empty = tensor.empty() : {ty}", step.node)
            dims = 1 if layout == ROW else 0
            self.op(f"{name} = linalg.broadcast ins({self.values[arg]} : "
                    f"{self.tensor(layout, step.dtype)}) outs({name}.empty : {ty}) "
                    f"dimensions = [{dims}]", step.node)
            self.broadcasts[key] = name
        return self.broadcasts[key]

    def constant(self, value: float, step: Step) -> str:
        self.constants[step.result] = index = self.constants.get(step.result, -1) + 1
        name = f"%{self.ssa(step.result)}.k{index}"
        self.op(f"{name} = arith.constant dense<{float_literal(value, step.dtype)}> : "
                f"{self.tensor(step.layout, step.dtype)}", step.node)
        return name


def float_literal(value: float, dtype: str) -> str:
    """A float literal MLIR reads back as exactly ``value`` rounded to ``dtype``:
    hexadecimal bits for infinities and NaN, the shortest decimal otherwise."""
    rounded = np.dtype(NUMPY[dtype]).type(value)
    if not np.isfinite(rounded):
        return "0x" + rounded.tobytes()[::-1].hex().upper()
    mantissa, e, exponent = repr(float(rounded)).partition("e")
    return (mantissa if "." in mantissa else mantissa + ".0") + e + exponent


def array_shape(kernel: Kernel, array: Array) -> tuple[int, ...]:
    """The shape of an array argument in device memory: the matrix (``FULL``), a
    column per row (a ``ROW`` input: ``R x 1``), one value per row (a ``ROW`` output)
    or per column (``COL``)."""
    if array.layout == FULL:
        return kernel.rows, kernel.cols
    if array.layout == COL:
        return (kernel.cols,)
    return (kernel.rows, 1) if array in kernel.inputs else (kernel.rows,)


def tile_shape(kernel: Kernel, shape: Plan, array: Array) -> tuple[int, ...]:
    """The shape of an array's access tile: its part of one block of rows."""
    sizes = array_shape(kernel, array)
    return sizes if array.layout == COL else (shape.block, *sizes[1:])


def tensor_type(shape: tuple[int, ...], dtype: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


def memref_type(shape: tuple[int, ...], dtype: str) -> str:
    return f"memref<{'x'.join(map(str, shape))}x{dtype}>"


def access_tile_type(shape: tuple[int, ...]) -> str:
    return f"!ktdp.access_tile<{'x'.join(map(str, shape))}xindex>"


def box_name(shape: tuple[int, ...]) -> str:
    return f"#box_{'x'.join(map(str, shape))}"


def box(shape: tuple[int, ...]) -> str:
    """The affine set of the indices of an array or tile of ``shape``."""
    dims = ", ".join(f"d{i}" for i in range(len(shape)))
    bounds = ", ".join(f"d{i} >= 0, -d{i} + {size - 1} >= 0" for i, size in enumerate(shape))
    return f"affine_set<({dims}) : ({bounds})>"


def _header(kernel: Kernel, shape: Plan) -> list[str]:
    """The comment saying what the kernel is, and the affine sets and maps it uses."""
    nodes = ", ".join(dict.fromkeys(s.node for s in kernel.steps))
    lines = [
        f"// {kernel.name}: PyTorch FX nodes {nodes}",
        f"//   a {kernel.rows} x {kernel.cols} matrix; grid [{shape.grid}]: "
        f"{shape.rows_per_tile} row(s) per tile, {shape.block} at a time",
    ]
    shapes = {array_shape(kernel, a) for a in kernel.arrays} | \
        {tile_shape(kernel, shape, a) for a in kernel.arrays}
    lines += [f"{box_name(s)} = {box(s)}" for s in sorted(shapes, key=lambda s: (len(s), s))]
    for rank in sorted({len(s) for s in shapes}):
        dims = ", ".join(f"d{i}" for i in range(rank))
        lines.append(f"#identity{rank} = affine_map<({dims}) -> ({dims})>")
    return [*lines, "module {"]
