"""Generalization of tensor compute into ``linalg.generic``, and producer-consumer
fusion of the generics, for ``construct-three-stage-pipeline``.

Both work on the straight-line block of a program:

- ``generalize`` rewrites every op of the block that computes on tensors as a
  ``linalg.generic``: elementwise ``arith`` / ``math`` ops, named linalg ops
  (``add``, ``sub``, ``mul``, ``max``, ``exp``, ..., ``fill``, ``transpose``),
  ``linalg.broadcast``, ``linalg.reduce`` (in either spelling), splat tensor
  constants, and ``tensor.splat``: a fill, or, when it splats an element that
  ``tensor.extract`` takes from a tensor at a constant position, a broadcast of that
  element. Scalar ``ins`` of a generic become values its body captures, and inputs
  that repeat with the same map are merged.
- ``fuse`` fuses every generic that is all-parallel, has one result and writes it
  through a permutation into each generic that reads it, until no such producer is
  left (MLIR's ``fuseElementwiseOps``). A producer that other ops still read stays;
  the others are erased. What remains is one generic per elementwise computation,
  plus one per reduction and the fills that seed reductions.
"""

from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, DenseIntOrFPElementsAttr, ShapedType, TensorType
from xdsl.dialects.linalg.ops import BroadcastOp, GenericOp, ReduceOp, YieldOp
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import Rewriter

_ELEMENTWISE_DIALECTS = ("arith", "math")
"""Dialects whose ops on tensors apply a scalar op element by element."""


def generalize(block: Block) -> None:
    """Rewrite every op of ``block`` that computes on tensors as a ``linalg.generic``;
    drop the ``tensor.extract``s that only fed broadcasts."""
    for op in list(block.ops):
        replacement = _generalized(op)
        if replacement is None:
            continue
        for new in replacement:
            new.location = op.location
        Rewriter.replace_op(op, replacement)
    for op in list(block.ops):
        if isinstance(op, tensor.ExtractOp) and not op.result.uses:
            block.erase_op(op)


def fuse(block: Block) -> None:
    """Fuse each fusable producer generic of ``block`` into the generics reading it."""
    for op in list(block.ops):
        if not isinstance(op, GenericOp):
            continue
        consumer = op
        while (index := _fusable_input(consumer)) is not None:
            consumer = _fuse(consumer, index)


def reads_output(generic: GenericOp) -> list[bool]:
    """Per output, whether the body reads its current value (as a reduction reads
    its accumulator); an output it does not read only gives the result's shape."""
    outputs = generic.body.block.args[len(generic.inputs) :]
    return [bool(arg.uses) for arg in outputs]


# ---------------------------------------------------------------------------------
# Generalization
# ---------------------------------------------------------------------------------


def _generalized(op: Operation) -> list[Operation] | None:
    """The ops replacing ``op`` (the generic last), or None if ``op`` stays."""
    if isinstance(op, LinalgStructuredOperation):
        return [
            _generic(
                list(op.inputs),
                list(op.outputs),
                _body(op.body),
                op.get_indexing_maps().data,
                op.get_iterator_types().data,
                op.res.types,
            )
        ]
    if isinstance(op, BroadcastOp):
        return [_broadcast(op)]
    if isinstance(op, ReduceOp):
        return [_reduce(op)]
    if isinstance(op, tensor.SplatOp):
        return _splat(op.input, op.result.type)
    if isinstance(op, arith.ConstantOp) and isinstance(op.result.type, TensorType):
        return _splat_constant(op)
    if _is_elementwise(op):
        return _elementwise(op)
    return None


def _broadcast(op: BroadcastOp) -> GenericOp:
    rank = op.init.type.get_num_dims()
    added = set(op.dimensions.get_values())
    source = AffineMap(
        rank, 0, tuple(AffineExpr.dimension(d) for d in range(rank) if d not in added)
    )
    return _generic(
        [op.input],
        [op.init],
        _body(op.hidden_region),
        [AffineMapAttr(source), _identity(rank)],
        _parallel(rank),
        op.result.types,
    )


