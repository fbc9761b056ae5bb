"""What the PyTorch front end does with each ATen op of a graph.

The graph comes after decomposition to core ATen. Each call is one of:

- an **alias** (``view``, ``reshape``, ``squeeze``, ...): it moves no data; kernels read
  through it, and PyTorch applies it where its result is needed outside a kernel;
- a **computation** this table lowers to kernel steps (``ktc.frontend.kernel``):
  elementwise ops, reductions along the last dimension, softmax and layer norm along
  the last dimension, casts between float16 and float32, ``where`` by a comparison;
- **fused** into the computations reading it (``fused``): a comparison only ``where``s
  select by, which each computes itself (a compare and a select in one step, the
  boolean tensor no kernel value), and a ``scalar_tensor`` only ``where``s select;
- anything else, which runs in PyTorch; ``refusal`` says why.

A computation is either *elementwise* (its frame is its result's shape, each tensor
operand has the frame's shape or is broadcast along the rows or over the columns of
it) or *row-wise* (its frame is its input's shape; it reduces or normalizes along the
last dimension). ``Form`` tells the partitioner which, and ``lower`` writes the steps.

Matrix products (``mm``, ``addmm``, ``bmm``: what ``linear``, ``matmul`` and ``@``
decompose to) and attention (``_scaled_dot_product_flash_attention_for_cpu``, which the
front end keeps whole) are kernels of their own: ``product_form`` and
``attention_form`` say what they multiply, reading through views and through a
transpose of the last two dimensions of the second operand (a weight of ``linear``).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, replace

import torch
from torch.fx import Node

from ktc.frontend.kernel import COL, FULL, ROW

aten = torch.ops.aten

DTYPES = {torch.float16: "f16", torch.float32: "f32"}
"""The tensor types kernels compute in, and their KTIR names."""

SAME = "same"
"""An operand of its op's frame shape (``ROW``: broadcast along rows, ``COL``: over
the columns of the frame)."""

ALIASES = frozenset({
    aten.view.default, aten._unsafe_view.default, aten.reshape.default, aten.alias.default,
    aten.squeeze.default, aten.squeeze.dim, aten.squeeze.dims, aten.unsqueeze.default,
    aten.clone.default,
})
"""Ops that give a new shape to the same data (``clone`` copies it; a kernel reads its
source as well, made contiguous as every kernel input is)."""

_PLAIN_COPY = {
    "layout": (None, torch.strided),
    "device": (None, torch.device("cpu")),
    "memory_format": (None, torch.preserve_format, torch.contiguous_format),
    "pin_memory": (None, False),
    "non_blocking": (False,),
}
"""The arguments of ``_to_copy`` that change nothing but the type (``x.float()``,
``type_as``)."""

COMPARISONS = {
    op: select
    for ops, select in (
        ((aten.gt.Scalar, aten.gt.Tensor), "where_gt"), ((aten.lt.Scalar, aten.lt.Tensor), "where_lt"),
        ((aten.ge.Scalar, aten.ge.Tensor), "where_ge"), ((aten.le.Scalar, aten.le.Tensor), "where_le"),
        ((aten.eq.Scalar, aten.eq.Tensor), "where_eq"), ((aten.ne.Scalar, aten.ne.Tensor), "where_ne"))
    for op in ops
}
"""Comparisons, and the select step (``ktc.frontend.kernel.SELECTS``) a ``where`` by
each becomes: the comparison is computed inside every ``where`` reading it (``fused``),
so that its boolean tensor is never a kernel value."""

KNOWN_REFUSALS = {
    **{op: "a transpose, which moves data" for op in (
        aten.permute.default, aten.transpose.int, aten.t.default)},
}
"""Ops PyTorch runs instead, with the reason."""

_BOOLEAN = ("a boolean tensor {}: kernels keep a comparison's mask inside the where that "
            "selects by it (compare and select on the compute engine), never as a value of "
            "their own")


@dataclass(frozen=True)
class Form:
    """How a computation sits over the kernel matrix."""

    frame: tuple[int, ...]
    rowwise: bool
    """The frame's last dimension must be the kernel's columns (reductions and
    normalizations, and elementwise ops that broadcast)."""

    operands: tuple[tuple[Node, str], ...]
    """Each tensor operand with how it covers the frame (``SAME``, ``ROW``, ``COL``)."""

    results: tuple[str, ...]
    """The layout of each result over the frame (``FULL`` or ``ROW``)."""


class Builder:
    """Writes the steps of one node: ``emit`` infers each step's layout from its
    operands (the widest one; a ``ROW`` and a ``COL`` make a ``FULL``)."""

    def __init__(self, node: Node, values: dict[Node, str], layouts: dict[str, str],
                 append: Callable[[str, tuple, str, str, str], str]):
        self.node, self.values, self.layouts, self.append = node, values, layouts, append
        value = node.meta["val"]
        self.dtype = DTYPES[(value[0] if isinstance(value, tuple | list) else value).dtype]

    def value(self, arg) -> str | float:
        """The kernel value of an FX operand, or the float of a number."""
        return self.values[arg] if isinstance(arg, Node) else float(arg)

    def emit(self, op: str, *args: str | float, dtype: str | None = None) -> str:
        layouts = {self.layouts[a] for a in args if isinstance(a, str)}
        layout = FULL if FULL in layouts or layouts == {ROW, COL} else layouts.pop()
        return self.append(op, args, layout, dtype or self.dtype, self.node.name)

    def reduce(self, op: str, value: str) -> str:
        return self.append(op, (value,), ROW, self.dtype, self.node.name)


Lowering = Callable[[Builder, dict], tuple[str, ...]]


# ---------------------------------------------------------------------------------
# Lowerings
# ---------------------------------------------------------------------------------


def _binary(op: str, swap: bool = False) -> Lowering:
    def lower(b: Builder, a: dict) -> tuple[str, ...]:
        x, y = b.value(a["self"]), b.value(a["other"])
        alpha = a.get("alpha", 1)
        if alpha != 1:
            y = b.emit("mul", y, float(alpha)) if isinstance(y, str) else y * alpha
        return (b.emit(op, *((y, x) if swap else (x, y))),)
    return lower


def _unary(*ops: str) -> Lowering:
    def lower(b: Builder, a: dict) -> tuple[str, ...]:
        value = b.value(a["self"])
        for op in ops:
            value = b.emit(op, value)
        return (value,)
    return lower


def _sigmoid(b: Builder, value: str) -> str:
    return b.emit("div", 1.0, b.emit("add", b.emit("exp", b.emit("neg", value)), 1.0))


def _gelu(b: Builder, a: dict) -> tuple[str, ...]:
    x = b.value(a["self"])
    if a["approximate"] == "none":
        return (b.emit("gelu", x),)
    cube = b.emit("mul", b.emit("mul", x, x), x)
    inner = b.emit("mul", b.emit("add", x, b.emit("mul", cube, 0.044715)), math.sqrt(2 / math.pi))
    half = b.emit("mul", x, 0.5)
    return (b.emit("mul", half, b.emit("add", b.emit("tanh", inner), 1.0)),)


_POWERS: dict[float, Callable[[Builder, str], str]] = {
    1.0: lambda b, x: b.emit("mul", x, 1.0),
    2.0: lambda b, x: b.emit("mul", x, x),
    3.0: lambda b, x: b.emit("mul", b.emit("mul", x, x), x),
    0.5: lambda b, x: b.emit("sqrt", x),
    -0.5: lambda b, x: b.emit("rsqrt", x),
    -1.0: lambda b, x: b.emit("div", 1.0, x),
    -2.0: lambda b, x: b.emit("div", 1.0, b.emit("mul", x, x)),
}


def _pow(b: Builder, a: dict) -> tuple[str, ...]:
    return (_POWERS[float(a["exponent"])](b, b.value(a["self"])),)


def _clamp(b: Builder, a: dict) -> tuple[str, ...]:
    value = b.value(a["self"])
    if a["min"] is not None:
        value = b.emit("max", value, float(a["min"]))
    if a["max"] is not None:
        value = b.emit("min", value, float(a["max"]))
    return (value,)


def _cast(b: Builder, a: dict) -> tuple[str, ...]:
    return (b.emit("cast", b.value(a["self"])),)


def _where(b: Builder, a: dict) -> tuple[str, ...]:
    """The select step of the comparison ``where`` selects by (``fused``)."""
    condition = a["condition"]
    compared = arguments(condition)
    values = (_selected(b, a[key]) for key in ("self", "other"))
    return (b.emit(COMPARISONS[condition.target], b.value(compared["self"]),
                   b.value(compared["other"]), *values),)


def _selected(b: Builder, value) -> str | float:
    """A value ``where`` selects: a kernel value, or the float of a scalar tensor."""
    return float(value.args[0]) if _scalar_constant(value) else b.value(value)


def _reduction(op: str, mean: bool = False) -> Lowering:
    def lower(b: Builder, a: dict) -> tuple[str, ...]:
        x = b.value(a["self"])
        total = b.reduce(op, x)
        if not mean:
            return (total,)
        return (b.emit("mul", total, 1.0 / tensor_of(a["self"]).shape[-1]),)
    return lower


def _softmax(b: Builder, a: dict) -> tuple[str, ...]:
    x = b.value(a["self"])
    exp = b.emit("exp", b.emit("sub", x, b.reduce("amax", x)))
    return (b.emit("div", exp, b.reduce("sum", exp)),)


def _layer_norm(b: Builder, a: dict) -> tuple[str, ...]:
    x = b.value(a["input"])
    inverse = 1.0 / tensor_of(a["input"]).shape[-1]
    mean = b.emit("mul", b.reduce("sum", x), inverse)
    centered = b.emit("sub", x, mean)
    variance = b.emit("mul", b.reduce("sum", b.emit("mul", centered, centered)), inverse)
    rstd = b.emit("rsqrt", b.emit("add", variance, float(a["eps"])))
    out = b.emit("mul", centered, rstd)
    if a["weight"] is not None:
        out = b.emit("mul", out, b.value(a["weight"]))
    if a["bias"] is not None:
        out = b.emit("add", out, b.value(a["bias"]))
    return out, mean, rstd


LOWERINGS: dict[object, Lowering] = {
    aten.add.Tensor: _binary("add"), aten.add.Scalar: _binary("add"),
    aten.sub.Tensor: _binary("sub"), aten.sub.Scalar: _binary("sub"),
    aten.rsub.Scalar: _binary("sub", swap=True), aten.rsub.Tensor: _binary("sub", swap=True),
    aten.mul.Tensor: _binary("mul"), aten.mul.Scalar: _binary("mul"),
    aten.div.Tensor: _binary("div"), aten.div.Scalar: _binary("div"),
    aten.maximum.default: _binary("max"), aten.minimum.default: _binary("min"),
    aten.neg.default: _unary("neg"), aten.abs.default: _unary("abs"),
    aten.exp.default: _unary("exp"), aten.tanh.default: _unary("tanh"),
    aten.sqrt.default: _unary("sqrt"), aten.rsqrt.default: _unary("rsqrt"),
    aten.log.default: _unary("log"), aten.erf.default: _unary("erf"),
    aten.reciprocal.default: lambda b, a: (b.emit("div", 1.0, b.value(a["self"])),),
    aten.relu.default: lambda b, a: (b.emit("max", b.value(a["self"]), 0.0),),
    aten.sigmoid.default: lambda b, a: (_sigmoid(b, b.value(a["self"])),),
    aten.silu.default: lambda b, a: (b.emit("mul", b.value(a["self"]),
                                            _sigmoid(b, b.value(a["self"]))),),
    aten.gelu.default: _gelu,
    aten.pow.Tensor_Scalar: _pow,
    aten.clamp.default: _clamp,
    aten._to_copy.default: _cast,
    aten.sum.dim_IntList: _reduction("sum"),
    aten.mean.dim: _reduction("sum", mean=True),
    aten.amax.default: _reduction("amax"),
    aten._softmax.default: _softmax,
    aten.native_layer_norm.default: _layer_norm,
    aten.where.self: _where,
}
"""Each computation and how it is written in kernel steps."""

_REDUCTIONS = (aten.sum.dim_IntList, aten.mean.dim, aten.amax.default)
_ROWWISE = (*_REDUCTIONS, aten._softmax.default, aten.native_layer_norm.default)


# ---------------------------------------------------------------------------------
# Classification
# ---------------------------------------------------------------------------------


def tensor_of(node: Node) -> torch.Tensor | None:
    """The example value (a fake tensor) of an FX node's single result, if a tensor."""
    value = node.meta.get("val")
    return value if isinstance(value, torch.Tensor) else None


