"""A package prepared on a device: ``prepare`` runs the prepare plan once, ``launch``
runs the launch plan per call.

``launch(*args)`` takes the kernel's arguments in order: a numpy array for each pointer
(its dtype and shape checked against the signature, symbolic dimensions against the
scalar arguments they name) and a Python number for each scalar (a runtime argument's
checked against its granularity and upper bound). Each array is
copied into freshly allocated device memory, aligned as the device asks for that
memory (``Device.alignment``); the kernel sees the element index of its first
element, as in KTIR. After the run every pointer's array
is read back, and ``launch`` returns them by argument name. Every mistake in a call
is a ``KtcError``; nothing here knows what kind of device it talks to.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from ktc.codegen.binary import relocated
from ktc.codegen.package import DTYPES, Package
from ktc.codegen.plan import (
    Allocate,
    ComputeOnDevice,
    ComputeOnHost,
    DataTransfer,
    Expr,
    MAX_LAUNCH_TRIPS,
    InitTransfer,
    Loop,
    Step,
    render,
    trips,
)
from ktc.codegen.signature import Argument
from ktc.errors import KtcError, KtcTypeError, KtcValueError
from ktc.runtime.device import Device, DeviceError
from ktc.codegen.plan import evaluate

def prepare(package: Package, device: Device) -> Executable:
    """Check that ``package`` was compiled for ``device`` and run its prepare plan."""
    if not isinstance(package, Package):
        hint = " (read a package file with ktc.load(path))" if isinstance(package, str) else ""
        raise TypeError(f"prepare takes a Package from ktc.compile or ktc.load, not "
                        f"{type(package).__name__} {package!r}"[:200] + hint)
    if not hasattr(device, "arch_hash"):
        raise TypeError(f"prepare takes a Device such as ktc.Simulator(arch), not "
                        f"{type(device).__name__}")
    if package.arch_hash != device.arch_hash:
        raise KtcError(
            f"the package was compiled for arch '{package.arch_name}' (sha256 "
            f"{package.arch_hash[:12]}...), not for this device's '{device.arch_name}' "
            f"(sha256 {device.arch_hash[:12]}...)"
        )
    allocations, handles = [], {}
    with _device_errors():
        for step in package.prepare:
            if isinstance(step, Allocate):
                allocations.append(device.allocate(step.memory, step.size, step.alignment))
            elif isinstance(step, InitTransfer):
                handles[step.dataflow] = device.load(package.dataflows[step.dataflow].binary)
    return Executable(package, device, tuple(allocations), handles)


class Executable:
    """A prepared package: launch it as many times as needed."""

    def __init__(self, package: Package, device: Device, allocations: tuple[int, ...],
                 handles: dict[int, int]):
        self.package = package
        self.device = device
        self.allocations = allocations
        self.handles = handles
        self.symbols: dict[int, dict[int, int]] = {}
        """The symbol values each dataflow's last ComputeOnHost computed, by id."""
        self.executed = 0
        """Programs the last launch ran on the device (0 when every loop of its launch
        plan ran zero times)."""

    def launch(self, *args) -> dict[str, np.ndarray]:
        """Run the kernel once on ``args``; every pointer argument's array afterwards."""
        signature = self.package.signature
        _check_count(signature.kernel, signature.arguments, args)
        values = [_scalar(a, v) if not a.pointer else 0 for a, v in zip(signature.arguments, args)]
        names = [a.name for a in signature.arguments]
        arrays = {i: _array(a, v, values, names)
                  for i, (a, v) in enumerate(zip(signature.arguments, args)) if a.pointer}
        memory = self.package.device_memory
        self.executed = 0
        with _device_errors():
            addresses = {i: self._place(memory, array, names[i]) for i, array in arrays.items()}
            for i, address in addresses.items():
                values[i] = address // arrays[i].dtype.itemsize
            _check_writes(signature.arguments, values)
            self._run(self.package.launch, {"arg": values, "alloc": self.allocations, "loop": {}})
            return {signature.arguments[i].name: self._fetch(memory, addresses[i], array)
                    for i, array in arrays.items()}

    def report(self):
        """The device's figures of the last launch, for a device that keeps a report
        (the simulator's: cycles, roofline bound, per-engine busy and stall cycles,
        bytes per memory)."""
        report = getattr(self.device, "report", None)
        if report is None:
            raise KtcError(f"the device for arch '{self.device.arch_name}' keeps no report")
        if not self.executed:
            raise KtcError("the last launch ran no program on the device (every loop of its "
                           "launch plan ran zero times, or it was never launched): it has no "
                           "figures")
        with _device_errors():
            return report()

    def _place(self, memory: str, array: np.ndarray, name: str) -> int:
        """Device memory for argument ``name`` holding ``array``, its bytes written;
        an array the memory cannot hold a ``DeviceError`` naming the argument."""
        alignment = self.device.alignment(memory)
        try:
            address = self.device.allocate(memory, max(array.nbytes, 1), alignment)
        except DeviceError as err:
            raise DeviceError(f"{err}, placing %{name} ({array.dtype}{list(array.shape)}) for "
                              f"arch '{self.device.arch_name}'") from err
        self.device.write(memory, address, memoryview(np.ascontiguousarray(array).reshape(-1).view(np.uint8)))
        return address

    def _fetch(self, memory: str, address: int, like: np.ndarray) -> np.ndarray:
        data = np.frombuffer(self.device.read(memory, address, like.nbytes), dtype=like.dtype)
        return (data if data.flags.writeable else data.copy()).reshape(like.shape)

    def _run(self, steps: tuple[Step, ...], leaves: dict) -> None:
        for step in steps:
            if isinstance(step, Loop):
                self._loop(step, leaves)
            elif isinstance(step, ComputeOnHost):
                self._compute_on_host(step, leaves)
            elif isinstance(step, DataTransfer):
                self._data_transfer(step.dataflow)
            elif isinstance(step, ComputeOnDevice):
                self.device.execute(self.handles[step.dataflow])
                self.executed += 1

    def _loop(self, loop: Loop, leaves: dict) -> None:
        lower, upper, step = (evaluate(e, leaves) for e in (loop.lower, loop.upper, loop.step))
        if step <= 0:
            raise KtcError(f"launch-plan loop {loop.var} has step {step}; it must be positive")
        outer = leaves.get("trips", 1)
        count = outer * trips(lower, upper, step)
        if count > MAX_LAUNCH_TRIPS:
            raise KtcError(f"launch-plan loop {loop.var} would run {trips(lower, upper, step)} "
                           f"times ({count} with its enclosing loops), more than the limit of "
                           f"{MAX_LAUNCH_TRIPS}: a damaged package?")
        for value in range(lower, upper, step):
            self._run(loop.body, {**leaves, "trips": count,
                                  "loop": {**leaves["loop"], loop.var: value}})

    def _compute_on_host(self, step: ComputeOnHost, leaves: dict) -> None:
        dataflow = self.package.dataflows[step.dataflow]
        params = {"param": tuple(evaluate(arg, leaves) for arg in step.args)}
        self.symbols[step.dataflow] = {s.id: evaluate(s.expr, params) for s in dataflow.symbols}

    def _data_transfer(self, index: int) -> None:
        binary, values = self.package.dataflows[index].binary, self.symbols[index]
        for e, engine in enumerate(binary.engines):
            if engine.relocations:
                self.device.patch(self.handles[index], e, relocated(engine, values))


