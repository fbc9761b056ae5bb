"""Memory of the KTIR reference interpreter: device memory, scratchpads, memory views and
access tiles, moved as numpy blocks.

**Addresses.** A memory view's start and strides count *elements of the view's element
type*: element ``a`` of an ``f16`` view is byte ``2a`` of its memory, of an ``i32`` view
byte ``4a``, as ktir-cpu reads them. Device
memory and every scratchpad are flat, byte addressed and zero before anything is written.

**Memories.** ``#ktdp.memory_space<global>`` is device memory, one for the whole grid.
``#ktdp.memory_space<ct_local, ct_id = N>`` is the scratchpad of core ``N`` (grid tile
``N``, whichever core reads it); ``ct_local`` without ``ct_id`` is the scratchpad of the
core that executes the access. The older ``#ktdp.spyre_memory_space`` maps as the ktdp
dialect says; ``unspecified`` is device memory, as ktir-cpu takes a view without a space.
The ``Target`` (the device the reference runs for) sizes them: a scratchpad has the
device's scratchpad capacity, and an access to a byte beyond it is a capacity error
naming the core, the bytes asked for and the capacity; device memory is bounded by the
device's size. With no device both are unbounded.

**Coordinates.** A view covers the global coordinates of its ``coordinate_set`` (its
symbols bound to the view's dynamic sizes, left to right). Coordinate ``x`` lies at
element ``offset + sum((x[d] - origin[d]) * strides[d])``, where ``origin`` is the lower
corner of the set's bounding box: 0 for an ordinary view, the first row of its rows for
a partition of a distributed view. A distributed view routes each coordinate to the
partition whose set holds it; a load reads the first such partition (operand order), a
store writes every one.

**Masking** (``docs/ktir.md``). A coordinate outside the view's set (outside every
partition's, for a distributed view) is *masked*: a load reads the element type's zero
there, a store writes nothing there. A coordinate inside a set is checked: outside the
view's sizes, or at an address outside the array of the argument the view is built on
(``Bounds``), it is an error naming the op and the coordinate. No access leaves its
argument's array.

**Access tiles.** A direct tile is the coordinates ``base + p`` for ``p`` in
``access_tile_set``. Its points are *sorted* by ``access_tile_order(p)``
(lexicographically, last result fastest) and fill the tile in row-major order, so a
permutation order transposes the box, and a set whose point count equals the tile's
but whose box has another shape fills it row by row. An indirect tile enumerates its
``variables_space_set`` the same way and reads its indirect coordinates from the index
views when it is built (the op reads memory). A store that reaches one element twice
leaves the value of the later point in tile order.

Boxes (a set bounded by one-variable constraints, under a permutation order) move as
strided windows of memory; everything else moves by gather and scatter over element
offsets computed with numpy broadcasting, never one element at a time in Python.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from math import prod

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap

from ktc.dialects.diagnostics import KtcError, where
from ktc.sim import numerics
from ktc.sim.reference_affine import BoundSet
from ktc.sim.reference_compute import ExecutionError, type_name

# ---------------------------------------------------------------------------------------
# Memories

_CHUNK = 1 << 20


def span(itemsize: int, start: int, shape, strides) -> tuple[int, int]:
    """The bytes [low, high) a strided window of elements touches."""
    low = high = start
    for extent, stride in zip(shape, strides):
        if extent == 0:
            return start * itemsize, start * itemsize
        reach = (extent - 1) * stride
        low, high = low + min(reach, 0), high + max(reach, 0)
    return low * itemsize, (high + 1) * itemsize


class Memory:
    """A flat, zero-initialized, byte-addressed memory read and written as typed
    elements. Accesses are checked against its bounds first."""

    def __init__(self, what: str, size: int):
        self.what = what
        self._bytes = np.zeros(size, np.uint8)
        self._typed: dict[np.dtype, np.ndarray] = {}

    def _ensure(self, low: int, high: int, action: str, op: Operation) -> None:
        """Check that bytes [low, high) may be accessed (growing, where allowed)."""
        if low < 0:
            raise KtcError(
                f"{op.name} {action} byte {low} of {self.what}: negative address", where(op)
            )

    def _typed_view(self, dtype: np.dtype) -> np.ndarray:
        view = self._typed.get(dtype)
        if view is None:
            usable = len(self._bytes) - len(self._bytes) % dtype.itemsize
            view = self._typed[dtype] = self._bytes[:usable].view(dtype)
        return view


    def _window(self, dtype: np.dtype, start: int, shape, strides) -> np.ndarray:
        """A view of the elements (bounds already checked)."""
        return np.ndarray(
            tuple(shape),
            dtype,
            buffer=self._bytes,
            offset=start * dtype.itemsize,
            strides=[stride * dtype.itemsize for stride in strides],
        )

    def read_window(self, dtype, start: int, shape, strides, op: Operation) -> np.ndarray:
        """A copy of the elements ``start + sum(i[d] * strides[d])``, ``i`` over ``shape``."""
        dtype = np.dtype(dtype)
        self._ensure(*span(dtype.itemsize, start, shape, strides), "reads", op)
        if 0 in shape:
            return np.empty(shape, dtype)
        return self._window(dtype, start, shape, strides).copy()

    def write_window(self, dtype, start: int, shape, strides, values, op: Operation) -> None:
        dtype = np.dtype(dtype)
        low, high = span(dtype.itemsize, start, shape, strides)
        self._ensure(low, high, "writes", op)
        if 0 in shape:
            return
        self._written(low, high)
        self._window(dtype, start, shape, strides)[...] = values

    def gather(self, dtype, offsets: np.ndarray, op: Operation) -> np.ndarray:
        """The elements at ``offsets`` (an integer array of any shape)."""
        dtype = np.dtype(dtype)
        if offsets.size == 0:
            return np.empty(offsets.shape, dtype)
        self._ensure(
            int(offsets.min()) * dtype.itemsize,
            (int(offsets.max()) + 1) * dtype.itemsize,
            "reads",
            op,
        )
        return self._typed_view(dtype)[offsets]

    def scatter(self, dtype, offsets: np.ndarray, values: np.ndarray, op: Operation) -> None:
        """Write ``values`` at ``offsets`` in order (``np.put``), so a later one wins."""
        dtype = np.dtype(dtype)
        if offsets.size == 0:
            return
        low, high = int(offsets.min()) * dtype.itemsize, (int(offsets.max()) + 1) * dtype.itemsize
        self._ensure(low, high, "writes", op)
        self._written(low, high)
        np.put(self._typed_view(dtype), offsets.ravel(), np.ascontiguousarray(values).ravel())

    def _written(self, low: int, high: int) -> None:
        """Note that bytes [low, high) hold data (device memory copies them when it grows)."""


class GrowingMemory(Memory):
    """A memory that grows to fit what is accessed, up to ``limit`` bytes (None: no
    limit). Only the written parts are copied when it grows, so untouched gigabytes cost
    nothing."""

    def __init__(self, what: str, limit: int | None):
        super().__init__(what, min(_CHUNK, limit or _CHUNK))
        self.limit = limit
        self._dirty: list[tuple[int, int]] = []

    def _ensure(self, low: int, high: int, action: str, op: Operation) -> None:
        super()._ensure(low, high, action, op)
        if self.limit is not None and high > self.limit:
            raise self.beyond(low, high, action, op)
        if high > len(self._bytes):
            self.grow(high)

    def beyond(self, low: int, high: int, action: str, op: Operation) -> KtcError:
        return KtcError(
            f"{op.name} {action} bytes [{low}, {high}) of {self.what}, beyond its "
            f"{self.limit} bytes",
            where(op),
        )

    def grow(self, size: int) -> None:
        """Make bytes [0, size) addressable."""
        if size <= len(self._bytes):
            return
        size = -(-max(size, 2 * len(self._bytes)) // _CHUNK) * _CHUNK
        if self.limit is not None:
            size = min(size, -(-self.limit // 8) * 8)
        grown = np.zeros(size, np.uint8)
        for low, high in _merged(self._dirty):
            grown[low:high] = self._bytes[low:high]
        self._dirty = _merged(self._dirty)
        self._bytes, self._typed = grown, {}

    def _written(self, low: int, high: int) -> None:
        self._dirty.append((low, high))
        if len(self._dirty) > 4096:
            self._dirty = _merged(self._dirty)


class DeviceMemory(GrowingMemory):
    """The device's memory, ``limit`` bytes (None: unbounded)."""

    def __init__(self, limit: int | None):
        super().__init__("device memory", limit)


