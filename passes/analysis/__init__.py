"""Facts about the IR that several passes need: the memory layout that
``tile-size-selection`` and ``address-assignment`` both compute
(``memory_layout``), what an inter-tile reduce means on a static grid
(``inter_tile``), the chains of stores with the loads and generics they need that
``tile-to-simd-width`` and ``construct-three-stage-pipeline`` both group
(``chains``).

Nothing here rewrites IR and nothing here imports a pass module.
"""
