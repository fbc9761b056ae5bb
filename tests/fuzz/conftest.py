"""The fuzz harness's modules import each other by name (``harness``, ``mutators``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
