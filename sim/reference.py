"""The KTIR reference interpreter: the golden model every result of ktc is judged by.

``run(kernel, args, arch=...)`` executes a KTIR ``func.func`` with numpy, tile by tile,
with no scheduling, and returns every pointer argument's array after the run; ``Kernel``
keeps a parsed and compiled kernel for several runs. It shares no logic with the
compiler. The semantics are KTIR's (RFC 0682 and the ktdp dialect) and, where they are
sound, those of ktir-cpu, IBM's CPU interpreter of KTIR; the points those leave open are
pinned down here and in the modules that implement them:

- *Grid and core ids* (here): ``grid = [X, Y, Z]`` on the function (none: ``[1]``)
  names ``X*Y*Z`` cores that each run the whole body. Ids are linear with x fastest:
  ``x = id % X``, ``y = (id / X) % Y``, ``z = id / (X*Y)``. ``get_compute_tile_id``
  with ``k`` results gives the first ``k`` coordinates, a coordinate past the grid's
  rank being 0: **one result on a multi-dimensional grid is x**, as ktir-cpu reads it,
  not the linear id. Every grid tile is a core with its own scratchpad, however many
  cores the device has.
- *Addresses are element indices* in the view's element type, over byte-addressed
  memories (``reference_memory``).
- *Out-of-set accesses are masked* (a load reads zero there, a store writes nothing;
  ``docs/ktir.md``), every other access must stay in its view's sizes and its
  argument's array, and *``access_tile_order`` sorts the set's points* rather than
  mapping them (``reference_memory``).
- *Ordering across cores* through device memory is undefined without an inter-tile op
  between; the reference runs cores in id order (``reference_grid``).
- *Inter-tile reduce* folds in ascending tile id where ktir-cpu folds in ring order
  (``reference_grid``).
- *What counts against the scratchpad*: ``ct_local`` data by address, and every tensor
  a core holds between its definition and its last use (``reference_grid``).
- *Numerics*: ``ktc.sim.numerics`` for f16, f32, df16 and the intrinsics; contractions
  accumulate wide (``reference_compute``).

**The device** (``arch``: a packaged name, a file or a ``ktc.arch.model.Device``) gives
the scratchpad's and device memory's sizes, the byte boundary argument arrays start at
(the largest transfer granularity of a link at device memory) and the SIMD width
``spyreop.slice_reduction`` works in (``reference_memory.Target``). With no device the
reference runs an unbounded machine: no capacity is checked, arrays start at multiples
of their element size, and ``slice_reduction`` is refused. ``ktc run`` runs it for the
device it simulates (spyre by default).

**Arguments.** An ``index`` argument is a *pointer* when the start of some
``construct_memory_view`` is computed from it: the argument itself, or it plus or minus
other values (``%X + 2048``; in ``%a + %b`` of two arguments, ``%a``). Its array has
the views' element storage dtype (``float16`` for f16, ``uint16`` df16 codes, ``int32``
for i32, ...) and covers the union of the elements every view built on it reaches: the
views' sizes as shape when they all start at the pointer, agree and are contiguous,
else flat, from the pointer to the last element any view reaches (a view reaching
before the pointer is an error). It is free (any array is taken) when a view's start
or sizes depend on more than constants and the scalar arguments. Arrays are laid in
device memory one after another from address 0, each at the device's boundary, and the
pointer is the element index of an array's first element; no access through a view
built on it may leave its array. Every other argument is a scalar of its type: an
``index`` or integer argument takes an int, a float argument a number (rounded to its
type); a ``!ktdp.runtime_arg`` takes a value of its underlying type that respects its
granularity and upper bound. Kernels that use constant addresses instead read and
write memory laid out with ``preload`` and read back with ``Execution.read``.

Every mistake in a call (argument count, names, dtypes, shapes, values) and every
failure of the kernel (an out-of-set access, a scratchpad overflow, a division by zero,
a deadlock) is a ``KtcError`` located at the function or at the op; a scratchpad
overflow of the tensors a core holds is a ``ScratchpadOverflow``, one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from math import prod

import numpy as np
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdp import (
    ConstructIndirectAccessTileOp,
    ConstructMemoryViewOp,
    RuntimeArgType,
    grid_of,
)
from ktc.dialects.element_types import check_function
from ktc.dialects.source import parse_module, verify_module
from ktc.sim import numerics
from ktc.sim.reference_compute import (
    ELEMENT_OPS,
    ExecutionError,
    as_value,
    constant,
    mixed,
    type_name,
    wrap_integer,
)
from ktc.sim.reference_grid import Core, Grid, Ledger, ScratchpadOverflow  # noqa: F401 (re-exported)
from ktc.sim.reference_memory import Bounds, DeviceMemory, Machine, Target
from ktc.sim.reference_ops import Compiler, memory_space_of

RANDOM_INDEX_BOUND = 8
"""Random integer inputs lie in [0, 8) unless they index a view whose size is known."""


# ---------------------------------------------------------------------------------------
# The device


def target_of(arch) -> Target:
    """The reference's facts of the device ``arch`` (a packaged name, a file or a
    ``Device``); an unbounded machine for None."""
    if arch is None:
        return Target()
    from ktc.arch.model import Device

    return Target.of(arch if isinstance(arch, Device) else Device.load(arch))


# ---------------------------------------------------------------------------------------
# The kernel


@dataclass(frozen=True)
class Parameter:
    """A kernel argument."""

    name: str
    """Its name without ``%``."""
    type: Attribute
    value: BlockArgument
    views: tuple[ConstructMemoryViewOp, ...]
    """The memory views built on it (their start computed from it): a pointer has at
    least one."""

    @property
    def pointer(self) -> bool:
        return bool(self.views)

    @property
    def element(self) -> str:
        """A pointer's element type name."""
        return type_name(self.views[0].result.type)


