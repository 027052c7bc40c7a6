"""``benchmarks/chaos.py`` (issue 31): the user programs while workers are SIGKILLed at
random. A short run here: two programs on three workers, kills until at least four hit
runs; every run ends equal to NumPy's result or with an error, none wrong, none past its
bound. The full run (100 kills and more) is ``python -m benchmarks.chaos``
(docs/reliability.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

import dask_gpunumeric as dnp
from benchmarks import chaos

pytestmark = [pytest.mark.slow, pytest.mark.benchmark, pytest.mark.timeout(600)]


@pytest.fixture
def numpy_backend_only(backend: str) -> Iterator[None]:
    """Kills hit the cluster, not the chunk type: one backend is enough."""
    if backend != "numpy":
        pytest.skip("worker kills do not depend on the chunk backend")
    yield


def test_killed_workers_give_no_wrong_result_and_no_hang(numpy_backend_only, tmp_path) -> None:
    kills = []

    def report(outcome: chaos.Outcome) -> None:
        kills.append(outcome.kills)

    settings = chaos.Settings(workers=3, kills=4, pause=(0.3, 1.5), bound=120, least=2.0,
                              seed=1, only=("stencil", "user/dense-cg"))  # fmt: skip
    outcomes = chaos.chaos(settings, report)
    assert sum(o.kills for o in outcomes) >= 4, outcomes
    assert kills == [o.kills for o in outcomes]
    assert {o.program for o in outcomes} == {"stencil", "user/dense-cg"}
    for outcome in outcomes:
        assert outcome.outcome in ("equal", "error"), outcome
        assert outcome.seconds < 120
        if outcome.outcome == "error":
            assert outcome.error, "an error says what it was"
        else:
            assert outcome.repeats >= 1
    assert dnp.config.get("scheduler") != "distributed", "the run's settings were restored"


def test_the_command_writes_its_table_and_every_run(numpy_backend_only, tmp_path) -> None:
    status = chaos.main(["--workers", "2", "--kills", "1", "--pause", "0.2,0.6", "--least", "1",
                         "--programs", "stencil", "--out", str(tmp_path)])  # fmt: skip
    document = json.loads((tmp_path / "chaos.json").read_text())
    runs = document["outcomes"]
    assert status == (0 if all(r["outcome"] in ("equal", "error") for r in runs) else 1)
    assert sum(r["kills"] for r in runs) >= 1
    table = (tmp_path / "chaos.md").read_text()
    assert table.splitlines()[0].startswith("| program | runs | kills |")
    assert f"| all | {len(runs)} | {sum(r['kills'] for r in runs)} |" in table
