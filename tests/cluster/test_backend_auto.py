"""``gpunumeric.backend: auto`` asks the workers (``client.run``), not this process; the
real probe there says what this machine has (the workers are its processes); answers are
cached per cluster."""

from __future__ import annotations

import os

import distributed
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import choice, get_backend
from dask_gpunumeric._backends.cupy_backend import device_available


@pytest.fixture
def workers_cluster():
    """Two worker processes, a client, distributed mode, fresh auto answers."""
    choice.forget_answers()
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
        ) as local,
        distributed.Client(local) as client,
        dnp.config.set(scheduler="distributed", backend="auto"),
    ):
        yield client
    choice.forget_answers()


def test_the_real_probe_on_the_workers_says_what_this_machine_has(workers_cluster) -> None:
    seen = device_available()
    name, how = choice.auto_choice()
    assert name == ("cupy" if seen else "numpy")
    assert f"{2 if seen else 0} of 2 worker(s) of {workers_cluster.scheduler.address}" in how
    assert get_backend().name == name


def test_a_fake_probe_runs_on_the_workers_not_here(workers_cluster, monkeypatch) -> None:
    here = os.getpid()
    # True only in another process: "cupy" proves the question went to the workers.
    monkeypatch.setattr(choice._Probe, "function", lambda: os.getpid() != here)
    assert choice.auto_choice()[0] == "cupy"


def test_answers_are_cached_per_cluster(workers_cluster, monkeypatch) -> None:
    monkeypatch.setattr(choice._Probe, "function", lambda: False)
    assert choice.resolve_auto() == "numpy"
    monkeypatch.setattr(choice._Probe, "function", lambda: True)
    assert choice.resolve_auto() == "numpy"  # cached for this cluster
    choice.forget_answers()
    assert choice.resolve_auto() == "cupy"


def test_without_a_cluster_the_probe_runs_here() -> None:
    choice.forget_answers()
    with dnp.config.set(scheduler="threads", backend="auto"):
        name, how = choice.auto_choice()
    seen = device_available()
    assert name == ("cupy" if seen else "numpy")
    assert f"probed here: CuPy sees {'a' if seen else 'no'} device" in how


def test_a_worker_lost_while_probed_is_left_out(workers_cluster, tmp_path) -> None:
    """The first worker to run the probe dies in it (a SIGKILL mid-broadcast, as the
    chaos run's kills land): the other worker's answer decides, no error is raised
    (it was ``CommClosedError`` from ``client.run`` before), and it is cached."""
    marker = str(tmp_path / "died")

    def dies_once() -> bool:
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return False
        os.kill(os.getpid(), 9)
        return True  # not reached

    choice._Probe.function = dies_once
    try:
        name, how = choice.auto_choice()
    finally:
        choice._Probe.function = device_available
    assert os.path.exists(marker), "no worker ran the probe"
    assert name == "numpy"
    assert f"0 of 1 worker(s) of {workers_cluster.scheduler.address}" in how


def test_what_the_probe_raises_on_a_worker_is_raised_here(workers_cluster, monkeypatch) -> None:
    def broken() -> bool:
        raise ValueError("probe broke")

    monkeypatch.setattr(choice._Probe, "function", broken)
    with pytest.raises(ValueError, match="probe broke"):
        choice.auto_choice()


def test_no_worker_answering_is_a_clear_error_in_bounded_time(workers_cluster, monkeypatch) -> None:
    monkeypatch.setattr(choice.execution, "run_on_workers", lambda function: {})
    with (
        dnp.config.set(scheduler_timeout="0.5s"),
        pytest.raises(RuntimeError, match="no worker answered the device probe within 0.5 s"),
    ):
        choice.auto_choice()
    assert not choice._Probe.answers, "nothing cached"
