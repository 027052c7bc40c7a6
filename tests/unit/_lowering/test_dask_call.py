"""DaskCall lowers to the named dask.array function on the lowered inputs."""

from __future__ import annotations

import numpy

import dask_gpunumeric as np
from dask_gpunumeric import ndarray
from dask_gpunumeric._ir.dask_call import DaskCall
from dask_gpunumeric.testing import assert_eq


def test_dask_call_with_list_argument_and_output() -> None:
    a = numpy.arange(12.0).reshape(3, 4)
    b = numpy.ones((2, 4))
    x, y = np.asarray(a), np.asarray(b)
    node = DaskCall("concatenate", ([x._read(), y._read()],), (5, 4), a.dtype, (("axis", 0),))
    assert_eq(ndarray._from_expr(node), numpy.concatenate([a, b], axis=0))


def test_dask_call_picks_one_output_and_casts() -> None:
    a = numpy.arange(12.0).reshape(4, 3) + numpy.eye(4, 3)
    q, r = numpy.linalg.qr(a)
    node = DaskCall("linalg.qr", (np.asarray(a)._read(),), (3, 3), numpy.float64, output=1)
    assert_eq(abs(ndarray._from_expr(node)), abs(r))
