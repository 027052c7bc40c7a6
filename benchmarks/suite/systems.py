"""The systems compared, and how each receives its inputs and holds its result.

* ``numpy``: the program as written, ``import numpy as np``, one process;
* ``dask``: plain ``dask.array`` as a Dask user writes it: ``da.from_array(x)`` with
  dask's automatic chunks, the same program where ``da`` can run it;
* ``dask-tuned``: ``dask.array`` tuned by hand: the chunks ours chooses (a small multiple
  of the cores), ``map_overlap`` for the stencil, ``persist`` in loops;
* ``ours-off`` / ``ours-on``: the program with ``import dask_gpunumeric as np``, chunk
  fusion and halo exchange off / on (``gpunumeric.fusion``, ``gpunumeric.halo``);
* ``cupy`` (``--gpu`` only): the program with ``import cupy as np``, one device.

Inputs are placed (chunked, persisted, copied to the device) before the clock starts;
the timed run ends with its result held in memory (NumPy's array, dask's persisted chunks,
a device array synchronized), not gathered, unless the program itself gathers (a scalar).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy

from benchmarks.halo import hold as hold_dask

SYSTEMS = ("numpy", "dask", "dask-tuned", "ours-off", "ours-on")
GPU_SYSTEMS = ("numpy", "cupy", "ours-off", "ours-on")
OURS = ("ours-off", "ours-on")


@contextlib.contextmanager
def configured(system: str) -> Iterator[None]:
    """Ours with fusion and halo exchange off or on; other systems unchanged."""
    import dask_gpunumeric

    if system not in OURS:
        yield
        return
    on = system == "ours-on"
    with dask_gpunumeric.config.set(fusion=on, halo=on):
        yield


def module(system: str) -> Any:
    """The ``np`` the program is run with."""
    if system == "numpy":
        return numpy
    if system in OURS:
        import dask_gpunumeric

        return dask_gpunumeric
    if system == "cupy":
        import cupy

        return cupy
    import dask.array

    return dask.array


def ours_chunks(shape: tuple[int, ...]) -> Any:
    """The chunks ours chooses for an array of ``shape`` (dask-tuned uses them too)."""
    import dask_gpunumeric

    return dask_gpunumeric.empty(shape).to_dask().chunks


def place(system: str, host: numpy.ndarray) -> Any:
    """``host`` as ``system``'s input, in memory before the clock starts."""
    if system == "numpy":
        return host
    if system == "cupy":
        return module("cupy").asarray(host)
    if system in OURS:
        return module(system).asarray(host).persist()
    import dask.array as da

    chunks = "auto" if system == "dask" else ours_chunks(host.shape)
    return hold_dask(da.from_array(host, chunks=chunks))


def hold(result: Any) -> Any:
    """``result`` computed and held in memory (scalars: gathered as Python floats)."""
    if isinstance(result, numpy.ndarray | float | int | numpy.generic):
        return result
    if type(result).__module__.startswith("cupy"):
        module("cupy").cuda.Device().synchronize()
        return result
    if getattr(result, "ndim", None) == 0:
        return float(result.compute() if hasattr(result, "compute") else result)
    if hasattr(result, "to_dask"):  # ours
        return result.persist()
    return hold_dask(result)


def to_host(result: Any) -> Any:
    """A held result as NumPy (outside the clock): for the comparison with NumPy's."""
    import dask_gpunumeric

    if isinstance(result, numpy.ndarray | float | int | numpy.generic):
        return result
    if hasattr(result, "to_dask"):
        return dask_gpunumeric.asnumpy(result)
    if type(result).__module__.startswith("cupy"):
        return result.get()
    from dask_gpunumeric._backends import get_backend

    return get_backend().to_host(result.compute())
