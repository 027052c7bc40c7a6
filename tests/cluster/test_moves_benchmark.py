"""The moves benchmark at a tiny size on the embedded cluster: both routes measured, the
moved values equal the host array. Structure only: no timing is asserted."""

from __future__ import annotations

import pytest

from benchmarks import moves

pytestmark = pytest.mark.benchmark


def test_both_routes_are_measured_and_move_numpys_values(embedded_cluster: None) -> None:
    result = moves.measure(megabytes=1, repeats=2)
    assert result.correct
    assert result.blocks >= 1
    assert set(result.seconds) == {"read", "gather"}
    assert all(seconds > 0 for seconds in result.seconds.values())
    assert "read/gather" in result.line()


def test_the_command_prints_a_line_per_size(embedded_cluster: None, capsys) -> None:
    assert moves.main(["--megabytes", "1", "--repeats", "1"]) == 0
    assert capsys.readouterr().out.count(" MB in ") == 1