@dataclass(frozen=True)
class Layout:
    """What a pointer argument points to."""

    element: str
    shape: tuple[int, ...] | None
    """None when the sizes depend on more than the scalar arguments."""

    @property
    def dtype(self) -> np.dtype:
        return numerics.storage_dtype(self.element)


@dataclass(frozen=True)
class Placement:
    """An array laid in memory before a run: at element ``address`` (in the array's
    dtype) of device memory, or of core ``ct_id``'s scratchpad."""

    address: int
    array: np.ndarray
    ct_id: int | None = None


class Kernel:
    """A KTIR function parsed, verified and compiled, ready to run many times."""

    def __init__(self, module: ModuleOp, function: str | None = None, filename: str | None = None):
        functions = [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]
        if function is not None:
            functions = [f for f in functions if f.sym_name.data == function]
        if len(functions) != 1:
            named = f"named @{function} " if function else ""
            listing = ", ".join(f"@{f.sym_name.data}" for f in functions)
            raise KtcError(f"expected one function {named}with a body, found {len(functions)}"
                           f"{': ' + listing if listing else ''}", filename or where(module))
        self.func = func = functions[0]
        check_function(func)
        self.name = func.sym_name.data
        self.grid = grid_of(func)
        block = func.body.block
        views = _views_by_pointer(func)
        self.parameters = tuple(
            Parameter(arg.name_hint or f"arg{i}", arg.type, arg, views.get(arg, ()))
            for i, arg in enumerate(block.args)
        )
        compiler = Compiler()
        self._body = compiler.region(func.body, func)
        self._slots = compiler.size
        self._collective = compiler.collective

    @classmethod
    def from_text(
        cls, text: str, filename: str = "<kernel>", function: str | None = None
    ) -> Kernel:
        module = parse_module(text, filename)
        verify_module(module)
        return cls(module, function, filename)

    @property
    def tiles(self) -> int:
        return prod(self.grid)

    def coords(self, core: int) -> tuple[int, ...]:
        """A core's coordinates in the grid (x fastest)."""
        coords = []
        for extent in self.grid:
            coords.append(core % extent)
            core //= extent
        return tuple(coords)

    def scalar_values(self, given: Mapping[str, object]) -> dict[str, object]:
        """The given scalar arguments (by name) as values of their types."""
        return {
            p.name: _scalar(self.func, p, given[p.name])
            for p in self.parameters
            if not p.pointer and p.name in given
        }

    def layouts(self, scalars: Mapping[str, object]) -> dict[str, Layout]:
        """Each pointer argument's element type and shape, given the scalar arguments."""
        return {p.name: _layout(self, p, scalars) for p in self.parameters if p.pointer}

    def execute(
        self,
        args: Mapping[str, object] | Sequence[object] = (),
        *,
        arch=None,
        scratchpad_bytes: int | None = None,
        preload: Sequence[Placement] = (),
    ) -> Execution:
        """Run the kernel on every core of the device ``arch`` (None: an unbounded
        machine), whose scratchpad size ``scratchpad_bytes`` overrides; the arrays and
        memory after the run."""
        named = _named(self, args)
        values = {
            p.name: _scalar(self.func, p, named[p.name]) for p in self.parameters if not p.pointer
        }
        layouts = self.layouts(values)
        arrays = {
            name: _checked_array(self.func, name, layouts[name], named[name]) for name in layouts
        }
        target = target_of(arch)
        if scratchpad_bytes is not None:
            target = replace(target, scratchpad_bytes=scratchpad_bytes)
        machine = Machine(self.tiles, target, DeviceMemory(target.device_memory_bytes))
        addresses = _place(machine, arrays, self.func)
        values.update({name: addresses[name] // a.itemsize for name, a in arrays.items()})
        for p in self.parameters:
            if p.pointer:
                bounds = Bounds(p.name, addresses[p.name], addresses[p.name] + arrays[p.name].nbytes)
                machine.arrays.update((view, bounds) for view in p.views)
        for placement in preload:
            _write(machine, placement.ct_id, placement.address, placement.array, self.func)
        arguments = [values[p.name] for p in self.parameters]
        grid = Grid(self.tiles)

        def run_core(core: int) -> None:
            with np.errstate(all="ignore"):
                env = [None] * self._slots
                ledger = Ledger(core, target.scratchpad_bytes)
                env[0] = Core(core, self.coords(core), machine, ledger, grid)
                self._body.run(env, arguments)

        grid.run(run_core, threaded=self._collective)
        execution = Execution({}, machine, self.func)
        for name, array in arrays.items():
            read = execution.read(addresses[name] // array.itemsize, array.shape, array.dtype)
            execution.outputs[name] = read
        return execution


def _place(machine: Machine, arrays: Mapping[str, np.ndarray], func: FuncOp) -> dict[str, int]:
    """Lay the arrays in device memory one after another, each at the device's boundary
    (its element size without one); their byte addresses."""
    addresses, end = {}, 0
    for name, array in arrays.items():
        boundary = machine.target.alignment or array.itemsize
        end = -(-end // boundary) * boundary
        addresses[name] = end
        end += array.nbytes
    limit = machine.device.limit
    if limit is not None and end > limit:
        raise KtcError(
            f"the arguments' arrays take {end} bytes of device memory, beyond its {limit} bytes",
            where(func),
        )
    machine.device.grow(end)
    for name, array in arrays.items():
        _write(machine, None, addresses[name] // array.itemsize, array, func)
    return addresses


def _write(machine: Machine, ct_id: int | None, address: int, array: np.ndarray, op) -> None:
    """Write ``array`` at element ``address`` of device memory or a scratchpad."""
    _memory(machine, ct_id, op).write_window(
        array.dtype, address, (array.size,), (1,), array.ravel(), op
    )


@dataclass
class Execution:
    """What a run leaves: every pointer argument's array, and the memories."""

    outputs: dict[str, np.ndarray]
    machine: Machine
    func: FuncOp

    def read(
        self, address: int, shape: Sequence[int], dtype, ct_id: int | None = None
    ) -> np.ndarray:
        """The array of ``dtype`` at element ``address`` of device memory (or of core
        ``ct_id``'s scratchpad)."""
        dtype = np.dtype(dtype)
        raw = _memory(self.machine, ct_id, self.func).read_window(
            dtype, address, (prod(shape),), (1,), self.func
        )
        return raw.reshape(tuple(shape))


def execute(
    kernel: str | ModuleOp | Kernel,
    args: Mapping[str, object] | Sequence[object] = (),
    *,
    arch=None,
    scratchpad_bytes: int | None = None,
    function: str | None = None,
    filename: str = "<kernel>",
    preload: Sequence[Placement] = (),
) -> Execution:
    """Run ``kernel`` (its text, a module or a ``Kernel``) with ``args`` (by name or in
    order: arrays for pointers, numbers for scalars) for the device ``arch`` (None: an
    unbounded machine), whose scratchpad size ``scratchpad_bytes`` overrides."""
    if isinstance(kernel, str):
        kernel = Kernel.from_text(kernel, filename, function)
    elif isinstance(kernel, ModuleOp):
        verify_module(kernel)
        kernel = Kernel(kernel, function)
    return kernel.execute(args, arch=arch, scratchpad_bytes=scratchpad_bytes, preload=preload)


def run(
    kernel: str | ModuleOp | Kernel,
    args: Mapping[str, object] | Sequence[object] = (),
    *,
    arch=None,
    scratchpad_bytes: int | None = None,
    function: str | None = None,
    filename: str = "<kernel>",
    preload: Sequence[Placement] = (),
) -> dict[str, np.ndarray]:
    """``execute``, returning every pointer argument's array after the run by name."""
    return execute(
        kernel,
        args,
        arch=arch,
        scratchpad_bytes=scratchpad_bytes,
        function=function,
        filename=filename,
        preload=preload,
    ).outputs


def _memory(machine: Machine, ct_id: int | None, op: Operation):
    return machine.device if ct_id is None else machine.scratchpad(ct_id, op)


# ---------------------------------------------------------------------------------------
# Signature


def _views_by_pointer(func: FuncOp) -> dict[BlockArgument, tuple[ConstructMemoryViewOp, ...]]:
    """The memory views of ``func`` by the pointer argument their start is computed
    from (``pointer_of``)."""
    views: dict[BlockArgument, list[ConstructMemoryViewOp]] = {}
    for op in func.walk():
        if isinstance(op, ConstructMemoryViewOp):
            pointer = pointer_of(op.offset, func)
            if pointer is not None:
                views.setdefault(pointer, []).append(op)
    return {arg: tuple(ops) for arg, ops in views.items()}


def pointer_of(value: SSAValue, func: FuncOp) -> BlockArgument | None:
    """The ``index`` argument of ``func`` an address is computed from: the argument
    itself, or it plus or minus other values (``arith.addi``: the left operand's
    pointer when both have one; ``arith.subi``: the left operand's)."""
    if isinstance(value, BlockArgument):
        is_argument = value.owner is func.body.block and isinstance(value.type, IndexType)
        return value if is_argument else None
    op = value.owner
    if op.name == "arith.addi":
        return pointer_of(op.operands[0], func) or pointer_of(op.operands[1], func)
    if op.name == "arith.subi":
        return pointer_of(op.operands[0], func)
    return None


def _displacement(value: SSAValue, pointer: BlockArgument, scalars, coords) -> int:
    """``value - pointer`` in elements, from constants, scalar arguments and the tile id
    ``coords`` alone, or ``_NotStatic``."""
    if value is pointer:
        return 0
    if isinstance(value, BlockArgument):
        raise _NotStatic
    op = value.owner
    lhs, rhs = op.operands
    if op.name == "arith.subi":
        return _displacement(lhs, pointer, scalars, coords) - int(
            static_value(rhs, scalars, coords)
        )
    if pointer_of(lhs, pointer.owner.parent_op()) is pointer:
        return _displacement(lhs, pointer, scalars, coords) + int(
            static_value(rhs, scalars, coords)
        )
    return int(static_value(lhs, scalars, coords)) + _displacement(rhs, pointer, scalars, coords)


def _named(kernel: Kernel, args) -> dict[str, object]:
    names = [p.name for p in kernel.parameters]
    listing = ", ".join(f"%{n}" for n in names) or "none"
    if not isinstance(args, Mapping):
        args = list(args)
        if len(args) != len(names):
            raise KtcError(
                f"@{kernel.name} takes {len(names)} arguments ({listing}), got {len(args)}",
                where(kernel.func),
            )
        return dict(zip(names, args))
    unknown = [n for n in args if n not in names]
    if unknown:
        raise KtcError(
            f"@{kernel.name} has no argument %{unknown[0]} (it takes {listing})", where(kernel.func)
        )
    missing = [n for n in names if n not in args]
    if missing:
        raise KtcError(
            f"@{kernel.name}: no value for argument %{missing[0]} (it takes {listing})",
            where(kernel.func),
        )
    return dict(args)


def _scalar(func: FuncOp, parameter: Parameter, value):
    """A scalar argument converted to its type's value, or an error."""
    kind, checked = parameter.type, parameter.type
    if isinstance(kind, RuntimeArgType):
        checked = kind.value_type
    name = type_name(checked)
    problem = None
    if isinstance(checked, IndexType | IntegerType):
        if (
            isinstance(value, bool | np.bool_)
            and name != "i1"
            or not isinstance(value, int | np.integer | bool)
        ):
            problem = f"expects an integer ({name}), got {value!r}"
        elif (
            name not in ("index", "i1")
            and not -(1 << (checked.width.data - 1)) <= int(value) < 1 << checked.width.data
        ):
            problem = f"expects an {name}, but {value} does not fit"
    elif name in numerics.FLOAT_TYPES:
        if not isinstance(value, int | float | np.integer | np.floating) or isinstance(value, bool):
            problem = f"expects a number ({name}), got {value!r}"
    else:
        problem = (
            f"has type {checked}, which the reference interpreter does not take as an argument"
        )
    if problem is None and isinstance(kind, RuntimeArgType):
        problem = _runtime_arg_problem(kind, value)
    if problem is not None:
        raise KtcError(f"argument %{parameter.name} {problem}", where(func))
    if name == "i1":
        return np.bool_(int(value) & 1)
    if name in numerics.FLOAT_TYPES:
        return as_value(name, np.float64(value))
    return int(value) if name == "index" else wrap_integer(name, int(value))


def _runtime_arg_problem(kind: RuntimeArgType, value) -> str | None:
    granularity, upperbound = kind.granularity, kind.upperbound
    if hasattr(granularity, "data") and int(value) % granularity.data:
        return f"must be a multiple of its granularity {granularity.data}, got {value}"
    if hasattr(upperbound, "data") and value > upperbound.data:
        return f"must be at most its upper bound {upperbound.data}, got {value}"
    return None


class _NotStatic(Exception):
    """A value depends on more than constants and scalar arguments."""


def static_value(value: SSAValue, scalars: Mapping[str, object], coords=None):
    """A value computed from constants and scalar arguments alone (the sizes and
    strides of memory views) and, given a core's ``coords``, its tile id; or
    ``_NotStatic``."""
    if isinstance(value, BlockArgument):
        name = value.name_hint
        if isinstance(value.owner.parent_op(), FuncOp) and name in scalars:
            return scalars[name]
        raise _NotStatic
    op = value.owner
    if op.name == "arith.constant":
        return constant(op.value, value.type)
    if op.name == "ktdp.runtime_arg_extract":
        kind = op.kind.data.value
        if kind == "value":
            return static_value(op.input, scalars, coords)
        return getattr(op.input.type, kind).data
    if op.name == "ktdp.get_compute_tile_id" and coords is not None:
        position = op.results.index(value)
        return coords[position] if position < len(coords) else 0
    if op.name not in ELEMENT_OPS or len(op.results) != 1:
        raise _NotStatic
    operands = [static_value(v, scalars, coords) for v in op.operands]
    try:
        return ELEMENT_OPS[op.name](op)(*operands)
    except ExecutionError:
        raise _NotStatic from None


def static_trips(loop: Operation, scalars: Mapping[str, object]) -> int | None:
    """The trip count of an ``scf.for`` whose bounds follow from constants and the
    scalar arguments; None otherwise."""
    try:
        low, high, step = (int(static_value(v, scalars)) for v in (loop.lb, loop.ub, loop.step))
    except _NotStatic:
        return None
    return max(0, -(-(high - low) // step)) if step > 0 else None


def _static_list(static: Sequence[int], dynamic: Sequence[SSAValue], scalars, coords=None):
    return [int(x) for x in mixed(static, [static_value(v, scalars, coords) for v in dynamic])]


def _layout(kernel: Kernel, parameter: Parameter, scalars: Mapping[str, object]) -> Layout:
    """A pointer's layout: the union of what its views reach on every core."""
    elements = {type_name(view.result.type) for view in parameter.views}
    if len(elements) > 1:
        raise KtcError(
            f"argument %{parameter.name} is the start of memory views of element types "
            f"{', '.join(sorted(elements))}",
            where(kernel.func),
        )
    local = [view for view in parameter.views if memory_space_of(view)[0]]
    if local:
        raise KtcError(
            f"argument %{parameter.name} starts a ct_local memory view; the reference "
            "places argument arrays in device memory only",
            where(local[0]),
        )
    element = elements.pop()
    shapes = set()
    try:
        for core in range(kernel.tiles):
            coords = kernel.coords(core)
            for view in parameter.views:
                sizes = _static_list(view.static_sizes.get_values(), view.sizes, scalars, coords)
                strides = _static_list(
                    view.static_strides.get_values(), view.strides, scalars, coords
                )
                start = _displacement(view.offset, parameter.value, scalars, coords)
                if any(size < 0 for size in sizes):
                    raise KtcError(
                        f"the memory view of argument %{parameter.name} would have the sizes "
                        f"{sizes} on core {core}; sizes must not be negative",
                        where(view),
                    )
                if _reach(start, sizes, strides)[0] < 0:
                    raise KtcError(
                        f"the memory view of argument %{parameter.name} reaches element "
                        f"{_reach(start, sizes, strides)[0]} on core {core}, before the "
                        "argument's first element",
                        where(view),
                    )
                shapes.add((start, tuple(sizes), tuple(strides)))
    except _NotStatic:
        return Layout(element, None)
    placed = {(start, sizes) for start, sizes, _ in shapes}
    start, sizes = next(iter(placed))
    if len(placed) == 1 and start == 0 and all(_contiguous(*shape[1:]) for shape in shapes):
        return Layout(element, sizes)
    return Layout(element, (max(_reach(*shape)[1] for shape in shapes),))


@dataclass(frozen=True)
class Region:
    """The elements of device memory a view at a fixed address reaches on any core:
    ``size`` elements of ``element`` from element ``start``."""

    name: str
    element: str
    start: int
    size: int

    @property
    def dtype(self) -> np.dtype:
        return numerics.storage_dtype(self.element)


def fixed_regions(kernel: Kernel, scalars: Mapping[str, object]) -> tuple[Region, ...]:
    """The regions of device memory the kernel's views at fixed addresses (a constant
    or a runtime argument, not a pointer argument) reach, given the scalar arguments
    (by name); one per view, named by it, in program order, views reaching the same
    elements once."""
    converted = kernel.scalar_values(scalars)
    regions: dict[tuple[str, int, int], Region] = {}
    for name, view in fixed_views(kernel.func).items():
        try:
            reaches = [_fixed_reach(view, converted, kernel.coords(core))
                       for core in range(kernel.tiles)]
        except _NotStatic:
            raise KtcError(f"cannot tell which elements of device memory the view %{name} "
                           "reaches from constants and the scalar arguments", where(view)) from None
        low, high = min(r[0] for r in reaches), max(r[1] for r in reaches)
        element = type_name(view.result.type)
        if high > low:
            regions.setdefault((element, low, high), Region(name, element, low, high - low))
    return tuple(regions.values())


def fixed_views(func: FuncOp) -> dict[str, ConstructMemoryViewOp]:
    """The device-memory views of ``func`` whose start no pointer argument gives, by
    name (the SSA name, else ``view`` and their number), in program order."""
    views = [op for op in func.walk() if isinstance(op, ConstructMemoryViewOp)
             and not memory_space_of(op)[0] and pointer_of(op.offset, func) is None]
    return {view.result.name_hint or f"view{n}": view for n, view in enumerate(views)}


def _fixed_reach(view: ConstructMemoryViewOp, scalars, coords) -> tuple[int, int]:
    """The elements [low, high) of device memory ``view`` reaches on the core at
    ``coords``, or ``_NotStatic``."""
    sizes = _static_list(view.static_sizes.get_values(), view.sizes, scalars, coords)
    strides = _static_list(view.static_strides.get_values(), view.strides, scalars, coords)
    return _reach(int(static_value(view.offset, scalars, coords)), sizes, strides)


def _reach(start: int, sizes: Sequence[int], strides: Sequence[int]) -> tuple[int, int]:
    """The elements [low, high) of a view from ``start``, relative to its pointer."""
    if 0 in sizes:
        return start, start
    low = start + sum(min((n - 1) * s, 0) for n, s in zip(sizes, strides))
    high = start + sum(max((n - 1) * s, 0) for n, s in zip(sizes, strides)) + 1
    return low, high


def _contiguous(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    expected = 1
    for size, stride in reversed(list(zip(sizes, strides))):
        if stride != expected and size != 1:
            return False
        expected *= size
    return True


def _checked_array(func: FuncOp, name: str, layout: Layout, value) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise KtcError(
            f"argument %{name} is a pointer to {layout.element} elements; pass a numpy "
            f"array, not {type(value).__name__}",
            where(func),
        )
    if value.dtype != layout.dtype:
        raise KtcError(
            f"argument %{name} points to {layout.element} elements: expected an array of "
            f"dtype {layout.dtype}, got {value.dtype}",
            where(func),
        )
    if layout.shape is not None and value.shape != layout.shape:
        raise KtcError(
            f"argument %{name}: expected an array of shape {layout.shape} (from its memory "
            f"views), got {value.shape}",
            where(func),
        )
    return np.ascontiguousarray(value)


# ---------------------------------------------------------------------------------------
# Random inputs


def random_inputs(
    kernel: Kernel, scalars: Mapping[str, object], given: Mapping[str, np.ndarray], seed: int
) -> dict[str, np.ndarray]:
    """An array for every pointer argument not ``given``: floats drawn from N(0, 1),
    integers from [0, n) where n is the smallest size of a view dimension they index
    indirectly (``RANDOM_INDEX_BOUND`` when none is known)."""
    converted = kernel.scalar_values(scalars)
    rng = np.random.default_rng(seed)
    arrays = {}
    for name, layout in kernel.layouts(converted).items():
        if name in given:
            continue
        if layout.shape is None:
            raise KtcError(
                f"cannot tell the shape of argument %{name} from the scalar arguments; "
                "give its array",
                where(kernel.func),
            )
        if layout.element in numerics.FLOAT_TYPES:
            values = rng.standard_normal(layout.shape)
        elif layout.element == "i1":
            values = rng.integers(0, 2, layout.shape)
        else:
            values = rng.integers(0, _index_bound(kernel, name, converted), layout.shape)
        arrays[name] = np.asarray(
            numerics.to_storage(layout.element, numerics.round_to(layout.element, values))
        )
    return arrays


def _index_bound(kernel: Kernel, name: str, scalars) -> int:
    parameter = next(p for p in kernel.parameters if p.name == name)
    bounds = []
    for view in parameter.views:
        for use in view.result.uses:
            tile = use.operation
            if not isinstance(tile, ConstructIndirectAccessTileOp) or use.index == 0:
                continue
            base = tile.base.owner
            if not isinstance(base, ConstructMemoryViewOp):
                continue
            indirect = [d for d, kind in enumerate(tile.per_dim_subscript_kinds) if kind.value.data]
            dim = indirect[use.index - 1]
            try:
                bounds.append(
                    _static_list(base.static_sizes.get_values(), base.sizes, scalars)[dim]
                )
            except _NotStatic:
                continue
    return min(bounds) if bounds else RANDOM_INDEX_BOUND
