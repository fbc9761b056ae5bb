"""The phases of a program: the straight-line runs of ops between the ops that hold
compute, and the blocks compute sits in.

An op holds compute when its regions hold loads, stores or ops making tensors (an
``scf.for``, an ``scf.if`` without results), or when it is a ``ktdf.pipeline``
already built. A phase of a block ends at the next such op or at the block's
terminator. ``materialize-phase-buffers`` hands tensors over between phases; the
passes after it work phase by phase, in the blocks ``compute_blocks`` lists.
"""

from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation

from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where


def programs(module: ModuleOp) -> list[FuncOp]:
    """The functions of ``module`` that store (the programs compute-group-extraction
    makes); the others are left alone."""
    return [
        func for func in module.walk()
        if isinstance(func, FuncOp) and any(isinstance(op, ktdp.StoreOp) for op in func.walk())
    ]


def holds_compute(op: Operation) -> bool:
    """Whether ``op`` (not a linalg op) has regions holding loads, stores or tensors,
    or is a pipeline already built (``inter-tile-reduce-lowering``'s ring copy)."""
    if isinstance(op, ktdf.PipelineOp):
        return True
    if not op.regions or op.dialect_name() == "linalg":
        return False
    return any(
        isinstance(inner, ktdp.LoadOp | ktdp.StoreOp)
        or any(isinstance(result.type, TensorType) for result in inner.results)
        for inner in op.walk()
    )


def compute_loops(block: Block) -> list[Operation]:
    """The ops of ``block`` that hold compute, each the end of a phase: ``scf.for``
    loops, ``scf.if`` without results, and pipelines already built."""
    loops = []
    for op in block.ops:
        if not holds_compute(op):
            continue
        if isinstance(op, scf.IfOp) and op.results or not isinstance(
            op, scf.ForOp | scf.IfOp | ktdf.PipelineOp
        ):
            raise KtcError(
                f"'{op.name}' holds loads, stores or tensor compute; a program holds them "
                "in straight-line code, 'scf.for' loops and 'scf.if' without results only",
                where(op),
            )
        loops.append(op)
    return loops


def bodies(op: Operation) -> list[Block]:
    """The blocks of a loop or branch holding compute (none for a built pipeline)."""
    if isinstance(op, ktdf.PipelineOp):
        return []
    return [block for region in op.regions for block in region.blocks]


def compute_blocks(block: Block) -> list[Block]:
    """``block`` and the bodies of the loops and branches in it that hold compute,
    nested ones too, outer before inner."""
    return [block, *(inner for loop in compute_loops(block) for body in bodies(loop)
                     for inner in compute_blocks(body))]


class PhaseEnds:
    """The op that closes the phase of each op of a block: the next op holding
    compute, or the block's terminator. Found in one walk over the block; an op
    inserted since (none holding compute) takes the end of the op after it."""

    def __init__(self, block: Block) -> None:
        self.closing: dict[Operation, Operation] = {}
        current = block.last_op
        for op in reversed(block.ops):
            if holds_compute(op):
                current = op
            self.closing[op] = current

    def of(self, op: Operation) -> Operation:
        following = op.next_op
        while following not in self.closing:
            following = following.next_op
        return self.closing[following]
