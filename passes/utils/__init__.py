"""IR helpers that several passes share: ancestors and the enclosing function
(``ir``), loops (``loops``), transfers and their loop nests (``transfers``), the
resources a pipeline's ``ktdf.private`` hands out (``resources``), the integer value
of an index expression (``values``), fusion of elementwise ``linalg`` ops (``fusion``),
the phases of a program (``phases``), access tiles of boxes (``tiles``), a copy
streamed through the scratchpad in pieces (``copies``).

Nothing here is a pass and nothing here imports a pass module
(``tests/unit/passes/test_import_graph.py`` checks it).
"""
