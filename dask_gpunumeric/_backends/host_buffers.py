"""Host buffers for stencil output blocks (and blocks assembled from pieces: relayouts,
rolls), reused once nothing references them.

A stencil iteration replaces every block of its grid: a fresh ``numpy.empty`` per block
costs the kernel's first touch of every page (the kernel zeroes them), about as much as
writing the block once more. CuPy's memory pool avoids that on devices; on the host this
module does it for the blocks of stencils and of ``assemble_block`` only.

A block is handed out as an ndarray over a *lease* (a ctypes array over a pooled raw
buffer). The lease lives exactly as long as some array reads the memory: every view of
the block keeps it alive, so an older version of the grid that the user, a live view, a
persisted array or a neighbour's ghost slab still holds keeps its values. When the last
array over it is gone, the lease's finalizer puts the raw buffer back on the free list,
and the next block of the same size is written into it.

Idle buffers are bounded two ways: at most ``gpunumeric.halo-buffer-pool`` bytes wait
(the oldest are freed first), and a buffer idle for ``IDLE_SECONDS`` is freed, so a
process whose loop has ended gives its blocks back. A loop needs about one version of
its grid's blocks idle between iterations (an iteration releases the blocks of the
version before it while it takes new ones): at N=10000 (16 blocks of 50 MB in one
process) a limit of 8 buffers left many blocks on fresh memory, and a first touch is
slow on virtual machines.
"""

from __future__ import annotations

import ctypes
import math
import threading
import time
import weakref
from typing import Any

import numpy

from .._runtime import config

MIN_BYTES = 1 << 20  # smaller blocks come from malloc's own free lists already
IDLE_SECONDS = 10.0  # an idle buffer older than this is freed

_free: list[tuple[float, numpy.ndarray]] = []  # (released at, raw buffer), oldest first
_lock = threading.Lock()
_reused = [0]  # blocks written into a released buffer, since the process started
_trimmer: list[threading.Timer] = []  # the pending trim of idle buffers, if any


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


def idle_bytes() -> int:
    """The bytes of the released buffers waiting for reuse."""
    with _lock:
        return sum(raw.nbytes for _, raw in _free)


def _take(nbytes: int) -> numpy.ndarray:
    with _lock:
        for position in range(len(_free) - 1, -1, -1):  # the most recently released first
            if _free[position][1].nbytes == nbytes:
                _reused[0] += 1
                return _free.pop(position)[1]
    return numpy.empty(nbytes, dtype=numpy.uint8)


def _give_back(raw: Any) -> None:
    limit = config.get("halo-buffer-pool")
    with _lock:
        _free.append((time.monotonic(), raw))
        total = sum(buffer.nbytes for _, buffer in _free)
        while _free and total > limit:
            total -= _free.pop(0)[1].nbytes
        if _free and not _trimmer:
            _schedule_trim()


def _schedule_trim() -> None:
    """Free idle buffers ``IDLE_SECONDS`` from now (and again while any wait). Called with
    ``_lock`` held."""
    timer = threading.Timer(IDLE_SECONDS, _trim_idle)
    timer.daemon = True
    _trimmer.append(timer)
    timer.start()


def _trim_idle() -> None:
    expired = time.monotonic() - IDLE_SECONDS
    with _lock:
        _trimmer.clear()
        _free[:] = [(when, raw) for when, raw in _free if when > expired]
        if _free:
            _schedule_trim()
