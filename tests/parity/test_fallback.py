"""NumPy functions we do not implement still work through the fallback, and match NumPy:
chunk by chunk for elementwise and per-row functions, gathered for the rest."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._api.fallback import fallback_for
from dask_gpunumeric._ir.chunkwise_call import ChunkwiseCall
from dask_gpunumeric._ir.leaves import ChunkValue, DaskData, HostData
from dask_gpunumeric.testing import assert_eq, assert_raises_like
from tests.parity.device_rounding import device_rounding

CHUNKINGS = [(7, 5), (4, 10), (20, 15)]


def sample(dtype: str = "float64", shape: tuple[int, ...] = (20, 15)) -> numpy.ndarray:
    values = numpy.random.default_rng(0).normal(scale=4.0, size=shape)
    if dtype.startswith("complex"):
        values = values + 1j * numpy.random.default_rng(1).normal(size=shape)
    return values.astype(dtype)


# (numpy function, call with the function and the sample, dtype)
CHUNKWISE_CASES: list[tuple[str, Callable[[Any, Any], Any], str]] = [
    ("sinc", lambda f, x: f(x), "float64"),
    ("sinc", lambda f, x: f(x), "float32"),
    ("i0", lambda f, x: f(x), "float64"),
    ("angle", lambda f, x: f(x, deg=True), "complex128"),
    ("fix", lambda f, x: f(x), "float64"),
    ("around", lambda f, x: f(x, 1), "float64"),
    ("round", lambda f, x: f(x, decimals=-1), "float64"),
    ("isreal", lambda f, x: f(x), "complex128"),
    ("iscomplex", lambda f, x: f(x), "complex128"),
    ("unwrap", lambda f, x: f(x), "float64"),
    ("unwrap", lambda f, x: f(x, axis=0, period=3.0), "float64"),
    ("sort_complex", lambda f, x: f(x), "float64"),
    ("sort", lambda f, x: f(x, axis=0), "float32"),
    ("argsort", lambda f, x: f(x, kind="stable"), "float64"),
    ("diff", lambda f, x: f(x, n=2, axis=0), "float64"),
    ("gradient", lambda f, x: f(x, 0.5, axis=1), "float64"),
    ("gradient", lambda f, x: f(x, axis=0, edge_order=2), "float64"),
    ("nancumsum", lambda f, x: f(x, axis=1), "float64"),
]


def _function(namespace: Any, path: str) -> Any:
    for part in path.split("."):
        namespace = getattr(namespace, part)
    return namespace


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize(("name", "call", "dtype"), CHUNKWISE_CASES)
def test_chunkwise_fallback_matches_numpy_without_gathering(
    name: str, call: Callable[[Any, Any], Any], dtype: str, chunks: tuple[int, int], backend: str
) -> None:
    host = sample(dtype)
    ours = dnp.asarray(host, chunks=chunks)
    result = call(fallback_for(name), ours)  # the fallback, even once `name` is native
    assert isinstance(result._store.version, ChunkwiseCall)  # block by block, no gather
    expected = call(_function(numpy, name), host)
    # On cupy, CuPy's sinc/i0/angle/unwrap/nancumsum: within rounding (H100 check).
    assert_eq(result, expected, **device_rounding(backend, numpy.asarray(expected).dtype))


@pytest.mark.parametrize("chunks", CHUNKINGS)
def test_fft_along_an_axis_falls_back_chunk_by_chunk(chunks: tuple[int, int]) -> None:
    host = sample()
    result = fallback_for("fft.fft")(dnp.asarray(host, chunks=chunks), axis=0)
    assert isinstance(result._store.version, ChunkwiseCall)
    assert_eq(result, numpy.fft.fft(host, axis=0), rtol=1e-12, atol=1e-12)


def test_nan_to_num_and_isclose_chunk_by_chunk() -> None:
    host = sample()
    host[::3, ::4] = numpy.nan
    host[1, :3] = [numpy.inf, -numpy.inf, numpy.inf]
    ours = dnp.asarray(host, chunks=(6, 4))
    assert_eq(
        fallback_for("nan_to_num")(ours, nan=-1.0, posinf=9.0),
        numpy.nan_to_num(host, nan=-1.0, posinf=9.0),
    )
    assert_eq(fallback_for("isposinf")(ours), numpy.isposinf(host))
    other = host + 1e-9
    assert_eq(
        fallback_for("isclose")(ours, dnp.asarray(other, chunks=(5, 5))), numpy.isclose(host, other)
    )
    assert_eq(fallback_for("isclose")(ours, ours[0]), numpy.isclose(host, host[0]))  # broadcasting


def test_out_and_copy_false_write_into_our_array() -> None:
    host = sample()
    ours = dnp.asarray(host, chunks=(7, 5))
    out = dnp.zeros_like(ours)
    assert fallback_for("around")(ours, 2, out=out) is out
    assert_eq(out, numpy.around(host, 2))
    positional = dnp.zeros_like(ours)
    assert fallback_for("fix")(ours, positional) is positional  # out given by position
    assert_eq(positional, numpy.fix(host))
    host[0, 0] = numpy.nan
    ours[0, 0] = numpy.nan
    assert fallback_for("nan_to_num")(ours, False) is ours  # copy=False by position
    assert_eq(ours, numpy.nan_to_num(host, copy=False))
    host_out = numpy.empty_like(host)
    assert fallback_for("fix")(ours, out=host_out) is host_out  # a host out= is filled
    numpy.testing.assert_array_equal(host_out, numpy.fix(host))


# (numpy path, call with the function and the sample): functions that gather.
GATHERING_CASES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("median", lambda f, x: f(x, axis=0)),
    ("percentile", lambda f, x: f(x, [10, 90])),
    ("concatenate", lambda f, x: f([x, 2 * x], axis=1)),
    ("linalg.inv", lambda f, x: f(x[:5, :5])),
    ("trapezoid", lambda f, x: f(x[0])),  # a NumPy scalar stays a scalar
    ("cov", lambda f, x: f(x)),
    ("polyval", lambda f, x: f([1.0, -2.0, 0.5], x)),
    ("histogram2d", lambda f, x: f(x[0], x[1], bins=4)),  # a tuple of arrays
    ("array_split", lambda f, x: f(x, 3)),  # a list of arrays
    ("unravel_index", lambda f, x: f(x[0, 0] > 0, (4, 5))),  # our 0-d array as an index
    ("real_if_close", lambda f, x: f(x + 0j)),  # dtype depends on the values: gathers
    ("sort", lambda f, x: f(x, axis=None)),  # a per-row function, flattening: gathers
]


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize(("path", "call"), GATHERING_CASES)
def test_gathering_fallback_matches_numpy(
    path: str, call: Callable[[Any, Any], Any], chunks: tuple[int, int]
) -> None:
    host = sample()
    expected = call(_function(numpy, path), host)
    result = call(fallback_for(path), dnp.asarray(host, chunks=chunks))
    _assert_same_structure(result, expected)


def _assert_same_structure(result: Any, expected: Any) -> None:
    if isinstance(expected, (tuple, list)):
        assert type(result) is type(expected) and len(result) == len(expected)
        for ours, theirs in zip(result, expected, strict=True):
            _assert_same_structure(ours, theirs)
    elif isinstance(expected, numpy.ndarray):
        # A gathered value (a small one is computed in this process: ChunkValue).
        assert isinstance(result._store.version, (HostData, DaskData, ChunkValue))
        assert_eq(result, expected, rtol=1e-12, atol=1e-12)
    else:  # a scalar (a 0-d array on the device, as CuPy gives)
        ours, theirs = numpy.asarray(dnp.asnumpy(result)), numpy.asarray(expected)
        assert ours.shape == theirs.shape == () and ours.dtype == theirs.dtype
        numpy.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_mutating_functions_write_the_gathered_result_back() -> None:
    host = sample(shape=(6, 6))
    ours = dnp.asarray(host, chunks=(4, 4))
    view = ours[1:, 1:]
    numpy.fill_diagonal(host[1:, 1:], 7.0)
    assert fallback_for("fill_diagonal")(view, 7.0) is None
    assert_eq(ours, host)


def test_a_mutating_function_leaves_arrays_sharing_the_chunk_alone() -> None:
    host = sample(shape=(6, 6))
    ours = dnp.asarray(host)  # one chunk of host data
    before = ours * 1  # lazy: reads the same host data when computed
    persisted = dnp.asarray(host).persist()
    sharing = dnp.from_dask(persisted.to_dask())  # the same computed chunk
    fallback_for("fill_diagonal")(ours, -1.0)
    fallback_for("fill_diagonal")(persisted, -1.0)
    expected = host.copy()
    numpy.fill_diagonal(expected, -1.0)
    assert_eq(ours, expected)
    assert_eq(persisted, expected)
    assert_eq(before, host)
    assert_eq(sharing, host)


def test_numpy_functions_called_on_our_arrays_dispatch_to_the_fallback(backend: str) -> None:
    host = sample(shape=(4, 4))
    ours = dnp.asarray(host)
    assert_eq(numpy.sinc(ours), numpy.sinc(host), **device_rounding(backend, "float64"))
    assert_eq(numpy.linalg.inv(ours), numpy.linalg.inv(host), rtol=1e-12)


def test_bad_input_raises_numpys_exception() -> None:
    host = sample()
    ours = dnp.asarray(host, chunks=(7, 5))
    assert_raises_like(
        lambda: numpy.unwrap(host, axis=2), lambda: fallback_for("unwrap")(ours, axis=2)
    )
    assert_raises_like(lambda: numpy.sinc(host, 1), lambda: fallback_for("sinc")(ours, 1))
    assert_raises_like(lambda: numpy.linalg.inv(host), lambda: fallback_for("linalg.inv")(ours))


def test_names_that_are_not_functions() -> None:
    assert dnp.float64 is numpy.float64 and dnp.generic is numpy.generic
    assert dnp.little_endian is numpy.little_endian
    assert dnp.exceptions is numpy.exceptions
    assert dnp.errstate is numpy.errstate
    with pytest.raises(AttributeError, match=r"numpy\.ma is not supported"):
        dnp.ma  # noqa: B018
    with pytest.raises(AttributeError, match="neither has numpy"):
        dnp.no_such_function  # noqa: B018
    assert not hasattr(dnp, "char")


def test_numpy_dtype_helpers_take_our_arrays() -> None:
    host = numpy.ones(3, dtype="float32")
    ours = dnp.asarray(host)
    assert dnp.result_type(ours, 1.0) == numpy.result_type(host, 1.0)
    assert numpy.result_type(ours, numpy.int64) == numpy.result_type(host, numpy.int64)
    assert numpy.can_cast(ours, "float16") == numpy.can_cast(host, "float16")
    assert dnp.can_cast(ours, "float64") == numpy.can_cast(host, "float64")
