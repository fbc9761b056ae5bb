"""``ktc run``: run a KTIR kernel and keep its outputs.

``ktc run KERNEL.mlir --reference [--arch NAME|FILE] [--inputs in.npz] [--arg NAME=VALUE ...]
[--save-outputs out.npz] [--seed N]`` executes the kernel on the reference interpreter
(``ktc.sim.reference``). Arrays for pointer arguments come from ``in.npz`` (keyed by the
argument's name without ``%``); those it lacks are drawn at random with the seed.
Scalar arguments come from ``--arg`` (read by the argument's type: ``N=4096``,
``eps=1e-5``, ``mask=0xFF``) or from 0-d entries of ``in.npz``. ``out.npz`` holds every
pointer argument's array after the run. A summary of each array goes to stdout.
"""

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import IndexType, IntegerType

from ktc.dialects.diagnostics import KtcError
from ktc.dialects.ktdp import RuntimeArgType
from ktc.sim import numerics
from ktc.sim.reference import Kernel, Parameter, random_inputs
from ktc.sim.reference_compute import type_name


def add_run_parser(subparsers) -> argparse.ArgumentParser:
    """The ``run`` subcommand, added to ``ktc``'s subparsers."""
    description = "run a KTIR kernel on the reference interpreter (the golden model)"
    parser = subparsers.add_parser("run", help=description, description=description)
    parser.add_argument("kernel", metavar="KERNEL.mlir", help="the KTIR kernel")
    parser.add_argument(
        "--reference",
        action="store_true",
        help="run on the reference interpreter (the only target so far)",
    )
    parser.add_argument("--arch", metavar="NAME|FILE", help="the device (default: spyre)")
    parser.add_argument(
        "--function", metavar="NAME", help="the function to run, when there are several"
    )
    parser.add_argument("--inputs", metavar="IN.npz", help="arrays (and scalars) by argument name")
    parser.add_argument(
        "--arg",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a scalar argument, read by its type (repeatable)",
    )
    parser.add_argument(
        "--save-outputs",
        metavar="OUT.npz",
        help="write every pointer argument's array after the run",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the random inputs (default: 0)"
    )
    return parser


def run_command(args: argparse.Namespace) -> int:
    if not args.reference:
        raise KtcError(
            "running a compiled package on the simulator is not available yet; "
            "pass --reference to run the kernel on the reference interpreter"
        )
    kernel = Kernel.from_text(_read(args.kernel), args.kernel, args.function)
    given = _npz(args.inputs) if args.inputs else {}
    by_name = {p.name: p for p in kernel.parameters}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        raise KtcError(f"{args.inputs}: @{kernel.name} has no argument %{unknown[0]}")
    scalars = {
        name: value.item()
        for name, value in given.items()
        if not by_name[name].pointer and value.ndim == 0
    }
    scalars.update(_scalar_args(args.arg, by_name))
    missing = [p.name for p in kernel.parameters if not p.pointer and p.name not in scalars]
    if missing:
        raise KtcError(f"no value for scalar argument %{missing[0]}; pass --arg {missing[0]}=VALUE")
    arrays = {name: value for name, value in given.items() if by_name[name].pointer}
    drawn = random_inputs(kernel, scalars, arrays, args.seed)
    started = time.perf_counter()
    execution = kernel.execute({**scalars, **arrays, **drawn}, arch=args.arch)
    seconds = time.perf_counter() - started
    cores = "core" if kernel.tiles == 1 else "cores"
    print(f"@{kernel.name}: {kernel.tiles} {cores} on {args.arch or 'spyre'}, {seconds:.3f} s")
    for name, value in scalars.items():
        print(f"  %{name} = {value}")
    for parameter in kernel.parameters:
        if parameter.pointer:
            origin = "random" if parameter.name in drawn else "given"
            summary = _summary(parameter, execution.outputs[parameter.name])
            print(f"  %{parameter.name}: {summary} ({origin} input)")
    if args.save_outputs:
        _save(args.save_outputs, execution.outputs)
    return 0


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError as err:
        raise KtcError(f"cannot read the kernel: {err.strerror}", path) from None


def _npz(path: str) -> dict[str, np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
    except (OSError, ValueError) as err:
        raise KtcError(f"cannot read inputs: {err}", path) from None


def _scalar_args(texts: list[str], by_name: dict[str, Parameter]) -> dict[str, object]:
    values = {}
    for text in texts:
        name, equals, value = text.partition("=")
        name = name.removeprefix("%")
        if not equals or name not in by_name:
            known = ", ".join(p for p in by_name if not by_name[p].pointer) or "none"
            raise KtcError(
                f"--arg {text}: expected NAME=VALUE with NAME a scalar argument ({known})"
            )
        parameter = by_name[name]
        if parameter.pointer:
            raise KtcError(f"--arg {text}: %{name} is a pointer; give its array in --inputs")
        values[name] = _parse(value, parameter, text)
    return values


def _parse(text: str, parameter: Parameter, whole: str):
    """A scalar argument's value read by its type (a runtime_arg by its underlying type)."""
    kind = (
        parameter.type.value_type if isinstance(parameter.type, RuntimeArgType) else parameter.type
    )
    try:
        if isinstance(kind, IndexType | IntegerType):
            return int(text, 0)
        return float(text)
    except ValueError:
        raise KtcError(f"--arg {whole}: '{text}' is not a value of type {kind}") from None


def _summary(parameter: Parameter, array: np.ndarray) -> str:
    element = parameter.element
    values = numerics.from_storage(element, array).astype(np.float64)
    shape = "x".join(map(str, array.shape))
    stats = ""
    if values.size:
        stats = f" min {values.min():.6g} max {values.max():.6g} mean {values.mean():.6g}"
    return f"{type_name(parameter.views[0].result.type)}[{shape}]{stats}"


def _save(path: str, outputs: dict[str, np.ndarray]) -> None:
    """Write ``out.npz`` whole or not at all."""
    target = Path(path)
    temporary = None
    try:
        with tempfile.NamedTemporaryFile(dir=target.parent, suffix=".npz", delete=False) as file:
            temporary = file.name
            np.savez(file, **outputs)
        os.replace(temporary, target)
    except OSError as err:
        if temporary is not None and os.path.exists(temporary):
            os.unlink(temporary)
        raise KtcError(f"cannot write outputs: {err.strerror}", path) from None
