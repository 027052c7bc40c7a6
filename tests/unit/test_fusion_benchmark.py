"""The fusion benchmark runs at a tiny size and reports every column for every
expression; its timings are for the log, never asserted."""

import pytest

from benchmarks.fusion import EXPRESSIONS, main

pytestmark = pytest.mark.benchmark


def test_fusion_benchmark_reports_all_expressions(capsys: pytest.CaptureFixture[str]) -> None:
    results = main(["--size", "3000", "--repeat", "1"])
    assert [r.expression for r in results] == list(EXPRESSIONS)
    for r in results:
        assert min(r.numpy, r.dask, r.fusion_off, r.fusion_on, r.floor) > 0
    table = capsys.readouterr().out
    assert "copy bandwidth" in table and all(name in table for name in EXPRESSIONS)
