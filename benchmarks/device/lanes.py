"""The lanes of the warm GPU benchmark: the same program, four ways.

- ``hand-written``: ``import cupy as np`` (with ``--device simulated``, the simulated
  device's namespace stands in: NumPy on this CPU behind CuPy's manners);
- ``ours-worker``: ``import dask_gpunumeric as np`` on one GPU worker (the embedded
  cluster with ``gpunumeric.cluster.gpus: 1``, a ``LocalCUDACluster``; simulated: one CPU
  worker process), its inputs persisted there before the clock: the matrix on the GPU
  worker;
- ``ours-threads``: ours on dask's threaded scheduler in this process, inputs persisted;
- ``numpy``: NumPy on this machine's CPUs.

A run ends with its result held where it lives (a device synchronized, our chunks
persisted and waited for; a scalar read), not brought to the host; the comparison with
the hand-written lane's result is outside the clock.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import dask
import numpy

LANES = ("hand-written", "ours-worker", "ours-threads", "numpy")
BACKENDS = {"cupy": "cupy", "simulated": "simulated-device"}


@dataclass(frozen=True)
class Lane:
    """How a program runs on one lane: its ``np``, its inputs' placement, the end of its
    run, its result on the host, the configuration around it."""

    name: str
    np: Any
    place: Callable[[Any], Any]
    hold: Callable[[Any], Any]
    to_host: Callable[[Any], Any]
    configured: Callable[[], contextlib.AbstractContextManager[Any]]


def make_lane(name: str, device: str, toy: bool = False) -> Lane:
    """``name``'s lane on ``device`` (``cupy`` or ``simulated``); ``toy``: ours is made to
    send even toy sizes to its tasks (``gpunumeric.client-work-bytes: 0``, blocks from
    1,024 elements), as real sizes are, so the dry run takes the real sizes' path."""
    if name == "numpy":
        return Lane(name, numpy, _same, _same, _same, contextlib.nullcontext)
    if name == "hand-written":
        return _hand_written(device)
    return _ours(name, BACKENDS[device], toy)


def _same(value: Any) -> Any:
    return value


def _hand_written(device: str) -> Lane:
    if device == "cupy":
        import cupy

        def synchronized(result: Any) -> Any:
            cupy.cuda.Device().synchronize()
            return result

        def cupy_host(result: Any) -> Any:
            return cupy.asnumpy(result) if isinstance(result, cupy.ndarray) else result

        place = lambda host: cupy.asarray(host) if isinstance(host, numpy.ndarray) else host  # noqa: E731
        return Lane("hand-written", cupy, place, synchronized, cupy_host, contextlib.nullcontext)
    from dask_gpunumeric._backends import get_backend

    simulated = get_backend("simulated-device")

    def simulated_host(result: Any) -> Any:
        return simulated.to_host(result) if hasattr(result, "get") else result

    place = lambda host: simulated.from_host(host) if isinstance(host, numpy.ndarray) else host  # noqa: E731
    return Lane("hand-written", simulated.xp, place, _same, simulated_host, contextlib.nullcontext)


def _ours(name: str, backend: str, toy: bool) -> Lane:
    import dask_gpunumeric
    from benchmarks.suite.systems import hold, wait_for

    scheduler = "distributed" if name == "ours-worker" else "threads"
    # one worker: the one GPU (a LocalCUDACluster), or one CPU worker process
    one_worker = {"gpunumeric.cluster.gpus": 1} if backend == "cupy" else {}
    one_worker["gpunumeric.cluster.workers"] = 1
    small = {"client_work_bytes": 0, "min_chunk_elements": 1024} if toy else {}

    @contextlib.contextmanager
    def configured() -> Iterator[None]:
        with (
            dask.config.set(one_worker),
            dask_gpunumeric.config.set(backend=backend, scheduler=scheduler, **small),
        ):
            if scheduler == "distributed":
                from dask_gpunumeric._runtime.cluster import client_for_computation

                client_for_computation()  # started outside any clock
            yield

    def place(host: Any) -> Any:
        if not isinstance(host, numpy.ndarray):
            return host
        return wait_for(dask_gpunumeric.asarray(host).persist())

    def ours_host(result: Any) -> Any:
        if isinstance(result, float | int):
            return result
        return dask_gpunumeric.asnumpy(result)

    return Lane(name, dask_gpunumeric, place, hold, ours_host, configured)


def close_lanes() -> None:
    """The embedded cluster of ``ours-worker``, if it started."""
    from dask_gpunumeric._runtime.cluster import close_embedded

    close_embedded()


def free_device_memory(device: str) -> None:
    """CuPy's pools of this process emptied between lanes (the worker's are its own)."""
    if device == "cupy":
        import cupy

        cupy.get_default_memory_pool().free_all_blocks()
        cupy.get_default_pinned_memory_pool().free_all_blocks()
