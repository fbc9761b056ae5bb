"""A package as text for people (``ktc inspect``): manifest, signature, symbol tables,
plans and the disassembly of every engine program."""

from __future__ import annotations

from ktc.codegen.disasm import disassemble_dataflow
from ktc.codegen.package import FORMAT_VERSION, Package
from ktc.codegen.plan import (
    Allocate,
    ComputeOnHost,
    Expr,
    Loop,
    Step,
    render,
)
from ktc.codegen.signature import Argument


def describe(package: Package) -> str:
    sig = package.signature
    names = [a.name for a in sig.arguments]
    lines = [
        f"package: format {FORMAT_VERSION}, compiled by {package.compiler}",
        f"arch: {package.arch_name} (sha256 {package.arch_hash}), "
        f"arguments in {package.device_memory}",
        f"kernel: @{sig.kernel}, grid [{', '.join(map(str, sig.grid))}]",
        "arguments:",
        *(f"  {_argument(a, names)}" for a in sig.arguments),
    ]
    for index, dataflow in enumerate(package.dataflows):
        binary = dataflow.binary
        lines.append(f"dataflow {index} \"{binary.name}\": {len(binary.units)} units, "
                     f"{len(binary.engines)} engine programs")
        lines.append(f"  parameters: {', '.join(dataflow.params) or 'none'}")
        lines += [f"  symbol {s.id} @{s.name} = {render(s.expr, _param(dataflow.params))}"
                  for s in dataflow.symbols]
    lines.append("prepare plan:")
    lines += _steps(package.prepare, package, names, 1)
    lines.append("launch plan:")
    lines += _steps(package.launch, package, names, 1)
    for index, dataflow in enumerate(package.dataflows):
        lines.append(f"disassembly of dataflow {index} \"{dataflow.binary.name}\":")
        symbols = {s.id: s.name for s in dataflow.symbols}
        lines.append(disassemble_dataflow(dataflow.binary, symbols).rstrip("\n"))
    return "\n".join(lines) + "\n"


def _param(params: tuple[str, ...]):
    return lambda kind, n: params[n]


def _argument(argument: Argument, names: list[str]) -> str:
    if not argument.pointer:
        return f"%{argument.name}: scalar {argument.dtype}"
    shape = "any shape" if argument.shape is None else \
        "shape (" + ", ".join(_expr(d, names) for d in argument.shape) + ")"
    return f"%{argument.name}: pointer to {argument.dtype}, {shape}"


def _expr(expr: Expr, names: list[str]) -> str:
    """Kernel arguments as ``%name``, loop variables as ``loopK``, allocations as ``allocK``."""
    return render(expr, lambda kind, n: f"%{names[n]}" if kind == "arg" else f"{kind}{n}")


def _steps(steps: tuple[Step, ...], package: Package, names: list[str], depth: int) -> list[str]:
    pad = "  " * depth
    lines = []
    for step in steps:
        kind = type(step).__name__
        if isinstance(step, Allocate):
            lines.append(f"{pad}{kind} {step.size} bytes of {step.memory}, "
                         f"aligned to {step.alignment}")
        elif isinstance(step, Loop):
            bounds = (_expr(e, names) for e in (step.lower, step.upper, step.step))
            lines.append(f"{pad}Loop loop{step.var} from {next(bounds)} to {next(bounds)} "
                         f"step {next(bounds)}")
            lines += _steps(step.body, package, names, depth + 1)
        elif isinstance(step, ComputeOnHost):
            params = package.dataflows[step.dataflow].params
            binding = ", ".join(f"{p} = {_expr(a, names)}" for p, a in zip(params, step.args))
            lines.append(f"{pad}{kind} dataflow {step.dataflow} ({binding})")
        else:
            lines.append(f"{pad}{kind} dataflow {step.dataflow}")
    return lines

