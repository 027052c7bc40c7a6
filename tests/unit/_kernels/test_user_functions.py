"""``PortableUfunc``: a ``numpy.frompyfunc`` ufunc (which NumPy cannot pickle) travels to
the workers as its Python function, arity and identity."""

from __future__ import annotations

import cloudpickle
import numpy
import pytest

from dask_gpunumeric._kernels.user_functions import PortableUfunc, portable


def test_frompyfunc_ufunc_travels_and_is_made_again() -> None:
    scale = 3
    ufunc = numpy.frompyfunc(lambda x, y: x * scale + y, 2, 1, identity=0)
    with pytest.raises(Exception):  # noqa: B017 - whichever error NumPy's pickling gives
        cloudpickle.dumps(ufunc)
    travelling = portable(ufunc)
    assert isinstance(travelling, PortableUfunc)
    arrived = cloudpickle.loads(cloudpickle.dumps(travelling))
    assert arrived.ufunc.__name__ == ufunc.__name__
    assert (arrived.ufunc.nin, arrived.ufunc.nout, arrived.ufunc.identity) == (2, 1, 0)
    values = numpy.arange(5.0)
    numpy.testing.assert_array_equal(arrived(values, 1.0), ufunc(values, 1.0))


def test_picklable_ufuncs_travel_as_they_are() -> None:
    assert portable(numpy.add) is numpy.add
    numba = pytest.importorskip("numba")

    @numba.vectorize
    def twice(x):  # type: ignore[no-untyped-def]
        return 2 * x

    assert portable(twice) is twice


def test_a_ufunc_that_cannot_travel_says_so() -> None:
    class Local:
        nin = 1

        def __reduce__(self) -> None:
            raise TypeError("no")

    with pytest.raises(TypeError, match="cannot be sent to the workers"):
        portable(Local())
