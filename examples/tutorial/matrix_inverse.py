"""cuPyNumeric tutorial: error handling around ``np.linalg.inv`` (a singular matrix
raises ``LinAlgError``, reported instead of crashing).

    python examples/tutorial/matrix_inverse.py [--size N] [--numpy]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import dask_gpunumeric as np


def safe_gpu_computation(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """``(result, None)``, or ``(None, message)`` when ``func`` raises."""
    try:
        return func(*args, **kwargs), None
    except Exception as e:  # noqa: BLE001 - the tutorial reports any failure
        return None, f"{type(e).__name__}: {e}"


def risky_computation(large_array: Any = None, size: int = 10_000) -> Any:
    """The inverse of ``large_array`` (a random one when not given): may be singular."""
    if large_array is None:
        large_array = np.random.randn(size, size)
    return np.linalg.inv(large_array)


def main(argv: list[str] | None = None) -> None:
    global np
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=500, help="the tutorial uses 10000")
    parser.add_argument("--numpy", action="store_true", help="run the same code with NumPy")
    args = parser.parse_args(argv)
    if args.numpy:
        import numpy as np
    result, error = safe_gpu_computation(risky_computation, size=args.size)
    print(f"computation failed: {error}" if error else f"inverse computed: {result.shape}")


if __name__ == "__main__":
    main()
