"""The ``ktir-legality-check`` pass: is this KTIR something the pipeline compiles?"""

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    TensorType,
    f32,
    i1,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from ktc.arch.model import Device, device_of
from ktc.arch.patterns import ArchPattern, lowering_patterns
from ktc.dialects.diagnostics import KtcError, where
from ktc.dialects.element_types import check_op as check_element_types
from ktc.dialects.ktdf_arch import DeviceOp, attr_text, instruction_of
from ktc.dialects.ktdp import (
    AccessTileType,
    ConstructAccessTileOp,
    ConstructDistributedMemoryViewOp,
    ConstructIndirectAccessTileOp,
    ConstructMemoryViewOp,
    MemorySpaceAttr,
    MemorySpaceKind,
    InterTileConsumeOp,
    InterTileProduceOp,
    InterTileReduceOp,
    LoadOp,
    RuntimeArgType,
    StoreOp,
    SpyreMemorySpaceAttr,
    grid_of,
)
from ktc.dialects.printer import affine_map_text, affine_set_text
from ktc.dialects.spyreop import DF16Type
from ktc.passes.analysis.contractions import contraction
from ktc.passes.analysis.distributed import access_kind, accesses, partitions
from ktc.passes.analysis.indirect import describe
from ktc.passes.analysis.inter_tile import consumer_of, function_of, resolve, resolve_consume
from ktc.passes.analysis.positions import (
    position_error,
    position_ops,
    runtime_instructions,
    runtime_ops,
    scalar_ops,
)
from ktc.passes.analysis.ranges import Ranges
from ktc.passes.analysis.reductions import arg_combiner_of, arg_extremum_of, extremum_of
from ktc.passes.analysis.remote import remote_access
from ktc.passes.utils.affine import box_bounds, box_range
from ktc.passes.utils.compares import instructions_of
from ktc.passes.utils.phases import holds_compute
from ktc.passes.utils.values import evaluate

ELEMENTWISE = frozenset({
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.negf",
    "arith.maximumf", "arith.maxnumf", "arith.minimumf", "arith.minnumf",
    "math.exp", "math.sqrt", "math.rsqrt", "math.tanh", "math.absf", "math.fma",
})
"""Float ops the compute engine has an instruction for (the ``dfir.compute`` kinds)."""

SELECTION = frozenset({"arith.cmpf", "arith.select"})
"""Ops computed by the compute engine's compare and select instructions, where the
device has them (``passes/utils/compares.py``): on tensors and in a
``linalg.generic``'s body, the compare's mask read by selects of the same computation."""

CONVERSIONS = frozenset({"arith.extf", "arith.truncf"})
"""Conversions between float types the compute engine makes on tensors and in a
``linalg.generic``'s body (a float scalar is not converted on it)."""

LINALG_ELEMENTWISE = frozenset({
    "linalg.add", "linalg.sub", "linalg.mul", "linalg.max", "linalg.min", "linalg.exp",
    "linalg.sqrt", "linalg.copy",
})
"""Named linalg ops that generalize to an elementwise ``linalg.generic`` of ``ELEMENTWISE`` ops."""

COMBINERS = frozenset({
    "arith.addf", "arith.mulf", "arith.maximumf", "arith.maxnumf", "arith.minimumf",
    "arith.minnumf",
})
"""What a ``linalg.reduce`` may combine with."""

ACCEPTED = frozenset({
    "func.return", "scf.for", "scf.if", "scf.yield", "ktdp.get_compute_tile_id", "ktdp.load",
    "ktdp.store", "tensor.empty", "tensor.splat", "tensor.extract", "linalg.broadcast",
    "linalg.fill", "ktdp.inter_tile_reduce", "ktdp.yield_partial", "ktdp.yield_reduced",
    "ktdp.runtime_arg_extract", "ktdp.inter_tile_consume", "tensor.expand_shape",
    "tensor.collapse_shape", "tensor.reshape", "tensor.cast", "tensor.extract_slice",
    "tensor.insert_slice",
})
"""Ops accepted as they are (their result types are still checked)."""

CONTRACTIONS = frozenset({"linalg.matmul", "linalg.batch_matmul"})
"""Named contractions (``normalize-contractions`` writes them as generics)."""

