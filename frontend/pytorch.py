"""PyTorch on ktc: ``torch.compile(model, backend="ktc")``.

The backend takes the FX graph Dynamo captures, decomposed to core ATen by
``aot_autograd``, cuts it into kernels (``ktc.frontend.partition``), writes each as
KTIR (``ktc.frontend.ktir``), compiles it with the normal pipeline (``ktc.compile``)
and runs it on the simulator of the device (``ktc.Simulator(arch).prepare(pkg)``,
``.launch``) whenever the compiled program is called. What it cannot compile runs in
PyTorch: ops the front end does not lower, and ops whose KTIR ``ktc.compile`` refuses
(the compiler's diagnostic, located at the op's line of the KTIR, names the FX node;
that node, and every node of the same op and types in the graph, runs in PyTorch).

- ``compile(model_or_fn, arch="spyre", ktir_dir=None)``: ``torch.compile`` with this
  backend for the device ``arch``;
- ``explain(model_or_fn, *args, arch="spyre")``: compile and run once; the report of
  every graph (its kernels, their cycles, and each op that ran in PyTorch and why);
- ``reports()``: the report of every graph compiled in this process so far;
- ``backend``: the ``ktc`` entry of ``torch._dynamo``'s backends (``options={"arch":
  ..., "ktir_dir": ...}``).

Environment: ``KTC_TORCH_EXPLAIN=1`` prints each graph's report to standard error when it
is compiled; ``KTC_TORCH_KTIR_DIR=DIR`` writes each kernel's KTIR to ``DIR/<kernel>.mlir``.
"""

from __future__ import annotations

import functools
import heapq
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch._decomp import core_aten_decompositions
from torch._dynamo.backends.common import aot_autograd
from torch._functorch.aot_autograd import make_boxed_func
from torch.fx import GraphModule, Node
from torch.fx.node import map_arg

import ktc
from ktc.arch.model import Device
from ktc.errors import KtcError
from ktc.frontend import aten
from ktc.frontend.contraction import (
    attention_shape,
    causal_mask,
    emit_attention,
    emit_product,
    product_shape,
)
from ktc.frontend.kernel import Attention, Kernel, Product
from ktc.frontend.ktir import NUMPY, array_shape, emit
from ktc.frontend.partition import Cut, Partition, cut

EXPLAIN_ENV = "KTC_TORCH_EXPLAIN"
KTIR_DIR_ENV = "KTC_TORCH_KTIR_DIR"

_LOCATION = re.compile(r'loc\("([^"]+)"\(')

_REPORTS: list[GraphReport] = []


# ---------------------------------------------------------------------------------
# Reports
# ---------------------------------------------------------------------------------


@dataclass
class KernelReport:
    """One kernel of a graph: what it computes, its KTIR, its cycles at the last call."""

    name: str
    nodes: tuple[str, ...]
    """The FX nodes it computes, ``name (op)``."""

    ktir: str
    path: Path | None = None
    cycles: int | None = None


@dataclass(frozen=True)
class Fallback:
    """An FX node PyTorch runs, and why."""

    node: str
    op: str
    reason: str


@dataclass
class GraphReport:
    name: str
    arch: str
    kernels: list[KernelReport] = field(default_factory=list)
    fallbacks: list[Fallback] = field(default_factory=list)

    def __str__(self) -> str:
        lines = [f"graph {self.name} on {self.arch}: {len(self.kernels)} kernel(s), "
                 f"{len(self.fallbacks)} op(s) in PyTorch"]
        for kernel in self.kernels:
            cycles = "not run yet" if kernel.cycles is None else f"{kernel.cycles} cycles"
            where = f", {kernel.path}" if kernel.path else ""
            lines.append(f"  kernel {kernel.name} ({cycles}{where}): {', '.join(kernel.nodes)}")
        alike: dict[tuple[str, str], list[str]] = {}
        for fallback in self.fallbacks:
            alike.setdefault((fallback.op, fallback.reason), []).append(fallback.node)
        for (op, reason), nodes in alike.items():
            lines.append(f"  in PyTorch: {op} ({', '.join(nodes)}): {reason}")
        return "\n".join(lines)