def _reduce(op: ReduceOp) -> GenericOp:
    rank = op.input.type.get_num_dims()
    reduced = set(op.dimensions.get_values())
    kept = tuple(AffineExpr.dimension(d) for d in range(rank) if d not in reduced)
    iterators = [
        IteratorTypeAttr(IteratorType.REDUCTION if d in reduced else IteratorType.PARALLEL)
        for d in range(rank)
    ]
    return _generic(
        [op.input],
        [op.init],
        _body(op.region),
        [_identity(rank), AffineMapAttr(AffineMap(rank, 0, kept))],
        iterators,
        op.result.types,
    )


def _splat(scalar: SSAValue, result_type: TensorType) -> list[Operation]:
    """A generic filling ``result_type`` with ``scalar``; a broadcast of the element
    when ``scalar`` is a ``tensor.extract`` at constant indices."""
    rank = result_type.get_num_dims()
    empty = tensor.EmptyOp([], result_type)
    extract = scalar.owner
    positions = _constant_indices(extract) if isinstance(extract, tensor.ExtractOp) else None
    block = Block(arg_types=[result_type.get_element_type()])
    inputs: list[SSAValue] = []
    maps: list[AffineMapAttr] = []
    if positions is not None:
        scalar = block.insert_arg(extract.result.type, 0)
        inputs.append(extract.tensor)
        maps.append(AffineMapAttr(AffineMap(rank, 0, tuple(map(AffineExpr.constant, positions)))))
    block.add_op(YieldOp(scalar))
    maps.append(_identity(rank))
    return [
        empty,
        _generic(inputs, [empty.tensor], block, maps, _parallel(rank), [result_type]),
    ]


def _constant_indices(extract: tensor.ExtractOp) -> list[int] | None:
    """The position ``extract`` reads, if every index is a constant."""
    positions = []
    for index in extract.indices:
        constant = index.owner
        if not isinstance(constant, arith.ConstantOp):
            return None
        positions.append(constant.value.value.data)
    return positions


def _splat_constant(op: arith.ConstantOp) -> list[Operation] | None:
    value = op.value
    if not isinstance(value, DenseIntOrFPElementsAttr) or not value.is_splat():
        return None
    constant = arith.ConstantOp(value.get_attrs()[0])
    ops = _splat(constant.result, op.result.type)
    ops[-1].body.block.insert_op_before(constant, ops[-1].body.block.first_op)
    return ops


def _is_elementwise(op: Operation) -> bool:
    return (
        op.dialect_name() in _ELEMENTWISE_DIALECTS
        and len(op.results) == 1
        and isinstance(op.results[0].type, TensorType)
        and not op.regions
    )


