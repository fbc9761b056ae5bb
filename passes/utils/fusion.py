"""Generalization of tensor compute into ``linalg.generic``, and producer-consumer
fusion of the generics, for ``generalize-and-fuse``.

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
from xdsl.dialects.linalg.ops import BroadcastOp, GenericOp, IndexOp, YieldOp
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from ktc.dialects.upstream import ReduceOp

_ELEMENTWISE_DIALECTS = ("arith", "math")
"""Dialects whose ops on tensors apply a scalar op element by element."""


def generalize(block: Block) -> None:
    """Rewrite every op of ``block`` that computes on tensors as a ``linalg.generic``,
    the scalars its body computes from elements of the block's tensors computed in the
    body; drop the ``tensor.extract``s, and the scalar ops on them, left unused."""
    for op in list(block.ops):
        replacement = _generalized(op)
        if replacement is None:
            continue
        for new in replacement:
            new.location = op.location
        Rewriter.replace_op(op, replacement)
    for generic in [op for op in block.ops if isinstance(op, GenericOp)]:
        _sink_element_scalars(generic, block)
    for op in reversed(list(block.ops)):
        if _on_elements(op, block) and not op.results[0].uses:
            block.erase_op(op)


def fuse(block: Block) -> None:
    """Fuse each fusable producer generic of ``block`` into the generics reading it,
    in block order."""
    sizes: _Sizes = {}
    for op in list(block.ops):
        if isinstance(op, GenericOp):
            _fuse_producers(op, sizes)


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
        return [broadcast_generic(op)]
    if isinstance(op, ReduceOp):
        return [reduce_generic(op)]
    if isinstance(op, tensor.SplatOp):
        return _splat(op.input, op.result.type)
    if isinstance(op, arith.ConstantOp) and isinstance(op.result.type, TensorType):
        return _splat_constant(op)
    if _is_elementwise(op):
        return _elementwise(op)
    return None


def broadcast_generic(op: BroadcastOp) -> GenericOp:
    """The ``linalg.generic`` reading ``op``'s input through the map of the kept dimensions."""
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


