"""``scalar-broadcast-legalization``: feed a scalar operand to the SIMD engine as a
full vector, where the device cannot do it otherwise.

An input of a compute stage's ``linalg.generic`` that does not vary along the
vector (innermost) dimension holds one element per vector, a scalar the compute
engine must see in every lane. Two device limits get in the way: a load unit that
cannot fetch an access that small (its word is wider, or no access granularity
fits), and a compute engine that cannot splat a scalar across its lanes itself.
Where the engine filling the compute engine's FIFO cannot splat the scalar into it
either (its link does not carry a scalar that size), an engine that copies within
the scratchpad broadcasts it into a staging row there, which the filler loads as a
vector.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    FixedBitwidthType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import kind_name
from ktc.arch.model import ENGINE, Device, EngineKind, device_of
from ktc.dialects.diagnostics import KtcError, located, where
from ktc.dialects.ktdf import (
    CreateTokenOp,
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    PrivateOp,
    ReadFromFifoOp,
    StageOp,
    set_masked,
)
from ktc.dialects.ktdp import ConstructMemoryViewOp
from ktc.passes.utils.resources import add_resources


@dataclass(frozen=True)
class ScalarBroadcastLegalization(ModulePass):
    """Widen and splat the scalar inputs of compute stages the device cannot load or
    broadcast as they are.

    Expects path-expanded pipelines (``path-expansion``): every stage names its
    engine in ``applicable_units``; each input of a compute stage's
    ``linalg.generic`` is read from a FIFO slot that one ``ktdf.data_transfer``
    fills, from an external memref or through staging buffers of ``ktdf.private``.

    For each generic input whose indexing map does not use the innermost loop
    dimension (``(d0, d1) -> (d0, 0)`` or ``(d0, d1) -> (d0)``), fed from a FIFO:

    * every memref-to-memref transfer on its way whose engine cannot load the
      scalar in one exact access (``word_size``, ``access_granularity``) moves a
      whole vector (``lanes`` of the compute engine) instead, into a staging buffer
      widened to match; a memory view read so is marked ``ktdf.masked``, so that the
      copy stops at the view's end instead of reading past it;
    * if the compute engine cannot ``splat``, the transfer into the FIFO becomes
      ``transfer_mode = "splat"``: it reads one element and fills a slot of the
      vector dimension's extent; the FIFO read is widened and the map made
      identity in the innermost dimension, in every generic reading that FIFO
      read (of one vector width). The engine filling the FIFO must have
      ``simd.splat`` and its link must allow a scalar-sized transfer
      (``transfer_granularity``);
    * where it cannot (no splat, or a link that does not carry the scalar), a new
      stage before the filler's, run by an engine that reads the memory the filler
      reads and writes it back over links of its own (on Spyre the ring stop, on a
      chip whose DMA engine reads and writes its scratchpad that engine), copies the
      scalar with ``transfer_mode = "splat"`` (a stride-0 copy) into a staging row of
      the vector's width in that memory (``ktdf.private``, with the token joining
      the stages); the filler moves that row into the widened FIFO as a plain
      vector. The choice is the device's links and features, never its name.
      Otherwise the device cannot broadcast the scalar and the pass fails.

    A generic whose vector (innermost) dimension has one element takes the scalar
    as it is; when such generics share a FIFO read with wider ones, the wider ones
    get a read of their own, from a FIFO slot filled by a copy of the filler's
    transfer.
    """

    name = "scalar-broadcast-legalization"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        generics = [
            child for child in op.walk()
            if isinstance(child, GenericOp) and isinstance(child.parent_op(), StageOp)
        ]
        if not generics:
            return
        device = device_of(op)
        readers: dict[ReadFromFifoOp, list[tuple[GenericOp, int]]] = {}
        for generic in generics:
            for index, read in _scalar_inputs(generic):
                readers.setdefault(read, []).append((generic, index))
        for read, inputs in readers.items():
            _legalize(read, inputs, device)


def _scalar_inputs(generic: GenericOp) -> list[tuple[int, ReadFromFifoOp]]:
    """The inputs read from a FIFO as tensors whose map leaves out the innermost
    loop dimension, with their positions."""
    found = []
    for index, (operand, indexing) in enumerate(zip(generic.inputs, generic.indexing_maps)):
        read = operand.owner
        if not isinstance(read, ReadFromFifoOp) or not isinstance(operand.type, TensorType):
            continue
        if indexing.data.num_dims - 1 not in indexing.data.used_dims():
            found.append((index, read))
    return found


def _legalize(read: ReadFromFifoOp, inputs: list[tuple[GenericOp, int]], device: Device) -> None:
    """One FIFO read of a scalar, and the generics taking it as the inputs ``inputs``
    (generic, operand index): legalized once for all of them."""
    slot_type = read.fifo_slot.type
    assert isinstance(slot_type, FifoSlotType)
    element = slot_type.element_type
    scalar = element.size if isinstance(element, FixedBitwidthType) else 1
    transfers = _feeding(read.fifo_slot)
    if not transfers:
        return
    compute = device.engine(kind_name(slot_type.destination))
    wide = [(generic, index) for generic, index in inputs if _vector_extent(generic) != 1]
    splats = bool(wide) and not compute.splat
    if splats:
        generic, index = wide[0]
        what = f"'linalg.generic' cannot take operand #{index} as a scalar broadcast over the vector"
        count = prod(read.result.type.get_shape())
        if count != 1:
            raise KtcError(
                f"{what}: it holds {count} elements per vector, and a splat broadcasts one",
                where(generic),
            )
        copier = _broadcaster(transfers[-1], slot_type, compute, scalar, device, what, generic)
    for transfer in transfers[:-1]:
        engine = device.engine(_runner(transfer))
        if not _fetches(engine, _source_memory(transfer, device), scalar):
            _widen(transfer, device.lanes(element))
    if not splats:
        return
    filler = transfers[-1]
    if any((use.operation, use.index) not in wide for use in read.result.uses):
        read, filler = _fork(read, filler, wide)
    _splat(wide, read, filler, copier)


def _vector_extent(generic: GenericOp) -> int:
    """The extent of the generic's vector (innermost) loop dimension."""
    return _extent(generic, len(generic.iterator_types) - 1)


