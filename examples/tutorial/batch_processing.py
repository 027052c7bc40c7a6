"""cuPyNumeric tutorial: processing a large array in batches, joined with
``np.concatenate``.

    python examples/tutorial/batch_processing.py [--rows R] [--batch-size B] [--numpy]
"""

from __future__ import annotations

import argparse
from typing import Any

import dask_gpunumeric as np


def batch_processing(large_data: Any, batch_size: int = 1000) -> Any:
    """Row sums of squares, batch by batch."""
    n_samples = large_data.shape[0]
    results = []

    for i in range(0, n_samples, batch_size):
        batch = large_data[i : i + batch_size]
        batch_result = np.sum(batch**2, axis=1)
        results.append(batch_result)

    final_result = np.concatenate(results)
    return final_result


def main(argv: list[str] | None = None) -> None:
    global np
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--numpy", action="store_true", help="run the same code with NumPy")
    args = parser.parse_args(argv)
    if args.numpy:
        import numpy as np
    test_data = np.random.randn(args.rows, 100)
    batch_result = batch_processing(test_data, args.batch_size)
    print(f"result shape: {batch_result.shape}, sum {float(np.sum(batch_result)):.6f}")


if __name__ == "__main__":
    main()
