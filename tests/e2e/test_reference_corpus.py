"""Every kernel of the ktir-cpu corpus on the reference interpreter, each result checked
against an independent numpy formula written here (never by running the interpreter
again).

Tolerances, by what the kernel computes:
- moves (copies, gathers, scatters) and single roundings (an f16 or f32 add) must be
  bit-exact: numpy rounds the same single operation the same way;
- f16 pipelines are compared with float64 formulas. f16 keeps 11 significant bits, so
  each rounding adds a relative error of at most u = 2^-11 of the value it rounds; the
  bound for each kernel counts the roundings on an output's path;
- paged attention computes in f32 and rounds once to f16, so it must be within one f16
  unit in the last place (2^-10 relative) of the float64 formula.
"""

import numpy as np
import pytest
from conftest import CORPUS, corpus_files

from ktc.dialects.diagnostics import KtcError
from ktc.sim.reference import Kernel, Placement

KTIR_CPU = CORPUS / "ktir-cpu"
U = 2.0**-11
"""The unit roundoff of f16."""


def _kernel(name: str) -> Kernel:
    return Kernel.from_text((KTIR_CPU / name).read_text(), name)


def _rng() -> np.random.Generator:
    return np.random.default_rng(42)


def _normal(rng: np.random.Generator, shape) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float16)


def _f64(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float64)


# ---------------------------------------------------------------------------------------
# Elementwise and reductions


def check_vector_add(kernel: Kernel) -> None:
    rng = _rng()
    x, y = _normal(rng, 4096), _normal(rng, 4096)
    out = kernel.execute(
        dict(x_ptr=x, y_ptr=y, output_ptr=np.zeros(4096, np.float16), BLOCK_SIZE=128)
    )
    np.testing.assert_array_equal(out.outputs["output_ptr"], x + y)


def check_vector_add_dynamic(kernel: Kernel) -> None:
    rng = _rng()
    x, y = (rng.standard_normal(1024).astype(np.float32) for _ in range(2))
    out = kernel.execute(dict(x_ptr=x, y_ptr=y, output_ptr=np.zeros_like(x), n_elements=1024))
    np.testing.assert_array_equal(out.outputs["output_ptr"], x + y)


def check_add_with_control_flow(kernel: Kernel) -> None:
    """No grid: the one tile (id 0) adds rows 0..2 of A and B into C; the rest of C
    stays zero. The addresses are the kernel's constants."""
    rng = _rng()
    a, b = _normal(rng, (96, 64)), _normal(rng, (96, 64))
    run = kernel.execute({}, preload=[Placement(1024, a), Placement(12288, b)])
    expected = np.zeros((96, 64), np.float16)
    expected[:3] = a[:3] + b[:3]
    np.testing.assert_array_equal(run.read(18432, (96, 64), np.float16), expected)


def check_softmax(kernel: Kernel) -> None:
    """Per row: f16 max (exact), one rounding for x - max, one for exp, a pairwise sum
    of 1024 terms (10 levels), one division: within (13 u) of each output, plus 1e-6
    for the outputs f16 holds as subnormals."""
    x = _normal(_rng(), (4096, 1024))
    run = kernel.execute(dict(output_ptr=np.zeros_like(x), input_ptr=x, n_rows=4096))
    e = np.exp(_f64(x) - _f64(x).max(axis=1, keepdims=True))
    expected = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(_f64(run.outputs["output_ptr"]), expected, rtol=13 * U, atol=1e-6)


