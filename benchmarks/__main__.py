"""``python -m benchmarks run [--quick] [--out results.json] [--gpu]``: the suite
(``benchmarks/suite/``). Each topic also runs alone: ``python -m benchmarks.<name>``."""

from __future__ import annotations

import sys

from benchmarks.suite.cli import main

if __name__ == "__main__":
    sys.exit(main())
