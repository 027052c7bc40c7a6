"""A computation whose scheduler goes away fails with :class:`SchedulerLostError` within
``gpunumeric.scheduler-timeout``, instead of hanging.

A killed scheduler closes its connections: distributed cancels the client's futures at
once, and the cancellation becomes our error. A scheduler that stops answering without
closing them (a frozen process, a lost host or network) is caught by a watchdog: while a
computation runs, every ``scheduler-timeout`` the scheduler is asked for its identity and
must answer within another ``scheduler-timeout``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
from collections.abc import Iterator
from typing import Any

import distributed
from dask.utils import parse_timedelta
from distributed.comm import CommClosedError

from . import config
from .nearby_workers import reaches_workers_directly

# What distributed raises when it lost its scheduler: cancelled futures, closed comms,
# refused connections and connect timeouts (TimeoutError and ConnectionError are OSErrors).
CONNECTION_ERRORS = (concurrent.futures.CancelledError, CommClosedError, OSError)


class SchedulerLostError(RuntimeError):
    """The Dask scheduler went away (or stopped answering) during a computation."""


def scheduler_timeout() -> float:
    """``gpunumeric.scheduler-timeout`` in seconds."""
    return float(parse_timedelta(config.get("scheduler-timeout"), default="s"))


def lost_error(address: str, reason: str) -> SchedulerLostError:
    """The error for a lost scheduler at ``address``: what happened and what to do next."""
    return SchedulerLostError(
        f"the Dask scheduler at {address} was lost ({reason}); the computation did not "
        "finish and arrays persisted on that cluster are gone. Start the scheduler again "
        "(or connect a new distributed.Client) and rerun; the embedded default cluster "
        "is restarted at the next computation."
    )


def check_connected(client: distributed.Client) -> None:
    """Raise :class:`SchedulerLostError` when ``client`` has no scheduler connection."""
    if client.status != "running":
        raise lost_error(_address(client), f"the client's connection is {client.status}")


def watched_get(client: distributed.Client) -> Any:
    """A dask ``scheduler=`` function: ``client.get`` whose wait is watched."""

    def get(graph: Any, keys: Any, **kwargs: Any) -> Any:
        check_connected(client)
        packed = client.get(graph, keys, sync=False, **kwargs)
        wait_watched(client, distributed.futures_of(packed))
        return client.gather(packed, direct=reaches_workers_directly(client))

    return get


class DataLostError(RuntimeError):
    """Data a computation needs was lost with workers and cannot be recomputed."""


def data_lost_error(error: BaseException) -> DataLostError:
    """The error for futures the scheduler cancelled while it answers: what was lost,
    why it cannot come back, what to do next."""
    return DataLostError(
        "the computation was cancelled: data it needs was lost with the workers that held "
        "it and has no lineage to recompute it from: a lineage cut's blocks, held twice, "
        "both copies lost before the active memory manager made a new one "
        "(distributed.scheduler.active-memory-manager.interval), data scattered from "
        "the client, or blocks persisted by the workers among themselves "
        "(gpunumeric.peer-runs). Arrays computed from it cannot be computed again: make them anew from "
        "their source. A larger gpunumeric.checkpoint-every cuts lineage less often. "
        f"distributed said: {error}"
    )


def wait_watched(client: distributed.Client, futures: list[distributed.Future]) -> None:
    """Wait for ``futures``; raise :class:`SchedulerLostError` when the scheduler stops
    answering while they run, and :class:`DataLostError` when it cancels them while it
    answers (what they need was lost for good)."""
    timeout = scheduler_timeout()
    while True:
        try:
            distributed.wait(futures, timeout=timeout)
            return
        except concurrent.futures.CancelledError as error:
            if client.status == "running" and scheduler_answers(client, timeout):
                raise data_lost_error(error) from error
            raise lost_error(_address(client), f"{type(error).__name__}: {error}") from error
        except TimeoutError:
            if not scheduler_answers(client, timeout):
                raise lost_error(
                    _address(client), f"no answer within gpunumeric.scheduler-timeout={timeout}s"
                ) from None


def scheduler_answers(client: distributed.Client, timeout: float) -> bool:
    """Whether ``client``'s scheduler answers an identity request within ``timeout``."""

    async def identity() -> Any:
        return await asyncio.wait_for(client.scheduler.identity(), timeout)

    try:
        client.sync(identity)
    except (*CONNECTION_ERRORS, asyncio.TimeoutError):
        return False
    return True


def translate(client: distributed.Client, error: BaseException) -> BaseException:
    """``error`` as a :class:`SchedulerLostError` when the scheduler is gone; else itself
    (a task's own ``OSError`` on a healthy cluster stays what it is)."""
    if not isinstance(error, CONNECTION_ERRORS) or isinstance(error, SchedulerLostError):
        return error
    if client.status == "running" and scheduler_answers(client, scheduler_timeout()):
        return error
    return lost_error(_address(client), f"{type(error).__name__}: {error}")


def _address(client: distributed.Client) -> str:
    scheduler = getattr(client, "scheduler", None)
    return getattr(scheduler, "address", None) or "(unknown address)"


@contextlib.contextmanager
def translated(client: distributed.Client) -> Iterator[None]:
    """Errors of a lost scheduler inside the block become :class:`SchedulerLostError`."""
    try:
        yield
    except CONNECTION_ERRORS as error:
        lost = translate(client, error)
        if lost is error:
            raise
        raise lost from error
