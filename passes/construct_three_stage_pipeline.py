"""``construct-three-stage-pipeline``: each chain on tiles as a pipeline of three
stages: load into FIFOs, compute, store from FIFOs.

IBM's version is ``ConstructThreeStagePipeline.cpp`` (its §1.1 item 3 and §4.2); the
passes before it (``materialize-phase-buffers``, ``generalize-and-fuse``,
``lower-ktdp-views``, ``tile-to-simd-width``) leave each chain as loads, generics
and stores on tiles, so this pass only builds the stages.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, Link, device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.passes.analysis.chains import Chain


@dataclass(frozen=True)
class ConstructThreeStagePipeline(ModulePass):
    """Build the three-stage pipeline of every chain.

    Expects programs whose loads, ``linalg.generic``s and stores work on tiles (as
    ``tile-to-simd-width`` leaves them): every load and store uses a
    ``ktdp.construct_access_tile`` in the identity order of a view typed with its
    memory kind; a device whose compute engine takes and gives data through ordered
    queues whose largest transfers are equal.

    Produces, for each chain (stores that share loads or compute, with the loads and
    generics they need), right after its last store, a ``ktdf.pipeline``: a
    ``ktdf.private`` with one FIFO slot of one tile per transfer (one
    ``ktdf.fifo.allocate`` per pair of ends, ``"<memory kind>" -> "<compute kind>"``
    and back) and one token per stage; a load stage (``ktdf.data_transfer`` of each
    loaded tile of its view, at the tile's start, into its slot), a compute stage on
    the compute kind (``ktdf.read_from_fifo`` per load, the chain's generics and the
    empty tensors they write, ``ktdf.write_to_fifo`` per store) and a store stage (each
    result slot into its tile of the view); with nothing to load, no load stage. The
    loads, stores and their tiles are erased; a program without them is left alone,
    so running the pass again changes nothing.
    """

    name = "construct-three-stage-pipeline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        stores = [store for store in op.walk() if isinstance(store, ktdp.StoreOp)]
        if not stores:
            return
        compute = _compute_kind(device_of(op))
        blocks = {store.parent_block(): None for store in stores}
        for block in blocks:
            chains = Chain.components([op for op in block.ops if isinstance(op, ktdp.StoreOp)])
            for chain in chains:
                _Pipeline(chain, compute).build()
            _erase_replaced(block)


def _compute_kind(device: Device) -> str:
    """The device's compute kind, after checking that FIFOs can feed it."""
    compute = device.compute_kind
    engine = device.node(compute)
    feeding = [link for link in device.links if link.target == engine]
    draining = [link for link in device.links if link.source == engine]
    for link in (*feeding, *draining):
        if link.queue is None or not link.queue.ordered:
            raise KtcError(
                f"the link from {link.source.kind} to {link.target.kind} is not an "
                f"ordered queue; the three-stage pipeline feeds and drains the compute "
                f"engine {compute} through FIFOs",
                link.where,
            )
    taken, given = _largest_transfer(feeding), _largest_transfer(draining)
    if taken != given:
        raise KtcError(
            f"the compute engine {compute} takes transfers of {_bytes(taken)} but gives "
            f"{_bytes(given)}; the three-stage pipeline needs the two equal",
            device.engine(compute).where,
        )
    return compute


def _largest_transfer(links: Sequence[Link]) -> int | None:
    """The largest transfer granularity of ``links``; None when none is given."""
    return max((size for link in links for size in link.granularity), default=None)


def _bytes(size: int | None) -> str:
    return "any size" if size is None else f"at most {size} bytes"


def _erase_replaced(block: Block) -> None:
    """Erase the stores the pipelines replace, then the loads and tiles left unused."""
    for op in [op for op in block.ops if isinstance(op, ktdp.StoreOp)]:
        block.erase_op(op)
    for op in reversed(list(block.ops)):
        if isinstance(op, ktdp.LoadOp | ktdp.ConstructAccessTileOp) and not op.result.uses:
            block.erase_op(op)


@dataclass(eq=False)
class _Transfer:
    """One tile crossing a FIFO: an operand loaded into the compute stage or a result
    stored from it."""

    value: SSAValue
    """The loaded tile or the stored one."""
    view: SSAValue
    """The view it is read from or written to."""
    access: tuple[AffineMap, list[SSAValue]]
    """Where in the view the tile starts, over its operands."""
    slot: ktdf.FifoSlotType
    sizes: list[int]
    location: Attribute
    """Where the load or store it comes from was written."""

    def located(self, op: Operation) -> Operation:
        op.location = self.location
        return op


def _transfer(op: ktdp.LoadOp | ktdp.StoreOp, value: SSAValue, compute: str, load: bool) -> _Transfer:
    """The transfer of ``value``, the tile ``op`` loads or stores."""
    tile = op.access_tile.owner
    if not _in_order_of_typed_view(tile):
        raise KtcError(
            "the pipeline moves tiles in their order of a view typed with its memory kind; "
            "'lower-ktdp-views' and 'tile-to-simd-width' make them",
            where(op),
        )
    memory = tile.base.type.memory_space
    sizes = list(value.type.get_shape())
    ends = (memory, StringAttr(compute)) if load else (StringAttr(compute), memory)
    slot = ktdf.FifoSlotType(*ends, math.prod(sizes), value.type.get_element_type())
    return _Transfer(value, tile.base, (tile.base_map.data, list(tile.indices)), slot, sizes,
                     op.location)


def _in_order_of_typed_view(tile: Operation) -> bool:
    """Whether ``tile`` is an access tile in the identity order of a memref typed with
    its memory kind."""
    return (
        isinstance(tile, ktdp.ConstructAccessTileOp)
        and isinstance(tile.base.type, MemRefType)
        and isinstance(tile.base.type.memory_space, StringAttr)
        and tile.access_tile_order.data == AffineMap.identity(tile.result.type.get_num_dims())
    )


_Slots = dict[_Transfer, SSAValue]
"""The FIFO slot of each transfer."""


@dataclass
class _Pipeline:
    """The pipeline of one chain on tiles."""

    chain: Chain
    compute: str
    """The compute engine kind: the compute stage's unit and the FIFOs' far end."""

    def build(self) -> None:
        """Insert the pipeline after the chain's last store."""
        loads = [_transfer(op, op.result, self.compute, True) for op in self.chain.loads]
        stores = [_transfer(op, op.data_tile, self.compute, False) for op in self.chain.stores]
        Rewriter.insert_op(self._pipeline(loads, stores), InsertPoint.after(self.chain.stores[-1]))

    def _pipeline(self, loads: list[_Transfer], stores: list[_Transfer]) -> ktdf.PipelineOp:
        """The stages in order, each releasing the token the next one waits for."""
        bodies = [
            (self._compute_stage, [StringAttr(self.compute)]),
            (_store_stage, None),
        ]
        if loads:
            bodies.insert(0, (_load_stage, None))
        private, slot_of, tokens = _private([*loads, *stores], len(bodies))
        stages = []
        for index, (body, units) in enumerate(bodies):
            waits = [tokens[index - 1]] if index else []
            ops = body(loads, stores, slot_of)
            stages.append(ktdf.StageOp(waits, [tokens[index]], ops, units))
        return ktdf.PipelineOp([private, *stages])

    def _compute_stage(
        self, loads: list[_Transfer], stores: list[_Transfer], slot_of: _Slots
    ) -> list[Operation]:
        """The operand tiles read from their slots, the chain's generics (with the
        empty tensors they write) moved in, the results written to their slots."""
        ops: list[Operation] = []
        for load in loads:
            read = load.located(ktdf.ReadFromFifoOp(slot_of[load], load.value.type))
            read.result.name_hint = load.value.name_hint
            load.value.replace_all_uses_with(read.result)
            ops.append(read)
        for generic in self.chain.generics:
            ops += [_detached(out.owner) for out in generic.outputs
                    if isinstance(out.owner, tensor.EmptyOp) and out.owner.parent is not None]
            ops.append(_detached(generic))
        ops += [
            store.located(ktdf.WriteToFifoOp(store.value, slot_of[store])) for store in stores
        ]
        return ops


def _detached(op: Operation) -> Operation:
    op.detach()
    return op


def _private(
    transfers: list[_Transfer], stages: int
) -> tuple[ktdf.PrivateOp, _Slots, Sequence[SSAValue]]:
    """The pipeline's FIFO slots, one ``ktdf.fifo.allocate`` per pair of ends, and
    one token per stage: the ``ktdf.private`` op, each transfer's slot, the tokens."""
    ends: dict[tuple[Attribute, Attribute], list[_Transfer]] = {}
    for transfer in transfers:
        ends.setdefault((transfer.slot.source, transfer.slot.destination), []).append(transfer)
    grouped = [transfer for group in ends.values() for transfer in group]
    allocations = [
        ktdf.FifoAllocateOp([transfer.slot for transfer in group]) for group in ends.values()
    ]
    tokens = [ktdf.CreateTokenOp() for _ in range(stages)]
    yielded = [
        *(slot for allocation in allocations for slot in allocation.slots),
        *(token.result for token in tokens),
    ]
    private = ktdf.PrivateOp(
        [value.type for value in yielded],
        [*allocations, *tokens, ktdf.PrivateYieldOp(*yielded)],
    )
    return private, dict(zip(grouped, private.resources)), private.resources[len(grouped) :]


def _load_stage(loads: list[_Transfer], stores: list[_Transfer], slot_of: _Slots) -> list[Operation]:
    """Each operand tile into its slot."""
    return [
        load.located(
            ktdf.DataTransferOp(
                load.view, load.sizes, slot_of[load], load.sizes, source_access=load.access
            )
        )
        for load in loads
    ]


def _store_stage(loads: list[_Transfer], stores: list[_Transfer], slot_of: _Slots) -> list[Operation]:
    """Each result slot into its tile."""
    return [
        store.located(
            ktdf.DataTransferOp(
                slot_of[store], store.sizes, store.view, store.sizes, dest_access=store.access
            )
        )
        for store in stores
    ]
