"""The benchmark suite's ``ours-default`` lane (issue 16): the user programs on the
embedded default cluster, checked against NumPy; the per-check overhead beside a bare
round trip; a timed run ends only once persisted futures have finished."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import distributed
import numpy
import pytest

import dask_gpunumeric as dnp
from benchmarks.suite import cli
from benchmarks.suite.systems import PERSISTED, configured, hold, to_host
from benchmarks.suite.workloads import Workload, workload_table
from dask_gpunumeric._runtime import cluster

pytestmark = pytest.mark.benchmark

PROGRAMS = ("user/dense-cg", "user/image-pipeline", "user/red-black", "user/iterate-100")


@pytest.fixture
def embedded(backend: str) -> Iterator[None]:
    if backend != "numpy":
        pytest.skip("the embedded cluster's lane once: its workers are processes of their own")
    assert cluster.active_client() is None, "another test left a client active"
    yield
    cluster.close_embedded()


def tiny_user_table(quick: bool, dask_budget: float) -> list[Workload]:
    return [dataclasses.replace(w, sizes=w.sizes[:1]) for w in workload_table(quick, dask_budget)]


@pytest.mark.slow  # about 60 s on 2 cores: CI's slow step
@pytest.mark.not_with_query_planning(
    reason="the suite's plain-dask lane assigns into dask arrays and calls float() on them, "
    "which dask 2026.7's expression arrays do not support"
)
def test_user_programs_on_the_embedded_cluster_equal_numpy(
    embedded: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(cli, "workload_table", tiny_user_table)
    monkeypatch.setitem(cli.QUICK, "floor_elements", 1 << 16)
    monkeypatch.setitem(cli.QUICK, "checks", 5)
    out = tmp_path / "r.json"
    status = cli.main(["run", "--quick", "--budget", "0", "--family", "user-programs",
                       "--workloads", ",".join((*PROGRAMS, "check-overhead")),
                       "--out", str(out)])  # fmt: skip
    results = json.loads(out.read_text())
    assert status == 0
    lanes = {(r["workload"], r["system"]) for r in results["rows"]}
    assert {(name, "ours-default") for name in PROGRAMS} <= lanes
    # Data on the workers (issue 27): persisted there before each run's clock.
    assert {(name, lane) for name in PROGRAMS for lane in PERSISTED} <= lanes
    assert all(r["correct"] for r in results["rows"])
    overhead = results["check_overhead"]
    assert overhead["correct"]
    lanes = {"numpy", "ours-threads", "ours-default", "ours-default-cluster", "round-trip",
             "ours-default-host"}  # fmt: skip
    assert set(overhead["median_s"]) == lanes
    (line,) = [a for a in results["acceptance"] if a["line"].startswith("per-check")]
    assert line["met"] in (True, False) and "round-trip" in line["figures"]


def test_a_held_result_is_computed_when_the_run_ends(embedded: None) -> None:
    with configured("ours-default"):
        x = dnp.arange(2_000_000.0)
        (held,) = hold([numpy.sqrt(x * 2.0 + 1.0) for _ in range(1)])
        futures = distributed.futures_of(held)
        assert futures and all(future.status == "finished" for future in futures)
        expected = numpy.sqrt(numpy.arange(2_000_000.0) * 2.0 + 1.0)
        numpy.testing.assert_array_equal(to_host(held), expected)
        assert hold((x.sum(),)) == (float(numpy.arange(2_000_000.0).sum()),)


def test_a_result_held_in_the_client_ends_the_run_where_it_is(embedded: None) -> None:
    """Under the default small-work policy a result computed in this process is done:
    holding it sends nothing to the workers (its dask graph, which ``futures_of`` reads,
    would scatter it)."""
    host = numpy.arange(1_000_000.0)
    with configured("ours-default"), dnp.config.set(client_work_bytes="64 MiB"):
        (held,) = hold([dnp.array(host) * 2.0 + 1.0])
        assert held._store.held_chunk() is not None  # computed here, and held here
        client = cluster.active_client()
        assert client is not None
        assert sum(client.run(lambda dask_worker: len(dask_worker.data)).values()) == 0
        numpy.testing.assert_array_equal(to_host(held), host * 2.0 + 1.0)
