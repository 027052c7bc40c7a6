"""xarray over our arrays equals xarray over NumPy. xarray takes our arrays for dask arrays
(they have ``__dask_graph__``): what it does with ``numpy`` functions stays ours
(``mean``, ``coarsen``, ``groupby``), what it does with ``dask.array`` functions
(``rolling``, ``apply_ufunc(dask="parallelized")``) gives dask arrays of our chunks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend

xr = pytest.importorskip("xarray")

HOST = numpy.sin(numpy.arange(120.0)).reshape(12, 10)
COORDS = {"x": numpy.arange(12) * 0.5, "y": numpy.arange(10)}


def data_array(data: Any) -> Any:
    return xr.DataArray(data, dims=("x", "y"), coords=COORDS)


def host_value(result: Any) -> numpy.ndarray:
    """The values of an xarray result: our array computed, a dask array of the backend's
    chunks computed and moved to the host (on a device, ``.values`` refuses it, as it
    refuses CuPy chunks)."""
    data = result.data
    if isinstance(data, dnp.ndarray):
        return data.compute()
    if isinstance(data, da.Array):
        return numpy.asarray(get_backend().to_host(data.compute()))
    return numpy.asarray(data)


OPERATIONS: dict[str, Callable[[Any], Any]] = {
    "compute": lambda d: d.compute(),
    "persist": lambda d: (d + 1).persist(),
    "chunk": lambda d: d.chunk({"x": 6}) * 2,
    "mean": lambda d: d.mean("x"),
    "mean-all": lambda d: d.mean(),
    "arithmetic": lambda d: (d * 2 - d.mean("y")) / 3,
    "where": lambda d: d.where(d > 0),
    "sel": lambda d: d.sel(x=slice(1.0, 4.0)),
    "rolling-mean": lambda d: d.rolling(x=3).mean(),
    "rolling-sum-centered": lambda d: d.rolling(y=4, center=True).sum(),
    "coarsen": lambda d: d.coarsen(x=3, y=2).mean(),
    "groupby-mean": lambda d: d.groupby(d.x.astype(int) % 3).mean(),
    "apply_ufunc-parallelized": lambda d: xr.apply_ufunc(
        numpy.cos, d, dask="parallelized", output_dtypes=[d.dtype]
    ),
    "apply_ufunc-core-dim": lambda d: xr.apply_ufunc(
        lambda block: block.max(axis=-1),
        d.chunk({"y": -1}),  # a core dimension must be one chunk (dask's rule)
        input_core_dims=[["y"]],
        dask="parallelized",
        output_dtypes=[d.dtype],
    ),
}


# xarray 2026.9 over dask's expression arrays (array.query-planning), ours or not: they have
# no __array__ in dask 2026.7 (``.values`` is an array of objects), and xarray's rolling and
# apply_ufunc call dask's task-graph functions, which refuse them.
OVER_DASK_EXPRESSIONS = pytest.mark.not_with_query_planning(
    reason="xarray over dask's expression arrays fails alike without dask_gpunumeric (no "
    "__array__ in dask 2026.7; xarray's rolling, apply_ufunc, interp call task-graph "
    "dask.array functions)"
)
GIVES_DASK_ARRAYS = ("chunk", "rolling-mean", "rolling-sum-centered")
GIVES_DASK_ARRAYS += ("apply_ufunc-parallelized", "apply_ufunc-core-dim")


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=OVER_DASK_EXPRESSIONS) if name in GIVES_DASK_ARRAYS else name
        for name in OPERATIONS
    ],
)
def test_xarray_over_ours_equals_xarray_over_numpy(backend: str, name: str) -> None:
    operation = OPERATIONS[name]
    expected = operation(data_array(HOST))
    result = operation(data_array(dnp.array(HOST, chunks=(4, 5))))
    assert result.dims == expected.dims
    assert result.shape == expected.shape
    assert result.dtype == expected.dtype
    xr.testing.assert_identical(result.coords.to_dataset(), expected.coords.to_dataset())
    numpy.testing.assert_allclose(host_value(result), expected.values, rtol=1e-12, equal_nan=True)


@OVER_DASK_EXPRESSIONS
def test_which_results_are_ours_dask_or_numpy(backend: str) -> None:
    d = data_array(dnp.array(HOST, chunks=(4, 5)))
    assert d.chunks == ((4, 4, 4), (5, 5))
    for result in (d.mean("x"), d.coarsen(x=3).mean(), (d + 1).persist()):
        assert isinstance(result.data, dnp.ndarray)
    assert type(d.compute().data) is numpy.ndarray  # compute() is host memory, as ours
    rolled = d.rolling(x=3).mean()
    assert isinstance(rolled.data, da.Array)
    assert type(rolled.data._meta) is get_backend().chunk_type


def test_interp_of_ours_is_refused_by_xarray(backend: str) -> None:
    """xarray's ``interp`` makes dask arrays of the coordinates and refuses to mix them with
    another chunked type (docs/numpy-differences.md says so, and what to do instead)."""
    pytest.importorskip("scipy")
    with pytest.raises(TypeError, match="Mixing chunked array types"):
        data_array(dnp.array(HOST, chunks=(4, 5))).interp(x=[0.25, 1.7, 4.1])


@OVER_DASK_EXPRESSIONS
def test_interp_through_to_dask_on_host_chunks(backend: str) -> None:
    """The way numpy-differences.md gives: ``DataArray(a.to_dask()).interp(...)``."""
    pytest.importorskip("scipy")
    if backend != "numpy":
        pytest.skip("scipy's interpolators take host chunks only (as over CuPy chunks)")
    targets = {"x": [0.25, 1.7, 4.1]}
    result = data_array(dnp.array(HOST, chunks=(4, 5)).to_dask()).interp(**targets)
    expected = data_array(HOST).interp(**targets)
    numpy.testing.assert_allclose(host_value(result), expected.values, rtol=1e-12)
