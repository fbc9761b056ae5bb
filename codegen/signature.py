"""The kernel signature a package records, read from the KTIR kernel.

An ``index`` argument that is the start (``offset``) of a
``ktdp.construct_memory_view`` in device memory (``global``) is a **pointer**: the
caller passes an array, whose dtype is the views' element type and whose shape is the
views' sizes, as in the reference interpreter: flat (of the largest extent) when the
views disagree or are not contiguous, and free (None) when that extent depends on the
arguments. A size that depends on arguments is an expression over them
(``ktc.codegen.plan``), checked at launch: a symbolic dimension. Every other argument
is a **scalar** of its type; a ``!ktdp.runtime_arg`` is a scalar of its underlying
type, with its granularity and upper bound, checked at launch.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntAttr, ShapedType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, BlockArgument, SSAValue

from ktc.codegen.plan import Expr
from ktc.codegen.symbols import HostValues
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdp import (
    ConstructAccessTileOp,
    ConstructIndirectAccessTileOp,
    ConstructMemoryViewOp,
    MemorySpaceAttr,
    MemorySpaceKind,
    RuntimeArgType,
    SpyreMemorySpaceAttr,
    StoreOp,
    grid_of,
)
from ktc.dialects.spyreop import DF16Type

DYNAMIC = DYNAMIC_INDEX


@dataclass(frozen=True)
class Argument:
    """One kernel argument: a pointer (an array of ``dtype`` elements) or a scalar."""

    name: str
    pointer: bool
    dtype: str
    """A pointer's element type, or a scalar's type (``f16``, ``df16``, ``i32``, ``index``)."""
    shape: tuple[Expr, ...] | None = None
    """A pointer's dimensions, each an expression over the arguments; None: any shape."""
    granularity: int | None = None
    """A runtime argument's granularity: its value must be a multiple of it."""
    upperbound: int | None = None
    """A runtime argument's upper bound: its value must be at most this."""
    writes: tuple[Written, ...] = ()
    """The views into a pointer's array the kernel stores into, checked at launch."""


@dataclass(frozen=True)
class Written:
    """A view the kernel stores into: its first element (an element address of device
    memory: the pointer's, plus what the kernel adds to it), sizes and strides, each an
    expression over the arguments."""

    offset: Expr
    sizes: tuple[Expr, ...]
    strides: tuple[Expr, ...]


@dataclass(frozen=True)
class Signature:
    kernel: str
    arguments: tuple[Argument, ...]
    grid: tuple[int, ...]


def signature(kernel: FuncOp) -> Signature:
    """The signature of a KTIR (or lowered) kernel function."""
    bound = {arg: (("arg", i),) for i, arg in enumerate(kernel.args)}
    arguments = tuple(_argument(kernel, arg, bound) for arg in kernel.args)
    return Signature(kernel.sym_name.data, arguments, grid_of(kernel))


def type_name(type_: Attribute) -> str:
    """The name of a scalar type or of a shaped type's element type."""
    if isinstance(type_, ShapedType):
        type_ = type_.get_element_type()
    if isinstance(type_, RuntimeArgType):
        type_ = type_.value_type
    return "df16" if isinstance(type_, DF16Type) else str(type_)


def _argument(kernel: FuncOp, arg: BlockArgument, bound: dict) -> Argument:
    name = arg.name_hint or f"arg{arg.index}"
    views = [use.operation for use in arg.uses
             if isinstance(use.operation, ConstructMemoryViewOp)
             and use.operation.offset is arg and _global(use.operation)]
    if isinstance(arg.type, RuntimeArgType):
        return Argument(name, False, type_name(arg.type), None,
                        _bound(arg.type.granularity), _bound(arg.type.upperbound))
    if not isinstance(arg.type, IndexType) or not views:
        return Argument(name, False, type_name(arg.type))
    elements = sorted({type_name(view.result.type) for view in views})
    if len(elements) > 1:
        raise KtcError(f"argument %{name} starts memory views of element types "
                       f"{', '.join(elements)}", where(kernel))
    return Argument(name, True, elements[0], _shape(views, bound), writes=_writes(kernel, arg, bound))


def _writes(kernel: FuncOp, pointer: BlockArgument, bound: dict) -> tuple[Written, ...]:
    """The views from ``pointer`` (at it, or at it plus or minus other values) that a
    ``ktdp.store`` writes through an access tile, whose start, sizes and strides are
    expressions over the arguments."""
    writes = []
    for view in kernel.walk():
        if not (isinstance(view, ConstructMemoryViewOp) and _global(view) and _stored(view)
                and _from(view.offset, pointer)):
            continue
        sizes = _dims(view.static_sizes.get_values(), view.sizes, bound)
        strides = _dims(view.static_strides.get_values(), view.strides, bound)
        offset = _dims((DYNAMIC,), (view.offset,), bound)
        if None not in (sizes, strides, offset):
            writes.append(Written(offset[0], sizes, strides))
    return tuple(writes)


