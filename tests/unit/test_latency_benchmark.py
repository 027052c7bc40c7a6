"""The latency benchmark runs at a tiny size and every row computes NumPy's checksum.
Structure only: no timing is asserted."""

import pytest

from benchmarks.latency import measure_all, repeated_update

pytestmark = pytest.mark.benchmark


def test_every_row_computes_numpys_result() -> None:
    import numpy

    specs = measure_all(operations=30, dask_operations=5)
    assert [s.name for s in specs] == [
        "numpy",
        "dask_gpunumeric",
        "dask_gpunumeric via tasks",
        "dask.array",
    ]
    assert {s.checksum for s in specs[:3]} == {repeated_update(numpy, 30)}
    assert specs[3].checksum == repeated_update(numpy, 5)
    assert all(s.seconds > 0 and s.operations > 0 for s in specs)
