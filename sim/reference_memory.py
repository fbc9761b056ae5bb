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
A scratchpad has the capacity of the device's scratchpad; an access to a byte beyond it
is a capacity error naming the core, the bytes asked for and the capacity. Device
memory is bounded only by the device's size, when it is known.

**Coordinates.** A view covers the global coordinates of its ``coordinate_set`` (its
symbols bound to the view's dynamic sizes, left to right). Coordinate ``x`` lies at
element ``offset + sum((x[d] - origin[d]) * strides[d])``, where ``origin`` is the lower
corner of the set's bounding box: 0 for an ordinary view, the first row of its rows for
a partition of a distributed view. Every access is checked: a coordinate outside the
view's set (or, within the set, outside its sizes) is an error, never masked. A
distributed view routes each coordinate to the partition whose set holds it; a load
reads the first such partition (operand order), a store writes every one.

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

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import prod

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap

from ktc.dialects.diagnostics import KtcError, where
from ktc.sim import numerics
from ktc.sim.reference_affine import BoundSet

# ---------------------------------------------------------------------------------------
# Memories

_CHUNK = 1 << 20


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

    def _span(self, dtype: np.dtype, start: int, shape, strides) -> tuple[int, int]:
        """The bytes [low, high) a strided window touches."""
        low = high = start
        for extent, stride in zip(shape, strides):
            if extent == 0:
                return start * dtype.itemsize, start * dtype.itemsize
            reach = (extent - 1) * stride
            low, high = low + min(reach, 0), high + max(reach, 0)
        return low * dtype.itemsize, (high + 1) * dtype.itemsize

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
        self._ensure(*self._span(dtype, start, shape, strides), "reads", op)
        if 0 in shape:
            return np.empty(shape, dtype)
        return self._window(dtype, start, shape, strides).copy()

    def write_window(self, dtype, start: int, shape, strides, values, op: Operation) -> None:
        dtype = np.dtype(dtype)
        low, high = self._span(dtype, start, shape, strides)
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


class DeviceMemory(Memory):
    """The device's memory: grows to fit what is accessed, up to ``limit`` bytes. Only
    the written parts are copied when it grows, so untouched gigabytes cost nothing."""

    def __init__(self, limit: int | None):
        super().__init__("device memory", _CHUNK)
        self.limit = limit
        self._dirty: list[tuple[int, int]] = []

    def _ensure(self, low: int, high: int, action: str, op: Operation) -> None:
        super()._ensure(low, high, action, op)
        if self.limit is not None and high > self.limit:
            raise KtcError(
                f"{op.name} {action} bytes [{low}, {high}) of device memory, beyond its "
                f"{self.limit} bytes",
                where(op),
            )
        if high > len(self._bytes):
            self.grow(high)

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


def _merged(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for low, high in sorted(intervals):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(high, merged[-1][1]))
        else:
            merged.append((low, high))
    return merged


class Scratchpad(Memory):
    """One core's scratchpad: ``capacity`` bytes, addressed from 0."""

    def __init__(self, core: int, capacity: int):
        super().__init__(f"the scratchpad of core {core}", capacity)
        self.core = core
        self.capacity = capacity

    def _ensure(self, low: int, high: int, action: str, op: Operation) -> None:
        super()._ensure(low, high, action, op)
        if high > self.capacity:
            raise KtcError(
                f"scratchpad overflow on core {self.core}: {op.name} {action} bytes "
                f"[{low}, {high}), beyond the scratchpad's capacity of {self.capacity} bytes",
                where(op),
            )


@dataclass
class Machine:
    """What every core shares: device memory and the scratchpads, one per grid tile."""

    tiles: int
    scratchpad_bytes: int
    device: DeviceMemory
    scratchpads: dict[int, Scratchpad] = field(default_factory=dict)

    def scratchpad(self, core: int, op: Operation) -> Scratchpad:
        if not 0 <= core < self.tiles:
            raise KtcError(
                f"{op.name}: ct_id {core} names no core of the grid ({self.tiles} cores)", where(op)
            )
        pad = self.scratchpads.get(core)
        if pad is None:
            pad = self.scratchpads[core] = Scratchpad(core, self.scratchpad_bytes)
        return pad


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


def _check_inside(view: View, coords: Sequence, op: Operation) -> None:
    """Every point of ``coords`` (broadcasting arrays) lies in the view's set and sizes."""
    cover = view.coordinates
    if cover.is_box and not cover.empty:
        within = all(
            (low is None or int(np.min(c)) >= low) and (high is None or int(np.max(c)) <= high)
            for c, low, high in zip(coords, cover.lows, cover.highs)
        )
    else:
        within = bool(np.all(cover.contains(coords))) if not cover.empty else False
    if not within:
        raise _outside(
            view,
            coords,
            cover.contains(coords) & (not cover.empty),
            op,
            f"is outside the coordinate set {cover.text}",
        )
    local = [c - o for c, o in zip(coords, view.origin)]
    if all(int(np.min(x)) >= 0 and int(np.max(x)) < size for x, size in zip(local, view.sizes)):
        return
    inside = True
    for x, size in zip(local, view.sizes):
        inside = inside & (x >= 0) & (x < size)
    raise _outside(view, coords, inside, op, f"lies beyond the sizes {list(view.sizes)}")


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
    """The plan for explicit coordinates (arrays broadcasting to ``layout``)."""
    if isinstance(view, View):
        _check_inside(view, coords, op)
        memory = view.memory(machine, core, op)
        return Plan(
            view.storage, layout, tile_shape, (_Points(memory, _offsets(view, coords), None),)
        )
    pieces = []
    covered = np.zeros(layout, bool)
    for part in view.parts:
        holds = np.broadcast_to(part.coordinates.contains(coords), layout) & (
            not part.coordinates.empty
        )
        if not holds.any():
            continue
        part_coords = [np.broadcast_to(c, layout)[holds] for c in coords]
        _check_inside(part, part_coords, op)
        offsets = np.zeros(layout, np.int64)
        offsets[holds] = _offsets(part, part_coords)
        pieces.append(_Points(part.memory(machine, core, op), offsets, holds))
        covered |= holds
    if not covered.all():
        raise _uncovered(view, coords, covered, op)
    return Plan(view.storage, layout, tile_shape, tuple(pieces))


def _uncovered(view: DistributedView, coords: Sequence, covered, op: Operation) -> KtcError:
    shape = np.shape(covered)
    first = tuple(np.argwhere(~covered)[0])
    point = tuple(int(np.broadcast_to(c, shape)[first]) for c in coords)
    return KtcError(
        f"{op.name}: coordinate {_point_text(point)} is in no partition of the distributed "
        f"memory view built at {where(view.op)}",
        where(op),
    )


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
    sorted by ``permutation``: strided windows when the view's sets are boxes."""
    layout = tuple(extents)
    order = None if permutation == tuple(range(len(layout))) else permutation
    parts = (view,) if isinstance(view, View) else view.parts
    if not all(part.coordinates.is_box for part in parts) or 0 in layout:
        grid = _grid(lows, extents)
        return _permuted(
            plan_points(view, grid, layout, layout, machine, core, op), order, tile_shape
        )
    if isinstance(view, View):
        if not _box_inside(view, lows, extents):
            _check_inside(view, _grid(lows, extents), op)
        return Plan(
            view.storage,
            layout,
            tile_shape,
            (_window(view, lows, extents, machine, core, op),),
            order,
        )
    pieces = []
    covered = np.zeros(layout, bool)
    for part in parts:
        low = [max(lo, p) for lo, p in zip(lows, part.coordinates.lows)]
        high = [min(lo + n - 1, p) for lo, n, p in zip(lows, extents, part.coordinates.highs)]
        if part.coordinates.empty or any(h < lo for lo, h in zip(low, high)):
            continue
        sub = [h - lo + 1 for lo, h in zip(low, high)]
        if not _box_inside(part, low, sub):
            _check_inside(part, _grid(low, sub), op)
        piece = _window(part, low, sub, machine, core, op, [lo - l0 for lo, l0 in zip(low, lows)])
        pieces.append(piece)
        covered[piece.box] = True
    if not covered.all():
        raise _uncovered(view, _grid(lows, extents), covered, op)
    return Plan(view.storage, layout, tile_shape, tuple(pieces), order)


def _grid(lows: Sequence[int], extents: Sequence[int]) -> list[np.ndarray]:
    """The open grid of the box ``lows + [0, extents)``."""
    rank = len(lows)
    return [
        np.arange(low, low + n).reshape([n if d == k else 1 for k in range(rank)])
        for d, (low, n) in enumerate(zip(lows, extents))
    ]


def _box_inside(view: View, lows: Sequence[int], extents: Sequence[int]) -> bool:
    """Whether a non-empty box lies in a view whose set is a box, and in its sizes."""
    cover = view.coordinates
    for low, n, set_low, set_high, origin, size in zip(
        lows, extents, cover.lows, cover.highs, view.origin, view.sizes
    ):
        high = low + n - 1
        if (set_low is not None and low < set_low) or (set_high is not None and high > set_high):
            return False
        if low - origin < 0 or high - origin >= size:
            return False
    return not cover.empty


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
