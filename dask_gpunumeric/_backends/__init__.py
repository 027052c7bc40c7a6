"""Chunk backends: where a chunk lives and which array namespace computes on it.

``get_backend()`` returns the backend named by ``gpunumeric.backend``; ``auto`` (the
default) is resolved by asking the workers (``choice.py``). A backend is a module of this
package named ``<name>_backend.py`` (``simulated_device_backend`` is ``simulated-device``)
with a ``make_backend()``, or an entry point of the group ``dask_gpunumeric.backends``
(name -> ``module:make_backend``) in another distribution: adding one is adding a file.
Only ``cupy_backend`` imports cupy, and only when it is chosen or probed.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable
from importlib.metadata import entry_points

from .._runtime import config
from .base import ChunkBackend

ENTRY_POINT_GROUP = "dask_gpunumeric.backends"
_instances: dict[str, ChunkBackend] = {}


@functools.cache
def _makers() -> dict[str, str]:
    """Backend name -> where its ``make_backend`` is (``module:function``)."""
    found = {
        module.name.removesuffix("_backend").replace("_", "-"): (
            f"{__name__}.{module.name}:make_backend"
        )
        for module in pkgutil.iter_modules(__path__)
        if module.name.endswith("_backend")
    }
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(entry.name, entry.value)
    return found


def backend_names() -> tuple[str, ...]:
    """Names accepted by ``gpunumeric.backend``."""
    return ("auto", *sorted(_makers()))


@functools.cache
def _resolve_auto() -> Callable[[], str]:
    """``choice.resolve_auto``, imported at first use (it imports the runtime's cluster
    module) and then kept: ``get_backend`` runs several times per tiny operation."""
    from .choice import resolve_auto

    return resolve_auto


def get_backend(name: str | None = None) -> ChunkBackend:
    """The chunk backend called ``name`` (default: the configured one)."""
    name = name or config.get("backend")
    if name == "auto":
        name = _resolve_auto()()
    backend = _instances.get(name)
    if backend is None:
        backend = _instances[name] = _make(name)
    return backend


def _make(name: str) -> ChunkBackend:
    makers = _makers()
    if name not in makers:
        raise ValueError(
            f"unknown gpunumeric.backend {name!r}; choose one of {', '.join(backend_names())}"
        )
    module, _, function = makers[name].partition(":")
    backend: ChunkBackend = getattr(importlib.import_module(module), function)()
    return backend


__all__ = ["ChunkBackend", "backend_names", "get_backend"]
