"""How the PyTorch front end cuts a core-ATen graph into kernels, and what it leaves
to PyTorch and why. Graphs are traced with ``make_fx`` (no compile, no simulator)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="the PyTorch front end needs torch (pip install 'ktc[torch]')")

from torch._decomp import core_aten_decompositions  # noqa: E402
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

from ktc.frontend.kernel import COL, FULL, ROW, Attention, Product  # noqa: E402
from ktc.frontend.partition import cut  # noqa: E402

F16 = torch.float16


def partition(fn, *args):
    graph = make_fx(fn, decomposition_table=core_aten_decompositions())(*args).graph
    return cut(graph, "g", {})


def kernels(result) -> list[list[str]]:
    return [[n.name for n in c.nodes] for c in result.cuts]


def refused(result) -> dict[str, str]:
    return {n.name: reason for n, reason in result.refused.items()}


def test_a_row_wise_chain_with_broadcasts_is_one_kernel():
    def fn(x, w):
        return torch.softmax(x, -1) * w + x.sum(-1, keepdim=True)

    result = partition(fn, torch.randn(4, 8, 64, dtype=F16), torch.randn(64, dtype=F16))
    assert len(result.cuts) == 1 and not result.refused
    kernel = result.cuts[0].kernel
    assert (kernel.rows, kernel.cols) == (32, 64)
    assert sorted(a.layout for a in kernel.inputs) == [COL, FULL]
    assert [a.layout for a, _ in kernel.outputs] == [FULL]
    assert {s.op for s in kernel.steps} >= {"amax", "sum", "exp", "div", "mul", "add"}


def test_views_that_keep_the_last_dimension_do_not_split_kernels():
    def fn(x):
        return (x.view(-1, 64).exp().view(2, 8, 64) + 1).reshape(16, 64).sum(-1)

    result = partition(fn, torch.randn(2, 8, 64, dtype=F16))
    assert len(result.cuts) == 1 and not result.refused
    kernel = result.cuts[0].kernel
    assert (kernel.rows, kernel.cols) == (16, 64)
    assert [a.layout for a, _ in kernel.outputs] == [ROW]


def test_a_view_that_changes_the_last_dimension_starts_another_kernel():
    def fn(x):
        return (x.exp().view(16, 8, 8) + 1).sum(-1)

    result = partition(fn, torch.randn(16, 64, dtype=F16))
    assert len(result.cuts) == 2
    assert sorted((c.kernel.rows, c.kernel.cols) for c in result.cuts) == [(16, 64), (128, 8)]


def test_no_kernel_depends_on_itself_through_pytorch():
    """``add`` reads ``exp`` and ``where``, which reads ``exp`` and runs in PyTorch (it
    selects by ``isnan``, which has no lowering): it cannot join ``exp``'s kernel."""
    def fn(x):
        y = x.exp()
        return y + torch.where(torch.isnan(y), y, x)

    result = partition(fn, torch.randn(4, 64, dtype=F16))
    assert kernels(result) == [["exp"], ["add"]]
    assert set(refused(result)) == {"isnan", "where"}
    assert "not a comparison computed for the where" in refused(result)["where"]


def test_layer_norm_results_and_their_layouts():
    def fn(x, w, b):
        out, mean, rstd = torch.ops.aten.native_layer_norm(x, [64], w, b, 1e-5)
        return out, mean, rstd

    result = partition(fn, torch.randn(8, 64, dtype=F16), torch.randn(64, dtype=F16),
                       torch.randn(64, dtype=F16))
    assert len(result.cuts) == 1
    assert [a.layout for a, _ in result.cuts[0].kernel.outputs] == [FULL, ROW, ROW]


@pytest.mark.parametrize("fn, args, node, reason", [
    (lambda c, a, b: torch.addmm(c, a, b), (torch.randn(8, 1, dtype=F16),
                                            torch.randn(8, 64, dtype=F16),
                                            torch.randn(64, 32, dtype=F16)),
     "addmm", "a bias per column or per element"),
    (lambda a, b: a @ b, (torch.randn(8, 64, dtype=torch.float64),
                          torch.randn(64, 32, dtype=torch.float64)),
     "mm", "kernels take float16 and float32"),
    (lambda x: x.exp() + 1, (torch.randn(8, 64, dtype=torch.float64),), "exp",
     "kernels take float16 and float32"),
    (lambda x: x.sum(0), (torch.randn(8, 64, dtype=F16),), "sum", "along the last dimension"),
    (lambda x, y: x + y, (torch.randn(4, 8, 64, dtype=F16), torch.randn(4, 1, 64, dtype=F16)),
     "add", "along rows or over columns"),
    (lambda x: x ** 1.7, (torch.randn(8, 64, dtype=F16),), "pow", "no pow instruction"),
    (lambda x: torch.sort(x).values, (torch.randint(0, 9, (8, 64)),), "sort",
     "no lowering to KTIR"),
])
def test_refusals_name_the_op_and_the_reason(fn, args, node, reason):
    result = partition(fn, *args)
    found = {name: why for name, why in refused(result).items() if name.startswith(node)}
    assert found, f"{node} not refused: {refused(result)}"
    assert all(reason in why for why in found.values()), found


def test_a_change_of_float_type_is_a_computation_and_clone_an_alias():
    """``type_as`` is a ``_to_copy`` with layout and device: only its type changes, so
    it is lowered (whether the compiler takes it is found by trying); ``clone`` of a
    transpose is read through to the transpose, which PyTorch runs."""
    def fn(x):
        return (x.float() * 2).type_as(x), x.t().contiguous() + 1

    result = partition(fn, torch.randn(8, 64, dtype=F16))
    assert set(refused(result)) == {"permute"}
    computed = {n.name for c in result.cuts for n in c.nodes}
    assert {"_to_copy", "_to_copy_1", "add"} <= computed and "clone" not in computed
    (add,) = [c for c in result.cuts if "add" in [n.name for n in c.nodes]]
    assert [n.name for n in add.inputs] == ["permute"]