def _fork(read: ReadFromFifoOp, transfer: DataTransferOp,
          inputs: list[tuple[GenericOp, int]]) -> tuple[ReadFromFifoOp, DataTransferOp]:
    """A FIFO slot of its own for ``inputs`` (generic, operand index), which other
    ops also read through ``read``: filled by a copy of ``transfer``, the filler's, and
    read beside ``read``; the generics take that read instead. Returns the new read
    and transfer."""
    stage = transfer.parent_op()
    assert isinstance(stage, StageOp)
    [slot] = add_resources(stage.parent_op(), [FifoAllocateOp([read.fifo_slot.type])])
    copy = located(DataTransferOp(
        transfer.source, list(transfer.static_source_sizes.get_values()), slot,
        list(transfer.static_dest_sizes.get_values()),
        (transfer.source_map.data, list(transfer.source_indices)),
        attributes=dict(transfer.attributes),
    ), transfer)
    Rewriter.insert_op(copy, InsertPoint.after(transfer))
    own = located(ReadFromFifoOp(slot, read.result.type), read)
    Rewriter.insert_op(own, InsertPoint.after(read))
    for generic, index in inputs:
        generic.operands = [*generic.operands[:index], own.result, *generic.operands[index + 1:]]
    return own, copy


def _feeding(slot: SSAValue) -> list[DataTransferOp]:
    """The transfers that bring a FIFO slot's data from outside the pipeline, first
    to last, through staging buffers of ``ktdf.private``."""
    transfers: list[DataTransferOp] = []
    value = slot
    while True:
        writer = next(
            (use.operation for use in value.uses
             if isinstance(use.operation, DataTransferOp) and use.operation.destination is value),
            None,
        )
        if writer is None:
            return transfers
        transfers.insert(0, writer)
        value = writer.source
        if not isinstance(value.owner, PrivateOp):
            return transfers


def _runner(transfer: DataTransferOp) -> str:
    stage = transfer.parent_op()
    if not isinstance(stage, StageOp) or stage.applicable_units is None:
        raise KtcError(
            "'ktdf.data_transfer' sits in a stage that names no engine; run path-expansion "
            "before scalar-broadcast-legalization",
            where(transfer),
        )
    return kind_name(stage.applicable_units.data[0])


def _source_memory(transfer: DataTransferOp, device: Device) -> str:
    memory = device.memory_of(transfer.source.type, where(transfer))
    if memory is None:
        raise KtcError("'ktdf.data_transfer' reads a memref without a memory space",
                       where(transfer))
    return memory.kind