@dataclass
class Explanation:
    """The reports of every graph a program was cut into."""

    graphs: list[GraphReport]

    @property
    def kernels(self) -> list[KernelReport]:
        return [k for g in self.graphs for k in g.kernels]

    @property
    def fallbacks(self) -> list[Fallback]:
        return [f for g in self.graphs for f in g.fallbacks]

    def __str__(self) -> str:
        return "\n".join(str(g) for g in self.graphs) or "no graph was compiled"


# ---------------------------------------------------------------------------------
# Kernels at run time
# ---------------------------------------------------------------------------------


class KernelCall:
    """A compiled kernel prepared on the simulator: tensors in, tensors out."""

    def __init__(self, cut: Cut, executable, report: KernelReport):
        self.cut, self.executable, self.report = cut, executable, report

    def __call__(self, *tensors: torch.Tensor) -> tuple[torch.Tensor, ...]:
        kernel = self.cut.kernel
        arrays = [t.detach().contiguous().cpu().numpy().reshape(shape_of(kernel, a))
                  for t, a in zip(tensors, kernel.inputs)]
        if isinstance(kernel, Attention) and kernel.mask is not None:
            arrays.append(causal_mask(kernel))
        outputs = [np.zeros(shape_of(kernel, a), NUMPY[a.dtype]) for a, _ in kernel.outputs]
        results = self.executable.launch(*arrays, *outputs)
        self.report.cycles = self.executable.report().cycles
        return tuple(torch.from_numpy(results[a.name]).reshape(aten.tensor_of(node).shape)
                     for (a, _), node in zip(kernel.outputs, self.cut.outputs))


def shape_of(kernel: Kernel | Product | Attention, array) -> tuple[int, ...]:
    """The shape of an argument of ``kernel`` in device memory."""
    if isinstance(kernel, Product):
        return product_shape(kernel, array)
    if isinstance(kernel, Attention):
        return attention_shape(kernel, array)
    return array_shape(kernel, array)


def ktir_of(kernel: Kernel | Product | Attention, device: Device, filename: str) -> str:
    """The KTIR text of ``kernel``."""
    if isinstance(kernel, Product):
        return emit_product(kernel, device, filename)
    if isinstance(kernel, Attention):
        return emit_attention(kernel, device, filename)
    return emit(kernel, device, filename)


# ---------------------------------------------------------------------------------
# Compiling a graph
# ---------------------------------------------------------------------------------


_WHOLE = (aten.ATTENTION, torch.ops.aten.scaled_dot_product_attention.default,
          torch.ops.aten._scaled_dot_product_attention_math.default)
_DECOMPOSITIONS = {op: f for op, f in core_aten_decompositions().items() if op not in _WHOLE}
"""Core ATen, but attention kept whole (``_scaled_dot_product_flash_attention_for_cpu``):
a kernel of its own, where its decomposition would compare and select."""


