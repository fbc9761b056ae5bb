"""``address-assignment``: every buffer gets a byte offset in its memory.

The layout (lifetimes in steps, first fit, copies) is ``ktc.passes.analysis.
memory_layout``'s, which ``tile-size-selection`` also uses to check that its sizes
fit; this pass checks capacities and records the offsets.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from ktc.arch.model import Device, device_of
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf import set_address, set_copy_stride
from ktc.passes.analysis.memory_layout import (
    Buffer,
    buffers,
    by_memory,
    find_buffers,
    high_water,
    kernel_placed,
    layout,
    program_layouts,
)


# ---------------------------------------------------------------------------------
# Diagnostics
# ---------------------------------------------------------------------------------


def _check_fits(placed: Sequence[tuple[Buffer, int]], device: Device, owner: str) -> None:
    """Fail at the first buffer that ends past its memory's capacity, with a table
    of the buffers live at the busiest step of its lifetime."""
    for buffer, offset in placed:
        memory = buffer.memory
        if offset + buffer.footprint <= memory.size:
            continue
        step = max(range(buffer.first, buffer.last + 1), key=lambda s: _live_bytes(placed, s))
        live = [(b, o) for b, o in placed if b.first <= step <= b.last]
        total = _live_bytes(placed, step)
        rows = "\n".join(
            f"  {o:>10}  {b.footprint:>10}  {b.describe()}"
            + (f" ({b.copies} copies)" if b.copies > 1 else "")
            for b, o in sorted(live, key=lambda pair: pair[1])
        )
        raise KtcError(
            f"{owner} does not fit in {memory.kind} of device @{device.name}, which holds "
            f"{memory.size} bytes: the {len(live)} buffers live at its peak take "
            f"{total} bytes and end at byte {high_water(live)}\n"
            f"     address       bytes  buffer\n{rows}",
            where(buffer.alloc),
        )


def _live_bytes(placed: Sequence[tuple[Buffer, int]], step: int) -> int:
    return sum(b.footprint for b, _ in placed if b.first <= step <= b.last)


def _record(placed: Iterable[tuple[Buffer, int]]) -> None:
    for buffer, offset in placed:
        set_address(buffer.alloc, offset)
        if buffer.copies > 1:
            set_copy_stride(buffer.alloc, buffer.stride)


@dataclass(frozen=True)
class AddressAssignment(ModulePass):
    """Gives every buffer a byte offset in its memory, reusing space between
    buffers that are never live together, and rejects a kernel that does not fit.

    Expects scheduled ScheduleIR in a module that declares its device, every
    ``ktdf.tiling.reserve_size`` resolved: ``memref.alloc`` ops whose memory space
    names a device memory (a kind, or a KTIR space through ``mem_space_mapping``),
    static sizes or dynamic sizes with a bound the pass can see (constants, tile
    sizes, loop indices, ``derive_size``, arithmetic over them).

    Produces each such alloc in place with ``ktdf.address = N : i64``, its byte
    offset in one instance of its memory (per core for a scratchpad, per sub-core
    for a sub-core memory), aligned to what the device's load and store units
    need, and ``ktdf.copy_stride`` when it stands for several copies (a ``modulo``
    pipeline's rotating buffers, an alloc inside ``ktdf.parallel`` in a memory
    the instances share, device memory per grid tile). Scratchpad buffers are laid
    out per function (each program starts from an empty scratchpad but for the
    kernel's own data: no buffer takes the bytes of a ``ct_local`` memory view of the
    module, ``kernel_placed``), with space reused between steps of the function that run one after another (a buffer
    lives from the step of its first use to that of its last; ``convert-ktdf-to-dfir``
    orders the engines of steps that share bytes); device
    memory is laid out once for the whole module. Memrefs without a memory space
    and kernel arguments get no address. A buffer past its memory's capacity is an
    error naming the memory and its capacity, with a table of the buffers live at
    the peak (address, bytes, type and location). Running it twice gives the same
    addresses.
    """

    name = "address-assignment"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op)
        reserved = kernel_placed(op, device)
        for func in [f for f in op.walk() if isinstance(f, FuncOp) and f.body.blocks]:
            for placed in program_layouts(find_buffers(func, device), device, {}, reserved).values():
                _check_fits(placed, device, f"@{func.sym_name.data}")
                _record(placed)
        shared = by_memory(buffers(op, device, {})).get(device.device_memory, [])
        placed = layout(shared)
        _check_fits(placed, device, "the module")
        _record(placed)
