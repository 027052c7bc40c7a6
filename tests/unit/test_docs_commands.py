"""Every command in README.md and docs/*.md is exercised (issue "Where users run it").

Each command of a fenced ``bash``/``console``/``sh`` block is either marked in the page as
needing what CI lacks (``<!-- needs: gpu -->``, ``<!-- needs: cluster -->``, or
``<!-- needs: github -->`` for what only GitHub serves, on the line before the fence), or
run for real here (``RUN_HERE``: cheap commands, seconds each), or run elsewhere:
``EXERCISED_BY`` maps it to a test id or to the ``.ci/run`` step that runs it.
"""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(
    r"(?:<!-- needs: (?P<need>[a-z, ]+) -->\n)?^```(?P<lang>bash|console|sh)\n(?P<body>.*?)^```",
    re.MULTILINE | re.DOTALL,
)
NEEDS = {"gpu", "cluster", "github"}

EXERCISED_BY = {
    "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/dgn-run examples/stencil.py --check -n 500 -i 20": ".ci/run: README command 1",
    'python3 -m venv .venv && .venv/bin/pip install -e ".[test]" && .venv/bin/python -m pytest -n 2 -m "not slow"': ".ci/run: README command 2",
    "python3 -m venv .venv && .venv/bin/pip install -e .": ".ci/run: README command 1",
    ".venv/bin/dgn-run examples/stencil.py --check -n 500 -i 20": ".ci/run: stencil example on the $backend backend",
    '.venv/bin/pip install -e ".[notebook]"': ".ci/run: notebooks: pip install '.[notebook]'",
    ".venv/bin/python -m pytest --nbmake notebooks/": ".ci/run: pytest -q --nbmake",
    "dgn-run --profile report.html --dataflow graph.svg examples/stencil.py -n 2000 -i 50": "tests/cluster/test_launcher.py::test_stencil_on_the_embedded_cluster_with_every_diagnostic",
    "python -m benchmarks.halo --sizes 4000 --iterations 20 --systems numpy,ours-on --profile": "tests/unit/test_halo_benchmark.py::test_profile_of_chosen_systems",
    "python -m benchmarks.first_run": "tests/unit/test_first_run_benchmark.py::test_pairs_of_fresh_processes_print_numpys_checksum",
    "python -m benchmarks.soak --quick": "tests/unit/test_soak_benchmark.py::test_quick_soak_on_the_embedded_cluster",
    "python -m benchmarks run --quick --out /tmp/results.json": ".ci/run: benchmark suite --quick",
    "python -m benchmarks.device --sizes toy --device simulated --out /tmp/device-bench": "tests/unit/test_device_bench.py::test_every_workload_on_every_lane_agrees_with_the_hand_written",
    # the full run takes 15-20 minutes: the test runs the same command line at tiny sizes
    "python -m benchmarks run --out benchmarks/results.json --markdown benchmarks/RESULTS.md": "tests/unit/test_suite_benchmark.py::test_every_workload_and_system_is_reported_and_equals_numpy",
    "python -m benchmarks run --gpu": "tests/unit/test_suite_benchmark.py::test_gpu_mode_skips_cleanly_without_a_device",
    # the full family takes minutes: the test runs the same command line at tiny sizes
    "python -m benchmarks run --family user-programs --out /tmp/user/results.json": "tests/cluster/test_suite_default_lane.py::test_user_programs_on_the_embedded_cluster_equal_numpy",
    "python -m benchmarks run --family user-programs --workloads check-overhead --no-scaling --out /tmp/ab-0.json": "tests/unit/test_suite_benchmark.py::test_a_check_that_differs_from_numpy_fails_the_run",
    "DASK_GPUNUMERIC__CLUSTER__SEND_INTERVAL=null python -m benchmarks run --family user-programs --workloads check-overhead --no-scaling --out /tmp/ab-null.json": "tests/cluster/test_send_interval.py::test_null_keeps_distributeds_intervals",
    "bash gpu/build-wheelhouse": ".ci/run: GPU check, dry run",
    "bash gpu/check --dry-run": ".ci/run: GPU check, dry run",
    "python -m gpu.report merge first/gpu-results.json second/gpu-results.json --out merged": "tests/unit/test_gpu_report.py::test_the_merge_command_writes_one_report",
}

RUN_HERE = (
    ".venv/bin/dgn-run --cpus 2 --verbose examples/stencil.py --check -n 200 -i 5",
    "DASK_GPUNUMERIC__SCHEDULER=threads .venv/bin/python examples/stencil.py --check -n 200 -i 5",
    "python -m benchmarks.fusion --size 1e6 --repeat 1",
    "python -m benchmarks.graph_build --iterations 10 20",
    "python -m benchmarks.latency --quick",
)


def documented_commands() -> list[tuple[str, str, str | None]]:
    """``(page, command, need)`` for every command line of every fenced shell block."""
    found = []
    for page in PAGES:
        for block in FENCE.finditer(page.read_text()):
            body = block["body"].replace("\\\n", " ")
            for line in body.splitlines():
                command = line.strip().removeprefix("$ ")
                if command and not command.startswith("#"):
                    found.append((page.name, command, block["need"]))
    return found


def test_the_pages_have_commands() -> None:
    pages = {page for page, _, _ in documented_commands()}
    assert {"README.md", "getting-started.md", "performance.md"} <= pages


def test_every_command_is_exercised_or_marked() -> None:
    unexercised = [
        f"{page}: {command}"
        for page, command, need in documented_commands()
        if need is None and command not in EXERCISED_BY and command not in RUN_HERE
    ]
    assert not unexercised, (
        "commands in the docs that no test runs: add each to RUN_HERE or EXERCISED_BY in "
        "tests/unit/test_docs_commands.py, or mark its block <!-- needs: gpu --> / "
        "<!-- needs: cluster -->:\n" + "\n".join(unexercised)
    )


def test_needs_markers_are_known() -> None:
    for page, command, need in documented_commands():
        if need is not None:
            assert {n.strip() for n in need.split(",")} <= NEEDS, (page, command, need)


def test_every_registry_entry_is_documented_and_points_at_something_real() -> None:
    documented = {command for _, command, _ in documented_commands()}
    ci_run = (ROOT / ".ci" / "run").read_text()
    for command, where in EXERCISED_BY.items():
        assert command in documented, f"stale EXERCISED_BY entry: {command}"
        if where.startswith(".ci/run: "):
            assert where.removeprefix(".ci/run: ") in ci_run, where
        else:
            path, _, name = where.partition("::")
            assert f"def {name}(" in (ROOT / path).read_text(), where
    for command in RUN_HERE:
        assert command in documented, f"stale RUN_HERE entry: {command}"


def _runnable(command: str) -> list[str]:
    """The command run by this interpreter: ``python`` is it, and ``dgn-run`` is its
    console script's module (``dask_gpunumeric.cli``, the entry point pyproject names)."""
    words: list[str] = []
    for word in shlex.split(command.replace(".venv/bin/", "")):
        if word == "python":
            words.append(sys.executable)
        elif word == "dgn-run":
            words += [sys.executable, "-m", "dask_gpunumeric.cli"]
        else:
            words.append(word)
    return words


@pytest.mark.slow
@pytest.mark.parametrize("command", RUN_HERE)
def test_cheap_command_runs(command: str, backend: str) -> None:
    if backend != "numpy":
        pytest.skip("the command runs in its own process, with the default backend")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DASK_GPUNUMERIC__BACKEND", None)
    words = _runnable(command)
    while "=" in words[0]:  # leading VAR=value assignments
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    done = subprocess.run(
        words, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
