"""PyTorch programs through ``torch.compile(backend="ktc")`` on the simulated spyre,
compared with eager PyTorch.

Each op family is compiled on small shapes; the test checks that its ops ran in
kernels on the simulator (cycles counted), not in PyTorch, and that the results match
eager within a tolerance relative to the values' scale: 2^-6 (float16) or 1e-5
(float32) of each element plus the same of the largest magnitude, the rule of
``ktc run --check``. What falls back must be reported with its reason.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT

torch = pytest.importorskip("torch", reason="the PyTorch front end needs torch (pip install 'ktc[torch]')")

from ktc.frontend import pytorch  # noqa: E402
from ktc.sim.check import differences  # noqa: E402
from ktc.tools.ktc_opt import main as ktc_opt  # noqa: E402

F16, F32 = torch.float16, torch.float32
TOLERANCE = {F16: 2.0 ** -6, F32: 1e-5}


def assert_close(got: torch.Tensor, want: torch.Tensor) -> None:
    """Within the tolerance of a type kernels compute in; equal for the others (which
    PyTorch computes, as eager does)."""
    assert got.shape == want.shape and got.dtype == want.dtype
    if want.dtype not in TOLERANCE:
        assert torch.equal(got, want)
        return
    tolerance = TOLERANCE[want.dtype]
    got, want = got.double(), want.double()
    bound = tolerance * (want.abs() + want.abs().max())
    error = (got - want).abs()
    assert bool((error <= bound).all()), f"largest error {error.max().item()} (bound {bound.max().item()})"


def compiled(fn, *args, **options):
    """Run ``fn`` through the ``ktc`` backend and eagerly; compare every output; the
    reports of the graphs it compiled."""
    before = len(pytorch.reports())
    with torch.no_grad():
        got = torch.compile(fn, backend="ktc", dynamic=False, options=options or None)(*args)
        want = fn(*args)
    for g, w in zip(*(o if isinstance(o, tuple) else (o,) for o in (got, want))):
        assert_close(g, w)
    return pytorch.reports()[before:]


def kernel_nodes(reports) -> dict[str, str]:
    """FX node to ATen op (``aten.exp``) for what ran in kernels, each of which ran."""
    nodes = {}
    for kernel in (k for r in reports for k in r.kernels):
        assert kernel.cycles and kernel.cycles > 0
        nodes |= {n.split(" (")[0]: n.split("(")[1].rstrip(")").rsplit(".", 1)[0] for n in kernel.nodes}
    return nodes


def in_kernels(reports) -> set[str]:
    """The ATen ops that ran in kernels."""
    return set(kernel_nodes(reports).values())


def fallbacks(reports) -> dict[str, str]:
    """Op (``aten._to_copy``) to reason, for what ran in PyTorch."""
    return {f.op.rsplit(".", 1)[0]: f.reason for r in reports for f in r.fallbacks}


def fallback_nodes(reports) -> dict[str, str]:
    """FX node to reason, for what ran in PyTorch."""
    return {f.node: f.reason for r in reports for f in r.fallbacks}


def data(*shape, dtype=F16, positive=False, seed=0):
    generator = torch.Generator().manual_seed(seed + len(shape))
    values = torch.randn(*shape, generator=generator)
    return (values.abs() + 0.5 if positive else values).to(dtype)


@pytest.mark.parametrize("dtype", [F16, F32], ids=["f16", "f32"])
def test_elementwise_with_broadcasts(dtype):
    def fn(x, row, col, positive):
        a = (x + col) * row - x / positive
        b = torch.exp(-a.clamp(max=4)) + torch.sigmoid(x) + torch.tanh(x) * torch.rsqrt(positive)
        return torch.relu(b) - 0.5 * torch.nn.functional.silu(x)

    args = data(4, 8, 64, dtype=dtype), data(4, 8, 1, dtype=dtype), data(64, dtype=dtype), \
        data(4, 8, 64, dtype=dtype, positive=True)
    reports = compiled(fn, *args)
    assert {"aten.add", "aten.mul", "aten.sub", "aten.div", "aten.neg", "aten.exp", "aten.sigmoid",
            "aten.tanh", "aten.rsqrt", "aten.relu", "aten.clamp"} <= in_kernels(reports)
    # float16 silu converts to float32 and back: the compiler refuses the conversion today
    assert set(fallbacks(reports)) <= {"aten._to_copy"}
    assert all("arith.extf" in r or "arith.truncf" in r for r in fallbacks(reports).values())


@pytest.mark.parametrize("dtype", [F16, F32], ids=["f16", "f32"])
def test_reductions(dtype):
    def fn(x):
        return x.sum(-1), x.mean(-1, keepdim=True), x.amax(-1), x - x.amax(-1, keepdim=True)

    reports = compiled(fn, data(6, 5, 96, dtype=dtype))
    assert {"aten.sum", "aten.mean", "aten.amax", "aten.sub"} <= in_kernels(reports)
    assert not fallbacks(reports)


@pytest.mark.parametrize("dtype", [F16, F32], ids=["f16", "f32"])
def test_softmax_and_layer_norm(dtype):
    norm = torch.nn.LayerNorm(128).to(dtype)
    torch.nn.init.normal_(norm.weight)
    torch.nn.init.normal_(norm.bias)

    def fn(x):
        return torch.softmax(x, dim=-1), norm(x)

    reports = compiled(fn, data(16, 128, dtype=dtype))
    assert {"aten._softmax", "aten.native_layer_norm"} <= in_kernels(reports)
    assert not fallbacks(reports)


class RMSNorm(torch.nn.Module):
    """RMSNorm as LLaMA writes it, in ATen: through float32 and back."""

    def __init__(self, dim: int):
        super().__init__()
        self.weight = torch.nn.Parameter(1 + 0.1 * torch.randn(dim))

    def forward(self, x):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)).type_as(x) * self.weight


class Residual(torch.nn.Module):
    """``x + silu(norm(x)) * gate``: a residual block around RMSNorm, without matmuls."""

    def __init__(self, dim: int):
        super().__init__()
        self.norm = RMSNorm(dim)
        self.gate = torch.nn.Parameter(torch.randn(dim))

    def forward(self, x):
        return x + torch.nn.functional.silu(self.norm(x)) * self.gate


@pytest.mark.parametrize("dtype", [F16, F32], ids=["f16", "f32"])
def test_residual_block_with_rmsnorm(dtype):
    block = Residual(64).to(dtype)
    reports = compiled(block, data(2, 16, 64, dtype=dtype))
    assert {"aten.pow", "aten.mean", "aten.rsqrt", "aten.mul", "aten.sigmoid", "aten.add"} <= \
        in_kernels(reports)
    assert set(fallbacks(reports)) <= {"aten._to_copy"}


def test_views_do_not_move_data_or_split_kernels():
    def fn(x):
        y = x.view(-1, 64).exp().view(2, 8, 64)
        return (y.unsqueeze(0) * 2).squeeze(0).reshape(16, 64).sum(-1)

    reports = compiled(fn, data(2, 8, 64))
    assert [len(r.kernels) for r in reports] == [1]
    assert not fallbacks(reports)


def test_gelu_and_where():
    """gelu's tanh form is written with tanh; the exact form needs the device's gelu
    intrinsic (what the compiler refuses runs in PyTorch); ``where`` by a comparison is
    a compare and a select in the kernel."""
    def fn(x):
        approximate = torch.nn.functional.gelu(x, approximate="tanh")
        return approximate + torch.nn.functional.gelu(x), torch.where(x > 0, x, 0.1 * x) + 1

    reports = compiled(fn, data(8, 64))
    nodes, refused = kernel_nodes(reports), fallback_nodes(reports)
    assert nodes["gelu"] == "aten.gelu"
    assert "gelu_1" in nodes or "spyreop.gelu" in refused["gelu_1"]
    assert nodes["where"] == "aten.where" and "gt" not in refused


COMPARISONS = {
    "gt": torch.gt, "lt": torch.lt, "ge": torch.ge, "le": torch.le, "eq": torch.eq, "ne": torch.ne,
}


@pytest.mark.parametrize("dtype", [F16, F32], ids=["f16", "f32"])
@pytest.mark.parametrize("name", sorted(COMPARISONS))
def test_where_by_each_comparison_in_scalar_and_tensor_forms(name: str, dtype):
    """Each comparison, against a number (Scalar), a tensor of the same shape and a
    per-row tensor (Tensor), selects in the kernel what eager selects, NaNs and ties
    included (``!=`` holds on a NaN, the others do not), exactly (a select and a
    doubling round nothing); the comparisons run in no kernel of their own and nothing
    falls back."""
    compare = COMPARISONS[name]

    def fn(x, y, t):
        return (torch.where(compare(x, 0.25), x, y), torch.where(compare(x, y), 1.5, x),
                torch.where(compare(x, t), y, -2.0) * 2)

    x, y, t = data(8, 64, dtype=dtype), data(8, 64, dtype=dtype, seed=1), data(8, 1, dtype=dtype, seed=2)
    x[0, :4] = torch.tensor([float("nan"), 0.25, 0.0, -0.0])
    y[0, :4] = torch.tensor([float("nan"), 0.25, -0.0, 0.0])
    y[1:, ::3] = x[1:, ::3]
    torch._dynamo.reset()  # one code object over the parameters: past Dynamo's recompile limit
    before = len(pytorch.reports())
    with torch.no_grad():
        got = torch.compile(fn, backend="ktc", dynamic=False)(x, y, t)
    for g, w in zip(got, fn(x, y, t)):
        torch.testing.assert_close(g, w, rtol=0, atol=0, equal_nan=True)
    reports = pytorch.reports()[before:]
    assert in_kernels(reports) == {"aten.where", "aten.mul"}
    assert not fallbacks(reports)


def test_a_boolean_result_outside_a_where_runs_in_pytorch():
    """A comparison that is a graph output, or read by a cast, runs in PyTorch with the
    reason; the where beside it still runs in a kernel."""
    def fn(x):
        mask = x < 0
        return mask, torch.where(x >= 0, x, 0.0), (x != 1).to(F16) * x

    reports = compiled(fn, data(8, 64))
    refused = fallback_nodes(reports)
    assert "a boolean tensor (a graph output" in refused["lt"]
    assert "a boolean tensor (a graph output" in refused["ne"]
    assert kernel_nodes(reports)["where"] == "aten.where"


def assert_product_close(got: torch.Tensor, want: torch.Tensor, length: int) -> None:
    """Within the shared rule (``ktc.sim.check``) for reductions of ``length`` terms: the
    tolerance of a product grows with its k."""
    assert got.shape == want.shape and got.dtype == want.dtype
    element = {F16: "f16", F32: "f32"}[want.dtype]
    differ, allowed = differences(got.numpy(), want.numpy(), element, length)
    error = (got.double() - want.double()).abs()
    assert not differ.any(), f"{int(differ.sum())} elements differ, largest error {error.max()}"


def products(fn, *args, length: int | tuple[int, ...]):
    """``fn`` through the ``ktc`` backend against eager under ``assert_product_close``
    (``length`` per output); the reports."""
    before = len(pytorch.reports())
    with torch.no_grad():
        got = torch.compile(fn, backend="ktc", dynamic=False)(*args)
        want = fn(*args)
    outputs = zip(*(o if isinstance(o, tuple) else (o,) for o in (got, want)))
    for (g, w), terms in zip(outputs, length if isinstance(length, tuple) else (length,)):
        assert_product_close(g, w, terms)
    return pytorch.reports()[before:]


def test_the_product_check_fails_on_a_perturbed_answer():
    want = data(16, 32)
    length = 64
    element_tolerance = differences(want.numpy(), want.numpy(), "f16", length)[1].max()
    assert_product_close(want.clone(), want, length)
    perturbed = want.clone()
    perturbed[3, 5] += 4 * float(element_tolerance)
    with pytest.raises(AssertionError, match="1 elements differ"):
        assert_product_close(perturbed, want, length)


@pytest.mark.parametrize("dtype", [F16, F32], ids=["f16", "f32"])
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
def test_linear(dtype, bias):
    """``linear`` (view, transpose of the weight, ``addmm`` or ``mm``): one kernel, the
    transpose and the bias in it."""
    linear = torch.nn.Linear(64, 96, bias=bias).to(dtype)
    reports = products(linear, data(2, 8, 64, dtype=dtype), length=64)
    assert in_kernels(reports) == {"aten.permute", "aten.addmm" if bias else "aten.mm"}
    assert not fallbacks(reports)


def test_mm_and_addmm_with_scales():
    """A row-major product (the matrix unit's) and ``addmm`` with ``alpha``, ``beta`` and a
    bias per element."""
    def fn(a, b, c):
        return torch.addmm(c, a, b, beta=0.5, alpha=2.0) + a @ b

    reports = products(fn, data(16, 48), data(48, 64, seed=1), data(16, 64, seed=2), length=48)
    assert {"aten.mm", "aten.addmm", "aten.add"} <= in_kernels(reports)
    assert not fallbacks(reports)


def test_product_epilogues():
    """A residual after a projection without bias (``x + linear(y)``) and a scale
    after a product are the product kernel's epilogue: one kernel each, nothing else."""
    linear = torch.nn.Linear(64, 64, bias=False).half()

    def fn(x, y, a, b):
        return x + linear(y), (a @ b) * 0.125

    reports = products(fn, data(2, 8, 64), data(2, 8, 64, seed=1), data(16, 32, seed=2),
                       data(32, 48, seed=3), length=(64, 32))
    assert [len(r.kernels) for r in reports] == [2]
    assert in_kernels(reports) == {"aten.permute", "aten.mm", "aten.add", "aten.mul"}
    assert not fallbacks(reports)


def test_batched_products():
    """``@`` of three-dimensional tensors (``expand``, ``view`` and ``bmm``), and ``bmm``
    with a transposed second operand."""
    def fn(a, b, c):
        return a @ b, torch.bmm(a, c.transpose(1, 2))

    reports = products(fn, data(4, 16, 32), data(4, 32, 24, seed=1), data(4, 24, 32, seed=2),
                       length=(32, 32))
    assert in_kernels(reports) == {"aten.bmm", "aten.permute"}
    assert not fallbacks(reports)


@pytest.mark.parametrize("dtype", [F16, F32], ids=["f16", "f32"])
def test_attention(dtype):
    """``scaled_dot_product_attention`` (kept whole as
    ``_scaled_dot_product_flash_attention_for_cpu``): one kernel, nothing in PyTorch."""
    def fn(q, k, v):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)

    args = (data(2, 2, 16, 32, dtype=dtype, seed=s) for s in range(3))
    reports = products(fn, *args, length=32)
    assert in_kernels(reports) == {"aten._scaled_dot_product_flash_attention_for_cpu"}
    assert not fallbacks(reports)


