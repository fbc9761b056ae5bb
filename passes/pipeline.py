"""Named pipelines: a name that ``ktc-opt -p`` expands into a list of passes.

Each pipeline is a pass-spec string; the comments between stages state what is
true of the IR at that checkpoint. ``apply_verified`` runs one pass as the compiler
and ``ktc-opt`` both do: a failure becomes a ``KtcError`` naming the pass, and the
module is verified after it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, PassFailedException

from ktc.dialects.source import verify_module
from ktc.errors import KtcError

if TYPE_CHECKING:
    from xdsl.passes import ModulePass

KTIR_TO_SCHEDULE = ",".join([
    # KTIR as written: func.func kernels with a grid, ktdp views/tiles/loads/stores,
    # tensor compute in arith/math/linalg/spyreop; the module declares its device.
    "apply-arch-patterns{point=pre_mapping}",
    "lower-parallel-loops",
    # Every scf.parallel is a nest of scf.for, its reductions carried as iter_args.
    "fold-view-strides",
    # A view's strides computed from constants are constants of the view.
    "ktir-legality-check",
    # Only what the pipeline below can lower is left; nothing has changed yet.
    "lower-runtime-args",
    # Runtime arguments are arguments of their underlying type (the launch checks
    # their granularity and upper bound); their granularity and bound are constants.
    "normalize-select-combiners",
    # A reduction keeping an extremum by compare and select combines with a max or min.
    "permute-access-tiles",
    # Every access tile is in the identity order (a permuted one reads a permuted view).
    "fold-reshapes-and-slices",
    # No reshape or slice of a tensor is left: each is a tile of the loads and stores
    # (a reshape a view of the tile's memory in the new shape, a slice a smaller tile).
    "split-distributed-views",
    # Every view is of one memory: an access of a distributed view is accesses of its
    # partitions' views in local coordinates (a copy one per partition, masked).
    "compute-group-extraction",
    # One module @local_schedule_N per compute group; the kernel is an orchestrator
    # of control flow, address arithmetic and calls.
    "inter-tile-reduce-lowering",
    # A reduce across tiles is a store of the tile's partial into its slot of a
    # scratchpad receive buffer, a pipeline on the ring stop per consumer rank
    # copying that slot into a consumer tile's buffer, and a fold of the buffer's
    # slots.
    "remote-scratchpad-lowering",
    # A load of another tile's scratchpad is a pipeline per reader rank on the ring
    # stop in which the owner copies the reader's tile into the reader's receive
    # buffer, and a load of that buffer.
    "indirect-access-lowering",
    # A load of an indirect access tile is a pipeline gathering it into a scratchpad
    # buffer (index views copied whole, then one DMA per run at an address computed
    # from the indices read) and a load of that buffer; a store is the converse.
    "stream-copies",
    # A copy between direct tiles that does not fit the scratchpad is a loop over
    # pieces of it (its trailing dimensions) around a pipeline of two DMA stages
    # sharing a private scratchpad buffer of one piece.
    "stage-reshaped-tiles",
    # A reshape no strides describe is a copy of the tile into a scratchpad buffer
    # of the new shape and a load of that buffer (a store: the converse).
    "normalize-contractions",
    "contraction-tiling",
    "contraction-pipeline",
    "fold-reshapes-and-slices",
    # Every contraction on a matrix unit is one pipeline, built: its result a
    # scratchpad buffer in the accumulator type the rest of the program loads (a
    # left operand computed on chip stored before it, a slice of it a block of its
    # chunk-major buffer, each slice folded into the compute that makes it); on a
    # device without one it is a generic multiplying and reducing along k innermost.
    "share-over-ring",
    # A block of device memory several tiles copy identically is copied by one of
    # them in turn and forwarded to the others over the interconnect, where the
    # bound says that is cheaper.
    "reuse-loaded-tiles",
    # A tile of device memory that sibling loops all load is loaded by the first,
    # which keeps it in a scratchpad buffer the later ones load.
    "materialize-phase-buffers",
    # Each program is phases: straight-line runs between the loops that hold compute.
    # A tensor is used only in the phase that makes it; one another phase needs goes
    # through a scratchpad buffer; iter_args loops are reduction_loops keeping their
    # accumulators in such buffers.
    "generalize-and-fuse",
    # The compute of each phase is linalg.generics fused producer into consumer: one
    # per elementwise computation, plus reductions and their fills; nothing else is
    # left on tensors but loads, stores and empty tensors.
    "lower-ktdp-views",
    # Memory views are typed with their device memory kind; the access tile of every
    # load and store starts at the origin of a memref.reinterpret_cast of its view.
    "tile-to-simd-width",
    # Each chain (stores sharing loads or compute) is a nest of parallel_loops over
    # tiles of the SIMD width, its loads, generics and stores on one tile innermost.
    "construct-three-stage-pipeline",
    # Each chain on tiles is a ktdf.pipeline load-into-FIFO -> compute -> store-from-
    # FIFO; FIFO ends are "<memory kind>" -> "<compute kind>", not yet real neighbours.
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

KTIR_TO_DFIR = ",".join([
    "ktir-to-schedule",
    # ScheduleIR as above: one pipeline per program, tiled to the SIMD width.
    "stage-coarsening",
    # Loops around a pipeline sunk into it: an outer pipeline over tiles whose FIFO
    # group wraps the loops over vectors and an inner pipeline; staging buffers
    # expanded over the sunk loops; orchestrator loops sunk into the programs.
    "reduction-dim-chunking",
    "reduction-loop-exposure",
    "map-reduction-partials",
    # Reductions are explicit loops over SIMD vectors accumulating in the compute
    # unit's local memory; oversized reductions are chunked.
    "broadcast-promotion",
    # Loop-invariant transfers run once, in a sibling pipeline before their loop.
    "double-buffering",
    # Buffers handed between stages inside a loop are duplicated; pipelines rotate.
    "parallelize-loops-across-instances",
    # Parallel loops over sub-core pipelines are ktdf.parallel over the instances.
    "tile-size-selection",
    "canonicalize",
    # No reserve_size is left: every size is a constant chosen by the cost model.
    "apply-arch-patterns{point=post_scheduling}",
    "address-assignment",
    # Every buffer has a ktdf.address in its memory; the kernel fits.
    "normalize-grid-to-1d",
    "convert-ktdf-to-dfir",
    # DataflowIR: per program, symbols defined on the host and one dfir.dataflow
    # with a program per engine kind; the orchestrator is the launch sequence.
    "hoist-loop-invariants",
    # An engine's work that does not change from one iteration of a loop to the next
    # (a row's scale splatted for each of its vectors, a constant) done once before it.
    "unroll-short-loops",
    # No loop of a few iterations is left in an engine program; a load unit issues
    # each load before writing the vector loaded before it into its FIFO.
    "chain-matrix-products",
    # Consecutive products of the matrix unit into the same accumulators follow one
    # another in the unit, not stored and loaded back between them.
    "apply-arch-patterns{point=post_lowering}",
])

SCHEDULE_OPTIMIZATIONS = (
    "share-over-ring",
    "reuse-loaded-tiles",
    "broadcast-promotion",
    "double-buffering",
    "parallelize-loops-across-instances",
    "hoist-loop-invariants",
    "unroll-short-loops",
    "chain-matrix-products",
)
"""The passes ``ktir-to-dfir-unoptimized`` leaves out: no hoisting of loop-invariant
transfers or instructions, no double buffering, one instance per core, no unrolling, no
chained products of the matrix unit, no copy shared over the interconnect, no tile kept
in the scratchpad for sibling loops."""

SERIAL_LOWERING = "convert-ktdf-to-dfir{serial=true}"
"""The lowering of the naive schedule: each pipeline's tiles one at a time."""