def _merged(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for low, high in sorted(intervals):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(high, merged[-1][1]))
        else:
            merged.append((low, high))
    return merged


class Scratchpad(GrowingMemory):
    """One core's scratchpad: ``capacity`` bytes (None: unbounded), addressed from 0."""

    def __init__(self, core: int, capacity: int | None):
        super().__init__(f"the scratchpad of core {core}", capacity)
        self.core = core

    def beyond(self, low: int, high: int, action: str, op: Operation) -> KtcError:
        return KtcError(
            f"scratchpad overflow on core {self.core}: {op.name} {action} bytes "
            f"[{low}, {high}), beyond the scratchpad's capacity of {self.limit} bytes",
            where(op),
        )


@dataclass(frozen=True)
class Target:
    """What the reference takes from the device it runs for (``Target.of``), or from
    none (``Target()``): memory sizes, where argument arrays start, SIMD widths."""

    name: str | None = None
    scratchpad_bytes: int | None = None
    """Per core; None: unbounded."""
    device_memory_bytes: int | None = None
    """None: unbounded."""
    alignment: int | None = None
    """Byte boundary argument arrays start at; None: each at a multiple of its element
    size."""
    lanes: Mapping[str, int] = field(default_factory=dict)
    """SIMD lanes per element type name (``f16``): the slice ``slice_reduction``
    reduces. Empty without a device."""

    @classmethod
    def of(cls, device) -> Target:
        """The facts of a ``ktc.arch.model.Device``."""
        memory_links = [
            link for link in device.links
            if device.device_memory in (link.source.kind, link.target.kind)
        ]
        granule = max((g for link in memory_links for g in link.granularity), default=None)
        return cls(
            device.name,
            device.memory(device.scratchpad).size,
            device.memory(device.device_memory).size,
            granule,
            {type_name(element): n for element, n in device.compute.lanes.items()},
        )

    def slice_elements(self, element: str) -> int:
        """The elements ``slice_reduction`` reduces at a time: one SIMD vector."""
        if self.name is None:
            raise ExecutionError(
                "slice_reduction reduces one SIMD vector of the device at a time: run the "
                "reference for a device"
            )
        if element not in self.lanes:
            raise ExecutionError(f"device @{self.name} has no SIMD lanes for {element}")
        return self.lanes[element]


