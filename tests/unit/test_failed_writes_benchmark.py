"""The failed-writes benchmark runs at a tiny size: every row computes the same result with
and without what it measures. Structure only: no timing is asserted."""

import pytest

from benchmarks.failed_writes import measure_all

pytestmark = pytest.mark.benchmark


def test_rows_and_checksums() -> None:
    rows = measure_all(writes=20, size=10_000, points=1_000)
    assert [r.reference for r in rows] == [
        "journal off",
        "journal off",
        "NumPy index",
        "same, NumPy index",
        "no failing write",
    ]
    assert rows[0].checksum == rows[1].checksum == 20.0
    assert rows[3].checksum > 0  # the fancy write's ones, summed
    assert rows[4].checksum == sum(range(10_000)) + 5_000  # the failed write undone
    assert all(r.seconds > 0 and r.reference_seconds > 0 for r in rows)
