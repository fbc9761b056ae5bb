"""Cutting an FX graph (core ATen) into kernels and the ops PyTorch runs.

Each matrix product (``mm``, ``addmm``, ``bmm``) and each attention the front end
compiles is a kernel of its own (``Product``, ``Attention``): with it go the
transposes it reads through when nothing else reads them, and for a product the chain
of its one readers its epilogue takes (a scale by a number, a sum with a tensor made
before it). The rest is cut into row-wise kernels.

Nodes are visited in graph order. A computation (``ktc.frontend.aten``) joins the
kernel of one of its operands, or of a node reading the same input, when it fits the
kernel's matrix (``rows x cols``) and the layouts its operands need are the layouts
those values have there; two kernels it reads from merge through it when they share
the matrix. A join or merge that would let a kernel depend on itself through a node
outside it (a cycle) is not made. A computation that fits no kernel starts one.

Aliases (views) are read through: a kernel reads the data under a view, and a view of
a kernel's value outside it is a view of the kernel's output. What is neither an
alias nor a computation, and every node in ``refused``, runs in PyTorch.

``cut`` returns the kernel descriptions (``ktc.frontend.kernel``) with, for each,
the FX nodes its input and output arrays stand for. A kernel none of whose values is
used outside it computes nothing that is needed and is left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from torch.fx import Graph, Node

from ktc.frontend import aten
from ktc.frontend.aten import root
from ktc.frontend.kernel import COL, FULL, ROW, Array, Attention, Kernel, Product, Step

_LAYOUT_OF = {aten.SAME: FULL, ROW: ROW, COL: COL}


@dataclass(eq=False)
class _Group:
    """A kernel being built: its matrix, its nodes, the layout of each value."""

    rows: int
    cols: int
    nodes: list[Node] = field(default_factory=list)
    layouts: dict[Node, str] = field(default_factory=dict)
    """The layout of each value node (a computation of one result, or a getitem)."""

    results: dict[Node, tuple[str, ...]] = field(default_factory=dict)
    """The layouts of the results of a computation of several (``native_layer_norm``)."""

    needs: dict[Node, dict[Node, str]] = field(default_factory=dict)
    """Per node, the layout each of its operands (read through views) has here."""

    def size(self, layout: str) -> int:
        return {FULL: self.rows * self.cols, ROW: self.rows, COL: self.cols}[layout]

    def normal(self, layout: str) -> str:
        """A layout as this matrix holds it: one row is all ``FULL``; one column too."""
        if (layout == COL and self.rows == 1) or (layout == ROW and self.cols == 1):
            return FULL
        return layout


@dataclass(frozen=True)
class Cut:
    """A kernel and the FX nodes its arrays stand for."""

    kernel: Kernel | Product | Attention
    inputs: tuple[Node, ...]
    """Per input array, the node whose value it holds (read through views)."""

    outputs: tuple[Node, ...]
    nodes: tuple[Node, ...]
    """The nodes the kernel computes, in graph order."""


@dataclass(frozen=True)
class Partition:
    cuts: tuple[Cut, ...]
    refused: dict[Node, str]
    """Every computation-like node PyTorch runs, with the reason."""

    host: dict[Node, str] = field(default_factory=dict)
    """Nodes of kernels part of which the front end computes on the host, and what."""


def cut(graph: Graph, name: str, refused: dict[Node, str]) -> Partition:
    """Kernels of ``graph``, each named ``<name>_<its first node>``; the nodes of
    ``refused`` and every node the front end cannot compute run in PyTorch."""
    state = _State(graph)
    reasons: dict[Node, str] = {}
    products = _contractions(graph, name, refused)
    taken = {n for c in products for n in c.nodes}
    for node in graph.nodes:
        if node.op != "call_function" or aten.is_alias(node) or aten.fused(node) or node in taken:
            continue
        if aten.is_result(node):
            state.place_result(node)
            continue
        reason = refused.get(node) or aten.refusal(node)
        if reason is None:
            reason = state.place(node)
        if reason is not None:
            reasons[node] = reason
    groups = dict.fromkeys(state.group_of.values())
    cuts = tuple(_kernel(g, f"{name}_{g.nodes[0].name}", state) for g in groups)
    host = {n: CAUSAL_MASK for c in products if isinstance(c.kernel, Attention)
            and c.kernel.mask is not None for n in c.nodes if n.name == c.kernel.node}
    return Partition(tuple(products) + tuple(c for c in cuts if c.outputs), reasons, host)


CAUSAL_MASK = ("its causal mask (0 where a key comes at or before the query, -inf after it) "
               "is made on the host and added to the scores in the kernel: the front end does not "
               "yet write it as a compare and select of positions in the kernel")


def _contractions(graph: Graph, name: str, refused: dict[Node, str]) -> list[Cut]:
    """A kernel for each product and attention the front end compiles; a transpose
    read only by such products belongs to the first of them."""
    cuts: list[Cut] = []
    readers: dict[Node, list[int]] = {}
    order = {node: i for i, node in enumerate(graph.nodes)}
    for node in graph.nodes:
        if node.op != "call_function" or node in refused or aten.refusal(node) is not None:
            continue
        if node.target in aten.PRODUCTS:
            form, fused = _epilogue(node, aten.product_form(node), order, refused)
            through = () if form.transpose is None else (form.transpose,)
            cuts.append(_product(node, form, fused, f"{name}_{node.name}"))
        elif node.target is aten.ATTENTION:
            form = aten.attention_form(node)
            through = form.moved
            cuts.append(_attention(form, f"{name}_{node.name}"))
        else:
            continue
        for read in through:
            readers.setdefault(read, []).append(len(cuts) - 1)
    for read, reading in readers.items():
        if _users(read) <= {n for i in reading for n in cuts[i].nodes}:
            first = cuts[reading[0]]
            cuts[reading[0]] = Cut(first.kernel, first.inputs, first.outputs, tuple(
                sorted((*first.nodes, read), key=order.__getitem__)))
    return cuts


def _users(node: Node) -> set[Node]:
    """The nodes reading ``node``'s data, through views."""
    found: set[Node] = set()
    for user in node.users:
        found |= _users(user) if aten.is_alias(user) else {user}
    return found