class Backend:
    """A ``torch.compile`` backend for one device; ``reports`` has every graph it compiled."""

    def __init__(self, arch: str = "spyre", ktir_dir: str | Path | None = None):
        self.arch = arch
        self.device = Device.load(arch)
        directory = ktir_dir or os.environ.get(KTIR_DIR_ENV)
        self.ktir_dir = Path(directory) if directory else None
        self.reports: list[GraphReport] = []
        self._aot = aot_autograd(fw_compiler=self.compile_graph, decompositions=_DECOMPOSITIONS)

    def __call__(self, gm: GraphModule, example_inputs, **_options):
        return self._aot(gm, example_inputs)

    def compile_graph(self, gm: GraphModule, example_inputs=None) -> Callable:
        """The program running ``gm`` (core ATen): kernels on the simulator, the rest in
        PyTorch."""
        report = GraphReport(f"graph{len(_REPORTS)}", self.device.name)
        self.reports.append(report)
        _REPORTS.append(report)
        calls, partition = self._kernels(gm, report)
        nodes = {n.name: n for n in gm.graph.nodes}
        report.fallbacks = [Fallback(node.name, aten.op_name(node), reason)
                            for node, reason in partition.refused.items() if node.name in nodes]
        report.fallbacks += [Fallback(node.name, f"{aten.op_name(node)} (part)", what)
                             for node, what in partition.host.items()]
        if os.environ.get(EXPLAIN_ENV):
            print(report, file=sys.stderr)
        return make_boxed_func(_Program(gm, calls))

    def _kernels(self, gm: GraphModule, report: GraphReport) -> tuple[list[KernelCall],
                                                                        Partition]:
        """Cut, write and compile until every kernel compiles: a node the compiler
        refuses (and every node of the same op and types) goes to PyTorch."""
        refused: dict[Node, str] = {}
        packages: dict[str, object] = {}
        simulator = ktc.Simulator(self.device)
        while True:
            partition = cut(gm.graph, report.name, refused)
            compiled, failed = [], False
            for piece in partition.cuts:
                filename = f"{piece.kernel.name}.mlir"
                text = ktir_of(piece.kernel, self.device, filename)
                try:
                    if text not in packages:
                        packages[text] = ktc.compile(text, arch=self.arch, filename=filename)
                except KtcError as error:
                    refused |= _blame(piece, text, error, gm)
                    failed = True
                    continue
                compiled.append((piece, text, packages[text]))
            if not failed:
                break
        calls = []
        for piece, text, package in compiled:
            kernel_report = KernelReport(
                piece.kernel.name, tuple(f"{n.name} ({aten.op_name(n)})" for n in piece.nodes
                                         if not aten.is_result(n)), text)
            if self.ktir_dir:
                self.ktir_dir.mkdir(parents=True, exist_ok=True)
                kernel_report.path = self.ktir_dir / f"{piece.kernel.name}.mlir"
                kernel_report.path.write_text(text)
            report.kernels.append(kernel_report)
            calls.append(KernelCall(piece, simulator.prepare(package), kernel_report))
        return calls, partition


def _blame(piece: Cut, text: str, error: KtcError, gm: GraphModule) -> dict[Node, str]:
    """The nodes to run in PyTorch for a compile error of ``piece``: the node the error
    locates and the graph's other nodes of its op and types, or every node of the
    kernel when the error points at none of them; for a product or attention, that
    node alone."""
    reason = f"ktc refused its KTIR: {error}"
    lines = text.splitlines()
    located = re.search(rf"{re.escape(piece.kernel.name)}\.mlir:(\d+):\d+", str(error))
    names = {n.name: n for n in piece.nodes if not aten.is_result(n)}
    if not isinstance(piece.kernel, Kernel):
        return {names[piece.kernel.node]: reason}
    if located and int(located.group(1)) <= len(lines):
        match = _LOCATION.search(lines[int(located.group(1)) - 1])
        culprit = names.get(match.group(1)) if match else None
        if culprit is not None:
            signature = _signature(culprit)
            return {n: reason for n in gm.graph.nodes
                    if n.op == "call_function" and _signature(n) == signature}
    return {n: reason for n in names.values()}


def _signature(node: Node) -> str:
    """An op with its arguments, each tensor written as its type."""
    def typed(arg: Node) -> str:
        tensor = aten.tensor_of(arg)
        return str(tensor.dtype) if tensor is not None else "?"
    return f"{node.target}{map_arg((node.args, node.kwargs), typed)}"


class _Program:
    """Runs a graph: its kernels through their ``KernelCall``, every other node in
    PyTorch, in an order that respects both."""

    def __init__(self, gm: GraphModule, calls: list[KernelCall]):
        self.gm = gm
        self.units = _schedule(gm, calls)

    def __call__(self, *args):
        env: dict[Node, object] = {}
        placeholders = iter(args)
        for unit in self.units:
            if isinstance(unit, KernelCall):
                results = unit(*(env[n] for n in unit.cut.inputs))
                env.update(zip(unit.cut.outputs, results))
            elif unit.op == "placeholder":
                env[unit] = next(placeholders)
            elif unit.op == "get_attr":
                env[unit] = functools.reduce(getattr, unit.target.split("."), self.gm)
            elif unit.op == "output":
                return map_arg(unit.args[0], env.__getitem__)
            else:
                args = map_arg(unit.args, env.__getitem__)
                kwargs = map_arg(unit.kwargs, env.__getitem__)
                env[unit] = unit.target(*args, **kwargs)
        raise RuntimeError("the graph has no output")


