"""``execution.compute/persist`` in the local modes (the distributed mode is tested in
``tests/cluster/``): the scheduler key is honoured, the last computation is recorded for
``dgn-run --dataflow``, the progress bar shows when asked."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import execution
from dask_gpunumeric.testing import assert_eq


@pytest.mark.parametrize("scheduler", ["threads", "synchronous"])
def test_local_schedulers_compute_and_record_the_last_collection(scheduler) -> None:
    with dnp.config.set(scheduler=scheduler):
        x = dnp.arange(12.0).reshape(3, 4)
        assert_eq(x.sum(axis=1) * 2, numpy.arange(12.0).reshape(3, 4).sum(axis=1) * 2)
        (last,) = execution.last_computed()
        assert last.shape == (3,)


def test_an_unknown_scheduler_says_which_exist() -> None:
    with dnp.config.set(scheduler="processes"), pytest.raises(ValueError, match="threads"):
        float(dnp.ones(3).sum())


def test_the_progress_bar_shows_when_asked(capsys) -> None:
    with dnp.config.set(progress=True):
        float(dnp.ones((200, 200)).sum())
    assert "100% Completed" in capsys.readouterr().out
    float(dnp.ones((200, 200)).sum())
    assert capsys.readouterr().out == ""


def test_in_client_holds_for_its_own_thread_only() -> None:
    """A ``placed()`` block on one thread (the small-work policy keeping work here) must
    not send another thread's computations to dask's threads in this process."""
    import threading

    with dnp.config.set(scheduler="distributed"):
        entered, leave = threading.Event(), threading.Event()
        seen: list[bool] = []

        def inside() -> None:
            with execution.in_client():
                seen.append(execution.on_cluster())
                entered.set()
                leave.wait(10)

        thread = threading.Thread(target=inside)
        thread.start()
        assert entered.wait(10)
        try:
            assert execution.on_cluster()  # this thread: still the cluster
        finally:
            leave.set()
            thread.join()
        assert seen == [False]
        assert execution.on_cluster()
