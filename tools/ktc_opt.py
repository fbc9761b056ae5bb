"""``ktc-opt``: the opt driver of ktc: every ktc dialect, pass and named pipeline (and
xDSL's own passes), MLIR's debugging flags and banners, and MLIR-style diagnostics.

Dialects and passes are registered as lazy factories: a run loads only the dialects
its input uses and the passes its pipeline names. Every flag ``--help`` lists works;
MLIR's spellings are accepted too: ``--mlir-print-ir-after-all`` and the other
``--mlir-*`` aliases, single-dash long options (``-split-input-file``), a pass named
as a flag (``-cse``) and ``--pass-pipeline='builtin.module(a,b)'``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import xdsl
from xdsl.dialects.builtin import ModuleOp

from ktc import __version__
from ktc.dialects import context
from ktc.dialects.printer import print_ir
from ktc.dialects.source import SPLIT_MARKER, parse_module, split_input, verify_module
from ktc.errors import KtcError, render
from ktc.files import write_atomically
from ktc.passes import PASSES, all_passes
from ktc.passes.pipeline import PIPELINES, apply_verified, expand
from ktc.tools.usage import Parser
from ktc.tools.verify_diagnostics import expectations, unmatched

if TYPE_CHECKING:
    from xdsl.passes import ModulePass

PACKAGE = Path(__file__).resolve().parent.parent

DESCRIPTION = """\
ktc-opt reads MLIR (KTIR, ScheduleIR, DataflowIR, arch files), verifies it, runs the
passes given with -p (a comma-separated pipeline, named pipelines expanded) and
prints the result in MLIR's spelling. Errors read file:line:col: error: ... and exit 1.
"""


class _Parser(Parser):
    """An argument parser whose help ends with ktc's passes and pipelines (read only
    when help is asked for)."""

    def format_help(self) -> str:
        self.epilog = _pass_listing()
        return super().format_help()


class _Version(argparse.Action):
    """``--version``: xDSL's version is read (from its package metadata) only when asked."""

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(f"ktc-opt {__version__} (xdsl {xdsl.__version__})\n")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ktc-opt", description=DESCRIPTION,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("input_file", nargs="?", metavar="FILE", help="the input (default: standard input)")
    add("-o", "--output-file", metavar="FILE", help="write the output here")
    add("-p", "--passes", default="", metavar="PIPELINE",
        help="passes to run, comma-separated: 'cse,ktir-to-schedule' (options in braces)")
    add("--pass-pipeline", metavar="PIPELINE",
        help="MLIR's form of -p: 'builtin.module(pass,pass{option=value})'")
    add("--arch", metavar="NAME|FILE", help="the device to compile for when the input declares none")
    add("--split-input-file", action="store_true",
        help="cut the input at '// -----' lines and process each chunk alone")
    add("--verify-diagnostics", action="store_true",
        help="check the diagnostics against the input's expected-error comments")
    add("--print-ir-after-all", "--mlir-print-ir-after-all", action="store_true",
        help="print the IR after every pass (on stderr), with MLIR's banner")
    add("--print-ir-before-all", "--mlir-print-ir-before-all", action="store_true",
        help="print the IR before every pass (on stderr), with MLIR's banner")
    add("--print-ir-tree-dir", "--mlir-print-ir-tree-dir", metavar="DIR",
        help="write the IR after every pass to DIR, one numbered file per pass")
    add("--print-op-generic", "--mlir-print-op-generic", action="store_true",
        help="print every op in the generic form")
    add("--time-passes", "--mlir-timing", action="store_true",
        help="print the time of parsing, each pass and printing (on stderr)")
    add("--disable-verify", action="store_true", help="do not verify the IR (after parsing and passes)")
    add("--allow-unregistered-dialect", action="store_true",
        help="accept ops of dialects ktc does not know")
    add("--list-passes", action="store_true", help="list every pass, xDSL's included, and exit")
    add("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
        help="show the versions of ktc-opt and xDSL and exit")
    add("--named-pass", dest="named_passes", action="append", default=[], help=argparse.SUPPRESS)
    return parser


def _pass_listing() -> str:
    """ktc's passes and named pipelines, a line each, for ``--help``."""
    width = max(len(name) for name in [*PASSES, *PIPELINES]) + 4
    lines = ["ktc's passes (-p NAME):"]
    lines += [_entry(name, _summary(module), width) for name, (module, _) in PASSES.items()]
    lines += ["", "named pipelines (-p NAME):"]
    for name, spec in PIPELINES.items():
        steps = [step.split("{")[0] for step in expand(spec).split(",")]
        lines.append(_entry(name, f"{len(steps)} passes: {', '.join(steps)}", width))
    lines += ["", "xDSL's own passes are available too: ktc-opt --list-passes lists them."]
    return "\n".join(lines)