def arguments(node: Node) -> dict:
    """The node's arguments by schema name, defaults filled in."""
    schema = node.target._schema
    bound = {}
    for index, argument in enumerate(schema.arguments):
        if index < len(node.args):
            bound[argument.name] = node.args[index]
        elif argument.name in node.kwargs:
            bound[argument.name] = node.kwargs[argument.name]
        else:
            bound[argument.name] = argument.default_value if argument.has_default_value() else None
    return bound


def is_alias(node: Node) -> bool:
    """A view, a copy, or an ``expand`` to the shape it has already."""
    if node.op != "call_function":
        return False
    if node.target is aten.expand.default:
        value, source = tensor_of(node), tensor_of(node.args[0])
        return value is not None and source is not None and value.shape == source.shape
    return node.target in ALIASES


def root(node: Node) -> Node:
    """The node whose data ``node`` shows, through any chain of views."""
    while is_alias(node):
        node = node.args[0]
    return node


def fused(node: Node) -> bool:
    """Whether ``node`` is computed inside the nodes reading it rather than as a value:
    a comparison whose only readers are ``where``s selecting by it, or a scalar tensor
    only ``where``s select."""
    if node.op != "call_function" or not node.users:
        return False
    if node.target in COMPARISONS:
        return all(_selects_by(user, node) for user in node.users)
    return _scalar_constant(node)


