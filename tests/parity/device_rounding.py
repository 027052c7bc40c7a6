"""Tolerances for results that CuPy computes with its own routines or CUDA's math library
(docs/numpy-differences.md, "On GPUs"): exact elsewhere, within rounding on cupy."""

from __future__ import annotations

from typing import Any

import numpy

# A few ulp of float64 / float32 results, relative, with an absolute floor for values
# that cancel to near zero (cumulative sums, interpolation between close points).
_RELATIVE = {"f8": 1e-13, "f4": 1e-5, "c16": 1e-13, "c8": 1e-5}


def device_rounding(backend: str, dtype: Any) -> dict[str, float]:
    """``assert_eq`` keywords: none (bit for bit) off cupy; on cupy, a few ulp of ``dtype``."""
    if backend != "cupy":
        return {}
    kind = numpy.dtype(dtype)
    tolerance = _RELATIVE.get(f"{kind.kind}{kind.itemsize}", 1e-13)
    return {"rtol": tolerance, "atol": tolerance}