NESTING = frozenset({
    "builtin.module", "func.func", "scf.for", "scf.if", "ktdp.inter_tile_produce",
    "ktdp.inter_tile_reduce",
})
"""Ops whose regions hold more KTIR to check."""

NOT_YET: dict[str, str] = {
    "linalg.quantized_matmul": "the pipeline schedules contractions of floating-point operands",
    **dict.fromkeys(
        ("tensor.insert", "tensor.pad", "tensor.concat"),
        "the pipeline does not assemble tensors but by tensor.insert_slice of stored "
        "tensors; address the pieces with ktdp.construct_access_tile",
    ),
    **dict.fromkeys(
        ("scf.while", "scf.parallel", "scf.execute_region", "scf.index_switch"),
        "the pipeline schedules scf.for and scf.if control flow (and scf.parallel, "
        "which lower-parallel-loops makes scf.for before this check)",
    ),
    "func.call": "a kernel is one function; inline the callee",
    "memref.subview": "a part of a memory view is addressed by its access tiles: start "
                      "the tile at the part's offset (%view[%i + 32, %j]), or construct a "
                      "memory view at the part's start",
}
"""Ops rejected for now, with what the pipeline does instead."""


@dataclass(frozen=True)
class KtirLegalityCheck(ModulePass):
    """Accepts the KTIR that the scheduling pipeline compiles today and rejects the
    rest, at the first offending op, with a diagnostic naming it and the reason.

    Expects KTIR kernels (``func.func`` with an optional ``grid``; none means
    ``[1]``; no results: a kernel writes through its views) in a module that
    declares its device (``ktc-opt --arch``). Accepted:
    kernel arguments that are pointers, scalars or runtime arguments of a scalar
    type (read by ``ktdp.runtime_arg_extract``);
    loads and stores through ``ktdp.construct_memory_view`` (``global``, or the
    tile's own ``ct_local`` at a constant address in a grid of one wave; constant
    strides) and ``ktdp.construct_access_tile`` (an order that permutes the
    dimensions); distributed views as ``split-distributed-views`` rewrites them
    (``ktc.passes.analysis.distributed``);
    elementwise ``arith``/``math`` ops the compute engine has an instruction for,
    on tensors or scalars, conversions between float types on tensors, and any
    integer/index arithmetic on scalars; ``arith.cmpf`` (any predicate) and
    ``arith.select`` on tensors and in ``linalg.generic`` bodies where the device's
    compute engine lists the instructions they take (``passes/utils/compares.py``: a
    select is the engine's select instruction, or a blend by min and max without it),
    each ``i1`` mask made by a compare (or a generic) and read only as the condition
    of selects or an input of generics in the same phase (never stored, carried by a
    loop or handed to another phase), each select's condition such a mask; named
    elementwise ``linalg`` ops, ``linalg.generic`` (parallel and reduction
    iterators, projected-permutation maps), ``linalg.reduce`` (add, mul, max, min,
    one result), a reduction body keeping the larger or smaller of a term and the
    accumulator by ``arith.cmpf`` + ``arith.select`` (``extremum_of``),
    ``linalg.broadcast``, ``linalg.fill``; ``tensor.empty``/``splat``/``extract``
    and splat tensor constants; ``tensor.expand_shape``/``collapse_shape``/
    ``reshape`` (its shape a constant)/``cast``, ``tensor.extract_slice`` and
    ``tensor.insert_slice``, which ``fold-reshapes-and-slices`` folds into access
    tiles (and refuses, located, where it cannot); ``scf.for`` (with ``iter_args``) and ``scf.if``;
    ``spyreop`` intrinsics only where the device lowers them: a pattern of its arch
    file already mapped them onto an instruction of its compute engine
    (``ktdf_arch.instruction``, at ``pre_mapping``), or one at ``pre_mapping`` or
    ``pre_scheduling`` matches them and decomposes them or maps them onto an
    instruction (``ktc.arch.patterns``). Every tensor must have a static shape and
    an element type the device's compute engine has lanes for, and the grid must
    fit the device (``Device.place_grid``; tiles that communicate in one wave); every
    value's element type must be one ktc supports (``ktc.dialects.element_types``).
    ``ktdp.inter_tile_produce`` + ``ktdp.inter_tile_reduce`` only as
    ``inter-tile-reduce-lowering`` lowers them: a reduce whose consumers are
    producers of their group, at the kernel's top level or in ``scf.for`` loops
    (``ktc.passes.analysis.inter_tile``'s ``function_of`` and ``resolve`` name what
    else is refused).

    Produces the module unchanged.
    """

    name = "ktir-legality-check"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op)
        _Rules(device, tuple(lowering_patterns(device, ctx)), Ranges(op)).check(op)