def _schedule(gm: GraphModule, calls: list[KernelCall]) -> list:
    """Kernels and the nodes PyTorch runs, dependencies first, otherwise in graph order.
    A view is run only where a node outside the kernels reads it, a fused comparison or
    scalar tensor (``aten.fused``) only where a node outside them reads it."""
    order = {node: i for i, node in enumerate(gm.graph.nodes)}
    kernel_of = {n: call for call in calls for n in call.cut.nodes}
    needed: set[Node] = set()

    def need(node: Node) -> None:
        if aten.is_alias(node) and node not in needed:
            needed.add(node)
            need(node.args[0])

    outside = [n for n in gm.graph.nodes if n not in kernel_of and not aten.is_alias(n)
               and not (aten.fused(n) and all(u in kernel_of for u in n.users))]
    for node in outside:
        for arg in node.all_input_nodes:
            need(arg)
    units = [*dict.fromkeys(kernel_of.values()), *outside, *needed]
    position = {id(u): min(order[n] for n in u.cut.nodes) if isinstance(u, KernelCall)
                else order[u] for u in units}

    def unit_of(node: Node):
        return kernel_of.get(node, node)

    def inputs(unit) -> list[Node]:
        if isinstance(unit, KernelCall):
            return list(unit.cut.inputs)
        return unit.all_input_nodes

    waiting = {id(u): {id(unit_of(n)) for n in inputs(u)} for u in units}
    users: dict[int, list] = {}
    for u in units:
        for dependency in waiting[id(u)]:
            users.setdefault(dependency, []).append(u)
    ready = [(position[id(u)], id(u), u) for u in units if not waiting[id(u)]]
    heapq.heapify(ready)
    scheduled = []
    while ready:
        _, key, unit = heapq.heappop(ready)
        scheduled.append(unit)
        for user in users.get(key, []):
            waiting[id(user)].discard(key)
            if not waiting[id(user)]:
                heapq.heappush(ready, (position[id(user)], id(user), user))
    if len(scheduled) != len(units):
        raise RuntimeError("the kernels of the graph depend on each other in a cycle")
    return scheduled


# ---------------------------------------------------------------------------------
# The public entry points
# ---------------------------------------------------------------------------------


def backend(gm: GraphModule, example_inputs, options: dict | None = None):
    """The ``ktc`` backend of ``torch.compile`` (``options``: ``arch``, ``ktir_dir``)."""
    options = options or {}
    return Backend(options.get("arch", "spyre"), options.get("ktir_dir"))(gm, example_inputs)


def reports() -> list[GraphReport]:
    """The report of every graph the ``ktc`` backend compiled in this process, oldest first."""
    return list(_REPORTS)


def compile(model_or_fn, arch: str = "spyre", ktir_dir: str | Path | None = None):
    """``model_or_fn`` compiled for device ``arch`` (static shapes); the KTIR of each
    kernel is written to ``ktir_dir`` when given."""
    return torch.compile(model_or_fn, backend=Backend(arch, ktir_dir), dynamic=False)


def explain(model_or_fn, *args, arch: str = "spyre", ktir_dir: str | Path | None = None,
            **kwargs) -> Explanation:
    """Compile ``model_or_fn`` for ``arch``, call it once on ``args``, and report every
    graph: its kernels and their cycles, and each op PyTorch ran with the reason."""
    compiler = Backend(arch, ktir_dir)
    torch.compile(model_or_fn, backend=compiler, dynamic=False)(*args, **kwargs)
    return Explanation(compiler.reports)
