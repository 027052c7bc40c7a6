"""The chunk-wise NumPy fallback on a block: the backend's function of a NumPy name (or a
user's callable) called with the block where its array arguments were."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy

from .._backends.base import ChunkBackend


class BlockSlot(NamedTuple):
    """Where the ``position``-th block goes in a chunk function's arguments."""

    position: int


def call_on_blocks(
    backend: ChunkBackend,
    function: str | Callable[..., Any],
    arguments: tuple[Any, ...],
    keywords: tuple[tuple[str, Any], ...],
    *blocks: Any,
) -> Any:
    """The backend's ``function`` on ``blocks``; a backend without it (CuPy lacks a few of
    NumPy's functions), or whose function refuses an argument NumPy takes (a list where
    CuPy wants an array: ``TypeError``), runs NumPy's on an explicit host copy. A callable (a user's ufunc)
    is called on the blocks as they are."""

    def fill(value: Any) -> Any:
        return blocks[value.position] if isinstance(value, BlockSlot) else value

    args = [fill(a) for a in arguments]
    kwargs = {k: fill(v) for k, v in keywords}
    if callable(function):
        return function(*args, **kwargs)
    on_device = _resolve(backend.xp, function)
    if on_device is not None:
        try:
            return on_device(*args, **kwargs)
        except TypeError:
            if not _refused_by_device(backend, args, kwargs):
                raise
    host = [backend.to_host(b) for b in blocks]
    args = [host[a.position] if isinstance(a, BlockSlot) else a for a in arguments]
    kwargs = {k: host[v.position] if isinstance(v, BlockSlot) else v for k, v in keywords}
    return backend.from_host(numpy.asarray(_resolve(numpy, function)(*args, **kwargs)))


def _refused_by_device(backend: ChunkBackend, args: list[Any], kwargs: dict[str, Any]) -> bool:
    """Whether a ``TypeError`` of the device's function may be its refusal of a host value
    NumPy takes (a list, a tuple, a host array): only then is NumPy asked on the host."""
    values = [*args, *kwargs.values()]
    return backend.xp is not numpy and any(
        isinstance(v, (list, tuple, numpy.ndarray)) for v in values
    )


def _resolve(namespace: Any, path: str) -> Any:
    try:
        return functools.reduce(getattr, path.split("."), namespace)
    except AttributeError:
        return None
