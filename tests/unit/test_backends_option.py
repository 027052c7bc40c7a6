"""The suite's ``--backends`` option (``tests/conftest.py``): ``cupy`` collects every test
the simulated device collects; without a device each is skipped with one reason and the
run exits 0; with one, ``not_on_cupy`` and the cluster tests' need for dask_cuda skip only
the cupy run, and ``gpu`` tests run on cupy alone. Each check is a pytest in a subprocess."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap
from xml.etree import ElementTree

import pytest

from dask_gpunumeric._backends.cupy_backend import device_available

ROOT = pathlib.Path(__file__).resolve().parents[2]
NO_DEVICE = "CuPy sees no CUDA device"
# A few files of each kind: parity, a not_on_cupy test, unit, a real cluster, tests/gpu.
SHORT_RUN = (
    "tests/parity/test_elementwise.py",
    "tests/parity/test_random.py",
    "tests/unit/_backends/test_chunk_backend.py",
    "tests/cluster/test_backend_auto.py",
    "tests/gpu",
)


@pytest.fixture(autouse=True)
def once(backend: str) -> None:
    if backend != "numpy":
        pytest.skip("pytest runs in a subprocess here, with its own --backends")


def run_pytest(*args: str, cwd: pathlib.Path = ROOT, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    environment.pop("DASK_GPUNUMERIC__BACKEND", None)
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def collected(backends: str) -> list[str]:
    """Node ids of the whole suite, with the backend's name in each id replaced by ``B``."""
    run = run_pytest("--collect-only", "-q", "--backends", backends)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return sorted(
        re.sub(rf"(?<=[\[-]){re.escape(backends)}(?=[-\]])", "B", line)
        for line in run.stdout.splitlines()
        if "::" in line
    )


@pytest.mark.slow  # about 45 s on 2 cores (collects the whole suite): CI's slow step
def test_cupy_collects_every_test_the_simulated_device_collects() -> None:
    on_cupy = collected("cupy")
    assert len(on_cupy) > 5000
    assert on_cupy == collected("simulated-device")


@pytest.mark.skipif(device_available(), reason="CuPy sees a device here: the cupy run runs")
def test_without_a_device_every_cupy_test_is_skipped_and_the_run_exits_0() -> None:
    run = run_pytest("-q", "-rs", "--backends", "cupy", *SHORT_RUN)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    summary = run.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"=* ?\d+ skipped in [\d.]+s ?=*", summary), summary
    assert int(summary.strip("= ").split()[0]) > 50
    reasons = [line for line in run.stdout.splitlines() if line.startswith("SKIPPED")]
    assert reasons, run.stdout[-3000:]
    for line in reasons:  # tests/gpu's modules skip at import, before any backend
        assert NO_DEVICE in line or "could not import 'cupy'" in line, line


# What the cupy choice does where a device is seen, on a few tests of its own: the suite's
# conftest, copied, with CuPy's probe answering yes (no CuPy is imported by these tests).
SANDBOX = {
    "pytest.ini": """\
        [pytest]
        addopts = -p fake_device --strict-markers
        markers =
            gpu: needs a CUDA device
        """,
    "fake_device.py": """\
        from dask_gpunumeric._backends import cupy_backend

        cupy_backend.device_available = lambda: True
        """,
    "test_plain.py": """\
        import pytest

        def test_plain(backend):
            assert backend in ("numpy", "cupy")

        @pytest.mark.not_on_cupy(reason="why not, said here")
        def test_marked(backend):
            assert backend == "numpy"
        """,
    "gpu/test_device.py": """\
        import pytest

        pytestmark = pytest.mark.gpu

        def test_device(backend):
            assert backend == "cupy"
        """,
    "cluster/test_cluster.py": """\
        def test_cluster(backend):
            pass
        """,
}


@pytest.fixture
def sandbox(tmp_path: pathlib.Path) -> pathlib.Path:
    for name, text in SANDBOX.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    return tmp_path


def outcomes(report: pathlib.Path) -> dict[str, str]:
    """``file::test[param]`` -> ``passed``, or ``skipped: <reason>`` (JUnit XML)."""
    found = {}
    for case in ElementTree.parse(report).iter("testcase"):
        name = f"{case.get('classname', '').rpartition('.')[2]}::{case.get('name')}"
        skipped = case.find("skipped")
        if case.find("failure") is not None or case.find("error") is not None:
            found[name] = "failed"
        else:
            found[name] = "passed" if skipped is None else f"skipped: {skipped.get('message')}"
    return found


def test_with_a_device_only_the_cupy_runs_that_cannot_run_are_skipped(
    sandbox: pathlib.Path,
) -> None:
    report = sandbox / "report.xml"
    run = run_pytest(
        "--backends", "numpy,cupy", f"--junitxml={report}", cwd=sandbox, PYTHONPATH=str(sandbox)
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    dask_cuda = importlib.util.find_spec("dask_cuda") is not None
    assert outcomes(report) == {
        "test_plain::test_plain[numpy]": "passed",
        "test_plain::test_plain[cupy]": "passed",
        "test_plain::test_marked[numpy]": "passed",
        "test_plain::test_marked[cupy]": "skipped: not on cupy: why not, said here",
        "test_device::test_device[cupy]": "passed",  # gpu tests: once, on cupy
        "test_cluster::test_cluster[numpy]": "passed",
        "test_cluster::test_cluster[cupy]": (
            "passed"
            if dask_cuda
            else "skipped: tests/cluster on cupy needs dask_cuda (the embedded cluster is a "
            "LocalCUDACluster where a GPU is seen): No module named 'dask_cuda'"
        ),
    }
    not_gpu = run_pytest("--collect-only", "-q", "--backends", "numpy,cupy", "-m", "not gpu",
                         cwd=sandbox, PYTHONPATH=str(sandbox))  # fmt: skip
    assert "[cupy]" not in not_gpu.stdout and "test_plain[numpy]" in not_gpu.stdout


def test_a_not_on_cupy_without_a_reason_and_an_unknown_backend_are_errors(
    sandbox: pathlib.Path,
) -> None:
    (sandbox / "test_plain.py").write_text(
        "import pytest\n\n@pytest.mark.not_on_cupy\ndef test_x():\n    pass\n"
    )
    run = run_pytest("--backends", "numpy", cwd=sandbox, PYTHONPATH=str(sandbox))
    assert run.returncode == 2 and "test_x: not_on_cupy needs reason=" in run.stdout
    run = run_pytest("--backends", "numpy,cuda", cwd=sandbox, PYTHONPATH=str(sandbox))
    assert run.returncode == 4 and "--backends: unknown cuda" in run.stderr
