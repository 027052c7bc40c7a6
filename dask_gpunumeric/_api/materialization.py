"""Crossing to the host explicitly, and asking where work runs."""

from __future__ import annotations

from typing import Any

import numpy

from .._array import work_placement
from .._array.work_placement import Placement
from .._ir.leaves import DaskData
from .._runtime.rebalance import onto_owners
from .ndarray import ndarray

__all__ = ["Placement", "asnumpy", "explain", "rebalance"]


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


def rebalance(*arrays: Any) -> int:
    """Move the persisted blocks of ``arrays`` onto their owner workers, in place.

    Each block position has an owner among the workers listed now (``docs/reliability.md``,
    "Elastic workers"); new arrays, and the next versions of a loop's arrays, are made
    there, but blocks persisted before a worker joined stay where they are. This moves
    every persisted block that its owner does not hold (a worker that just joined counts)
    and leaves the others. The arrays, and every view of their bases, read the moved
    blocks: the values are unchanged. Arrays whose values are not persisted on a
    distributed cluster (lazy, held in this process, on dask's threads) are left as they
    are.

    Parameters
    ----------
    *arrays : dask_gpunumeric.ndarray
        Arrays (or views) whose bases' blocks to move.

    Returns
    -------
    int
        How many blocks were moved (0 when every block was on its owner already).

    Raises
    ------
    TypeError
        When an argument is not a dask_gpunumeric array.

    Not in NumPy: NumPy's arrays are in one process's memory.
    """
    for a in arrays:
        if not isinstance(a, ndarray):
            kind = f"{type(a).__module__}.{type(a).__qualname__}"
            raise TypeError(f"rebalance() takes dask_gpunumeric arrays, not {kind}")
    moved = 0
    for store in dict.fromkeys(a._store for a in arrays):  # a base's views share its store
        version = store.version
        if type(version) is not DaskData:
            continue
        array, count = onto_owners(version.array)
        if count:
            store.version = DaskData(array, backend=version.backend)
            moved += count
    return moved
