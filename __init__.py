"""ktc: a KTIR compiler for dataflow accelerators with scratchpad memories.

The public API (imported lazily, so ``import ktc`` stays cheap):

- ``ktc.compile(text, arch)``: a KTIR kernel's package (``ktc.driver.compile``);
- ``ktc.load(path)``: a package read from a ``.ktpkg`` file, validated;
- ``ktc.prepare(package, device)``: the package prepared on a device (its prepare plan
  run once); ``.launch(*args)`` runs its launch plan per call;
- ``ktc.Simulator(arch)``: the cycle-level simulator of a device;
  ``ktc.Simulator("spyre").prepare(pkg)`` is ``ktc.prepare(pkg, ...)`` on it, and the
  executable's ``.report()`` gives the figures of its last launch.
"""

__version__ = "0.1.0"

_API = {
    "compile": ("ktc.driver", "compile"),
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
