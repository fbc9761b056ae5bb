"""``generalize-and-fuse``: the tensor compute of every phase as ``linalg.generic``s,
fused producer into consumer, so that a compute stage runs one generic per
elementwise computation.

IBM's ``ConstructThreeStagePipeline.cpp`` asserts one ``linalg.generic`` after
fusion; a softmax row needs more (two reductions and an elementwise step), so what
fusion leaves is a short chain of generics.
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp, TensorType, i1
from xdsl.dialects.linalg.ops import CopyOp, GenericOp
from xdsl.ir import Attribute, Block
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.dialects import ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.passes.utils.fusion import fuse, generalize
from ktc.passes.utils.phases import compute_blocks, programs


@dataclass(frozen=True)
class GeneralizeAndFuse(ModulePass):
    """Generalize and fuse the compute of every phase of every program.

    Expects programs whose every tensor is used in the phase that makes it (as
    ``materialize-phase-buffers`` leaves them), in straight-line code, ``scf.for``
    loops and ``scf.if`` without results; compute on tensors is elementwise
    ``arith``/``math``, named linalg ops, ``linalg.broadcast``/``reduce``/``generic``,
    ``tensor.splat`` and splat constants. No device is needed.

    Produces, in every block holding compute (inner blocks first):

    - each stored tensor that is a load's result copied first (``linalg.copy`` into a
      ``tensor.empty``), so that a compute stage has something to run;
    - every op computing on tensors rewritten as a ``linalg.generic``
      (``passes/utils/fusion.py``): scalar ``ins`` captured by the body, repeated
      inputs merged, a ``tensor.splat`` of an element ``tensor.extract`` takes at
      constant indices a broadcast of it, and a scalar the body computes from such
      elements (``arith``/``math`` ops on them) computed in the body, each element an
      input read at its position (a row's mean feeding its normalization);
    - each all-parallel generic with one result written through a permutation fused
      into the generics reading it, erased when none else does: one generic per
      elementwise computation, plus one per reduction and the fills seeding them;
    - the loads, generics and empty tensors that no store needs erased.

    A compare's tensor of ``i1`` (``arith.cmpf``) fuses into the selects reading it,
    so that the mask lives only in their bodies. Running it again changes nothing. An
    op left on tensors that is not a generic, a load, a store or an empty tensor, and
    a generic left making a tensor of ``i1``, are errors at the op.
    """

    name = "generalize-and-fuse"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for program in programs(op):
            for block in reversed(compute_blocks(program.body.block)):
                _copy_stored_loads(block)
                generalize(block)
                fuse(block)
                _require_supported(block)
                _erase_unneeded(block)


def _copy_stored_loads(block: Block) -> None:
    """Give each store of a loaded tensor a copy to run in the compute stage."""
    for store in [op for op in block.ops if isinstance(op, ktdp.StoreOp)]:
        if not isinstance(store.data_tile.owner, ktdp.LoadOp):
            continue
        empty = tensor.EmptyOp([], store.data_tile.type)
        copy = CopyOp([store.data_tile], [empty.tensor])
        empty.location = copy.location = store.location
        Rewriter.insert_op([empty, copy], InsertPoint.before(store))
        store.operands = [copy.res[0], store.access_tile]


def _require_supported(block: Block) -> None:
    """Every op left on tensors must be a generic, a load, a store or an empty tensor,
    and no generic may be left making a mask."""
    for op in block.ops:
        if isinstance(op, GenericOp) and any(_is_mask(t) for t in op.result_types):
            raise KtcError(
                "'linalg.generic' makes a tensor of i1 that does not fuse into the generics "
                "reading it (it reduces, reads its output or writes through a map that is "
                "not a permutation); a compute stage neither stores nor hands over masks",
                where(op),
            )
        if isinstance(op, GenericOp | ktdp.LoadOp | ktdp.StoreOp | tensor.EmptyOp):
            continue
        if not any(isinstance(value.type, TensorType) for value in (*op.operands, *op.results)):
            continue
        if isinstance(op, tensor.ExtractOp):
            raise KtcError(
                "'tensor.extract' is supported at constant indices only, its element used "
                "by compute on tensors; the compute stage cannot hand a scalar out",
                where(op),
            )
        raise KtcError(
            f"'{op.name}' is not an elementwise, broadcast or reduction op; the compute "
            "stage cannot run it",
            where(op),
        )


def _is_mask(value_type: Attribute) -> bool:
    return isinstance(value_type, TensorType) and value_type.get_element_type() == i1


def _erase_unneeded(block: Block) -> None:
    """Erase the loads, generics and empty tensors of ``block`` no op reads."""
    for op in reversed(list(block.ops)):
        if isinstance(op, ktdp.LoadOp | GenericOp | tensor.EmptyOp) and not any(
            result.uses for result in op.results
        ):
            block.erase_op(op)
