"""How long the reference interpreter takes on each kernel of the ktir-cpu corpus.

    python benchmarks/reference_corpus.py [--repeat N] [KERNEL ...]

For each kernel: its grid, the time to parse, verify and compile it ("load", once),
and the best of N runs (default 3; wall and CPU seconds) on random inputs (kernels with
constant addresses run on zeroed memory; the paged kernels get a 64 MB scratchpad so
that their 16 MB tiles fit). The corpus lives beside the project, in
``shared/ktir-corpus``; without it there is nothing to measure.

Measured on the project's 2-core machine while other jobs shared it (load average ~17),
which stretched wall time about 4x; the CPU seconds of a run are the steadier figure:

| kernel | cores | load | run | run (CPU) |
|---|---|---|---|---|
| rfc/add-with-control-flow.mlir | 1 | 0.062 | 0.0013 | 0.0013 |
| rfc/distributed-view-copy-dynamic.mlir | 1 | 0.050 | 0.00067 | 0.00067 |
| rfc/distributed-view-copy-rowmerge-dynamic.mlir | 1 | 0.059 | 0.00094 | 0.00094 |
| rfc/distributed-view-copy.mlir | 2 | 0.052 | 0.00065 | 0.00066 |
| rfc/indirect-access-copy.mlir | 1 | 0.047 | 0.0007 | 0.00071 |
| rfc/indirect-scatter.mlir | 1 | 0.033 | 0.00059 | 0.00059 |
| rfc/paged-tensor-copy.mlir | 1 | 0.042 | 0.12 | 0.028 |
| rfc/paged-tensor-write.mlir | 1 | 0.055 | 0.23 | 0.059 |
| triton-ktir/indexed_add.mlir | 16 | 0.069 | 0.034 | 0.012 |
| triton-ktir/layernorm_fwd_ktir.mlir | 32 | 0.142 | 8.9 | 2.4 |
| triton-ktir/matmul_fwd_ktir.mlir | 32 | 0.063 | 1.4 | 0.39 |
| triton-ktir/paged_attention.mlir | 32 | 0.196 | 0.71 | 0.23 |
| triton-ktir/sdpa_2d.mlir | 1 | 0.062 | 0.00092 | 0.00092 |
| triton-ktir/softmax_fwd_ktir.mlir | 32 | 0.039 | 2.4 | 0.81 |
| triton-ktir/vector_add_dynamic_ktir.mlir | 1 | 0.026 | 0.00052 | 0.00052 |
| triton-ktir/vector_add_ktir.mlir | 32 | 0.023 | 0.0025 | 0.0025 |
"""

import argparse
import sys
import time
from pathlib import Path

from ktc.sim.reference import Kernel, random_inputs

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "ktir-corpus" / "ktir-cpu"

SCALARS = {
    "triton-ktir/vector_add_ktir.mlir": {"BLOCK_SIZE": 128},
    "triton-ktir/vector_add_dynamic_ktir.mlir": {"n_elements": 1024},
    "triton-ktir/softmax_fwd_ktir.mlir": {"n_rows": 4096},
    "triton-ktir/layernorm_fwd_ktir.mlir": {"N": 8192, "eps": 1e-5, "BLOCK_SIZE": 1024},
    "triton-ktir/matmul_fwd_ktir.mlir": {
        "K": 2048,
        "BLOCK_SIZE_M": 32,
        "BLOCK_SIZE_N": 512,
        "BLOCK_SIZE_K": 128,
    },
    "triton-ktir/paged_attention.mlir": {
        "cur_batch_start_index": 0,
        "block_table_offset": 0,
        "num_tiles": 8,
        "context_len": 120,
        "scale": 0.08838834764831845,
    },
    "triton-ktir/indexed_add.mlir": {"dim1_start": 0},
    "rfc/distributed-view-copy-dynamic.mlir": {"s0_in": 32},
    "rfc/distributed-view-copy-rowmerge-dynamic.mlir": {"s0_in": 32},
}
"""The scalar arguments of the kernels that take any (the sizes the corpus was written for)."""

SCRATCHPAD = {"rfc/paged-tensor-copy.mlir": 64 << 20, "rfc/paged-tensor-write.mlir": 64 << 20}


def measure(name: str, repeat: int) -> tuple[int, float, float, float]:
    """(cores, load seconds, best run seconds, its CPU seconds) of one corpus kernel."""
    started = time.perf_counter()
    kernel = Kernel.from_text((CORPUS / name).read_text(), name)
    loaded = time.perf_counter() - started
    scalars = SCALARS.get(name, {})
    args = {**scalars, **random_inputs(kernel, scalars, {}, seed=0)}
    runs = []
    for _ in range(repeat):
        started, cpu = time.perf_counter(), time.process_time()
        kernel.execute(args, scratchpad_bytes=SCRATCHPAD.get(name))
        runs.append((time.perf_counter() - started, time.process_time() - cpu))
    best = min(runs)
    return kernel.tiles, loaded, best[0], best[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per kernel; the best is shown")
    parser.add_argument("kernels", nargs="*", help="paths inside ktir-cpu/ (default: every kernel)")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS}; nothing to measure")
        return 0
    names = args.kernels or sorted(
        p.relative_to(CORPUS).as_posix() for p in CORPUS.glob("*/*.mlir")
    )
    for name in names:  # parse each once first, so that no timing pays for lazy imports
        Kernel.from_text((CORPUS / name).read_text(), name)
    print("| kernel | cores | load | run | run (CPU) |\n|---|---|---|---|---|")
    for name in names:
        cores, loaded, ran, cpu = measure(name, args.repeat)
        print(f"| {name} | {cores} | {loaded:.3f} | {ran:.2g} | {cpu:.2g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