@contextmanager
def _device_errors() -> Iterator[None]:
    """Report a ``DeviceError`` as a ``KtcError`` (its cause, for callers that tell
    kinds of failure apart)."""
    try:
        yield
    except DeviceError as err:
        raise KtcError(f"device: {err}") from err


# ---------------------------------------------------------------------------------------
# Arguments


def _check_count(kernel: str, arguments: tuple[Argument, ...], args: tuple) -> None:
    if len(args) == len(arguments):
        return
    listing = ", ".join(f"%{a.name}" for a in arguments) or "none"
    raise KtcError(f"@{kernel} takes {len(arguments)} arguments ({listing}), got {len(args)}")


FLOAT_BITS = {"f16": "uint16", "f32": "uint32", "f64": "int64"}
"""How a float argument reaches a symbol: its storage bits, as the code's ``li`` holds them."""


def _scalar(argument: Argument, value) -> int:
    """A scalar argument's value as the launch plan reads it (a float: its bits), a
    runtime argument's checked against its granularity and upper bound."""
    stored = _stored(argument, value)
    if argument.granularity is not None and int(value) % argument.granularity:
        raise KtcValueError(f"argument %{argument.name} must be a multiple of its granularity "
                            f"{argument.granularity}, got {value}")
    if argument.upperbound is not None and value > argument.upperbound:
        raise KtcValueError(f"argument %{argument.name} must be at most its upper bound "
                            f"{argument.upperbound}, got {value}")
    return stored


