"""``scf`` as real KTIR writes it: ``scf.for ... iter_args(...) -> T`` with a bare
result type, printed as MLIR does; ``scf.execute_region -> T`` printed without
parentheses; ``scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%v) -> T`` in MLIR's
custom form (xDSL's has none); ``scf.forall (%i, %j) in (4, %n)`` (or ``= (lbs) to
(ubs) step (steps)``, each bound a constant or a value) with its implicit
``scf.forall.in_parallel`` terminator, which xDSL lacks.
"""

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, DenseArrayBase, IndexType, i64
from xdsl.dialects.utils import parse_assignment, print_assignment
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
    ensure_terminator,
)

from ktc.dialects.upstream import replacing

def _parse_arrow_types(parser: Parser) -> list[Attribute]:
    """MLIR's arrow type list: ``(T, U)`` or one bare ``T``."""
    types = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    return [parser.parse_type()] if types is None else types


class ForOp(scf.ForOp):
    """``scf.for``, whose ``iter_args(...) -> T`` may name one result type bare."""

    @classmethod
    def parse(cls, parser: Parser) -> "ForOp":
        indvar = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        bounds: list[UnresolvedOperand] = [parser.parse_unresolved_operand()]
        for keyword in ("to", "step"):
            parser.parse_keyword(keyword)
            bounds.append(parser.parse_unresolved_operand())
        pos = parser.pos
        assignments = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args"):
            assignments = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            )
            parser.parse_punctuation("->")
            types = _parse_arrow_types(parser)
        inits = parser.resolve_operands([value for _, value in assignments], types, pos)
        indvar_type = parser.parse_type() if parser.parse_optional_punctuation(":") else IndexType()
        lb, ub, step = (parser.resolve_operand(bound, indvar_type) for bound in bounds)
        arguments = [
            indvar.resolve(indvar_type),
            *(arg.resolve(t) for (arg, _), t in zip(assignments, types, strict=True)),
        ]
        body = parser.parse_region(arguments)
        op = cls(lb, ub, step, inits, body)
        op.attributes |= parser.parse_optional_attr_dict()
        if not inits:
            for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
                ensure_terminator(op, trait)
        return op

    def print(self, printer: Printer) -> None:
        """As MLIR prints it, down to the two spaces it puts before ``: i32``."""
        indvar, *iter_args = self.body.block.args
        printer.print_string(" ")
        printer.print_ssa_value(indvar)
        for keyword, value in (("=", self.lb), ("to", self.ub), ("step", self.step)):
            printer.print_string(f" {keyword} ")
            printer.print_ssa_value(value)
        if iter_args:
            printer.print_string(" iter_args(")
            printer.print_list(
                zip(iter_args, self.iter_args, strict=True),
                lambda pair: print_assignment(printer, *pair),
            )
            printer.print_string(") -> (")
            printer.print_list(self.result_types, printer.print_attribute)
            printer.print_string(")")
        if not isinstance(indvar.type, IndexType):
            printer.print_string("  : ")
            printer.print_attribute(indvar.type)
        printer.print_string(" ")
        printer.print_region(
            self.body,
            print_entry_block_args=False,
            print_empty_block=False,
            print_block_terminators=bool(iter_args),
        )
        printer.print_op_attributes(self.attributes)


class ParallelOp(scf.ParallelOp):
    """``scf.parallel`` in MLIR's form: ``(%ivs) = (lbs) to (ubs) step (steps)``, an
    optional ``init (values)`` and ``-> types``, the body, the attr-dict."""

    @classmethod
    def parse(cls, parser: Parser) -> "ParallelOp":
        paren = parser.Delimiter.PAREN
        ivs = parser.parse_comma_separated_list(paren, lambda: parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        bounds = [parser.parse_comma_separated_list(paren, parser.parse_unresolved_operand)]
        for keyword in ("to", "step"):
            parser.parse_keyword(keyword)
            bounds.append(parser.parse_comma_separated_list(paren, parser.parse_unresolved_operand))
        pos = parser.pos
        inits: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("init"):
            inits = parser.parse_comma_separated_list(paren, parser.parse_unresolved_operand)
        types = _parse_arrow_types(parser) if parser.parse_optional_punctuation("->") else []
        values = parser.resolve_operands(inits, types, pos)
        lbs, ubs, steps = ([parser.resolve_operand(b, IndexType()) for b in group] for group in bounds)
        body = parser.parse_region([iv.resolve(IndexType()) for iv in ivs])
        op = cls(lbs, ubs, steps, body, values)
        op.attributes |= parser.parse_optional_attr_dict()
        for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
            ensure_terminator(op, trait)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.body.block.args, printer.print_ssa_value)
        printer.print_string(")")
        for keyword, values in (("=", self.lowerBound), ("to", self.upperBound), ("step", self.step)):
            printer.print_string(f" {keyword} (")
            printer.print_list(values, printer.print_ssa_value)
            printer.print_string(")")
        if self.initVals:
            printer.print_string(" init (")
            printer.print_list(self.initVals, printer.print_ssa_value)
            printer.print_string(") -> ")
            _print_arrow_types(printer, self.res.types)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class InParallelOp(IRDLOperation):
    """``scf.forall.in_parallel``: the terminator of an ``scf.forall``, its region the
    parallel inserts into the shared outputs (empty without them)."""

    name = "scf.forall.in_parallel"
    region = region_def("single_block")
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(ForallOp)))

    def __init__(self, region: Region | None = None):
        super().__init__(regions=[region if region is not None else Region(Block())])

    @classmethod
    def parse(cls, parser: Parser) -> "InParallelOp":
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        return cls(region)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.region)