@dataclass(frozen=True)
class _Rules:
    device: Device
    lowering: tuple[ArchPattern, ...]
    """The device's patterns that lower an intrinsic before scheduling."""
    ranges: Ranges
    """The values the module's index expressions take (for distributed views)."""

    def check(self, op: Operation) -> None:
        """Check ``op`` and, where it nests KTIR, what it holds (pre-order)."""
        if isinstance(op, DeviceOp):
            return
        if op.name in NOT_YET:
            raise _error(op, f"is not supported yet: {NOT_YET[op.name]}")
        if _reshape_shape(op):
            return
        check_element_types(op)
        self._kind(op)
        self._result_types(op)
        if op.name not in NESTING or _arg_combiner(op):
            return
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    self.check(inner)

    def _kind(self, op: Operation) -> None:
        """Reject ``op`` unless its kind is one the pipeline compiles as used here."""
        if isinstance(op, FuncOp):
            self._kernel(op)
        elif isinstance(op, ConstructMemoryViewOp):
            _memory_view(op, self.device.cores)
        elif isinstance(op, ConstructDistributedMemoryViewOp):
            self._distributed_view(op)
        elif isinstance(op, ConstructAccessTileOp):
            _access_tile(op)
        elif isinstance(op, ConstructIndirectAccessTileOp):
            describe(op)
        elif op.name == "linalg.generic":
            self._generic(op)
        elif op.name == "linalg.reduce" and len(op.results) == 2:
            self._arg_extremum(op, len(op.operands) - 2)
        elif op.name == "linalg.reduce":
            _reduce(op)
        elif isinstance(op, InterTileProduceOp):
            _inter_tile(op)
        elif op.name in LINALG_ELEMENTWISE | CONTRACTIONS | {"linalg.broadcast", "linalg.fill"}:
            _on_tensors(op)
        elif op.name == "linalg.transpose":
            _transpose(op)
        elif op.name.startswith(("arith.", "math.", "spyreop.")):
            self._arith_math(op)
        elif op.name not in ACCEPTED | NESTING:
            raise _error(
                op,
                "is not supported: the pipeline compiles ktdp views, access tiles, loads "
                "and stores, elementwise arith/math, linalg generic/reduce/broadcast/fill, "
                "named elementwise ops and contractions (matmul, batch_matmul, a transpose "
                "of their inputs), tensor.empty/splat/extract, scf.for and scf.if",
            )

    def _kernel(self, func: FuncOp) -> None:
        if not func.body.blocks:
            return
        if func.function_type.outputs.data:
            results = ", ".join(attr_text(kind) for kind in func.function_type.outputs.data)
            raise _error(
                func,
                f"returns {results}; a kernel returns nothing: it writes its results "
                "through memory views with ktdp.store",
            )
        for index, arg in enumerate(func.body.block.args):
            kind = arg.type.value_type if isinstance(arg.type, RuntimeArgType) else arg.type
            if not isinstance(kind, IndexType | IntegerType | AnyFloat | DF16Type):
                raise _error(
                    func,
                    f"argument #{index} has type {attr_text(arg.type)}; kernel arguments "
                    "are pointers (index) and integer or float scalars",
                )
        self._fixed_addresses(func)
        grid = grid_of(func)
        communicates = any(inner.name.startswith("ktdp.inter_tile_") for inner in func.walk())
        if any(_in_scratchpad(inner) for inner in func.walk()) and prod(grid) > self.device.cores:
            raise _error(
                func,
                f"cannot run on device @{self.device.name}: grid {list(grid)} has {prod(grid)} "
                "tiles that keep data in their own scratchpad (ct_local views), but the device "
                f"has {self.device.cores} cores to run them at once; in several waves tiles "
                "would share a core's scratchpad",
            )
        try:
            self.device.place_grid(grid, single_wave=communicates)
        except KtcError as err:
            message = f"cannot run on device @{self.device.name}: {err.message}"
            raise _error(func, message) from None

    def _fixed_addresses(self, func: FuncOp) -> None:
        """Views at constant addresses of device memory must lie in it, and a kernel
        with such views takes no pointer argument: the runtime lays the pointers'
        arrays from address 0, over what the kernel reaches at fixed addresses."""
        views = [op for op in func.walk() if isinstance(op, ConstructMemoryViewOp) and _global(op)]
        fixed = [v for v in views if isinstance(v.offset.owner, arith.ConstantOp)]
        if not fixed:
            return
        arguments = func.body.block.args
        pointer = next((v.offset for v in views if v.offset in arguments
                        and isinstance(v.offset.type, IndexType)), None)
        if pointer is not None:
            raise _error(
                fixed[0],
                f"is at the fixed element address {fixed[0].offset.owner.value.value.data} of "
                f"device memory while the kernel takes the pointer argument %"
                f"{pointer.name_hint or pointer.index}, whose array the runtime lays from "
                "address 0 and may overlap it; pass this array as a pointer argument too",
            )
        capacity = self.device.memory(self.device.device_memory).size
        for view in fixed:
            end = _end_byte(view)
            if end is not None and end > capacity:
                raise _error(
                    view,
                    f"reaches byte {end} of device memory at its fixed address, beyond the "
                    f"{capacity} bytes of {self.device.device_memory} on device @{self.device.name}",
                )

    def _distributed_view(self, op: ConstructDistributedMemoryViewOp) -> None:
        """A distributed view as ``split-distributed-views`` rewrites it
        (``ktc.passes.analysis.distributed`` names what it refuses)."""
        parts = partitions(op)
        for access, tile in accesses(op):
            access_kind(access, tile, parts, self.ranges)

    def _generic(self, op: Operation) -> None:
        _on_tensors(op)
        reduces = any(t.data == IteratorType.REDUCTION for t in op.iterator_types.data)
        if reduces and len(op.outputs) != 1:
            self._arg_extremum(op, len(op.inputs))
            return
        for iterator in op.iterator_types.data:
            if iterator.data not in (IteratorType.PARALLEL, IteratorType.REDUCTION):
                raise _error(
                    op,
                    f"has a {iterator.data.value} iterator; only parallel and reduction "
                    "iterators are supported",
                )
        for indexing_map in op.indexing_maps.data:
            if not indexing_map.data.is_projected_permutation(allow_zero_in_results=True):
                raise _error(
                    op,
                    f"has the indexing map {affine_map_text(indexing_map.data)}; only "
                    "projected permutations (with broadcast zeros) are supported",
                )
        block = op.body.block
        if reduces and position_ops(block):
            raise _error(op, "reduces and reads its element's position (linalg.index); positions "
                             "compile in parallel generics only: pass the indices as an f32 input")
        refused = position_error(block)
        if refused is not None:
            raise _error(*refused)
        runtime = runtime_ops(block)
        for inner in runtime:
            self._instructions(inner, runtime_instructions(inner))
        kept = {*_extremum_ops(block), *position_ops(block), *runtime, *scalar_ops(block)}
        for inner in block.ops:
            if inner.name not in {"linalg.yield", "arith.constant", *CONVERSIONS} and inner not in kept:
                self._elementwise(inner)
            if isinstance(inner, arith.SelectOp) and inner not in kept:
                _body_condition(inner)

    def _arg_extremum(self, op: Operation, inputs: int) -> None:
        """A reduction into two outputs: an argmax or argmin (``arg_extremum_of``)
        whose index is an f32 input, which ``normalize-select-combiners`` makes a
        max or min and a min of masked indices."""
        _on_tensors(op)
        arg = arg_extremum_of(op.regions[0].block, inputs) if len(op.results) == 2 else None
        if arg is None:
            raise _error(op, _ONE_ACCUMULATOR.format(len(op.results)))
        if isinstance(arg.index, Operation):
            raise _error(op, "takes its index from linalg.index; the compute engine has no "
                             "lanes that count positions: pass the indices as an f32 input "
                             "tensor of the reduction (exact up to 2^24)")
        if not arg.tie_break:
            raise _error(op, "keeps the first of equal values in the order it folds; the "
                             "compiled fold keeps the smallest index: break ties by the "
                             "index (arith.ori of the strict compare and arith.andi of cmpf "
                             "oeq with the index compare)")
        index = arg.index.type
        if index != f32 or f32 not in self.device.compute.lanes:
            lanes = ", ".join(map(attr_text, self.device.compute.lanes))
            raise _error(op, f"reduces indices of type {attr_text(index)}; the "
                             f"{self.device.compute_kind} of device @{self.device.name} "
                             f"carries them in f32 lanes (it has lanes for {lanes}, none "
                             "for integers): pass and store the indices as f32")
        maps = [m.data for m in op.indexing_maps.data] if op.name == "linalg.generic" else []
        if maps and maps[-1] != maps[-2]:
            raise _error(op, "writes its value and its index through different maps; "
                             "the argmax writes both at the same place")

    def _arith_math(self, op: Operation) -> None:
        """An arith, math or spyreop op: a constant, integer arithmetic on scalars
        (addresses and sizes), or compute."""
        if op.name == "arith.constant":
            _constant(op)
        elif op.name in CONVERSIONS and isinstance(op.results[0].type, TensorType):
            return
        elif op.name in SELECTION and not _on_integers(op):
            self._selection(op)
        elif not op.name.startswith("arith.") or not _on_integers(op):
            self._elementwise(op)

    def _selection(self, op: Operation) -> None:
        """A compare or select outside a generic: on tensors, a select by a mask."""
        if not isinstance(op.results[0].type, TensorType):
            raise _error(op, "works on scalars; the compute engine compares and selects "
                             "tensors element by element (or in a linalg.generic body)")
        if isinstance(op, arith.SelectOp) and not isinstance(op.cond.type, TensorType):
            raise _error(op, "selects between whole tensors by one i1; the compute engine "
                             "selects element by element, by a mask of arith.cmpf")
        self._elementwise(op)

    def _elementwise(self, op: Operation) -> None:
        """``op`` computes on the compute engine: it needs an instruction there."""
        if op.name in SELECTION:
            self._instructions(op)
            return
        if op.name.startswith("spyreop."):
            if instruction_of(op) is None and not any(p.matches(op) for p in self.lowering):
                raise _error(
                    op,
                    f"is not lowered by device @{self.device.name} ({self.device.files[-1]}): "
                    "none of its patterns at pre_mapping or pre_scheduling decomposes it or "
                    f"maps it onto an instruction of {self.device.compute_kind}",
                )
            return
        if op.name not in ELEMENTWISE:
            raise _error(
                op,
                "has no compute instruction: the pipeline lowers add, sub, mul, div, max, "
                "min, neg, abs, exp, sqrt, rsqrt, tanh and fma, and cmpf and select",
            )

    def _instructions(self, op: Operation, needed: set[str] | None = None) -> None:
        """A compare or select (or an op that runs as the instructions ``needed``)
        needs its instructions on the device's compute engine."""
        available = self.device.compute.instructions
        needed = instructions_of(op, available) if needed is None else needed
        missing = sorted(needed - set(available))
        if not missing:
            return
        named = f"instruction{'s' * (len(missing) > 1)} {', '.join(missing)}"
        if isinstance(op, arith.SelectOp):
            named = f"instruction select, or the {named} to blend its values by min and max"
        raise _error(
            op,
            f"needs the {named}, which the {self.device.compute_kind} of device "
            f"@{self.device.name} ({self.device.files[-1]}) does not have (its "
            "ktdf_arch.instructions)",
        )

    def _result_types(self, op: Operation) -> None:
        for result in op.results:
            if isinstance(result.type, TensorType) and result.type.get_element_type() == i1:
                _mask(op, result)
            elif isinstance(result.type, TensorType | AccessTileType):
                self._shaped(op, result.type)

    def _shaped(self, op: Operation, shaped: TensorType | AccessTileType) -> None:
        if any(size < 0 for size in shaped.get_shape()):
            raise _error(op, f"produces {attr_text(shaped)}; tile shapes must be static: "
                             "give the tile its largest size and bound the memory view's "
                             "coordinate_set by the run-time size, which masks the "
                             "coordinates past it (docs/ktir.md, Masked accesses)")
        if isinstance(shaped, AccessTileType):
            return
        try:
            self.device.lanes(shaped.get_element_type())
        except KtcError as err:
            raise _error(op, f"produces {attr_text(shaped)}, but {err.message}") from None


