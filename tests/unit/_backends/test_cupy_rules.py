"""The simulated device follows CuPy's argument rules and arithmetic where they differ
from NumPy's (``_backends/cupy_rules.py``): each rule here failed on the H100 first."""

from __future__ import annotations

import numpy
import pytest

from dask_gpunumeric._backends import get_backend


@pytest.fixture
def device():
    return get_backend("simulated-device")


def test_quantile_takes_a_one_dimensional_q_and_five_methods(device) -> None:
    chunk = device.from_host(numpy.arange(12.0).reshape(3, 4))
    with pytest.raises(ValueError, match="Expected q to have a dimension of 1"):
        device.xp.quantile(chunk, [[0.2], [0.9]], axis=0)
    with pytest.raises(ValueError, match="Expected q to have a dimension of 1"):
        numpy.percentile(chunk, [[20.0], [90.0]], axis=0)
    with pytest.raises(ValueError, match="'hazen' method is not yet supported"):
        numpy.quantile(chunk, 0.5, method="hazen")
    assert device.to_host(device.xp.quantile(chunk, [0.0, 1.0], axis=1)).tolist() == [
        [0.0, 4.0, 8.0],
        [3.0, 7.0, 11.0],
    ]


def test_float32_linear_quantile_fuses_its_multiply_add() -> None:
    """CuPy's kernel rounds ``a + d * w`` once; NumPy rounds the product and the sum."""
    data = (numpy.random.default_rng(3).standard_normal((5, 6, 4)) * 10).astype("float32")
    device = get_backend("simulated-device")
    cupy_like = device.to_host(device.xp.quantile(device.from_host(data), 0.35, axis=0))
    assert cupy_like.dtype == numpy.float32
    numpy.testing.assert_array_max_ulp(cupy_like, numpy.quantile(data, 0.35, axis=0), 1)
    assert (cupy_like != numpy.quantile(data, 0.35, axis=0)).any()


def test_solve_wants_equal_batch_dimensions_for_a_matrix_right_hand_side(device) -> None:
    a = device.from_host(numpy.stack([numpy.eye(3)] * 2))
    with pytest.raises(ValueError, match=r"b must have \(\.\.\., M, K\) for multidimensional b"):
        numpy.linalg.solve(a, device.from_host(numpy.ones((3, 2))))
    with pytest.raises(ValueError, match=r"b must have \(\.\.\., M, K\)"):
        device.xp.linalg.solve(a, device.from_host(numpy.ones((1, 3, 2))))
    vector = device.xp.linalg.solve(a, device.from_host(numpy.ones(3)))
    same_batch = device.xp.linalg.solve(a, device.from_host(numpy.ones((2, 3, 2))))
    assert vector.shape == (2, 3) and same_batch.shape == (2, 3, 2)


def test_integer_power_to_a_negative_exponent_does_not_raise(device) -> None:
    """``cupy.power``'s ``integral_power``: 0, or 1 and -1 for the bases 1 and -1."""
    base = device.from_host(numpy.array([2, 1, -1, -1, 3]))
    exponent = device.from_host(numpy.array([-1, -3, -3, -2, 2]))
    assert device.to_host(base**exponent).tolist() == [0, 1, -1, 1, 9]
    assert device.to_host(device.xp.power(base, -1)).tolist() == [0, 1, -1, -1, 0]
    with pytest.raises(ValueError, match="negative integer powers"):
        numpy.power(numpy.array([2]), numpy.array([-1]))  # NumPy's own loop raises


def test_where_wants_an_array_condition_and_clip_keeps_cupys_kernel(device) -> None:
    with pytest.raises(AttributeError, match="'bool' object has no attribute 'astype'"):
        device.xp.where(True, 1, 2)
    chunk = device.from_host(numpy.array([-1.0, 0.5, 3.0]))
    assert device.to_host(numpy.clip(chunk, numpy.nan, 1.0)).tolist() == [-1.0, 0.5, 1.0]
    assert device.to_host(device.xp.clip(chunk, 1.0, 0.0)).tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(TypeError, match="Unsupported type <class 'NoneType'>"):
        device.xp.clip(device.from_host(numpy.array([True, False])), None, 1)


def test_nanargmax_gives_minus_one_for_an_all_nan_lane_and_unravel_refuses_it(device) -> None:
    chunk = device.from_host(numpy.array([[numpy.nan, numpy.nan], [1.0, numpy.nan]]))
    assert device.to_host(numpy.nanargmax(chunk, axis=1)).tolist() == [-1, 0]
    assert device.to_host(device.xp.nanargmin(chunk, axis=0)).tolist() == [1, -1]
    with pytest.raises(ValueError, match="invalid entry in index array"):
        numpy.unravel_index(device.from_host(numpy.array(-1)), (2, 2))
