"""Reading and checking IR text with source locations.

``parse_module`` gives every operation a ``FileLineColLoc`` naming where it was
written, so that verifier errors, pass diagnostics and simulator reports can point
back at the source. ``verify_module`` verifies op by op and reports the first failure
at that op's location. Both raise ``KtcError``. ``split_input`` cuts a file at its
``// -----`` markers the way ``--split-input-file`` does.
"""

import re
import struct
import sys
from contextlib import contextmanager, nullcontext
from importlib import import_module
from dataclasses import dataclass
from types import ModuleType

from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, BFloat16Type, ModuleOp, UnknownLoc
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.parser import Parser, ParserState, UnresolvedOperand
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from ktc.dialects.diagnostics import KtcError, file_loc, where

SPLIT_MARKER = "// -----"


class LinearLexer(MLIRLexer):
    """xDSL's lexer with a string-literal pattern that cannot backtrack exponentially:
    xDSL's own hangs on a long line holding an unterminated string or a bad escape."""

    _unescaped_characters_regex = re.compile(
        r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
    )


BIT_FORMATS = {16: "<e", 32: "<f", 64: "<d"}
"""The struct formats of the IEEE float widths (bf16: the top half of an f32)."""


def _is_hex_integer(element) -> bool:
    return (type(element.value) is int and not element.is_negative
            and element.span.text[:2] in ("0x", "0X"))


