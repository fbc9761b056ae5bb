"""An MLP block from PyTorch on the simulated chip: ``x + down(gelu(up(layer_norm(x))))``.

    python examples/torch_mlp.py [--arch spyre] [--dtype float32|float16] [--ktir-dir DIR]

``torch.compile(model, backend=...)`` with ktc's backend: everything runs as ktc
kernels on the simulator, the two ``nn.Linear`` included (each a product kernel, its
weight read through a transpose, its bias added in the kernel), besides the layer norm,
the GELU (tanh form) and the residual add. Prints each kernel's cycles and their total,
what ran in PyTorch and why (nothing), and the check against eager PyTorch.
"""

from __future__ import annotations

import argparse

import torch

from ktc.frontend import pytorch

TOLERANCE = {torch.float16: 2.0 ** -6, torch.float32: 1e-5}
"""Of each element and of the largest magnitude (the rule of ``ktc run --check``)."""


class MLP(torch.nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.norm = torch.nn.LayerNorm(dim)
        self.up = torch.nn.Linear(dim, hidden)
        self.down = torch.nn.Linear(hidden, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x)), approximate="tanh"))


def check(got: torch.Tensor, want: torch.Tensor) -> bool:
    """Print and return whether ``got`` matches ``want`` within the tolerance."""
    error = (got.double() - want.double()).abs()
    bound = TOLERANCE[want.dtype] * (want.double().abs() + want.double().abs().max())
    passed = bool((error <= bound).all())
    print(f"check against eager PyTorch: {'passed' if passed else 'FAILED'}, largest error "
          f"{error.max().item():.3g} (largest magnitude {want.abs().max().item():.3g})")
    return passed


def run(model: torch.nn.Module, x: torch.Tensor, arch: str, ktir_dir: str | None) -> bool:
    """Compile ``model`` for ``arch``, run it once, print the reports and the check."""
    before = len(pytorch.reports())
    with torch.no_grad():
        got = pytorch.compile(model, arch=arch, ktir_dir=ktir_dir)(x)
        want = model(x)
    reports = pytorch.reports()[before:]
    for report in reports:
        print(report)
    print(f"total: {sum(k.cycles for r in reports for k in r.kernels)} cycles in "
          f"{sum(len(r.kernels) for r in reports)} kernel(s)")
    return check(got, want)


def arguments(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--arch", default="spyre", help="device name or arch file (default spyre)")
    parser.add_argument("--dtype", default="float32", choices=["float32", "float16"])
    parser.add_argument("--ktir-dir", help="write each kernel's KTIR into this folder")
    return parser.parse_args()


def main() -> int:
    args = arguments(__doc__.splitlines()[0])
    torch.manual_seed(0)
    dtype = getattr(torch, args.dtype)
    model = MLP(256, 512).to(dtype).eval()
    x = torch.randn(2, 32, 256).to(dtype)
    return 0 if run(model, x, args.arch, args.ktir_dir) else 1


if __name__ == "__main__":
    raise SystemExit(main())
