"""Which cluster computations go to: the active ``distributed.Client``, else the embedded
default cluster, started at the first computation and reused until the interpreter exits.

The embedded cluster is ``dask_cuda.LocalCUDACluster`` (one worker per GPU) where GPUs
exist, else a ``distributed.LocalCluster`` with one single-threaded worker per core; both
bound to ``gpunumeric.cluster.host`` (127.0.0.1), the dashboard too; over TLS when
``gpunumeric.tls`` asks (``security.py``). Its scheduler runs in a process of its own
(``scheduler_process.py``: in this one, its event loop slowed every tiny operation), its
nannies in this process (their workers exit with it). Its settings are the
``gpunumeric.cluster.*`` and ``gpunumeric.protocol`` keys (the ``dgn-run`` launcher sets
them from its flags).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import sys
import time
import types
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import dask
import distributed

from . import config
from .client_lookup import default_client
from .distributed_internals import client_lock_held, forget_cluster_processes
from .scheduler_loss import lost_error
from .scheduler_process import with_scheduler_process
from .security import cluster_security, tls_enabled
from .send_interval import apply_send_interval, configured_interval

# Thread pools of numerical libraries read these when they load; a worker gets as many
# threads as it has task threads, so workers together never oversubscribe the cores.
THREAD_ENV_VARS = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "NUMEXPR_MAX_THREADS",
)
# UCX over TCP on loopback: what these machines have (no InfiniBand, no NVLink).
UCX_ENV_DEFAULTS = {"UCX_TLS": "tcp,self,sm", "UCX_NET_DEVICES": "lo"}
# distributed settings of the embedded cluster (not of a user's own cluster). Developer
# logs keep the last 1,000 entries by default; the batched-send logs' entries hold whole
# messages (task specs included), so a long loop's scheduler grew until they filled.
EMBEDDED_DISTRIBUTED_CONFIG = {"distributed.admin.low-level-log-length": 100}
# The scheduler unpickles graphs, which name our task functions: it imports the package
# in the background once it listens, not at the first graph.
SCHEDULER_IMPORTS = ("dask_gpunumeric",)


@dataclass(frozen=True)
class LocalClusterSpec:
    """The embedded cluster that would start on this machine, before it starts."""

    gpus: int  # 0: a CPU LocalCluster
    workers: int
    threads_per_worker: int
    memory_limit: str | int | float | None
    protocol: str
    host: str
    tls: bool = False


def local_gpu_count() -> int:
    """GPUs NVML sees here (honouring ``CUDA_VISIBLE_DEVICES``); 0 without a driver."""
    from distributed.diagnostics import nvml

    try:
        return int(nvml.device_get_count())
    except Exception:  # no NVML library, no driver: no GPU to use
        return 0


def local_cluster_spec() -> LocalClusterSpec:
    """The embedded cluster the configuration asks for, on this machine."""
    gpus = config.get("cluster.gpus")
    gpus = local_gpu_count() if gpus is None else int(gpus)
    workers = config.get("cluster.workers")
    threads = int(config.get("cluster.threads-per-worker"))
    if workers is None:
        workers = gpus or max(1, (os.cpu_count() or 1) // threads)
    return LocalClusterSpec(
        gpus=gpus,
        workers=int(workers),
        threads_per_worker=threads,
        memory_limit=config.get("cluster.memory-limit"),
        protocol=config.get("protocol"),
        host=config.get("cluster.host"),
        tls=tls_enabled(),
    )


def start_local_cluster(spec: LocalClusterSpec) -> Any:
    """Start the cluster ``spec`` describes (LocalCUDACluster when it has GPUs)."""
    transport = _transport(spec)
    if spec.protocol == "ucx":
        _require_ucx()
        for name, value in UCX_ENV_DEFAULTS.items():
            os.environ.setdefault(name, value)
    common: dict[str, Any] = dict(
        **transport,
        host=spec.host,
        threads_per_worker=spec.threads_per_worker,
        memory_limit=spec.memory_limit,
        dashboard_address=dashboard_address(spec.host),
        env={name: str(spec.threads_per_worker) for name in THREAD_ENV_VARS},
        # Import the package (and register its chunk types) before the first task arrives,
        # then freeze the start's objects out of the garbage collector's full collections.
        preload=["dask_gpunumeric._runtime.worker_setup"],
    )
    with _main_module_hidden(), dask.config.set(EMBEDDED_DISTRIBUTED_CONFIG):
        if spec.gpus:
            from dask_cuda import LocalCUDACluster

            gpu_cluster = with_scheduler_process(
                _scaling_down_gracefully(LocalCUDACluster), SCHEDULER_IMPORTS
            )
            return gpu_cluster(
                CUDA_VISIBLE_DEVICES=list(range(spec.gpus)), **common, **_device_spilling()
            )
        cpu_cluster = with_scheduler_process(
            _scaling_down_gracefully(distributed.LocalCluster), SCHEDULER_IMPORTS
        )
        return cpu_cluster(n_workers=spec.workers, **common)


class _GracefulScaleDown(distributed.SpecCluster):
    """``scale(n)`` down retires the workers it drops gracefully (their data moved to the
    others first), then drops them. distributed's own ``SpecCluster.scale`` asks the
    scheduler to retire them under their spec names as if those were addresses, so it
    retires none and the workers close with their data (dask/distributed#4069, #5577):
    scattered data (host data, checkpoints' copies) is lost, the rest recomputed. The
    newest workers go first, as distributed's; by ``memory=`` or ``cores=`` distributed's
    way only, and so when called in the cluster's event loop (its own ``close`` scales to
    0 there, and ``Adaptive`` does): a blocking wait there would stall the loop that must
    see the workers go, until ``_RETIRE_TIMEOUT``."""

    def scale(self, n: int = 0, memory: Any = None, cores: Any = None) -> Any:
        client = _Embedded.client
        if memory is None and cores is None and client is not None and not _in_event_loop():
            listed = [worker["name"] for worker in self.scheduler_info["workers"].values()]
            if listed[n:]:
                client.retire_workers(names=listed[n:])  # returns once retired
                # distributed drops the spec entries of workers its scheduler no longer
                # lists: these, once this cluster's view of it says they are gone.
                _until_unlisted(self, set(listed[n:]))
        return super().scale(n, memory=memory, cores=cores)


def _in_event_loop() -> bool:
    """Whether this thread runs an asyncio event loop now."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _scaling_down_gracefully(cluster_class: type) -> type:
    """``cluster_class`` (a ``SpecCluster``) whose ``scale`` down is graceful."""
    return type(cluster_class.__name__, (_GracefulScaleDown, cluster_class), {})


def _until_unlisted(cluster: distributed.SpecCluster, names: set[Any]) -> None:
    """Wait (``_RETIRE_TIMEOUT`` at most) until ``cluster``'s scheduler lists none of
    the workers ``names``."""
    deadline = time.monotonic() + _RETIRE_TIMEOUT
    while time.monotonic() < deadline:
        workers = cluster.scheduler_info["workers"].values()
        if not names & {worker["name"] for worker in workers}:
            return
        time.sleep(0.01)


def _transport(spec: LocalClusterSpec) -> dict[str, Any]:
    """``protocol`` (and ``security`` for TLS) of the embedded cluster."""
    if not spec.tls:
        return {"protocol": spec.protocol}
    if spec.protocol != "tcp":
        raise ValueError(
            f"gpunumeric.tls runs the cluster over tls://, not {spec.protocol}; "
            "set gpunumeric.protocol: tcp (UCX has no TLS here)"
        )
    return {"protocol": "tls", "security": cluster_security()}


def _device_spilling() -> dict[str, Any]:
    """dask-cuda spills device memory to host beyond ``cluster.device-memory-limit``
    (bytes, "12GiB" or a fraction of the device); unset: dask-cuda's default."""
    limit = config.get("cluster.device-memory-limit")
    return {} if limit is None else {"device_memory_limit": limit}


def dashboard_address(host: str) -> str:
    """``cluster.dashboard-address`` bound to ``host`` when it names a port only: ":0"
    alone would make the dashboard listen on every interface (0.0.0.0)."""
    address = str(config.get("cluster.dashboard-address"))
    return f"{host}{address}" if address.startswith(":") else address


@contextlib.contextmanager
def _main_module_hidden() -> Iterator[None]:
    """Spawned worker processes re-import ``__main__``; a script without an
    ``if __name__ == "__main__"`` guard would run again in every worker. Workers do not
    need the user's main module (tasks carry our functions), so they get an empty one."""
    real_main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = real_main


def _require_ucx() -> None:
    try:
        import distributed_ucxx  # noqa: F401 - registers the ucx:// comm backend
    except ImportError as error:
        raise ImportError(
            "gpunumeric.protocol='ucx' needs UCX for distributed: "
            "pip install 'dask_gpunumeric[gpu]' (distributed-ucxx-cu12)"
        ) from error


class _Embedded:
    """The one embedded cluster and its client (module state, closed at exit)."""

    cluster: Any = None
    client: distributed.Client | None = None


def active_client() -> distributed.Client | None:
    """The client computations go to now: the default one (the user's, or ours), else,
    inside a task on a worker, that worker's client (``distributed.get_client``): a task
    never starts a cluster of its own (a worker's process may not have children).

    A client that lost its scheduler is not used: the embedded one is replaced at the
    next computation (``None`` here); a user's raises ``SchedulerLostError`` at once,
    instead of each request waiting out distributed's reconnection.
    """
    client = default_client()
    if client is None:
        return distributed.get_client() if in_worker_task() else None
    if client.status == "running":
        return client
    if client is _Embedded.client:
        return None
    raise lost_error(client.scheduler.address, f"the client's connection is {client.status}")


def client_for_computation() -> distributed.Client:
    """The active client, else the embedded cluster's (started on first use)."""
    client = active_client()
    if client is not None:
        return client
    if _Embedded.client is None or _Embedded.client.status != "running":
        _discard_lost_embedded()
        send_interval = configured_interval()  # a bad value fails before anything starts
        _Embedded.cluster = start_local_cluster(local_cluster_spec())
        with dask.config.set(EMBEDDED_DISTRIBUTED_CONFIG):  # its comms' logs, too
            # Its workers are this machine's: data goes to them and comes back without
            # passing through the scheduler (half the copies: ``direct_to_workers``).
            _Embedded.client = distributed.Client(
                _Embedded.cluster,
                set_as_default=True,
                security=cluster_security(),
                direct_to_workers=True,
            )
            apply_send_interval(_Embedded.client, send_interval)
    return _Embedded.client


def inside_client_call() -> bool:
    """Whether this thread is inside a call of the default client that holds its lock
    (``client.submit(f, a)`` pickling ``a``, or logging its failure): a computation from
    here would wait forever for that client's loop, which waits for the lock."""
    client = default_client()
    return client is not None and client_lock_held(client)


def in_worker_task() -> bool:
    """Whether this thread runs a task of a ``distributed`` worker."""
    try:
        distributed.get_worker()
    except ValueError:
        return False
    return True


class EmbeddedClusterRestartedWarning(UserWarning):
    """The embedded cluster had lost its scheduler; a new one was started."""


def _discard_lost_embedded() -> None:
    """Close what is left of an embedded cluster whose scheduler went away, and say so:
    values persisted on it are gone (the next computation starts a new cluster)."""
    client, cluster = _Embedded.client, _Embedded.cluster
    if client is None or cluster is None:
        return
    address = getattr(cluster, "scheduler_address", "(unknown)")
    _Embedded.client = _Embedded.cluster = None
    with _distributed_logging_silenced():
        with contextlib.suppress(Exception):
            client.close(timeout=_CLOSE_TIMEOUT)
        _close_lost_cluster(cluster)
    warnings.warn(
        f"the embedded Dask cluster (scheduler {address}) was lost; starting a new one. "
        "Arrays persisted on the lost cluster are gone: recreate them.",
        EmbeddedClusterRestartedWarning,
        stacklevel=3,
    )


def _close_lost_cluster(cluster: Any) -> None:
    """Close a ``SpecCluster`` whose scheduler is gone: its nannies are stopped directly
    (retiring them through the scheduler would wait out distributed's connect timeout)."""

    async def stop_workers() -> None:
        closing = [worker.close(timeout=_CLOSE_TIMEOUT) for worker in cluster.workers.values()]
        await asyncio.gather(*closing, return_exceptions=True)

    with contextlib.suppress(Exception):
        distributed.utils.sync(cluster.loop, stop_workers)
    forget_cluster_processes(cluster)  # nothing left to shut down, nobody to ask
    with contextlib.suppress(Exception):
        cluster.close(timeout=_CLOSE_TIMEOUT)


def embedded_cluster() -> Any:
    """The embedded cluster object, or ``None`` when none was started."""
    return _Embedded.cluster


def dashboard_link() -> str | None:
    """The dashboard of the active client's scheduler, when one runs with a dashboard."""
    client = active_client()
    if client is None:
        return None
    try:
        return client.dashboard_link if _has_dashboard(client) else None
    except Exception:  # a client that lost its scheduler has no dashboard to show
        return None


def _has_dashboard(client: distributed.Client) -> bool:
    info = client.scheduler_info()
    return "dashboard" in info.get("services", {})


@atexit.register
def close_embedded() -> None:
    """Close the embedded client and cluster (at exit, while the modules distributed needs
    to shut down are still there). Workers that race a closing scheduler log heartbeat
    errors and nannies warn about killing them: expected at shutdown, so not printed."""
    client, cluster = _Embedded.client, _Embedded.cluster
    _Embedded.client = _Embedded.cluster = None
    if client is None or cluster is None:
        return
    if client.status == "running":
        with contextlib.suppress(Exception):
            client.run(_silence_distributed_logging)
    with _distributed_logging_silenced():
        for closable in (client, cluster):
            with contextlib.suppress(Exception):  # a lost cluster may fail to close
                closable.close(timeout=_CLOSE_TIMEOUT)


# A cluster that lost its scheduler may not close cleanly: give up on it after this long.
_CLOSE_TIMEOUT = 10
# Seconds a scale-down waits for the retired workers to leave the cluster's view.
_RETIRE_TIMEOUT = 30

# tornado logs the worker heartbeat callback that fails while its scheduler closes
# (distributed's logging config gives "tornado.application" a level of its own).
_SHUTDOWN_LOGGERS = ("distributed", "tornado", "tornado.application")


def _silence_distributed_logging() -> None:
    for name in _SHUTDOWN_LOGGERS:
        logging.getLogger(name).setLevel(logging.CRITICAL)


@contextlib.contextmanager
def _distributed_logging_silenced() -> Iterator[None]:
    loggers = [logging.getLogger(name) for name in _SHUTDOWN_LOGGERS]
    levels = [logger.level for logger in loggers]
    _silence_distributed_logging()
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
