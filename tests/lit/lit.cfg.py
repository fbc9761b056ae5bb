# lit configuration for ktc's FileCheck tests.
import importlib.util
import os
import shutil
import sys

import lit.formats

config.name = "ktc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, ".lit-out")

root = os.path.dirname(os.path.dirname(config.test_source_root))
bindir = os.path.dirname(sys.executable)
config.environment["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")
for name in ("HOME", "TMPDIR", "KTC_TRACEBACK", "KTC_SHARED"):
    if name in os.environ:
        config.environment[name] = os.environ[name]

# Decoys make sure a test reaches real MLIR only through %mlir-opt.
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%root", root))

spec = importlib.util.find_spec("mlir")
mlir_opt = None
if spec and spec.submodule_search_locations:
    candidate = os.path.join(list(spec.submodule_search_locations)[0], "bin", "mlir-opt")
    mlir_opt = candidate if os.path.exists(candidate) else None
mlir_opt = os.environ.get("KTC_MLIR_OPT", mlir_opt)
if mlir_opt:
    config.available_features.add("mlir")
    config.substitutions.append(("%mlir-opt", mlir_opt))

shared = os.environ.get("KTC_SHARED", os.path.join(os.path.dirname(root), "shared"))
corpus = os.path.join(shared, "ktir-corpus")
if os.path.isdir(corpus):
    config.available_features.add("corpus")
    config.substitutions.append(("%corpus", corpus))