def test_a_comparison_read_only_by_wheres_is_computed_inside_them():
    """``where(x > t, x, 0)`` with ``t`` per row is one select step of the kernel: the
    comparison and the scalar tensor are no kernel values, the kernel reads x and t
    (no boolean array), and a comparison read by two wheres is computed in each."""
    def fn(x, t):
        above = x > t
        return torch.where(above, x, 0.0) + torch.where(above, 1.0, x), torch.where(x <= 0.5, x, t)

    result = partition(fn, torch.randn(8, 64, dtype=F16), torch.randn(8, 1, dtype=F16))
    assert len(result.cuts) == 1 and not result.refused
    kernel = result.cuts[0].kernel
    assert sorted(a.layout for a in kernel.inputs) == [FULL, ROW]
    assert {a.dtype for a in kernel.arrays} == {"f16"}
    selects = [(s.op, s.args[2:]) for s in kernel.steps if s.op.startswith("where_")]
    assert sorted(op for op, _ in selects) == ["where_gt", "where_gt", "where_le"]
    assert sorted(v for _, values in selects for v in values if isinstance(v, float)) == [0.0, 1.0]
    computed = {n.name for n in result.cuts[0].nodes}
    assert {"gt", "le", "scalar_tensor"} & computed == set()


@pytest.mark.parametrize("fn, node, reason", [
    (lambda x: (x > 0, x + 1), "gt", "a boolean tensor (a graph output, or read by other than a where's condition)"),
    (lambda x: (x != 0).to(F16) * x, "ne", "a boolean tensor (a graph output"),
    (lambda x: torch.where(torch.isnan(x), 0.0, x), "where", "a boolean tensor that is not a comparison computed for the where"),
])
def test_a_boolean_tensor_outside_a_where_runs_in_pytorch(fn, node, reason):
    result = partition(fn, torch.randn(8, 64, dtype=F16))
    assert reason in refused(result)[node], refused(result)


def test_linear_is_one_product_reading_its_weight_through_the_transpose():
    """``linear`` decomposes to a view, a transpose of the weight and ``addmm``: one
    kernel, the weight read as it is stored, the bias per column; what follows the
    product is a kernel of its own."""
    linear = torch.nn.Linear(64, 32).half()
    result = partition(lambda x: torch.relu(linear(x)), torch.randn(2, 8, 64, dtype=F16))
    assert not result.refused
    (product,) = [c for c in result.cuts if isinstance(c.kernel, Product)]
    kernel = product.kernel
    assert (kernel.batch, kernel.m, kernel.n, kernel.k) == (1, 16, 32, 64)
    assert kernel.transposed and kernel.bias.layout == COL
    assert [n.target for n in product.nodes] == [torch.ops.aten.permute.default,
                                                  torch.ops.aten.addmm.default]
    assert [tuple(n.meta["val"].shape) for n in product.inputs] == [(2, 8, 64), (32, 64), (32,)]
    assert kernels(result)[1] == ["relu"]


def test_a_transpose_read_elsewhere_too_runs_in_pytorch_for_that_reader():
    def fn(x, w):
        t = w.t()
        return x @ t, t.exp()

    result = partition(fn, torch.randn(8, 64, dtype=F16), torch.randn(32, 64, dtype=F16))
    (product,) = [c for c in result.cuts if isinstance(c.kernel, Product)]
    assert product.kernel.transposed and [n.name for n in product.nodes] == ["mm"]
    assert "transpose" in refused(result)["permute"]


def test_attention_is_one_kernel_with_its_mask_made_on_the_host():
    def fn(q, k, v):
        attention = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu
        return attention(q, k, v, is_causal=True)[0]

    q, k, v = (torch.randn(2, 4, 16, 32, dtype=F16) for _ in range(3))
    graph = make_fx(fn)(q, k, v).graph
    result = cut(graph, "g", {})
    (attention,) = result.cuts
    kernel = attention.kernel
    assert isinstance(kernel, Attention) and kernel.mask is not None
    assert (kernel.batch, kernel.heads, kernel.queries, kernel.keys, kernel.dim) == \
        (2, 4, 16, 16, 32)
    assert not kernel.tokens_first
    assert kernel.scale == pytest.approx(32 ** -0.5)
    assert "made on the host" in next(iter(result.host.values()))


def test_a_scale_and_a_residual_after_a_product_are_its_epilogue():
    """``(x @ w) / 4 + r``: the division scales the product, the sum with ``r`` (made
    before it) is its bias; in ``x @ v + x.exp()`` the sum stays out (its other operand
    is made after the product)."""
    def fn(x, w, r, v):
        y = x @ w
        return y / 4 + r, x @ v + x.exp()

    x, w, r, v = (torch.randn(*s, dtype=F16) for s in ((8, 64), (64, 32), (8, 32), (64, 64)))
    result = partition(fn, x, w, r, v)
    first, second = [c for c in result.cuts if isinstance(c.kernel, Product)]
    assert [n.name for n in first.nodes] == ["mm", "div", "add"]
    assert (first.kernel.alpha, first.kernel.beta) == (0.25, 1.0)
    assert first.kernel.bias.layout == FULL and [n.name for n in first.outputs] == ["add"]
    assert second.kernel.bias is None and [n.name for n in second.nodes] == ["mm_1"]
