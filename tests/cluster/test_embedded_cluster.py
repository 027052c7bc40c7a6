"""The embedded default cluster: started at the first computation, once, reused; bound to
127.0.0.1 with one single-threaded worker per core and numerical libraries' thread pools
sized to match; an active Client is used instead; a script without a main guard works."""

from __future__ import annotations

import os
import subprocess
import sys

import distributed
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import cluster
from dask_gpunumeric._runtime.cluster import THREAD_ENV_VARS
from dask_gpunumeric.testing import assert_eq


@pytest.fixture
def distributed_mode():
    assert cluster.active_client() is None, "another test left a client active"
    with dnp.config.set(scheduler="distributed"):
        yield
    cluster.close_embedded()


def test_started_once_at_the_first_computation_and_reused(distributed_mode) -> None:
    x = dnp.arange(10_000.0).reshape(100, 100)
    assert cluster.embedded_cluster() is None  # building needs no cluster
    assert_eq(x * 2, numpy.arange(10_000.0).reshape(100, 100) * 2)
    started = cluster.embedded_cluster()
    assert started is not None
    assert_eq((x + 1).sum(axis=0), (numpy.arange(10_000.0).reshape(100, 100) + 1).sum(axis=0))
    assert cluster.embedded_cluster() is started
    client = cluster.active_client()
    assert client is not None and client.scheduler.address == started.scheduler_address
    workers = client.scheduler_info()["workers"]
    assert len(workers) == os.cpu_count()
    assert all(address.startswith("tcp://127.0.0.1:") for address in workers)
    assert {w["nthreads"] for w in workers.values()} == {1}
    assert started.scheduler_address.startswith("tcp://127.0.0.1:")
    thread_pools = client.run(lambda: {name: os.environ.get(name) for name in THREAD_ENV_VARS})
    assert all(pools == dict.fromkeys(THREAD_ENV_VARS, "1") for pools in thread_pools.values())


def test_an_active_client_is_used_instead(distributed_mode) -> None:
    with (
        distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as theirs,
        distributed.Client(theirs),
    ):
        x = dnp.ones((64, 64))
        assert_eq((x * 3).sum(), numpy.ones((64, 64)).__mul__(3).sum())
        computed = sum(p.state_counts["memory"] for p in theirs.scheduler.task_prefixes.values())
        assert computed > 0
    assert cluster.embedded_cluster() is None


def test_a_script_without_a_main_guard_runs_once_and_exits_quietly(tmp_path) -> None:
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import dask_gpunumeric as np\n"
        "print('top level')\n"
        "print(float((np.arange(20_000.0) * 2).sum()))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DASK_GPUNUMERIC__")}
    env["PYTHONPATH"] = os.pathsep.join([os.getcwd(), env.get("PYTHONPATH", "")])
    run = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=240
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"top level\n{float((numpy.arange(20_000.0) * 2).sum())}\n"
    assert run.stderr == ""  # no warnings, no tracebacks at interpreter shutdown


def test_dask_persist_before_any_computation_runs_on_the_embedded_cluster(
    distributed_mode,
) -> None:
    """``dask.persist``/``dask.compute`` of our arrays with no client yet: dask asks the
    collection for its scheduler, which starts the embedded cluster as ours do."""
    import dask

    host = numpy.arange(10_000.0).reshape(100, 100)
    x = dnp.array(host) * 2
    assert cluster.embedded_cluster() is None
    (persisted,) = dask.persist(x)
    started = cluster.embedded_cluster()
    assert started is not None
    client = cluster.active_client()
    assert client is not None
    computed = client.run_on_scheduler(
        lambda dask_scheduler: sum(
            p.state_counts["memory"] + p.state_counts["released"] + p.state_counts["forgotten"]
            for p in dask_scheduler.task_prefixes.values()
        )
    )
    assert computed > 0
    assert_eq(persisted, host * 2)
    (computed_value,) = dask.compute(x.sum())
    assert computed_value == (host * 2).sum()