def _fetches(engine: EngineKind, memory: str, nbytes: int) -> bool:
    """Whether the engine loads ``nbytes`` from ``memory`` in one access of exactly
    that size, aligned to it."""
    if engine.load is None:
        return False
    word = engine.load.word_size(memory)
    return nbytes % word == 0 and any(
        access.size_in_words * word == nbytes and nbytes % (access.align_in_words * word) == 0
        for access in engine.load.access_granularity(memory)
    )


def _widen(transfer: DataTransferOp, width: int) -> None:
    """Move ``width`` elements along the innermost dimension instead of one, into a
    staging buffer at least that wide; a tile of a memory view read so marks the view
    ``ktdf.masked``, so that the copy stops at the view's end (the rest zeros)."""
    cast = transfer.source.owner
    if isinstance(cast, memref.ReinterpretCastOp) and isinstance(cast.source.owner, ConstructMemoryViewOp):
        set_masked(cast.source.owner)
    for name in ("static_source_sizes", "static_dest_sizes"):
        sizes = list(transfer.properties[name].get_values())
        if sizes[-1] == 1:
            transfer.properties[name] = DenseArrayBase.from_list(i64, [*sizes[:-1], width])
    buffer = transfer.destination
    buffer_type = buffer.type
    assert isinstance(buffer_type, MemRefType)
    shape = buffer_type.get_shape()
    if isinstance(buffer.owner, PrivateOp) and shape[-1] < width:
        wide = MemRefType(
            buffer_type.element_type, [*shape[:-1], width], buffer_type.layout,
            buffer_type.memory_space,
        )
        _retype_resource(buffer, wide)


def _broadcaster(
    transfer: DataTransferOp,
    slot_type: FifoSlotType,
    compute: EngineKind,
    scalar: int,
    device: Device,
    what: str,
    generic: GenericOp,
) -> str | None:
    """None when the engine filling the FIFO splats the scalar into it, over links
    that carry it; otherwise the engine kind that copies it into a staging row of the
    memory the filler reads (``_copier``); an error when there is none."""
    refusal = _splat_refusal(transfer, slot_type, compute, scalar, device)
    if refusal is None:
        return None
    memory = _source_memory(transfer, device)
    copier = _copier(device, memory)
    if copier is None:
        raise KtcError(
            f"{what}: device @{device.name} cannot splat it: {refusal}, and no engine "
            f"copies within \"{memory}\" to fill a row with it",
            where(generic),
        )
    return copier


def _splat_refusal(
    transfer: DataTransferOp,
    slot_type: FifoSlotType,
    compute: EngineKind,
    scalar: int,
    device: Device,
) -> str | None:
    """Why the engine filling the FIFO cannot splat the scalar into it (it lacks the
    splat feature, or a link on the way does not carry the scalar); None if it can."""
    filler = _runner(transfer)
    if not device.engine(filler).splat:
        engines = (
            f"\"{filler}\" (the compute engine, which fills its own FIFO) lacks"
            if filler == compute.kind
            else f"\"{compute.kind}\" (the compute engine) and \"{filler}\" (which fills "
            "its FIFO) lack"
        )
        return f"{engines} the simd splat feature"
    source, dest = (device.node(kind_name(end)) for end in (slot_type.source, slot_type.destination))
    for link in device.path(source, dest):
        if link.granularity and scalar not in link.granularity:
            return (f"the link from \"{link.source.kind}\" to \"{link.target.kind}\" does "
                    f"not carry a {scalar}-byte scalar (transfer granularity "
                    f"{list(link.granularity)})")
    return None


def _copier(device: Device, memory: str) -> str | None:
    """The kind of an engine that loads from and stores to ``memory`` over a link
    from it and a link back into it (a copy within the memory), if the device has
    one."""
    node = device.node(memory)
    writers = {link.source for link in device.links if link.target == node}
    for link in device.links:
        engine = link.target
        if link.source != node or engine.role != ENGINE or engine not in writers:
            continue
        kind = device.engine(engine.kind)
        moves = (kind.load, kind.store)
        if all(feature is not None and memory in feature.word_sizes for feature in moves):
            return engine.kind
    return None


