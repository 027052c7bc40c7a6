"""The systems compared, and how each receives its inputs and holds its result.

* ``numpy``: the program as written, ``import numpy as np``, one process;
* ``dask``: plain ``dask.array`` as a Dask user writes it: ``da.from_array(x)`` with
  dask's automatic chunks, the same program where ``da`` can run it;
* ``dask-tuned``: ``dask.array`` tuned by hand: the chunks ours chooses (a small multiple
  of the cores), ``map_overlap`` for the stencil, ``persist`` in loops;
* ``ours-off`` / ``ours-on``: the program with ``import dask_gpunumeric as np``, chunk
  fusion and halo exchange off / on (``gpunumeric.fusion``, ``gpunumeric.halo``);
* ``ours-threads`` / ``ours-default`` (the user programs of issue 16): the program with
  ``import dask_gpunumeric as np`` and every setting at its default but
  ``gpunumeric.scheduler``: ``threads`` (dask's threaded scheduler in this process), and
  ``distributed``, what a user who configures nothing gets: the embedded default cluster
  (``dask_gpunumeric/_runtime/cluster.py``: a ``LocalCluster`` of one single-threaded
  worker per core, its scheduler in a process of its own), started before the lane's
  first run (``start_embedded_cluster``), outside the clock;
* ``ours-threads-persisted`` / ``ours-persisted`` / ``ours-user-cluster`` (issue 27): as
  ``ours-threads`` / ``ours-default``, and on a ``LocalCluster(n_workers=2,
  threads_per_worker=1)`` the user made, with each run's inputs persisted on the workers
  before its clock (``on_the_workers``): data that lives on the workers;
* ``cupy`` (``--gpu`` only): the program with ``import cupy as np``, one device.

The suite runs on dask's threaded scheduler (``cli.measure_all``); the ``dask`` systems
ask for it again, since a started embedded cluster makes its client dask's default.
Inputs are placed (chunked, persisted, copied to the device) before the clock starts,
except where a program makes them itself (the user programs' ``np.array(host)``); the
timed run ends with its result held in memory (NumPy's array, dask's or ours' persisted
chunks, waited for where persisting is asynchronous: on a distributed client, a device
array synchronized), not gathered, unless the program itself gathers (a scalar).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy

from benchmarks.halo import hold as hold_dask

SYSTEMS = ("numpy", "dask", "dask-tuned", "ours-off", "ours-on")
GPU_SYSTEMS = ("numpy", "cupy", "ours-off", "ours-on")
# The user programs' systems. The ``-persisted`` lanes and ``ours-user-cluster`` (issue
# 27) start from data on the workers: each run's inputs are persisted there
# (``dask.persist`` and ``distributed.wait``, as a Dask user does) before its clock.
PERSISTED = ("ours-threads-persisted", "ours-persisted", "ours-user-cluster")
LANES = ("numpy", "dask", "ours-threads", "ours-default", *PERSISTED)
OURS = ("ours-off", "ours-on", "ours-threads", "ours-default", *PERSISTED)
SCHEDULERS = {
    "ours-threads": "threads",
    "ours-default": "distributed",
    "ours-threads-persisted": "threads",
    "ours-persisted": "distributed",
    "ours-user-cluster": "distributed",
}


@contextlib.contextmanager
def configured(system: str) -> Iterator[None]:
    """Ours with fusion and halo exchange off or on, or on the threaded scheduler or the
    embedded default cluster; dask on its threaded scheduler; other systems unchanged."""
    import dask

    import dask_gpunumeric

    if system in ("dask", "dask-tuned"):
        with dask.config.set(scheduler="threads"):
            yield
        return
    if system not in OURS:
        yield
        return
    if system == "ours-user-cluster":
        with user_client().as_current(), dask_gpunumeric.config.set(scheduler="distributed"):
            yield
        return
    if system in SCHEDULERS:
        with dask_gpunumeric.config.set(scheduler=SCHEDULERS[system]):
            if SCHEDULERS[system] == "distributed":
                start_embedded_cluster()
            yield
        return
    on = system == "ours-on"
    with dask_gpunumeric.config.set(fusion=on, halo=on):
        yield


def start_embedded_cluster() -> None:
    """Start the embedded default cluster, if it is not up, outside any clock: its start
    (seconds) would otherwise fall in the first run that sends work to it (small work
    stays in the client: ``gpunumeric.client-work-bytes``), its only timed run when it
    is long. The runtime's own start-up, as the first computation for the cluster does."""
    from dask_gpunumeric._runtime.cluster import client_for_computation

    client_for_computation()


