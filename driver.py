"""The compiler driver: KTIR text in, a package out.

``compile(text, arch)`` wires the compiler together: it parses and verifies the
kernel, declares the device, reads the kernel signature from the KTIR, runs the
``ktir-to-dfir`` pipeline (skipped when the input is DataflowIR already) and hands
the lowered module to codegen (``ktc.codegen.build``), which assembles it into a
package.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.passes import PassPipeline

from ktc.arch import attach_device
from ktc.codegen.build import build
from ktc.codegen.package import Package
from ktc.codegen.signature import signature
from ktc.dialects import context
from ktc.dialects.dfir import DataflowOp
from ktc.dialects.ktdf import ReserveSizeOp
from ktc.dialects.source import parse_module, verify_module
from ktc.errors import KtcError
from ktc.passes import all_passes
from ktc.passes.pipeline import apply_verified, expand
from ktc.passes.tile_size_selection import TileSizeSelection

PIPELINE = "ktir-to-dfir"
UNOPTIMIZED_PIPELINE = "ktir-to-dfir-unoptimized"
OPTIONAL_PASSES = ("double-buffering", "parallelize-loops-across-instances")
"""Passes of ``ktir-to-dfir`` a schedule may leave out (one buffer per stage instead of
two; the sub-cores of a core not splitting the loops)."""


@dataclass(frozen=True)
class Schedule:
    """A point of the schedule space the passes expose: the tile sizes (every
    ``reserve_size`` of the module in program order; empty for the cost model's) and the
    optional passes left out."""

    sizes: tuple[int, ...] = ()
    skip: tuple[str, ...] = ()


def compile(text: str, arch: str, filename: str = "<input>",
            function: str | None = None, optimize: bool = True,
            schedule: Schedule | None = None) -> Package:
    """The package of the kernel in ``text`` for device ``arch`` (a name or a file).

    ``function`` names the kernel when the input has several functions with a body.
    ``optimize=False`` builds the naive baseline the benchmarks compare against (one
    tile at a time, no overlap between loading, computing and storing): the
    ``ktir-to-dfir-unoptimized`` pipeline with the smallest tile sizes; ``schedule``
    gives the full pipeline's tile sizes and leaves out passes (``ktc tune``).
    """
    ctx = context()
    module = parse_module(text, filename, ctx)
    verify_module(module)
    attach_device(module, arch)
    kernel = find_kernel(module, function, filename)
    drop_other_kernels(module, kernel)
    kernel_signature = signature(kernel)
    if not any(isinstance(op, DataflowOp) for op in module.walk()):
        lower(module, ctx, optimize, schedule)
        kernel = find_kernel(module, kernel_signature.kernel, filename)
    return build(module, kernel, kernel_signature)


def find_kernel(module: ModuleOp, name: str | None, filename: str = "") -> FuncOp:
    """The function with a body named ``name`` (the first, in a lowered module where a
    program function may share it); without a name, the only function with a body that
    no other calls."""
    functions = [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]
    if name is not None:
        functions = [f for f in functions if f.sym_name.data == name][:1]
    else:
        called = {op.callee.root_reference.data for op in module.walk() if isinstance(op, CallOp)}
        functions = [f for f in functions if f.sym_name.data not in called]
    if len(functions) != 1:
        named = f"named @{name} " if name else ""
        listing = ", ".join(f"@{f.sym_name.data}" for f in functions)
        raise KtcError(f"expected one kernel function {named}with a body, found "
                       f"{len(functions)}{': ' + listing if listing else ''}", filename)
    return functions[0]


def drop_other_kernels(module: ModuleOp, kernel: FuncOp) -> None:
    """Erase the functions with a body that ``kernel`` does not call (directly or
    through others): a file of several kernels compiles the one chosen, and only that
    one is checked and lowered."""
    bodies = {op.sym_name.data: op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks}
    kept, todo = {kernel.sym_name.data}, [kernel]
    while todo:
        for op in todo.pop().walk():
            callee = op.callee.root_reference.data if isinstance(op, CallOp) else None
            if callee in bodies and callee not in kept:
                kept.add(callee)
                todo.append(bodies[callee])
    for name, function in bodies.items():
        if name not in kept:
            function.detach()
            function.erase()


def lower(module: ModuleOp, ctx, optimize: bool = True, schedule: Schedule | None = None) -> None:
    """Run ``ktir-to-dfir`` (or, without ``optimize``, ``ktir-to-dfir-unoptimized``
    with the smallest tile sizes) on ``module``, verifying after every pass; with a
    ``schedule``, its tile sizes and without the passes it leaves out."""
    available = all_passes()
    name = PIPELINE if optimize else UNOPTIMIZED_PIPELINE
    schedule = schedule or Schedule()
    try:
        pipeline = PassPipeline.parse_spec(available, expand(name))
    except (ValueError, KeyError) as err:
        raise KtcError(f"the {name} pipeline cannot be built: {err}") from None
    for module_pass in pipeline.passes:
        if module_pass.name in schedule.skip:
            continue
        if isinstance(module_pass, TileSizeSelection):
            if not optimize:
                module_pass = TileSizeSelection(sizes=_smallest_tile_sizes(module))
            elif schedule.sizes:
                module_pass = TileSizeSelection(sizes=schedule.sizes)
        apply_verified(module_pass, ctx, module)


def _smallest_tile_sizes(module: ModuleOp) -> tuple[int, ...]:
    """The smallest size each ``reserve_size`` of ``module`` allows, in program order."""
    reserves = [op for op in module.walk() if isinstance(op, ReserveSizeOp)]
    steps = [(r.min_value.value.data, r.divisibility.value.data) for r in reserves]
    return tuple(-(-least // step) * step for least, step in steps)
