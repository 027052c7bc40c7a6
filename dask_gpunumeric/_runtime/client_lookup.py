"""``distributed.default_client()`` at the cost of a few attribute reads.

A tiny operation asks which client is current twice (``gpunumeric.backend: auto`` is
resolved per cluster), and ``default_client()`` sorts distributed's weak registry of
default clients each time: 20-40% of the cost a tiny ``x += 2 * y`` adds on a cluster
(``benchmarks/latency.py``). Its answer only changes when a client becomes current
(``as_current``: a context variable, read every time), is set as default (distributed's
registry counter grows), leaves the registry (closed or collected: its size shrinks) or
is closed (its status): ``default_client`` keeps the last answer, weakly, with those
marks; "no client" too, the answer of every operation of a script before any cluster
starts (or without one: the small-work policy keeps such work in the client). These are
distributed's module globals, read through ``distributed_internals``; without them it
asks ``distributed.default_client()`` every time.
"""

from __future__ import annotations

import weakref
from typing import Any

import distributed

from . import distributed_internals as internals


class _Last:
    """The last answer and the registry marks it was found under."""

    marks: tuple[int, int] | None = None
    client: weakref.ref[distributed.Client] | None = None


def default_client() -> distributed.Client | None:
    """The client ``distributed.default_client()`` returns, ``None`` where it raises."""
    if not internals.client_registry_readable():
        return _asked()
    current = internals.client_made_current()
    if current:
        return current
    marks = internals.default_client_marks()
    if marks == _Last.marks:
        if _Last.client is None:  # no client then, and none set as default since
            return None
        client = _Last.client()
        if client is not None and client.status != "closed":
            return client
    client = _asked()
    _Last.client = None if client is None else weakref.ref(client)
    # Asking may drop closed clients from the registry: the marks are read after it.
    _Last.marks = internals.default_client_marks()
    return client


def _asked() -> Any:
    try:
        return distributed.default_client()
    except ValueError:
        return None
