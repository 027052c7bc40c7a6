"""With a distributed client active, tiny ``x += 2 * y`` steps never reach the scheduler
(``_array/tiny_ufuncs.py``): no task is made for them; the result, computed there only
at the reduction, equals NumPy's."""

from __future__ import annotations

import distributed
import numpy

import dask_gpunumeric as dnp


def _transitions(client: distributed.Client) -> int:
    return int(client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.transition_counter))


def test_tiny_updates_make_no_task(client: distributed.Client, distributed_scheduler) -> None:
    x, y = dnp.ones(1024), dnp.arange(1024.0)
    host_x, host_y = numpy.ones(1024), numpy.arange(1024.0)
    before = _transitions(client)
    for _ in range(50):
        x += 2 * y
        host_x += 2 * host_y
    assert _transitions(client) == before
    assert float(x.sum()) == float(host_x.sum())
    assert _transitions(client) > before  # the counter does count this client's tasks