def _epilogue(node: Node, form: aten.ProductForm, order: dict[Node, int],
              refused: dict[Node, str]) -> tuple[aten.ProductForm, tuple[Node, ...]]:
    """The product's form with the chain of its one readers its epilogue takes
    (``aten.epilogue``), and those readers."""
    fused: list[Node] = []
    value = node
    while len(_users(value)) == 1:
        (user,) = _users(value)
        folded = None if user in refused else \
            aten.epilogue(form, value, user, lambda n: order[n] < order[node])
        if folded is None:
            break
        form, value = folded, user
        fused.append(user)
    return form, tuple(fused)


def _product(node: Node, form: aten.ProductForm, fused: tuple[Node, ...], name: str) -> Cut:
    dtype = aten.DTYPES[aten.tensor_of(node).dtype]
    bias = None if form.bias is None else Array("bias", COL if form.bias_per_column else FULL,
                                                dtype)
    product = Product(name, form.batch, form.m, form.n, form.k, Array("lhs", FULL, dtype),
                      Array("rhs", FULL, dtype), Array("out", FULL, dtype), node.name,
                      transposed=form.transpose is not None, bias=bias, alpha=form.alpha,
                      beta=form.beta)
    inputs = (form.lhs, form.rhs) + ((form.bias,) if form.bias is not None else ())
    return Cut(product, inputs, (fused[-1] if fused else node,), (node, *fused))


