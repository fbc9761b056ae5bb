"""Printing IR the way MLIR prints it.

``print_ir`` writes what ``mlir-opt`` writes for the same IR, where xDSL's own printer
differs:

- affine maps and integer sets in canonical form (``-d0 + s0 - 1 >= 0``), named at
  the top of the output by ``#map``, ``#map1``, ..., ``#set``, ... aliases wherever
  they are printed as attributes;
- elements of arrays without their type when it is ``i64`` or ``f64`` (``[32, 1]``);
- attribute dictionaries sorted by name;
- an op's dialect prefix elided inside an op whose default dialect it is (``module``
  at the top, ``return`` and ``call`` inside ``func.func``, ``memory`` inside
  ``ktdf_arch.device``);
- float constants in MLIR's (APFloat's) notation: ``9.99999974E-6``, ``0xFC00``;
- results sharing a name as one group (``%r:2``, used as ``%r#0``), and a
  ``// pred: ^bb0`` comment after the label of a block with predecessors.

Affine expressions are printed from a normal form (terms in the order they first
appear, dimension terms before symbol-only ones, the constant last, a leading
``d1 + d0`` swapped as MLIR swaps it), so that the printed text reads back to the same
text, in ktc and in mlir-opt, whatever shape xDSL built the tree in. Where xDSL has
already multiplied out a product of a sum (``(d0 + 1) * 4``), the expanded form prints.
SSA values are named as MLIR names them (see ``SsaNames``), except that the names
written in the source are kept.
"""

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from io import StringIO

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    AnyFloat,
    ArrayAttr,
    FloatAttr,
    IntegerAttr,
    UnregisteredOp,
    f64,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSet,
    AffineSymExpr,
)
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove

DEFAULT_DIALECTS = {
    "builtin.module": "builtin",
    "func.func": "func",
    "pdl.pattern": "pdl",
    "pdl.rewrite": "pdl",
    "ktdf_arch.device": "ktdf_arch",
    "ktdf_arch.group": "ktdf_arch",
}
"""Ops whose regions print the ops of one dialect without its prefix (MLIR's
``OpAsmOpInterface::getDefaultDialect``); every other op resets it."""

FLOAT_PRECISION = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}
"""Significand bits (with the implicit one) of the float types printed as MLIR does."""

ALIAS_PREFIXES = {AffineMapAttr: "map", AffineSetAttr: "set"}
"""Attributes that MLIR's builtin dialect names by an alias, and the alias's stem."""


def print_ir(op: Operation, generic: bool = False) -> str:
    """The text of ``op`` (usually a module), ending in a newline."""
    names = SsaNames.of(op)
    collector = MlirPrinter(StringIO(), generic, names)
    collector.print_op(op)
    out = StringIO()
    printer = MlirPrinter(out, generic, names, _alias_names(collector.aliasable))
    for text, name in printer.aliases.items():
        out.write(f"#{name} = {text}\n")
    printer.print_op(op)
    return out.getvalue().rstrip("\n") + "\n"


