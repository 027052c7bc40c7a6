"""Allocations that cannot fit fail early with :class:`ArrayMemoryError`, naming the
array and the limit, instead of filling a process until the OS or a nanny kills it.

The rule (a lazy array larger than memory is legitimate: it may only be reduced, and
dask spills the blocks it must hold to disk):

- bringing a whole array into the client (``np.asarray``, ``.tolist()``, ``repr``,
  ``float(...)``) is refused when its bytes exceed the client machine's memory;
- persisting an array (``.persist()``) is refused when its bytes exceed the total
  memory of the cluster's workers (device memory for GPU workers); an array of at most
  1 MiB (``_FITS_ANY_CLUSTER``) is not checked.

``gpunumeric.memory-check: false`` turns both off.
"""

from __future__ import annotations

import math

import numpy
from dask.utils import format_bytes
from distributed.system import MEMORY_LIMIT

from . import config
from .cluster_shape import cluster_shape


class ArrayMemoryError(MemoryError):
    """An array does not fit where it was asked to go."""


def check_fits_client(shape: tuple[int, ...], dtype: numpy.dtype) -> None:
    """Refuse to materialize an array in the client beyond the client's memory."""
    _check(shape, dtype, MEMORY_LIMIT, "the memory of this (client) machine", "materialize")


# Fits any cluster: a worker process holds more than this before it holds any data. A
# solver persisting its tiny iterate asks nothing of the cluster (``cluster_shape`` reads
# the configuration or the scheduler: about 15 us warm, 120 us after a solver's loop).
_FITS_ANY_CLUSTER = 1 << 20


def check_fits_cluster(shape: tuple[int, ...], dtype: numpy.dtype) -> None:
    """Refuse to persist an array beyond the total memory of the cluster's workers (one of
    at most ``_FITS_ANY_CLUSTER`` bytes is not checked)."""
    if not config.get("memory-check") or _nbytes(shape, dtype) <= _FITS_ANY_CLUSTER:
        return
    shape_of_cluster = cluster_shape()
    total = shape_of_cluster.workers * shape_of_cluster.memory_per_worker
    kind = "device memory" if shape_of_cluster.device else "memory limit"
    where = f"the {kind} of the cluster's {shape_of_cluster.workers} worker(s) together"
    _check(shape, dtype, total, where, "persist")


def _check(shape: tuple[int, ...], dtype: numpy.dtype, limit: int, where: str, verb: str) -> None:
    if not config.get("memory-check"):
        return
    nbytes = _nbytes(shape, dtype)
    if nbytes <= limit:
        return
    raise ArrayMemoryError(
        f"cannot {verb} an array of shape {shape} and dtype {dtype}: it needs "
        f"{format_bytes(nbytes)} ({nbytes} bytes), more than {where} "
        f"({format_bytes(limit)}). Reduce it first (a sum, a slice), write it out with "
        "to_zarr, or set gpunumeric.memory-check: false to let dask spill it to disk."
    )


def _nbytes(shape: tuple[int, ...], dtype: numpy.dtype) -> int:
    """The array's bytes, exactly (Python integers: no overflow however large)."""
    return math.prod(shape) * dtype.itemsize