def _elementwise(op: Operation) -> list[Operation]:
    """The generic applying ``op`` to each element of its tensor operands (the others
    stay as they are)."""
    result_type = op.results[0].type
    rank = result_type.get_num_dims()
    tensors = [value for value in op.operands if isinstance(value.type, TensorType)]
    block = Block(arg_types=[value.type.get_element_type() for value in tensors])
    args = iter(block.args)
    operands = [
        next(args) if isinstance(value.type, TensorType) else value for value in op.operands
    ]
    scalar = type(op).create(
        operands=operands,
        result_types=[result_type.get_element_type()],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    block.insert_arg(result_type.get_element_type(), len(block.args))
    block.add_ops([scalar, YieldOp(scalar.results[0])])
    empty = tensor.EmptyOp([], result_type)
    maps = [_identity(rank)] * (len(tensors) + 1)
    return [empty, _generic(tensors, [empty.tensor], block, maps, _parallel(rank), [result_type])]


# ---------------------------------------------------------------------------------
# Fusion
# ---------------------------------------------------------------------------------


def _fusable_input(consumer: GenericOp) -> int | None:
    """The first input of ``consumer`` that a fusable producer generic writes."""
    for index, value in enumerate(consumer.inputs):
        producer = value.owner
        if isinstance(producer, GenericOp) and _is_fusable_producer(producer):
            return index
    return None


def _is_fusable_producer(producer: GenericOp) -> bool:
    if len(producer.res) != 1 or any(reads_output(producer)):
        return False
    if any(kind.data != IteratorType.PARALLEL for kind in producer.iterator_types.data):
        return False
    written = producer.indexing_maps.data[-1].data
    return (
        all(isinstance(expr, AffineDimExpr) for expr in written.results)
        and len(written.results) == written.num_dims
        and written.inverse_permutation() is not None
    )


def _fuse(consumer: GenericOp, index: int) -> GenericOp:
    """Replace ``consumer`` by a generic computing its input ``index`` inline from the
    producer's inputs; erase the producer if nothing else reads it."""
    producer = consumer.inputs[index].owner
    assert isinstance(producer, GenericOp)
    inputs = len(producer.inputs)
    producer_maps = [attr.data for attr in producer.indexing_maps.data]
    consumer_maps = list(consumer.indexing_maps.data)
    to_producer_loops = producer_maps[-1].inverse_permutation().compose(consumer_maps[index].data)
    maps = [
        *consumer_maps[:index],
        *(AffineMapAttr(m.compose(to_producer_loops)) for m in producer_maps[:inputs]),
        *consumer_maps[index + 1 :],
    ]
    consumer_args = consumer.body.block.args
    old_args = [
        *consumer_args[:index],
        *producer.body.block.args[:inputs],
        *consumer_args[index + 1 :],
    ]
    block = Block(arg_types=[arg.type for arg in old_args])
    mapper: dict[SSAValue, SSAValue] = dict(zip(old_args, block.args))
    for op in producer.body.block.ops:
        if isinstance(op, YieldOp):
            mapper[consumer_args[index]] = mapper.get(op.operands[0], op.operands[0])
        else:
            block.add_op(op.clone(value_mapper=mapper))
    block.add_ops(op.clone(value_mapper=mapper) for op in consumer.body.block.ops)
    fused = _generic(
        [*consumer.inputs[:index], *producer.inputs, *consumer.inputs[index + 1 :]],
        list(consumer.outputs),
        block,
        maps,
        consumer.iterator_types.data,
        consumer.res.types,
    )
    fused.location = consumer.location
    Rewriter.replace_op(consumer, fused)
    if not producer.res[0].uses:
        Rewriter.erase_op(producer)
    return fused


# ---------------------------------------------------------------------------------
# Building generics
# ---------------------------------------------------------------------------------


def _generic(
    inputs: list[SSAValue],
    outputs: list[SSAValue],
    block: Block,
    maps: Sequence[AffineMapAttr],
    iterators: Sequence[Attribute],
    result_types: Sequence[Attribute],
) -> GenericOp:
    """A ``linalg.generic`` over ``block`` (inputs' arguments, then outputs'), with
    scalar inputs captured by the body and repeated inputs merged."""
    maps = list(maps)
    for index in reversed(range(len(inputs))):
        arg = block.args[index]
        first = next(
            j for j in range(index + 1) if (inputs[j], maps[j]) == (inputs[index], maps[index])
        )
        if isinstance(inputs[index].type, ShapedType) and first == index:
            continue
        arg.replace_all_uses_with(block.args[first] if first != index else inputs[index])
        block.erase_arg(arg)
        del inputs[index], maps[index]
    return GenericOp(inputs, outputs, Region(block), maps, iterators, result_types)


def _body(region: Region) -> Block:
    """A copy of the single block of ``region``, free to move into a new op."""
    return region.clone().detach_block(0)


def _identity(rank: int) -> AffineMapAttr:
    return AffineMapAttr(AffineMap.identity(rank))


def _parallel(rank: int) -> list[IteratorTypeAttr]:
    return [IteratorTypeAttr(IteratorType.PARALLEL)] * rank
