"""The chains of a block: its stores grouped with the loads and generics they need.

Two stores are in one chain when what they store is computed from a shared load or
generic. ``tile-to-simd-width`` tiles each chain in one loop nest and
``construct-three-stage-pipeline`` builds one pipeline of each tiled chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation, SSAValue

from ktc.dialects import ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import attr_text
from ktc.passes.utils.fusion import reads_output


@dataclass
class Chain:
    """Stores and what they need, generics and loads, in block order."""

    stores: list[ktdp.StoreOp]
    generics: list[GenericOp]
    loads: list[ktdp.LoadOp]

    @staticmethod
    def components(stores: Sequence[ktdp.StoreOp]) -> list[Chain]:
        """The stores (of one block) grouped by shared loads or compute, each group with
        what it needs, in the order of their first store: a chain that loads what
        another stores into a scratchpad buffer (a product kept for the reduction
        reading it) stores only after that load, so it comes after the other, even
        when one of its loads comes first (a gathered tile it reads)."""
        groups: list[tuple[list[ktdp.StoreOp], set[Operation]]] = []
        for store in stores:
            grouped, needed = [store], _needed(store)
            for other in [group for group in groups if group[1] & needed]:
                groups.remove(other)
                grouped, needed = [*other[0], *grouped], needed | other[1]
            groups.append((grouped, needed))
        chains = [Chain.of(grouped, needed) for grouped, needed in groups]
        order = (
            {op: index for index, op in enumerate(stores[0].parent_block().ops)} if stores else {}
        )
        return sorted(
            chains, key=lambda chain: min(order[op] for op in chain.stores)
        )

    @staticmethod
    def of(stores: list[ktdp.StoreOp], needed: set[Operation]) -> Chain:
        block = stores[0].parent_block()
        generics = [op for op in block.ops if isinstance(op, GenericOp) and op in needed]
        loads = [op for op in block.ops if isinstance(op, ktdp.LoadOp) and op in needed]
        for generic in generics:
            _check_operands(generic)
        return Chain([op for op in block.ops if op in stores], generics, loads)


def read_operands(generic: GenericOp) -> list[SSAValue]:
    """The inputs of ``generic`` and the outputs its body reads."""
    read = [out for out, used in zip(generic.outputs, reads_output(generic)) if used]
    return [*generic.inputs, *read]


def producer(value: SSAValue) -> str:
    """What makes ``value``, for a diagnostic: the op's name, or a block argument."""
    owner = value.owner
    return f"'{owner.name}'" if isinstance(owner, Operation) else "a block argument"


def _needed(store: ktdp.StoreOp) -> set[Operation]:
    """The generics and loads the value ``store`` writes is computed from."""
    if not isinstance(store.data_tile.owner, GenericOp):
        raise KtcError(
            f"the value stored here comes from {producer(store.data_tile)}, which "
            "computes nothing the pipeline can run",
            where(store),
        )
    needed: set[Operation] = set()
    pending = [store.data_tile]
    while pending:
        owner = pending.pop().owner
        if owner in needed or not isinstance(owner, GenericOp | ktdp.LoadOp):
            continue
        needed.add(owner)
        if isinstance(owner, GenericOp):
            pending += read_operands(owner)
    return needed


def _check_operands(generic: GenericOp) -> None:
    for value in (*read_operands(generic), *generic.res):
        value_type = value.type
        if not isinstance(value_type, TensorType) or DYNAMIC_INDEX in value_type.get_shape():
            raise KtcError(
                f"'linalg.generic' works on {attr_text(value_type)}; the compute stage "
                "needs tensors of static shape",
                where(generic),
            )
    for value in generic.inputs:
        if not isinstance(value.owner, GenericOp | ktdp.LoadOp):
            raise KtcError(
                f"'linalg.generic' reads a value of {producer(value)}; the compute "
                "stage reads only loaded tiles and what it computes itself",
                where(generic),
            )