def _selects_by(user: Node, condition: Node) -> bool:
    return user.target is aten.where.self and user.args[0] is condition \
        and condition not in user.args[1:]


def _scalar_constant(node) -> bool:
    """A ``scalar_tensor`` that only ``where``s select (as a value, not a condition)."""
    return isinstance(node, Node) and node.target is aten.scalar_tensor.default and all(
        user.target is aten.where.self and node not in user.args[:1] for user in node.users)


def inputs_of(node: Node) -> list[Node]:
    """The nodes whose values ``node`` reads: a ``where`` reads the operands of the
    comparison it selects by in place of the comparison, and no scalar tensor it
    selects (both ``fused``)."""
    if node.target is not aten.where.self:
        return list(node.all_input_nodes)
    inputs = [i for arg in node.all_input_nodes if fused(arg) for i in arg.all_input_nodes]
    return list(dict.fromkeys(inputs + [arg for arg in node.all_input_nodes if not fused(arg)]))


def is_result(node: Node) -> bool:
    """``getitem`` of a node's tuple of results."""
    return node.op == "call_function" and node.target is operator.getitem


def refusal(node: Node) -> str | None:
    """Why ``node`` cannot be computed in a kernel, or None if it can."""
    if node.target in KNOWN_REFUSALS:
        return KNOWN_REFUSALS[node.target]
    if node.target in PRODUCTS:
        form = product_form(node)
        return form if isinstance(form, str) else None
    if node.target is ATTENTION:
        form = attention_form(node)
        return form if isinstance(form, str) else None
    if node.target in COMPARISONS:
        return _BOOLEAN.format("(a graph output, or read by other than a where's condition)")
    if node.target is aten.where.self and not fused(node.args[0]):
        return _BOOLEAN.format("that is not a comparison computed for the where")
    if node.target not in LOWERINGS:
        return "no lowering to KTIR in the PyTorch front end"
    values = node.meta.get("val")
    results = values if isinstance(values, tuple | list) else (values,)
    tensors = [t for t in results if isinstance(t, torch.Tensor)]
    tensors += [tensor_of(arg) for arg in _tensor_operands(node)]
    for tensor in tensors:
        if tensor is None:
            return "an operand without a known shape"
        if tensor.dtype not in DTYPES:
            return f"computes on {tensor.dtype}: kernels take float16 and float32"
        if not all(isinstance(size, int) for size in tensor.shape):
            return f"a dynamic shape {tuple(tensor.shape)}: kernels are static"
    return _op_refusal(node, arguments(node), tensors)


