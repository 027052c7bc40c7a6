"""The embedded cluster's client, and a client the user made of workers on this machine,
send host data to the workers, take results back from them, and ask them for a check's
partial results, directly: the scheduler carries none of those bytes and forwards none of
those requests (its ``scatter``, ``gather`` and ``broadcast`` handlers, counted in the
scheduler's process, are never called). A client made with ``direct_to_workers=False``
keeps distributed's route (``_runtime/nearby_workers.py``). Values are NumPy's."""

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


@pytest.fixture
def direct_replies(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What each direct request of a check's partial results returned (``None``: it
    failed and ``Client.run`` asked instead)."""
    from dask_gpunumeric._runtime import parts_in_place

    replies: list[Any] = []
    asked = parts_in_place._asked_directly

    def recording(client: distributed.Client, jobs: Any) -> Any:
        replies.append(asked(client, jobs))
        return replies[-1]

    monkeypatch.setattr(parts_in_place, "_asked_directly", recording)
    return replies


def test_the_embedded_cluster_moves_data_past_its_scheduler(
    embedded_cluster: None, direct_replies: list[Any]
) -> None:
    client = cluster.client_for_computation()
    assert send_and_take_back(client) == dict.fromkeys(ROUTED, 0)
    assert len(direct_replies) == 3  # each check's parts, asked directly and answered
    assert all(isinstance(reply, dict) and reply for reply in direct_replies)


def test_a_worker_gone_sends_the_check_through_the_scheduler(
    embedded_cluster: None, direct_replies: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The client's list of its workers is refreshed every few seconds: with a worker in
    it that has left since (an address nobody listens on), the direct request fails
    within ``DIRECT_TIMEOUT`` and ``Client.run`` asks the workers the scheduler knows (its
    ``broadcast``); the value is NumPy's."""
    from dask_gpunumeric._runtime import parts_in_place, placement

    client = cluster.client_for_computation()
    host = numpy.random.default_rng(9).random((600, 400))
    persisted = (dnp.array(host) * 3).persist()
    distributed.wait(persisted)
    listed = placement.workers_of(client)
    monkeypatch.setattr(placement, "workers_of", lambda client: (*listed, "tcp://127.0.0.1:9"))
    monkeypatch.setattr(parts_in_place, "DIRECT_TIMEOUT", 0.5)
    client.run_on_scheduler(counting_routed_calls)
    assert float(persisted.sum()) == pytest.approx(float((host * 3).sum()), rel=1e-12)
    assert direct_replies == [None]
    assert client.run_on_scheduler(routed_calls)["broadcast"] == 1


# Last: the module's shared client stays the default client until the module ends.
def test_a_users_client_of_workers_on_this_machine_moves_data_past_its_scheduler(
    shared_client: distributed.Client, distributed_scheduler: None
) -> None:
    assert shared_client.direct_to_workers is None  # as a user makes it
    assert send_and_take_back(shared_client) == dict.fromkeys(ROUTED, 0)


def test_a_users_client_told_not_to_keeps_distributeds_route(
    shared_client: distributed.Client, distributed_scheduler: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared_client, "direct_to_workers", False)
    counts = send_and_take_back(shared_client)
    assert counts["scatter"] >= 1 and counts["gather"] >= 1 and counts["broadcast"] >= 1
