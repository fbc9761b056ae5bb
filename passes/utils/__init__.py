"""IR helpers that several passes share; none of them is a pass."""