def _attention(form: aten.AttentionForm, name: str) -> Cut:
    node = form.nodes[0]
    dtype = aten.DTYPES[aten.tensor_of(form.result).dtype]
    arrays = {role: Array(role, FULL, dtype) for role in ("q", "k", "v", "out", "mask")}
    attention = Attention(name, form.batch, form.heads, form.queries, form.keys, form.dim,
                          form.value_dim, form.scale, arrays["q"], arrays["k"], arrays["v"],
                          arrays["out"], node.name, mask=arrays["mask"] if form.causal else None,
                          tokens_first=form.tokens_first)
    return Cut(attention, (form.q, form.k, form.v), (form.result,), form.nodes)


class _State:
    def __init__(self, graph: Graph):
        self.order = {node: i for i, node in enumerate(graph.nodes)}
        self.users: dict[Node, set[Node]] = {node: set() for node in graph.nodes}
        for node in graph.nodes:
            if not aten.is_alias(node):
                for arg in aten.inputs_of(node):
                    self.users[root(arg)].add(node)
        self.group_of: dict[Node, _Group] = {}

    def place_result(self, node: Node) -> None:
        source, index = node.args
        group = self.group_of.get(source)
        if group is not None:
            group.nodes.append(node)
            group.layouts[node] = group.results[source][index]
            self.group_of[node] = group

    def place(self, node: Node) -> str | None:
        """Put a computation into a kernel; a reason if it fits none."""
        form = aten.form_of(node)
        operands = [root(arg) for arg, _ in form.operands]
        producers = [self.group_of[o] for o in operands if o in self.group_of]
        siblings = [self.group_of[u] for o in operands for u in self.users[o]
                    if u in self.group_of and u is not node]
        candidates = list(dict.fromkeys(producers + siblings))
        for groups in ([list(dict.fromkeys(producers))] if len(set(producers)) > 1 else []) + \
                [[g] for g in candidates]:
            if self._join(node, form, groups):
                return None
        group = _new_group(form)
        if group is None:
            return f"over shape {form.frame}: fits no kernel matrix"
        if not self._join(node, form, [group]):
            return f"does not fit a kernel of its own shape {form.frame}"
        return None

    def _join(self, node: Node, form: aten.Form, groups: list[_Group]) -> bool:
        first = groups[0]
        if any((g.rows, g.cols) != (first.rows, first.cols) for g in groups):
            return False
        merged = _Group(first.rows, first.cols)
        for g in groups:
            merged.nodes += g.nodes
            merged.layouts |= g.layouts
            merged.results |= g.results
            merged.needs |= g.needs
        needs, results = _fit(form, merged)
        if needs is None:
            return False
        for operand, layout in needs.items():
            if operand in merged.layouts and merged.layouts[operand] != layout:
                return False
            if operand in merged.results:
                return False
        members = set(merged.nodes) | {node}
        if self._cyclic(members, self.order[node]):
            return False
        merged.nodes.append(node)
        merged.needs[node] = needs
        if len(results) == 1:
            merged.layouts[node] = results[0]
        else:
            merged.results[node] = results
        merged.nodes.sort(key=self.order.__getitem__)
        for member in merged.nodes:
            self.group_of[member] = merged
        return True

    def _cyclic(self, members: set[Node], limit: int) -> bool:
        """Whether a path leaves ``members`` and comes back (nodes after ``limit`` in
        graph order cannot lead back)."""
        stack = [u for m in members for u in self.users[m] if u not in members]
        seen: set[Node] = set()
        while stack:
            node = stack.pop()
            if node in members:
                return True
            if node in seen or self.order[node] > limit:
                continue
            seen.add(node)
            stack.extend(self.users[node])
        return False


