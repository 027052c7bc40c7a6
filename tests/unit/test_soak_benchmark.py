"""The soak benchmark: ``--quick`` on the embedded cluster has its samples at the right
iterations with every field positive (the scheduler process's RSS included) and NumPy's
results, and a verdict for the client, the scheduler and the workers; the verdict and the comparison
can say "GROWING" and "differs". No timing and no flatness threshold is asserted at these
sizes (memory is noisy over 600 iterations: the verdict is the full run's job)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import numpy
import pytest

from benchmarks.loop_samples import MiB
from benchmarks.soak import (
    EXIT_DIFFERS,
    EXIT_GROWING,
    Reductions,
    SoakSample,
    SoakSettings,
    differences,
    exit_status,
    parse,
    run,
    summarize,
    verdict,
)
from examples.stencil import stencil

pytestmark = pytest.mark.benchmark
ROOT = pathlib.Path(__file__).resolve().parents[2]


def _numpy_reductions(n: int, iterations: range) -> tuple[list[float], list[float]]:
    """The oracle, independent of the benchmark's loop: ``examples/stencil.py`` itself."""
    grids = [stencil(numpy, n, i) for i in iterations]
    return [float(g.sum()) for g in grids], [float(abs(g).max()) for g in grids]


@pytest.mark.slow
def test_quick_soak_on_the_embedded_cluster(backend: str, tmp_path: pathlib.Path) -> None:
    out = tmp_path / "soak.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DASK_GPUNUMERIC__")}
    env.update(DASK_GPUNUMERIC__BACKEND=backend, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.soak", "--quick", "--json", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode in (0, EXIT_GROWING), done.stdout + done.stderr
    record = json.loads(out.read_text())
    assert [s["iteration"] for s in record["samples"]] == list(range(100, 601, 100))
    for sample in record["samples"]:
        assert all(value > 0 for value in sample.values()), sample
        assert sample["worker_rss"] >= sample["worker_rss_max"]
        assert sample["scheduler_rss"] > 0 and sample["scheduler_spans"] > 0
    assert record["chunks"] == [[256, 256], [256, 256]]
    assert record["differences"] == []
    assert record["ours"]["iterations"] == list(range(50, 601, 50))
    sums, maxima = _numpy_reductions(510, range(50, 601, 50))
    numpy.testing.assert_allclose(record["ours"]["sums"], sums, rtol=1e-9)
    numpy.testing.assert_allclose(record["ours"]["maxima"], maxima, rtol=1e-9)
    assert [v["name"] for v in record["verdicts"]] == ["client", "scheduler", "workers"]
    assert "scheduler RSS: first quarter" in done.stdout
    assert "flat" in done.stdout or "GROWING" in done.stdout


def test_threaded_soak_records_numpys_results() -> None:
    args = parse(["--threads", "--iterations", "60", "--every", "20", "--reduce-every", "15"])
    args.n, args.block_bytes = 126, "32 KiB"  # 128^2 in 2 x 2 blocks of 4,096 (the tests' min)
    seen: list[SoakSample] = []
    record = run(args, seen.append)
    assert [s.iteration for s in seen] == [20, 40, 60]
    assert all(s.client_rss > 0 for s in seen)
    cluster_only = ("scheduler_rss", "worker_rss", "worker_rss_max", "scheduler_tasks")
    cluster_only += ("scheduler_spans", "span_groups")
    assert all(getattr(s, name) is None for s in seen for name in cluster_only)
    assert record["chunks"] == [[64, 64], [64, 64]]
    assert record["differences"] == []
    sums, maxima = _numpy_reductions(126, range(15, 61, 15))
    numpy.testing.assert_allclose(record["ours"]["sums"], sums, rtol=1e-9)
    numpy.testing.assert_allclose(record["ours"]["maxima"], maxima, rtol=1e-9)
    assert [v["name"] for v in record["verdicts"]] == ["client"]


def _samples(rss_mib: list[float]) -> list[SoakSample]:
    return [
        SoakSample(100 * (i + 1), 1e-3, 1e-3, int(m * MiB), None, None, None, None, None, None)
        for i, m in enumerate(rss_mib)
    ]


@pytest.mark.parametrize(
    ("rss_mib", "flat"),
    [
        ([500, 100, 100, 101, 100, 102, 101, 100, 103], True),  # warm-up outlier ignored
        ([100, 100, 100, 104, 105, 106, 107, 108, 109], True),  # +9%: within 10%
        ([100, 100, 100, 105, 110, 115, 120, 125, 130], False),  # +30%
        ([20, 20, 20, 22, 24, 25, 26, 27, 27], True),  # +7 MiB: within the 8 MiB slack
        ([20, 20, 20, 22, 24, 26, 28, 30, 30], False),  # +10 MiB
    ],
)
def test_verdict(rss_mib: list[float], flat: bool) -> None:
    samples = _samples(rss_mib)
    found = verdict("client", samples, [s.client_rss for s in samples], warmup=100)
    assert found.flat is flat
    assert found.first_mib == pytest.approx(numpy.mean(rss_mib[1:3]))
    assert found.last_mib == pytest.approx(numpy.mean(rss_mib[-2:]))


def test_a_growing_scheduler_alone_is_growing() -> None:
    flat, growing = [100, 100, 100, 101, 100, 101, 100, 100, 101], [100 + 5 * i for i in range(9)]
    samples = [
        SoakSample(100 * (i + 1), 1e-3, 1e-3, c * MiB, s * MiB, 2 * c * MiB, c * MiB, 1, 1, 1)
        for i, (c, s) in enumerate(zip(flat, growing, strict=True))
    ]
    found = summarize(samples, SoakSettings(900, 100, 50, 510))
    assert [(v.name, v.flat) for v in found] == [
        ("client", True),
        ("scheduler", False),
        ("workers", True),
    ]
    record = {"differences": [], "verdicts": [vars(v) for v in found]}
    assert exit_status(record) == EXIT_GROWING


def test_differences_are_found() -> None:
    grid = numpy.arange(16.0).reshape(4, 4)
    theirs = Reductions([10, 20], [1.0, 2.0], [3.0, 4.0])
    assert differences(Reductions([10, 20], [1.0, 2.0], [3.0, 4.0]), theirs, grid, grid) == []
    off = Reductions([10, 20], [1.0, 2.0 + 1e-6], [3.0, 4.0])
    assert differences(off, theirs, grid, grid) == ["sums differ from NumPy's at 1 of 2 reductions"]
    assert differences(theirs, theirs, grid + 1e-6, grid) == ["the final grid differs from NumPy's"]


def test_exit_status() -> None:
    flat, growing = {"flat": True}, {"flat": False}
    assert exit_status({"differences": [], "verdicts": [flat, flat]}) == 0
    assert exit_status({"differences": [], "verdicts": [flat, growing]}) == EXIT_GROWING
    both = exit_status({"differences": ["x"], "verdicts": [growing]})
    assert both == EXIT_DIFFERS | EXIT_GROWING


def test_verdict_slope() -> None:
    samples = _samples([100 + i for i in range(9)])  # 1 MiB per 100 iterations
    found = verdict("workers", samples, [s.client_rss for s in samples], warmup=0)
    assert found.mib_per_1000 == pytest.approx(10.0)
