"""Run the whole test suite, lit and pytest, and print one ``N passed, N failed`` line.

Usage: python tests/run.py [-j N]

A runner that could not run its tests at all (a collection or configuration error)
counts as one failure, so a broken suite can never look green.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYTEST_DIRS = ("unit", "e2e", "fuzz")


def counts(junit: Path) -> tuple[int, int, int]:
    """(passed, failed, skipped) from a JUnit XML file; a missing file is one failure."""
    if not junit.exists():
        return 0, 1, 0
    passed = failed = skipped = 0
    for case in ET.parse(junit).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def run(command: list[str], junit: Path, ok_codes: tuple[int, ...]) -> tuple[int, int, int]:
    """Run one test runner; its counts, with one more failure if it did not finish normally."""
    code = subprocess.run(command, cwd=HERE.parent).returncode
    passed, failed, skipped = counts(junit)
    if code not in ok_codes:
        print(f"error: {' '.join(command[:3])} ... exited with {code}", file=sys.stderr)
        failed = max(failed, 1)
    return passed, failed, skipped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    folders = [str(HERE / name) for name in PYTEST_DIRS if (HERE / name).is_dir()]
    with tempfile.TemporaryDirectory() as tmp:
        lit_xml, pytest_xml = Path(tmp, "lit.xml"), Path(tmp, "pytest.xml")
        lit = run([sys.executable, "-c", "from lit.main import main; main()", "-sv",
                   f"-j{args.jobs}", f"--xunit-xml-output={lit_xml}", str(HERE / "lit")],
                  lit_xml, (0, 1))
        pytest = run([sys.executable, "-m", "pytest", "-q", "-n", str(args.jobs),
                      f"--junitxml={pytest_xml}", *folders], pytest_xml, (0, 1))
    passed, failed, skipped = (a + b for a, b in zip(lit, pytest))
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
