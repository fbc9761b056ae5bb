"""The simulator's memories: byte-addressed, sparse, bounds-checked.

A memory holds its bytes in pages created on first touch, so a 128 GiB device memory
costs only what a kernel uses. A :class:`View` (what a ``view`` instruction makes) is
read or written as one numpy block: the byte span it covers is gathered from the
pages and the elements are picked out with strides, never element by element.

Every access is checked: the span must lie inside the memory, and in a memory the
host allocated buffers in (device memory), inside one allocation. A failed check
raises :class:`OutOfBounds`; the engine adds which instruction made the access.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from ktc.sim import numerics

PAGE_BYTES = 1 << 16
"""Bytes per page of backing store."""


class OutOfBounds(Exception):
    """An access outside its memory or outside every allocation in it."""


@dataclass(slots=True)
class View:
    """A strided window on a memory: what a ``dfir.view`` is at run time (a value: never
    changed once made, ``dataclasses.replace`` makes another)."""

    unit: int
    """The memory's index in the dataflow's unit table."""

    address: int
    """Byte address of element 0."""

    dtype: str
    """Element type name as ``ktc.sim.numerics`` spells it (``f16``, ``df16``...)."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    """In elements."""

    itemsize: int = field(init=False, repr=False, compare=False)
    """Bytes per element."""

    def __post_init__(self):
        self.itemsize = numerics.bytes_per_element(self.dtype)

    @property
    def nbytes(self) -> int:
        """Bytes of data the view holds (not the span it covers)."""
        return math.prod(self.shape) * self.itemsize

    def span(self) -> tuple[int, int]:
        """``[lo, hi)``: the bytes between its lowest and highest element."""
        low = high = 0
        for n, s in zip(self.shape, self.strides):
            if n == 0:
                return self.address, self.address
            if s < 0:
                low += (n - 1) * s
            else:
                high += (n - 1) * s
        return self.address + low * self.itemsize, self.address + (high + 1) * self.itemsize

    def runs(self) -> tuple[int, int]:
        """``(count, bytes)``: the view as contiguous runs of equal length, innermost
        dimensions merged while they are dense."""
        run, dense = 1, 1
        for n, s in zip(reversed(self.shape), reversed(self.strides)):
            if s != dense and n != 1:
                break
            run *= n
            dense *= n
        total = math.prod(self.shape)
        return (total // run if run else 0), run * self.itemsize

    def row(self, index: tuple[int, ...], length: int) -> View:
        """The ``length`` consecutive elements along the innermost dimension from
        ``index`` (what ``vld``/``vst`` touch); indices are checked against the shape."""
        if len(index) != len(self.shape):
            raise OutOfBounds(f"{len(index)} indices for a {len(self.shape)}-d view")
        offset, inside = 0, index[-1] + length <= self.shape[-1]
        for i, n, s in zip(index, self.shape, self.strides):
            inside = inside and 0 <= i < n
            offset += i * s
        if not inside:
            raise OutOfBounds(
                f"elements {list(index)}..+{length} outside the view's shape {list(self.shape)}"
            )
        return View(
            self.unit, self.address + offset * self.itemsize, self.dtype, (length,), (self.strides[-1],)
        )


class Memory:
    """One memory instance: its size, its host allocations and its bytes."""

    def __init__(self, name: str, size: int, page_bytes: int = PAGE_BYTES):
        self.name = name
        self.size = size
        self.page_bytes = min(page_bytes, size)
        self.pages: dict[int, np.ndarray] = {}
        self.allocations: list[tuple[int, int]] = []
        """``(address, nbytes)`` in allocation order."""
        self._next = 0

    # Host side ---------------------------------------------------------------------

    def allocate(self, nbytes: int, alignment: int) -> int:
        """The next free address aligned to ``alignment`` (a bump allocator)."""
        alignment = max(alignment, 1)
        address = -(-self._next // alignment) * alignment
        if nbytes < 0 or address + nbytes > self.size:
            raise OutOfBounds(
                f"{self.name} cannot hold {nbytes} more bytes: {self._next} of {self.size} in use"
            )
        self.allocations.append((address, nbytes))
        self._next = address + nbytes
        return address

    # Bytes -------------------------------------------------------------------------

    def check(self, lo: int, hi: int) -> None:
        """Raise unless ``[lo, hi)`` lies in the memory (and in one allocation, if any)."""
        if lo < 0 or hi > self.size:
            raise OutOfBounds(f"bytes [{lo:#x}, {hi:#x}) outside {self.name} (size {self.size:#x})")
        if lo == hi or not self.allocations:
            return
        for start, n in self.allocations:
            if start <= lo and hi <= start + n:
                return
        raise OutOfBounds(f"bytes [{lo:#x}, {hi:#x}) of {self.name} outside every allocated buffer")

    def read(self, lo: int, hi: int) -> np.ndarray:
        """A copy of bytes ``[lo, hi)`` (unwritten bytes read as zero)."""
        self.check(lo, hi)
        out = np.zeros(hi - lo, np.uint8)
        for page, start, stop in self._pieces(lo, hi):
            data = self.pages.get(page)
            if data is not None:
                base = page * self.page_bytes
                out[start - lo : stop - lo] = data[start - base : stop - base]
        return out

    def write(self, lo: int, data: np.ndarray) -> None:
        """Store the bytes ``data`` at ``lo``."""
        hi = lo + data.size
        self.check(lo, hi)
        for page, start, stop in self._pieces(lo, hi):
            if page not in self.pages:
                self.pages[page] = np.zeros(self.page_bytes, np.uint8)
            base = page * self.page_bytes
            self.pages[page][start - base : stop - base] = data[start - lo : stop - lo]

    def _pieces(self, lo: int, hi: int):
        """``(page, start, stop)`` for each page the bytes ``[lo, hi)`` touch."""
        for page in range(lo // self.page_bytes, -(-hi // self.page_bytes)):
            base = page * self.page_bytes
            yield page, max(lo, base), min(hi, base + self.page_bytes)

    # Views -------------------------------------------------------------------------

    def load(self, view: View) -> np.ndarray:
        """The elements of ``view`` as values of its type, in its shape."""
        elements, _ = self._elements(view)
        return numerics.from_storage(view.dtype, elements).copy()

    def store(self, view: View, values: np.ndarray) -> None:
        """Write ``values`` (broadcast to the view's shape) into ``view``'s elements."""
        elements, copied = self._elements(view)
        if np.shape(values) != view.shape:
            values = np.broadcast_to(values, view.shape)
        elements[...] = numerics.to_storage(view.dtype, values)
        if copied is not None:
            self.write(*copied)

    def _elements(self, view: View) -> tuple[np.ndarray, tuple[int, np.ndarray] | None]:
        """The elements of ``view``, as an array of its storage type on the bytes they lie
        in: their page, or, where they cross pages, a copy of the bytes, returned too as
        ``(lo, bytes)`` to be written back."""
        lo, hi = view.span()
        self.check(lo, hi)
        storage = numerics.storage_dtype(view.dtype)
        size = view.itemsize
        strides = tuple([s * size for s in view.strides])
        page, offset = divmod(lo, self.page_bytes)
        if offset + hi - lo <= self.page_bytes:
            data = self.pages.get(page)
            if data is None:
                data = self.pages[page] = np.zeros(self.page_bytes, np.uint8)
            return np.ndarray(view.shape, storage, data, offset + view.address - lo, strides), None
        block = self.read(lo, hi)
        return np.ndarray(view.shape, storage, block, view.address - lo, strides), (lo, block)