def _op_refusal(node: Node, a: dict, tensors: list[torch.Tensor]) -> str | None:
    if node.target is aten._to_copy.default:
        extra = {k: v for k, v in node.kwargs.items()
                 if k != "dtype" and v not in _PLAIN_COPY.get(k, ())}
        if extra:
            return f"with {extra}: only a change of float type is compiled"
        if tensor_of(a["self"]).dtype == tensor_of(node).dtype:
            return "a copy without a change of type"
        return None
    dtypes = {t.dtype for t in tensors}
    if len(dtypes) > 1:
        return f"mixes {', '.join(sorted(str(d) for d in dtypes))}"
    source = a.get("self", a.get("input"))
    if node.target in _ROWWISE and tensor_of(source).shape[-1:] in ((), (1,)):
        return "along a dimension of size 1 (or none)"
    if node.target in _REDUCTIONS:
        return _reduction_refusal(a)
    if node.target is aten._softmax.default:
        return None if _is_last(a["dim"], tensor_of(a["self"])) and not a["half_to_float"] \
            else f"along dimension {a['dim']}: only the last dimension is compiled"
    if node.target is aten.native_layer_norm.default:
        return None if len(a["normalized_shape"]) == 1 \
            else f"over {len(a['normalized_shape'])} dimensions: only the last is compiled"
    if node.target is aten.pow.Tensor_Scalar and float(a["exponent"]) not in _POWERS:
        return (f"to the power {a['exponent']}: ktc's compute engines have no pow "
                f"instruction; exponents {sorted(_POWERS)} are written with mul, div, sqrt "
                "and rsqrt")
    return _broadcast_refusal(node)


