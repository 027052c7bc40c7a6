"""The latency benchmark runs at a tiny size and every row computes NumPy's checksum.
Structure only: no timing is asserted. (The embedded-cluster rows run the same code on
another scheduler; starting a cluster is left to ``tests/cluster``.)"""

import numpy
import pytest

from benchmarks.latency import measure_all, repeated_update

pytestmark = pytest.mark.benchmark


def test_every_row_computes_numpys_result() -> None:
    specs = measure_all(operations=30, task_operations=20, dask_operations=5)
    assert [s.name for s in specs] == [
        "numpy",
        "dask_gpunumeric, threads",
        "  via tasks, threads",
        "dask.array",
    ]
    assert [s.operations for s in specs] == [30, 30, 20, 5]
    for spec in specs:
        assert spec.checksum == repeated_update(numpy, spec.operations)
    assert all(s.seconds > 0 and s.cpu >= 0 for s in specs)