class _UserCluster:
    """The user's own cluster of ``ours-user-cluster``, started once, outside any clock."""

    client: Any = None


def user_client() -> Any:
    """A client of ``distributed.LocalCluster(n_workers=2, threads_per_worker=1)``, as a
    user makes one (worker processes, distributed's defaults otherwise), made current
    only inside the lane's runs (the embedded cluster stays the default elsewhere)."""
    if _UserCluster.client is None:
        import distributed

        # On 127.0.0.1, its dashboard on a free port there: nothing of the suite listens
        # beyond this machine, and no two runs contend for distributed's default 8787
        # (``None`` gets 8787 too: "Port 8787 is already in use" under pytest -n 2).
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address="127.0.0.1:0"
        )
        _UserCluster.client = distributed.Client(cluster, set_as_default=False)
    return _UserCluster.client


def close_user_cluster() -> None:
    """Close ``user_client``'s cluster, if it was started (at the end of a suite run)."""
    client, _UserCluster.client = _UserCluster.client, None
    if client is not None:
        cluster = client.cluster
        client.close()
        cluster.close()


def on_the_workers(hosts: tuple[Any, ...]) -> tuple[Any, ...]:
    """The host arrays of ``hosts`` as ours, persisted where computations go now and
    waited for (``dask.persist``, ``distributed.wait``); other items as they are."""
    import dask

    import dask_gpunumeric

    arrays = [dask_gpunumeric.array(h) for h in hosts if isinstance(h, numpy.ndarray)]
    # On threads, there too: dask.persist would take a default client (the embedded
    # cluster's, once another lane started it) over our scheduler setting.
    scheduler = dask_gpunumeric.config.get("scheduler")
    local = {"scheduler": scheduler} if scheduler != "distributed" else {}
    held = iter(wait_for(dask.persist(*arrays, **local)))
    return tuple(next(held) if isinstance(h, numpy.ndarray) else h for h in hosts)


def wait_for(collection: Any) -> Any:
    """``collection`` once its futures (a persist on a distributed client returns before
    the work is done) have finished; at once where it holds none (local schedulers)."""
    from distributed import futures_of, wait

    futures = futures_of(collection)
    if futures:
        wait(futures)
    return collection


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
        return wait_for(module(system).asarray(host).persist())
    import dask.array as da

    chunks = "auto" if system == "dask" else ours_chunks(host.shape)
    return hold_dask(da.from_array(host, chunks=chunks))


def hold(result: Any) -> Any:
    """``result`` computed and held in memory (scalars: gathered as Python floats; tuples
    and lists: each item held)."""
    if isinstance(result, tuple | list):
        return type(result)(hold(item) for item in result)
    if isinstance(result, numpy.ndarray | float | int | numpy.generic):
        return result
    if type(result).__module__.startswith("cupy"):
        module("cupy").cuda.Device().synchronize()
        return result
    if getattr(result, "ndim", None) == 0:
        return float(result.compute() if hasattr(result, "compute") else result)
    if hasattr(result, "to_dask"):  # ours
        persisted = result.persist()
        if persisted._store.held_chunk() is not None:
            # computed and held in this process (the small-work policy): done. Its dask
            # graph, which futures_of reads, would send the value to the workers (a
            # scatter no user of the value pays unless they hand it to dask).
            return persisted
        return wait_for(persisted)
    return hold_dask(result)


def to_host(result: Any) -> Any:
    """A held result as NumPy (outside the clock): for the comparison with NumPy's."""
    import dask_gpunumeric

    if isinstance(result, tuple | list):
        return type(result)(to_host(item) for item in result)
    if isinstance(result, numpy.ndarray | float | int | numpy.generic):
        return result
    if hasattr(result, "to_dask"):
        return dask_gpunumeric.asnumpy(result)
    if type(result).__module__.startswith("cupy"):
        return result.get()
    from dask_gpunumeric._backends import get_backend

    return get_backend().to_host(result.compute())