@irdl_op_definition
class ForallOp(IRDLOperation):
    """``scf.forall``: its body once per point of the box of its bounds, in any order
    (the iterations are independent). A bound is a constant (``static_*``) or, where
    that holds ``DYNAMIC_INDEX``, the next of the ``dynamic*`` operands."""

    name = "scf.forall"
    dynamicLowerBound = var_operand_def(IndexType)
    dynamicUpperBound = var_operand_def(IndexType)
    dynamicStep = var_operand_def(IndexType)
    outputs = var_operand_def()
    staticLowerBound = prop_def(DenseArrayBase.constr(i64))
    staticUpperBound = prop_def(DenseArrayBase.constr(i64))
    staticStep = prop_def(DenseArrayBase.constr(i64))
    mapping = opt_prop_def(ArrayAttr)
    res = var_result_def()
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(SingleBlockImplicitTerminator(InParallelOp), RecursiveMemoryEffect())

    def bounds(self) -> list[tuple[int | SSAValue, int | SSAValue, int | SSAValue]]:
        """Per induction variable its lower bound, upper bound and step."""
        columns = []
        for static, dynamic in ((self.staticLowerBound, self.dynamicLowerBound),
                                (self.staticUpperBound, self.dynamicUpperBound),
                                (self.staticStep, self.dynamicStep)):
            operands = iter(dynamic)
            columns.append([next(operands) if n == DYNAMIC_INDEX else n for n in static.get_values()])
        return list(zip(*columns))

    @classmethod
    def parse(cls, parser: Parser) -> "ForallOp":
        paren = parser.Delimiter.PAREN
        ivs = parser.parse_comma_separated_list(paren, lambda: parser.parse_argument(expect_type=False))
        groups = []
        if parser.parse_optional_keyword("in"):
            groups = [[0] * len(ivs), _parse_mixed(parser), [1] * len(ivs)]
        else:
            parser.parse_punctuation("=")
            groups.append(_parse_mixed(parser))
            for keyword in ("to", "step"):
                parser.parse_keyword(keyword)
                groups.append(_parse_mixed(parser))
        pos = parser.pos
        outs = []
        if parser.parse_optional_keyword("shared_outs"):
            outs = parser.parse_comma_separated_list(paren, lambda: parse_assignment(parser))
        types = _parse_arrow_types(parser) if parser.parse_optional_punctuation("->") else []
        values = parser.resolve_operands([value for _, value in outs], types, pos)
        arguments = [iv.resolve(IndexType()) for iv in ivs]
        arguments += [arg.resolve(t) for (arg, _), t in zip(outs, types, strict=True)]
        body = parser.parse_region(arguments)
        properties = {}
        dynamic = []
        for key, group in zip(("staticLowerBound", "staticUpperBound", "staticStep"), groups):
            properties[key] = DenseArrayBase.from_list(
                i64, [DYNAMIC_INDEX if isinstance(b, UnresolvedOperand) else b for b in group])
            dynamic.append([parser.resolve_operand(b, IndexType()) for b in group
                            if isinstance(b, UnresolvedOperand)])
        extra = parser.parse_optional_attr_dict()
        if "mapping" in extra:
            properties["mapping"] = extra.pop("mapping")
        block = body.block
        if block.last_op is None or not block.last_op.has_trait(IsTerminator):
            block.add_op(InParallelOp())
        return cls.build(operands=[*dynamic, values], result_types=[types], regions=[body],
                         properties=properties, attributes=extra)

    def print(self, printer: Printer) -> None:
        ivs, outs = self.body.block.args[:len(self.staticStep)], self.body.block.args[len(self.staticStep):]
        printer.print_string(" (")
        printer.print_list(ivs, printer.print_ssa_value)
        lows, highs, steps = zip(*self.bounds())
        normalized = all(b == 0 for b in lows) and all(b == 1 for b in steps)
        parts = [(") in (", highs)] if normalized else [
            (") = (", lows), (") to (", highs), (") step (", steps)]
        for keyword, column in parts:
            printer.print_string(keyword)
            printer.print_list(column, lambda b: printer.print_ssa_value(b)
                               if isinstance(b, SSAValue) else printer.print_string(str(b)))
        printer.print_string(")")
        if outs:
            printer.print_string(" shared_outs(")
            printer.print_list(zip(outs, self.outputs), lambda pair: print_assignment(printer, *pair))
            printer.print_string(") -> ")
            _print_arrow_types(printer, self.res.types)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False,
                             print_block_terminators=bool(outs))
        if self.mapping is not None:
            printer.print_string(" {mapping = ")
            printer.print_attribute(self.mapping)
            printer.print_string("}")
        printer.print_op_attributes(self.attributes)


def _parse_mixed(parser: Parser) -> list[int | UnresolvedOperand]:
    """``(4, %n, ...)``: constants and values."""
    def entry() -> int | UnresolvedOperand:
        number = parser.parse_optional_integer()
        return number if number is not None else parser.parse_unresolved_operand()
    return parser.parse_comma_separated_list(parser.Delimiter.PAREN, entry)


class ExecuteRegionOp(scf.ExecuteRegionOp):
    def print(self, printer: Printer) -> None:
        if self.outs:
            printer.print_string(" -> ")
            _print_arrow_types(printer, self.outs.types)
        printer.print_string(" ")
        printer.print_region(
            self.region, print_entry_block_args=False, print_block_terminators=bool(self.outs)
        )
        printer.print_op_attributes(self.attributes)


def _print_arrow_types(printer: Printer, types: Sequence[Attribute]) -> None:
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    with printer.in_parens():
        printer.print_list(types, printer.print_attribute)


def dialect() -> Dialect:
    """xDSL's scf with the ops above in place of its own."""
    return replacing(scf.Scf, [ForOp, ExecuteRegionOp, ParallelOp, ForallOp, InParallelOp])
