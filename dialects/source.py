"""Reading and checking IR text with source locations.

``parse_module`` gives every operation a ``FileLineColLoc`` naming where it was
written, so that verifier errors, pass diagnostics and simulator reports can point
back at the source. ``verify_module`` verifies op by op and reports the first failure
at that op's location. Both raise ``KtcError``.
"""

from contextlib import contextmanager

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Span

from ktc.dialects.diagnostics import KtcError, file_loc, where


class LocatedParser(Parser):
    """xDSL's parser, recording each op's ``file:line:col``.

    A type or attribute that fails its verifier while being built is reported as a
    parse error where it was written (or, failing that, where its op starts).
    """

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


def verify_module(module: ModuleOp) -> None:
    """Verify every op; the first failure becomes a ``KtcError`` at that op."""
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException as err:
            raise KtcError(_message(err), where(op)) from None


def _message(err: DiagnosticException) -> str:
    cause = err.__cause__ or err.__context__
    text = str(cause if isinstance(cause, DiagnosticException) else err)
    return text.removeprefix("Operation does not verify: ").strip()


def _first_line(err: Exception) -> str:
    return str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