def test_causal_attention_reports_its_mask():
    """The causal mask is made on the host (the front end does not yet write it in the
    engines) and added in the kernel; the report says so, at the attention, which reads
    its operands through the transposes moving their heads to the front."""
    def fn(q, k, v):
        def heads_first(x):
            return x.view(1, 16, 2, 32).transpose(1, 2)

        return torch.nn.functional.scaled_dot_product_attention(
            heads_first(q), heads_first(k), heads_first(v), is_causal=True)

    reports = products(fn, *(data(1, 16, 64, seed=s) for s in range(3)), length=32)
    assert in_kernels(reports) == {"aten._scaled_dot_product_flash_attention_for_cpu",
                                   "aten.permute"}
    (reason,) = fallbacks(reports).values()
    assert "causal mask" in reason and "made on the host" in reason
    assert list(fallback_nodes(reports)) == ["_scaled_dot_product_flash_attention_for_cpu"]


class SwiGLU(torch.nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.gate = torch.nn.Linear(dim, hidden, bias=False)
        self.up = torch.nn.Linear(dim, hidden, bias=False)
        self.down = torch.nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.down(torch.nn.functional.silu(self.gate(x)) * self.up(x))


def test_swiglu_mlp_runs_every_product_on_ktc():
    """``down(silu(gate(x)) * up(x))`` in float32: the three products and the gating
    in kernels, and the report names no product."""
    reports = compiled(SwiGLU(64, 128), data(2, 8, 64, dtype=F32))
    assert {"aten.mm", "aten.sigmoid", "aten.mul"} <= in_kernels(reports)
    assert sum(k.name.endswith("mm") or "_mm_" in k.name for r in reports for k in r.kernels) == 3
    assert not fallbacks(reports)


class DecoderBlock(torch.nn.Module):
    """RMSNorm, attention and a SwiGLU MLP, each behind a residual add."""

    def __init__(self, dim: int, heads: int, hidden: int):
        super().__init__()
        self.heads = heads
        self.attention_norm, self.mlp_norm = RMSNorm(dim), RMSNorm(dim)
        self.q, self.k, self.v, self.o = (torch.nn.Linear(dim, dim, bias=False) for _ in range(4))
        self.mlp = SwiGLU(dim, hidden)

    def forward(self, x):
        batch, tokens, dim = x.shape
        h = self.attention_norm(x)
        q, k, v = (p(h).view(batch, tokens, self.heads, dim // self.heads).transpose(1, 2)
                   for p in (self.q, self.k, self.v))
        attended = torch.nn.functional.scaled_dot_product_attention(q, k, v)
        x = x + self.o(attended.transpose(1, 2).reshape(batch, tokens, dim))
        return x + self.mlp(self.mlp_norm(x))


def test_decoder_block_on_spyre():
    """Every op in kernels: the products, the attention (reading its operands through
    the transposes that move the heads to the front, and writing its output as the one
    moving them back expects), the RMSNorms, the gating and the residual adds."""
    torch.manual_seed(2)
    reports = compiled(DecoderBlock(64, 2, 128), data(2, 16, 64, dtype=F32))
    assert {"aten.mm", "aten._scaled_dot_product_flash_attention_for_cpu", "aten.permute",
            "aten.rsqrt", "aten.sigmoid", "aten.add"} <= in_kernels(reports)
    assert not fallbacks(reports)


def test_unsupported_dtype_and_op_are_named():
    def fn(x, keys):
        return x * 2 + 1, torch.sort(keys).values

    reports = compiled(fn, data(8, 32, dtype=torch.float64), torch.randint(0, 100, (8, 32)))
    refused = fallbacks(reports)
    assert "float64" in refused["aten.mul"] and "float64" in refused["aten.add"]
    assert "no lowering" in refused["aten.sort"]
    assert not in_kernels(reports)


def test_ktir_files_are_written_and_read_by_ktc_opt(tmp_path):
    def fn(x, w):
        return torch.softmax(x, -1) * w

    explanation = pytorch.explain(fn, data(8, 64), data(64), ktir_dir=tmp_path)
    files = sorted(tmp_path.glob("*.mlir"))
    assert [k.path for k in explanation.kernels] == files and len(files) == 1
    text = files[0].read_text()
    assert 'loc("_softmax"(' in text and 'loc("mul"(' in text
    assert ktc_opt([str(files[0])]) in (0, None)
    assert explanation.kernels[0].cycles > 0
    assert "_softmax (aten._softmax.default)" in str(explanation)


def test_environment_prints_the_report_and_writes_ktir(tmp_path, monkeypatch, capfd):
    monkeypatch.setenv(pytorch.EXPLAIN_ENV, "1")
    monkeypatch.setenv(pytorch.KTIR_DIR_ENV, str(tmp_path))

    def fn(x):
        return torch.where(torch.isnan(x), x.exp(), x)

    compiled(fn, data(4, 64))
    err = capfd.readouterr().err
    assert "kernel graph" in err and "in PyTorch: aten.where.self (where): " in err
    assert len(list(tmp_path.glob("*.mlir"))) == 1


def test_a_training_forward_and_its_backward():
    """With parameters that need gradients, the forward and the backward graph are
    both compiled; the gradients match eager."""
    torch.manual_seed(1)
    block = Residual(32)
    x = data(4, 32, dtype=F32)
    before = len(pytorch.reports())
    compiled_block = torch.compile(block, backend="ktc", dynamic=False)
    got = compiled_block(x)
    want = block(x)
    assert_close(got, want.detach())
    got.sum().backward()
    grads = [p.grad.clone() for p in block.parameters()]
    block.zero_grad()
    want.sum().backward()
    for grad, parameter in zip(grads, block.parameters()):
        assert_close(grad, parameter.grad)
    forward, backward = pytorch.reports()[before:]
    assert forward.kernels and backward.kernels
    assert in_kernels([backward]) >= {"aten.sigmoid", "aten.mul"}


@pytest.mark.parametrize("example", ["torch_mlp.py", "torch_decoder_block.py"])
def test_examples_run_and_check(example):
    """The PyTorch examples run in one command, print each kernel's cycles and pass
    their check against eager PyTorch."""
    result = subprocess.run([sys.executable, str(ROOT / "examples" / example)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "check against eager PyTorch: passed" in result.stdout
    assert " cycles): " in result.stdout and "mm (aten." in result.stdout
    assert "matrix product" not in result.stdout


def test_a_transpose_made_contiguous_feeds_a_kernel():
    """The kernel reads the transposed data PyTorch laid out, not the source's."""
    def fn(x):
        return torch.softmax(x.t().contiguous() * 3, dim=-1)

    reports = compiled(fn, data(64, 32))
    assert {"aten._softmax", "aten.mul"} <= in_kernels(reports)
    assert set(fallbacks(reports)) == {"aten.permute"}