def _from(value: SSAValue, pointer: BlockArgument) -> bool:
    """Whether an address is ``pointer``, or computed from it by ``arith.addi`` (either
    operand) and ``arith.subi`` (the left one)."""
    if value is pointer or isinstance(value, BlockArgument):
        return value is pointer
    op = value.owner
    if op.name == "arith.addi":
        return any(_from(operand, pointer) for operand in op.operands)
    return op.name == "arith.subi" and _from(op.operands[0], pointer)


def _stored(view: ConstructMemoryViewOp) -> bool:
    """Whether a ``ktdp.store`` writes through an access tile of ``view``."""
    tiles = [use.operation for use in view.result.uses
             if isinstance(use.operation, ConstructAccessTileOp | ConstructIndirectAccessTileOp)
             and use.index == 0]
    return any(isinstance(use.operation, StoreOp) for tile in tiles for use in tile.result.uses)


def _bound(value: Attribute) -> int | None:
    return value.data if isinstance(value, IntAttr) else None


def _global(view: ConstructMemoryViewOp) -> bool:
    space = view.memory_space
    if isinstance(space, SpyreMemorySpaceAttr):
        space = space.to_memory_space()
    return isinstance(space, MemorySpaceAttr) and space.kind.data == MemorySpaceKind.GLOBAL


def _shape(views: list[ConstructMemoryViewOp], bound: dict) -> tuple[Expr, ...] | None:
    layouts = []
    for view in views:
        sizes = _dims(view.static_sizes.get_values(), view.sizes, bound)
        strides = _dims(view.static_strides.get_values(), view.strides, bound)
        if sizes is None or strides is None:
            return None
        layouts.append((sizes, strides))
    contiguous = all(_contiguous(*layout) for layout in layouts)
    if contiguous and len({sizes for sizes, _ in layouts}) == 1:
        return layouts[0][0]
    numbers = [([_constant(n) for n in sizes], [_constant(s) for s in strides])
               for sizes, strides in layouts]
    if any(None in sizes + strides for sizes, strides in numbers):
        return (_extent(layouts),)
    extent = max(0 if 0 in sizes else 1 + sum((n - 1) * s for n, s in zip(sizes, strides))
                 for sizes, strides in numbers)
    return ((extent,),)


def _extent(layouts: list[tuple[tuple[Expr, ...], tuple[Expr, ...]]]) -> Expr:
    """The elements the views reach past their start, as an expression over the
    arguments: the largest over the views of ``1 + sum((n_j - 1) * s_j)`` (at least 0),
    so the launch checks the array holds every element a view may name."""
    tokens: list = [0]
    for sizes, strides in layouts:
        tokens += [1]
        for size, stride in zip(sizes, strides):
            tokens += [*size, 1, "sub", *stride, "mul", "add"]
        tokens += ["maxsi"]
    return tuple(tokens)


def _constant(expr: Expr) -> int | None:
    return expr[0] if len(expr) == 1 and isinstance(expr[0], int) else None


def _dims(static, dynamic, bound: dict) -> tuple[Expr, ...] | None:
    """Sizes or strides as expressions over the arguments; None if some depend on more."""
    values = HostValues(dict(bound))
    operands = iter(dynamic)
    try:
        return tuple((n,) if n != DYNAMIC else values.expr(next(operands)) for n in static)
    except KtcError:
        return None


def _contiguous(sizes: tuple[Expr, ...], strides: tuple[Expr, ...]) -> bool:
    """Row-major without gaps: each stride the product of the sizes inside it, as
    numbers or, for sizes and strides given at launch, as the same expression
    (``strides: [%n, 1]`` of ``sizes: [64, %n]``)."""
    expected: Expr = (1,)
    for size, stride in reversed(list(zip(sizes, strides))):
        if size != (1,) and stride != expected:
            return False
        expected = _product(size, expected)
    return True


def _product(a: Expr, b: Expr) -> Expr:
    """``a * b``, folded when both are numbers or one is 1."""
    if _constant(a) is not None and _constant(b) is not None:
        return (_constant(a) * _constant(b),)
    if a == (1,) or b == (1,):
        return b if a == (1,) else a
    return (*a, *b, "mul")
