import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like
from examples.stencil import stencil


@pytest.mark.usefixtures("four_workers")
def test_stencil_matches_numpy_with_several_chunks() -> None:
    expected = stencil(numpy, 200, 50)
    # Blocks, as on a cluster: the small-work policy (on in CI's second pass over these
    # tests) computes a 202 x 202 grid in the client, as one chunk.
    with dnp.config.set(client_work_bytes=0):
        grid = stencil(dnp, 200, 50)
        assert len(grid.to_dask().chunks[0]) * len(grid.to_dask().chunks[1]) > 1
        assert numpy.max(numpy.abs(grid.compute() - expected)) < 1e-12
    as_configured = stencil(dnp, 200, 50)  # the policy's way, whatever it is here
    assert numpy.max(numpy.abs(numpy.asarray(as_configured) - expected)) < 1e-12


def test_lazy_result_keeps_its_value() -> None:
    a = dnp.arange(6)
    b = a + 1
    a[0] = 9
    assert_eq(b, numpy.arange(6) + 1)


def test_broadcast_error_at_call() -> None:
    assert_raises_like(lambda: numpy.ones(3) + numpy.ones(4), lambda: dnp.ones(3) + dnp.ones(4))
