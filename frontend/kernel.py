"""The kernels the PyTorch front end hands to the KTIR emitter, free of ``torch``.

A kernel computes over a matrix of ``rows x cols`` elements, row-major: the last
dimension of the PyTorch tensors is ``cols`` and every leading dimension is folded into
``rows`` (a view that keeps the last dimension moves no data, so it costs nothing).
Every value of a kernel has one of three layouts over that matrix:

- ``FULL``: one element per matrix element (``rows x cols``);
- ``ROW``: one element per row (a reduction over the last dimension, ``x[..., :1]``);
- ``COL``: one element per column, the same for every row (a weight ``w[None, :]``).

A value used where a wider layout is needed is broadcast: a ``ROW`` along the row, a
``COL`` over the rows. Constants are Python floats in the arguments of a step.
"""

from __future__ import annotations

from dataclasses import dataclass

FULL, ROW, COL = "full", "row", "col"
LAYOUTS = (FULL, ROW, COL)

FLOAT_TYPES = ("f16", "f32")
"""The element types a kernel computes in."""

BINARY = ("add", "sub", "mul", "div", "max", "min")
UNARY = ("neg", "abs", "exp", "log", "tanh", "erf", "sqrt", "rsqrt", "gelu")
REDUCTIONS = ("sum", "amax")
CAST = "cast"
SELECTS = ("where_gt", "where_lt", "where_ge", "where_le", "where_eq", "where_ne")
"""``where_gt(a, b, x, y)`` is ``x`` where ``a > b``, else ``y`` (and so on): a compare
and the select by its mask in one step, so that the mask lives in no kernel value."""
STEP_OPS = (*BINARY, *UNARY, *REDUCTIONS, CAST, *SELECTS)
"""What a step computes: elementwise (binary, unary, a select by a comparison), a
reduction of a ``FULL`` value along its rows into a ``ROW`` value, or a conversion
between the float types."""


@dataclass(frozen=True)
class Array:
    """An argument of the kernel: a tensor in device memory."""

    name: str
    layout: str
    dtype: str


@dataclass(frozen=True)
class Step:
    """One operation of the kernel, named after the value it defines."""

    op: str
    args: tuple[str | float, ...]
    """Names of values (arrays or earlier steps) or float constants."""

    result: str
    layout: str
    dtype: str
    node: str
    """The PyTorch FX node it comes from (its source location)."""


@dataclass(frozen=True)
class Kernel:
    """A kernel: arrays in, steps, arrays out."""

    name: str
    rows: int
    cols: int
    inputs: tuple[Array, ...]
    steps: tuple[Step, ...]
    outputs: tuple[tuple[Array, str], ...]
    """Each output array with the value stored into it."""

    def __post_init__(self) -> None:
        known = {a.name: a.layout for a in self.inputs}
        for step in self.steps:
            known_kinds = step.op in STEP_OPS and step.layout in LAYOUTS
            if not known_kinds or step.dtype not in FLOAT_TYPES:
                raise ValueError(f"kernel {self.name}: bad step {step}")
            missing = [a for a in step.args if isinstance(a, str) and a not in known]
            if missing:
                raise ValueError(f"kernel {self.name}: step {step.result} uses undefined {missing}")
            known[step.result] = step.layout
        for array, value in self.outputs:
            if known.get(value) != array.layout:
                raise ValueError(f"kernel {self.name}: output {array.name} stores {value} "
                                 f"of another layout")

    @property
    def arrays(self) -> tuple[Array, ...]:
        """The kernel's arguments in order: inputs, then outputs."""
        return self.inputs + tuple(array for array, _ in self.outputs)


class _OneOutput:
    """A kernel writing one array, ``output``, the value of FX node ``node``, after
    its ``inputs``."""

    @property
    def outputs(self) -> tuple[tuple[Array, str], ...]:
        return ((self.output, self.node),)

    @property
    def arrays(self) -> tuple[Array, ...]:
        return (*self.inputs, self.output)


@dataclass(frozen=True)
class Product(_OneOutput):
    """``out[b] = alpha * (lhs[b] @ rhs[b]) + beta * bias`` for ``b`` below ``batch``:
    ``lhs[b]`` is ``m x k``, ``rhs[b]`` ``k x n`` (or ``n x k``, read through its
    transpose, when ``transposed``: a weight of ``linear``), ``bias`` one value per
    column (``COL``) or per element (``FULL``) of the ``m x n`` result."""

    name: str
    batch: int
    m: int
    n: int
    k: int
    lhs: Array
    rhs: Array
    output: Array
    node: str
    """The FX node of the product (its source location)."""

    transposed: bool = False
    bias: Array | None = None
    alpha: float = 1.0
    beta: float = 1.0

    @property
    def inputs(self) -> tuple[Array, ...]:
        return (self.lhs, self.rhs) + ((self.bias,) if self.bias else ())


@dataclass(frozen=True)
class Attention(_OneOutput):
    """``out[b, h] = softmax(scale * q[b, h] @ k[b, h]^T (+ mask)) @ v[b, h]`` for
    ``batch`` times ``heads`` independent heads: ``q[b, h]`` is ``queries x dim``,
    ``k[b, h]`` ``keys x dim``, ``v[b, h]`` ``keys x value_dim``; ``mask`` (``queries x
    keys``, the same for every head) is added to the scaled scores.

    Each of ``q``, ``k``, ``v`` and ``output`` is stored heads first (``batch x heads x
    tokens x dim``, row-major) or, when named in ``tokens_first``, as ``batch x tokens x
    heads x dim`` (as a projection writes it, before the heads are moved to the front)."""

    name: str
    batch: int
    heads: int
    queries: int
    keys: int
    dim: int
    value_dim: int
    scale: float
    q: Array
    k: Array
    v: Array
    output: Array
    node: str
    mask: Array | None = None
    tokens_first: frozenset[str] = frozenset()

    @property
    def inputs(self) -> tuple[Array, ...]:
        return (self.q, self.k, self.v) + ((self.mask,) if self.mask else ())
