"""The first-run benchmark at a tiny size: each pair is two fresh processes of the
stencil example with one kernel cache, empty before the first; both print NumPy's
checksum, and the report gives each pair's first/warm ratios. Structure only: no timing
is asserted."""

from __future__ import annotations

import numpy
import pytest

from benchmarks.first_run import measure_all, report
from examples.stencil import stencil

pytestmark = pytest.mark.benchmark


def test_pairs_of_fresh_processes_print_numpys_checksum() -> None:
    tiny = {"readme": ("examples/stencil.py", "--check", "-n", "40", "-i", "3")}
    specs = measure_all(
        ["readme"],
        pairs=1,
        launcher="python",
        env={"DASK_GPUNUMERIC__SCHEDULER": "threads"},  # no cluster: tests/cluster's job
        overrides=tiny,
    )
    (spec,) = specs
    expected = f"{float(stencil(numpy, 40, 3).sum()):.6f}"
    assert spec.first.checksum == spec.warm.checksum == expected
    for run in (spec.first, spec.warm):
        assert run.wall > 0 and run.cpu > 0 and run.script > 0
    text = report(specs)
    assert f"readme    ratio  {spec.ratio('wall'):7.2f}" in text
    assert "readme: median first/warm over 1 pair(s)" in text
