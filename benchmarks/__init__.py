"""The performance suite (``ktc bench``): benchmark kernels and the runner that measures
roofline efficiency, compile time and simulator speed. See ``suite.py``."""