MASK_MAKERS = ("arith.cmpf", "linalg.generic", "tensor.empty")
"""Ops whose tensor of ``i1`` may be a mask (an empty tensor as a generic's output)."""


def _mask(op: Operation, mask: SSAValue) -> None:
    """A tensor of ``i1`` lives only inside the computation that makes and reads it:
    a compare's mask is read by selects or generics of its own phase, which fusion
    makes one computation, so that the mask is never stored or handed over."""
    text = attr_text(mask.type)
    if op.name not in MASK_MAKERS:
        raise _error(op, f"produces {text}; the compute engine makes masks by arith.cmpf only")
    for use in mask.uses:
        user = use.operation
        if isinstance(op, tensor.EmptyOp):
            read = user.name == "linalg.generic" and use.index >= len(user.inputs)
        else:
            read = (isinstance(user, arith.SelectOp) and use.index == 0
                    or user.name == "linalg.generic" and use.index < len(user.inputs))
        if not read or not _same_phase(op, user):
            raise _error(
                user,
                f"uses the mask {text} of '{op.name}' at {where(op) or 'an unknown place'} "
                "other than as a select's condition or a generic's input of the same phase; "
                "the compute engine keeps compare results only within the computation "
                "selecting by them: a mask is never stored, carried by a loop or handed over",
            )


