"""``deploy/slurm/stencil.sbatch`` submitted to a real (single-node, local) SLURM: the job
starts a scheduler and workers with ``srun``, ``dgn-run --scheduler-file`` runs the stencil on
them, and the checksum it prints equals NumPy's, computed here.

The run on the simulated device also goes over TLS, with the README's self-signed
certificate: two jobs cover both backends and both protocols. Both are submitted at once
with ``--cpus-per-task=1`` (overriding the script's 2), so they run side by side on the
2-CPU node."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import numpy
import pytest

from examples.stencil import stencil
from tests.deploy.conftest import DEPLOY, REPOSITORY
from tests.deploy.local_slurm import LocalSlurm

pytestmark = [pytest.mark.slurm, pytest.mark.timeout(300)]

N, ITERATIONS = 200, 20
PROTOCOL = {"numpy": "tcp", "simulated-device": "tls"}  # backend -> protocol of its job


@dataclass(frozen=True)
class Submission:
    job: str
    output: pathlib.Path
    protocol: str


def job_environment(tmp_path: pathlib.Path, backend: str) -> dict[str, str]:
    """CPU workers (no GPU here), this interpreter, this checkout of the package (its
    ``dgn-run`` too, whatever an install put on PATH), the test's chunk backend."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    dgn_run = bin_dir / "dgn-run"
    dgn_run.write_text(f'#!/bin/sh\nexec {sys.executable} -m dask_gpunumeric.cli "$@"\n')
    dgn_run.chmod(0o755)
    return {
        "DASK_GPUNUMERIC__BACKEND": backend,
        "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "120s",  # a loaded 2-core machine
        "DGN_WORKER_KIND": "cpu",
        "DGN_PYTHON": sys.executable,
        "DGN_SCHEDULER_FILE": str(tmp_path / "scheduler.json"),
        "DGN_SCHEDULER_PORT": "0",  # any free port: the scheduler file tells where
        "PATH": os.pathsep.join([str(bin_dir), os.environ["PATH"]]),
        "PYTHONPATH": str(REPOSITORY),
    }


def tls_environment(tmp_path: pathlib.Path) -> dict[str, str]:
    """A self-signed certificate made as deploy/slurm/README.md shows, as ``DGN_TLS_*``."""
    key, pem = tmp_path / "dgn.key", tmp_path / "dgn.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30"]
        + ["-subj", "/CN=dgn", "-keyout", str(key), "-out", str(pem)],
        check=True,
        capture_output=True,
    )
    return {"DGN_TLS_CA_FILE": str(pem), "DGN_TLS_CERT": str(pem), "DGN_TLS_KEY": str(key)}


def printed_checksum(output: str) -> float:
    found = re.search(r"checksum=(\S+) time/iteration=.*\(dask_gpunumeric,", output)
    assert found, f"no dask_gpunumeric checksum in the job's output:\n{output}"
    return float(found.group(1))


@pytest.fixture(scope="module")
def submissions(
    local_slurm: LocalSlurm, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Submission]]:
    """One job per backend, all submitted before any test waits."""
    submitted = {}
    for backend, protocol in PROTOCOL.items():
        folder = tmp_path_factory.mktemp(f"sbatch-{backend}")
        env = job_environment(folder, backend)
        if protocol == "tls":
            env.update(tls_environment(folder))
        output = folder / "job.out"
        job = local_slurm.sbatch(
            [f"--output={output}", "--cpus-per-task=1", str(DEPLOY / "slurm" / "stencil.sbatch")]
            + ["examples/stencil.py", "--check", "-n", str(N), "-i", str(ITERATIONS)],
            cwd=REPOSITORY,
            env=env,
        )
        submitted[backend] = Submission(job, output, protocol)
    yield submitted


@pytest.mark.not_on_cupy(
    reason="the local SLURM's gpu GRES are fake (/dev/null, /dev/zero) and its jobs start CPU "
    "workers (DGN_WORKER_KIND=cpu) with CUDA_VISIBLE_DEVICES=0 or 1: on a one-GPU machine "
    "1 hides the device; one job per CPU backend covers the script"
)
def test_sbatch_runs_the_stencil_on_slurm_workers(
    local_slurm: LocalSlurm, submissions: dict[str, Submission], backend: str
) -> None:
    job, protocol = submissions[backend].job, submissions[backend].protocol
    state = local_slurm.wait(job, timeout=240)
    text = submissions[backend].output.read_text()
    assert state == "COMPLETED", f"job {job} ended {state}:\n{text}"
    expected = float(stencil(numpy, N, ITERATIONS).sum())
    assert printed_checksum(text) == pytest.approx(expected, rel=1e-6, abs=1e-6)
    assert re.search(rf"1 worker\(s\) joined {protocol}://", text), text
    assert re.search(r"CUDA_VISIBLE_DEVICES=[01]\b", text)  # SLURM gave it one (fake) gpu
    details = subprocess.run(
        ["scontrol", "show", "job", job], env=local_slurm.env, capture_output=True, text=True
    ).stdout
    assert "TresPerNode=gres:gpu:1" in details
