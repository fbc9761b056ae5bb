"""DataflowIR to per-engine instruction encodings, the disassembler, the package format."""
