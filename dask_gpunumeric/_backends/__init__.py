"""Chunk backends: where a chunk lives and which array namespace computes on it.

``get_backend()`` returns the backend named by ``gpunumeric.backend``; ``auto`` (the
default) is resolved by asking the workers (``choice.py``). Only ``cupy_backend`` imports
cupy, and only when it is chosen or probed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .._runtime import config
from .base import ChunkBackend

_BACKEND_MODULES = {
    "numpy": "numpy_backend",
    "simulated-device": "simulated_device",
    "cupy": "cupy_backend",
}
_instances: dict[str, ChunkBackend] = {}


def backend_names() -> tuple[str, ...]:
    """Names accepted by ``gpunumeric.backend``."""
    return ("auto", *_BACKEND_MODULES)


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
    if name not in _instances:
        if name not in _BACKEND_MODULES:
            raise ValueError(
                f"unknown gpunumeric.backend {name!r}; choose one of {', '.join(backend_names())}"
            )
        import importlib

        module = importlib.import_module(f".{_BACKEND_MODULES[name]}", __name__)
        _instances[name] = module.make_backend()
    return _instances[name]


__all__ = ["ChunkBackend", "backend_names", "get_backend"]
