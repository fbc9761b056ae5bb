"""Memory views typed with the device memory their KTIR memory space maps to."""

from xdsl.dialects.builtin import MemRefType, StringAttr
from xdsl.rewriter import Rewriter

from ktc.arch.model import Device
from ktc.dialects import ktdp
from ktc.dialects.diagnostics import KtcError, where


def type_with_memory(view: ktdp.ConstructMemoryViewOp, device: Device) -> None:
    """Type ``view`` with the device memory kind its memory space maps to
    (``memref<96x64xf16, "DDR">``); a view already typed is left alone."""
    old = view.result.type
    if isinstance(old.memory_space, StringAttr):
        return
    try:
        memory = device.memory_space(view.memory_space).kind
    except KtcError as err:
        raise KtcError(f"{err.message} for this memory view's space", where(view)) from None
    Rewriter.replace_value_with_new_type(
        view.result,
        MemRefType(old.get_element_type(), old.get_shape(), old.layout, StringAttr(memory)),
    )
