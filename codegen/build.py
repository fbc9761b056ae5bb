"""A lowered module's package: its dataflows assembled, its plans laid out.

``build(module, kernel, signature)`` takes a DataflowIR module (the device declared,
the kernel function ``kernel`` its orchestrator), assembles each ``dfir.dataflow``
and returns the package: a prepare plan that loads every dataflow, and the launch
plan the host code describes (``ktc.codegen.symbols``). A dataflow whose every launch
binds its parameters to the same constants has constant symbols; the compiler folds
them here, writing their values into its code, so a kernel whose addresses and shapes
are all static needs no ComputeOnHost step.
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from ktc import __version__
from ktc.arch.model import device_of
from ktc.codegen.assemble import assemble
from ktc.codegen.binary import DataflowBinary, relocated
from ktc.codegen.package import Dataflow, Package
from ktc.codegen.plan import (
    ComputeOnHost,
    DataTransfer,
    InitTransfer,
    Loop,
    Step,
    evaluate,
    leaves,
)
from ktc.codegen.signature import Signature
from ktc.codegen.symbols import launch_sequence


def build(module: ModuleOp, kernel: FuncOp, kernel_signature: Signature) -> Package:
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
