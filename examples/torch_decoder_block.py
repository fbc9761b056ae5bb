"""A one-layer decoder block from PyTorch on the simulated chip: RMSNorm, causal
self-attention and a SwiGLU MLP, each behind a residual add.

    python examples/torch_decoder_block.py [--arch spyre] [--dtype float32|float16] [--ktir-dir DIR]

The seven projections run as product kernels on the simulator (each weight read
through a transpose), the attention as one kernel per block of queries and head (its
two products and the softmax between them), and the RMSNorms (written in ATen as LLaMA
does), the SwiGLU gate ``silu(gate) * up`` and the residual adds as row-wise kernels.
The attention reads and writes through the transposes that move the heads to the front
and back; the host makes the causal mask (the front end does not yet write it inside the kernel), which the
attention kernel adds to its scores. Prints each kernel's cycles and their total, what
ran in PyTorch and why, and the check against eager PyTorch.
"""

from __future__ import annotations

import torch
from torch_mlp import arguments, run

F = torch.nn.functional


class RMSNorm(torch.nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = torch.nn.Parameter(1 + 0.1 * torch.randn(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)).type_as(x) * self.weight


class DecoderBlock(torch.nn.Module):
    def __init__(self, dim: int, heads: int, hidden: int):
        super().__init__()
        self.heads = heads
        self.attention_norm, self.mlp_norm = RMSNorm(dim), RMSNorm(dim)
        self.q, self.k, self.v, self.o = (torch.nn.Linear(dim, dim, bias=False) for _ in range(4))
        self.gate = torch.nn.Linear(dim, hidden, bias=False)
        self.up = torch.nn.Linear(dim, hidden, bias=False)
        self.down = torch.nn.Linear(hidden, dim, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, tokens, dim = x.shape
        h = self.attention_norm(x)
        q, k, v = (p(h).view(batch, tokens, self.heads, dim // self.heads).transpose(1, 2)
                   for p in (self.q, self.k, self.v))
        attended = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o(attended.transpose(1, 2).reshape(batch, tokens, dim))
        h = self.mlp_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


def main() -> int:
    args = arguments(__doc__.splitlines()[0])
    torch.manual_seed(0)
    dtype = getattr(torch, args.dtype)
    model = DecoderBlock(256, 4, 512).to(dtype).eval()
    x = torch.randn(2, 32, 256).to(dtype)
    return 0 if run(model, x, args.arch, args.ktir_dir) else 1


if __name__ == "__main__":
    raise SystemExit(main())
