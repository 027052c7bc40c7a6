"""dask-jobqueue ``SLURMCluster`` of dask-cuda workers for dask_gpunumeric.

Each SLURM job is one node's worth of workers: ``--gres=gpu:N`` asks SLURM for N GPUs and
``python -m dask_cuda.cli`` (dask-cuda's ``dask cuda worker``) starts one worker per GPU it
is given, each with ``cpus_per_worker`` threads and ``memory_per_worker`` of host memory::

    from distributed import Client
    from dask_gpunumeric.deploy.slurm import slurm_cluster

    cluster = slurm_cluster(gpus_per_node=4, queue="gpu", walltime="02:00:00")
    cluster.scale(jobs=2)  # 2 nodes, 8 GPU workers
    client = Client(cluster)

Why ``worker_command="dask_cuda.cli"``: dask-jobqueue runs ``{python} -m {worker_command}``,
so the value must be a module; ``dask_cuda.cli`` runs the ``worker`` command when run as a
module, while ``"dask-cuda-worker"`` (a console script, not a module) makes every job fail
with "No module named dask-cuda-worker". jobqueue divides ``cores`` and ``memory`` by
``processes`` for ``--nthreads`` and ``--memory-limit``, and expects ``processes`` workers
per job named ``<name>-<i>``: dask-cuda names its per-GPU workers that way, so ``processes``
is the GPU count.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from dask.utils import format_bytes, parse_bytes

from . import TLSFiles

GPU_WORKER = "dask_cuda.cli"
CPU_WORKER = "distributed.cli.dask_worker"


def slurm_job_options(
    *,
    gpus_per_node: int = 1,
    cpus_per_worker: int = 4,
    memory_per_worker: str = "32GiB",
    walltime: str = "01:00:00",
    queue: str | None = None,
    account: str | None = None,
    protocol: str = "tcp",
    interface: str | None = None,
    ucx_tls: str | None = None,
    tls: TLSFiles | None = None,
    python: str = sys.executable,
    prologue: Sequence[str] = (),
    job_extra_directives: Sequence[str] = (),
) -> dict[str, Any]:
    """Keyword arguments of ``dask_jobqueue.SLURMCluster`` for one node of GPU workers.

    Parameters
    ----------
    gpus_per_node
        GPUs each job asks for (``--gres=gpu:N``) and workers it starts, one per GPU; 0
        starts one CPU worker (``distributed``'s) and asks for no GPU.
    cpus_per_worker, memory_per_worker
        Threads and host memory of each worker; the job asks for N times both.
    walltime, queue, account
        The job's ``--time``, ``--partition`` and ``--account``.
    protocol, interface
        ``tcp`` or ``ucx`` (then ``pip install distributed-ucxx-cu12``), and the network
        interface (``ib0``) of the scheduler and the workers.
    ucx_tls
        Exported as ``UCX_TLS`` in the job (e.g. ``"rc,cuda_copy,cuda_ipc,tcp"``); unset,
        UCX picks its transports.
    tls
        Certificates: TLS between scheduler, workers and client (protocol ``tls``), e.g.
        ``TLSFiles.from_environment()`` (``DGN_TLS_CA_FILE``, ``DGN_TLS_CERT``,
        ``DGN_TLS_KEY``, as ``deploy/slurm/stencil.sbatch`` reads them).
    python, prologue, job_extra_directives
        The interpreter the jobs run, shell lines before the worker starts (``module load``,
        ``source venv/bin/activate``), and more ``#SBATCH`` directives.
    """
    workers = max(gpus_per_node, 1)
    gres = [f"--gres=gpu:{gpus_per_node}"] if gpus_per_node else []
    options: dict[str, Any] = {
        "job_name": "dgn-workers",
        "worker_command": GPU_WORKER if gpus_per_node else CPU_WORKER,
        "processes": workers,
        "cores": cpus_per_worker * workers,
        "memory": format_bytes(parse_bytes(memory_per_worker) * workers).replace(" ", ""),
        "walltime": walltime,
        "queue": queue,
        "account": account,
        "protocol": "tls" if tls else protocol,
        "interface": interface,
        "python": python,
        "job_extra_directives": [*gres, *job_extra_directives],
        "job_script_prologue": [*prologue, *([f"export UCX_TLS={ucx_tls}"] if ucx_tls else [])],
    }
    if tls:
        options["security"] = tls_security(tls)
    return options


def tls_security(tls: TLSFiles) -> Any:
    """A ``distributed.Security`` that presents ``tls``'s certificate in every role."""
    from distributed.security import Security

    roles = ("scheduler", "worker", "client")
    files = {f"tls_{role}_{part}": getattr(tls, part) for role in roles for part in ("cert", "key")}
    return Security(tls_ca_file=tls.ca_file, require_encryption=True, **files)


def slurm_cluster(**options: Any) -> Any:
    """A ``dask_jobqueue.SLURMCluster`` built from :func:`slurm_job_options` (same keywords;
    any other keyword goes to ``SLURMCluster`` itself, e.g. ``log_directory``)."""
    try:
        from dask_jobqueue import SLURMCluster
    except ImportError as error:
        raise ImportError(
            "dask_gpunumeric.deploy.slurm needs dask-jobqueue: "
            "pip install 'dask_gpunumeric[deploy]'"
        ) from error
    names = set(slurm_job_options.__kwdefaults__ or {})
    ours = {key: value for key, value in options.items() if key in names}
    theirs = {key: value for key, value in options.items() if key not in names}
    return SLURMCluster(**slurm_job_options(**ours), **theirs)