class MlirPrinter(Printer):
    """xDSL's printer, writing what MLIR writes.

    ``aliases`` maps the text of an aliasable attribute to its alias name; a printer
    given none records every aliasable attribute it prints, in order, in
    ``aliasable``, so that a first pass can number them as MLIR does.
    """

    def __init__(
        self,
        stream: StringIO,
        generic: bool,
        names: "SsaNames",
        aliases: dict[str, str] | None = None,
    ):
        super().__init__(stream=stream, print_generic_format=generic)
        self.names = names
        self.aliases = aliases
        self.aliasable: list[tuple[str, str]] = []
        self._default_dialect = "builtin"

    def print_op(self, op: Operation) -> None:
        if (
            self.print_generic_format
            or isinstance(op, UnregisteredOp)
            or type(op).print is Operation.print
        ):
            with self._default_dialect_of(""):
                if self.aliases is None:
                    self._visit_generic(op)
                else:
                    super().print_op(op)
            return
        scope = op.has_trait(IsolatedFromAbove)
        self._print_results(op)
        if scope:
            self.enter_scope()
        self.print_string(self._short_name(op.name))
        with self._default_dialect_of(DEFAULT_DIALECTS.get(op.name, "")):
            op.print(self)
        if scope:
            self.exit_scope()

    def _visit_generic(self, op: Operation) -> None:
        """Meet the attributes of an op printed generically in the order MLIR's alias
        collection meets them: regions first, then types, then attributes by name."""
        for region in op.regions:
            self.print_region(region)
        for attribute in (*op.operand_types, *op.result_types):
            self.print_attribute(attribute)
        for _, attribute in sorted((op.properties | op.attributes).items()):
            self.print_attribute(attribute)

    def print_ssa_value(self, value: SSAValue) -> str:
        name = self.names.values.get(value)
        if name is None:
            return super().print_ssa_value(value)
        self.print_string(f"%{name}")
        return name

    def shadow_region_args(self, region: Region, names: Sequence[str]) -> None:
        """Print the entry arguments of ``region`` under ``names`` (usually the names
        of the outer values they stand for), as MLIR's
        ``OpAsmPrinter::shadowRegionArgs`` does for an op whose syntax does not print
        its region's arguments."""
        self.names.values.update(zip(region.block.args, names))

    def _print_results(self, op: Operation) -> None:
        groups = self.names.groups.get(op)
        if groups is None:
            super()._print_results(op)
            return
        if not groups:
            return
        self.print_string(
            ", ".join(f"%{name}:{size}" if size > 1 else f"%{name}" for name, size in groups)
        )
        self.print_string(" = ")

    def print_block(
        self, block: Block, print_block_args: bool = True, print_block_terminator: bool = True
    ) -> None:
        """A block, its label followed by MLIR's comment naming its predecessors."""
        if print_block_args:
            self._print_new_line()
            self.print_block_name(block)
            if block.args:
                with self.in_parens():
                    self.print_list(block.args, self.print_block_argument)
            self.print_string(":" + _predecessors_comment(block, self._blocks))
        super().print_block(
            block, print_block_args=False, print_block_terminator=print_block_terminator
        )

    def print_float(self, value: float, type: AnyFloat) -> None:
        if type.name not in FLOAT_PRECISION:
            super().print_float(value, type)
            return
        self.print_string(float_text(value, type))

    def print_attribute(self, attribute: Attribute) -> None:
        text = _affine_text(attribute)
        if text is None:
            self._print_plain_attribute(attribute)
            return
        if self.aliases is None:
            self.aliasable.append((ALIAS_PREFIXES[type(attribute)], text))
        if self.aliases and text in self.aliases:
            self.print_string(f"#{self.aliases[text]}")
            return
        self.print_string(text)

    def print_attr_dict(self, attr_dict) -> None:
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    def _print_plain_attribute(self, attribute: Attribute) -> None:
        if not isinstance(attribute, ArrayAttr):
            super().print_attribute(attribute)
            return
        with self.in_square_brackets():
            self.print_list(attribute.data, self._print_element)

    def _print_element(self, attribute: Attribute) -> None:
        """An array element: MLIR elides the type of ``i64`` and ``f64`` elements."""
        if isinstance(attribute, IntegerAttr | FloatAttr) and attribute.type in (i64, f64):
            attribute.print_without_type(self)
            return
        self.print_attribute(attribute)

    def _short_name(self, name: str) -> str:
        dialect, _, rest = name.partition(".")
        return rest if dialect == self._default_dialect and "." not in rest else name

    @contextmanager
    def _default_dialect_of(self, dialect: str) -> Iterator[None]:
        outer, self._default_dialect = self._default_dialect, dialect
        try:
            yield
        finally:
            self._default_dialect = outer


@dataclass
class _Counters:
    """Where MLIR's numbering stands: the next value, entry-argument and conflict ids."""

    value: int = 0
    argument: int = 0
    conflict: int = 0


