"""dask-kubernetes operator ``DaskCluster`` of dask-cuda workers, and a ``Job`` that runs
``dgn-run`` against it, as plain dicts (write them with ``yaml.safe_dump_all``).

``dask_kubernetes.operator.make_cluster_spec`` gives the scheduler and the workers one shared
``resources`` dict, so asking it for ``nvidia.com/gpu: 1`` would park the scheduler on a GPU
too; :func:`cluster_spec` builds the spec without resources and then gives each its own.
The image (``deploy/docker/Dockerfile``) has ``dgn-run`` as its entrypoint, so every
container here names its ``command``. Regenerate the committed manifests with::

    python -m dask_gpunumeric.deploy.kubernetes --output-dir deploy/kubernetes
"""

from __future__ import annotations

import argparse
import copy
import pathlib
from collections.abc import Sequence
from typing import Any

IMAGE = "registry.example.org/dask-gpunumeric:0.1.0-cuda12"
PORT = 8786
TLS_DIR = "/etc/dgn/tls"  # where a kubernetes.io/tls Secret (ca.crt, tls.crt, tls.key) mounts
WORKER = ["python", "-m", "dask_cuda.cli"]  # `dask cuda worker`: one worker per GPU
SCHEDULER = ["python", "-m", "distributed.cli.dask_scheduler"]


def scheduler_address(cluster: str, protocol: str = "tcp") -> str:
    """The address of the operator's scheduler Service ``<cluster>-scheduler``."""
    return f"{protocol}://{cluster}-scheduler:{PORT}"


def cluster_spec(
    name: str = "dgn",
    *,
    image: str = IMAGE,
    n_workers: int = 2,
    gpus_per_worker: int = 1,
    worker_cpu: str = "4",
    worker_memory: str = "32Gi",
    protocol: str = "tcp",
    ucx_tls: str = "tcp,cuda_copy,cuda_ipc",
    tls_secret: str | None = None,
) -> dict[str, Any]:
    """A ``DaskCluster``: a CPU-only scheduler and ``n_workers`` pods with
    ``gpus_per_worker`` GPUs each (``nvidia.com/gpu`` limits on the workers only).

    ``protocol="ucx"`` exports ``UCX_TLS=ucx_tls`` to both; ``tls_secret`` (a
    ``kubernetes.io/tls`` Secret with ``ca.crt``) switches the cluster to TLS.
    """
    from dask_kubernetes.operator import make_cluster_spec

    protocol = "tls" if tls_secret else protocol
    env = {"UCX_TLS": ucx_tls} if protocol == "ucx" else None
    spec: dict[str, Any] = make_cluster_spec(
        name, image=image, n_workers=n_workers, env=env, worker_command=" ".join(WORKER)
    )
    scheduler = spec["spec"]["scheduler"]["spec"]["containers"][0]
    scheduler["command"] = SCHEDULER
    scheduler["args"] = ["--host", "0.0.0.0", "--port", str(PORT), "--protocol", protocol]
    scheduler["resources"] = {"limits": {"cpu": "1", "memory": "4Gi"}}
    worker = spec["spec"]["worker"]["spec"]["containers"][0]
    options = worker["args"][len(WORKER) :]  # make_worker_spec prepends the worker command
    worker["command"] = WORKER
    worker["args"] = [scheduler_address(name, protocol), *options, "--nthreads", worker_cpu]
    worker["resources"] = worker_resources(gpus_per_worker, worker_cpu, worker_memory)
    for pod in (spec["spec"]["scheduler"]["spec"], spec["spec"]["worker"]["spec"]):
        drop_nulls(pod["containers"][0])
        if tls_secret:
            mount_tls(pod, tls_secret, command_line=True)
    return spec


def worker_resources(gpus: int, cpu: str, memory: str) -> dict[str, Any]:
    """Requests equal to limits (a Guaranteed pod); GPUs only as limits, as device plugins
    require. Quantities are strings: the DaskCluster CRD types them so (an integer 1 is
    refused by the API server)."""
    limits: dict[str, Any] = {"cpu": cpu, "memory": memory}
    if gpus:
        limits["nvidia.com/gpu"] = str(gpus)
    return {"requests": {"cpu": cpu, "memory": memory}, "limits": limits}


def drop_nulls(container: dict[str, Any]) -> None:
    for key in [key for key, value in container.items() if value is None]:
        del container[key]


