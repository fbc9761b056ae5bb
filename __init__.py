"""ktc: a KTIR compiler for dataflow accelerators with scratchpad memories.

The public API grows with the toolchain; today it offers the dialect context and
the IR reader/printer.
"""

__version__ = "0.1.0"