def _float_of_bits(bits: int, float_type: AnyFloat, parser, span: Span) -> float:
    """The value of the ``float_type`` whose bit pattern is ``bits``."""
    width = float_type.bitwidth
    if isinstance(float_type, BFloat16Type):
        bits, width = bits << 16, 32
    if width not in BIT_FORMATS or bits >> width:
        parser.raise_error(f"hexadecimal float constant out of range for type ({span.text} for "
                           f"{float_type})", at_position=span)
    return struct.unpack(BIT_FORMATS[width], bits.to_bytes(width // 8, "little"))[0]


class LocatedParser(Parser):
    """xDSL's parser, recording each op's ``file:line:col``.

    A type or attribute that fails its verifier while being built is reported as a
    parse error where it was written (or, failing that, where its op starts); so is any
    other exception an op's builder raises on operands it cannot take (xDSL asserts,
    or raises ``ValueError`` for an integer out of range). As in MLIR, an empty input is
    an empty module, a value that is never defined is reported at its first use, and a
    value defined inside a region does not resolve a use written before the region
    (xDSL's parser would bind the two and leave the use without an owner).
    """

    @dataclass
    class _TensorLiteralElement(Parser._TensorLiteralElement):
        """A dense literal's element; a hexadecimal integer given for a float type is
        the float's bit pattern, as in MLIR (``dense<0xFC00> : tensor<4xf16>`` is
        -inf; xDSL would read 64512.0)."""

        def to_type(self, parser, type):
            if isinstance(type, AnyFloat) and _is_hex_integer(self):
                return _float_of_bits(self.value, type, parser, self.span)
            return super().to_type(parser, type)

    def __init__(self, ctx: Context, input: str, name: str) -> None:
        super().__init__(ctx, "", name)  # then replace the lexer xDSL built
        self._parser_state = ParserState(LinearLexer(Input(input, name)))
        self.first_uses: dict[str, Span] = {}
        self.pending_at_region: list[frozenset[str]] = []
        """The values used but not yet defined when each enclosing region opened."""

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        if self._current_token.kind == MLIRTokenKind.EOF:
            return ModuleOp([])
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as err:
            if not err.msg.startswith("values used but not defined"):
                raise
            name = next(iter(self.forward_ssa_references))
            raise ParseError(
                self.first_uses[name], f"use of undeclared SSA value name %{name}"
            ) from None

    def resolve_operand(self, operand: UnresolvedOperand, type: Attribute) -> SSAValue:
        if operand.operand_name not in self.ssa_values:
            self.first_uses.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def parse_optional_region(self, arguments=None):
        self.pending_at_region.append(frozenset(self.forward_ssa_references))
        try:
            return super().parse_optional_region(arguments)
        finally:
            self.pending_at_region.pop()

    def _register_ssa_definition(self, name: str, values, span: Span) -> None:
        if self.pending_at_region and name in self.pending_at_region[-1]:
            raise ParseError(self.first_uses.get(name, span),
                             f"use of undeclared SSA value name %{name} (its definition "
                             "inside a region is not visible here)")
        super()._register_ssa_definition(name, values, span)

    def _parse_block(self) -> Block:
        if self._current_token.kind != MLIRTokenKind.CARET_IDENT:
            self.raise_error("expected an operation or '}' to close the region")
        return super()._parse_block()

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        with self._verify_errors_at(start):
            op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            where = start.get_location()
            op.location = file_loc(self.lexer.input.name, where.line, where.col)
        return op

    def _parse_dialect_type_or_attribute_body(self, *args, **kwargs):
        with self._verify_errors_at(self._current_token.span):
            return super()._parse_dialect_type_or_attribute_body(*args, **kwargs)

    @contextmanager
    def _verify_errors_at(self, span: Span):
        try:
            yield
        except VerifyException as err:
            raise ParseError(span, str(err)) from None
        except (ParseError, DiagnosticException):
            raise
        except Exception as err:  # an op or attribute builder refusing its operands
            raise ParseError(span, _builder_message(span, err)) from None


def _builder_message(span: Span, err: Exception) -> str:
    """What a builder that raised ``err`` on the op or attribute written at ``span``
    refused, in one sentence."""
    text = span.input.content[span.start:span.start + 200]
    name = re.match(r'\s*(?:%[^=]*=\s*)?"?([\w.$-]+)', text)
    what = f"'{name.group(1)}'" if name else "this"
    detail = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return f"{what} cannot be built from its operands and types as written ({detail})"


def parse_error(err: ParseError) -> KtcError:
    return KtcError(err.msg, str(err.span.get_location()))


def parse_module(
    text: str, filename: str = "<stdin>", ctx: Context | None = None, first_line: int = 1
) -> ModuleOp:
    """Parse a module; ``first_line`` numbers the text's first line (for split files)."""
    from ktc.dialects import context

    padded = "\n" * (first_line - 1) + text
    try:
        return LocatedParser(ctx or context(), padded, filename).parse_module()
    except ParseError as err:
        raise parse_error(err) from None
    except DiagnosticException as err:
        raise KtcError(_first_line(err), filename) from None


def split_input(text: str) -> list[tuple[int, str]]:
    """The chunks of ``text`` between ``// -----`` markers (found anywhere in a line,
    as MLIR finds them), each with the number of its first line."""
    chunks, line = [], 1
    for chunk in text.split(SPLIT_MARKER):
        chunks.append((line, chunk))
        line += chunk.count("\n")
    return chunks


def verify_module(module: ModuleOp) -> None:
    """Verify every op, and the attributes of ktc's dialects it carries (a dialect's
    ``verify_attributes``); the first failure becomes a ``KtcError`` at that op."""
    from ktc.dialects import KTC_DIALECTS

    dialects = {name: sys.modules.get(f"ktc.dialects.{name}") for name in KTC_DIALECTS}
    order: dict[Block, dict[Operation, int]] = {}
    dfir = dialects.get("dfir")  # not loaded: the module holds no dfir op to pair
    with nullcontext() if dfir is None else dfir.pair_index():
        _verify_ops(module, dialects, order)


def _verify_ops(module: ModuleOp, dialects: dict, order: dict[Block, dict[Operation, int]]) -> None:
    """``verify_module``'s walk: every op, its attributes, its operands' definitions."""
    for op in module.walk():
        _check_definitions_first(op, order)
        try:
            op.verify(verify_nested_ops=False)
            if op.attributes:
                _verify_attributes(op, dialects)
        except DiagnosticException as err:
            raise KtcError(_op_message(op, _message(err)), where(op)) from None
        except Exception as err:  # a verifier that crashed on IR it did not expect
            detail = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise KtcError(_op_message(op, f"is malformed: its verifier failed ({detail})"),
                           where(op)) from None


def _check_definitions_first(op: Operation, order: dict[Block, dict[Operation, int]]) -> None:
    """Every operand of ``op`` defined by an op in an enclosing block is defined
    earlier in that block (xDSL's verifier does not check dominance; its parser
    already refuses a use outside the defining region). ``order`` caches each
    block's op positions."""
    for operand in op.operands:
        if not isinstance(operand, OpResult):
            continue
        definer = operand.op
        block = definer.parent_block()
        user = op
        while user is not None and user.parent_block() is not block:
            user = user.parent_op()
        if user is None:
            continue
        positions = order.get(block)
        if positions is None:
            positions = order[block] = {o: i for i, o in enumerate(block.ops)}
        if positions[definer] >= positions[user]:
            raise KtcError(_op_message(op, f"uses {_name(operand)} before its definition "
                                       f"(at {where(definer)})"), where(op))


def _name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else "a value"


def _verify_attributes(op: Operation, dialects: dict[str, ModuleType | None]) -> None:
    """Run ``verify_attributes`` of every ktc dialect in ``dialects`` that is loaded
    or that declares one of ``op``'s attributes (``ktdf.address``, ``loop_type``:
    loaded now)."""
    from ktc.dialects import UNPREFIXED_ATTRIBUTES

    owners = {UNPREFIXED_ATTRIBUTES.get(key, key.partition(".")[0]) for key in op.attributes}
    for name in owners & dialects.keys():
        dialects[name] = dialects[name] or import_module(f"ktc.dialects.{name}")
    for dialect in dialects.values():
        if dialect is not None and hasattr(dialect, "verify_attributes"):
            dialect.verify_attributes(op)


def _op_message(op: Operation, message: str) -> str:
    """``message`` after ``'<op name>' op``, as MLIR prints verifier errors, unless
    it already starts by naming the op (as xDSL's trait checks do:
    ``'dfir.unit' expects parent op ...``)."""
    name = f"'{op.name}'"
    if message.startswith(name):
        return message
    return f"{name} op {message}"


def _message(err: DiagnosticException) -> str:
    """The verifier's message on one line. xDSL words a failed constraint as what it
    checked, a line break, and the cause (``operand 'x' at position 0 does not
    verify:`` then ``f16 should be of base attribute tensor``): both are kept."""
    text = str(err).removeprefix("Operation does not verify: ")
    return " ".join(line.strip() for line in text.strip().splitlines())


def _first_line(err: Exception) -> str:
    return str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