def check_layernorm(kernel: Kernel) -> None:
    """Each row's sums of 8192 terms take 8 sequential f16 adds per lane and a pairwise
    sum over 1024 lanes: about 20 roundings. Mean: within 1e-3 (the data is zero-mean,
    so the partial sums, and their rounding errors, stay near sqrt(N)). Rstd = 1 /
    sqrt(var + eps): var's 20 roundings halved by the square root, plus 3: 13 u
    relative. Y = (x - mean) * rstd * w + b, up to ~20 in magnitude: four roundings and
    rstd's error: 1e-2 relative plus 2e-2 absolute."""
    rng = _rng()
    x, w, b = (_normal(rng, (1151, 8192)) for _ in range(3))
    zeros = np.zeros(1151, np.float16)
    run = kernel.execute(
        dict(
            X=x,
            Y=np.zeros_like(x),
            W=w,
            B=b,
            Mean=zeros,
            Rstd=zeros,
            N=8192,
            eps=1e-5,
            BLOCK_SIZE=1024,
        )
    )
    mean, variance = _f64(x).mean(axis=1), _f64(x).var(axis=1)
    rstd = 1 / np.sqrt(variance + 1e-5)
    y = (_f64(x) - mean[:, None]) * rstd[:, None] * w + b
    np.testing.assert_allclose(_f64(run.outputs["Mean"]), mean, rtol=0, atol=1e-3)
    np.testing.assert_allclose(_f64(run.outputs["Rstd"]), rstd, rtol=13 * U)
    np.testing.assert_allclose(_f64(run.outputs["Y"]), y, rtol=1e-2, atol=2e-2)


# ---------------------------------------------------------------------------------------
# Distributed views (bit-exact copies)


def check_distributed_view_copy(kernel: Kernel) -> None:
    """A (192x64) lies in device memory (rows 0..95), core 0's scratchpad (rows 96..127,
    column-major with a column stride of 64) and core 1's (rows 128..191); both cores
    copy all of it into B."""
    a = _normal(_rng(), (192, 64))
    column_major = np.zeros((64, 64), np.float16)
    column_major[:, :32] = a[96:128].T
    run = kernel.execute(
        {},
        preload=[
            Placement(0, a[:96]),
            Placement(12288, column_major, ct_id=0),
            Placement(16384, a[128:], ct_id=1),
        ],
    )
    np.testing.assert_array_equal(run.read(24576, (192, 64), np.float16), a)


def check_distributed_view_copy_dynamic(kernel: Kernel) -> None:
    """Column partitions [0, s0) and [s0, 2 s0); s0 = 16 makes one tile straddle both."""
    for s0 in (16, 32):
        a = _normal(_rng(), (64, 2 * s0))
        run = kernel.execute(
            dict(
                a0_ptr=np.ascontiguousarray(a[:, :s0]),
                a1_ptr=np.ascontiguousarray(a[:, s0:]),
                b_ptr=np.zeros_like(a),
                s0_in=s0,
            )
        )
        np.testing.assert_array_equal(run.outputs["b_ptr"], a)


def check_distributed_view_copy_rowmerge(kernel: Kernel) -> None:
    for s0 in (16, 48):
        a = _normal(_rng(), (128, s0))
        run = kernel.execute(
            dict(a0_ptr=a[:64].copy(), a1_ptr=a[64:].copy(), b_ptr=np.zeros_like(a), s0_in=s0)
        )
        np.testing.assert_array_equal(run.outputs["b_ptr"], a)


# ---------------------------------------------------------------------------------------
# Indirect access


def _overlapping_layout(x: np.ndarray, idx1: np.ndarray, idx2: np.ndarray) -> np.ndarray:
    """The kernels' constant addresses (elements 0, 64, 128 of f16, i32, i32) overlap
    in bytes; lay the three arrays in that order in a byte array of our own."""
    memory = np.zeros(20000, np.uint8)
    for address, array in ((0, x), (64 * 4, idx1), (128 * 4, idx2)):
        memory[address : address + array.nbytes] = array.view(np.uint8).ravel()
    return memory


def _indirect_inputs():
    rng = _rng()
    x = _normal(rng, (64, 64))
    idx1, idx2 = (rng.integers(0, 64, (64, 64)).astype(np.int32) for _ in range(2))
    return x, idx1, idx2, [Placement(0, x), Placement(64, idx1), Placement(128, idx2)]


def _as_read(memory: np.ndarray):
    """What the kernel reads: X (f16 bits), IDX1 and IDX2 (i32), after the overlap."""
    x = memory[0:8192].view(np.uint16).reshape(64, 64).copy()
    idx1 = memory[256 : 256 + 16384].view(np.int32).reshape(64, 64).copy()
    idx2 = memory[512 : 512 + 16384].view(np.int32).reshape(64, 64).copy()
    return x, idx1, idx2


