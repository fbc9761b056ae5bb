"""Architecture description files and the device model built from them.

A device is named either by a packaged description (``spyre`` is the file
``spyre.mlir`` beside this module) or by the path of a description file.
``attach_device`` gives a module that declares no device a declaration importing
one, as ``ktc-opt --arch`` does. The device model itself (``Device.load``) lives in
``ktc.arch.model``; ``docs/arch-format.md`` describes the file format.
"""

import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import DeviceOp
from ktc.dialects.source import parse_module, verify_module

PACKAGED = Path(__file__).resolve().parent
"""Where the packaged device descriptions live."""


def available() -> list[str]:
    """The names of the packaged devices."""
    return sorted(path.stem for path in PACKAGED.glob("*.mlir"))


def is_packaged_name(name_or_file: str) -> bool:
    """Whether ``name_or_file`` names a packaged device (no ``/``, no ``.mlir``)."""
    return "/" not in name_or_file and not name_or_file.endswith(".mlir")


def resolve(name_or_file: str) -> Path:
    """The description file of a device: a path if the text has a ``/`` or ends in
    ``.mlir``, otherwise the name of a packaged device."""
    if not is_packaged_name(name_or_file):
        path = Path(name_or_file).resolve()
        if not path.is_file():
            raise KtcError("device file not found", name_or_file)
        return path
    path = PACKAGED / f"{name_or_file}.mlir"
    if not path.is_file():
        names = ", ".join(available()) or "none"
        raise KtcError(f"unknown device '{name_or_file}' (available: {names})")
    return path


@dataclass(frozen=True)
class DeviceFile:
    """A description file read and verified: its path, the SHA-256 of its text and
    the one device it declares or defines (shared: read it, never change it)."""

    path: Path
    sha256: str
    device: DeviceOp


_READ: dict[tuple[Path, str], DeviceFile] = {}
"""Every description file read so far, by path and content hash."""


def read_device_file(path: Path) -> DeviceFile:
    """The description file at ``path``, parsed and verified once per content."""
    try:
        text = path.read_text()
    except OSError as err:
        raise KtcError(f"cannot read device file: {err.strerror}", str(path)) from None
    key = (path, hashlib.sha256(text.encode()).hexdigest())
    if key not in _READ:
        _READ[key] = DeviceFile(path, key[1], _the_device(text, path))
    return _READ[key]


def _the_device(text: str, path: Path) -> DeviceOp:
    module = parse_module(text, str(path))
    verify_module(module)
    devices = [op for op in module.walk() if isinstance(op, DeviceOp)]
    if not devices:
        raise KtcError("no device in import file", str(path))
    if len(devices) > 1:
        raise KtcError("multiple devices in import file", str(path))
    return devices[0]


def read_device(path: Path) -> DeviceOp:
    """The one device that the description file at ``path`` defines, verified."""
    return read_device_file(path).device


def attach_device(module: ModuleOp, name_or_file: str) -> None:
    """Declare the device ``name_or_file`` at the top of ``module``, importing its
    file, unless the module declares a device already (then warn on stderr). The
    declaration names the device as given (``import("spyre")``, a packaged device, or
    the path given), so that printed IR holds no path of the machine it ran on."""
    declared = next((op for op in module.walk() if isinstance(op, DeviceOp)), None)
    if declared is not None:
        warning = KtcError(
            f"module already declares device @{declared.sym_name.data}; "
            f"ignoring device '{name_or_file}'",
            where(declared),
            "warning",
        )
        sys.stderr.write(f"{warning}\n")
        return
    path = resolve(name_or_file)
    declaration = DeviceOp.importing(read_device(path).sym_name.data, name_or_file)
    block = module.body.block
    if block.first_op is None:
        block.add_op(declaration)
    else:
        block.insert_op_before(declaration, block.first_op)
