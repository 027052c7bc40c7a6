"""The job scripts :func:`dask_gpunumeric.deploy.slurm.slurm_job_options` generates, one per
case, kept under ``tests/deploy/golden/`` and compared exactly by
``test_slurm_job_scripts.py``. After an intended change, regenerate them and review the diff:

    python -m tests.deploy.slurm_golden
"""

from __future__ import annotations

import pathlib
from typing import Any

from dask_gpunumeric.deploy import TLSFiles
from dask_gpunumeric.deploy.slurm import slurm_job_options

GOLDEN = pathlib.Path(__file__).parent / "golden"
SCHEDULER = "{protocol}://scheduler.example:8786"
PYTHON = "/opt/dgn/bin/python"
WORKER_NAME = "dummy-name"  # what SLURMCluster.job_script() shows; each job gets its own

CASES: dict[str, dict[str, Any]] = {
    "one_gpu_tcp": {},
    "four_gpus_ucx_infiniband": {
        "gpus_per_node": 4,
        "cpus_per_worker": 8,
        "memory_per_worker": "60GiB",
        "protocol": "ucx",
        "interface": "ib0",
        "ucx_tls": "rc,cuda_copy,cuda_ipc,tcp",
        "queue": "gpu",
        "account": "project42",
        "walltime": "04:00:00",
    },
    "tls_certificates": {
        "tls": TLSFiles("/etc/dgn/tls/ca.pem", "/etc/dgn/tls/dgn.pem", "/etc/dgn/tls/dgn.key"),
        "prologue": ["source /opt/dgn/bin/activate"],
    },
    "cpu_workers": {"gpus_per_node": 0, "cpus_per_worker": 2, "memory_per_worker": "4GiB"},
}


def job_script(case: str) -> str:
    """The case's job script, for a scheduler at a fixed address (no cluster started)."""
    from dask_jobqueue.slurm import SLURMJob

    options = slurm_job_options(python=PYTHON, **CASES[case])
    address = SCHEDULER.format(protocol=options["protocol"])
    return str(SLURMJob(scheduler=address, name=WORKER_NAME, **options).job_script())


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for case in CASES:
        (GOLDEN / f"slurm_{case}.sh").write_text(job_script(case))
        print(f"wrote {GOLDEN / f'slurm_{case}.sh'}")


if __name__ == "__main__":
    main()
