"""``dgn-run script.py [args]``: run a NumPy script on a Dask cluster, like
``legate --gpus 8 script.py``.

The cluster starts before the script does (so its workers never import the script): the
embedded default cluster (``--gpus``, ``--cpus``, ``--threads-per-worker``,
``--memory-limit``, ``--protocol``, ``--tls``; bound to 127.0.0.1), or an existing one (``--scheduler-address``,
``--scheduler-file``: how SLURM and Kubernetes runs connect). The script runs as
``__main__`` with ``sys.argv = [script, *args]``; its exit code is dgn-run's, and an
exception in it prints the script's own traceback and exits 1.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import runpy
import shutil
import sys
import traceback
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Any

import distributed

from . import config
from ._backends import get_backend
from ._backends.choice import auto_choice
from ._runtime import cluster, execution
from ._runtime.security import cluster_security, describe_security


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dgn-run", description="Run a NumPy script with dask_gpunumeric on a Dask cluster."
    )
    add = parser.add_argument
    add("--gpus", type=int, help="GPU workers of the local cluster (LocalCUDACluster)")
    add("--cpus", type=int, help="CPU workers of the local cluster (default: one per core)")
    add("--threads-per-worker", type=int, help="threads per worker (default 1)")
    add("--memory-limit", help="memory limit per worker, e.g. 4GiB (default: auto)")
    add("--device-memory-limit", help="GPU workers spill to host beyond this, e.g. 12GiB")
    add("--protocol", choices=("tcp", "ucx"), help="protocol of the local cluster")
    add("--tls", action="store_true", help="TLS between client, scheduler and workers")
    add("--tls-ca-file", help="CA certificate of the cluster (default: temporary certificates)")
    add("--tls-cert", help="certificate of this client and the local cluster (PEM)")
    add("--tls-key", help="private key of --tls-cert (if not in the certificate file)")
    add("--scheduler-address", help="join the cluster of this scheduler (tcp://host:port)")
    add("--scheduler-file", help="join the cluster described by this scheduler file")
    add("--profile", metavar="OUT.html", help="write a distributed performance report")
    add("--dataflow", metavar="GRAPH.svg", help="draw the last computation's graph (graphviz)")
    add("--progress", action="store_true", help="show a progress bar while computing")
    add("--verbose", action="store_true", help="print the cluster, backend and dashboard link")
    add("script", help="the Python script to run")
    add("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    options = build_parser().parse_args(argv)
    check_optional_dependencies(options)
    _configure(options)
    client = _connect(options)
    try:
        if options.verbose:
            _describe(client)
        with _profiled(options.profile):
            status = run_script(options.script, options.args)
        if options.dataflow:
            draw_dataflow(options.dataflow)
        return status
    finally:
        if options.scheduler_address or options.scheduler_file:
            client.close()
        cluster.close_embedded()


# flag -> (Python packages it imports, programs it runs, what to install)
FLAG_DEPENDENCIES: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "profile": (("bokeh",), (), "pip install 'dask_gpunumeric[diagnostics]'"),
    "dataflow": (
        ("graphviz",),
        ("dot",),
        "pip install 'dask_gpunumeric[diagnostics]' and the graphviz program "
        "(apt-get install graphviz)",
    ),
}


def check_optional_dependencies(options: argparse.Namespace) -> None:
    """Exit, before any cluster starts or the script runs, when a flag given needs a
    package or program that is missing (a report written only after a long run must
    not fail at the end for want of bokeh)."""
    for flag, (packages, programs, install) in FLAG_DEPENDENCIES.items():
        if not getattr(options, flag):
            continue
        missing = [name for name in packages if not _importable(name)]
        missing += [f"the {name} program" for name in programs if shutil.which(name) is None]
        if missing:
            raise SystemExit(
                f"dgn-run: --{flag} needs {', '.join(missing)}, which is not installed: {install}"
            )


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def _configure(options: argparse.Namespace) -> None:
    settings: dict[str, Any] = {"scheduler": "distributed", "progress": options.progress}
    if options.protocol:
        settings["protocol"] = options.protocol
    if options.cpus is not None:
        settings["cluster.workers"] = options.cpus
        settings["cluster.gpus"] = options.gpus or 0
    if options.gpus is not None:
        _check_gpus(options.gpus)
        settings["cluster.gpus"] = options.gpus
    if options.threads_per_worker is not None:
        settings["cluster.threads-per-worker"] = options.threads_per_worker
    if options.memory_limit is not None:
        settings["cluster.memory-limit"] = options.memory_limit
    if options.device_memory_limit is not None:
        settings["cluster.device-memory-limit"] = options.device_memory_limit
    settings.update(_tls_settings(options))
    config.set(**settings)  # for the whole run, not as a context


def _tls_settings(options: argparse.Namespace) -> dict[str, Any]:
    paths = {"tls-ca-file": options.tls_ca_file, "tls-cert": options.tls_cert}
    paths["tls-key"] = options.tls_key
    given = {key: path for key, path in paths.items() if path}
    return {"tls": True, **given} if options.tls or given else {}


def _check_gpus(gpus: int) -> None:
    seen = cluster.local_gpu_count()
    if gpus > seen:
        raise SystemExit(
            f"dgn-run: --gpus {gpus} asked, but NVML sees {seen} GPU(s) on this machine; "
            "run with --cpus N for a CPU cluster, or --scheduler-address to join a GPU cluster"
        )


def _connect(options: argparse.Namespace) -> distributed.Client:
    security = cluster_security()
    if options.scheduler_address:
        return distributed.Client(options.scheduler_address, security=security)
    if options.scheduler_file:
        return distributed.Client(scheduler_file=options.scheduler_file, security=security)
    return cluster.client_for_computation()


def _describe(client: distributed.Client) -> None:
    workers = client.scheduler_info()["workers"]
    configured = config.get("backend")
    name, how = auto_choice() if configured == "auto" else (configured, "gpunumeric.backend")
    link = cluster.dashboard_link() or "none (pip install bokeh for the dashboard)"
    for line in (
        f"cluster: {client.scheduler.address} with {len(workers)} worker(s): {', '.join(workers)}",
        f"backend: {get_backend(name).name} ({how})",
        f"dashboard: {link}",
        f"security: {describe_security()}",
    ):
        print(f"dgn-run: {line}", file=sys.stderr)


@contextlib.contextmanager
def _profiled(path: str | None) -> Iterator[None]:
    if path is None:
        yield
        return
    with distributed.performance_report(filename=path):
        yield


def run_script(path: str, args: Sequence[str]) -> int:
    """Run ``path`` as ``__main__``; its exit status (1, with its traceback, on error)."""
    sys.argv = [path, *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exit_request:
        return _exit_status(exit_request.code)
    except BaseException as error:  # noqa: BLE001 - any error of the script is reported
        print_user_traceback(error, path)
        return 1
    return 0


def _exit_status(code: Any) -> int:
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)  # sys.exit("message"), as Python itself prints it
    return 1


def print_user_traceback(error: BaseException, path: str) -> None:
    """The traceback from the script's first frame on: runpy's and ours are not shown."""
    script = os.path.abspath(path)
    tb: TracebackType | None = error.__traceback__
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != script:
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb, file=sys.stderr)


def draw_dataflow(path: str) -> None:
    """The graph of the last computation, rendered by graphviz (format from the suffix)."""
    collections = execution.last_computed()
    if not collections:
        print("dgn-run: --dataflow: the script computed nothing; no graph", file=sys.stderr)
        return
    import dask

    try:
        dask.visualize(*collections, filename=path, optimize_graph=True)
    except ImportError as error:
        raise SystemExit(
            "dgn-run --dataflow needs graphviz: pip install 'dask_gpunumeric[diagnostics]' "
            "and the graphviz program (apt-get install graphviz)"
        ) from error


if __name__ == "__main__":
    sys.exit(main())
