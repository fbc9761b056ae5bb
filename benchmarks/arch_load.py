"""Load and validate time of each packaged device description.

Usage: python benchmarks/arch_load.py [--repeat N]

A cold load reads the file, parses and verifies it, lays out every instance and
validates the device (reachability included); a warm load is a cache hit. Imports
are done before timing. Prints the best of N runs per device.
"""

import argparse
import time

from ktc.arch import available
from ktc.arch.model import Device, clear_caches


def best_of(repeat: int, action) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def cold(name: str) -> Device:
    clear_caches()
    return Device.load(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    for name in available():
        device = cold(name)  # warms up the lazily loaded dialects
        seconds = best_of(args.repeat, lambda: cold(name))
        warm = best_of(args.repeat, lambda: Device.load(name))
        print(
            f"{name:8} {len(device.nodes):4} nodes {len(device.links):4} links  "
            f"load+validate {seconds * 1e3:7.1f} ms  cached {warm * 1e6:6.1f} us"
        )


if __name__ == "__main__":
    main()
