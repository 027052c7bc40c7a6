"""Miscellaneous routines: ``show_config`` (what runs where, and why)."""

from __future__ import annotations

import importlib.metadata
import platform
from typing import Any

from .._backends import get_backend
from .._backends.choice import auto_choice
from .._runtime import config
from .._runtime.cluster import active_client, dashboard_link, embedded_cluster, local_cluster_spec
from .._runtime.cluster_shape import cluster_shape
from .._runtime.security import describe_security

__all__ = ["show_config"]

_DISTRIBUTIONS = (
    "dask_gpunumeric",
    "numpy",
    "dask",
    "distributed",
    "numexpr",
    "cupy-cuda12x",
    "dask-cuda",
    "distributed-ucxx-cu12",
)


def show_config(mode: str = "stdout") -> dict[str, Any] | None:
    """dask_gpunumeric implementation of :func:`numpy.show_config`.

    Prints the versions, the chunk backend and how it was chosen, the scheduler and
    cluster (with the dashboard link) and the chunk policy settings.

    Differences from NumPy: describes the runtime (backend, cluster, chunk policy), not
    the BLAS/LAPACK build. ``mode="dicts"`` returns the same information as a dict.
    """
    if mode not in ("stdout", "dicts"):
        raise ValueError(f"mode must be 'stdout' or 'dicts', not {mode!r}")
    info = {
        "versions": _versions(),
        "backend": _backend(),
        "cluster": _cluster(),
        "chunk policy": _chunk_policy(),
    }
    if mode == "dicts":
        return info
    for section, entries in info.items():
        print(f"{section}:")
        for key, value in entries.items():
            print(f"  {key}: {value}")
    return None


def _versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for name in _DISTRIBUTIONS:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def _backend() -> dict[str, str]:
    configured = config.get("backend")
    if configured == "auto":
        name, how = auto_choice()
    else:
        name, how = configured, "gpunumeric.backend in the configuration"
    backend = get_backend(name)
    chunk_type = f"{backend.chunk_type.__module__}.{backend.chunk_type.__name__}"
    return {"configured": configured, "in use": name, "chosen by": how, "chunk type": chunk_type}


def _cluster() -> dict[str, Any]:
    scheduler = config.get("scheduler")
    client = active_client() if scheduler == "distributed" else None
    if client is None:
        state = "none yet" if scheduler == "distributed" else f"dask's {scheduler} scheduler"
        return {
            "scheduler": scheduler,
            "cluster": state,
            "would start": local_cluster_spec(),
            "security": describe_security(),
        }
    workers = client.scheduler_info()["workers"]
    ours = embedded_cluster() is not None and client.scheduler.address == _embedded_address()
    return {
        "scheduler": scheduler,
        "cluster": "embedded default cluster" if ours else "the active distributed.Client's",
        "scheduler address": client.scheduler.address,
        "workers": len(workers),
        "dashboard": dashboard_link() or "none",
        "security": describe_security(),
    }


def _embedded_address() -> str:
    return embedded_cluster().scheduler_address


def _chunk_policy() -> dict[str, Any]:
    keys = ("min-chunk-elements", "max-chunk-bytes", "persist-depth", "fusion")
    return {**{key: config.get(key) for key in keys}, "cluster shape": cluster_shape()}