@dataclass
class Machine:
    """What every core shares: device memory and the scratchpads, one per grid tile."""

    tiles: int
    target: Target
    device: DeviceMemory
    scratchpads: dict[int, Scratchpad] = field(default_factory=dict)
    arrays: dict[Operation, Bounds] = field(default_factory=dict)
    """Per ``construct_memory_view`` built on a pointer argument, its array."""

    def scratchpad(self, core: int, op: Operation) -> Scratchpad:
        if not 0 <= core < self.tiles:
            raise KtcError(
                f"{op.name}: ct_id {core} names no core of the grid ({self.tiles} cores)", where(op)
            )
        pad = self.scratchpads.get(core)
        if pad is None:
            pad = self.scratchpads[core] = Scratchpad(core, self.target.scratchpad_bytes)
        return pad


@dataclass(frozen=True)
class Bounds:
    """The bytes [low, high) of device memory holding pointer argument ``name``'s
    array: what views built on it may reach."""

    name: str
    low: int
    high: int


# ---------------------------------------------------------------------------------------
# Memory views


@dataclass(frozen=True)
class View:
    """A ``construct_memory_view``: where a tensor lies and which coordinates it covers."""

    op: Operation
    element: str
    """The element type's name (``f16``, ``df16``, ``i32``, ...)."""
    local: bool
    """``ct_local`` (else device memory)."""
    ct_id: int | None
    """The core whose scratchpad holds a ``ct_local`` view (None: the executing core)."""
    offset: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    coordinates: BoundSet
    origin: tuple[int, ...]
    bounds: Bounds | None = None
    """The array of the pointer argument it is built on (None: an address of the
    kernel's own)."""

    @property
    def storage(self) -> np.dtype:
        return numerics.storage_dtype(self.element)

    def memory(self, machine: Machine, core: int, op: Operation) -> Memory:
        if not self.local:
            return machine.device
        return machine.scratchpad(core if self.ct_id is None else self.ct_id, op)


