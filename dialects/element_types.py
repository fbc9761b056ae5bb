"""The element types ktc compiles, simulates and interprets: one list for every room.

``ELEMENT_TYPES`` names them as the numerics do (``df16`` for ``!spyreop.df16``);
the legality check refuses a kernel that uses another (``unsupported``), the reference
interpreter checks the same at its entry (``check_function``), and the numerics and
the package format hold a representation for each of them (a test keeps them equal).
"""

from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType, ShapedType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation

from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdp import RuntimeArgType
from ktc.dialects.spyreop import DF16Type

FLOATS = ("f16", "f32", "f64", "df16")
INTEGERS = ("i1", "i8", "i16", "i32", "i64", "index")
ELEMENT_TYPES = FLOATS + INTEGERS
"""Every element (and scalar) type a kernel may use."""


def element_name(attr: Attribute) -> str:
    """The name of a scalar type, or of a shaped type's element type."""
    if isinstance(attr, ShapedType):
        attr = attr.get_element_type()
    return "df16" if isinstance(attr, DF16Type) else str(attr)


def unsupported(attr: Attribute) -> str | None:
    """The element type name of ``attr`` if ktc does not support it, else None.
    Types with no element (access tiles' index sets, functions, tokens) pass; a
    runtime argument is judged by its underlying type."""
    if isinstance(attr, RuntimeArgType):
        attr = attr.value_type
    if isinstance(attr, ShapedType) or _is_scalar(attr):
        name = element_name(attr)
        return None if name in ELEMENT_TYPES else name
    return None


def _is_scalar(attr: Attribute) -> bool:
    return isinstance(attr, AnyFloat | IndexType | IntegerType | DF16Type)


def message(name: str) -> str:
    return (f"uses element type {name}, which ktc does not support (supported: "
            f"{', '.join(ELEMENT_TYPES)})")


def check_op(op: Operation) -> None:
    """Raise a ``KtcError`` at ``op`` if one of its results or block arguments has an
    element type ktc does not support."""
    values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
    for value in values:
        name = unsupported(value.type)
        if name is not None:
            raise KtcError(f"'{op.name}' {message(name)}", where(op))


def check_function(func: FuncOp) -> None:
    """``check_op`` on ``func`` and every op in it."""
    for op in func.walk():
        check_op(op)