@dataclass
class SsaNames:
    """MLIR's SSA naming (``SSANameState``), with the names written in the source
    (xDSL's name hints) where MLIR would use an op's suggested names.

    A region's values are named before the regions nested in it, and every nested
    region continues from the same point, so sibling regions reuse names; a name
    already taken in an enclosing region gets MLIR's ``_N`` suffix. Unnamed entry
    block arguments are ``%argN`` (counting on from any ``%argN`` in the source),
    other unnamed values are numbered. Results of one
    op that share a name form a group, ``%r:2``, used as ``%r#0`` and ``%r#1``.
    """

    values: dict[SSAValue, str] = field(default_factory=dict)
    groups: dict[Operation, list[tuple[str, int]]] = field(default_factory=dict)

    @staticmethod
    def of(op: Operation) -> "SsaNames":
        names = SsaNames()
        counters, used = _Counters(), [set[str]()]
        names._name_results(op, counters, used)
        for region in op.regions:
            names._name_region(region, replace(counters), used)
        return names

    def _name_region(self, region: Region, counters: _Counters, used: list[set[str]]) -> None:
        used = [*used, set()]
        for block in region.blocks:
            self._name_arguments(block, counters, used)
            for op in block.ops:
                self._name_results(op, counters, used)
        for block in region.blocks:
            for op in block.ops:
                for nested in op.regions:
                    self._name_region(nested, replace(counters), used)

    def _name_arguments(self, block: Block, counters: _Counters, used: list[set[str]]) -> None:
        entry = block.parent is not None and block is block.parent.first_block
        for arg in sorted(block.args, key=lambda arg: arg.name_hint is None):
            if arg.name_hint is not None:
                self.values[arg] = _unique(arg.name_hint, counters, used)
                if entry and (number := _argument_number(arg.name_hint)) is not None:
                    counters.argument = max(counters.argument, number + 1)
            elif entry:
                self.values[arg] = _unique(f"arg{counters.argument}", counters, used)
                counters.argument += 1
            else:
                self.values[arg] = str(counters.value)
                counters.value += 1

    def _name_results(self, op: Operation, counters: _Counters, used: list[set[str]]) -> None:
        groups: list[tuple[str, int]] = []
        for result in op.results:
            if groups and result.name_hint == op.results[result.index - 1].name_hint:
                name, size = groups[-1]
                groups[-1] = (name, size + 1)
                continue
            if result.name_hint is not None:
                groups.append((_unique(result.name_hint, counters, used), 1))
            else:
                groups.append((str(counters.value), 1))
                counters.value += 1
        self.groups[op] = groups
        results = iter(op.results)
        for name, size in groups:
            for index in range(size):
                self.values[next(results)] = name if size == 1 else f"{name}#{index}"


def _argument_number(name: str) -> int | None:
    """N for a name ``argN``: such a name in the source is taken as MLIR's own."""
    digits = name.removeprefix("arg")
    return int(digits) if digits != name and digits.isdigit() else None


def _unique(name: str, counters: _Counters, used: list[set[str]]) -> str:
    """``name``, or ``name_N`` with MLIR's running conflict number if it is taken."""
    candidate = name
    while any(candidate in scope for scope in used):
        candidate = f"{name}_{counters.conflict}"
        counters.conflict += 1
    used[-1].add(candidate)
    return candidate


def _predecessors_comment(block: Block, names: dict[Block, str]) -> str:
    region = block.parent
    if region is None or block is region.first_block and not block.uses:
        return ""
    order = {b: index for index, b in enumerate(region.blocks)}
    preds = sorted(
        (use.operation.parent_block() for use in block.uses), key=lambda b: order.get(b, -1)
    )
    if not preds:
        return "  // no predecessors"
    if len(set(preds)) == 1:
        return f"  // pred: ^{names[preds[0]]}"
    return f"  // {len(preds)} preds: " + ", ".join(f"^{names[pred]}" for pred in preds)


