"""Job scripts of :mod:`dask_gpunumeric.deploy.slurm`, compared exactly with the golden files
(regenerate: ``python -m tests.deploy.slurm_golden``), and the ``SLURMCluster`` the helper
builds: its job script is the golden one, and (``-m slurm``) its jobs start real workers on
the local SLURM that compute the stencil equal to NumPy's."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from typing import Any

import numpy
import pytest

import dask_gpunumeric
from dask_gpunumeric.deploy import TLSFiles
from dask_gpunumeric.deploy.slurm import slurm_cluster, slurm_job_options
from dask_gpunumeric.testing import assert_eq
from examples.stencil import stencil
from tests.deploy.conftest import REPOSITORY
from tests.deploy.local_slurm import LocalSlurm
from tests.deploy.slurm_golden import CASES, GOLDEN, PYTHON, job_script

pytest.importorskip("dask_jobqueue", reason="pip install '.[deploy]'")
distributed = pytest.importorskip("distributed")


@pytest.mark.parametrize("case", sorted(CASES))
def test_job_script_is_the_golden_one(case: str) -> None:
    expected = (GOLDEN / f"slurm_{case}.sh").read_text()
    assert job_script(case) == expected, "regenerate: python -m tests.deploy.slurm_golden"


def test_gpu_jobs_run_dask_cuda_one_worker_per_gpu() -> None:
    options = slurm_job_options(gpus_per_node=4, cpus_per_worker=8, memory_per_worker="60GiB")
    assert options["worker_command"] == "dask_cuda.cli"  # a module: jobqueue runs python -m
    assert options["processes"] == 4 and options["cores"] == 32
    assert options["memory"] == "240.00GiB"
    assert options["job_extra_directives"] == ["--gres=gpu:4"]


def test_tls_files_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert TLSFiles.from_environment() is None or "DGN_TLS_CA_FILE" in os.environ
    monkeypatch.setenv("DGN_TLS_CA_FILE", "/tls/ca.pem")
    monkeypatch.setenv("DGN_TLS_CERT", "/tls/dgn.pem")
    monkeypatch.delenv("DGN_TLS_KEY", raising=False)
    with pytest.raises(ValueError, match="set DGN_TLS_KEY"):
        TLSFiles.from_environment()
    monkeypatch.setenv("DGN_TLS_KEY", "/tls/dgn.key")
    assert TLSFiles.from_environment() == TLSFiles("/tls/ca.pem", "/tls/dgn.pem", "/tls/dgn.key")


def test_slurm_cluster_writes_the_golden_job_script() -> None:
    with slurm_cluster(
        python=PYTHON, scheduler_options={"host": "127.0.0.1", "dashboard_address": ":0"}
    ) as cluster:
        script = cluster.job_script()
        address = cluster.scheduler_address
    assert re.fullmatch(r"tcp://127\.0\.0\.1:\d+", address)
    golden = (GOLDEN / "slurm_one_gpu_tcp.sh").read_text()
    assert script.replace(address, "tcp://scheduler.example:8786") == golden


@pytest.fixture(scope="module")
def jobqueue_client(
    local_slurm: LocalSlurm, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """A client of a ``slurm_cluster`` scaled to one job on the local SLURM (CPU workers:
    no GPU here; the gpu GRES is still asked for). Shared by both backends' tests: the
    backend is the client's choice, the workers run whatever chunks they are sent."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in local_slurm.env.items():
            patch.setenv(name, value)  # dask-jobqueue runs sbatch with our environment
        cluster = slurm_cluster(
            gpus_per_node=0,
            job_extra_directives=["--gres=gpu:1"],
            cpus_per_worker=2,
            memory_per_worker="2GiB",
            python=sys.executable,
            prologue=[f"export PYTHONPATH={REPOSITORY}"],
            log_directory=str(tmp_path_factory.mktemp("jobqueue")),
            scheduler_options={"host": "127.0.0.1", "dashboard_address": ":0"},
        )
        with cluster, distributed.Client(cluster) as client:
            cluster.scale(jobs=1)
            client.wait_for_workers(1, timeout=120)
            yield client


@pytest.mark.slurm
@pytest.mark.timeout(300)
@pytest.mark.not_on_cupy(
    reason="the local SLURM's gpu GRES are fake (/dev/null, /dev/zero): its job gets "
    "CUDA_VISIBLE_DEVICES=0 or 1, and on a one-GPU machine 1 hides the device from CuPy"
)
def test_slurm_cluster_jobs_compute_on_the_local_slurm(jobqueue_client: Any) -> None:
    placement = jobqueue_client.run(
        lambda: (os.environ["SLURM_JOB_ID"], os.environ["SLURM_JOB_GPUS"])
    )
    assert [gpus in {"0", "1"} for _, gpus in placement.values()] == [True]  # one fake gpu
    # On the workers, however small (the small-work policy would keep it in the client).
    with dask_gpunumeric.config.set(scheduler="distributed", client_work_bytes=0):
        ours = stencil(dask_gpunumeric, 200, 10)
        assert_eq(ours, stencil(numpy, 200, 10))
