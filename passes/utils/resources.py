"""What a pipeline's ``ktdf.private`` hands out: the value behind each resource,
adding and removing resources, the stage of a pipeline that holds an op."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.dialects.ktdf import PipelineOp, PrivateOp, PrivateYieldOp, StageOp


def handed_out(resource: SSAValue) -> SSAValue:
    """The value the ``ktdf.private`` region yields for its result ``resource``."""
    private = resource.owner
    assert isinstance(private, PrivateOp)
    terminator = private.body.block.last_op
    assert isinstance(terminator, PrivateYieldOp)
    return terminator.values[private.resources.index(resource)]


def stage_in(pipeline: PipelineOp, op: Operation) -> StageOp | None:
    """The stage of ``pipeline`` that holds ``op``, at any depth; None if none does."""
    while op is not None and op.parent_op() is not pipeline:
        op = op.parent_op()
    return op if isinstance(op, StageOp) else None


def add_resources(pipeline: PipelineOp, ops: Sequence[Operation]) -> list[SSAValue]:
    """Create ``ops`` in ``pipeline``'s ``ktdf.private`` region and hand their
    results out; returns the new private results, in order."""
    private = pipeline.private
    terminator = private.body.block.last_op
    Rewriter.insert_op(ops, InsertPoint.before(terminator))
    values = [result for op in ops for result in op.results]
    handed = _reprivate(private, [*terminator.values, *values])
    return [handed[value] for value in values]


def remove_resources(pipeline: PipelineOp, dead: Sequence[SSAValue]) -> None:
    """Stop handing out the private results ``dead`` (unused by now) and erase what
    created them once nothing else uses it."""
    private = pipeline.private
    terminator = private.body.block.last_op
    kept = [v for v, r in zip(terminator.values, private.results) if r not in dead]
    gone = {v.owner for v, r in zip(terminator.values, private.results) if r in dead}
    _reprivate(private, kept)
    for op in gone:
        if all(not result.uses for result in op.results):
            Rewriter.erase_op(op)


def _reprivate(private: PrivateOp, values: list[SSAValue]) -> dict[SSAValue, SSAValue]:
    """Replace ``private`` by one handing out ``values``; returns the new result per
    yielded value."""
    terminator = private.body.block.last_op
    old = dict(zip(terminator.values, private.results))
    Rewriter.erase_op(terminator)
    private.body.block.add_op(PrivateYieldOp(*values))
    new = PrivateOp([v.type for v in values], private.detach_region(private.body))
    Rewriter.insert_op(new, InsertPoint.before(private))
    handed = dict(zip(values, new.results))
    for value, result in old.items():
        if value in handed:
            result.replace_all_uses_with(handed[value])
    Rewriter.erase_op(private, safe_erase=False)
    return handed
