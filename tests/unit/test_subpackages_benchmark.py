"""The subpackages benchmark runs, and its three routes compute the same thing (values for
fft2/qr/inv, shape and dtype for random draws). No wall-clock asserts."""

import numpy
import pytest

from benchmarks.subpackages import cases, measure

pytestmark = pytest.mark.benchmark


def test_the_routes_agree_on_small_inputs() -> None:
    for name, (numpy_run, dask_run, our_run) in cases(n=4_000, m=16, rows=512, stack=8).items():
        expected, theirs, ours = numpy_run(), dask_run(), our_run()
        if name == "random":
            assert ours.shape == theirs.shape == expected.shape and ours.dtype == expected.dtype
        elif name == "qr":
            numpy.testing.assert_allclose(ours[0] @ ours[1], expected[0] @ expected[1])
            numpy.testing.assert_allclose(theirs[0] @ theirs[1], expected[0] @ expected[1])
        else:
            numpy.testing.assert_allclose(ours, expected, atol=1e-9)
            numpy.testing.assert_allclose(theirs, expected, atol=1e-9)


def test_measure_reports_every_case() -> None:
    specs = measure(n=4_000, m=16, rows=512, stack=8, repeat=1)
    assert [spec.name for spec in specs] == ["random", "fft2", "qr", "inv"]
    assert all(spec.ours_seconds > 0 for spec in specs)
