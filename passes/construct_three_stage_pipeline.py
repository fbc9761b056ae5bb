"""``construct-three-stage-pipeline``: the compute of each program as pipelines of
three stages (load into FIFOs, compute, store from FIFOs), each in a loop nest tiled
to the SIMD width of the device's compute engine.

IBM's version is ``ConstructThreeStagePipeline.cpp`` (its §1.1 item 3 and §4.2). It
asserts one ``linalg.generic`` after fusion and a straight-line program; this pass
takes a short chain of generics into one compute stage (a softmax row needs two
reductions and an elementwise step), and splits a program holding ``scf.for``
loops (an accumulation over column blocks with ``iter_args``) into phases that
hand tensors over through scratchpad buffers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AffineSetAttr,
    IndexType,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    StringAttr,
    TensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.ops import CopyOp, GenericOp
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.arch.model import Device, Link, device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.ktdf_arch import attr_text
from ktc.dialects.upstream import ApplyOp, ForOp
from ktc.passes.utils.affine import box
from ktc.passes.utils.fusion import fuse, generalize, reads_output


@dataclass(frozen=True)
class ConstructThreeStagePipeline(ModulePass):
    """Build the three-stage pipelines of every program.

    Expects the form ``compute-group-extraction`` produces: programs are
    ``func.func``s (in ``module @local_schedule_N``) that load access tiles with
    ``ktdp.load``, compute on tensors (elementwise ``arith``/``math``, named linalg
    ops, ``linalg.broadcast``/``reduce``/``generic``, ``tensor.splat``, splat
    constants) and store with ``ktdp.store``, in straight-line code or in
    ``scf.for`` loops (with or without ``iter_args``) and ``scf.if`` without
    results; scratchpad buffers (``memref.alloc``) may be read and written through
    access tiles. A function that stores nothing is left alone.

    Produces, in each program:

    - phases: the straight-line runs of ops between the loops that hold compute
      (an ``scf.if`` without results holding compute, and a pipeline already built,
      such as ``inter-tile-reduce-lowering``'s copy between cores, end a phase too). A
      tensor one phase makes and another uses is stored to a buffer of its shape in
      the scratchpad (``memref.alloc`` at the program's start) and loaded where it
      is used; a splat or a constant is made again instead. An ``iter_args`` loop
      keeps its accumulators in such buffers and is marked
      ``{loop_type = #ktdf.loop_type<reduction_loop>}``;
    - in each phase, the compute generalized to ``linalg.generic`` and fused
      producer into consumer (``passes/utils/fusion.py``): one generic for elementwise
      work, plus one per reduction and the fills seeding them;
    - the memory views typed with the device memory kind their KTIR memory space
      maps to (``memref<96x64xf16, "DDR">``), each access tile replaced by a strided
      view of it, ``memref.reinterpret_cast`` at the tile's offset (a scratchpad
      buffer is its own view);
    - for each set of stores that share loads or compute, one loop nest at the end
      of the phase: an ``scf.for`` per parallel dimension, ``{loop_type =
      #ktdf.loop_type<parallel_loop>}``, stepping by the tile size: from the
      innermost dimension outwards each takes ``gcd(extent, lanes still to
      cover)`` of the compute engine's SIMD lanes for the narrowest element type
      crossing a FIFO (a reduction dimension is never tiled, but counts towards the
      lanes); a parallel dimension whose tile would give some operand a tile of
      neither one element nor its generic's whole tile (a row vector broadcast over
      several rows narrower than the lanes, the sums of several rows) takes 1, and
      so do the parallel dimensions outside it;
    - in the innermost loop a ``ktdf.pipeline``: a ``ktdf.private`` with one FIFO
      slot of one tile per transfer (one ``ktdf.fifo.allocate`` per pair of ends,
      ``"<memory kind>" -> "<compute kind>"`` and back) and one token per stage;
      a load stage (``ktdf.data_transfer`` of each operand tile into its slot), a
      compute stage on the compute kind (``ktdf.read_from_fifo``, the generics on
      tiles, ``ktdf.write_to_fifo``) and a store stage (each result slot into its
      tile); with nothing to load, no load stage. A transfer indexes its view with
      the loop variables of its dimensions, 0 along a reduction dimension and the
      fixed position of a broadcast one (which it moves one element of).

    The device's compute engine must take and give data through ordered queues
    whose largest transfers are equal, and have SIMD lanes for every element type
    that crosses a FIFO.
    """

    name = "construct-three-stage-pipeline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        programs = [func for func in op.walk() if isinstance(func, FuncOp) and _stores_in(func)]
        if not programs:
            return
        target = _Target.of(device_of(op))
        for program in programs:
            _build(program, target)


def _stores_in(func: FuncOp) -> bool:
    return any(isinstance(op, ktdp.StoreOp) for op in func.walk())


def _build(program: FuncOp, target: _Target) -> None:
    """Split ``program`` into phases, then build the pipelines of each block, the
    innermost first (so that the program's own block, last, finds the access tiles of
    its buffers unused)."""
    entry = program.body.block
    _materialize(entry, _Buffers(entry, target.device.scratchpad))
    views = _Views(target)
    for block in reversed(_compute_blocks(entry)):
        _build_phases(block, target, views)


# ---------------------------------------------------------------------------------
# The device
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Target:
    """What the pipeline needs of the device."""

    device: Device
    compute: str
    """The compute engine kind: the compute stage's unit and the FIFOs' far end."""

    @staticmethod
    def of(device: Device) -> _Target:
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
        return _Target(device, compute)

    def lanes(self, element_type: Attribute, op: Operation) -> int:
        """The compute engine's SIMD lanes for ``element_type``, which ``op`` moves."""
        lanes = self.device.compute.lanes
        name = attr_text(element_type)
        if element_type not in lanes:
            raise KtcError(
                f"the compute engine {self.compute} of device @{self.device.name} has no "
                f"SIMD lanes for {name}, the element type of this '{op.name}'",
                where(op),
            )
        return lanes[element_type]

    def memory_kind(self, view: ktdp.ConstructMemoryViewOp) -> str:
        """The device memory kind the memory space of ``view`` maps to."""
        try:
            return self.device.memory_space(view.memory_space).kind
        except KtcError as err:
            raise KtcError(f"{err.message} for this memory view's space", where(view)) from None


def _largest_transfer(links: Sequence[Link]) -> int | None:
    """The largest transfer granularity of ``links``; None when none is given."""
    return max((size for link in links for size in link.granularity), default=None)


def _bytes(size: int | None) -> str:
    return "any size" if size is None else f"at most {size} bytes"


# ---------------------------------------------------------------------------------
# Phases: loops that hold compute, and tensors handed over between phases
# ---------------------------------------------------------------------------------


def _holds_compute(op: Operation) -> bool:
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


def _loops(block: Block) -> list[Operation]:
    """The ops of ``block`` that hold compute, each the end of a phase: ``scf.for``
    loops, ``scf.if`` without results, and pipelines already built."""
    loops = []
    for op in block.ops:
        if not _holds_compute(op):
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


def _bodies(op: Operation) -> list[Block]:
    """The blocks of a loop or branch holding compute (none for a built pipeline)."""
    if isinstance(op, ktdf.PipelineOp):
        return []
    return [block for region in op.regions for block in region.blocks]


def _compute_blocks(block: Block) -> list[Block]:
    """``block`` and the bodies of the loops and branches in it that hold compute,
    nested ones too."""
    return [block, *(inner for loop in _loops(block) for body in _bodies(loop)
                     for inner in _compute_blocks(body))]


class _PhaseEnds:
    """The op that closes the phase of each op of a block: the next loop holding
    compute, or the block's terminator. Found in one walk over the block; an op
    inserted since (a store, a load, a splat made again, none holding compute)
    takes the end of the op after it."""

    def __init__(self, block: Block) -> None:
        self.closing: dict[Operation, Operation] = {}
        current = block.last_op
        for op in reversed(block.ops):
            if _holds_compute(op):
                current = op
            self.closing[op] = current

    def of(self, op: Operation) -> Operation:
        following = op.next_op
        while following not in self.closing:
            following = following.next_op
        return self.closing[following]


@dataclass
class _Buffers:
    """Scratchpad buffers of a program, allocated at its start."""

    entry: Block
    memory: str
    """The scratchpad memory kind."""
    anchor: Operation = field(init=False)
    """The program's first op: buffers go before it, in the order they are made."""

    def __post_init__(self) -> None:
        self.anchor = self.entry.first_op

    def tile(self, value: SSAValue) -> SSAValue:
        """A new buffer holding a tensor like ``value``: the access tile of all of it."""
        shape = value.type.get_shape()
        alloc = memref.AllocOp(
            [],
            [],
            MemRefType(value.type.get_element_type(), shape, memory_space=StringAttr(self.memory)),
        )
        if value.name_hint:
            alloc.memref.name_hint = f"{value.name_hint}_buffer"
        tile = ktdp.ConstructAccessTileOp.build(
            operands=[alloc.memref, [], []],
            result_types=[ktdp.AccessTileType(shape)],
            properties={
                "base_map": AffineMapAttr(AffineMap(0, 0, (AffineExpr.constant(0),) * len(shape))),
                "access_tile_set": AffineSetAttr(box(shape)),
                "access_tile_order": AffineMapAttr(AffineMap.identity(len(shape))),
            },
        )
        Rewriter.insert_op([alloc, tile], InsertPoint.before(self.anchor))
        return tile.result


def _materialize(block: Block, buffers: _Buffers) -> None:
    """Give each loop of ``block`` its accumulators in buffers, hand tensors over
    between phases, then do the same in the loops' bodies."""
    for loop in _loops(block):
        if isinstance(loop, scf.ForOp) and loop.iter_args:
            _accumulate_in_buffers(loop, buffers)
    ends = _PhaseEnds(block)
    for op in reversed(list(block.ops)):
        for value in op.results:
            if isinstance(value.type, TensorType) or isinstance(op, tensor.ExtractOp):
                _hand_over(block, value, buffers, ends)
    for loop in _loops(block):
        for body in _bodies(loop):
            _materialize(body, buffers)


def _accumulate_in_buffers(loop: scf.ForOp, buffers: _Buffers) -> None:
    """Replace ``loop`` by one without ``iter_args``: each accumulator lives in a buffer,
    stored before the loop and at the end of each iteration, loaded at the start of
    each iteration and after the loop."""
    body = loop.body.block
    terminator = body.last_op
    for arg, init, result, update in zip(
        body.args[1:], loop.iter_args, loop.results, terminator.operands
    ):
        if not isinstance(arg.type, TensorType):
            raise KtcError(
                f"'scf.for' carries a {attr_text(arg.type)}; the pipeline hands over tensors only",
                where(loop),
            )
        tile = buffers.tile(arg)
        Rewriter.insert_op(_store(init, tile, loop), InsertPoint.before(loop))
        Rewriter.insert_op(_store(update, tile, terminator), InsertPoint.before(terminator))
        current = _load(tile, arg, loop)
        Rewriter.insert_op(current, InsertPoint.at_start(body))
        arg.replace_all_uses_with(current.result)
        after = _load(tile, result, loop)
        Rewriter.insert_op(after, InsertPoint.after(loop))
        result.replace_all_uses_with(after.result)
    for arg in body.args[1:]:
        body.erase_arg(arg)
    Rewriter.replace_op(terminator, scf.YieldOp())
    accumulating = ForOp(
        loop.lb, loop.ub, loop.step, [], Rewriter.move_region_contents_to_new_regions(loop.body)
    )
    accumulating.attributes |= loop.attributes
    accumulating.attributes["loop_type"] = ktdf.LoopTypeAttr(ktdf.LoopType.REDUCTION_LOOP)
    Rewriter.insert_op(accumulating, InsertPoint.before(loop))
    Rewriter.erase_op(loop)


def _hand_over(block: Block, value: SSAValue, buffers: _Buffers, ends: _PhaseEnds) -> None:
    """Make ``value`` (a result of an op of ``block``) available where other phases use
    it: made again there if it is a splat, a constant or an extracted element, or
    else stored to a buffer and loaded there."""
    producer = value.owner
    home = ends.of(producer)
    sites: dict[object, list[Operation]] = {}
    for use in value.uses:
        user = use.operation
        site = ends.of(user) if user.parent_block() is block else user.parent_block()
        if site is not home:
            sites.setdefault(site, []).append(user)
    if not sites:
        return
    if isinstance(producer, tensor.EmptyOp | tensor.SplatOp | tensor.ExtractOp | arith.ConstantOp):
        for users in sites.values():
            _replace_in(value, users, lambda first: producer.clone())
        return
    tile = buffers.tile(value)
    Rewriter.insert_op(_store(value, tile, producer), InsertPoint.after(producer))
    for users in sites.values():
        _replace_in(value, users, lambda first: _load(tile, value, first))


def _replace_in(
    value: SSAValue, users: list[Operation], make: Callable[[Operation], Operation]
) -> None:
    """Insert ``make(first)`` before the first of ``users`` (all in one block) and make
    them use its result instead of ``value``."""
    first = next(op for op in users[0].parent_block().ops if op in users)
    replacement = make(first)
    Rewriter.insert_op(replacement, InsertPoint.before(first))
    value.replace_uses_with_if(replacement.results[value.index], lambda use: use.operation in users)


def _store(value: SSAValue, tile: SSAValue, at: Operation) -> ktdp.StoreOp:
    """A store of ``value`` to ``tile``, located where ``at`` was written."""
    store = ktdp.StoreOp.build(operands=[value, tile])
    store.location = at.location
    return store


def _load(tile: SSAValue, value: SSAValue, at: Operation) -> ktdp.LoadOp:
    """A load of ``tile`` into a tensor like ``value``, located where ``at`` was written."""
    load = ktdp.LoadOp.build(operands=[tile], result_types=[value.type])
    load.location = at.location
    load.result.name_hint = value.name_hint
    return load


# ---------------------------------------------------------------------------------
# The pipelines of a block
# ---------------------------------------------------------------------------------


def _build_phases(block: Block, target: _Target, views: _Views) -> None:
    """Generalize and fuse the compute of ``block``, build one pipeline per set of
    stores sharing loads or compute at the end of each phase, and erase what the
    pipelines replace."""
    _copy_stored_loads(block)
    generalize(block)
    fuse(block)
    _require_supported(block)
    stores = [op for op in block.ops if isinstance(op, ktdp.StoreOp)]
    ends = _PhaseEnds(block)
    placed = [(chain, ends.of(chain.stores[-1])) for chain in _Chain.components(stores)]
    for chain, anchor in placed:
        crossing = [
            *((op, op.result) for op in chain.loads),
            *((op, op.data_tile) for op in chain.stores),
        ]
        lanes = min(target.lanes(value.type.get_element_type(), op) for op, value in crossing)
        _Pipeline(chain, _space(chain, lanes), views, target).build(anchor)
    _erase_replaced(block)


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
    """Every op left on tensors must be a generic, a load, a store or an empty tensor."""
    for op in block.ops:
        if isinstance(op, GenericOp | ktdp.LoadOp | ktdp.StoreOp | tensor.EmptyOp):
            continue
        if not any(isinstance(value.type, TensorType) for value in (*op.operands, *op.results)):
            continue
        if isinstance(op, tensor.ExtractOp):
            raise KtcError(
                "'tensor.extract' is supported at constant indices feeding 'tensor.splat' "
                "(a broadcast) only; the compute stage cannot hand a scalar out",
                where(op),
            )
        raise KtcError(
            f"'{op.name}' is not an elementwise, broadcast or reduction op; the compute "
            "stage cannot run it",
            where(op),
        )


def _erase_replaced(block: Block) -> None:
    """Erase the stores the pipelines replace, then every load, generic, empty tensor
    and access tile of ``block`` left unused."""
    for op in [op for op in block.ops if isinstance(op, ktdp.StoreOp)]:
        block.erase_op(op)
    replaced = (ktdp.LoadOp, GenericOp, tensor.EmptyOp, ktdp.ConstructAccessTileOp)
    for op in reversed(list(block.ops)):
        if isinstance(op, replaced) and not any(result.uses for result in op.results):
            block.erase_op(op)


# ---------------------------------------------------------------------------------
# The compute of a pipeline
# ---------------------------------------------------------------------------------


@dataclass
class _Chain:
    """Stores and what they need, generics and loads, in block order."""

    stores: list[ktdp.StoreOp]
    generics: list[GenericOp]
    loads: list[ktdp.LoadOp]

    @staticmethod
    def components(stores: Sequence[ktdp.StoreOp]) -> list[_Chain]:
        """The stores grouped by shared loads or compute, each group with what it needs,
        in the order of their first load or store."""
        groups: list[tuple[list[ktdp.StoreOp], set[Operation]]] = []
        for store in stores:
            grouped, needed = [store], _needed(store)
            for other in [group for group in groups if group[1] & needed]:
                groups.remove(other)
                grouped, needed = [*other[0], *grouped], needed | other[1]
            groups.append((grouped, needed))
        chains = [_Chain.of(grouped, needed) for grouped, needed in groups]
        order = (
            {op: index for index, op in enumerate(stores[0].parent_block().ops)} if stores else {}
        )
        return sorted(
            chains, key=lambda chain: min(order[op] for op in (*chain.loads, *chain.stores))
        )

    @staticmethod
    def of(stores: list[ktdp.StoreOp], needed: set[Operation]) -> _Chain:
        block = stores[0].parent_block()
        generics = [op for op in block.ops if isinstance(op, GenericOp) and op in needed]
        loads = [op for op in block.ops if isinstance(op, ktdp.LoadOp) and op in needed]
        for generic in generics:
            _check_operands(generic)
        return _Chain([op for op in block.ops if op in stores], generics, loads)


def _needed(store: ktdp.StoreOp) -> set[Operation]:
    """The generics and loads the value ``store`` writes is computed from."""
    if not isinstance(store.data_tile.owner, GenericOp):
        raise KtcError(
            f"the value stored here comes from {_producer(store.data_tile)}, which "
            "computes nothing the pipeline can run",
            where(store),
        )
    needed: set[Operation] = set()
    pending = [store.data_tile]
    while pending:
        producer = pending.pop().owner
        if producer in needed or not isinstance(producer, GenericOp | ktdp.LoadOp):
            continue
        needed.add(producer)
        if isinstance(producer, GenericOp):
            pending += _read_operands(producer)
    return needed


def _producer(value: SSAValue) -> str:
    owner = value.owner
    return f"'{owner.name}'" if isinstance(owner, Operation) else "a block argument"


def _read_operands(generic: GenericOp) -> list[SSAValue]:
    """The inputs of ``generic`` and the outputs its body reads."""
    read = [out for out, used in zip(generic.outputs, reads_output(generic)) if used]
    return [*generic.inputs, *read]


def _indexed(generic: GenericOp) -> list[tuple[SSAValue, AffineMap]]:
    """The tensors ``generic`` reads and writes, each with the map it indexes them by."""
    maps = [attr.data for attr in generic.indexing_maps.data]
    inputs = len(generic.inputs)
    read = [m for m, used in zip(maps[inputs:], reads_output(generic)) if used]
    return list(
        zip([*_read_operands(generic), *generic.res], [*maps[:inputs], *read, *maps[inputs:]])
    )


def _check_operands(generic: GenericOp) -> None:
    for value in (*_read_operands(generic), *generic.res):
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
                f"'linalg.generic' reads a value of {_producer(value)}; the compute "
                "stage reads only loaded tiles and what it computes itself",
                where(generic),
            )


@dataclass(eq=False)
class _Dim:
    """One dimension of the iteration space that the generics of a chain share: the
    loops of the generics and the tensor dimensions they index through it."""

    extent: int
    reduction: bool
    looped: bool
    """Whether a loop of some generic runs over it (otherwise only constant
    positions of a loaded tensor are read along it)."""

    tile: int = 1
    induction_variable: SSAValue | None = None
    """The variable of the ``scf.for`` over its tiles (parallel dimensions)."""


@dataclass
class _Space:
    """The iteration space of a chain, tiled."""

    dims: list[_Dim]
    """The dimensions some generic loops over, outermost first."""
    of_value: dict[tuple[SSAValue, int], _Dim]
    fixed: dict[tuple[SSAValue, int], int] = field(default_factory=dict)
    """The constant position read along a loaded tensor's dimension without loops."""

    def tile_shape(self, value: SSAValue) -> list[int]:
        return [self.of_value[(value, j)].tile for j in range(value.type.get_num_dims())]

    def tile_type(self, value: SSAValue) -> TensorType:
        return TensorType(value.type.get_element_type(), self.tile_shape(value))

    def start(self, value: SSAValue, j: int, loops: Sequence[_Dim]) -> AffineExpr:
        """Where the tile of ``value`` starts along its dimension ``j``, over the
        variables of ``loops``."""
        dim = self.of_value[(value, j)]
        if not dim.looped:
            return AffineExpr.constant(self.fixed[(value, j)])
        if dim.induction_variable is None:
            return AffineExpr.constant(0)
        return AffineExpr.dimension(loops.index(dim))

    def tile_map(self, value: SSAValue, access: AffineMap) -> AffineMapAttr:
        """``access`` as a generic on tiles reads ``value``: a fixed position of a
        dimension without loops is the tile's only element."""
        results = tuple(
            AffineExpr.constant(0) if not self.of_value[(value, j)].looped else expr
            for j, expr in enumerate(access.results)
        )
        return AffineMapAttr(AffineMap(access.num_dims, 0, results))


class _Classes:
    """Union-find over loop dimensions ``(generic, k)`` and tensor dimensions
    ``(value, j)``."""

    def __init__(self) -> None:
        self.parent: dict[tuple[object, int], tuple[object, int]] = {}

    def find(self, node: tuple[object, int]) -> tuple[object, int]:
        self.parent.setdefault(node, node)
        while self.parent[node] != node:
            self.parent[node] = self.parent[self.parent[node]]
            node = self.parent[node]
        return node

    def union(self, a: tuple[object, int], b: tuple[object, int]) -> None:
        self.parent[self.find(a)] = self.find(b)

    def members(self) -> dict[tuple[object, int], list[tuple[object, int]]]:
        groups: dict[tuple[object, int], list[tuple[object, int]]] = {}
        for node in list(self.parent):
            groups.setdefault(self.find(node), []).append(node)
        return groups


def _space(chain: _Chain, lanes: int) -> _Space:
    """Join the loops of the chain's generics through the tensor dimensions they index,
    and tile the result."""
    classes = _Classes()
    constants: list[tuple[SSAValue, int, int, GenericOp]] = []
    for generic in chain.generics:
        for value, access in _indexed(generic):
            for j, expr in enumerate(access.results):
                classes.find((value, j))
                if isinstance(expr, AffineDimExpr):
                    classes.union((generic, expr.position), (value, j))
                elif isinstance(expr, AffineConstantExpr):
                    constants.append((value, j, expr.value, generic))
                else:
                    raise KtcError(
                        f"'linalg.generic' indexes an operand with '{expr}'; the pipeline "
                        "tiles maps whose results are loop dimensions or constants",
                        where(generic),
                    )
    dims = {root: _dim(nodes) for root, nodes in classes.members().items()}
    of_value = {
        node: dims[classes.find(node)] for node in classes.parent if isinstance(node[0], SSAValue)
    }
    ordered = _ordered_dims(chain, classes, dims)
    operands = _operand_dims(chain, classes, dims, ordered)
    tiles = tile_sizes(
        [dim.extent for dim in ordered], [dim.reduction for dim in ordered], lanes, operands
    )
    for dim, tile in zip(ordered, tiles):
        dim.tile = tile
    space = _Space(ordered, of_value)
    for value, j, position, generic in constants:
        _fix(space, value, j, position, generic)
    return space


def _dim(nodes: list[tuple[object, int]]) -> _Dim:
    loops = [(op, k) for op, k in nodes if isinstance(op, GenericOp)]
    extents = {value.type.get_shape()[j] for value, j in nodes if isinstance(value, SSAValue)}
    if len(extents) != 1:
        raise KtcError(
            f"'linalg.generic' joins tensor dimensions of sizes {sorted(extents)} in one "
            "loop; the pipeline needs one size per loop",
            where(loops[0][0]),
        )
    generics = [op for op, _ in loops]
    for generic in generics:
        if generics.count(generic) > 1:
            raise KtcError(
                "'linalg.generic' reaches one tensor dimension through two of its loops; "
                "the pipeline cannot tile such a chain",
                where(generic),
            )
    reduction = any(op.iterator_types.data[k].data == IteratorType.REDUCTION for op, k in loops)
    return _Dim(extents.pop(), reduction, bool(loops))


def _ordered_dims(
    chain: _Chain, classes: _Classes, dims: dict[tuple[object, int], _Dim]
) -> list[_Dim]:
    """The dimensions some generic loops over, in the loop order of the generics
    writing the stored values, then of the other generics."""
    stored = [store.data_tile.owner for store in chain.stores]
    ordered: list[_Dim] = []
    for generic in (*stored, *chain.generics):
        for k in range(len(generic.iterator_types.data)):
            dim = dims[classes.find((generic, k))]
            if dim not in ordered:
                ordered.append(dim)
    return ordered


_Operand = tuple[frozenset[int], frozenset[int]]
"""The dimensions a tensor is indexed along, and those its generic loops over."""


def _operand_dims(
    chain: _Chain, classes: _Classes, dims: dict[tuple[object, int], _Dim], ordered: list[_Dim]
) -> list[_Operand]:
    """For every tensor a generic of the chain reads or writes: the positions in
    ``ordered`` of the dimensions it is indexed along, and of those its generic loops
    over."""
    operands = []
    for generic in chain.generics:
        loops = [ordered.index(dims[classes.find((generic, k))])
                 for k in range(len(generic.iterator_types.data))]
        for _, access in _indexed(generic):
            indexed = [loops[e.position] for e in access.results if isinstance(e, AffineDimExpr)]
            operands.append((frozenset(indexed), frozenset(loops)))
    return operands


def tile_sizes(
    extents: Sequence[int],
    reduction: Sequence[bool],
    lanes: int,
    operands: Sequence[_Operand],
) -> list[int]:
    """Tile sizes for a loop nest (IBM's ``computeTileSizesFromShape``): from the
    innermost dimension outwards, each takes ``gcd(extent, lanes still to cover)``
    until the lanes are covered, the rest 1; a reduction dimension keeps its whole
    extent but counts what it covers.

    ``operands`` gives, for every tensor a generic indexes, the dimensions it is
    indexed along and those its generic loops over. The compute stage widens an
    operand's tile only from one element to its generic's whole tile, and folds a
    reduction into one element: a parallel dimension whose tile would give some
    operand a tile of neither size (a row vector broadcast over several rows, the
    sums of several rows) takes 1, and so do the parallel dimensions outside it."""
    tiles = [1] * len(extents)
    remaining = lanes
    for i in reversed(range(len(extents))):
        covered = math.gcd(extents[i], remaining)
        tiles[i] = extents[i] if reduction[i] else covered
        if not reduction[i] and not _widenable(tiles, operands):
            tiles[i] = covered = remaining = 1
        remaining //= covered
    return tiles


def _widenable(tiles: Sequence[int], operands: Sequence[_Operand]) -> bool:
    """Whether every operand's tile is one element or its generic's whole tile."""
    return all(
        math.prod(tiles[d] for d in indexed) in (1, math.prod(tiles[d] for d in loops))
        for indexed, loops in operands
    )


def _fix(space: _Space, value: SSAValue, j: int, position: int, generic: GenericOp) -> None:
    """Record that ``generic`` reads ``value`` at ``position`` along dimension ``j``."""
    dim = space.of_value[(value, j)]
    if dim.looped and dim.tile != dim.extent:
        raise KtcError(
            f"'linalg.generic' reads position {position} along a dimension tiled by "
            f"{dim.tile}; a tile does not hold that position",
            where(generic),
        )
    if dim.looped:
        return
    if space.fixed.setdefault((value, j), position) != position:
        raise KtcError(
            f"'linalg.generic' reads position {position} of a loaded tensor that another "
            f"generic reads at position {space.fixed[(value, j)]}; one transfer cannot "
            "serve both",
            where(generic),
        )


# ---------------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------------


@dataclass
class _Views:
    """The memory views of a program, retyped with their memory kind, and the strided
    view of each access tile a transfer uses."""

    target: _Target
    strided: dict[ktdp.ConstructAccessTileOp, SSAValue] = field(default_factory=dict)

    def of(self, op: ktdp.LoadOp | ktdp.StoreOp) -> tuple[SSAValue, str]:
        """The strided view of the tile ``op`` accesses, and its memory kind."""
        tile = op.access_tile.owner
        if not isinstance(tile, ktdp.ConstructAccessTileOp):
            raise KtcError(
                f"the tile comes from {_producer(op.access_tile)}; the pipeline takes "
                "tiles of 'ktdp.construct_access_tile'",
                where(op),
            )
        memory = self._kind(tile)
        if tile not in self.strided:
            self.strided[tile] = self._strided(tile, memory)
        return self.strided[tile], memory

    def _kind(self, tile: ktdp.ConstructAccessTileOp) -> str:
        """The memory kind of what ``tile`` indexes: a scratchpad buffer or a memory
        view already typed with its kind, or a memory view, retyped to it."""
        base = tile.base
        if isinstance(base.type, MemRefType) and isinstance(base.type.memory_space, StringAttr):
            return base.type.memory_space.data
        view = base.owner
        if not isinstance(view, ktdp.ConstructMemoryViewOp):
            raise KtcError(
                f"the access tile indexes a value of {_producer(base)}; the pipeline needs "
                "a 'ktdp.construct_memory_view' to know its memory",
                where(tile),
            )
        memory = self.target.memory_kind(view)
        old = base.type
        Rewriter.replace_value_with_new_type(
            base,
            MemRefType(old.get_element_type(), old.get_shape(), old.layout, StringAttr(memory)),
        )
        return memory

    @staticmethod
    def _strided(tile: ktdp.ConstructAccessTileOp, memory: str) -> SSAValue:
        """``memref.reinterpret_cast`` of the view (or of a scratchpad buffer, row-major)
        to the access tile, at its offset; a whole scratchpad buffer is its own view."""
        view = tile.base.owner
        shape = tile.result.type.get_shape()
        if isinstance(view, memref.AllocOp):
            if tuple(shape) == tuple(tile.base.type.get_shape()):
                return tile.base
            strides = _row_major_strides(tile.base.type.get_shape())
            return _reinterpret(tile, tile.base, strides, memory)
        order = tile.access_tile_order.data
        if order != AffineMap.identity(order.num_dims):
            raise KtcError(
                f"access tile order {order} is not the identity; the pipeline reads tiles "
                "in the order they lie in memory",
                where(tile),
            )
        if view.strides:
            raise KtcError(
                "the memory view has dynamic strides; the pipeline needs them constant",
                where(view),
            )
        return _reinterpret(tile, view.result, view.static_strides.get_values(), memory)


def _row_major_strides(shape: Sequence[int]) -> list[int]:
    return [math.prod(shape[j + 1 :]) for j in range(len(shape))]


def _reinterpret(
    tile: ktdp.ConstructAccessTileOp, base: SSAValue, strides: Sequence[int], memory: str
) -> SSAValue:
    """``memref.reinterpret_cast`` of ``base`` (with ``strides``) to ``tile`` at its
    offset, inserted before ``tile``."""
    base_map = tile.base_map.data
    start = sum(
        (stride * expr for stride, expr in zip(strides, base_map.results)), AffineExpr.constant(0)
    )
    offset = ApplyOp(
        list(tile.indices),
        AffineMapAttr(AffineMap(base_map.num_dims, base_map.num_symbols, (start,))),
    )
    shape = tile.result.type.get_shape()
    strided_type = MemRefType(
        base.type.get_element_type(), shape, StridedLayoutAttr(strides, None), StringAttr(memory)
    )
    cast = memref.ReinterpretCastOp.from_dynamic(base, [offset.result], shape, strides, strided_type)
    if tile.result.name_hint:
        offset.result.name_hint = f"{tile.result.name_hint}_offset"
        cast.result.name_hint = tile.result.name_hint
    Rewriter.insert_op([offset, cast], InsertPoint.before(tile))
    return cast.result


# ---------------------------------------------------------------------------------
# Building a pipeline
# ---------------------------------------------------------------------------------


@dataclass(eq=False)
class _Transfer:
    """One tile crossing a FIFO: an operand loaded into the compute stage or a result
    stored from it."""

    value: SSAValue
    """The loaded tensor or the stored one."""
    view: SSAValue
    """The strided view it is read from or written to."""
    slot: ktdf.FifoSlotType
    sizes: list[int]
    location: Attribute
    """Where the load or store it comes from was written."""

    def located(self, op: Operation) -> Operation:
        op.location = self.location
        return op


_Slots = dict[_Transfer, SSAValue]
"""The FIFO slot of each transfer."""


@dataclass
class _Pipeline:
    """The loop nest and the pipeline of one chain."""

    chain: _Chain
    space: _Space
    views: _Views
    target: _Target

    def build(self, anchor: Operation) -> None:
        """Insert the loop nest and its pipeline before ``anchor``."""
        loads = [self._transfer(op, op.result, True) for op in self.chain.loads]
        stores = [self._transfer(op, op.data_tile, False) for op in self.chain.stores]
        inside = self._loop_nest(anchor)
        loops = [dim for dim in self.space.dims if dim.induction_variable is not None]
        Rewriter.insert_op(self._pipeline(loads, stores, loops), InsertPoint.before(inside))

    def _transfer(self, op: ktdp.LoadOp | ktdp.StoreOp, value: SSAValue, load: bool) -> _Transfer:
        view, memory = self.views.of(op)
        sizes = self.space.tile_shape(value)
        ends = (memory, self.target.compute) if load else (self.target.compute, memory)
        slot = ktdf.FifoSlotType(
            StringAttr(ends[0]),
            StringAttr(ends[1]),
            math.prod(sizes),
            value.type.get_element_type(),
        )
        return _Transfer(value, view, slot, sizes, op.location)

    def _loop_nest(self, anchor: Operation) -> Operation:
        """One ``scf.for`` per parallel dimension before ``anchor``, their bounds defined
        ahead of the outermost; the op the pipeline goes before (the innermost loop's
        terminator, or ``anchor`` when there is no loop)."""
        parallel = [dim for dim in self.space.dims if not dim.reduction]
        if not parallel:
            return anchor
        values = sorted({0, *(dim.extent for dim in parallel), *(dim.tile for dim in parallel)})
        constants = {
            value: arith.ConstantOp.from_int_and_width(value, IndexType()) for value in values
        }
        for value, constant in constants.items():
            constant.result.name_hint = f"c{value}"
        Rewriter.insert_op(list(constants.values()), InsertPoint.before(anchor))
        for dim in parallel:
            terminator = scf.YieldOp()
            body = Block([terminator], arg_types=[IndexType()])
            loop = ForOp(constants[0], constants[dim.extent], constants[dim.tile], [], body)
            loop.attributes["loop_type"] = ktdf.LoopTypeAttr(ktdf.LoopType.PARALLEL_LOOP)
            Rewriter.insert_op(loop, InsertPoint.before(anchor))
            dim.induction_variable = body.args[0]
            anchor = terminator
        return anchor

    def _pipeline(
        self, loads: list[_Transfer], stores: list[_Transfer], loops: list[_Dim]
    ) -> ktdf.PipelineOp:
        """The stages in order, each releasing the token the next one waits for."""
        bodies = [
            (self._compute_stage, [StringAttr(self.target.compute)]),
            (self._store_stage, None),
        ]
        if loads:
            bodies.insert(0, (self._load_stage, None))
        private, slot_of, tokens = self._private([*loads, *stores], len(bodies))
        stages = []
        for index, (body, units) in enumerate(bodies):
            waits = [tokens[index - 1]] if index else []
            ops = body(loads, stores, loops, slot_of)
            stages.append(ktdf.StageOp(waits, [tokens[index]], ops, units))
        return ktdf.PipelineOp([private, *stages])

    @staticmethod
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

    def _access(self, transfer: _Transfer, loops: list[_Dim]) -> tuple[AffineMap, list[SSAValue]]:
        """The transfer's start in its strided view, over the loop variables it uses."""
        rank = transfer.value.type.get_num_dims()
        full = AffineMap(
            len(loops), 0, tuple(self.space.start(transfer.value, j, loops) for j in range(rank))
        )
        unused = [k not in full.used_dims() for k in range(len(loops))]
        variables = [dim.induction_variable for dim, drop in zip(loops, unused) if not drop]
        return full.drop_dims(unused), variables

    def _load_stage(
        self, loads: list[_Transfer], stores: list[_Transfer], loops: list[_Dim], slot_of: _Slots
    ) -> list[Operation]:
        """Each operand tile into its slot."""
        return [
            load.located(
                ktdf.DataTransferOp(
                    load.view,
                    load.sizes,
                    slot_of[load],
                    load.sizes,
                    source_access=self._access(load, loops),
                )
            )
            for load in loads
        ]

    def _store_stage(
        self, loads: list[_Transfer], stores: list[_Transfer], loops: list[_Dim], slot_of: _Slots
    ) -> list[Operation]:
        """Each result slot into its tile."""
        return [
            store.located(
                ktdf.DataTransferOp(
                    slot_of[store],
                    store.sizes,
                    store.view,
                    store.sizes,
                    dest_access=self._access(store, loops),
                )
            )
            for store in stores
        ]

    def _compute_stage(
        self, loads: list[_Transfer], stores: list[_Transfer], loops: list[_Dim], slot_of: _Slots
    ) -> list[Operation]:
        """The operand tiles read from their slots, the chain's generics on tiles, the
        results written to their slots."""
        ops: list[Operation] = []
        tiles: dict[SSAValue, SSAValue] = {}
        for load in loads:
            read = load.located(
                ktdf.ReadFromFifoOp(slot_of[load], self.space.tile_type(load.value))
            )
            read.result.name_hint = load.value.name_hint
            tiles[load.value] = read.result
            ops.append(read)
        for generic in self.chain.generics:
            ops += self._tiled(generic, tiles)
        ops += [
            store.located(ktdf.WriteToFifoOp(tiles[store.value], slot_of[store]))
            for store in stores
        ]
        return ops

    def _tiled(self, generic: GenericOp, tiles: dict[SSAValue, SSAValue]) -> list[Operation]:
        """``generic`` on tiles: its inputs' tiles, an accumulator it reads taken as
        computed, a fresh ``tensor.empty`` for an output it only writes."""
        ops: list[Operation] = []
        outputs = []
        for output, result, read in zip(generic.outputs, generic.res, reads_output(generic)):
            if read and output in tiles:
                outputs.append(tiles[output])
                continue
            empty = tensor.EmptyOp([], self.space.tile_type(result))
            ops.append(empty)
            outputs.append(empty.tensor)
        operands = [*generic.inputs, *generic.res]
        maps = [
            self.space.tile_map(value, attr.data)
            for value, attr in zip(operands, generic.indexing_maps.data)
        ]
        tiled = GenericOp(
            [tiles[value] for value in generic.inputs],
            outputs,
            generic.body.clone(),
            maps,
            generic.iterator_types,
            [self.space.tile_type(r) for r in generic.res],
        )
        for old, new in zip(generic.res, tiled.res):
            new.name_hint = old.name_hint
            tiles[old] = new
        for op in (*ops, tiled):
            op.location = generic.location
        return [*ops, tiled]