def mount_tls(pod: dict[str, Any], secret: str, *, command_line: bool) -> None:
    """Mount the Secret at :data:`TLS_DIR` in the pod's first container, and point it at
    the files: on the command line (scheduler, workers) or in Dask's config (clients)."""
    pod.setdefault("volumes", []).append({"name": "tls", "secret": {"secretName": secret}})
    container = pod["containers"][0]
    container.setdefault("volumeMounts", []).append(
        {"name": "tls", "mountPath": TLS_DIR, "readOnly": True}
    )
    files = (f"{TLS_DIR}/ca.crt", f"{TLS_DIR}/tls.crt", f"{TLS_DIR}/tls.key")
    if command_line:
        flags = ("--tls-ca-file", "--tls-cert", "--tls-key")
        container["args"] += [item for pair in zip(flags, files, strict=True) for item in pair]
        return
    prefix = "DASK_DISTRIBUTED__COMM__"
    names = ("TLS__CA_FILE", "TLS__CLIENT__CERT", "TLS__CLIENT__KEY")
    env = [{"name": prefix + name, "value": path} for name, path in zip(names, files, strict=True)]
    env.append({"name": prefix + "REQUIRE_ENCRYPTION", "value": "True"})
    container.setdefault("env", []).extend(env)


def stencil_job(
    cluster: str = "dgn",
    *,
    image: str = IMAGE,
    n_workers: int = 2,
    protocol: str = "tcp",
    tls_secret: str | None = None,
    script: Sequence[str] = ("examples/stencil.py", "--check"),
) -> dict[str, Any]:
    """A ``batch/v1`` Job running ``dgn-run --scheduler-address <cluster's scheduler>
    SCRIPT``, after an init container waited for the ``n_workers`` workers (the ``auto``
    backend asks the workers whether they see a GPU, so they must be there)."""
    protocol = "tls" if tls_secret else protocol
    address = scheduler_address(cluster, protocol)
    pod: dict[str, Any] = {
        "restartPolicy": "Never",
        "initContainers": [wait_for_workers_container(image, address, n_workers)],
        "containers": [
            {
                "name": "dgn-run",
                "image": image,
                "command": ["dgn-run"],
                "args": ["--verbose", "--scheduler-address", address, *script],
                "resources": {"limits": {"cpu": "1", "memory": "4Gi"}},
            }
        ],
    }
    if tls_secret:
        mount_tls(pod, tls_secret, command_line=False)
        client = pod["containers"][0]
        waiter = pod["initContainers"][0]
        waiter["volumeMounts"], waiter["env"] = copy.deepcopy(
            [client["volumeMounts"], client["env"]]
        )
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": f"{cluster}-stencil"},
        "spec": {"backoffLimit": 0, "template": {"spec": pod}},
    }


def wait_for_workers_container(image: str, address: str, workers: int) -> dict[str, Any]:
    """An init container that returns once ``workers`` workers joined ``address``."""
    wait = (
        "import sys, distributed; "
        "distributed.Client(sys.argv[1], timeout=600).wait_for_workers(int(sys.argv[2]), 600)"
    )
    return {
        "name": "wait-for-workers",
        "image": image,
        "command": ["python", "-c", wait, address, str(workers)],
    }


def write_manifests(directory: pathlib.Path, **options: Any) -> list[pathlib.Path]:
    """``daskcluster.yaml`` and ``stencil-job.yaml`` in ``directory``, from the same
    options (``name``, ``image``, ``n_workers``, ``protocol``, ``tls_secret``)."""
    import yaml

    job_keys = {"image", "n_workers", "protocol", "tls_secret"}
    job_options = {key: value for key, value in options.items() if key in job_keys}
    documents = {
        "daskcluster.yaml": cluster_spec(**options),
        "stencil-job.yaml": stencil_job(options.get("name", "dgn"), **job_options),
    }
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for filename, document in documents.items():
        path = directory / filename
        header = "# Generated by: python -m dask_gpunumeric.deploy.kubernetes (do not edit)\n"
        path.write_text(header + yaml.safe_dump(document, sort_keys=False))
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output-dir", type=pathlib.Path, default=pathlib.Path("."))
    parser.add_argument("--name", default="dgn", help="the DaskCluster's name")
    parser.add_argument("--image", default=IMAGE)
    parser.add_argument("--workers", type=int, default=2, dest="n_workers")
    parser.add_argument("--gpus-per-worker", type=int, default=1)
    parser.add_argument("--protocol", choices=("tcp", "ucx"), default="tcp")
    parser.add_argument("--tls-secret", help="a kubernetes.io/tls Secret: TLS everywhere")
    options = vars(parser.parse_args(argv))
    for path in write_manifests(options.pop("output_dir"), **options):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