def _unoptimized(spec: str) -> list[str]:
    """The passes of ``spec`` (``ktir-to-schedule`` expanded) without the schedule
    optimizations, lowered serially."""
    parts: list[str] = []
    for part in spec.split(","):
        if part == "ktir-to-schedule":
            parts += _unoptimized(KTIR_TO_SCHEDULE)
        elif part not in SCHEDULE_OPTIMIZATIONS:
            parts.append(SERIAL_LOWERING if part == "convert-ktdf-to-dfir" else part)
    return parts


KTIR_TO_DFIR_UNOPTIMIZED = ",".join(_unoptimized(KTIR_TO_DFIR))
# The naive baseline the benchmarks measure the schedule against: one tile at a time,
# with no overlap between loading, computing and storing. ktir-to-dfir without the
# schedule optimizations (every operand re-read for every tile, one buffer per stage,
# one sub-core per core), and lowered serially: the first stage of a tile (its copies
# in) starts only once the last stage of the tile before (its copies out) has
# completed. stage-coarsening stays: it moves the loop over tiles into the engine
# programs (one launch of the dataflow, not one per tile) and copies a tile with one
# DMA. Tile sizes are still the cost model's here; the driver's
# compile(optimize=False) gives tile-size-selection the smallest sizes instead.

PIPELINES: dict[str, str] = {
    "ktir-to-schedule": KTIR_TO_SCHEDULE,
    "ktir-to-dfir": KTIR_TO_DFIR,
    "ktir-to-dfir-unoptimized": KTIR_TO_DFIR_UNOPTIMIZED,
}


def expand(spec: str) -> str:
    """Replace every named pipeline in a comma-separated pass spec by its passes."""
    parts = [part.strip() for part in _split_top_level(spec) if part.strip()]
    return ",".join(expand(PIPELINES[part]) if part in PIPELINES else part for part in parts)


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


def apply_verified(module_pass: ModulePass, ctx: Context, module: ModuleOp,
                   verify: bool = True) -> None:
    """Apply ``module_pass`` to ``module``, then (unless ``verify`` is False) verify it;
    a diagnostic of the pass is a ``KtcError`` at ``pass <name>``."""
    try:
        module_pass.apply(ctx, module)
    except (DiagnosticException, PassFailedException) as err:
        raise KtcError(str(err).strip(), f"pass {module_pass.name}") from None
    if verify:
        verify_module(module)
