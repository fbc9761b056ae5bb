"""Contractions: linalg ops that multiply one element of each of two inputs and add
the product to an element of their output, summing over the loops that index both
inputs but not the output (a matmul, a batched matmul, a generic that is one).

``contraction(op)`` reads one: its loops sorted into batch (every operand), ``m``
(the left input and the output), ``n`` (the right input and the output) and ``k``
(both inputs, reduced); ``None`` for any other op. ``normalize-contractions`` writes
every contraction as the canonical generic ``canonical`` builds; ``contraction-tiling``
and ``contraction-pipeline`` read it back.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from ktc.arch.model import Device
from ktc.dialects import ktdp
from ktc.dialects.spyreop import DF16Type

_CONVERSIONS = ("arith.extf",)
"""What may widen an input element before the multiply."""

_PRODUCTS = {"arith.mulf": "arith.addf", "arith.muli": "arith.addi"}
"""Each multiply and the add that accumulates its products."""


@dataclass(frozen=True)
class Contraction:
    """One contraction op and the role of each of its loops."""

    op: Operation
    maps: tuple[AffineMap, AffineMap, AffineMap]
    """The left input's, the right input's and the output's indexing maps."""
    batch: tuple[int, ...]
    m: tuple[int, ...]
    n: tuple[int, ...]
    k: tuple[int, ...]

    @property
    def lhs(self) -> SSAValue:
        return self.op.operands[0]

    @property
    def rhs(self) -> SSAValue:
        return self.op.operands[1]

    @property
    def init(self) -> SSAValue:
        return self.op.operands[2]

    @property
    def result(self) -> SSAValue | None:
        """The result on tensors; None into a buffer."""
        return self.op.results[0] if self.op.results else None

    def sizes(self) -> list[int]:
        """The extent of every loop, from the operands' static shapes."""
        sizes = [0] * self.maps[0].num_dims
        for value, amap in zip(self.op.operands, self.maps):
            for expr, size in zip(amap.results, value.type.get_shape()):
                sizes[expr.position] = size
        return sizes

    @property
    def is_matrix_product(self) -> bool:
        """One loop each of m, n and k and no batch: a plain (maybe transposed) matmul."""
        return not self.batch and len(self.m) == len(self.n) == len(self.k) == 1

    @property
    def reduces_innermost(self) -> bool:
        """Whether both inputs have a k loop innermost (the SIMD engine's order:
        multiply along k, then reduce)."""
        return all(amap.results[-1].position in self.k for amap in self.maps[:2])

    def transposed(self, operand: int) -> bool:
        """Whether input ``operand`` (0 or 1) has its k loop first: the left input
        stored k x m, the right one n x k."""
        positions = [expr.position for expr in self.maps[operand].results]
        inner = self.k[0] if operand == 0 else self.n[0]
        return positions[-1] != inner


def contraction(op: Operation) -> Contraction | None:
    """The contraction ``op`` is, or None."""
    if len(op.operands) != 3 or len(op.results) > 1 or not op.regions:
        return None
    get_maps = getattr(op, "get_indexing_maps", None)
    get_iterators = getattr(op, "get_iterator_types", None)
    if get_maps is None or get_iterators is None:
        return None
    maps = tuple(attr.data for attr in get_maps().data)
    if len(maps) != 3 or not all(_projected(amap) for amap in maps):
        return None
    if not all(isinstance(value.type, ShapedType) for value in op.operands):
        return None
    if not _multiply_accumulate(op.regions[0].block):
        return None
    roles = _roles(maps, [it.data for it in get_iterators().data])
    return None if roles is None else Contraction(op, maps, *roles)


