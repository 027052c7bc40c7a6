"""Assertions that compare our arrays with NumPy, the oracle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy

from ._api.ndarray import ndarray
from ._backends import get_backend
from ._runtime.distributed_internals import meta_of

# The dtypes the parity tests sweep (the core issue's list): one table for every test file.
PARITY_DTYPES: tuple[str, ...] = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex128",
)


def assert_eq(
    actual: Any,
    expected: Any,
    *,
    rtol: float = 0.0,
    atol: float = 0.0,
    check_chunk_type: bool = True,
) -> None:
    """``actual`` (ours) equals ``expected`` (NumPy's) in shape, dtype and values.

    Values must be equal (NaN equals NaN, signed zeros too) unless tolerances are given.
    When ``actual`` is our array, its chunks must also be of the backend's chunk type.
    """
    if isinstance(expected, numpy.ndarray) or isinstance(actual, ndarray):
        assert isinstance(actual, ndarray), (
            f"expected a dask_gpunumeric.ndarray, got {type(actual)}"
        )
    if isinstance(actual, ndarray):
        if check_chunk_type:
            chunk_type = type(meta_of(actual.to_dask()))
            backend = get_backend()
            assert chunk_type is backend.chunk_type, (
                f"chunks are {chunk_type}, backend is {backend.name}"
            )
        actual_host = actual.compute()
    else:
        actual_host = actual
    expected_host = numpy.asarray(expected)
    actual_host = numpy.asarray(actual_host)
    assert actual_host.shape == expected_host.shape, (
        f"shape {actual_host.shape} != {expected_host.shape}"
    )
    assert actual_host.dtype == expected_host.dtype, (
        f"dtype {actual_host.dtype} != {expected_host.dtype}"
    )
    if rtol or atol:
        numpy.testing.assert_allclose(
            actual_host, expected_host, rtol=rtol, atol=atol, equal_nan=True
        )
    else:
        numpy.testing.assert_array_equal(actual_host, expected_host, strict=True)


def assert_raises_like(numpy_call: Callable[[], Any], our_call: Callable[[], Any]) -> BaseException:
    """Both calls raise, and ours raises the exception class NumPy raises."""
    try:
        numpy_call()
    except Exception as numpy_error:  # noqa: BLE001 - any exception NumPy raises is the oracle
        expected = type(numpy_error)
    else:
        raise AssertionError("NumPy did not raise: the test case is wrong")
    try:
        our_call()
    except Exception as error:  # noqa: BLE001
        assert isinstance(error, expected), (
            f"raised {type(error).__name__}: {error}; NumPy raises {expected.__name__}"
        )
        return error
    raise AssertionError(f"did not raise; NumPy raises {expected.__name__}")


def numbered_values(
    shape: tuple[int, ...], dtype: str = "float64", *, shuffled: bool = False
) -> numpy.ndarray:
    """Distinct, exactly representable test values ``1, 2, ...`` of ``shape`` (``shuffled``:
    ``k * 7 % 11`` instead, unsorted with repeats); bool arrays are ``k % 3 == 0`` and complex
    ones get a reversed imaginary part."""
    values = numpy.arange(1, 1 + int(numpy.prod(shape)))
    values = (values * 7 % 11 if shuffled else values).reshape(shape)
    if dtype == "bool":
        return values % 3 == 0
    if dtype.startswith("complex"):
        return (values + 1j * values[::-1].reshape(shape)).astype(dtype)
    return values.astype(dtype)


def check_case(
    case: Callable[[Any, Any], Any], host_input: numpy.ndarray, chunks: Any = None
) -> None:
    """``case(module, array)`` run on NumPy and on ours from the same input: each result (or
    each of a list's or tuple's) compared with :func:`assert_eq`."""
    import dask_gpunumeric

    expected = case(numpy, host_input.copy())
    ours = case(dask_gpunumeric, dask_gpunumeric.array(host_input, chunks=chunks))
    if isinstance(expected, (list, tuple)):
        assert isinstance(ours, type(expected)) and len(ours) == len(expected)
        for mine, theirs in zip(ours, expected, strict=True):
            assert_eq(mine, theirs)
    else:
        assert_eq(ours, expected)
