"""Loading a package, running its prepare plan once and its launch plan per call."""