def origin_of(coordinates: BoundSet, op: Operation) -> tuple[int, ...]:
    missing = [dim for dim, low in enumerate(coordinates.lows) if low is None]
    if missing:
        raise KtcError(
            f"{op.name}: the coordinate_set {coordinates.text} gives no lower bound for "
            f"d{missing[0]}, so the view's first element has no coordinate",
            where(op),
        )
    return coordinates.lows  # type: ignore[return-value]


@dataclass(frozen=True)
class DistributedView:
    """A ``construct_distributed_memory_view``: the union of its partitions."""

    op: Operation
    element: str
    parts: tuple[View, ...]

    @property
    def storage(self) -> np.dtype:
        return numerics.storage_dtype(self.element)


AnyView = View | DistributedView


# ---------------------------------------------------------------------------------------
# Plans: how a tile's coordinates map onto memory


@dataclass(frozen=True)
class _Window:
    memory: Memory
    start: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    box: tuple[slice, ...]
    """Where the window lies in the tile's box."""


@dataclass(frozen=True)
class _Points:
    memory: Memory
    offsets: np.ndarray
    """Element offsets, shaped like the layout (or broadcasting to it)."""
    holds: np.ndarray | None
    """Which layout positions this memory holds (None: all); a load takes each position
    from the first piece holding it, a store writes every holder."""


@dataclass(frozen=True)
class Plan:
    """The memory behind a tile's coordinates, in the tile's layout.

    Windows: the tile is a box (``layout`` its extents in set order), ``permutation``
    orders it, ``shape`` is the tile. Points: ``layout`` is the sorted points' layout."""

    storage: np.dtype
    layout: tuple[int, ...]
    shape: tuple[int, ...]
    pieces: tuple[_Window, ...] | tuple[_Points, ...]
    permutation: tuple[int, ...] | None = None

    def load(self, op: Operation) -> np.ndarray:
        """The raw (storage) elements, shaped like the tile."""
        if self.pieces and isinstance(self.pieces[0], _Window):
            raw = self._load_windows(op)
        else:
            raw = self._load_points(op)
        return np.ascontiguousarray(raw).reshape(self.shape)

    def _load_windows(self, op: Operation) -> np.ndarray:
        if len(self.pieces) == 1 and self.pieces[0].shape == self.layout:
            piece = self.pieces[0]
            raw = piece.memory.read_window(
                self.storage, piece.start, piece.shape, piece.strides, op
            )
        else:
            raw = np.zeros(self.layout, self.storage)
            for piece in reversed(self.pieces):  # the first partition holding a point wins
                raw[piece.box] = piece.memory.read_window(
                    self.storage, piece.start, piece.shape, piece.strides, op
                )
        return raw if self.permutation is None else raw.transpose(self.permutation)

    def _load_points(self, op: Operation) -> np.ndarray:
        if len(self.pieces) == 1 and self.pieces[0].holds is None:
            piece = self.pieces[0]
            return piece.memory.gather(
                self.storage, np.broadcast_to(piece.offsets, self.layout), op
            )
        raw = np.zeros(self.layout, self.storage)
        filled = np.zeros(self.layout, bool)
        for piece in self.pieces:
            take = piece.holds & ~filled
            raw[take] = piece.memory.gather(self.storage, piece.offsets[take], op)
            filled |= take
        return raw

    def store(self, raw: np.ndarray, op: Operation) -> None:
        """Write raw (storage) elements shaped like the tile."""
        if self.pieces and isinstance(self.pieces[0], _Window):
            box = raw.reshape(
                tuple(self.layout[d] for d in self.permutation or range(len(self.layout)))
            )
            if self.permutation is not None:
                box = box.transpose(np.argsort(self.permutation))
            for piece in self.pieces:
                piece.memory.write_window(
                    self.storage, piece.start, piece.shape, piece.strides, box[piece.box], op
                )
            return
        values = np.broadcast_to(raw.reshape(self.layout) if raw.size else raw, self.layout)
        for piece in self.pieces:
            offsets = np.broadcast_to(piece.offsets, self.layout)
            if piece.holds is None:
                piece.memory.scatter(self.storage, offsets, values, op)
            else:
                piece.memory.scatter(self.storage, offsets[piece.holds], values[piece.holds], op)


