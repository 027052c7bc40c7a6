"""The client's CPU split by stage (``benchmarks/client_split.py``) on profiles made by
hand: a function's own time goes to its file's stage, or to its callers' stages as much
as it spent under each; the table and the growth per worker follow the splits."""

from __future__ import annotations

import types

import pytest

from benchmarks import client_split as split

pytestmark = pytest.mark.benchmark

LOWERING = ("/src/dask_gpunumeric/_lowering/core.py", 79, "lower")
PLANNING = ("/src/dask_gpunumeric/_runtime/peer_runs.py", 208, "_plan")
CLIENT = ("/venv/lib/python3.11/site-packages/distributed/client.py", 10, "persist")
COPY = ("/usr/lib/python3.11/copy.py", 128, "deepcopy")  # no stage
BUILTIN = ("~", 0, "<method 'get' of 'dict' objects>")  # no stage
LOOP_A = ("/usr/lib/python3.11/a.py", 1, "a")  # no stage, a cycle with LOOP_B
LOOP_B = ("/usr/lib/python3.11/b.py", 1, "b")


def entry(own: float, callers: dict[tuple, tuple[float, float]]) -> tuple:
    """A pstats entry: calls, own time, cumulative time, and per caller (own, cumulative)."""
    return (1, 1, own, own, {c: (1, 1, t, ct) for c, (t, ct) in callers.items()})


def profile(table: dict[tuple, tuple]) -> types.SimpleNamespace:
    return types.SimpleNamespace(stats=table)


def test_a_function_s_own_time_goes_to_its_file_s_stage_or_to_its_callers() -> None:
    table = {
        LOWERING: entry(3.0, {}),
        PLANNING: entry(1.0, {CLIENT: (1.0, 4.0)}),
        CLIENT: entry(4.0, {}),
        # the builtin's own time under each caller goes to that caller's stage
        BUILTIN: entry(3.0, {LOWERING: (1.0, 1.0), CLIENT: (2.0, 2.0)}),
        # code of no stage under code of no stage: the stage of the caller's main caller
        COPY: entry(2.0, {LOWERING: (2.0, 5.0), PLANNING: (0.0, 0.5)}),
        ("~", 0, "<built-in method builtins.len>"): entry(2.0, {COPY: (2.0, 2.0)}),
    }
    shares = split.shares(profile(table))  # type: ignore[arg-type]
    total = 3 + 1 + 4 + 3 + 2 + 2
    assert shares["lowering"] == pytest.approx((3 + 1 + 2 + 2) / total)
    assert shares["peer-run planning"] == pytest.approx(1 / total)
    assert shares["distributed"] == pytest.approx((4 + 2) / total)
    assert sum(shares.values()) == pytest.approx(1)
    assert set(shares) == set(split.NAMES)


def test_code_of_no_stage_called_from_nowhere_with_one_is_other() -> None:
    table = {
        LOOP_A: entry(1.0, {LOOP_B: (1.0, 1.0)}),
        LOOP_B: entry(3.0, {LOOP_A: (3.0, 3.0)}),
        ("/work/examples/stencil.py", 1, "stencil"): entry(2.0, {}),
    }
    assert split.shares(profile(table))["other"] == pytest.approx(1)  # type: ignore[arg-type]
    assert split.shares(profile({})) == dict.fromkeys(split.NAMES, 0.0)  # type: ignore[arg-type]


def test_the_stages_are_found_by_path() -> None:
    assert split.stage_of_file("C:\\src\\dask_gpunumeric\\_lowering\\stencil.py") == "lowering"
    assert split.stage_of_file("/src/dask_gpunumeric/_runtime/placement.py") == "placement"
    assert split.stage_of_file("/src/dask_gpunumeric/_array/views.py") == "arrays"
    assert split.stage_of_file("/src/dask_gpunumeric/_passes/halo.py") == "expressions and passes"
    assert split.stage_of_file("/src/dask_gpunumeric/_runtime/execution.py") == "runtime, other"
    assert split.stage_of_file("/src/dask_gpunumeric/_api/creation.py") == "library, other"
    assert split.stage_of_file("/venv/site-packages/dask/array/core.py") == "dask"
    assert split.stage_of_file("/usr/lib/python3.11/copy.py") is None


def made(workers: int) -> split.Split:
    """A split whose stages grow by known amounts per worker (seconds per iteration)."""
    stages = dict.fromkeys(split.NAMES, 0.0)
    stages["lowering"] = 1e-3 + 0.05e-3 * workers
    stages["peer-run planning"] = 0.02e-3 * workers
    main = sum(stages.values())
    return split.Split("stencil-peers", workers, 16, process=main + 0.03e-3 * workers + 1e-4,
                       main=main, loop=0.03e-3 * workers, stages=stages)  # fmt: skip


def test_the_growth_per_worker_is_each_figure_s_slope() -> None:
    slopes = split.per_worker([made(w) for w in (4, 8, 16, 32)])
    assert slopes["lowering"] == pytest.approx(0.05e-3)
    assert slopes["peer-run planning"] == pytest.approx(0.02e-3)
    assert slopes["event loop thread"] == pytest.approx(0.03e-3)
    assert slopes["client"] == pytest.approx(0.10e-3)
    assert slopes["dask"] == pytest.approx(0, abs=1e-12)


def test_the_table_has_a_row_per_worker_count_and_the_growth() -> None:
    text = split.table([made(8), made(32)])
    assert text.startswith("### stencil-peers")
    assert "\n| 8 | " in text and "\n| 32 | " in text
    assert "lowering 0.050" in text and "event loop thread 0.030" in text
    assert made(8).other_threads == pytest.approx(1e-4)


def test_an_unknown_program_is_refused() -> None:
    with pytest.raises(SystemExit):
        split.main(["--programs", "fft"])
