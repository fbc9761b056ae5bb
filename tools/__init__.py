"""Command-line entry points: ``ktc-opt`` and ``ktc``."""
