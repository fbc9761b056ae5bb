"""Named pipelines: a name that ``ktc-opt -p`` expands into a list of passes.

Each pipeline is a pass-spec string; the comments between stages state what is
true of the IR at that checkpoint.
"""

KTIR_TO_SCHEDULE = ",".join([
    # KTIR as written: func.func kernels with a grid, ktdp views/tiles/loads/stores,
    # tensor compute in arith/math/linalg/spyreop; the module declares its device.
    "apply-arch-patterns{point=pre_mapping}",
    "ktir-legality-check",
    # Only what the pipeline below can lower is left; nothing has changed yet.
    "compute-group-extraction",
    # One module @local_schedule_N per compute group; the kernel is an orchestrator
    # of control flow, address arithmetic and calls.
    "construct-three-stage-pipeline",
    # Each program: one fused linalg.generic tiled to the SIMD width, the innermost
    # loop a ktdf.pipeline load-into-FIFO -> compute -> store-from-FIFO; FIFO ends
    # are "<memory kind>" -> "<compute kind>", not yet real neighbours.
    "apply-arch-patterns{point=pre_scheduling}",
    "path-expansion",
    # Every stage runs on a named engine; every transfer follows a device link;
    # staging buffers live in the scratchpad; FIFOs join real neighbours.
    "scalar-broadcast-legalization",
    "normalize-scf-for-loops",
    "canonicalize",
    "tile-scf-for-loops",
    # Loops from 0 step 1; nests of parallel loops tiled by reserve_size placeholders.
    "verify-schedule",
])

PIPELINES: dict[str, str] = {"ktir-to-schedule": KTIR_TO_SCHEDULE}


def expand(spec: str) -> str:
    """Replace every named pipeline in a comma-separated pass spec by its passes."""
    parts = [part.strip() for part in _split_top_level(spec) if part.strip()]
    return ",".join(PIPELINES.get(part, part) for part in parts)


def _split_top_level(spec: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in spec:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]
