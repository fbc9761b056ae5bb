"""Fusion (``passes/utils/fusion.py``) folds a chain of elementwise tensor ops into one
``linalg.generic`` whose body applies them in order, and does it in time linear in the
chain: no producer body read by one consumer only is copied, and each fusion moves
only the smaller side's ops. A producer that two consumers read is copied into each."""

import pytest
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Block, Operation

from ktc.dialects import context
from ktc.dialects.source import parse_module, verify_module
from ktc.passes.utils.fusion import fuse, generalize


def _function(body: str) -> FuncOp:
    text = (
        "func.func @f(%x: tensor<4x8xf16>, %y: tensor<4x8xf16>) -> tensor<4x8xf16> {\n"
        f"{body}}}\n"
    )
    module = parse_module(text, "chain.mlir", context())
    verify_module(module)
    return next(op for op in module.walk() if isinstance(op, FuncOp))


def _chain(ops: int) -> str:
    lines, value = [], "%x"
    for step in range(ops):
        name = "arith.addf" if step % 2 == 0 else "arith.mulf"
        lines.append(f"  %v{step} = {name} {value}, %y : tensor<4x8xf16>\n")
        value = f"%v{step}"
    return "".join(lines) + f"  func.return {value} : tensor<4x8xf16>\n"


def _caterpillar(ops: int) -> str:
    """``c = x; c = x * y + c; ...``: each step a fresh producer beside the chain, read
    before it."""
    lines, value = [], "%x"
    for step in range(ops):
        lines.append(f"  %p{step} = arith.mulf %x, %y : tensor<4x8xf16>\n")
        lines.append(f"  %c{step} = arith.addf %p{step}, {value} : tensor<4x8xf16>\n")
        value = f"%c{step}"
    return "".join(lines) + f"  func.return {value} : tensor<4x8xf16>\n"


def _fused(func: FuncOp) -> list[GenericOp]:
    block = func.body.block
    generalize(block)
    fuse(block)
    verify_module(func)
    return [op for op in block.ops if isinstance(op, GenericOp)]


@pytest.mark.parametrize("ops", [1, 2, 16, 256])
def test_a_chain_becomes_one_generic_applying_its_ops_in_order(ops):
    func = _function(_chain(ops))
    (generic,) = _fused(func)
    assert list(generic.inputs) == list(func.body.block.args)
    body = list(generic.body.block.ops)
    assert [op.name for op in body[:-1]] == [
        "arith.addf" if step % 2 == 0 else "arith.mulf" for step in range(ops)
    ]
    x, y = generic.body.block.args[:2]
    previous = x
    for op in body[:-1]:
        assert list(op.operands) == [previous, y]
        previous = op.results[0]
    assert list(body[-1].operands) == [previous]


def _fusion_work(kernel, ops: int, monkeypatch) -> dict[str, int]:
    """How many ops fusing ``kernel(ops)`` clones and detaches from a block."""
    block = _function(kernel(ops)).body.block
    generalize(block)
    counts = {"clone": 0, "detach": 0}
    clone, detach = Operation.clone, Block.detach_op

    def counting_clone(self, *args, **kwargs):
        counts["clone"] += 1
        return clone(self, *args, **kwargs)

    def counting_detach(self, op):
        counts["detach"] += 1
        return detach(self, op)

    with monkeypatch.context() as patched:
        patched.setattr(Operation, "clone", counting_clone)
        patched.setattr(Block, "detach_op", counting_detach)
        fuse(block)
    return counts


@pytest.mark.parametrize("kernel", [_chain, _caterpillar])
def test_fusing_a_chain_copies_nothing_and_moves_ops_linearly(kernel, monkeypatch):
    short, long = _fusion_work(kernel, 64, monkeypatch), _fusion_work(kernel, 256, monkeypatch)
    assert short["clone"] == long["clone"] == 0
    # Four times the ops, about four times the moves (moving the growing body at each
    # step would be about sixteen).
    assert long["detach"] <= 4.5 * short["detach"]


def test_a_producer_read_twice_is_copied_into_each_consumer_and_erased():
    func = _function(
        "  %s = arith.addf %x, %y : tensor<4x8xf16>\n"
        "  %a = arith.mulf %s, %x : tensor<4x8xf16>\n"
        "  %b = arith.subf %s, %y : tensor<4x8xf16>\n"
        "  %c = arith.divf %a, %b : tensor<4x8xf16>\n"
        "  func.return %c : tensor<4x8xf16>\n"
    )
    (generic,) = _fused(func)
    names = [op.name for op in generic.body.block.ops]
    # %b's producers first (fused last), then %a's, then the division.
    assert names == ["arith.addf", "arith.subf", "arith.addf", "arith.mulf", "arith.divf",
                     "linalg.yield"]
    assert len(generic.inputs) == 2
