"""The embedded cluster's client sends host data to its workers, takes results back from
them, and asks them for a check's partial results, directly: the scheduler carries none
of those bytes and forwards none of those requests (its ``scatter``, ``gather`` and
``broadcast`` handlers, counted in the scheduler's process, are never called), as it does
for a client the user made (distributed's default route, kept). Values are NumPy's."""

from __future__ import annotations

from typing import Any

import distributed
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import cluster

# The scheduler's handlers that carry the data itself, and the one that forwards
# ``Client.run`` (a check's partial results computed where the blocks are).
ROUTED = ("scatter", "gather", "broadcast")


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
    """Host data over the scatter threshold to the workers, a result of the same size back,
    and checks of persisted arrays (each checked against NumPy's): the routed calls the
    scheduler saw meanwhile."""
    client.run_on_scheduler(counting_routed_calls)
    host = numpy.random.default_rng(5).random((600, 400))  # 1.9 MB: scattered
    x = dnp.array(host)
    numpy.testing.assert_array_equal(numpy.asarray(x * 2 + 1), host * 2 + 1)
    persisted = (x * 3).persist()
    distributed.wait(persisted)
    for _ in range(3):
        assert float(persisted.sum()) == pytest.approx(float((host * 3).sum()), rel=1e-12)
    return dict(client.run_on_scheduler(routed_calls))


def test_the_embedded_cluster_moves_data_past_its_scheduler(embedded_cluster: None) -> None:
    client = cluster.client_for_computation()
    assert send_and_take_back(client) == dict.fromkeys(ROUTED, 0)


def test_a_worker_gone_sends_the_check_the_schedulers_way(
    embedded_cluster: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The client's list of its workers is refreshed every few seconds: a worker that has
    left since (an address nobody listens on) costs at most ``DIRECT_TIMEOUT`` before the
    check takes the scheduler's route, and the value is NumPy's."""
    from dask_gpunumeric._runtime import parts_in_place, placement

    host = numpy.random.default_rng(9).random((600, 400))
    persisted = (dnp.array(host) * 3).persist()
    distributed.wait(persisted)
    listed = placement.workers_of(cluster.client_for_computation())
    monkeypatch.setattr(placement, "workers_of", lambda client: (*listed, "tcp://127.0.0.1:9"))
    monkeypatch.setattr(parts_in_place, "DIRECT_TIMEOUT", 0.5)
    asked: list[Any] = []
    monkeypatch.setattr(parts_in_place, "computed_where_held", _recording(asked))
    assert float(persisted.sum()) == pytest.approx(float((host * 3).sum()), rel=1e-12)
    assert asked == [None]  # asked directly, then the scheduler's route


def _recording(asked: list[Any]) -> Any:
    from dask_gpunumeric._runtime import parts_in_place

    computed = parts_in_place.computed_where_held

    def recording(client: distributed.Client, jobs: Any) -> Any:
        asked.append(computed(client, jobs))
        return asked[-1]

    return recording


# Last: the module's shared client stays the default client until the module ends.
def test_a_users_client_keeps_distributeds_route(
    shared_client: distributed.Client, distributed_scheduler: None
) -> None:
    counts = send_and_take_back(shared_client)
    assert counts["scatter"] >= 1 and counts["gather"] >= 1 and counts["broadcast"] >= 1