def _new_group(form: aten.Form) -> _Group | None:
    frame = form.frame or (1,)
    if prod(frame) == 0:
        return None
    return _Group(prod(frame) // frame[-1], frame[-1])


def _fit(form: aten.Form, group: _Group) -> tuple[dict[Node, str] | None, tuple[str, ...]]:
    """The layout each operand needs and each result has when ``form`` computes in
    ``group``'s matrix; None if it does not fit."""
    frame = form.frame or (1,)
    if form.rowwise:
        if (prod(frame) // frame[-1], frame[-1]) != (group.rows, group.cols):
            return None, ()
        needs = {root(arg): group.normal(_LAYOUT_OF[relation]) for arg, relation in form.operands}
        return needs, tuple(group.normal(r) for r in form.results)
    level = _level(form, group)
    if level is None:
        return None, ()
    return {root(arg): level for arg, _ in form.operands}, (level,)


def _level(form: aten.Form, group: _Group) -> str | None:
    """The layout an elementwise op without broadcasting takes: that of its operands
    already in the kernel, else the first whose size matches."""
    size = prod(form.frame or (1,))
    known = {group.layouts[root(arg)] for arg, _ in form.operands if root(arg) in group.layouts}
    if len(known) > 1:
        return None
    options = list(known) or [group.normal(layout) for layout in (FULL, ROW, COL)]
    return next((layout for layout in options if group.size(layout) == size), None)


def _kernel(group: _Group, name: str, state: _State) -> Cut:
    """The kernel description of a finished group."""
    members = set(group.nodes)
    inputs: dict[tuple[Node, str], Array] = {}
    values: dict[Node, str] = {}
    layouts: dict[str, str] = {}
    steps: list[Step] = []

    def array(node: Node, layout: str) -> str:
        if (node, layout) not in inputs:
            taken = {a.name for a in inputs.values()}
            label = node.name if node.name not in taken else f"{node.name}_{layout}"
            inputs[(node, layout)] = Array(label, layout, aten.DTYPES[aten.tensor_of(node).dtype])
            layouts[label] = layout
        return inputs[(node, layout)].name

    for node in group.nodes:
        if aten.is_result(node):
            values[node] = values[(node.args[0], node.args[1])]
            continue
        operands = {}
        for arg in aten.inputs_of(node):
            source = root(arg)
            operands[arg] = values[source] if source in members else \
                array(source, group.needs[node][source])
        created: list[Step] = []

        def append(op, args, layout, dtype, where, created=created):
            step = Step(op, args, f"{where}.{len(created)}", layout, dtype, where)
            created.append(step)
            layouts[step.result] = layout
            return step.result

        results = aten.LOWERINGS[node.target](aten.Builder(node, operands, layouts, append),
                                              aten.arguments(node))
        renames = _result_names(node, results, created)
        layouts.update({new: layouts[old] for old, new in renames.items()})
        steps += [_renamed(s, renames) for s in created]
        for index, result in enumerate(results):
            key = node if len(results) == 1 else (node, index)
            values[key] = renames.get(result, result)
    outputs = [n for n in group.nodes if n in group.layouts and _used_outside(n, members, state)]
    kernel = Kernel(
        name=name, rows=group.rows, cols=group.cols,
        inputs=tuple(inputs.values()),
        steps=tuple(steps),
        outputs=tuple((Array(f"{n.name}.out", group.layouts[n],
                             aten.DTYPES[aten.tensor_of(n).dtype]), values[n]) for n in outputs),
    )
    return Cut(kernel, tuple(node for node, _ in inputs), tuple(outputs), tuple(group.nodes))


def _result_names(node: Node, results: tuple[str, ...], created: list[Step]) -> dict[str, str]:
    """Names for the steps a node's results are: the node's name (its getitems' names
    for several results)."""
    new = {s.result for s in created}
    if len(results) == 1:
        return {results[0]: node.name} if results[0] in new else {}
    getitems = {u.args[1]: u.name for u in node.users if aten.is_result(u)}
    return {r: getitems[i] for i, r in enumerate(results) if r in new and i in getitems}


def _renamed(step: Step, renames: dict[str, str]) -> Step:
    args = tuple(renames.get(a, a) if isinstance(a, str) else a for a in step.args)
    return Step(step.op, args, renames.get(step.result, step.result), step.layout, step.dtype,
                step.node)


def _used_outside(node: Node, members: set[Node], state: _State) -> bool:
    return any(user not in members for user in state.users[node])
