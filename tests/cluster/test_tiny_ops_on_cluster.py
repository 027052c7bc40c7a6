"""With a distributed client active, tiny ``x += 2 * y`` steps never reach the scheduler
(``_array/tiny_ufuncs.py``): no task is made for them; the result, computed there only
at the reduction, equals NumPy's."""

from __future__ import annotations

import distributed
import numpy

import dask_gpunumeric as dnp


def _keys(client: distributed.Client) -> set[str]:
    """Every task key the scheduler has seen so far (its transition log, as strings)."""
    return set(
        client.run_on_scheduler(
            lambda dask_scheduler: [str(entry[0]) for entry in dask_scheduler.transition_log]
        )
    )


def test_tiny_updates_make_no_task(client: distributed.Client, distributed_scheduler) -> None:
    x, y = dnp.ones(1024), dnp.arange(1024.0)
    host_x, host_y = numpy.ones(1024), numpy.arange(1024.0)
    before = _keys(client)
    for _ in range(50):
        x += 2 * y
        host_x += 2 * host_y
    # Keys only: a transition of an earlier computation's key (a release finishing late
    # under load) is not a task of these steps.
    assert _keys(client) - before == set()
    assert float(x.sum()) == float(host_x.sum())
    assert _keys(client) - before  # the log does record this client's tasks
