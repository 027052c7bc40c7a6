"""``dgn-run``: the stencil on a local CPU cluster with every diagnostic flag, joining an
existing cluster, exit codes and the user's traceback. Each test runs on both CPU
backends (the autouse ``backend`` fixture): on the simulated device no chunk may cross to
the host implicitly, on workers in other processes."""

from __future__ import annotations

import json
import os
import pathlib
import re

import distributed

STENCIL = str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "stencil.py")
SMALL = ("-n", "48", "-i", "6", "--check")


def checksums(stdout: str) -> tuple[str, str]:
    ours = re.search(r"\bchecksum=(\S+) time/iteration=([\d.]+) ms", stdout)
    numpy = re.search(r"NumPy checksum=(\S+)", stdout)
    assert ours and numpy, stdout
    assert float(ours.group(2)) > 0
    return ours.group(1), numpy.group(1)


def test_stencil_on_the_embedded_cluster_with_every_diagnostic(backend, tmp_path, dgn_run) -> None:
    report, graph = tmp_path / "report.html", tmp_path / "graph.svg"
    flags = ("--verbose", "--progress", "--profile", str(report), "--dataflow", str(graph))
    run = dgn_run(*flags, STENCIL, *SMALL, backend=backend)
    assert run.returncode == 0, run.stderr
    ours, numpy = checksums(run.stdout)
    assert ours == numpy
    assert "100% Completed" in run.stdout  # --progress
    assert "Dask Performance Report" in report.read_text()  # --profile
    assert "<svg" in graph.read_text()  # --dataflow
    workers = re.search(r"with (\d+) worker\(s\): (.*)", run.stderr)  # --verbose
    assert workers and int(workers.group(1)) == os.cpu_count(), run.stderr
    assert all(w.startswith("tcp://127.0.0.1:") for w in workers.group(2).split(", "))
    assert f"backend: {backend}" in run.stderr
    assert "dashboard: http://127.0.0.1:" in run.stderr
    assert "Traceback" not in run.stderr  # a clean shutdown


def test_joins_a_cluster_by_scheduler_address(backend, shared_cluster, dgn_run) -> None:
    address = shared_cluster.scheduler_address
    before = _tasks_computed(shared_cluster)
    run = dgn_run("--verbose", "--scheduler-address", address, STENCIL, *SMALL, backend=backend)
    assert run.returncode == 0, run.stderr
    assert f"cluster: {address} with 2 worker(s)" in run.stderr
    ours, numpy = checksums(run.stdout)
    assert ours == numpy
    assert _tasks_computed(shared_cluster) > before  # it ran there, not on a new cluster


def test_joins_a_cluster_by_scheduler_file(backend, shared_cluster, tmp_path, dgn_run) -> None:
    scheduler_file = tmp_path / "scheduler.json"
    # What `dask scheduler --scheduler-file` writes (and dgn-run needs) is the address.
    scheduler_file.write_text(json.dumps({"address": shared_cluster.scheduler_address}))
    run = dgn_run("--verbose", "--scheduler-file", str(scheduler_file), STENCIL, *SMALL)
    assert run.returncode == 0, run.stderr
    assert f"cluster: {shared_cluster.scheduler_address} with 2 worker(s)" in run.stderr
    ours, numpy = checksums(run.stdout)
    assert ours == numpy


def test_the_scripts_exit_code_is_preserved(shared_cluster, tmp_path, dgn_run) -> None:
    script = tmp_path / "exits.py"
    script.write_text("import sys\nprint('args', sys.argv[1:])\nsys.exit(int(sys.argv[1]))\n")
    address = ("--scheduler-address", shared_cluster.scheduler_address)
    run = dgn_run(*address, str(script), "3")
    assert (run.returncode, run.stdout) == (3, "args ['3']\n"), run.stderr
    # int("x") fails in the script: its ValueError, exit status 1
    failed = dgn_run(*address, str(script), "x")
    assert failed.returncode == 1 and "ValueError" in failed.stderr


def test_an_error_shows_the_users_traceback_not_ours(shared_cluster, tmp_path, dgn_run) -> None:
    script = tmp_path / "fails.py"
    script.write_text(
        "import dask_gpunumeric as np\n"
        "def inner():\n"
        "    raise ValueError('boom ' + str(float(np.ones(3).sum())))\n"
        "inner()\n"
    )
    run = dgn_run("--scheduler-address", shared_cluster.scheduler_address, str(script))
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == f'  File "{script}", line 4, in <module>'
    assert lines[-1] == "ValueError: boom 3.0"
    assert "runpy" not in run.stderr and "cli.py" not in run.stderr


def _tasks_computed(cluster: distributed.LocalCluster) -> int:
    """Tasks that ever reached memory on ``cluster``'s scheduler (it runs in this process)."""
    return sum(p.state_counts["memory"] for p in cluster.scheduler.task_prefixes.values())
