"""Following a device declaration through its imports to the definition.

``ktdf_arch.device @name import("file")`` declares a device that ``file`` (relative
to the declaring file) defines, possibly through further imports. The attributes of
every declaration on the way are laid over the definition's, the outermost winning,
as in IBM's ``DeviceManager``. An import that comes back to a file already on the
way is an error at the import that closes the cycle.
"""

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from xdsl.ir import Attribute

from ktc.arch import DeviceFile, read_device_file
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import DeviceOp


@dataclass(frozen=True)
class Placed:
    """An attribute value and the ``file:line:col`` of the declaration writing it."""

    value: Attribute
    where: str


@dataclass(frozen=True)
class Source:
    """A device as its files give it: the definition and the attributes over it."""

    name: str
    """The name of the device as the first file declares it."""

    definition: DeviceOp
    """The device op holding the resources."""

    attributes: Mapping[str, Placed]
    """The device attributes after every declaration is laid over the definition."""

    files: tuple[DeviceFile, ...]
    """The files from the first declaration to the definition."""

    @property
    def content_hash(self) -> str:
        """SHA-256 over the contents of every file on the way."""
        return hashlib.sha256("".join(file.sha256 for file in self.files).encode()).hexdigest()


def load_source(path: Path) -> Source:
    """The device declared or defined in the file at ``path``, imports followed."""
    chain = [read_device_file(path)]
    while (import_path := chain[-1].device.import_path) is not None:
        declaration = chain[-1].device
        target = (chain[-1].path.parent / import_path.data).resolve()
        if any(file.path == target for file in chain):
            cycle = " -> ".join([*(file.path.name for file in chain), target.name])
            raise KtcError(f"import cycle: {cycle}", where(declaration))
        if not target.is_file():
            raise KtcError(f"imported device file not found: {import_path.data}", where(declaration))
        chain.append(read_device_file(target))
    attributes: dict[str, Placed] = {}
    for file in reversed(chain):
        for name, value in file.device.attributes.items():
            attributes[name] = Placed(value, where(file.device))
    return Source(chain[0].device.sym_name.data, chain[-1].device, attributes, tuple(chain))