def check_indirect_access_copy(kernel: Kernel) -> None:
    """Y[m, k] = X[IDX1[m, k], IDX2[m, k]], Y at f16 element 192."""
    x, idx1, idx2, preload = _indirect_inputs()
    run = kernel.execute({}, preload=preload)
    seen_x, seen_idx1, seen_idx2 = _as_read(_overlapping_layout(x, idx1, idx2))
    np.testing.assert_array_equal(run.read(192, (64, 64), np.uint16), seen_x[seen_idx1, seen_idx2])


def check_indirect_scatter(kernel: Kernel) -> None:
    """Y[IDX1[m, k], IDX2[m, k]] = X[m, k], written in (m, k) order so a repeated
    destination keeps the last value."""
    x, idx1, idx2, preload = _indirect_inputs()
    run = kernel.execute({}, preload=preload)
    memory = _overlapping_layout(x, idx1, idx2)
    seen_x, seen_idx1, seen_idx2 = _as_read(memory)
    halves = memory.view(np.uint16)
    for m in range(64):
        for k in range(64):
            halves[192 + seen_idx1[m, k] * 64 + seen_idx2[m, k]] = seen_x[m, k]
    np.testing.assert_array_equal(
        run.read(192, (64, 64), np.uint16), halves[192 : 192 + 4096].reshape(64, 64)
    )


def _pages(avoid: int) -> tuple[np.ndarray, np.ndarray]:
    """128 distinct pages of the 10000, none the one the page table's bytes lie in."""
    pages = _rng().choice(np.setdiff1d(np.arange(10000), [avoid]), 128, replace=False)
    return pages, pages.astype(np.int32).reshape(4, 32)


PAGE = 8 * 64 * 128
"""Elements of one page of the paged cache [10000, 8, 64, 128]."""

BIG_SCRATCHPAD = 64 << 20
"""Room for the paged kernels' 16 MB tiles, to check their values."""