def _entry(name: str, text: str, width: int) -> str:
    """``  name    text``, the text wrapped under itself."""
    import textwrap

    lines = textwrap.wrap(text, max(40, 100 - width))
    return "\n".join([f"  {name:<{width - 2}}{lines[0] if lines else ''}",
                      *(" " * width + line for line in lines[1:])])


def _summary(module: str) -> str:
    """The first sentence of a pass module's docstring, read without importing it."""
    path = PACKAGE / "passes" / f"{module}.py"
    if not path.is_file():
        path = PACKAGE / "passes" / module / "__init__.py"
    match = re.match(r'\s*"""(.*?)(?:\.\s|\.?""")', path.read_text(), re.DOTALL)
    text = " ".join(match.group(1).split()) if match else ""
    text = re.sub(r"^(?:The )?``[\w-]+``(?: pass)?: ", "", text).replace("``", "")
    return text[:1].upper() + text[1:]


def mlir_spellings(argv: list[str], parser: argparse.ArgumentParser) -> list[str]:
    """``argv`` with MLIR's spellings made ktc-opt's: ``-split-input-file`` becomes
    ``--split-input-file``; ``-cse`` (a pass named as a flag) joins the pipeline."""
    known = {option for option in parser._option_string_actions if option.startswith("--")}
    spelled = []
    for argument in argv:
        name = argument.split("=", 1)[0]
        if argument.startswith("--") or not argument.startswith("-") or len(name) < 3:
            spelled.append(argument)
        elif f"-{name}" in known:
            spelled.append(f"-{argument}")
        elif name[1:] in all_passes():
            spelled += ["--named-pass", name[1:]]
        else:
            spelled.append(argument)
    return spelled


def pipeline_spec(args: argparse.Namespace) -> str:
    """The pass spec of ``-p``, ``--pass-pipeline`` and passes named as flags."""
    parts = [args.passes] if args.passes else []
    if args.pass_pipeline:
        parts.append(_unwrap(args.pass_pipeline))
    parts += args.named_passes
    return ",".join(part for part in parts if part.strip())


def _unwrap(pipeline: str) -> str:
    """``builtin.module(a,b)`` -> ``a,b``; a spec without the wrapper is taken as it is."""
    text = pipeline.strip()
    for anchor in ("builtin.module(", "any("):
        if text.startswith(anchor):
            if not text.endswith(")"):
                raise KtcError(f"invalid pass pipeline: '{pipeline}' does not close "
                               f"'{anchor[:-1]}('")
            text = text[len(anchor):-1]
            break
    nested = re.search(r"\b(func\.func|builtin\.module|any)\(", text)
    if nested:
        raise KtcError(f"invalid pass pipeline: '{pipeline}' nests '{nested.group(1)}(': "
                       "ktc-opt runs module passes, on the whole module")
    return text


class Timer:
    """Seconds spent per step, in first-seen order, for ``--time-passes``."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def add(self, name: str, started: float) -> None:
        self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - started

    def report(self) -> str:
        """MLIR's ``--mlir-timing`` table: wall time and share per step, then the total."""
        total = sum(self.seconds.values())
        rule = "===" + "-" * 73 + "==="
        lines = [rule, "Execution time report".center(79), rule,
                 f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]
        for name, seconds in [*self.seconds.items(), ("Total", total)]:
            share = 100.0 * seconds / total if total else 0.0
            lines.append(f"  {seconds:8.4f} ({share:5.1f}%)  {name}")
        return "\n".join(lines) + "\n"