def _reduction_refusal(a: dict) -> str | None:
    dims = a["dim"]
    tensor = tensor_of(a["self"])
    if a.get("dtype") not in (None, tensor.dtype):
        return f"into {a['dtype']}: only a reduction in the input's type is compiled"
    if dims is None or len(dims) != 1 or not _is_last(dims[0], tensor):
        return f"over dimensions {dims}: only a reduction along the last dimension is compiled"
    return None


def _broadcast_refusal(node: Node) -> str | None:
    form = form_of(node)
    for operand, relation in form.operands:
        if relation is None:
            return (f"broadcasts an operand of shape {tuple(tensor_of(operand).shape)} "
                    f"over {form.frame}: kernels broadcast along rows or over columns only")
    return None


def form_of(node: Node) -> Form:
    """Where ``node`` (a computation) sits over the kernel matrix."""
    a = arguments(node)
    if node.target in _ROWWISE:
        source = a["self"] if "self" in a else a["input"]
        frame = tuple(tensor_of(source).shape)
        operands = [(source, SAME)]
        operands += [(a[k], COL) for k in ("weight", "bias") if isinstance(a.get(k), Node)]
        results = (FULL, ROW, ROW) if node.target is aten.native_layer_norm.default else \
            (ROW,) if node.target in _REDUCTIONS else (FULL,)
        return Form(frame, True, tuple(operands), results)
    frame = tuple(tensor_of(node).shape)
    operands = tuple((arg, _relation(tuple(tensor_of(arg).shape), frame))
                     for arg in _tensor_operands(node))
    return Form(frame, any(r != SAME for _, r in operands), operands, (FULL,))


def _relation(shape: tuple[int, ...], frame: tuple[int, ...]) -> str | None:
    """How an operand of ``shape`` covers ``frame`` under PyTorch broadcasting."""
    if len(shape) > len(frame) or not frame:
        return SAME if shape == frame else None
    padded = (1,) * (len(frame) - len(shape)) + shape
    if padded == frame:
        return SAME
    if padded == frame[:-1] + (1,):
        return ROW
    if padded == (1,) * (len(frame) - 1) + frame[-1:]:
        return COL
    return None


def _tensor_operands(node: Node) -> list[Node]:
    return inputs_of(node)


def _is_last(dim: int, tensor: torch.Tensor) -> bool:
    return tensor.dim() > 0 and dim % tensor.dim() == tensor.dim() - 1


def op_name(node: Node) -> str:
    return str(node.target) if node.op == "call_function" else node.op


# ---------------------------------------------------------------------------------
# Products and attention
# ---------------------------------------------------------------------------------

PRODUCTS = (aten.mm.default, aten.addmm.default, aten.bmm.default)
ATTENTION = aten._scaled_dot_product_flash_attention_for_cpu.default
_TRANSPOSES = (aten.permute.default, aten.t.default, aten.transpose.int)