@dataclass(frozen=True)
class UnitShares:
    """How a core's matrix units share an output tile's accumulators: each of its
    ``blocks`` blocks cut into ``parts`` runs of ``rows`` rows, the ``pieces`` (piece
    ``i`` the rows from ``(i mod parts) * rows`` of block ``i floordiv parts``) given
    out over ``units`` units in runs of ``per_unit`` consecutive pieces, each unit
    with its own load and store units and accumulators. ``contraction-tiling``
    estimates by it, ``contraction-pipeline`` schedules by it."""

    units: int
    blocks: int
    parts: int
    rows: int

    @property
    def pieces(self) -> int:
        return self.blocks * self.parts

    @property
    def per_unit(self) -> int:
        return -(-self.pieces // self.units)


def unit_shares(device: Device, m: int, n: int, block: int) -> UnitShares:
    """How the matrix units of a core (``Device.matrix_subcores``, one per sub-core)
    share an ``m x n`` output tile in blocks of ``block``: all of them, each block cut
    into the fewest runs of rows that make the pieces a multiple of the units (a tile of
    fewer blocks than units has its rows split between them), when each run is whole
    steps of the unit's rows; else the whole blocks shared out, or one unit for one
    block. A block narrower than the lanes takes as many steps as one of their width,
    so the tiling's estimate prefers wide blocks where it can have them; where it cannot
    (attention's P V: a staged A's chunks are whole sticks, and a B chunk of that depth
    and the lanes' width does not fit the FIFO), two units on narrow blocks still take
    half the steps of one."""
    blocks, units = n // block, device.matrix_subcores
    if units < 2:
        return UnitShares(1, blocks, 1, m)
    parts = units // math.gcd(blocks, units)
    if m % (parts * device.matrix.rows):
        parts = 1
    return UnitShares(min(units, blocks * parts), blocks, parts, m // parts)


def feeds_rhs_transposed(c: Contraction, device: Device) -> bool:
    """Whether the matrix unit takes ``c``'s right operand as it is stored, ``n x k``
    (a unit with ``transposed_rhs``), so that no copy transposes it: its k tiles are
    copied into the scratchpad as ``n x chunk`` blocks, each a block the unit takes.
    ``contraction-tiling`` estimates by it, ``contraction-pipeline`` schedules by it."""
    return c.transposed(1) and device.matrix is not None and device.matrix.transposed_rhs


def loaded_from_view(value: SSAValue) -> bool:
    """Whether ``value`` is a ``ktdp.load`` of an access tile of a memory view (not
    computed on chip)."""
    load = value.owner
    if not isinstance(load, ktdp.LoadOp):
        return False
    tile = load.access_tile.owner
    return (isinstance(tile, ktdp.ConstructAccessTileOp)
            and isinstance(tile.base.owner, ktdp.ConstructMemoryViewOp))


def is_zero(value: SSAValue) -> bool:
    """Whether a contraction's accumulator starts at zero: a zero constant, a fill of
    zero, or an empty tensor (which the reference interpreter reads as zeros)."""
    owner = value.owner
    if isinstance(owner, tensor.EmptyOp):
        return True
    if isinstance(owner, FillOp):
        scalar = owner.inputs[0].owner
        return isinstance(scalar, arith.ConstantOp) and _zero(scalar.value)
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, DenseIntOrFPElementsAttr):
        return owner.value.is_splat() and _zero(owner.value.get_attrs()[0])
    return False


def _zero(attr: Attribute) -> bool:
    return isinstance(attr, FloatAttr | IntegerAttr) and attr.value.data == 0


def _projected(amap: AffineMap) -> bool:
    dims = [expr.position for expr in amap.results if isinstance(expr, AffineDimExpr)]
    return len(dims) == len(amap.results) == len(set(dims)) and not amap.num_symbols


def _roles(maps: Sequence[AffineMap], iterators: Sequence[IteratorType]):
    """The batch, m, n and k loops; None when a loop has no such role (one read by a
    single input, a reduction the output keeps, a parallel loop the output drops)."""
    used = [{expr.position for expr in amap.results} for amap in maps]
    roles: dict[str, list[int]] = {"batch": [], "m": [], "n": [], "k": []}
    for dim, iterator in enumerate(iterators):
        where = (dim in used[0], dim in used[1], dim in used[2])
        role = {(True, True, True): "batch", (True, False, True): "m",
                (False, True, True): "n", (True, True, False): "k"}.get(where)
        if role is None or (role == "k") != (iterator == IteratorType.REDUCTION):
            return None
        roles[role].append(dim)
    if not roles["k"]:
        return None
    return tuple(tuple(roles[name]) for name in ("batch", "m", "n", "k"))


def _multiply_accumulate(block: Block) -> bool:
    """``yield out + x * y``, x and y the two input elements (each maybe widened)."""
    if len(block.args) != 3 or not isinstance(block.last_op, YieldOp):
        return False
    total = block.last_op.operands[0]
    add = total.owner
    if not isinstance(add, Operation) or block.args[2] not in add.operands:
        return False
    product = add.operands[1] if add.operands[0] is block.args[2] else add.operands[0]
    mul = product.owner
    if not isinstance(mul, Operation) or _PRODUCTS.get(mul.name) != add.name:
        return False
    factors = [_unwidened(value) for value in mul.operands]
    return sorted(factors, key=id) == sorted(block.args[:2], key=id) and len(block.ops) <= 6


def _unwidened(value: SSAValue) -> SSAValue:
    owner = value.owner
    if isinstance(owner, Operation) and owner.name in _CONVERSIONS:
        return owner.operands[0]
    return value


def canonical(
    lhs: SSAValue, rhs: SSAValue, init: SSAValue, maps: Sequence[AffineMap], loops: int,
    reduced: Sequence[int],
) -> GenericOp:
    """The generic ``init + lhs * rhs`` over ``loops`` loops with ``maps``, the loops in
    ``reduced`` reductions; each input element widened to the output's element type
    first when it is narrower. On tensors it has a result; into a buffer (``init`` a
    memref) none."""
    out_type = init.type.get_element_type()
    block = Block(arg_types=[lhs.type.get_element_type(), rhs.type.get_element_type(), out_type])
    factors: list[SSAValue] = []
    for arg in block.args[:2]:
        if arg.type != out_type:
            widen = arith.ExtFOp(arg, out_type)
            block.add_op(widen)
            arg = widen.result
        factors.append(arg)
    floating = isinstance(out_type, AnyFloat | DF16Type)
    mul = (arith.MulfOp if floating else arith.MuliOp)(*factors)
    add = (arith.AddfOp if floating else arith.AddiOp)(block.args[2], mul.result)
    block.add_ops([mul, add, YieldOp(add.result)])
    iterators = [IteratorTypeAttr(IteratorType.REDUCTION if dim in reduced else IteratorType.PARALLEL)
                 for dim in range(loops)]
    results = [init.type] if isinstance(init.type, TensorType) else []
    return GenericOp([lhs, rhs], [init], Region(block), [AffineMapAttr(m) for m in maps],
                     iterators, results)


def matmul_maps(transpose_lhs: bool = False, transpose_rhs: bool = False) -> tuple[AffineMap, ...]:
    """The maps of ``C[m, n] += A[m, k] * B[k, n]`` over loops (m, n, k), with A
    stored k x m or B stored n x k when transposed."""
    m, n, k = (AffineExpr.dimension(d) for d in range(3))
    lhs = (k, m) if transpose_lhs else (m, k)
    rhs = (n, k) if transpose_rhs else (k, n)
    return AffineMap(3, 0, lhs), AffineMap(3, 0, rhs), AffineMap(3, 0, (m, n))