class KtcOpt:
    """One run of ``ktc-opt`` on parsed arguments."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.ctx = context(args.allow_unregistered_dialect)
        self.timer = Timer()
        self.passes = _pipeline(pipeline_spec(args))

    def run(self) -> int:
        text, filename = self._read_input()
        outputs, problems = [], []
        for first_line, chunk in self._chunks(text):
            result = self._process(chunk, filename, first_line)
            error = result if isinstance(result, KtcError) else None
            problems += self._judge(chunk, first_line, filename, error)
            if error is None:
                outputs.append(result)
        if self.args.time_passes:
            sys.stderr.write(self.timer.report())
        if problems and self.args.output_file is not None:
            return _fail("\n".join(problems))
        if outputs:
            self._write_output(f"{SPLIT_MARKER}\n".join(outputs))
        return _fail("\n".join(problems)) if problems else 0

    def _read_input(self) -> tuple[str, str]:
        name = self.args.input_file
        if name is None or name == "-":
            return sys.stdin.read(), "<stdin>"
        try:
            return Path(name).read_text(), name
        except (OSError, UnicodeDecodeError) as err:
            reason = err.strerror if isinstance(err, OSError) else "it is not UTF-8 text"
            raise SystemExit(_fail(f"error: cannot read '{name}': {reason}")) from None

    def _chunks(self, text: str) -> list[tuple[int, str]]:
        return split_input(text) if self.args.split_input_file else [(1, text)]

    def _process(self, chunk: str, filename: str, first_line: int) -> str | KtcError:
        try:
            started = time.perf_counter()
            module = parse_module(chunk, filename, self.ctx, first_line)
            self.timer.add("Parser", started)
            if not self.args.disable_verify:
                started = time.perf_counter()
                verify_module(module)
                self.timer.add("Verifier", started)
            self._attach_arch(module)
            self._apply_passes(module)
            started = time.perf_counter()
            printed = print_ir(module, self.args.print_op_generic)
            self.timer.add("Output", started)
            return printed
        except KtcError as err:
            return err

    def _attach_arch(self, module: ModuleOp) -> None:
        if self.args.arch is None:
            return
        from ktc.arch import attach_device

        attach_device(module, self.args.arch)

    def _apply_passes(self, module: ModuleOp) -> None:
        for index, module_pass in enumerate(self.passes):
            self._dump("Before", module_pass, module, self.args.print_ir_before_all)
            started = time.perf_counter()
            apply_verified(module_pass, self.ctx, module, not self.args.disable_verify)
            self.timer.add(str(module_pass.pipeline_pass_spec()), started)
            self._dump("After", module_pass, module, self.args.print_ir_after_all)
            self._dump_to_tree(index, module_pass, module)

    def _dump(self, when: str, module_pass: ModulePass, module: ModuleOp, enabled: bool) -> None:
        if enabled:
            sys.stderr.write(f"{_banner(when, module_pass)}\n{print_ir(module)}\n")

    def _dump_to_tree(self, index: int, module_pass: ModulePass, module: ModuleOp) -> None:
        if self.args.print_ir_tree_dir is None:
            return
        folder = Path(self.args.print_ir_tree_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise KtcError(f"cannot write into '{folder}': {err.strerror}") from None
        text = f"{_banner('After', module_pass)}\n{print_ir(module)}"
        path = folder / f"{index}_{module_pass.name}.mlir"
        write_atomically(path, lambda file: file.write(text.encode()))

    def _judge(self, chunk: str, first_line: int, filename: str, error: KtcError | None) -> list[str]:
        if not self.args.verify_diagnostics:
            return [render(error, "\n" * (first_line - 1) + chunk)] if error else []
        emitted = [] if error is None else [(error.severity, _error_line(error), error.where, error.message)]
        return unmatched(expectations(chunk, first_line), emitted, filename)

    def _write_output(self, text: str) -> None:
        if self.args.output_file is None:
            sys.stdout.write(text)
            return
        try:
            write_atomically(self.args.output_file, lambda file: file.write(text.encode()))
        except KtcError as err:
            raise SystemExit(_fail(str(err))) from None


def _banner(when: str, module_pass: ModulePass) -> str:
    return f"// -----// IR Dump {when} {type(module_pass).__name__} ({module_pass.name}) //----- //"


def _error_line(error: KtcError) -> int | None:
    parts = error.where.rsplit(":", 2)
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


def _fail(message: str) -> int:
    sys.stderr.write(message.rstrip("\n") + "\n")
    return 1


def _pipeline(spec: str) -> list[ModulePass]:
    """The passes of a ``-p`` spec (named pipelines expanded); xDSL's pass parser is
    loaded only when there is one."""
    if not spec:
        return []
    from xdsl.passes import PassPipeline

    try:
        return list(PassPipeline.parse_spec(all_passes(), expand(spec)).passes)
    except (ValueError, KtcError) as err:
        message = err.message if isinstance(err, KtcError) else f"invalid pass pipeline: {err}"
        raise SystemExit(_fail(f"error: {message.removeprefix('error: ')}")) from None


def _list_passes() -> int:
    sys.stdout.write(_pass_listing().rsplit("\n\n", 1)[0] + "\n\nxDSL's passes (-p NAME):\n")
    sys.stdout.write("".join(f"  {name}\n" for name in sorted(all_passes()) if name not in PASSES))
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(mlir_spellings(sys.argv[1:] if argv is None else argv, parser))
        if args.list_passes:
            return _list_passes()
        return KtcOpt(args).run()
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
    except KtcError as err:
        return _fail(render(err))
    except KeyboardInterrupt:
        return _fail("error: interrupted")
    except BrokenPipeError:  # the reader went away (``ktc-opt ... | head``)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as err:  # a bug in ktc, reported without a traceback
        if os.environ.get("KTC_TRACEBACK"):
            raise
        return _fail(f"error: internal error ({type(err).__name__}: {err}); "
                     "rerun with KTC_TRACEBACK=1 for the traceback")


if __name__ == "__main__":
    sys.exit(main())
