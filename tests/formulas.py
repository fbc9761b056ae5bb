"""numpy formulas more than one test checks kernels against, written apart from the
compiler and the reference interpreter."""

import numpy as np


def swiglu_mlp(args: dict) -> np.ndarray:
    """``(silu(x wg) * (x wu)) wd``, rounded to f16 where the kernel rounds: each product
    once, and each step of the gating (exp, the sum, the quotient, the product), whose
    result is the down product's input."""
    x, wg, wu, wd = (np.asarray(args[name], np.float64) for name in ("x", "wg", "wu", "wd"))
    f16 = lambda values: values.astype(np.float16).astype(np.float64)
    gate, up = f16(x @ wg), f16(x @ wu)
    silu = f16(gate / f16(f16(np.exp(-gate)) + 1))
    return f16(silu * up) @ wd