def _outside(view: View, coords: Sequence, mask, op: Operation, what: str) -> KtcError:
    """The error for the first coordinate where ``mask`` is False."""
    mask = np.asarray(mask, bool)
    shape = np.broadcast_shapes(*(np.shape(c) for c in coords), mask.shape)
    first = np.argwhere(~np.broadcast_to(mask, shape))[0]
    point = tuple(int(np.broadcast_to(c, shape)[tuple(first)]) for c in coords)
    return KtcError(
        f"{op.name}: coordinate {_point_text(point)} {what} of the memory view built at "
        f"{where(view.op)}",
        where(op),
    )


def _point_text(point: Sequence[int]) -> str:
    return "(" + ", ".join(str(x) for x in point) + ")"


def _parts(view: AnyView) -> tuple[View, ...]:
    return (view,) if isinstance(view, View) else view.parts


def _held(view: View, coords: Sequence, layout: tuple[int, ...]) -> np.ndarray:
    """Which points of ``coords`` (broadcasting to ``layout``) the view's set holds."""
    if view.coordinates.empty:
        return np.zeros(layout, bool)
    return np.broadcast_to(view.coordinates.contains(coords), layout)


def _check_sizes(view: View, coords: Sequence, op: Operation) -> None:
    """Every point of ``coords`` (in the view's set) lies within its sizes."""
    local = [c - o for c, o in zip(coords, view.origin)]
    if all(
        np.size(x) == 0 or (int(np.min(x)) >= 0 and int(np.max(x)) < size)
        for x, size in zip(local, view.sizes)
    ):
        return
    inside = True
    for x, size in zip(local, view.sizes):
        inside = inside & (x >= 0) & (x < size)
    raise _outside(view, coords, inside, op, f"lies beyond the sizes {list(view.sizes)}")


def _check_bounds(view: View, coords: Sequence, offsets: np.ndarray, op: Operation) -> None:
    """Every element offset lies in the array of the view's argument."""
    bounds = view.bounds
    if bounds is None or offsets.size == 0:
        return
    size = view.storage.itemsize
    if int(offsets.min()) * size >= bounds.low and (int(offsets.max()) + 1) * size <= bounds.high:
        return
    inside = (offsets * size >= bounds.low) & ((offsets + 1) * size <= bounds.high)
    elements = f"[{bounds.low // size}, {bounds.high // size})"
    raise _outside(
        view, coords, inside, op,
        f"lies outside the array of argument %{bounds.name} (elements {elements} from the "
        "first of device memory)",
    )


def _offsets(view: View, coords: Sequence) -> np.ndarray:
    total = view.offset
    for c, o, stride in zip(coords, view.origin, view.strides):
        total = total + (np.asarray(c, np.int64) - o) * stride
    return np.asarray(total, np.int64)


def plan_points(
    view: AnyView,
    coords: Sequence,
    layout: tuple[int, ...],
    tile_shape,
    machine: Machine,
    core: int,
    op: Operation,
) -> Plan:
    """The plan for explicit coordinates (arrays broadcasting to ``layout``); those
    that no set holds are masked."""
    parts = _parts(view)
    pieces = []
    for part in parts:
        holds = _held(part, coords, layout)
        if len(parts) == 1 and holds.all():
            _check_sizes(part, coords, op)
            offsets = _offsets(part, coords)
            _check_bounds(part, coords, np.broadcast_to(offsets, layout), op)
            pieces.append(_Points(part.memory(machine, core, op), offsets, None))
            break
        if not holds.any():
            continue
        part_coords = [np.broadcast_to(c, layout)[holds] for c in coords]
        _check_sizes(part, part_coords, op)
        offsets = np.zeros(layout, np.int64)
        offsets[holds] = _offsets(part, part_coords)
        _check_bounds(part, part_coords, offsets[holds], op)
        pieces.append(_Points(part.memory(machine, core, op), offsets, holds))
    return Plan(view.storage, layout, tile_shape, tuple(pieces))