def check_paged_tensor_copy(kernel: Kernel) -> None:
    """Y[b, t, h, d] = X[Idx[b, t // 64], h, t % 64, d]. The page table (i32 element
    20e6, byte 80e6) lies in the bytes of page 152 of X (f16 element 30e6), so that page
    is not used. Its 16 MB tile overflows Spyre's 2 MB scratchpad."""
    pages, table = _pages(152)
    data = _normal(_rng(), (128, 8, 64, 128))
    preload = [Placement(30_000_000 + int(p) * PAGE, data[i]) for i, p in enumerate(pages)]
    preload.append(Placement(20_000_000, table))
    with pytest.raises(
        KtcError,
        match=r"paged-tensor-copy.mlir:\d+:\d+: error: scratchpad overflow on core 0: "
        r"ktdp.load materializes a tensor of 16777216 bytes .* 2097152 bytes",
    ):
        kernel.execute({}, preload=preload, arch="spyre")
    run = kernel.execute({}, preload=preload, scratchpad_bytes=BIG_SCRATCHPAD)
    slot = {int(p): i for i, p in enumerate(pages)}
    tokens = np.arange(2048)
    expected = np.stack(
        [data[[slot[int(p)] for p in table[b, tokens // 64]], :, tokens % 64, :] for b in range(4)]
    )
    np.testing.assert_array_equal(run.read(10_000_000, (4, 2048, 8, 128), np.float16), expected)


def check_paged_tensor_write(kernel: Kernel) -> None:
    """Y[Idx[b, t // 64], h, t % 64, d] = X[b, t, h, d]; the page table's bytes lie in
    page 305 of Y, which is not used."""
    pages, table = _pages(305)
    x = _normal(_rng(), (4, 2048, 8, 128))
    preload = [Placement(10_000_000, x), Placement(30_000_000, table)]
    with pytest.raises(KtcError, match="scratchpad overflow on core 0"):
        kernel.execute({}, preload=preload, arch="spyre")
    run = kernel.execute({}, preload=preload, scratchpad_bytes=BIG_SCRATCHPAD)
    for b in range(4):
        for j in range(32):
            page = run.read(40_000_000 + int(table[b, j]) * PAGE, (8, 64, 128), np.float16)
            np.testing.assert_array_equal(page, x[b, 64 * j : 64 * (j + 1)].transpose(1, 0, 2))


def check_indexed_add(kernel: Kernel) -> None:
    """out[g0, d1, g1, :] = X[index[g0], d1, g1, :] + Y[g0, d1, g1, :] on a 2x8 grid."""
    rng = _rng()
    x, y = _normal(rng, (128, 64, 8, 128)), _normal(rng, (2, 32, 8, 128))
    index = np.array([77, 3], np.int64)
    run = kernel.execute(
        dict(x_ptr=x, y_ptr=y, index_ptr=index, output_ptr=np.zeros_like(y), dim1_start=0)
    )
    np.testing.assert_array_equal(run.outputs["output_ptr"], x[index, :32] + y)


# ---------------------------------------------------------------------------------------
# Matmul and attention


def check_matmul(kernel: Kernel) -> None:
    """C = A B with K = 2048 in 16 blocks of 128: each block's product rounded once to
    f16, then 16 f16 additions: 17 roundings, each within u of a running sum no larger
    than sum_k |a_ik b_kj|, so |error| <= 17 u (|A| |B|)_ij."""
    rng = _rng()
    a, b = _normal(rng, (64, 2048)), _normal(rng, (2048, 8192))
    run = kernel.execute(
        dict(
            a_ptr=a,
            b_ptr=b,
            c_ptr=np.zeros((64, 8192), np.float16),
            K=2048,
            BLOCK_SIZE_M=32,
            BLOCK_SIZE_N=512,
            BLOCK_SIZE_K=128,
        )
    )
    error = np.abs(_f64(run.outputs["c_ptr"]) - _f64(a) @ _f64(b))
    magnitude = np.abs(a).astype(np.float32) @ np.abs(b).astype(np.float32)  # a bound: f32 will do
    assert np.all(error <= 17 * U * magnitude)


def check_sdpa(kernel: Kernel) -> None:
    """softmax(Q K^T / 8) V in f16: two contractions (one rounding each), the scaling,
    a shift, exp, a pairwise sum of 32, a division: within 16 u relative of outputs
    of magnitude ~1, so 1e-2 absolute and relative."""
    rng = _rng()
    q, k, v = (_normal(rng, (32, 64)) for _ in range(3))
    run = kernel.execute(dict(q_ptr=q, k_ptr=k, v_ptr=v, output_ptr=np.zeros_like(q)))
    scores = _f64(q) @ _f64(k).T * 0.125
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    expected = (p / p.sum(axis=1, keepdims=True)) @ _f64(v)
    np.testing.assert_allclose(_f64(run.outputs["output_ptr"]), expected, rtol=1e-2, atol=1e-2)


def check_paged_attention(kernel: Kernel) -> None:
    """Causal GQA attention over a paged cache: query head h reads KV head h // 4;
    token t (0..7) of the batch sees positions <= context_len + t of 128, block p of a
    position being block_tables[0, p // 16]."""
    rng = _rng()
    query = _normal(rng, (8, 32, 128))
    keys, values = _normal(rng, (64, 16, 8, 128)), _normal(rng, (64, 16, 8, 128))
    table = rng.permutation(64)[:16].astype(np.int32).reshape(1, 16)
    scale = float(np.float32(1 / np.sqrt(128)))
    run = kernel.execute(
        dict(
            output_ptr=np.zeros_like(query),
            query_ptr=query,
            key_cache_ptr=keys,
            value_cache_ptr=values,
            block_tables_ptr=table,
            cur_batch_start_index=0,
            block_table_offset=0,
            num_tiles=8,
            context_len=120,
            scale=scale,
        )
    )
    positions = np.arange(128)
    blocks = table[0, positions // 16]
    k, v = _f64(keys[blocks, positions % 16]), _f64(values[blocks, positions % 16])  # [128, 8, 128]
    scores = np.einsum("thd,phd->thp", _f64(query), np.repeat(k, 4, axis=1)) * scale
    future = positions[None, None, :] > 120 + np.arange(8)[:, None, None]
    scores = np.where(future, -np.inf, scores)
    p = np.exp(scores - scores.max(axis=2, keepdims=True))
    expected = np.einsum("thp,phd->thd", p / p.sum(axis=2, keepdims=True), np.repeat(v, 4, axis=1))
    np.testing.assert_allclose(_f64(run.outputs["output_ptr"]), expected, rtol=2 * U, atol=1e-6)


CHECKS = {
    "triton-ktir/vector_add_ktir.mlir": check_vector_add,
    "triton-ktir/vector_add_dynamic_ktir.mlir": check_vector_add_dynamic,
    "triton-ktir/softmax_fwd_ktir.mlir": check_softmax,
    "triton-ktir/layernorm_fwd_ktir.mlir": check_layernorm,
    "triton-ktir/matmul_fwd_ktir.mlir": check_matmul,
    "triton-ktir/sdpa_2d.mlir": check_sdpa,
    "triton-ktir/paged_attention.mlir": check_paged_attention,
    "triton-ktir/indexed_add.mlir": check_indexed_add,
    "rfc/add-with-control-flow.mlir": check_add_with_control_flow,
    "rfc/distributed-view-copy.mlir": check_distributed_view_copy,
    "rfc/distributed-view-copy-dynamic.mlir": check_distributed_view_copy_dynamic,
    "rfc/distributed-view-copy-rowmerge-dynamic.mlir": check_distributed_view_copy_rowmerge,
    "rfc/indirect-access-copy.mlir": check_indirect_access_copy,
    "rfc/indirect-scatter.mlir": check_indirect_scatter,
    "rfc/paged-tensor-copy.mlir": check_paged_tensor_copy,
    "rfc/paged-tensor-write.mlir": check_paged_tensor_write,
}
"""The check of each corpus kernel, by its path in ``ktir-cpu/``."""

_ABSENT = pytest.param(None, marks=pytest.mark.skip(reason=f"KTIR corpus not found at {CORPUS}"))


def _corpus_kernels() -> list:
    files = [path.relative_to(KTIR_CPU).as_posix() for path in corpus_files("ktir-cpu/*/*.mlir")]
    return files or [_ABSENT]


@pytest.mark.parametrize("name", _corpus_kernels())
def test_corpus_kernel_matches_numpy(name: str) -> None:
    assert name in CHECKS, f"no numpy check written for corpus kernel {name}"
    CHECKS[name](_kernel(name))


@pytest.mark.parametrize("n", [1, 63, 1000, 1024])
def test_out_of_set_accesses_are_masked(n: int) -> None:
    """vector_add_dynamic's views cover [0, n) of arrays of n elements; its 1024-element
    tiles reach past n: the loads read zero there and the store writes only [0, n) (the
    arrays lie one after another, the output last, so nothing after it is written)."""
    if not KTIR_CPU.is_dir():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    kernel = _kernel("triton-ktir/vector_add_dynamic_ktir.mlir")
    assert kernel.layouts({"n_elements": n})["x_ptr"].shape == (n,)
    rng = _rng()
    x, y = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    out = kernel.execute(dict(x_ptr=x, y_ptr=y, output_ptr=np.zeros(n, np.float32), n_elements=n))
    np.testing.assert_array_equal(out.outputs["output_ptr"], x + y)
    assert not out.read(3 * n, (1024,), np.float32).any()


def test_every_check_names_a_corpus_kernel() -> None:
    if not KTIR_CPU.is_dir():
        pytest.skip(f"KTIR corpus not found at {CORPUS}")
    assert sorted(CHECKS) == sorted(
        p.relative_to(KTIR_CPU).as_posix() for p in corpus_files("ktir-cpu/*/*.mlir")
    )
