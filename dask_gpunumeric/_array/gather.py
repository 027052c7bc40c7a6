"""Gathering arrays whole to one place, and wrapping whole values back: what the
gathering NumPy fallback needs from the layers below it.

On the device backend a gathered value stays in device memory (one chunk of the backend's
type); the host is reached only through the backend's explicit ``to_host``.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any, TypeVar

import dask
import numpy

from .._backends import get_backend
from .._ir.leaves import DaskData, HostData
from .._lowering import lower_all
from .._runtime import dask_arrays as da
from .._runtime.partitioning import default_chunks
from .coercion import UNSUPPORTED_KINDS
from .handle import ArrayHandle

ArrayType = TypeVar("ArrayType", bound=ArrayHandle)


def backend_namespace() -> Any:
    """The configured backend's array namespace (``numpy``, ``cupy``, the simulated
    device's)."""
    return get_backend().xp


def is_chunk(value: Any) -> bool:
    """Whether ``value`` is a whole array of the backend's chunk type (or a host array)."""
    return isinstance(value, (numpy.ndarray, get_backend().chunk_type))


def gather(arrays: Sequence[ArrayHandle]) -> list[Any]:
    """Each array's whole value as one chunk of the backend, computed in one run."""
    if not arrays:
        return []
    backend = get_backend()
    lowered = lower_all([array._read() for array in arrays], backend)
    # Unoptimized: the arrays share one graph (as in materialize's persist).
    values = dask.compute(*lowered, optimize_graph=False)
    return [value.reshape(array.shape) for value, array in zip(values, arrays, strict=True)]


def to_host(value: Any) -> numpy.ndarray:
    """The explicit device-to-host copy (identity for host arrays)."""
    return get_backend().to_host(value)


def from_host(value: numpy.ndarray) -> Any:
    """The explicit host-to-device copy (identity on the NumPy backend)."""
    return get_backend().from_host(value)


def wrap(value: Any, owned: bool, array_type: type[ArrayType]) -> ArrayType | numpy.ndarray:
    """``value`` (a host array or a whole chunk of the backend) as an array of
    ``array_type`` (the caller's public class: this layer cannot import it); arrays of
    dtypes we do not hold (strings, objects) stay NumPy arrays on the host. ``owned``: the
    caller made ``value`` for this array alone (no defensive copy of a host array)."""
    backend = get_backend()
    if value.dtype.kind in UNSUPPORTED_KINDS or value.dtype.names is not None:
        return backend.to_host(value)
    if isinstance(value, numpy.ndarray):
        return array_type._from_expr(HostData(value, owned=owned))
    chunks = default_chunks(value.shape)
    meta = backend.xp.empty((0,) * value.ndim, dtype=value.dtype)
    # Named, not tokenized: hashing would read the whole device array back to the host.
    name = f"fallback-result-{uuid.uuid4().hex}"
    array = da.from_array(value, chunks=chunks, name=name, asarray=False, meta=meta)
    return array_type._from_expr(DaskData(array, backend=backend.name))
