"""The halo benchmark at tiny sizes: every system runs, reports every column and computes
NumPy's checksum. Its timings are for the log, never asserted."""

import pytest

from benchmarks.halo import SYSTEMS, main

pytestmark = pytest.mark.benchmark


def test_halo_benchmark_runs_every_system_correctly(capsys: pytest.CaptureFixture[str]) -> None:
    # 64 x 64 grids of 4,096 elements and more: several blocks under the suite's threshold
    runs = main(["--quick", "--sizes", "62,94", "--iterations", "3", "--dask-budget", "0"])
    assert [(r.system, r.n) for r in runs] == [(s, n) for n in (62, 94) for s in SYSTEMS]
    for r in runs:
        assert r.correct, r
        assert r.seconds_per_iteration > 0 and r.to_floor > 0
        assert r.first_seconds_per_iteration >= r.seconds_per_iteration  # best of 2
        assert r.iterations == (1 if r.system == "dask-slices" else 3)  # budget 0: one
    assert all(r.blocks and r.blocks > 1 for r in runs if r.system.startswith("ours") and r.n == 94)
    table = capsys.readouterr().out
    assert "copy bandwidth" in table and all(system in table for system in SYSTEMS)
    assert "first ms" in table


def test_one_repeat_reports_its_only_run() -> None:
    runs = main(["--quick", "--sizes", "62", "--iterations", "2", "--systems", "ours-on",
                 "--repeats", "1"])  # fmt: skip
    assert [r.seconds_per_iteration == r.first_seconds_per_iteration for r in runs] == [True] * 2


def test_profile_of_chosen_systems(capsys: pytest.CaptureFixture[str]) -> None:
    # the documented `--systems numpy,ours-on --profile`, at a tiny size
    runs = main(["--quick", "--sizes", "94", "--iterations", "3", "--systems", "numpy,ours-on"])
    assert [r.system for r in runs] == ["numpy", "ours-on"] and all(r.correct for r in runs)
    capsys.readouterr()
    main(["--quick", "--sizes", "94", "--iterations", "3", "--systems", "ours-on", "--profile"])
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("profile")]
    assert "ours-on N=94" in line and "stencil " in line and "(client)" in line, line


def test_unknown_systems_are_refused() -> None:
    with pytest.raises(SystemExit):
        main(["--quick", "--systems", "numpy,cupynumeric"])
