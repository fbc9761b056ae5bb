"""The compiler driver: KTIR text in, a package out.

``compile(text, arch)`` parses and verifies the kernel, declares the device, reads the
kernel signature from the KTIR, runs the ``ktir-to-dfir`` pipeline (skipped when the
input is DataflowIR already), assembles each ``dfir.dataflow`` and builds the package:
a prepare plan that loads every dataflow, and the launch plan the host code describes.
A dataflow whose every launch binds its parameters to the same constants has constant
symbols; they are written into its code here, so a kernel whose addresses and shapes
are all static needs no ComputeOnHost step.
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.passes import PassPipeline
from xdsl.transforms import get_all_passes
from xdsl.utils.exceptions import DiagnosticException, PassFailedException

from ktc import __version__
from ktc.arch import attach_device
from ktc.arch.model import device_of
from ktc.codegen.assemble import assemble
from ktc.codegen.binary import DataflowBinary, relocated
from ktc.codegen.package import Dataflow, Package
from ktc.codegen.plan import ComputeOnHost, DataTransfer, InitTransfer, Loop, Step, leaves
from ktc.codegen.signature import signature
from ktc.codegen.symbols import launch_sequence
from ktc.dialects import context
from ktc.dialects.dfir import DataflowOp
from ktc.dialects.ktdf import ReserveSizeOp
from ktc.dialects.diagnostics import KtcError
from ktc.dialects.source import parse_module, verify_module
from ktc.passes import pass_factories
from ktc.passes.pipeline import expand
from ktc.passes.tile_size_selection import TileSizeSelection
from ktc.runtime.symbols import evaluate

PIPELINE = "ktir-to-dfir"
UNOPTIMIZED_PIPELINE = "ktir-to-dfir-unoptimized"


def compile(text: str, arch: str, filename: str = "<input>",
            function: str | None = None, optimize: bool = True) -> Package:
    """The package of the kernel in ``text`` for device ``arch`` (a name or a file).

    ``function`` names the kernel when the input has several functions with a body.
    ``optimize=False`` builds the baseline the benchmarks compare against: the
    ``ktir-to-dfir-unoptimized`` pipeline with the smallest tile sizes.
    """
    ctx = context()
    module = parse_module(text, filename, ctx)
    verify_module(module)
    attach_device(module, arch)
    kernel = find_kernel(module, function, filename)
    kernel_signature = signature(kernel)
    if not any(isinstance(op, DataflowOp) for op in module.walk()):
        lower(module, ctx, optimize)
        kernel = find_kernel(module, kernel_signature.kernel, filename)
    return package(module, kernel, kernel_signature)


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


def lower(module: ModuleOp, ctx, optimize: bool = True) -> None:
    """Run ``ktir-to-dfir`` (or, without ``optimize``, ``ktir-to-dfir-unoptimized``
    with the smallest tile sizes) on ``module``, verifying after every pass."""
    available = get_all_passes() | pass_factories()
    name = PIPELINE if optimize else UNOPTIMIZED_PIPELINE
    try:
        pipeline = PassPipeline.parse_spec(available, expand(name))
    except (ValueError, KeyError) as err:
        raise KtcError(f"the {name} pipeline cannot be built: {err}") from None
    for module_pass in pipeline.passes:
        if not optimize and isinstance(module_pass, TileSizeSelection):
            module_pass = TileSizeSelection(sizes=_smallest_tile_sizes(module))
        try:
            module_pass.apply(ctx, module)
        except (DiagnosticException, PassFailedException) as err:
            raise KtcError(str(err).strip(), f"pass {module_pass.name}") from None
        verify_module(module)


def _smallest_tile_sizes(module: ModuleOp) -> tuple[int, ...]:
    """The smallest size each ``reserve_size`` of ``module`` allows, in program order."""
    reserves = [op for op in module.walk() if isinstance(op, ReserveSizeOp)]
    steps = [(r.min_value.value.data, r.divisibility.value.data) for r in reserves]
    return tuple(-(-least // step) * step for least, step in steps)


def package(module: ModuleOp, kernel: FuncOp, kernel_signature) -> Package:
    """The package of a DataflowIR module whose kernel function is ``kernel``."""
    device = device_of(module)
    sequence = launch_sequence(module, kernel)
    dataflows, launch = [], sequence.steps
    for index, found in enumerate(sequence.dataflows):
        binary = assemble(found.op, found.name)
        params = _static_params(index, launch)
        if params is None:
            dataflows.append(Dataflow(binary, found.params, found.symbols))
            continue
        values = {s.id: evaluate(s.expr, {"param": params}) for s in found.symbols}
        dataflows.append(Dataflow(_resolved(binary, values), (), ()))
        launch = _without_host_steps(index, launch)
    return Package(
        compiler=f"ktc {__version__}",
        arch_name=device.name,
        arch_hash=device.content_hash,
        device_memory=device.device_memory,
        signature=kernel_signature,
        dataflows=tuple(dataflows),
        prepare=tuple(InitTransfer(d) for d in range(len(dataflows))),
        launch=launch,
    )


def _host_steps(index: int, steps: tuple[Step, ...]) -> list[ComputeOnHost]:
    found = []
    for step in steps:
        if isinstance(step, Loop):
            found += _host_steps(index, step.body)
        elif isinstance(step, ComputeOnHost) and step.dataflow == index:
            found.append(step)
    return found


def _static_params(index: int, steps: tuple[Step, ...]) -> tuple[int, ...] | None:
    """The parameter values of dataflow ``index`` if every launch binds the same
    constants (none if it has no parameters), else None."""
    bindings = {step.args for step in _host_steps(index, steps)}
    if len(bindings) > 1:
        return None
    args = bindings.pop() if bindings else ()
    if any(leaves(arg) for arg in args):
        return None
    return tuple(evaluate(arg, {}) for arg in args)


def _without_host_steps(index: int, steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """``steps`` without the ComputeOnHost and DataTransfer steps of dataflow ``index``."""
    kept = []
    for step in steps:
        if isinstance(step, Loop):
            kept.append(replace(step, body=_without_host_steps(index, step.body)))
        elif not (isinstance(step, ComputeOnHost | DataTransfer) and step.dataflow == index):
            kept.append(step)
    return tuple(kept)


def _resolved(binary: DataflowBinary, values: dict[int, int]) -> DataflowBinary:
    """``binary`` with constant symbols written into its code and no relocations left."""
    engines = tuple(replace(engine, code=relocated(engine, values), relocations=())
                    for engine in binary.engines)
    return replace(binary, engines=engines)
