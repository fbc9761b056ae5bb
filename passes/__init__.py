"""ktc's passes, one module per pass, registered lazily by name.

``PASSES`` maps a pass name to ``(module, class)``; ``pass_factories`` gives the
lazy factories of ktc's passes, ``all_passes`` those and xDSL's, as a pass pipeline is
parsed with them. Nothing of xDSL's pass machinery is imported until one is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.passes import ModulePass

PASSES: dict[str, tuple[str, str]] = {
    "lower-parallel-loops": ("lower_parallel_loops", "LowerParallelLoops"),
    "ktir-legality-check": ("ktir_legality_check", "KtirLegalityCheck"),
    "lower-runtime-args": ("lower_runtime_args", "LowerRuntimeArgs"),
    "fold-view-strides": ("fold_view_strides", "FoldViewStrides"),
    "normalize-select-combiners": ("normalize_select_combiners", "NormalizeSelectCombiners"),
    "permute-access-tiles": ("permute_access_tiles", "PermuteAccessTiles"),
    "fold-reshapes-and-slices": ("fold_reshapes_and_slices", "FoldReshapesAndSlices"),
    "split-distributed-views": ("split_distributed_views", "SplitDistributedViews"),
    "compute-group-extraction": ("compute_group_extraction", "ComputeGroupExtraction"),
    "inter-tile-reduce-lowering": ("inter_tile_reduce_lowering", "InterTileReduceLowering"),
    "remote-scratchpad-lowering": ("remote_scratchpad_lowering", "RemoteScratchpadLowering"),
    "indirect-access-lowering": ("indirect_access_lowering", "IndirectAccessLowering"),
    "stream-copies": ("stream_copies", "StreamCopies"),
    "stage-reshaped-tiles": ("stage_reshaped_tiles", "StageReshapedTiles"),
    "normalize-contractions": ("normalize_contractions", "NormalizeContractions"),
    "contraction-tiling": ("contraction_tiling", "ContractionTiling"),
    "contraction-pipeline": ("contraction_pipeline", "ContractionPipeline"),
    "share-over-ring": ("share_over_ring", "ShareOverRing"),
    "reuse-loaded-tiles": ("reuse_loaded_tiles", "ReuseLoadedTiles"),
    "materialize-phase-buffers": ("materialize_phase_buffers", "MaterializePhaseBuffers"),
    "generalize-and-fuse": ("generalize_and_fuse", "GeneralizeAndFuse"),
    "lower-ktdp-views": ("lower_ktdp_views", "LowerKtdpViews"),
    "tile-to-simd-width": ("tile_to_simd_width", "TileToSimdWidth"),
    "construct-three-stage-pipeline": ("construct_three_stage_pipeline", "ConstructThreeStagePipeline"),
    "apply-arch-patterns": ("apply_arch_patterns", "ApplyArchPatterns"),
    "path-expansion": ("path_expansion", "PathExpansion"),
    "scalar-broadcast-legalization": ("scalar_broadcast_legalization", "ScalarBroadcastLegalization"),
    "normalize-scf-for-loops": ("normalize_scf_for_loops", "NormalizeScfForLoops"),
    "tile-scf-for-loops": ("tile_scf_for_loops", "TileScfForLoops"),
    "verify-schedule": ("verify_schedule", "VerifySchedule"),
    "stage-coarsening": ("stage_coarsening", "StageCoarsening"),
    "broadcast-promotion": ("broadcast_promotion", "BroadcastPromotion"),
    "reduction-dim-chunking": ("reduction_dim_chunking", "ReductionDimChunking"),
    "reduction-loop-exposure": ("reduction_loop_exposure", "ReductionLoopExposure"),
    "map-reduction-partials": ("map_reduction_partials", "MapReductionPartials"),
    "double-buffering": ("double_buffering", "DoubleBuffering"),
    "parallelize-loops-across-instances": (
        "parallelize_loops_across_instances", "ParallelizeLoopsAcrossInstances",
    ),
    "tile-size-selection": ("tile_size_selection", "TileSizeSelection"),
    "address-assignment": ("address_assignment", "AddressAssignment"),
    "normalize-grid-to-1d": ("normalize_grid_to_1d", "NormalizeGridTo1D"),
    "convert-ktdf-to-dfir": ("convert_ktdf_to_dfir", "ConvertKtdfToDfir"),
    "hoist-loop-invariants": ("hoist_loop_invariants", "HoistLoopInvariants"),
    "unroll-short-loops": ("unroll_short_loops", "UnrollShortLoops"),
    "chain-matrix-products": ("chain_matrix_products", "ChainMatrixProducts"),
}


def _load(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    return lambda: getattr(import_module(f"ktc.passes.{module}"), cls)


def pass_factories() -> dict[str, Callable[[], type[ModulePass]]]:
    return {name: _load(module, cls) for name, (module, cls) in PASSES.items()}


@cache
def all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass by name, xDSL's and ktc's (ktc's taking a shared name)."""
    from xdsl.transforms import get_all_passes

    return get_all_passes() | pass_factories()