def _same_phase(op: Operation, user: Operation) -> bool:
    """Whether ``user`` follows ``op`` in its block with no op holding compute between."""
    if user.parent_block() is not op.parent_block():
        return False
    between = op.next_op
    while between is not None and between is not user:
        if holds_compute(between):
            return False
        between = between.next_op
    return between is user


def _body_condition(select: arith.SelectOp) -> None:
    """In a generic's body a select's condition is a compare of the body or an element
    of a mask input."""
    condition = select.cond
    block = select.parent_block()
    if isinstance(condition.owner, arith.CmpfOp) and condition.owner.parent_block() is block:
        return
    if condition in block.args or condition.owner in {*position_ops(block), *runtime_ops(block)}:
        return
    raise _error(select, "selects by a condition that is not a compare of its body or an "
                         "element of a mask; the compute engine selects by masks of arith.cmpf")


def _memory_view(op: ConstructMemoryViewOp, cores: int) -> None:
    space = op.memory_space
    if isinstance(space, SpyreMemorySpaceAttr):
        space = space.to_memory_space()
    if not isinstance(space, MemorySpaceAttr):
        raise _error(op, "names no memory space; a view lives in global or ct_local memory")
    if isinstance(space.ct_id, IntAttr):
        _other_scratchpad(op, space.ct_id.data, cores)
    if space.kind.data == MemorySpaceKind.CT_LOCAL and evaluate(op.offset, []) is None:
        raise _error(
            op,
            "places data in the tile's scratchpad at an address that is not a constant; "
            "the compiler keeps its own scratchpad buffers clear of the kernel's only at "
            "constant addresses",
        )


