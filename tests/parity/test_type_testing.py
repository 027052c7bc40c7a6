"""Array type testing, dtype routines and layout helpers against NumPy."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq, assert_raises_like

SPECIAL = numpy.array([[1.0, -numpy.inf, numpy.nan], [numpy.inf, -0.0, 2.0]])


def _data(dtype: str) -> numpy.ndarray:
    data = (numpy.arange(12).reshape(3, 4) % 3).astype(dtype)
    if data.dtype.kind == "c":
        data[1] = data[1] + 1j
    return data


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("chunks", [(1, 2), (3, 4)])
def test_iscomplex_isreal(dtype: str, chunks: tuple[int, int]) -> None:
    data = _data(dtype)
    x = np.asarray(data, chunks=chunks)
    assert_eq(np.iscomplex(x), numpy.iscomplex(data))
    assert_eq(np.isreal(x), numpy.isreal(data))
    assert np.iscomplexobj(x) == numpy.iscomplexobj(data)
    assert np.isrealobj(x) == numpy.isrealobj(data)
    assert np.common_type(x) == numpy.common_type(data) if data.dtype.kind != "b" else True


def test_isposinf_isneginf() -> None:
    x = np.asarray(SPECIAL, chunks=(1, 2))
    assert_eq(np.isposinf(x), numpy.isposinf(SPECIAL))
    assert_eq(np.isneginf(x), numpy.isneginf(SPECIAL))
    out = np.zeros(SPECIAL.shape, dtype=bool)
    assert np.isneginf(x, out=out) is out
    assert_eq(out, numpy.isneginf(SPECIAL))
    data = _data("complex128")
    assert_raises_like(lambda: numpy.isposinf(data), lambda: np.isposinf(np.asarray(data)))


def test_dtype_routines() -> None:
    a, b = _data("float32"), _data("int16")
    assert np.common_type(np.asarray(a), np.asarray(b)) is numpy.common_type(a, b)
    assert_raises_like(
        lambda: numpy.common_type(_data("bool")), lambda: np.common_type(np.asarray(_data("bool")))
    )
    assert np.min_scalar_type(np.asarray(b)) == numpy.min_scalar_type(b)
    assert np.min_scalar_type(np.asarray(300)) == numpy.min_scalar_type(numpy.asarray(300))
    assert np.min_scalar_type(-5.5) == numpy.min_scalar_type(-5.5)


def test_memory_sharing() -> None:
    data = _data("float64")
    base, other = np.asarray(data, chunks=2), np.asarray(data.copy())
    for name in ("shares_memory", "may_share_memory"):
        ours, theirs = getattr(np, name), getattr(numpy, name)
        assert ours(base, base[1:, ::2]) == theirs(data, data[1:, ::2])
        assert ours(base.T, base) == theirs(data.T, data)
        assert ours(base, other) == theirs(data, data.copy())


def test_layout_helpers() -> None:
    data = _data("int32")
    x = np.asarray(data, chunks=(2, 2))
    for name in ("ascontiguousarray", "asfortranarray"):
        assert_eq(getattr(np, name)(x), getattr(numpy, name)(data))
        assert_eq(getattr(np, name)(x, dtype="f4"), getattr(numpy, name)(data, dtype="f4"))
        assert_eq(getattr(np, name)(np.asarray(3.0)), getattr(numpy, name)(numpy.asarray(3.0)))
    assert np.isfortran(x) == numpy.isfortran(data)
    assert_eq(np.require(x, "f8", ["C", "A"]), numpy.require(data, "f8", ["C", "A"]))
    assert_raises_like(lambda: numpy.require(data, None, "Z"), lambda: np.require(x, None, "Z"))


def test_asarray_chkfinite() -> None:
    finite = _data("float64")
    assert_eq(np.asarray_chkfinite(np.asarray(finite, chunks=2)), numpy.asarray_chkfinite(finite))
    assert_eq(np.asarray_chkfinite([1, 2], dtype="f4"), numpy.asarray_chkfinite([1, 2], dtype="f4"))
    assert_raises_like(
        lambda: numpy.asarray_chkfinite(SPECIAL),
        lambda: np.asarray_chkfinite(np.asarray(SPECIAL, chunks=1)),
    )
