"""``ktc run``: run a kernel on the simulator (or the reference interpreter) and check it.

``ktc run KERNEL.mlir|KERNEL.ktpkg [--arch NAME|FILE] [--inputs in.npz] [--arg NAME=VALUE ...]
[--save-outputs out.npz] [--seed N] [--check] [--trace t.json] [--report]
[--report-json r.json] [--max-cycles N]`` (its options are read by ``ktc.tools.ktc``)
compiles a kernel (KTIR, or DataflowIR) with ``ktc.driver.compile``, or reads a package,
prepares it once on the cycle-level simulator of the device ``--arch`` (default: spyre)
and launches it. A package compiled for another device is refused. With
``--reference`` the KTIR kernel runs on the reference interpreter
(``ktc.sim.reference``) instead, and the simulator's flags do not apply.

Arrays for pointer arguments come from ``in.npz`` (keyed by the argument's name without
``%``); those it lacks are drawn at random with the seed (by the reference interpreter's
rule for a KTIR kernel, so both targets see the same inputs). Scalar arguments come from
``--arg`` (read by the argument's type: ``N=4096``, ``eps=1e-5``, ``mask=0xFF``) or
from 0-d entries of ``in.npz``. ``out.npz`` holds every pointer argument's array after
the run. A summary of each array after the run goes to stdout, saying whether its
input was given or drawn. A KTIR kernel's views at fixed addresses (a constant or a
runtime argument, not a pointer) are laid the same way: ``in.npz`` names them by the
view's SSA name (``A_view``), with as many elements as the view reaches on any core
(``ktc.sim.reference.fixed_regions``), and their images after the run are shown and
saved beside the arrays; a view the kernel only writes (every tile of it only stored
to) and ``in.npz`` does not name is laid with nothing: it keeps device memory's zeros
on both targets, so that the simulator holds only the pages the kernel writes (a
scatter into a paged cache of gigabytes). Images are read, summarized and compared a
chunk at a time.

``--check`` runs the KTIR kernel on the reference interpreter (for the same device) with
the same inputs (when the reference refuses because a tensor it materializes exceeds
the device's scratchpad, as a copy the compiler streams in pieces does, again with a
scratchpad as large as device memory, which the output says) and compares every array
by ``ktc.sim.check``'s rule: bit-exact unless the kernel reduces, else per element
within a tolerance from the element type and the reduction's length, NaN and
infinities exact, and the device memory images of the views at fixed addresses with
the reference's (laid from the same inputs); it reports the elements compared and the
worst error. A mismatch names the first differing
indices, both values and the tolerance there, and exits 1. ``--report`` prints the
simulator's report of the last dataflow run, ``--report-json`` writes it
(``ktc.sim.report.Report.to_json``), ``--trace`` writes a Chrome trace (also of a run
the simulator stopped, such as a deadlock). ``--max-cycles N`` stops the simulation past
cycle N (the simulator's default budget otherwise). Every file is written whole or not
at all (``ktc.files``).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, replace
from math import prod
from pathlib import Path
from zipfile import BadZipFile

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from ktc.arch.model import Device
from ktc.codegen.package import DTYPES, INTEGERS, MAGIC, Package, decode
from ktc.codegen.plan import evaluate
from ktc.codegen.signature import Signature
from ktc.dialects.dfir import DataflowOp
from ktc.dialects.ktdp import (ConstructAccessTileOp, ConstructIndirectAccessTileOp,
                               RuntimeArgType, StoreOp)
from ktc.dialects.source import parse_module, verify_module
from ktc.errors import KtcError
from ktc.files import staged, write_atomically
from ktc.sim import numerics
from ktc.sim.reference import (RANDOM_INDEX_BOUND, Kernel, Placement, Region,
                               ScratchpadOverflow, fixed_regions, fixed_views, random_inputs)
from ktc.sim.check import Mismatch, compare, reduction_length, rule, worst_error
from ktc.sim.reference_compute import type_name
from ktc.sim.report import Report
from ktc.sim.simulator import Simulator

SIMULATOR_FLAGS = ("check", "trace", "report", "report_json", "max_cycles")
"""Flags that only mean something on the simulator (refused with ``--reference``)."""
INPUT_LIMIT_BYTES = 4 << 30
"""The most bytes of random input arrays ``ktc run`` draws (the host's memory, not the
device's: a larger kernel takes its arrays from ``--inputs``)."""


def run_command(args: argparse.Namespace) -> int:
    """Run ``ktc run`` with the arguments ``ktc``'s parser read."""
    if args.reference:
        return _run_reference(args)
    return _run_simulator(args)


# ---------------------------------------------------------------------------------------
# The two targets


def _run_reference(args: argparse.Namespace) -> int:
    given = [f"--{flag.replace('_', '-')}" for flag in SIMULATOR_FLAGS if getattr(args, flag)]
    if given:
        raise KtcError(f"{given[0]} needs the simulator; drop --reference")
    data = _read(args.kernel)
    if data.startswith(MAGIC):
        raise KtcError("--reference runs a KTIR kernel, not a package: give the kernel's "
                       ".mlir file, or drop --reference to run the package", args.kernel)
    kernel = Kernel.from_text(data.decode(errors="replace"), args.kernel, args.function)
    scalars, arrays, drawn = _inputs(args, kernel.name, kernel_arguments(kernel),
                                     _kernel_draw(kernel, args.seed), fixed_views(kernel.func))
    regions, placements = _placements(fixed_regions(kernel, scalars), arrays, drawn, args.seed,
                                      written_only(kernel.func))
    started = time.perf_counter()
    execution = kernel.execute({**scalars, **_pointers(kernel, arrays, drawn)},
                               arch=args.arch or "spyre", preload=placements)
    images = _images(execution.read, regions)
    seconds = time.perf_counter() - started
    cores = "core" if kernel.tiles == 1 else "cores"
    print(f"@{kernel.name}: {kernel.tiles} {cores} on {args.arch or 'spyre'}, {seconds:.3f} s")
    _show(scalars, execution.outputs, images, {**_elements(kernel), **_region_elements(regions)},
          drawn, arrays)
    if args.save_outputs:
        _save(args.save_outputs, execution.outputs, images)
    return 0


def _run_simulator(args: argparse.Namespace) -> int:
    arch = args.arch or "spyre"
    package, kernel = _load(args.kernel, arch, args.function)
    if args.check and kernel is None:
        raise KtcError("--check needs a KTIR kernel: the reference interpreter runs neither "
                       "packages nor DataflowIR", args.kernel)
    device = Device.load(arch)
    room = device.memory(device.device_memory).size
    draw = _kernel_draw(kernel, args.seed, room) if kernel else (
        lambda s, a: _random_arrays(package.signature, s, a, args.seed, room))
    scalars, arrays, drawn = _inputs(args, package.signature.kernel,
                                     _package_arguments(package.signature), draw,
                                     fixed_views(kernel.func) if kernel else {})
    regions, placements = _placements(fixed_regions(kernel, scalars) if kernel else (),
                                      arrays, drawn, args.seed,
                                      written_only(kernel.func) if kernel else frozenset())
    inputs = {**arrays, **drawn}
    values = [inputs[a.name] if a.pointer else scalars[a.name] for a in package.signature.arguments]
    outputs, images, report = _simulate(package, arch, values, args.trace, args.max_cycles,
                                        regions, placements)
    elements = {a.name: a.dtype for a in package.signature.arguments if a.pointer}
    elements.update(_region_elements(regions))
    tiles = prod(package.signature.grid)
    print(f"@{package.signature.kernel}: {tiles} {'tile' if tiles == 1 else 'tiles'} on "
          f"@{report.arch}, {report.cycles} cycles, simulated in {report.wall_s:.3f} s")
    _show(scalars, outputs, images, elements, drawn, arrays)
    if args.save_outputs:
        _save(args.save_outputs, outputs, images)
    if args.report_json:
        text = json.dumps(report.to_json(), indent=2) + "\n"
        write_atomically(args.report_json, lambda file: file.write(text.encode()))
    if args.report:
        print(report.text())
    if args.check:
        execution = _reference_for_check(kernel, {**scalars, **_pointers(kernel, arrays, drawn)},
                                         arch, room, placements)
        return _check(outputs, execution.outputs, elements, reduction_length(kernel, scalars),
                      images, _images(execution.read, regions))
    return 0


def _simulate(package: Package, arch: str, values: list, trace_path: str | None,
              max_cycles: int | None = None, regions: tuple[Region, ...] = (),
              placements: tuple[Placement, ...] = ()) -> tuple[dict, dict, Report]:
    """Prepare ``package`` on the simulator of ``arch``, write ``placements`` into its
    device memory and launch it once on ``values``; its outputs, the image of every
    region of device memory in ``regions`` (read from the simulator when asked) and
    its report. The Chrome trace, if asked for, is written beside ``trace_path`` and
    moved there when the simulator has written it."""
    with staged(trace_path) if trace_path else nullcontext() as trace:
        simulator = Simulator(arch, trace=trace, max_cycles=max_cycles)
        executable = simulator.prepare(package)
        memory = package.device_memory
        for placement in placements:
            array = placement.array
            simulator.write(memory, placement.address * array.itemsize,
                            memoryview(array).cast("B"))  # its bytes, not a copy of them
        try:
            outputs = executable.launch(*values)
        except KtcError as err:
            if trace_path:
                err.message += f" (the trace of the stopped run is in {trace_path})"
            raise

    def read(start: int, shape: tuple[int, ...], dtype) -> np.ndarray:
        data = simulator.read(memory, start * dtype.itemsize, prod(shape) * dtype.itemsize)
        return np.frombuffer(data, dtype).reshape(shape)

    images = _images(read, regions)
    if not executable.executed:  # the launch plan's loops ran zero times
        device = simulator.device
        return outputs, images, Report(device.name, device.clock_mhz or 0, 0, 0,
                                       "nothing (no program ran)", {}, {}, {})
    return outputs, images, executable.report()


def _load(path: str, arch: str, function: str | None) -> tuple[Package, Kernel | None]:
    """The package to run, and the KTIR kernel it came from (None for a package or
    DataflowIR)."""
    from ktc.driver import compile

    data = _read(path)
    if data.startswith(MAGIC):
        return decode(data, path), None
    text = data.decode(errors="replace")
    module = parse_module(text, path)
    verify_module(module)
    kernel = None if _is_dataflow(module) else Kernel(module, function, path)
    return compile(text, arch, path, function), kernel


def _is_dataflow(module: ModuleOp) -> bool:
    return any(isinstance(op, DataflowOp) for op in module.walk())


# ---------------------------------------------------------------------------------------
# Checking against the reference interpreter


def _reference_for_check(kernel: Kernel, arguments: dict, arch: str, room: int,
                         placements: tuple[Placement, ...]):
    """The reference interpreter's run that ``--check`` compares with. When it refuses
    because the tensors a core holds exceed the device's scratchpad (it materializes
    every tile, so a copy of a tile larger than the scratchpad, which the compiled
    kernel streams in pieces, is refused), it runs again with a scratchpad of ``room``
    bytes, the device memory's, and says so: the compiled kernel does not depend on the
    reference's scratchpad, and ``ktc run --reference`` keeps the refusal."""
    try:
        return kernel.execute(arguments, arch=arch, preload=placements)
    except ScratchpadOverflow as refusal:
        # The run again after the handler, so that the refused run's memories, which
        # the refusal's traceback holds, are freed first.
        reason = f"{refusal.where}: {refusal.message}"
    print(f"the reference interpreter refuses the kernel on the device's scratchpad "
          f"({reason}); the check runs it with a scratchpad of {room} bytes (the device "
          "memory's size), as the compiled kernel does not hold the tensor")
    return kernel.execute(arguments, arch=arch, scratchpad_bytes=room, preload=placements)


def _check(actual: dict, expected: dict, elements: dict, length: int,
           images: dict | None = None, expected_images: dict | None = None) -> int:
    """Compare every array and region image with the reference's; exit 1 (a
    ``KtcError``) on the first mismatch."""
    images, expected_images = images or {}, expected_images or {}
    print(f"check against the reference interpreter: {rule(length)}")
    mismatch = compare(actual, expected, elements, length)
    if mismatch is not None:
        raise KtcError(f"check failed: {mismatch}")
    worst = worst_error(actual, expected, elements)
    for name, image in expected_images.items():
        mismatch, error = _compare_images(images[name], image, elements[name], length)
        if mismatch is not None:
            raise KtcError(f"check failed: the device memory image differs from the "
                           f"reference's: {mismatch} (element "
                           f"{image.region.start + mismatch.index[0]} of device memory)")
        worst = max(worst, error)
    parts = [f"{len(expected)} arrays"] * bool(expected or not expected_images)
    parts += [f"{len(expected_images)} regions of device memory at fixed "
              "addresses"] * bool(expected_images)
    compared = sum(a.size for a in expected.values())
    compared += sum(image.region.size for image in expected_images.values())
    print(f"check passed: {' and '.join(parts)}, {compared} elements compared, worst error "
          f"{worst:.3g}")
    return 0


def _compare_images(actual: _Image, expected: _Image, element: str,
                    length: int) -> tuple[Mismatch | None, float]:
    """The first mismatch of a region's image against the reference's (its count over
    the whole region), or None, and the worst error, compared a chunk at a time; whole
    when the kernel reduces, as the tolerance then scales with the image's largest
    reference value."""
    name, size = expected.region.name, expected.region.size
    chunk = IMAGE_CHUNK if length <= 1 else max(size, 1)
    first, count, worst = None, 0, 0.0
    for (offset, got), (_, want) in zip(actual.chunks(chunk), expected.chunks(chunk)):
        pair = {name: got}, {name: want}
        found = compare(*pair, {name: element}, length)
        worst = max(worst, worst_error(*pair, {name: element}))
        if found is None:
            continue
        count += found.count
        if first is None:
            first = replace(found, index=(offset + found.index[0],))
    if first is None:
        return None, worst
    return replace(first, count=count, size=size), worst


# ---------------------------------------------------------------------------------------
# Fixed addresses


def _placements(regions: tuple[Region, ...], given: dict[str, np.ndarray],
                drawn: dict[str, np.ndarray], seed: int,
                unread: frozenset[str] = frozenset()) -> tuple[tuple[Region, ...], tuple[Placement, ...]]:
    """The regions a kernel's views at fixed addresses reach, and what to lay there
    before the run: the array ``--inputs`` gives by the view's name (added to
    ``drawn`` otherwise: values drawn at random with ``seed``); nothing in a region of
    a view in ``unread`` (one the kernel only writes, ``written_only``) that
    ``--inputs`` does not name, so that it keeps device memory's zeros on both
    targets and the simulator holds only the pages the kernel writes."""
    rng = np.random.default_rng(seed)
    placements = []
    for region in regions:
        if region.name not in given and region.name in unread:
            continue
        if region.name not in given:
            drawn[region.name] = _draw(region.element, (region.size,), rng)
        array = given.get(region.name, drawn.get(region.name))
        if array.dtype != region.dtype or array.size != region.size:
            raise KtcError(f"%{region.name} reaches {region.size} {region.element} elements of "
                           f"device memory from element {region.start}: expected an array of "
                           f"dtype {region.dtype} and {region.size} elements, got "
                           f"{array.dtype}{list(array.shape)}")
        placements.append(Placement(region.start, np.ascontiguousarray(array).ravel()))
    return regions, tuple(placements)


IMAGE_CHUNK = 1 << 22
"""Elements of a region's image read, summarized and compared at a time: a region
spanning gigabytes (a paged cache at a fixed address) costs the host a chunk of it,
not its span."""


@dataclass(frozen=True)
class _Image:
    """A region of device memory as a memory holds it after a run, read when asked
    (``read(start, shape, dtype)`` reads that memory)."""

    region: Region
    read: Callable

    def chunks(self, size: int = IMAGE_CHUNK) -> Iterator[tuple[int, np.ndarray]]:
        """``(offset, elements)`` of ``size`` consecutive elements at a time."""
        r = self.region
        for offset in range(0, r.size, size):
            yield offset, self.read(r.start + offset, (min(size, r.size - offset),), r.dtype)

    def whole(self) -> np.ndarray:
        return np.array(self.read(self.region.start, (self.region.size,), self.region.dtype))


def _images(read: Callable, regions: tuple[Region, ...]) -> dict[str, _Image]:
    """Each region's image in the memory ``read`` reads, by its name."""
    return {r.name: _Image(r, read) for r in regions}


def written_only(func) -> frozenset[str]:
    """The views at fixed addresses (by name, ``fixed_views``) the kernel only writes:
    every use a direct or indirect access tile on it (as its base) that only stores
    use."""
    return frozenset(name for name, view in fixed_views(func).items()
                     if all(_stored_base(use) for use in view.result.uses))


def _stored_base(use) -> bool:
    """Whether ``use`` of a view is as the base of an access tile only stores go
    through."""
    tile = use.operation
    if not isinstance(tile, ConstructAccessTileOp | ConstructIndirectAccessTileOp):
        return False
    if use.index != tile.operands.index(tile.base):
        return False
    return all(isinstance(u.operation, StoreOp) and u.operation.access_tile is tile.result
               for u in tile.result.uses)


def _region_elements(regions: tuple[Region, ...]) -> dict[str, str]:
    return {r.name: r.element for r in regions}


def _pointers(kernel: Kernel, given: dict[str, np.ndarray],
              drawn: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The arrays of the kernel's pointer arguments among ``given`` and ``drawn``."""
    pointers = {p.name for p in kernel.parameters if p.pointer}
    return {name: a for name, a in {**given, **drawn}.items() if name in pointers}


# ---------------------------------------------------------------------------------------
# Arguments


def kernel_arguments(kernel: Kernel) -> dict[str, str | None]:
    """Each argument of a KTIR kernel: None for a pointer, else its scalar type name
    (a runtime_arg's underlying type)."""
    kinds = {}
    for p in kernel.parameters:
        kind = p.type.value_type if isinstance(p.type, RuntimeArgType) else p.type
        kinds[p.name] = None if p.pointer else type_name(kind)
    return kinds


def _package_arguments(signature: Signature) -> dict[str, str | None]:
    return {a.name: None if a.pointer else a.dtype for a in signature.arguments}


def _elements(kernel: Kernel) -> dict[str, str]:
    return {p.name: p.element for p in kernel.parameters if p.pointer}


Draw = Callable[[dict[str, object], dict[str, np.ndarray]], dict[str, np.ndarray]]


def _inputs(args: argparse.Namespace, kernel: str, arguments: dict[str, str | None],
            draw: Draw, views: Mapping[str, object] = {}
            ) -> tuple[dict[str, object], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Scalars, given arrays and drawn arrays, from ``--inputs``, ``--arg`` and ``draw``
    (``--inputs`` may also name ``views`` at fixed addresses: their arrays are given,
    not drawn)."""
    given = _npz(args.inputs) if args.inputs else {}
    unknown = [name for name in given if name not in arguments and name not in views]
    if unknown:
        fixed = " or view at a fixed address" if views else ""
        raise KtcError(f"{args.inputs}: @{kernel} has no argument{fixed} %{unknown[0]}")
    laid = {name: value for name, value in given.items() if name in views}
    given = {name: value for name, value in given.items() if name not in views}
    scalars = {name: value.item() for name, value in given.items()
               if arguments[name] is not None and value.ndim == 0}
    for name, value in scalars.items():
        problem = scalar_problem(arguments[name], value)
        if problem:
            raise KtcError(f"{args.inputs}: %{name} = {value} {problem}")
    scalars.update(scalar_args(args.arg, arguments))
    missing = [name for name, kind in arguments.items() if kind is not None and name not in scalars]
    if missing:
        raise KtcError(f"no value for scalar argument %{missing[0]}; pass --arg {missing[0]}=VALUE")
    arrays = {name: value for name, value in given.items() if arguments[name] is None}
    return scalars, {**arrays, **laid}, draw(scalars, arrays)


def scalar_args(texts: list[str], arguments: dict[str, str | None]) -> dict[str, object]:
    values = {}
    for text in texts:
        name, equals, value = text.partition("=")
        name = name.removeprefix("%")
        if not equals or name not in arguments:
            known = ", ".join(n for n, kind in arguments.items() if kind is not None) or "none"
            raise KtcError(
                f"--arg {text}: expected NAME=VALUE with NAME a scalar argument ({known})"
            )
        if arguments[name] is None:
            raise KtcError(f"--arg {text}: %{name} is a pointer; give its array in --inputs")
        if name in values:
            raise KtcError(f"--arg {text}: %{name} is given twice")
        values[name] = _parse(value, arguments[name], text)
    return values


def _parse(text: str, kind: str, whole: str):
    """A scalar argument's value read by its type name, and checked to be one."""
    try:
        value = int(text, 0) if kind in INTEGERS else float(text)
    except ValueError:
        raise KtcError(f"--arg {whole}: '{text}' is not a value of type {kind}") from None
    problem = scalar_problem(kind, value)
    if problem is None and kind not in INTEGERS and "inf" not in text.lower() and (
            np.isinf(value)):
        problem = f"is out of the range of {kind}"  # a finite number too large for a double
    if problem:
        raise KtcError(f"--arg {whole}: {text} {problem}")
    return value


def scalar_problem(kind: str, value) -> str | None:
    """Why ``value`` is not a value of scalar type ``kind`` (None if it is): not an
    integer for an integer type or not a real number for a float type (an ``--inputs``
    archive may hold a complex or a string), an integer out of the type's range
    (signless: from -2^(w-1) to 2^w - 1; i1 0 or 1), or a finite number the type
    rounds to an infinity."""
    if not isinstance(value, int if kind in INTEGERS else int | float):
        return f"is a {type(value).__name__}, not a value of type {kind}"
    if kind in INTEGERS:
        bits = 64 if kind == "index" else int(kind[1:])
        low, high = (0, 1) if bits == 1 else (-(1 << (bits - 1)), (1 << bits) - 1)
        return None if low <= value <= high else f"does not fit {kind} ({low} to {high})"
    with np.errstate(over="ignore"):
        rounded = numerics.round_to(kind, np.float64(value))
    if np.isfinite(value) and not np.isfinite(rounded):
        return f"is out of the range of {kind}"
    return None


def _kernel_draw(kernel: Kernel, seed: int, room: int | None = None) -> Draw:
    """The reference interpreter's random inputs for ``kernel``, after checking the
    shapes it would draw (against ``room``, the device memory's bytes, too)."""
    def draw(scalars: dict[str, object], given: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        layouts = kernel.layouts(scalars)
        check_sizes({name: (layout.element, layout.shape) for name, layout in layouts.items()
                     if name not in given}, scalars, room)
        return random_inputs(kernel, scalars, given, seed)

    return draw


def check_sizes(shapes: dict[str, tuple[str, tuple[int, ...] | None]],
                scalars: dict[str, object], room: int | None = None) -> None:
    """Refuse to draw arrays of negative sizes, or more than ``INPUT_LIMIT_BYTES`` of
    them together, or more than the ``room`` of a device memory they are drawn for
    (``shapes``: element type and shape by argument name)."""
    total = 0
    for name, (element, shape) in shapes.items():
        if shape is None:
            continue
        if any(size < 0 for size in shape):
            given = ", ".join(f"%{n} = {v}" for n, v in scalars.items()) or "no scalars"
            raise KtcError(f"argument %{name} would have the shape {list(shape)} (with "
                           f"{given}); sizes must not be negative")
        total += prod(shape) * np.dtype(DTYPES[element]).itemsize
    if room is not None and total > room:
        raise KtcError(f"the random inputs would take {total} bytes, more than the device "
                       f"memory's {room}; give smaller sizes")
    if total > INPUT_LIMIT_BYTES:
        raise KtcError(f"the random inputs would take {total} bytes, more than the limit of "
                       f"{INPUT_LIMIT_BYTES} ({INPUT_LIMIT_BYTES >> 30} GiB); give smaller "
                       "sizes, or the arrays in --inputs")


def _package_shapes(signature: Signature,
                    scalars: dict[str, object]) -> dict[str, tuple[str, tuple[int, ...]]]:
    """Each pointer argument's element type and shape, with the scalars' values."""
    ints = [int(scalars[a.name]) if a.dtype in INTEGERS and not a.pointer else 0
            for a in signature.arguments]
    shapes = {}
    for argument in signature.arguments:
        if not argument.pointer:
            continue
        if argument.shape is None:
            raise KtcError(f"cannot tell the shape of argument %{argument.name} from the "
                           "package; give its array in --inputs")
        shapes[argument.name] = (argument.dtype,
                                 tuple(evaluate(dim, {"arg": ints}) for dim in argument.shape))
    return shapes


def _random_arrays(signature: Signature, scalars: dict[str, object],
                   given: dict[str, np.ndarray], seed: int, room: int | None = None) -> dict[str, np.ndarray]:
    """An array for every pointer argument of a package not ``given``: floats from
    N(0, 1), integers from [0, ``RANDOM_INDEX_BOUND``)."""
    shapes = {name: shape for name, shape in _package_shapes(signature, scalars).items()
              if name not in given}
    check_sizes(shapes, scalars, room)
    rng = np.random.default_rng(seed)
    return {name: _draw(element, shape, rng) for name, (element, shape) in shapes.items()}


def _draw(element: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Random values of ``element`` in storage form: floats from N(0, 1), integers from
    [0, ``RANDOM_INDEX_BOUND``) (i1 from [0, 2)); drawn ``IMAGE_CHUNK`` at a time, so
    that the host holds no more than the array's storage and a chunk."""
    out = np.empty(prod(shape), numerics.storage_dtype(element))
    for start in range(0, out.size, IMAGE_CHUNK):
        size = min(IMAGE_CHUNK, out.size - start)
        if element in numerics.FLOAT_TYPES:
            values = rng.standard_normal(size)
        else:
            values = rng.integers(0, 2 if element == "i1" else RANDOM_INDEX_BOUND, size)
        out[start:start + size] = numerics.to_storage(element, numerics.round_to(element, values))
    return out.reshape(shape)


# ---------------------------------------------------------------------------------------
# Files and output


def _show(scalars: dict[str, object], outputs: dict[str, np.ndarray], images: dict[str, _Image],
          elements: dict[str, str], drawn: dict[str, np.ndarray],
          given: dict[str, np.ndarray]) -> None:
    """Each scalar, and a summary of each array and region image after the run, with
    where its input came from."""
    for name, value in scalars.items():
        print(f"  %{name} = {value}")
    for name, array in outputs.items():
        origin = "drawn at random" if name in drawn else "given"
        print(f"  %{name}: {_summary(elements[name], [array], array.shape)} (after the run; "
              f"input {origin})")
    for name, image in images.items():
        region = image.region
        origin = ("drawn at random" if name in drawn else "given" if name in given
                  else "none, device memory's zeros: the kernel only writes it")
        summary = _summary(elements[name], (chunk for _, chunk in image.chunks()), (region.size,))
        print(f"  %{name} (device memory from element {region.start}): {summary} (after the "
              f"run; input {origin})")


def _save(path: str, outputs: dict[str, np.ndarray], images: dict[str, _Image]) -> None:
    """``out.npz``: every array and region image after the run."""
    arrays = {**outputs, **{name: image.whole() for name, image in images.items()}}
    write_atomically(path, lambda file: np.savez(file, **arrays))


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise KtcError(f"cannot read the kernel: {err.strerror}", path) from None


def _npz(path: str) -> dict[str, np.ndarray]:
    try:
        with open(path, "rb") as file:
            if file.read(4) != b"PK\x03\x04":
                raise KtcError("cannot read inputs: not an .npz archive (write one with "
                               "numpy.savez)", path)
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, BadZipFile) as err:
        detail = err.strerror if isinstance(err, OSError) and err.strerror else err
        raise KtcError(f"cannot read inputs: {detail}", path) from None


def _summary(element: str, chunks: Iterable[np.ndarray], shape: tuple[int, ...]) -> str:
    """``element[shape]`` and the least, largest and mean value of the elements, read
    from ``chunks`` one at a time."""
    low, high, total, count = np.inf, -np.inf, 0.0, 0
    with np.errstate(invalid="ignore", over="ignore"):
        for chunk in chunks:
            values = numerics.from_storage(element, chunk).astype(np.float64)
            if values.size:
                low, high = np.minimum(low, values.min()), np.maximum(high, values.max())
                total, count = total + values.sum(), count + values.size
    stats = f" min {low:.6g} max {high:.6g} mean {total / count:.6g}" if count else ""
    return f"{element}[{'x'.join(map(str, shape))}]{stats}"
