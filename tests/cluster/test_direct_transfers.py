"""The embedded cluster's client sends host data to its workers, and takes results back
from them, directly: the scheduler carries none of those bytes (its ``scatter`` and
``gather`` handlers, counted in the scheduler's process, are never called), as it does
for a client the user made (distributed's default route, kept). Values are NumPy's."""

from __future__ import annotations

from typing import Any

import distributed
import numpy

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import cluster

ROUTED = ("scatter", "gather")  # the scheduler's handlers that carry the data itself


def counting_routed_calls(dask_scheduler: Any) -> None:
    """Count, from now on, the calls of the scheduler's ``ROUTED`` handlers."""
    counts = dict.fromkeys(ROUTED, 0)
    dask_scheduler.routed_calls = counts
    for op in ROUTED:
        original = dask_scheduler.handlers[op]

        def counted(*args: Any, _op: str = op, _original: Any = original, **kwargs: Any) -> Any:
            counts[_op] += 1
            return _original(*args, **kwargs)

        dask_scheduler.handlers[op] = counted


def routed_calls(dask_scheduler: Any) -> dict[str, int]:
    return dict(dask_scheduler.routed_calls)


def send_and_take_back(client: distributed.Client) -> dict[str, int]:
    """Host data over the scatter threshold to the workers, a result of the same size back
    (checked against NumPy's): the routed calls the scheduler saw meanwhile."""
    client.run_on_scheduler(counting_routed_calls)
    host = numpy.random.default_rng(5).random((600, 400))  # 1.9 MB: scattered
    x = dnp.array(host)
    numpy.testing.assert_array_equal(numpy.asarray(x * 2 + 1), host * 2 + 1)
    return dict(client.run_on_scheduler(routed_calls))


def test_the_embedded_cluster_moves_data_past_its_scheduler(embedded_cluster: None) -> None:
    client = cluster.client_for_computation()
    assert send_and_take_back(client) == dict.fromkeys(ROUTED, 0)


def test_a_users_client_keeps_distributeds_route(
    shared_client: distributed.Client, distributed_scheduler: None
) -> None:
    counts = send_and_take_back(shared_client)
    assert counts["scatter"] >= 1 and counts["gather"] >= 1