def float_text(value: float, type: AnyFloat) -> str:
    """MLIR's ``printFloatValue``: six significant digits in exponent form when they
    read back to the same value, else APFloat's shortest exact form, else hex bits."""
    if not (math.isnan(value) or math.isinf(value)):
        text = _apfloat_text(value, 6, max_padding=0)
        if type.round(float(text)) == value:
            return text
        text = _apfloat_text(value, 2 + FLOAT_PRECISION[type.name] * 59 // 196, max_padding=3)
        if "." in text:
            return text
    return f"0x{int.from_bytes(type.pack((value,)), 'little'):X}"


def _apfloat_text(value: float, precision: int, max_padding: int) -> str:
    """LLVM's ``IEEEFloat::toString``; ``max_padding`` 0 is MLIR's exponent form with
    trailing zeros kept, 3 APFloat's default form."""
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return sign + ("0.0" + "0" * (precision - 1) + "e+00" if max_padding == 0 else "0")
    digits, exponent = _decimal_digits(Fraction(abs(value)), precision)
    count = len(digits)
    if max_padding == 0 or _exponent_form(count, exponent, precision, max_padding):
        power = exponent + count - 1
        power_sign = "+" if power >= 0 else "-"
        mantissa = digits[0] + "." + digits[1:]
        if max_padding == 0:
            mantissa += "0" * (precision - count + 1)
            return f"{sign}{mantissa}e{power_sign}{abs(power):02d}"
        return f"{sign}{mantissa if count > 1 else mantissa + '0'}E{power_sign}{abs(power)}"
    if exponent >= 0:
        return sign + digits + "0" * exponent
    whole = exponent + count
    if whole > 0:
        return f"{sign}{digits[:whole]}.{digits[whole:]}"
    return f"{sign}0.{'0' * -whole}{digits}"


def _exponent_form(count: int, exponent: int, precision: int, max_padding: int) -> bool:
    if exponent >= 0:
        return exponent > max_padding or count + exponent > precision
    leading = exponent + count - 1
    return leading < 0 and -leading > max_padding


def _decimal_digits(value: Fraction, precision: int) -> tuple[str, int]:
    """``value`` as at most ``precision`` digits (no trailing zeros) times 10**exponent,
    cut as APFloat cuts: whole excess digits dropped first, then rounded half up."""
    exponent = 0
    significand = value.numerator
    if value.denominator > 1:
        twos = value.denominator.bit_length() - 1
        significand, exponent = value.numerator * 5**twos, -twos
    excess = (significand.bit_length() - (precision * 196 + 58) // 59) * 59 // 196
    if excess > 0:
        significand //= 10**excess
        exponent += excess
    digits = str(significand)
    if len(digits) > precision:
        exponent += len(digits) - precision
        kept = int(digits[:precision])
        digits = str(kept + 1 if digits[precision] >= "5" else kept)
    stripped = digits.rstrip("0")
    return stripped, exponent + len(digits) - len(stripped)


def _alias_names(aliasable: list[tuple[str, str]]) -> dict[str, str]:
    """Text -> alias, numbered per stem in order of first use, stems sorted (MLIR's order)."""
    names: dict[str, str] = {}
    counts: dict[str, int] = {}
    for stem, text in sorted(dict.fromkeys(aliasable), key=lambda entry: entry[0]):
        count = counts.get(stem, 0)
        names[text] = stem if count == 0 else f"{stem}{count}"
        counts[stem] = count + 1
    return names


def _affine_text(attribute: Attribute) -> str | None:
    if isinstance(attribute, AffineMapAttr):
        return f"affine_map<{affine_map_text(attribute.data)}>"
    if isinstance(attribute, AffineSetAttr):
        return f"affine_set<{affine_set_text(attribute.data)}>"
    return None


def affine_map_text(amap: AffineMap) -> str:
    """``(d0)[s0] -> (d0 + s0)``, as MLIR prints the body of an ``affine_map``."""
    results = ", ".join(affine_expr_text(expr) for expr in amap.results)
    return f"{_space_text(amap.num_dims, amap.num_symbols)} -> ({results})"


def affine_set_text(aset: AffineSet) -> str:
    """``(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)``; an empty set is ``(0 == 0)``."""
    constraints = ", ".join(_constraint_text(c) for c in aset.constraints) or "0 == 0"
    return f"{_space_text(aset.num_dims, aset.num_symbols)} : ({constraints})"


def _space_text(num_dims: int, num_symbols: int) -> str:
    dims = ", ".join(f"d{i}" for i in range(num_dims))
    symbols = ", ".join(f"s{i}" for i in range(num_symbols))
    return f"({dims})[{symbols}]" if num_symbols else f"({dims})"


def _constraint_text(constraint: AffineConstraintExpr) -> str:
    """Every constraint as MLIR keeps it: ``expr >= 0`` or ``expr == 0``."""
    lhs, rhs = constraint.lhs, constraint.rhs
    if constraint.kind == AffineConstraintKind.le:
        lhs, rhs = rhs, lhs
    relation = "==" if constraint.kind == AffineConstraintKind.eq else ">="
    return f"{affine_expr_text(lhs - rhs)} {relation} 0"


def affine_expr_text(expr: AffineExpr) -> str:
    """The canonical text of an affine expression, as MLIR prints it."""
    return "".join(str(token) for token in _tokens(canonical_expr(expr), strong=False))


def affine_subscript_tokens(expr: AffineExpr, num_dims: int) -> list[str | int]:
    """The canonical text of ``expr`` in pieces, with the operand number (dimensions
    first, then symbols) in place of each dimension and symbol."""
    return [
        token
        if isinstance(token, str)
        else token.position + (0 if isinstance(token, AffineDimExpr) else num_dims)
        for token in _tokens(canonical_expr(expr), strong=False)
    ]


def canonical_expr(expr: AffineExpr) -> AffineExpr:
    """``expr`` rebuilt from its normal form (see the module docstring)."""
    return _rebuild(_linear(expr))


def _rebuild(part: tuple[dict[AffineExpr, int], int]) -> AffineExpr:
    terms, constant = _fold_remainder(part)
    result: AffineExpr | None = None
    for term in _ordered(terms):
        scaled = (
            term
            if terms[term] == 1
            else AffineBinaryOpExpr(AffineBinaryOpKind.Mul, term, AffineConstantExpr(terms[term]))
        )
        result = (
            scaled if result is None else AffineBinaryOpExpr(AffineBinaryOpKind.Add, result, scaled)
        )
    if result is None:
        return AffineConstantExpr(constant)
    if constant == 0:
        return result
    return AffineBinaryOpExpr(AffineBinaryOpKind.Add, result, AffineConstantExpr(constant))


def _fold_remainder(part: tuple[dict[AffineExpr, int], int]) -> tuple[dict[AffineExpr, int], int]:
    """``e - (e floordiv c) * c`` as ``e mod c``, where e's first term was (MLIR folds it)."""
    terms, constant = part
    for term, coefficient in terms.items():
        if not (_is_kind(term, AffineBinaryOpKind.FloorDiv) and coefficient == -term.rhs.value):
            continue
        dividend, dividend_constant = _linear(term.lhs)
        if not all(terms.get(t) == c for t, c in dividend.items()):
            continue
        remainder = AffineBinaryOpExpr(AffineBinaryOpKind.Mod, term.lhs, term.rhs)
        folded: dict[AffineExpr, int] = {}
        for t, c in terms.items():
            if t in dividend:
                folded.setdefault(remainder, 1)
            elif t != term:
                folded[t] = c
        return _fold_remainder((folded, constant - dividend_constant))
    return part


def _is_kind(expr: AffineExpr, kind: AffineBinaryOpKind) -> bool:
    """Whether ``expr`` is ``kind`` by a constant (as every floordiv, ceildiv and mod here is)."""
    return (
        isinstance(expr, AffineBinaryOpExpr)
        and expr.kind == kind
        and isinstance(expr.rhs, AffineConstantExpr)
    )


def _ordered(terms: dict[AffineExpr, int]) -> list[AffineExpr]:
    """Terms with a dimension first, in order of appearance; and, as MLIR swaps them,
    ``d1 + d0`` (or ``s1 + s0``) leading the sum as ``d0 + d1``."""
    ordered = sorted(terms, key=_is_symbolic)
    if (
        len(ordered) > 1
        and _swapped(ordered[0], ordered[1])
        and terms[ordered[0]] == terms[ordered[1]] == 1
    ):
        ordered[0], ordered[1] = ordered[1], ordered[0]
    return ordered


def _swapped(first: AffineExpr, second: AffineExpr) -> bool:
    same_kind = type(first) is type(second) and isinstance(first, AffineDimExpr | AffineSymExpr)
    return same_kind and first.position > second.position


def _is_symbolic(term: AffineExpr) -> bool:
    return not any(isinstance(node, AffineDimExpr) for node in term.dfs())


def _linear(expr: AffineExpr) -> tuple[dict[AffineExpr, int], int]:
    """``expr`` as {term: coefficient} (first-appearance order, no zeros) and a constant.

    Terms are dimensions, symbols, and canonical floordiv / ceildiv / mod (or
    non-constant products) that cannot be split further.
    """
    if isinstance(expr, AffineConstantExpr):
        return {}, expr.value
    if not isinstance(expr, AffineBinaryOpExpr):
        return {expr: 1}, 0
    if expr.kind == AffineBinaryOpKind.Add:
        return _add(_linear(expr.lhs), _linear(expr.rhs))
    lhs, rhs = canonical_expr(expr.lhs), canonical_expr(expr.rhs)
    if expr.kind == AffineBinaryOpKind.Mul:
        if isinstance(lhs, AffineConstantExpr):
            lhs, rhs = rhs, lhs
        if isinstance(rhs, AffineConstantExpr):
            return _scale(_linear(lhs), rhs.value)
        return {AffineBinaryOpExpr(expr.kind, lhs, rhs): 1}, 0
    if isinstance(rhs, AffineConstantExpr) and rhs.value > 0:
        return _divide(expr.kind, _linear(lhs), rhs.value)
    return {AffineBinaryOpExpr(expr.kind, lhs, rhs): 1}, 0


def _add(*parts: tuple[dict[AffineExpr, int], int]) -> tuple[dict[AffineExpr, int], int]:
    terms: dict[AffineExpr, int] = {}
    for part_terms, _ in parts:
        for term, coefficient in part_terms.items():
            terms[term] = terms.get(term, 0) + coefficient
    return {t: c for t, c in terms.items() if c != 0}, sum(constant for _, constant in parts)


def _scale(
    part: tuple[dict[AffineExpr, int], int], factor: int
) -> tuple[dict[AffineExpr, int], int]:
    terms, constant = part
    if factor == 0:
        return {}, 0
    return {t: c * factor for t, c in terms.items()}, constant * factor


def _divide(
    kind: AffineBinaryOpKind, dividend: tuple[dict[AffineExpr, int], int], divisor: int
) -> tuple[dict[AffineExpr, int], int]:
    """``dividend floordiv|ceildiv|mod divisor``, with the multiples of ``divisor`` split off."""
    terms, constant = dividend
    quotient = {t: c // divisor for t, c in terms.items() if c % divisor == 0}
    rest = {t: c for t, c in terms.items() if c % divisor}
    if not rest:
        if kind == AffineBinaryOpKind.Mod:
            return {}, constant % divisor
        rounded = (
            -(-constant // divisor) if kind == AffineBinaryOpKind.CeilDiv else constant // divisor
        )
        return quotient, rounded
    if constant % divisor == 0:
        quotient_constant, constant = constant // divisor, 0
    else:
        quotient_constant = 0
    if kind == AffineBinaryOpKind.Mod and constant == 0 and len(rest) == 1:
        ((inner, coefficient),) = rest.items()
        if (
            coefficient == 1
            and _is_kind(inner, AffineBinaryOpKind.Mod)
            and inner.rhs.value % divisor == 0
        ):
            return _divide(kind, _linear(inner.lhs), divisor)
    term = AffineBinaryOpExpr(kind, _rebuild((rest, constant)), AffineConstantExpr(divisor))
    if kind == AffineBinaryOpKind.Mod:
        return {term: 1}, 0
    return _add((quotient, quotient_constant), ({term: 1}, 0))


def _tokens(expr: AffineExpr, strong: bool) -> Iterator[str | AffineDimExpr | AffineSymExpr]:
    """MLIR's ``printAffineExprInternal``, as text pieces and the dims and symbols
    between them; ``strong`` is a tightly binding context."""
    if isinstance(expr, AffineConstantExpr):
        yield str(expr.value)
        return
    if not isinstance(expr, AffineBinaryOpExpr):
        assert isinstance(expr, AffineDimExpr | AffineSymExpr)
        yield expr
        return
    if strong:
        yield "("
    yield from _sum_tokens(expr) if expr.kind == AffineBinaryOpKind.Add else _product_tokens(expr)
    if strong:
        yield ")"


def _product_tokens(expr: AffineBinaryOpExpr) -> Iterator[str | AffineDimExpr | AffineSymExpr]:
    if expr.kind == AffineBinaryOpKind.Mul and expr.rhs == AffineConstantExpr(-1):
        yield "-"
        yield from _tokens(expr.lhs, strong=True)
        return
    yield from _tokens(expr.lhs, strong=True)
    yield f" {expr.kind.get_token()} "
    yield from _tokens(expr.rhs, strong=True)


def _sum_tokens(expr: AffineBinaryOpExpr) -> Iterator[str | AffineDimExpr | AffineSymExpr]:
    """A sum; a negative term prints as a subtraction."""
    yield from _tokens(expr.lhs, strong=False)
    rhs = expr.rhs
    factor = (
        rhs.rhs
        if isinstance(rhs, AffineBinaryOpExpr) and rhs.kind == AffineBinaryOpKind.Mul
        else None
    )
    if factor == AffineConstantExpr(-1):
        yield " - "
        negated = rhs.lhs
        yield from _tokens(
            negated,
            isinstance(negated, AffineBinaryOpExpr) and negated.kind == AffineBinaryOpKind.Add,
        )
    elif isinstance(factor, AffineConstantExpr) and factor.value < -1:
        yield " - "
        yield from _tokens(rhs.lhs, strong=True)
        yield f" * {-factor.value}"
    elif isinstance(rhs, AffineConstantExpr) and rhs.value < 0:
        yield f" - {-rhs.value}"
    else:
        yield " + "
        yield from _tokens(rhs, strong=False)
