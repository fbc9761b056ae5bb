"""ktc: a KTIR compiler for dataflow accelerators with scratchpad memories.

The public API (imported lazily, so ``import ktc`` stays cheap):

- ``ktc.compile(source, arch)``: a KTIR kernel's package (``ktc.driver.compile``);
  ``source`` is the kernel's text or a path to it (a ``pathlib.Path``, or a string of
  one line that names a file or ends in ``.mlir``), ``arch`` a device name or an arch
  file;
- ``ktc.load(path)``: a package read from a ``.ktpkg`` file, validated;
- ``ktc.prepare(package, device)``: the package prepared on a device (its prepare plan
  run once); ``.launch(*args)`` runs its launch plan per call;
- ``ktc.Simulator(arch)``: the cycle-level simulator of a device;
  ``ktc.Simulator("spyre").prepare(pkg)`` is ``ktc.prepare(pkg, ...)`` on it, and the
  executable's ``.report()`` gives the figures of its last launch.
"""

__version__ = "0.1.0"

_API = {
    "load": ("ktc.codegen.package", "read"),
    "prepare": ("ktc.runtime.executable", "prepare"),
    "Package": ("ktc.codegen.package", "Package"),
    "Simulator": ("ktc.sim.simulator", "Simulator"),
}


def __getattr__(name: str):
    if name not in _API:
        raise AttributeError(f"module 'ktc' has no attribute '{name}'")
    from importlib import import_module

    module, attribute = _API[name]
    return getattr(import_module(module), attribute)


def compile(source, arch, filename: str | None = None, function: str | None = None,
            optimize: bool = True):
    """The package of the KTIR kernel ``source`` (its text, or a path to it) for the
    device ``arch`` (a name such as ``"spyre"``, or an arch file); see
    ``ktc.driver.compile`` for ``function`` and ``optimize``."""
    import os

    from ktc.driver import compile as compile_text
    from ktc.errors import KtcError

    if not isinstance(arch, str | os.PathLike):
        raise TypeError(f"arch names the device ('spyre', 'toy') or an arch file, not "
                        f"{type(arch).__name__}")
    if not isinstance(source, str | os.PathLike):
        raise TypeError(f"source is a kernel's text (str) or a path to it, not "
                        f"{type(source).__name__}" + ("; decode bytes first" if
                                                      isinstance(source, bytes) else ""))
    if isinstance(source, os.PathLike) or "\n" not in source and (
            os.path.isfile(source) or source.endswith(".mlir")):
        path = os.fspath(source)
        try:
            with open(path, encoding="utf-8") as file:
                source = file.read()
        except (OSError, UnicodeDecodeError) as err:
            raise KtcError(f"cannot read the kernel: {getattr(err, 'strerror', None) or err}",
                           path) from None
        filename = filename or path
    return compile_text(source, os.fspath(arch), filename or "<input>", function, optimize)


def __dir__() -> list[str]:
    """The public API (``dir(ktc)``), with the names loaded on first use."""
    return sorted(["__version__", "compile", *_API])
