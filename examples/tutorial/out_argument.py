"""cuPyNumeric tutorial: memory-efficient computation (in-place operators, a result array
from ``np.empty_like`` filled by ``np.sin(data, out=result)``).

    python examples/tutorial/out_argument.py [--rows R] [--numpy]
"""

from __future__ import annotations

import argparse
from typing import Any

import dask_gpunumeric as np


def memory_efficient_computation(data: Any) -> Any:
    """sin(2 (data + 1)), computed in place and into a preallocated result."""
    data += 1  # in place
    data *= 2  # in place

    result = np.empty_like(data)
    np.sin(data, out=result)  # into the preallocated array

    del data
    return result


def main(argv: list[str] | None = None) -> None:
    global np
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--numpy", action="store_true", help="run the same code with NumPy")
    args = parser.parse_args(argv)
    if args.numpy:
        import numpy as np
    test_data = np.random.randn(args.rows, 100)
    optimized_result = memory_efficient_computation(test_data.copy())
    print(f"result shape: {optimized_result.shape}, sum {float(np.sum(optimized_result)):.6f}")


if __name__ == "__main__":
    main()