def _stored(argument: Argument, value) -> int:
    """A scalar argument's value as the launch plan reads it (a float: its bits)."""
    name, dtype = argument.dtype, np.dtype(DTYPES[argument.dtype])
    if name in FLOAT_BITS:
        if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
            raise KtcTypeError(f"argument %{argument.name} expects a number ({name}), got {value!r}")
        with np.errstate(over="ignore"):
            try:
                stored = np.array(value, dtype)
            except OverflowError:
                stored = np.array(np.inf, dtype)
        if np.isinf(stored) and not (isinstance(value, float | np.floating) and np.isinf(value)):
            raise KtcValueError(f"argument %{argument.name} expects an {name}, but "
                                f"{_short(value)} is out of its range")
        return int(stored.view(FLOAT_BITS[name]))
    if name == "df16":
        raise KtcError(f"argument %{argument.name}: df16 scalar arguments are not supported")
    boolean = isinstance(value, bool | np.bool_)
    if not (boolean and name == "i1" or isinstance(value, int | np.integer) and not boolean):
        raise KtcTypeError(f"argument %{argument.name} expects an integer ({name}), got {value!r}")
    low, high = (0, 1) if name == "i1" else (np.iinfo(dtype).min, np.iinfo(dtype).max)
    if not low <= int(value) <= high:
        raise KtcValueError(f"argument %{argument.name} expects an {name}, but {value} does not fit")
    return int(value)


def _short(value) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


def _array(argument: Argument, value, scalars: list[int], names: list[str]) -> np.ndarray:
    dtype = np.dtype(DTYPES[argument.dtype])
    if not isinstance(value, np.ndarray):
        raise KtcTypeError(f"argument %{argument.name} is a pointer to {argument.dtype} elements; "
                           f"pass a numpy array, not {type(value).__name__}")
    if value.dtype != dtype:
        raise KtcTypeError(f"argument %{argument.name} points to {argument.dtype} elements: "
                           f"expected an array of dtype {dtype}, got {value.dtype}")
    if argument.shape is not None:
        expected = tuple(evaluate(dim, {"arg": scalars}) for dim in argument.shape)
        if len(expected) == 1 and value.size == expected[0]:
            return np.ascontiguousarray(value)  # a flat extent's elements, in any shape (C order)
        if value.shape != expected:
            raise KtcValueError(f"argument %{argument.name}: expected an array of shape "
                                f"{_spelled(argument.shape, expected, names)}, got {value.shape}")
    return np.ascontiguousarray(value)


def _check_writes(arguments: tuple[Argument, ...], values: list[int]) -> None:
    """Refuse a launch where a view the kernel writes has strides that do not nest (two
    of its coordinates may be at one address) or two written views overlap: the
    compiled stores assume each element is written through one coordinate of one view."""
    spans = []
    for i, argument in enumerate(arguments):
        for written in argument.writes:
            sizes, strides = ([evaluate(e, {"arg": values}) for e in dims]
                              for dims in (written.sizes, written.strides))
            if 0 in sizes:
                continue
            if not _nested(sizes, strides):
                raise KtcValueError(
                    f"argument %{argument.name}: the kernel writes a view of it with sizes "
                    f"{sizes} and strides {strides}, which do not nest (a dimension's stride "
                    "must pass the extent of those with smaller strides): two of its "
                    "coordinates may be at one address")
            start = evaluate(written.offset, {"arg": values}) - values[i]
            low = start + sum(min((n - 1) * s, 0) for n, s in zip(sizes, strides))
            high = start + sum(max((n - 1) * s, 0) for n, s in zip(sizes, strides)) + 1
            spans.append((argument.name, low, high))
    _check_disjoint(sorted(spans))


def _nested(sizes: list[int], strides: list[int]) -> bool:
    """Whether each stride (by magnitude, of the dimensions of more than one element)
    passes the extent of the dimensions with smaller strides: no two coordinates at one
    address."""
    reach = 0
    for stride, size in sorted((abs(s), n) for n, s in zip(sizes, strides) if n > 1):
        if stride <= reach:
            return False
        reach += (size - 1) * stride
    return True


def _check_disjoint(spans: list[tuple[str, int, int]]) -> None:
    """Refuse two written views of one array whose element ranges overlap (``spans``:
    argument name, first element and end, sorted)."""
    for (name, low, high), (other, start, end) in zip(spans, spans[1:]):
        if other == name and start < high:
            raise KtcValueError(f"argument %{name}: two views the kernel writes overlap, "
                                f"elements [{low}, {high}) and [{start}, {end}) of its array")


def _spelled(shape: tuple[Expr, ...], values: tuple[int, ...], names: list[str]) -> str:
    """``(1024, 64)``, or ``(%n = 1000, 64)`` where a dimension is symbolic."""
    dims = [str(v) if len(d) == 1 and isinstance(d[0], int)
            else f"{render(d, lambda kind, n: '%' + names[n])} = {v}"
            for d, v in zip(shape, values)]
    return f"({', '.join(dims)}{',' if len(dims) == 1 else ''})"

