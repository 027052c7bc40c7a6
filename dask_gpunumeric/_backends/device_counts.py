"""What the simulated device did in this process: host<->device copies and kernel launches.

A real GPU's hidden costs per iteration are copies across the bus and kernel launches;
a CPU run cannot time them, but the simulated device can count them, so structure tests
(``tests/cluster/test_device_iteration_costs.py``) hold a stencil or CG iteration on one
worker to what it must cost. What counts, as CuPy would do it:

- a copy to the device: ``backend.from_host``, ``xp.asarray``/``xp.array`` of host data;
- a copy to the host: ``.get()`` (and dask's ``to_numpy_dispatch``), a scalar read
  (``float(chunk)``, ``bool(chunk)``, ...), and a chunk pickled to leave the worker (a
  CuPy chunk is copied to the host to be sent, or spilled);
- a kernel launch: a fused program (``evaluate_program``: one ``ElementwiseKernel``, also
  counted apart), a ufunc, a function or method whose result is a new array (a view,
  ``reshape`` or a basic index, launches nothing; neither does ``empty`` nor an empty
  result), an assignment into a chunk.

The counts are per process (a worker's are read with ``client.run(device_counts)``) and
taken under a lock: the threaded scheduler runs tasks on several threads.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class DeviceCounts:
    """Copies (and their bytes) each way between host and device, and kernel launches."""

    to_device: int = 0
    to_device_bytes: int = 0
    to_host: int = 0
    to_host_bytes: int = 0
    kernels: int = 0
    fused_kernels: int = 0  # of ``kernels``: fused programs (``evaluate_program``)

    def __sub__(self, other: DeviceCounts) -> DeviceCounts:
        return DeviceCounts(*(getattr(self, f.name) - getattr(other, f.name) for f in fields(self)))


_lock = threading.Lock()
_counts = DeviceCounts()


def device_counts() -> DeviceCounts:
    """The counts of this process since it started (or since ``reset_device_counts``)."""
    return _counts


def reset_device_counts() -> DeviceCounts:
    """Start counting from zero; the counts until now."""
    global _counts
    with _lock:
        before, _counts = _counts, DeviceCounts()
    return before


def count_to_device(nbytes: int) -> None:
    _add(to_device=1, to_device_bytes=nbytes)


def count_to_host(nbytes: int) -> None:
    _add(to_host=1, to_host_bytes=nbytes)


def count_kernel() -> None:
    _add(kernels=1)


def count_fused_kernel() -> None:
    _add(kernels=1, fused_kernels=1)


def _add(**more: int) -> None:
    global _counts
    with _lock:
        now = _counts
        _counts = replace(now, **{name: getattr(now, name) + n for name, n in more.items()})