@dataclass(frozen=True)
class ProductForm:
    """``alpha * lhs @ rhs + beta * bias`` over ``batch`` products of ``m x k`` by
    ``k x n``; each operand the node whose data the kernel reads (through views)."""

    lhs: Node
    rhs: Node
    """The second operand, or the tensor it is the transpose of (``transpose``)."""

    transpose: Node | None
    """The transpose ``rhs`` is read through, if any."""

    bias: Node | None
    bias_per_column: bool
    batch: int
    m: int
    n: int
    k: int
    alpha: float
    beta: float


@dataclass(frozen=True)
class AttentionForm:
    """``softmax(scale * q @ k^T (+ a causal mask)) @ v`` of ``batch`` times ``heads``
    heads; each operand the node whose data the kernel reads, ``result`` the node whose
    value it writes (the ``getitem`` of the attention's output, or the transpose that
    moves its heads back behind the tokens)."""

    q: Node
    k: Node
    v: Node
    result: Node
    nodes: tuple[Node, ...]
    """The attention, its output's ``getitem``, and that transpose if ``result``."""

    moved: tuple[Node, ...]
    """The transposes moving an operand's heads to the front that the kernel reads
    through."""

    tokens_first: frozenset[str]
    """The operands (``q``, ``k``, ``v``, ``out``) stored tokens before heads."""

    batch: int
    heads: int
    queries: int
    keys: int
    dim: int
    value_dim: int
    scale: float
    causal: bool


def _heads_moved(node: Node) -> Node | None:
    """What ``node`` is, if a transpose of the second and third of four dimensions (the
    heads and the tokens), a transpose of."""
    if node.op != "call_function" or tensor_of(node) is None or tensor_of(node).dim() != 4:
        return None
    if node.target is aten.permute.default and [d % 4 for d in node.args[1]] == [0, 2, 1, 3]:
        return root(node.args[0])
    if node.target is aten.transpose.int and {node.args[1] % 4, node.args[2] % 4} == {1, 2}:
        return root(node.args[0])
    return None


def _transposed(node: Node) -> Node | None:
    """What ``node`` is the transpose of (its last two dimensions swapped), if it is one."""
    if node.op != "call_function" or node.target not in _TRANSPOSES:
        return None
    rank = tensor_of(node).dim()
    if node.target is aten.permute.default:
        dims = [d % rank for d in node.args[1]]
        swapped = dims == [*range(rank - 2), rank - 1, rank - 2]
    elif node.target is aten.transpose.int:
        swapped = {node.args[1] % rank, node.args[2] % rank} == {rank - 1, rank - 2}
    else:
        swapped = rank == 2
    return root(node.args[0]) if swapped and rank >= 2 else None


def _float_refusal(nodes: list[Node]) -> str | None:
    tensors = [tensor_of(n) for n in nodes]
    if any(t is None for t in tensors):
        return "an operand without a known shape"
    dtypes = {t.dtype for t in tensors}
    if len(dtypes) > 1:
        return f"mixes {', '.join(sorted(str(d) for d in dtypes))}"
    if dtypes - set(DTYPES):
        return f"computes on {dtypes.pop()}: kernels take float16 and float32"
    if any(not all(isinstance(s, int) for s in t.shape) for t in tensors):
        return "a dynamic shape: kernels are static"
    return None


def product_form(node: Node) -> ProductForm | str:
    """What the product ``node`` multiplies, or why the front end cannot say."""
    a = arguments(node)
    if node.target is aten.addmm.default:
        bias, lhs, rhs = a["self"], a["mat1"], a["mat2"]
    else:
        bias, lhs, rhs = None, a["self"], a["mat2"]
    reason = _float_refusal([n for n in (node, lhs, rhs, bias) if n is not None])
    if reason:
        return reason
    *batch, m, k = tensor_of(lhs).shape
    n = tensor_of(rhs).shape[-1]
    source = _transposed(root(rhs))
    per_column = False
    if bias is not None:
        shape = tuple(tensor_of(bias).shape)
        per_column = shape in ((n,), (1, n))
        if not per_column and shape != (m, n):
            return (f"adds a bias of shape {shape} to an {m} x {n} product: a bias per "
                    "column or per element is compiled")
    return ProductForm(root(lhs), source or root(rhs), root(rhs) if source else None,
                       None if bias is None else root(bias), per_column,
                       math.prod(batch), m, n, k, float(a.get("alpha", 1)), float(a.get("beta", 1)))