def _other_scratchpad(op: ConstructMemoryViewOp, owner: int, cores: int) -> None:
    """A view of tile ``owner``'s scratchpad is a partition of a distributed view, or
    read by loads and written by stores (``remote_access``: copies over the
    interconnect)."""
    uses = list(op.result.uses)
    if uses and all(isinstance(use.operation, ConstructDistributedMemoryViewOp) for use in uses):
        return
    for use in uses:
        tile = use.operation
        accesses = [u.operation for u in tile.results[0].uses] if tile.results else []
        if not isinstance(tile, ConstructAccessTileOp) or not all(
                isinstance(access, LoadOp | StoreOp) for access in accesses):
            raise _error(
                op,
                f"is in {attr_text(op.memory_space)}, the scratchpad of tile {owner}; another "
                "tile's scratchpad is read by loads and written by stores (copies over the "
                "interconnect) or is a partition of a distributed view",
            )
        for access in accesses:
            remote_access(access, cores)


def _kind_of(view: ConstructMemoryViewOp) -> MemorySpaceKind | None:
    space = view.memory_space
    if isinstance(space, SpyreMemorySpaceAttr):
        space = space.to_memory_space()
    return space.kind.data if isinstance(space, MemorySpaceAttr) else None


def _global(view: ConstructMemoryViewOp) -> bool:
    return _kind_of(view) == MemorySpaceKind.GLOBAL


