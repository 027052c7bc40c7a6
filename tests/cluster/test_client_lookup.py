"""``client_lookup.default_client`` keeps its last answer: it must always give the client
``distributed.default_client()`` gives, whichever client was made, made current, closed or
dropped since."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import distributed
import pytest

from dask_gpunumeric._runtime.client_lookup import default_client


def distributed_answer() -> distributed.Client | None:
    try:
        return distributed.default_client()
    except ValueError:
        return None


def agrees() -> bool:
    ours = default_client()
    return ours is distributed_answer() and default_client() is ours  # cached answer too


@pytest.fixture(scope="module")
def scheduler() -> Iterator[distributed.LocalCluster]:
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster:
        yield cluster


def test_follows_every_change_of_the_default_client(scheduler, backend: str) -> None:
    if backend != "numpy":
        pytest.skip("clients do not depend on the chunk backend")
    assert default_client() is None and agrees()
    first = distributed.Client(scheduler)
    assert default_client() is first and agrees()
    second = distributed.Client(scheduler)
    assert default_client() is second and agrees()
    aside = distributed.Client(scheduler, set_as_default=False)
    assert default_client() is second and agrees()
    with aside.as_current():
        assert default_client() is aside and agrees()
    assert default_client() is second and agrees()
    second.close()
    assert default_client() is first and agrees()
    aside.close()
    first.close()
    assert default_client() is None and agrees()


def test_the_last_answer_is_held_weakly(scheduler, backend: str) -> None:
    if backend != "numpy":
        pytest.skip("clients do not depend on the chunk backend")
    client = distributed.Client(scheduler)
    assert default_client() is client and agrees()
    client.close()
    collected = weakref.ref(client)
    del client
    gc.collect()
    assert collected() is None  # nothing of ours kept it
    assert default_client() is None and agrees()


def test_no_client_is_an_answer_kept_until_one_is_made_or_made_current(
    scheduler, backend: str
) -> None:
    if backend != "numpy":
        pytest.skip("clients do not depend on the chunk backend")
    assert default_client() is None and agrees()  # asked, then kept
    asked: list[int] = []
    ask = distributed.default_client

    def counted(*args: object) -> distributed.Client:
        asked.append(1)
        return ask(*args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(distributed, "default_client", counted)
        assert [default_client() for _ in range(5)] == [None] * 5
    assert asked == []  # the kept answer: distributed not asked again
    aside = distributed.Client(scheduler, set_as_default=False)
    assert default_client() is None and agrees()
    with aside.as_current():
        assert default_client() is aside and agrees()
    assert default_client() is None and agrees()
    made = distributed.Client(scheduler)
    assert default_client() is made and agrees()
    made.close()
    aside.close()
    assert default_client() is None and agrees()
