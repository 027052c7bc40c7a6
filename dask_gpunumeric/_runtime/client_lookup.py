"""``distributed.default_client()`` at the cost of a few attribute reads.

A tiny operation asks which client is current twice (``gpunumeric.backend: auto`` is
resolved per cluster), and ``default_client()`` sorts distributed's weak registry of
default clients each time: 20-40% of the cost a tiny ``x += 2 * y`` adds on a cluster
(``benchmarks/latency.py``). Its answer only changes when a client becomes current
(``as_current``: a context variable, read every time), is set as default (distributed's
registry counter grows), leaves the registry (closed or collected: its size shrinks) or
is closed (its status): ``default_client`` keeps the last answer, weakly, with those
marks. These are distributed's module globals (``distributed.client``); without them it
asks ``distributed.default_client()`` every time.
"""

from __future__ import annotations

import weakref
from typing import Any

import distributed
import distributed.client as _registry


class _Last:
    """The last answer and the registry marks it was found under."""

    marks: tuple[int, int] | None = None
    client: weakref.ref[distributed.Client] | None = None


_CAN_CACHE = all(
    hasattr(_registry, name)
    for name in ("_current_client", "_global_client_index", "_global_clients")
)


def default_client() -> distributed.Client | None:
    """The client ``distributed.default_client()`` returns, ``None`` where it raises."""
    if not _CAN_CACHE:
        return _asked()
    current = _registry._current_client.get()
    if current:
        return current  # type: ignore[no-any-return]
    marks = (_registry._global_client_index[0], len(_registry._global_clients))
    client = _Last.client() if _Last.client is not None and marks == _Last.marks else None
    if client is not None and client.status != "closed":
        return client
    client = _asked()
    _Last.client = None if client is None else weakref.ref(client)
    # Asking may drop closed clients from the registry: the marks are read after it.
    _Last.marks = (_registry._global_client_index[0], len(_registry._global_clients))
    return client


def _asked() -> Any:
    try:
        return distributed.default_client()
    except ValueError:
        return None
