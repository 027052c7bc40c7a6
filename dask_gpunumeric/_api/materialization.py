"""Crossing to the host explicitly."""

from __future__ import annotations

from typing import Any

import numpy

from .ndarray import ndarray

__all__ = ["asnumpy"]


def asnumpy(a: Any) -> numpy.ndarray:
    """The value of ``a`` as a host ``numpy.ndarray`` (``cupy.asnumpy``)."""
    return a.compute() if isinstance(a, ndarray) else numpy.asarray(a)