def reduce_generic(op: ReduceOp) -> GenericOp:
    """The ``linalg.generic`` of ``op``: inputs read whole, outputs through the kept dimensions."""
    rank = op.inputs[0].type.get_num_dims()
    reduced = set(op.dimensions.get_values())
    kept = tuple(AffineExpr.dimension(d) for d in range(rank) if d not in reduced)
    iterators = [
        IteratorTypeAttr(IteratorType.REDUCTION if d in reduced else IteratorType.PARALLEL)
        for d in range(rank)
    ]
    return _generic(
        list(op.inputs),
        list(op.inits),
        _body(op.region),
        [_identity(rank)] * len(op.inputs) + [AffineMapAttr(AffineMap(rank, 0, kept))] * len(op.inits),
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


def _on_elements(op: Operation | None, block: Block) -> bool:
    """Whether ``op`` is a scalar of ``block`` computed from elements of its tensors: a
    ``tensor.extract`` at constant indices, or a scalar ``arith``/``math`` op with such
    an operand."""
    if op is None or op.parent_block() is not block or len(op.results) != 1:
        return False
    if isinstance(op, tensor.ExtractOp):
        return _constant_indices(op) is not None
    return (
        op.dialect_name() in _ELEMENTWISE_DIALECTS
        and not op.regions
        and not isinstance(op.results[0].type, ShapedType)
        and any(_on_elements(v.owner if isinstance(v, OpResult) else None, block)
                for v in op.operands)
    )


def _sink_element_scalars(generic: GenericOp, block: Block) -> None:
    """Compute in ``generic``'s body the scalars it captures from elements of the
    block's tensors: each ``tensor.extract`` an input read at its constant position,
    the scalar ops on it cloned into the body (a reduced value broadcast back, a row's
    mean feeding its normalization)."""
    body = generic.body.block
    captured = [v for op in body.walk() for v in op.operands
                if isinstance(v, OpResult) and _on_elements(v.owner, block)]
    if not captured:
        return
    rank = len(generic.iterator_types)
    inputs, maps = list(generic.inputs), list(generic.indexing_maps.data)
    clones: dict[SSAValue, SSAValue] = {}
    anchor = body.first_op

    def sunk(value: SSAValue) -> SSAValue:
        if value in clones or not (isinstance(value, OpResult) and _on_elements(value.owner, block)):
            return clones.get(value, value)
        op = value.owner
        if isinstance(op, tensor.ExtractOp):
            clones[value] = body.insert_arg(value.type, len(inputs))
            inputs.append(op.tensor)
            positions = tuple(map(AffineExpr.constant, _constant_indices(op)))
            maps.insert(len(inputs) - 1, AffineMapAttr(AffineMap(rank, 0, positions)))
            return clones[value]
        clone = op.clone(value_mapper={v: sunk(v) for v in op.operands})
        body.insert_op_before(clone, anchor)
        clones[value] = clone.results[0]
        return clones[value]

    for value in dict.fromkeys(captured):
        value.replace_uses_with_if(sunk(value), lambda use: generic.is_ancestor(use.operation))
    replacement = GenericOp(inputs, list(generic.outputs), generic.detach_region(generic.body),
                            maps, generic.iterator_types.data, generic.result_types)
    replacement.location = generic.location
    Rewriter.replace_op(generic, replacement)


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


def _fusable_producers(consumer: GenericOp) -> dict[int, GenericOp]:
    """The fusable producer generics writing inputs of ``consumer``, by input index."""
    return {
        index: value.owner
        for index, value in enumerate(consumer.inputs)
        if isinstance(value.owner, GenericOp) and _is_fusable_producer(value.owner)
    }


def _is_fusable_producer(producer: GenericOp) -> bool:
    if len(producer.res) != 1 or any(reads_output(producer)):
        return False
    if any(kind.data != IteratorType.PARALLEL for kind in producer.iterator_types.data):
        return False
    if any(isinstance(op, IndexOp) for op in producer.body.walk()):
        return False
    written = producer.indexing_maps.data[-1].data
    return (
        all(isinstance(expr, AffineDimExpr) for expr in written.results)
        and len(written.results) == written.num_dims
        and written.inverse_permutation() is not None
    )


_Sizes = dict[GenericOp, int]
"""The number of ops in each generic's body, counted once."""


def _fuse_producers(consumer: GenericOp, sizes: _Sizes) -> None:
    """Replace ``consumer`` by a generic computing each input a fusable producer
    writes inline from that producer's inputs; erase the producers nothing else reads.

    The producers precede ``consumer`` in the block, so fusion has left them without
    fusable inputs and one round fuses all there is. The fused body holds the
    producers' bodies, the last input's first, then the consumer's: the order fusing
    one input at a time leaves them in. A producer read only here gives its own body,
    another a copy; the largest body is kept and the others' ops move into it, so a
    chain of n generics costs O(n), not O(n^2)."""
    producers = _fusable_producers(consumer)
    if not producers:
        return
    consumer_args = consumer.body.block.args
    consumer_maps = list(consumer.indexing_maps.data)
    inputs: list[SSAValue] = []
    maps: list[AffineMapAttr] = []
    args: list[BlockArgument] = []
    bodies: list[tuple[Block, int]] = [(consumer.body.block, _size(consumer, sizes))]
    for index, value in enumerate(consumer.inputs):
        producer = producers.get(index)
        if producer is None:
            inputs.append(value)
            maps.append(consumer_maps[index])
            args.append(consumer_args[index])
            continue
        body = producer.body.block if value.has_one_use() else _body(producer.body)
        producer_maps = [attr.data for attr in producer.indexing_maps.data]
        to_producer_loops = producer_maps[-1].inverse_permutation().compose(
            consumer_maps[index].data
        )
        inputs += producer.inputs
        maps += (AffineMapAttr(m.compose(to_producer_loops)) for m in producer_maps[:-1])
        args += body.args[: len(producer.inputs)]
        _rewire(consumer_args[index], body.last_op.operands[0])
        body.erase_op(body.last_op)
        bodies.insert(0, (body, _size(producer, sizes) - 1))
    maps += consumer_maps[len(consumer.inputs) :]
    args += consumer_args[len(consumer.inputs) :]
    fused = _generic(
        inputs,
        list(consumer.outputs),
        _joined(bodies, args),
        maps,
        consumer.iterator_types.data,
        consumer.res.types,
    )
    fused.location = consumer.location
    sizes[fused] = sum(size for _, size in bodies)
    Rewriter.replace_op(consumer, fused)
    for producer in set(producers.values()):
        if not producer.res[0].uses:
            Rewriter.erase_op(producer)


def _size(generic: GenericOp, sizes: _Sizes) -> int:
    if generic not in sizes:
        sizes[generic] = len(generic.body.block.ops)
    return sizes[generic]


def _joined(bodies: list[tuple[Block, int]], args: list[BlockArgument]) -> Block:
    """One block with the ops of ``bodies`` (blocks and their sizes) in order, its
    arguments, unnamed, standing for ``args`` (arguments of those blocks): the
    largest block, detached, with the others' ops moved in."""
    blocks = [block for block, _ in bodies]
    host = max(bodies, key=lambda body: body[1])[0]
    if host.parent is not None:
        host.parent.detach_block(host)
    at = blocks.index(host)
    before = [op for block in blocks[:at] for op in _emptied(block)]
    after = [op for block in blocks[at + 1 :] for op in _emptied(block)]
    if before:
        Rewriter.insert_op(before, InsertPoint.at_start(host))
    if after:
        Rewriter.insert_op(after, InsertPoint.at_end(host))
    kept = set(args)
    for arg in [arg for arg in host.args if arg not in kept]:
        host.erase_arg(arg)
    for position, arg in enumerate(args):
        if arg.block is not host:
            _rewire(arg, host.insert_arg(arg.type, position))
    for arg in host.args:
        arg.name_hint = None
    return host


def _rewire(old: SSAValue, new: SSAValue) -> None:
    """Make the users of ``old`` use ``new``, whose name stays as it is."""
    name = new.name_hint
    old.replace_all_uses_with(new)
    new.name_hint = name


def _emptied(block: Block) -> list[Operation]:
    """The ops of ``block``, detached from it."""
    return [block.detach_op(op) for op in list(block.ops)]


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
