"""The device a runtime talks to. The simulator implements it; nothing in
``runtime/`` knows what is behind it."""

from __future__ import annotations

from typing import Protocol

from ktc.codegen.binary import DataflowBinary


class DeviceError(Exception):
    """The device refused or failed a request (out of memory, a fault while running)."""


class Device(Protocol):
    arch_name: str
    """The name of the architecture description the device was built from."""
    arch_hash: str
    """The content hash of that description (hex sha256), checked against a package's."""

    def alignment(self, memory: str) -> int:
        """Bytes an array in memory kind ``memory`` must start at a multiple of."""

    def allocate(self, memory: str, nbytes: int, alignment: int) -> int:
        """Reserve ``nbytes`` in memory kind ``memory`` (device memory: its kind name); the address."""

    def write(self, memory: str, address: int, data) -> None:
        """Copy host bytes (any bytes-like object) into device memory."""

    def read(self, memory: str, address: int, nbytes: int):
        """Copy device memory back to the host (a bytes-like object the caller may keep)."""

    def load(self, dataflow: DataflowBinary) -> int:
        """Place a dataflow's programs on their units (InitTransfer); a handle for it."""

    def patch(self, handle: int, engine: int, code: bytes) -> None:
        """Replace engine ``engine``'s code of a loaded dataflow by relocated code (DataTransfer)."""

    def execute(self, handle: int) -> None:
        """Start every program of a loaded dataflow and wait until all finish (ComputeOnDevice)."""
