"""Run the whole test suite, lit and pytest, and print one ``N passed, N failed`` line.

Usage: python tests/run.py [-j N]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lit_xml, pytest_xml = Path(tmp, "lit.xml"), Path(tmp, "pytest.xml")
        subprocess.run([sys.executable, "-c", "from lit.main import main; main()", "-sv", f"-j{args.jobs}",
                        f"--xunit-xml-output={lit_xml}", str(HERE / "lit")])
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", str(args.jobs),
                        f"--junitxml={pytest_xml}", str(HERE / "unit"), str(HERE / "e2e")],
                       cwd=HERE.parent)
        totals = [sum(c) for c in zip(counts(lit_xml), counts(pytest_xml))]
    passed, failed, skipped = totals
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed or passed == 0 else 0



if __name__ == "__main__":
    sys.exit(main())