def _in_scratchpad(op: Operation) -> bool:
    """A view of data the kernel keeps in a tile's scratchpad: it belongs to that tile,
    so the grid must run in one wave (a core runs one tile)."""
    return isinstance(op, ConstructMemoryViewOp) and _kind_of(op) == MemorySpaceKind.CT_LOCAL


def _end_byte(view: ConstructMemoryViewOp) -> int | None:
    """One past the last byte a view at a constant address reaches, when its sizes
    (written or computed from constants) and strides are constants; None otherwise (or
    when it holds nothing)."""
    dynamic = iter(evaluate(size, []) for size in view.sizes)
    sizes = [next(dynamic) if n == DYNAMIC_INDEX else n for n in view.static_sizes.get_values()]
    strides = view.static_strides.get_values()
    if view.strides or None in sizes or 0 in sizes:
        return None
    last = view.offset.owner.value.value.data + sum((n - 1) * s for n, s in zip(sizes, strides))
    element = view.result.type.get_element_type()
    width = 2 if isinstance(element, DF16Type) else 64 if isinstance(element, IndexType) else (
        element.bitwidth if isinstance(element, AnyFloat) else element.width.data)
    return (last + 1) * max(width // 8, 1)


def _access_tile(op: ConstructAccessTileOp) -> None:
    _fills_its_type(op)
    if isinstance(op.base.owner, ConstructDistributedMemoryViewOp):
        return
    if not isinstance(op.base.owner, ConstructMemoryViewOp):
        raise _error(op, "must address a ktdp.construct_memory_view or a distributed view; a "
                         "tile of a tensor is not compiled: take its part with "
                         "tensor.extract_slice, or store the tensor through a view and tile that")
    coordinates = op.base.owner.coordinate_set.data
    if box_bounds(coordinates) is None:
        raise _error(
            op,
            f"indexes a view whose coordinate set affine_set<{affine_set_text(coordinates)}> "
            "is not a box 0 <= d_j < n_j per dimension; the compiler masks accesses outside "
            "a box only",
        )
    order = op.access_tile_order.data
    if not order.is_projected_permutation() or order.num_dims != len(order.results):
        raise _error(
            op,
            f"has access_tile_order {affine_map_text(order)}; the compiler reads tiles in "
            "an order that permutes their dimensions only",
        )


def _fills_its_type(op: ConstructAccessTileOp) -> None:
    """A tile whose ``access_tile_set`` is a box holds as many points as its type: the
    compiler moves the type's whole box, so a set of other extents (or of extents known
    only at launch) would move points outside it (the reference refuses it too)."""
    shape = op.result.type.get_shape()
    ranged = box_range(op.access_tile_set.data)
    if ranged is None or any(n < 0 for n in shape):
        return
    symbols = [evaluate(value, []) for value in op.symbol_operands]
    if None in symbols:
        launched = ", ".join(f"%{v.name_hint or 'symbol'}" for v, n in zip(op.symbol_operands, symbols)
                             if n is None)
        raise _error(op, f"has an access_tile_set whose extents depend on {launched}, known only "
                         "at launch; the compiler moves whole tiles of static shape: give the "
                         "tile its largest size and bound the memory view's coordinate_set by "
                         "the run-time size, which masks the coordinates past it")
    extents = [max(high.eval([], symbols) - low.eval([], symbols), 0) for low, high in zip(*ranged)]
    if prod(extents) != prod(shape):
        raise _error(op, f"has an access_tile_set of {prod(extents)} points "
                         f"({'x'.join(map(str, extents))}) for a tile type of {prod(shape)} "
                         f"(<{'x'.join(map(str, shape))}>); the compiler moves the type's whole "
                         "tile: give the tile its set's shape")


def _inter_tile(op: InterTileProduceOp) -> None:
    """A reduce or consume as ``inter-tile-reduce-lowering`` lowers it (``function_of``,
    ``resolve``, ``resolve_consume``)."""
    tiles = prod(grid_of(function_of(op)))
    if isinstance(consumer_of(op), InterTileConsumeOp):
        resolve_consume(op, tiles)
    else:
        resolve(op, tiles)


def _transpose(op: Operation) -> None:
    """A transpose only as an input of contractions, which read it through a map,
    directly or through whole-tensor widenings (``normalize-contractions`` folds both)."""
    _on_tensors(op)
    if not _contraction_input(op.results[0]):
        raise _error(op, "is used by something other than a contraction's input (directly "
                         "or through arith.extf); the pipeline transposes only the inputs "
                         "of contractions")


def _contraction_input(value: SSAValue) -> bool:
    """Whether every use of ``value`` is an input of a contraction, or an ``arith.extf``
    of it whose every use is one."""
    for use in value.uses:
        user = use.operation
        if user.name == "arith.extf":
            if not _contraction_input(user.results[0]):
                return False
        elif use.index >= 2 or contraction(user) is None:
            return False
    return True


def _reduce(op: Operation) -> None:
    _on_tensors(op)
    if len(op.results) != 1:
        raise _error(op, _ONE_ACCUMULATOR.format(len(op.results)))
    block = op.regions[0].block
    if _extremum_ops(block):
        return
    combiners = [inner.name for inner in block.ops if inner.name != "linalg.yield"]
    if len(combiners) != 1 or combiners[0] not in COMBINERS:
        raise _error(
            op,
            f"combines with {', '.join(combiners) or 'nothing'}; a reduction combines "
            "with one add, mul, max or min, or keeps the larger or smaller of a term and "
            "the accumulator by arith.cmpf and arith.select",
        )


_ONE_ACCUMULATOR = (
    "reduces into {} outputs; the pipeline reduces into one accumulator, or into two "
    "by an argmax or argmin body: select(c, v, acc_v) and select(c, i, acc_i) with c "
    "cmpf ogt (olt) of v and acc_v, or that arith.ori (cmpf oeq of v and acc_v arith.andi "
    "i < acc_i)"
)


def _arg_combiner(op: Operation) -> bool:
    """Whether ``op`` is an ``inter_tile_reduce`` whose combiner ``normalize-select-
    combiners`` rewrites (an argmax or argmin of f32 indices, ties broken by the
    index), so its compares and selects are not compiled as written."""
    if not isinstance(op, InterTileReduceOp) or len(op.outputs) != 2:
        return False
    arg = arg_combiner_of(op.combiner.block)
    return arg is not None and arg.tie_break and arg.index.type.get_element_type() == f32


def _extremum_ops(block) -> tuple[Operation, ...]:
    """The compare and select of a body that keeps an extremum (``extremum_of``),
    which ``normalize-select-combiners`` makes a max or min; none otherwise."""
    if extremum_of(block) is None:
        return ()
    select = block.last_op.operands[0].owner
    return (select, select.cond.owner)


def _reshape_shape(op: Operation) -> bool:
    """Whether ``op`` is a constant read only as the shape of ``tensor.reshape``s
    (``fold-reshapes-and-slices`` folds them; nothing computes on it)."""
    uses = list(op.results[0].uses) if op.name == "arith.constant" else []
    return bool(uses) and all(u.operation.name == "tensor.reshape" and u.index == 1 for u in uses)


def _on_tensors(op: Operation) -> None:
    """A linalg op must compute on tensors (loaded with ktdp.load), not on memory."""
    if any(isinstance(t, MemRefType) for t in op.operand_types):
        raise _error(op, "works on a memref; compute on tensors read with ktdp.load")


def _constant(op: Operation) -> None:
    value = op.properties.get("value")
    if isinstance(value, DenseIntOrFPElementsAttr) and not value.is_splat():
        raise _error(
            op, "holds a tensor of several values; only splat tensor constants are supported"
        )


def _on_integers(op: Operation) -> bool:
    """Whether every operand is an integer or index scalar."""
    return all(isinstance(t, IndexType | IntegerType) for t in op.operand_types)


def _error(op: Operation, reason: str) -> KtcError:
    subject = f"'{op.name}'"
    if isinstance(op, FuncOp):
        subject += f" @{op.sym_name.data}"
    return KtcError(f"{subject} {reason}", where(op))