def plan_box(
    view: AnyView,
    lows: Sequence[int],
    extents: Sequence[int],
    permutation: tuple[int, ...],
    tile_shape,
    machine: Machine,
    core: int,
    op: Operation,
) -> Plan:
    """The plan for the box of global coordinates ``lows + [0, extents)``, its points
    sorted by ``permutation``: strided windows when the view's sets are boxes, each the
    part of the box its set holds (the rest is masked)."""
    layout = tuple(extents)
    order = None if permutation == tuple(range(len(layout))) else permutation
    parts = _parts(view)
    if not all(part.coordinates.is_box for part in parts) or 0 in layout:
        grid = _grid(lows, extents)
        return _permuted(
            plan_points(view, grid, layout, layout, machine, core, op), order, tile_shape
        )
    pieces = []
    for part in parts:
        held = _intersection(part.coordinates, lows, extents)
        if held is None:
            continue
        low, sub = held
        if not _box_in_sizes(part, low, sub):
            _check_sizes(part, _grid(low, sub), op)
        piece = _window(part, low, sub, machine, core, op, [lo - l0 for lo, l0 in zip(low, lows)])
        if part.bounds is not None:
            first, last = span(part.storage.itemsize, piece.start, piece.shape, piece.strides)
            if first < part.bounds.low or last > part.bounds.high:
                grid = _grid(low, sub)
                _check_bounds(part, grid, np.broadcast_to(_offsets(part, grid), tuple(sub)), op)
        pieces.append(piece)
    return Plan(view.storage, layout, tile_shape, tuple(pieces), order)


def _intersection(
    cover: BoundSet, lows: Sequence[int], extents: Sequence[int]
) -> tuple[list[int], list[int]] | None:
    """The part of the box ``lows + [0, extents)`` inside a set that is a box, as
    (lows, extents); None when they do not meet."""
    if cover.empty:
        return None
    low = [lo if c is None else max(lo, c) for lo, c in zip(lows, cover.lows)]
    high = [lo + n - 1 if c is None else min(lo + n - 1, c) for lo, n, c in zip(lows, extents, cover.highs)]
    if any(h < lo for lo, h in zip(low, high)):
        return None
    return low, [h - lo + 1 for lo, h in zip(low, high)]


def _grid(lows: Sequence[int], extents: Sequence[int]) -> list[np.ndarray]:
    """The open grid of the box ``lows + [0, extents)``."""
    rank = len(lows)
    return [
        np.arange(low, low + n).reshape([n if d == k else 1 for k in range(rank)])
        for d, (low, n) in enumerate(zip(lows, extents))
    ]


def _box_in_sizes(view: View, lows: Sequence[int], extents: Sequence[int]) -> bool:
    """Whether a non-empty box lies within the view's sizes."""
    return all(
        low - origin >= 0 and low + n - 1 - origin < size
        for low, n, origin, size in zip(lows, extents, view.origin, view.sizes)
    )


def _window(view: View, lows, extents, machine, core, op, at=None) -> _Window:
    start = view.offset + sum((low - o) * s for low, o, s in zip(lows, view.origin, view.strides))
    at = at or [0] * len(lows)
    box = tuple(slice(a, a + n) for a, n in zip(at, extents))
    return _Window(view.memory(machine, core, op), start, tuple(extents), view.strides, box)


def _permuted(plan: Plan, order: tuple[int, ...] | None, tile_shape) -> Plan:
    """A points plan over a box layout, re-laid in the sorted order."""
    if order is None:
        return plan
    layout = tuple(plan.layout[d] for d in order)
    pieces = tuple(
        _Points(
            p.memory,
            np.broadcast_to(p.offsets, plan.layout).transpose(order),
            None if p.holds is None else p.holds.transpose(order),
        )
        for p in plan.pieces
    )
    return Plan(plan.storage, layout, tile_shape, pieces)


# ---------------------------------------------------------------------------------------
# Access tiles