_SCALINGS = {aten.mul.Scalar: 1, aten.mul.Tensor: 1, aten.div.Scalar: -1, aten.div.Tensor: -1}
"""Products or quotients by a number that fold into a product's epilogue (the power)."""


def epilogue(form: ProductForm, value: Node, user: Node, earlier: Callable[[Node], bool]
             ) -> ProductForm | None:
    """``form`` with ``user`` (the one reader of the product's ``value``) folded into
    its epilogue: a product or quotient by a number scales ``alpha`` and ``beta``; a sum
    with a tensor of the result's shape (batch 1) or one value per column, made before
    the product (``earlier``), becomes the bias. None for anything else."""
    if user.op != "call_function" or tensor_of(user) is None or \
            tensor_of(user).dtype != tensor_of(value).dtype:
        return None
    a = arguments(user) if user.target in (*_SCALINGS, aten.add.Tensor) else {}
    if user.target in _SCALINGS and root(a["self"]) is value and \
            isinstance(a["other"], int | float):
        factor = float(a["other"]) ** _SCALINGS[user.target]
        return replace(form, alpha=form.alpha * factor, beta=form.beta * factor)
    if user.target is not aten.add.Tensor or form.bias is not None or a["alpha"] != 1:
        return None
    operands = [x for x in (a["self"], a["other"])
                if not (isinstance(x, Node) and root(x) is value)]
    if len(operands) != 1 or not isinstance(operands[0], Node) or not earlier(root(operands[0])):
        return None
    shape = tuple(tensor_of(operands[0]).shape)
    per_column = shape[-1:] == (form.n,) and math.prod(shape[:-1]) == 1
    whole = form.batch == 1 and shape[-1:] == (form.n,) and math.prod(shape[:-1]) == form.m
    if not (per_column or whole):
        return None
    return replace(form, bias=root(operands[0]), bias_per_column=per_column, beta=1.0)


def attention_form(node: Node) -> AttentionForm | str:
    """What the attention ``node`` computes, or why it is not compiled."""
    a = arguments(node)
    q, k, v = a["query"], a["key"], a["value"]
    reason = _float_refusal([q, k, v])
    if reason:
        return reason
    if a["dropout_p"]:
        return f"with dropout {a['dropout_p']}: only attention without dropout is compiled"
    if a["attn_mask"] is not None:
        return "with an attention mask: only attention without one (or causal) is compiled"
    shape = tuple(tensor_of(q).shape)
    if len(shape) != 4:
        return (f"of {len(shape)} dimensions: attention over batch, heads, tokens and "
                "features is compiled")
    batch, heads, queries, dim = shape
    keys, value_dim = tensor_of(v).shape[-2:]
    if tuple(tensor_of(k).shape) != (batch, heads, keys, dim) or \
            tuple(tensor_of(v).shape) != (batch, heads, keys, value_dim):
        return "keys and values broadcast over the queries' heads: only equal heads are compiled"
    results = {u.args[1]: u for u in node.users if is_result(u)}
    if 0 not in results or any(results[i].users for i in set(results) - {0}):
        return "its log-sum-exp is used: only the attention's output is computed"
    sources, moved, first = {}, [], set()
    for role, operand in (("q", q), ("k", k), ("v", v)):
        source = _heads_moved(root(operand))
        sources[role] = source or root(operand)
        if source is not None:
            moved.append(root(operand))
            first.add(role)
    result, nodes = results[0], (node, results[0])
    back = list(result.users)
    if len(back) == 1 and _heads_moved(back[0]) is result:
        result, nodes = back[0], (*nodes, back[0])
        first.add("out")
    scale = a["scale"] if a["scale"] is not None else 1 / math.sqrt(dim)
    return AttentionForm(sources["q"], sources["k"], sources["v"], result, nodes,
                         tuple(dict.fromkeys(moved)), frozenset(first), batch, heads, queries,
                         keys, dim, value_dim, float(scale), bool(a["is_causal"]))
