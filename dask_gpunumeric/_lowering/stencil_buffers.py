"""Host buffers for stencil output blocks, reused once nothing references them.

A stencil iteration replaces every block of its grid: a fresh ``numpy.empty`` per block
costs the kernel's first touch of every page (the kernel zeroes them), about as much as
writing the block once more. CuPy's memory pool avoids that on devices; on the host this
module does it for the stencil's blocks only.

A block is handed out as an ndarray over a *lease* (a ctypes array over a pooled raw
buffer). The lease lives exactly as long as some array reads the memory: every view of
the block keeps it alive, so an older version of the grid that the user, a live view, a
persisted array or a neighbour's ghost slab still holds keeps its values. When the last
array over it is gone, the lease's finalizer puts the raw buffer back on the free list,
and the next block of the same size is written into it. At most ``FREE_LIMIT`` buffers
wait there (the rest are freed), so an idle pool holds a few blocks at most.
"""

from __future__ import annotations

import ctypes
import math
import threading
import weakref
from typing import Any

import numpy

# Idle buffers kept (any sizes). On the halo benchmark at N=10000 (16 blocks, 10 sweeps)
# 4 left 81 of 192 blocks on fresh memory, 16 left 53 (the first two versions need
# fresh memory anyway); 8 is between, bounding what an idle process keeps.
FREE_LIMIT = 8
MIN_BYTES = 1 << 20  # smaller blocks come from malloc's own free lists already

_free: list[numpy.ndarray] = []
_lock = threading.Lock()
_reused = [0]  # blocks written into a released buffer, since the process started


def empty_block(shape: tuple[int, ...], dtype: numpy.dtype) -> numpy.ndarray:
    """An uninitialised C-ordered host array of ``shape`` and ``dtype``, over a buffer a
    dropped block released when there is one of the same size."""
    dtype = numpy.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes < MIN_BYTES:
        return numpy.empty(shape, dtype=dtype)
    raw: Any = _take(nbytes)  # typed Any: numpy's stubs know no buffer protocol of ctypes
    lease: Any = (ctypes.c_char * nbytes).from_buffer(raw)
    weakref.finalize(lease, _give_back, raw)
    return numpy.frombuffer(lease, dtype=dtype).reshape(shape)


def free_buffers() -> int:
    """How many released buffers wait for reuse."""
    with _lock:
        return len(_free)


def reused_buffers() -> int:
    """How many blocks were handed out over a released buffer (since the process started)."""
    with _lock:
        return _reused[0]


def _take(nbytes: int) -> numpy.ndarray:
    with _lock:
        for position, raw in enumerate(_free):
            if raw.nbytes == nbytes:
                _reused[0] += 1
                return _free.pop(position)
    return numpy.empty(nbytes, dtype=numpy.uint8)


def _give_back(raw: Any) -> None:
    with _lock:
        _free.append(raw)
        del _free[:-FREE_LIMIT]