def tile_shape_for(
    layout: tuple[int, ...], declared: Sequence[int], op: Operation
) -> tuple[int, ...]:
    """The tile's shape: the declared one, its ``?`` filled from the sorted points'
    layout, which must hold as many points as the tile."""
    count = prod(layout)
    if len(declared) == len(layout) and all(
        d in (DYNAMIC_INDEX, n) for d, n in zip(declared, layout)
    ):
        return tuple(layout)
    dynamic = [i for i, d in enumerate(declared) if d == DYNAMIC_INDEX]
    known = prod(d for d in declared if d != DYNAMIC_INDEX)
    if not dynamic and known == count:
        return tuple(declared)
    if len(dynamic) == 1 and known and count % known == 0:
        return tuple(count // known if d == DYNAMIC_INDEX else d for d in declared)
    shown = "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in declared)
    laid = "x".join(map(str, layout)) or "a point"
    raise KtcError(
        f"{op.name}: the tile's set holds {count} points (laid out as {laid}), which do not "
        f"fill the tile type <{shown}>",
        where(op),
    )


@dataclass
class AccessTile:
    """A direct access tile: coordinates ``base + p``, ``p`` in ``points`` sorted by
    ``order`` (``permutation`` when the order is one)."""

    op: Operation
    view: AnyView
    base: tuple[int, ...]
    points: BoundSet
    order: AffineMap
    permutation: tuple[int, ...] | None
    declared: tuple[int, ...]
    plans: dict[int, Plan] = field(default_factory=dict)
    """By executing core (a ``ct_local`` view resolves to the executing core's memory)."""

    def plan(self, machine: Machine, core: int, op: Operation) -> Plan:
        plan = self.plans.get(core)
        if plan is None:
            plan = self.plans[core] = self._plan(machine, core, op)
        return plan

    def _plan(self, machine: Machine, core: int, op: Operation) -> Plan:
        try:
            lows, highs = self.points.box()
        except ValueError as err:
            raise KtcError(f"{self.op.name}: access_tile_set: {err}", where(self.op)) from None
        if self.points.is_box and self.permutation is not None:
            extents = [0 if self.points.empty else max(h - lo + 1, 0) for lo, h in zip(lows, highs)]
            layout = tuple(extents[d] for d in self.permutation)
            shape = tile_shape_for(layout, self.declared, self.op)
            global_lows = [b + lo for b, lo in zip(self.base, lows)]
            return plan_box(
                self.view, global_lows, extents, self.permutation, shape, machine, core, op
            )
        points, layout = self.points.points(self.order)
        shape = tile_shape_for(layout, self.declared, self.op)
        coords = [b + p for b, p in zip(self.base, points)]
        return plan_points(self.view, coords, layout, shape, machine, core, op)


@dataclass
class IndirectAccessTile:
    """An indirect access tile, its coordinates read when it was built."""

    op: Operation
    view: AnyView
    coords: list
    layout: tuple[int, ...]
    shape: tuple[int, ...]
    plans: dict[int, Plan] = field(default_factory=dict)

    def plan(self, machine: Machine, core: int, op: Operation) -> Plan:
        plan = self.plans.get(core)
        if plan is None:
            plan = self.plans[core] = plan_points(
                self.view, self.coords, self.layout, self.shape, machine, core, op
            )
        return plan


Tile = AccessTile | IndirectAccessTile


def read_coordinates(
    view: AnyView, coords: Sequence, machine: Machine, core: int, op: Operation
) -> np.ndarray:
    """The values at ``coords`` (arrays broadcasting together) of an index view."""
    layout = np.broadcast_shapes(*(np.shape(c) for c in coords))
    plan = plan_points(view, coords, layout, layout, machine, core, op)
    return numerics.from_storage(view.element, plan.load(op))


def load(tile: Tile, machine: Machine, core: int, op: Operation) -> np.ndarray:
    """``ktdp.load``: the tile's elements as values of the view's element type."""
    raw = tile.plan(machine, core, op).load(op)
    element = tile.view.element
    return (
        raw if raw.dtype == numerics.value_dtype(element) else numerics.from_storage(element, raw)
    )


def store(tile: Tile, data, machine: Machine, core: int, op: Operation) -> None:
    """``ktdp.store``: write ``data`` (values, shaped like the tile) to its coordinates."""
    plan = tile.plan(machine, core, op)
    data = np.asarray(data)
    raw = data if data.dtype == plan.storage else numerics.to_storage(tile.view.element, data)
    plan.store(np.asarray(raw, plan.storage).reshape(plan.shape), op)
