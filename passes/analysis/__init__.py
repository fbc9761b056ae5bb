"""Facts about the IR that several passes need: the memory layout that
``tile-size-selection`` and ``address-assignment`` both compute
(``memory_layout``), what an inter-tile reduce means on a static grid
(``inter_tile``).

Nothing here rewrites IR and nothing here imports a pass module.
"""
