"""Crossing to the host explicitly, and asking where work runs."""

from __future__ import annotations

from typing import Any

import numpy

from .._array import work_placement
from .._array.work_placement import Placement
from .ndarray import ndarray

__all__ = ["Placement", "asnumpy", "explain"]


def asnumpy(a: Any) -> numpy.ndarray:
    """The value of ``a`` as a host ``numpy.ndarray`` (``cupy.asnumpy``)."""
    return a.compute() if isinstance(a, ndarray) else numpy.asarray(a)


def explain(a: Any = None) -> Placement | None:
    """Where work runs, and why: the placement rule's decision as a value.

    ``explain(a)``: where computing ``a`` now would run (nothing is computed or moved);
    ``explain()``: where the last materialization of this process ran (``None`` before
    any). ``str()`` of the result reads as a sentence; its fields are ``where``
    (``client``, ``client threads``, ``cluster``, or a configured local scheduler),
    ``reason``, ``moved_bytes`` (persisted arrays moved from the workers into this
    process for it), ``parts_elsewhere`` and ``returned_bytes`` (products and reductions
    of data that stays on the workers, computed there, and the bytes of their results
    brought back). The rule is in docs/performance.md ("Where work runs").

    Not in NumPy: NumPy computes everything where it is called.
    """
    if a is None:
        return work_placement.last_placement()
    if not isinstance(a, ndarray):
        raise TypeError(f"explain() takes a dask_gpunumeric array, not {type(a).__name__}")
    return work_placement.decide([a._read()])
