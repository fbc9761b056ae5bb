"""``ktc-opt``: xDSL's opt driver with every ktc dialect, pass and named pipeline,
MLIR's debugging flags and banners, and MLIR-style diagnostics.

Dialects and passes are registered as lazy factories: a run loads only the dialects
its input uses and the passes its pipeline names. Besides ktc's, it offers xDSL's own
passes, targets and frontends (not those of installed xDSL plug-ins: looking for them
reads every installed package's metadata at each start).
"""

import argparse
import os
import sys
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.frontend import get_all_frontends
from xdsl.passes import ModulePass, PassPipeline
from xdsl.targets import get_all_targets
from xdsl.transforms import get_all_passes
from xdsl.xdsl_opt_main import xDSLOptMain

from ktc import __version__
from ktc.dialects import dialect_factories
from ktc.dialects.printer import print_ir
from ktc.dialects.source import SPLIT_MARKER, parse_module, split_input, verify_module
from ktc.errors import KtcError, render
from ktc.passes import pass_factories
from ktc.passes.pipeline import apply_verified, expand
from ktc.tools.verify_diagnostics import expectations, unmatched


class KtcOptMain(xDSLOptMain):
    version_format = "ktc-opt " + __version__ + " (xdsl {xdsl_version})"

    def register_all_dialects(self):
        for name, factory in dialect_factories().items():
            self.ctx.register_dialect(name, factory)

    def register_all_frontends(self):
        self.available_frontends.update(get_all_frontends())

    def register_all_passes(self):
        for name, factory in (get_all_passes() | pass_factories()).items():
            self.register_pass(name, factory)

    def register_all_targets(self):
        self.available_targets.update(get_all_targets())

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument("--print-ir-after-all", action="store_true",
                                help="print the IR after every pass, with MLIR's banner")
        arg_parser.add_argument("--print-ir-before-all", action="store_true",
                                help="print the IR before every pass, with MLIR's banner")
        arg_parser.add_argument("--print-ir-tree-dir", metavar="DIR",
                                help="write the IR after every pass to DIR, one numbered file per pass")
        arg_parser.add_argument("--arch", metavar="NAME|FILE",
                                help="the device to compile for when the input declares none")

    def setup_pipeline(self):
        self.passes: list[ModulePass] = []
        try:
            pipeline = PassPipeline.parse_spec(self.available_passes, expand(self.args.passes))
        except (ValueError, KtcError) as err:
            raise SystemExit(_fail(f"error: invalid pass pipeline: {err}"))
        self.passes = list(pipeline.passes)

    def run(self) -> int:
        text, filename = self._read_input()
        outputs, problems = [], []
        for first_line, chunk in self._chunks(text):
            result = self._process(chunk, filename, first_line)
            if isinstance(result, KtcError):
                problems += self._judge(chunk, first_line, filename, result)
            else:
                problems += self._judge(chunk, first_line, filename, None)
                outputs.append(result)
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
        except OSError as err:
            raise SystemExit(_fail(f"error: cannot read '{name}': {err.strerror}"))

    def _chunks(self, text: str) -> list[tuple[int, str]]:
        return split_input(text) if self.args.split_input_file else [(1, text)]

    def _process(self, chunk: str, filename: str, first_line: int) -> str | KtcError:
        try:
            module = parse_module(chunk, filename, self.ctx, first_line)
            if not self.args.disable_verify:
                verify_module(module)
            self._attach_arch(module)
            self._apply_passes(module)
            return print_ir(module, self.args.print_op_generic)
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
            apply_verified(module_pass, self.ctx, module, not self.args.disable_verify)
            self._dump("After", module_pass, module, self.args.print_ir_after_all)
            self._dump_to_tree(index, module_pass, module)

    def _dump(self, when: str, module_pass: ModulePass, module: ModuleOp, enabled: bool) -> None:
        if enabled:
            sys.stderr.write(f"{_banner(when, module_pass)}\n{print_ir(module)}\n")

    def _dump_to_tree(self, index: int, module_pass: ModulePass, module: ModuleOp) -> None:
        if self.args.print_ir_tree_dir is None:
            return
        folder = Path(self.args.print_ir_tree_dir)
        folder.mkdir(parents=True, exist_ok=True)
        text = f"{_banner('After', module_pass)}\n{print_ir(module)}"
        (folder / f"{index}_{module_pass.name}.mlir").write_text(text)

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
            Path(self.args.output_file).write_text(text)
        except OSError as err:
            raise SystemExit(_fail(f"error: cannot write '{self.args.output_file}': {err.strerror}"))


def _banner(when: str, module_pass: ModulePass) -> str:
    return f"// -----// IR Dump {when} {type(module_pass).__name__} ({module_pass.name}) //----- //"


def _error_line(error: KtcError) -> int | None:
    parts = error.where.rsplit(":", 2)
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


def _fail(message: str) -> int:
    sys.stderr.write(message.rstrip("\n") + "\n")
    return 1


def main(argv: list[str] | None = None) -> int:
    try:
        return KtcOptMain(args=argv).run()
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
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