def _splat(inputs: list[tuple[GenericOp, int]], read: ReadFromFifoOp,
           transfer: DataTransferOp, copier: str | None) -> None:
    """Fill the FIFO with the scalar repeated over the vector dimension, and read it
    as a vector, in every generic taking it (``inputs``: generic, operand index): the
    filler splats it (``copier`` None), or moves the row ``copier`` fills with it."""
    widths = {_extent(generic, len(generic.iterator_types) - 1) for generic, _ in inputs}
    if len(widths) != 1:
        raise KtcError(
            f"'ktdf.read_from_fifo' of a scalar feeds generics whose vectors have "
            f"{sorted(widths)} elements; a splat fills the FIFO for one of them",
            where(read),
        )
    width = widths.pop()
    shape = list(read.result.type.get_shape())
    if shape and _reads_constant_last(*inputs[0]):
        shape[-1] = width
    else:
        shape.append(width)
    for generic, index in inputs:
        _vector_map(generic, index)

    slot_type = read.fifo_slot.type
    wide_slot = FifoSlotType(slot_type.source, slot_type.destination, width, slot_type.element_type)
    _retype_resource(read.fifo_slot, wide_slot)
    sizes = list(transfer.static_dest_sizes.get_values())
    transfer.properties["static_dest_sizes"] = DenseArrayBase.from_list(i64, [*sizes[:-1], width])
    if copier is None:
        transfer.make_splat()
    else:
        _stage_row(transfer, copier, width)
    Rewriter.replace_value_with_new_type(read.result, TensorType(slot_type.element_type, shape))


def _stage_row(transfer: DataTransferOp, copier: str, width: int) -> None:
    """Copy the element ``transfer`` reads, stride 0, into a new staging row of
    ``width`` elements in its memory, in a stage run by ``copier`` just before
    ``transfer``'s, and make ``transfer`` move that row."""
    stage = transfer.parent_op()
    assert isinstance(stage, StageOp)
    source_type = transfer.source.type
    assert isinstance(source_type, MemRefType)
    sizes = list(transfer.static_source_sizes.get_values())
    row_sizes = [*sizes[:-1], width]
    row_type = MemRefType(source_type.element_type, row_sizes,
                          memory_space=source_type.memory_space)
    row, token = add_resources(stage.parent_op(),
                               [memref.AllocOp([], [], row_type), CreateTokenOp()])
    origin = (AffineMap(0, 0, (AffineExpr.constant(0),) * len(row_sizes)), [])
    copy = located(DataTransferOp(
        transfer.source, sizes, row, row_sizes,
        (transfer.source_map.data, list(transfer.source_indices)), origin,
    ), transfer)
    copy.make_splat()
    Rewriter.insert_op(
        StageOp(list(stage.depends_in), [token], [copy], [StringAttr(copier)]),
        InsertPoint.before(stage),
    )
    waits = StageOp([token], list(stage.depends_out), stage.detach_region(stage.body),
                    list(stage.applicable_units.data))
    Rewriter.replace_op(stage, waits)
    Rewriter.replace_op(transfer, located(DataTransferOp(
        row, row_sizes, transfer.destination, list(transfer.static_dest_sizes.get_values()), origin,
        attributes=dict(transfer.attributes),
    ), transfer))


def _reads_constant_last(generic: GenericOp, index: int) -> bool:
    """Whether the input's map gives its innermost dimension a constant position."""
    results = generic.indexing_maps.data[index].data.results
    return bool(results) and isinstance(results[-1], AffineConstantExpr)


def _vector_map(generic: GenericOp, index: int) -> None:
    """The input's map reading along the vector (innermost) loop dimension: its
    constant innermost position replaced by it, or it added innermost."""
    indexing = generic.indexing_maps.data[index].data
    vector_dim = AffineExpr.dimension(indexing.num_dims - 1)
    results = list(indexing.results)
    if _reads_constant_last(generic, index):
        results[-1] = vector_dim
    else:
        results.append(vector_dim)
    maps = list(generic.indexing_maps.data)
    maps[index] = AffineMapAttr(AffineMap(indexing.num_dims, indexing.num_symbols, tuple(results)))
    generic.properties["indexing_maps"] = ArrayAttr(maps)


def _extent(generic: GenericOp, dim: int) -> int:
    """The extent of a loop dimension of the generic, from an operand it indexes."""
    for operand, indexing in zip(generic.operands, generic.indexing_maps):
        for position, result in enumerate(indexing.data.results):
            if result == AffineExpr.dimension(dim):
                return operand.type.get_shape()[position]
    raise KtcError(
        f"'linalg.generic' gives no extent for its loop dimension d{dim}", where(generic)
    )


def _retype_resource(resource: SSAValue, new_type: Attribute) -> None:
    """Give a ``ktdf.private`` result, and the value its region yields for it, a new
    type."""
    private = resource.owner
    assert isinstance(private, PrivateOp)
    inner = private.body.block.last_op.operands[resource.index]
    Rewriter.replace_value_with_new_type(inner, new_type)
    Rewriter.replace_value_with_new_type(resource, new_type)
