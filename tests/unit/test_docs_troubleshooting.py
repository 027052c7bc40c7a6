"""docs/troubleshooting.md quotes verbatim the messages users see: each is produced here
(run-specific parts, such as addresses, replaced by the page's ``<...>`` placeholders)."""

from __future__ import annotations

import logging
import pathlib
import re
import sys
import time
import warnings
from collections.abc import Iterator

import dask
import numpy
import pytest

import dask_gpunumeric as dgn
from dask_gpunumeric import cli
from dask_gpunumeric._api.fallback import policy
from dask_gpunumeric._backends import choice, compiled_loops, cupy_backend
from dask_gpunumeric._runtime import cluster
from tests.unit._backends.test_compiled_loops_first_run import failing_numba_import

PAGE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "troubleshooting.md"


def assert_quoted(message: str) -> None:
    page = PAGE.read_text()
    assert message in page, f"docs/troubleshooting.md does not quote:\n{message}"


def test_no_gpu_for_dgn_run_gpus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "local_gpu_count", lambda: 0)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--gpus", "1", "script.py"])
    assert_quoted(str(exit_info.value.code))


def test_auto_backend_without_a_device_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(choice._Probe, "function", lambda: False)  # a GPU machine's too
    choice.forget_answers()
    try:
        with dgn.config.set(backend="auto"):
            name, how = choice.auto_choice()
    finally:
        choice.forget_answers()  # the probe's fake answer must not outlive the test
    assert name == "numpy"
    assert_quoted(f"chosen by: {how}")


def test_cupy_backend_without_cupy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cupy", None)  # import cupy raises ImportError
    with pytest.raises(ImportError) as error:
        cupy_backend.make_backend()
    assert_quoted(str(error.value))


def test_ucx_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed_ucxx", None)
    with pytest.raises(ImportError) as error:
        cluster._require_ucx()
    assert_quoted(str(error.value))


def test_fallback_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(policy, "_warned", set())  # it warns once per call site per process
    with dgn.config.set(fallback="warn"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = dgn.unwrap(dgn.ones((4, 3)))
    numpy.testing.assert_array_equal(dgn.asnumpy(result), numpy.unwrap(numpy.ones((4, 3))))
    (warning,) = [w for w in caught if "unwrap" in str(w.message)]
    assert_quoted(f"{warning.category.__name__}: {warning.message}")


def _eat_memory() -> None:
    blocks = []
    while True:  # until the nanny restarts this worker
        blocks.append(numpy.ones(10_000_000))
        time.sleep(0.02)


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def nanny_log() -> Iterator[_Records]:
    handler, logger = _Records(), logging.getLogger("distributed.nanny.memory")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")  # distributed's own warnings while a worker dies
def test_worker_out_of_memory(backend: str, nanny_log: _Records) -> None:
    from distributed import Client, KilledWorker, LocalCluster

    if backend != "numpy":
        pytest.skip("the message does not depend on the chunk backend")
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        LocalCluster(
            n_workers=1, threads_per_worker=1, memory_limit="300MiB", dashboard_address=":0"
        ) as local,
        Client(local) as client,
        pytest.raises(KilledWorker) as error,
    ):
        client.submit(_eat_memory, pure=False).result(timeout=120)
    key = re.search(r"task '([^']+)'", str(error.value)).group(1)  # type: ignore[union-attr]
    assert_quoted(str(error.value).split(" The last worker")[0].replace(key, "<task>"))
    (record,) = [r for r in nanny_log.records if "memory budget" in r.getMessage()]
    message = re.sub(r"tcp://\S+", "tcp://<worker>", record.getMessage())
    message = re.sub(r"pid=\d+", "pid=<pid>", message)
    assert_quoted(f"{record.name} - {record.levelname} - {message}")


def test_compiled_loops_off_names_the_cause(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled_loops, "_warned", set())
    failing_numba_import(monkeypatch, AttributeError("module 'coverage' has no attribute 'types'"))
    with pytest.warns(compiled_loops.CompiledLoopsWarning) as caught:
        assert compiled_loops.import_numba() is None
    (warning,) = caught
    assert_quoted(f"CompiledLoopsWarning: {warning.message}")
